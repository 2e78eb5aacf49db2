"""A service, a petition or a violation entered by mistake is withdrawn, never deleted: when,
why and by whom stay on the row, the case's timeline shows it, and every read ignores it from
then on (the petition window runs from the true service, Hudson 140-3B; the notice becomes an
order 10 days after the true service, 140-3D; a violation withdrawn is counted by no list,
reminder or report).

The inspector (or the administrator) corrects: Permission.ISSUE_HOUSING_NOTICE, as the notice
and its procedure are the inspector's (140-3A). A correction is refused once something rests
on the row: an order made from the notice, the Council's decision, or a petition filed by the
addressee served (withdraw the petition first); a petition once its hearing is scheduled.
A violation is the inspector's finding (Permission.INSPECT_HOUSING, as recording it is): it is
withdrawn only while no issued notice names it, for a notice is never changed once issued and
only the Common Council withdraws or modifies it (140-3C)."""

from __future__ import annotations

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import rules
from desk.enforcement.model import (
    Decision,
    EnforcementOrder,
    Notice,
    NoticeItem,
    NoticeKind,
    NoticeService,
    OrderKind,
    Petition,
    Violation,
    ViolationState,
)
from desk.errors import RuleViolation
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork

PERMISSION = Permission.ISSUE_HOUSING_NOTICE
VIOLATION_PERMISSION = Permission.INSPECT_HOUSING


def withdraw_service(
    uow: UnitOfWork, clock: Clock, actor: Actor, service_id: int, reason: str
) -> None:
    """The service recorded by mistake (wrong addressee, wrong day) no longer counts."""
    require(actor, PERMISSION)
    reason = rules.text("reason", reason)
    with uow:
        uow.act_as(actor, clock.now())
        s0 = _common.peek(uow, NoticeService, service_id, "service")
        c, n, a = _common.addressee_locked(uow, s0.addressee_id)
        rules.check_open(c.closed_on, c.number)
        s = _common.row(uow, NoticeService, service_id, "service")
        if s.withdrawn_on is not None:
            raise RuleViolation(f"That service was withdrawn on {short_date(s.withdrawn_on)}")
        _nothing_rests_on_notice(uow, n)
        assert a.id is not None
        filed = live_petitions(uow, n, addressee_id=a.id)
        if filed:
            raise RuleViolation(
                f"{filed[0].petitioner}'s petition of {short_date(filed[0].filed_on)} rests on "
                f"the service on {a.name}: withdraw the petition first"
            )
        s.withdrawn_on = clock.today()
        s.withdrawn_reason = reason
        s.withdrawn_by_id = actor.user_id
        uow.commit()


def withdraw_petition(
    uow: UnitOfWork, clock: Clock, actor: Actor, petition_id: int, reason: str
) -> None:
    """The petition recorded by mistake no longer counts: if it was the only timely one, the
    notice becomes an order when its windows have closed (140-3D)."""
    require(actor, PERMISSION)
    reason = rules.text("reason", reason)
    with uow:
        uow.act_as(actor, clock.now())
        p0 = _common.peek(uow, Petition, petition_id, "petition")
        c, n = _common.notice_locked(uow, p0.notice_id)
        rules.check_open(c.closed_on, c.number)
        p = _common.row(uow, Petition, petition_id, "petition")
        if p.withdrawn_on is not None:
            raise RuleViolation(f"That petition was withdrawn on {short_date(p.withdrawn_on)}")
        if n.decision is not None:
            raise RuleViolation("The Common Council has decided on this notice (140-3C)")
        if n.hearing_on is not None:
            raise RuleViolation(
                f"The Council's hearing of {short_date(n.hearing_on)} is scheduled on this "
                "notice (140-3B): the petitioner withdraws before the Council"
            )
        set_aside = [
            o for o in uow.enforcement.find(EnforcementOrder, notice_id=n.id) if o.set_aside_on
        ]
        if set_aside and p.timely:
            raise RuleViolation(
                f"The order of {short_date(set_aside[0].effective_on)} was set aside on "
                f"{short_date(set_aside[0].set_aside_on or p.filed_on)} for a timely petition "
                "(140-3B): the petitioner withdraws before the Council"
            )
        p.withdrawn_on = clock.today()
        p.withdrawn_reason = reason
        p.withdrawn_by_id = actor.user_id
        uow.commit()


def withdraw_violation(
    uow: UnitOfWork, clock: Clock, actor: Actor, violation_id: int, reason: str
) -> None:
    """The violation recorded by mistake (wrong item, wrong case, not there) no longer counts:
    state withdrawn, closed on the day, with the reason and who withdrew it."""
    require(actor, VIOLATION_PERMISSION)
    reason = rules.text("reason", reason)
    with uow:
        uow.act_as(actor, clock.now())
        v0 = _common.peek(uow, Violation, violation_id, "violation")
        c = _common.case(uow, v0.case_id)  # the case first (the lock order of every service)
        rules.check_open(c.closed_on, c.number)
        v = _common.row(uow, Violation, violation_id, "violation")
        since = f" on {short_date(v.closed_on)}" if v.closed_on else ""
        if v.state is ViolationState.CORRECTED:
            raise RuleViolation(f"{v.section} was found corrected{since}: it is not withdrawn")
        if v.state is ViolationState.WITHDRAWN:
            raise RuleViolation(f"{v.section} was withdrawn{since}")
        notice = _live_notice_of(uow, v)
        if notice is not None:
            raise RuleViolation(f"{v.section} is on {_issued_words(notice)}")
        v.state = ViolationState.WITHDRAWN
        v.closed_on = clock.today()
        v.withdrawn_reason = reason
        v.withdrawn_by_id = actor.user_id
        uow.commit()


def _issued_words(n: Notice) -> str:
    on = f"issued {short_date(n.issued_on)} (notice #{n.id})"
    if n.kind is NoticeKind.EMERGENCY:
        return (
            f"the emergency order {on}: an issued order is not changed; the Common Council "
            "continues, modifies or revokes it (140-3H)"
        )
    return (
        f"the notice of violation {on}: an issued notice is not changed; the Common Council "
        "sustains, modifies or withdraws it (140-3C)"
    )


def _live_notice_of(uow: UnitOfWork, v: Violation) -> Notice | None:
    """The issued notice naming the violation, the Council's withdrawal aside (as notices.py
    reads "on a live notice", 140-3C)."""
    for item in uow.enforcement.find(NoticeItem, violation_id=v.id):
        n = _common.peek(uow, Notice, item.notice_id, "notice")
        if n.case_id == v.case_id and n.decision is not Decision.WITHDRAW:
            return n
    return None


def live_petitions(uow: UnitOfWork, n: Notice, addressee_id: int | None = None) -> list[Petition]:
    """The notice's petitions not withdrawn, of one addressee when given."""
    found = uow.enforcement.find(Petition, notice_id=n.id)
    return [
        p
        for p in found
        if p.withdrawn_on is None and (addressee_id is None or p.addressee_id == addressee_id)
    ]


def _nothing_rests_on_notice(uow: UnitOfWork, n: Notice) -> None:
    if n.decision is not None:
        raise RuleViolation("The Common Council has decided on this notice (140-3C)")
    # An emergency order is made when issued (140-3H), not from a service: it does not count.
    made = [
        o
        for o in uow.enforcement.find(EnforcementOrder, notice_id=n.id)
        if o.kind is not OrderKind.EMERGENCY and o.set_aside_on is None
    ]
    if made:
        raise RuleViolation(
            f"The notice became an order effective {short_date(made[0].effective_on)} "
            "(140-3C, D): a service it rests on is not withdrawn"
        )


__all__ = [
    "PERMISSION",
    "VIOLATION_PERMISSION",
    "live_petitions",
    "withdraw_petition",
    "withdraw_service",
    "withdraw_violation",
]
