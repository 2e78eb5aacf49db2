"""Hudson 140-3D: a notice served and not petitioned within 10 days becomes an order. Under
Wis. Stat. ch. 68 (Ch. 512) a determination with no request for review within 30 days of notice
(68.08) stands: it is recorded the same way, as the notice's automatic order."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from desk.clock import Clock
from desk.domain.model import Actor
from desk.enforcement import deadlines, rules
from desk.enforcement.computing_time import OfficeCalendar
from desk.enforcement.model import (
    EnforcementOrder,
    Notice,
    NoticeItem,
    OrderKind,
    Violation,
    ViolationState,
)
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class OrderMade:
    case_number: str
    notice_id: int
    order_id: int
    effective_on: date
    # Why: "no petition within 10 days (140-3D)", "no review requested within 30 days (Wis.
    # Stat. 68.08)" (the case's procedure, desk/enforcement/procedure.py).
    reason: str = ""


def sweep_notices(
    uow: UnitOfWork, clock: Clock, municipality_id: int, actor: Actor | None = None
) -> list[OrderMade]:
    """Make an order of every notice whose addressees were all served, whose petition windows
    have all closed and on which no timely petition was filed (140-3D); effective the day
    after the last window closed. Idempotent: run on start and by `permitdesk enforcement
    sweep`; a notice that is an order already is left alone (and the database allows one
    automatic order per notice). The order is on the case's timeline and in the audit trail."""
    today = clock.today()
    made: list[OrderMade] = []
    with uow:
        uow.act_as(actor, clock.now())
        # The earliest order falls the day after a window closes: served on or before this.
        # No procedure gives fewer days than 140-3B's 10 (procedure.py checks the office's).
        served_by = today - timedelta(days=deadlines.PETITION_DAYS + 1)  # no later window
        for candidate in uow.enforcement.notices_awaiting_order(municipality_id, served_by):
            assert candidate.id is not None
            c, n = _common.notice_locked(uow, candidate.id)
            if c.closed_on is not None:
                continue
            cal = _common.calendar(uow, c.municipality_id)
            proc = _common.procedure(uow, c)
            effective_on = rules.due_for_order(_common.facts(uow, n, cal, proc), today)
            if effective_on is None:
                continue
            assert c.id is not None and n.id is not None
            _own_correction_dates(uow, n, effective_on, cal)
            order = EnforcementOrder(
                notice_id=n.id,
                case_id=c.id,
                kind=OrderKind.AUTOMATIC,
                effective_on=effective_on,
                at=clock.now(),
            )
            uow.enforcement.add(order)
            uow.flush()
            assert order.id is not None
            made.append(OrderMade(c.number, n.id, order.id, effective_on, proc.no_filing))
        uow.commit()
    return made


def _own_correction_dates(
    uow: UnitOfWork, n: Notice, effective_on: date, cal: OfficeCalendar
) -> None:
    """The order carries its own correction dates: a violation whose notice date fell before
    the order took effect (the notice was served late) gets the notice's period again, counted
    from the order, so it is never past due before the order exists (140-3A(3), 140-3D)."""
    for item in uow.enforcement.find(NoticeItem, notice_id=n.id):
        v = _common.row(uow, Violation, item.violation_id, "violation")
        if v.state is ViolationState.OPEN and v.correct_by < effective_on:
            v.correct_by = deadlines.order_correction_date(
                effective_on, n.issued_on, item.correct_by, cal
            )
