"""The foundation's register: municipalities, users, parcels, parties, credentials, permits, audit.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ENUM = sa.String(40)


def upgrade() -> None:
    op.create_table(
        "municipality",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("letterhead", sa.JSON, nullable=False),
        sa.Column("inspector_name", sa.String(200), nullable=False),
        sa.Column("inspector_title", sa.String(200), nullable=False),
        sa.Column("state", sa.String(2), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_municipality"),
        sa.UniqueConstraint("key", name="uq_municipality_key"),
    )
    op.create_table(
        "app_user",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("username", sa.String(80), nullable=False),
        sa.Column("full_name", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("roles", sa.String(200), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_app_user"),
        sa.UniqueConstraint("username", name="uq_app_user_username"),
    )
    op.create_table(
        "parcel",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("pin", sa.String(40), nullable=False),
        sa.Column("house_number", sa.String(20), nullable=False),
        sa.Column("street", sa.String(120), nullable=False),
        sa.Column("unit", sa.String(20), nullable=False),
        sa.Column("city", sa.String(80), nullable=False),
        sa.Column("zip", sa.String(10), nullable=False),
        sa.Column("legal_description", sa.Text, nullable=False),
        sa.Column("zoning_district", sa.String(20), nullable=False),
        sa.Column("lot_area_sqft", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_parcel"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_parcel_municipality_id_municipality",
        ),
        sa.UniqueConstraint("municipality_id", "pin", name="uq_parcel_municipality_pin"),
    )
    op.create_table(
        "party",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", ENUM, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("first_name", sa.String(100), nullable=False),
        sa.Column("last_name", sa.String(100), nullable=False),
        sa.Column("address_line1", sa.String(200), nullable=False),
        sa.Column("address_line2", sa.String(200), nullable=False),
        sa.Column("city", sa.String(80), nullable=False),
        sa.Column("state", sa.String(2), nullable=False),
        sa.Column("zip", sa.String(10), nullable=False),
        sa.Column("phone", sa.String(40), nullable=False),
        sa.Column("email", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_party"),
    )
    op.create_index("ix_party_name", "party", ["name"])
    op.create_table(
        "credential",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("party_id", sa.Integer, nullable=False),
        sa.Column("kind", ENUM, nullable=False),
        sa.Column("number", sa.String(40), nullable=False),
        sa.Column("issuing_state", sa.String(2), nullable=False),
        sa.Column("expires_on", sa.Date),
        sa.PrimaryKeyConstraint("id", name="pk_credential"),
        sa.ForeignKeyConstraint(["party_id"], ["party.id"], name="fk_credential_party_id_party"),
    )
    op.create_index("ix_credential_party_id", "credential", ["party_id"])
    op.create_table(
        "permit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("number", sa.String(20)),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("permit_class", ENUM, nullable=False),
        sa.Column("work_class", ENUM, nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("parcel_id", sa.Integer),
        sa.Column("valuation", sa.BigInteger, nullable=False),
        sa.Column("floor_area_sqft", sa.Integer, nullable=False),
        sa.Column("areas", sa.JSON, nullable=False),
        sa.Column("dwelling_units", sa.Integer, nullable=False),
        sa.Column("status", ENUM, nullable=False),
        sa.Column("applied_on", sa.Date),
        sa.Column("issued_on", sa.Date),
        sa.Column("expires_on", sa.Date),
        sa.Column("commenced_on", sa.Date),
        sa.Column("completed_on", sa.Date),
        sa.Column("status_date", sa.Date),
        sa.Column("issued_by_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_permit"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_permit_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(["parcel_id"], ["parcel.id"], name="fk_permit_parcel_id_parcel"),
        sa.ForeignKeyConstraint(
            ["issued_by_id"], ["app_user.id"], name="fk_permit_issued_by_id_app_user"
        ),
        sa.UniqueConstraint("municipality_id", "number", name="uq_permit_municipality_number"),
    )
    op.create_index("ix_permit_parcel_id", "permit", ["parcel_id"])
    op.create_index("ix_permit_status", "permit", ["status"])
    op.create_index("ix_permit_applied_on", "permit", ["applied_on"])
    op.create_index("ix_permit_issued_on", "permit", ["issued_on"])
    op.create_table(
        "permit_party",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("party_id", sa.Integer, nullable=False),
        sa.Column("role", ENUM, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_permit_party"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_party_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(["party_id"], ["party.id"], name="fk_permit_party_party_id_party"),
    )
    op.create_index("ix_permit_party_permit_id", "permit_party", ["permit_id"])
    op.create_index("ix_permit_party_party_id", "permit_party", ["party_id"])
    op.create_table(
        "audit_event",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer),
        sa.Column("entity", sa.String(40), nullable=False),
        sa.Column("entity_id", sa.Integer, nullable=False),
        sa.Column("permit_id", sa.Integer),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("changes", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_audit_event"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["app_user.id"], name="fk_audit_event_user_id_app_user"
        ),
    )
    op.create_index("ix_audit_event_permit", "audit_event", ["permit_id", "id"])
    op.create_index("ix_audit_event_entity", "audit_event", ["entity", "entity_id"])
    op.create_table(
        "number_counter",
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("series", sa.String(8), nullable=False),
        sa.Column("year", sa.Integer, nullable=False),
        sa.Column("value", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("municipality_id", "series", "year", name="pk_number_counter"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_number_counter_municipality_id_municipality",
        ),
    )


def downgrade() -> None:
    for table in (
        "number_counter",
        "audit_event",
        "permit_party",
        "permit",
        "credential",
        "party",
        "parcel",
        "app_user",
        "municipality",
    ):
        op.drop_table(table)
