"""What waits for the clerk after the counter closes: past days' drawers with receipts and no
daily close, and street deposit refunds the City Engineer ordered that no check has paid yet
(15.1.43). One grouped query per list, no query per row."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Connection, func, select

from db import schema
from db.attention.counter import permit_what
from desk.domain.attention import CLOSE_PLACE, DEPOSITS, ORDERED_PLACE, TREASURER, Item
from desk.domain.model import DepositState
from desk.money import format_money

pay, d = schema.payment, schema.deposit
p, lst = schema.permit, schema.permit_listing


def _receipts(n: int) -> str:
    return f"{n} receipt{'s' * (n != 1)}"


def drawers_not_closed(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """Past business days with receipts whose drawer has no daily close, oldest first (today's
    drawer is still open for business)."""
    rows = conn.execute(
        select(pay.c.drawer, pay.c.day, func.count(), func.sum(pay.c.amount))
        .where(
            (pay.c.municipality_id == municipality_id)
            & pay.c.close_id.is_(None)
            & (pay.c.day < today)
        )
        .group_by(pay.c.drawer, pay.c.day)
        .order_by(pay.c.day, pay.c.drawer)
    )
    return [
        Item(
            f"Drawer not closed: {drawer}, {day:%m/%d/%Y} ({_receipts(int(count))}, "
            f"{format_money(total)})",
            "Count it and close the day; the treasurer receives it with the next turnover "
            "(15.1.34(b)(4))",
            section=TREASURER,
            place=f"{CLOSE_PLACE}:{drawer}:{day.isoformat()}",
        )
        for drawer, day, count, total in rows
    ]


def refunds_ordered_unpaid(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """Street deposits the City Engineer ordered returned (15.1.43) and no check has paid yet,
    oldest order first."""
    rows = conn.execute(
        select(
            d.c.permit_id,
            d.c.ordered_on,
            d.c.ordered_by,
            d.c.refund_payee,
            d.c.depositor,
            d.c.amount,
            d.c.retention_amount,
            p.c.number,
            lst.c.address,
        )
        .select_from(d.join(p, p.c.id == d.c.permit_id).outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(
            (d.c.municipality_id == municipality_id)
            & (d.c.status == DepositState.ORDERED.value)
            & d.c.ordered_on.is_not(None)
            & (d.c.ordered_on <= today)
        )
        .order_by(d.c.ordered_on, d.c.id)
    ).all()
    out = []
    for r in rows:
        due = r.amount - (r.retention_amount or 0)
        waiting = (today - r.ordered_on).days
        out.append(
            Item(
                f"Deposit refund ordered {r.ordered_on:%m/%d/%Y}, not yet paid: "
                f"{permit_what(r.number, r.permit_id, r.address or '')}, "
                f"{format_money(due)} to {r.refund_payee or r.depositor}",
                f"Ordered by {r.ordered_by or 'the City Engineer'} {waiting} day"
                f"{'s' * (waiting != 1)} ago; the City Clerk writes the check (15.1.43)",
                section=DEPOSITS,
                place=ORDERED_PLACE,
            )
        )
    return out
