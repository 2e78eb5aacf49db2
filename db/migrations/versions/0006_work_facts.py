"""Work facts the intake form collects: stories, volume, occupancy class, construction type,
disturbed acreage, the SBD-5823 answers; the inspector's damage finding (15.1.9(b),
15.1.3(d)(3)) and the Plumbing Inspector's special permission (15.1.36) on the permit; a
parcel's delinquent sewer tax or assessment (15.1.36) (issue 4).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-13
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("permit") as batch:
        batch.add_column(sa.Column("stories", sa.Integer))
        batch.add_column(sa.Column("volume_cuft", sa.Integer))
        batch.add_column(
            sa.Column("occupancy_class", sa.String(40), nullable=False, server_default="")
        )
        batch.add_column(
            sa.Column("construction_type", sa.String(40), nullable=False, server_default="")
        )
        # Thousandths of an acre (db.schema.Thousandths): exact on both backends.
        batch.add_column(sa.Column("disturbed_acres", sa.Integer))
        batch.add_column(
            sa.Column("work_details", sa.JSON, nullable=False, server_default=sa.text("'{}'"))
        )
        batch.add_column(sa.Column("damage_percent", sa.Integer))
        batch.add_column(
            sa.Column("sewer_permission", sa.String(400), nullable=False, server_default="")
        )
    with op.batch_alter_table("parcel") as batch:
        batch.add_column(
            sa.Column("sewer_delinquent", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("parcel") as batch:
        batch.drop_column("sewer_delinquent")
    with op.batch_alter_table("permit") as batch:
        batch.drop_column("sewer_permission")
        batch.drop_column("damage_percent")
        batch.drop_column("work_details")
        batch.drop_column("disturbed_acres")
        batch.drop_column("construction_type")
        batch.drop_column("occupancy_class")
        batch.drop_column("volume_cuft")
        batch.drop_column("stories")
