"""The `permitdesk` command: exit codes, one-line errors, no Qt for commands without a window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from db.database import open_database
from db.engine import make_engine, sqlite_url
from db.migrate import current_revision, head_revision, upgrade
from desk import __version__
from permitdesk.cli import main
from tests.cli_sign_in import first_administrator, signed, user_row


def _fresh(path: Path) -> Path:
    open_database(sqlite_url(path)).close()
    return path


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"permitdesk {__version__}"


def test_db_check_prints_ok_on_a_sound_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fresh(tmp_path / "d.db")
    assert main(["db", "check", "--db", str(path)]) == 0
    assert capsys.readouterr().out == "OK\n"


def test_db_check_lists_each_problem_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fresh(tmp_path / "d.db")
    engine = make_engine(sqlite_url(path))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO municipality (id, key, name, letterhead, inspector_name, "
                "inspector_title, state, settings) VALUES (1, 'glendale', 'G', '[]', '', '', "
                "'WI', '{}')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO permit (id, municipality_id, number, kind, permit_class, work_class,"
                " description, valuation, floor_area_sqft, areas, dwelling_units, status) VALUES "
                "(1, 1, '2026-0005', 'RES-OTHER', 'residential', 'repair', 'Roof', 0, 0, '{}', 0,"
                " 'issued')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO number_counter (municipality_id, series, year, value) "
                "VALUES (1, 'P', 2026, 3)"
            )
        )
    engine.dispose()
    assert main(["db", "check", "--db", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "permit 2026-0005 exists but the 2026 counter is at 3" in out[0]
    assert out[1] == "1 permits are missing from the search index"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["db", "check", "--db", "/nonexistent/x.db"], "no database file at /nonexistent/x.db"),
        (["db", "check", "--database-url", "nonsense"], "'nonsense' is not a database URL"),
        (["db", "check", "--database-url", "mysql://u@h/d"], "unsupported database 'mysql'"),
        (["db", "frobnicate"], "invalid choice: 'frobnicate'"),
        (["demo", "--db", "/tmp/x.db", "--years", "0"], "--years must be between 1 and 50"),
        (["gui", "--size", "big"], "--size 'big' is not WIDTHxHEIGHT"),
    ],
)
def test_user_errors_exit_2_with_one_line_naming_the_problem(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("permitdesk: error: ")
    assert message in err


def test_a_newer_database_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _fresh(tmp_path / "d.db")
    first_administrator(path)
    engine = make_engine(sqlite_url(path))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    assert main(["db", "upgrade", "--db", str(path), *signed(monkeypatch)]) == 2
    assert "newer than this version of Permit Desk" in capsys.readouterr().err


def test_db_upgrade_backs_up_and_upgrades_an_old_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine, "0001")
    user_row(engine)  # its administrator upgrades it
    engine.dispose()
    assert main(["db", "upgrade", "--db", str(path), *signed(monkeypatch)]) == 0
    out = capsys.readouterr().out
    assert f"upgraded from revision 0001 to {head_revision()}" in out
    assert len(list(tmp_path.glob("old.before-*.bak.db"))) == 1
    assert main(["db", "upgrade", "--db", str(path), *signed(monkeypatch)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_db_backup_writes_a_consistent_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _fresh(tmp_path / "d.db")
    first_administrator(path)
    out = tmp_path / "copy.db"
    assert main(["db", "backup", "--db", str(path), "--out", str(out), *signed(monkeypatch)]) == 0
    engine = make_engine(sqlite_url(out))
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_commands_without_a_window_do_not_import_qt(tmp_path: Path) -> None:
    path = _fresh(tmp_path / "d.db")
    code = (
        "import sys\n"
        "from permitdesk.cli import main\n"
        f"rc = main(['db', 'check', '--db', {str(path)!r}])\n"
        "assert 'PySide6' not in sys.modules, 'PySide6 was imported'\n"
        "sys.exit(rc)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "OK\n"


def test_db_use_makes_a_database_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from permitdesk import config

    monkeypatch.setattr(config, "settings_file", lambda: tmp_path / "settings.toml")
    monkeypatch.delenv("PERMITDESK_DATABASE_URL", raising=False)
    path = tmp_path / "office.db"
    assert main(["db", "init", "--db", str(path)]) == 0  # `db use` opens, never creates
    assert main(["db", "use", "--db", str(path)]) == 0
    assert config.resolve_url(None, None) == sqlite_url(path)
    assert str(path) in capsys.readouterr().out


def test_a_path_on_a_network_share_is_recognised() -> None:
    from db.engine import looks_remote

    assert looks_remote("//fileserver/permits/permitdesk.db")
    assert looks_remote("\\\\fileserver\\permits\\permitdesk.db")
    assert not looks_remote("/tmp/permitdesk.db")


def test_lifecycle_sweep_and_due_list_the_permits_by_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import date, timedelta

    from db.queries import permit_history
    from desk.clock import FixedClock
    from desk.services import permits
    from tests.cli_sign_in import ready, signed
    from tests.factories import make_issuable, seed_register

    path = tmp_path / "d.db"
    database = open_database(sqlite_url(path))
    today = date.today()
    clock = FixedClock(today - timedelta(days=200))
    reg = seed_register(database, clock)
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    ready(database, "ivan")
    database.close()
    due = ["lifecycle", "due", "--db", str(path), "--days", "30"]
    assert main([*due, *signed(monkeypatch, "ivan")]) == 0
    assert "City of Glendale: 0 permit(s) due" in capsys.readouterr().out
    assert main(["lifecycle", "sweep", "--db", str(path), *signed(monkeypatch, "ivan")]) == 0
    out = capsys.readouterr().out
    year = (today - timedelta(days=200)).year
    assert f"{year}-0001\texpired" in out and "Work must start (15.1.8(b))" in out
    assert "City of Glendale: 1 permit(s) expired" in out
    database = open_database(sqlite_url(path))
    try:
        with database.read() as conn:
            newest = permit_history(conn, reg.permit_id)[0]
    finally:
        database.close()
    assert newest.username == "ivan"  # the sweep is recorded as the inspector's who ran it
