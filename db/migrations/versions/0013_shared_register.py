"""A register shared by several workstations: sign-in failures counted per user (a growing
delay, then a lock an administrator lifts), and a tamper-evident audit trail (each row's
SHA-256 chained to the previous row's).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.add_column(
            sa.Column("failed_sign_ins", sa.Integer, nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("last_failed_at", sa.DateTime(timezone=True)))
        batch.add_column(sa.Column("locked_at", sa.DateTime(timezone=True)))
    with op.batch_alter_table("audit_event") as batch:
        batch.add_column(sa.Column("row_hash", sa.String(64)))
    # The rows written so far join the chain in id order, before the trigger forbids updates.
    from db.audit_chain import hash_unhashed

    conn = op.get_bind()
    hash_unhashed(conn)
    if conn.dialect.name == "postgresql":
        op.execute(_APPEND_ONLY)
        op.execute(
            "CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event "
            "FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()"
        )


_APPEND_ONLY = """
CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit trail is append-only';
END;
$$ LANGUAGE plpgsql
"""


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_event_append_only ON audit_event")
        op.execute("DROP FUNCTION IF EXISTS audit_event_append_only()")
    with op.batch_alter_table("audit_event") as batch:
        batch.drop_column("row_hash")
    with op.batch_alter_table("app_user") as batch:
        for name in ("locked_at", "last_failed_at", "failed_sign_ins"):
            batch.drop_column(name)
