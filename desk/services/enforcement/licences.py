"""Rooming house licences (Hudson 140-10): one function per step, each taking (uow, clock, actor,
...), checking the permission, locking the licence's row and checking the rule after the lock.

- record_application (clerk): the operator's application with rooms, fixtures and persons.
- open_licence_case (inspector): the enforcement case the Building Inspector's inspections of
  the house are recorded on (desk.services.enforcement.inspections.record_inspection).
- issue_licence (City Clerk): once the inspector is satisfied — inspected since the application,
  no violation open — and the fixtures (140-10E) and sleeping rooms (140-10G) pass.
- deny_application (inspector), record_petition (clerk), record_hearing_decision: 140-10B/D and
  the hearing under 140-3.
- give_warning, suspend_licence (inspector): 140-10C; sweep_licences: 140-10D.
- record_change (clerk): 140-10A, the change of owner or control that ends the licence (and
  its renewal, applied for or issued).
- Renewals (140-10A): record_application within the licence's last RENEWAL_DAYS days records
  the renewal (desk/services/enforcement/renewals.py apply_for_renewal names the licence);
  issue_licence issues it to run from the day after the old licence ends.

Fees: the rooming house licence fee is set by the Council (the municipality's setting
`rooming_licence_fee`, none shipped): issuing is refused while it is not set, and asks for the
City Clerk's receipt when it is above zero; the licence keeps the fee of its day of issue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.enforcement import licences as rules
from desk.enforcement import renewals as renewal_rules
from desk.enforcement.licences import (
    HearingDecision,
    LicenceRoom,
    LicenceState,
    RevocationKind,
    RoomingLicence,
    Shortfall,
)
from desk.enforcement.model import CaseInspection, Origin, Violation, ViolationState
from desk.enforcement.rules import check_not_future, text
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services.enforcement import _common
from desk.services.enforcement.cases import start_case
from desk.services.uow import UnitOfWork
from desk.text import sentence_start


@dataclass(frozen=True)
class RoomInput:
    name: str
    floor_area: Decimal  # square feet
    sleeping: bool
    occupants_over_12: int = 0
    occupants_under_12: int = 0


@dataclass(frozen=True)
class ApplicationInput:
    municipality_id: int
    parcel_id: int
    operator_name: str
    operator_address: str
    persons: int
    water_closets: int
    lavatories: int
    baths: int
    rooms: Sequence[RoomInput]
    dwelling_unit: str = ""
    operator_party_id: int | None = None
    applied_on: date | None = None


def _licence(uow: UnitOfWork, licence_id: int) -> RoomingLicence:
    """The licence, locked."""
    found = uow.enforcement.get(RoomingLicence, licence_id)
    if found is None:
        raise NotFound(f"rooming house licence #{licence_id} does not exist")
    return found


def _name(lic: RoomingLicence) -> str:
    return lic.number or f"the application #{lic.id}"


@dataclass(frozen=True)
class _Checked:
    """An application's words and day, checked before the transaction."""

    operator: str
    address: str
    unit: str
    applied_on: date


def _checked(a: ApplicationInput, today: date) -> _Checked:
    applied_on = a.applied_on or today
    check_not_future("applied on", applied_on, today)
    operator = text("operator's name", a.operator_name)
    address = text("operator's address", a.operator_address)
    unit = text("dwelling unit", a.dwelling_unit, required=False)
    rules.check_counts(a.persons, a.water_closets, a.lavatories, a.baths)
    if not a.rooms:
        raise ValidationError("rooms", "list the rooms, with their floor areas")
    for r in a.rooms:
        rules.check_room(
            r.name, r.floor_area, r.sleeping, r.occupants_over_12, r.occupants_under_12
        )
    return _Checked(operator, address, unit, applied_on)


def record_application(uow: UnitOfWork, clock: Clock, actor: Actor, a: ApplicationInput) -> int:
    """The operator applies to the office of the Building Inspector (140-10A) for the specific
    dwelling, in the operator's name. Refused while the dwelling has an application pending or
    a licence in force, except in the licence's last RENEWAL_DAYS days: the application is then
    its renewal (desk/enforcement/renewals.py says when one may be applied for). Returns the
    application's id."""
    require(actor, Permission.RECORD_ROOMING_APPLICATION)
    checked = _checked(a, clock.today())
    with uow:
        uow.act_as(actor, clock.now())
        licence_id = _record(uow, clock, actor, a, checked)
        uow.commit()
        return licence_id


def _record(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    a: ApplicationInput,
    v: _Checked,
    renewing: int | None = None,
) -> int:
    """The application added in the caller's transaction; with `renewing`, as the renewal of
    that licence, else as the renewal of the dwelling's licence in force, if any (140-10A)."""
    _common.parcel(uow, a.municipality_id, a.parcel_id)  # locked: one application at a time
    same = [
        other
        for other in uow.enforcement.find(
            RoomingLicence, municipality_id=a.municipality_id, parcel_id=a.parcel_id
        )
        if other.dwelling_unit == v.unit
    ]
    by_id = {other.id: other for other in same}
    live: list[RoomingLicence] = []
    for other in same:
        if other.state is LicenceState.APPLIED:
            renewed = by_id.get(other.renews_id) if other.renews_id else None
            if renewed is not None:
                raise RuleViolation(
                    f"A renewal of licence {renewed.number} for this dwelling was applied for "
                    f"on {short_date(other.applied_on)} and is pending: one renewal at a time"
                )
            raise RuleViolation(
                f"An application for this dwelling is pending since {short_date(other.applied_on)}"
            )
        in_time = other.expires_on and not rules.expired(other.expires_on, v.applied_on)
        if other.state in (LicenceState.ISSUED, LicenceState.SUSPENDED) and in_time:
            live.append(other)
    # Read, not locked: issue_licence checks the licence renewed again under its lock.
    renews: RoomingLicence | None = None
    if renewing is not None:
        renews = by_id.get(renewing)
        if renews is None:
            raise ValidationError("dwelling", "a renewal is for the licence's own dwelling")
    elif live:  # the latest: a renewal issued early is the one renewed next
        renews = max(live, key=lambda x: x.expires_on or v.applied_on)
    if renews is not None:
        renewal = next((x for x in live if x.renews_id == renews.id), None)
        why = renewal_rules.application_refusal(renews, v.applied_on, v.operator, renewal)
        if why is not None:
            raise RuleViolation(why)
    lic = RoomingLicence(
        municipality_id=a.municipality_id,
        parcel_id=a.parcel_id,
        dwelling_unit=v.unit,
        operator_name=v.operator,
        operator_address=v.address,
        operator_party_id=a.operator_party_id,
        persons=a.persons,
        water_closets=a.water_closets,
        lavatories=a.lavatories,
        baths=a.baths,
        applied_on=v.applied_on,
        renews_id=renews.id if renews is not None else None,
        by_user_id=actor.user_id,
        at=clock.now(),
    )
    uow.enforcement.add(lic)
    uow.flush()
    assert lic.id is not None
    for r in a.rooms:
        uow.enforcement.add(
            LicenceRoom(
                licence_id=lic.id,
                name=text("room", r.name),
                floor_area=r.floor_area,
                sleeping=r.sleeping,
                occupants_over_12=r.occupants_over_12,
                occupants_under_12=r.occupants_under_12,
            )
        )
    return lic.id


def check_licence(uow: UnitOfWork, licence_id: int) -> list[Shortfall]:
    """The fixtures (140-10E) and sleeping rooms (140-10G) as applied for; [] when they pass."""
    with uow:
        found = uow.enforcement.find(RoomingLicence, id=licence_id)
        if not found:
            raise NotFound(f"rooming house licence #{licence_id} does not exist")
        return rules.shortfalls(found[0], uow.enforcement.find(LicenceRoom, licence_id=licence_id))


def open_licence_case(uow: UnitOfWork, clock: Clock, actor: Actor, licence_id: int) -> int:
    """The case the Building Inspector's inspections of the house go on: the licence's own,
    the parcel's open case, or a new one. Returns the case's id."""
    require(actor, Permission.OPEN_CASE)
    with uow:
        uow.act_as(actor, clock.now())
        lic = _licence(uow, licence_id)
        if lic.case_id is not None:
            existing = _common.case(uow, lic.case_id)
            if existing.closed_on is None:
                return lic.case_id
        _common.parcel(uow, lic.municipality_id, lic.parcel_id)  # locked
        c = uow.enforcement.open_case_on(lic.municipality_id, lic.parcel_id)
        if c is None:
            summary = f"Rooming house licence inspection (140-10A): {lic.operator_name}"
            c = start_case(
                uow,
                clock,
                actor,
                lic.municipality_id,
                lic.parcel_id,
                clock.today(),
                Origin.OBSERVATION,
                summary,
            )
        assert c.id is not None
        lic.case_id = c.id
        uow.commit()
        return c.id


def _inspector_satisfied(uow: UnitOfWork, lic: RoomingLicence, on: date) -> None:
    """140-10A: issued "upon compliance ... to the satisfaction of the Building Inspector": an
    inspection on the licence's case since the application, and no violation open."""
    if lic.case_id is None:
        raise RuleViolation(
            "The Building Inspector has not inspected this rooming house yet (140-10A)"
        )
    inspected = [
        i.inspected_on
        for i in uow.enforcement.find(CaseInspection, case_id=lic.case_id)
        if lic.applied_on <= i.inspected_on <= on
    ]
    if not inspected:
        raise RuleViolation(
            "The Building Inspector has not inspected this rooming house since the application "
            f"of {short_date(lic.applied_on)} (140-10A)"
        )
    still_open = _open_violations(uow, lic.case_id)
    if still_open:
        sections = ", ".join(v.section for v in still_open)
        raise RuleViolation(
            f"The Building Inspector is not satisfied: {len(still_open)} violation(s) open "
            f"({sections}) (140-10A)"
        )


def _open_violations(uow: UnitOfWork, case_id: int) -> list[Violation]:
    return [
        v
        for v in uow.enforcement.find(Violation, case_id=case_id)
        if v.state is ViolationState.OPEN
    ]


@dataclass(frozen=True)
class LicenceIssued:
    licence_id: int
    number: str
    issued_on: date
    expires_on: date  # the last day it is valid
    valid_from: date  # the first: a renewal issued early, the day after the old one ends


def issue_licence(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    issued_on: date | None = None,
    fee_receipt: str = "",
) -> LicenceIssued:
    """The City Clerk issues the licence in the operator's name for the dwelling (140-10A),
    numbered RH-YYYY-NNNN (the year of issue) in this transaction, valid through the anniversary
    of issuance. A renewal issued while the licence it renews is valid runs from the day after
    that one's last valid day through the anniversary of that day (no gap, no overlap); issued
    after the old one ended, it runs from its day of issue, as a new licence would. Refused
    while the Council's fee is not set, without the receipt for a fee above zero, while the
    inspector is not satisfied or a check of 140-10E/G fails, and for a renewal whose licence
    was suspended, revoked or ended by a change of owner since it was applied for."""
    require(actor, Permission.ISSUE_ROOMING_LICENCE)
    today = clock.today()
    issued_on = issued_on or today
    check_not_future("issued on", issued_on, today)
    receipt = fee_receipt.strip()
    with uow:
        uow.act_as(actor, clock.now())
        # The licence renewed is locked before its renewal (as record_change takes them).
        renews_id = _common.peek(uow, RoomingLicence, licence_id, "rooming house licence").renews_id
        old = _licence(uow, renews_id) if renews_id is not None else None
        lic = _licence(uow, licence_id)
        if lic.state is not LicenceState.APPLIED:
            raise RuleViolation(f"{sentence_start(_name(lic))} is {lic.state.value}, not pending")
        muni = uow.municipalities.get(lic.municipality_id)
        fee = rules.licence_fee(muni.settings if muni is not None else None)
        if fee is None:
            raise RuleViolation(rules.fee_not_set_text())
        if fee > 0 and not receipt:
            raise ValidationError("Receipt", rules.receipt_text(fee))
        _common.not_before("issued on", issued_on, lic.applied_on, "the application")
        assert lic.id is not None
        if old is not None:
            why = renewal_rules.issue_refusal(old)
            if why is not None:
                raise RuleViolation(why)
        found = rules.shortfalls(lic, uow.enforcement.find(LicenceRoom, licence_id=lic.id))
        if found:
            words = "; ".join(
                f"{s.section}{' ' + s.room if s.room else ''}: {s.text}" for s in found
            )
            raise RuleViolation(f"The licence cannot be issued: {words}")
        _inspector_satisfied(uow, lic, issued_on)
        if old is not None and old.expires_on is not None:
            valid_from, expires_on = rules.renewal_term(old.expires_on, issued_on)
        else:
            valid_from, expires_on = issued_on, rules.last_valid_day(issued_on)
        seq = uow.numbers.next(lic.municipality_id, rules.LICENCE_SERIES, issued_on.year)
        lic.number = rules.licence_number(issued_on.year, seq)
        lic.state = LicenceState.ISSUED
        lic.issued_on = issued_on
        lic.issued_by_id = actor.user_id
        lic.valid_from = valid_from
        lic.expires_on = expires_on
        lic.fee = fee  # the value of the day: a later change of the setting leaves it
        lic.fee_receipt = receipt if fee > 0 else ""
        uow.commit()
        return LicenceIssued(lic.id, lic.number, issued_on, expires_on, valid_from)


def deny_application(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    reason: str,
    denied_on: date | None = None,
) -> date:
    """The Building Inspector denies the permit for a licence, with the reason in words
    (140-10B). Returns the last day a petition for a hearing is timely (140-3B)."""
    require(actor, Permission.SUSPEND_ROOMING_LICENCE)
    today = clock.today()
    denied_on = denied_on or today
    check_not_future("denied on", denied_on, today)
    reason = text("reason", reason)
    with uow:
        uow.act_as(actor, clock.now())
        lic = _licence(uow, licence_id)
        if lic.state is not LicenceState.APPLIED:
            raise RuleViolation(f"{sentence_start(_name(lic))} is {lic.state.value}, not pending")
        _common.not_before("denied on", denied_on, lic.applied_on, "the application")
        lic.state = LicenceState.DENIED
        lic.denied_on = denied_on
        lic.denial_reason = reason
        uow.commit()
        return rules.denial_petition_last_day(denied_on, _common.calendar(uow, lic.municipality_id))


def give_warning(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    correct_by: date,
    warned_on: date | None = None,
) -> None:
    """140-10C: violations found on inspection, the written notice to the operator that the
    licence will be suspended unless they are corrected by `correct_by`."""
    require(actor, Permission.SUSPEND_ROOMING_LICENCE)
    today = clock.today()
    warned_on = warned_on or today
    check_not_future("notice given on", warned_on, today)
    _common.not_before("correct by", correct_by, warned_on, "the notice")
    with uow:
        uow.act_as(actor, clock.now())
        lic = _licence(uow, licence_id)
        _check_in_force(lic, warned_on)
        if lic.case_id is None or not _open_violations(uow, lic.case_id):
            raise RuleViolation(
                f"No violation is open on licence {lic.number}'s case: record the inspection "
                "that found them first (140-10C)"
            )
        lic.warned_on = warned_on
        lic.correct_by = correct_by
        uow.commit()


def _check_in_force(lic: RoomingLicence, on: date) -> None:
    if lic.state is not LicenceState.ISSUED:
        raise RuleViolation(f"{sentence_start(_name(lic))} is {lic.state.value}, not in force")
    assert lic.expires_on is not None
    if rules.expired(lic.expires_on, on):
        raise RuleViolation(f"Licence {lic.number} expired after {short_date(lic.expires_on)}")
    if lic.valid_from is not None and rules.not_yet_in_force(lic.valid_from, on):
        raise RuleViolation(
            f"Licence {lic.number} renews another and is in force from "
            f"{short_date(lic.valid_from)} (140-10A)"
        )


@dataclass(frozen=True)
class Suspended:
    petition_last_day: date  # 140-10D
    revoked_on_if_no_petition: date


def suspend_licence(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    suspended_on: date | None = None,
) -> Suspended:
    """140-10C: at the end of the correction period the Building Inspector re-inspected and
    found the violations not corrected: the written notice of suspension, dated `suspended_on`.
    The operator must cease operating at once."""
    require(actor, Permission.SUSPEND_ROOMING_LICENCE)
    today = clock.today()
    suspended_on = suspended_on or today
    check_not_future("suspended on", suspended_on, today)
    with uow:
        uow.act_as(actor, clock.now())
        lic = _licence(uow, licence_id)
        _check_in_force(lic, suspended_on)
        if lic.warned_on is None or lic.correct_by is None or lic.case_id is None:
            raise RuleViolation(
                f"Licence {lic.number}: give the written notice with a correction period first "
                "(140-10C)"
            )
        if suspended_on < lic.correct_by:
            raise RuleViolation(
                f"The correction period of licence {lic.number} runs to "
                f"{short_date(lic.correct_by)} (140-10C)"
            )
        correct_by = lic.correct_by
        reinspected = [
            i
            for i in uow.enforcement.find(CaseInspection, case_id=lic.case_id)
            if correct_by <= i.inspected_on <= suspended_on
        ]
        if not reinspected:
            raise RuleViolation(
                f"Re-inspect the rooming house on or after {short_date(correct_by)} before "
                "suspending its licence (140-10C)"
            )
        if not _open_violations(uow, lic.case_id):
            raise RuleViolation("Every violation was corrected: the licence is not suspended")
        lic.state = LicenceState.SUSPENDED
        lic.suspended_on = suspended_on
        cal = _common.calendar(uow, lic.municipality_id)
        uow.commit()
        return Suspended(
            rules.petition_last_day(suspended_on, cal),
            rules.automatic_revocation_day(suspended_on, cal),
        )


def record_petition(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    filed_on: date,
    petitioner: str,
) -> bool:
    """A written petition for a hearing under 140-3: on a denial (140-10B; timely within 10 days
    after it, 140-3B), on a notice that the licence will be suspended (140-10D), or on a
    suspension (140-10D: timely within 10 days following the suspension; a timely petition
    stops the automatic revocation). A late one is recorded as late. Returns whether timely.
    A petition is judged by the day it was filed: a timely one typed in after the sweep revoked
    the licence sets the automatic revocation aside, and the licence is suspended awaiting the
    hearing."""
    require(actor, Permission.RECORD_PETITION)
    check_not_future("filed on", filed_on, clock.today())
    petitioner = text("petitioner", petitioner)
    with uow:
        uow.act_as(actor, clock.now())
        lic = _licence(uow, licence_id)
        if lic.petition_filed_on is not None and lic.petition_timely:
            raise RuleViolation(
                f"A petition was filed on {short_date(lic.petition_filed_on)} already"
            )
        cal = _common.calendar(uow, lic.municipality_id)
        swept = (
            lic.state is LicenceState.REVOKED
            and lic.revocation is RevocationKind.AUTOMATIC
            and lic.suspended_on is not None
        )
        if swept and lic.suspended_on is not None:
            _common.not_before("filed on", filed_on, lic.suspended_on, "the suspension")
            timely = rules.petition_timely(lic.suspended_on, filed_on, cal)
            if not timely:
                raise RuleViolation(
                    f"{sentence_start(_name(lic))} was revoked on "
                    f"{short_date(lic.revoked_on or lic.suspended_on)}: a "
                    f"petition filed {short_date(filed_on)}, after the last day "
                    f"({short_date(rules.petition_last_day(lic.suspended_on, cal))}), comes too "
                    "late (140-10D)"
                )
            # 140-10D: deemed revoked only with no timely petition; it was filed in time.
            lic.revocation_set_aside_on = clock.today()
            lic.revocation_set_aside_reason = (
                f"petition filed {short_date(filed_on)}, within the 10 days following the "
                f"suspension, recorded {short_date(clock.today())}"
            )
            lic.state = LicenceState.SUSPENDED
            lic.revoked_on = None
            lic.revocation = None
        elif lic.state is LicenceState.DENIED and lic.denied_on is not None:
            _common.not_before("filed on", filed_on, lic.denied_on, "the denial")
            timely = filed_on <= rules.denial_petition_last_day(lic.denied_on, cal)
        elif lic.state is LicenceState.SUSPENDED and lic.suspended_on is not None:
            timely = rules.petition_timely(lic.suspended_on, filed_on, cal)
        elif lic.state is LicenceState.ISSUED and lic.warned_on is not None:
            _common.not_before("filed on", filed_on, lic.warned_on, "the notice")
            timely = True
        else:
            raise RuleViolation(
                f"{sentence_start(_name(lic))} is {lic.state.value}: there is nothing to petition"
            )
        lic.petition_filed_on = filed_on
        lic.petitioner = petitioner
        lic.petition_timely = timely
        uow.commit()
        return timely


def record_hearing_decision(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    decision: HearingDecision,
    decided_on: date,
    findings: str,
) -> LicenceState:
    """The Common Council's decision after the hearing (140-3C). A suspension sustained or
    modified: the licence is revoked (140-3E); withdrawn: in force again. A denial withdrawn:
    the application is pending again. A notice of suspension withdrawn: the notice is lifted.
    Returns the licence's state after it."""
    require(actor, Permission.RECORD_COUNCIL_DECISION)
    decision = HearingDecision(decision)
    check_not_future("decided on", decided_on, clock.today())
    findings = text("findings", findings)
    with uow:
        uow.act_as(actor, clock.now())
        lic = _licence(uow, licence_id)
        if not lic.petition_timely or lic.petition_filed_on is None:
            raise RuleViolation("No timely petition for a hearing was filed (140-3B)")
        _common.not_before("decided on", decided_on, lic.petition_filed_on, "the petition")
        withdrawn = decision is HearingDecision.WITHDRAW
        if lic.state is LicenceState.SUSPENDED:
            if withdrawn:
                lic.state = LicenceState.ISSUED
                lic.suspended_on = lic.warned_on = lic.correct_by = None
            else:
                lic.state = LicenceState.REVOKED
                lic.revoked_on = decided_on
                lic.revocation = RevocationKind.COUNCIL
        elif lic.state is LicenceState.DENIED:
            if withdrawn:
                lic.state = LicenceState.APPLIED
        elif lic.state is LicenceState.ISSUED:
            if withdrawn:
                lic.warned_on = lic.correct_by = None
        else:
            raise RuleViolation(f"{sentence_start(_name(lic))} is {lic.state.value}")
        lic.decision = decision
        lic.decided_on = decided_on
        lic.findings = findings
        if lic.state in (LicenceState.ISSUED, LicenceState.APPLIED):
            # heard and decided: a later notice or denial has a petition of its own
            lic.petition_filed_on = None
            lic.petition_timely = None
            lic.petitioner = ""
        uow.commit()
        return lic.state


@dataclass(frozen=True)
class LicenceRevoked:
    number: str
    licence_id: int
    revoked_on: date


def sweep_licences(
    uow: UnitOfWork, clock: Clock, municipality_id: int, actor: Actor | None = None
) -> list[LicenceRevoked]:
    """140-10D: a licence suspended with no timely petition is deemed revoked on the 11th day
    following the suspension. Idempotent: run on start and by `permitdesk enforcement sweep`."""
    today = clock.today()
    done: list[LicenceRevoked] = []
    with uow:
        uow.act_as(actor, clock.now())
        for candidate in uow.enforcement.find(
            RoomingLicence, municipality_id=municipality_id, state=LicenceState.SUSPENDED
        ):
            assert candidate.id is not None
            lic = _licence(uow, candidate.id)
            if lic.state is not LicenceState.SUSPENDED or lic.suspended_on is None:
                continue
            if lic.petition_timely:
                continue
            cal = _common.calendar(uow, municipality_id)
            day = rules.automatic_revocation_day(lic.suspended_on, cal)
            if today < day:
                continue
            lic.state = LicenceState.REVOKED
            lic.revoked_on = day
            lic.revocation = RevocationKind.AUTOMATIC
            assert lic.id is not None and lic.number is not None
            done.append(LicenceRevoked(lic.number, lic.id, day))
        uow.commit()
    return done


@dataclass(frozen=True)
class ChangeRecorded:
    notice_due: datetime
    late: bool
    ended_on: date


def record_change(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    licence_id: int,
    changed_at: datetime,
    successor_name: str,
    successor_address: str,
    notice_at: datetime | None = None,
) -> ChangeRecorded:
    """140-10A: the licence holder's written notice that ownership, interest or control was
    sold, transferred or given away, with the successor's name and address. The licence is not
    transferable: it ends on the day of the change, with its renewal applied for or issued; the
    successor applies anew. The notice is due within 24 hours after the change; a late one is
    recorded as late."""
    require(actor, Permission.RECORD_ROOMING_APPLICATION)
    now = clock.now()
    notice_at = notice_at or now
    if changed_at.tzinfo is None or notice_at.tzinfo is None:
        raise ValidationError("changed at", "give the time with its time zone")
    if notice_at > now:
        raise ValidationError("notice received", "is in the future")
    if changed_at > notice_at:
        raise ValidationError("changed at", "is after the notice was received")
    name = text("successor's name", successor_name)  # 140-10A: the notice includes them
    address = text("successor's address", successor_address)
    with uow:
        uow.act_as(actor, now)
        lic = _licence(uow, licence_id)
        if lic.state not in (LicenceState.ISSUED, LicenceState.SUSPENDED):
            raise RuleViolation(f"{sentence_start(_name(lic))} is {lic.state.value}, not in force")
        assert lic.issued_on is not None
        ended_on = changed_at.date()
        start = lic.valid_from
        if (
            lic.renews_id is not None
            and start is not None
            and rules.not_yet_in_force(start, ended_on)
        ):
            old = _common.peek(uow, RoomingLicence, lic.renews_id, "rooming house licence")
            raise RuleViolation(
                f"Licence {lic.number} is in force from {short_date(start)}: record "
                f"the change on licence {old.number}, which ends this renewal with it (140-10A)"
            )
        _common.not_before("changed at", ended_on, lic.issued_on, "the licence was issued")
        late = rules.change_notice_late(changed_at, notice_at)
        # Not transferable (140-10A): its renewal, applied for or issued, ends with it.
        renewals = [
            _licence(uow, r.id)
            for r in uow.enforcement.find(RoomingLicence, renews_id=lic.id)
            if r.id is not None and r.state in (LicenceState.APPLIED, LicenceState.ISSUED)
        ]
        for ended in (lic, *renewals):
            ended.changed_at = changed_at
            ended.change_notice_at = notice_at
            ended.change_notice_late = late
            ended.successor_name = name
            ended.successor_address = address
            ended.ended_on = ended_on
            ended.state = LicenceState.ENDED
        uow.commit()
        return ChangeRecorded(rules.change_notice_due(changed_at), late, ended_on)
