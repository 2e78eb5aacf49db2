"""The county's owner of record on the permits and notices the office writes: an application
offers it for the owner roles, a notice of violation and a rooming-house licence address it at
the owner's mailing address."""

from __future__ import annotations

from dataclasses import dataclass

from desk.clock import Clock
from desk.domain.enums import PartyKind
from desk.domain.model import Actor, Parcel, Party
from desk.domain.permissions import Permission, require
from desk.domain.records import looks_like_organization, parse_mailing_address
from desk.errors import NotFound, RuleViolation
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class OwnerOfRecord:
    name: str  # one line, both owners: 'JOSEPH C RATH & ROBBIN M DUUCK'
    address: str  # the mailing address, one line as the county writes it

    @property
    def text(self) -> str:
        return f"{self.name}, {self.address}" if self.address else self.name


def of_parcel(parcel: Parcel) -> OwnerOfRecord | None:
    if not parcel.owner_name.strip():
        return None
    return OwnerOfRecord(parcel.owners[:200], parcel.owner_address)


def owner_of_record(uow: UnitOfWork, parcel_id: int) -> OwnerOfRecord | None:
    """The parcel's owner of record, or None when the register has none."""
    with uow:
        parcel = uow.parcels.get(parcel_id)
        if parcel is None:
            raise NotFound(f"parcel #{parcel_id} does not exist")
        return of_parcel(parcel)


def owner_as_party(uow: UnitOfWork, clock: Clock, actor: Actor, parcel_id: int) -> int:
    """The owner of record as a person or organization of the register, for an owner role:
    the one already on file with the same name and street address, else a new record made from
    the county's words (its mailing address split into lines)."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        parcel = uow.parcels.get(parcel_id)
        if parcel is None:
            raise NotFound(f"parcel #{parcel_id} does not exist")
        owner = of_parcel(parcel)
        if owner is None:
            raise RuleViolation(f"Parcel {parcel.pin} has no owner of record.")
        address = parse_mailing_address(owner.address)
        for found in uow.parties.find_by_name(owner.name):
            if found.retired_on is None and _same(found.address_line1, address.line1):
                assert found.id is not None
                return found.id
        party = Party(
            kind=PartyKind.ORGANIZATION
            if looks_like_organization(owner.name)
            else PartyKind.PERSON,
            name=owner.name,
            address_line1=address.line1[:200],
            address_line2=address.line2[:200],
            city=address.city[:80],
            state=address.state or "WI",
            zip=address.zip[:10],
        )
        uow.parties.add(party)
        uow.commit()
        assert party.id is not None
        return party.id


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
