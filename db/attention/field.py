"""What waits for the inspector: today's visits (permit and case inspections), correction
orders past their date, stop-work orders in force, housing notices to serve and housing orders
past their date."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Connection, select

from db import schema
from db.attention.counter import permit_what
from db.enforcement_case_view import municipality_housing_code
from db.enforcement_queries import case_rows, past_due_under_orders
from db.inspection_queries import inspector_day, overdue_orders, week
from desk.dates import stop_time
from desk.domain.attention import ENFORCEMENT, INSPECTIONS, Item
from desk.domain.reports import code_citations
from desk.enforcement.readmodels import CaseFilter
from desk.services.inspections import RouteStop

p, lst, o = schema.permit, schema.permit_listing, schema.permit_order


def inspections_today(
    conn: Connection, municipality_id: int, today: date, inspector_id: int | None
) -> list[Item]:
    """The inspector's route for today, the case inspections of code enforcement among the
    permit stops; for an administrator (None) everyone's. A case stop opens the Inspections
    section's day, where Enter opens the case."""
    if inspector_id is not None:
        stops = inspector_day(conn, inspector_id, today, cases=True)
    else:
        stops = week(conn, municipality_id, today, cases=True)
        stops = [s for s in stops if s.scheduled_on == today]
    return [_stop_item(s, inspector_id is None) for s in stops]


def _stop_item(s: RouteStop, everyone: bool) -> Item:
    why = (
        f"{s.type_label}"
        + (f", {stop_time(s.desired_time)}" if s.desired_time else "")
        + (f" ({s.inspector_name})" if everyone and s.inspector_name else "")
        + (f" — {s.result.label}" if s.result is not None else "")
    )
    if s.is_case:
        return Item(f"{s.permit_number} · {s.address}", why, section=INSPECTIONS)
    return Item(permit_what(s.permit_number, s.permit_id, s.address), why, permit_id=s.permit_id)


def orders_past_due(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """Correction orders not corrected by their date: each may be followed by a stop-work
    order (15.1.90(b)(2))."""
    return [
        Item(
            permit_what(line.permit_number, line.permit_id, line.address),
            f"Correction order of {line.noticed_on:%m/%d/%Y} was due {line.due_on:%m/%d/%Y} "
            f"({line.section})",
            permit_id=line.permit_id,
        )
        for line in overdue_orders(conn, municipality_id, today)
    ]


def stop_work_in_force(conn: Connection, municipality_id: int) -> list[Item]:
    """Stop-work orders not lifted, oldest first."""
    rows = conn.execute(
        select(p.c.id, p.c.number, lst.c.address, o.c.issued_on, o.c.section)
        .select_from(o.join(p, p.c.id == o.c.permit_id).outerjoin(lst, lst.c.permit_id == p.c.id))
        .where(
            (p.c.municipality_id == municipality_id)
            & (o.c.kind == "stop_work")
            & o.c.lifted_on.is_(None)
        )
        .order_by(o.c.issued_on, o.c.id)
    )
    return [
        Item(
            permit_what(r.number, r.id, r.address or ""),
            f"Stop-work order since {r.issued_on:%m/%d/%Y}"
            + (f" ({r.section})" if r.section else ""),
            permit_id=r.id,
        )
        for r in rows
    ]


def notices_unserved(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """Cases whose notice of violation waits to be served on an addressee (Hudson 140-3A(4)):
    the Code enforcement list's own filter."""
    rows = case_rows(conn, municipality_id, today, CaseFilter.NOT_SERVED)
    if not rows:
        return []
    # Cited as the municipality's code cites its procedure (Hudson 140-3A(4), or Ch. 512).
    cited = code_citations(municipality_housing_code(conn, municipality_id) or None).step
    return [
        Item(
            f"{r.number} · {r.address}",
            "Notice issued; serve it personally, by registered mail or by posting "
            f"({cited('140-3A(4)')})",
            section=ENFORCEMENT,
        )
        for r in rows
    ]


def enforcement_past_due(conn: Connection, municipality_id: int, today: date) -> list[Item]:
    """Cases with an order in effect past its correction date: re-inspect or escalate. Counted:
    the open violations the order covers (items of its notice), not every one of the case."""
    rows = case_rows(conn, municipality_id, today, CaseFilter.ORDER_PAST_DUE)
    late = past_due_under_orders(conn, [r.case_id for r in rows], today)
    return [
        Item(
            f"{r.number} · {r.address}",
            f"{late.get(r.case_id, 0)} violation(s) not corrected by the order's date; "
            "re-inspect, cite, condemn or abate",
            section=ENFORCEMENT,
        )
        for r in rows
    ]
