"""Lifecycle: approval and last-activity dates, stated periods, the emergency and work-begun
flags, a street's final paving and council approval (§435-8), deadline extensions, and
stop-work orders and revocations (issue 4).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("permit") as batch:
        batch.add_column(sa.Column("approved_on", sa.Date))
        batch.add_column(sa.Column("last_activity_on", sa.Date))
        batch.add_column(sa.Column("requested_until", sa.Date))
        batch.add_column(
            sa.Column("emergency", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column(
                "work_began_before_permit", sa.Boolean, nullable=False, server_default=sa.false()
            )
        )
        batch.add_column(sa.Column("street_paved_on", sa.Date))
        batch.add_column(
            sa.Column("council_approval", sa.String(200), nullable=False, server_default="")
        )
    op.create_table(
        "permit_extension",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("deadline", sa.String(20), nullable=False),
        sa.Column("until", sa.Date, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_permit_extension"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_extension_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_permit_extension_by_user_id_app_user"
        ),
    )
    op.create_index("ix_permit_extension_permit_id", "permit_extension", ["permit_id"])
    op.create_table(
        "permit_order",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("issued_on", sa.Date, nullable=False),
        sa.Column("reasons", sa.Text, nullable=False),
        sa.Column("section", sa.String(80), nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.Column("lifted_on", sa.Date),
        sa.Column("lift_notice", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_permit_order"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_permit_order_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_permit_order_by_user_id_app_user"
        ),
    )
    op.create_index("ix_permit_order_permit_id", "permit_order", ["permit_id"])


def downgrade() -> None:
    op.drop_table("permit_order")
    op.drop_table("permit_extension")
    with op.batch_alter_table("permit") as batch:
        batch.drop_column("council_approval")
        batch.drop_column("street_paved_on")
        batch.drop_column("work_began_before_permit")
        batch.drop_column("emergency")
        batch.drop_column("requested_until")
        batch.drop_column("last_activity_on")
        batch.drop_column("approved_on")
