"""What waits at the counter: applications not issued, balances owed, street deposits not paid,
Act 211 filings due with the state."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import Connection, func, literal, select, union_all

from db import schema
from db.cash_queries import permit_label, permit_money
from db.report_queries import act211_report
from desk.domain.attention import Item
from desk.domain.enums import PermitStatus
from desk.domain.reports import FilingState, previous_month
from desk.money import format_money
from desk.services.sureties import DepositLine

p, lst = schema.permit, schema.permit_listing

# Applications the office has taken and not decided (drafts are not applications yet).
PENDING = (PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED)
# A balance on these is not collected: the permit was never granted or was voided.
NOT_OWED = (PermitStatus.WITHDRAWN, PermitStatus.DENIED, PermitStatus.VOID, PermitStatus.DRAFT)


def permit_what(number: str | None, permit_id: int, address: str) -> str:
    return (
        f"{permit_label(number, permit_id)} · {address}"
        if address
        else permit_label(number, permit_id)
    )


def pending_applications(conn: Connection, municipality_id: int) -> list[tuple[int, str]]:
    """(permit id, what) of the applications not yet issued, oldest first."""
    rows = conn.execute(
        select(p.c.id, p.c.number, lst.c.address)
        .select_from(p.outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(
            (p.c.municipality_id == municipality_id) & p.c.status.in_([s.value for s in PENDING])
        )
        .order_by(p.c.applied_on, p.c.id)
    )
    return [(r.id, permit_what(r.number, r.id, r.address or "")) for r in rows]


def unpaid_balances(conn: Connection, municipality_id: int) -> list[Item]:
    """Permits owing money, the largest balance first. The candidates come from one grouped
    query; each balance is then the Cashier's own figure (permit_money)."""
    fl, adj, ge = schema.permit_fee_line, schema.fee_adjustment, schema.gl_entry
    moves = union_all(
        select(fl.c.permit_id, fl.c.amount),
        select(adj.c.permit_id, adj.c.amount),
        select(ge.c.permit_id, (literal(0) - ge.c.amount).label("amount")).where(
            ge.c.permit_id.is_not(None)
        ),
    ).subquery()
    owing = (
        select(moves.c.permit_id)
        .group_by(moves.c.permit_id)
        .having(func.sum(moves.c.amount) > 0)
        .subquery()
    )
    rows = conn.execute(
        select(p.c.id, p.c.number, lst.c.address)
        .select_from(
            p.join(owing, owing.c.permit_id == p.c.id).outerjoin(lst, lst.c.permit_id == p.c.id)
        )
        .where(
            (p.c.municipality_id == municipality_id)
            & p.c.status.not_in([s.value for s in NOT_OWED])
        )
    ).all()
    money = permit_money(conn, (r.id for r in rows))
    out = []
    for r in rows:
        charged, paid = money[r.id]
        due = charged - paid
        if due > 0:
            out.append(
                (
                    due,
                    Item(
                        permit_what(r.number, r.id, r.address or ""),
                        f"{format_money(due)} owed of {format_money(charged)} assessed",
                        permit_id=r.id,
                    ),
                )
            )
    return [item for _, item in sorted(out, key=lambda x: (-x[0], x[1].what))]


def deposits_awaiting_receipt(lines: Sequence[DepositLine]) -> list[Item]:
    """Street deposits required of a permit and not yet paid (15.1.43), from the register's
    lines (surety_queries.deposit_lines, read once for the home's two deposit lists)."""
    return [
        Item(
            permit_what(line.permit_number, line.permit_id, line.address),
            f"{format_money(line.amount)} street deposit from {line.depositor or 'the permittee'}"
            " not yet paid (15.1.43)",
            permit_id=line.permit_id,
        )
        for line in lines
        if line.status is None
    ]


def act211_filings(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """New dwelling permits not filed with the state: last month's (due on the 15th), earlier
    months' overdue ones, and this month's so far (SPS 320.09)."""
    last = act211_report(conn, municipality_id, *previous_month(today), today)
    this = act211_report(conn, municipality_id, today.year, today.month, today)
    out = []
    for report, lines in (
        (last, last.earlier + last.lines),
        (this, this.lines),
    ):
        for line in lines:
            if line.filed_on is not None:
                continue
            late = line.state is FilingState.OVERDUE
            out.append(
                Item(
                    permit_what(line.number, line.permit_id, line.address),
                    f"{'Overdue since' if late else 'File by'} {line.due_on:%m/%d/%Y}: "
                    f"issued {line.issued_on:%m/%d/%Y} ({report.due.section})",
                    permit_id=line.permit_id,
                )
            )
    return out
