"""Case inspections on the inspector's day, beside the permit inspections (Hudson 140-2, 140-3,
140-10A): schedule, reschedule and cancel a visit, move it along the route; the visit becomes
done when its inspection is recorded, and is cancelled when its case closes.

One visit of a case is scheduled at a time: the case's row is locked first, so a second
workstation scheduling the same case waits, then sees the first one's visit and is refused."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.enums import Role
from desk.domain.model import Actor, Inspection, InspectionStatus
from desk.domain.permissions import Permission, require
from desk.enforcement import rules
from desk.enforcement import visits as v
from desk.enforcement.model import (
    CaseInspection,
    CaseVisit,
    EnforcementCase,
    Violation,
    ViolationState,
    VisitPurpose,
    VisitStatus,
)
from desk.errors import RuleViolation, ValidationError
from desk.services.enforcement import _common
from desk.services.uow import UnitOfWork

# Scheduling a case visit is the same desk work as scheduling a permit inspection: the clerk
# or the inspector (desk.services.inspections.schedule_inspection).
SCHEDULE = Permission.EDIT_PERMIT

StopKind = Literal["permit", "case"]


@dataclass(frozen=True)
class VisitScheduled:
    visit_id: int
    purpose: VisitPurpose
    scheduled_on: date
    position: int  # on the inspector's route that day, among the permit stops


def _inspector(uow: UnitOfWork, actor: Actor, inspector_id: int | None) -> int:
    """The inspector of the visit: the one chosen, or the acting inspector."""
    if inspector_id is None:
        if Role.INSPECTOR in actor.roles:
            return actor.user_id
        raise ValidationError("inspector", "choose the inspector who makes the visit")
    user = uow.users.get(inspector_id)
    if user is None or not user.active:
        raise ValidationError("inspector", f"user #{inspector_id} is not an active user")
    if not user.roles & {Role.INSPECTOR, Role.ADMINISTRATOR}:
        raise ValidationError("inspector", f"{user.full_name} is not an inspector")
    return inspector_id


def _not_past(day: date, today: date) -> None:
    if day < today:
        raise ValidationError("date", f"{short_date(day)} is in the past")


def _route(
    uow: UnitOfWork, inspector_id: int, day: date
) -> list[tuple[StopKind, Inspection | CaseVisit]]:
    """The inspector's stops that day, permit and case, in the order the Day page shows them
    (route position, then time): cancelled ones left off."""
    permit_stops: list[tuple[StopKind, Inspection | CaseVisit]] = [
        ("permit", i)
        for i in uow.inspections.route(inspector_id, day)
        if i.route_position is not None and i.status is not InspectionStatus.CANCELLED
    ]
    case_stops: list[tuple[StopKind, Inspection | CaseVisit]] = [
        ("case", x)
        for x in uow.enforcement.find(CaseVisit, inspector_id=inspector_id, scheduled_on=day)
        if x.status is not VisitStatus.CANCELLED
    ]

    def key(stop: tuple[StopKind, Inspection | CaseVisit]) -> tuple[bool, int, str, int, int]:
        kind, row = stop
        time = row.scheduled_time if isinstance(row, CaseVisit) else row.desired_time
        pos = row.route_position
        return (pos is None, pos or 0, v.time_key(time), kind == "case", row.id or 0)

    return sorted(permit_stops + case_stops, key=key)


def _renumber(stops: list[tuple[StopKind, Inspection | CaseVisit]]) -> None:
    for n, (_kind, row) in enumerate(stops, start=1):
        if row.route_position != n:
            row.route_position = n


def _end_of_route(uow: UnitOfWork, inspector_id: int, day: date, leaving: CaseVisit) -> int:
    stops = [s for s in _route(uow, inspector_id, day) if s[1] is not leaving]
    return max((row.route_position or 0 for _k, row in stops), default=0) + 1


def _close_gap(uow: UnitOfWork, inspector_id: int | None, day: date, leaving: CaseVisit) -> None:
    """The route the visit left, numbered again from 1 (the permit stops with it)."""
    if inspector_id is not None:
        _renumber([s for s in _route(uow, inspector_id, day) if s[1] is not leaving])


def _scheduled(uow: UnitOfWork, case_id: int) -> list[CaseVisit]:
    return [
        x
        for x in uow.enforcement.find(CaseVisit, case_id=case_id)
        if x.status is VisitStatus.SCHEDULED
    ]


def _visit_locked(uow: UnitOfWork, visit_id: int) -> tuple[EnforcementCase, CaseVisit]:
    """The visit's case, then the visit, locked in that order."""
    peeked = _common.peek(uow, CaseVisit, visit_id, "visit")
    c = _common.case(uow, peeked.case_id)
    return c, _common.row(uow, CaseVisit, visit_id, "visit")


def schedule_visit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    case_id: int,
    scheduled_on: date | None = None,
    *,
    inspector_id: int | None = None,
    time: str = "",
    purpose: VisitPurpose | None = None,
    notes: str = "",
) -> VisitScheduled:
    """Put a case inspection on an inspector's day, at the end of the route. The purpose is the
    first inspection (140-2) until the case has one, then a re-inspection (140-3); a
    re-inspection's day defaults to the earliest open correction date (140-3A(3))."""
    require(actor, SCHEDULE)
    today = clock.today()
    if scheduled_on is not None:
        _not_past(scheduled_on, today)
    hhmm = v.visit_time(time)
    notes = rules.text("notes", notes, required=False)
    with uow:
        uow.act_as(actor, clock.now())
        c = _common.open_case(uow, case_id)
        for x in _scheduled(uow, case_id):
            raise RuleViolation(
                f"Case {c.number} has {v.PURPOSE_WORDS[x.purpose]} scheduled on "
                f"{short_date(x.scheduled_on)}; reschedule or cancel that visit"
            )
        inspected = len(uow.enforcement.find(CaseInspection, case_id=case_id))
        purpose = purpose or v.default_purpose(inspected)
        open_by = [
            x.correct_by
            for x in uow.enforcement.find(Violation, case_id=case_id)
            if x.state is ViolationState.OPEN
        ]
        if purpose is VisitPurpose.REINSPECTION and not open_by:
            raise RuleViolation(
                f"Case {c.number} has no open violation to re-inspect; schedule an inspection"
            )
        day = scheduled_on or v.suggested_day(purpose, open_by, today)
        who = _inspector(uow, actor, inspector_id)
        visit = CaseVisit(
            case_id=case_id,
            purpose=purpose,
            scheduled_on=day,
            scheduled_time=hhmm,
            inspector_id=who,
            status=VisitStatus.SCHEDULED,
            notes=notes,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        visit.route_position = _end_of_route(uow, who, day, visit)
        uow.enforcement.add(visit)
        uow.flush()
        assert visit.id is not None and visit.route_position is not None
        uow.commit()
        return VisitScheduled(visit.id, purpose, day, visit.route_position)


def reschedule_visit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    visit_id: int,
    scheduled_on: date,
    *,
    inspector_id: int | None = None,
    time: str | None = None,
    notes: str | None = None,
) -> VisitScheduled:
    """Another day, inspector or time for a scheduled visit (the inspector, time and notes kept
    unless given); it goes to the end of the new day's route."""
    require(actor, SCHEDULE)
    _not_past(scheduled_on, clock.today())
    hhmm = v.visit_time(time) if time is not None else None
    said = rules.text("notes", notes, required=False) if notes is not None else None
    with uow:
        uow.act_as(actor, clock.now())
        c, visit = _visit_locked(uow, visit_id)
        rules.check_open(c.closed_on, c.number)
        if visit.status is not VisitStatus.SCHEDULED:
            raise RuleViolation(f"This visit of case {c.number} is {visit.status.value} already")
        who = (
            _inspector(uow, actor, inspector_id)
            if inspector_id is not None
            else (visit.inspector_id or _inspector(uow, actor, None))
        )
        old = (visit.inspector_id, visit.scheduled_on)
        if hhmm is not None:
            visit.scheduled_time = hhmm
        if said is not None:
            visit.notes = said
        if old != (who, scheduled_on):
            visit.route_position = _end_of_route(uow, who, scheduled_on, visit)
            visit.inspector_id = who
            visit.scheduled_on = scheduled_on
            uow.flush()
            _close_gap(uow, old[0], old[1], visit)
        uow.flush()
        assert visit.route_position is not None
        uow.commit()
        return VisitScheduled(visit_id, visit.purpose, scheduled_on, visit.route_position)


def cancel_visit(uow: UnitOfWork, clock: Clock, actor: Actor, visit_id: int, reason: str) -> None:
    """Call the visit off: kept, marked cancelled, the reason in its notes."""
    require(actor, SCHEDULE)
    reason = rules.text("reason", reason)
    with uow:
        uow.act_as(actor, clock.now())
        c, visit = _visit_locked(uow, visit_id)
        if visit.status is not VisitStatus.SCHEDULED:
            raise RuleViolation(f"This visit of case {c.number} is {visit.status.value} already")
        _cancel(visit, reason)
        uow.flush()
        _close_gap(uow, visit.inspector_id, visit.scheduled_on, visit)
        uow.commit()


def _cancel(visit: CaseVisit, reason: str) -> None:
    visit.status = VisitStatus.CANCELLED
    visit.route_position = None
    visit.notes = "\n".join(x for x in (visit.notes, f"Cancelled: {reason}") if x)


def move_on_route(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    inspector_id: int,
    day: date,
    kind: StopKind,
    stop_id: int,
    step: int,
) -> int:
    """Move a stop, permit or case, up (step -1) or down (+1) the inspector's route that day;
    the whole route is numbered again. Returns the stop's new position."""
    require(actor, SCHEDULE)
    with uow:
        uow.act_as(actor, clock.now())
        if kind == "case":
            _visit_locked(uow, stop_id)
        route = _route(uow, inspector_id, day)
        at = next((n for n, (k, row) in enumerate(route) if k == kind and row.id == stop_id), None)
        if at is None:
            raise RuleViolation("This stop is not on the inspector's route that day")
        to = max(0, min(len(route) - 1, at + step))
        route.insert(to, route.pop(at))
        _renumber(route)
        uow.commit()
        return to + 1


# --- called by the other enforcement services, inside their unit of work ---------------------


def mark_done(
    uow: UnitOfWork,
    case_id: int,
    inspection_id: int,
    inspected_on: date,
    visit_id: int | None = None,
) -> list[int]:
    """The inspection of the case is recorded: its scheduled visit on or before that day (or the
    visit named) is done, with the inspection's id. The case is locked by the caller."""
    if visit_id is not None:
        x = _common.row(uow, CaseVisit, visit_id, "visit")
        if x.case_id != case_id:
            raise ValidationError("visit", f"visit #{visit_id} is not of this case")
        if x.status is not VisitStatus.SCHEDULED:
            raise RuleViolation(f"The visit of {short_date(x.scheduled_on)} is {x.status.value}")
        due = [x]
    else:
        due = [x for x in _scheduled(uow, case_id) if x.scheduled_on <= inspected_on]
    for x in due:
        x.status = VisitStatus.DONE
        x.inspection_id = inspection_id
    return [x.id for x in due if x.id is not None]


def cancel_for_closed_case(uow: UnitOfWork, case_id: int, number: str) -> None:
    """A closed case needs no visit: its scheduled ones are cancelled (the case is locked)."""
    for x in _scheduled(uow, case_id):
        _cancel(x, f"case {number} closed")
        uow.flush()
        _close_gap(uow, x.inspector_id, x.scheduled_on, x)
