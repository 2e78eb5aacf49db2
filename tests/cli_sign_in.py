"""Signing in for the command line's tests, as a user would: `--user U` and the password as the
first line of standard input (permitdesk/signing.py).

- test registers (tests/factories.py, tests/ui/sample.py): every user's password is PASSWORD;
  the administrator "admin" signs in as is, the staff an administrator added must change their
  first password first (ready() takes it as changed);
- demo registers (db/demo.py): every login's password is DEMO_PASSWORD, none to change.
"""

from __future__ import annotations

import io
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, insert, inspect, text, update

from db import audit_chain, schema
from db.database import open_database
from db.demo import DEMO_PASSWORD
from db.engine import sqlite_url
from desk.clock import Clock, FixedClock
from desk.services import users
from tests.factories import PASSWORD, seed_register

CLOCK = FixedClock(date(2026, 3, 2))

__all__ = [
    "DEMO_PASSWORD",
    "PASSWORD",
    "always_signed",
    "first_administrator",
    "lines",
    "ready",
    "seeded_office",
    "signed",
    "signed_demo",
    "user_row",
]


def lines(*values: str) -> str:
    """Standard input of these lines, each ended."""
    return "".join(f"{v}\n" for v in values)


def signed(
    monkeypatch: pytest.MonkeyPatch, user: str = "admin", *after: str, password: str = PASSWORD
) -> list[str]:
    """["--user", user] for the arguments; standard input then holds the password and the
    lines `after` it (a new password, a fee request's JSON). Call it in each main([...]): every
    run reads its own standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines(password, *after)))
    return ["--user", user]


class _EveryLine(io.StringIO):
    """Standard input whose every line is the same password."""

    def __init__(self, password: str) -> None:
        super().__init__()
        self.line = f"{password}\n"

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return self.line


def always_signed(monkeypatch: pytest.MonkeyPatch, password: str = PASSWORD) -> None:
    """Standard input gives the password every time a command reads it: for a module whose
    commands all sign in as the same user (the arguments still name them: --user)."""
    monkeypatch.setattr(sys, "stdin", _EveryLine(password))


def signed_demo(monkeypatch: pytest.MonkeyPatch, user: str = "admin", *after: str) -> list[str]:
    """signed() on a demo register (`permitdesk demo`)."""
    return signed(monkeypatch, user, *after, password=DEMO_PASSWORD)


def ready(where: Any, *usernames: str) -> None:
    """These users changed their first password already (to PASSWORD), so the command line
    lets them work. `where`: a Database, an SQLite file's path or a database URL."""
    database = where if hasattr(where, "engine") else None
    if database is None:
        given = str(where)
        database = open_database(given if "://" in given else sqlite_url(given), create=False)
    try:
        u = schema.app_user.c
        with database.engine.begin() as conn:
            conn.execute(
                update(schema.app_user)
                .where(u.username.in_(usernames))
                .values(must_change_password=False)
            )
    finally:
        if database is not where:
            database.close()


def first_administrator(path: Path) -> None:
    """The first administrator ("admin", PASSWORD) of a new SQLite register, as the first start
    of Permit Desk makes one."""
    database = open_database(sqlite_url(path), create=False)
    try:
        users.create_first_administrator(
            database.uow(), CLOCK, "admin", "Alex Administrator", PASSWORD
        )
    finally:
        database.close()


def user_row(engine: Engine, username: str = "admin", roles: str = "administrator") -> None:
    """A user whose password is PASSWORD, with the audit row of its creation, written with the
    columns every schema revision has (revision 0001's): for a register made at an older
    revision, which the services (mapped at the newest) cannot write to. From revision 0013 the
    audit row is chained as Permit Desk chains it; before, the upgrade to 0013 chains it."""
    hashed = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO app_user (username, full_name, password_hash, roles, active) "
                "VALUES (:u, :n, :h, :r, :t)"
            ),
            {"u": username, "n": username.title(), "h": hashed, "r": roles, "t": True},
        )
        user_id = conn.execute(
            text("SELECT id FROM app_user WHERE username = :u"), {"u": username}
        ).scalar_one()
        created = {
            "at": datetime(2025, 4, 14, 9, tzinfo=UTC),
            "user_id": None,
            "entity": "user",
            "entity_id": user_id,
            "permit_id": None,
            "action": "create",
            "changes": [
                {"field": "roles_text", "old": None, "new": roles},
                {"field": "active", "old": None, "new": "True"},
            ],
        }
        if "row_hash" in {c["name"] for c in inspect(conn).get_columns("audit_event")}:
            audit_chain.append(conn, [created])
        else:
            conn.execute(insert(schema.audit_event), [created])


def seeded_office(path: Path, clock: Clock) -> Path:
    """A new SQLite register at `path` with the test register's staff and parcels."""
    database = open_database(sqlite_url(path))
    try:
        seed_register(database, clock)
    finally:
        database.close()
    return path
