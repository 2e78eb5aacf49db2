"""Correcting a parcel: every field a person typed or the county's owner of record, saved with
the version the form showed (a save over a newer one is refused: StaleEdit) and audited field
by field. The county's figures (values, classes, acreage, ids, coordinates) come from its file
and are not typed; the next import of that file sets them."""

from __future__ import annotations

from dataclasses import dataclass, fields

from desk.clock import Clock
from desk.domain.duplicates import parcel_exists
from desk.domain.model import Actor, Parcel
from desk.domain.permissions import Permission, require
from desk.domain.records import (
    check_length,
    check_notes,
    check_pin,
    check_zip,
    refuse_retired,
)
from desk.errors import NotFound, ValidationError
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version


@dataclass(frozen=True)
class ParcelEdit:
    """What the parcel form edits, as typed."""

    pin: str
    house_number: str = ""
    street: str = ""
    unit: str = ""
    city: str = ""
    zip: str = ""
    legal_description: str = ""
    zoning_district: str = ""
    lot_area_sqft: int | None = None
    notes: str = ""
    owner_name: str = ""
    owner_name_2: str = ""
    owner_address: str = ""


EDITED = tuple(f.name for f in fields(ParcelEdit))


def parcel_edit_of(parcel: Parcel) -> ParcelEdit:
    """The form's starting values: the parcel as it is."""
    return ParcelEdit(**{name: getattr(parcel, name) for name in EDITED})


def checked(edit: ParcelEdit) -> ParcelEdit:
    """The edit with spaces trimmed, or ValidationError naming the first bad field."""
    if edit.lot_area_sqft is not None and not 0 < edit.lot_area_sqft < 10**9:
        raise ValidationError("lot area", "a number of square feet greater than zero")
    return ParcelEdit(
        pin=check_pin(edit.pin),
        house_number=check_length("house number", edit.house_number, 20),
        street=check_length("street", edit.street, 120),
        unit=check_length("unit", edit.unit, 20),
        city=check_length("city", edit.city, 80),
        zip=check_zip(edit.zip),
        legal_description=edit.legal_description.strip(),
        zoning_district=check_length("zoning district", edit.zoning_district, 20),
        lot_area_sqft=edit.lot_area_sqft,
        notes=check_notes(edit.notes),
        owner_name=check_length("owner of record", edit.owner_name, 200),
        owner_name_2=check_length("second owner", edit.owner_name_2, 200),
        owner_address=check_length("owner's mailing address", edit.owner_address, 300),
    )


def locked_parcel(uow: UnitOfWork, parcel_id: int) -> Parcel:
    parcel = uow.parcels.get(parcel_id)  # locked in a writing unit of work
    if parcel is None:
        raise NotFound(f"parcel #{parcel_id} does not exist")
    return parcel


def update_parcel(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    parcel_id: int,
    edit: ParcelEdit,
    version: int | None = None,
) -> None:
    """Save the parcel form. A PIN another parcel of the municipality has is refused naming
    that parcel; a retired parcel is restored before it is changed."""
    require(actor, Permission.MANAGE_PARTIES)
    edit = checked(edit)
    with uow:
        uow.act_as(actor, clock.now())
        parcel = locked_parcel(uow, parcel_id)
        check_version(uow, parcel, version, f"Parcel {parcel.pin}")
        refuse_retired(parcel.retired_on, parcel.pin, "parcel")
        if edit.pin != parcel.pin:
            other = uow.parcels.by_pin(parcel.municipality_id, edit.pin)
            if other is not None and other.id != parcel.id:
                raise parcel_exists(other)
        for name in EDITED:
            if getattr(parcel, name) != getattr(edit, name):
                setattr(parcel, name, getattr(edit, name))
        uow.commit()
