"""A register checked before a report or an export is made from it: a page the file cannot
read would otherwise drop its rows from the printout without a word."""

from __future__ import annotations

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from db.engine import DatabaseError, describe, is_sqlite


def damage(engine: Engine) -> str | None:
    """What SQLite's quick check finds wrong with the file, in its words; None when sound (and
    always on PostgreSQL, whose server checks its own pages)."""
    if not is_sqlite(engine):
        return None
    try:
        with engine.connect() as conn:
            found = [str(r[0]) for r in conn.execute(text("PRAGMA quick_check(5)"))]
    except DBAPIError as e:
        return str(getattr(e, "orig", None) or e).splitlines()[0]
    return None if found == ["ok"] else "; ".join(found)


def refuse_damaged(engine: Engine) -> None:
    """Raise DatabaseError, naming the file and what is wrong, when the file is damaged."""
    found = damage(engine)
    if found is not None:
        raise DatabaseError(
            f"the database {describe(engine)} is damaged ({found}), so no report or export is "
            "made from it; run 'permitdesk db check' and restore a backup"
        )
