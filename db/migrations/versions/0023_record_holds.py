"""The record holds against a person at a workstation: the audit trail refuses TRUNCATE on
PostgreSQL and UPDATE/DELETE on SQLite too; wrong passwords no longer lock an account (only an
administrator does, on purpose: `locked_by_id`), so the locks they left are lifted; sign-in
tokens for scripted set-ups (`user_token`, only the token's SHA-256 kept).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-03
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

T = "user_token"


def upgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.add_column(sa.Column("locked_by_id", sa.Integer))
    # Every lock so far came from wrong passwords in a row, which now only delay the next try;
    # lifted with an audit row each, as a service would, so the register still agrees with its
    # journal (db check).
    conn = op.get_bind()
    locked = conn.execute(
        sa.text("SELECT id, failed_sign_ins FROM app_user WHERE locked_at IS NOT NULL")
    ).all()
    if locked:
        from db import audit_chain

        audit_chain.append(
            conn,
            [
                {
                    "at": datetime.now(UTC),
                    "user_id": None,
                    "entity": "user",
                    "entity_id": user_id,
                    "permit_id": None,
                    "action": "update",
                    "changes": [
                        {"field": "locked_at", "old": "(set)", "new": None},
                        {"field": "failed_sign_ins", "old": failed, "new": 0},
                    ],
                }
                for user_id, failed in locked
            ],
        )
    op.execute(
        "UPDATE app_user SET locked_at = NULL, failed_sign_ins = 0 WHERE locked_at IS NOT NULL"
    )
    op.create_table(
        T,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(200), nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name=f"pk_{T}"),
        sa.UniqueConstraint("token_hash", name=f"uq_{T}_token_hash"),
        sa.ForeignKeyConstraint(["user_id"], ["app_user.id"], name=f"fk_{T}_user_id_app_user"),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["app_user.id"], name=f"fk_{T}_created_by_id_app_user"
        ),
    )
    op.create_index(f"ix_{T}_user_id", T, ["user_id"])
    if op.get_bind().dialect.name == "postgresql":
        # The row trigger (revision 0013) does not fire on TRUNCATE.
        op.execute(
            "CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event "
            "FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only()"
        )
    else:
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER audit_event_no_{event.lower()} BEFORE {event} ON audit_event "
                "BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_event")
    else:
        for event in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS audit_event_no_{event}")
    op.drop_index(f"ix_{T}_user_id", table_name=T)
    op.drop_table(T)
    with op.batch_alter_table("app_user") as batch:
        batch.drop_column("locked_by_id")
