"""The day arithmetic of Hudson 140-3, each rule in one pure function.

Reading of "within 10 days after service" (140-3B, 140-3D): the day of service is not counted
and the last day is (Wis. Stat. 990.001(4)(a)), so a notice served on day S may be petitioned
through S+10; a last day on a Sunday or legal holiday, or on a Saturday when the office has no
Saturday hours, moves to the next day the office is open for filing (990.001(4)(b), (c); see
desk/enforcement/computing_time.py). The window runs from each addressee's own service.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from desk.enforcement.computing_time import STATUTE, LastDay, OfficeCalendar

PETITION_DAYS = 10  # 140-3B, 140-3D
# The most days 990.001(4) can add to a last day (a Saturday, then a Sunday, then a Monday
# holiday): a query looks this much further back, then asks petition_last_day.
MOST_EXTENSION_DAYS = 4


def petition_window(
    served_on: date, cal: OfficeCalendar = STATUTE, days: int = PETITION_DAYS
) -> LastDay:
    """The petition's last day with why it was extended, if it was (140-3B; 990.001(4)).
    `days`: the case's procedure's period (Wis. Stat. 68.08: 30 days of notice for a request
    for review; desk/enforcement/procedure.py)."""
    return cal.last_day(served_on, days, filing=True)


def petition_last_day(
    served_on: date, cal: OfficeCalendar = STATUTE, days: int = PETITION_DAYS
) -> date:
    """The last day a petition is timely for a notice served on `served_on` (140-3B)."""
    return petition_window(served_on, cal, days).day


def petition_timely(
    served_on: date, filed_on: date, cal: OfficeCalendar = STATUTE, days: int = PETITION_DAYS
) -> bool:
    """140-3B: filed within 10 days after service (68.08: a request for review within 30 days
    of notice). A petition filed before service (the addressee heard of it) is timely too."""
    return filed_on <= petition_last_day(served_on, cal, days)


def window_open(
    served_on: date, today: date, cal: OfficeCalendar = STATUTE, days: int = PETITION_DAYS
) -> bool:
    return today <= petition_last_day(served_on, cal, days)


def automatic_order_day(
    served_on: Iterable[date], cal: OfficeCalendar = STATUTE, days: int = PETITION_DAYS
) -> date:
    """140-3D: the notice becomes an order the day after the last addressee's window closed
    (68.08: with no request for review the determination stands the day after the 30 days)."""
    served = list(served_on)
    if not served:
        raise ValueError("a notice that was never served does not become an order")
    return max(petition_last_day(d, cal, days) for d in served) + timedelta(days=1)


def earliest_order_day(
    issued_on: date, cal: OfficeCalendar = STATUTE, days: int = PETITION_DAYS
) -> date:
    """The first day a notice issued on `issued_on` can become an order (served the day it was
    issued, no petition): a correction date before it cannot be enforced as an order's."""
    return automatic_order_day([issued_on], cal, days)


# Wis. Stat. ch. 68 after a request for review; `days` are the procedure's periods.


def review_due(received_on: date, days: int, cal: OfficeCalendar = STATUTE) -> date:
    """68.09(3): the decision on review within 15 days of receipt of the request. The
    authority acts; it is no filing at the office, so only a Sunday or holiday extends it."""
    return cal.last_day(received_on, days, filing=False).day


def appeal_last_day(decision_noticed_on: date, days: int, cal: OfficeCalendar = STATUTE) -> date:
    """68.10(2): an appeal within 30 days of notice of the decision on review, filed with or
    mailed to the office (990.001(4)(c) applies)."""
    return cal.last_day(decision_noticed_on, days, filing=True).day


def hearing_last_day(appeal_received_on: date, days: int, cal: OfficeCalendar = STATUTE) -> date:
    """68.11(1): the hearing on the appeal within 15 days of receipt of the notice of appeal."""
    return cal.last_day(appeal_received_on, days, filing=False).day


def hearing_notice_enough(notice_sent_on: date, hearing_on: date, days: int) -> bool:
    """68.11(1): the appellant served with notice of the hearing at least 10 days before it."""
    return (hearing_on - notice_sent_on).days >= days


def final_due(hearing_on: date, days: int, cal: OfficeCalendar = STATUTE) -> date:
    """68.12(1): the final determination within 20 days of completion of the hearing (and the
    filing of briefs, if any)."""
    return cal.last_day(hearing_on, days, filing=False).day


def correction_date(inspected_on: date, days: int, cal: OfficeCalendar = STATUTE) -> date:
    """140-3A(3): a reasonable time to correct; by default the housing code item's days after
    the inspection that found it. Correcting is not done at the office: only a Sunday or a
    legal holiday moves the last day (990.001(4)(b))."""
    if days < 0:
        raise ValueError("days to correct must not be negative")
    return cal.last_day(inspected_on, days, filing=False).day


def order_correction_date(
    effective_on: date, notice_issued_on: date, notice_correct_by: date, cal: OfficeCalendar
) -> date:
    """An order's own correction date (140-3A(3), 140-3D): the notice's date when it is on or
    after the day the order takes effect; otherwise the notice's period to correct counted
    again from the day before the order, so a violation is never past due before the order
    exists."""
    if notice_correct_by >= effective_on:
        return notice_correct_by
    period = max((notice_correct_by - notice_issued_on).days, 1)
    return cal.last_day(effective_on - timedelta(days=1), period, filing=False).day


def emergency_order_day(issued_on: date) -> date:
    """140-3H: an emergency order is effective immediately, the day it is issued."""
    return issued_on


def council_order_day(decided_on: date) -> date:
    """140-3C: a sustained or modified notice is an order from the Council's decision."""
    return decided_on


def past_due(correct_by: date, today: date) -> bool:
    """A violation not corrected by its correction date is past due the day after."""
    return today > correct_by
