"""Migrations: an old database upgrades with every row kept, after a backup; a newer one is
refused; the migrated schema is exactly the schema the code maps."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect, select, text

from db import queries
from db.database import open_database
from db.engine import DatabaseError, make_engine, sqlite_url
from db.migrate import check, current_revision, head_revision, upgrade
from db.schema import metadata
from tests.conftest import PgRegister, reset_postgres, workstation_check

FIRST = "0001"
TABLES_AT_FIRST = (
    "municipality",
    "app_user",
    "parcel",
    "party",
    "credential",
    "permit",
    "permit_party",
    "audit_event",
    "number_counter",
)


def _fill_first_revision(engine: Engine) -> None:
    """Rows as revision 0001 stored them (raw SQL: the mapped classes are at head)."""
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO municipality (id, key, name, letterhead, inspector_name, "
                "inspector_title, state, settings) VALUES (1, 'glendale', 'City of Glendale', "
                "'[\"City of Glendale\"]', 'Dale Kowalski', 'Building Inspector', 'WI', '{}')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO app_user (id, username, full_name, password_hash, roles, active) "
                "VALUES (1, 'admin', 'Alex Administrator', 'x', 'administrator', :t)"
            ),
            {"t": True},
        )
        conn.execute(
            text(
                "INSERT INTO parcel (id, municipality_id, pin, house_number, street, unit, city, "
                "zip, legal_description, zoning_district, lot_area_sqft) VALUES (1, 1, "
                "'047-9991-002', '6120', 'N Port Washington Rd', '', 'Glendale', '53217', "
                "'Lot 12, Block 3, Glen Hills Subdivision', 'R-1', 10890)"
            )
        )
        for pid, name in ((1, "Anna Schmidt"), (2, "Badger State Builders LLC")):
            conn.execute(
                text(
                    "INSERT INTO party (id, kind, name, first_name, last_name, address_line1, "
                    "address_line2, city, state, zip, phone, email) VALUES (:id, 'person', :n, "
                    "'', '', '6120 N Port Washington Rd', '', 'Glendale', 'WI', '53217', "
                    "'(414) 555-0100', '')"
                ),
                {"id": pid, "n": name},
            )
        conn.execute(
            text(
                "INSERT INTO credential (id, party_id, kind, number, issuing_state, expires_on) "
                "VALUES (1, 2, 'dwelling_contractor', 'DC-1102345', 'WI', '2027-06-30')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO permit (id, municipality_id, number, kind, permit_class, work_class, "
                "description, parcel_id, valuation, floor_area_sqft, areas, dwelling_units, "
                "status, applied_on, issued_on, issued_by_id) VALUES (1, 1, '2025-0042', "
                "'RES-NEW-DWELLING', 'residential', 'new', 'New dwelling', 1, 41250000, 2450, "
                "'{\"first\": 1400}', 1, 'issued', '2025-04-01', '2025-04-15', 1)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO permit_party (id, permit_id, party_id, role) VALUES "
                "(1, 1, 1, 'building_owner'), (2, 1, 2, 'contractor')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO audit_event (id, at, user_id, entity, entity_id, permit_id, action, "
                "changes) VALUES (1, '2025-04-14 09:00:00', NULL, 'user', 1, NULL, 'create', "
                '\'[{"field": "roles_text", "old": null, "new": "administrator"}, '
                '{"field": "active", "old": null, "new": "True"}]\'), '
                "(2, '2025-04-15 14:00:00', 1, 'permit', 1, 1, 'update', '[]')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO number_counter (municipality_id, series, year, value) "
                "VALUES (1, 'P', 2025, 42)"
            )
        )


def _dump(
    engine: Engine, columns: dict[str, list[str]] | None = None
) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the first revision's tables, in the columns they had then (later
    revisions may add columns; the old values must not change)."""
    out = {}
    with engine.connect() as conn:
        for table in TABLES_AT_FIRST:
            cols = (columns or {}).get(table) or [
                c["name"] for c in inspect(conn).get_columns(table)
            ]
            rows = conn.execute(text(f"SELECT {', '.join(cols)} FROM {table} ORDER BY 1")).all()
            out[table] = [tuple(r) for r in rows]
    return out


def _columns(engine: Engine) -> dict[str, list[str]]:
    with engine.connect() as conn:
        return {t: [c["name"] for c in inspect(conn).get_columns(t)] for t in TABLES_AT_FIRST}


def test_an_sqlite_database_at_the_first_revision_upgrades_keeping_every_row(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine, FIRST)
    _fill_first_revision(engine)
    before = _dump(engine)
    first_columns = _columns(engine)
    engine.dispose()

    db = open_database(sqlite_url(path))
    assert db.opened.upgraded_from == FIRST
    assert db.opened.backup is not None and db.opened.backup.exists()
    assert "backup" in (db.opened.message or "")
    assert current_revision(db.engine) == head_revision()
    assert _dump(db.engine, first_columns) == before
    # The backup is the old database, still at the first revision.
    old = make_engine(sqlite_url(db.opened.backup))
    assert current_revision(old) == FIRST
    assert _dump(old) == before
    old.dispose()
    # The new search index was built for the permit that was already there.
    with db.read() as conn:
        rows = queries.search_permits(conn, 1, "schmidt")
    assert [(r.number, r.owner, r.contractor) for r in rows] == [
        ("2025-0042", "Anna Schmidt", "Badger State Builders LLC")
    ]
    assert check(db.engine) == []
    db.close()


@pytest.mark.postgres
def test_a_postgresql_database_at_the_first_revision_upgrades_keeping_every_row(
    pg_server_url: str, pg_register: PgRegister
) -> None:
    reset_postgres(pg_server_url)
    engine = make_engine(pg_server_url)
    upgrade(engine, FIRST)
    _fill_first_revision(engine)
    before = _dump(engine)
    first_columns = _columns(engine)
    engine.dispose()
    db = open_database(pg_server_url, upgrade_shared=True)  # as `permitdesk db upgrade` does
    assert db.opened.upgraded_from == FIRST
    assert _dump(db.engine, first_columns) == before
    with db.read() as conn:
        assert queries.count_permits(conn, 1, "2025-0042") == 1
    db.close()
    assert workstation_check(pg_register) == []


def test_a_database_newer_than_the_app_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    open_database(sqlite_url(path)).close()
    engine = make_engine(sqlite_url(path))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(DatabaseError, match="newer than this version of Permit Desk"):
        open_database(sqlite_url(path))


def test_a_file_that_is_not_a_permit_desk_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    engine = make_engine(sqlite_url(path))
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE recipes (id INTEGER)"))
    engine.dispose()
    with pytest.raises(DatabaseError, match="not made by Permit Desk"):
        open_database(sqlite_url(path))


def _schema_diff(engine: Engine) -> list[object]:
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(ctx, metadata))


def test_the_migrated_sqlite_schema_is_the_mapped_schema(tmp_path: Path) -> None:
    db = open_database(sqlite_url(tmp_path / "s.db"))
    assert _schema_diff(db.engine) == []
    db.close()


@pytest.mark.postgres
def test_the_migrated_postgresql_schema_is_the_mapped_schema(pg_server_url: str) -> None:
    reset_postgres(pg_server_url)
    db = open_database(pg_server_url)
    assert _schema_diff(db.engine) == []
    db.close()


def test_sqlite_connections_use_wal_full_sync_and_foreign_keys(tmp_path: Path) -> None:
    db = open_database(sqlite_url(tmp_path / "p.db"))
    with db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(select(text("1"))).scalar() == 1
    db.close()


def test_the_head_constant_names_the_newest_migration() -> None:
    from db.migrate import HEAD

    assert head_revision() == HEAD


def _at_0014_then_head(engine: Engine) -> None:
    """Revision 0015 (street register, §435-8.I): the permits kept, no approval on any of them,
    an empty register that takes a repaving; and back down to 0014."""
    from alembic import command

    from db.migrate import _config

    upgrade(engine, FIRST)
    _fill_first_revision(engine)
    upgrade(engine, "0014")
    columns_0014 = _columns(engine)
    before = _dump(engine, columns_0014)
    upgrade(engine, "0015")
    assert current_revision(engine) == "0015"
    assert _dump(engine, columns_0014) == before  # every row and value kept
    with engine.begin() as conn:
        assert conn.execute(
            text(
                "SELECT number, council_opening_approved_on, council_opening_recorded_by_id "
                "FROM permit"
            )
        ).all() == [("2025-0042", None, None)]
        conn.execute(
            text(
                "INSERT INTO street_repaving (municipality_id, street, from_number, to_number, "
                "repaved_on, by_user_id) VALUES (1, 'N Port Washington Rd', 6000, 6300, "
                "'2023-06-01', 1)"
            )
        )
        assert conn.execute(text("SELECT notes FROM street_repaving")).scalar() == ""
    with engine.connect() as conn:
        sqlite = engine.dialect.name == "sqlite"
        if sqlite:  # batch migrations copy tables: foreign keys off, as db.migrate.upgrade does
            conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        with conn.begin():
            cfg = _config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0014")
        if sqlite:
            conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]
    assert current_revision(engine) == "0014"
    assert "street_repaving" not in inspect(engine).get_table_names()
    assert _columns(engine) == columns_0014
    assert _dump(engine) == before


def test_revision_0015_adds_the_street_register_and_the_councils_approval_on_sqlite(
    tmp_path: Path,
) -> None:
    engine = make_engine(sqlite_url(tmp_path / "r15.db"))
    _at_0014_then_head(engine)
    engine.dispose()


@pytest.mark.postgres
def test_revision_0015_adds_the_street_register_and_the_councils_approval_on_postgresql(
    pg_server_url: str,
) -> None:
    reset_postgres(pg_server_url)
    engine = make_engine(pg_server_url)
    _at_0014_then_head(engine)
    engine.dispose()


def _at_0015_then_head(engine: Engine) -> None:
    """Revision 0016 (an issued permit's checklist reopened with a reason, 15.1.7(b)): every row
    kept, no reopening on any permit, a table that takes one; and back down to 0015."""
    from alembic import command

    from db.migrate import _config

    upgrade(engine, FIRST)
    _fill_first_revision(engine)
    upgrade(engine, "0015")
    columns_0015 = _columns(engine)
    before = _dump(engine, columns_0015)
    upgrade(engine, "0016")
    assert current_revision(engine) == "0016"
    assert _dump(engine, columns_0015) == before  # every row and value kept
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM permit_checklist_reopening")).scalar() == 0
        permit_id = conn.execute(text("SELECT id FROM permit")).scalar_one()
        conn.execute(
            text(
                "INSERT INTO permit_checklist_reopening (permit_id, reason, by_user_id) "
                "VALUES (:p, 'Survey copy replaced', 1)"
            ),
            {"p": permit_id},
        )
        conn.execute(text("DELETE FROM permit_checklist_reopening"))
    with engine.connect() as conn, conn.begin():
        cfg = _config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0015")
    assert current_revision(engine) == "0015"
    assert "permit_checklist_reopening" not in inspect(engine).get_table_names()
    assert _columns(engine) == columns_0015
    assert _dump(engine) == before


def test_revision_0016_adds_the_checklist_reopenings_on_sqlite(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "r16.db"))
    _at_0015_then_head(engine)
    engine.dispose()


@pytest.mark.postgres
def test_revision_0016_adds_the_checklist_reopenings_on_postgresql(pg_server_url: str) -> None:
    reset_postgres(pg_server_url)
    engine = make_engine(pg_server_url)
    _at_0015_then_head(engine)
    engine.dispose()


def test_revision_0023_lifts_the_locks_wrong_passwords_left_with_an_audit_row_each(
    tmp_path: Path,
) -> None:
    """Wrong passwords no longer lock an account: a register upgraded with an account they had
    locked opens it, and says so in the audit trail, so the register agrees with its journal."""
    from datetime import UTC, datetime

    from db import audit_chain
    from db.journal_check import journal_problems

    engine = make_engine(sqlite_url(tmp_path / "locked.db"))
    upgrade(engine, "0022")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO app_user (id, username, full_name, password_hash, roles, active, "
                "failed_sign_ins, locked_at) VALUES (1, 'admin', 'Alex Administrator', 'x', "
                "'administrator', :t, 10, '2026-11-30 15:00:00')"
            ),
            {"t": True},
        )
        audit_chain.append(
            conn,
            [
                {
                    "at": datetime(2026, 11, 1, tzinfo=UTC),
                    "user_id": None,
                    "entity": "user",
                    "entity_id": 1,
                    "permit_id": None,
                    "action": "create",
                    "changes": [
                        {"field": "roles_text", "old": None, "new": "administrator"},
                        {"field": "active", "old": None, "new": "True"},
                    ],
                },
                {
                    "at": datetime(2026, 11, 30, 15, tzinfo=UTC),
                    "user_id": None,
                    "entity": "user",
                    "entity_id": 1,
                    "permit_id": None,
                    "action": "update",
                    "changes": [{"field": "locked_at", "old": None, "new": "2026-11-30"}],
                },
            ],
        )
    upgrade(engine)
    with engine.connect() as conn:
        locked, failed = conn.execute(
            text("SELECT locked_at, failed_sign_ins FROM app_user WHERE id = 1")
        ).one()
        last = conn.execute(
            text("SELECT action, changes FROM audit_event ORDER BY id DESC LIMIT 1")
        ).one()
        assert (locked, failed) == (None, 0)
        assert last.action == "update" and '"locked_at"' in str(last.changes)
        assert journal_problems(conn) == []
    assert check(engine) == []
    engine.dispose()
