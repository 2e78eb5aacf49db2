"""Computing a period of days as Wisconsin's rule for construing statutes reads it (Wis. Stat.
990.001(4)); every ordinance period counted in days goes through `last_day`.

- (4)(a): the first day is excluded and the last included: a 10-day window after service on
  day S closes at the end of S+10.
- (4)(b): a last day that falls on a Sunday or a legal holiday moves to the next secular day.
- (4)(c): a last day on a Saturday moves to the next day that is not a Sunday or a legal holiday
  when the act is a payment to, a service upon or a filing with an officer of the city, village
  or town (a petition filed at the office) and the office's established hours include none on
  Saturday. It does not reach an act done elsewhere (correcting a violation), nor any other day
  the office is closed: the statute names none.
- Legal holidays are those of Wis. Stat. 995.20; one that falls on a Sunday is observed the
  Monday after. Good Friday's 11 a.m. to 3 p.m. is not a whole day and extends nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from desk.dates import short_date

OPEN_SATURDAYS_SETTING = "office_open_saturdays"  # municipality.settings: office hours on Saturday

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> date:
    nxt = date(year + month // 12, month % 12 + 1, 1)
    last = nxt - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


@lru_cache(maxsize=64)
def legal_holidays(year: int) -> Mapping[date, str]:
    """Wis. Stat. 995.20's legal holidays in `year`, each on the day it is observed."""
    mon, thu = 0, 3
    days = {
        date(year, 1, 1): "New Year's Day",
        _nth_weekday(year, 1, mon, 3): "Martin Luther King, Jr. Day",
        _nth_weekday(year, 2, mon, 3): "Presidents' Day",
        _last_weekday(year, 5, mon): "Memorial Day",
        date(year, 6, 19): "Juneteenth Day",
        date(year, 7, 4): "Independence Day",
        _nth_weekday(year, 9, mon, 1): "Labor Day",
        _nth_weekday(year, 10, mon, 2): "Columbus Day",
        date(year, 11, 11): "Veterans Day",
        _nth_weekday(year, 11, thu, 4): "Thanksgiving Day",
        date(year, 12, 25): "Christmas Day",
    }
    if year % 2 == 0:  # the general election: the Tuesday after the first Monday in November
        days[_nth_weekday(year, 11, mon, 1) + timedelta(days=1)] = "general election day"
    observed: dict[date, str] = {}
    for day, name in days.items():
        if day.weekday() == 6:  # 995.20: a holiday on a Sunday is kept the Monday after
            observed[day + timedelta(days=1)] = f"{name} (observed)"
        observed.setdefault(day, name)
    return observed


@dataclass(frozen=True)
class LastDay:
    """The last day an act may be done, and why it is later than the count, if it is."""

    counted: date  # start + days: the day the count reaches
    day: date  # the last day, after 990.001(4)(b) and (c)
    reason: str = ""  # "Saturday 07/11/2026 the office is closed" ...

    @property
    def extended(self) -> bool:
        return self.day != self.counted

    def text(self) -> str:
        """'07/13/2026' or 'Monday 07/13/2026 (extended: Saturday 07/11/2026 the office is
        closed; Wis. Stat. 990.001(4))'."""
        if not self.extended:
            return short_date(self.day)
        return (
            f"{WEEKDAYS[self.day.weekday()]} {short_date(self.day)} (extended: {self.reason}; "
            "Wis. Stat. 990.001(4))"
        )


@dataclass(frozen=True)
class OfficeCalendar:
    """The office's days as the statute sees them: whether its hours include Saturday."""

    open_saturdays: bool = False

    @classmethod
    def of(cls, settings: Mapping[str, Any] | None) -> OfficeCalendar:
        return cls(open_saturdays=bool((settings or {}).get(OPEN_SATURDAYS_SETTING, False)))

    def closed_because(self, day: date, *, filing: bool) -> str:
        """Why an act due on `day` may be done the day after; "" when it may not."""
        holiday = legal_holidays(day.year).get(day)
        when = f"{WEEKDAYS[day.weekday()]} {short_date(day)}"
        if holiday:
            return f"{when} is a legal holiday, {holiday}"
        if day.weekday() == 6:
            return f"{when} is a Sunday"
        if day.weekday() == 5 and filing and not self.open_saturdays:
            return f"{when} the office is closed"
        return ""

    def last_day(self, start: date, days: int, *, filing: bool) -> LastDay:
        """The last day of a period of `days` days after `start` (990.001(4)). `filing`: the
        act is done at the office (a petition filed), so (4)(c)'s Saturday applies."""
        if days < 0:
            raise ValueError("a period of days must not be negative")
        counted = day = start + timedelta(days=days)
        first_reason = ""
        while reason := self.closed_because(day, filing=filing):
            first_reason = first_reason or reason
            day += timedelta(days=1)
        return LastDay(counted, day, first_reason)


STATUTE = OfficeCalendar()  # an office with no Saturday hours, as most are
