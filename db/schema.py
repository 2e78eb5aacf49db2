"""Tables. Alembic migrations in db/migrations build exactly this schema (a test compares them)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.types import TypeDecorator

from db.types import Cents, StrEnumType, UTCDateTime
from desk.domain.cashiering import (
    AccountKind,
    AccountPurpose,
    AdjustmentSource,
    EntrySource,
    PaymentMethod,
    Portion,
    RefundGround,
    ReversalKind,
)
from desk.domain.checklists import ItemState
from desk.domain.enums import (
    CredentialKind,
    PartyKind,
    PartyRole,
    PermitClass,
    PermitStatus,
    WorkClass,
)
from desk.domain.inspections import Result as InspectionResult
from desk.domain.licensing import Outcome as CondemnationOutcome
from desk.domain.model import DepositState, InspectionStatus
from desk.domain.sureties import BondKind, BondPurpose, BondScope, BondStatus, CoverageKind
from desk.enforcement import licences as rooming
from desk.enforcement import model as enforcement


class Scaled(TypeDecorator[Decimal]):
    """A decimal with at most `places` decimals as an integer of that unit (acres to the
    ten-thousandth, degrees to the ten-millionth): exact on SQLite too. A value with more
    decimals is rounded half-even to `places`, said where it is read (desk.imports)."""

    impl = BigInteger
    cache_ok = True

    def __init__(self, places: int) -> None:
        super().__init__()
        self.places = places

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> int | None:
        if value is None:
            return None
        return int(Decimal(value).scaleb(self.places).to_integral_value())

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(int(value)).scaleb(-self.places)


class Thousandths(TypeDecorator[Decimal]):
    """A quantity with up to three decimals (acres of disturbed land) as integer thousandths:
    exact on SQLite too, where a Numeric goes through float. Beside the table that uses it
    (db/types.py holds the other column types)."""

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> int | None:
        if value is None:
            return None
        exact = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        thousandths = exact * 1000
        if thousandths != thousandths.to_integral_value():
            raise ValueError(f"{value} has more than three decimals")
        return int(thousandths)

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(int(value)).scaleb(-3)


# Named constraints, so that batch migrations on SQLite can find and alter them.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


def withdrawal_columns() -> tuple[Column[Any], ...]:
    """A record entered by mistake is withdrawn, never deleted (revision 0019): when, why and
    by whom; the queries read only the rows not withdrawn."""
    return (
        Column("withdrawn_on", Date),
        Column("withdrawn_reason", Text, nullable=False, server_default=""),
        Column("withdrawn_by_id", ForeignKey("app_user.id")),
    )


def version_column() -> Column[int]:
    """The record's version: a form that saves sends the version it showed, and a save over a
    newer one is refused (SQLAlchemy's version_id_col bumps it with every UPDATE)."""
    return Column("version", Integer, nullable=False, server_default="1")


municipality = Table(
    "municipality",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("key", String(40), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("letterhead", JSON, nullable=False),
    Column("inspector_name", String(200), nullable=False),
    Column("inspector_title", String(200), nullable=False),
    Column("state", String(2), nullable=False),
    Column("settings", JSON, nullable=False),
    # Revision 0012: what the Municipality screen sets for the documents.
    Column("address", Text, nullable=False, server_default=""),
    Column("treasurer_name", String(200), nullable=False, server_default=""),
    # municipality_image ids (no foreign key: the image table refers to this one, and its rows
    # are never deleted).
    Column("logo_image_id", Integer),
    Column("signature_image_id", Integer),
    # Revision 0020: the shipped ordinance whose permit kinds, forms and rules it follows.
    Column("ordinance", String(40), nullable=False, server_default=""),
)

# Revision 0012: a logo or a signature, stored in the database (every workstation prints it);
# never changed: a new upload is a new row, so a document reprints with the image it had.
municipality_image = Table(
    "municipality_image",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("kind", String(20), nullable=False),  # "logo" or "signature"
    Column("media_type", String(40), nullable=False),
    Column("content", LargeBinary, nullable=False),
    Column("added_at", UTCDateTime, nullable=False),
    Column("added_by_id", ForeignKey("app_user.id")),
)

# Revision 0012: the municipality as its documents print it, from `effective_at` on; a document
# dated earlier reprints with the version then in force.
letterhead_version = Table(
    "letterhead_version",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("effective_at", UTCDateTime, nullable=False),
    Column("name", String(200), nullable=False),
    Column("letterhead", JSON, nullable=False),
    Column("address", Text, nullable=False),
    Column("inspector_name", String(200), nullable=False),
    Column("inspector_title", String(200), nullable=False),
    Column("treasurer_name", String(200), nullable=False),
    Column("logo_image_id", ForeignKey("municipality_image.id")),
    Column("signature_image_id", ForeignKey("municipality_image.id")),
    Index("ix_letterhead_version_municipality", "municipality_id", "effective_at"),
)

app_user = Table(
    "app_user",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("username", String(80), nullable=False, unique=True),
    Column("full_name", String(200), nullable=False),
    Column("password_hash", String(200), nullable=False),
    Column("roles", String(200), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", UTCDateTime),
    # Revision 0012: printed under the user's name on what they issue ("Building Inspector").
    Column("title", String(200), nullable=False, server_default=""),
    # A first or reset password must be changed at the next sign-in.
    Column("must_change_password", Boolean, nullable=False, server_default=false()),
    Column("last_sign_in_at", UTCDateTime),
    # The built-in actor of the command line: in the audit trail, never signs in.
    Column("system", Boolean, nullable=False, server_default=false()),
    # Revision 0013: failed sign-ins in a row (a growing delay, then a lock an administrator
    # lifts).
    Column("failed_sign_ins", Integer, nullable=False, server_default="0"),
    Column("last_failed_at", UTCDateTime),
    Column("locked_at", UTCDateTime),
    # Revision 0023: an account is locked only by an administrator, on purpose (wrong passwords
    # only delay the next try); who locked it.
    Column("locked_by_id", Integer),
)

# Revision 0023: a sign-in token an administrator issues for a scripted set-up
# (`permitdesk ... --token`); only its SHA-256 is kept, and it can be revoked.
user_token = Table(
    "user_token",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("app_user.id"), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("label", String(200), nullable=False, server_default=""),
    Column("created_at", UTCDateTime, nullable=False),
    Column("created_by_id", ForeignKey("app_user.id"), nullable=False),
    Column("expires_at", UTCDateTime),
    Column("revoked_at", UTCDateTime),
    Index("ix_user_token_user_id", "user_id"),
)

parcel = Table(
    "parcel",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("pin", String(40), nullable=False),
    Column("house_number", String(20), nullable=False),
    Column("street", String(120), nullable=False),
    Column("unit", String(20), nullable=False),
    Column("city", String(80), nullable=False),
    Column("zip", String(10), nullable=False),
    Column("legal_description", Text, nullable=False),
    Column("zoning_district", String(20), nullable=False),
    Column("lot_area_sqft", Integer),
    # Revision 0006: a sewer tax or assessment is delinquent on the premises (15.1.36).
    Column("sewer_delinquent", Boolean, nullable=False, server_default=false()),
    # Revision 0020: the office's notes, and what the county's parcel file says.
    Column("notes", Text, nullable=False, server_default=""),
    Column("state_id", String(40), nullable=False, server_default=""),
    Column("tax_parcel_id", String(40), nullable=False, server_default=""),
    Column("owner_name", String(200), nullable=False, server_default=""),
    Column("owner_name_2", String(200), nullable=False, server_default=""),
    Column("owner_address", String(300), nullable=False, server_default=""),
    Column("property_classes", JSON, nullable=False, server_default=text("'[]'")),
    Column("aux_classes", JSON, nullable=False, server_default=text("'[]'")),
    Column("acres", Scaled(4)),
    Column("assessed_value", Cents),
    Column("land_value", Cents),
    Column("improvement_value", Cents),
    Column("fair_market_value", Cents),
    Column("tax_roll_year", Integer),
    Column("latitude", Scaled(7)),
    Column("longitude", Scaled(7)),
    Column("import_id", ForeignKey("data_import.id")),
    Column("retired_on", Date),
    Column("retired_reason", Text, nullable=False, server_default=""),
    Column("retired_by_id", ForeignKey("app_user.id")),
    Column("merged_into_id", ForeignKey("parcel.id")),
    UniqueConstraint("municipality_id", "pin", name="uq_parcel_municipality_pin"),
    Index("ix_parcel_street", "municipality_id", "street"),
)

# Revision 0020: an import of the office's data from a file (db/parcel_import.py).
data_import = Table(
    "data_import",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("file_name", String(260), nullable=False),
    Column("file_sha256", String(64), nullable=False),
    Column("layer", String(200), nullable=False, server_default=""),
    Column("at", UTCDateTime),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("counts", JSON, nullable=False),
)

party = Table(
    "party",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("kind", StrEnumType(PartyKind), nullable=False),
    Column("name", String(200), nullable=False, index=True),
    Column("first_name", String(100), nullable=False),
    Column("last_name", String(100), nullable=False),
    Column("address_line1", String(200), nullable=False),
    Column("address_line2", String(200), nullable=False),
    Column("city", String(80), nullable=False),
    Column("state", String(2), nullable=False),
    Column("zip", String(10), nullable=False),
    Column("phone", String(40), nullable=False),
    Column("email", String(200), nullable=False),
    # Revision 0020: notes; retired (never deleted), or merged into another record.
    Column("notes", Text, nullable=False, server_default=""),
    Column("retired_on", Date),
    Column("retired_reason", Text, nullable=False, server_default=""),
    Column("retired_by_id", ForeignKey("app_user.id")),
    Column("merged_into_id", ForeignKey("party.id")),
)

credential = Table(
    "credential",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("party_id", ForeignKey("party.id"), nullable=False, index=True),
    Column("kind", StrEnumType(CredentialKind), nullable=False),
    Column("number", String(40), nullable=False),
    Column("issuing_state", String(2), nullable=False),
    Column("expires_on", Date),
    # Revision 0020: renewals kept as history: the renewed credential points at its successor.
    Column("recorded_on", Date),
    Column("superseded_by_id", ForeignKey("credential.id")),
)

permit = Table(
    "permit",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("number", String(20)),
    Column("kind", String(40), nullable=False),
    Column("permit_class", StrEnumType(PermitClass), nullable=False),
    Column("work_class", StrEnumType(WorkClass), nullable=False),
    Column("description", Text, nullable=False),
    Column("parcel_id", ForeignKey("parcel.id"), index=True),
    Column("valuation", Cents, nullable=False),
    Column("floor_area_sqft", Integer, nullable=False),
    Column("areas", JSON, nullable=False),
    Column("dwelling_units", Integer, nullable=False),
    Column("status", StrEnumType(PermitStatus), nullable=False, index=True),
    Column("applied_on", Date, index=True),
    Column("issued_on", Date, index=True),
    Column("expires_on", Date),
    Column("commenced_on", Date),
    Column("completed_on", Date),
    Column("status_date", Date),
    Column("issued_by_id", ForeignKey("app_user.id")),
    Column("approved_on", Date),  # revision 0005
    Column("last_activity_on", Date),
    Column("requested_until", Date),
    Column("emergency", Boolean, nullable=False, server_default=false()),
    Column("work_began_before_permit", Boolean, nullable=False, server_default=false()),
    Column("street_paved_on", Date),  # §435-8: five years after repaving, council approval
    Column("council_approval", String(200), nullable=False, server_default=""),
    # Revision 0006: the work facts of the intake form. Server defaults only (no Python-side
    # defaults), so Core bulk inserts that leave them out still work (db/demo.py).
    Column("stories", Integer),
    Column("volume_cuft", Integer),  # 15.1.7(d): a seal over 50,000 cubic feet
    Column("occupancy_class", String(40), nullable=False, server_default=""),
    Column("construction_type", String(40), nullable=False, server_default=""),
    Column("disturbed_acres", Thousandths),  # 15.2.8: a control plan over one acre
    Column("work_details", JSON, nullable=False, server_default=text("'{}'")),  # SBD-5823
    Column("damage_percent", Integer),  # of equalized value, 15.1.9(b), 15.1.3(d)(3)
    Column("sewer_permission", String(400), nullable=False, server_default=""),  # 15.1.36
    # Revision 0015: the Council's approval of an opening within five years of repaving, §435-8.I.
    Column("council_opening_approved_on", Date),
    Column("council_opening_recorded_by_id", ForeignKey("app_user.id")),
    # A number is unique in its municipality; NULL (not yet issued) may repeat.
    UniqueConstraint("municipality_id", "number", name="uq_permit_municipality_number"),
)

permit_party = Table(
    "permit_party",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("party_id", ForeignKey("party.id"), nullable=False, index=True),
    Column("role", StrEnumType(PartyRole), nullable=False),
)

audit_event = Table(
    "audit_event",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", UTCDateTime, nullable=False),
    Column("user_id", ForeignKey("app_user.id")),
    Column("entity", String(40), nullable=False),
    Column("entity_id", Integer, nullable=False),
    Column("permit_id", Integer),
    Column("action", String(20), nullable=False),
    Column("changes", JSON, nullable=False),
    # Revision 0013: SHA-256 of the row's content and the previous row's hash (tamper-evident).
    Column("row_hash", String(64)),
    Index("ix_audit_event_permit", "permit_id", "id"),
    Index("ix_audit_event_entity", "entity", "entity_id"),
)

# Gapless counters per municipality, series (P permits, R receipts) and year (db/numbering.py).
number_counter = Table(
    "number_counter",
    metadata,
    Column("municipality_id", ForeignKey("municipality.id"), primary_key=True),
    Column("series", String(8), primary_key=True),
    Column("year", Integer, primary_key=True),
    Column("value", Integer, nullable=False),
)

# Revision 0002: the permits list's sort keys and the search-as-you-type index, kept by
# db/tracking.py in the same transaction as the change they reflect.
permit_listing = Table(
    "permit_listing",
    metadata,
    Column("permit_id", ForeignKey("permit.id"), primary_key=True),
    Column("number_sort", BigInteger),
    Column("address", String(200), nullable=False, index=True),
    Column("owner", String(200), nullable=False, index=True),
    Column("contractor", String(200), nullable=False, index=True),
)

permit_search_term = Table(
    "permit_search_term",
    metadata,
    # Byte order on PostgreSQL too, so a prefix is a contiguous range ('2024-00' <= t < '2024-01').
    Column(
        "term", String(120).with_variant(String(120, collation="C"), "postgresql"), primary_key=True
    ),
    Column("permit_id", ForeignKey("permit.id"), primary_key=True, index=True),
)

# Revision 0003: fee schedule versions (the database is the source of truth once imported) and
# the fee lines assessed on a permit, each with the version that priced it.
fee_schedule_version = Table(
    "fee_schedule_version",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("label", String(120), nullable=False),
    Column("effective_from", Date, nullable=False),
    Column("effective_to", Date),
    Column("data", JSON, nullable=False),  # desk.fees.loader.version_to_dict
    Column("source", String(20), nullable=False),  # "shipped" file or "admin" screen
    Column("created_at", UTCDateTime, nullable=False),
    Column("created_by_id", ForeignKey("app_user.id")),
    UniqueConstraint("municipality_id", "label", name="uq_fee_schedule_version_label"),
    UniqueConstraint("municipality_id", "effective_from", name="uq_fee_schedule_version_from"),
)

permit_fee_line = Table(
    "permit_fee_line",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("version_id", ForeignKey("fee_schedule_version.id"), nullable=False, index=True),
    Column("code", String(40), nullable=False, index=True),
    Column("description", String(300), nullable=False),
    Column("section", String(80), nullable=False),
    Column("base", Cents, nullable=False),
    Column("admin", Cents, nullable=False),
    Column("amount", Cents, nullable=False),
    Column("gl_account", String(80), nullable=False),
    Column("deposit", Boolean, nullable=False),
    Column("note", String(300), nullable=False),
    Column("request", JSON, nullable=False),  # what was entered: quantity, amount, occurrence, ...
    Column("assessed_on", Date, nullable=False),
)

# Revision 0004: each permit's checklist: one row per item of its kind's template
# (resources/checklists.toml), with its state and who marked it when.
permit_checklist_item = Table(
    "permit_checklist_item",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("code", String(60), nullable=False),
    Column("text", String(400), nullable=False),
    Column("section", String(80), nullable=False),
    Column("state", StrEnumType(ItemState), nullable=False),
    Column("value_date", Date),
    Column("value_text", String(200), nullable=False),
    Column("reason", String(400), nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    UniqueConstraint("permit_id", "code", name="uq_permit_checklist_item_code"),
)

# Revision 0016: an issued permit's checklist reopened by the inspector with a reason, and when
# and by whom it was locked again; one row per reopening, so each stays in the History.
permit_checklist_reopening = Table(
    "permit_checklist_reopening",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("reason", String(400), nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    Column("locked_by_id", ForeignKey("app_user.id")),
    Column("locked_at", UTCDateTime),
)

# Revision 0005: lifecycle — deadline extensions, stop-work orders and revocations.
permit_extension = Table(
    "permit_extension",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("deadline", String(20), nullable=False),
    Column("until", Date, nullable=False),
    Column("reason", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

permit_order = Table(
    "permit_order",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("kind", String(20), nullable=False),  # stop_work | revocation
    Column("issued_on", Date, nullable=False),
    Column("reasons", Text, nullable=False),
    Column("section", String(80), nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    Column("lifted_on", Date),
    Column("lift_notice", Text, nullable=False),
)

# Revision 0007: cashiering. Money as integer cents; nothing here is ever deleted or
# edited after the fact (a void, a returned check, a refund or a fee change is a row of its own).
gl_account = Table(
    "gl_account",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("number", String(20), nullable=False),
    Column("name", String(120), nullable=False),
    Column("kind", StrEnumType(AccountKind), nullable=False),
    Column("purpose", StrEnumType(AccountPurpose), nullable=False),
    Column("active", Boolean, nullable=False),
    UniqueConstraint("municipality_id", "number", name="uq_gl_account_number"),
)

fee_account_map = Table(
    "fee_account_map",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("code", String(40), nullable=False),
    Column("account_id", ForeignKey("gl_account.id"), nullable=False),
    UniqueConstraint("municipality_id", "code", name="uq_fee_account_map_code"),
)

turnover = Table(
    "turnover",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("delivered_on", Date, nullable=False),
    Column("delivered_at", UTCDateTime, nullable=False),
    Column("delivered_by_id", ForeignKey("app_user.id")),
    Column("amount", Cents, nullable=False),
    Column("cash_delivered", Cents, nullable=False),
    Column("acknowledged_on", Date),
    Column("acknowledged_at", UTCDateTime),
    Column("acknowledged_by_id", ForeignKey("app_user.id")),
    Column("deposit_ref", String(80), nullable=False),
    Column("deposited", Cents),
    Column("difference", Cents),
    Column("resolved_at", UTCDateTime),
    Column("resolved_by_id", ForeignKey("app_user.id")),
    Column("resolution", Text, nullable=False),
    Index("ix_turnover_municipality_delivered", "municipality_id", "delivered_on"),
)

daily_close = Table(
    "daily_close",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("drawer", String(40), nullable=False),
    Column("day", Date, nullable=False),
    Column("expected_cash", Cents, nullable=False),
    Column("expected_check", Cents, nullable=False),
    Column("expected_card", Cents, nullable=False),
    Column("expected_money_order", Cents, nullable=False),
    Column("counted_cash", Cents, nullable=False),
    Column("counted_check", Cents, nullable=False),
    Column("counted_card", Cents, nullable=False),
    Column("counted_money_order", Cents, nullable=False),
    Column("over_short", Cents, nullable=False),
    Column("explanation", Text, nullable=False),
    Column("closed_by_id", ForeignKey("app_user.id")),
    Column("closed_at", UTCDateTime),
    Column("turnover_id", ForeignKey("turnover.id"), index=True),
    UniqueConstraint("municipality_id", "drawer", "day", name="uq_daily_close_drawer_day"),
)

payment = Table(
    "payment",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("receipt_number", String(20), nullable=False),
    Column("received_at", UTCDateTime, nullable=False),
    Column("day", Date, nullable=False),
    Column("payer_party_id", ForeignKey("party.id"), index=True),
    Column("payer_name", String(200), nullable=False),
    Column("method", StrEnumType(PaymentMethod), nullable=False),
    Column("amount", Cents, nullable=False),
    Column("credited", Cents, nullable=False),
    Column("check_number", String(40), nullable=False),
    Column("check_drawer", String(200), nullable=False),
    Column("check_bank", String(120), nullable=False),
    Column("card_reference", String(80), nullable=False),
    Column("clerk_id", ForeignKey("app_user.id")),
    Column("drawer", String(40), nullable=False),
    Column("close_id", ForeignKey("daily_close.id"), index=True),
    Column("printed_count", Integer, nullable=False),
    UniqueConstraint("municipality_id", "receipt_number", name="uq_payment_receipt_number"),
    Index("ix_payment_municipality_day", "municipality_id", "day", "drawer"),
)

payment_allocation = Table(
    "payment_allocation",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("payment_id", ForeignKey("payment.id"), nullable=False, index=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("amount", Cents, nullable=False),
)

payment_reversal = Table(
    "payment_reversal",
    metadata,
    Column("id", Integer, primary_key=True),
    # One reversal per payment: a receipt is voided or its check returned, not both.
    Column("payment_id", ForeignKey("payment.id"), nullable=False, unique=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("kind", StrEnumType(ReversalKind), nullable=False),
    Column("day", Date, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("reason", Text, nullable=False),
    Column("bank_notice", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("turnover_id", ForeignKey("turnover.id"), index=True),
    Index("ix_payment_reversal_municipality_day", "municipality_id", "day"),
)

refund = Table(
    "refund",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("ground", StrEnumType(RefundGround), nullable=False),
    Column("amount", Cents, nullable=False),
    Column("kept", Cents, nullable=False),
    Column("reason", Text, nullable=False),
    Column("section", String(80), nullable=False),
    Column("check_number", String(40), nullable=False),
    Column("check_date", Date, nullable=False),
    Column("day", Date, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("payer_name", String(200), nullable=False),
    Column("payer_party_id", ForeignKey("party.id")),
    Column("permit_id", ForeignKey("permit.id"), index=True),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("turnover_id", ForeignKey("turnover.id"), index=True),
    Index("ix_refund_municipality_day", "municipality_id", "day"),
)

gl_entry = Table(
    "gl_entry",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("day", Date, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("source", StrEnumType(EntrySource), nullable=False),
    Column("account_id", ForeignKey("gl_account.id"), nullable=False, index=True),
    Column("amount", Cents, nullable=False),
    Column("code", String(40), nullable=False),
    Column("portion", StrEnumType(Portion), nullable=False),
    Column("permit_id", ForeignKey("permit.id"), index=True),
    Column("payment_id", ForeignKey("payment.id"), index=True),
    Column("reversal_id", ForeignKey("payment_reversal.id")),
    Column("refund_id", ForeignKey("refund.id")),
    Index("ix_gl_entry_municipality_day", "municipality_id", "day"),
)

fee_adjustment = Table(
    "fee_adjustment",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("code", String(40), nullable=False, index=True),
    Column("description", String(300), nullable=False),
    Column("amount", Cents, nullable=False),
    Column("source", StrEnumType(AdjustmentSource), nullable=False),
    Column("reason", Text, nullable=False),
    Column("day", Date, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("section", String(80), nullable=False),
    Column("portion", StrEnumType(Portion), nullable=False),
    Column("note", String(300), nullable=False),
    Column("version_id", ForeignKey("fee_schedule_version.id")),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("refund_id", ForeignKey("refund.id")),
    Column("reversal_id", ForeignKey("payment_reversal.id")),
)

payer_credit = Table(
    "payer_credit",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("payer_key", String(220), nullable=False),
    Column("payer_name", String(200), nullable=False),
    Column("amount", Cents, nullable=False),
    Column("day", Date, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("memo", String(300), nullable=False),
    Column("party_id", ForeignKey("party.id")),
    Column("payment_id", ForeignKey("payment.id")),
    Column("reversal_id", ForeignKey("payment_reversal.id")),
    Column("refund_id", ForeignKey("refund.id")),
    Index("ix_payer_credit_payer", "municipality_id", "payer_key"),
)

# Revision 0008: inspections — requests, the inspector's day and route, results,
# the inspector's exceptions to the order of 15.1.11(a), correction orders (15.1.90(b)(1)) and
# numbered certificates of occupancy (15.1.13). Fees stay in the fee tables.
inspection = Table(
    "inspection",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("type_code", String(40), nullable=False),
    Column("requested_by", String(200), nullable=False),
    Column("requested_phone", String(40), nullable=False),
    Column("requested_at", UTCDateTime, nullable=False),
    Column("desired_on", Date),
    Column("desired_time", String(8), nullable=False),
    Column("scheduled_on", Date),
    Column("inspector_id", ForeignKey("app_user.id")),
    Column("route_position", Integer),
    Column("status", StrEnumType(InspectionStatus), nullable=False),
    Column("result", StrEnumType(InspectionResult)),
    Column("notes", Text, nullable=False),
    Column("result_at", UTCDateTime),
    Column("recorded_by_id", ForeignKey("app_user.id")),
    Column("failure_to_call", Boolean, nullable=False),
    Column("fee_waiver", String(400), nullable=False),
    Index("ix_inspection_day", "scheduled_on", "inspector_id"),
    Index("ix_inspection_status", "status"),
)

inspection_exception = Table(
    "inspection_exception",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("type_code", String(40), nullable=False),
    Column("reason", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

correction_order = Table(
    "correction_order",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("inspection_id", ForeignKey("inspection.id"), index=True),
    Column("noticed_on", Date, nullable=False),
    Column("due_on", Date, nullable=False, index=True),
    Column("section", String(80), nullable=False),
    Column("items", Text, nullable=False),
    Column("corrected_on", Date),
    Column("extended", Boolean, nullable=False),
    Column("extension_reasons", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

occupancy_certificate = Table(
    "occupancy_certificate",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("number", String(20), nullable=False),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("use_stated", String(400), nullable=False),
    Column("conditions", Text, nullable=False),
    Column("occupant", String(200), nullable=False),
    Column("temporary_until", Date),
    Column("issued_on", Date, nullable=False),
    Column("inspector_id", ForeignKey("app_user.id")),
    Column("inspector_name", String(200), nullable=False),
    Column("at", UTCDateTime),
    UniqueConstraint("municipality_id", "number", name="uq_occupancy_certificate_number"),
)

# Revision 0009: reports — the date each new one- or two-family dwelling permit was
# filed with the state (Act 211, s. 101.63(7m) Wis. Stats., SPS 320.09).
state_filing = Table(
    "state_filing",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, unique=True),
    Column("filed_on", Date, nullable=False),
    Column("reference", String(80), nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

# Revision 0010: bonds, insurance certificates and street deposits. A bond covers
# named permits (bond_permit) or a contractor's calendar year (scope, year: §435-7.K); an
# association's certificate lists its members (15.1.38(b)); a street deposit (15.1.43) is paid
# through cashiering (payment_id) and returned by a refund row of its own (refund_id).
bond = Table(
    "bond",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("purpose", StrEnumType(BondPurpose), nullable=False),
    Column("kind", StrEnumType(BondKind), nullable=False),
    Column("principal", String(200), nullable=False),
    Column("principal_party_id", ForeignKey("party.id"), index=True),
    Column("obligee", String(200), nullable=False),
    Column("amount", Cents, nullable=False),
    Column("effective_on", Date, nullable=False),
    Column("expires_on", Date, index=True),
    Column("number", String(80), nullable=False),
    Column("surety_company", String(200), nullable=False),
    Column("sureties_approved", String(300), nullable=False),
    Column("conditions", JSON, nullable=False),
    Column("scope", StrEnumType(BondScope), nullable=False),
    Column("year", Integer),
    Column("status", StrEnumType(BondStatus), nullable=False),
    Column("released_on", Date),
    Column("released_by", String(200), nullable=False),
    Column("released_by_id", ForeignKey("app_user.id")),
    Column("claimed_on", Date),
    Column("claim_amount", Cents),
    Column("claim_reason", Text, nullable=False),
    Column("notes", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

bond_surety = Table(
    "bond_surety",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("bond_id", ForeignKey("bond.id"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
)

bond_permit = Table(
    "bond_permit",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("bond_id", ForeignKey("bond.id"), nullable=False, index=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    UniqueConstraint("bond_id", "permit_id", name="uq_bond_permit_bond_id"),
)

insurance_certificate = Table(
    "insurance_certificate",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("insured", String(200), nullable=False),
    Column("insured_party_id", ForeignKey("party.id"), index=True),
    Column("insurer", String(200), nullable=False),
    Column("policy", String(80), nullable=False),
    Column("effective_on", Date, nullable=False),
    Column("expires_on", Date, nullable=False, index=True),
    Column("holder", String(200), nullable=False),
    Column("file_reference", String(80), nullable=False),
    Column("association", Boolean, nullable=False),
    Column("filed_on", Date),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

insurance_coverage = Table(
    "insurance_coverage",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("certificate_id", ForeignKey("insurance_certificate.id"), nullable=False, index=True),
    Column("kind", StrEnumType(CoverageKind), nullable=False),
    Column("limit_amount", Cents, nullable=False),
)

association_member = Table(
    "association_member",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("certificate_id", ForeignKey("insurance_certificate.id"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
    Column("party_id", ForeignKey("party.id"), index=True),
)

deposit = Table(
    "deposit",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, index=True),
    Column("depositor", String(200), nullable=False),
    Column("depositor_party_id", ForeignKey("party.id")),
    Column("depositor_address", Text, nullable=False),
    Column("refund_payee", String(200), nullable=False),
    Column("refund_address", Text, nullable=False),
    Column("amount", Cents, nullable=False),
    Column("street_paved", Boolean, nullable=False),
    Column("status", StrEnumType(DepositState), nullable=False),
    Column("received_on", Date),
    Column("payment_id", ForeignKey("payment.id")),
    Column("completed_on", Date),
    Column("completed_by_id", ForeignKey("app_user.id")),
    Column("ordered_on", Date),
    Column("ordered_at", UTCDateTime),
    Column("ordered_by", String(200), nullable=False),
    Column("ordered_by_id", ForeignKey("app_user.id")),
    Column("check_number", String(40), nullable=False),
    Column("check_date", Date),
    Column("refunded_at", UTCDateTime),
    Column("refunded_by_id", ForeignKey("app_user.id")),
    Column("refund_id", ForeignKey("refund.id")),
    Column("retention_resolution", String(80), nullable=False),
    Column("retention_resolved_on", Date),
    Column("retention_amount", Cents),
    Column("retention_reason", Text, nullable=False),
    Column("retention_by_id", ForeignKey("app_user.id")),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    Index("ix_deposit_municipality_status", "municipality_id", "status"),
)

surety_facts = Table(
    "surety_facts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("permit_id", ForeignKey("permit.id"), nullable=False, unique=True),
    Column("excavation_hazard", Boolean, nullable=False),
    Column("exterior_altered", Boolean, nullable=False),
    Column("excavates_public_street", Boolean, nullable=False),
    Column("street_paved", Boolean, nullable=False),
    Column("engineer_requires_bond", Boolean, nullable=False),
    Column("inspector_requires_surety", Boolean, nullable=False),
    Column("public_utility", Boolean, nullable=False),
    Column("bond_amount", Cents),
    Column("plan_commission_bond_amount", Cents),
    Column("restoration_bond_amount", Cents),
    Column("deposit_amount", Cents),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

# Revision 0011: City electrical licences, numbered EL-YYYY-NNNN (15.1.75), with their revocation
# upon a complaint heard by the Common Council (15.1.78); and condemnations of dwellings unfit for
# human habitation (Hudson ch. 140; the record of 15.1.6(c)), with or without a permit.
city_licence = Table(
    "city_licence",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("number", String(20), nullable=False),
    Column("party_id", ForeignKey("party.id"), nullable=False, index=True),
    Column("licensee", String(200), nullable=False),
    Column("trade", String(20), nullable=False),
    Column("credential_kind", StrEnumType(CredentialKind), nullable=False),
    Column("credential_number", String(40), nullable=False),
    Column("credential_expires_on", Date),
    Column("granted_on", Date, nullable=False, index=True),
    Column("expires_on", Date, nullable=False),
    Column("fee_note", String(200), nullable=False),
    Column("complaint_on", Date),
    Column("complaint", Text, nullable=False),
    Column("hearing_on", Date),
    Column("notice_on", Date),
    Column("notified", String(400), nullable=False),
    Column("finding_on", Date),
    Column("disqualified", Boolean),
    Column("council_finding", Text, nullable=False),
    Column("revoked_on", Date),
    Column("revoked_by_id", ForeignKey("app_user.id")),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    UniqueConstraint("municipality_id", "number", name="uq_city_licence_number"),
)

condemnation = Table(
    "condemnation",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("parcel_id", ForeignKey("parcel.id"), index=True),
    Column("permit_id", ForeignKey("permit.id"), index=True),
    Column("address", String(200), nullable=False),
    Column("dwelling_unit", String(40), nullable=False),
    Column("grounds", JSON, nullable=False),
    Column("reasons", Text, nullable=False),
    Column("condemned_on", Date, nullable=False, index=True),
    Column("placarded_on", Date),
    Column("vacate_by", Date, nullable=False),
    Column("notified", Text, nullable=False),
    Column("vacated_on", Date),
    Column("outcome", StrEnumType(CondemnationOutcome), nullable=False),
    Column("outcome_on", Date),
    Column("placard_removed_on", Date),
    Column("approval_note", Text, nullable=False),
    Column("outcome_note", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

# Revision 0015: the street register's repavings (New Lisbon §435-8.I), per street or segment.
street_repaving = Table(
    "street_repaving",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("street", String(200), nullable=False),  # as the parcels spell it
    Column("from_number", Integer),  # the segment's house numbers, both included
    Column("to_number", Integer),
    Column("repaved_on", Date, nullable=False),
    Column("notes", Text, nullable=False, server_default=""),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    Index("ix_street_repaving_street", "municipality_id", "street"),
)

# Revision 0017: code enforcement under the municipality's housing code (Hudson 140-3): cases
# numbered CE-YYYY-NNNN, complaints (the complainant confidential), inspections and violations,
# notices frozen as issued with their addressees and service, petitions and the Council's
# hearing and decision, orders, escalations (abatement costs: special charges, Wis. s. 66.0627).
enforcement_case = Table(
    "enforcement_case",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("number", String(20), nullable=False),
    Column("parcel_id", ForeignKey("parcel.id"), nullable=False, index=True),
    Column("opened_on", Date, nullable=False),
    Column("origin", StrEnumType(enforcement.Origin), nullable=False),
    Column("housing_code", String(40), nullable=False),
    Column("summary", Text, nullable=False),
    Column("closed_on", Date, index=True),
    Column("closed_reason", StrEnumType(enforcement.ClosureReason)),
    Column("close_note", Text, nullable=False),
    Column("closed_by_id", ForeignKey("app_user.id")),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    UniqueConstraint("municipality_id", "number", name="uq_enforcement_case_number"),
)

enforcement_complaint = Table(
    "enforcement_complaint",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("parcel_id", ForeignKey("parcel.id"), nullable=False),
    Column("received_on", Date, nullable=False),
    Column("channel", StrEnumType(enforcement.Channel), nullable=False),
    Column("description", Text, nullable=False),
    Column("complainant_name", String(200), nullable=False),  # confidential
    Column("complainant_contact", String(400), nullable=False),  # confidential
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

enforcement_inspection = Table(
    "enforcement_inspection",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("inspected_on", Date, nullable=False),
    Column("inspector_id", ForeignKey("app_user.id"), nullable=False),
    Column("notes", Text, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

enforcement_violation = Table(
    "enforcement_violation",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("inspection_id", ForeignKey("enforcement_inspection.id"), nullable=False),
    Column("section", String(40), nullable=False),
    Column("title", String(200), nullable=False),
    Column("unit", String(40), nullable=False),
    Column("room", String(80), nullable=False),
    Column("notes", Text, nullable=False),
    Column("correct_by", Date, nullable=False),
    Column("state", StrEnumType(enforcement.ViolationState), nullable=False),
    Column("closed_on", Date),
    Column(
        "closed_inspection_id",
        ForeignKey("enforcement_inspection.id", name="fk_enforcement_violation_closed_inspection"),
    ),
    # Recorded by mistake: withdrawn with its reason (revision 0021; closed_on is the day).
    Column("withdrawn_reason", Text, nullable=False, server_default=""),
    Column("withdrawn_by_id", ForeignKey("app_user.id")),
)

enforcement_violation_check = Table(
    "enforcement_violation_check",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "violation_id",
        ForeignKey("enforcement_violation.id", name="fk_enforcement_violation_check_violation"),
        nullable=False,
        index=True,
    ),
    Column(
        "inspection_id",
        ForeignKey("enforcement_inspection.id", name="fk_enforcement_violation_check_inspection"),
        nullable=False,
    ),
    Column("checked_on", Date, nullable=False),
    Column("corrected", Boolean, nullable=False),
)

enforcement_notice = Table(
    "enforcement_notice",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("kind", StrEnumType(enforcement.NoticeKind), nullable=False),
    Column("issued_on", Date, nullable=False),
    Column("issued_by_id", ForeignKey("app_user.id"), nullable=False),
    Column("property_address", String(200), nullable=False),
    Column("statement", Text, nullable=False),
    Column("housing_code", String(40), nullable=False),
    Column("hearing_on", Date),
    Column("hearing_place", String(200), nullable=False),
    Column("hearing_notice_on", Date),
    Column("decision", StrEnumType(enforcement.Decision)),
    Column("decided_on", Date),
    Column("findings", Text, nullable=False),
    Column("at", UTCDateTime),
    # The days to petition or request review the notice stated when issued (revision 0022;
    # None before): a reprint states the same whatever the office's periods are since.
    Column("request_days", Integer),
)

enforcement_notice_item = Table(
    "enforcement_notice_item",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("notice_id", ForeignKey("enforcement_notice.id"), nullable=False, index=True),
    Column("violation_id", ForeignKey("enforcement_violation.id"), nullable=False),
    Column("section", String(40), nullable=False),
    Column("title", String(200), nullable=False),
    Column("code_text", Text, nullable=False),
    Column("location", String(200), nullable=False),
    Column("correct_by", Date, nullable=False),
    Column("remedial_action", Text, nullable=False),
)

enforcement_addressee = Table(
    "enforcement_addressee",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("notice_id", ForeignKey("enforcement_notice.id"), nullable=False, index=True),
    Column("role", StrEnumType(enforcement.AddresseeRole), nullable=False),
    Column("name", String(200), nullable=False),
    Column("address", Text, nullable=False),
    Column("party_id", ForeignKey("party.id")),
)

enforcement_service = Table(
    "enforcement_service",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("addressee_id", ForeignKey("enforcement_addressee.id"), nullable=False, index=True),
    Column("method", StrEnumType(enforcement.ServiceMethod), nullable=False),
    Column("served_on", Date, nullable=False),
    Column("served_by", String(200), nullable=False),
    Column("returned_on", Date),
    Column("returned_how", String(20), nullable=False, server_default=""),  # revision 0021
    Column("agent_must_notify_owner", Boolean, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    *withdrawal_columns(),
)

enforcement_petition = Table(
    "enforcement_petition",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("notice_id", ForeignKey("enforcement_notice.id"), nullable=False, index=True),
    Column("addressee_id", ForeignKey("enforcement_addressee.id"), nullable=False),
    Column("petitioner", String(200), nullable=False),
    Column("filed_on", Date, nullable=False),
    Column("grounds", Text, nullable=False),
    Column("timely", Boolean, nullable=False),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    *withdrawal_columns(),
)

enforcement_order = Table(
    "enforcement_order",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("notice_id", ForeignKey("enforcement_notice.id"), nullable=False),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("kind", StrEnumType(enforcement.OrderKind), nullable=False),
    Column("effective_on", Date, nullable=False),
    Column("revoked_on", Date),
    Column("superseded_on", Date),
    Column("at", UTCDateTime),
    # A timely petition recorded after the sweep made the order sets it aside (revision 0021).
    Column("set_aside_on", Date),
    Column("set_aside_reason", Text, nullable=False, server_default=""),
    Column("set_aside_by_id", ForeignKey("app_user.id")),
    # One order of each kind per notice: the sweep (140-3D) stays idempotent under a race.
    UniqueConstraint("notice_id", "kind", name="uq_enforcement_order_notice_kind"),
)

# Wis. Stat. ch. 68 (revision 0022): an appeal from a decision on review (68.10), its hearing
# (68.11) and the final determination (68.12).
enforcement_appeal = Table(
    "enforcement_appeal",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("notice_id", ForeignKey("enforcement_notice.id"), nullable=False, index=True),
    Column("appellant", String(200), nullable=False),
    Column("filed_on", Date, nullable=False),
    Column("grounds", Text, nullable=False),
    Column("timely", Boolean, nullable=False),
    Column("hearing_on", Date),
    Column("hearing_place", String(200), nullable=False, server_default=""),
    Column("hearing_notice_on", Date),
    Column("decision", StrEnumType(enforcement.Decision)),
    Column("decided_on", Date),
    Column("findings", Text, nullable=False, server_default=""),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

enforcement_escalation = Table(
    "enforcement_escalation",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("order_id", ForeignKey("enforcement_order.id"), nullable=False),
    Column("kind", StrEnumType(enforcement.EscalationKind), nullable=False),
    Column("decided_on", Date, nullable=False),
    Column("notes", Text, nullable=False),
    Column("reinspect_on", Date),
    Column("court_reference", String(80), nullable=False),
    Column("condemnation_id", ForeignKey("condemnation.id")),
    Column("cost", Cents),
    Column("tax_roll_year", Integer, index=True),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

# Revision 0018: rooming house licences (Hudson 140-10A to E, G): the application with its rooms
# and fixtures, the issued licence numbered RH-YYYY-NNNN, its suspension (140-10C), petition and
# revocation (140-10D, 140-3E), denial and hearing (140-10B), and the change of owner (140-10A).
rooming_licence = Table(
    "rooming_licence",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("parcel_id", ForeignKey("parcel.id"), nullable=False, index=True),
    Column("dwelling_unit", String(40), nullable=False),
    Column("operator_name", String(200), nullable=False),
    Column("operator_address", Text, nullable=False),
    Column("operator_party_id", ForeignKey("party.id")),
    Column("persons", Integer, nullable=False),
    Column("water_closets", Integer, nullable=False),
    Column("lavatories", Integer, nullable=False),
    Column("baths", Integer, nullable=False),
    Column("applied_on", Date, nullable=False),
    Column("state", StrEnumType(rooming.LicenceState), nullable=False, index=True),
    Column("case_id", ForeignKey("enforcement_case.id")),
    Column("number", String(20)),
    Column("issued_on", Date),
    Column("issued_by_id", ForeignKey("app_user.id")),
    Column("expires_on", Date, index=True),
    Column("denied_on", Date),
    Column("denial_reason", Text, nullable=False),
    Column("warned_on", Date),
    Column("correct_by", Date),
    Column("suspended_on", Date),
    Column("petition_filed_on", Date),
    Column("petitioner", String(200), nullable=False),
    Column("petition_timely", Boolean),
    Column("decision", StrEnumType(rooming.HearingDecision)),
    Column("decided_on", Date),
    Column("findings", Text, nullable=False),
    Column("revoked_on", Date),
    Column("revocation", StrEnumType(rooming.RevocationKind)),
    Column("changed_at", UTCDateTime),
    Column("change_notice_at", UTCDateTime),
    Column("change_notice_late", Boolean),
    Column("successor_name", String(200), nullable=False),
    Column("successor_address", Text, nullable=False),
    Column("ended_on", Date),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    # The Council's fee in force on the day of issue and the City Clerk's receipt for it
    # (revision 0019); none before the fee is set.
    Column("fee", Cents),
    Column("fee_receipt", String(40), nullable=False, server_default=""),
    # A renewal names the licence it renews and runs from the day after it ends; an automatic
    # revocation set aside by a timely petition recorded late (revision 0021).
    Column("renews_id", ForeignKey("rooming_licence.id")),
    Column("valid_from", Date),
    Column("revocation_set_aside_on", Date),
    Column("revocation_set_aside_reason", Text, nullable=False, server_default=""),
    UniqueConstraint("municipality_id", "number", name="uq_rooming_licence_number"),
)

rooming_licence_room = Table(
    "rooming_licence_room",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("licence_id", ForeignKey("rooming_licence.id"), nullable=False, index=True),
    Column("name", String(80), nullable=False),
    Column("floor_area", Thousandths, nullable=False),  # square feet
    Column("sleeping", Boolean, nullable=False),
    Column("occupants_over_12", Integer, nullable=False),
    Column("occupants_under_12", Integer, nullable=False),
)

# A case inspection scheduled on the inspector's day beside the permit inspections (revision
# 0019): the first inspection of a complaint, a re-inspection on the correction date, a licence
# inspection; done when the inspection it led to is recorded.
enforcement_visit = Table(
    "enforcement_visit",
    metadata,
    Column("id", Integer, primary_key=True),
    version_column(),
    Column("case_id", ForeignKey("enforcement_case.id"), nullable=False, index=True),
    Column("purpose", StrEnumType(enforcement.VisitPurpose), nullable=False),
    Column("scheduled_on", Date, nullable=False),
    Column("scheduled_time", String(8), nullable=False, server_default=""),
    Column("inspector_id", ForeignKey("app_user.id")),
    Column("route_position", Integer),
    Column("status", StrEnumType(enforcement.VisitStatus), nullable=False),
    Column("inspection_id", ForeignKey("enforcement_inspection.id")),
    Column("notes", Text, nullable=False, server_default=""),
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
    Index("ix_enforcement_visit_day", "scheduled_on", "inspector_id"),
)

# An occupancy calculation (Hudson 140-7, Ch. 512-11) attached to a case or a rooming-house
# licence (revision 0019): the rooms as entered and the result as computed that day, kept frozen.
occupancy_check = Table(
    "occupancy_check",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("municipality_id", ForeignKey("municipality.id"), nullable=False),
    Column("case_id", ForeignKey("enforcement_case.id"), index=True),
    Column("licence_id", ForeignKey("rooming_licence.id"), index=True),
    Column("code", String(20), nullable=False),
    Column("unit", String(80), nullable=False),
    Column("checked_on", Date, nullable=False),
    Column("max_occupants", Integer, nullable=False),
    Column("complies", Boolean, nullable=False),
    Column("rooms_json", Text, nullable=False),  # the calculator's input, as `housing occupancy`
    Column("result_json", Text, nullable=False),  # its output that day
    Column("inspection_id", ForeignKey("enforcement_inspection.id")),  # over-occupancy found
    Column("by_user_id", ForeignKey("app_user.id")),
    Column("at", UTCDateTime),
)

# Each backup of the register made by the app (File → Back up now…, the automatic one of the
# day, `permitdesk db backup`; revision 0024): register-wide, one row per backup, so recording a
# backup changes no municipality (an open Municipality screen is not made stale by it).
backup_made = Table(
    "backup_made",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", UTCDateTime, nullable=False, index=True),
    Column("day", Date, nullable=False),  # the office's calendar date it was made
    Column("path", String(1000), nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("checked", Boolean, nullable=False),  # opened and checked after writing, and sound
    Column("automatic", Boolean, nullable=False),
    Column("by_user", String(80), nullable=False, server_default=""),
)
