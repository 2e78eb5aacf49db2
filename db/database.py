"""Opening a Permit Desk database: the one place that wires engine, schema and unit of work."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError, OperationalError

from db.changes import ChangeWatcher
from db.engine import (
    DatabaseError,
    describe,
    is_sqlite,
    looks_remote,
    make_engine,
    read_connection,
    sqlite_file,
    writable,
)
from db.migrate import HEAD, OpenResult, _stamped_revision, known_revisions, upgrade
from db.uow import SqlUnitOfWork

log = logging.getLogger("permitdesk.db")


@dataclass
class Database:
    engine: Engine
    opened: OpenResult
    # A file that cannot be written (a copy on a CD, an archive on a read-only share): open for
    # looking up and printing; every service that would write refuses (ReadOnlyRegister).
    read_only: bool = False
    # Told (with the message) when a unit of work refuses a user disabled since signing in; the
    # window signs them out, whichever screen caught the error.
    signed_out_listeners: list[Callable[[str], None]] = field(default_factory=list)

    @property
    def where(self) -> str:
        return describe(self.engine)

    @property
    def warning(self) -> str | None:
        """A warning to show the user about where the data is kept."""
        path = sqlite_file(self.engine)
        if path is not None and looks_remote(path):
            return (
                f"{path} is on a network share. SQLite files are not safe there; offices with "
                "several workstations should use a PostgreSQL server (Settings → Database)."
            )
        return None

    @property
    def read_only_notice(self) -> str | None:
        """The banner over a read-only register's window."""
        if not self.read_only:
            return None
        return (
            f"Read-only: {self.where} cannot be written here (a copy on a CD or a read-only "
            "share). You can look things up and print reports; nothing can be changed."
        )

    def uow(self) -> SqlUnitOfWork:
        """A unit of work for one thread; each `with` block is one transaction."""
        return SqlUnitOfWork(self.engine, on_signed_out=self._signed_out, read_only=self.read_only)

    def _signed_out(self, message: str) -> None:
        for listener in list(self.signed_out_listeners):
            listener(message)

    def watch_changes(self) -> ChangeWatcher:
        """The changes other workstations (and this one) commit from now on; close() it."""
        return ChangeWatcher(self.engine)

    def read(self) -> Any:
        """A read-only connection (context manager) for list and report queries."""
        return read_connection(self.engine)

    def close(self) -> None:
        if sqlite_file(self.engine) is not None and not self.read_only:
            # Keep the query planner's statistics current as the register grows (SQLite's advice:
            # PRAGMA optimize before closing; analysis_limit bounds its time on big tables).
            # Only an optimisation: a full disk or a busy file must not make closing fail.
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA analysis_limit=2000")
                    conn.exec_driver_sql("PRAGMA optimize")
                    conn.commit()
            except DBAPIError as e:
                log.warning("PRAGMA optimize on closing %s: %s", self.where, e.orig)
        self.engine.dispose()


def no_register(where: str) -> str:
    return (
        f"there is no Permit Desk register at {where}; "
        "an administrator creates one with 'permitdesk db init'"
    )


def open_database(
    url: str,
    *,
    create: bool = True,
    migrate: bool = True,
    upgrade_shared: bool = False,
    reconnect_pause: float = 0,
) -> Database:
    """Open the register at `url`; DatabaseError names any problem.

    An absent or empty database (no file, a 0-byte file, no tables) becomes a new register only
    with `create`. An SQLite file at an older revision is upgraded (after a backup); a shared
    PostgreSQL one only with `upgrade_shared` (`permitdesk db upgrade`), never by a workstation.
    An SQLite file that cannot be written opens read-only (Database.read_only).
    `reconnect_pause`: see make_engine (the window waits for a restarting server; scripts not).
    """
    engine = make_engine(url, reconnect_pause=reconnect_pause)
    path = sqlite_file(engine)
    if path is not None and path.is_file() and path.stat().st_size > 0 and not writable(path):
        engine.dispose()
        return _open_read_only(url, path)
    if path is not None and not create and (not path.exists() or path.stat().st_size == 0):
        # Checked before connecting: the connect pragmas would write to an empty file.
        engine.dispose()
        raise DatabaseError(no_register(str(path)))
    if path is not None and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    with _disposed_on_failure(engine), _schema_lock(engine, migrate):
        _refuse_unless_allowed(engine, create, migrate and not upgrade_shared)
        opened = upgrade(engine) if migrate else OpenResult(False, None, None)
    if opened.created or opened.upgraded_from is not None:
        _analyze(engine)
    return Database(engine=engine, opened=opened)


def _open_read_only(url: str, path: Path) -> Database:
    """A register nobody can write here, as it is: nothing to create or upgrade."""
    engine = make_engine(url, read_only=True)
    with _disposed_on_failure(engine):
        revision = _stamped_revision(engine)
        if revision is None:
            if not inspect(engine).get_table_names():
                raise DatabaseError(no_register(str(path)))
            raise DatabaseError(f"{path} is not a Permit Desk database")
        if revision != HEAD:
            raise DatabaseError(
                f"{path} is read-only and was written by "
                + ("an older" if revision in known_revisions() else "another")
                + " version of Permit Desk; copy it to a folder you can write to and open the "
                "copy (it is upgraded there)"
            )
    return Database(engine=engine, opened=OpenResult(False, None, None), read_only=True)


@contextmanager
def _disposed_on_failure(engine: Engine) -> Iterator[None]:
    """A database that cannot be opened is named in the error and leaves no connection open."""
    try:
        yield
    except OperationalError as e:
        engine.dispose()
        raise DatabaseError(f"cannot open the database {describe(engine)}: {e.orig}") from None
    except DatabaseError:
        engine.dispose()
        raise


def _refuse_unless_allowed(engine: Engine, create: bool, refuse_shared_upgrade: bool) -> None:
    """An empty database without `create`, or an older PostgreSQL schema a workstation would
    otherwise upgrade behind the other workstations' backs."""
    revision = _stamped_revision(engine)
    if revision == HEAD:
        return
    if revision is None:
        if (not create or not _may_create(engine)) and not inspect(engine).get_table_names():
            raise DatabaseError(no_register(describe(engine)))
        return
    if refuse_shared_upgrade and not is_sqlite(engine) and revision in known_revisions():
        raise DatabaseError(
            f"the shared database {describe(engine)} is at schema revision {revision}, older "
            f"than this Permit Desk ({HEAD}); {_upgraded_by_owner(engine)}"
        )


def _may_create(engine: Engine) -> bool:
    """Whether the connected role may make the register's tables: a workstation's application
    role may not (db/roles.py), and would fail on "permission denied" half-way."""
    if is_sqlite(engine):
        return True
    with engine.connect() as conn:
        return bool(conn.execute(text("SELECT has_schema_privilege('public', 'CREATE')")).scalar())


def _upgraded_by_owner(engine: Engine) -> str:
    """Who upgrades an older shared register, with the command (the tables' owner role)."""
    from db.roles import connect_as, register_owner

    with engine.connect() as conn:
        owner = register_owner(conn)
    if owner is None:
        return "an administrator runs 'permitdesk db upgrade' first"
    return (
        "the register must be upgraded by its owner first: an administrator runs "
        f"'permitdesk db upgrade' as the owner role {owner} "
        f"(permitdesk db upgrade --database-url {connect_as(engine.url, owner)})"
    )


# Any fixed 64-bit number, the same in every Permit Desk: the workstations' lock on the schema.
_SCHEMA_LOCK_KEY = 0x5045524D49545344  # "PERMITSD"


@contextmanager
def _schema_lock(engine: Engine, migrate: bool) -> Iterator[None]:
    """Workstations opening a new or older PostgreSQL database together create or upgrade it
    one at a time: the next finds it done. SQLite's BEGIN IMMEDIATE serialises already."""
    if not migrate or is_sqlite(engine):
        yield
        return
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _SCHEMA_LOCK_KEY})
        conn.commit()
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _SCHEMA_LOCK_KEY})
            conn.commit()


def _analyze(engine: Engine) -> None:
    """Statistics for the planner; without them SQLite may scan every permit on each keystroke."""
    with engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
        conn.commit()
