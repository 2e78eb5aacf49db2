"""Engines for the embedded SQLite file and for PostgreSQL (pragmas as in ARCHITECTURE.md)."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from db.orm import start_mappers

log = logging.getLogger("permitdesk.db")


class DatabaseError(Exception):
    """A database that cannot be used as given; the message names the problem."""


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


def _casefold(text: Any) -> Any:
    return text.casefold() if isinstance(text, str) else text


def _sqlite_functions(dbapi_connection: Any) -> None:
    # SQLite's lower() folds ASCII only: "MÜLLER" must find "Müller" (db.uow casefolded()).
    dbapi_connection.create_function("casefold", 1, _casefold, deterministic=True)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own transaction handling is turned off; SQLAlchemy emits BEGIN (below).
    dbapi_connection.isolation_level = None
    _sqlite_functions(dbapi_connection)
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


def _sqlite_connect_read_only(dbapi_connection: Any, _record: Any) -> None:
    # No journal mode or sync to set: nothing is written.
    _sqlite_functions(dbapi_connection)
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def _sqlite_begin_deferred(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN")


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection to a file that cannot be written (a CD, a read-only share): read-only mode;
    when even that cannot start (a WAL file whose folder is read-only has no shared-memory file
    to make), as an immutable file, which no one can be changing there."""
    target = Path(path).resolve().as_posix()
    try:
        conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        return sqlite3.connect(
            f"file:{target}?mode=ro&immutable=1", uri=True, check_same_thread=False
        )


def writable(path: Path) -> bool:
    """Whether SQLite can write the file: the file itself, and its folder for the WAL files.
    (A read-only mount refuses even root.)"""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def make_engine(
    url: str, *, echo: bool = False, read_only: bool = False, reconnect_pause: float = 0
) -> Engine:
    """An engine for a URL; SQLite files get WAL, FULL sync, foreign keys and BEGIN IMMEDIATE.

    `read_only`: an SQLite file opened for looking only (connect_read_only). `reconnect_pause`:
    a PostgreSQL connection that cannot be made is tried once more after this many seconds (a
    server restarting); a pooled one the server dropped is replaced on its next use anyway."""
    start_mappers()
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: e.g. a port that is not a number
        raise DatabaseError(f"'{url}' is not a database URL") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise DatabaseError("an in-memory database would lose everything; give a file")
        if read_only:
            path = Path(parsed.database)
            engine = create_engine(url, echo=echo, creator=lambda: connect_read_only(path))
            event.listen(engine, "connect", _sqlite_connect_read_only)
            event.listen(engine, "begin", _sqlite_begin_deferred)
            return engine
        engine = create_engine(url, echo=echo, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            url = str(parsed.set(drivername="postgresql+psycopg"))
        engine = create_engine(url, echo=echo, pool_pre_ping=True)
        if reconnect_pause > 0:
            event.listen(engine, "do_connect", _connect_once_more(reconnect_pause))
        return engine
    raise DatabaseError(f"unsupported database '{backend}': use an SQLite file or PostgreSQL")


def _connect_once_more(pause: float) -> Callable[..., Any]:
    def do_connect(dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        try:
            return dialect.connect(*cargs, **cparams)
        except dialect.loaded_dbapi.OperationalError as e:
            log.warning("cannot reach the database server (%s); trying once more", e)
            time.sleep(pause)
            return dialect.connect(*cargs, **cparams)

    return do_connect


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
    """A consistent copy with the sqlite3 online backup API (safe while others are reading).
    On any failure (a full disk) the file this call created is removed, so no empty or partial
    backup is left to be mistaken for a good one; a file that was there before is left alone."""
    target.parent.mkdir(parents=True, exist_ok=True)
    created = not target.exists()
    src = sqlite3.connect(str(source)) if writable(source) else connect_read_only(source)
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    except BaseException:
        if created:
            for suffix in ("", "-journal", "-wal", "-shm"):
                with contextlib.suppress(OSError):  # the failure that got here is the one to tell
                    Path(f"{target}{suffix}").unlink(missing_ok=True)
        raise
    finally:
        src.close()


def read_connection(engine: Engine) -> Any:
    """A connection for queries only: on SQLite it does not take the write lock."""
    return engine.connect().execution_options(**{READONLY: True})
