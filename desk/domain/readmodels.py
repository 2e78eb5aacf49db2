"""Frozen rows that read-side queries return: safe to hand across threads and to views."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from desk.domain.enums import PartyRole, PermitClass, PermitStatus, WorkClass


@dataclass(frozen=True)
class PermitListRow:
    id: int
    number: str | None
    status: PermitStatus
    kind: str
    address: str
    owner: str
    contractor: str
    applied_on: date | None
    issued_on: date | None
    valuation: Decimal


@dataclass(frozen=True)
class PartyLine:
    role: PartyRole
    party_id: int
    name: str
    mailing_address: str
    phone: str


@dataclass(frozen=True)
class PermitDetail:
    id: int
    municipality_key: str
    number: str | None
    status: PermitStatus
    kind: str
    permit_class: PermitClass
    work_class: WorkClass
    description: str
    address: str
    pin: str
    legal_description: str
    zoning_district: str
    valuation: Decimal
    floor_area_sqft: int
    dwelling_units: int
    applied_on: date | None
    issued_on: date | None
    expires_on: date | None
    commenced_on: date | None
    completed_on: date | None
    issued_by: str
    parties: tuple[PartyLine, ...]
    # The work facts (revision 0006), named like the checklist FACTS so permit_facts reads them.
    areas: tuple[tuple[str, int], ...] = ()  # (level key, sq ft) as entered
    stories: int | None = None
    volume_cuft: int | None = None
    occupancy_class: str = ""
    construction_type: str = ""
    disturbed_acres: Decimal | None = None
    work_details: tuple[tuple[str, str], ...] = ()  # SBD-5823 answers: (form key, text)
    emergency: bool = False
    work_began_before_permit: bool = False
    damage_percent: int | None = None
    sewer_permission: str = ""
    sewer_delinquent: bool = False  # the parcel's, 15.1.36
    parcel_id: int | None = None


# Columns of the permits list, in order; the key is what the query sorts by.
PERMIT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("number", "Number"),
    ("status", "Status"),
    ("kind", "Kind"),
    ("address", "Address"),
    ("owner", "Owner"),
    ("contractor", "Contractor"),
    ("applied", "Applied"),
    ("issued", "Issued"),
    ("valuation", "Valuation"),
)


@dataclass(frozen=True)
class HistoryReferences:
    """Names for the ids an audit row mentions (parties, users, parcels), where known."""

    users: dict[int, str] = field(default_factory=dict)
    parties: dict[int, str] = field(default_factory=dict)
    parcels: dict[int, str] = field(default_factory=dict)
    permits: dict[int, str] = field(default_factory=dict)
    municipalities: dict[int, str] = field(default_factory=dict)
    checklist_items: dict[int, str] = field(default_factory=dict)  # row id -> the item's text

    def name(self, field_name: str, value: str) -> str:
        table = {
            "issued_by_id": self.users,
            "user_id": self.users,
            "party_id": self.parties,
            "parcel_id": self.parcels,
            "permit_id": self.permits,
            "municipality_id": self.municipalities,
        }.get(field_name)
        try:
            key = int(value)
        except ValueError:
            return value
        if table is not None and key in table:
            return table[key]
        return f"#{key}"


@dataclass(frozen=True)
class OrderNotice:
    """A stop-work order (15.1.12) or revocation notice (15.1.7(g)) as it is printed."""

    kind: str  # "stop_work" | "revocation"
    order_id: int
    issued_on: date
    reasons: str
    section: str
    lifted_on: date | None
    lift_notice: str
    permit_number: str | None
    permit_id: int
    kind_label: str
    description: str
    address: str
    owner: str
    owner_address: str
    contractor: str
    municipality_name: str
    letterhead: tuple[str, ...]
    inspector_name: str
    inspector_title: str
