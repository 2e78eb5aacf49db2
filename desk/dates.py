"""How a date reads to a person: the US short date, '03/02/2026', one rule for every screen.

Messages, rule explanations, status lines, labels and printouts use these. ISO dates
('2026-03-02') belong only in text meant for machines: file names, JSON/CSV/TOML, audit keys.
Not strftime: '%m/%d/%Y' is fine, but '%B'/'%p' follow the workstation's locale.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time


def short_date(d: date) -> str:
    """MM/DD/YYYY, as the office writes dates on paper: date(2026, 3, 2) -> '03/02/2026'."""
    return f"{d.month:02d}/{d.day:02d}/{d.year:04d}"


def short_time(at: datetime) -> str:
    """The clock time on a 12-hour clock, as written: '9:05 AM', '12:30 PM'."""
    hour = at.hour % 12 or 12
    half = "AM" if at.hour < 12 else "PM"
    return f"{hour}:{at.minute:02d} {half}"


def stop_time(text: str) -> str:
    """A visit's time as written: '09:30' -> '9:30 AM'; 'AM', 'PM' or '' as they are (a permit
    caller's morning or afternoon; a case visit with no time)."""
    m = re.fullmatch(r"(\d{1,2}):(\d\d)", text.strip())
    if m is None or int(m[1]) > 23 or int(m[2]) > 59:
        return text
    return short_time(datetime.combine(date.min, time(int(m[1]), int(m[2]))))


def short_timestamp(at: datetime) -> str:
    """A date and time as they read, in the time zone `at` carries: '03/02/2026 9:05 AM'.

    Converting a stored UTC time to the workstation's zone is the caller's business
    (`at.astimezone()`), so the rule itself stays pure.
    """
    return f"{short_date(at.date())} {short_time(at)}"
