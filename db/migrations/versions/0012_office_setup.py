"""Day one in an office: users who must change their first password, their titles (a document
names who issued it) and last sign-in, the built-in "command line" actor; the municipality's
address, treasurer, logo and signature images, and the letterhead versions that let a document
printed earlier reprint as it was issued.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.add_column(sa.Column("title", sa.String(200), nullable=False, server_default=""))
        batch.add_column(
            sa.Column("must_change_password", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("last_sign_in_at", sa.DateTime(timezone=True)))
        batch.add_column(sa.Column("system", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "municipality_image",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("media_type", sa.String(40), nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("added_by_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_municipality_image"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_municipality_image_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["added_by_id"], ["app_user.id"], name="fk_municipality_image_added_by_id_app_user"
        ),
    )
    with op.batch_alter_table("municipality") as batch:
        batch.add_column(sa.Column("address", sa.Text, nullable=False, server_default=""))
        batch.add_column(
            sa.Column("treasurer_name", sa.String(200), nullable=False, server_default="")
        )
        batch.add_column(sa.Column("logo_image_id", sa.Integer))
        batch.add_column(sa.Column("signature_image_id", sa.Integer))
    op.create_table(
        "letterhead_version",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("effective_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("letterhead", sa.JSON, nullable=False),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("inspector_name", sa.String(200), nullable=False),
        sa.Column("inspector_title", sa.String(200), nullable=False),
        sa.Column("treasurer_name", sa.String(200), nullable=False),
        sa.Column("logo_image_id", sa.Integer),
        sa.Column("signature_image_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_letterhead_version"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_letterhead_version_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["logo_image_id"],
            ["municipality_image.id"],
            name="fk_letterhead_version_logo_image_id_municipality_image",
        ),
        sa.ForeignKeyConstraint(
            ["signature_image_id"],
            ["municipality_image.id"],
            name="fk_letterhead_version_signature_image_id_municipality_image",
        ),
    )
    op.create_index(
        "ix_letterhead_version_municipality",
        "letterhead_version",
        ["municipality_id", "effective_at"],
    )
    # Every document printed so far used the municipality as it is now: its first version.
    # (db.types.UTCDateTime: SQLite keeps UTC without a zone, PostgreSQL with one.)
    sqlite = op.get_bind().dialect.name == "sqlite"
    since = "1900-01-01 00:00:00.000000" if sqlite else "1900-01-01 00:00:00+00"
    op.execute(
        "INSERT INTO letterhead_version (municipality_id, effective_at, name, letterhead, "
        "address, inspector_name, inspector_title, treasurer_name) "
        f"SELECT id, '{since}', name, letterhead, '', inspector_name, "
        "inspector_title, '' FROM municipality"
    )


def downgrade() -> None:
    op.drop_index("ix_letterhead_version_municipality", table_name="letterhead_version")
    op.drop_table("letterhead_version")
    with op.batch_alter_table("municipality") as batch:
        batch.drop_column("signature_image_id")
        batch.drop_column("logo_image_id")
        batch.drop_column("treasurer_name")
        batch.drop_column("address")
    op.drop_table("municipality_image")
    with op.batch_alter_table("app_user") as batch:
        for name in ("system", "last_sign_in_at", "must_change_password", "title"):
            batch.drop_column(name)
