"""Shared fixtures: a fixed clock, an SQLite file per test, a PostgreSQL database per run."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url

from db.database import Database, open_database
from db.engine import is_sqlite, make_engine, sqlite_url
from db.roles import provision_app_role
from desk.clock import FixedClock

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any test imports Qt

# Property tests check rules, not speed: no per-example deadline on a busy 2-core CI machine.
settings.register_profile("permitdesk", deadline=None, derandomize=False)
settings.load_profile("permitdesk")

PG_ENV = "PERMITDESK_TEST_POSTGRES_URL"


@pytest.fixture(autouse=True)
def date_fields_count_by_the_wall_clock_again() -> Iterator[None]:
    """A main window sets the clock every date field counts "today" by; the next test starts
    from the wall clock, whatever window the last one built."""
    yield
    module = sys.modules.get("ui.date_field")
    if module is not None:
        module.use_office_clock(date.today)


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


@dataclass(frozen=True)
class PgRegister:
    """The PostgreSQL database of this test run and its two roles, as an office sets them up
    (README: Sharing the register on PostgreSQL): the owner makes and upgrades the register,
    the workstations connect as the application role."""

    owner_url: str  # owns the database; runs the migrations
    app_url: str  # what the `database` fixture connects as
    owner: str
    app_role: str
    app_password: str
    superuser_url: str  # $PERMITDESK_TEST_POSTGRES_URL's role, at this database


def _pg_base() -> URL:
    base = os.environ.get(PG_ENV)
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_ENV} is not set; CI must test PostgreSQL")
        pytest.skip(f"{PG_ENV} not set")
    url = make_url(base)
    return url.set(drivername="postgresql+psycopg") if url.drivername == "postgresql" else url


@pytest.fixture(scope="session")
def pg_register() -> Iterator[PgRegister]:
    """Made once per run by the superuser in $PERMITDESK_TEST_POSTGRES_URL: an owner role
    (LOGIN CREATEROLE, no superuser) owning a new database, and the name and password of the
    application role (created by provision_app_role, as `permitdesk db init --app-role` does).
    All dropped afterwards."""
    url = _pg_base()
    tag = f"{os.getpid()}_{uuid.uuid4().hex[:8]}"
    name, owner, app = f"permitdesk_test_{tag}", f"permitdesk_owner_{tag}", f"permitdesk_app_{tag}"
    owner_password, app_password = uuid.uuid4().hex, uuid.uuid4().hex
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(
                text(f"CREATE ROLE \"{owner}\" LOGIN CREATEROLE PASSWORD '{owner_password}'")
            )
            conn.execute(text(f'CREATE DATABASE "{name}" OWNER "{owner}"'))
    except Exception as e:
        admin.dispose()
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL at {url.render_as_string()} is unreachable: {e}")
        pytest.skip(f"PostgreSQL unreachable: {e}")
    at = url.set(database=name)
    try:
        yield PgRegister(
            owner_url=at.set(username=owner, password=owner_password).render_as_string(
                hide_password=False
            ),
            app_url=at.set(username=app, password=app_password).render_as_string(
                hide_password=False
            ),
            owner=owner,
            app_role=app,
            app_password=app_password,
            superuser_url=at.render_as_string(hide_password=False),
        )
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            for role in (app, owner):
                conn.execute(text(f'DROP ROLE IF EXISTS "{role}"'))
        admin.dispose()


@pytest.fixture(scope="session")
def pg_server_url(pg_register: PgRegister) -> str:
    """The run's PostgreSQL database, connected as its owner role: for tests that make, upgrade
    or damage the register's schema (the `database` fixture connects as the application role)."""
    return pg_register.owner_url


def reset_postgres(url: str) -> None:
    """Empty the test database: drop every table of the public schema (as its owner)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def provision(pg: PgRegister) -> None:
    """The application role's rights on the register as it is now (run after migrating)."""
    engine = make_engine(pg.owner_url)
    try:
        with engine.begin() as conn:
            provision_app_role(conn, pg.app_role, pg.app_password)
    finally:
        engine.dispose()


def workstation_check(pg: PgRegister) -> list[str]:
    """`db check` from a workstation, after the owner set the application role's rights on the
    register as it is now (as `permitdesk db upgrade` does): run as the owner, db check names
    the owner role itself (db/roles.py)."""
    from db.migrate import check

    provision(pg)
    engine = make_engine(pg.app_url)
    try:
        return check(engine)
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database on each backend; on PostgreSQL made by the owner role and
    connected as the application role, as a workstation is."""
    if request.param == "sqlite":
        url = sqlite_url(tmp_path / "permitdesk.db")
    else:
        pg: PgRegister = request.getfixturevalue("pg_register")
        reset_postgres(pg.owner_url)
        open_database(pg.owner_url).close()
        provision(pg)
        url = pg.app_url
    db = open_database(url)
    try:
        yield db
    finally:
        db.close()


@pytest.fixture
def owner_engine(database: Database, request: pytest.FixtureRequest) -> Iterator[Engine]:
    """The `database` fixture's register connected as its owner (PostgreSQL), for a test that
    damages what a workstation may not touch; on SQLite the file's own engine."""
    if is_sqlite(database.engine):
        yield database.engine
        return
    engine = make_engine(request.getfixturevalue("pg_register").owner_url)
    try:
        yield engine
    finally:
        engine.dispose()
