"""Read-side queries for lists and windows. They return frozen rows (desk/domain/readmodels.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Select, and_, func, select

from db import schema
from desk.domain.model import AuditEntry, FieldChange
from desk.domain.readmodels import PartyLine, PermitDetail, PermitListRow
from desk.domain.search import prefix_upper_bound, query_tokens

p = schema.permit
lst = schema.permit_listing
st = schema.permit_search_term

SORT_COLUMNS: dict[str, Any] = {
    "number": lst.c.number_sort,
    "status": p.c.status,
    "kind": p.c.kind,
    "address": lst.c.address,
    "owner": lst.c.owner,
    "contractor": lst.c.contractor,
    "applied": p.c.applied_on,
    "issued": p.c.issued_on,
    "valuation": p.c.valuation,
}
DEFAULT_SORT = "applied"


def _filtered(stmt: Select[Any], municipality_id: int, text: str) -> Select[Any]:
    stmt = stmt.where(p.c.municipality_id == municipality_id)
    for token in query_tokens(text):
        # A prefix is a range of the term index: term >= 'main' AND term < 'maio'.
        matches = select(st.c.permit_id).where(
            and_(st.c.term >= token, st.c.term < prefix_upper_bound(token))
        )
        stmt = stmt.where(p.c.id.in_(matches))
    return stmt


def count_permits(conn: Connection, municipality_id: int, text: str = "") -> int:
    stmt = _filtered(select(func.count()).select_from(p), municipality_id, text)
    return int(conn.execute(stmt).scalar_one())


def search_permits(
    conn: Connection,
    municipality_id: int,
    text: str = "",
    *,
    sort: str = DEFAULT_SORT,
    descending: bool = True,
    offset: int = 0,
    limit: int = 200,
) -> list[PermitListRow]:
    """A page of the permits list, filtered and sorted in SQL."""
    column = SORT_COLUMNS.get(sort, SORT_COLUMNS[DEFAULT_SORT])
    order = column.desc() if descending else column.asc()
    tiebreak = p.c.id.desc() if descending else p.c.id.asc()
    stmt = (
        select(
            p.c.id,
            p.c.number,
            p.c.status,
            p.c.kind,
            lst.c.address,
            lst.c.owner,
            lst.c.contractor,
            p.c.applied_on,
            p.c.issued_on,
            p.c.valuation,
        )
        .select_from(p.join(lst, lst.c.permit_id == p.c.id))
        .order_by(order.nulls_last(), tiebreak)
        .offset(offset)
        .limit(limit)
    )
    stmt = _filtered(stmt, municipality_id, text)
    return [PermitListRow(*row) for row in conn.execute(stmt)]


def permit_detail(conn: Connection, permit_id: int) -> PermitDetail | None:
    pc, m, u = schema.parcel, schema.municipality, schema.app_user
    row = conn.execute(
        select(
            p,
            pc.c.pin,
            pc.c.legal_description,
            pc.c.zoning_district,
            lst.c.address,
            m.c.key.label("municipality_key"),
            u.c.full_name.label("issued_by_name"),
        )
        .select_from(
            p.outerjoin(pc, pc.c.id == p.c.parcel_id)
            .outerjoin(lst, lst.c.permit_id == p.c.id)
            .join(m, m.c.id == p.c.municipality_id)
            .outerjoin(u, u.c.id == p.c.issued_by_id)
        )
        .where(p.c.id == permit_id)
    ).first()
    if row is None:
        return None
    pp, pa = schema.permit_party, schema.party
    parties = tuple(
        PartyLine(
            role=r.role,
            party_id=r.id,
            name=r.name,
            mailing_address=", ".join(
                x for x in (r.address_line1, r.address_line2, f"{r.city}, {r.state} {r.zip}") if x
            ).strip(" ,"),
            phone=r.phone,
        )
        for r in conn.execute(
            select(
                pp.c.role,
                pa.c.id,
                pa.c.name,
                pa.c.address_line1,
                pa.c.address_line2,
                pa.c.city,
                pa.c.state,
                pa.c.zip,
                pa.c.phone,
            )
            .join(pa, pa.c.id == pp.c.party_id)
            .where(pp.c.permit_id == permit_id)
            .order_by(pp.c.id)
        )
    )
    return PermitDetail(
        id=row.id,
        municipality_key=row.municipality_key,
        number=row.number,
        status=row.status,
        kind=row.kind,
        permit_class=row.permit_class,
        work_class=row.work_class,
        description=row.description,
        address=row.address or "",
        pin=row.pin or "",
        legal_description=row.legal_description or "",
        zoning_district=row.zoning_district or "",
        valuation=row.valuation,
        floor_area_sqft=row.floor_area_sqft,
        dwelling_units=row.dwelling_units,
        applied_on=row.applied_on,
        issued_on=row.issued_on,
        expires_on=row.expires_on,
        commenced_on=row.commenced_on,
        completed_on=row.completed_on,
        issued_by=row.issued_by_name or "",
        parties=parties,
    )


def permit_history(conn: Connection, permit_id: int) -> list[AuditEntry]:
    """The permit's audit trail (its own rows and those of rows that belong to it), newest first."""
    a, u = schema.audit_event, schema.app_user
    rows = conn.execute(
        select(a, u.c.username)
        .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
        .where(a.c.permit_id == permit_id)
        .order_by(a.c.id.desc())
    )
    return [
        AuditEntry(
            at=r.at,
            username=r.username or "(system)",
            entity=r.entity,
            entity_id=r.entity_id,
            action=r.action,
            changes=tuple(FieldChange(c["field"], c["old"], c["new"]) for c in r.changes),
        )
        for r in rows
    ]


def first_municipality(conn: Connection) -> tuple[int, str, str] | None:
    m = schema.municipality
    row = conn.execute(select(m.c.id, m.c.key, m.c.name).order_by(m.c.id).limit(1)).first()
    return None if row is None else (row.id, row.key, row.name)


def municipality_by_key(conn: Connection, key: str) -> tuple[int, str, str] | None:
    m = schema.municipality
    row = conn.execute(select(m.c.id, m.c.key, m.c.name).where(m.c.key == key)).first()
    return None if row is None else (row.id, row.key, row.name)


def user_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(schema.app_user)).scalar_one())
