"""The street register's repavings and the Common Council's approval of an opening (New Lisbon
§435-8.I: "no permit shall be issued to open or excavate said street for a period of five years
after the date of improvement or repaving unless, in the opinion of the Common Council ..., it is
absolutely essential").

- record_repaving: the City Engineer, an inspector or an administrator records the day a street
  (or a segment between two house numbers) was repaved; every later opening on it reads it.
- record_council_approval: the clerk or the inspector records the day the Council approved an
  opening within the five years.
- moratorium_shortfalls: the hold issue_permit applies (desk/services/issuance.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.domain.issuance import moratorium_ends, repaving_holds
from desk.domain.model import Actor, Permit, StreetRepaving
from desk.domain.permissions import Permission, require
from desk.domain.street_register import latest_repaving, segment_text
from desk.errors import NotFound, ValidationError
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class RepavingRow:
    """A repaving as the register lists it (plain values: it may cross threads)."""

    id: int
    street: str
    from_number: int | None
    to_number: int | None
    repaved_on: date
    moratorium_ends: date
    notes: str
    segment: str


def _row(r: StreetRepaving) -> RepavingRow:
    assert r.id is not None
    return RepavingRow(
        r.id,
        r.street,
        r.from_number,
        r.to_number,
        r.repaved_on,
        moratorium_ends(r.repaved_on),
        r.notes,
        segment_text(r),
    )


def record_repaving(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    street: str,
    repaved_on: date,
    *,
    from_number: int | None = None,
    to_number: int | None = None,
    notes: str = "",
) -> int:
    """Record that `street` (or its segment from_number..to_number, both included) was
    permanently improved or repaved on `repaved_on` (§435-8.I). Returns the row's id."""
    require(actor, Permission.RECORD_STREET_REPAVING)
    name = " ".join(street.split())
    if not name:
        raise ValidationError("street", "enter the street as the parcels spell it")
    if len(name) > 200:
        raise ValidationError("street", "is longer than 200 characters")
    if repaved_on > clock.today():
        raise ValidationError("repaved on", "is in the future; record a repaving once it is done")
    for label, number in (("from number", from_number), ("to number", to_number)):
        if number is not None and number < 0:
            raise ValidationError(label, "is not a house number")
    if from_number is not None and to_number is not None and from_number > to_number:
        raise ValidationError("to number", "is lower than the first house number")
    with uow:
        uow.act_as(actor, clock.now())
        if uow.municipalities.get(municipality_id) is None:
            raise NotFound(f"municipality #{municipality_id} does not exist")
        row = StreetRepaving(
            municipality_id=municipality_id,
            street=name,
            repaved_on=repaved_on,
            from_number=from_number,
            to_number=to_number,
            notes=notes.strip(),
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        uow.registers.add(row)
        uow.flush()
        assert row.id is not None
        uow.commit()
        return row.id


def repavings(uow: UnitOfWork, municipality_id: int) -> list[RepavingRow]:
    """The municipality's recorded repavings, latest first."""
    with uow:
        rows = uow.registers.find(StreetRepaving, municipality_id=municipality_id)
        return sorted((_row(r) for r in rows), key=lambda r: (r.repaved_on, r.id), reverse=True)


def record_council_approval(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    approved_on: date,
    note: str = "",
) -> None:
    """Record that the Common Council approved this opening within five years of repaving
    (§435-8.I), on `approved_on`; `note` (the resolution or the minutes) is kept with it."""
    require(actor, Permission.RECORD_COUNCIL_APPROVAL)
    if approved_on > clock.today():
        raise ValidationError("approved on", "is in the future")
    with uow:
        uow.act_as(actor, clock.now())
        permit = uow.permits.get_for_update(permit_id)
        if permit is None:
            raise NotFound(f"permit #{permit_id} does not exist")
        permit.council_opening_approved_on = approved_on
        permit.council_opening_recorded_by_id = actor.user_id
        if note.strip():
            permit.council_approval = note.strip()[:200]
        uow.commit()


def street_of(uow: UnitOfWork, permit_id: int) -> str:
    """The street of the permit's parcel, as the parcels spell it ("" without a parcel)."""
    with uow:
        permit = uow.permits.get(permit_id)
        if permit is None:
            raise NotFound(f"permit #{permit_id} does not exist")
        return permit.parcel.street if permit.parcel is not None else ""


def repaving_for(uow: UnitOfWork, permit: Permit, on: date) -> StreetRepaving | None:
    """The latest repaving on the register that covers the permit's parcel, inside an open
    unit of work."""
    if permit.parcel is None:
        return None
    rows = uow.registers.find(StreetRepaving, municipality_id=permit.municipality_id)
    return latest_repaving(rows, permit.parcel.street, permit.parcel.house_number, on)


def moratorium_shortfalls(uow: UnitOfWork, permit: Permit, on: date) -> list[str]:
    """§435-8.I for a street opening, inside an open unit of work: the register's repaving of
    the parcel's street (or a paving date typed on the permit, whichever is later)."""
    found = repaving_for(uow, permit, on)
    paved = found.repaved_on if found is not None else None
    if permit.street_paved_on is not None and (paved is None or permit.street_paved_on > paved):
        paved = permit.street_paved_on
    street = found.street if found is not None else ""
    return repaving_holds(on, paved, permit.council_opening_approved_on, street)
