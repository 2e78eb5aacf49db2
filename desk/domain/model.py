"""Entities of the permit register as plain Python classes.

db/orm.py maps them to tables imperatively (Architecture Patterns with Python), so services
work on these objects without knowing about SQL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

from desk.domain.cashiering import (
    AccountKind,
    AccountPurpose,
    AdjustmentSource,
    EntrySource,
    MethodTotals,
    PaymentMethod,
    Portion,
    RefundGround,
    ReversalKind,
)
from desk.domain.enums import (
    CredentialKind,
    PartyKind,
    PartyRole,
    PermitClass,
    PermitStatus,
    Role,
    WorkClass,
)
from desk.domain.inspections import Result as InspectionResult
from desk.domain.licensing import Outcome as CondemnationOutcome
from desk.domain.sureties import BondKind, BondPurpose, BondScope, BondStatus, CoverageKind


@dataclass(eq=False, kw_only=True)
class Municipality:
    key: str
    name: str
    letterhead: list[str] = field(default_factory=list)
    inspector_name: str = ""
    inspector_title: str = "Building Inspector"
    state: str = "WI"
    settings: dict[str, Any] = field(default_factory=dict)
    address: str = ""
    treasurer_name: str = ""
    logo_image_id: int | None = None  # municipality_image rows, never changed once stored
    signature_image_id: int | None = None
    # The shipped ordinance whose permit kinds, forms, checklists, inspections, sureties and
    # ledger the municipality follows ("glendale", "new_lisbon"); "" when it issues no permits
    # in Permit Desk (code enforcement only). Every lookup of those resources goes by this key.
    ordinance: str = ""
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)


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
    # 15.1.36: a sewer tax or assessment is delinquent; no sewer connection permit is issued
    # without the Plumbing Inspector's special permission (Permit.sewer_permission).
    sewer_delinquent: bool = False
    notes: str = ""  # the office's own
    # What the county's parcel file says (Wisconsin statewide parcel schema, V10), updated by
    # each import of it (desk.imports.parcels lists which fields are the county's).
    state_id: str = ""  # STATEID
    tax_parcel_id: str = ""  # TAXPARCELID
    owner_name: str = ""  # OWNERNME1: the owner of record
    owner_name_2: str = ""  # OWNERNME2
    owner_address: str = ""  # PSTLADRESS: the owner's mailing address, one line
    property_classes: list[str] = field(default_factory=list)  # PROPCLASS: "4, 5M" is two
    aux_classes: list[str] = field(default_factory=list)  # AUXCLASS
    acres: Decimal | None = None  # ASSDACRES, else DEEDACRES, else GISACRES
    assessed_value: Decimal | None = None  # CNTASSDVALUE
    land_value: Decimal | None = None  # LNDVALUE
    improvement_value: Decimal | None = None  # IMPVALUE
    fair_market_value: Decimal | None = None  # ESTFMKVALUE
    tax_roll_year: int | None = None  # TAXROLLYEAR
    latitude: Decimal | None = None  # LATITUDE, or the parcel's centre when the file has shapes
    longitude: Decimal | None = None
    import_id: int | None = None  # the data_import its county fields last came from
    # Retired, never deleted: a parcel with permits or cases stays readable. A merged
    # duplicate is retired pointing at the parcel it was merged into.
    retired_on: date | None = None
    retired_reason: str = ""
    retired_by_id: int | None = None
    merged_into_id: int | None = None
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)

    @property
    def owners(self) -> str:
        """The owner(s) of record on one line, as the county names them."""
        return " & ".join(n for n in (self.owner_name, self.owner_name_2) if n)

    @property
    def address(self) -> str:
        """One line: '1234 N Green Bay Rd, Unit 2'."""
        line = " ".join(p for p in (self.house_number, self.street) if p)
        if self.unit:
            line += f", Unit {self.unit}"
        return line


@dataclass(eq=False, kw_only=True)
class StreetRepaving:
    """A street, or a segment of it between two house numbers, permanently improved or repaved
    (New Lisbon §435-8.I: no opening for five years after, unless the Council finds it
    absolutely essential). Recorded once on the street register; every opening reads it."""

    municipality_id: int
    street: str  # as the parcels spell it
    repaved_on: date
    from_number: int | None = None
    to_number: int | None = None
    notes: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


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
    notes: str = ""
    # Retired, never deleted; a merged duplicate points at the record it was merged into.
    retired_on: date | None = None
    retired_reason: str = ""
    retired_by_id: int | None = None
    merged_into_id: int | None = None
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)
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
    recorded_on: date | None = None
    # A renewal (or a correction) is a new credential; the one it replaces stays as history,
    # pointing at its successor, and no longer counts.
    superseded_by_id: int | None = None
    party_id: int | None = None
    id: int | None = None

    def valid_on(self, day: date) -> bool:
        return self.expires_on is None or day <= self.expires_on


@dataclass(eq=False, kw_only=True)
class DataImport:
    """One import of the office's data from a file (the county's parcel file, a contractors'
    spreadsheet): what file, which layer, who and when, and what it did. The records it touched
    point at it, so a parcel shows the file and date its county fields came from."""

    municipality_id: int
    kind: str  # "parcels" or "contractors"
    file_name: str
    file_sha256: str
    layer: str = ""
    at: datetime | None = None
    by_user_id: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    id: int | None = None


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
    # §435-8.I: the day the Common Council approved the opening within five years of repaving,
    # and who recorded it (desk.services.street_register.record_council_approval).
    council_opening_approved_on: date | None = None
    council_opening_recorded_by_id: int | None = None
    # The work as the intake form records it; None: not recorded.
    stories: int | None = None
    volume_cuft: int | None = None  # over 50,000 cu ft, not one-/two-family: a seal, 15.1.7(d)
    occupancy_class: str = ""  # a key of the municipality's occupancy classes (intake_fees.toml)
    construction_type: str = ""
    disturbed_acres: Decimal | None = None  # over one acre: a full control plan, 15.2.8
    work_details: dict[str, str] = field(default_factory=dict)  # SBD-5823 answers by form key
    # The inspector's finding: damage as a share of equalized value. 50% or more: no permit to
    # repair, alter or move the building (15.1.9(b), 15.1.3(d)(3)).
    damage_percent: int | None = None
    sewer_permission: str = ""  # the Plumbing Inspector's special permission, 15.1.36
    parties: list[PermitParty] = field(default_factory=list)
    extensions: list[PermitExtension] = field(default_factory=list)
    orders: list[PermitOrder] = field(default_factory=list)
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)

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
    """A stop-work order (15.1.12), a revocation (15.1.7(g)) or a void with its reason; lifting a
    stop-work order is a written notice."""

    kind: str  # "stop_work", "revocation" or "void"
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
    title: str = ""  # printed under the name on what the user issues: "Building Inspector"
    must_change_password: bool = False  # a first or reset password
    last_sign_in_at: datetime | None = None
    system: bool = False  # the built-in "command line" actor: audited, never signs in
    failed_sign_ins: int = 0  # wrong passwords in a row
    last_failed_at: datetime | None = None
    # Locked by an administrator on purpose (revision 0023): wrong passwords only delay the
    # next try. Another administrator unlocks it.
    locked_at: datetime | None = None
    locked_by_id: int | None = None
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)

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


# --- cashiering: db/orm.py maps these; desk/domain/cashiering.py holds the rules ---------------


@dataclass(eq=False, kw_only=True)
class GlAccount:
    """A general-ledger account of a municipality (resources/gl_accounts.toml, then editable)."""

    municipality_id: int
    number: str
    name: str
    kind: AccountKind
    purpose: AccountPurpose = AccountPurpose.NONE
    active: bool = True
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class FeeAccountMap:
    """Fee item code → the account its money books to."""

    municipality_id: int
    code: str
    account_id: int
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class Payment:
    """A numbered receipt. Never deleted or edited after the fact: a void or a returned check is
    a PaymentReversal of its own."""

    municipality_id: int
    receipt_number: str
    received_at: datetime
    day: date  # the office's business day: the drawer-day it belongs to
    payer_name: str
    method: PaymentMethod
    amount: Decimal
    credited: Decimal = Decimal("0.00")  # the overpayment kept as the payer's credit
    payer_party_id: int | None = None
    check_number: str = ""  # also a money order's number
    check_drawer: str = ""
    check_bank: str = ""
    card_reference: str = ""
    clerk_id: int | None = None
    drawer: str = ""
    close_id: int | None = None  # the daily close that counted it
    printed_count: int = 0  # a reprint says COPY
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class PaymentAllocation:
    payment_id: int
    permit_id: int
    amount: Decimal
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class PaymentReversal:
    """A void (same day, before the close) or a check returned unpaid (NSF)."""

    payment_id: int
    municipality_id: int
    kind: ReversalKind
    day: date
    at: datetime
    reason: str
    bank_notice: str = ""  # NSF: the bank's notice as received
    by_user_id: int | None = None
    turnover_id: int | None = None  # NSF: reported to the treasurer with this turnover
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class GlEntry:
    """One amount booked to one GL account (+ the account holds more), with what caused it."""

    municipality_id: int
    day: date
    at: datetime
    source: EntrySource
    account_id: int
    amount: Decimal
    code: str = ""  # the fee item code; "" for a payer's credit
    portion: Portion = Portion.FEE
    permit_id: int | None = None
    payment_id: int | None = None
    reversal_id: int | None = None
    refund_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class FeeAdjustment:
    """A fee line added or corrected after assessment: a new line, never an edit."""

    permit_id: int
    code: str
    description: str
    amount: Decimal  # negative reduces what is charged
    source: AdjustmentSource
    reason: str
    day: date
    at: datetime
    section: str = ""
    portion: Portion = Portion.FEE
    note: str = ""
    version_id: int | None = None  # the schedule version that priced an added line
    by_user_id: int | None = None
    refund_id: int | None = None
    reversal_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class Refund:
    """Money paid back by the treasurer's check, with the rule that allowed it."""

    municipality_id: int
    ground: RefundGround
    amount: Decimal
    kept: Decimal
    reason: str  # the rule's words, with the section
    section: str
    check_number: str
    check_date: date
    day: date
    at: datetime
    payer_name: str = ""
    payer_party_id: int | None = None
    permit_id: int | None = None  # None: a payer's credit refunded
    by_user_id: int | None = None
    turnover_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class PayerCredit:
    """A movement of a payer's credit (+ overpayment kept, − used, refunded or reversed)."""

    municipality_id: int
    payer_key: str  # "party:<id>" or "name:<folded name>"
    payer_name: str
    amount: Decimal
    day: date
    at: datetime
    memo: str = ""
    party_id: int | None = None
    payment_id: int | None = None
    reversal_id: int | None = None
    refund_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class DailyClose:
    """One drawer's day closed: expected by method vs counted; its receipts can no longer be
    voided."""

    municipality_id: int
    drawer: str
    day: date
    expected_cash: Decimal = Decimal("0.00")
    expected_check: Decimal = Decimal("0.00")
    expected_card: Decimal = Decimal("0.00")
    expected_money_order: Decimal = Decimal("0.00")
    counted_cash: Decimal = Decimal("0.00")
    counted_check: Decimal = Decimal("0.00")
    counted_card: Decimal = Decimal("0.00")
    counted_money_order: Decimal = Decimal("0.00")
    over_short: Decimal = Decimal("0.00")
    explanation: str = ""
    closed_by_id: int | None = None
    closed_at: datetime | None = None
    turnover_id: int | None = None
    id: int | None = None

    @property
    def expected(self) -> MethodTotals:
        return MethodTotals(
            self.expected_cash, self.expected_check, self.expected_card, self.expected_money_order
        )

    @property
    def counted(self) -> MethodTotals:
        return MethodTotals(
            self.counted_cash, self.counted_check, self.counted_card, self.counted_money_order
        )


@dataclass(eq=False, kw_only=True)
class Turnover:
    """Closed days delivered to the City Treasurer (15.1.34(b)(4)), with the returned checks
    and refunds since the last turnover as deductions; acknowledged by the treasurer."""

    municipality_id: int
    delivered_on: date
    delivered_at: datetime
    amount: Decimal  # book: the closed days' collections − NSF − refunds
    cash_delivered: Decimal  # the money counted at the closes and handed over
    delivered_by_id: int | None = None
    acknowledged_on: date | None = None
    acknowledged_at: datetime | None = None
    acknowledged_by_id: int | None = None
    deposit_ref: str = ""
    deposited: Decimal | None = None
    difference: Decimal | None = None  # deposited − cash delivered; flagged until resolved
    resolved_at: datetime | None = None
    resolved_by_id: int | None = None
    resolution: str = ""
    id: int | None = None


# --- inspections: db/orm.py maps these; desk/domain/inspections.py holds the rules --------------


class InspectionStatus(StrEnum):
    """Where a requested inspection stands. Values are stored; never rename one."""

    REQUESTED = "requested"  # called in, not yet on an inspector's day
    SCHEDULED = "scheduled"  # on an inspector's route for a date
    DONE = "done"  # a result is recorded
    CANCELLED = "cancelled"  # called off before it was made

    @property
    def label(self) -> str:
        return self.value.capitalize()


@dataclass(eq=False, kw_only=True)
class Inspection:
    """One inspection: the request (who called, when, what they asked for), the inspector's day
    and route position, and the result as recorded."""

    permit_id: int
    type_code: str
    requested_at: datetime
    requested_by: str = ""  # the caller's name
    requested_phone: str = ""
    desired_on: date | None = None
    desired_time: str = ""  # "", "AM", "PM" or "HH:MM"
    scheduled_on: date | None = None
    inspector_id: int | None = None
    route_position: int | None = None
    status: InspectionStatus = InspectionStatus.REQUESTED
    result: InspectionResult | None = None
    notes: str = ""
    result_at: datetime | None = None
    recorded_by_id: int | None = None
    # Work covered before the inspection was called for (15.1.21(a)(13)): the fee is charged.
    failure_to_call: bool = False
    fee_waiver: str = ""  # why the inspector waived this inspection's fee
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class InspectionException:
    """The inspector's exception to the order of 15.1.11(a): the stage need not pass first."""

    permit_id: int
    type_code: str
    reason: str
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class CorrectionOrderRecord:
    """A written order to correct what an inspection found (15.1.90(b)(1), 15.1.76(c))."""

    permit_id: int
    noticed_on: date
    due_on: date
    section: str
    items: str
    inspection_id: int | None = None
    corrected_on: date | None = None
    extended: bool = False
    extension_reasons: str = ""  # one line per extension: "to MM/DD/YYYY: reason"
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class OccupancyCertificate:
    """A numbered certificate of occupancy (15.1.13): the use stated, its conditions, and for a
    temporary certificate the date by which the work must be complete (15.1.13(d))."""

    municipality_id: int
    number: str  # gapless per municipality and year, series "CO"
    permit_id: int
    use_stated: str
    issued_on: date
    conditions: str = ""
    occupant: str = ""  # the user of a non-residential building (15.1.13(c))
    temporary_until: date | None = None
    inspector_id: int | None = None
    inspector_name: str = ""  # as printed on the certificate
    at: datetime | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class StateFiling:
    """The date a new one- or two-family dwelling permit was filed with the state (Act 211,
    s. 101.63(7m) Wis. Stats., SPS 320.09); one per permit, corrected in place (audited)."""

    permit_id: int
    filed_on: date
    reference: str = ""  # the state's acknowledgement, if any
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


# --- bonds, insurance certificates and street deposits: db/orm.py maps these;
# desk/domain/sureties.py holds the rules and their frozen views (Bond, InsuranceCertificate,
# Deposit), which desk/services/sureties.py builds from these rows.


@dataclass(eq=False, kw_only=True)
class BondSurety:
    """A personal surety named on a bond (15.1.9(f)(1): two personal sureties)."""

    name: str
    bond_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class BondPermit:
    """A permit a bond covers (a bond may cover one permit or several)."""

    permit_id: int
    bond_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class BondRecord:
    """A bond, letter of credit, cash bond or written guarantee in the register."""

    municipality_id: int
    purpose: BondPurpose
    kind: BondKind
    principal: str  # who gives the bond
    obligee: str
    amount: Decimal
    effective_on: date
    expires_on: date | None = None  # None: in force until released
    principal_party_id: int | None = None  # the contractor, when a party of the register
    number: str = ""
    surety_company: str = ""
    sureties_approved: str = ""  # 15.1.9(f)(1): who approved the personal sureties, and when
    conditions: list[str] = field(default_factory=list)  # condition codes it is conditioned on
    scope: BondScope = BondScope.PERMITS
    year: int | None = None  # BondScope.CONTRACTOR_YEAR: the calendar year (§435-7.K)
    status: BondStatus = BondStatus.IN_FORCE
    released_on: date | None = None
    released_by: str = ""
    released_by_id: int | None = None
    claimed_on: date | None = None
    claim_amount: Decimal | None = None
    claim_reason: str = ""
    notes: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    sureties: list[BondSurety] = field(default_factory=list)
    permits: list[BondPermit] = field(default_factory=list)
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)


@dataclass(eq=False, kw_only=True)
class CoverageRecord:
    """One coverage of a certificate: per person, per accident or property damage."""

    kind: CoverageKind
    limit_amount: Decimal
    certificate_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class AssociationMember:
    """A member an association's certificate covers (15.1.38(b))."""

    name: str
    party_id: int | None = None
    certificate_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class InsuranceCertificateRecord:
    """A certificate of insurance on file: a contractor's own or an association's."""

    municipality_id: int
    insured: str
    insurer: str
    policy: str
    effective_on: date
    expires_on: date
    insured_party_id: int | None = None
    holder: str = ""  # the certificate holder (the City)
    file_reference: str = ""
    association: bool = False
    filed_on: date | None = None  # 15.1.38(b): members covered at most one year from filing
    by_user_id: int | None = None
    at: datetime | None = None
    coverages: list[CoverageRecord] = field(default_factory=list)
    members: list[AssociationMember] = field(default_factory=list)
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)


class DepositState(StrEnum):
    """Where a street deposit stands in the register. "Eligible" is not stored: it follows
    from the completion date and the day (desk.domain.sureties.Deposit.status)."""

    AWAITING_PAYMENT = "awaiting_payment"  # recorded and charged, not yet paid
    HELD = "held"
    ORDERED = "ordered"  # the City Engineer ordered it returned
    REFUNDED = "refunded"  # the clerk's check issued (less any part retained)
    RETAINED = "retained"  # the Council kept all of it


@dataclass(eq=False, kw_only=True)
class StreetDeposit:
    """A street deposit (15.1.43): money held in the liability account for the depositor, who
    is often the plumber, not the owner. Paid through cashiering; returned by the clerk's check
    on the City Engineer's order, or kept in part or whole by the Common Council."""

    municipality_id: int
    permit_id: int
    depositor: str
    amount: Decimal
    depositor_party_id: int | None = None
    depositor_address: str = ""
    refund_payee: str = ""  # who the check is made out to; the depositor when empty
    refund_address: str = ""  # where the check is mailed; the depositor's address when empty
    street_paved: bool = True
    status: DepositState = DepositState.AWAITING_PAYMENT
    received_on: date | None = None
    payment_id: int | None = None  # the receipt that took it
    completed_on: date | None = None  # entered by the inspector; else the permit's final
    completed_by_id: int | None = None
    ordered_on: date | None = None
    ordered_at: datetime | None = None
    ordered_by: str = ""
    ordered_by_id: int | None = None
    check_number: str = ""
    check_date: date | None = None
    refunded_at: datetime | None = None
    refunded_by_id: int | None = None
    refund_id: int | None = None  # cashiering's refund row (the check out of the liability)
    retention_resolution: str = ""
    retention_resolved_on: date | None = None
    retention_amount: Decimal | None = None
    retention_reason: str = ""
    retention_by_id: int | None = None
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)


@dataclass(eq=False, kw_only=True)
class SuretyFacts:
    """What a permit's bond, insurance and deposit requirements turn on, as the inspector or
    engineer records them (desk.domain.sureties.PermitFacts); one row per permit."""

    permit_id: int
    excavation_hazard: bool = True
    exterior_altered: bool = False
    excavates_public_street: bool = False
    street_paved: bool = False
    engineer_requires_bond: bool = False
    inspector_requires_surety: bool = False
    public_utility: bool = False
    bond_amount: Decimal | None = None
    plan_commission_bond_amount: Decimal | None = None
    restoration_bond_amount: Decimal | None = None
    deposit_amount: Decimal | None = None
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


# --- City licences and condemnations: db/orm.py maps these; desk/domain/licensing.py
# holds the rules.


@dataclass(eq=False, kw_only=True)
class CityLicence:
    """A City electrical licence (15.1.75), numbered "EL-YYYY-NNNN", resting on the state
    credential named here as it stood on the day of the grant; its revocation upon a complaint
    heard by the Common Council (15.1.78) is recorded on the same row."""

    municipality_id: int
    number: str
    party_id: int
    licensee: str  # the name as granted and printed
    trade: str  # "electrical"
    credential_kind: CredentialKind
    credential_number: str
    granted_on: date
    expires_on: date
    credential_expires_on: date | None = None
    fee_note: str = ""
    complaint_on: date | None = None  # 15.1.78(a): filed with the City Clerk
    complaint: str = ""  # its basis, which the notice specifies (15.1.78(b))
    hearing_on: date | None = None  # before the Common Council, within 30 days (15.1.78(b))
    notice_on: date | None = None  # written notice, not less than 5 days before the hearing
    notified: str = ""  # to whom: the licensee and the employer
    finding_on: date | None = None
    disqualified: bool | None = None  # the Council's finding; None: none yet
    council_finding: str = ""
    revoked_on: date | None = None  # 15.1.78(c): by the Electrical Inspector
    revoked_by_id: int | None = None
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)


@dataclass(eq=False, kw_only=True)
class Condemnation:
    """A dwelling or dwelling unit condemned as unfit for human habitation and placarded
    (Hudson 140 B), to be vacated by `vacate_by` (C), reoccupied only on written approval with
    the placard removed (D); the record 15.1.6(c) keeps. A condemnation need not have a permit."""

    municipality_id: int
    address: str
    grounds: list[str]  # desk.domain.licensing.Ground values
    reasons: str
    condemned_on: date
    vacate_by: date
    parcel_id: int | None = None
    permit_id: int | None = None
    dwelling_unit: str = ""
    placarded_on: date | None = None
    notified: str = ""  # the owner and occupants notified: who, how, when
    vacated_on: date | None = None
    outcome: CondemnationOutcome = CondemnationOutcome.OPEN
    outcome_on: date | None = None
    placard_removed_on: date | None = None
    approval_note: str = ""  # the written approval to reoccupy (Hudson 140 D)
    outcome_note: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None
    version: int = 0  # set by the mapper (schema.version_column)
