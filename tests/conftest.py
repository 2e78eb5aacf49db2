"""Shared fixtures: a fixed clock, an SQLite file per test, a PostgreSQL database per run."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any test imports Qt

# Property tests check rules, not speed: no per-example deadline on a busy 2-core CI machine.
settings.register_profile("permitdesk", deadline=None, derandomize=False)
settings.load_profile("permitdesk")

PG_ENV = "PERMITDESK_TEST_POSTGRES_URL"


@pytest.fixture(autouse=True)
def cheap_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 at its lowest cost in tests: they test who may do what, not the hash's strength."""
    from argon2 import PasswordHasher

    from desk.services import users

    monkeypatch.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(date(2026, 3, 2))


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "permitdesk.db"


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A PostgreSQL database created for this test run and dropped afterwards."""
    base = os.environ.get(PG_ENV)
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_ENV} is not set; CI must test PostgreSQL")
        pytest.skip(f"{PG_ENV} not set")
    url = make_url(base)
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    name = f"permitdesk_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL at {url.render_as_string()} is unreachable: {e}")
        pytest.skip(f"PostgreSQL unreachable: {e}")
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def reset_postgres(url: str) -> None:
    """Empty the test database: drop every table of the public schema."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database on each backend."""
    if request.param == "sqlite":
        url = sqlite_url(tmp_path / "permitdesk.db")
    else:
        url = request.getfixturevalue("pg_server_url")
        reset_postgres(url)
    db = open_database(url)
    try:
        yield db
    finally:
        db.close()
