"""No traceback ever reaches the terminal: bad arguments, bad files and an unreachable server
each give one line on stderr and an exit code (2 user error, 1 found/unexpected, 3 environment)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from permitdesk import cli
from permitdesk.cli import main
from tests.cli_sign_in import PASSWORD, lines
from tests.factories import seed_register

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64)
UNREACHABLE = "postgresql+psycopg://postgres:secret@127.0.0.1:5999/x"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("bad")
    real = root / "real.db"
    database = open_database(sqlite_url(real))
    seed_register(database, FixedClock(date(2026, 3, 2)))
    database.close()
    data = real.read_bytes()
    (root / "truncated.db").write_bytes(data[: len(data) // 2])
    (root / "text.db").write_text("hello, this is not a database\n")
    (root / "picture.png").write_bytes(PNG)
    (root / "folder").mkdir()
    return {
        "real": real,
        "truncated": root / "truncated.db",
        "text": root / "text.db",
        "png": root / "picture.png",
        "folder": root / "folder",
        "root": root,
    }


def _run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as e:  # --help and --version only
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _assert_one_line(code: int, out: str, err: str, expected: int) -> None:
    assert "Traceback" not in out + err
    assert code == expected, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("permitdesk: error: "), err


BAD_FILES = ("text", "png", "truncated", "folder")
DB_COMMANDS = (
    ["db", "check"],
    ["db", "use"],
    ["db", "backup"],
    ["lifecycle", "due"],
    ["lifecycle", "sweep"],
    ["report", "monthly", "--month", "2026-03", "--xlsx", "{root}/m.xlsx"],
    ["report", "expiring"],
    ["report", "daily-cash", "--date", "2026-03-02"],
    ["users", "list"],
)


@pytest.mark.parametrize("bad", BAD_FILES)
@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: "-".join(c[:2]))
def test_a_bad_database_file_is_one_line_and_exit_2(
    bad: str,
    command: list[str],
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(files["root"] / "config"))  # db use saves here
    argv = [a.format(root=files["root"]) for a in command] + ["--db", str(files[bad])]
    code, out, err = _run(argv, capsys, monkeypatch)
    if bad == "truncated" and code in (0, 1):  # half a file may still open; check finds it
        assert "Traceback" not in out + err
        return
    _assert_one_line(code, out, err, 2)
    if bad in ("text", "png"):
        assert f"{files[bad]} is not a Permit Desk database (file is not a database)" in err


BAD_ARGUMENTS = (
    (["lifecycle", "due", "--days", "3000000"], "--days"),
    (["lifecycle", "due", "--days", "-1"], "--days"),
    (["report", "expiring", "--days", "2147483648"], "--days"),
    (["demo", "--db", "{root}/d.db", "--per-year", "100000000"], "--per-year"),
    (["demo", "--db", "{root}/d.db", "--per-year", "0"], "--per-year"),
    (["demo", "--db", "{root}/d.db", "--years", "９"], "--years"),
    (["report", "monthly", "--month", "", "--pdf", "{root}/x.pdf"], "--month"),
    (["report", "monthly", "--month", "9999-12", "--pdf", "{root}/x.pdf"], "--month"),
    (["report", "monthly", "--month", "２０２６-０３", "--pdf", "{root}/x.pdf"], "--month"),
    (["report", "act211", "--month", "2026-13", "--pdf", "{root}/x.pdf"], "--month"),
    (["report", "annual", "--year", "", "--pdf", "{root}/x.pdf"], "--year"),
    (["report", "annual", "--year", "99999", "--pdf", "{root}/x.pdf"], "--year"),
    (["report", "c404", "--year", "", "--pdf", "{root}/x.pdf"], "--year"),
    (["report", "daily-cash", "--date", ""], "--date"),
    (["report", "reconciliation", "--from", "2026-02-30", "--to", "2026-03-01"], "--from"),
    (["report", "deposits", "--as-of", "9999-01-01"], "--as-of"),
    (["fees", "quote", "--municipality", "glendale", "--on", ""], "--on"),
    (["gui", "--size", "100000x100000", "--screenshot", "{root}/s.png"], "--size"),
    (["gui", "--size", "10x10", "--screenshot", "{root}/s.png"], "--size"),
    (["gui", "--size", "wide", "--screenshot", "{root}/s.png"], "--size"),
    (["db", "check", "--database-url", "postgresql://u@[::1/x"], "database URL"),
    (["db", "backup", "--db", "{real}", "--out", "{root}/folder", "--user", "admin"], "--out"),
)


@pytest.mark.parametrize(("argv", "named"), BAD_ARGUMENTS, ids=lambda v: " ".join(v))
def test_a_bad_argument_is_one_line_naming_it_and_exit_2(
    argv: list[str],
    named: str,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = [a.format(root=files["root"], real=files["real"]) for a in argv]
    password = lines(PASSWORD) if "--user" in argv else ""  # the user signs in first
    code, out, err = _run(argv, capsys, monkeypatch, stdin=password)
    _assert_one_line(code, out, err, 2)
    assert named in err


NINES = "9" * 5000
BAD_QUOTES = (
    ('{"items": [{"code": "X", "quantity": ' + NINES + "}]}", "more than 15 digits"),
    ('{"items": [{"code": "X", "quantity": 1e999999}]}', "not a usable number"),
    ('{"items": [{"code": "X", "quantity": NaN}]}', "NaN is not a number"),
    ('{"items": [{"code": "X", "quantity": "1e999999"}]}', "must be less than"),
    ('{"items": [{"code": "X", "quantity": "0.0000001"}]}', "decimal places"),
    ('{"items": [{"code": "FAIL-TO-CALL", "occurrence": 100000000000000000000}]}', "digits"),
    ('{"items": [{"code": "FAIL-TO-CALL", "occurrence": 1000000}]}', "at most 10,000"),
    ("[" * 100_000 + "]" * 100_000, "nested more than 20"),
    ('{"items": ' + "[" * 25 + "]" * 25 + "}", "nested more than 20"),
    ("{", "malformed JSON"),
)


@pytest.mark.parametrize(("body", "named"), BAD_QUOTES, ids=lambda v: v[:40])
def test_a_bad_quote_request_is_one_line_and_exit_2(
    body: str, named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["fees", "quote", "--municipality", "glendale"]
    code, out, err = _run(argv, capsys, monkeypatch, stdin=body)
    _assert_one_line(code, out, err, 2)
    assert named in err


def test_an_unreachable_server_is_exit_3_without_the_password(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for argv in (["db", "check"], ["lifecycle", "due"], ["db", "backup"]):
        code, out, err = _run([*argv, "--database-url", UNREACHABLE], capsys, monkeypatch)
        _assert_one_line(code, out, err, 3)
        assert "cannot reach the database server at 127.0.0.1:5999 (" in err
        assert "secret" not in err


def test_a_missing_postgresql_database_is_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = os.environ.get("PERMITDESK_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("PERMITDESK_TEST_POSTGRES_URL is not set")
    missing = make_url(url).set(database="nosuchdb_permitdesk").render_as_string(False)
    code, out, err = _run(["db", "check", "--database-url", missing], capsys, monkeypatch)
    _assert_one_line(code, out, err, 2)
    assert '"nosuchdb_permitdesk" does not exist' in err


FULL_DISK = (
    ["db", "backup", "--out", "/dev/full"],
    ["report", "monthly", "--month", "2026-03", "--xlsx", "/dev/full"],
    ["report", "monthly", "--month", "2026-03", "--pdf", "/dev/full"],
    ["report", "annual", "--year", "2026", "--xlsx", "/dev/full"],
    ["report", "daily-cash", "--date", "2026-03-02", "--pdf", "/dev/full"],
)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("command", FULL_DISK, ids=lambda c: " ".join(c))
def test_a_full_disk_is_exit_3_naming_the_file(command: list[str], files: dict[str, Path]) -> None:
    # A real process: a zip file that fails to close again when garbage-collected writes its
    # traceback straight to stderr, past every handler (pytest would catch it as a warning).
    # Each signs the administrator in first (`db backup` too).
    sign_in = ["--user", "admin"]
    run = subprocess.run(
        [sys.executable, "-m", "permitdesk", *command, "--db", str(files["real"]), *sign_in],
        input=lines(PASSWORD),
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_STATE_HOME": str(files["root"] / "state")},
        timeout=120,
    )
    _assert_one_line(run.returncode, run.stdout, run.stderr, 3)
    assert run.stderr.strip() == "permitdesk: error: No space left on device: /dev/full"


def test_anything_unexpected_is_one_sentence_naming_the_log_and_exit_1(
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def boom(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setitem(cli.COMMANDS, "lifecycle", boom)
    code, out, err = _run(["lifecycle", "due", "--db", str(files["real"])], capsys, monkeypatch)
    _assert_one_line(code, out, err, 1)
    assert "something went wrong (RuntimeError); the details are in " in err
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)


WORDS = st.sampled_from(
    [
        "db", "check", "backup", "use", "init", "restore", "upgrade", "lifecycle", "due",
        "sweep", "report", "monthly", "annual", "c404", "act211", "expiring", "deposits",
        "daily-cash", "reconciliation", "route-sheet", "fees", "quote", "export", "blds",
        "users", "audit", "list", "add", "roles", "disable", "reset-password", "clerk",
        "--role", "--username", "--name", "--db", "--database-url", "--days", "--month",
        "--year", "--date",
        "--from", "--to", "--as-of", "--on", "--out", "--xlsx", "--pdf", "--municipality",
        "--per-year", "--years", "--seed", "glendale", "2026-03", "2026", "2026-03-02", "-1",
        "0", "3000000", "9999-12", "", "２０２６-０３", "postgresql://u@[::1/x", UNREACHABLE,
    ]
)  # fmt: skip


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(argv=st.lists(WORDS | st.text(max_size=12), max_size=8), body=st.text(max_size=40))
def test_no_argument_list_gives_a_traceback(
    argv: list[str],
    body: str,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not argv or argv[0] not in ("db", "lifecycle", "report", "fees", "export", "users", "audit"):
        # Never a window (gui is the default) nor a demo of thousands of permits: the table
        # above gives those their bad arguments.
        argv = ["lifecycle", *argv]
    root = files["root"] / "fuzz"
    root.mkdir(exist_ok=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(root / "data"))
    code, out, err = _run(argv, capsys, monkeypatch, stdin=body)
    assert "Traceback" not in out + err
    assert code in (0, 1, 2, 3), err
    if code != 0 and err:
        assert len(err.splitlines()) == 1, err
