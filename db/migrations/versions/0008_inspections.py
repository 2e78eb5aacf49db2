"""Inspections (issue 7): requests with the caller and the desired time, the inspector's day and
route, results, the inspector's exceptions to the order of 15.1.11(a), correction orders
(15.1.90(b)(1), 15.1.76(c)) and numbered certificates of occupancy (15.1.13).

Revision ID: 0008
Revises: 0007
Create Date: 2027-01-10
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inspection",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("type_code", sa.String(40), nullable=False),
        sa.Column("requested_by", sa.String(200), nullable=False),
        sa.Column("requested_phone", sa.String(40), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("desired_on", sa.Date),
        sa.Column("desired_time", sa.String(8), nullable=False),
        sa.Column("scheduled_on", sa.Date),
        sa.Column("inspector_id", sa.Integer),
        sa.Column("route_position", sa.Integer),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("result", sa.String(40)),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("result_at", sa.DateTime(timezone=True)),
        sa.Column("recorded_by_id", sa.Integer),
        sa.Column("failure_to_call", sa.Boolean, nullable=False),
        sa.Column("fee_waiver", sa.String(400), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_inspection"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_inspection_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["inspector_id"], ["app_user.id"], name="fk_inspection_inspector_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["recorded_by_id"], ["app_user.id"], name="fk_inspection_recorded_by_id_app_user"
        ),
    )
    op.create_index("ix_inspection_permit_id", "inspection", ["permit_id"])
    op.create_index("ix_inspection_day", "inspection", ["scheduled_on", "inspector_id"])
    op.create_index("ix_inspection_status", "inspection", ["status"])

    op.create_table(
        "inspection_exception",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("type_code", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_inspection_exception"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_inspection_exception_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_inspection_exception_by_user_id_app_user"
        ),
    )
    op.create_index("ix_inspection_exception_permit_id", "inspection_exception", ["permit_id"])

    op.create_table(
        "correction_order",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("inspection_id", sa.Integer),
        sa.Column("noticed_on", sa.Date, nullable=False),
        sa.Column("due_on", sa.Date, nullable=False),
        sa.Column("section", sa.String(80), nullable=False),
        sa.Column("items", sa.Text, nullable=False),
        sa.Column("corrected_on", sa.Date),
        sa.Column("extended", sa.Boolean, nullable=False),
        sa.Column("extension_reasons", sa.Text, nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_correction_order"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_correction_order_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["inspection_id"],
            ["inspection.id"],
            name="fk_correction_order_inspection_id_inspection",
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_correction_order_by_user_id_app_user"
        ),
    )
    op.create_index("ix_correction_order_permit_id", "correction_order", ["permit_id"])
    op.create_index("ix_correction_order_inspection_id", "correction_order", ["inspection_id"])
    op.create_index("ix_correction_order_due_on", "correction_order", ["due_on"])

    op.create_table(
        "occupancy_certificate",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("use_stated", sa.String(400), nullable=False),
        sa.Column("conditions", sa.Text, nullable=False),
        sa.Column("occupant", sa.String(200), nullable=False),
        sa.Column("temporary_until", sa.Date),
        sa.Column("issued_on", sa.Date, nullable=False),
        sa.Column("inspector_id", sa.Integer),
        sa.Column("inspector_name", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_occupancy_certificate"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_occupancy_certificate_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_occupancy_certificate_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["inspector_id"],
            ["app_user.id"],
            name="fk_occupancy_certificate_inspector_id_app_user",
        ),
        sa.UniqueConstraint("municipality_id", "number", name="uq_occupancy_certificate_number"),
    )
    op.create_index("ix_occupancy_certificate_permit_id", "occupancy_certificate", ["permit_id"])


def downgrade() -> None:
    op.drop_table("occupancy_certificate")
    op.drop_table("correction_order")
    op.drop_table("inspection_exception")
    op.drop_table("inspection")
