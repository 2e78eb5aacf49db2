"""Cashiering (issue 5): GL accounts and the fee item map, payments (numbered receipts) with
their allocation to permits and their GL entries, voids and returned checks, fee lines added or
corrected after assessment, refunds, payers' credits, daily closes and turnovers to the
treasurer. Money as integer cents.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-20
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gl_account",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("purpose", sa.String(40), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_gl_account"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_gl_account_municipality_id_municipality",
        ),
        sa.UniqueConstraint("municipality_id", "number", name="uq_gl_account_number"),
    )
    op.create_table(
        "fee_account_map",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_fee_account_map"),
        sa.ForeignKeyConstraint(
            ["account_id"], ["gl_account.id"], name="fk_fee_account_map_account_id_gl_account"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_fee_account_map_municipality_id_municipality",
        ),
        sa.UniqueConstraint("municipality_id", "code", name="uq_fee_account_map_code"),
    )
    op.create_table(
        "turnover",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("delivered_on", sa.Date, nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_by_id", sa.Integer),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("cash_delivered", sa.BigInteger, nullable=False),
        sa.Column("acknowledged_on", sa.Date),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True)),
        sa.Column("acknowledged_by_id", sa.Integer),
        sa.Column("deposit_ref", sa.String(80), nullable=False),
        sa.Column("deposited", sa.BigInteger),
        sa.Column("difference", sa.BigInteger),
        sa.Column("resolved_at", sa.DateTime(timezone=True)),
        sa.Column("resolved_by_id", sa.Integer),
        sa.Column("resolution", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_turnover"),
        sa.ForeignKeyConstraint(
            ["acknowledged_by_id"], ["app_user.id"], name="fk_turnover_acknowledged_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["delivered_by_id"], ["app_user.id"], name="fk_turnover_delivered_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_turnover_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["resolved_by_id"], ["app_user.id"], name="fk_turnover_resolved_by_id_app_user"
        ),
    )
    op.create_index(
        "ix_turnover_municipality_delivered", "turnover", ["municipality_id", "delivered_on"]
    )
    op.create_table(
        "daily_close",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("drawer", sa.String(40), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("expected_cash", sa.BigInteger, nullable=False),
        sa.Column("expected_check", sa.BigInteger, nullable=False),
        sa.Column("expected_card", sa.BigInteger, nullable=False),
        sa.Column("expected_money_order", sa.BigInteger, nullable=False),
        sa.Column("counted_cash", sa.BigInteger, nullable=False),
        sa.Column("counted_check", sa.BigInteger, nullable=False),
        sa.Column("counted_card", sa.BigInteger, nullable=False),
        sa.Column("counted_money_order", sa.BigInteger, nullable=False),
        sa.Column("over_short", sa.BigInteger, nullable=False),
        sa.Column("explanation", sa.Text, nullable=False),
        sa.Column("closed_by_id", sa.Integer),
        sa.Column("closed_at", sa.DateTime(timezone=True)),
        sa.Column("turnover_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_daily_close"),
        sa.ForeignKeyConstraint(
            ["closed_by_id"], ["app_user.id"], name="fk_daily_close_closed_by_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_daily_close_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["turnover_id"], ["turnover.id"], name="fk_daily_close_turnover_id_turnover"
        ),
        sa.UniqueConstraint("municipality_id", "drawer", "day", name="uq_daily_close_drawer_day"),
    )
    op.create_index("ix_daily_close_turnover_id", "daily_close", ["turnover_id"])
    op.create_table(
        "payment",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("receipt_number", sa.String(20), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("payer_party_id", sa.Integer),
        sa.Column("payer_name", sa.String(200), nullable=False),
        sa.Column("method", sa.String(40), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("credited", sa.BigInteger, nullable=False),
        sa.Column("check_number", sa.String(40), nullable=False),
        sa.Column("check_drawer", sa.String(200), nullable=False),
        sa.Column("check_bank", sa.String(120), nullable=False),
        sa.Column("card_reference", sa.String(80), nullable=False),
        sa.Column("clerk_id", sa.Integer),
        sa.Column("drawer", sa.String(40), nullable=False),
        sa.Column("close_id", sa.Integer),
        sa.Column("printed_count", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_payment"),
        sa.ForeignKeyConstraint(["clerk_id"], ["app_user.id"], name="fk_payment_clerk_id_app_user"),
        sa.ForeignKeyConstraint(
            ["close_id"], ["daily_close.id"], name="fk_payment_close_id_daily_close"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"], ["municipality.id"], name="fk_payment_municipality_id_municipality"
        ),
        sa.ForeignKeyConstraint(
            ["payer_party_id"], ["party.id"], name="fk_payment_payer_party_id_party"
        ),
        sa.UniqueConstraint("municipality_id", "receipt_number", name="uq_payment_receipt_number"),
    )
    op.create_index("ix_payment_close_id", "payment", ["close_id"])
    op.create_index("ix_payment_municipality_day", "payment", ["municipality_id", "day", "drawer"])
    op.create_index("ix_payment_payer_party_id", "payment", ["payer_party_id"])
    op.create_table(
        "payment_allocation",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("payment_id", sa.Integer, nullable=False),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_payment_allocation"),
        sa.ForeignKeyConstraint(
            ["payment_id"], ["payment.id"], name="fk_payment_allocation_payment_id_payment"
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_payment_allocation_permit_id_permit"
        ),
    )
    op.create_index("ix_payment_allocation_payment_id", "payment_allocation", ["payment_id"])
    op.create_index("ix_payment_allocation_permit_id", "payment_allocation", ["permit_id"])
    op.create_table(
        "payment_reversal",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("payment_id", sa.Integer, nullable=False),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("bank_notice", sa.Text, nullable=False),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("turnover_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_payment_reversal"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_payment_reversal_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_payment_reversal_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["payment_id"], ["payment.id"], name="fk_payment_reversal_payment_id_payment"
        ),
        sa.ForeignKeyConstraint(
            ["turnover_id"], ["turnover.id"], name="fk_payment_reversal_turnover_id_turnover"
        ),
        sa.UniqueConstraint("payment_id", name="uq_payment_reversal_payment_id"),
    )
    op.create_index(
        "ix_payment_reversal_municipality_day", "payment_reversal", ["municipality_id", "day"]
    )
    op.create_index("ix_payment_reversal_turnover_id", "payment_reversal", ["turnover_id"])
    op.create_table(
        "refund",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("ground", sa.String(40), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("kept", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("section", sa.String(80), nullable=False),
        sa.Column("check_number", sa.String(40), nullable=False),
        sa.Column("check_date", sa.Date, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payer_name", sa.String(200), nullable=False),
        sa.Column("payer_party_id", sa.Integer),
        sa.Column("permit_id", sa.Integer),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("turnover_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_refund"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_refund_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"], ["municipality.id"], name="fk_refund_municipality_id_municipality"
        ),
        sa.ForeignKeyConstraint(
            ["payer_party_id"], ["party.id"], name="fk_refund_payer_party_id_party"
        ),
        sa.ForeignKeyConstraint(["permit_id"], ["permit.id"], name="fk_refund_permit_id_permit"),
        sa.ForeignKeyConstraint(
            ["turnover_id"], ["turnover.id"], name="fk_refund_turnover_id_turnover"
        ),
    )
    op.create_index("ix_refund_municipality_day", "refund", ["municipality_id", "day"])
    op.create_index("ix_refund_permit_id", "refund", ["permit_id"])
    op.create_index("ix_refund_turnover_id", "refund", ["turnover_id"])
    op.create_table(
        "gl_entry",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("portion", sa.String(40), nullable=False),
        sa.Column("permit_id", sa.Integer),
        sa.Column("payment_id", sa.Integer),
        sa.Column("reversal_id", sa.Integer),
        sa.Column("refund_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_gl_entry"),
        sa.ForeignKeyConstraint(
            ["account_id"], ["gl_account.id"], name="fk_gl_entry_account_id_gl_account"
        ),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_gl_entry_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(
            ["payment_id"], ["payment.id"], name="fk_gl_entry_payment_id_payment"
        ),
        sa.ForeignKeyConstraint(["permit_id"], ["permit.id"], name="fk_gl_entry_permit_id_permit"),
        sa.ForeignKeyConstraint(["refund_id"], ["refund.id"], name="fk_gl_entry_refund_id_refund"),
        sa.ForeignKeyConstraint(
            ["reversal_id"],
            ["payment_reversal.id"],
            name="fk_gl_entry_reversal_id_payment_reversal",
        ),
    )
    op.create_index("ix_gl_entry_account_id", "gl_entry", ["account_id"])
    op.create_index("ix_gl_entry_municipality_day", "gl_entry", ["municipality_id", "day"])
    op.create_index("ix_gl_entry_payment_id", "gl_entry", ["payment_id"])
    op.create_index("ix_gl_entry_permit_id", "gl_entry", ["permit_id"])
    op.create_table(
        "fee_adjustment",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("permit_id", sa.Integer, nullable=False),
        sa.Column("code", sa.String(40), nullable=False),
        sa.Column("description", sa.String(300), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("section", sa.String(80), nullable=False),
        sa.Column("portion", sa.String(40), nullable=False),
        sa.Column("note", sa.String(300), nullable=False),
        sa.Column("version_id", sa.Integer),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("refund_id", sa.Integer),
        sa.Column("reversal_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_fee_adjustment"),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name="fk_fee_adjustment_by_user_id_app_user"
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name="fk_fee_adjustment_permit_id_permit"
        ),
        sa.ForeignKeyConstraint(
            ["refund_id"], ["refund.id"], name="fk_fee_adjustment_refund_id_refund"
        ),
        sa.ForeignKeyConstraint(
            ["reversal_id"],
            ["payment_reversal.id"],
            name="fk_fee_adjustment_reversal_id_payment_reversal",
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["fee_schedule_version.id"],
            name="fk_fee_adjustment_version_id_fee_schedule_version",
        ),
    )
    op.create_index("ix_fee_adjustment_code", "fee_adjustment", ["code"])
    op.create_index("ix_fee_adjustment_permit_id", "fee_adjustment", ["permit_id"])
    op.create_table(
        "payer_credit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("municipality_id", sa.Integer, nullable=False),
        sa.Column("payer_key", sa.String(220), nullable=False),
        sa.Column("payer_name", sa.String(200), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("memo", sa.String(300), nullable=False),
        sa.Column("party_id", sa.Integer),
        sa.Column("payment_id", sa.Integer),
        sa.Column("reversal_id", sa.Integer),
        sa.Column("refund_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_payer_credit"),
        sa.ForeignKeyConstraint(
            ["municipality_id"],
            ["municipality.id"],
            name="fk_payer_credit_municipality_id_municipality",
        ),
        sa.ForeignKeyConstraint(["party_id"], ["party.id"], name="fk_payer_credit_party_id_party"),
        sa.ForeignKeyConstraint(
            ["payment_id"], ["payment.id"], name="fk_payer_credit_payment_id_payment"
        ),
        sa.ForeignKeyConstraint(
            ["refund_id"], ["refund.id"], name="fk_payer_credit_refund_id_refund"
        ),
        sa.ForeignKeyConstraint(
            ["reversal_id"],
            ["payment_reversal.id"],
            name="fk_payer_credit_reversal_id_payment_reversal",
        ),
    )
    op.create_index("ix_payer_credit_payer", "payer_credit", ["municipality_id", "payer_key"])


def downgrade() -> None:
    op.drop_table("payer_credit")
    op.drop_table("fee_adjustment")
    op.drop_table("gl_entry")
    op.drop_table("refund")
    op.drop_table("payment_reversal")
    op.drop_table("payment_allocation")
    op.drop_table("payment")
    op.drop_table("daily_close")
    op.drop_table("turnover")
    op.drop_table("fee_account_map")
    op.drop_table("gl_account")
