"""What waits for the treasurer: drawer-days not closed, turnovers delivered and not
acknowledged, street deposits due back, checks the bank returned that nobody has made good."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import Connection, func, select

from db import schema
from db.attention.counter import permit_what
from db.cash_queries import permit_money, turnovers
from desk.domain.attention import TREASURER, TURNOVER_PLACE, Item
from desk.domain.cashiering import ReversalKind
from desk.money import format_money
from desk.services.sureties import DepositLine, in_queue

pay, rev, alloc = schema.payment, schema.payment_reversal, schema.payment_allocation
p, lst = schema.permit, schema.permit_listing


def drawers_open(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """Drawer-days with receipts and no daily close, up to today, oldest first (today's drawer
    is listed too: it is closed at the end of the day)."""
    rows = conn.execute(
        select(pay.c.drawer, pay.c.day, func.count(), func.sum(pay.c.amount))
        .where(
            (pay.c.municipality_id == municipality_id)
            & pay.c.close_id.is_(None)
            & (pay.c.day <= today)
        )
        .group_by(pay.c.drawer, pay.c.day)
        .order_by(pay.c.day, pay.c.drawer)
    )
    return [
        Item(
            f"Drawer {drawer}, {day:%m/%d/%Y}",
            f"{count} receipt(s), {format_money(total)} taken; "
            + ("close it at the end of the day" if day == today else "not closed"),
            section=TREASURER,
        )
        for drawer, day, count, total in rows
    ]


def turnovers_to_acknowledge(conn: Connection, municipality_id: int) -> list[Item]:
    return [
        Item(
            f"Turnover of {t.delivered_on:%m/%d/%Y}"
            + (f" by {t.delivered_by}" if t.delivered_by else ""),
            f"{format_money(t.amount)} for {t.days} closed drawer-"
            f"{'day' if t.days == 1 else 'days'}; count and acknowledge it",
            section=TREASURER,
            place=f"{TURNOVER_PLACE}:{t.turnover_id}",
        )
        for t in reversed(turnovers(conn, municipality_id))
        if t.acknowledged_on is None
    ]


def deposits_refundable(lines: Sequence[DepositLine], today: date) -> list[Item]:
    """Street deposits whose 180 days after completion have passed (15.1.43), from the
    register's lines (surety_queries.deposit_lines)."""
    return [
        Item(
            permit_what(line.permit_number, line.permit_id, line.address),
            f"{format_money(line.amount)} to {line.payee or line.depositor}, eligible since "
            f"{line.eligible_from:%m/%d/%Y} (15.1.43)"
            if line.eligible_from
            else f"{format_money(line.amount)} to {line.payee or line.depositor} (15.1.43)",
            permit_id=line.permit_id,
        )
        for line in lines
        if in_queue(line, "eligible", today)
    ]


def returned_checks_open(conn: Connection, municipality_id: int) -> list[Item]:
    """Checks the bank returned (NSF) on permits that still owe: the fee is due again."""
    rows = conn.execute(
        select(
            pay.c.receipt_number,
            pay.c.check_number,
            rev.c.day,
            alloc.c.permit_id,
            p.c.number,
            lst.c.address,
        )
        .select_from(
            rev.join(pay, pay.c.id == rev.c.payment_id)
            .join(alloc, alloc.c.payment_id == pay.c.id)
            .join(p, p.c.id == alloc.c.permit_id)
            .outerjoin(lst, lst.c.permit_id == p.c.id)
        )
        .where((rev.c.municipality_id == municipality_id) & (rev.c.kind == ReversalKind.NSF.value))
        .order_by(rev.c.day, pay.c.receipt_number)
    ).all()
    money = permit_money(conn, (r.permit_id for r in rows))
    out = []
    for r in rows:
        charged, paid = money[r.permit_id]
        if charged - paid > 0:
            out.append(
                Item(
                    permit_what(r.number, r.permit_id, r.address or ""),
                    f"Check {r.check_number or '(no number)'} on receipt {r.receipt_number} "
                    f"returned {r.day:%m/%d/%Y}; {format_money(charged - paid)} owed",
                    permit_id=r.permit_id,
                )
            )
    return out
