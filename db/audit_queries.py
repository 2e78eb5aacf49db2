"""The audit trail: a period's rows for the administrators' export (`permitdesk audit
export`), and the names and money facts a permit's History tab shows in place of ids."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import Connection, select

from db import schema
from db.queries import history_references
from desk.domain.model import AuditEntry
from desk.domain.readmodels import HistoryReferences


@dataclass(frozen=True)
class AuditExportRow:
    id: int
    at: datetime  # UTC
    username: str
    entity: str
    entity_id: int
    permit_number: str | None
    action: str
    changes: tuple[tuple[str, str | None, str | None], ...]  # field, old, new
    row_hash: str | None


def audit_rows(conn: Connection, start: date, end: date) -> list[AuditExportRow]:
    """The rows written from `start` to `end` (UTC days, both included), in the order written."""
    a, u, p = schema.audit_event, schema.app_user, schema.permit
    since = datetime.combine(start, time(), tzinfo=UTC)
    until = datetime.combine(end + timedelta(days=1), time(), tzinfo=UTC)
    rows = conn.execute(
        select(a, u.c.username, p.c.number.label("permit_number"))
        .select_from(a.outerjoin(u, u.c.id == a.c.user_id).outerjoin(p, p.c.id == a.c.permit_id))
        .where(a.c.at >= since, a.c.at < until)
        .order_by(a.c.id)
    )
    return [
        AuditExportRow(
            id=r.id,
            at=r.at,
            username=r.username or "(system)",
            entity=r.entity,
            entity_id=r.entity_id,
            permit_number=r.permit_number,
            action=r.action,
            changes=tuple((c["field"], c["old"], c["new"]) for c in r.changes),
            row_hash=r.row_hash,
        )
        for r in rows
    ]


# --- a permit's History tab ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReceiptFacts:
    number: str
    payer: str
    method: str  # PaymentMethod value
    check_number: str
    amount: Decimal  # the whole receipt, which may pay several permits


@dataclass(frozen=True)
class ReversalFacts:
    kind: str  # ReversalKind value: "void" or "nsf"
    reason: str
    receipt: str


@dataclass(frozen=True)
class RefundFacts:
    check_number: str
    amount: Decimal
    payee: str


@dataclass(frozen=True)
class HistoryLookup:
    """What the History tab shows instead of the ids its audit rows hold."""

    references: HistoryReferences = field(default_factory=HistoryReferences)
    full_names: dict[str, str] = field(default_factory=dict)  # user name -> full name
    receipts: dict[int, ReceiptFacts] = field(default_factory=dict)
    reversals: dict[int, ReversalFacts] = field(default_factory=dict)
    refunds: dict[int, RefundFacts] = field(default_factory=dict)
    accounts: dict[int, str] = field(default_factory=dict)  # "100-44300 Building permits"


def is_user_field(name: str) -> bool:
    """by_user_id, issued_by_id, clerk_id, ...: the columns that point at app_user."""
    return name.endswith("_by_id") or name in ("user_id", "by_user_id", "clerk_id", "inspector_id")


def is_party_field(name: str) -> bool:
    return name == "party_id" or name.endswith("_party_id")


def _ids(entries: Iterable[AuditEntry], wanted: Callable[[str], bool] | str) -> set[int]:
    test = wanted if callable(wanted) else wanted.__eq__
    out: set[int] = set()
    for e in entries:
        for c in e.changes:
            if test(c.field):
                for v in (c.old, c.new):
                    if v and v.isdigit():
                        out.add(int(v))
    return out


def history_lookup(conn: Connection, entries: list[AuditEntry]) -> HistoryLookup:
    """Names, receipts, reversals, refunds and accounts mentioned in a permit's history."""
    u, pa = schema.app_user, schema.party
    pay, rev, ref, acc = schema.payment, schema.payment_reversal, schema.refund, schema.gl_account
    users = _ids(entries, is_user_field)
    parties = _ids(entries, is_party_field)
    payments = _ids(entries, "payment_id")
    reversals = _ids(entries, "reversal_id")
    refunds = _ids(entries, "refund_id") | {e.entity_id for e in entries if e.entity == "refund"}
    accounts = _ids(entries, "account_id")
    usernames = {e.username for e in entries}
    base = history_references(conn, entries)
    refs = replace(
        base,
        users={
            **base.users,
            **{
                r.id: r.full_name
                for r in conn.execute(select(u.c.id, u.c.full_name).where(u.c.id.in_(users)))
            },
        },
        parties={
            **base.parties,
            **{
                r.id: r.name
                for r in conn.execute(select(pa.c.id, pa.c.name).where(pa.c.id.in_(parties)))
            },
        },
    )
    rev_rows = list(
        conn.execute(
            select(rev.c.id, rev.c.kind, rev.c.reason, rev.c.payment_id).where(
                rev.c.id.in_(reversals)
            )
        )
    )
    payments |= {int(r.payment_id) for r in rev_rows}
    receipts = {
        int(r.id): ReceiptFacts(
            r.receipt_number, r.payer_name, str(r.method.value), r.check_number or "", r.amount
        )
        for r in conn.execute(
            select(
                pay.c.id,
                pay.c.receipt_number,
                pay.c.payer_name,
                pay.c.method,
                pay.c.check_number,
                pay.c.amount,
            ).where(pay.c.id.in_(payments))
        )
    }
    return HistoryLookup(
        references=refs,
        full_names={
            r.username: r.full_name
            for r in conn.execute(
                select(u.c.username, u.c.full_name).where(u.c.username.in_(usernames))
            )
            if r.full_name
        },
        receipts=receipts,
        reversals={
            int(r.id): ReversalFacts(
                str(r.kind.value),
                r.reason,
                receipts[int(r.payment_id)].number if int(r.payment_id) in receipts else "",
            )
            for r in rev_rows
        },
        refunds={
            int(r.id): RefundFacts(r.check_number or "", r.amount, r.payer_name or "")
            for r in conn.execute(
                select(ref.c.id, ref.c.check_number, ref.c.amount, ref.c.payer_name).where(
                    ref.c.id.in_(refunds)
                )
            )
        },
        accounts={
            int(r.id): f"{r.number} {r.name}"
            for r in conn.execute(
                select(acc.c.id, acc.c.number, acc.c.name).where(acc.c.id.in_(accounts))
            )
        },
    )
