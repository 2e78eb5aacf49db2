"""The permits list's sort keys and search-as-you-type index, built for existing permits.

The index is derived data: it is filled here with the application's own rules
(db.tracking.refresh_listing), so upgraded and new databases find the same permits.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "permit_listing",
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("number_sort", sa.BigInteger),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("contractor", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("permit_id", name="pk_permit_listing"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_listing_permit_id_permit"
        ),
    )
    op.create_index("ix_permit_listing_address", "permit_listing", ["address"])
    op.create_index("ix_permit_listing_owner", "permit_listing", ["owner"])
    op.create_index("ix_permit_listing_contractor", "permit_listing", ["contractor"])
    op.create_table(
        "permit_search_term",
        sa.Column(
            "term",
            sa.String(120).with_variant(sa.String(120, collation="C"), "postgresql"),
            nullable=False,
        ),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("term", "permit_id", name="pk_permit_search_term"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_search_term_permit_id_permit"
        ),
    )
    op.create_index("ix_permit_search_term_permit_id", "permit_search_term", ["permit_id"])

    from db.tracking import refresh_listing

    conn = op.get_bind()
    ids = [row[0] for row in conn.execute(sa.text("SELECT id FROM permit ORDER BY id"))]
    refresh_listing(conn, ids)


def downgrade() -> None:
    op.drop_table("permit_search_term")
    op.drop_table("permit_listing")
