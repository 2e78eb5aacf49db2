"""What other workstations changed, for open lists and windows to refresh themselves.

Every change writes audit rows in its own transaction (db/tracking.py), so the audit trail is
the change counter: a watcher remembers the last audit id it has seen and reads the rows above
it. On PostgreSQL the writing transaction also sends NOTIFY (delivered at its commit), and the
watcher only reads when told; on SQLite a read of the highest audit id is so cheap (the primary
key's last page) that it is simply asked each second.
"""

from __future__ import annotations

import logging
import threading
import weakref
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import Pool

from db import schema
from db.engine import read_connection

CHANNEL = "permitdesk_changes"
log = logging.getLogger(__name__)


class _WrittenHere:
    """The audit ids written through one connection pool (this workstation's register), as
    (first, last) runs: a change written here is not "changed on another workstation". A
    rolled-back id is never read back, so it does no harm; a bulk import is one run."""

    def __init__(self) -> None:
        self._runs: list[tuple[int, int]] = []
        self._lock = threading.Lock()

    def add(self, ids: list[int]) -> None:
        if not ids:
            return
        with self._lock:
            first, last = min(ids), max(ids)
            if self._runs and self._runs[-1][1] + 1 >= first >= self._runs[-1][0]:
                self._runs[-1] = (self._runs[-1][0], max(last, self._runs[-1][1]))
            else:
                self._runs.append((first, last))
            del self._runs[:-1000]  # the newest are the ones a watcher still has to read

    def __contains__(self, audit_id: int) -> bool:
        with self._lock:
            return any(first <= audit_id <= last for first, last in self._runs)


# By the engine's pool: an engine with other execution options shares its parent's pool.
_written: weakref.WeakKeyDictionary[Pool, _WrittenHere] = weakref.WeakKeyDictionary()
_written_lock = threading.Lock()


def written_here(engine: Engine) -> _WrittenHere:
    with _written_lock:
        return _written.setdefault(engine.pool, _WrittenHere())


def announce(conn: Connection, ids: list[int]) -> None:
    """Inside a writing transaction that appended audit rows `ids`: tell the listening
    workstations when it commits (NOTIFY is transactional; a rollback sends nothing). SQLite's
    watchers poll instead."""
    written_here(conn.engine).add(ids)
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, '')"), {"channel": CHANNEL})


@dataclass(frozen=True)
class Change:
    audit_id: int
    at: datetime
    by: str  # the user's full name ("" for the system)
    entity: str  # db.tracking.ENTITY_NAMES
    entity_id: int
    permit_id: int | None
    action: str
    here: bool = False  # written by this process (this workstation), not another one


def _last_id(conn: Connection) -> int:
    return int(conn.execute(select(func.max(schema.audit_event.c.id))).scalar() or 0)


class ChangeWatcher:
    """The changes committed since the watcher was made, or since the last `poll`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        with read_connection(engine) as conn:
            self.last_id = _last_id(conn)
        self._told = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if engine.dialect.name == "postgresql":
            self._thread = threading.Thread(
                target=self._listen, name="change-listener", daemon=True
            )
            self._thread.start()

    @property
    def listening(self) -> bool:
        return self._thread is not None

    def _listen(self) -> None:
        import psycopg

        url = make_url(self.engine.url).set(drivername="postgresql")
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    url.render_as_string(hide_password=False), autocommit=True
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    # Anything committed while (re)connecting is read at the next poll.
                    self._told.set()
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=0.5, stop_after=1):
                            self._told.set()
            except Exception as e:  # the server restarted or the network dropped: try again
                log.warning("change listener: %s; reconnecting", e)
                self._stop.wait(5)

    def wait(self, timeout: float) -> bool:
        """PostgreSQL: block until a change is announced (True) or `timeout` passes (False).
        SQLite announces nothing: True at once, for the caller to poll."""
        return self._told.wait(timeout) if self._thread is not None else True

    def poll(self) -> list[Change]:
        """The changes committed since the last poll, oldest first (a cheap no-op when none)."""
        if self._thread is not None:
            if not self._told.is_set():
                return []
            self._told.clear()
        a, u = schema.audit_event, schema.app_user
        with read_connection(self.engine) as conn:
            if self._thread is None and _last_id(conn) <= self.last_id:
                return []
            rows = conn.execute(
                select(
                    a.c.id,
                    a.c.at,
                    func.coalesce(u.c.full_name, ""),
                    a.c.entity,
                    a.c.entity_id,
                    a.c.permit_id,
                    a.c.action,
                )
                .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
                .where(a.c.id > self.last_id)
                .order_by(a.c.id)
            ).all()
        if rows:
            self.last_id = int(rows[-1][0])
        mine = written_here(self.engine)
        return [
            Change(int(r[0]), r[1], str(r[2]), r[3], int(r[4]), r[5], r[6], int(r[0]) in mine)
            for r in rows
        ]

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
