"""Inspection use cases: requests taken at the counter, the inspector's day and route,
results with the order of 15.1.11(a) enforced, correction orders, the re-inspection and
failure-to-call fees, the permit's completion, certificates of occupancy (15.1.13), and the
recurring erosion-control (15.2.9) and grease-interceptor (15.1.57(c)) visits.

The rules are desk/domain/inspections.py; each service checks the role, reads the register,
applies the rule and writes rows in one transaction. Fees are priced by the fee engine with the
version in force today and stored as lines added after assessment (the fee_adjustment table that
desk/services/cashiering.py writes), so the permit's balance and the cashier see them at once.

The frozen rows at the end are what the read queries (db/inspection_queries.py) return and what
the screens and reports/ render.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import cache

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.enums import PermitStatus, Role
from desk.domain.inspections import (
    CorrectionOrder,
    DueTime,
    FeeDecision,
    InspectionSequence,
    InspectionType,
    Result,
    SequenceException,
    StageState,
    StageStatus,
    Timing,
    Waiver,
    certificate_shortfalls,
    check_result,
    check_sequence,
    correction_order,
    erosion_visits_due,
    extend_correction_order,
    failure_to_call_fee,
    grease_inspection,
    inspection_due,
    reinspection_fee,
    sequence_for,
    sequence_status,
    sequences_for,
    temporary_occupancy,
)
from desk.domain.lifecycle import ACTIVE, TRANSITIONS
from desk.domain.model import (
    Actor,
    CorrectionOrderRecord,
    Inspection,
    InspectionException,
    InspectionStatus,
    Municipality,
    OccupancyCertificate,
    Permit,
)
from desk.domain.numbering import format_number
from desk.domain.permissions import Permission, allowed, require
from desk.errors import NotFound, PermissionDenied, RuleViolation, ValidationError
from desk.services.cashiering import add_fee_line_within, amount_due
from desk.services.fees import failure_to_call_occurrence
from desk.services.uow import UnitOfWork
from desk.text import sentence_start

CERTIFICATE_SERIES = "CO"  # gapless per municipality and year, like permits (15.1.13(a))
# The sequences whose final inspection leads to a certificate of occupancy (15.1.13(a): no
# building erected or structurally altered is occupied before the certificate is issued).
CERTIFICATE_SEQUENCES = frozenset(
    {"building", "building-accessory", "building-alteration", "occupancy", "change-of-use"}
)
TEMPORARY_SEQUENCES = frozenset({"temporary-occupancy"})  # 15.1.13(d)
EROSION_CALLER = "Erosion control schedule (15.2.9)"
GREASE_CALLER = "Annual inspection (15.1.57(c))"
OPEN = (InspectionStatus.REQUESTED, InspectionStatus.SCHEDULED)
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")


# --------------------------------------------------------------------------- small helpers


def _require_inspector(actor: Actor, what: str) -> None:
    """15.1.6, 15.1.11: the Building Inspector inspects. The role that issues permits (an
    inspector or an administrator) records results, exceptions and certificates."""
    if not allowed(actor, Permission.ISSUE_PERMIT):
        raise PermissionDenied(
            f"You are signed in as {actor.username}; only an inspector may {what}."
        )


def _permit(uow: UnitOfWork, permit_id: int) -> Permit:
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def _municipality(uow: UnitOfWork, permit: Permit) -> Municipality:
    muni = uow.municipalities.get(permit.municipality_id)
    assert muni is not None
    return muni


def permit_label(permit: Permit) -> str:
    return f"permit {permit.number}" if permit.number else f"application #{permit.id}"


def _sequence(uow: UnitOfWork, permit: Permit) -> tuple[InspectionSequence, Municipality]:
    muni = _municipality(uow, permit)
    seq = sequence_for(muni.ordinance, permit.kind)
    if seq is None:
        raise RuleViolation(
            f"{sentence_start(permit_label(permit))} is of a kind with no inspections."
        )
    return seq, muni


def _inspection(uow: UnitOfWork, inspection_id: int) -> Inspection:
    found = uow.inspections.get(inspection_id)
    if found is None:
        raise NotFound(f"inspection #{inspection_id} does not exist")
    return found


def done_results(rows: Iterable[Inspection]) -> list[tuple[str, Result]]:
    """(type, result) of the recorded inspections, oldest first, for the sequence rules."""
    done = [r for r in rows if r.status is InspectionStatus.DONE and r.result is not None]
    done.sort(key=lambda r: (r.result_at or r.requested_at, r.id or 0))
    out = []
    for r in done:
        assert r.result is not None
        out.append((r.type_code, Result(r.result)))
    return out


def _exceptions(uow: UnitOfWork, permit_id: int) -> list[SequenceException]:
    return [
        SequenceException(e.type_code, e.reason) for e in uow.inspections.exceptions_for(permit_id)
    ]


@cache
def _types_of(municipality_key: str) -> dict[str, InspectionType]:
    out: dict[str, InspectionType] = {}
    for s in sequences_for(municipality_key):
        for t in s.types:
            out.setdefault(t.code, t)
    return out


def type_label(municipality_key: str, code: str) -> str:
    """The inspection type's label; the code itself for a type no longer shipped."""
    found = _types_of(municipality_key).get(code)
    return found.label if found is not None else code


def inspection_type(municipality_key: str, code: str) -> InspectionType | None:
    return _types_of(municipality_key).get(code)


def due_at(municipality_key: str, code: str, requested_at: datetime) -> datetime | None:
    """When the ordinance says the inspection must be made (15.1.76(c): electrical rough-in
    within 24 hours of the notice), else None."""
    t = _types_of(municipality_key).get(code)
    if t is None:
        return None
    due = inspection_due(t, requested_at)
    return due.due_at if due is not None else None


def parse_desired_time(text: str) -> str:
    """'', 'AM', 'PM' or a time of day 'HH:MM' (24-hour), as the caller asked."""
    raw = text.strip().upper().replace(".", "")
    if raw in ("", "AM", "PM"):
        return raw
    m = _TIME.match(raw)
    if m and int(m.group(1)) < 24 and int(m.group(2)) < 60:
        return f"{int(m.group(1)):02d}:{m.group(2)}"
    raise ValidationError("desired time", f"'{text}' is not AM, PM or a time such as 09:30")


def order_rule(o: CorrectionOrderRecord) -> CorrectionOrder:
    """The stored order as the rules read it."""
    return CorrectionOrder(
        noticed_on=o.noticed_on,
        due_on=o.due_on,
        section=o.section,
        corrected_on=o.corrected_on,
        extended=o.extended,
        reason=o.extension_reasons,
    )


# --------------------------------------------------------------------------- fee lines


@dataclass(frozen=True)
class FeeCharged:
    code: str
    amount: Decimal
    why: str


def _charge(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit: Permit, decision: FeeDecision
) -> FeeCharged | None:
    """The decision's fee as a line added after assessment, in this transaction (cashiering's
    add_fee_line_within); None when the fee is waived."""
    item = decision.quote_item
    if item is None:
        return None
    total = add_fee_line_within(uow, clock, actor, permit, item, decision.why)
    return FeeCharged(decision.code, total, decision.why)


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class RequestInput:
    """A phone call at the counter: who called, for which permit and inspection, and when they
    would like it."""

    permit_id: int
    type_code: str
    requested_by: str
    requested_phone: str = ""
    desired_on: date | None = None
    desired_time: str = ""  # "", "AM", "PM" or "HH:MM"
    notes: str = ""


@dataclass(frozen=True)
class RequestResult:
    inspection_id: int
    type_label: str
    due: DueTime | None  # the ordinance's time limit (electrical rough-in: 24 hours)
    waiting_for: tuple[str, ...]  # earlier stages not passed yet: said to the caller


def request_inspection(
    uow: UnitOfWork, clock: Clock, actor: Actor, r: RequestInput
) -> RequestResult:
    """Record a request. The order of the stages is checked when the result is recorded; here
    the stages still missing are returned so the clerk can tell the caller."""
    require(actor, Permission.EDIT_PERMIT)
    caller = r.requested_by.strip()
    if not caller:
        raise ValidationError("caller", "say who called (the name is printed on the route sheet)")
    desired_time = parse_desired_time(r.desired_time)
    today, now = clock.today(), clock.now()
    if r.desired_on is not None and r.desired_on < today:
        raise ValidationError("desired date", f"{short_date(r.desired_on)} is in the past")
    with uow:
        uow.act_as(actor, now)
        permit = _permit(uow, r.permit_id)
        seq, _ = _sequence(uow, permit)
        itype = seq.type(r.type_code)
        if permit.status not in ACTIVE and itype.timing is not Timing.BEFORE_PERMIT:
            raise RuleViolation(
                f"{sentence_start(permit_label(permit))} is {permit.status.label.lower()}: "
                "inspections are requested on a live permit."
            )
        rows = uow.inspections.for_permit(permit.id or 0)
        if not itype.recurring and any(
            x.type_code == itype.code and x.status in OPEN for x in rows
        ):
            raise RuleViolation(
                f"{itype.label} is already requested on {permit_label(permit)}; schedule or "
                "cancel that request."
            )
        waiting = check_sequence(
            seq, done_results(rows), itype.code, _exceptions(uow, permit.id or 0)
        )
        insp = Inspection(
            permit_id=r.permit_id,
            type_code=itype.code,
            requested_by=caller,
            requested_phone=r.requested_phone.strip(),
            requested_at=now,
            desired_on=r.desired_on,
            desired_time=desired_time,
            notes=r.notes.strip(),
        )
        uow.inspections.add(insp)
        uow.flush()
        assert insp.id is not None
        due = inspection_due(itype, now)
        uow.commit()
        return RequestResult(insp.id, itype.label, due, tuple(waiting))


def _is_inspector(uow: UnitOfWork, user_id: int) -> str:
    user = uow.users.get(user_id)
    if user is None or not user.active:
        raise ValidationError("inspector", f"user #{user_id} is not an active user")
    if not user.roles & {Role.INSPECTOR, Role.ADMINISTRATOR}:
        raise ValidationError("inspector", f"{user.full_name} is not an inspector")
    return user.full_name


def _renumber(rows: Sequence[Inspection]) -> None:
    for i, row in enumerate(rows, start=1):
        if row.route_position != i:
            row.route_position = i


def schedule_inspection(
    uow: UnitOfWork, clock: Clock, actor: Actor, inspection_id: int, inspector_id: int, day: date
) -> int:
    """Put a request on an inspector's day, at the end of the route. Returns its position."""
    require(actor, Permission.EDIT_PERMIT)
    if day < clock.today():
        raise ValidationError("date", f"{short_date(day)} is in the past")
    with uow:
        uow.act_as(actor, clock.now())
        insp = _inspection(uow, inspection_id)
        if insp.status not in OPEN:
            raise RuleViolation(
                f"This inspection is {insp.status.label.lower()}; only a request can be scheduled."
            )
        _is_inspector(uow, inspector_id)
        old = (insp.inspector_id, insp.scheduled_on)
        if old == (inspector_id, day) and insp.route_position is not None:
            uow.commit()
            return insp.route_position
        route = [x for x in uow.inspections.route(inspector_id, day) if x.id != insp.id]
        insp.inspector_id = inspector_id
        insp.scheduled_on = day
        insp.status = InspectionStatus.SCHEDULED
        insp.route_position = len(route) + 1
        if old[0] is not None and old[1] is not None:
            _renumber([x for x in uow.inspections.route(old[0], old[1]) if x.id != insp.id])
        uow.commit()
        return insp.route_position


def move_in_route(
    uow: UnitOfWork, clock: Clock, actor: Actor, inspection_id: int, step: int
) -> int:
    """Move a stop up (step -1) or down (+1) the inspector's route; returns its new position."""
    require(actor, Permission.EDIT_PERMIT)
    with uow:
        uow.act_as(actor, clock.now())
        insp = _inspection(uow, inspection_id)
        if insp.inspector_id is None or insp.scheduled_on is None:
            raise RuleViolation("This inspection is not on an inspector's route yet.")
        route = uow.inspections.route(insp.inspector_id, insp.scheduled_on)
        i = next(n for n, x in enumerate(route) if x.id == insp.id)
        j = max(0, min(len(route) - 1, i + step))
        route.insert(j, route.pop(i))
        _renumber(route)
        uow.commit()
        return j + 1


def cancel_inspection(
    uow: UnitOfWork, clock: Clock, actor: Actor, inspection_id: int, reason: str
) -> None:
    """The caller calls it off (or the inspector cannot make it): kept, marked cancelled."""
    require(actor, Permission.EDIT_PERMIT)
    if not reason.strip():
        raise ValidationError("reason", "say why the inspection is cancelled")
    with uow:
        uow.act_as(actor, clock.now())
        insp = _inspection(uow, inspection_id)
        if insp.status not in OPEN:
            raise RuleViolation(f"This inspection is {insp.status.label.lower()} already.")
        route = (insp.inspector_id, insp.scheduled_on)
        insp.status = InspectionStatus.CANCELLED
        insp.result = Result.CANCELLED
        insp.result_at = clock.now()
        insp.recorded_by_id = actor.user_id
        insp.notes = "\n".join(x for x in (insp.notes, f"Cancelled: {reason.strip()}") if x)
        insp.route_position = None
        if route[0] is not None and route[1] is not None:
            _renumber([x for x in uow.inspections.route(route[0], route[1]) if x.id != insp.id])
        uow.commit()


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class ResultInput:
    inspection_id: int
    result: Result
    notes: str = ""
    correction_items: str = ""  # a rejection: what must be corrected (the written notice)
    correct_by: date | None = None  # another date than the ordinance's period
    extension_reason: str = ""  # why correct_by goes beyond the period
    failure_to_call: bool = False  # the work was covered before the inspection was called for
    fee_waiver: str = ""  # the inspector waives this inspection's fee: why


@dataclass(frozen=True)
class ResultOutcome:
    inspection_id: int
    type_label: str
    result: Result | None  # None: a failure to call (no inspection was made)
    fees: tuple[FeeCharged, ...]
    waived: tuple[str, ...]  # fee decisions waived, in words
    correction_order_id: int | None
    correct_by: date | None
    completed_on: date | None  # the final passed: the permit is completed
    offer_certificate: bool  # a building permit's final passed: 15.1.13(a)
    temporary_certificate: bool  # a temporary occupancy examination passed: 15.1.13(d)


def _record_order(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit: Permit,
    insp: Inspection,
    trade: str,
    r: ResultInput,
) -> CorrectionOrderRecord:
    order = correction_order(trade, clock.today(), r.correct_by, r.extension_reason)
    rec = CorrectionOrderRecord(
        permit_id=permit.id or 0,
        inspection_id=insp.id,
        noticed_on=order.noticed_on,
        due_on=order.due_on,
        section=order.section,
        items=r.correction_items.strip(),
        extended=order.extended,
        extension_reasons=f"to {short_date(order.due_on)}: {order.reason}"
        if order.extended
        else "",
        by_user_id=actor.user_id,
        at=clock.now(),
    )
    uow.inspections.add(rec)
    return rec


def record_result(uow: UnitOfWork, clock: Clock, actor: Actor, r: ResultInput) -> ResultOutcome:
    """The inspector records what the inspection found (15.1.11(a)); a rejection is a written
    correction order (15.1.90(b)(1)); a re-inspection after a rejection carries the REINSPECTION
    fee (15.1.21(a)(12)); a failure to call the FAIL-TO-CALL fee for the contractor's occurrence
    (15.1.21(a)(13)); the final that passes completes the permit."""
    _require_inspector(actor, "record inspection results")
    if r.result is Result.REJECTED and not r.correction_items.strip():
        raise ValidationError(
            "correction items",
            "list what must be corrected; the written notice states it (15.1.90(b)(1))",
        )
    waiver = Waiver(r.fee_waiver.strip(), actor.username) if r.fee_waiver.strip() else None
    occurrence = None
    if r.failure_to_call:
        with uow:
            permit_id = _inspection(uow, r.inspection_id).permit_id
        occurrence = failure_to_call_occurrence(uow, permit_id)
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        insp = _inspection(uow, r.inspection_id)
        if insp.status not in OPEN:
            raise RuleViolation(
                f"This inspection is {insp.status.label.lower()} already; a new visit is a new "
                "request (a re-inspection)."
            )
        permit = _permit(uow, insp.permit_id)
        seq, _ = _sequence(uow, permit)
        itype = seq.type(insp.type_code)
        check_result(itype, r.result)
        earlier = [x for x in uow.inspections.for_permit(insp.permit_id) if x.id != insp.id]
        done = done_results(earlier)
        if r.result is not Result.CANCELLED:
            missing = check_sequence(seq, done, itype.code, _exceptions(uow, insp.permit_id))
            if missing:
                raise RuleViolation(
                    f"{itype.label} cannot be recorded before the stages it follows have passed "
                    "(15.1.11(a)):\n"
                    + "\n".join(f"• {m}" for m in missing)
                    + "\nAn inspector may record an exception with a reason where a stage does "
                    "not apply."
                )
        insp.result = r.result
        insp.status = (
            InspectionStatus.CANCELLED if r.result is Result.CANCELLED else InspectionStatus.DONE
        )
        insp.notes = "\n".join(x for x in (insp.notes, r.notes.strip()) if x)
        insp.result_at = now
        insp.recorded_by_id = actor.user_id
        insp.scheduled_on = insp.scheduled_on or today
        insp.inspector_id = insp.inspector_id or actor.user_id
        insp.failure_to_call = r.failure_to_call
        fees: list[FeeCharged] = []
        waived: list[str] = []
        decisions: list[FeeDecision] = []
        if r.result is not Result.CANCELLED:
            again = reinspection_fee(
                itype, [res for code, res in done if code == itype.code], waiver
            )
            if again is not None:
                decisions.append(again)
        if occurrence is not None:
            decisions.append(failure_to_call_fee(itype, occurrence, waiver))
        for decision in decisions:
            charged = _charge(uow, clock, actor, permit, decision)
            if charged is not None:
                fees.append(charged)
            else:
                waived.append(decision.message)
        if waived and waiver is not None:
            insp.fee_waiver = waiver.reason
        order_id = correct_by = None
        if r.result is Result.REJECTED:
            rec = _record_order(uow, clock, actor, permit, insp, itype.trade, r)
            uow.flush()
            order_id, correct_by = rec.id, rec.due_on
        if r.result.passes:
            # The stage passed on re-inspection: its open orders are corrected.
            stage_ids = {x.id for x in earlier if x.type_code == itype.code}
            for o in uow.inspections.orders_for(insp.permit_id):
                if o.corrected_on is None and o.inspection_id in stage_ids:
                    o.corrected_on = today
        # An inspection is activity on the site (15.1.8(b): work suspended 60 days).
        if (
            r.result is not Result.CANCELLED
            and permit.status in ACTIVE
            and (permit.last_activity_on is None or today > permit.last_activity_on)
        ):
            permit.last_activity_on = today
        completed_on = None
        final = r.result.passes and itype.final
        if final and PermitStatus.COMPLETED in TRANSITIONS[permit.status]:
            permit.completed_on = today
            permit.status = PermitStatus.COMPLETED
            permit.status_date = today
            completed_on = today
        uow.commit()
        return ResultOutcome(
            inspection_id=insp.id or 0,
            type_label=itype.label,
            result=r.result,
            fees=tuple(fees),
            waived=tuple(waived),
            correction_order_id=order_id,
            correct_by=correct_by,
            completed_on=completed_on,
            offer_certificate=final and seq.code in CERTIFICATE_SEQUENCES,
            temporary_certificate=final and seq.code in TEMPORARY_SEQUENCES,
        )


def record_failure_to_call(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    type_code: str,
    notes: str,
    fee_waiver: str = "",
) -> ResultOutcome:
    """Work found covered with no inspection called for (15.1.21(a)(13)): kept as an inspection
    of that stage marked as a failure to call, with no result (the stage has not passed), and
    the FAIL-TO-CALL fee for the contractor's occurrence added to the permit."""
    _require_inspector(actor, "record a failure to call")
    if not notes.strip():
        raise ValidationError("notes", "say what was found covered")
    waiver = Waiver(fee_waiver.strip(), actor.username) if fee_waiver.strip() else None
    occurrence = failure_to_call_occurrence(uow, permit_id)
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        permit = _permit(uow, permit_id)
        seq, _ = _sequence(uow, permit)
        itype = seq.type(type_code)
        decision = failure_to_call_fee(itype, occurrence, waiver)
        insp = Inspection(
            permit_id=permit_id,
            type_code=itype.code,
            requested_by="(not called for)",
            requested_at=now,
            scheduled_on=today,
            inspector_id=actor.user_id,
            status=InspectionStatus.DONE,
            notes=notes.strip(),
            result_at=now,
            recorded_by_id=actor.user_id,
            failure_to_call=True,
            fee_waiver=waiver.reason if waiver else "",
        )
        uow.inspections.add(insp)
        charged = _charge(uow, clock, actor, permit, decision)
        uow.flush()
        uow.commit()
        return ResultOutcome(
            inspection_id=insp.id or 0,
            type_label=itype.label,
            result=None,
            fees=(charged,) if charged else (),
            waived=() if charged else (decision.message,),
            correction_order_id=None,
            correct_by=None,
            completed_on=None,
            offer_certificate=False,
            temporary_certificate=False,
        )


def record_exception(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, type_code: str, reason: str
) -> int:
    """The inspector's exception to the order of 15.1.11(a): this stage need not pass before the
    stages that follow it (slab on grade: no basement floor). The reason stays with the permit."""
    _require_inspector(actor, "record an exception to the order of inspections")
    exception = SequenceException(type_code, reason)  # checks the reason
    with uow:
        uow.act_as(actor, clock.now())
        permit = _permit(uow, permit_id)
        seq, _ = _sequence(uow, permit)
        seq.type(type_code)
        if any(e.type_code == type_code for e in uow.inspections.exceptions_for(permit_id)):
            raise RuleViolation(f"{seq.type(type_code).label} has an exception already.")
        row = InspectionException(
            permit_id=permit_id,
            type_code=type_code,
            reason=exception.reason.strip(),
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.inspections.add(row)
        uow.flush()
        uow.commit()
        assert row.id is not None
        return row.id


# --------------------------------------------------------------------------- correction orders


def extend_correction(
    uow: UnitOfWork, clock: Clock, actor: Actor, order_id: int, new_due: date, reason: str
) -> date:
    """The inspector grants more time (15.1.90(b)(1) "unless an extension of time is granted")."""
    _require_inspector(actor, "extend a correction order")
    with uow:
        uow.act_as(actor, clock.now())
        rec = uow.inspections.order(order_id)
        if rec is None:
            raise NotFound(f"correction order #{order_id} does not exist")
        extended = extend_correction_order(order_rule(rec), new_due, reason)
        rec.due_on = extended.due_on
        rec.extended = True
        line = f"to {short_date(extended.due_on)}: {extended.reason}"
        rec.extension_reasons = "\n".join(x for x in (rec.extension_reasons, line) if x)
        uow.commit()
        return rec.due_on


def mark_corrected(
    uow: UnitOfWork, clock: Clock, actor: Actor, order_id: int, on: date | None = None
) -> None:
    """The violations are corrected (seen on site without a new inspection of the stage)."""
    _require_inspector(actor, "mark a correction order corrected")
    day = on or clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        rec = uow.inspections.order(order_id)
        if rec is None:
            raise NotFound(f"correction order #{order_id} does not exist")
        if rec.corrected_on is not None:
            raise RuleViolation(
                f"The order was corrected on {short_date(rec.corrected_on)} already."
            )
        if day < rec.noticed_on or day > clock.today():
            raise ValidationError(
                "corrected on",
                f"must be between the notice of {short_date(rec.noticed_on)} and today",
            )
        rec.corrected_on = day
        uow.commit()


# --------------------------------------------------------------------------- certificates


@dataclass(frozen=True)
class CertificateInput:
    permit_id: int
    use: str  # "the purpose for which the building is to be used" (15.1.13(a)(1))
    conditions: str = ""
    occupant: str = ""  # the user of a non-residential building (15.1.13(c))
    temporary_until: date | None = None  # a temporary certificate: completion due (15.1.13(d))
    safe_and_sanitary: bool = False  # the inspector's finding for a temporary certificate


@dataclass(frozen=True)
class CertificateResult:
    certificate_id: int
    number: str
    temporary_until: date | None
    balance_due: Decimal = Decimal("0.00")  # fees charged since issuance and not yet paid


def issue_certificate(
    uow: UnitOfWork, clock: Clock, actor: Actor, c: CertificateInput
) -> CertificateResult:
    """A numbered certificate of occupancy: after the final inspection found no violation
    (15.1.13(a)(1)), or, for hardship, a temporary one after the premises were examined and
    found safe and sanitary, with the completion date at most 120 days away (15.1.13(d)).
    That date is then the permit's deadline until a final certificate is issued on the permit
    (desk/services/lifecycle.py: the Deadlines list, and the sweep flags it when it passes).

    Fees charged after issuance and not yet paid (a re-inspection, 15.1.21(a)(12); a failure to
    call, (a)(13)) do not hold the certificate: 15.1.13 names its conditions and payment is not
    one of them (15.1.21 requires the permit's fees paid when the permit is issued, which they
    were). The certificate is issued and the result names the balance, which stays on the
    permit and in the counter's Needs attention until paid."""
    _require_inspector(actor, "issue certificates of occupancy")
    if not c.use.strip():
        raise ValidationError(
            "use", "state the purpose for which the building is to be used (15.1.13(a)(1))"
        )
    today, now = clock.today(), clock.now()
    if c.temporary_until is not None:
        temporary_occupancy(today, c.temporary_until, c.safe_and_sanitary)
    with uow:
        uow.act_as(actor, now)
        permit = _permit(uow, c.permit_id)
        if not permit.number:
            raise RuleViolation(
                f"{sentence_start(permit_label(permit))} is not issued; a certificate of occupancy "
                "follows the permit's final inspection."
            )
        seq, muni = _sequence(uow, permit)
        if c.temporary_until is None:
            final = seq.final_type
            done = done_results(uow.inspections.for_permit(c.permit_id))
            passed = final is not None and any(
                code == final.code and res.passes for code, res in done
            )
            orders = [order_rule(o) for o in uow.inspections.orders_for(c.permit_id)]
            shortfalls = certificate_shortfalls(passed, orders, c.use)
            if shortfalls:
                raise RuleViolation(
                    "A certificate of occupancy cannot be issued yet:\n"
                    + "\n".join(f"• {s}" for s in shortfalls)
                )
        assert muni.id is not None
        seq_no = uow.numbers.next(muni.id, CERTIFICATE_SERIES, today.year)
        user = uow.users.get(actor.user_id)
        cert = OccupancyCertificate(
            municipality_id=muni.id,
            number=format_number(today.year, seq_no),
            permit_id=c.permit_id,
            use_stated=c.use.strip(),
            conditions=c.conditions.strip(),
            occupant=c.occupant.strip(),
            temporary_until=c.temporary_until,
            issued_on=today,
            inspector_id=actor.user_id,
            inspector_name=user.full_name if user is not None else actor.username,
            at=now,
        )
        uow.inspections.add(cert)
        uow.flush()
        balance_due = max(amount_due(uow, c.permit_id), Decimal("0.00"))
        uow.commit()
        assert cert.id is not None
        return CertificateResult(cert.id, cert.number, cert.temporary_until, balance_due)


# --------------------------------------------------------------------------- recurring visits


@dataclass(frozen=True)
class VisitDue:
    """A recurring visit that is due or was missed on an active permit."""

    permit_id: int
    permit_number: str
    address: str
    period: str  # "April 2026", "Winter 2026–27 (Nov 1 – Feb 28)", "2026"
    due: int
    done: int
    overdue: bool
    requested: int  # requests created now for this period
    section: str


def _address(permit: Permit) -> str:
    return permit.parcel.address if permit.parcel is not None else ""


def generate_site_visits(
    uow: UnitOfWork, clock: Clock, actor: Actor, municipality_id: int
) -> list[VisitDue]:
    """Every active erosion-control permit gets its visit requests for the current period
    (15.2.9: monthly March–October, twice November–February) and every active grease
    interceptor permit its annual one (15.1.57(c)); missed periods are listed as overdue."""
    require(actor, Permission.EDIT_PERMIT)
    today, now = clock.today(), clock.now()
    out: list[VisitDue] = []
    with uow:
        uow.act_as(actor, now)
        muni = uow.municipalities.get(municipality_id)
        if muni is None:
            raise NotFound(f"municipality #{municipality_id} does not exist")
        for permit in uow.permits.active(municipality_id):
            seq = sequence_for(muni.ordinance, permit.kind)
            step = next((t for t in seq.types if t.recurring), None) if seq else None
            if step is None or permit.id is None or permit.issued_on is None:
                continue
            rows = [x for x in uow.inspections.for_permit(permit.id) if x.type_code == step.code]
            # A visit made counts whatever it found; a cancelled one does not.
            visits = [
                (x.result_at or now).date()
                for x in rows
                if x.status is InspectionStatus.DONE and x.result is not None
            ]
            open_count = sum(1 for x in rows if x.status in OPEN)
            number = permit.number or f"#{permit.id}"
            if step.timing is Timing.EROSION_SEASON:
                until = permit.expires_on or today + timedelta(days=366)
                if until < permit.issued_on:
                    continue
                for p in erosion_visits_due(permit.issued_on, until, visits):
                    if p.start > today:
                        break
                    current = p.start <= today <= p.end
                    if not current and p.shortfall == 0:
                        continue
                    make = max(0, p.shortfall - open_count) if current else 0
                    for i in range(make):
                        visit = p.done + open_count + i + 1
                        note = f"{p.label}: visit {visit} of {p.due} (15.2.9)"
                        _visit_request(uow, permit.id, step, EROSION_CALLER, now, note)
                    if current or p.overdue(today):
                        out.append(
                            VisitDue(
                                permit.id,
                                number,
                                _address(permit),
                                p.label,
                                p.due,
                                p.done,
                                p.overdue(today),
                                make,
                                "15.2.9",
                            )
                        )
            elif step.timing is Timing.ANNUAL:
                for year in range(permit.issued_on.year, today.year + 1):
                    g = grease_inspection(year, visits)
                    if g.done:
                        continue
                    make = 1 if year == today.year and open_count == 0 else 0
                    if make:
                        _visit_request(uow, permit.id, step, GREASE_CALLER, now, g.message)
                    out.append(
                        VisitDue(
                            permit.id,
                            number,
                            _address(permit),
                            str(year),
                            1,
                            0,
                            g.overdue(today),
                            make,
                            "15.1.57(c)",
                        )
                    )
        uow.commit()
    return out


def _visit_request(
    uow: UnitOfWork, permit_id: int, step: InspectionType, caller: str, now: datetime, note: str
) -> None:
    uow.inspections.add(
        Inspection(
            permit_id=permit_id,
            type_code=step.code,
            requested_by=caller,
            requested_at=now,
            notes=note,
        )
    )


# --------------------------------------------------------------------------- read models
# Frozen rows returned by db/inspection_queries.py, rendered by the screens and reports/.


@dataclass(frozen=True)
class RouteStop:
    inspection_id: int
    position: int | None
    permit_id: int
    permit_number: str
    address: str
    type_code: str
    type_label: str
    contact: str
    phone: str
    desired_on: date | None
    desired_time: str
    notes: str
    status: InspectionStatus
    result: Result | None
    requested_at: datetime
    due_at: datetime | None  # the ordinance's time limit (15.1.76(c))
    inspector_id: int | None = None
    inspector_name: str = ""
    scheduled_on: date | None = None
    # A case inspection beside the permit inspections (Hudson 140-3, 140-10A): kind "case",
    # the case number in `permit_number`, the permit's own fields empty (ids 0); `items` is what
    # to inspect: the complaint, or the open violations with their unit and room.
    kind: str = "permit"
    case_id: int | None = None
    visit_id: int | None = None
    items: tuple[str, ...] = ()

    @property
    def is_case(self) -> bool:
        return self.kind == "case"


@dataclass(frozen=True)
class RouteSheet:
    municipality_name: str
    letterhead: tuple[str, ...]
    inspector_name: str
    day: date
    stops: tuple[RouteStop, ...]


@dataclass(frozen=True)
class InspectionLine:
    """One inspection on the permit's Inspections tab."""

    id: int
    type_code: str
    type_label: str
    requested_at: datetime
    requested_by: str
    phone: str
    scheduled_on: date | None
    inspector_name: str
    status: InspectionStatus
    result: Result | None
    result_at: datetime | None
    notes: str
    failure_to_call: bool
    fee_waiver: str


@dataclass(frozen=True)
class OrderLine:
    id: int
    permit_id: int
    permit_number: str
    address: str
    type_label: str
    noticed_on: date
    due_on: date
    section: str
    items: str
    corrected_on: date | None
    extended: bool
    extension_reasons: str

    @property
    def rule(self) -> CorrectionOrder:
        return CorrectionOrder(
            self.noticed_on,
            self.due_on,
            self.section,
            self.corrected_on,
            self.extended,
            self.extension_reasons,
        )


@dataclass(frozen=True)
class CertificateLine:
    id: int
    number: str
    use_stated: str
    issued_on: date
    temporary_until: date | None
    inspector_name: str


@dataclass(frozen=True)
class ExceptionLine:
    type_label: str
    reason: str
    by: str
    at: datetime | None


@dataclass(frozen=True)
class PermitInspections:
    """The permit's Inspections tab: the sequence with each stage's state, what comes next,
    the history, the exceptions, correction orders and certificates."""

    permit_id: int
    number: str | None
    municipality_key: str
    status: PermitStatus
    sequence_code: str
    sequence_label: str
    stages: tuple[StageStatus, ...]
    inspections: tuple[InspectionLine, ...]
    exceptions: tuple[ExceptionLine, ...]
    orders: tuple[OrderLine, ...]
    certificates: tuple[CertificateLine, ...]

    @property
    def next_types(self) -> tuple[InspectionType, ...]:
        return tuple(
            s.type
            for s in self.stages
            if s.state in (StageState.READY, StageState.REJECTED, StageState.PARTIAL)
        )

    @property
    def final_passed(self) -> bool:
        return any(s.type.final and s.state is StageState.PASSED for s in self.stages)

    @property
    def may_certify(self) -> bool:
        return self.sequence_code in CERTIFICATE_SEQUENCES | TEMPORARY_SEQUENCES


def permit_stages(
    municipality_key: str,
    kind: str,
    done: Iterable[tuple[str, Result]],
    exceptions: Iterable[tuple[str, str]],
) -> tuple[InspectionSequence | None, list[StageStatus]]:
    seq = sequence_for(municipality_key, kind)
    if seq is None:
        return None, []
    excepted = [SequenceException(code, reason) for code, reason in exceptions]
    return seq, sequence_status(seq, list(done), excepted)


@dataclass(frozen=True)
class CorrectionNoticeData:
    """The written notice of a correction order (15.1.90(b)(1))."""

    municipality_name: str
    letterhead: tuple[str, ...]
    order_id: int
    permit_id: int
    permit_number: str
    address: str
    kind_label: str
    description: str
    owner: str
    owner_address: str
    contractor: str
    type_label: str
    inspected_on: date | None
    noticed_on: date
    due_on: date
    section: str
    items: str
    extension_reasons: str
    inspector_name: str
    inspector_title: str


@dataclass(frozen=True)
class CertificateData:
    """A certificate of occupancy as printed (15.1.13)."""

    municipality_name: str
    letterhead: tuple[str, ...]
    number: str
    permit_number: str
    address: str
    pin: str
    kind_label: str
    description: str
    owner: str
    use_stated: str
    occupant: str
    conditions: str
    issued_on: date
    temporary_until: date | None
    inspector_name: str
    inspector_title: str
