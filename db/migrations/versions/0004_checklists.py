"""Permit checklists: one row per item of the permit kind's template (issue 4, "Checklists").

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "permit_checklist_item",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("code", sa.String(60), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("section", sa.String(80), nullable=False),
        sa.Column("state", sa.String(40), nullable=False),
        sa.Column("value_date", sa.Date),
        sa.Column("value_text", sa.String(200), nullable=False),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_permit_checklist_item"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_checklist_item_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_permit_checklist_item_by_user_id_app_user"
        ),
        sa.UniqueConstraint("permit_id", "code", name="uq_permit_checklist_item_code"),
    )
    op.create_index("ix_permit_checklist_item_permit_id", "permit_checklist_item", ["permit_id"])


def downgrade() -> None:
    op.drop_table("permit_checklist_item")
