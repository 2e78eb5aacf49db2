"""Lifecycle use cases: status changes with their roles, deadlines and extensions, the lapse
sweep, stop-work orders (15.1.12) and revocations (15.1.7(g))."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from desk.clock import Clock
from desk.domain.enums import PermitStatus
from desk.domain.kinds import kind_by_code
from desk.domain.lifecycle import (
    ACTIVE,
    COMPLETE,
    EXPIRES,
    OCCUPANCY,
    OCCUPANCY_WATCHED,
    Deadline,
    Extension,
    PermitDates,
    Rule,
    check_extension,
    check_requested_period,
    check_transition,
    deadlines,
    lapsed,
    occupancy_ended,
    open_temporary_occupancy,
)
from desk.domain.model import Actor, OccupancyCertificate, Permit, PermitExtension, PermitOrder
from desk.domain.permissions import Permission, require
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services.uow import UnitOfWork

S = PermitStatus

# Who may move a permit into each status (15.1.6: the inspector decides; the clerk records
# what the applicant asks and when work starts).
STATUS_PERMISSION: dict[PermitStatus, Permission] = {
    S.APPLIED: Permission.TAKE_APPLICATION,
    S.IN_REVIEW: Permission.ISSUE_PERMIT,
    S.APPROVED: Permission.ISSUE_PERMIT,
    S.DENIED: Permission.ISSUE_PERMIT,
    S.WITHDRAWN: Permission.TAKE_APPLICATION,
    S.WORK_STARTED: Permission.EDIT_PERMIT,
    S.COMPLETED: Permission.ISSUE_PERMIT,
    S.EXPIRED: Permission.ISSUE_PERMIT,
}

# 15.1.7(g)(1) a.–f.: the reasons for which the Building Inspector may revoke a permit.
REVOCATION_REASONS = {
    "a": "a violation of this Code or of any other ordinance, law, lawful order or Wisconsin "
    "Statute relating to the same subject matter",
    "b": "the continuance of the construction has become dangerous to life or property",
    "c": "a violation of a condition or provision of the application for permit, or of the permit",
    "d": "inadequate supervision on the job site",
    "e": "a false statement or misrepresentation in the application, plans, drawings, data, "
    "specifications or certified lot or plot plan on which the permit was based",
    "f": "a violation of the conditions of an approval for the use of new materials, "
    "equipment, methods, construction devices or appliances",
}


def _get(uow: UnitOfWork, permit_id: int) -> Permit:
    """The permit, locked: the rule is checked on what another workstation just committed."""
    permit = uow.permits.get_for_update(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def _rule(uow: UnitOfWork, permit: Permit) -> Rule:
    muni = uow.municipalities.get(permit.municipality_id)
    assert muni is not None
    try:
        return kind_by_code(muni.ordinance, permit.kind).lifecycle
    except ValidationError:
        return Rule.NONE


def permit_dates(
    permit: Permit,
    rule: Rule,
    building_permit_expires: date | None = None,
    temporary_occupancy_until: date | None = None,
) -> PermitDates:
    return PermitDates(
        rule=rule,
        status=permit.status,
        issued_on=permit.issued_on,
        approved_on=permit.approved_on,
        commenced_on=permit.commenced_on,
        last_activity_on=permit.last_activity_on,
        requested_until=permit.requested_until,
        building_permit_expires=building_permit_expires,
        extensions=tuple(Extension(e.deadline, e.until, e.reason) for e in permit.extensions),
        emergency=permit.emergency,
        temporary_occupancy_until=temporary_occupancy_until,
    )


def _temporary_until(certificates: list[OccupancyCertificate]) -> date | None:
    """15.1.13(d): the completion date of the temporary certificate still in force, if any."""
    return open_temporary_occupancy([(c.issued_on, c.temporary_until) for c in certificates])


def _dates(uow: UnitOfWork, permit: Permit, rule: Rule) -> PermitDates:
    """A permit's dates with its temporary certificate of occupancy, read from the register."""
    assert permit.id is not None
    return permit_dates(
        permit,
        rule,
        temporary_occupancy_until=_temporary_until(uow.inspections.certificates_for(permit.id)),
    )


def term_end(dates: PermitDates) -> date | None:
    """The date a list shows as 'expires': completion for building work, else the validity."""
    ends = [d.due for d in deadlines(dates) if d.code in (COMPLETE, EXPIRES)]
    return max(ends) if ends else None


def permit_deadlines(uow: UnitOfWork, permit_id: int) -> list[Deadline]:
    with uow:
        permit = _get(uow, permit_id)
        return deadlines(_dates(uow, permit, _rule(uow, permit)))


def term_if_issued(uow: UnitOfWork, permit_id: int, on: date) -> Deadline | None:
    """The deadline that would end the permit if it were issued on `on` (the issue dialog shows
    it): e.g. a street opening issued November 2 is valid to November 14 (§435-8.A), temporary
    wiring to the end of its stated period (15.1.76(a))."""
    with uow:
        permit = _get(uow, permit_id)
        dates = replace(
            permit_dates(permit, _rule(uow, permit)), status=S.ISSUED, issued_on=on, extensions=()
        )
        ends = [d for d in deadlines(dates) if d.code in (COMPLETE, EXPIRES)]
        return max(ends, key=lambda d: d.due) if ends else None


def change_status(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    new: PermitStatus,
    *,
    on: date | None = None,
) -> None:
    """Move a permit along its lifecycle. Issuing, voiding, stop-work and revocation have
    their own services (they number, print or need reasons)."""
    if new not in STATUS_PERMISSION:
        raise RuleViolation(f"Use the {new.label.lower()} action for that, not a status change.")
    require(actor, STATUS_PERMISSION[new])
    day = on or clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        check_transition(permit.status, new)
        if permit.status is S.ON_HOLD and new in (S.WORK_STARTED, S.ISSUED):
            # 15.1.12: only the inspector's written notice removes a stop-work order.
            raise RuleViolation("Lift the stop-work order by written notice to let work resume.")
        if new is S.APPROVED:
            permit.approved_on = day
        if new is S.WORK_STARTED:
            if permit.issued_on is not None and day < permit.issued_on:
                raise ValidationError("date", "work cannot start before the permit was issued")
            permit.commenced_on = permit.commenced_on or day
            permit.last_activity_on = day
        if new is S.COMPLETED:
            permit.completed_on = day
        permit.status = new
        permit.status_date = day
        uow.commit()


def record_activity(uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, on: date) -> None:
    """Work seen on site (an inspection, a call): restarts the 60-day suspension clock."""
    require(actor, Permission.EDIT_PERMIT)
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        if permit.last_activity_on is None or on > permit.last_activity_on:
            permit.last_activity_on = on
        uow.commit()


def set_requested_period(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, until: date
) -> None:
    """The period the applicant states (temporary wiring ≤ 90 days, solid fill ≤ 3 months in a
    calendar year, temporary occupancy ≤ 120 days)."""
    require(actor, Permission.EDIT_PERMIT)
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        rule = _rule(uow, permit)
        if rule not in (Rule.TEMPORARY_ELECTRICAL, Rule.SOLID_FILL, Rule.TEMPORARY_OCCUPANCY):
            raise ValidationError("valid until", "this kind of permit has no stated period")
        check_requested_period(rule, permit.issued_on or permit.applied_on or clock.today(), until)
        permit.requested_until = until
        if permit.issued_on is not None:
            permit.expires_on = term_end(permit_dates(permit, rule))
        uow.commit()


def extend_deadline(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    deadline: str,
    until: date,
    reason: str,
) -> None:
    """The inspector extends a deadline with a reason and a new date (15.1.8(b), 15.2.8(e))."""
    require(actor, Permission.ISSUE_PERMIT)
    if not reason.strip():
        raise ValidationError("reason", "say why the deadline is extended")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        if permit.status not in ACTIVE:
            raise RuleViolation(
                f"Only a live permit can be extended; this one is {permit.status.label.lower()}."
            )
        rule = _rule(uow, permit)
        check_extension(_dates(uow, permit, rule), deadline, until)
        permit.extensions.append(
            PermitExtension(
                deadline=deadline,
                until=until,
                reason=reason.strip(),
                by_user_id=actor.user_id,
                at=clock.now(),
            )
        )
        permit.expires_on = term_end(permit_dates(permit, rule))
        uow.commit()


@dataclass(frozen=True)
class Lapse:
    permit_id: int
    number: str | None
    deadline: Deadline
    address: str = ""
    kind: str = ""
    # Not empty when the passed deadline does not expire the permit but asks the inspector to
    # act (15.1.13(d): a temporary certificate ended without a final certificate).
    flag: str = ""


# 15.1.13(d), (a)(2), (b)(1): when the completion date passes without the final certificate the
# temporary certificate ends; the building may not be occupied, and the inspector orders the
# occupancy discontinued (vacated within 10 days) or the work completed and certified.
OCCUPANCY_ENDED = (
    "Temporary occupancy ended, no final certificate: order it discontinued or the building "
    "completed (15.1.13(b)(1))"
)


def _active_with_dates(uow: UnitOfWork, municipality_id: int) -> list[tuple[Permit, PermitDates]]:
    muni = uow.municipalities.get(municipality_id)
    assert muni is not None
    permits = uow.permits.active(municipality_id)
    # 15.1.13(d): the temporary certificates still in force, also on completed or expired permits.
    certificates: dict[int, list[OccupancyCertificate]] = {}
    for c in uow.inspections.certificates_with_temporary(municipality_id):
        certificates.setdefault(c.permit_id, []).append(c)
    occupancy = {pid: _temporary_until(cs) for pid, cs in certificates.items()}
    seen = {p.id for p in permits}
    for pid, until in occupancy.items():
        if until is not None and pid not in seen:
            other = uow.permits.get(pid)
            if other is not None and other.status in OCCUPANCY_WATCHED:
                permits.append(other)
    rules = {p.id: _safe_rule(muni.ordinance, p.kind) for p in permits}
    # 15.2.8(e)(1): erosion control runs at least as long as the building permit on the parcel.
    building_end: dict[int, date] = {}
    for p in permits:
        if rules[p.id] is Rule.BUILDING and p.parcel_id is not None:
            end = term_end(permit_dates(p, Rule.BUILDING))
            if end and end > building_end.get(p.parcel_id, date.min):
                building_end[p.parcel_id] = end
    return [
        (
            p,
            permit_dates(
                p,
                rules[p.id],
                building_end.get(p.parcel_id) if p.parcel_id is not None else None,
                occupancy.get(p.id) if p.id is not None else None,
            ),
        )
        for p in permits
    ]


def _address(permit: Permit) -> str:
    return permit.parcel.address if permit.parcel is not None else ""


def _safe_rule(key: str, kind: str) -> Rule:
    try:
        return kind_by_code(key, kind).lifecycle
    except ValidationError:
        return Rule.NONE


def sweep_lapsed(
    uow: UnitOfWork, clock: Clock, municipality_id: int, actor: Actor | None = None
) -> list[Lapse]:
    """Mark every live permit whose deadline has passed as expired (on start and from
    `permitdesk lifecycle sweep`). The audit trail records the deadline that lapsed.

    A temporary certificate of occupancy whose completion date has passed without a final
    certificate is returned flagged (Lapse.flag), not expired: 15.1.13(d) ends the permission
    to occupy, not the permit, and the order to discontinue the occupancy is the inspector's
    (15.1.13(b)(1)). It stays on the Deadlines list as overdue until a final certificate."""
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        out = []
        for permit, dates in _active_with_dates(uow, municipality_id):
            assert permit.id is not None
            out.extend(_occupancy_ended(permit, dates, today))
            missed = lapsed(dates, today)
            if missed is None:
                continue
            permit.status = S.EXPIRED
            permit.status_date = missed.due + timedelta(days=1)
            out.append(Lapse(permit.id, permit.number, missed, _address(permit), permit.kind))
        uow.commit()
        return out


def _occupancy_ended(permit: Permit, dates: PermitDates, today: date) -> list[Lapse]:
    """The ended temporary certificate of occupancy, flagged (15.1.13(d)); [] when none."""
    ended = occupancy_ended(dates, today)
    if ended is None or permit.id is None:
        return []
    return [Lapse(permit.id, permit.number, ended, _address(permit), permit.kind, OCCUPANCY_ENDED)]


def lapsing_within(
    uow: UnitOfWork, clock: Clock, municipality_id: int, days: int = 30
) -> list[Lapse]:
    """Live permits with a deadline in the next `days` days, soonest first; before them, the
    temporary certificates of occupancy that ended without a final certificate (overdue,
    15.1.13(d))."""
    today = clock.today()
    horizon = today + timedelta(days=days)
    with uow:
        out = []
        for permit, dates in _active_with_dates(uow, municipality_id):
            assert permit.id is not None
            out.extend(_occupancy_ended(permit, dates, today))
            for d in deadlines(dates):
                if d.code == OCCUPANCY and dates.status not in OCCUPANCY_WATCHED:
                    continue
                if d.code != OCCUPANCY and dates.status not in ACTIVE:
                    continue  # a completed or expired permit watched only for its occupancy
                if today <= d.due <= horizon:
                    out.append(Lapse(permit.id, permit.number, d, _address(permit), permit.kind))
        return sorted(out, key=lambda lapse: (lapse.deadline.due, lapse.number or ""))


def issue_stop_work_order(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, reasons: str, section: str
) -> int:
    """15.1.12: when the Code or the approved plans are not complied with, a stop-work order is
    served on the owner and posted at the site; the permit goes on hold."""
    require(actor, Permission.ISSUE_PERMIT)
    if not reasons.strip():
        raise ValidationError("reasons", "state the violations the order is for")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        check_transition(permit.status, S.ON_HOLD)
        return record_order(
            uow, clock, actor, permit, "stop_work", reasons.strip(), section or "15.1.12", S.ON_HOLD
        )


def lift_stop_work_order(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, notice: str
) -> None:
    """15.1.12: the order is removed only by the inspector's written notice, after satisfactory
    evidence that the violation is corrected; work may resume."""
    require(actor, Permission.ISSUE_PERMIT)
    if not notice.strip():
        raise ValidationError("notice", "write the notice that lifts the order")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        open_orders = [o for o in permit.orders if o.kind == "stop_work" and o.lifted_on is None]
        if permit.status is not S.ON_HOLD or not open_orders:
            raise RuleViolation("This permit has no stop-work order in force.")
        for o in open_orders:
            o.lifted_on = clock.today()
            o.lift_notice = notice.strip()
        resumed = S.WORK_STARTED if permit.commenced_on else S.ISSUED
        permit.status = resumed
        permit.status_date = clock.today()
        permit.last_activity_on = clock.today()
        uow.commit()


def revoke_permit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    reason_codes: list[str],
    details: str = "",
) -> int:
    """15.1.7(g): revocation by written notice served on the applicant, owner and person in charge,
    and a placard posted; a revoked permit is void and work needs a new permit and fees ((g)(4))."""
    require(actor, Permission.ISSUE_PERMIT)
    unknown = [c for c in reason_codes if c not in REVOCATION_REASONS]
    if not reason_codes or unknown:
        raise ValidationError("reasons", "choose one or more of the reasons a–f of 15.1.7(g)")
    text = "; ".join(f"({c}) {REVOCATION_REASONS[c]}" for c in sorted(set(reason_codes)))
    if details.strip():
        text += f". {details.strip()}"
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        check_transition(permit.status, S.REVOKED)
        return record_order(uow, clock, actor, permit, "revocation", text, "15.1.7(g)", S.REVOKED)


def record_order(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit: Permit,
    kind: str,
    reasons: str,
    section: str,
    status: PermitStatus,
) -> int:
    """A written order on the permit and the status it puts the permit in, in one commit."""
    order = PermitOrder(
        kind=kind,
        issued_on=clock.today(),
        reasons=reasons,
        section=section,
        by_user_id=actor.user_id,
        at=clock.now(),
    )
    permit.orders.append(order)
    permit.status = status
    permit.status_date = clock.today()
    uow.commit()
    assert order.id is not None
    return order.id
