"""Petitions for a hearing (Hudson 140-3B), the Common Council's hearing and its decision
(140-3C; for an emergency order 140-3H)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import deadlines, rules
from desk.enforcement.model import (
    Decision,
    EnforcementOrder,
    Escalation,
    Notice,
    NoticeItem,
    NoticeKind,
    OrderKind,
    Petition,
    Violation,
    ViolationState,
)
from desk.enforcement.procedure import Procedure
from desk.errors import RuleViolation, ValidationError
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class PetitionRecorded:
    petition_id: int
    timely: bool
    last_day: date | None  # the addressee's last day (None: not yet served, or emergency)


def record_petition(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    addressee_id: int,
    filed_on: date,
    petitioner: str,
    grounds: str,
) -> PetitionRecorded:
    """The clerk records a written petition for a hearing filed in the office (140-3B), by or
    for an addressee of the notice. It is timely when filed within 10 days after that
    addressee's service (desk/enforcement/deadlines.py); a timely petition stops the notice
    from becoming an order (140-3D). A late one is recorded as late. A petition against an
    emergency order is heard whenever filed (140-3H)."""
    require(actor, Permission.RECORD_PETITION)
    rules.check_not_future("filed on", filed_on, clock.today())
    petitioner = rules.text("petitioner", petitioner)
    grounds = rules.text("grounds", grounds)  # 140-3B: "a brief statement of the grounds"
    with uow:
        uow.act_as(actor, clock.now())
        c, n, a = _common.addressee_locked(uow, addressee_id)
        rules.check_open(c.closed_on, c.number)
        proc = _common.procedure(uow, c)  # Hudson 140-3B, or a request for review (68.08)
        if n.decision is not None:
            on = short_date(n.decided_on or filed_on)
            raise RuleViolation(f"{proc.decider} decided on this notice on {on}")
        _common.not_before("filed on", filed_on, n.issued_on, "the notice was issued")
        assert a.id is not None and n.id is not None
        served = _common.service_of(uow, a)  # an owner served through the agent too
        cal = _common.calendar(uow, c.municipality_id)
        last_day = None
        if n.kind is NoticeKind.EMERGENCY:
            timely = True
        elif served is None:
            timely = True  # before service: the window has not begun
        else:
            days = proc.request.days
            last_day = deadlines.petition_last_day(served, cal, days)
            timely = deadlines.petition_timely(served, filed_on, cal, days)
        if timely:
            # Judged by the day it was filed, not the day it is typed: an automatic order the
            # sweep made in between did not arise (140-3B, 140-3D) and is set aside.
            for order in _common.orders_in_effect(uow, n.id):
                if order.kind is OrderKind.AUTOMATIC:
                    if uow.enforcement.find(Escalation, order_id=order.id):
                        raise RuleViolation(
                            f"The order of {short_date(order.effective_on)} was escalated "
                            "already: the petition cannot set it aside; bring it to the Council"
                        )
                    order.set_aside_on = clock.today()
                    order.set_aside_by_id = actor.user_id
                    order.set_aside_reason = (
                        f"{proc.filing_short} filed {short_date(filed_on)}, "
                        f"within the {proc.request.days} days"
                        + (f" (through {short_date(last_day)})" if last_day else "")
                        + f", recorded {short_date(clock.today())}"
                    )
        p = Petition(
            notice_id=n.id,
            addressee_id=a.id,
            petitioner=petitioner,
            filed_on=filed_on,
            grounds=grounds,
            timely=timely,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.enforcement.add(p)
        uow.flush()
        uow.commit()
        assert p.id is not None
        return PetitionRecorded(p.id, timely, last_day)


def schedule_hearing(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    notice_id: int,
    hearing_on: date,
    place: str,
    notice_sent_on: date,
) -> None:
    """The inspector arranges the time and place of the Council's hearing and gives the
    petitioner written notice of it (140-3B). It may be moved until the Council decides."""
    require(actor, Permission.SCHEDULE_HEARING)
    place = rules.text("place", place)
    rules.check_not_future("written notice sent on", notice_sent_on, clock.today())
    with uow:
        uow.act_as(actor, clock.now())
        c, n = _common.notice_locked(uow, notice_id)
        rules.check_open(c.closed_on, c.number)
        _no_council(_common.procedure(uow, c))
        if n.decision is not None:
            raise RuleViolation("The Common Council has decided on this notice already")
        timely = [
            p
            for p in uow.enforcement.find(Petition, notice_id=notice_id)
            if p.timely and p.withdrawn_on is None
        ]
        if not timely:
            raise RuleViolation("No timely petition for a hearing was filed (140-3B)")
        first = min(p.filed_on for p in timely)
        _common.not_before("written notice sent on", notice_sent_on, first, "the petition")
        _common.not_before("hearing on", hearing_on, notice_sent_on, "the written notice")
        n.hearing_on = hearing_on
        n.hearing_place = place
        n.hearing_notice_on = notice_sent_on
        uow.commit()


@dataclass(frozen=True)
class DecisionRecorded:
    order_id: int | None  # the order the notice became (140-3C), or the new emergency order


def record_council_decision(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    notice_id: int,
    decision: Decision,
    decided_on: date,
    findings: str,
    new_dates: Mapping[int, date] | None = None,
) -> DecisionRecorded:
    """The Common Council's decision after the hearing (140-3C): sustained or modified (with
    new correction dates, violation id -> date), the notice is an order from that day;
    withdrawn, its violations are withdrawn. For an emergency order (140-3H): continued
    (sustain), modified (a new order replaces it) or revoked (withdraw). The findings are the
    summary entered as the record of the hearing (140-3F)."""
    require(actor, Permission.RECORD_COUNCIL_DECISION)
    decision = Decision(decision)
    rules.check_not_future("decided on", decided_on, clock.today())
    findings = rules.text("findings", findings)
    dates = dict(new_dates or {})
    with uow:
        uow.act_as(actor, clock.now())
        c, n = _common.notice_locked(uow, notice_id)
        rules.check_open(c.closed_on, c.number)
        _no_council(_common.procedure(uow, c))
        if n.decision is not None:
            raise RuleViolation(
                f"The Council's decision of {short_date(n.decided_on or decided_on)} is recorded"
            )
        if n.hearing_on is None:
            raise RuleViolation("No hearing was scheduled for this notice (140-3B)")
        _common.not_before("decided on", decided_on, n.hearing_on, "the hearing")
        items = uow.enforcement.find(NoticeItem, notice_id=notice_id)
        rules.check_decision(decision, dates, [i.violation_id for i in items], decided_on)
        n.decision = decision
        n.decided_on = decided_on
        n.findings = findings
        for item in items:
            v = _common.row(uow, Violation, item.violation_id, "violation")
            if decision is Decision.WITHDRAW and v.state is ViolationState.OPEN:
                v.state = ViolationState.WITHDRAWN
                v.closed_on = decided_on
            elif item.violation_id in dates:
                v.correct_by = dates[item.violation_id]
        order = order_after(uow, clock, c.id, n, decision, decided_on)
        uow.flush()
        uow.commit()
        return DecisionRecorded(order.id if order is not None else None)


def _no_council(proc: Procedure) -> None:
    """A case under Wis. Stat. ch. 68 has no Council hearing: the municipal authority decides on
    review (68.09), and an appeal is heard under 68.11 (desk/services/enforcement/review.py)."""
    if proc.review:
        raise RuleViolation(
            f"This case follows {proc.name}: there is no hearing before the Common Council; "
            f"record the decision on review ({proc.period('review').section}) or the appeal "
            f"({proc.period('appeal').section})"
        )


def order_after(
    uow: UnitOfWork,
    clock: Clock,
    case_id: int | None,
    n: Notice,
    decision: Decision,
    decided_on: date,
) -> EnforcementOrder | None:
    assert case_id is not None and n.id is not None
    emergency = uow.enforcement.find(EnforcementOrder, notice_id=n.id, kind=OrderKind.EMERGENCY)
    if n.kind is NoticeKind.EMERGENCY:
        if not emergency:
            raise ValidationError("notice", "the emergency order is missing")
        current = emergency[0]
        if decision is Decision.SUSTAIN:
            return None  # continued in effect (140-3H)
        if decision is Decision.WITHDRAW:
            current.revoked_on = decided_on
            return None
        current.superseded_on = decided_on
    elif decision is Decision.WITHDRAW:
        return None
    order = EnforcementOrder(
        notice_id=n.id,
        case_id=case_id,
        kind=OrderKind.COUNCIL,
        effective_on=deadlines.council_order_day(decided_on),
        at=clock.now(),
    )
    uow.enforcement.add(order)
    return order
