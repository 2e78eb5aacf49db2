"""An occupancy calculation (Hudson 140-5/140-7, Ch. 512-11) attached to a case or a rooming
house licence, kept as it was that day: the rooms as entered and the result as computed, both
the JSON of `permitdesk housing occupancy`. A later change of the rules or of the rooms does
not change an attached result.

Attached to a case, a unit that does not comply is a violation of the case: an inspection that
day records each problem as the code item its section names (desk.services.enforcement.
inspections.record_inspection), in the same transaction as the check. A problem already open on
the case (same section, unit and room) is not recorded twice; a problem whose section is no item
of the case's code is reported back. Attached to a licence, nothing is recorded as a violation:
the licence's own inspection case does that (140-10A).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import rules
from desk.enforcement.licences import RoomingLicence
from desk.enforcement.model import OccupancyCheck, Violation, ViolationState
from desk.errors import NotFound, ValidationError
from desk.housing.codes import HousingCodeError, load_housing_code
from desk.housing.jsonio import result_to_dict, unit_from_json
from desk.housing.occupancy import CODES, OccupancyResult, Problem, occupancy
from desk.services.enforcement import _common
from desk.services.enforcement.inspections import FoundViolation, record_inspection_within
from desk.services.uow import UnitOfWork

UNIT_MAX = 80  # occupancy_check.unit


@dataclass(frozen=True)
class AttachResult:
    check_id: int
    attached_to: str  # "CE-2026-0008", "RH-2026-0001" or "the application #3"
    max_occupants: int
    complies: bool
    inspection_id: int | None  # the case inspection recording the violations, if any
    violation_ids: tuple[int, ...]
    sections: tuple[str, ...]  # of each violation recorded, in order
    already_open: tuple[Problem, ...]  # open on the case already: not recorded twice
    not_in_code: tuple[Problem, ...]  # no item of the code has the section: not recorded
    problems: int = 0  # shortfalls found
    to_licence: bool = False

    @property
    def summary(self) -> str:
        """What the calculator's status line says after attaching."""
        n = len(self.sections)
        words = f"Attached to {self.attached_to}"
        if self.complies:
            return f"{words}; the unit complies (at most {self.max_occupants})"
        if self.to_licence:
            s = "s" if self.problems != 1 else ""
            return (
                f"{words}; {self.problems} shortfall{s}, not recorded as violations "
                "(the licence's inspection case records them)"
            )
        if n:
            words += f"; {n} violation{'s' if n != 1 else ''} recorded ({', '.join(self.sections)})"
        else:
            words += "; no violation recorded"
        if self.already_open:
            words += f"; open already: {', '.join(p.section for p in self.already_open)}"
        if self.not_in_code:
            words += (
                f"; not items of the code, not recorded: "
                f"{', '.join(p.section for p in self.not_in_code)}"
            )
        return words


def _computed(code: str, rooms_json: str) -> tuple[str, OccupancyResult]:
    """The rooms as the CLI reads them (parsed to check them) and the result as it prints it."""
    if code not in CODES:
        raise ValidationError("housing code", f"the calculator has no occupancy rules for '{code}'")
    if not rooms_json.strip():
        raise ValidationError("rooms", "type the unit's rooms")
    unit = unit_from_json(rooms_json)
    return rooms_json, occupancy(code, unit)


def _result_json(result: OccupancyResult) -> str:
    return json.dumps(result_to_dict(result), indent=2)


def attach_occupancy(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    *,
    case_id: int | None = None,
    licence_id: int | None = None,
    unit_label: str,
    rooms_json: str,
    checked_on: date | None = None,
) -> AttachResult:
    """Attach the calculation of `rooms_json` (the `housing occupancy` input) to an open case or
    to a licence (or application), under its housing code, as of `checked_on` (default today)."""
    require(actor, Permission.INSPECT_HOUSING)
    if (case_id is None) == (licence_id is None):
        raise ValidationError("attach to", "choose either a case or a licence")
    today = clock.today()
    on = checked_on or today
    rules.check_not_future("checked on", on, today)
    unit = rules.text("unit", unit_label, required=False)
    if len(unit) > UNIT_MAX:
        raise ValidationError("unit", f"at most {UNIT_MAX} characters")
    with uow:
        uow.act_as(actor, clock.now())
        if case_id is not None:
            c = _common.open_case(uow, case_id)  # locked: closing waits for this
            _common.not_before("checked on", on, c.opened_on, "the case was opened")
            municipality_id, code_key, name = c.municipality_id, c.housing_code, c.number
        else:
            assert licence_id is not None
            lic = uow.enforcement.get(RoomingLicence, licence_id)  # locked
            if lic is None:
                raise NotFound(f"rooming house licence #{licence_id} does not exist")
            _common.not_before("checked on", on, lic.applied_on, "the application")
            muni = _common.municipality(uow, lic.municipality_id)
            municipality_id, code_key = lic.municipality_id, rules.housing_code_key(muni.settings)
            name = lic.number or f"the application #{lic.id}"
            unit = unit or lic.dwelling_unit
        rooms, result = _computed(code_key, rooms_json)
        check = OccupancyCheck(
            municipality_id=municipality_id,
            case_id=case_id,
            licence_id=licence_id,
            code=code_key,
            unit=unit,
            checked_on=on,
            max_occupants=result.max_occupants,
            complies=result.complies,
            rooms_json=rooms,
            result_json=_result_json(result),
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.enforcement.add(check)
        uow.flush()
        assert check.id is not None
        found: list[FoundViolation] = []
        already: list[Problem] = []
        missing: list[Problem] = []
        if case_id is not None and not result.complies:
            code = _common.housing_code(uow, c)
            open_now = {
                (v.section, v.unit, v.room)
                for v in uow.enforcement.find(Violation, case_id=case_id)
                if v.state is ViolationState.OPEN
            }
            for p in result.problems:
                room = p.room or ""
                if p.section not in code.sections:
                    missing.append(p)
                elif (p.section, unit, room) in open_now:
                    already.append(p)
                else:
                    open_now.add((p.section, unit, room))
                    found.append(FoundViolation(p.section, unit=unit, room=room, notes=p.text))
        recorded_ids: tuple[int, ...] = ()
        if found:
            assert case_id is not None
            recorded = record_inspection_within(
                uow,
                clock,
                actor,
                case_id,
                on,
                found=found,
                notes="found by the occupancy calculation",
            )
            check.inspection_id = recorded.inspection_id
            recorded_ids = recorded.violation_ids
        uow.flush()
        uow.commit()
        return AttachResult(
            check_id=check.id,
            attached_to=name,
            max_occupants=result.max_occupants,
            complies=result.complies,
            inspection_id=check.inspection_id,
            violation_ids=recorded_ids,
            sections=tuple(f.section for f in found),
            already_open=tuple(already),
            not_in_code=tuple(missing),
            problems=len(result.problems),
            to_licence=licence_id is not None,
        )


def code_name(key: str) -> str:
    """The housing code's name as shipped (the key when it cannot be read)."""
    try:
        return load_housing_code(key).name
    except HousingCodeError:
        return key
