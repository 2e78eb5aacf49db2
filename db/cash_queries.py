"""Read queries of the cashier and treasurer screens and of the daily cash report.
They return frozen rows; every write goes through desk/services/cashiering.py.

The figures here are the services' own: a permit's due is charged − paid as in
`permit_balance`, a drawer's expected money is the day's money receipts less the voided ones as
in `drawer_day`, and a closed day reads what its close recorded."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, func, select

from db import queries, schema
from db.letterheads import letterhead_as_of
from desk.domain.cashiering import (
    DRAWER_METHODS,
    ZERO,
    MethodTotals,
    PaymentMethod,
    RefundGround,
    ReversalKind,
)
from desk.domain.enums import PermitStatus

DEFAULT_DRAWER = "Main"  # desk.services.cashiering.DEFAULT_DRAWER (no service import here)


def _dollars(value: Any) -> Decimal:
    """A SUM over a Cents column comes back as Decimal dollars (or None for no rows)."""
    return (value if isinstance(value, Decimal) else Decimal(value or 0)).quantize(Decimal("0.01"))


def permit_label(number: str | None, permit_id: int) -> str:
    return number or f"Application #{permit_id}"


# --- what permits owe ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PayablePermit:
    """A permit as the cashier's search lists it, with what it owes."""

    permit_id: int
    number: str | None
    status: PermitStatus
    kind: str
    address: str
    owner: str
    contractor: str
    charged: Decimal  # assessed lines + added and adjusting lines
    paid: Decimal  # receipts − voids − returned checks − refunds, on this permit

    @property
    def due(self) -> Decimal:
        return (self.charged - self.paid).quantize(Decimal("0.01"))

    @property
    def label(self) -> str:
        return permit_label(self.number, self.permit_id)


def permit_money(conn: Connection, permit_ids: Iterable[int]) -> dict[int, tuple[Decimal, Decimal]]:
    """(charged, paid) per permit id, in three grouped queries."""
    ids = sorted(set(permit_ids))
    out: dict[int, tuple[Decimal, Decimal]] = {i: (ZERO, ZERO) for i in ids}
    if not ids:
        return out
    fl, adj, ge = schema.permit_fee_line, schema.fee_adjustment, schema.gl_entry
    charged: dict[int, Decimal] = {i: ZERO for i in ids}
    paid: dict[int, Decimal] = {i: ZERO for i in ids}
    for table, into in ((fl, charged), (adj, charged), (ge, paid)):
        rows = conn.execute(
            select(table.c.permit_id, func.sum(table.c.amount))
            .where(table.c.permit_id.in_(ids))
            .group_by(table.c.permit_id)
        )
        for permit_id, total in rows:
            into[int(permit_id)] += _dollars(total)
    return {i: (charged[i], paid[i]) for i in ids}


def payable_permits(
    conn: Connection,
    municipality_id: int,
    text: str,
    *,
    owing_only: bool = False,
    limit: int = 50,
) -> list[PayablePermit]:
    """The permits the permits search finds (number, address, owner, contractor), newest
    first, with their balance; `owing_only` keeps those with money due."""
    if not text.strip() and not owing_only:
        return []
    rows = queries.search_permits(
        conn, municipality_id, text, limit=limit * 4 if owing_only else limit
    )
    money = permit_money(conn, (r.id for r in rows))
    out = []
    for r in rows:
        charged, paid = money[r.id]
        found = PayablePermit(
            r.id, r.number, r.status, r.kind, r.address, r.owner, r.contractor, charged, paid
        )
        if owing_only and found.due <= 0:
            continue
        out.append(found)
        if len(out) >= limit:
            break
    return out


def payable_permit(conn: Connection, permit_id: int) -> PayablePermit | None:
    p, lst = schema.permit, schema.permit_listing
    r = conn.execute(
        select(
            p.c.id,
            p.c.number,
            p.c.status,
            p.c.kind,
            lst.c.address,
            lst.c.owner,
            lst.c.contractor,
        )
        .select_from(p.outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(p.c.id == permit_id)
    ).first()
    if r is None:
        return None
    charged, paid = permit_money(conn, [permit_id])[permit_id]
    return PayablePermit(
        r.id,
        r.number,
        r.status,
        r.kind,
        r.address or "",
        r.owner or "",
        r.contractor or "",
        charged,
        paid,
    )


# --- receipts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceiptRow:
    payment_id: int
    receipt_number: str
    received_at: datetime
    day: date
    payer: str
    method: PaymentMethod
    amount: Decimal
    credited: Decimal
    check_number: str
    check_bank: str
    card_reference: str
    drawer: str
    clerk: str
    permits: tuple[str, ...]  # permit numbers ("Application #12" before issuance)
    status: str  # "", "void" or "returned"
    reason: str  # the void's reason or the bank's notice
    closed: bool
    turned_over: bool
    printed: int

    @property
    def voided(self) -> bool:
        return self.status == "void"

    @property
    def is_money(self) -> bool:
        return self.method.is_money


def _receipt_rows(conn: Connection, where: Any) -> list[ReceiptRow]:
    pay, rev, dc, u = schema.payment, schema.payment_reversal, schema.daily_close, schema.app_user
    rows = conn.execute(
        select(
            pay,
            rev.c.kind.label("reversal"),
            rev.c.reason.label("reversal_reason"),
            rev.c.bank_notice,
            dc.c.turnover_id,
            u.c.full_name,
        )
        .select_from(
            pay.outerjoin(rev, rev.c.payment_id == pay.c.id)
            .outerjoin(dc, dc.c.id == pay.c.close_id)
            .outerjoin(u, u.c.id == pay.c.clerk_id)
        )
        .where(where)
        .order_by(pay.c.received_at, pay.c.id)
    ).all()
    permits = _permits_of(conn, [r.id for r in rows])
    out = []
    for r in rows:
        status = ""
        reason = ""
        if r.reversal is not None:
            status = "void" if r.reversal is ReversalKind.VOID else "returned"
            reason = r.reversal_reason if status == "void" else (r.bank_notice or r.reversal_reason)
        out.append(
            ReceiptRow(
                payment_id=r.id,
                receipt_number=r.receipt_number,
                received_at=r.received_at,
                day=r.day,
                payer=r.payer_name,
                method=r.method,
                amount=r.amount,
                credited=r.credited,
                check_number=r.check_number,
                check_bank=r.check_bank,
                card_reference=r.card_reference,
                drawer=r.drawer,
                clerk=r.full_name or "",
                permits=tuple(permits.get(r.id, ())),
                status=status,
                reason=reason or "",
                closed=r.close_id is not None,
                turned_over=r.turnover_id is not None,
                printed=int(r.printed_count or 0),
            )
        )
    return out


def _permits_of(conn: Connection, payment_ids: Sequence[int]) -> dict[int, list[str]]:
    if not payment_ids:
        return {}
    a, p = schema.payment_allocation, schema.permit
    out: dict[int, list[str]] = {}
    for start in range(0, len(payment_ids), 900):  # SQLite's bound-parameter limit
        chunk = payment_ids[start : start + 900]
        rows = conn.execute(
            select(a.c.payment_id, p.c.id, p.c.number)
            .join(p, p.c.id == a.c.permit_id)
            .where(a.c.payment_id.in_(chunk))
            .order_by(a.c.id)
        )
        for payment_id, permit_id, number in rows:
            out.setdefault(int(payment_id), []).append(permit_label(number, permit_id))
    return out


def receipts_on(
    conn: Connection, municipality_id: int, day: date, drawer: str | None = None
) -> list[ReceiptRow]:
    """The receipts taken on a day (all drawers, or one), in the order taken."""
    pay = schema.payment
    where = (pay.c.municipality_id == municipality_id) & (pay.c.day == day)
    if drawer is not None:
        where &= pay.c.drawer == drawer
    return _receipt_rows(conn, where)


def receipt_by_number(conn: Connection, municipality_id: int, number: str) -> ReceiptRow | None:
    pay = schema.payment
    found = _receipt_rows(
        conn, (pay.c.municipality_id == municipality_id) & (pay.c.receipt_number == number.strip())
    )
    return found[0] if found else None


def drawers(conn: Connection, municipality_id: int) -> list[str]:
    """The drawers the office has used, the default first."""
    pay = schema.payment
    used = conn.scalars(
        select(pay.c.drawer).where(pay.c.municipality_id == municipality_id).distinct()
    ).all()
    return [DEFAULT_DRAWER, *sorted(d for d in set(used) if d != DEFAULT_DRAWER)]


# --- the daily cash report ---------------------------------------------------------------------


@dataclass(frozen=True)
class DrawerCash:
    """One drawer's day: its receipts, the voids, what it must hold and what was counted."""

    drawer: str
    receipts: tuple[ReceiptRow, ...]
    gross: MethodTotals  # every money receipt, voided ones included
    voids: MethodTotals
    expected: MethodTotals  # gross − voids (the close's own figures once closed)
    counted: MethodTotals | None  # None while the drawer is open
    over_short: Decimal | None
    explanation: str
    close_id: int | None
    closed_by: str
    closed_at: datetime | None
    turnover_id: int | None

    @property
    def closed(self) -> bool:
        return self.close_id is not None

    @property
    def receipt_count(self) -> int:
        return len(self.receipts)

    @property
    def void_count(self) -> int:
        return sum(1 for r in self.receipts if r.voided)


@dataclass(frozen=True)
class CashItem:
    """A returned check or a refund recorded on the day (deducted at the next turnover)."""

    reference: str  # the receipt number, or the refund check number
    name: str
    amount: Decimal
    detail: str


@dataclass(frozen=True)
class DailyCash:
    municipality: str
    letterhead: tuple[str, ...]
    day: date
    drawers: tuple[DrawerCash, ...]
    returned: tuple[CashItem, ...]
    refunds: tuple[CashItem, ...]

    def _sum(self, pick: str) -> MethodTotals:
        sums: dict[PaymentMethod, Decimal] = {}
        for d in self.drawers:
            totals = getattr(d, pick)
            if totals is None:
                continue
            for m, v in totals.items():
                sums[m] = sums.get(m, ZERO) + v
        return MethodTotals.of(sums)

    @property
    def gross(self) -> MethodTotals:
        return self._sum("gross")

    @property
    def voids(self) -> MethodTotals:
        return self._sum("voids")

    @property
    def expected(self) -> MethodTotals:
        return self._sum("expected")

    @property
    def counted(self) -> MethodTotals:
        """Counted in the closed drawers (open drawers count nothing yet)."""
        return self._sum("counted")

    @property
    def over_short(self) -> Decimal:
        return sum((d.over_short or ZERO for d in self.drawers), ZERO)

    @property
    def all_closed(self) -> bool:
        return all(d.closed for d in self.drawers)


def _totals(receipts: Iterable[ReceiptRow], voided_only: bool = False) -> MethodTotals:
    sums: dict[PaymentMethod, Decimal] = {}
    for r in receipts:
        if r.method.is_money and (r.voided or not voided_only):
            sums[r.method] = sums.get(r.method, ZERO) + r.amount
    return MethodTotals.of(sums)


def _close_totals(row: Any, prefix: str) -> MethodTotals:
    return MethodTotals.of({m: getattr(row, f"{prefix}_{m.value}") for m in DRAWER_METHODS})


def daily_cash(conn: Connection, municipality_id: int, day: date) -> DailyCash:
    """Every drawer used (or closed) on the day; the default drawer even on a quiet day."""
    m, dc, u = schema.municipality, schema.daily_close, schema.app_user
    muni = conn.execute(select(m.c.name).where(m.c.id == municipality_id)).one()
    receipts = receipts_on(conn, municipality_id, day)
    closes = {
        r.drawer: r
        for r in conn.execute(
            select(dc, u.c.full_name)
            .select_from(dc.outerjoin(u, u.c.id == dc.c.closed_by_id))
            .where((dc.c.municipality_id == municipality_id) & (dc.c.day == day))
        )
    }
    names = sorted({r.drawer for r in receipts} | set(closes) | {DEFAULT_DRAWER})
    names.sort(key=lambda n: n != DEFAULT_DRAWER)
    out = []
    for name in names:
        mine = tuple(r for r in receipts if r.drawer == name)
        close = closes.get(name)
        gross, voids = _totals(mine), _totals(mine, voided_only=True)
        out.append(
            DrawerCash(
                drawer=name,
                receipts=mine,
                gross=gross,
                voids=voids,
                expected=_close_totals(close, "expected") if close else gross.minus(voids),
                counted=_close_totals(close, "counted") if close else None,
                over_short=close.over_short if close else None,
                explanation=close.explanation if close else "",
                close_id=close.id if close else None,
                closed_by=(close.full_name or "") if close else "",
                closed_at=close.closed_at if close else None,
                turnover_id=close.turnover_id if close else None,
            )
        )
    return DailyCash(
        municipality=muni.name,
        letterhead=letterhead_as_of(conn, municipality_id, None),  # a report: printed now
        day=day,
        drawers=tuple(out),
        returned=tuple(_returned_on(conn, municipality_id, day)),
        refunds=tuple(_refunds_on(conn, municipality_id, day)),
    )


def _returned_on(conn: Connection, municipality_id: int, day: date) -> list[CashItem]:
    rev, pay = schema.payment_reversal, schema.payment
    rows = conn.execute(
        select(
            pay.c.receipt_number,
            pay.c.payer_name,
            pay.c.amount,
            pay.c.check_number,
            rev.c.bank_notice,
        )
        .join(pay, pay.c.id == rev.c.payment_id)
        .where(
            (rev.c.municipality_id == municipality_id)
            & (rev.c.day == day)
            & (rev.c.kind == ReversalKind.NSF)
        )
        .order_by(rev.c.id)
    )
    return [
        CashItem(
            r.receipt_number, r.payer_name, r.amount, f"check {r.check_number}: {r.bank_notice}"
        )
        for r in rows
    ]


def _refunds_on(conn: Connection, municipality_id: int, day: date) -> list[CashItem]:
    f = schema.refund
    rows = conn.execute(
        select(f.c.check_number, f.c.payer_name, f.c.amount, f.c.ground)
        .where((f.c.municipality_id == municipality_id) & (f.c.day == day))
        .order_by(f.c.id)
    )
    return [
        CashItem(r.check_number, r.payer_name, r.amount, RefundGround(r.ground).label) for r in rows
    ]


# --- closes and turnovers -----------------------------------------------------------------------


@dataclass(frozen=True)
class CloseRow:
    close_id: int
    drawer: str
    day: date
    expected: Decimal
    counted: Decimal
    over_short: Decimal
    explanation: str
    turnover_id: int | None


def _close_row(r: Any) -> CloseRow:
    return CloseRow(
        close_id=r.id,
        drawer=r.drawer,
        day=r.day,
        expected=_close_totals(r, "expected").total,
        counted=_close_totals(r, "counted").total,
        over_short=r.over_short,
        explanation=r.explanation,
        turnover_id=r.turnover_id,
    )


def closes_not_turned_over(conn: Connection, municipality_id: int) -> list[CloseRow]:
    """Closed days waiting to be delivered to the treasurer, oldest first."""
    dc = schema.daily_close
    rows = conn.execute(
        select(dc)
        .where((dc.c.municipality_id == municipality_id) & dc.c.turnover_id.is_(None))
        .order_by(dc.c.day, dc.c.drawer)
    )
    return [_close_row(r) for r in rows]


def closes_of_turnover(conn: Connection, turnover_id: int) -> list[CloseRow]:
    dc = schema.daily_close
    rows = conn.execute(select(dc).where(dc.c.turnover_id == turnover_id).order_by(dc.c.day))
    return [_close_row(r) for r in rows]


@dataclass(frozen=True)
class Deductions:
    """Returned checks and refunds not yet reported in a turnover (they go with the next)."""

    returned_count: int
    returned: Decimal
    refund_count: int
    refunds: Decimal

    @property
    def total(self) -> Decimal:
        return self.returned + self.refunds


def pending_deductions(conn: Connection, municipality_id: int) -> Deductions:
    rev, pay, f = schema.payment_reversal, schema.payment, schema.refund
    n_nsf, nsf = conn.execute(
        select(func.count(), func.sum(pay.c.amount))
        .select_from(rev.join(pay, pay.c.id == rev.c.payment_id))
        .where(
            (rev.c.municipality_id == municipality_id)
            & (rev.c.kind == ReversalKind.NSF)
            & rev.c.turnover_id.is_(None)
        )
    ).one()
    n_ref, refunds = conn.execute(
        select(func.count(), func.sum(f.c.amount)).where(
            (f.c.municipality_id == municipality_id) & f.c.turnover_id.is_(None)
        )
    ).one()
    return Deductions(int(n_nsf or 0), _dollars(nsf), int(n_ref or 0), _dollars(refunds))


@dataclass(frozen=True)
class TurnoverRow:
    turnover_id: int
    delivered_on: date
    delivered_by: str
    amount: Decimal  # the book amount: closed days' collections − returned checks − refunds
    cash_delivered: Decimal
    days: int  # closed drawer-days in it
    acknowledged_on: date | None
    acknowledged_by: str
    deposit_ref: str
    deposited: Decimal | None
    difference: Decimal | None
    resolved: bool
    resolution: str

    @property
    def flagged(self) -> bool:
        return self.difference is not None and self.difference != 0 and not self.resolved

    @property
    def state(self) -> str:
        if self.acknowledged_on is None:
            return "pending"
        if self.flagged:
            return "difference"
        return "acknowledged"


def turnovers(conn: Connection, municipality_id: int, limit: int = 500) -> list[TurnoverRow]:
    """Turnovers, newest first."""
    t, dc = schema.turnover, schema.daily_close
    by, ack = schema.app_user.alias("by"), schema.app_user.alias("ack")
    days = (
        select(func.count())
        .where(dc.c.turnover_id == t.c.id)
        .correlate(t)
        .scalar_subquery()
        .label("days")
    )
    rows = conn.execute(
        select(t, by.c.full_name.label("by_name"), ack.c.full_name.label("ack_name"), days)
        .select_from(
            t.outerjoin(by, by.c.id == t.c.delivered_by_id).outerjoin(
                ack, ack.c.id == t.c.acknowledged_by_id
            )
        )
        .where(t.c.municipality_id == municipality_id)
        .order_by(t.c.delivered_on.desc(), t.c.id.desc())
        .limit(limit)
    )
    return [
        TurnoverRow(
            turnover_id=r.id,
            delivered_on=r.delivered_on,
            delivered_by=r.by_name or "",
            amount=r.amount,
            cash_delivered=r.cash_delivered,
            days=int(r.days or 0),
            acknowledged_on=r.acknowledged_on,
            acknowledged_by=r.ack_name or "",
            deposit_ref=r.deposit_ref or "",
            deposited=r.deposited,
            difference=r.difference,
            resolved=r.resolved_at is not None,
            resolution=r.resolution or "",
        )
        for r in rows
    ]


# --- payers' credits ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CreditRow:
    payer_key: str
    name: str
    party_id: int | None
    balance: Decimal


def credits_held(conn: Connection, municipality_id: int) -> list[CreditRow]:
    """Payers with credit on account (overpayments kept), largest first."""
    c = schema.payer_credit
    rows = conn.execute(
        select(
            c.c.payer_key,
            func.max(c.c.payer_name),
            func.max(c.c.party_id),
            func.sum(c.c.amount),
        )
        .where(c.c.municipality_id == municipality_id)
        .group_by(c.c.payer_key)
    )
    out = [
        CreditRow(
            str(key), str(name or ""), int(party) if party is not None else None, _dollars(total)
        )
        for key, name, party, total in rows
    ]
    return sorted((r for r in out if r.balance > 0), key=lambda r: (-r.balance, r.name))


def last_receipt_day(conn: Connection, municipality_id: int, on_or_before: date) -> date | None:
    """The latest day with receipts up to a day (the daily close opens on it when today has
    none yet)."""
    pay = schema.payment
    found = conn.execute(
        select(func.max(pay.c.day)).where(
            (pay.c.municipality_id == municipality_id) & (pay.c.day <= on_or_before)
        )
    ).scalar_one_or_none()
    return found if isinstance(found, date) else None
