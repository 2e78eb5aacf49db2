"""Record versions: every record edited from a form carries a version number, so a form saved
over a change made meanwhile on another workstation is refused instead of overwriting it.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

TABLES = (
    "municipality",
    "app_user",
    "parcel",
    "party",
    "permit",
    "bond",
    "insurance_certificate",
    "deposit",
    "city_licence",
    "condemnation",
)


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    for table in reversed(TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("version")
