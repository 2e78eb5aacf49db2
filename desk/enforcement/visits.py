"""Rules of a case visit on the inspector's day (Hudson 140-2, 140-3A(3), 140-10A): what it is
for when none is given, the day a re-inspection is suggested, the time as the route reads it,
and the words the route sheet prints for it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from desk.enforcement.model import VisitPurpose, VisitStatus
from desk.errors import ValidationError

# What the route sheet and the Day page call each visit, with the section it rests on.
PURPOSE_LABELS: dict[VisitPurpose, str] = {
    VisitPurpose.INSPECTION: "Code enforcement: inspection (140-2)",
    VisitPurpose.REINSPECTION: "Code enforcement: re-inspection (140-3)",
    VisitPurpose.LICENCE: "Code enforcement: licence inspection (140-10A)",
}

# The visit in a sentence: "Case CE-2026-0008 has a re-inspection scheduled on ...".
PURPOSE_WORDS: dict[VisitPurpose, str] = {
    VisitPurpose.INSPECTION: "an inspection",
    VisitPurpose.REINSPECTION: "a re-inspection",
    VisitPurpose.LICENCE: "a licence inspection",
}

_TIME = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?\s*$", re.IGNORECASE)


def purpose_label(purpose: VisitPurpose) -> str:
    return PURPOSE_LABELS[purpose]


def default_purpose(inspections: int) -> VisitPurpose:
    """The first visit inspects the complaint (140-2); every later one re-inspects (140-3)."""
    return VisitPurpose.INSPECTION if inspections == 0 else VisitPurpose.REINSPECTION


def reinspection_day(open_correct_by: Iterable[date]) -> date | None:
    """The earliest correction date of the open violations: a violation can be found not
    corrected only on or after its date (140-3A(3)). None when nothing is open."""
    return min(open_correct_by, default=None)


def suggested_day(purpose: VisitPurpose, open_correct_by: Iterable[date], today: date) -> date:
    """Today for an inspection; the earliest open correction date for a re-inspection, or today
    when that date has passed."""
    if purpose is VisitPurpose.REINSPECTION:
        due = reinspection_day(open_correct_by)
        if due is not None and due > today:
            return due
    return today


def visit_time(text: str) -> str:
    """'9:30', '09:30', '9:30 am', '2 PM' -> 'HH:MM' on a 24-hour clock; '' for any time that
    day. Refused in words otherwise."""
    if not text.strip():
        return ""
    m = _TIME.match(text)
    if m is None:
        raise ValidationError("time", f"“{text.strip()}” is not a time such as 9:30 or 2:15 PM")
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    half = (m.group(3) or "").lower().replace(".", "")
    if half:
        if not 1 <= hour <= 12:
            raise ValidationError("time", f"“{text.strip()}” is not a time of day")
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise ValidationError("time", f"“{text.strip()}” is not a time of day")
    return f"{hour:02d}:{minute:02d}"


def time_words(hhmm: str) -> str:
    """'14:30' -> '2:30 PM' as the office writes it; '' stays ''."""
    if not hhmm:
        return ""
    hour, minute = (int(x) for x in hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def time_key(text: str) -> str:
    """Sorts a stop's time within its day: 'HH:MM' as is, a morning before an afternoon, any
    time of day last ('AM', 'PM' are what a caller may ask for a permit inspection)."""
    t = text.strip().upper()
    if t == "AM":
        return "11:59"
    if t == "PM":
        return "23:59"
    return t if re.fullmatch(r"\d\d:\d\d", t) else "99:99"


@dataclass(frozen=True)
class VisitLine:
    """A case's visit as the case window reads it (db/inspection_queries.case_visits)."""

    id: int
    purpose: VisitPurpose
    scheduled_on: date
    scheduled_time: str
    inspector_id: int | None
    inspector_name: str
    status: VisitStatus
    inspection_id: int | None
    notes: str
    version: int
