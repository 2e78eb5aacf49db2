"""Hudson 140-3D: a notice served and not petitioned within 10 days becomes an order."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from desk.clock import Clock
from desk.domain.model import Actor
from desk.enforcement import deadlines, rules
from desk.enforcement.model import EnforcementOrder, OrderKind
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class OrderMade:
    case_number: str
    notice_id: int
    order_id: int
    effective_on: date


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
        served_by = today - timedelta(days=deadlines.PETITION_DAYS + 1)
        for candidate in uow.enforcement.notices_awaiting_order(municipality_id, served_by):
            assert candidate.id is not None
            c, n = _common.notice_locked(uow, candidate.id)
            if c.closed_on is not None:
                continue
            effective_on = rules.due_for_order(_common.facts(uow, n), today)
            if effective_on is None:
                continue
            assert c.id is not None and n.id is not None
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
            made.append(OrderMade(c.number, n.id, order.id, effective_on))
        uow.commit()
    return made
