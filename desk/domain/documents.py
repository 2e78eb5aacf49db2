"""Frozen rows for the intake form's completers and for the printed permit documents.

db/queries.py builds them; ui/ and reports/ read them (no ORM objects cross the layers).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any


class Letterhead(tuple[str, ...]):
    """The municipality as a document prints it (db/letterheads.py letterhead_as_of): the
    letterhead lines, and what else that letterhead version holds.

    A tuple of the lines, so the many `letterhead: tuple[str, ...]` fields and renderers take it
    unchanged; reports/common.py header() reads the logo and address when it is one. Immutable;
    equal only to a letterhead with the same lines, images and names (a plain tuple compares by
    its lines alone)."""

    name: str
    address: str
    inspector_name: str
    inspector_title: str
    treasurer_name: str
    logo: bytes | None
    signature: bytes | None

    def __new__(
        cls,
        lines: Iterable[str] = (),
        *,
        name: str = "",
        address: str = "",
        inspector_name: str = "",
        inspector_title: str = "",
        treasurer_name: str = "",
        logo: bytes | None = None,
        signature: bytes | None = None,
    ) -> Letterhead:
        self = super().__new__(cls, (str(x) for x in lines))
        extras = {
            "name": name,
            "address": address,
            "inspector_name": inspector_name,
            "inspector_title": inspector_title,
            "treasurer_name": treasurer_name,
            "logo": logo,
            "signature": signature,
        }
        for key, value in extras.items():
            object.__setattr__(self, key, value)
        return self

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"Letterhead is immutable (tried to set {key})")

    def _extras(self) -> tuple[Any, ...]:
        return (
            self.name,
            self.address,
            self.inspector_name,
            self.inspector_title,
            self.treasurer_name,
            self.logo,
            self.signature,
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Letterhead):
            return tuple(self) == tuple(other) and self._extras() == other._extras()
        return tuple(self) == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple(self))  # equal to a plain tuple of the same lines: the same hash

    def __repr__(self) -> str:
        logo = f"{len(self.logo)} bytes" if self.logo else "none"
        return f"Letterhead({tuple(self)!r}, name={self.name!r}, logo={logo})"

    @property
    def address_lines(self) -> tuple[str, ...]:
        return tuple(x.strip() for x in self.address.splitlines() if x.strip())


@dataclass(frozen=True)
class ParcelChoice:
    """A parcel as the intake form's completer lists it."""

    id: int
    pin: str
    house_number: str
    street: str
    unit: str = ""
    city: str = ""
    zip: str = ""
    owner: str = ""  # the county's owner of record, both names on one line

    @property
    def address(self) -> str:
        line = " ".join(p for p in (self.house_number, self.street) if p)
        if self.unit:
            line += f", Unit {self.unit}"
        return line

    @property
    def text(self) -> str:
        """'6120 N Port Washington Rd — 047-9991-002' (what the completer shows)."""
        return f"{self.address or '(no house number) ' + self.street} — {self.pin}"


@dataclass(frozen=True)
class PartyChoice:
    id: int
    name: str
    address: str = ""
    phone: str = ""

    @property
    def text(self) -> str:
        """'Badger State Builders LLC — 200 E Wells St, Milwaukee'."""
        return f"{self.name} — {self.address}" if self.address else self.name


@dataclass(frozen=True)
class PermitCardData:
    """The weatherproof job-site card of 15.1.8(a)."""

    municipality_name: str
    letterhead: tuple[str, ...]
    number: str
    address: str
    pin: str
    kind_label: str
    description: str
    owner: str
    contractor: str
    issued_on: date | None
    expires_on: date | None
    inspector_name: str
    inspector_title: str


@dataclass(frozen=True)
class SummaryParty:
    role: str
    name: str
    address: str
    phone: str


@dataclass(frozen=True)
class SummaryFeeLine:
    code: str
    description: str
    section: str
    amount: Decimal
    deposit: bool = False
    note: str = ""


@dataclass(frozen=True)
class ApplicationSummaryData:
    """An application as filed: site, parties, work and the assessed fee lines."""

    municipality_name: str
    letterhead: tuple[str, ...]
    permit_id: int
    number: str | None
    status: str
    kind_code: str
    kind_label: str
    description: str
    address: str
    pin: str
    legal_description: str
    zoning_district: str
    applied_on: date | None
    issued_on: date | None
    valuation: Decimal
    floor_area_sqft: int
    areas: tuple[tuple[str, int], ...] = ()
    dwelling_units: int = 0
    parties: tuple[SummaryParty, ...] = ()
    fee_lines: tuple[SummaryFeeLine, ...] = ()
    schedule_version: str = ""

    @property
    def fees_total(self) -> Decimal:
        return sum((f.amount for f in self.fee_lines if not f.deposit), Decimal("0.00"))

    @property
    def deposits_total(self) -> Decimal:
        return sum((f.amount for f in self.fee_lines if f.deposit), Decimal("0.00"))
