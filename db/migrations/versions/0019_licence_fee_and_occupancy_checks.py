"""The rooming-house licence's fee, set by the Council, with the City Clerk's receipt for it
(Hudson 140-10A), and occupancy calculations (Hudson 140-7, Ch. 512-11) attached to a code
enforcement case or a rooming-house licence, kept as computed; case inspections scheduled on the
inspector's day beside the permit inspections; a service or petition recorded by mistake is
withdrawn with its reason, never deleted.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

T = "occupancy_check"


V = "enforcement_visit"


def _fk(column: str, referred: str, table: str = T) -> sa.ForeignKeyConstraint:
    """Named as db/schema.py's naming convention names it."""
    return sa.ForeignKeyConstraint(
        [column], [f"{referred}.id"], name=f"fk_{table}_{column}_{referred}"
    )


WITHDRAWABLE = ("enforcement_service", "enforcement_petition")


def upgrade() -> None:
    for table in WITHDRAWABLE:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("withdrawn_on", sa.Date))
            batch.add_column(
                sa.Column("withdrawn_reason", sa.Text, nullable=False, server_default="")
            )
            batch.add_column(sa.Column("withdrawn_by_id", sa.Integer))
            batch.create_foreign_key(
                f"fk_{table}_withdrawn_by_id_app_user", "app_user", ["withdrawn_by_id"], ["id"]
            )
    op.add_column("rooming_licence", sa.Column("fee", sa.BigInteger))
    op.add_column(
        "rooming_licence",
        sa.Column("fee_receipt", sa.String(40), nullable=False, server_default=""),
    )
    op.create_table(
        T,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("case_id", sa.Integer),
        sa.Column("licence_id", sa.Integer),
        sa.Column("code", sa.String(20), nullable=False),
        sa.Column("unit", sa.String(80), nullable=False),
        sa.Column("checked_on", sa.Date, nullable=False),
        sa.Column("max_occupants", sa.Integer, nullable=False),
        sa.Column("complies", sa.Boolean, nullable=False),
        sa.Column("rooms_json", sa.Text, nullable=False),
        sa.Column("result_json", sa.Text, nullable=False),
        sa.Column("inspection_id", sa.Integer),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name=f"pk_{T}"),
        _fk("municipality_id", "municipality"),
        _fk("case_id", "enforcement_case"),
        _fk("licence_id", "rooming_licence"),
        _fk("inspection_id", "enforcement_inspection"),
        _fk("by_user_id", "app_user"),
    )
    op.create_index(f"ix_{T}_case_id", T, ["case_id"])
    op.create_index(f"ix_{T}_licence_id", T, ["licence_id"])
    op.create_table(
        V,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("purpose", sa.String(40), nullable=False),
        sa.Column("scheduled_on", sa.Date, nullable=False),
        sa.Column("scheduled_time", sa.String(8), nullable=False, server_default=""),
        sa.Column("inspector_id", sa.Integer),
        sa.Column("route_position", sa.Integer),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("inspection_id", sa.Integer),
        sa.Column("notes", sa.Text, nullable=False, server_default=""),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name=f"pk_{V}"),
        _fk("case_id", "enforcement_case", V),
        _fk("inspector_id", "app_user", V),
        _fk("inspection_id", "enforcement_inspection", V),
        _fk("by_user_id", "app_user", V),
    )
    op.create_index(f"ix_{V}_case_id", V, ["case_id"])
    op.create_index(f"ix_{V}_day", V, ["scheduled_on", "inspector_id"])


def downgrade() -> None:
    op.drop_index(f"ix_{V}_day", table_name=V)
    op.drop_index(f"ix_{V}_case_id", table_name=V)
    op.drop_table(V)
    op.drop_index(f"ix_{T}_licence_id", table_name=T)
    op.drop_index(f"ix_{T}_case_id", table_name=T)
    op.drop_table(T)
    with op.batch_alter_table("rooming_licence") as batch:
        batch.drop_column("fee_receipt")
        batch.drop_column("fee")
    for table in WITHDRAWABLE:
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(f"fk_{table}_withdrawn_by_id_app_user", type_="foreignkey")
            batch.drop_column("withdrawn_by_id")
            batch.drop_column("withdrawn_reason")
            batch.drop_column("withdrawn_on")
