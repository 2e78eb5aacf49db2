"""The day arithmetic of Hudson 140-3, each rule in one pure function.

Reading of "within 10 days after service" (140-3B, 140-3D): the day of service is not counted
(Wis. s. 990.001(4): exclude the first day, include the last), so a notice served on day S may
be petitioned through S+10 inclusive, in calendar days; the chapter names no extension for a
weekend or holiday, so none is made. The window runs from each addressee's own service.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

PETITION_DAYS = 10  # 140-3B, 140-3D


def petition_last_day(served_on: date) -> date:
    """The last day a petition is timely for a notice served on `served_on` (140-3B)."""
    return served_on + timedelta(days=PETITION_DAYS)


def petition_timely(served_on: date, filed_on: date) -> bool:
    """140-3B: filed within 10 days after service (S+10 inclusive). A petition filed before
    service (the addressee heard of it) is timely too."""
    return filed_on <= petition_last_day(served_on)


def window_open(served_on: date, today: date) -> bool:
    return today <= petition_last_day(served_on)


def automatic_order_day(served_on: Iterable[date]) -> date:
    """140-3D: the notice becomes an order the day after the last addressee's window closed."""
    days = list(served_on)
    if not days:
        raise ValueError("a notice that was never served does not become an order")
    return petition_last_day(max(days)) + timedelta(days=1)


def correction_date(inspected_on: date, days: int) -> date:
    """140-3A(3): a reasonable time to correct; by default the housing code item's days after
    the inspection that found it."""
    if days < 0:
        raise ValueError("days to correct must not be negative")
    return inspected_on + timedelta(days=days)


def emergency_order_day(issued_on: date) -> date:
    """140-3H: an emergency order is effective immediately, the day it is issued."""
    return issued_on


def council_order_day(decided_on: date) -> date:
    """140-3C: a sustained or modified notice is an order from the Council's decision."""
    return decided_on


def past_due(correct_by: date, today: date) -> bool:
    """A violation not corrected by its correction date is past due the day after."""
    return today > correct_by
