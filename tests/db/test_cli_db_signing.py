"""`permitdesk db` and who may run it: a backup is taken by a user who signed in and leaves its
audit trail anchor beside it (and in the office's anchors file); `db check --anchors` finds rows
deleted from the trail after an anchor; only an administrator upgrades or restores the register,
checked against the register as it is (or the backup, when the register cannot be read).
`db check`, `db init` and `db use` need no sign-in."""

from __future__ import annotations

import io
import sqlite3
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import Engine

from db.audit_anchors import Anchor, append_anchor, head, parse_anchor
from db.database import Database, open_database
from db.engine import is_sqlite, make_engine, sqlite_url
from db.migrate import current_revision, head_revision, upgrade
from desk.clock import FixedClock
from desk.services import permits, users
from permitdesk.cli import main
from permitdesk.signing import NOT_SIGNED_IN
from tests.cli_sign_in import PASSWORD, ready, signed, user_row
from tests.db.tampering import tamper
from tests.factories import Register, application, seed_register

CLOCK = FixedClock(date(2026, 3, 2))
NEW_PASSWORD = "Snow-day-closing-9"


# --- this module's own helpers -------------------------------------------------------------


def _seeded(path: Path) -> Register:
    """A register with its staff; the clerk carol changed her first password already."""
    database = open_database(sqlite_url(path))
    try:
        reg = seed_register(database, CLOCK)
        ready(database, "carol")
    finally:
        database.close()
    return reg


def _office(path: Path) -> Path:
    _seeded(path)
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _no_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input empty (a scheduled task's): no password there."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def _file_head(path: Path) -> Anchor:
    engine = make_engine(sqlite_url(path))
    try:
        with engine.connect() as conn:
            return head(conn)
    finally:
        engine.dispose()


def _last_audit_id(path: Path) -> int:
    conn = sqlite3.connect(str(path))
    try:
        return int(conn.execute("SELECT MAX(id) FROM audit_event").fetchone()[0])
    finally:
        conn.close()


def _same_row(anchor: Anchor, other: Anchor) -> bool:
    return (anchor.row_id, anchor.row_hash, anchor.count) == (
        other.row_id,
        other.row_hash,
        other.count,
    )


# --- db backup --------------------------------------------------------------------------------


def test_a_backup_without_signing_in_is_refused_and_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _office(tmp_path / "office.db")
    out = tmp_path / "office-monday.db"
    _no_stdin(monkeypatch)
    code, printed, err = _run(["db", "backup", "--db", str(path), "--out", str(out)], capsys)
    assert (code, printed) == (2, "")
    assert err == f"permitdesk: error: {NOT_SIGNED_IN}\n"
    # A wrong password is no sign-in either.
    argv = ["db", "backup", "--db", str(path), "--out", str(out)]
    code, printed, err = _run([*argv, *signed(monkeypatch, "carol", password="guess")], capsys)
    assert (code, printed) == (2, "")
    assert err == f"permitdesk: error: {users.WRONG}\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("office-")) == []


def test_a_clerks_backup_writes_the_copy_and_its_anchor_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _office(tmp_path / "office.db")
    out = tmp_path / "office-monday.db"
    argv = ["db", "backup", "--db", str(path), "--out", str(out)]
    code, printed, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert code == 0, err
    anchor_file = tmp_path / "office-monday.db.anchor"
    [line] = anchor_file.read_text("ascii").splitlines()
    assert printed.splitlines() == [
        f"Backed up {path} to {out}",
        f"Its audit trail anchor is in {anchor_file}: {line}",
    ]
    # The anchor names the copy's own last audit row, with its hash and the rows up to it.
    anchor, copy = parse_anchor(line), _file_head(out)
    assert anchor.row_id == copy.row_id == _last_audit_id(out)
    assert anchor.row_hash == copy.row_hash and len(anchor.row_hash) == 64
    assert anchor.count == copy.count
    assert main(["db", "check", "--db", str(out), "--anchors", str(anchor_file)]) == 0
    assert capsys.readouterr().out == "OK\n"


def test_each_backup_appends_its_anchor_to_the_anchors_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _office(tmp_path / "office.db")
    anchors = tmp_path / "Audit anchors.txt"
    taken = []
    for day in ("monday", "tuesday"):
        out = tmp_path / f"office-{day}.db"
        argv = ["db", "backup", "--db", str(path), "--out", str(out), "--anchors", str(anchors)]
        code, _, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
        assert code == 0, err
        taken.append((tmp_path / f"office-{day}.db.anchor").read_text("ascii").strip())
        if day == "monday":
            assert anchors.read_text("ascii") == f"{taken[0]}\n"
    # Monday's line is kept as it was; Tuesday's follows it and saw more of the trail (at
    # least Tuesday's sign-in).
    assert anchors.read_text("ascii").splitlines() == taken
    monday, tuesday = (parse_anchor(x) for x in taken)
    assert tuesday.row_id > monday.row_id and tuesday.count > monday.count
    assert _same_row(tuesday, _file_head(tmp_path / "office-tuesday.db"))


# --- db check --anchors ---------------------------------------------------------------------


def test_db_check_finds_the_rows_deleted_from_the_end_after_a_backups_anchor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _office(tmp_path / "office.db")
    anchors = tmp_path / "Audit anchors.txt"
    out = tmp_path / "office-monday.db"
    argv = ["db", "backup", "--db", str(path), "--out", str(out), "--anchors", str(anchors)]
    assert main([*argv, *signed(monkeypatch, "carol")]) == 0
    capsys.readouterr()
    anchor = parse_anchor(anchors.read_text("ascii"))
    check = ["db", "check", "--db", str(path), "--anchors", str(anchors)]
    assert _run(check, capsys) == (0, "OK\n", "")

    # Someone with the file deletes the trail's last rows, the append-only triggers dropped
    # first: what is left still chains, only the anchor kept elsewhere shows the loss.
    conn = sqlite3.connect(str(path))
    conn.execute("DROP TRIGGER audit_event_no_update")
    conn.execute("DROP TRIGGER audit_event_no_delete")
    conn.execute("DELETE FROM audit_event WHERE id >= ?", (anchor.row_id - 1,))
    conn.commit()
    conn.close()
    code, printed, err = _run(check, capsys)
    assert (code, err) == (1, "")
    assert (
        f"the audit trail ends at row {anchor.row_id - 2} but {anchor.when} saw row "
        f"{anchor.row_id}: rows were deleted from its end"
    ) in printed.splitlines()
    # The backup's own .anchor file tells the same.
    code, printed, _ = _run([*check[:-1], str(out) + ".anchor"], capsys)
    assert code == 1 and f"saw row {anchor.row_id}: rows were deleted" in printed


def _url_of(database: Database) -> list[str]:
    """The database option of the `database` fixture's register, as a workstation opens it."""
    if is_sqlite(database.engine):
        return ["--db", str(database.engine.url.database)]
    return ["--database-url", database.engine.url.render_as_string(hide_password=False)]


def test_db_check_compares_the_trail_with_the_office_anchors_on_each_backend(
    database: Database,
    owner_engine: Engine,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed_register(database, CLOCK)
    anchors = tmp_path / "Audit anchors.txt"
    with database.engine.connect() as conn:
        anchor = head(conn, CLOCK)  # as the daily close writes it
    append_anchor(anchors, anchor)
    check = ["db", "check", *_url_of(database), "--anchors", str(anchors)]
    assert _run(check, capsys) == (0, "OK\n", "")
    # The owner deletes the anchor's row and the one before it, and computes nothing again.
    tamper(owner_engine, f"DELETE FROM audit_event WHERE id >= {anchor.row_id - 1}")
    code, printed, err = _run(check, capsys)
    assert (code, err) == (1, "")
    assert (
        f"the audit trail ends at row {anchor.row_id - 2} but {anchor.when} saw row "
        f"{anchor.row_id}: rows were deleted from its end"
    ) in printed.splitlines()


def test_db_check_and_db_init_need_no_sign_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_stdin(monkeypatch)
    path = tmp_path / "new.db"
    assert _run(["db", "init", "--db", str(path)], capsys)[0] == 0
    assert _run(["db", "check", "--db", str(path)], capsys) == (0, "OK\n", "")


# --- db upgrade ---------------------------------------------------------------------------------


def test_only_an_administrator_upgrades_an_older_register(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine, "0001")
    user_row(engine, "admin")
    user_row(engine, "carol", roles="clerk")
    engine.dispose()
    argv = ["db", "upgrade", "--db", str(path)]

    _no_stdin(monkeypatch)
    code, printed, err = _run(argv, capsys)
    assert (code, printed) == (2, "")
    assert err == (
        "permitdesk: error: only an administrator may upgrade the register: give --user U "
        "(the password is read from standard input)\n"
    )
    code, printed, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert (code, printed) == (2, "")
    assert err == (
        "permitdesk: error: You are signed in as carol; only a user with the role "
        "administrator may upgrade the register.\n"
    )
    code, printed, err = _run([*argv, *signed(monkeypatch, "admin", password="guess")], capsys)
    assert (code, err) == (2, f"permitdesk: error: {users.WRONG}\n")
    # Refused: nothing was backed up, nothing upgraded.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db"]
    assert _revision(path) == "0001"

    code, printed, err = _run([*argv, *signed(monkeypatch, "admin")], capsys)
    assert code == 0, err
    assert f"upgraded from revision 0001 to {head_revision()}" in printed
    assert _revision(path) == head_revision()


def _revision(path: Path) -> str | None:
    engine = make_engine(sqlite_url(path))
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def test_db_upgrade_asks_for_an_administrator_on_each_backend(
    database: Database,
    owner_engine: Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed_register(database, CLOCK)
    ready(database, "carol")
    if is_sqlite(database.engine):
        where = ["--db", str(database.engine.url.database)]
    else:  # the owner upgrades a shared register
        where = ["--database-url", owner_engine.url.render_as_string(hide_password=False)]
    argv = ["db", "upgrade", *where]
    _no_stdin(monkeypatch)
    code, _, err = _run(argv, capsys)
    assert code == 2 and "only an administrator may upgrade the register: give --user U" in err
    code, _, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert code == 2
    assert "only a user with the role administrator may upgrade the register." in err
    code, printed, err = _run([*argv, *signed(monkeypatch, "admin")], capsys)
    assert code == 0, err
    assert "up to date" in printed


# --- db restore -------------------------------------------------------------------------------


@pytest.fixture
def backed_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(the register, Monday's backup of it); a second permit taken after the backup."""
    path = tmp_path / "office.db"
    reg = _seeded(path)
    backup = tmp_path / "saved" / "office-monday.db"
    backup.parent.mkdir()
    argv = ["db", "backup", "--db", str(path), "--out", str(backup)]
    assert main([*argv, *signed(monkeypatch, "carol")]) == 0
    database = open_database(sqlite_url(path))
    try:
        permits.take_application(database.uow(), CLOCK, reg.clerk, application(reg))
    finally:
        database.close()
    return path, backup


def _permits(path: Path) -> int:
    conn = sqlite3.connect(str(path))
    try:
        return int(conn.execute("SELECT COUNT(*) FROM permit").fetchone()[0])
    finally:
        conn.close()


def test_an_administrator_restores_a_backup(
    backed_up: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, backup = backed_up
    argv = ["db", "restore", "--from", str(backup), "--db", str(path)]
    code, printed, err = _run([*argv, *signed(monkeypatch, "admin")], capsys)
    assert code == 0, err
    assert "1 permit(s)" in printed
    assert _permits(path) == 1
    [kept] = path.parent.glob("office.before-restore-*.bak.db")
    assert _permits(kept) == 2


def test_a_restore_without_an_administrator_leaves_the_register_untouched(
    backed_up: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, backup = backed_up
    before = path.read_bytes()
    argv = ["db", "restore", "--from", str(backup), "--db", str(path)]
    _no_stdin(monkeypatch)
    code, printed, err = _run(argv, capsys)
    assert (code, printed) == (2, "")
    assert err == (
        "permitdesk: error: only an administrator may restore the register: give --user U "
        "(the password is read from standard input)\n"
    )
    code, printed, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert (code, printed) == (2, "")
    assert err == (
        "permitdesk: error: You are signed in as carol; only a user with the role "
        "administrator may restore the register.\n"
    )
    assert path.read_bytes() == before
    assert not list(path.parent.glob("*.before-restore-*"))


def test_a_register_damaged_in_its_middle_is_restored_by_its_administrator(
    backed_up: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, backup = backed_up
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 3 * 4096] = b"\xa5" * (3 * 4096)
    path.write_bytes(bytes(data))
    code, printed, _ = _run(["db", "check", "--db", str(path)], capsys)
    assert code == 1 and printed != "OK\n"
    argv = ["db", "restore", "--from", str(backup), "--db", str(path)]
    code, _, err = _run([*argv, *signed(monkeypatch, "admin")], capsys)
    assert code == 0, err
    assert _permits(path) == 1
    assert main(["db", "check", "--db", str(path)]) == 0


def _page_of(path: Path, table: str) -> tuple[int, int]:
    """Where the table's first page starts in the file, and the page size."""
    conn = sqlite3.connect(str(path))
    try:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        page = int(root.fetchone()[0])
        size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        return (page - 1) * size, size
    finally:
        conn.close()


def test_when_the_register_cannot_be_read_the_backups_administrator_restores_it(
    backed_up: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, backup = backed_up
    # After Monday's backup the administrator changed the password in the register.
    database = open_database(sqlite_url(path))
    try:
        admin = users.authenticate(database.uow(), "admin", PASSWORD)
        users.change_own_password(database.uow(), CLOCK, admin, PASSWORD, NEW_PASSWORD)
    finally:
        database.close()
    argv = ["db", "restore", "--from", str(backup), "--db", str(path)]
    # While the register can be read, its own administrators decide: Monday's password is old.
    code, _, err = _run([*argv, *signed(monkeypatch, "admin")], capsys)
    assert (code, err) == (2, f"permitdesk: error: {users.WRONG}\n")
    assert _permits(path) == 2

    # The page holding the users is overwritten: the register's users cannot be read.
    start, size = _page_of(path, "app_user")
    data = bytearray(path.read_bytes())
    data[start : start + size] = b"\xa5" * size
    path.write_bytes(bytes(data))
    code, _, err = _run([*argv, *signed(monkeypatch, "admin", password=NEW_PASSWORD)], capsys)
    assert (code, err) == (2, f"permitdesk: error: {users.WRONG}\n")  # not the backup's
    code, _, err = _run([*argv, *signed(monkeypatch, "admin")], capsys)
    assert code == 0, err
    assert _permits(path) == 1
    [kept] = path.parent.glob("office.before-restore-*.bak.db")
    assert kept.read_bytes()[start : start + size] == b"\xa5" * size  # kept, damage and all
