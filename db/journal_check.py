"""The register agrees with its journal: every money row and every user's powers are what the
audit trail recorded for them.

db/tracking.py writes an audit row for every insert, update and delete through the ORM, in the
same transaction: a "create" row with each non-empty field's value, an "update" row with each
changed field's old and new value, a "delete" row; values as `tracking.audit_text` renders them
(money with its cents, "125.00"), fields by the mapped class's attribute names ("roles_text"
for app_user.roles). Replaying a record's audit rows in order gives the values it must hold now.
A money row (a fee line, a receipt, an allocation, a refund, a GL entry, a close, a turnover, a
deposit...) or a user's roles, enabled or locked state that differs from the replay was changed
without an audit row: by plain SQL on the file or the server, past the application. A row with
no audit row at all was written that way too.

What it cannot see: a row changed together with forged matching audit rows, the chain computed
again (db/audit_chain.py). The anchors (db/audit_anchors.py) find that, for rows before the last
anchor.

One pass per table, merged by id with one pass over that entity's audit rows (ordered by entity
id, then row id; the index ix_audit_event_entity): no query per row, one record in memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import BigInteger, Connection, Table, inspect, select, type_coerce
from sqlalchemy.orm import Mapper, class_mapper
from sqlalchemy.sql import ColumnElement

from db import schema
from db.orm import start_mappers
from db.types import Cents
from desk.money import format_money, from_cents, to_cents

# Every table with a money column (db.types.Cents) is checked, with the columns that say whose
# money it is. Left out (NOT_MONEY; a test keeps the two complete): the assessor's values of a
# parcel and the applicant's estimated valuation of a permit, which no one pays; the fee lines
# priced from them are checked.
KEYS: dict[str, tuple[str, ...]] = {
    "permit_fee_line": ("permit_id", "code"),
    "fee_adjustment": ("permit_id", "code"),
    "payment": ("receipt_number", "method"),
    "payment_allocation": ("payment_id", "permit_id"),
    "payment_reversal": ("payment_id", "kind"),  # no money column: it undoes a receipt
    "refund": ("permit_id",),
    "gl_entry": ("account_id", "payment_id", "permit_id", "reversal_id", "refund_id"),
    "payer_credit": ("payment_id",),
    "daily_close": ("drawer", "day"),
    "turnover": (),
    "deposit": ("permit_id",),
    "bond": (),
    "insurance_coverage": (),
    "surety_facts": (),
    "rooming_licence": (),
    "enforcement_escalation": (),
}
NOT_MONEY = frozenset({"parcel", "permit"})
# A user's powers: the roles, enabled or not, locked or not (when is no power).
USER_FIELDS = ("roles", "active", "locked_at")
_SHOWN = 10  # rows named per table; the rest are counted
_UNKNOWN = object()  # a field no audit row of the record set
MISSING = " is missing: the audit trail recorded it and no deletion"
DELETED = " is in the register but the audit trail recorded its deletion"
NOUN = {
    "permit_fee_line": "fee line",
    "fee_adjustment": "fee adjustment",
    "payment": "payment",
    "payment_allocation": "allocation",
    "payment_reversal": "reversal",
    "refund": "refund",
    "gl_entry": "GL entry",
    "payer_credit": "payer's credit",
    "daily_close": "daily close",
    "turnover": "turnover",
    "deposit": "street deposit",
    "bond": "bond",
    "insurance_coverage": "insurance coverage",
    "surety_facts": "surety facts",
    "rooming_licence": "rooming house licence",
    "enforcement_escalation": "enforcement escalation",
    "app_user": "user",
}


def money_columns(table: Table) -> list[str]:
    return [c.name for c in table.columns if isinstance(c.type, Cents)]


# --- values as compared --------------------------------------------------------------------

_TWO_PLACES = re.compile(r"-?\d+\.\d\d")


def _cents(text: str | None) -> Any:
    """Recorded money → whole cents, rounded as the Cents column rounds what it stores."""
    if text is None or text == "":
        return None
    if _TWO_PLACES.fullmatch(text):
        return int(text.replace(".", ""))
    try:
        return to_cents(Decimal(text))
    except InvalidOperation:
        return text


def _text(value: Any) -> str | None:
    """A current value as audit_text renders it (the commonest types without its isinstance
    chain); empty as None, as a new record's empty values are left out of its audit row."""
    kind = type(value)
    if kind is str:
        return value or None
    if kind is int or kind is bool:
        return str(value)
    if value is None:
        return None
    from db.tracking import audit_text

    return audit_text(value) or None


def _recorded_text(text: str | None) -> str | None:
    return text or None


def _roles(text: str | None) -> frozenset[str]:
    return frozenset(r for r in (text or "").split(",") if r)


@dataclass(frozen=True)
class _Field:
    column: str
    selected: ColumnElement[Any]
    current: Callable[[Any], Any]  # the selected value → what is compared
    recorded: Callable[[str | None], Any]  # the audit row's text → what is compared
    shown: Callable[[Any], str]  # what is compared → words


def _money_shown(cents: Any) -> str:
    if cents is None:
        return "empty"
    return format_money(from_cents(cents)) if isinstance(cents, int) else str(cents)


def _fields(table: Table, columns: list[str]) -> list[_Field]:
    out = []
    for name in columns:
        c = table.c[name]
        if table.name == "app_user" and name == "roles":
            out.append(_Field(name, c, _roles, _roles, lambda v: ",".join(sorted(v)) or "none"))
        elif table.name == "app_user" and name == "active":
            out.append(
                _Field(
                    name,
                    c,
                    bool,
                    lambda t: t == "True",
                    lambda v: "enabled" if v else "disabled",
                )
            )
        elif table.name == "app_user" and name == "locked_at":
            out.append(
                _Field(
                    name,
                    c.is_not(None),
                    bool,
                    lambda t: t not in (None, ""),
                    lambda v: "locked" if v else "unlocked",
                )
            )
        elif isinstance(c.type, Cents):
            # The stored whole cents, not a Decimal made of them.
            out.append(_Field(name, type_coerce(c, BigInteger), _same, _cents, _money_shown))
        else:
            out.append(_Field(name, c, _text, _recorded_text, lambda v: v or "empty"))
    return out


def _same(value: Any) -> Any:
    return value


def _mismatch(table: str, f: _Field, now: Any, was: Any) -> str:
    what = "roles are" if f.column == "roles" else "is"
    if table != "app_user":
        what = f"{f.column.replace('_', ' ')} is"
    return f": {what} {f.shown(now)} but the audit trail recorded {f.shown(was)}"


# --- the replay ----------------------------------------------------------------------------


@dataclass
class _Record:
    """One record as its audit rows leave it."""

    entity_id: int
    values: dict[str, Any]  # by column name; _UNKNOWN until an audit row sets it
    exists: bool | None  # None: no create or delete row seen


def _replay(
    conn: Connection, entity: str, fields: dict[str, str], columns: list[str]
) -> Iterator[_Record]:
    """The entity's records as their audit rows leave them, in id order. `fields` maps the audit
    rows' field names to the compared columns."""
    a = schema.audit_event.c
    result = conn.execution_options(yield_per=10_000).execute(
        select(a.entity_id, a.action, a.changes)
        .where(a.entity == entity)
        .order_by(a.entity_id, a.id)
    )
    record: _Record | None = None
    for entity_id, action, changes in result:
        if record is None or record.entity_id != entity_id:
            if record is not None:
                yield record
            record = _Record(int(entity_id), dict.fromkeys(columns, _UNKNOWN), None)
        if action == "create":
            record.values = dict.fromkeys(columns)  # its empty values are left out
            record.exists = True
        elif action == "delete":
            record.exists = False
            continue
        elif action != "update":
            continue
        if not isinstance(changes, list):
            continue
        for change in changes:
            column = fields.get(str(change.get("field"))) if isinstance(change, dict) else None
            if column is not None:
                record.values[column] = change.get("new")
    if record is not None:
        yield record


@dataclass(frozen=True)
class _Finding:
    row_id: int
    text: str  # after the row's name


def _check_table(conn: Connection, name: str, columns: list[str]) -> list[_Finding]:
    table = schema.metadata.tables[name]
    entity, keys = _mapped(name)
    fields = _fields(table, columns)
    audited = {k: c for k, c in keys.items() if c in columns}
    records = _replay(conn, entity, audited, columns)
    pending = next(records, None)
    rows = conn.execution_options(yield_per=10_000).execute(
        select(table.c.id, *(f.selected for f in fields)).order_by(table.c.id)
    )
    found: list[_Finding] = []
    for row in rows:
        row_id = row[0]
        while pending is not None and pending.entity_id < row_id:
            if pending.exists:
                found.append(_Finding(pending.entity_id, MISSING))
            pending = next(records, None)
        if pending is None or pending.entity_id != row_id:
            found.append(_Finding(row_id, " has no audit row"))
            continue
        record, pending = pending, next(records, None)
        if record.exists is None:
            found.append(_Finding(row_id, " has no audit row of its creation"))
            continue
        if not record.exists:
            found.append(_Finding(row_id, DELETED))
            continue
        values = record.values
        for i, f in enumerate(fields, start=1):
            recorded = values[f.column]
            if recorded is _UNKNOWN:
                continue
            now, was = f.current(row[i]), f.recorded(recorded)
            if now != was:
                found.append(_Finding(row_id, _mismatch(name, f, now, was)))
    while pending is not None:
        if pending.exists:
            found.append(_Finding(pending.entity_id, MISSING))
        pending = next(records, None)
    return found


def _mapped(table: str) -> tuple[str, dict[str, str]]:
    """The table's entity name in the audit trail, and its audit rows' field names (the mapped
    class's attribute keys) → column names."""
    from db.tracking import ENTITY_NAMES

    for cls, entity in ENTITY_NAMES.items():
        mapper: Mapper[Any] = class_mapper(cls)
        if mapper.local_table.name == table:  # type: ignore[attr-defined]
            return entity, {p.key: p.columns[0].name for p in mapper.column_attrs}
    raise LookupError(f"no audited class is mapped to {table}")


# --- naming the rows -----------------------------------------------------------------------


def _names(conn: Connection, table: str, ids: list[int]) -> dict[int, str]:
    """How a problem names each row: 'receipt 2026-0012', 'fee line #42 of permit 2026-0007'."""
    t = schema.metadata.tables[table]
    rows = {int(r.id): r._mapping for r in conn.execute(select(t).where(t.c.id.in_(ids)))}
    permit_ids = {int(r["permit_id"]) for r in rows.values() if r.get("permit_id") is not None}
    payment_ids = {int(r["payment_id"]) for r in rows.values() if r.get("payment_id") is not None}
    permits: dict[int, str] = {}
    receipts: dict[int, str] = {}
    if permit_ids:
        p = schema.permit.c
        for pid, number in conn.execute(select(p.id, p.number).where(p.id.in_(permit_ids))):
            permits[int(pid)] = f"permit {number}" if number else f"application #{pid}"
    if payment_ids:
        y = schema.payment.c
        found = conn.execute(select(y.id, y.receipt_number).where(y.id.in_(payment_ids)))
        receipts.update((int(i), str(n)) for i, n in found)

    def of(r: Any) -> str:
        if table != "payment" and r.get("payment_id") is not None:
            pid = int(r["payment_id"])
            return f" of receipt {receipts.get(pid, f'#{pid}')}"
        if r.get("permit_id") is not None:
            pid = int(r["permit_id"])
            return f" of {permits.get(pid, f'permit #{pid}')}"
        return ""

    out: dict[int, str] = {}
    for row_id in ids:
        r = rows.get(row_id)
        if r is None:
            out[row_id] = f"{NOUN[table]} #{row_id}"
        elif table == "payment":
            out[row_id] = f"receipt {r['receipt_number']}"
        elif table == "app_user":
            out[row_id] = f"user {r['username']}"
        elif table == "daily_close":
            out[row_id] = f"the daily close of {r['day']:%Y-%m-%d} (drawer {r['drawer']})"
        else:
            out[row_id] = f"{NOUN[table]} #{row_id}{of(r)}"
    return out


# --- the check -----------------------------------------------------------------------------


def _checks(conn: Connection) -> list[tuple[str, list[str]]]:
    """(table, compared columns) for the tables this schema has (an older one lacks some)."""
    inspector = inspect(conn)
    present = set(inspector.get_table_names())
    out = []
    for name, key_columns in KEYS.items():
        if name not in present:
            continue
        columns = {c["name"] for c in inspector.get_columns(name)}
        fields = [*key_columns, *money_columns(schema.metadata.tables[name])]
        out.append((name, [c for c in fields if c in columns]))
    if "app_user" in present:
        columns = {c["name"] for c in inspector.get_columns("app_user")}
        out.append(("app_user", [c for c in USER_FIELDS if c in columns]))
    return out


def journal_problems(conn: Connection) -> list[str]:
    """Money rows and users that differ from what their audit rows recorded, or have none, in
    words; empty when the register agrees with its journal."""
    if not inspect(conn).has_table("audit_event"):
        return []
    start_mappers()  # the audit rows name the mapped classes' attributes
    out: list[str] = []
    for name, columns in _checks(conn):
        found = _check_table(conn, name, columns)
        if not found:
            continue
        by_row: dict[int, list[str]] = {}
        for f in found:
            by_row.setdefault(f.row_id, []).append(f.text)
        shown = sorted(by_row)[:_SHOWN]
        names = _names(conn, name, shown)
        out.extend(f"{names[row_id]}{text}" for row_id in shown for text in by_row[row_id])
        if len(by_row) > _SHOWN:
            out.append(
                f"and {len(by_row) - _SHOWN:,} more {NOUN[name]} rows that disagree with the "
                "audit trail"
            )
    return out
