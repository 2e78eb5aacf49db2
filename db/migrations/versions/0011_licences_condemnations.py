"""City licences and condemnations (issue 8 gaps): the City electrical licence register,
numbered EL-YYYY-NNNN (Glendale 15.1.75), with each licence's complaint, Council hearing, finding
and revocation (15.1.78); and the condemnations of dwellings unfit for human habitation
(Hudson ch. 140 "Requirements to condemn"), the record Glendale 15.1.6(c) keeps for the annual
report.

Revision ID: 0011
Revises: 0010
Create Date: 2027-02-15
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "city_licence",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("party_id", sa.Integer, nullable=False),
        sa.Column("licensee", sa.String(200), nullable=False),
        sa.Column("trade", sa.String(20), nullable=False),
        sa.Column("credential_kind", sa.String(40), nullable=False),
        sa.Column("credential_number", sa.String(40), nullable=False),
        sa.Column("credential_expires_on", sa.Date),
        sa.Column("granted_on", sa.Date, nullable=False),
        sa.Column("expires_on", sa.Date, nullable=False),
        sa.Column("fee_note", sa.String(200), nullable=False),
        sa.Column("complaint_on", sa.Date),
        sa.Column("complaint", sa.Text, nullable=False),
        sa.Column("hearing_on", sa.Date),
        sa.Column("notice_on", sa.Date),
        sa.Column("notified", sa.String(400), nullable=False),
        sa.Column("finding_on", sa.Date),
        sa.Column("disqualified", sa.Boolean),
        sa.Column("council_finding", sa.Text, nullable=False),
        sa.Column("revoked_on", sa.Date),
        sa.Column("revoked_by_id", sa.Integer),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_city_licence"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_city_licence_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(["party_id"], ["party.id"], name="fk_city_licence_party_id_party"),
        sa.ForeignKeyConstraint(
            ["revoked_by_id"], ["app_user.id"], name="fk_city_licence_revoked_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_city_licence_by_user_id_app_user"
        ),
        # Gapless per municipality and year (15.1.74(a)); a number is never reused.
        sa.UniqueConstraint("municipality_id", "number", name="uq_city_licence_number"),
    )
    op.create_index("ix_city_licence_party_id", "city_licence", ["party_id"])
    op.create_index("ix_city_licence_granted_on", "city_licence", ["granted_on"])
    op.create_table(
        "condemnation",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("parcel_id", sa.Integer),
        sa.Column("permit_id", sa.Integer),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("dwelling_unit", sa.String(40), nullable=False),
        sa.Column("grounds", sa.JSON, nullable=False),
        sa.Column("reasons", sa.Text, nullable=False),
        sa.Column("condemned_on", sa.Date, nullable=False),
        sa.Column("placarded_on", sa.Date),
        sa.Column("vacate_by", sa.Date, nullable=False),
        sa.Column("notified", sa.Text, nullable=False),
        sa.Column("vacated_on", sa.Date),
        sa.Column("outcome", sa.String(40), nullable=False),
        sa.Column("outcome_on", sa.Date),
        sa.Column("placard_removed_on", sa.Date),
        sa.Column("approval_note", sa.Text, nullable=False),
        sa.Column("outcome_note", sa.Text, nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_condemnation"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_condemnation_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["parcel_id"], ["parcel.id"], name="fk_condemnation_parcel_id_parcel"
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_condemnation_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_condemnation_by_user_id_app_user"
        ),
    )
    op.create_index("ix_condemnation_parcel_id", "condemnation", ["parcel_id"])
    op.create_index("ix_condemnation_permit_id", "condemnation", ["permit_id"])
    op.create_index("ix_condemnation_condemned_on", "condemnation", ["condemned_on"])


def downgrade() -> None:
    op.drop_table("condemnation")
    op.drop_table("city_licence")
