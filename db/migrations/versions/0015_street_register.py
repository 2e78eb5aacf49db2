"""Street register and the Council's approval of an opening (New Lisbon §435-8.I): the repaving
date of each street or segment, read by every later opening on it, and on the permit the day
the Common Council approved an opening within five years of repaving and who recorded it.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "street_repaving",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("street", sa.String(200), nullable=False),
        sa.Column("from_number", sa.Integer),
        sa.Column("to_number", sa.Integer),
        sa.Column("repaved_on", sa.Date, nullable=False),
        sa.Column("notes", sa.Text, nullable=False, server_default=""),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_street_repaving"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_street_repaving_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_street_repaving_by_user_id_app_user"
        ),
    )
    op.create_index("ix_street_repaving_street", "street_repaving", ["municipality_id", "street"])
    with op.batch_alter_table("permit") as batch:
        batch.add_column(sa.Column("council_opening_approved_on", sa.Date))
        batch.add_column(sa.Column("council_opening_recorded_by_id", sa.Integer))
        batch.create_foreign_key(
            "fk_permit_council_opening_recorded_by_id_app_user",
            "app_user",
            ["council_opening_recorded_by_id"],
            ["id"],
        )


def downgrade() -> None:
    with op.batch_alter_table("permit") as batch:
        batch.drop_constraint(
            "fk_permit_council_opening_recorded_by_id_app_user", type_="foreignkey"
        )
        batch.drop_column("council_opening_recorded_by_id")
        batch.drop_column("council_opening_approved_on")
    op.drop_index("ix_street_repaving_street", table_name="street_repaving")
    op.drop_table("street_repaving")
