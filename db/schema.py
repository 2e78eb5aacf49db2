"""Tables. Alembic migrations in db/migrations build exactly this schema (a test compares them)."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from db.types import Cents, StrEnumType, UTCDateTime
from desk.domain.checklists import ItemState
from desk.domain.enums import (
    CredentialKind,
    PartyKind,
    PartyRole,
    PermitClass,
    PermitStatus,
    WorkClass,
)

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

municipality = Table(
    "municipality",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(40), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("letterhead", JSON, nullable=False),
    Column("inspector_name", String(200), nullable=False),
    Column("inspector_title", String(200), nullable=False),
    Column("state", String(2), nullable=False),
    Column("settings", JSON, nullable=False),
)

app_user = Table(
    "app_user",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String(80), nullable=False, unique=True),
    Column("full_name", String(200), nullable=False),
    Column("password_hash", String(200), nullable=False),
    Column("roles", String(200), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", UTCDateTime),
)

parcel = Table(
    "parcel",
    metadata,
    Column("id", Integer, primary_key=True),
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
    UniqueConstraint("municipality_id", "pin", name="uq_parcel_municipality_pin"),
)

party = Table(
    "party",
    metadata,
    Column("id", Integer, primary_key=True),
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
)

permit = Table(
    "permit",
    metadata,
    Column("id", Integer, primary_key=True),
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

# Revision 0004: each permit's checklist (issue 4): one row per item of its kind's template
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
