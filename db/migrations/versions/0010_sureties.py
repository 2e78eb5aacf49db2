"""Bonds, insurance certificates and street deposits (issue 6): the bond register with its
personal sureties and the permits each bond covers (or a contractor's calendar year, §435-7.K),
insurance certificates with their coverages and an association's members (15.1.38(b)), street
deposits paid through cashiering and returned on the City Engineer's order (15.1.43), and the
facts a permit's requirements turn on.

Revision ID: 0010
Revises: 0009
Create Date: 2027-02-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TABLES = (
    "bond",
    "bond_surety",
    "bond_permit",
    "insurance_certificate",
    "insurance_coverage",
    "association_member",
    "deposit",
    "surety_facts",
)


def upgrade() -> None:
    op.create_table(
        "bond",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("purpose", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("principal", sa.String(200), nullable=False),
        sa.Column("principal_party_id", sa.Integer),
        sa.Column("obligee", sa.String(200), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("effective_on", sa.Date, nullable=False),
        sa.Column("expires_on", sa.Date),
        sa.Column("number", sa.String(80), nullable=False),
        sa.Column("surety_company", sa.String(200), nullable=False),
        sa.Column("sureties_approved", sa.String(300), nullable=False),
        sa.Column("conditions", sa.JSON, nullable=False),
        sa.Column("scope", sa.String(40), nullable=False),
        sa.Column("year", sa.Integer),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("released_on", sa.Date),
        sa.Column("released_by", sa.String(200), nullable=False),
        sa.Column("released_by_id", sa.Integer),
        sa.Column("claimed_on", sa.Date),
        sa.Column("claim_amount", sa.BigInteger),
        sa.Column("claim_reason", sa.Text, nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_bond"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_bond_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"], ["municipality.id"], name="fk_bond_municipality_id_municipality"
        ),
        sa.ForeignKeyConstraint(
            ["principal_party_id"], ["party.id"], name="fk_bond_principal_party_id_party"
        ),
        sa.ForeignKeyConstraint(
            ["released_by_id"], ["app_user.id"], name="fk_bond_released_by_id_app_user"
        ),
    )
    op.create_index("ix_bond_expires_on", "bond", ["expires_on"])
    op.create_index("ix_bond_principal_party_id", "bond", ["principal_party_id"])
    op.create_table(
        "bond_surety",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("bond_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_bond_surety"),
        sa.ForeignKeyConstraint(["bond_id"], ["bond.id"], name="fk_bond_surety_bond_id_bond"),
    )
    op.create_index("ix_bond_surety_bond_id", "bond_surety", ["bond_id"])
    op.create_table(
        "bond_permit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("bond_id", sa.Integer, nullable=False),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_bond_permit"),
        sa.ForeignKeyConstraint(["bond_id"], ["bond.id"], name="fk_bond_permit_bond_id_bond"),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_bond_permit_permit_id_permit"
        ),
        sa.UniqueConstraint("bond_id", "permit_id", name="uq_bond_permit_bond_id"),
    )
    op.create_index("ix_bond_permit_bond_id", "bond_permit", ["bond_id"])
    op.create_index("ix_bond_permit_permit_id", "bond_permit", ["permit_id"])
    op.create_table(
        "insurance_certificate",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("insured", sa.String(200), nullable=False),
        sa.Column("insured_party_id", sa.Integer),
        sa.Column("insurer", sa.String(200), nullable=False),
        sa.Column("policy", sa.String(80), nullable=False),
        sa.Column("effective_on", sa.Date, nullable=False),
        sa.Column("expires_on", sa.Date, nullable=False),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("file_reference", sa.String(80), nullable=False),
        sa.Column("association", sa.Boolean, nullable=False),
        sa.Column("filed_on", sa.Date),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_insurance_certificate"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_insurance_certificate_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["insured_party_id"],
            ["party.id"],
            name="fk_insurance_certificate_insured_party_id_party",
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_insurance_certificate_municipality_id_municipality",
        ),
    )
    op.create_index(
        "ix_insurance_certificate_insured_party_id", "insurance_certificate", ["insured_party_id"]
    )
    op.create_index("ix_insurance_certificate_expires_on", "insurance_certificate", ["expires_on"])
    op.create_table(
        "insurance_coverage",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("certificate_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("limit_amount", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_insurance_coverage"),
        sa.ForeignKeyConstraint(
            ["certificate_id"],
            ["insurance_certificate.id"],
            name="fk_insurance_coverage_certificate_id_insurance_certificate",
        ),
    )
    op.create_index(
        "ix_insurance_coverage_certificate_id", "insurance_coverage", ["certificate_id"]
    )
    op.create_table(
        "association_member",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("certificate_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("party_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_association_member"),
        sa.ForeignKeyConstraint(
            ["certificate_id"],
            ["insurance_certificate.id"],
            name="fk_association_member_certificate_id_insurance_certificate",
        ),
        sa.ForeignKeyConstraint(
            ["party_id"], ["party.id"], name="fk_association_member_party_id_party"
        ),
    )
    op.create_index("ix_association_member_party_id", "association_member", ["party_id"])
    op.create_index(
        "ix_association_member_certificate_id", "association_member", ["certificate_id"]
    )
    op.create_table(
        "deposit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("depositor", sa.String(200), nullable=False),
        sa.Column("depositor_party_id", sa.Integer),
        sa.Column("depositor_address", sa.Text, nullable=False),
        sa.Column("refund_payee", sa.String(200), nullable=False),
        sa.Column("refund_address", sa.Text, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("street_paved", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("received_on", sa.Date),
        sa.Column("payment_id", sa.Integer),
        sa.Column("completed_on", sa.Date),
        sa.Column("completed_by_id", sa.Integer),
        sa.Column("ordered_on", sa.Date),
        sa.Column("ordered_at", sa.DateTime(timezone=True)),
        sa.Column("ordered_by", sa.String(200), nullable=False),
        sa.Column("ordered_by_id", sa.Integer),
        sa.Column("check_number", sa.String(40), nullable=False),
        sa.Column("check_date", sa.Date),
        sa.Column("refunded_at", sa.DateTime(timezone=True)),
        sa.Column("refunded_by_id", sa.Integer),
        sa.Column("refund_id", sa.Integer),
        sa.Column("retention_resolution", sa.String(80), nullable=False),
        sa.Column("retention_resolved_on", sa.Date),
        sa.Column("retention_amount", sa.BigInteger),
        sa.Column("retention_reason", sa.Text, nullable=False),
        sa.Column("retention_by_id", sa.Integer),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_deposit"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_deposit_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["completed_by_id"], ["app_user.id"], name="fk_deposit_completed_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["depositor_party_id"], ["party.id"], name="fk_deposit_depositor_party_id_party"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"], ["municipality.id"], name="fk_deposit_municipality_id_municipality"
        ),
        sa.ForeignKeyConstraint(
            ["ordered_by_id"], ["app_user.id"], name="fk_deposit_ordered_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["payment_id"], ["payment.id"], name="fk_deposit_payment_id_payment"
        ),
        sa.ForeignKeyConstraint(["permit_id"], ["permit.id"], name="fk_deposit_permit_id_permit"),
        sa.ForeignKeyConstraint(["refund_id"], ["refund.id"], name="fk_deposit_refund_id_refund"),
        sa.ForeignKeyConstraint(
            ["refunded_by_id"], ["app_user.id"], name="fk_deposit_refunded_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["retention_by_id"], ["app_user.id"], name="fk_deposit_retention_by_id_app_user"
        ),
    )
    op.create_index("ix_deposit_municipality_status", "deposit", ["municipality_id", "status"])
    op.create_index("ix_deposit_permit_id", "deposit", ["permit_id"])
    op.create_table(
        "surety_facts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("excavation_hazard", sa.Boolean, nullable=False),
        sa.Column("exterior_altered", sa.Boolean, nullable=False),
        sa.Column("excavates_public_street", sa.Boolean, nullable=False),
        sa.Column("street_paved", sa.Boolean, nullable=False),
        sa.Column("engineer_requires_bond", sa.Boolean, nullable=False),
        sa.Column("inspector_requires_surety", sa.Boolean, nullable=False),
        sa.Column("public_utility", sa.Boolean, nullable=False),
        sa.Column("bond_amount", sa.BigInteger),
        sa.Column("plan_commission_bond_amount", sa.BigInteger),
        sa.Column("restoration_bond_amount", sa.BigInteger),
        sa.Column("deposit_amount", sa.BigInteger),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name="pk_surety_facts"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_surety_facts_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_surety_facts_permit_id_permit"
        ),
        sa.UniqueConstraint("permit_id", name="uq_surety_facts_permit_id"),
    )


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
