"""A report or an export is not made from a damaged SQLite file (db/integrity.py): a page the
file cannot read would drop its rows from the printout without a word. The refusal names the
file and says what to do; a sound register, and PostgreSQL, pass."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from db.database import Database, open_database
from db.engine import DatabaseError, make_engine, sqlite_url
from db.integrity import damage, refuse_damaged
from desk.clock import FixedClock
from tests.factories import seed_register


def test_a_sound_register_passes_on_both_backends(database: Database) -> None:
    # On PostgreSQL the server checks its own pages: damage() asks nothing of it.
    seed_register(database, FixedClock(date(2026, 3, 2)))
    assert damage(database.engine) is None
    refuse_damaged(database.engine)  # raises nothing


def _damaged_copy(tmp_path: Path) -> Path:
    """A register with a few records whose middle pages were overwritten (a failing disk)."""
    path = tmp_path / "office.db"
    database = open_database(sqlite_url(path))
    seed_register(database, FixedClock(date(2026, 3, 2)))
    database.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 3 * 4096] = b"\xa5" * (3 * 4096)
    path.write_bytes(bytes(data))
    return path


def test_a_damaged_file_is_refused_naming_it_and_what_to_do(tmp_path: Path) -> None:
    path = _damaged_copy(tmp_path)
    engine = make_engine(sqlite_url(path))
    try:
        found = damage(engine)
        assert found is not None and found != "ok"
        with pytest.raises(DatabaseError) as e:
            refuse_damaged(engine)
    finally:
        engine.dispose()
    assert str(e.value) == (
        f"the database {path} is damaged ({found}), so no report or export is made from it; "
        "run 'permitdesk db check' and restore a backup"
    )
