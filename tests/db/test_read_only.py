"""A register that cannot be written (a copy on a CD, an archive on a read-only share) opens
read-only for looking and reports instead of refusing; every change is refused in one sentence."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import text

from db.database import open_database
from db.engine import DatabaseError, sqlite_url
from desk.clock import FixedClock
from desk.errors import AuthenticationFailed, ReadOnlyRegister
from desk.services import permits, users
from permitdesk.cli import main
from tests.cli_sign_in import signed
from tests.factories import PASSWORD, Register, application, seed_register
from tests.read_only import read_only_folder

CLOCK = FixedClock(date(2026, 3, 2))


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Register]:
    path = tmp_path_factory.mktemp("office") / "permitdesk.db"
    database = open_database(sqlite_url(path))
    reg = seed_register(database, CLOCK)
    database.close()
    return path, reg


@pytest.fixture
def original(office: tuple[Path, Register]) -> Path:
    return office[0]


@pytest.fixture
def on_cd(original: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    files = {"permitdesk.db": original.read_bytes()}
    with read_only_folder(tmp_path / "cd", files, monkeypatch) as folder:
        yield folder / "permitdesk.db"


def test_it_opens_read_only_for_looking_and_refuses_every_change(
    on_cd: Path, office: tuple[Path, Register]
) -> None:
    before = on_cd.read_bytes()
    database = open_database(sqlite_url(on_cd))
    try:
        assert database.read_only
        assert database.read_only_notice == (
            f"Read-only: {on_cd} cannot be written here (a copy on a CD or a read-only share). "
            "You can look things up and print reports; nothing can be changed."
        )
        with database.read() as conn:
            assert conn.execute(text("SELECT count(*) FROM permit")).scalar_one() == 1
        # Signing in checks the password and records nothing (no last sign-in, no audit row).
        signed = users.sign_in(database.uow(), CLOCK, "carol", PASSWORD)
        assert signed.actor.username == "carol" and not signed.must_change_password
        with pytest.raises(AuthenticationFailed, match="wrong password"):  # not counted
            users.sign_in(database.uow(), CLOCK, "carol", "not the password")
        with pytest.raises(ReadOnlyRegister):
            permits.take_application(database.uow(), CLOCK, signed.actor, application(office[1]))
    finally:
        database.close()  # no PRAGMA optimize: it would write
    assert on_cd.read_bytes() == before


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_commands_look_and_report_but_do_not_change_it(
    on_cd: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = ["--db", str(on_cd)]
    code, out, err = _cli(["db", "check", *db], capsys)
    assert (code, out) == (0, "OK\n"), err
    # Signing in checks the password there and records nothing.
    monthly = ["report", "monthly", "--month", "2026-03", *db, "--xlsx", str(tmp_path / "m.xlsx")]
    code, _, err = _cli([*monthly, *signed(monkeypatch)], capsys)
    assert code == 0, err
    assert (tmp_path / "m.xlsx").stat().st_size > 0
    backup = ["db", "backup", *db, "--out", str(tmp_path / "copy.db")]
    code, _, err = _cli([*backup, *signed(monkeypatch)], capsys)
    assert code == 0, err
    copy = open_database(sqlite_url(tmp_path / "copy.db"))
    try:
        assert not copy.read_only
        with copy.read() as conn:
            assert conn.execute(text("SELECT count(*) FROM permit")).scalar_one() == 1
    finally:
        copy.close()
    code, _, err = _cli(["lifecycle", "sweep", *db, *signed(monkeypatch)], capsys)
    assert code == 2
    assert err == f"permitdesk: error: {ReadOnlyRegister.MESSAGE}\n"


def test_an_older_copy_on_a_cd_is_refused_with_what_to_do(
    original: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = tmp_path / "older.db"
    shutil.copy(original, older)
    database = open_database(sqlite_url(older))
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0013'"))
    database.close()
    files = {"older.db": older.read_bytes()}
    with read_only_folder(tmp_path / "cd", files, monkeypatch) as folder:
        with pytest.raises(DatabaseError) as raised:
            open_database(sqlite_url(folder / "older.db"))
        assert str(raised.value) == (
            f"{folder / 'older.db'} is read-only and was written by an older version of Permit "
            "Desk; copy it to a folder you can write to and open the copy (it is upgraded there)"
        )
