"""Opening and closing code enforcement cases; the housing code a municipality enforces."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import rules
from desk.enforcement.model import (
    CaseInspection,
    ClosureReason,
    EnforcementCase,
    Origin,
    Violation,
    ViolationState,
)
from desk.errors import RuleViolation, ValidationError
from desk.housing.codes import HousingCodeError, load_housing_code
from desk.services.enforcement import _common, visits
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class CaseOpened:
    case_id: int
    number: str
    opened: bool  # False: the complaint joined the parcel's open case


def start_case(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    parcel_id: int,
    opened_on: date,
    origin: Origin,
    summary: str,
) -> EnforcementCase:
    """A new case, numbered CE-YYYY-NNNN in this transaction (gapless per municipality and
    year of opening). The caller has locked the parcel and found no open case on it."""
    muni = _common.municipality(uow, municipality_id)
    if not rules.housing_code_key(muni.settings):
        raise RuleViolation(
            f"The {muni.name} enforces no housing code in Permit Desk; an administrator sets "
            "one in Administration → Municipality."
        )
    seq = uow.numbers.next(municipality_id, rules.CASE_SERIES, opened_on.year)
    c = EnforcementCase(
        municipality_id=municipality_id,
        number=rules.case_number(opened_on.year, seq),
        parcel_id=parcel_id,
        opened_on=opened_on,
        origin=origin,
        housing_code=rules.housing_code_key(muni.settings),
        summary=summary,
        by_user_id=actor.user_id,
        at=clock.now(),
    )
    uow.enforcement.add(c)
    uow.flush()
    return c


def open_case(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    parcel_id: int,
    summary: str,
    opened_on: date | None = None,
) -> CaseOpened:
    """The inspector opens a case from their own observation (140-2). Refused when the parcel
    has an open case: the observation belongs on that one."""
    require(actor, Permission.OPEN_CASE)
    today = clock.today()
    opened_on = opened_on or today
    rules.check_not_future("opened on", opened_on, today)
    summary = rules.text("what was observed", summary)
    with uow:
        uow.act_as(actor, clock.now())
        _common.parcel(uow, municipality_id, parcel_id)  # locked
        existing = uow.enforcement.open_case_on(municipality_id, parcel_id)
        if existing is not None:
            raise RuleViolation(
                f"Case {existing.number} is open on this property since "
                f"{short_date(existing.opened_on)}; record the observation on it"
            )
        c = start_case(
            uow, clock, actor, municipality_id, parcel_id, opened_on, Origin.OBSERVATION, summary
        )
        uow.commit()
        assert c.id is not None
        return CaseOpened(c.id, c.number, True)


def close_case(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    case_id: int,
    reason: ClosureReason,
    note: str = "",
    closed_on: date | None = None,
) -> None:
    """Close the case: every violation corrected; nothing found on inspection (unfounded); or
    withdrawn, with the reason in words (its open violations are withdrawn with it)."""
    require(actor, Permission.CLOSE_CASE)
    today = clock.today()
    closed_on = closed_on or today
    rules.check_not_future("closed on", closed_on, today)
    note = rules.text("reason", note, required=reason is ClosureReason.WITHDRAWN)
    with uow:
        uow.act_as(actor, clock.now())
        c = _common.open_case(uow, case_id)
        _common.not_before("closed on", closed_on, c.opened_on, "the case was opened")
        violations = uow.enforcement.find(Violation, case_id=case_id)
        still_open = [v for v in violations if v.state is ViolationState.OPEN]
        if reason is ClosureReason.CORRECTED:
            if not violations:
                raise RuleViolation(
                    f"Case {c.number} has no violations to be corrected; close it as unfounded"
                )
            if still_open:
                sections = ", ".join(v.section for v in still_open)
                raise RuleViolation(
                    f"Case {c.number} still has {len(still_open)} open violation(s): {sections}"
                )
        elif reason is ClosureReason.UNFOUNDED:
            if violations:
                raise RuleViolation(f"Case {c.number} has violations recorded; it is not unfounded")
            if not uow.enforcement.find(CaseInspection, case_id=case_id):
                raise RuleViolation(
                    f"Case {c.number} has not been inspected: inspect before closing it unfounded"
                )
        else:
            for v in still_open:
                v.state = ViolationState.WITHDRAWN
                v.closed_on = closed_on
        c.closed_on = closed_on
        c.closed_reason = reason
        c.close_note = note
        c.closed_by_id = actor.user_id
        visits.cancel_for_closed_case(uow, case_id, c.number)
        uow.commit()


def set_housing_code(
    uow: UnitOfWork, clock: Clock, actor: Actor, municipality_id: int, key: str
) -> None:
    """The housing code the municipality enforces (Hudson ch. 140 unless set; "none": no code
    enforcement, no case can be opened). Cases opened before keep the code they were opened
    under."""
    require(actor, Permission.MANAGE_MUNICIPALITY)
    try:
        if key != rules.NO_HOUSING_CODE:
            load_housing_code(key)
    except HousingCodeError as e:
        raise ValidationError("housing code", str(e)) from None
    with uow:
        uow.act_as(actor, clock.now())
        muni = _common.municipality(uow, municipality_id)
        muni.settings = {**(muni.settings or {}), rules.HOUSING_CODE_SETTING: key}
        uow.commit()
