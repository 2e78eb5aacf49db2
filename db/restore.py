"""`permitdesk db restore`: put an SQLite backup back in place of a database file.

Nothing is replaced until the backup has passed every check; the file it replaces is first
kept as a backup of its own. Copies go through SQLite's online backup API, never a plain file
copy, so a live file's -wal pages are included and the target's old -wal/-shm cannot survive
with stale pages (SQLite rewrites the target itself).
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from db.engine import DatabaseError, make_engine, sqlite_backup, sqlite_url
from db.migrate import backup_path, check, head_revision, known_revisions, upgrade

LOCK_TIMEOUT = 0.5  # seconds to wait for another program's write lock before refusing


@dataclass(frozen=True)
class Restored:
    target: Path
    source: Path
    revision: str
    head: str
    permits: int
    receipts: int
    users: int
    last_receipt: tuple[str, str] | None  # (number, day)
    kept: Path | None  # where the replaced file was kept

    @property
    def older(self) -> bool:
        return self.revision != self.head

    def lines(self) -> list[str]:
        last = (
            f"the last receipt is {self.last_receipt[0]} of {self.last_receipt[1]}"
            if self.last_receipt
            else "no receipts"
        )
        out = [
            f"Restored {self.target} from {self.source} (schema revision {self.revision}).",
            f"It holds {self.permits} permit(s), {self.receipts} receipt(s) and {self.users} "
            f"user(s); {last}.",
        ]
        if self.older:
            out.append(
                f"The backup is at an older schema revision than this Permit Desk ({self.head}); "
                "it will be upgraded, after a backup of its own, when it is next opened."
            )
        if self.kept is not None:
            out.append(f"The previous database is kept at {self.kept}.")
        return out


def _first_line(e: BaseException) -> str:
    return (str(e).splitlines() or [type(e).__name__])[0]


def _disk_full(e: BaseException) -> bool:
    return "disk is full" in str(e) or getattr(e, "sqlite_errorname", "") == "SQLITE_FULL"


def _no_space(where: str) -> OSError:
    """A full disk as the OSError the command line answers with exit 3 (the computer, not
    the backup), `where` naming the file that could not be written."""
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), where)


def verify_backup(backup: Path, copy: Path) -> str:
    """Copy `backup` (and its -wal, if any) to `copy` and check the copy: the backup itself is
    only read. Its schema revision, or DatabaseError naming the problem."""
    if not backup.is_file():
        raise DatabaseError(f"there is no backup file at {backup}")
    _copy_file(backup, copy)
    wal = Path(f"{backup}-wal")
    if wal.is_file():
        _copy_file(wal, Path(f"{copy}-wal"))
    conn = sqlite3.connect(str(copy))
    try:
        try:
            first = conn.execute("PRAGMA integrity_check").fetchone()
        except sqlite3.DatabaseError as e:
            if "not a database" in str(e):
                raise DatabaseError(f"the backup {backup} is not an SQLite database") from None
            first = (_first_line(e),)
        if first is None or first[0] != "ok":
            what = first[0] if first else "no answer"
            raise DatabaseError(f"the backup {backup} is damaged: {what}")
        try:
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError as e:
            raise DatabaseError(
                f"the backup {backup} is not a Permit Desk database: {_first_line(e)}"
            ) from None
    finally:
        conn.close()
    if row is None or not row[0]:
        raise DatabaseError(
            f"the backup {backup} is not a Permit Desk database: no schema revision"
        )
    revision = str(row[0])
    if revision not in known_revisions():
        raise DatabaseError(
            f"the backup {backup} is newer than this version of Permit Desk (schema {revision}); "
            "install the newer Permit Desk to restore it"
        )
    checked = copy
    if revision != head_revision():
        # An older revision is restored as it is (it is upgraded when next opened), but the
        # checks are those of this version's schema, so they run on an upgraded copy.
        checked = copy.with_name(f"upgraded-{copy.name}")
        try:
            sqlite_backup(copy, checked)
        except sqlite3.DatabaseError as e:
            if _disk_full(e):
                raise _no_space(f"{checked} (a copy made to check the backup)") from None
            raise
    engine = make_engine(sqlite_url(checked))
    try:
        if checked != copy:
            try:
                upgrade(engine)
            except (DatabaseError, DBAPIError) as e:
                reason = _first_line(getattr(e, "orig", None) or e)
                if _disk_full(getattr(e, "orig", None) or e):
                    raise _no_space(f"{checked} (a copy made to check the backup)") from None
                raise DatabaseError(f"the backup {backup} cannot be upgraded: {reason}") from None
        problems = check(engine)
    finally:
        engine.dispose()
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise DatabaseError(f"the backup {backup} fails the database check: {problems[0]}{more}")
    return revision


def _copy_file(source: Path, target: Path, *, keep_times: bool = False) -> None:
    """shutil.copyfile (copy2 with `keep_times`), but a failure (a full disk) names the file
    being written and leaves no partial copy of it behind."""
    try:
        (shutil.copy2 if keep_times else shutil.copyfile)(source, target)
    except OSError as e:
        target.unlink(missing_ok=True)
        if e.filename is not None:
            raise  # it names its file already (the one it could not read)
        raise OSError(e.errno, e.strerror or str(e), str(target)) from e


def _sqlite_can_write(target: Path) -> bool:
    """DatabaseError when another program holds the write lock on `target`; False when the
    file is there but SQLite cannot read it (it is kept and replaced as plain bytes)."""
    conn = sqlite3.connect(str(target), timeout=LOCK_TIMEOUT, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise DatabaseError(
                f"another program is writing to {target}; close Permit Desk on this computer "
                "and try again"
            ) from None
        raise DatabaseError(f"cannot open {target}: {_first_line(e)}") from None
    except sqlite3.DatabaseError:
        return False  # not a database at all: nothing SQLite could write through
    finally:
        conn.close()


def _summary(target: Path, source: Path, revision: str, kept: Path | None) -> Restored:
    conn = sqlite3.connect(str(target))  # the last to close checkpoints and removes the -wal
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}

        def count(table: str, where: str = "") -> int:
            if table not in tables:
                return 0
            return int(conn.execute(f"SELECT COUNT(*) FROM {table} {where}").fetchone()[0])

        user_columns = {r[1] for r in conn.execute("PRAGMA table_info(app_user)")}
        last = None
        if "payment" in tables:
            row = conn.execute(
                "SELECT receipt_number, day FROM payment ORDER BY received_at DESC, id DESC LIMIT 1"
            ).fetchone()
            last = (str(row[0]), str(row[1])) if row else None
        return Restored(
            target=target,
            source=source,
            revision=revision,
            head=head_revision(),
            permits=count("permit"),
            receipts=count("payment"),
            # The command line's built-in actor is not a person.
            users=count("app_user", "WHERE system = 0" if "system" in user_columns else ""),
            last_receipt=last,
            kept=kept,
        )
    finally:
        conn.close()


def _unused(path: Path, suffix: str) -> Path:
    """`path`, or `name-2.bak.db` ... when it exists: two restores in one second must not write
    over the first one's kept file."""
    tail = f".bak{suffix}"
    stem = path.name.removesuffix(tail)
    n, candidate = 1, path
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{stem}-{n}{tail}")
    return candidate


def restore_sqlite(backup: Path, target: Path) -> Restored:
    """Replace the database file `target` with the checked content of `backup`."""
    backup, target = backup.expanduser().resolve(), target.expanduser().resolve()
    if target.exists() and backup.exists() and os.path.samefile(backup, target):
        raise DatabaseError(f"the backup {backup} is the database itself")
    with tempfile.TemporaryDirectory(prefix="permitdesk-restore-") as tmp:
        checked = Path(tmp) / "checked.db"
        revision = verify_backup(backup, checked)
        kept: Path | None = None
        readable = True
        if target.exists():
            readable = _sqlite_can_write(target)
            kept = _unused(backup_path(target, "before-restore"), target.suffix)
            if readable:
                try:
                    sqlite_backup(target, kept)  # removes its partial file when it fails
                except sqlite3.DatabaseError as e:
                    if _disk_full(e):
                        raise _no_space(f"{kept} (nothing was restored)") from None
                    readable = False  # too damaged to copy through SQLite
            if not readable:
                # SQLite cannot read it, so its bytes are all we have.
                _copy_file(target, kept, keep_times=True)
        if not readable or not target.exists():
            # -wal/-shm without their database (or beside a file SQLite cannot read) would be
            # replayed into the restored file: they belong to no database we can use.
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{target}{suffix}").unlink(missing_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        created = not target.exists()
        # Through SQLite into the target's own connection: any -wal of the old file is
        # consistently superseded, and readers see either the old or the new database.
        src = sqlite3.connect(str(checked))
        try:
            dst = sqlite3.connect(str(target), timeout=LOCK_TIMEOUT)
            try:
                src.backup(dst)
                dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                dst.close()
        except sqlite3.Error as e:
            if created:
                # A partial (or empty) file would open as a new, empty register.
                for suffix in ("", "-journal", "-wal", "-shm"):
                    Path(f"{target}{suffix}").unlink(missing_ok=True)
            if _disk_full(e):
                kept_at = f" (the previous database is kept at {kept})" if kept else ""
                raise _no_space(f"{target}{kept_at}") from None
            where = f"; the previous database is kept at {kept}" if kept else ""
            raise DatabaseError(f"could not restore {target}: {_first_line(e)}{where}") from None
        finally:
            src.close()
    return _summary(target, backup, revision, kept)
