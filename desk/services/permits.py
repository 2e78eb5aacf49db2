"""Permit use cases of the foundation: take an application, edit it, issue it, void it.

The intake issue adds checklists and conditions to issue_permit; the gapless numbering, the
roles and the audit trail live here already.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.duplicates import parcel_exists
from desk.domain.enums import NUMBERED_STATUSES, PartyKind, PartyRole, PermitStatus
from desk.domain.issuance import SEWER_CONNECTION_KINDS
from desk.domain.kinds import kind_by_code
from desk.domain.model import Actor, Credential, Parcel, Party, Permit, PermitParty
from desk.domain.numbering import PERMIT_SERIES, format_number
from desk.domain.permissions import Permission, require
from desk.errors import IssuanceRefused, NotFound, RuleViolation, ValidationError
from desk.services.intake import kind_form
from desk.services.issuance import shortfalls_within
from desk.services.lifecycle import permit_dates, record_order, term_end
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version


@dataclass(frozen=True)
class ApplicationInput:
    municipality_id: int
    kind: str
    parcel_id: int
    description: str
    valuation: Decimal = Decimal("0.00")
    floor_area_sqft: int = 0
    areas: dict[str, int] = field(default_factory=dict)
    dwelling_units: int = 0
    parties: tuple[tuple[PartyRole, int], ...] = ()
    applied_on: date | None = None
    # The rest of the form's work fields (None or empty: not asked or not answered).
    stories: int | None = None
    volume_cuft: int | None = None
    occupancy_class: str = ""
    construction_type: str = ""
    disturbed_acres: Decimal | None = None
    work_details: dict[str, str] = field(default_factory=dict)  # SBD-5823, by form key
    emergency: bool = False
    work_began_before_permit: bool = False  # double fees 15.1.21(f)
    # The clerk said yes to an application date in the future or more than a year back.
    date_confirmed: bool = False


# Beyond these a figure is a typing mistake (an extra zero), not a building.
MAX_STORIES = 150
MAX_VOLUME_CUFT = 500_000_000
MAX_DISTURBED_ACRES = Decimal("10000")
MAX_TEXT = 40  # occupancy class, construction type
MAX_DETAIL = 200  # one SBD-5823 answer
MAX_PERMISSION = 400  # permit.sewer_permission


def _check_work_facts(a: ApplicationInput) -> None:
    if a.stories is not None:
        if a.stories < 0:
            raise ValidationError("stories", "must not be negative")
        if a.stories > MAX_STORIES:
            raise ValidationError("stories", f"{a.stories:,} stories is not plausible")
    if a.volume_cuft is not None:
        if a.volume_cuft < 0:
            raise ValidationError("volume", "must not be negative")
        if a.volume_cuft > MAX_VOLUME_CUFT:
            raise ValidationError("volume", f"{a.volume_cuft:,} cubic feet is not plausible")
    if a.disturbed_acres is not None:
        acres = a.disturbed_acres
        if not acres.is_finite() or acres < 0:
            raise ValidationError("disturbed acres", "must not be negative")
        if acres != acres.quantize(Decimal("0.001")):
            raise ValidationError("disturbed acres", "has more than three decimals")
        if acres > MAX_DISTURBED_ACRES:
            raise ValidationError("disturbed acres", f"{acres:,} acres is not plausible")
    for name, text in (
        ("occupancy class", a.occupancy_class),
        ("construction type", a.construction_type),
    ):
        if len(text.strip()) > MAX_TEXT:
            raise ValidationError(name, f"at most {MAX_TEXT} characters")
    for key, answer in a.work_details.items():
        if not isinstance(key, str) or not key.strip() or not isinstance(answer, str):
            raise ValidationError("work details", "each answer is a text under its form key")
        if len(answer.strip()) > MAX_DETAIL:
            raise ValidationError("work details", f"{key}: at most {MAX_DETAIL} characters")


def _check_application(a: ApplicationInput) -> None:
    if not a.description.strip():
        raise ValidationError("description", "describe the work")
    if a.valuation < 0:
        raise ValidationError("valuation", "must not be negative")
    if a.valuation != a.valuation.quantize(Decimal("0.01")):
        raise ValidationError("valuation", "has more than two decimals")
    if a.floor_area_sqft < 0:
        raise ValidationError("floor area", "must not be negative")
    if a.dwelling_units < 0:
        raise ValidationError("dwelling units", "must not be negative")
    for level, area in a.areas.items():
        if area < 0:
            raise ValidationError(f"area ({level})", "must not be negative")
    _check_work_facts(a)


def application_date_concern(day: date, today: date) -> str:
    """What is unusual about an application dated after today or more than a year back ('' for
    an ordinary date): a slip of the keyboard there would set the fees and every deadline
    counted from the application date, so it is saved only when the clerk confirms it."""
    if day > today:
        return f"The application date {short_date(day)} is in the future."
    if day < today - timedelta(days=365):
        return f"The application date {short_date(day)} is more than a year ago."
    return ""


def take_application(uow: UnitOfWork, clock: Clock, actor: Actor, a: ApplicationInput) -> int:
    """Record an application (15.1.7(b)(1)); it has no number until it is issued."""
    require(actor, Permission.TAKE_APPLICATION)
    _check_application(a)
    concern = application_date_concern(a.applied_on or clock.today(), clock.today())
    if concern and not a.date_confirmed:
        raise ValidationError("application date", f"{concern} Confirm it to save it.")
    with uow:
        uow.act_as(actor, clock.now())
        muni = uow.municipalities.get(a.municipality_id)
        if muni is None:
            raise NotFound(f"municipality #{a.municipality_id} does not exist")
        kind = kind_by_code(muni.ordinance, a.kind)
        parcel = uow.parcels.get(a.parcel_id)
        if parcel is None or parcel.municipality_id != muni.id:
            raise ValidationError("parcel", "choose a parcel of this municipality")
        occupancy = a.occupancy_class.strip()
        classes = [c.key for c in kind_form(muni.ordinance, kind.code).occupancy_classes]
        if occupancy and occupancy not in classes:
            raise ValidationError("occupancy class", f"'{occupancy}' is not one of {muni.name}'s")
        permit = Permit(
            municipality_id=a.municipality_id,
            kind=kind.code,
            permit_class=kind.permit_class,
            work_class=kind.work_class,
            description=a.description.strip(),
            parcel=parcel,
            valuation=a.valuation,
            floor_area_sqft=a.floor_area_sqft,
            areas=dict(a.areas),
            dwelling_units=a.dwelling_units,
            stories=a.stories,
            volume_cuft=a.volume_cuft,
            occupancy_class=occupancy,
            construction_type=a.construction_type.strip(),
            disturbed_acres=a.disturbed_acres,
            work_details={k.strip(): v.strip() for k, v in a.work_details.items() if v.strip()},
            emergency=a.emergency,
            work_began_before_permit=a.work_began_before_permit,
            status=PermitStatus.APPLIED,
            applied_on=a.applied_on or clock.today(),
            status_date=a.applied_on or clock.today(),
        )
        for role, party_id in a.parties:
            party = uow.parties.get(party_id)
            if party is None:
                raise ValidationError(role.label, f"party #{party_id} does not exist")
            permit.parties.append(PermitParty(role=role, party=party))
        uow.permits.add(permit)
        uow.commit()
        assert permit.id is not None
        return permit.id


def update_description(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    description: str,
    version: int | None = None,
) -> None:
    """`version`: the permit's as the form showed it (a newer one is refused: StaleEdit)."""
    require(actor, Permission.EDIT_PERMIT)
    if not description.strip():
        raise ValidationError("description", "describe the work")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        check_version(
            uow,
            permit,
            version,
            f"Permit {permit.number}" if permit.number else f"Application #{permit.id}",
        )
        permit.description = description.strip()
        uow.commit()


def issue_permit(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, issued_on: date | None = None
) -> str:
    """Issue when every condition holds (desk/services/issuance.py), allocating the next number
    of the year of issue in this same transaction; otherwise IssuanceRefused lists them all."""
    require(actor, Permission.ISSUE_PERMIT)
    day = issued_on or clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        if permit.status in NUMBERED_STATUSES:
            by = uow.users.get(permit.issued_by_id) if permit.issued_by_id else None
            raise RuleViolation(
                f"Permit {permit.number} was already issued"
                + (f" on {short_date(permit.issued_on)}" if permit.issued_on else "")
                + (f" by {by.full_name}" if by is not None else "")
                + "."
            )
        if permit.status in (PermitStatus.WITHDRAWN, PermitStatus.DENIED):
            raise RuleViolation(
                f"This application was {permit.status.label.lower()}"
                + (f" on {short_date(permit.status_date)}" if permit.status_date else "")
                + "; it cannot be issued."
            )
        if permit.applied_on and day < permit.applied_on:
            raise ValidationError("issue date", "is before the application date")
        # Every condition of the ordinance, each in words with its section.
        shortfalls = shortfalls_within(uow, permit_id, day)
        if shortfalls:
            raise IssuanceRefused(shortfalls)
        muni = uow.municipalities.get(permit.municipality_id)  # before any change: one flush
        assert muni is not None
        rule = kind_by_code(muni.ordinance, permit.kind).lifecycle
        seq = uow.numbers.next(permit.municipality_id, PERMIT_SERIES, day.year)
        permit.number = format_number(day.year, seq)
        permit.status = PermitStatus.ISSUED
        permit.issued_on = day
        permit.status_date = day
        permit.issued_by_id = actor.user_id
        permit.expires_on = term_end(permit_dates(permit, rule))
        uow.commit()
        return permit.number


def void_permit(uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, reason: str) -> None:
    """Void an issued permit; it keeps its number (numbers are never reused)."""
    require(actor, Permission.VOID_PERMIT)
    if not reason.strip():
        raise ValidationError("reason", "say why the permit is voided")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        if permit.status == PermitStatus.VOID:
            raise RuleViolation(f"Permit {permit.number} is already void.")
        # The reason is kept as a written order of its own, like a revocation's.
        record_order(uow, clock, actor, permit, "void", reason.strip(), "", PermitStatus.VOID)


# --- holds on issuance: a delinquent sewer tax (15.1.36), a damaged building (15.1.9(b)) ------


def set_sewer_delinquent(
    uow: UnitOfWork, clock: Clock, actor: Actor, parcel_id: int, delinquent: bool
) -> None:
    """Record that a sewer tax or assessment is (or is no longer) delinquent on a parcel: a
    sewer connection permit for it then waits for payment or for the Plumbing Inspector's
    special permission (15.1.36). The clerk or the treasurer records it."""
    require(actor, Permission.RECORD_SEWER_DELINQUENCY)
    with uow:
        uow.act_as(actor, clock.now())
        parcel = uow.parcels.get(parcel_id)
        if parcel is None:
            raise NotFound(f"parcel #{parcel_id} does not exist")
        parcel.sewer_delinquent = delinquent
        uow.commit()


def record_sewer_permission(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, text: str
) -> None:
    """Record the Plumbing Inspector's special permission to connect in spite of a delinquent
    sewer tax or assessment (15.1.36), in words; who recorded it and when are added."""
    require(actor, Permission.GRANT_SEWER_PERMISSION)
    words = " ".join(text.split())
    if not words:
        raise ValidationError(
            "sewer permission", "state the permission: who granted it, when, on what terms"
        )
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        if permit.kind not in SEWER_CONNECTION_KINDS:
            raise RuleViolation(
                f"The special permission of 15.1.36 is for sewer connections (plumbing, sewer or "
                f"water connection permits), not for a {permit.kind} permit."
            )
        user = uow.users.get(actor.user_id)
        who = user.full_name if user is not None else actor.username
        recorded = f"{words} (recorded by {who} on {short_date(clock.today())})"
        if len(recorded) > MAX_PERMISSION:
            raise ValidationError("sewer permission", f"at most {MAX_PERMISSION} characters")
        permit.sewer_permission = recorded
        uow.commit()


def record_damage(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, percent: int | None
) -> None:
    """Record the inspector's finding of how far the building is damaged or deteriorated, as a
    share of its equalized value (None: no finding). At 50% or more no permit to repair, alter
    or move it is granted (15.1.9(b), 15.1.3(d)(3))."""
    require(actor, Permission.RECORD_DAMAGE)
    if percent is not None and not 0 <= percent <= 100:
        raise ValidationError("damage", "a share of the equalized value from 0% to 100%")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _get(uow, permit_id)
        permit.damage_percent = percent
        uow.commit()


def _get(uow: UnitOfWork, permit_id: int) -> Permit:
    """The permit, locked: the rule is checked on what another workstation just committed."""
    permit = uow.permits.get_for_update(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


# --- parcels and parties -------------------------------------------------------------


def add_parcel(uow: UnitOfWork, clock: Clock, actor: Actor, parcel: Parcel) -> int:
    """A new parcel; a PIN the municipality already has is refused (DuplicateRecord names the
    parcel, so the form can offer to use it)."""
    require(actor, Permission.MANAGE_PARTIES)
    parcel.pin = parcel.pin.strip()
    if not parcel.pin:
        raise ValidationError("parcel number", "enter the parcel number (PIN)")
    if not parcel.street.strip():
        raise ValidationError("street", "enter the street")
    with uow:
        uow.act_as(actor, clock.now())
        # After act_as: writers take turns, so a parcel another workstation just added is
        # seen here; the unique constraint stays the last guard (db/uow.py words it alike).
        existing = uow.parcels.by_pin(parcel.municipality_id, parcel.pin)
        if existing is not None:
            raise parcel_exists(existing)
        uow.parcels.add(parcel)
        uow.commit()
        assert parcel.id is not None
        return parcel.id


def add_party(uow: UnitOfWork, clock: Clock, actor: Actor, party: Party) -> int:
    require(actor, Permission.MANAGE_PARTIES)
    if party.kind == PartyKind.PERSON and not party.name.strip():
        party.name = f"{party.first_name} {party.last_name}".strip()
    if not party.name.strip():
        raise ValidationError("name", "enter the name of the person or organization")
    with uow:
        uow.act_as(actor, clock.now())
        uow.parties.add(party)
        uow.commit()
        assert party.id is not None
        return party.id


def add_credential(
    uow: UnitOfWork, clock: Clock, actor: Actor, party_id: int, credential: Credential
) -> int:
    require(actor, Permission.MANAGE_PARTIES)
    if not credential.number.strip():
        raise ValidationError("licence number", "enter the licence or registration number")
    with uow:
        uow.act_as(actor, clock.now())
        party = uow.parties.get(party_id)
        if party is None:
            raise NotFound(f"party #{party_id} does not exist")
        party.credentials.append(credential)
        uow.commit()
        assert credential.id is not None
        return credential.id
