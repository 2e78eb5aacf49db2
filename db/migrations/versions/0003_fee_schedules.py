"""Fee schedule versions and the fee lines assessed on permits (issue 3).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fee_schedule_version",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("effective_from", sa.Date, nullable=False),
        sa.Column("effective_to", sa.Date),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_fee_schedule_version"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_fee_schedule_version_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["app_user.id"],
            name="fk_fee_schedule_version_created_by_id_app_user",
        ),
        sa.UniqueConstraint("municipality_id", "label", name="uq_fee_schedule_version_label"),
        sa.UniqueConstraint(
            "municipality_id", "effective_from", name="uq_fee_schedule_version_from"
        ),
    )
    op.create_table(
        "permit_fee_line",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("version_id", sa.Integer, nullable=False),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("description", sa.String(300), nullable=False),
        sa.Column("section", sa.String(80), nullable=False),
        sa.Column("base", sa.BigInteger, nullable=False),
        sa.Column("admin", sa.BigInteger, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("gl_account", sa.String(80), nullable=False),
        sa.Column("deposit", sa.Boolean, nullable=False),
        sa.Column("note", sa.String(300), nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("assessed_on", sa.Date, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_permit_fee_line"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_fee_line_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["fee_schedule_version.id"],
            name="fk_permit_fee_line_version_id_fee_schedule_version",
        ),
    )
    op.create_index("ix_permit_fee_line_permit_id", "permit_fee_line", ["permit_id"])
    op.create_index("ix_permit_fee_line_version_id", "permit_fee_line", ["version_id"])
    op.create_index("ix_permit_fee_line_code", "permit_fee_line", ["code"])


def downgrade() -> None:
    op.drop_table("permit_fee_line")
    op.drop_table("fee_schedule_version")
