"""Anchors of the audit trail kept outside the database.

The hash chain (db/audit_chain.py) is a plain SHA-256 chain: anyone who can write the database
can delete its last rows, or change a row and compute every later hash again, and the chain
still follows. An anchor is the chain's head written down somewhere else: the last row's id,
its hash and how many rows there were, at a moment. A later check that the trail still holds
that row with that hash, and that many rows up to it, finds any truncation, deletion or
re-chaining of what came before the anchor. Anchors are printed on the daily close and the
turnover transmittal, appended to the office's anchors file, and written beside each backup.

One line of text per anchor (version 1):

    permitdesk-anchor 1 2026-12-03T16:40:00Z id=206 rows=206 hash=<64 hex digits>

(`id=0 rows=0 hash=-` for an empty trail). The anchors file is append-only by use: a line is
added, never rewritten.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, func, select

from db import schema
from desk.clock import Clock, SystemClock

VERSION = 1
PREFIX = "permitdesk-anchor"
_LINE = re.compile(
    rf"{PREFIX} (?P<version>\d+) (?P<at>\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ) "
    r"id=(?P<id>\d+) rows=(?P<rows>\d+) hash=(?P<hash>[0-9a-f]{64}|-)"
)
_SHOWN = 10  # problems listed; the rest are counted


class AnchorFileError(ValueError):
    """A line of an anchors file that is not an anchor (its file and line number say where)."""


@dataclass(frozen=True)
class Anchor:
    row_id: int  # the last audit row's id; 0 for an empty trail
    row_hash: str  # its row_hash; "" for an empty trail
    count: int  # how many audit rows there were up to and with it
    taken_at: datetime  # UTC, to the second

    def line(self) -> str:
        """The one-line text form, as the anchors file and the backup's .anchor hold it."""
        at = self.taken_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return (
            f"{PREFIX} {VERSION} {at} id={self.row_id} rows={self.count} "
            f"hash={self.row_hash or '-'}"
        )

    def short(self) -> str:
        """For paper: 'Audit trail anchor: row 206 (206 rows), 3f9a…c21e' (the full line is
        printed under it, in small type, so it can be checked later)."""
        if not self.row_id:
            return "Audit trail anchor: the audit trail is empty"
        rows = f"{self.count:,} row" + ("" if self.count == 1 else "s")
        return (
            f"Audit trail anchor: row {self.row_id} ({rows}), "
            f"{self.row_hash[:4]}…{self.row_hash[-4:]}"
        )

    @property
    def when(self) -> str:
        """How a problem names the anchor: 'the anchor of 2026-12-01 16:40 UTC'."""
        return f"the anchor of {self.taken_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def parse_anchor(text: str) -> Anchor:
    """An anchor from its line; ValueError when the text is not one."""
    m = _LINE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not an audit trail anchor: {text.strip()[:80]!r}")
    if int(m["version"]) != VERSION:
        raise ValueError(f"an anchor of version {m['version']}, newer than this Permit Desk")
    row_id, digest = int(m["id"]), m["hash"]
    if (row_id == 0) != (digest == "-"):
        raise ValueError(f"not an audit trail anchor: {text.strip()[:80]!r}")
    at = datetime.strptime(m["at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return Anchor(row_id, "" if digest == "-" else digest, int(m["rows"]), at)


# --- the head ------------------------------------------------------------------------------


def head(conn: Connection, clock: Clock | None = None) -> Anchor:
    """The chain's head now: the last audit row's id and hash, and how many rows."""
    a = schema.audit_event.c
    at = (clock or SystemClock()).now().astimezone(UTC).replace(microsecond=0)
    last = conn.execute(select(a.id, a.row_hash).order_by(a.id.desc()).limit(1)).first()
    if last is None:
        return Anchor(0, "", 0, at)
    # Counted up to the row read, whatever committed in between (PostgreSQL reads each
    # statement anew): ids are taken under the chain's lock, so none can appear below it later.
    count = conn.execute(select(func.count()).where(a.id <= last.id)).scalar_one()
    return Anchor(int(last.id), str(last.row_hash or ""), int(count), at)


def file_head(path: Path, clock: Clock | None = None) -> Anchor:
    """The head of an SQLite register file (a backup), read without writing to it."""
    from db.engine import connect_read_only

    at = (clock or SystemClock()).now().astimezone(UTC).replace(microsecond=0)
    raw = connect_read_only(path)
    try:
        last = raw.execute("SELECT id, row_hash FROM audit_event ORDER BY id DESC LIMIT 1")
        found = last.fetchone()
        if found is None:
            return Anchor(0, "", 0, at)
        row_id = int(found[0])
        count = raw.execute("SELECT COUNT(*) FROM audit_event WHERE id <= ?", (row_id,))
        return Anchor(row_id, str(found[1] or ""), int(count.fetchone()[0]), at)
    finally:
        raw.close()


# --- the anchors file ----------------------------------------------------------------------


def append_anchor(path: Path, anchor: Anchor) -> None:
    """Add the anchor's line at the end of the anchors file (made when missing), on disk before
    this returns. Earlier lines are never rewritten: the file is opened to append only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = anchor.line() + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        # A file whose last line lacks its newline (an editor): the new line starts on its own.
        if os.fstat(fd).st_size > 0:
            with path.open("rb") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    data = "\n" + data
        os.write(fd, data.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)


def read_anchors(path: Path) -> list[Anchor]:
    """The anchors of a file, in its order; blank lines are skipped. AnchorFileError names the
    first line that is not an anchor."""
    out = []
    with path.open(encoding="utf-8", errors="replace") as f:
        for number, text in enumerate(f, start=1):
            if not text.strip():
                continue
            try:
                out.append(parse_anchor(text))
            except ValueError as e:
                raise AnchorFileError(f"{path.name}, line {number}: {e}") from None
    return out


def backup_anchor_path(backup_path: Path) -> Path:
    """`<backup>.anchor`, beside the backup file."""
    return backup_path.with_name(backup_path.name + ".anchor")


def write_backup_anchor(
    source: Engine | Connection | Path, backup_path: Path, clock: Clock | None = None
) -> Anchor:
    """Write `<backup>.anchor` beside a backup and return the anchor. `source` is where the head
    is read: the SQLite backup file itself (the copy's own head, exactly what it holds), or an
    engine or connection on the register when the copy was taken in the same transaction."""
    if isinstance(source, Path):
        anchor = file_head(source, clock)
    elif isinstance(source, Engine):
        with source.connect() as conn:
            anchor = head(conn, clock)
    else:
        anchor = head(source, clock)
    target = backup_anchor_path(backup_path)
    with target.open("w", encoding="ascii") as f:
        f.write(anchor.line() + "\n")
        f.flush()
        os.fsync(f.fileno())
    return anchor


# --- the check -----------------------------------------------------------------------------


def anchor_problems(conn: Connection, anchors: Iterable[Anchor]) -> list[str]:
    """What the audit trail no longer holds of what each anchor saw, in words; empty when every
    anchor's row is there with its hash and as many rows up to it."""
    distinct = {(x.row_id, x.row_hash, x.count): x for x in anchors if x.row_id}
    wanted = sorted(distinct.values(), key=lambda x: (x.row_id, x.taken_at))
    if not wanted:
        return []
    a = schema.audit_event.c
    last = conn.execute(select(func.max(a.id))).scalar()
    last_id = int(last or 0)
    hashes: dict[int, str | None] = {}
    ids = sorted({x.row_id for x in wanted if x.row_id <= last_id})
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        hashes.update(
            (int(i), h) for i, h in conn.execute(select(a.id, a.row_hash).where(a.id.in_(chunk)))
        )
    counts = _counts_up_to(conn, [x.row_id for x in wanted])

    out: list[str] = []
    beyond = [x for x in wanted if x.row_id > last_id]
    if beyond:
        # The latest anchor says the most; the others saw less of the same loss.
        x = max(beyond, key=lambda y: (y.row_id, y.taken_at))
        if last_id == 0:
            out.append(
                f"the audit trail is empty but {x.when} saw {x.count:,} rows up to row "
                f"{x.row_id}: the audit trail was deleted"
            )
        else:
            out.append(
                f"the audit trail ends at row {last_id} but {x.when} saw row {x.row_id}: "
                "rows were deleted from its end"
            )
    for x in wanted:
        if x.row_id > last_id:
            continue
        if x.row_id not in hashes:
            out.append(
                f"row {x.row_id}, which {x.when} recorded, is no longer in the audit trail: "
                "rows were deleted"
            )
        elif hashes[x.row_id] != x.row_hash:
            out.append(
                f"row {x.row_id} no longer has the hash {x.when} recorded: the trail was "
                "rewritten after it"
            )
        elif counts[x.row_id] != x.count:
            now = counts[x.row_id]
            what = "deleted" if now < x.count else "added"
            out.append(
                f"{x.when} counted {x.count:,} rows up to row {x.row_id}; the trail now holds "
                f"{now:,}: rows were {what} before it"
            )
    if len(out) > _SHOWN:
        out = [*out[:_SHOWN], f"and {len(out) - _SHOWN} more anchors disagree with the trail"]
    return out


def _counts_up_to(conn: Connection, ids: Sequence[int]) -> dict[int, int]:
    """How many audit rows have an id up to each of `ids`: a count per stretch between two
    anchors, so the rows are counted once however many anchors there are (two a day)."""
    a = schema.audit_event.c
    out, running, previous = {}, 0, 0
    for bound in sorted(set(ids)):
        running += conn.execute(
            select(func.count()).where((a.id > previous) & (a.id <= bound))
        ).scalar_one()
        out[bound] = running
        previous = bound
    return out


def anchor_problems_from_file(conn: Connection, path: Path) -> list[str]:
    """`anchor_problems` for the anchors of a file (`permitdesk db check --anchors FILE`); a
    file that is missing or holds a line that is not an anchor is itself the problem."""
    try:
        anchors = read_anchors(path)
    except FileNotFoundError:
        return [f"there is no anchors file at {path}"]
    except AnchorFileError as e:
        return [f"the anchors file cannot be used: {e}"]
    except OSError as e:
        return [f"the anchors file {path} cannot be read ({e.strerror or e})"]
    return anchor_problems(conn, anchors)
