"""Whether a refused sign-in's time tells which user names exist: an unknown name, a locked
account and a wrong password, each refused at argon2's real cost, timed in turn.

A measurement of the wall clock, so here and not in the suite (on a loaded CI machine a
multi-threaded argon2 hash varies by a third from one try to the next). The suite checks the
structure the equal times rest on: every refusal makes exactly one argon2 verification with
the office's parameters (tests/db/test_sign_in_throttle.py).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from argon2 import PasswordHasher

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain import sign_ins
from desk.domain.enums import Role
from desk.errors import AuthenticationFailed
from desk.services import users

ROUNDS = 15
TOLERANCE = 1.2  # the slowest kind's median within 20 % of the quickest's
PASSWORD = "bench-password-1"


def _refused(database: object, clock: FixedClock, name: str) -> float:
    start = time.perf_counter()
    try:
        users.sign_in(database.uow(), clock, name, "guess-1234")  # type: ignore[attr-defined]
    except AuthenticationFailed:
        return time.perf_counter() - start
    raise AssertionError(f"{name} signed in with a wrong password")


def measure() -> list[tuple[str, float | None, float | None, str, bool | None, str]]:
    """(metric, value s, floor s, target, passed, note) rows for bench/run.py's table."""
    metric = "sign-in refused: slowest kind ÷ quickest (median)"
    target = f"≤ {TOLERANCE:g}×"
    users._hasher = PasswordHasher()  # the office's parameters, whatever a caller set
    users._NOBODY = None  # the first unknown name is timed too
    with tempfile.TemporaryDirectory(prefix="permitdesk-signin-") as tmp:
        database = open_database(sqlite_url(Path(tmp) / "register.db"))
        try:
            clock = FixedClock(date(2026, 12, 1))
            uow = database.uow
            admin = users.create_first_administrator(uow(), clock, "admin", "Admin", PASSWORD)
            made = {
                name: users.create_user(
                    uow(), clock, admin, username=name, full_name=name.title(),
                    password=PASSWORD, roles={role},
                )
                for name, role in (("carol", Role.CLERK), ("terry", Role.TREASURER))
            }  # fmt: skip
            users.lock(uow(), clock, admin, made["terry"])
            kinds = {"unknown": "nobody-here", "locked": "terry", "wrong password": "carol"}
            times: dict[str, list[float]] = {kind: [] for kind in kinds}
            for _ in range(ROUNDS):  # in turn: a busy moment falls on every kind
                for kind, name in kinds.items():
                    clock.advance(sign_ins.LONGEST_WAIT)  # never in a wait: each is checked
                    times[kind].append(_refused(database, clock, name))
        except Exception as e:  # a measurement, not a test: say what failed
            return [(metric, None, None, target, None, f"error: {e}")]
        finally:
            database.close()
    medians = {kind: statistics.median(t) for kind, t in times.items()}
    ratio = max(medians.values()) / min(medians.values())
    note = ", ".join(f"{kind} {m * 1000:.0f} ms" for kind, m in medians.items())
    # The value column is in seconds: the ratio is said in the note and judged here.
    return [
        (metric, max(medians.values()), min(medians.values()), target, ratio <= TOLERANCE, note)
    ]
