"""Business days: weekends and Wisconsin/US public holidays are not "regular business days"."""

from __future__ import annotations

from datetime import date
from functools import cache
from typing import Any


@cache
def _wi_holidays(year: int) -> Any:
    import holidays  # loaded on first use: it is slow to import and most screens never need it

    return holidays.country_holidays("US", subdiv="WI", years=year)


def is_holiday(day: date) -> bool:
    return day in _wi_holidays(day.year)


def is_business_day(day: date) -> bool:
    return day.weekday() < 5 and not is_holiday(day)
