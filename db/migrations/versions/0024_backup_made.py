"""Each backup of the register in a table of its own (`backup_made`), no longer in a
municipality's settings: recording a backup changed the municipality's row, so a Municipality
screen open at the time could no longer be saved. The last backup kept in settings by earlier
versions is still read (desk.services.municipality.last_backup) until a newer one is made.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "backup_made",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("path", sa.String(1000), nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("checked", sa.Boolean, nullable=False),
        sa.Column("automatic", sa.Boolean, nullable=False),
        sa.Column("by_user", sa.String(80), nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("id", name="pk_backup_made"),
    )
    op.create_index("ix_backup_made_at", "backup_made", ["at"])


def downgrade() -> None:
    op.drop_index("ix_backup_made_at", table_name="backup_made")
    op.drop_table("backup_made")
