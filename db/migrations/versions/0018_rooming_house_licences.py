"""Rooming house licences (Hudson 140-10): the application with its rooms and fixtures, the
licence issued by the City Clerk numbered RH-YYYY-NNNN (140-10A), its suspension (140-10C),
petition and revocation (140-10D, 140-3E), denial and hearing (140-10B), and the change of
owner or control that ends it (140-10A).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def _fk(table: str, column: str, referred: str) -> sa.ForeignKeyConstraint:
    """Named as db/schema.py's naming convention names it."""
    return sa.ForeignKeyConstraint(
        [column], [f"{referred}.id"], name=f"fk_{table}_{column}_{referred}"
    )


_INDEXES = (
    ("rooming_licence", "parcel_id"),
    ("rooming_licence", "state"),
    ("rooming_licence", "expires_on"),
    ("rooming_licence_room", "licence_id"),
)


def upgrade() -> None:
    t = "rooming_licence"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("parcel_id", sa.Integer, nullable=False),
        sa.Column("dwelling_unit", sa.String(40), nullable=False),
        sa.Column("operator_name", sa.String(200), nullable=False),
        sa.Column("operator_address", sa.Text, nullable=False),
        sa.Column("operator_party_id", sa.Integer),
        sa.Column("persons", sa.Integer, nullable=False),
        sa.Column("water_closets", sa.Integer, nullable=False),
        sa.Column("lavatories", sa.Integer, nullable=False),
        sa.Column("baths", sa.Integer, nullable=False),
        sa.Column("applied_on", sa.Date, nullable=False),
        sa.Column("state", sa.String(40), nullable=False),
        sa.Column("case_id", sa.Integer),
        sa.Column("number", sa.String(20)),
        sa.Column("issued_on", sa.Date),
        sa.Column("issued_by_id", sa.Integer),
        sa.Column("expires_on", sa.Date),
        sa.Column("denied_on", sa.Date),
        sa.Column("denial_reason", sa.Text, nullable=False),
        sa.Column("warned_on", sa.Date),
        sa.Column("correct_by", sa.Date),
        sa.Column("suspended_on", sa.Date),
        sa.Column("petition_filed_on", sa.Date),
        sa.Column("petitioner", sa.String(200), nullable=False),
        sa.Column("petition_timely", sa.Boolean),
        sa.Column("decision", sa.String(40)),
        sa.Column("decided_on", sa.Date),
        sa.Column("findings", sa.Text, nullable=False),
        sa.Column("revoked_on", sa.Date),
        sa.Column("revocation", sa.String(40)),
        sa.Column("changed_at", sa.DateTime(timezone=True)),
        sa.Column("change_notice_at", sa.DateTime(timezone=True)),
        sa.Column("change_notice_late", sa.Boolean),
        sa.Column("successor_name", sa.String(200), nullable=False),
        sa.Column("successor_address", sa.Text, nullable=False),
        sa.Column("ended_on", sa.Date),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name=f"pk_{t}"),
        _fk(t, "municipality_id", "municipality"),
        _fk(t, "parcel_id", "parcel"),
        _fk(t, "operator_party_id", "party"),
        _fk(t, "case_id", "enforcement_case"),
        _fk(t, "issued_by_id", "app_user"),
        _fk(t, "by_user_id", "app_user"),
        sa.UniqueConstraint("municipality_id", "number", name="uq_rooming_licence_number"),
    )
    t = "rooming_licence_room"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("licence_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("floor_area", sa.Integer, nullable=False),  # thousandths of a square foot
        sa.Column("sleeping", sa.Boolean, nullable=False),
        sa.Column("occupants_over_12", sa.Integer, nullable=False),
        sa.Column("occupants_under_12", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name=f"pk_{t}"),
        _fk(t, "licence_id", "rooming_licence"),
    )
    for table, column in _INDEXES:
        op.create_index(f"ix_{table}_{column}", table, [column])


def downgrade() -> None:
    for table, column in _INDEXES:
        op.drop_index(f"ix_{table}_{column}", table_name=table)
    op.drop_table("rooming_licence_room")
    op.drop_table("rooming_licence")
