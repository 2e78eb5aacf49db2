"""Signing in where anyone can type a user name: wrong passwords in a row delay the next try (up
to five minutes, forgotten after a quiet quarter of an hour) and never lock an account; every
refusal reads the same and costs the same (one argon2 verification each; the wall-clock times
are measured in bench/sign_in.py), whatever the reason; every try is in the audit trail with the
reason, for the administrator."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select

from db import schema
from db.database import Database
from db.user_queries import user_rows
from desk.clock import FixedClock
from desk.domain import sign_ins
from desk.domain.enums import Role
from desk.errors import AuthenticationFailed
from desk.services import users
from tests.factories import PASSWORD, seed_register

WRONG = "not-the-right-1"
REFUSED = (
    "Unknown user name or wrong password. After several wrong tries in a row, wait 5 minutes "
    "before you try again."
)


def attempt(database: Database, clock: FixedClock, name: str, password: str) -> str:
    try:
        users.sign_in(database.uow(), clock, name, password)
    except AuthenticationFailed as e:
        return str(e)
    return "signed in"


def tries(database: Database) -> list[tuple[str, int | None, dict[str, Any]]]:
    """The audit trail's sign-in rows: (action, who acted, {field: new value})."""
    a = schema.audit_event
    with database.read() as conn:
        rows = conn.execute(
            select(a.c.action, a.c.user_id, a.c.changes)
            .where(a.c.entity == "sign_in")
            .order_by(a.c.id)
        ).all()
    return [(r.action, r.user_id, {c["field"]: c["new"] for c in r.changes}) for r in rows]


def last_reason(database: Database) -> str:
    return str(tries(database)[-1][2].get("reason", "none"))


def row_of(database: Database, username: str) -> Any:
    with database.read() as conn:
        return next(r for r in user_rows(conn) if r.username == username)


def test_twenty_wrong_passwords_on_the_administrator_never_lock_it(
    database: Database, clock: FixedClock
) -> None:
    seed_register(database, clock)
    for _ in range(20):
        clock.advance(sign_ins.LONGEST_WAIT)  # each try waits out the one before
        assert attempt(database, clock, "admin", WRONG) == REFUSED
        assert last_reason(database) == "wrong password"  # checked, not refused unchecked
    row = row_of(database, "admin")
    assert not row.locked and row.locked_at is None
    assert row.failed_sign_ins == 20
    clock.advance(sign_ins.LONGEST_WAIT)
    assert attempt(database, clock, "admin", PASSWORD) == "signed in"
    assert row_of(database, "admin").failed_sign_ins == 0


def test_after_five_mistakes_each_wrong_password_makes_the_next_try_wait_longer_up_to_5_minutes(
    database: Database, clock: FixedClock
) -> None:
    seed_register(database, clock)
    for _ in range(5):  # typing mistakes: each checked at once
        assert attempt(database, clock, "carol", WRONG) == REFUSED
        assert last_reason(database) == "wrong password"
    for wait in (15, 30, 60, 120, 240, 300, 300):  # after the 6th, 7th, ... 12th
        assert attempt(database, clock, "carol", WRONG) == REFUSED
        assert last_reason(database) == "wrong password"
        clock.advance(timedelta(seconds=wait - 1))
        # A second early even the right password is not checked (it would be a free guess),
        # and the words are the same as for a wrong one.
        assert attempt(database, clock, "carol", PASSWORD) == REFUSED
        assert last_reason(database) == "too soon after wrong passwords"
        clock.advance(timedelta(seconds=1))
    row = row_of(database, "carol")
    assert (row.failed_sign_ins, row.locked) == (12, False)  # tries in the wait are not counted
    assert attempt(database, clock, "carol", PASSWORD) == "signed in"
    assert row_of(database, "carol").failed_sign_ins == 0


def test_a_quiet_quarter_hour_after_the_last_wrong_password_starts_the_count_over(
    database: Database, clock: FixedClock
) -> None:
    seed_register(database, clock)
    for _ in range(12):
        clock.advance(sign_ins.LONGEST_WAIT)
        attempt(database, clock, "carol", WRONG)
    assert sign_ins.wait_before_next_try(12, clock.now(), clock.now()) == 300
    clock.advance(timedelta(minutes=15))
    # Five typing mistakes are forgiven again (each checked at once, no waiting) ...
    for n in range(1, 6):
        assert attempt(database, clock, "carol", WRONG) == REFUSED
        assert last_reason(database) == "wrong password"
        assert row_of(database, "carol").failed_sign_ins == n
    # ... and the right password right after them signs in.
    assert attempt(database, clock, "carol", PASSWORD) == "signed in"


def test_every_refusal_reads_the_same_and_the_audit_trail_says_why(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    users.create_user(
        database.uow(), clock, reg.admin, username="dora", full_name="Dora Departed",
        password=PASSWORD, roles={Role.CLERK},
    )  # fmt: skip
    dora = users.user_id_for(database.uow(), "dora")
    users.set_active(database.uow(), clock, reg.admin, dora, False)
    users.lock(database.uow(), clock, reg.admin, reg.inspector.user_id)
    users.command_line_actor(database.uow(), clock)
    for _ in range(6):  # terry: the 7th try must wait 15 seconds
        attempt(database, clock, "terry", WRONG)
    before = len(tries(database))

    answers = {
        "unknown user name": attempt(database, clock, "nobody-here", PASSWORD),
        "disabled": attempt(database, clock, "dora", PASSWORD),
        "locked by an administrator": attempt(database, clock, "ivan", PASSWORD),
        "too soon after wrong passwords": attempt(database, clock, "terry", PASSWORD),
        "built-in account": attempt(database, clock, users.COMMAND_LINE, "!"),
        "wrong password": attempt(database, clock, "carol", WRONG),
    }
    assert answers == dict.fromkeys(answers, REFUSED)
    assert users.WRONG == REFUSED
    recorded = tries(database)[before:]
    assert [(action, by, fields["reason"]) for action, by, fields in recorded] == [
        ("failed", None, reason) for reason in answers
    ]
    assert [fields["user name"] for _a, _b, fields in recorded] == [
        "nobody-here", "dora", "ivan", "terry", users.COMMAND_LINE, "carol",
    ]  # fmt: skip
    assert row_of(database, "terry").failed_sign_ins == 6  # the early try was not counted

    # A success is recorded too, by the user who signed in.
    assert attempt(database, clock, "carol", PASSWORD) == "signed in"
    assert tries(database)[-1] == ("signed in", reg.clerk.user_id, {"user name": "carol"})


class CountingHasher(PasswordHasher):
    """argon2 at the tests' cost, counting its computations."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.calls: list[str] = []

    def hash(self, *args: Any, **kwargs: Any) -> str:
        self.calls.append("hash")
        return super().hash(*args, **kwargs)

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.calls.append("verify")
        return super().verify(hash, password)


def test_every_refusal_costs_one_password_computation_the_first_unknown_name_too(
    database: Database, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = seed_register(database, clock)
    users.lock(database.uow(), clock, reg.admin, reg.inspector.user_id)
    for _ in range(6):
        attempt(database, clock, "terry", WRONG)
    hasher = CountingHasher()  # the parameters of the seeded users' hashes: none is rehashed
    monkeypatch.setattr(users, "_hasher", hasher)
    monkeypatch.setattr(users, "_NOBODY", None)  # as on a fresh start
    costs = []
    for name, password in (
        ("nobody-here", "guess-1234"),  # the first: makes the hash it checks against later
        ("nobody-else", "guess-1234"),
        ("ivan", PASSWORD),  # locked
        ("terry", PASSWORD),  # in its wait
        ("carol", "guess-1234"),  # a wrong password
    ):
        hasher.calls.clear()
        assert attempt(database, clock, name, password) == REFUSED
        costs.append(hasher.calls[:])
    assert costs == [["hash"], ["verify"], ["verify"], ["verify"], ["verify"]]


def test_a_hash_made_with_older_parameters_is_made_anew_at_the_next_sign_in(
    database: Database, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_register(database, clock)
    newer = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    monkeypatch.setattr(users, "_hasher", newer)
    assert attempt(database, clock, "carol", PASSWORD) == "signed in"
    u = schema.app_user
    with database.read() as conn:
        stored = conn.execute(select(u.c.password_hash).where(u.c.username == "carol")).scalar()
    assert "$m=16,t=2,p=1$" in stored  # a wrong password now costs what an unknown name costs
    assert attempt(database, clock, "carol", PASSWORD) == "signed in"


def test_starting_the_program_computes_no_password_hash() -> None:
    """Importing the users' services costs no argon2 computation (every start would pay it):
    the hash an unknown name is checked against is made at the first sign-in."""
    import subprocess
    import sys

    code = (
        "import argon2\n"
        "made = []\n"
        "real = argon2.PasswordHasher.hash\n"
        "argon2.PasswordHasher.hash = lambda self, *a, **k: made.append(1) or real(self, *a, **k)\n"
        "import desk.services.users as users\n"
        "assert users._NOBODY is None and made == [], made\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
