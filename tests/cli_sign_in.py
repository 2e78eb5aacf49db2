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
from typing import Any

import pytest
from sqlalchemy import update

from db import schema
from db.database import open_database
from db.demo import DEMO_PASSWORD
from db.engine import sqlite_url
from tests.factories import PASSWORD

__all__ = [
    "DEMO_PASSWORD",
    "PASSWORD",
    "always_signed",
    "lines",
    "ready",
    "signed",
    "signed_demo",
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
        text = str(where)
        database = open_database(text if "://" in text else sqlite_url(text), create=False)
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
