"""Inspections of a case: violations found, each an item of the case's housing code, and at a
re-inspection each open violation found corrected or not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import deadlines, rules
from desk.enforcement.model import CaseInspection, Violation, ViolationCheck, ViolationState
from desk.errors import RuleViolation, ValidationError
from desk.services.enforcement import _common, visits
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class FoundViolation:
    section: str  # an item of the case's housing code
    unit: str = ""
    room: str = ""
    notes: str = ""
    correct_by: date | None = None  # default: the inspection's date + the item's days


@dataclass(frozen=True)
class InspectionRecorded:
    inspection_id: int
    violation_ids: tuple[int, ...]  # found, in the order given
    corrected: tuple[int, ...]
    not_corrected: tuple[int, ...]
    correct_by: tuple[date, ...] = field(default=())  # of each violation found


def record_inspection(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    case_id: int,
    inspected_on: date,
    *,
    found: Sequence[FoundViolation] = (),
    checks: Mapping[int, bool] | None = None,
    notes: str = "",
    inspector_id: int | None = None,
    visit_id: int | None = None,
) -> InspectionRecorded:
    """An inspection of the case (140-2). `found`: violations found; `checks`: open violation
    id -> corrected, found at a re-inspection (not corrected only on or after its correction
    date, 140-3A(3)). The case's visit scheduled on or before that day (or `visit_id`) is
    done with it."""
    require(actor, Permission.INSPECT_HOUSING)
    with uow:
        uow.act_as(actor, clock.now())
        recorded = record_inspection_within(
            uow,
            clock,
            actor,
            case_id,
            inspected_on,
            found=found,
            checks=checks,
            notes=notes,
            inspector_id=inspector_id,
            visit_id=visit_id,
        )
        uow.commit()
        return recorded


def record_inspection_within(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    case_id: int,
    inspected_on: date,
    *,
    found: Sequence[FoundViolation] = (),
    checks: Mapping[int, bool] | None = None,
    notes: str = "",
    inspector_id: int | None = None,
    visit_id: int | None = None,
) -> InspectionRecorded:
    """record_inspection inside the caller's open unit of work (which commits), for a service
    that records an inspection with its own row in one transaction (an occupancy calculation
    that found violations)."""
    require(actor, Permission.INSPECT_HOUSING)
    rules.check_not_future("inspected on", inspected_on, clock.today())
    checks = dict(checks or {})
    c = _common.open_case(uow, case_id)
    _common.not_before("inspected on", inspected_on, c.opened_on, "the case was opened")
    if inspector_id is not None and inspector_id != actor.user_id:
        inspector = uow.users.get(inspector_id)
        if inspector is None or not ({Role.INSPECTOR, Role.ADMINISTRATOR} & inspector.roles):
            raise ValidationError("inspector", "choose a user with the inspector's role")
    code = _common.housing_code(uow, c)
    inspection = CaseInspection(
        case_id=case_id,
        inspected_on=inspected_on,
        inspector_id=inspector_id or actor.user_id,
        notes=rules.text("notes", notes, required=False),
        by_user_id=actor.user_id,
        at=clock.now(),
    )
    uow.enforcement.add(inspection)
    uow.flush()
    assert inspection.id is not None
    added: list[Violation] = []
    for f in found:
        try:
            item = code.standard(f.section.strip())
        except KeyError:
            raise ValidationError(
                "section", f"{code.name} has no item {f.section.strip() or '(none)'}"
            ) from None
        correct_by = f.correct_by or deadlines.correction_date(inspected_on, item.days)
        _common.not_before("correct by", correct_by, inspected_on, "the inspection")
        v = Violation(
            case_id=case_id,
            inspection_id=inspection.id,
            section=item.section,
            title=item.title,
            unit=rules.text("unit", f.unit, required=False),
            room=rules.text("room", f.room, required=False),
            notes=rules.text("notes", f.notes, required=False),
            correct_by=correct_by,
        )
        uow.enforcement.add(v)
        added.append(v)
    corrected: list[int] = []
    not_corrected: list[int] = []
    for violation_id, ok in checks.items():
        v = _common.row(uow, Violation, violation_id, "violation")
        if v.case_id != case_id:
            raise ValidationError("violation", f"#{violation_id} is not of case {c.number}")
        if v.state is not ViolationState.OPEN:
            raise RuleViolation(
                f"{v.section} is {v.state.value} already"
                + (f" (since {short_date(v.closed_on)})" if v.closed_on else "")
            )
        rules.check_finding(v.correct_by, inspected_on, ok, v.section)
        uow.enforcement.add(
            ViolationCheck(
                violation_id=violation_id,
                inspection_id=inspection.id,
                checked_on=inspected_on,
                corrected=ok,
            )
        )
        if ok:
            v.state = ViolationState.CORRECTED
            v.closed_on = inspected_on
            v.closed_inspection_id = inspection.id
            corrected.append(violation_id)
        else:
            not_corrected.append(violation_id)
    visits.mark_done(uow, case_id, inspection.id, inspected_on, visit_id)
    uow.flush()
    return InspectionRecorded(
        inspection.id,
        tuple(v.id for v in added if v.id is not None),
        tuple(corrected),
        tuple(not_corrected),
        tuple(v.correct_by for v in added),
    )
