"""Users and roles: the services every screen and the command line use (`permitdesk users
...` itself: tests/db/test_cli_users.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from db import schema
from db.database import Database, open_database
from db.engine import sqlite_url
from db.queries import permit_history
from db.user_queries import user_access, user_rows
from desk.clock import FixedClock
from desk.domain.enums import Role
from desk.domain.passwords import password_problem
from desk.enforcement.model import Channel
from desk.errors import (
    AuthenticationFailed,
    NotFound,
    PermissionDenied,
    SignedOut,
    ValidationError,
)
from desk.services import permits, users
from tests.cli_sign_in import seeded_office
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


# --- the built-in "command line" actor (the commands: tests/db/test_cli_users.py) -----------


@pytest.fixture
def office_db(tmp_path: Path, clock: FixedClock) -> Path:
    return seeded_office(tmp_path / "office.db", clock)


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


REFUSED = users.WRONG  # every refusal of a sign-in, whatever the reason


def refusal(database: Database, clock: FixedClock, name: str, password: str) -> str:
    with pytest.raises(AuthenticationFailed) as refused:
        users.sign_in(database.uow(), clock, name, password)
    return str(refused.value)


def test_an_administrator_locks_a_clerk_who_is_refused_in_the_words_of_a_wrong_password(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(PermissionDenied):
        users.lock(database.uow(), clock, reg.clerk, reg.inspector.user_id)
    users.lock(database.uow(), clock, reg.admin, reg.clerk.user_id)
    assert refusal(database, clock, "carol", PASSWORD) == refusal(
        database, clock, "nobody-here", PASSWORD
    ) == refusal(database, clock, "ivan", "not-his-1") == REFUSED  # fmt: skip
    with database.read() as conn:
        row = next(r for r in user_rows(conn) if r.username == "carol")
    assert (row.locked, row.locked_by, row.locked_at) == (True, "Alex Administrator", clock.now())
    users.unlock(database.uow(), clock, reg.admin, reg.clerk.user_id)
    assert users.sign_in(database.uow(), clock, "carol", PASSWORD).actor == reg.clerk
    with database.read() as conn:
        row = next(r for r in user_rows(conn) if r.username == "carol")
    assert (row.locked, row.locked_by, row.locked_at) == (False, "", None)


def test_a_clerk_locked_while_signed_in_is_refused_at_her_next_save_and_section(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    users.lock(database.uow(), clock, reg.admin, reg.clerk.user_id)
    with pytest.raises(SignedOut, match="An administrator locked your account"):
        users.change_own_password(database.uow(), clock, reg.clerk, PASSWORD, "Another-pass-9")
    with database.read() as conn:
        assert user_access(conn, reg.clerk.user_id)[0] == "locked"


def test_an_administrator_can_lock_neither_herself_nor_the_last_administrator_who_can_sign_in(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(ValidationError, match="user: you cannot lock your own account"):
        users.lock(database.uow(), clock, reg.admin, reg.admin.user_id)
    cli = users.command_line_actor(database.uow(), clock)
    with pytest.raises(ValidationError) as last:
        users.lock(database.uow(), clock, cli, reg.admin.user_id)
    assert last.value.message == (
        "Alex Administrator is the last active administrator who can sign in; make another "
        "user an administrator first"
    )
    # A second administrator; once she is locked, the first is the last one again.
    users.set_roles(database.uow(), clock, reg.admin, reg.inspector.user_id, {Role.ADMINISTRATOR})
    users.lock(database.uow(), clock, reg.admin, reg.inspector.user_id)
    with pytest.raises(ValidationError) as last:
        users.lock(database.uow(), clock, cli, reg.admin.user_id)
    assert "unlock another administrator or make another user an administrator first" in str(
        last.value
    )
    with pytest.raises(ValidationError, match="last active administrator who can sign in"):
        users.set_active(database.uow(), clock, cli, reg.admin.user_id, False)
    assert users.sign_in(database.uow(), clock, "admin", PASSWORD)


def test_another_administrator_resets_and_unlocks_a_locked_administrator(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    users.set_roles(database.uow(), clock, reg.admin, reg.inspector.user_id, {Role.ADMINISTRATOR})
    ivan = users.authenticate(database.uow(), "ivan", PASSWORD)  # an administrator now
    users.lock(database.uow(), clock, reg.admin, ivan.user_id)
    # Still signed in somewhere, he cannot lift the lock himself: he is signed out.
    with pytest.raises(SignedOut, match="An administrator locked your account"):
        users.unlock(database.uow(), clock, ivan, ivan.user_id)
    users.reset_password(database.uow(), clock, reg.admin, ivan.user_id, "told-in-person-7")
    # A new password does not lift a lock put there on purpose.
    assert refusal(database, clock, "ivan", "told-in-person-7") == REFUSED
    users.unlock(database.uow(), clock, reg.admin, ivan.user_id)
    signed = users.sign_in(database.uow(), clock, "ivan", "told-in-person-7")
    assert signed.must_change_password
    assert signed.actor.roles == frozenset({Role.ADMINISTRATOR})


def test_the_database_owner_recovers_an_administrator_from_the_command_line(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    users.set_roles(database.uow(), clock, reg.admin, reg.inspector.user_id, {Role.ADMINISTRATOR})
    ivan = users.authenticate(database.uow(), "ivan", PASSWORD)
    users.lock(database.uow(), clock, ivan, reg.admin.user_id)
    users.set_active(database.uow(), clock, ivan, reg.admin.user_id, False)
    with pytest.raises(ValidationError, match="carol is not an administrator"):
        users.recover_administrator(database.uow(), clock, "carol", "back-in-at-last-1")
    with pytest.raises(NotFound, match="no user named 'nobody'"):
        users.recover_administrator(database.uow(), clock, "nobody", "back-in-at-last-1")
    with pytest.raises(ValidationError, match="password: use at least 8 characters"):
        users.recover_administrator(database.uow(), clock, "admin", "short")

    users.recover_administrator(database.uow(), clock, " admin ", "back-in-at-last-1")
    signed = users.sign_in(database.uow(), clock, "admin", "back-in-at-last-1")
    assert signed.must_change_password and signed.actor == reg.admin
    with database.read() as conn:
        row = next(r for r in user_rows(conn) if r.username == "admin")
        a, u = schema.audit_event, schema.app_user
        who, changes = conn.execute(
            select(u.c.username, a.c.changes)
            .join(u, u.c.id == a.c.user_id)
            .where((a.c.entity == "user") & (a.c.action == "recovered"))
        ).one()
    assert (row.active, row.locked) == (True, False)
    assert who == users.COMMAND_LINE
    assert changes[0]["new"] == "enabled, unlocked and given a new password from the command line"


# --- reads of what only some may see re-check the user ---------------------------------------


def complaint_with_complainant(database: Database, clock: FixedClock) -> tuple[Any, int]:
    from desk.services.enforcement import complaints
    from tests.db.enforcement_setup import office

    o = office(database, clock)
    taken = complaints.take_complaint(
        database.uow(), clock, o.clerk, o.mid, o.parcel_id, Channel.PHONE,
        "Junk cars in the back yard", complainant_name="Nellie Neighbour",
        complainant_contact="715-555-0142",
    )  # fmt: skip
    who = complaints.complainant(database.uow(), o.inspector, taken.complaint_id)
    assert (who.name, who.contact) == ("Nellie Neighbour", "715-555-0142")
    return o, taken.complaint_id


@pytest.mark.parametrize("change", ["disabled", "locked", "demoted"])
def test_an_inspector_disabled_locked_or_demoted_sees_no_complainant_at_the_next_read(
    database: Database, clock: FixedClock, change: str
) -> None:
    from desk.services.enforcement import complaints

    o, complaint_id = complaint_with_complainant(database, clock)
    heard: list[str] = []
    database.signed_out_listeners.append(heard.append)
    uow = database.uow()
    if change == "disabled":
        users.set_active(uow, clock, o.admin, o.inspector.user_id, False)
        words = SignedOut.MESSAGE
    elif change == "locked":
        users.lock(uow, clock, o.admin, o.inspector.user_id)
        words = "An administrator locked your account; you are signed out."
    else:
        users.set_roles(uow, clock, o.admin, o.inspector.user_id, {Role.CLERK})
        words = SignedOut.ROLES_CHANGED
    with pytest.raises(SignedOut) as refused:
        complaints.complainant(database.uow(), o.inspector, complaint_id)
    assert str(refused.value) == words
    assert heard == [words]  # the window hears it and signs the user out, as after a write
    with database.read() as conn:
        assert (user_access(conn, o.inspector.user_id)[0] == "active") is (change == "demoted")
