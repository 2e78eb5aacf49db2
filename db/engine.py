"""Engines for the embedded SQLite file and for PostgreSQL (pragmas as in ARCHITECTURE.md)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir, user_log_dir
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from db.orm import start_mappers

APP_NAME = "PermitDesk"


class DatabaseError(Exception):
    """A database that cannot be used as given; the message names the problem."""


def default_sqlite_path() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "permitdesk.db"


def log_dir() -> Path:
    """Where the rotating log goes (permitdesk/logs.py); support asks for these files."""
    return Path(user_log_dir(APP_NAME, appauthor=False))


def sqlite_url(path: str | os.PathLike[str]) -> str:
    return f"sqlite:///{Path(path).expanduser().resolve()}"


def looks_remote(path: str | os.PathLike[str]) -> bool:
    """A path on a network share: SQLite's WAL does not work there (ARCHITECTURE.md)."""
    p = str(path)
    if p.startswith(("\\\\", "//", "smb:", "nfs:")):
        return True
    try:
        real = os.path.realpath(p)
        with open("/proc/mounts", encoding="utf-8") as mounts:
            best = ("", "")
            for line in mounts:
                parts = line.split()
                if len(parts) >= 3 and real.startswith(parts[1]) and len(parts[1]) > len(best[0]):
                    best = (parts[1], parts[2])
            return best[1] in {"nfs", "nfs4", "cifs", "smbfs", "smb3", "sshfs", "fuse.sshfs"}
    except OSError:
        return False


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own transaction handling is turned off; SQLAlchemy emits BEGIN (below).
    dbapi_connection.isolation_level = None
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # treasury data: durable at commit
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


READONLY = "permitdesk_readonly"


def _sqlite_begin(conn: Any) -> None:
    # Writers take the write lock at BEGIN, so a number counter read-modify-write cannot interleave
    # and no transaction fails late with SQLITE_BUSY on upgrade from a read lock. Read-only
    # connections (lists, reports: execution option READONLY) begin deferred and never block.
    if conn.get_execution_options().get(READONLY):
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """An engine for a URL; SQLite files get WAL, FULL sync, foreign keys and BEGIN IMMEDIATE."""
    start_mappers()
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: e.g. a port that is not a number
        raise DatabaseError(f"'{url}' is not a database URL") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise DatabaseError("an in-memory database would lose everything; give a file")
        engine = create_engine(url, echo=echo, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            url = str(parsed.set(drivername="postgresql+psycopg"))
        return create_engine(url, echo=echo, pool_pre_ping=True)
    raise DatabaseError(f"unsupported database '{backend}': use an SQLite file or PostgreSQL")


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def sqlite_file(engine: Engine) -> Path | None:
    if not is_sqlite(engine) or not engine.url.database:
        return None
    return Path(engine.url.database)


def describe(engine: Engine) -> str:
    """Where the data is, for the status bar and messages (no password)."""
    path = sqlite_file(engine)
    if path is not None:
        return str(path)
    return engine.url.render_as_string(hide_password=True)


def sqlite_backup(source: Path, target: Path) -> None:
    """A consistent copy with the sqlite3 online backup API (safe while others are reading)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(str(source))
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def read_connection(engine: Engine) -> Any:
    """A connection for queries only: on SQLite it does not take the write lock."""
    return engine.connect().execution_options(**{READONLY: True})
