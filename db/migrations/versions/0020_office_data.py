"""The office's own data: parcels carry what the county's parcel file says (owners of record and
their mailing address, tax parcel id, property classes, acreage, values, tax roll year,
coordinates, the import they came from) beside the office's own facts and notes; parcels and
people are retired or merged, never deleted; a credential's renewal keeps the one it replaced;
each import from a file is recorded; a municipality names the shipped ordinance it follows.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

# The two municipalities shipped with permit kinds follow their own ordinance.
WITH_PERMITS = ("glendale", "new_lisbon")


def upgrade() -> None:
    op.add_column(
        "municipality",
        sa.Column("ordinance", sa.String(40), nullable=False, server_default=""),
    )
    m = sa.table("municipality", sa.column("key", sa.String), sa.column("ordinance", sa.String))
    op.execute(m.update().where(m.c.key.in_(WITH_PERMITS)).values(ordinance=m.c.key))

    op.create_table(
        "data_import",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("file_name", sa.String(260), nullable=False),
        sa.Column("file_sha256", sa.String(64), nullable=False),
        sa.Column("layer", sa.String(200), nullable=False, server_default=""),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("counts", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_data_import"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_data_import_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_data_import_by_user_id_app_user"
        ),
    )

    with op.batch_alter_table("parcel") as batch:
        batch.add_column(sa.Column("notes", sa.Text, nullable=False, server_default=""))
        for name, length in (
            ("state_id", 40),
            ("tax_parcel_id", 40),
            ("owner_name", 200),
            ("owner_name_2", 200),
            ("owner_address", 300),
        ):
            batch.add_column(sa.Column(name, sa.String(length), nullable=False, server_default=""))
        for name in ("property_classes", "aux_classes"):
            batch.add_column(
                sa.Column(name, sa.JSON, nullable=False, server_default=sa.text("'[]'"))
            )
        batch.add_column(sa.Column("acres", sa.BigInteger))
        for name in ("assessed_value", "land_value", "improvement_value", "fair_market_value"):
            batch.add_column(sa.Column(name, sa.BigInteger))
        batch.add_column(sa.Column("tax_roll_year", sa.Integer))
        batch.add_column(sa.Column("latitude", sa.BigInteger))
        batch.add_column(sa.Column("longitude", sa.BigInteger))
        batch.add_column(sa.Column("import_id", sa.Integer))
        batch.add_column(sa.Column("retired_on", sa.Date))
        batch.add_column(sa.Column("retired_reason", sa.Text, nullable=False, server_default=""))
        batch.add_column(sa.Column("retired_by_id", sa.Integer))
        batch.add_column(sa.Column("merged_into_id", sa.Integer))
        batch.create_foreign_key(
            "fk_parcel_import_id_data_import", "data_import", ["import_id"], ["id"]
        )
        batch.create_foreign_key(
            "fk_parcel_retired_by_id_app_user", "app_user", ["retired_by_id"], ["id"]
        )
        batch.create_foreign_key(
            "fk_parcel_merged_into_id_parcel", "parcel", ["merged_into_id"], ["id"]
        )
    op.create_index("ix_parcel_street", "parcel", ["municipality_id", "street"])

    with op.batch_alter_table("party") as batch:
        batch.add_column(sa.Column("notes", sa.Text, nullable=False, server_default=""))
        batch.add_column(sa.Column("retired_on", sa.Date))
        batch.add_column(sa.Column("retired_reason", sa.Text, nullable=False, server_default=""))
        batch.add_column(sa.Column("retired_by_id", sa.Integer))
        batch.add_column(sa.Column("merged_into_id", sa.Integer))
        batch.create_foreign_key(
            "fk_party_retired_by_id_app_user", "app_user", ["retired_by_id"], ["id"]
        )
        batch.create_foreign_key(
            "fk_party_merged_into_id_party", "party", ["merged_into_id"], ["id"]
        )

    with op.batch_alter_table("credential") as batch:
        batch.add_column(sa.Column("recorded_on", sa.Date))
        batch.add_column(sa.Column("superseded_by_id", sa.Integer))
        batch.create_foreign_key(
            "fk_credential_superseded_by_id_credential", "credential", ["superseded_by_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("credential") as batch:
        batch.drop_constraint("fk_credential_superseded_by_id_credential", type_="foreignkey")
        batch.drop_column("superseded_by_id")
        batch.drop_column("recorded_on")
    with op.batch_alter_table("party") as batch:
        batch.drop_constraint("fk_party_merged_into_id_party", type_="foreignkey")
        batch.drop_constraint("fk_party_retired_by_id_app_user", type_="foreignkey")
        for name in ("merged_into_id", "retired_by_id", "retired_reason", "retired_on", "notes"):
            batch.drop_column(name)
    op.drop_index("ix_parcel_street", table_name="parcel")
    with op.batch_alter_table("parcel") as batch:
        batch.drop_constraint("fk_parcel_merged_into_id_parcel", type_="foreignkey")
        batch.drop_constraint("fk_parcel_retired_by_id_app_user", type_="foreignkey")
        batch.drop_constraint("fk_parcel_import_id_data_import", type_="foreignkey")
        for name in (
            "merged_into_id",
            "retired_by_id",
            "retired_reason",
            "retired_on",
            "import_id",
            "longitude",
            "latitude",
            "tax_roll_year",
            "fair_market_value",
            "improvement_value",
            "land_value",
            "assessed_value",
            "acres",
            "aux_classes",
            "property_classes",
            "owner_address",
            "owner_name_2",
            "owner_name",
            "tax_parcel_id",
            "state_id",
            "notes",
        ):
            batch.drop_column(name)
    op.drop_table("data_import")
    with op.batch_alter_table("municipality") as batch:
        batch.drop_column("ordinance")
