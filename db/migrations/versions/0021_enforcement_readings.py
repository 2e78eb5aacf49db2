"""Code enforcement as the ordinance and the statutes read: an automatic order set aside when a
timely petition is recorded after it was made (Hudson 140-3B, 140-3D), and a licence's automatic
revocation likewise (140-10D); registered mail returned says how (unclaimed or refused, 140-3A(4));
a violation recorded by mistake is withdrawn with its reason; a rooming-house licence renewed
before it ends names the licence it renews and runs from the day after it (140-10A).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def _who(batch: object, table: str, column: str) -> None:
    batch.add_column(sa.Column(column, sa.Integer))  # type: ignore[attr-defined]
    batch.create_foreign_key(  # type: ignore[attr-defined]
        f"fk_{table}_{column}_app_user", "app_user", [column], ["id"]
    )


def upgrade() -> None:
    with op.batch_alter_table("enforcement_order") as batch:
        batch.add_column(sa.Column("set_aside_on", sa.Date))
        batch.add_column(sa.Column("set_aside_reason", sa.Text, nullable=False, server_default=""))
        _who(batch, "enforcement_order", "set_aside_by_id")
    with op.batch_alter_table("enforcement_service") as batch:
        batch.add_column(
            sa.Column("returned_how", sa.String(20), nullable=False, server_default="")
        )
    with op.batch_alter_table("enforcement_violation") as batch:
        batch.add_column(sa.Column("withdrawn_reason", sa.Text, nullable=False, server_default=""))
        _who(batch, "enforcement_violation", "withdrawn_by_id")
    with op.batch_alter_table("rooming_licence") as batch:
        batch.add_column(sa.Column("renews_id", sa.Integer))
        batch.create_foreign_key(
            "fk_rooming_licence_renews_id_rooming_licence", "rooming_licence", ["renews_id"], ["id"]
        )
        batch.add_column(sa.Column("valid_from", sa.Date))
        batch.add_column(sa.Column("revocation_set_aside_on", sa.Date))
        batch.add_column(
            sa.Column("revocation_set_aside_reason", sa.Text, nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("rooming_licence") as batch:
        batch.drop_constraint("fk_rooming_licence_renews_id_rooming_licence", type_="foreignkey")
        for name in ("revocation_set_aside_reason", "revocation_set_aside_on", "valid_from"):
            batch.drop_column(name)
        batch.drop_column("renews_id")
    with op.batch_alter_table("enforcement_violation") as batch:
        batch.drop_constraint("fk_enforcement_violation_withdrawn_by_id_app_user", "foreignkey")
        batch.drop_column("withdrawn_by_id")
        batch.drop_column("withdrawn_reason")
    with op.batch_alter_table("enforcement_service") as batch:
        batch.drop_column("returned_how")
    with op.batch_alter_table("enforcement_order") as batch:
        batch.drop_constraint("fk_enforcement_order_set_aside_by_id_app_user", "foreignkey")
        for name in ("set_aside_by_id", "set_aside_reason", "set_aside_on"):
            batch.drop_column(name)
