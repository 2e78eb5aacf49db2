"""Reports (issue 8): the date each new one- or two-family dwelling permit was filed with the
state (Wisconsin Act 211, s. 101.63(7m) Wis. Stats., SPS 320.09), one row per permit.

Revision ID: 0009
Revises: 0008
Create Date: 2027-01-20
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "state_filing",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("filed_on", sa.Date, nullable=False),
        sa.Column("reference", sa.String(80), nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_state_filing"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_state_filing_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_state_filing_by_user_id_app_user"
        ),
        # A permit is filed once; a correction is an edit of that row (audited).
        sa.UniqueConstraint("permit_id", name="uq_state_filing_permit_id"),
    )


def downgrade() -> None:
    op.drop_table("state_filing")
