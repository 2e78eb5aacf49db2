"""Dates as a clerk types them, read with plain Python (no Qt, no time zone).

A typed date is a calendar date: it is never turned into a moment and back, so it cannot come
out a day off. Accepted: 12/3/26, 12/03/2026, 12-3-2026, 2026-12-03, 12/3 (this year),
"today"/"t", "yesterday"/"y", "tomorrow", and "+3"/"-3" (days from today). Anything else is
refused with a reason; nothing is guessed (a bare "6100" is not a date).
"""

from __future__ import annotations

import re
from datetime import date, time, timedelta

from desk.dates import short_date

EXAMPLE = "MM/DD/YYYY (e.g. 12/03/2026), “today”, or +3 / −3 days"

_WORDS = {"t": 0, "today": 0, "y": -1, "yesterday": -1, "tomorrow": 1}
_US = re.compile(r"(\d{1,2})\s*([/-])\s*(\d{1,2})(?:\s*\2\s*(\d{2}|\d{4}))?")
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DAYS = re.compile(r"([+\-−])\s*(\d{1,4})")


class DateTextError(ValueError):
    """The text is not a date; the message says why, in words for the clerk."""


def full_year(two_digits: int, today: date) -> int:
    """The year a two-digit year means: the one nearest to today's year (a tie goes to the
    past). With today in 2026, "26" is 2026, "75" is 2075 and "76" is 1976: the dates an
    office types are near today, so the nearest century is the one meant."""
    candidates = [
        century + two_digits for century in (today.year // 100 * 100 + d for d in (-100, 0, 100))
    ]
    return min(candidates, key=lambda year: (abs(year - today.year), year > today.year))


def parse_date(text: str, today: date) -> date:
    """The calendar date `text` names; DateTextError when it names none."""
    typed = text.strip().lower()
    if not typed:
        raise DateTextError("type a date")
    if typed in _WORDS:
        return today + timedelta(days=_WORDS[typed])
    if m := _DAYS.fullmatch(typed):
        days = int(m.group(2))
        return today + timedelta(days=-days if m.group(1) in "-−" else days)
    if m := _ISO.fullmatch(typed):
        return _day(int(m.group(1)), int(m.group(2)), int(m.group(3)), text)
    if m := _US.fullmatch(typed):
        year_text = m.group(4)
        if year_text is None:
            year = today.year
        elif len(year_text) == 2:
            year = full_year(int(year_text), today)
        else:
            year = int(year_text)
        return _day(year, int(m.group(1)), int(m.group(3)), text)
    raise DateTextError(f"“{text.strip()}” is not a date; type it as {EXAMPLE}")


def _day(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise DateTextError(
            f"“{text.strip()}” is not a date on the calendar; type it as {EXAMPLE}"
        ) from None


def date_text(day: date) -> str:
    """How a date field shows a date: MM/DD/YYYY."""
    return short_date(day)


TIME_EXAMPLE = "2:30 PM, 2:30pm, 14:30 or “noon”"
_TIME = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?\s*(a|am|a\.m\.|p|pm|p\.m\.)?")


def parse_time(text: str) -> time:
    """The time of day `text` names (2:30 PM, 2:30pm, 2 pm, 14:30, noon, midnight); a
    DateTextError when it names none."""
    typed = text.strip().lower()
    if not typed:
        raise DateTextError("type a time")
    if typed in ("noon", "midnight"):
        return time(12 if typed == "noon" else 0, 0)
    m = _TIME.fullmatch(typed)
    if m is None or (m.group(2) is None and m.group(3) is None):  # a bare "6100" is no time
        raise DateTextError(f"“{text.strip()}” is not a time; type it as {TIME_EXAMPLE}")
    hour, minute, half = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if half is not None:
        if not 1 <= hour <= 12:
            raise DateTextError(f"“{text.strip()}”: with AM or PM the hour is 1 to 12")
        hour = hour % 12 + (12 if half.startswith("p") else 0)
    if hour > 23 or minute > 59:
        raise DateTextError(f"“{text.strip()}” is not a time of day")
    return time(hour, minute)


def time_text(at: time) -> str:
    """How a time field shows a time: 2:30 PM."""
    return f"{(at.hour - 1) % 12 + 1}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"
