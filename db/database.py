"""Opening a Permit Desk database: the one place that wires engine, schema and unit of work."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from db.engine import (
    DatabaseError,
    describe,
    looks_remote,
    make_engine,
    read_connection,
    sqlite_file,
)
from db.migrate import OpenResult, upgrade
from db.uow import SqlUnitOfWork


@dataclass
class Database:
    engine: Engine
    opened: OpenResult
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

    def uow(self) -> SqlUnitOfWork:
        """A unit of work for one thread; each `with` block is one transaction."""
        return SqlUnitOfWork(self.engine, on_signed_out=self._signed_out)

    def _signed_out(self, message: str) -> None:
        for listener in list(self.signed_out_listeners):
            listener(message)

    def read(self) -> Any:
        """A read-only connection (context manager) for list and report queries."""
        return read_connection(self.engine)

    def close(self) -> None:
        if sqlite_file(self.engine) is not None:
            # Keep the query planner's statistics current as the register grows (SQLite's advice:
            # PRAGMA optimize before closing; analysis_limit bounds its time on big tables).
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA analysis_limit=2000")
                conn.exec_driver_sql("PRAGMA optimize")
                conn.commit()
        self.engine.dispose()


def open_database(url: str, *, create: bool = True, migrate: bool = True) -> Database:
    """Open (and create or upgrade) the database at `url`; DatabaseError names any problem."""
    engine = make_engine(url)
    path = sqlite_file(engine)
    if path is not None and not path.exists():
        if not create:
            raise DatabaseError(f"no database at {path}")
        if not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
    try:
        opened = upgrade(engine) if migrate else OpenResult(False, None, None)
    except OperationalError as e:
        engine.dispose()
        raise DatabaseError(f"cannot open the database {describe(engine)}: {e.orig}") from None
    except DatabaseError:
        engine.dispose()
        raise
    if opened.created or opened.upgraded_from is not None:
        _analyze(engine)
    return Database(engine=engine, opened=opened)


def _analyze(engine: Engine) -> None:
    """Statistics for the planner; without them SQLite may scan every permit on each keystroke."""
    with engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
        conn.commit()
