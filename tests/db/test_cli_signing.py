"""The command line acts as a user who signed in, as the window does: `--user U` with the
password on standard input, or a sign-in token an administrator issued (PERMITDESK_TOKEN).
Without it nothing that reads or changes the register runs; the audit trail names the user;
a wrong password counts and waits as at the window. The register's owner alone recovers an
administrator's account without signing in."""

from __future__ import annotations

import io
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from db import schema
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain import sign_ins
from desk.domain.enums import Role
from desk.services import tokens, users
from permitdesk import signing
from permitdesk.cli import main
from tests.cli_sign_in import PASSWORD, lines, ready, seeded_office, signed
from tests.factories import seed_register

NEW = "Walked-to-work-7"


def _url(database: Database) -> list[str]:
    return ["--database-url", database.engine.url.render_as_string(hide_password=False)]


def _run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch | None = None,
    stdin: str | None = None,
) -> tuple[int, str, str]:
    if monkeypatch is not None and stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _audit(database: Database, entity: str, action: str | None = None) -> list[tuple[str, str]]:
    """(who, action) of the audit rows of `entity`, oldest first; who: the user name."""
    a, u = schema.audit_event, schema.app_user
    query = (
        select(func.coalesce(u.c.username, "(nobody)"), a.c.action)
        .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
        .where(a.c.entity == entity)
        .order_by(a.c.id)
    )
    if action is not None:
        query = query.where(a.c.action == action)
    with database.read() as conn:
        return [(str(r[0]), str(r[1])) for r in conn.execute(query)]


def _sign_ins(database: Database) -> list[tuple[str, str]]:
    """(whose, action) of the sign-in rows, oldest first: whose account was tried, by name."""
    a, u = schema.audit_event, schema.app_user
    with database.read() as conn:
        rows = conn.execute(
            select(func.coalesce(u.c.username, "(unknown)"), a.c.action)
            .select_from(a.outerjoin(u, u.c.id == a.c.entity_id))
            .where(a.c.entity == "sign_in")
            .order_by(a.c.id)
        )
        return [(str(r[0]), str(r[1])) for r in rows]


def _user(database: Database, username: str) -> object:
    u = schema.app_user
    with database.read() as conn:
        return conn.execute(select(u).where(u.c.username == username)).first()


def _command_line_rows(database: Database) -> int:
    a, u = schema.audit_event, schema.app_user
    with database.read() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(a.join(u, u.c.id == a.c.user_id))
                .where(u.c.username == users.COMMAND_LINE)
            ).scalar_one()
        )


ADD_ADMIN = ["users", "add", "--username", "mallory", "--name", "M", "--role", "administrator"]


# --- no sign-in, a wrong one, too few powers ----------------------------------------------------


def test_users_add_without_signing_in_is_refused_and_adds_nobody(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed_register(database, clock)
    code, out, err = _run([*ADD_ADMIN, *_url(database)], capsys, monkeypatch, lines(NEW))
    assert code == 2
    assert err.strip() == f"permitdesk: error: {signing.NOT_SIGNED_IN}"
    assert out == ""
    assert _user(database, "mallory") is None
    assert _command_line_rows(database) == 0


def test_a_wrong_password_is_refused_counted_and_waits_as_at_the_window(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed_register(database, clock)
    for _ in range(sign_ins.FREE_TRIES + 1):
        argv = [*ADD_ADMIN, *_url(database), *signed(monkeypatch, "admin", NEW, password="guess")]
        code, _out, err = _run(argv, capsys)
        assert code == 2
        assert err.strip() == f"permitdesk: error: {users.WRONG}"
    admin = _user(database, "admin")
    assert admin is not None and admin.failed_sign_ins == sign_ins.FREE_TRIES + 1  # type: ignore[attr-defined]
    # Now the right password waits too: no free guesses from the command line either.
    code, _out, err = _run(
        [*ADD_ADMIN, *_url(database), *signed(monkeypatch, "admin", NEW)], capsys
    )
    assert code == 2 and users.WRONG in err
    assert _user(database, "mallory") is None
    failed = _audit(database, "sign_in", "failed")
    assert len(failed) == sign_ins.FREE_TRIES + 2
    assert _command_line_rows(database) == 0


def test_a_clerk_may_not_add_users(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed_register(database, clock)
    ready(database, "carol")
    code, _out, err = _run(
        [*ADD_ADMIN, *_url(database), *signed(monkeypatch, "carol", NEW)], capsys
    )
    assert code == 2
    assert err.strip() == (
        "permitdesk: error: You are signed in as carol (clerk); only a user with the role "
        "administrator may manage users."
    )
    assert _user(database, "mallory") is None


def test_a_first_password_must_be_changed_at_the_window_first(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    seed_register(database, clock)  # carol's first password is still to change
    pdf = tmp_path / "m.pdf"
    argv = ["report", "monthly", "--month", "2026-03", "--pdf", str(pdf), *_url(database)]
    code, _out, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert code == 2
    assert err.strip() == f"permitdesk: error: {signing.MUST_CHANGE.format(user='carol')}"
    assert not pdf.exists()


# --- signed in: the audit trail names the user -------------------------------------------------


def test_an_administrator_signed_in_adds_a_user_and_the_audit_trail_names_them(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed_register(database, clock)
    argv = [*ADD_ADMIN, *_url(database), *signed(monkeypatch, "admin", NEW)]
    code, out, err = _run(argv, capsys)
    assert (code, err) == (0, "")
    assert out.strip() == "Added mallory (administrator)."
    mallory = _user(database, "mallory")
    assert mallory is not None
    a, u = schema.audit_event, schema.app_user
    with database.read() as conn:
        who = conn.execute(
            select(u.c.username)
            .join(a, a.c.user_id == u.c.id)
            .where((a.c.entity == "user") & (a.c.entity_id == mallory.id))  # type: ignore[attr-defined]
            .order_by(a.c.id)
        ).scalar()
    assert who == "admin"
    assert ("admin", "signed in") in _sign_ins(database)
    assert _command_line_rows(database) == 0
    # The second line was her password: she signs in with it (and must change it).
    assert users.sign_in(database.uow(), clock, "mallory", NEW).must_change_password


def test_a_report_needs_a_sign_in_and_a_clerks_is_enough(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    seed_register(database, clock)
    ready(database, "carol")
    pdf = tmp_path / "monthly.pdf"
    argv = ["report", "monthly", "--month", "2026-03", "--pdf", str(pdf), *_url(database)]
    code, _out, err = _run(argv, capsys, monkeypatch, "")
    assert code == 2 and signing.NOT_SIGNED_IN in err
    assert not pdf.exists()

    code, out, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert (code, err) == (0, "")
    assert pdf.stat().st_size > 1000 and str(pdf) in out
    assert _sign_ins(database)[-1] == ("carol", "signed in")


def test_the_cash_reports_are_for_those_the_window_shows_them_to(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    seed_register(database, clock)
    users.create_user(
        database.uow(), clock, users.authenticate(database.uow(), "admin", PASSWORD),
        username="ivy", full_name="Ivy Inspector", password=PASSWORD,
        roles={Role.INSPECTOR}, must_change_password=False,
    )  # fmt: skip
    ready(database, "terry")
    argv = ["report", "daily-cash", "--date", "2026-03-02", *_url(database)]
    code, _out, err = _run([*argv, *signed(monkeypatch, "ivy")], capsys)
    assert code == 2
    assert err.strip() == (
        "permitdesk: error: You are signed in as ivy (inspector); only a user with the role "
        "administrator or clerk or treasurer may see the cash reports."
    )
    code, out, err = _run([*argv, *signed(monkeypatch, "terry")], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("2026-03-02: 0 receipt(s)")


# --- sign-in tokens --------------------------------------------------------------------------


def _issue(
    database: Database,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *extra: str,
) -> str:
    argv = ["users", "token", "--username", "carol", *extra, *_url(database)]
    code, out, err = _run([*argv, *signed(monkeypatch)], capsys)
    assert code == 0, err
    assert "shown this once" in err and "PERMITDESK_TOKEN=" in err
    token = out.strip()
    assert len(token) >= 40 and "\n" not in token
    return token


def _monthly(database: Database, tmp_path: Path) -> list[str]:
    out = tmp_path / "m.xlsx"
    return ["report", "monthly", "--month", "2026-03", "--xlsx", str(out), *_url(database)]


def test_a_token_signs_in_its_user_until_it_is_revoked(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    seed_register(database, clock)
    token = _issue(database, capsys, monkeypatch, "--label", "nightly reports", "--days", "30")
    with database.read() as conn:
        kept = conn.execute(select(schema.user_token)).one()
    assert kept.token_hash == tokens.token_hash(token) and token not in kept.token_hash
    assert kept.label == "nightly reports" and kept.expires_at is not None
    assert ("admin", "issued") in _audit(database, "user_token")

    monkeypatch.setenv(signing.TOKEN_ENV, token)
    code, _out, err = _run(_monthly(database, tmp_path), capsys, monkeypatch, "")
    assert (code, err) == (0, "")
    assert _sign_ins(database)[-1] == ("carol", "token")
    # The token is carol's: it does not sign in anyone else named with --user.
    code, _out, err = _run([*_monthly(database, tmp_path), "--user", "admin"], capsys)
    assert code == 2 and "PERMITDESK_TOKEN signs in carol, not admin" in err

    monkeypatch.delenv(signing.TOKEN_ENV)
    argv = ["users", "revoke-token", "--username", "carol", *_url(database)]
    code, out, err = _run([*argv, *signed(monkeypatch)], capsys)
    assert (code, err) == (0, "")
    assert out.strip() == "1 sign-in token(s) of carol revoked."
    monkeypatch.setenv(signing.TOKEN_ENV, token)
    code, _out, err = _run(_monthly(database, tmp_path), capsys, monkeypatch, "")
    assert code == 2 and err.strip() == f"permitdesk: error: {users.WRONG}"
    assert _sign_ins(database)[-1] == ("carol", "failed")


def test_an_expired_token_and_a_disabled_users_token_sign_in_nobody(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    reg = seed_register(database, clock)
    long_ago = FixedClock(datetime(2020, 1, 1, 12, tzinfo=UTC))
    old = tokens.issue_token(database.uow(), long_ago, reg.admin, reg.clerk.user_id, "old", 1)
    monkeypatch.setenv(signing.TOKEN_ENV, old)
    code, _out, err = _run(_monthly(database, tmp_path), capsys, monkeypatch, "")
    assert code == 2 and err.strip() == f"permitdesk: error: {users.WRONG}"

    monkeypatch.delenv(signing.TOKEN_ENV)
    fresh = _issue(database, capsys, monkeypatch)
    users.set_active(database.uow(), clock, reg.admin, reg.clerk.user_id, False)
    monkeypatch.setenv(signing.TOKEN_ENV, fresh)
    code, _out, err = _run(_monthly(database, tmp_path), capsys, monkeypatch, "")
    assert code == 2 and err.strip() == f"permitdesk: error: {users.WRONG}"
    monkeypatch.setenv(signing.TOKEN_ENV, "not-a-token-anyone-issued")
    code, _out, err = _run(_monthly(database, tmp_path), capsys, monkeypatch, "")
    assert code == 2 and err.strip() == f"permitdesk: error: {users.WRONG}"
    # The expired token, the administrator issuing the second, the disabled user's, the unknown.
    assert _sign_ins(database) == [
        ("carol", "failed"),
        ("admin", "signed in"),
        ("carol", "failed"),
        ("(unknown)", "failed"),
    ]
    assert not (tmp_path / "m.xlsx").exists()


def test_only_an_administrator_issues_tokens(
    database: Database,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed_register(database, clock)
    ready(database, "carol")
    argv = ["users", "token", "--username", "carol", *_url(database)]
    code, out, err = _run([*argv, *signed(monkeypatch, "carol")], capsys)
    assert code == 2 and "only a user with the role administrator may manage users" in err
    assert out == ""
    with database.read() as conn:
        assert conn.execute(select(func.count()).select_from(schema.user_token)).scalar_one() == 0


# --- commands that touch no register ----------------------------------------------------------


def test_the_housing_limits_and_a_shipped_fee_quote_need_no_sign_in(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    unit = {
        "rooms": [{"name": "Bedroom", "use": "sleeping", "floor_area": "120",
                   "ceiling": [{"height_ft": "8", "area": "120"}], "window_area": "14",
                   "openable_area": "7"}],
        "occupants_over_12": 1,
    }  # fmt: skip
    code, out, err = _run(
        ["housing", "occupancy", "--code", "hudson-140"], capsys, monkeypatch, json.dumps(unit)
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["code"] == "hudson-140"
    request = {"items": [{"code": "RES-POOL"}]}
    code, out, err = _run(
        ["fees", "quote", "--municipality", "glendale", "--on", "2026-03-02"],
        capsys,
        monkeypatch,
        json.dumps(request),
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["municipality"] == "glendale"


def test_a_fee_quote_from_a_register_reads_the_password_then_the_request(
    tmp_path: Path,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "office.db"
    database = open_database(sqlite_url(path))
    seed_register(database, clock)
    database.close()
    argv = ["fees", "quote", "--municipality", "glendale", "--db", str(path), "--on", "2026-03-02"]
    request = json.dumps({"items": [{"code": "RES-POOL"}]})
    code, _out, err = _run(argv, capsys, monkeypatch, request)
    assert code == 2 and signing.NOT_SIGNED_IN in err
    code, out, err = _run([*argv, *signed(monkeypatch, "admin", request)], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["lines"][0]["code"] == "RES-POOL"


# --- the owner's recovery of an administrator's account ----------------------------------------


@pytest.fixture
def office(tmp_path: Path, clock: FixedClock) -> Path:
    return seeded_office(tmp_path / "office.db", clock)


def test_the_files_owner_recovers_an_administrator_as_the_command_line(
    office: Path,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: office.stat().st_uid)
    argv = ["users", "recover", "--username", "admin", "--db", str(office)]
    code, out, err = _run(argv, capsys, monkeypatch, lines(NEW))
    assert (code, err) == (0, "")
    assert out.startswith("admin is unlocked and enabled")
    database = open_database(sqlite_url(office))
    try:
        assert users.sign_in(database.uow(), clock, "admin", NEW).must_change_password
        assert ("command line", "recovered") in _audit(database, "user")
    finally:
        database.close()


def test_someone_else_cannot_recover_an_administrator(
    office: Path,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: office.stat().st_uid + 4242)
    argv = ["users", "recover", "--username", "admin", "--db", str(office)]
    code, out, err = _run(argv, capsys, monkeypatch, lines(NEW))
    assert code == 2 and out == ""
    assert err.strip() == (
        f"permitdesk: error: only the account that owns the database file {office} can recover "
        "an administrator's account without signing in; ask an administrator to reset the "
        "password, or run this as the file's owner"
    )
    database = open_database(sqlite_url(office))
    try:
        assert users.sign_in(database.uow(), clock, "admin", PASSWORD)  # unchanged
        assert _command_line_rows(database) == 0
    finally:
        database.close()


ROLE = f"permitdesk_test_clerk_{os.getpid()}"


def test_the_role_owning_the_postgresql_tables_recovers_and_another_role_cannot(
    pg_server_url: str,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.conftest import reset_postgres

    reset_postgres(pg_server_url)
    database = open_database(pg_server_url)
    try:
        seed_register(database, clock)
        with database.engine.begin() as conn:  # a role that reads and writes, owning nothing
            conn.execute(text(f"CREATE ROLE {ROLE} LOGIN PASSWORD 'clerk-role-pw'"))
            conn.execute(text(f"GRANT USAGE ON SCHEMA public TO {ROLE}"))
            conn.execute(text(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {ROLE}"))
            conn.execute(text(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {ROLE}"))
        other = make_url(pg_server_url).set(username=ROLE, password="clerk-role-pw")
        argv = ["users", "recover", "--username", "admin", "--database-url"]
        code, _out, err = _run(
            [*argv, other.render_as_string(hide_password=False)], capsys, monkeypatch, lines(NEW)
        )
        assert code == 2, err
        owner = make_url(pg_server_url).username
        assert f"only the role that owns the register's tables ({owner})" in err
        assert f"is connected as {ROLE}" in err
        code, _out, err = _run([*argv, pg_server_url], capsys, monkeypatch, lines(NEW))
        assert (code, err) == (0, "")
        assert users.sign_in(database.uow(), clock, "admin", NEW).must_change_password
    finally:
        database.close()
        reset_postgres(pg_server_url)  # the role's privileges go with the tables
        engine = create_engine(make_url(pg_server_url))
        with engine.begin() as conn:
            conn.execute(text(f"DROP ROLE IF EXISTS {ROLE}"))
        engine.dispose()


# --- a damaged file ---------------------------------------------------------------------------


def _damage(path: Path) -> None:
    """Overwrite the header of the audit trail's first page, in the middle of the file: the
    schema still reads, the rows do not (SQLite's quick check finds it)."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'audit_event'"
        ).fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * page_size)  # its b-tree page header
        f.write(b"\xff" * 12)


def test_a_report_from_a_damaged_file_is_refused_in_words(
    office: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    _damage(office)
    pdf = tmp_path / "m.pdf"
    argv = ["report", "monthly", "--month", "2026-03", "--pdf", str(pdf), "--db", str(office)]
    code, _out, err = _run([*argv, *signed(monkeypatch)], capsys)
    assert code == 2
    assert err.startswith(f"permitdesk: error: the database {office} is damaged (")
    assert err.rstrip().endswith(
        "so no report or export is made from it; run 'permitdesk db check' and restore a backup"
    )
    assert not pdf.exists()


# --- a screenshot of real data -----------------------------------------------------------------


def _screenshot(office: Path, out: Path, *args: str, stdin: str = "") -> tuple[int, str]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "permitdesk", "gui", "--db", str(office), "--screenshot", str(out),
         "--size", "800x600", *args],
        input=stdin, capture_output=True, text=True, timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )  # fmt: skip
    return done.returncode, done.stderr


def test_a_screenshot_of_real_data_shows_it_to_a_user_who_signed_in(
    office: Path, tmp_path: Path
) -> None:
    out = tmp_path / "shot.png"
    code, err = _screenshot(office, out, "--user", "admin")
    assert code == 2 and "no password for admin on standard input" in err
    code, err = _screenshot(office, out, "--user", "admin", stdin=lines("guess"))
    assert code == 2 and users.WRONG in err
    assert not out.exists()
    code, err = _screenshot(office, out, "--user", "admin", stdin=lines(PASSWORD))
    assert code == 0, err
    assert out.read_bytes().startswith(b"\x89PNG")
