"""Fee use cases: the schedule in force, quotes, new versions, assessing a permit's fees."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from desk.calendar import is_holiday
from desk.clock import Clock
from desk.dates import short_date
from desk.domain.enums import PartyRole
from desk.domain.kinds import kinds_for
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.fees.engine import Quote, QuoteRequest, price
from desk.fees.loader import (
    ScheduleError,
    check_versions,
    shipped_schedule,
    version_from_dict,
    version_to_dict,
)
from desk.fees.model import AssessedLine, FeeSchedule, ScheduleVersion, StoredVersion
from desk.services.uow import UnitOfWork

# Municipality setting: price with the version in effect on the "application" date (default)
# or on the "issue" date.
FEE_DATE_SETTING = "fee_schedule_date"
FAIL_TO_CALL = "FAIL-TO-CALL"
NO_PERMIT_KINDS = (
    "{name} has no permit kinds in Permit Desk, so no fee schedule: the office keeps code "
    "enforcement only (see Code enforcement)"
)


def _schedule(uow: UnitOfWork, clock: Clock, municipality_id: int) -> FeeSchedule:
    """The municipality's schedule from the database; the shipped file is imported on first use.
    Runs inside an open unit of work (the caller commits)."""
    muni = uow.municipalities.get(municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    versions = uow.fees.versions(municipality_id)
    if not versions:
        if not kinds_for(muni.ordinance):
            # A municipality with code enforcement only (Hudson: its ordinance on file is the
            # housing code) has no permits to price.
            raise RuleViolation(NO_PERMIT_KINDS.format(name=muni.name))
        try:
            shipped = shipped_schedule(muni.ordinance)
        except ScheduleError as e:
            raise ValidationError("fee schedule", str(e)) from None
        uow.act_as(None, clock.now())
        # Another workstation may be loading it too: wait for it, then look again.
        uow.serialise(f"fee schedule {municipality_id}")
        versions = uow.fees.versions(municipality_id)
    if not versions:
        for v in shipped.versions:
            uow.fees.add_version(
                StoredVersion(
                    municipality_id=municipality_id,
                    label=v.label,
                    effective_from=v.effective_from,
                    effective_to=v.effective_to,
                    data=version_to_dict(v),
                    source="shipped",
                    created_at=clock.now(),
                )
            )
        uow.flush()
        versions = uow.fees.versions(municipality_id)
    return FeeSchedule(municipality=muni.ordinance, versions=tuple(versions))


def fee_schedule(uow: UnitOfWork, clock: Clock, municipality_id: int) -> FeeSchedule:
    with uow:
        schedule = _schedule(uow, clock, municipality_id)
        uow.commit()
        return schedule


def _version_on(schedule: FeeSchedule, day: date) -> ScheduleVersion:
    version = schedule.version_on(day)
    if version is None:
        raise ValidationError(
            "date", f"no fee schedule of {schedule.municipality} is in effect on {short_date(day)}"
        )
    return version


def quote(
    uow: UnitOfWork, clock: Clock, municipality_id: int, request: QuoteRequest, on: date
) -> Quote:
    """Price a request with the version in effect on `on` (no permit is changed)."""
    schedule = fee_schedule(uow, clock, municipality_id)
    return price(_version_on(schedule, on), request, is_holiday)


def quote_shipped(municipality_key: str, request: QuoteRequest, on: date) -> Quote:
    """Price with the shipped schedule file, without a database (`permitdesk fees quote`)."""
    try:
        schedule = shipped_schedule(municipality_key)
    except ScheduleError as e:
        raise ValidationError("municipality", str(e)) from None
    return price(_version_on(schedule, on), request, is_holiday)


def create_version(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    version: ScheduleVersion,
) -> int:
    """A fee change is a new version from a date; versions that priced permits stay as they are."""
    require(actor, Permission.MANAGE_FEES)
    if not version.label.strip():
        raise ValidationError("label", "name the new version")
    with uow:
        schedule = _schedule(uow, clock, municipality_id)
        latest = max(schedule.versions, key=lambda v: v.effective_from, default=None)
        if latest is not None and version.effective_from <= latest.effective_from:
            raise ValidationError(
                "effective from",
                f"must be after {short_date(latest.effective_from)}, when the current version "
                f"'{latest.label}' took effect",
            )
        try:
            # Round-trip through the file format: the same checks as a shipped schedule.
            checked = version_from_dict(
                "new version", schedule.municipality, version_to_dict(version)
            )
            check_versions(schedule.municipality, [*schedule.versions, checked])
        except ScheduleError as e:
            raise ValidationError("fee schedule", str(e)) from None
        uow.act_as(actor, clock.now())
        stored = StoredVersion(
            municipality_id=municipality_id,
            label=checked.label,
            effective_from=checked.effective_from,
            effective_to=checked.effective_to,
            data=version_to_dict(checked),
            source="admin",
            created_at=clock.now(),
            created_by_id=actor.user_id,
        )
        uow.fees.add_version(stored)
        uow.commit()
        assert stored.id is not None
        return stored.id


def pricing_date(
    settings: dict[str, Any], applied_on: date | None, issued_on: date | None, today: date
) -> date:
    """The application date, or the issue date where the municipality's profile says so."""
    if settings.get(FEE_DATE_SETTING) == "issue":
        return issued_on or today
    return applied_on or today


def assess_fees(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, request: QuoteRequest
) -> Quote:
    """Price the permit with the version in effect on its date and store the lines with it."""
    require(actor, Permission.TAKE_APPLICATION)
    with uow:
        uow.act_as(actor, clock.now())
        # Locked before "already assessed?" is asked: two clerks assessing at once would
        # otherwise both find no lines and charge the permit twice.
        permit = uow.permits.get_for_update(permit_id)
        if permit is None:
            raise NotFound(f"permit #{permit_id} does not exist")
        if uow.fees.lines_for(permit_id):
            raise RuleViolation(
                "Fees are already assessed on this permit; a later change is an adjusting line."
            )
        muni = uow.municipalities.get(permit.municipality_id)
        assert muni is not None
        schedule = _schedule(uow, clock, permit.municipality_id)
        day = pricing_date(muni.settings, permit.applied_on, permit.issued_on, clock.today())
        version = _version_on(schedule, day)
        result = price(version, request, is_holiday)
        assert version.id is not None
        uow.act_as(actor, clock.now())  # _schedule may have imported the shipped one as no one
        entered = {q.code: q for q in request.items}
        for line in result.lines:
            q = entered.get(line.code)
            uow.fees.add_line(
                AssessedLine(
                    permit_id=permit_id,
                    version_id=version.id,
                    code=line.code,
                    description=line.description,
                    section=line.section,
                    base=line.base,
                    admin=line.admin,
                    amount=line.amount,
                    gl_account=line.gl_account,
                    deposit=line.deposit,
                    note=line.note,
                    request=_request_dict(q) if q else {},
                    assessed_on=clock.today(),
                )
            )
        uow.commit()
        return result


def _request_dict(q: Any) -> dict[str, Any]:
    return {
        k: (str(v) if v is not None and not isinstance(v, int) else v)
        for k, v in vars(q).items()
        if v is not None and k != "code"
    }


def failure_to_call_occurrence(uow: UnitOfWork, permit_id: int) -> int:
    """The occurrence number for a new failure to call on this permit (15.1.21(a)(13)): counted
    per contractor across the municipality's permits, per owner where the owner holds the permit."""
    with uow:
        permit = uow.permits.get(permit_id)
        if permit is None:
            raise NotFound(f"permit #{permit_id} does not exist")
        contractor = permit.party_in(PartyRole.CONTRACTOR)
        if contractor is not None and contractor.id is not None:
            return 1 + uow.fees.count_for_party(
                permit.municipality_id, FAIL_TO_CALL, contractor.id, (PartyRole.CONTRACTOR,)
            )
        owner = permit.party_in(PartyRole.BUILDING_OWNER)
        if owner is not None and owner.id is not None:
            # The owner's own violations: on permits the owner holds without a contractor.
            return 1 + uow.fees.count_for_party(
                permit.municipality_id,
                FAIL_TO_CALL,
                owner.id,
                (PartyRole.BUILDING_OWNER,),
                without=PartyRole.CONTRACTOR,
            )
        return 1 + sum(1 for line in uow.fees.lines_for(permit_id) if line.code == FAIL_TO_CALL)


def with_items(version: ScheduleVersion, **changes: Any) -> ScheduleVersion:
    """A copy for editing ("New version from date ...")."""
    return replace(version, id=None, read_only=False, read_only_reason="", **changes)
