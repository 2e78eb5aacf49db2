"""Read-side queries of inspections: requests, the inspector's day and week, a permit's
inspections with its sequence, correction orders, and what the route sheet, the correction
notice and the certificate of occupancy print. They return the frozen rows of
desk/services/inspections.py."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Connection, Select, func, literal, or_, select

from db import queries, schema
from db.letterheads import letterhead_as_of, signer
from desk.dates import short_date
from desk.domain.enums import PartyRole, PermitStatus
from desk.domain.inspections import Result
from desk.domain.kinds import kind_label
from desk.domain.model import InspectionStatus
from desk.enforcement import visits as visit_rules
from desk.enforcement.model import ViolationState, VisitPurpose, VisitStatus
from desk.services.inspections import (
    CertificateData,
    CertificateLine,
    CorrectionNoticeData,
    ExceptionLine,
    InspectionLine,
    OrderLine,
    PermitInspections,
    RouteSheet,
    RouteStop,
    due_at,
    permit_stages,
    type_label,
)

i = schema.inspection
p = schema.permit
lst = schema.permit_listing
m = schema.municipality
u = schema.app_user
co = schema.correction_order
OPEN = (InspectionStatus.REQUESTED.value, InspectionStatus.SCHEDULED.value)


# --------------------------------------------------------------------------- inspectors


def inspectors(conn: Connection) -> list[tuple[int, str]]:
    """(user id, full name) of the active inspectors, by name; administrators when the office
    has no inspector account yet (a one-person office)."""
    rows = conn.execute(
        select(u.c.id, u.c.full_name, u.c.roles).where(u.c.active).order_by(u.c.full_name)
    ).all()
    found = [(r.id, r.full_name) for r in rows if "inspector" in r.roles.split(",")]
    if found:
        return found
    return [(r.id, r.full_name) for r in rows if "administrator" in r.roles.split(",")]


def user_by_name(conn: Connection, name: str) -> tuple[int, str] | None:
    """A user by user name or full name (case does not matter)."""
    key = name.strip().lower()
    row = conn.execute(
        select(u.c.id, u.c.full_name).where(
            or_(func.lower(u.c.username) == key, func.lower(u.c.full_name) == key)
        )
    ).first()
    return (row.id, row.full_name) if row else None


# --------------------------------------------------------------------------- stops


def _stops_select() -> Select[Any]:
    return select(
        i,
        p.c.number.label("permit_number"),
        lst.c.address,
        m.c.ordinance.label("municipality_key"),
        u.c.full_name.label("inspector_name"),
    ).select_from(
        i.join(p, p.c.id == i.c.permit_id)
        .join(m, m.c.id == p.c.municipality_id)
        .outerjoin(lst, lst.c.permit_id == p.c.id)
        .outerjoin(u, u.c.id == i.c.inspector_id)
    )


def _stop(row: Any) -> RouteStop:
    return RouteStop(
        inspection_id=row.id,
        position=row.route_position,
        permit_id=row.permit_id,
        permit_number=row.permit_number or f"#{row.permit_id}",
        address=row.address or "",
        type_code=row.type_code,
        type_label=type_label(row.municipality_key, row.type_code),
        contact=row.requested_by,
        phone=row.requested_phone,
        desired_on=row.desired_on,
        desired_time=row.desired_time,
        notes=row.notes,
        status=InspectionStatus(row.status),
        result=Result(row.result) if row.result else None,
        requested_at=row.requested_at,
        due_at=due_at(row.municipality_key, row.type_code, row.requested_at),
        inspector_id=row.inspector_id,
        inspector_name=row.inspector_name or "",
        scheduled_on=row.scheduled_on,
    )


def inspector_day(
    conn: Connection, inspector_id: int, day: date, *, cases: bool = False
) -> list[RouteStop]:
    """The inspector's day in route order (cancelled visits left off); with `cases`, the case
    inspections of code enforcement beside the permit stops, in one order (route position,
    then time). Callers that can only open a permit leave `cases` off."""
    stmt = (
        _stops_select()
        .where(
            (i.c.inspector_id == inspector_id)
            & (i.c.scheduled_on == day)
            & (i.c.status != InspectionStatus.CANCELLED.value)
        )
        .order_by(i.c.route_position.nulls_last(), i.c.id)
    )
    stops = [_stop(r) for r in conn.execute(stmt)]
    if not cases:
        return stops
    return sorted(stops + case_stops(conn, inspector_id, day), key=_route_key)


def _route_key(s: RouteStop) -> tuple[bool, int, str, bool, int]:
    return (
        s.position is None,
        s.position or 0,
        visit_rules.time_key(s.desired_time),
        s.is_case,
        s.visit_id or s.inspection_id,
    )


ev = schema.enforcement_visit
ec = schema.enforcement_case
ev_parcel = schema.parcel
ev_violation = schema.enforcement_violation
ev_complaint = schema.enforcement_complaint
_VISIT_STATUS = {
    VisitStatus.SCHEDULED: InspectionStatus.SCHEDULED,
    VisitStatus.DONE: InspectionStatus.DONE,
    VisitStatus.CANCELLED: InspectionStatus.CANCELLED,
}


def _case_items(conn: Connection, case_id: int, purpose: VisitPurpose, summary: str) -> list[str]:
    """What to inspect: the open violations (section, title, unit and room, correction date);
    at a first inspection (Hudson 140-2) the complaint in its own words, never who made it (the
    office keeps the complainant confidential)."""
    rows = conn.execute(
        select(
            ev_violation.c.section,
            ev_violation.c.title,
            ev_violation.c.unit,
            ev_violation.c.room,
            ev_violation.c.correct_by,
        )
        .where(
            (ev_violation.c.case_id == case_id)
            & (ev_violation.c.state == ViolationState.OPEN.value)
        )
        .order_by(ev_violation.c.correct_by, ev_violation.c.id)
    ).all()
    items = []
    for r in rows:
        where = ", ".join(x for x in (f"Unit {r.unit}" if r.unit else "", r.room) if x)
        items.append(
            f"{r.section} {r.title}"
            + (f" ({where})" if where else "")
            + f", correct by {short_date(r.correct_by)}"
        )
    if purpose is VisitPurpose.REINSPECTION and items:
        return items
    complaints = (
        conn.execute(
            select(ev_complaint.c.description)
            .where(ev_complaint.c.case_id == case_id)
            .order_by(ev_complaint.c.id)
        )
        .scalars()
        .all()
    )
    said = [f"Complaint: {d}" for d in complaints] or ([f"Observed: {summary}"] if summary else [])
    return said + items


def case_stops(conn: Connection, inspector_id: int, day: date) -> list[RouteStop]:
    """The case inspections on the inspector's day (cancelled ones left off), as route stops:
    the case number in place of the permit number, no caller or phone (the office keeps a
    complainant confidential: never on the route sheet)."""
    return _case_stops(conn, (ev.c.inspector_id == inspector_id) & (ev.c.scheduled_on == day))


def _case_stops(conn: Connection, where: Any) -> list[RouteStop]:
    rows = conn.execute(
        select(
            ev,
            ec.c.number,
            ec.c.summary,
            func.trim(ev_parcel.c.house_number + literal(" ") + ev_parcel.c.street).label(
                "address"
            ),
            ev_parcel.c.unit.label("parcel_unit"),
            u.c.full_name.label("inspector_name"),
        )
        .select_from(
            ev.join(ec, ec.c.id == ev.c.case_id)
            .join(ev_parcel, ev_parcel.c.id == ec.c.parcel_id)
            .outerjoin(u, u.c.id == ev.c.inspector_id)
        )
        .where(where & (ev.c.status != VisitStatus.CANCELLED.value))
        .order_by(ev.c.route_position.nulls_last(), ev.c.scheduled_time, ev.c.id)
    ).all()
    out = []
    for r in rows:
        purpose = VisitPurpose(r.purpose)
        items = tuple(_case_items(conn, r.case_id, purpose, r.summary))
        address = r.address + (f", Unit {r.parcel_unit}" if r.parcel_unit else "")
        out.append(
            RouteStop(
                inspection_id=0,
                position=r.route_position,
                permit_id=0,
                permit_number=r.number,
                address=address,
                type_code=f"case:{purpose.value}",
                type_label=visit_rules.purpose_label(purpose),
                contact="",
                phone="",
                desired_on=r.scheduled_on,
                desired_time=r.scheduled_time,  # "HH:MM" as a permit stop's, or ""
                notes="\n".join([*items, *([r.notes] if r.notes else [])]),
                status=_VISIT_STATUS[VisitStatus(r.status)],
                result=None,
                requested_at=r.at or datetime.combine(r.scheduled_on, time(), UTC),
                due_at=None,
                inspector_id=r.inspector_id,
                inspector_name=r.inspector_name or "",
                scheduled_on=r.scheduled_on,
                kind="case",
                case_id=r.case_id,
                visit_id=r.id,
                items=items,
            )
        )
    return out


def open_requests(conn: Connection, municipality_id: int) -> list[RouteStop]:
    """Requests not yet made: those not on a day first (oldest call first), then the scheduled
    ones by day, inspector and route."""
    stmt = (
        _stops_select()
        .where((p.c.municipality_id == municipality_id) & i.c.status.in_(OPEN))
        .order_by(
            i.c.scheduled_on.nulls_first(),
            u.c.full_name,
            i.c.route_position,
            i.c.requested_at,
            i.c.id,
        )
    )
    return [_stop(r) for r in conn.execute(stmt)]


def week(
    conn: Connection, municipality_id: int, first_day: date, *, cases: bool = False
) -> list[RouteStop]:
    """The scheduled inspections of the seven days from `first_day`, by day, inspector, route;
    with `cases`, the case inspections beside them (as inspector_day)."""
    stmt = (
        _stops_select()
        .where(
            (p.c.municipality_id == municipality_id)
            & (i.c.scheduled_on >= first_day)
            & (i.c.scheduled_on < first_day + timedelta(days=7))
            & (i.c.status != InspectionStatus.CANCELLED.value)
        )
        .order_by(i.c.scheduled_on, u.c.full_name, i.c.route_position.nulls_last(), i.c.id)
    )
    stops = [_stop(r) for r in conn.execute(stmt)]
    if not cases:
        return stops
    visits = _case_stops(
        conn,
        (ec.c.municipality_id == municipality_id)
        & (ev.c.scheduled_on >= first_day)
        & (ev.c.scheduled_on < first_day + timedelta(days=7)),
    )
    return sorted(stops + visits, key=lambda s: (s.scheduled_on, s.inspector_name, _route_key(s)))


def route_sheet(conn: Connection, municipality_id: int, inspector_id: int, day: date) -> RouteSheet:
    head = letterhead_as_of(conn, municipality_id, None)  # a working sheet: printed now
    name = conn.execute(select(u.c.full_name).where(u.c.id == inspector_id)).scalar_one()
    stops = [
        s
        for s in inspector_day(conn, inspector_id, day, cases=True)
        if s.status is not InspectionStatus.CANCELLED
    ]
    return RouteSheet(
        municipality_name=head.name,
        letterhead=head,
        inspector_name=name,
        day=day,
        stops=tuple(stops),
    )


# --------------------------------------------------------------------------- a permit


def _order_lines(conn: Connection, where: Any) -> list[OrderLine]:
    rows = conn.execute(
        select(
            co,
            p.c.number.label("permit_number"),
            lst.c.address,
            m.c.ordinance.label("municipality_key"),
            i.c.type_code,
        )
        .select_from(
            co.join(p, p.c.id == co.c.permit_id)
            .join(m, m.c.id == p.c.municipality_id)
            .outerjoin(lst, lst.c.permit_id == p.c.id)
            .outerjoin(i, i.c.id == co.c.inspection_id)
        )
        .where(where)
        .order_by(co.c.due_on, co.c.id)
    ).all()
    return [
        OrderLine(
            id=r.id,
            permit_id=r.permit_id,
            permit_number=r.permit_number or f"#{r.permit_id}",
            address=r.address or "",
            type_label=type_label(r.municipality_key, r.type_code) if r.type_code else "",
            noticed_on=r.noticed_on,
            due_on=r.due_on,
            section=r.section,
            items=r.items,
            corrected_on=r.corrected_on,
            extended=bool(r.extended),
            extension_reasons=r.extension_reasons,
        )
        for r in rows
    ]


def permit_inspections(conn: Connection, permit_id: int) -> PermitInspections | None:
    head = conn.execute(
        select(p.c.number, p.c.kind, p.c.status, m.c.ordinance.label("key"))
        .join(m, m.c.id == p.c.municipality_id)
        .where(p.c.id == permit_id)
    ).first()
    if head is None:
        return None
    rec = u.alias("recorder")
    rows = conn.execute(
        select(i, u.c.full_name.label("inspector_name"))
        .select_from(i.outerjoin(u, u.c.id == i.c.inspector_id))
        .where(i.c.permit_id == permit_id)
        .order_by(i.c.requested_at, i.c.id)
    ).all()
    done = sorted(
        (r for r in rows if r.status == InspectionStatus.DONE.value and r.result),
        key=lambda r: (r.result_at or r.requested_at, r.id),
    )
    ex = schema.inspection_exception
    exceptions = conn.execute(
        select(ex, rec.c.full_name)
        .select_from(ex.outerjoin(rec, rec.c.id == ex.c.by_user_id))
        .where(ex.c.permit_id == permit_id)
        .order_by(ex.c.id)
    ).all()
    seq, stages = permit_stages(
        head.key,
        head.kind,
        [(r.type_code, Result(r.result)) for r in done],
        [(e.type_code, e.reason) for e in exceptions],
    )
    oc = schema.occupancy_certificate
    certs = conn.execute(select(oc).where(oc.c.permit_id == permit_id).order_by(oc.c.id)).all()
    return PermitInspections(
        permit_id=permit_id,
        number=head.number,
        municipality_key=head.key,
        status=PermitStatus(head.status),
        sequence_code=seq.code if seq else "",
        sequence_label=seq.label if seq else "",
        stages=tuple(stages),
        inspections=tuple(
            InspectionLine(
                id=r.id,
                type_code=r.type_code,
                type_label=type_label(head.key, r.type_code),
                requested_at=r.requested_at,
                requested_by=r.requested_by,
                phone=r.requested_phone,
                scheduled_on=r.scheduled_on,
                inspector_name=r.inspector_name or "",
                status=InspectionStatus(r.status),
                result=Result(r.result) if r.result else None,
                result_at=r.result_at,
                notes=r.notes,
                failure_to_call=bool(r.failure_to_call),
                fee_waiver=r.fee_waiver,
            )
            for r in rows
        ),
        exceptions=tuple(
            ExceptionLine(type_label(head.key, e.type_code), e.reason, e.full_name or "", e.at)
            for e in exceptions
        ),
        orders=tuple(_order_lines(conn, co.c.permit_id == permit_id)),
        certificates=tuple(
            CertificateLine(
                c.id, c.number, c.use_stated, c.issued_on, c.temporary_until, c.inspector_name
            )
            for c in certs
        ),
    )


# --------------------------------------------------------------------------- correction orders


def open_orders(conn: Connection, municipality_id: int) -> list[OrderLine]:
    """Correction orders not yet corrected, the soonest deadline first."""
    return _order_lines(
        conn, (p.c.municipality_id == municipality_id) & co.c.corrected_on.is_(None)
    )


def overdue_orders(conn: Connection, municipality_id: int, today: date) -> list[OrderLine]:
    """Open orders whose deadline has passed (late from the day after it): each offers the
    stop-work order of 15.1.90(b)(2)."""
    return _order_lines(
        conn,
        (p.c.municipality_id == municipality_id)
        & co.c.corrected_on.is_(None)
        & (co.c.due_on < today),
    )


def _parties(conn: Connection, permit_id: int) -> tuple[str, str, str]:
    """Owner, owner's address (one line), contractor."""
    detail = queries.permit_detail(conn, permit_id)
    if detail is None:
        return "", "", ""
    owner = next(
        (x for x in detail.parties if x.role in (PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER)),
        None,
    )
    contractor = next(
        (
            x
            for x in detail.parties
            if x.role
            in (
                PartyRole.CONTRACTOR,
                PartyRole.PLUMBER,
                PartyRole.ELECTRICIAN,
                PartyRole.HVAC_CONTRACTOR,
            )
        ),
        None,
    )
    return (
        owner.name if owner else "",
        owner.mailing_address.replace("\n", ", ") if owner else "",
        contractor.name if contractor else "",
    )


def correction_notice(conn: Connection, order_id: int) -> CorrectionNoticeData | None:
    row = conn.execute(select(co).where(co.c.id == order_id)).first()
    if row is None:
        return None
    head = conn.execute(
        select(
            p.c.number,
            p.c.kind,
            p.c.description,
            lst.c.address,
            m.c.id.label("municipality_id"),
            m.c.ordinance.label("key"),
        )
        .select_from(
            p.join(m, m.c.id == p.c.municipality_id).outerjoin(lst, lst.c.permit_id == p.c.id)
        )
        .where(p.c.id == row.permit_id)
    ).one()
    insp = None
    if row.inspection_id is not None:
        insp = conn.execute(
            select(i.c.type_code, i.c.scheduled_on, u.c.full_name)
            .select_from(i.outerjoin(u, u.c.id == i.c.recorded_by_id))
            .where(i.c.id == row.inspection_id)
        ).first()
    lh = letterhead_as_of(conn, head.municipality_id, row.noticed_on)
    by, by_title = signer(conn, row.by_user_id, lh)
    owner, owner_address, contractor = _parties(conn, row.permit_id)
    return CorrectionNoticeData(
        municipality_name=lh.name,
        letterhead=lh,
        order_id=row.id,
        permit_id=row.permit_id,
        permit_number=head.number or f"#{row.permit_id}",
        address=head.address or "",
        kind_label=kind_label(head.key, head.kind),
        description=head.description,
        owner=owner,
        owner_address=owner_address,
        contractor=contractor,
        type_label=type_label(head.key, insp.type_code) if insp else "",
        inspected_on=insp.scheduled_on if insp else None,
        noticed_on=row.noticed_on,
        due_on=row.due_on,
        section=row.section,
        items=row.items,
        extension_reasons=row.extension_reasons,
        inspector_name=by,
        inspector_title=by_title,
    )


def certificate_data(conn: Connection, certificate_id: int) -> CertificateData | None:
    oc = schema.occupancy_certificate
    row = conn.execute(select(oc).where(oc.c.id == certificate_id)).first()
    if row is None:
        return None
    detail = queries.permit_detail(conn, row.permit_id)
    assert detail is not None
    lh = letterhead_as_of(conn, row.municipality_id, row.issued_on)
    name, title = signer(conn, row.inspector_id, lh)
    owner, _, _ = _parties(conn, row.permit_id)
    return CertificateData(
        municipality_name=lh.name,
        letterhead=lh,
        number=row.number,
        permit_number=detail.number or f"#{row.permit_id}",
        address=detail.address,
        pin=detail.pin,
        kind_label=kind_label(detail.municipality_key, detail.kind),
        description=detail.description,
        owner=owner,
        use_stated=row.use_stated,
        occupant=row.occupant,
        conditions=row.conditions,
        issued_on=row.issued_on,
        temporary_until=row.temporary_until,
        # The name as the certificate was issued with; the title of the user who issued it.
        inspector_name=row.inspector_name or name,
        inspector_title=title,
    )


def latest_certificate(conn: Connection, permit_id: int) -> int | None:
    oc = schema.occupancy_certificate
    return conn.execute(select(func.max(oc.c.id)).where(oc.c.permit_id == permit_id)).scalar()


def case_visits(conn: Connection, case_id: int) -> list[visit_rules.VisitLine]:
    """The case's visits, scheduled, done and cancelled, by day (the case window)."""
    rows = conn.execute(
        select(ev, u.c.full_name.label("inspector_name"))
        .select_from(ev.outerjoin(u, u.c.id == ev.c.inspector_id))
        .where(ev.c.case_id == case_id)
        .order_by(ev.c.scheduled_on, ev.c.id)
    ).all()
    return [
        visit_rules.VisitLine(
            id=r.id,
            purpose=VisitPurpose(r.purpose),
            scheduled_on=r.scheduled_on,
            scheduled_time=r.scheduled_time,
            inspector_id=r.inspector_id,
            inspector_name=r.inspector_name or "",
            status=VisitStatus(r.status),
            inspection_id=r.inspection_id,
            notes=r.notes,
            version=r.version,
        )
        for r in rows
    ]
