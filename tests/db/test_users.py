"""Users and roles: the services every screen and the command line use, and `permitdesk
users ...` run as a script would run it."""

from __future__ import annotations

import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from db import schema
from db.database import Database, open_database
from db.engine import sqlite_url
from db.queries import permit_history
from db.user_queries import user_rows
from desk.clock import FixedClock
from desk.domain.enums import Role
from desk.domain.passwords import password_problem
from desk.errors import AuthenticationFailed, PermissionDenied, SignedOut, ValidationError
from desk.services import permits, users
from tests.factories import PASSWORD, seed_register


def test_the_password_rule_refuses_short_common_repeated_and_the_user_name() -> None:
    assert password_problem("short7", "carol") == "use at least 8 characters"
    assert password_problem("password1", "carol") is not None
    assert password_problem("aaaaaaaaaa", "carol") == "do not repeat one character"
    assert password_problem("carol123", "carol") == "do not use the user name as the password"
    assert password_problem("correct-horse", "carol") is None
    assert password_problem("permitdesk", "clerk") is None  # the demo's, documented


def test_a_new_user_must_change_the_first_password_at_the_first_sign_in(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uid = users.create_user(
        database.uow(),
        clock,
        reg.admin,
        username="dana",
        full_name="Dana Clerk",
        title="Permit Clerk",
        password="first-pass-1",
        roles={Role.CLERK},
    )
    first = users.sign_in(database.uow(), clock, "dana", "first-pass-1")
    assert first.must_change_password
    with pytest.raises(ValidationError, match="current password: this is not your current"):
        users.change_own_password(database.uow(), clock, first.actor, "wrong-one-1", "mine-now-22")
    with pytest.raises(ValidationError, match="new password: use at least 8 characters"):
        users.change_own_password(database.uow(), clock, first.actor, "first-pass-1", "short")
    users.change_own_password(database.uow(), clock, first.actor, "first-pass-1", "mine-now-22")
    again = users.sign_in(database.uow(), clock, "dana", "mine-now-22")
    assert not again.must_change_password
    with database.read() as conn:
        row = next(r for r in user_rows(conn) if r.id == uid)
    assert row.title == "Permit Clerk"
    assert row.last_sign_in_at == clock.now()


def test_a_reset_password_must_be_changed_and_the_old_one_stops_working(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    users.reset_password(database.uow(), clock, reg.admin, reg.clerk.user_id, "given-by-admin-3")
    with pytest.raises(AuthenticationFailed):
        users.sign_in(database.uow(), clock, "carol", PASSWORD)
    assert users.sign_in(database.uow(), clock, "carol", "given-by-admin-3").must_change_password


def test_the_last_active_administrator_can_be_neither_disabled_nor_demoted(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    cli = users.command_line_actor(database.uow(), clock)
    with pytest.raises(ValidationError, match="last active administrator"):
        users.set_active(database.uow(), clock, cli, reg.admin.user_id, False)
    with pytest.raises(ValidationError, match="last active administrator"):
        users.set_roles(database.uow(), clock, cli, reg.admin.user_id, {Role.CLERK})
    # With a second administrator, the first may go.
    users.set_roles(database.uow(), clock, cli, reg.clerk.user_id, {Role.CLERK, Role.ADMINISTRATOR})
    users.set_active(database.uow(), clock, cli, reg.admin.user_id, False)
    with pytest.raises(AuthenticationFailed):
        users.sign_in(database.uow(), clock, "admin", PASSWORD)


def test_two_administrators_demoting_each_other_at_once_leave_one(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    cli = users.command_line_actor(database.uow(), clock)
    users.set_roles(database.uow(), clock, cli, reg.clerk.user_id, {Role.ADMINISTRATOR})
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def demote(user_id: int) -> None:
        barrier.wait()
        try:
            users.set_roles(database.uow(), clock, cli, user_id, {Role.CLERK})
            outcomes.append("demoted")
        except ValidationError:
            outcomes.append("refused")
        except Exception as e:  # SQLite's busy writer: serialised, the other then decides
            outcomes.append(type(e).__name__)

    threads = [
        threading.Thread(target=demote, args=(uid,))
        for uid in (reg.admin.user_id, reg.clerk.user_id)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    with database.read() as conn:
        admins = [r for r in user_rows(conn) if Role.ADMINISTRATOR in r.roles and r.active]
    assert len(admins) == 1, outcomes
    assert sorted(outcomes) == ["demoted", "refused"]


def test_a_user_disabled_while_working_is_refused_at_the_next_write(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    heard: list[str] = []
    database.signed_out_listeners.append(heard.append)
    users.set_active(database.uow(), clock, reg.admin, reg.clerk.user_id, False)
    with pytest.raises(SignedOut, match="disabled by an administrator"):
        # Any write: the unit of work checks before the service changes anything.
        permits.update_description(database.uow(), clock, reg.clerk, reg.permit_id, "Deck")
    assert heard == [SignedOut.MESSAGE]


def test_the_command_line_actor_cannot_sign_in_and_is_not_a_user(
    database: Database, clock: FixedClock
) -> None:
    seed_register(database, clock)
    users.command_line_actor(database.uow(), clock)
    with pytest.raises(AuthenticationFailed):
        users.sign_in(database.uow(), clock, users.COMMAND_LINE, "!")
    with database.read() as conn:
        assert users.COMMAND_LINE not in [r.username for r in user_rows(conn)]


# --- the command line, run as a script would ----------------------------------------------


def permitdesk(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "permitdesk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def office_db(tmp_path: Path, clock: FixedClock) -> Path:
    path = tmp_path / "office.db"
    database = open_database(sqlite_url(path))
    try:
        seed_register(database, clock)
    finally:
        database.close()
    return path


def test_users_add_reads_the_password_from_stdin_and_the_audit_trail_says_command_line(
    office_db: Path, clock: FixedClock
) -> None:
    db = str(office_db)
    done = permitdesk(
        "users", "add", "--db", db, "--username", "ines", "--name", "Ines Inspector",
        "--role", "inspector", "--role", "clerk", stdin="long-walk-home\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Added ines (clerk, inspector)."
    listed = permitdesk("users", "list", "--db", db)
    assert listed.returncode == 0
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
        assert who is not None and who[0] == "command line"
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
         "permitdesk: error: no password on standard input"),
    ],
)  # fmt: skip
def test_users_add_exits_2_with_one_line_on_bad_input(
    office_db: Path, args: tuple[str, ...], stdin: str, message: str
) -> None:
    done = permitdesk("users", "add", "--db", str(office_db), *args, stdin=stdin)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith(message), done.stderr
    assert "Traceback" not in done.stderr


def test_users_roles_disable_and_reset_password_through_the_command(
    office_db: Path, clock: FixedClock
) -> None:
    db = str(office_db)
    assert permitdesk("users", "roles", "--db", db, "--username", "terry",
                      "--role", "treasurer", "--role", "clerk").returncode == 0  # fmt: skip
    reset = permitdesk(
        "users", "reset-password", "--db", db, "--username", "ivan", stdin="told-in-person-4\n"
    )
    assert reset.returncode == 0, reset.stderr
    assert permitdesk("users", "disable", "--db", db, "--username", "carol").returncode == 0
    last = permitdesk("users", "disable", "--db", db, "--username", "admin")
    assert last.returncode == 2
    assert "admin" not in last.stdout and "last active administrator" in last.stderr
    unknown = permitdesk("users", "disable", "--db", db, "--username", "nobody")
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


def test_a_change_by_the_command_line_shows_who_in_a_permits_history(
    office_db: Path, clock: FixedClock
) -> None:
    """The audit trail's name for the built-in actor, as the History tab prints it."""
    database = open_database(sqlite_url(office_db))
    try:
        cli = users.command_line_actor(database.uow(), clock)
        with database.read() as conn:
            permit_id = conn.execute(select(schema.permit.c.id)).scalars().first()
        assert permit_id is not None
        permits.update_description(database.uow(), clock, cli, permit_id, "Garage, 24x24")
        with database.read() as conn:
            history = permit_history(conn, permit_id)
        assert history[0].username == "command line"  # newest first
    finally:
        database.close()


# --- powers read from the register at every write; wrong passwords in a row -------------------


def test_a_demoted_inspector_cannot_issue_with_the_roles_he_signed_in_with(
    database: Database, clock: FixedClock
) -> None:
    from tests.factories import make_issuable

    reg = seed_register(database, clock)
    make_issuable(database, clock, reg.admin, reg.permit_id)
    users.set_roles(database.uow(), clock, reg.admin, reg.inspector.user_id, {Role.CLERK})
    with pytest.raises(SignedOut, match="changed your roles; sign in again"):
        permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    with database.read() as conn:
        number = conn.execute(
            select(schema.permit.c.number).where(schema.permit.c.id == reg.permit_id)
        ).scalar_one()
    assert number is None
    # Signed in again with the new roles, the service's own check refuses in words.
    clerk_now = users.authenticate(database.uow(), "ivan", PASSWORD)
    with pytest.raises(PermissionDenied, match="only a user with the role"):
        permits.issue_permit(database.uow(), clock, clerk_now, reg.permit_id)


def test_wrong_passwords_in_a_row_wait_longer_then_lock_until_an_administrator_unlocks(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)

    def attempt(password: str) -> str:
        try:
            users.sign_in(database.uow(), clock, "carol", password)
        except AuthenticationFailed as e:
            return str(e)
        return "signed in"

    for _ in range(5):  # typing mistakes: refused at once, no waiting
        assert attempt("not-hers-1") == "Unknown user name or wrong password."
    assert attempt("not-hers-1") == "Unknown user name or wrong password."  # the 6th
    # Now 15 seconds must pass; even the right password is not checked before.
    assert attempt(PASSWORD) == "Too many wrong passwords: wait 15 seconds before you try again."
    clock.advance(timedelta(seconds=10))
    assert attempt(PASSWORD) == "Too many wrong passwords: wait 5 seconds before you try again."
    clock.advance(timedelta(seconds=5))
    assert attempt(PASSWORD) == "signed in"  # and the count starts again
    for _ in range(10):
        clock.advance(timedelta(minutes=30))
        answer = attempt("not-hers-1")
    assert answer.startswith("This account is locked after 10 wrong passwords in a row")
    clock.advance(timedelta(days=1))
    assert attempt(PASSWORD).startswith("This account is locked")  # time does not unlock it
    with database.read() as conn:
        row = next(r for r in user_rows(conn) if r.username == "carol")
        a = schema.audit_event
        counts = [
            dict((c["field"], c["new"]) for c in changes).get("failed_sign_ins")
            for changes in conn.execute(
                select(a.c.changes)
                .where((a.c.entity == "user") & (a.c.entity_id == reg.clerk.user_id))
                .order_by(a.c.id)
            ).scalars()
        ]
    assert row.locked and row.failed_sign_ins == 10
    assert [c for c in counts if c is not None][-10:] == [str(n) for n in range(1, 11)]
    with pytest.raises(PermissionDenied):
        users.unlock(database.uow(), clock, reg.clerk, reg.clerk.user_id)
    users.unlock(database.uow(), clock, reg.admin, reg.clerk.user_id)
    assert attempt(PASSWORD) == "signed in"


def test_an_unknown_user_name_costs_the_same_password_check_as_a_wrong_password(
    database: Database, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_register(database, clock)
    checked: list[str] = []
    real = users._verifies_hash
    monkeypatch.setattr(users, "_verifies_hash", lambda h, p: checked.append(p) or real(h, p))
    for name in ("carol", "nobody-here"):
        with pytest.raises(AuthenticationFailed, match="Unknown user name or wrong password"):
            users.sign_in(database.uow(), clock, name, "guess-1234")
    assert checked == ["guess-1234", "guess-1234"]
