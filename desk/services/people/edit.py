"""Correcting a person or organization: addresses, phone, e-mail, notes and the name itself,
saved with the version the form showed (StaleEdit over a newer one) and audited field by field.
Documents already issued keep the name and address they were issued with."""

from __future__ import annotations

from dataclasses import dataclass, fields

from desk.clock import Clock
from desk.domain.enums import PartyKind
from desk.domain.model import Actor, Party
from desk.domain.permissions import Permission, require
from desk.domain.records import (
    check_email,
    check_length,
    check_notes,
    check_state,
    check_zip,
    refuse_retired,
)
from desk.errors import NotFound, ValidationError
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version


@dataclass(frozen=True)
class PartyEdit:
    kind: PartyKind
    name: str
    first_name: str = ""
    last_name: str = ""
    address_line1: str = ""
    address_line2: str = ""
    city: str = ""
    state: str = "WI"
    zip: str = ""
    phone: str = ""
    email: str = ""
    notes: str = ""


EDITED = tuple(f.name for f in fields(PartyEdit))


def party_edit_of(party: Party) -> PartyEdit:
    return PartyEdit(**{name: getattr(party, name) for name in EDITED})


def checked(edit: PartyEdit) -> PartyEdit:
    """The edit with spaces trimmed, or ValidationError naming the first bad field."""
    first = check_length("first name", edit.first_name, 100)
    last = check_length("last name", edit.last_name, 100)
    name = " ".join(edit.name.split())
    if edit.kind is PartyKind.PERSON and not name:
        name = f"{first} {last}".strip()
    if not name:
        raise ValidationError("name", "enter the name of the person or organization")
    return PartyEdit(
        kind=edit.kind,
        name=check_length("name", name, 200),
        first_name=first,
        last_name=last,
        address_line1=check_length("address", edit.address_line1, 200),
        address_line2=check_length("address line 2", edit.address_line2, 200),
        city=check_length("city", edit.city, 80),
        state=check_state(edit.state) or "WI",
        zip=check_zip(edit.zip),
        phone=check_length("phone", edit.phone, 40),
        email=check_length("email", check_email(edit.email), 200),
        notes=check_notes(edit.notes),
    )


def locked_party(uow: UnitOfWork, party_id: int) -> Party:
    party = uow.parties.get(party_id)  # locked in a writing unit of work
    if party is None:
        raise NotFound(f"person or organization #{party_id} does not exist")
    return party


def update_party(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    party_id: int,
    edit: PartyEdit,
    version: int | None = None,
) -> None:
    require(actor, Permission.MANAGE_PARTIES)
    edit = checked(edit)
    with uow:
        uow.act_as(actor, clock.now())
        party = locked_party(uow, party_id)
        check_version(uow, party, version, party.name)
        refuse_retired(party.retired_on, party.name, "record of")
        for name in EDITED:
            if getattr(party, name) != getattr(edit, name):
                setattr(party, name, getattr(edit, name))
        uow.commit()
