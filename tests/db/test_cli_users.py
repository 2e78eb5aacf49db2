"""`permitdesk users ...`, run as a script would: an administrator signs in (--user, the
password the first line of standard input), the new password is the second line, and the audit
trail names the administrator; bad input is one line, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from db import schema
from db.database import open_database
from db.engine import sqlite_url
from db.user_queries import user_rows
from desk.clock import FixedClock
from desk.domain.enums import Role
from desk.errors import AuthenticationFailed
from desk.services import users
from tests.cli_sign_in import PASSWORD, lines, seeded_office


def permitdesk(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "permitdesk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def as_admin(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command signed in as the register's administrator; `stdin`: the lines after the
    password (a new password)."""
    return permitdesk(*args, "--user", "admin", stdin=lines(PASSWORD) + stdin)


@pytest.fixture
def office_db(tmp_path: Path, clock: FixedClock) -> Path:
    return seeded_office(tmp_path / "office.db", clock)


def test_users_add_reads_the_new_password_after_the_administrators_and_is_audited_as_theirs(
    office_db: Path, clock: FixedClock
) -> None:
    db = str(office_db)
    done = as_admin(
        "users", "add", "--db", db, "--username", "ines", "--name", "Ines Inspector",
        "--role", "inspector", "--role", "clerk", stdin="long-walk-home\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Added ines (clerk, inspector)."
    listed = as_admin("users", "list", "--db", db)
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if x.startswith("ines "))
    assert "Ines Inspector" in line and "clerk,inspector" in line
    assert "must change password" in line and line.endswith("never")

    database = open_database(sqlite_url(office_db))
    try:
        signed = users.sign_in(database.uow(), clock, "ines", "long-walk-home")
        assert signed.must_change_password
        assert signed.actor.roles == frozenset({Role.CLERK, Role.INSPECTOR})
        a, u = schema.audit_event, schema.app_user
        with database.read() as conn:
            who = conn.execute(
                select(u.c.username)
                .join(a, a.c.user_id == u.c.id)
                .where((a.c.entity == "user") & (a.c.entity_id == signed.actor.user_id))
                .order_by(a.c.id)  # the row that created the user; then her own sign-in
            ).first()
        assert who is not None and who[0] == "admin"
    finally:
        database.close()


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("--username", "carol", "--name", "C", "--role", "clerk"), "fresh-pass-9\n",
         "permitdesk: error: user name: 'carol' is already taken"),
        (("--username", "zed", "--name", "Zed", "--role", "boss"), "fresh-pass-9\n",
         "permitdesk: error: argument --role: invalid choice: 'boss'"),
        (("--username", "zed", "--name", "Zed", "--role", "clerk"), "12345678\n",
         "permitdesk: error: password: this is one of the first passwords anyone would try"),
        (("--username", "zed", "--name", "Zed", "--role", "clerk"), "",
         "permitdesk: error: no new password for zed on standard input (the second line, "
         "after yours)"),
    ],
)  # fmt: skip
def test_users_add_exits_2_with_one_line_on_bad_input(
    office_db: Path, args: tuple[str, ...], stdin: str, message: str
) -> None:
    done = as_admin("users", "add", "--db", str(office_db), *args, stdin=stdin)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith(message), done.stderr
    assert "Traceback" not in done.stderr


def test_users_roles_disable_and_reset_password_through_the_command(
    office_db: Path, clock: FixedClock
) -> None:
    db = str(office_db)
    assert as_admin("users", "roles", "--db", db, "--username", "terry",
                    "--role", "treasurer", "--role", "clerk").returncode == 0  # fmt: skip
    reset = as_admin(
        "users", "reset-password", "--db", db, "--username", "ivan", stdin="told-in-person-4\n"
    )
    assert reset.returncode == 0, reset.stderr
    assert as_admin("users", "disable", "--db", db, "--username", "carol").returncode == 0
    last = as_admin("users", "disable", "--db", db, "--username", "admin")
    assert last.returncode == 2
    assert last.stderr.strip() == "permitdesk: error: user: you cannot disable your own account"
    unknown = as_admin("users", "disable", "--db", db, "--username", "nobody")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == "permitdesk: error: no user named 'nobody'"

    database = open_database(sqlite_url(office_db))
    try:
        with database.read() as conn:
            rows = {r.username: r for r in user_rows(conn)}
        assert rows["terry"].roles == frozenset({Role.TREASURER, Role.CLERK})
        assert not rows["carol"].active
        assert rows["ivan"].must_change_password
        assert users.sign_in(database.uow(), clock, "ivan", "told-in-person-4")
        with pytest.raises(AuthenticationFailed):
            users.sign_in(database.uow(), clock, "carol", PASSWORD)
    finally:
        database.close()


def test_an_administrator_locks_and_unlocks_an_account(office_db: Path, clock: FixedClock) -> None:
    db = str(office_db)
    locked = as_admin("users", "lock", "--db", db, "--username", "ivan")
    assert locked.returncode == 0, locked.stderr
    assert locked.stdout.strip() == (
        "ivan is locked: they cannot sign in until an administrator unlocks."
    )
    database = open_database(sqlite_url(office_db))
    try:
        with pytest.raises(AuthenticationFailed):
            users.sign_in(database.uow(), clock, "ivan", PASSWORD)
        unlocked = as_admin("users", "unlock", "--db", db, "--username", "ivan")
        assert unlocked.returncode == 0, unlocked.stderr
        assert unlocked.stdout.strip() == "ivan is unlocked."
        assert users.sign_in(database.uow(), clock, "ivan", PASSWORD)
    finally:
        database.close()


def test_the_help_says_which_line_of_standard_input_is_which() -> None:
    done = permitdesk("users", "add", "--help")
    text = " ".join(done.stdout.split())
    assert "the first line is the signing-in password of --user, the second the new password" in (
        text
    )
    assert "--user U sign in as this user: the password is the first line of standard input" in (
        text
    )
