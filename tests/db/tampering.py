"""Changing the register past the application, as a person who can write the database would:
the SQLite file's owner, or PostgreSQL's owner of the register (the `owner_engine` fixture). The
audit trail's append-only triggers are put out of the way first, as such a person would."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select, text

from db import schema
from db.audit_chain import row_hash


def tamper(engine: Engine, *statements: str | tuple[str, dict[str, Any]]) -> None:
    """Run the statements in one transaction, the audit trail's triggers dropped (SQLite) or
    disabled (PostgreSQL, as the tables' owner) for it."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as conn:
        if sqlite:
            for name in ("audit_event_no_update", "audit_event_no_delete"):
                conn.execute(text(f"DROP TRIGGER IF EXISTS {name}"))
        else:
            conn.execute(text("ALTER TABLE audit_event DISABLE TRIGGER USER"))
        for statement in statements:
            sql, params = statement if isinstance(statement, tuple) else (statement, {})
            conn.execute(text(sql), params)
        if not sqlite:
            conn.execute(text("ALTER TABLE audit_event ENABLE TRIGGER USER"))


def rechain(engine: Engine) -> int:
    """Compute every audit row's hash again, from the first: the chain follows once more after a
    row was changed or removed. Returns how many rows."""
    a = schema.audit_event
    with engine.connect() as conn:
        rows = conn.execute(select(a).order_by(a.c.id)).all()
    previous, updates = "", []
    for row in rows:
        previous = row_hash(previous, row)
        updates.append(
            ("UPDATE audit_event SET row_hash = :h WHERE id = :id", {"h": previous, "id": row.id})
        )
    tamper(engine, *updates)
    return len(updates)
