"""The audit trail's hash chain: each row's `row_hash` is the SHA-256 (hex) of the previous
row's hash (by id; "" before the first row), a newline, and the row's content as compact JSON:

    [id, at (UTC, ISO 8601 with microseconds), user_id, entity, entity_id, permit_id, action,
     changes]   with sorted keys, separators "," and ":", ASCII only.

A row changed or removed after it was written no longer follows from the row before it, which
`permitdesk db check` finds. Every writer appends through `append` (db/tracking.py) or computes
the same function (`append_encoded` for bulk imports, the demo loader, the migration that added
the column).

The chain has no secret: anyone who can write the database can delete its last rows, or change
a row and compute every later hash again, and it still follows (a key kept in the same database
would not change that). Triggers refuse UPDATE and DELETE (revisions 0013, 0023), but the
file's or the database's owner can drop them. What finds such a rewriting is the head kept
outside the database: db/audit_anchors.py (for the rows before the last anchor); and
db/journal_check.py finds money and users changed without any audit row.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, insert, select, text

from db import schema
from db.changes import announce

# Any constant the app uses for nothing else: the lock of "appending to the audit trail".
ADVISORY_LOCK = 0x5045524D  # "PERM"
_FIELDS = ("at", "user_id", "entity", "entity_id", "permit_id", "action", "changes")


def content_tail(
    at: datetime,
    user_id: int | None,
    entity: str,
    entity_id: int,
    permit_id: int | None,
    action: str,
    changes: Any,
) -> str:
    """The row's content without its id: the JSON array's elements after the id, with its
    closing bracket (the costly part, made without knowing the id)."""
    when = at.astimezone(UTC).isoformat(timespec="microseconds")
    body = json.dumps(
        [when, user_id, entity, entity_id, permit_id, action, changes],
        sort_keys=True,
        separators=(",", ":"),
    )
    return body[1:]


def link(previous: str, row_id: int, tail: str) -> str:
    """The hash of a row given the previous row's hash, its id and its `content_tail`."""
    return hashlib.sha256(f"{previous}\n[{row_id},{tail}".encode()).hexdigest()


def row_hash(previous: str, row: Any) -> str:
    """The hash of a row (a mapping or a Row with the audit_event columns)."""
    m = row if isinstance(row, dict) else row._mapping
    return link(previous, int(m["id"]), content_tail(*(m[f] for f in _FIELDS)))


def lock(conn: Connection) -> None:
    """Serialise appenders: two transactions must not chain onto the same last row. SQLite's
    write lock (BEGIN IMMEDIATE, or the flush's own writes) already does."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})


def last_link(conn: Connection) -> tuple[int, str]:
    """The last row's id and hash; (0, "") when the trail is empty."""
    a = schema.audit_event.c
    last = conn.execute(select(a.id, a.row_hash).order_by(a.id.desc()).limit(1)).first()
    return (0, "") if last is None else (int(last.id), last.row_hash or "")


def encoded_changes(changes: Any) -> str:
    """A row's changes as the JSON text the chain hashes (compact, keys sorted, ASCII)."""
    return json.dumps(changes, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=64)
def _head(at: datetime, user_id: int | None, entity: str) -> str:
    """The start of content_tail up to the entity id: the same for every row of a bulk write."""
    return content_tail(at, user_id, entity, 0, None, "", 0)[: -len('0,null,"",0]')]


@lru_cache(maxsize=64)
def _quoted(text: str) -> str:
    return json.dumps(text)


def encoded_tail(row: dict[str, Any]) -> str:
    """`content_tail` of a row whose changes are given as encoded_changes(...) text: the same
    characters (json.dumps of the whole array), built without encoding the changes again."""
    permit_id = row["permit_id"]
    rest = f"{'null' if permit_id is None else int(permit_id)},{_quoted(row['action'])}"
    head = _head(row["at"], row["user_id"], row["entity"])
    return f"{head}{int(row['entity_id'])},{rest},{row['changes_json']}]"


def append_encoded(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    """`append` for rows whose changes are already encoded (key "changes_json"): a bulk import
    writes tens of thousands of audit rows, each encoded once for its hash and its column alike,
    and handed to the driver's executemany as they are (plain values, nothing to convert but
    the time, the same for all)."""
    if not rows:
        return
    lock(conn)
    last_id, previous = last_link(conn)
    ids = _new_ids(conn, last_id, len(rows))
    a = schema.audit_event
    at_column = a.c.at.type.bind_processor(conn.dialect)  # UTC, as the column stores it
    columns = ("id", "at", "user_id", "entity", "entity_id", "permit_id", "action")
    values = []
    at_stored: dict[datetime, Any] = {}
    for row_id, row in zip(ids, rows, strict=True):
        previous = link(previous, row_id, encoded_tail(row))
        at = row["at"]
        if at not in at_stored:
            at_stored[at] = at_column(at) if at_column is not None else at
        values.append(
            (
                row_id,
                at_stored[at],
                row["user_id"],
                row["entity"],
                row["entity_id"],
                row["permit_id"],
                row["action"],
                row["changes_json"],
                previous,
            )
        )
    postgres = conn.dialect.name == "postgresql"
    mark = "%s" if postgres else "?"
    changes = f"CAST({mark} AS JSON)" if postgres else mark
    names = ", ".join((*columns, "changes", "row_hash"))
    marks = ", ".join([mark] * len(columns) + [changes, mark])
    conn.exec_driver_sql(f"INSERT INTO audit_event ({names}) VALUES ({marks})", values)
    announce(conn, ids)


def _new_ids(conn: Connection, last_id: int, n: int) -> list[int]:
    if conn.dialect.name == "postgresql":
        # Taken under the lock, so they are above every committed row's id.
        return sorted(
            conn.scalars(
                text(
                    "SELECT nextval(pg_get_serial_sequence('audit_event', 'id')) "
                    "FROM generate_series(1, :n)"
                ),
                {"n": n},
            )
        )
    return list(range(last_id + 1, last_id + 1 + n))


def append(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Insert audit rows with their ids and hashes, chained onto the last row."""
    lock(conn)
    last_id, previous = last_link(conn)
    ids = _new_ids(conn, last_id, len(rows))
    chained = []
    for row_id, row in zip(ids, rows, strict=True):
        row = {**row, "id": row_id}
        previous = row["row_hash"] = row_hash(previous, row)
        chained.append(row)
    conn.execute(insert(schema.audit_event), chained)
    announce(conn, ids)  # the other workstations refresh when this transaction commits


def hash_unhashed(conn: Connection) -> int:
    """Give every row without a hash its hash, in id order (rows written before the chain
    existed). Returns how many. Runs before the append-only trigger exists."""
    a = schema.audit_event.c
    first = conn.execute(select(a.id).where(a.row_hash.is_(None)).order_by(a.id).limit(1))
    start = first.scalar()
    if start is None:
        return 0
    before = conn.execute(
        select(a.row_hash).where(a.id < start).order_by(a.id.desc()).limit(1)
    ).scalar()
    previous = before or ""
    updates = []
    for row in conn.execute(
        select(a.id, *(a[f] for f in _FIELDS)).where(a.id >= start).order_by(a.id)
    ):
        previous = row_hash(previous, row)
        updates.append({"row_id": row.id, "h": previous})
    conn.execute(text("UPDATE audit_event SET row_hash = :h WHERE id = :row_id"), updates)
    return len(updates)


@dataclass(frozen=True)
class Break:
    row_id: int
    missing: bool  # no hash at all (written by something other than Permit Desk)


def breaks(conn: Connection) -> Iterator[Break]:
    """Rows whose hash does not follow from the row before them, in id order."""
    a = schema.audit_event.c
    previous = ""
    result = conn.execution_options(yield_per=5_000).execute(
        select(a.id, a.row_hash, *(a[f] for f in _FIELDS)).order_by(a.id)
    )
    for row in result:
        if row.row_hash is None:
            yield Break(int(row.id), missing=True)
        elif row_hash(previous, row) != row.row_hash:
            yield Break(int(row.id), missing=False)
        # Chain on the stored hash: one tampered row is reported once, not with every later row.
        previous = row.row_hash or ""
