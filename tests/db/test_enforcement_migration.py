"""Revision 0017 (code enforcement, Hudson 140-3): every row kept, empty tables that take a
case, and back down to 0016."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text

from db.engine import make_engine, sqlite_url
from db.migrate import current_revision, upgrade
from tests.conftest import reset_postgres
from tests.db.test_migrations import FIRST, _columns, _dump, _fill_first_revision

TABLES = (
    "enforcement_case",
    "enforcement_complaint",
    "enforcement_inspection",
    "enforcement_violation",
    "enforcement_violation_check",
    "enforcement_notice",
    "enforcement_notice_item",
    "enforcement_addressee",
    "enforcement_service",
    "enforcement_petition",
    "enforcement_order",
    "enforcement_escalation",
)


def _at_0016_then_0017(engine: Engine) -> None:
    from alembic import command

    from db.migrate import _config

    upgrade(engine, FIRST)
    _fill_first_revision(engine)
    upgrade(engine, "0016")
    columns = _columns(engine)
    before = _dump(engine, columns)
    upgrade(engine, "0017")
    assert current_revision(engine) == "0017"
    assert _dump(engine, columns) == before
    with engine.begin() as conn:
        for table in TABLES:
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
        conn.execute(
            text(
                "INSERT INTO enforcement_case (municipality_id, number, parcel_id, opened_on, "
                "origin, housing_code, summary, close_note) VALUES (1, 'CE-2026-0001', 1, "
                "'2026-03-02', 'observation', 'hudson-140', 'Porch', '')"
            )
        )
        conn.execute(text("DELETE FROM enforcement_case"))
    with engine.connect() as conn, conn.begin():
        cfg = _config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0016")
    assert current_revision(engine) == "0016"
    assert not set(TABLES) & set(inspect(engine).get_table_names())
    assert _dump(engine) == before


def test_revision_0017_adds_code_enforcement_on_sqlite(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "r17.db"))
    _at_0016_then_0017(engine)
    engine.dispose()


@pytest.mark.postgres
def test_revision_0017_adds_code_enforcement_on_postgresql(pg_server_url: str) -> None:
    reset_postgres(pg_server_url)
    engine = make_engine(pg_server_url)
    _at_0016_then_0017(engine)
    engine.dispose()
