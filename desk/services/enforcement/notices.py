"""Notices of violation (Hudson 140-3A) and emergency orders (140-3H), frozen once issued, and
their service on each addressee (140-3A(4))."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import deadlines, rules
from desk.enforcement.model import (
    AddresseeRole,
    Decision,
    EnforcementOrder,
    Notice,
    NoticeAddressee,
    NoticeItem,
    NoticeKind,
    NoticeService,
    OrderKind,
    ServiceMethod,
    Violation,
    ViolationState,
)
from desk.enforcement.procedure import Period
from desk.errors import RuleViolation, ValidationError
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class Addressee:
    role: AddresseeRole
    name: str
    address: str  # the last known address (140-3A(4))
    party_id: int | None = None


@dataclass(frozen=True)
class NoticeLine:
    violation_id: int
    remedial_action: str  # 140-3A(5): the outline of remedial action
    correct_by: date | None = None  # default: the violation's correction date


@dataclass(frozen=True)
class NoticeIssued:
    notice_id: int
    addressee_ids: tuple[int, ...]
    order_id: int | None  # an emergency order is an order at once (140-3H)


def issue_notice(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    case_id: int,
    addressees: Sequence[Addressee],
    lines: Sequence[NoticeLine],
    statement: str,
    *,
    issued_on: date | None = None,
    emergency: bool = False,
) -> NoticeIssued:
    """Issue a notice of violation to the persons responsible and any known agent (140-3A): in
    writing (1), with the reasons (2), a time to correct each violation (3) and the remedial
    action (5). With `emergency`, an emergency order (140-3H), effective the day issued.
    The notice's addressees, items, code text and dates are stored as issued."""
    require(actor, Permission.ISSUE_HOUSING_NOTICE)
    today = clock.today()
    issued_on = issued_on or today
    rules.check_not_future("issued on", issued_on, today)
    statement = rules.text("reasons", statement)  # 140-3A(2)
    if not addressees:
        raise ValidationError("addressees", "name the owner, operator, occupant or agent served")
    if not lines:
        raise ValidationError("violations", "choose the violations the notice is for")
    if len({line.violation_id for line in lines}) != len(lines):
        raise ValidationError("violations", "a violation is listed twice")
    with uow:
        uow.act_as(actor, clock.now())
        c = _common.open_case(uow, case_id)
        assert c.id is not None
        code = _common.housing_code(uow, c)
        proc = _common.procedure(uow, c)
        request_days = proc.request.days  # 140-3B: 10; Wis. Stat. 68.08: 30
        first_order_day = deadlines.earliest_order_day(
            issued_on, _common.calendar(uow, c.municipality_id), request_days
        )
        on_notice = _violations_on_live_notices(uow, case_id)
        notice = Notice(
            case_id=case_id,
            kind=NoticeKind.EMERGENCY if emergency else NoticeKind.NOTICE,
            issued_on=issued_on,
            issued_by_id=actor.user_id,
            property_address=_common.address(uow, c.parcel_id),
            statement=statement,
            housing_code=c.housing_code,
            at=clock.now(),
            request_days=None if emergency else request_days,
        )
        uow.enforcement.add(notice)
        uow.flush()
        assert notice.id is not None
        for line in lines:
            v = _common.row(uow, Violation, line.violation_id, "violation")
            if v.case_id != case_id:
                raise ValidationError("violations", f"#{v.id} is not of case {c.number}")
            if v.state is not ViolationState.OPEN:
                raise RuleViolation(f"{v.section} is {v.state.value}: no notice is given for it")
            if v.id in on_notice:
                raise RuleViolation(f"{v.section} is on notice #{on_notice[v.id]} already")
            item = code.standard(v.section)
            if not item.health_safety:
                raise RuleViolation(
                    f"{v.section} is not marked as affecting health or safety in {code.name}: "
                    "a notice is given for violations that do (140-3A)"
                )
            correct_by = notice_correct_by(
                v.section,
                line.correct_by,
                v.correct_by,
                issued_on,
                first_order_day,
                emergency,
                proc.request,
            )
            v.correct_by = correct_by  # the notice governs from now on
            uow.enforcement.add(
                NoticeItem(
                    notice_id=notice.id,
                    violation_id=line.violation_id,
                    section=item.section,
                    title=item.title,
                    code_text=item.text,
                    location=_location(v),
                    correct_by=correct_by,
                    remedial_action=rules.text("remedial action", line.remedial_action),
                )
            )
        rows = []
        for a in addressees:
            row = NoticeAddressee(
                notice_id=notice.id,
                role=AddresseeRole(a.role),
                name=rules.text("addressee's name", a.name),
                address=rules.text("addressee's address", a.address),
                party_id=a.party_id,
            )
            uow.enforcement.add(row)
            rows.append(row)
        order = None
        if emergency:
            order = EnforcementOrder(
                notice_id=notice.id,
                case_id=case_id,
                kind=OrderKind.EMERGENCY,
                effective_on=deadlines.emergency_order_day(issued_on),
                at=clock.now(),
            )
            uow.enforcement.add(order)
        uow.flush()
        uow.commit()
        return NoticeIssued(
            notice.id,
            tuple(r.id for r in rows if r.id is not None),
            order.id if order is not None else None,
        )


def notice_correct_by(
    section: str,
    given: date | None,
    found: date,
    issued_on: date,
    first_order_day: date,
    emergency: bool,
    request: Period,
) -> date:
    """The correction date a notice gives (140-3A(3)). A notice is enforced only once it is an
    order, never before its petition window has closed (140-3B, 140-3D): a date given inside
    that window is refused, and the inspection's date, when it falls inside, becomes the first
    day the notice can be an order. An emergency order is in effect at once (140-3H)."""
    if given is None:
        return found if emergency else max(found, first_order_day)
    _common.not_before("correct by", given, issued_on, "the notice's date")
    if not emergency and given < first_order_day:
        raise ValidationError(
            "correct by",
            f"{section}: {short_date(given)} falls inside the {request.days} days a "
            f"{request.what} may be filed ({request.section}); the notice can be enforced as an "
            f"order from {short_date(first_order_day)}: give that day or later, or issue an "
            "emergency order",
        )
    return given


def _location(v: Violation) -> str:
    parts = [f"Unit {v.unit}" if v.unit else "", v.room]
    return ", ".join(p for p in parts if p)


def _violations_on_live_notices(uow: UnitOfWork, case_id: int) -> dict[int, int]:
    """Violation id -> the notice it is on, for the case's notices not withdrawn (140-3C)."""
    out: dict[int, int] = {}
    for n in uow.enforcement.find(Notice, case_id=case_id):
        if n.decision is Decision.WITHDRAW or n.id is None:
            continue
        for item in uow.enforcement.find(NoticeItem, notice_id=n.id):
            out[item.violation_id] = n.id
    return out


@dataclass(frozen=True)
class ServiceRecorded:
    service_id: int
    petition_last_day: date  # 140-3B: timely through this day
    agent_must_notify_owner: bool  # 140-1 "owner"


def record_service(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    addressee_id: int,
    method: ServiceMethod,
    served_on: date,
    served_by: str,
) -> ServiceRecorded:
    """The notice served on one addressee (140-3A(4)): personally, by registered mail to the
    last known address (served the day it is sent), or by posting in a conspicuous place in or
    about the dwelling. An agent served owes the owner a registered letter (140-1 "owner")."""
    require(actor, Permission.RECORD_SERVICE)
    today = clock.today()
    rules.check_not_future("served on", served_on, today)
    served_by = rules.text("served by", served_by)
    method = ServiceMethod(method)
    with uow:
        uow.act_as(actor, clock.now())
        c, n, a = _common.addressee_locked(uow, addressee_id)
        rules.check_open(c.closed_on, c.number)
        if n.decision is Decision.WITHDRAW:
            raise RuleViolation("The Common Council withdrew this notice (140-3C)")
        _common.not_before("served on", served_on, n.issued_on, "the notice was issued")
        assert a.id is not None
        earlier = [
            x
            for x in uow.enforcement.find(NoticeService, addressee_id=a.id)
            if x.withdrawn_on is None
        ]
        standing = [x for x in earlier if x.returned_on is None]
        if standing:
            first = min(x.served_on for x in standing)
            raise RuleViolation(f"{a.name} was served on {short_date(first)} already")
        agent = a.role is AddresseeRole.AGENT
        s = NoticeService(
            addressee_id=a.id,
            method=method,
            served_on=served_on,
            served_by=served_by,
            agent_must_notify_owner=agent,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.enforcement.add(s)
        uow.flush()
        governs = _common.service_of(uow, a) or served_on  # the earliest (140-3A(4))
        last_day = deadlines.petition_last_day(governs, _common.calendar(uow, c.municipality_id))
        uow.commit()
        assert s.id is not None
        return ServiceRecorded(s.id, last_day, agent)


RETURNED_HOW = ("unclaimed", "refused")


def record_returned_unclaimed(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    service_id: int,
    returned_on: date,
    how: str = "unclaimed",
) -> None:
    """Registered mail came back unclaimed or refused. The notice was served the day it was
    mailed to the last known address (140-3A(4): "deemed to be properly served"): the return
    is recorded and puts the addressee on the list to serve again, personally or by posting,
    but the service stands and its petition window and order with it."""
    require(actor, Permission.RECORD_SERVICE)
    rules.check_not_future("returned on", returned_on, clock.today())
    if how not in RETURNED_HOW:
        raise ValidationError("returned", "say whether the letter was unclaimed or refused")
    with uow:
        uow.act_as(actor, clock.now())
        s0 = _common.peek(uow, NoticeService, service_id, "service")
        c, _n, _a = _common.addressee_locked(uow, s0.addressee_id)
        rules.check_open(c.closed_on, c.number)
        s = _common.row(uow, NoticeService, service_id, "service")
        if s.method is not ServiceMethod.REGISTERED_MAIL:
            raise RuleViolation(f"That service was {s.method.value}, not registered mail")
        if s.withdrawn_on is not None:
            raise RuleViolation(f"That service was withdrawn on {short_date(s.withdrawn_on)}")
        if s.returned_on is not None:
            raise RuleViolation(f"The letter was recorded returned on {short_date(s.returned_on)}")
        _common.not_before("returned on", returned_on, s.served_on, "it was mailed")
        s.returned_on = returned_on
        s.returned_how = how
        uow.commit()
