"""`permitdesk db restore`: a checked backup goes back in place; the file it replaces is kept."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

import db.engine
import db.restore
from db.database import open_database
from db.engine import make_engine, sqlite_url
from db.migrate import head_revision, upgrade
from desk.clock import FixedClock
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, permits
from permitdesk.cli import main
from tests.cli_sign_in import ready, signed, user_row
from tests.db.test_backup_failures import fill_disk_on_backup
from tests.factories import application, pay_in_full, seed_register

REROOF = QuoteRequest(items=(QuoteItem("RES-OTHER", amount=Decimal("100.00")),))


@dataclass
class Office:
    path: Path
    backup: Path
    receipt: str  # the backup's last receipt number


def _scalar(path: Path, sql: str) -> object:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def _permits(path: Path) -> object:
    return _scalar(path, "SELECT COUNT(*) FROM permit")


def _last_receipt(path: Path) -> object:
    return _scalar(path, "SELECT receipt_number FROM payment ORDER BY id DESC LIMIT 1")


@pytest.fixture
def office(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Office:
    """A register with one paid permit, backed up with `db backup` by the clerk, then a second
    paid permit. Its administrator restores it (`admin`, signed in with signed())."""
    path, backup = tmp_path / "office.db", tmp_path / "saved" / "office-monday.db"
    clock = FixedClock(date(2026, 3, 2))
    database = open_database(sqlite_url(path))
    reg = seed_register(database, clock)
    fees.assess_fees(database.uow(), clock, reg.clerk, reg.permit_id, REROOF)
    pay_in_full(database, clock, reg.clerk, reg.permit_id)
    ready(database, "carol")
    database.close()
    backup.parent.mkdir()
    argv = ["db", "backup", "--db", str(path), "--out", str(backup)]
    assert main([*argv, *signed(monkeypatch, "carol")]) == 0
    receipt = str(_last_receipt(backup))
    database = open_database(sqlite_url(path))
    second = permits.take_application(database.uow(), clock, reg.clerk, application(reg))
    fees.assess_fees(database.uow(), clock, reg.clerk, second, REROOF)
    pay_in_full(database, clock, reg.clerk, second)
    database.close()
    assert _permits(path) == 2 and _last_receipt(path) != receipt
    capsys.readouterr()
    return Office(path, backup, receipt)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("permitdesk: error: ")
    return captured.err


def test_restore_puts_the_backup_back_and_keeps_the_changed_database(
    office: Office, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
    assert main([*argv, *signed(monkeypatch)]) == 0
    out = capsys.readouterr().out
    assert f"(schema revision {head_revision()})" in out
    assert "1 permit(s), 1 receipt(s) and 4 user(s)" in out
    assert f"the last receipt is {office.receipt} of 2026-03-02" in out
    assert _permits(office.path) == 1
    assert _last_receipt(office.path) == office.receipt
    [kept] = office.path.parent.glob("office.before-restore-*.bak.db")
    assert f"The previous database is kept at {kept}." in out
    assert _permits(kept) == 2  # the changed data is not lost
    assert not Path(f"{office.path}-wal").exists()  # no stale pages left beside the file
    assert main(["db", "check", "--db", str(office.path)]) == 0
    assert capsys.readouterr().out == "OK\n"


def test_a_damaged_backup_is_refused_and_the_database_is_untouched(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    damaged = tmp_path / "damaged.db"
    data = bytearray(office.backup.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 3 * 4096] = b"\xa5" * (3 * 4096)
    damaged.write_bytes(bytes(data))
    before = office.path.read_bytes()
    argv = ["db", "restore", "--from", str(damaged), "--db", str(office.path)]
    err = _refused([*argv, *signed(monkeypatch)], capsys)
    assert f"the backup {damaged} is damaged: " in err
    assert office.path.read_bytes() == before
    assert not list(office.path.parent.glob("*.before-restore-*"))


def test_a_text_file_is_refused_as_not_an_sqlite_database(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = tmp_path / "notes.db"
    text.write_text("Permits taken on Monday\n" * 200, "utf-8")
    before = office.path.read_bytes()
    argv = ["db", "restore", "--from", str(text), "--db", str(office.path)]
    err = _refused([*argv, *signed(monkeypatch)], capsys)
    assert f"the backup {text} is not an SQLite database" in err
    assert office.path.read_bytes() == before


def test_another_programs_sqlite_file_is_refused(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(str(other))
    conn.execute("CREATE TABLE recipe (name TEXT)")
    conn.commit()
    conn.close()
    argv = ["db", "restore", "--from", str(other), "--db", str(office.path)]
    err = _refused([*argv, *signed(monkeypatch)], capsys)
    assert f"the backup {other} is not a Permit Desk database: no such table" in err
    assert _permits(office.path) == 2


def test_a_backup_from_a_newer_permit_desk_is_refused(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    newer = tmp_path / "newer.db"
    newer.write_bytes(office.backup.read_bytes())
    conn = sqlite3.connect(str(newer))
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    argv = ["db", "restore", "--from", str(newer), "--db", str(office.path)]
    err = _refused([*argv, *signed(monkeypatch)], capsys)
    assert "is newer than this version of Permit Desk (schema 9999)" in err
    assert _permits(office.path) == 2


def test_a_backup_at_an_older_revision_is_restored_and_upgraded_when_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    old = tmp_path / "old.db"
    engine = make_engine(sqlite_url(old))
    upgrade(engine, "0001")
    user_row(engine)  # no register there yet: the backup's administrator restores it
    engine.dispose()
    target = tmp_path / "new" / "office.db"
    argv = ["db", "restore", "--from", str(old), "--db", str(target)]
    assert main([*argv, *signed(monkeypatch)]) == 0
    out = capsys.readouterr().out
    assert "(schema revision 0001)" in out
    assert "older schema revision" in out and "upgraded" in out
    assert "kept at" not in out  # there was nothing to keep
    assert main(["db", "upgrade", "--db", str(target), *signed(monkeypatch)]) == 0
    assert f"upgraded from revision 0001 to {head_revision()}" in capsys.readouterr().out


def test_a_database_another_program_is_writing_to_is_not_replaced(
    office: Office, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = sqlite3.connect(str(office.path), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
        err = _refused([*argv, *signed(monkeypatch)], capsys)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert f"another program is writing to {office.path}" in err
    assert _permits(office.path) == 2
    assert not list(office.path.parent.glob("*.before-restore-*"))


def test_a_postgresql_database_is_restored_with_pg_restore(
    office: Office, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://clerk:s3cret@db.example/permitdesk"
    err = _refused(["db", "restore", "--from", str(office.backup), "--database-url", url], capsys)
    assert "pg_restore" in err and "pg_dump file that `permitdesk db upgrade` wrote" in err
    assert "s3cret" not in err


def test_changes_still_in_the_wal_are_kept_and_do_not_survive_the_restore(
    office: Office, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A change committed to the -wal but not yet written into the file (checkpoints off and a
    # connection left open, as after a crash).
    other = sqlite3.connect(str(office.path), isolation_level=None)
    other.execute("PRAGMA wal_autocheckpoint=0")
    other.execute("UPDATE permit SET description = 'Only in the WAL'")
    assert Path(f"{office.path}-wal").stat().st_size > 0
    try:
        argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
        assert main([*argv, *signed(monkeypatch)]) == 0
        # Again at once (often the same second): a second kept file.
        assert main([*argv, *signed(monkeypatch)]) == 0
    finally:
        other.close()
    capsys.readouterr()
    kept = sorted(office.path.parent.glob("office.before-restore-*.bak.db"))
    assert len(kept) == 2
    first = min(kept, key=lambda p: p.stat().st_mtime_ns)
    assert _scalar(first, "SELECT COUNT(*) FROM permit WHERE description = 'Only in the WAL'") == 2
    assert _scalar(office.path, "SELECT COUNT(*) FROM permit WHERE description LIKE 'Only%'") == 0
    assert _permits(office.path) == 1
    assert main(["db", "check", "--db", str(office.path)]) == 0


def test_a_database_file_sqlite_cannot_read_is_kept_as_it_is_and_replaced(
    office: Office, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    office.path.write_bytes(b"overwritten by a text editor\n" * 100)
    argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
    assert main([*argv, *signed(monkeypatch)]) == 0  # the backup's administrator
    assert "1 permit(s)" in capsys.readouterr().out
    [kept] = office.path.parent.glob("office.before-restore-*.bak.db")
    assert kept.read_bytes().startswith(b"overwritten by a text editor")
    assert _last_receipt(office.path) == office.receipt


# --- a full disk: exit 3 (the computer), the file named, nothing half-written left --------------


def _full_disk(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    assert main([*argv, *signed(monkeypatch)]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    return captured.err.removeprefix("permitdesk: error: ").rstrip("\n")


def test_a_restore_that_fills_the_disk_is_exit_3_and_leaves_the_database_as_it_was(
    office: Office, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(office.path.resolve())
    fill_disk_on_backup(monkeypatch, db.restore, lambda path: path == target)
    argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
    err = _full_disk(argv, capsys, monkeypatch)
    [kept] = office.path.parent.glob("office.before-restore-*.bak.db")
    assert err == (
        f"No space left on device: {office.path} (the previous database is kept at {kept})"
    )
    # SQLite rolled the half-restored pages back: the database is the changed one, whole.
    assert _permits(office.path) == 2 and _permits(kept) == 2
    monkeypatch.undo()
    assert main(["db", "check", "--db", str(office.path)]) == 0


def test_a_restore_to_a_new_file_that_fills_the_disk_leaves_no_file(
    office: Office,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = tmp_path / "new" / "office.db"
    fill_disk_on_backup(monkeypatch, db.restore, lambda path: path == str(target))
    argv = ["db", "restore", "--from", str(office.backup), "--db", str(target)]
    assert _full_disk(argv, capsys, monkeypatch) == f"No space left on device: {target}"
    # An empty file there would open as a new, empty register.
    assert list(target.parent.iterdir()) == []


def test_a_previous_database_that_cannot_be_kept_for_a_full_disk_stops_the_restore(
    office: Office, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fill_disk_on_backup(monkeypatch, db.engine, lambda path: ".before-restore-" in path)
    argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
    err = _full_disk(argv, capsys, monkeypatch)
    assert err.startswith(
        f"No space left on device: {office.path.parent / 'office.before-restore-'}"
    )
    assert err.endswith(".bak.db (nothing was restored)")
    assert not list(office.path.parent.glob("*.before-restore-*"))
    assert _permits(office.path) == 2


def test_an_unreadable_database_kept_before_a_restore_that_fills_the_disk_is_named(
    office: Office, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    office.path.write_bytes(b"overwritten by a text editor\n" * 100)
    target = str(office.path.resolve())
    fill_disk_on_backup(monkeypatch, db.restore, lambda path: path == target)
    argv = ["db", "restore", "--from", str(office.backup), "--db", str(office.path)]
    err = _full_disk(argv, capsys, monkeypatch)
    [kept] = office.path.parent.glob("office.before-restore-*.bak.db")
    assert err == (
        f"No space left on device: {office.path} (the previous database is kept at {kept})"
    )
    assert kept.read_bytes().startswith(b"overwritten by a text editor")
    assert not office.path.exists()
