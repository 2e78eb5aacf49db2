"""Review and appeal under Wis. Stat. ch. 68, for a case whose housing code has no procedure of
its own (Ch. 512; resources/procedures/wis-stat-68.toml). The notice of violation is the
determination and its service the notice of it; a request for review (68.08) is recorded with
petitions.record_petition. Then:

- record_review_decision: the municipal authority's decision on review (68.09(4)), due within 15
  days of receipt of the request (68.09(3)); no hearing is needed. Affirmed or modified, the
  notice is an order from that day; reversed, its violations are withdrawn.
- record_appeal: an appeal within 30 days of notice of the decision on review (68.10(2)).
- schedule_appeal_hearing: within 15 days of receipt of the appeal, the appellant served with
  notice at least 10 days before it (68.11(1)); a date that breaks either is refused.
- record_final_determination: within 20 days of the hearing (68.12(1)); affirmed, modified or
  reversed. Judicial review by certiorari (68.13) is shown for information only.

Periods are the procedure's, with the office's own days (desk/enforcement/procedure.py), counted
by Wis. Stat. 990.001(4). A decision made after its period is recorded with a warning: the
statute lets the authority extend it by agreement with the person.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import deadlines, rules
from desk.enforcement.appeal import Appeal
from desk.enforcement.model import (
    Decision,
    EnforcementCase,
    Notice,
    NoticeItem,
    OrderKind,
    Petition,
    Violation,
    ViolationState,
)
from desk.enforcement.procedure import Procedure
from desk.errors import RuleViolation, ValidationError
from desk.services.enforcement import _common
from desk.services.enforcement.petitions import order_after
from desk.services.uow import UnitOfWork


def _ch68(uow: UnitOfWork, c: EnforcementCase) -> Procedure:
    proc = _common.procedure(uow, c)
    if not proc.review:
        raise RuleViolation(
            f"Case {c.number} follows {proc.name}: the Common Council decides after a hearing "
            f"({proc.decision_section}); there is no review or appeal under Wis. Stat. ch. 68"
        )
    return proc


def received_on(uow: UnitOfWork, notice_id: int) -> date | None:
    """The receipt of the first timely request for review not withdrawn (68.09(3))."""
    timely = [
        p.filed_on
        for p in uow.enforcement.find(Petition, notice_id=notice_id)
        if p.timely and p.withdrawn_on is None
    ]
    return min(timely, default=None)


def _late(what: str, day: date, due: date, section: str) -> str:
    if day <= due:
        return ""
    return (
        f"The {what} of {short_date(day)} is after its last day, {short_date(due)} ({section}); "
        "record the agreement to extend the time, if there was one, in the reasons"
    )


@dataclass(frozen=True)
class ReviewDecided:
    order_id: int | None  # the order the notice became (affirmed or modified)
    due: date  # 68.09(3): the last day for the decision on review
    warning: str = ""  # decided after `due`


def record_review_decision(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    notice_id: int,
    decision: Decision,
    decided_on: date,
    reasons: str,
    new_dates: Mapping[int, date] | None = None,
) -> ReviewDecided:
    """The municipal authority's decision on review (68.09(4)): affirm (sustain), modify (new
    correction dates, violation id -> date) or reverse (withdraw), in writing with its reasons;
    `decided_on` is the day it was mailed or delivered, the notice of it that starts the time
    to appeal (68.10(2)). No hearing is required."""
    require(actor, Permission.RECORD_COUNCIL_DECISION)
    decision = Decision(decision)
    rules.check_not_future("decided on", decided_on, clock.today())
    reasons = rules.text("reasons", reasons)  # 68.09(4): the reasons for the decision
    dates = dict(new_dates or {})
    with uow:
        uow.act_as(actor, clock.now())
        c, n = _common.notice_locked(uow, notice_id)
        rules.check_open(c.closed_on, c.number)
        proc = _ch68(uow, c)
        review = proc.period("review")
        if n.decision is not None:
            raise RuleViolation(
                f"The decision on review of {short_date(n.decided_on or decided_on)} is recorded"
            )
        received = received_on(uow, notice_id)
        if received is None:
            raise RuleViolation(f"No timely request for review was filed ({proc.request.section})")
        _common.not_before("decided on", decided_on, received, "the request for review")
        cal = _common.calendar(uow, c.municipality_id)
        due = deadlines.review_due(received, review.days, cal)
        items = uow.enforcement.find(NoticeItem, notice_id=notice_id)
        rules.check_decision(decision, dates, [i.violation_id for i in items], decided_on)
        n.decision = decision
        n.decided_on = decided_on
        n.findings = reasons
        _apply(uow, items, decision, decided_on, dates)
        order = order_after(uow, clock, c.id, n, decision, decided_on)
        uow.flush()
        uow.commit()
        return ReviewDecided(
            order.id if order is not None else None,
            due,
            _late("decision on review", decided_on, due, review.section),
        )


def _apply(
    uow: UnitOfWork,
    items: list[NoticeItem],
    decision: Decision,
    on: date,
    dates: Mapping[int, date],
) -> None:
    """A reversal withdraws the notice's open violations; a modification sets its new dates."""
    for item in items:
        v = _common.row(uow, Violation, item.violation_id, "violation")
        if decision is Decision.WITHDRAW and v.state is ViolationState.OPEN:
            v.state = ViolationState.WITHDRAWN
            v.closed_on = on
        elif item.violation_id in dates:
            v.correct_by = dates[item.violation_id]


@dataclass(frozen=True)
class AppealRecorded:
    appeal_id: int
    timely: bool
    last_day: date  # 68.10(2): 30 days of notice of the decision on review
    hearing_by: date | None  # 68.11(1): the last day for its hearing (a timely appeal)


def record_appeal(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    notice_id: int,
    filed_on: date,
    appellant: str,
    grounds: str,
) -> AppealRecorded:
    """The written notice of appeal from the decision on review, filed with or mailed to the
    office (68.10(3)); timely within 30 days of notice of the decision (68.10(2)). A late one
    is recorded as late and gets no hearing."""
    require(actor, Permission.RECORD_PETITION)
    rules.check_not_future("filed on", filed_on, clock.today())
    appellant = rules.text("appellant", appellant)
    grounds = rules.text("grounds", grounds)
    with uow:
        uow.act_as(actor, clock.now())
        c, n = _common.notice_locked(uow, notice_id)
        rules.check_open(c.closed_on, c.number)
        proc = _ch68(uow, c)
        appeal = proc.period("appeal")
        if n.decision is None or n.decided_on is None:
            raise RuleViolation(f"There is no decision on review to appeal from ({appeal.section})")
        _common.not_before("filed on", filed_on, n.decided_on, "the decision on review")
        for a in _common.appeals(uow, notice_id):
            if a.decision is not None:
                raise RuleViolation(
                    f"The final determination of {short_date(a.decided_on or filed_on)} is "
                    f"recorded ({proc.period('final').section}); it may be reviewed only in "
                    f"court ({proc.period('judicial').section})"
                )
            if a.timely:
                raise RuleViolation(
                    f"The appeal by {a.appellant} of {short_date(a.filed_on)} awaits its "
                    f"hearing and final determination ({appeal.section})"
                )
        cal = _common.calendar(uow, c.municipality_id)
        last_day = deadlines.appeal_last_day(n.decided_on, appeal.days, cal)
        timely = filed_on <= last_day
        assert c.id is not None and n.id is not None
        row = Appeal(
            case_id=c.id,
            notice_id=n.id,
            appellant=appellant,
            filed_on=filed_on,
            grounds=grounds,
            timely=timely,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.enforcement.add(row)
        uow.flush()
        uow.commit()
        assert row.id is not None
        hearing_by = (
            deadlines.hearing_last_day(filed_on, proc.days("hearing"), cal) if timely else None
        )
        return AppealRecorded(row.id, timely, last_day, hearing_by)


def _appeal_locked(uow: UnitOfWork, appeal_id: int) -> tuple[EnforcementCase, Notice, Appeal]:
    """The appeal's case, notice and the appeal, locked in that order."""
    a = _common.peek(uow, Appeal, appeal_id, "appeal")
    c, n = _common.notice_locked(uow, a.notice_id)
    return c, n, _common.row(uow, Appeal, appeal_id, "appeal")


def schedule_appeal_hearing(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    appeal_id: int,
    hearing_on: date,
    place: str,
    notice_sent_on: date,
) -> date:
    """The hearing on a timely appeal (68.11(1)): within 15 days of receipt of the notice of
    appeal, the appellant served with notice of it at least 10 days before. A date breaking
    either is refused. Returns the hearing's last day."""
    require(actor, Permission.SCHEDULE_HEARING)
    place = rules.text("place", place)
    rules.check_not_future("notice of the hearing served on", notice_sent_on, clock.today())
    with uow:
        uow.act_as(actor, clock.now())
        c, _n, a = _appeal_locked(uow, appeal_id)
        rules.check_open(c.closed_on, c.number)
        proc = _ch68(uow, c)
        hearing = proc.period("hearing")
        ahead = proc.period("hearing_notice")
        if a.decision is not None:
            raise RuleViolation("The final determination on this appeal is recorded already")
        if not a.timely:
            raise RuleViolation(
                f"The appeal of {short_date(a.filed_on)} was late "
                f"({proc.period('appeal').section}): it gets no hearing"
            )
        _common.not_before(
            "notice of the hearing served on", notice_sent_on, a.filed_on, "the appeal"
        )
        cal = _common.calendar(uow, c.municipality_id)
        last = deadlines.hearing_last_day(a.filed_on, hearing.days, cal)
        if hearing_on > last:
            raise ValidationError(
                "hearing on",
                f"{short_date(hearing_on)} is later than {hearing.days} days after the appeal "
                f"was received on {short_date(a.filed_on)}: hold it by {short_date(last)} "
                f"({hearing.section})",
            )
        if not deadlines.hearing_notice_enough(notice_sent_on, hearing_on, ahead.days):
            raise ValidationError(
                "notice of the hearing served on",
                f"{short_date(notice_sent_on)} is fewer than {ahead.days} days before the "
                f"hearing of {short_date(hearing_on)}: the appellant must be served with notice "
                f"at least {ahead.days} days before it ({ahead.section})",
            )
        a.hearing_on = hearing_on
        a.hearing_place = place
        a.hearing_notice_on = notice_sent_on
        uow.commit()
        return last


@dataclass(frozen=True)
class FinalDetermined:
    due: date  # 68.12(1): 20 days of the hearing
    judicial_review_by: date  # 68.13: 30 days of receipt (for information; counted from today)
    warning: str = ""


def record_final_determination(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    appeal_id: int,
    decision: Decision,
    decided_on: date,
    findings: str,
    new_dates: Mapping[int, date] | None = None,
) -> FinalDetermined:
    """The final determination on the appeal (68.12), after its hearing: affirmed (sustain),
    the order stands; modified, its violations get new correction dates; reversed (withdraw),
    its open violations are withdrawn and the orders it made are set aside."""
    require(actor, Permission.RECORD_COUNCIL_DECISION)
    decision = Decision(decision)
    rules.check_not_future("decided on", decided_on, clock.today())
    findings = rules.text("findings", findings)
    dates = dict(new_dates or {})
    with uow:
        uow.act_as(actor, clock.now())
        c, n, a = _appeal_locked(uow, appeal_id)
        rules.check_open(c.closed_on, c.number)
        proc = _ch68(uow, c)
        final = proc.period("final")
        if a.decision is not None:
            raise RuleViolation(
                f"The final determination of {short_date(a.decided_on or decided_on)} is recorded"
            )
        if a.hearing_on is None:
            raise RuleViolation(
                f"No hearing on the appeal was held ({proc.period('hearing').section})"
            )
        _common.not_before("decided on", decided_on, a.hearing_on, "the hearing")
        cal = _common.calendar(uow, c.municipality_id)
        due = deadlines.final_due(a.hearing_on, final.days, cal)
        assert n.id is not None
        items = uow.enforcement.find(NoticeItem, notice_id=n.id)
        rules.check_decision(decision, dates, [i.violation_id for i in items], decided_on)
        a.decision = decision
        a.decided_on = decided_on
        a.findings = findings
        _apply(uow, items, decision, decided_on, dates)
        if decision is Decision.WITHDRAW:
            for order in _common.orders_in_effect(uow, n.id):
                if order.kind is OrderKind.EMERGENCY:
                    order.revoked_on = decided_on
                else:
                    order.set_aside_on = decided_on
                    order.set_aside_by_id = actor.user_id
                    order.set_aside_reason = (
                        f"reversed on appeal {short_date(decided_on)} ({final.section})"
                    )
        uow.commit()
        judicial = proc.period("judicial")
        return FinalDetermined(
            due,
            deadlines.appeal_last_day(decided_on, judicial.days, cal),
            _late("final determination", decided_on, due, final.section),
        )
