"""The audit trail is tamper-evident (each row's hash chains onto the row before it), append-only
(triggers on both backends), and `db check` names what is wrong: a changed row, a gap in a
numbered series. What the chain alone cannot see (a trail cut short or chained again) is for the
anchors: tests/db/test_audit_anchors.py."""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import openpyxl
import pytest
from sqlalchemy import Engine, select, text
from sqlalchemy.exc import DBAPIError

from db import schema
from db.audit_chain import breaks, row_hash
from db.database import Database, open_database
from db.engine import make_engine, sqlite_url
from db.migrate import check, upgrade
from desk.clock import FixedClock
from desk.services import permits
from permitdesk.cli import main
from tests.cli_sign_in import signed
from tests.db.tampering import tamper
from tests.factories import Register, application, seed_register


def _audit_problems(database: Database) -> list[str]:
    return [p for p in check(database.engine) if p.startswith("audit trail")]


def _a_few_changes(database: Database, clock: FixedClock) -> tuple[Register, int]:
    reg = seed_register(database, clock)
    other = permits.take_application(database.uow(), clock, reg.clerk, application(reg))
    permits.update_description(database.uow(), clock, reg.clerk, reg.permit_id, "Deck, 12x16")
    return reg, other


def test_services_leave_an_unbroken_chain_and_check_finds_nothing(
    database: Database, clock: FixedClock
) -> None:
    _a_few_changes(database, clock)
    with database.engine.connect() as conn:
        hashes = conn.scalars(select(schema.audit_event.c.row_hash)).all()
    assert len(hashes) > 10 and all(h is not None and len(h) == 64 for h in hashes)
    assert check(database.engine) == []


def test_a_row_changed_with_raw_sql_is_named_by_db_check(
    database: Database, owner_engine: Engine, clock: FixedClock
) -> None:
    """By whoever can put the append-only triggers out of the way (the file's or the
    database's owner): the chain no longer follows."""
    permit_id = _a_few_changes(database, clock)[0].permit_id
    a = schema.audit_event.c
    with database.engine.connect() as conn:
        row_id = conn.scalars(
            select(a.id).where(a.entity == "permit", a.entity_id == permit_id).order_by(a.id)
        ).first()
    tamper(owner_engine, ("UPDATE audit_event SET changes = '[]' WHERE id = :id", {"id": row_id}))
    assert _audit_problems(database) == [
        f"audit trail: row {row_id} was changed or removed after it was written "
        "(its hash does not follow from the row before)"
    ]


def test_sqlite_refuses_to_update_or_delete_an_audit_row(
    database: Database, clock: FixedClock
) -> None:
    """Revision 0023's triggers: a person with the file can drop them (tests/db/tampering.py),
    which the anchors and the journal check are for; a slip in a database tool cannot."""
    if database.engine.dialect.name != "sqlite":
        pytest.skip("the SQLite triggers")
    _a_few_changes(database, clock)
    for sql in (
        "UPDATE audit_event SET changes = '[]' WHERE id = (SELECT MIN(id) FROM audit_event)",
        "DELETE FROM audit_event WHERE id = (SELECT MAX(id) FROM audit_event)",
    ):
        with (
            pytest.raises(DBAPIError, match="the audit trail is append-only"),
            database.engine.begin() as conn,
        ):
            conn.execute(text(sql))
    assert _audit_problems(database) == []


def test_postgresql_refuses_to_update_or_delete_an_audit_row(
    database: Database, owner_engine: Engine, clock: FixedClock
) -> None:
    if database.engine.dialect.name != "postgresql":
        pytest.skip("the append-only trigger is PostgreSQL's")
    _a_few_changes(database, clock)
    for sql in (
        "UPDATE audit_event SET changes = '[]' WHERE id = (SELECT MIN(id) FROM audit_event)",
        "DELETE FROM audit_event WHERE id = (SELECT MAX(id) FROM audit_event)",
    ):
        # Even the owner, who may: the workstations' role may not try (test_pg_roles.py).
        with (
            pytest.raises(DBAPIError, match="the audit trail is append-only"),
            owner_engine.begin() as conn,
        ):
            conn.execute(text(sql))
    assert _audit_problems(database) == []


def test_two_clerks_saving_at_once_still_leave_an_unbroken_chain(
    database: Database, clock: FixedClock
) -> None:
    if database.engine.dialect.name != "postgresql":
        pytest.skip("concurrent writers: PostgreSQL (SQLite has one writer at a time)")
    reg, second = _a_few_changes(database, clock)
    first, clerk = reg.permit_id, reg.clerk
    errors: list[BaseException] = []
    for trial in range(10):
        barrier = threading.Barrier(2)

        def save(permit_id: int, trial: int = trial, barrier: threading.Barrier = barrier) -> None:
            try:
                barrier.wait(timeout=10)
                permits.update_description(
                    database.uow(), clock, clerk, permit_id, f"Trial {trial} of {permit_id}"
                )
            except BaseException as e:  # reported by the assertion below
                errors.append(e)

        threads = [threading.Thread(target=save, args=(p,)) for p in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    with database.engine.connect() as conn:
        assert list(breaks(conn)) == []
        saved = conn.scalar(
            text("SELECT COUNT(*) FROM audit_event WHERE changes::text LIKE '%Trial %'")
        )
    assert saved == 20


def test_a_gap_in_the_permit_numbers_is_reported(database: Database, clock: FixedClock) -> None:
    reg, second = _a_few_changes(database, clock)
    first = reg.permit_id
    with database.engine.begin() as conn:
        for permit_id, number in ((first, "2026-0001"), (second, "2026-0002")):
            conn.execute(
                text("UPDATE permit SET number = :n WHERE id = :id"), {"n": number, "id": permit_id}
            )
    assert check(database.engine) == []
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE permit SET number = '2026-0003' WHERE id = :id"), {"id": second})
    problems = check(database.engine)
    muni = problems[0].split(":")[0]
    assert f"{muni}: permit number missing: 2026-0002" in problems


def test_the_export_has_the_periods_rows_with_who_made_them(
    database: Database, clock: FixedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    permit_id = _a_few_changes(database, clock)[0].permit_id
    out = tmp_path / "audit.xlsx"
    url = database.engine.url.render_as_string(hide_password=False)
    day = clock.today().isoformat()
    assert (
        main(
            [
                "audit",
                "export",
                "--from",
                day,
                "--to",
                day,
                "--xlsx",
                str(out),
                "--database-url",
                url,
                *signed(monkeypatch),  # an administrator
            ]
        )
        == 0
    )
    with database.engine.connect() as conn:
        every = conn.execute(select(schema.audit_event).order_by(schema.audit_event.c.id)).all()
    # The period's rows: not the administrator's sign-in for the export, made today.
    written = [w for w in every if w.at.date() == clock.today()]
    assert {w.entity for w in every[len(written) :]} == {"sign_in", "user"}
    ws = openpyxl.load_workbook(out).active
    assert ws is not None
    header = next(r for r in range(1, 10) if ws.cell(r, 1).value == "When (UTC)")
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=header + 1)]
    assert len(rows) == len(written)
    description = next(
        r for r in rows if r[2] == "permit" and r[3] == permit_id and r[5] == "update"
    )
    assert description[1] == "carol"
    assert "description: New 2-story single-family dwelling → Deck, 12x16" in description[6]
    assert [r[7] for r in rows] == [w.row_hash for w in written]
    next_day = date.fromordinal(clock.today().toordinal() + 1).isoformat()
    assert (
        main(
            [
                "audit",
                "export",
                "--from",
                next_day,
                "--to",
                next_day,
                "--xlsx",
                str(out),
                "--database-url",
                url,
                *signed(monkeypatch),  # an administrator
            ]
        )
        == 0
    )
    again = openpyxl.load_workbook(out).active
    assert again is not None and again.cell(header + 1, 1).value is None


def test_the_upgrade_hashes_the_rows_written_before_it_in_id_order(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "old.db"))
    upgrade(engine, "0012")
    with engine.begin() as conn:
        for row_id, day in ((1, "2025-04-15"), (2, "2025-04-16")):
            conn.execute(
                text(
                    "INSERT INTO audit_event (id, at, entity, entity_id, action, changes) "
                    "VALUES (:id, :at, 'permit', 1, 'update', '[]')"
                ),
                {"id": row_id, "at": f"{day} 14:00:00"},
            )
    upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(select(schema.audit_event).order_by(schema.audit_event.c.id)).all()
        assert list(breaks(conn)) == []
    assert rows[0].row_hash == row_hash("", rows[0])
    assert rows[1].row_hash == row_hash(rows[0].row_hash, rows[1])
    engine.dispose()


def test_db_check_reports_a_damaged_file_in_words_not_a_traceback(
    tmp_path: Path, clock: FixedClock, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "damaged.db"
    database = open_database(sqlite_url(path))
    _a_few_changes(database, clock)
    database.close()
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(size // 2)
        f.write(b"\xff" * 8192)
    assert main(["db", "check", "--db", str(path)]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert any(
        line.startswith(("integrity:", "the database cannot be read"))
        for line in out.out.splitlines()
    )
