"""Opening is not creating, and a shared register is upgraded only by an administrator: an empty
file or database is no register to the commands, `db init` makes one, and `db upgrade` backs a
PostgreSQL database up with pg_dump before it upgrades it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from db.database import open_database
from db.engine import DatabaseError, make_engine, sqlite_url
from db.migrate import current_revision, head_revision, upgrade
from permitdesk.cli import main
from tests.cli_sign_in import signed, user_row
from tests.conftest import reset_postgres

OLD = "0001"

# Commands that read or change a register, never create one (the database option is added).
COMMANDS = (
    ["db", "check"],
    ["db", "backup"],
    ["db", "upgrade"],
    ["db", "use"],
    ["lifecycle", "due"],
    ["lifecycle", "sweep"],
    ["report", "daily-cash", "--date", "2026-03-02"],
    ["report", "monthly", "--month", "2026-02", "--xlsx", "m.xlsx"],
    ["export", "blds", "--out", "blds"],
    ["users", "list"],
)


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.fixture
def no_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`db use` writes the user's settings: keep them in the test's folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_zero_byte_file_is_no_register_to_any_command(
    command: list[str],
    tmp_path: Path,
    no_settings: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    assert main([*command, "--db", str(path)]) == 2
    assert "there is no Permit Desk register at" in _one_error_line(capsys)
    assert path.stat().st_size == 0


def test_fees_quote_with_a_zero_byte_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    monkeypatch.setattr("sys.stdin.read", lambda: '{"items": [{"code": "RES-STATE-SEAL"}]}')
    assert main(["fees", "quote", "--municipality", "glendale", "--db", str(path)]) == 2
    assert "there is no Permit Desk register at" in _one_error_line(capsys)
    assert path.stat().st_size == 0


def test_db_use_of_a_file_that_does_not_exist_creates_nothing(
    tmp_path: Path, no_settings: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    assert main(["db", "use", "--db", str(path)]) == 2
    assert "db init" in _one_error_line(capsys)
    assert not path.exists()


def test_db_init_creates_a_register_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    assert main(["db", "init", "--db", str(path)]) == 0
    assert capsys.readouterr().out.startswith("Created a new Permit Desk register at")
    assert current_revision(make_engine(sqlite_url(path))) == head_revision()
    assert main(["db", "check", "--db", str(path)]) == 0
    capsys.readouterr()
    assert main(["db", "init", "--db", str(path)]) == 2
    assert "is a Permit Desk register already" in _one_error_line(capsys)


def test_db_init_needs_a_database_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "init"]) == 2
    assert "--db" in _one_error_line(capsys)


def test_open_database_without_create_refuses_a_missing_or_empty_file(tmp_path: Path) -> None:
    for path in (tmp_path / "absent.db", tmp_path / "empty.db"):
        if path.name == "empty.db":
            path.touch()
        with pytest.raises(DatabaseError, match="no Permit Desk register"):
            open_database(sqlite_url(path), create=False)
    assert not (tmp_path / "absent.db").exists()
    assert (tmp_path / "empty.db").stat().st_size == 0


def test_an_sqlite_file_at_an_older_revision_still_upgrades_itself_on_opening(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine, OLD)
    engine.dispose()
    db = open_database(sqlite_url(path), create=False)
    assert db.opened.upgraded_from == OLD
    assert db.opened.backup is not None and db.opened.backup.exists()
    db.close()


# --- PostgreSQL --------------------------------------------------------------------------------


def _tables(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        return inspect(engine).get_table_names()
    finally:
        engine.dispose()


def _revision(url: str) -> str | None:
    engine = make_engine(url)
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def _old_register(url: str) -> None:
    reset_postgres(url)
    engine = make_engine(url)
    upgrade(engine, OLD)
    engine.dispose()


def _administrator(url: str) -> None:
    """The old register's administrator ("admin"), who upgrades it."""
    engine = make_engine(url)
    try:
        user_row(engine)
    finally:
        engine.dispose()


@pytest.mark.postgres
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_an_empty_postgresql_database_is_no_register_to_any_command(
    command: list[str],
    pg_server_url: str,
    no_settings: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reset_postgres(pg_server_url)
    assert main([*command, "--database-url", pg_server_url]) == 2
    assert "there is no Permit Desk register at" in _one_error_line(capsys)
    assert _tables(pg_server_url) == []


@pytest.mark.postgres
def test_db_init_makes_an_empty_postgresql_database_a_register(
    pg_server_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    reset_postgres(pg_server_url)
    assert main(["db", "init", "--database-url", pg_server_url]) == 0
    assert "Created a new Permit Desk register" in capsys.readouterr().out
    assert _revision(pg_server_url) == head_revision()


@pytest.mark.postgres
@pytest.mark.parametrize(
    "command",
    (["lifecycle", "due"], ["users", "list"], ["report", "daily-cash", "--date", "2026-03-02"]),
    ids=lambda c: " ".join(c[:2]),
)
def test_a_workstation_does_not_upgrade_an_older_postgresql_database(
    command: list[str], pg_server_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _old_register(pg_server_url)
    assert main([*command, "--database-url", pg_server_url]) == 2
    line = _one_error_line(capsys)
    assert f"at schema revision {OLD}" in line
    assert "an administrator runs 'permitdesk db upgrade'" in line
    assert _revision(pg_server_url) == OLD


@pytest.mark.postgres
def test_the_gui_and_the_demo_do_not_upgrade_an_older_postgresql_database_either(
    pg_server_url: str,
) -> None:
    _old_register(pg_server_url)
    with pytest.raises(DatabaseError, match="permitdesk db upgrade"):
        open_database(pg_server_url)  # as the GUI and `demo` open it
    assert _revision(pg_server_url) == OLD


@pytest.mark.postgres
def test_db_upgrade_dumps_a_postgresql_database_with_pg_dump_before_upgrading(
    pg_server_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _old_register(pg_server_url)
    _administrator(pg_server_url)
    out = tmp_path / "before.dump"
    argv = ["db", "upgrade", "--database-url", pg_server_url, "--out", str(out)]
    assert main([*argv, *signed(monkeypatch)]) == 0
    printed = capsys.readouterr().out
    assert f"to {out} with pg_dump" in printed
    assert f"upgraded from revision {OLD}" in printed
    assert out.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    assert _revision(pg_server_url) == head_revision()
    # Up to date now: nothing to back up, nothing to do.
    assert main(["db", "upgrade", "--database-url", pg_server_url, *signed(monkeypatch)]) == 0
    assert "up to date" in capsys.readouterr().out


@pytest.mark.postgres
def test_db_upgrade_without_pg_dump_refuses_unless_told_no_backup(
    pg_server_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _old_register(pg_server_url)
    _administrator(pg_server_url)
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump here
    argv = ["db", "upgrade", "--database-url", pg_server_url]
    assert main([*argv, *signed(monkeypatch)]) == 2
    line = _one_error_line(capsys)
    assert "pg_dump is not on the PATH" in line and "--no-backup" in line
    assert _revision(pg_server_url) == OLD
    assert main([*argv, "--no-backup", *signed(monkeypatch)]) == 0
    assert f"upgraded from revision {OLD}" in capsys.readouterr().out
    assert _revision(pg_server_url) == head_revision()
