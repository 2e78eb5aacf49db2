"""Entities of the permit register as plain Python classes.

db/orm.py maps them to tables imperatively (Architecture Patterns with Python), so services
work on these objects without knowing about SQL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from desk.domain.enums import (
    CredentialKind,
    PartyKind,
    PartyRole,
    PermitClass,
    PermitStatus,
    Role,
    WorkClass,
)


@dataclass(eq=False, kw_only=True)
class Municipality:
    key: str
    name: str
    letterhead: list[str] = field(default_factory=list)
    inspector_name: str = ""
    inspector_title: str = "Building Inspector"
    state: str = "WI"
    settings: dict[str, Any] = field(default_factory=dict)
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class Parcel:
    municipality_id: int
    pin: str
    house_number: str = ""
    street: str = ""
    unit: str = ""
    city: str = ""
    zip: str = ""
    legal_description: str = ""
    zoning_district: str = ""
    lot_area_sqft: int | None = None
    id: int | None = None

    @property
    def address(self) -> str:
        """One line: '1234 N Green Bay Rd, Unit 2'."""
        line = " ".join(p for p in (self.house_number, self.street) if p)
        if self.unit:
            line += f", Unit {self.unit}"
        return line


@dataclass(eq=False, kw_only=True)
class Party:
    """A person or an organization that applies, owns, designs or builds."""

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
    id: int | None = None
    credentials: list[Credential] = field(default_factory=list)

    @property
    def mailing_address(self) -> str:
        city_line = f"{self.city}, {self.state} {self.zip}".strip(" ,")
        return "\n".join(p for p in (self.address_line1, self.address_line2, city_line) if p)


@dataclass(eq=False, kw_only=True)
class Credential:
    """A state licence or registration, e.g. a master plumber's licence."""

    kind: CredentialKind
    number: str
    issuing_state: str = "WI"
    expires_on: date | None = None
    party_id: int | None = None
    id: int | None = None

    def valid_on(self, day: date) -> bool:
        return self.expires_on is None or day <= self.expires_on


@dataclass(eq=False, kw_only=True)
class PermitParty:
    role: PartyRole
    party: Party
    permit_id: int | None = None
    party_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class Permit:
    municipality_id: int
    kind: str
    permit_class: PermitClass
    work_class: WorkClass
    description: str = ""
    parcel: Parcel | None = None
    parcel_id: int | None = None
    valuation: Decimal = Decimal("0.00")
    floor_area_sqft: int = 0
    areas: dict[str, int] = field(default_factory=dict)
    dwelling_units: int = 0
    status: PermitStatus = PermitStatus.APPLIED
    number: str | None = None
    applied_on: date | None = None
    issued_on: date | None = None
    expires_on: date | None = None
    commenced_on: date | None = None
    completed_on: date | None = None
    status_date: date | None = None
    issued_by_id: int | None = None
    approved_on: date | None = None  # street opening validity runs from approval (§435-7)
    last_activity_on: date | None = None  # last work or inspection: 60-day suspension 15.1.8(b)
    requested_until: date | None = None  # stated period: temporary wiring, solid fill, ...
    emergency: bool = False  # double fees waived 15.1.21(f); openings in frozen ground §435-8
    work_began_before_permit: bool = False  # double fees 15.1.21(f)
    street_paved_on: date | None = None  # street openings: the final paving (§435-8)
    council_approval: str = ""  # resolution allowing an opening within five years of repaving
    parties: list[PermitParty] = field(default_factory=list)
    extensions: list[PermitExtension] = field(default_factory=list)
    orders: list[PermitOrder] = field(default_factory=list)
    id: int | None = None

    def party_in(self, role: PartyRole) -> Party | None:
        for link in self.parties:
            if link.role == role:
                return link.party
        return None


@dataclass(eq=False, kw_only=True)
class PermitExtension:
    """A deadline moved by the inspector, with the reason and who did it."""

    deadline: str
    until: date
    reason: str
    by_user_id: int | None = None
    at: datetime | None = None
    permit_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class PermitOrder:
    """A stop-work order (15.1.12) or a revocation (15.1.7(g)); lifting is a written notice."""

    kind: str  # "stop_work" or "revocation"
    issued_on: date
    reasons: str
    section: str
    by_user_id: int | None = None
    at: datetime | None = None
    lifted_on: date | None = None
    lift_notice: str = ""
    permit_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class User:
    username: str
    full_name: str
    password_hash: str
    roles_text: str = ""
    active: bool = True
    created_at: datetime | None = None
    id: int | None = None

    @property
    def roles(self) -> frozenset[Role]:
        return frozenset(Role(r) for r in self.roles_text.split(",") if r)

    @roles.setter
    def roles(self, roles: set[Role] | frozenset[Role] | list[Role]) -> None:
        self.roles_text = ",".join(sorted(Role(r).value for r in roles))


@dataclass(frozen=True)
class Actor:
    """Who is acting: passed to every service, which checks the permission itself."""

    user_id: int
    username: str
    roles: frozenset[Role]


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: str | None
    new: str | None


@dataclass(frozen=True)
class AuditEntry:
    """One row of the audit trail as a clerk reads it on a permit's History tab."""

    at: datetime
    username: str
    entity: str
    entity_id: int
    action: str
    changes: tuple[FieldChange, ...]
