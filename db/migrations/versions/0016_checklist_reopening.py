"""Reopening an issued permit's checklist: the checklist is locked once the permit is issued
(15.1.7(b)); each time the inspector reopens it, a row with who, when and why, and who locked
it again and when.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-08
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "permit_checklist_reopening",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.Column("locked_by_id", sa.Integer),
        sa.Column("locked_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_permit_checklist_reopening"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_checklist_reopening_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"],
            ["app_user.id"],
            name="fk_permit_checklist_reopening_by_user_id_app_user",
        ),
        sa.ForeignKeyConstraint(
            ["locked_by_id"],
            ["app_user.id"],
            name="fk_permit_checklist_reopening_locked_by_id_app_user",
        ),
    )
    op.create_index(
        "ix_permit_checklist_reopening_permit_id", "permit_checklist_reopening", ["permit_id"]
    )


def downgrade() -> None:
    op.drop_index(
        "ix_permit_checklist_reopening_permit_id", table_name="permit_checklist_reopening"
    )
    op.drop_table("permit_checklist_reopening")
