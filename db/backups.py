"""Backups written from the window (File → Back up now…, and the automatic one of each day), with
the code `permitdesk db backup` uses: SQLite's online backup API and the copy's own audit trail
anchor beside it (BACKUP.anchor); PostgreSQL through pg_dump in its custom format. Each backup is
checked once written: the copy opened read-only and SQLite's quick check run on it (db.integrity),
or pg_restore reading the whole archive's table of contents."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import URL, Engine

from db.audit_anchors import Anchor, backup_anchor_path, head, write_backup_anchor
from db.engine import DatabaseError, make_engine, sqlite_backup, sqlite_file, sqlite_url
from db.integrity import damage
from db.migrate import current_revision
from desk.clock import Clock
from desk.domain.backups import backup_name, to_delete

PG_SUFFIX = ".dump"
SERVER_NOTE = (
    "This computer has no pg_dump (PostgreSQL's client tools), so Permit Desk cannot back "
    "up the shared register from here. Back up the server as the README's section "
    "'Sharing the register on PostgreSQL' says (step 5, Backups): pg_dump --format=custom on "
    "the server every night, kept on another disk. Or install the client tools here and choose "
    "File → Back up now… again."
)


class NoPgDump(DatabaseError):
    """PostgreSQL without pg_dump on this computer: the note says how to back up the server."""

    def __init__(self) -> None:
        super().__init__(SERVER_NOTE)


@dataclass(frozen=True)
class Written:
    path: Path
    size: int
    anchor: Anchor | None
    problem: str | None  # what the check after writing found; None: it checked out


def target(folder: Path, stem: str, suffix: str, at: datetime, *, automatic: bool) -> Path:
    """A new file's path in `folder` (never an existing one: -2, -3 … when the second is taken);
    `at` the local time its name carries."""
    name = backup_name(stem, suffix, at, automatic=automatic)
    out = folder / name
    n = 2
    while out.exists() or backup_anchor_path(out).exists():
        base = name.removesuffix(f".bak{suffix}")
        out = folder / f"{base}-{n}.bak{suffix}"
        n += 1
    return out


def stem_and_suffix(engine: Engine) -> tuple[str, str]:
    """How the register's backups are named: the file's stem and suffix, or the database's name
    and .dump."""
    path = sqlite_file(engine)
    if path is not None:
        return path.stem, path.suffix or ".db"
    return str(engine.url.database or "permitdesk"), PG_SUFFIX


def back_up(engine: Engine, out: Path, clock: Clock) -> Written:
    """Write the backup to `out` and check it."""
    path = sqlite_file(engine)
    if path is not None:
        return _sqlite(path, out, clock)
    return _pg_dump(engine, out, clock)


def _sqlite(path: Path, out: Path, clock: Clock) -> Written:
    try:
        sqlite_backup(path, out)  # as `permitdesk db backup`
    except sqlite3.Error as e:
        if "full" in str(e):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out)) from e
        raise DatabaseError(f"cannot write the backup {out} ({e})") from e
    # The copy keeps the register's WAL mode: opened read-only below (and by whoever checks it
    # later) it would leave -wal and -shm files beside it. One file, as a copy should be.
    conn = sqlite3.connect(str(out))
    try:
        conn.execute("PRAGMA journal_mode=DELETE")
    finally:
        conn.close()
    # The copy's own head: a later `db check --anchors` finds rows rewritten before it.
    anchor = write_backup_anchor(out, out, clock)
    return Written(out, out.stat().st_size, anchor, check_sqlite_backup(out))


def check_sqlite_backup(path: Path) -> str | None:
    """The backup opened read-only: what SQLite's quick check finds wrong, or that it is not a
    register; None when sound."""
    engine = make_engine(sqlite_url(path), read_only=True)
    try:
        found = damage(engine)
        if found is not None:
            return found
        try:
            if current_revision(engine) is None:
                return "it is not a Permit Desk register (no schema revision)"
        except Exception as e:  # a file that is not a database at all
            return str(getattr(e, "orig", None) or e).splitlines()[0]
        return None
    finally:
        engine.dispose()


def _pg_dump(engine: Engine, out: Path, clock: Clock) -> Written:
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise NoPgDump()
    # Taken before the dump: the dump holds at least the rows this anchor saw.
    with engine.connect() as conn:
        anchor = head(conn, clock)
    reason = run_pg_dump(pg_dump, engine.url, out)
    if reason is not None:
        raise DatabaseError(f"pg_dump could not back up the database: {reason}")
    anchor_file = backup_anchor_path(out)
    anchor_file.write_text(anchor.line() + "\n", encoding="ascii")
    return Written(out, out.stat().st_size, anchor, check_pg_dump(out))


def run_pg_dump(pg_dump: str, url: URL, out: Path) -> str | None:
    """pg_dump's custom-format archive of the database at `url` written to `out`; None when
    written, else pg_dump's reason (and no partial file is left to be taken for a good one).
    The password goes through PGPASSWORD, never on the command line, where ps shows it."""
    # URL.set(password=None) keeps the password (rendered "***"); _replace drops it.
    libpq = url._replace(drivername="postgresql", password=None).render_as_string()
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [pg_dump, "--format=custom", f"--file={out}", f"--dbname={libpq}"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return None
    with contextlib.suppress(OSError):
        out.unlink(missing_ok=True)
    return (done.stderr.strip().splitlines() or ["failed"])[-1]


def check_pg_dump(path: Path) -> str | None:
    """pg_restore reads the archive's table of contents to its end; None when it can."""
    pg_restore = shutil.which("pg_restore")
    if pg_restore is None:
        return "pg_restore is not installed here to check the dump"
    done = subprocess.run(
        [pg_restore, "--list", str(path)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["pg_restore cannot read it"])[-1]
    return None


def _sidecars(path: Path) -> tuple[Path, ...]:
    return tuple(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))


def prune(folder: Path, stem: str, suffix: str, keep: int) -> list[Path]:
    """Delete this register's automatic backups in `folder` beyond the newest `keep`, each with
    its .anchor; no other file is touched. The files deleted."""
    names = [p.name for p in folder.iterdir() if p.is_file()]
    gone = []
    for name in to_delete(names, stem, suffix, keep):
        path = folder / name
        for leftover in (path, backup_anchor_path(path), *_sidecars(path)):
            leftover.unlink(missing_ok=True)
        gone.append(path)
    return gone
