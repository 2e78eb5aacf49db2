"""Frozen rows for the intake form's completers and for the printed permit documents.

db/queries.py builds them; ui/ and reports/ read them (no ORM objects cross the layers).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


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
