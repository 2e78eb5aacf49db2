"""Review and appeal under Wis. Stat. ch. 68 for a housing code with no procedure of its own
(Ch. 512): an administrative appeal from the decision on review (68.10), its hearing (68.11)
and the final determination (68.12). The request for review (68.08) is an enforcement_petition
row and the decision on review (68.09) the notice's decision, as before.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

T = "enforcement_appeal"


def upgrade() -> None:
    op.create_table(
        T,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("case_id", sa.Integer, nullable=False),
        sa.Column("notice_id", sa.Integer, nullable=False),
        sa.Column("appellant", sa.String(200), nullable=False),
        sa.Column("filed_on", sa.Date, nullable=False),
        sa.Column("grounds", sa.Text, nullable=False),
        sa.Column("timely", sa.Boolean, nullable=False),
        sa.Column("hearing_on", sa.Date),
        sa.Column("hearing_place", sa.String(200), nullable=False, server_default=""),
        sa.Column("hearing_notice_on", sa.Date),
        sa.Column("decision", sa.String(40)),
        sa.Column("decided_on", sa.Date),
        sa.Column("findings", sa.Text, nullable=False, server_default=""),
        sa.Column("by_user_id", sa.Integer),
        sa.Column("at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name=f"pk_{T}"),
        sa.ForeignKeyConstraint(
            ["case_id"], ["enforcement_case.id"], name=f"fk_{T}_case_id_enforcement_case"
        ),
        sa.ForeignKeyConstraint(
            ["notice_id"], ["enforcement_notice.id"], name=f"fk_{T}_notice_id_enforcement_notice"
        ),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["app_user.id"], name=f"fk_{T}_by_user_id_app_user"
        ),
    )
    op.create_index(f"ix_{T}_case_id", T, ["case_id"])
    op.create_index(f"ix_{T}_notice_id", T, ["notice_id"])
    # The days to file the notice stated when issued (a reprint states the same).
    op.add_column("enforcement_notice", sa.Column("request_days", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("enforcement_notice") as batch:
        batch.drop_column("request_days")
    op.drop_index(f"ix_{T}_notice_id", table_name=T)
    op.drop_index(f"ix_{T}_case_id", table_name=T)
    op.drop_table(T)
