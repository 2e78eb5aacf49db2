"""Read-side queries for lists and windows. They return frozen rows (desk/domain/readmodels.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Select,
    and_,
    case,
    false,
    func,
    intersect,
    or_,
    select,
)

from db import schema
from db.letterheads import find_letterhead, letterhead_as_of, signer
from desk.domain import documents as docs
from desk.domain.credentials import HeldCredential
from desk.domain.enums import PartyRole
from desk.domain.kinds import kind_label
from desk.domain.model import AuditEntry, FieldChange
from desk.domain.permit_filter import OPEN_STATUSES, PermitWhere
from desk.domain.readmodels import (
    HistoryReferences,
    OrderNotice,
    PartyLine,
    PermitDetail,
    PermitListRow,
)
from desk.domain.search import (
    SearchPlan,
    TokenMatch,
    closest_terms,
    correctable,
    min_candidate_length,
    prefix_upper_bound,
    token_matches,
)

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
# Columns every permit fills (the service dates each application, desk/services/permits.py):
# sorted without NULLS LAST, so PostgreSQL walks their index for the first page (with NULLS
# LAST it sorted all 100,000 permits: 63 ms, against 1 ms).
_NEVER_EMPTY = frozenset({"applied", "status", "kind"})


def _term_condition(token: TokenMatch) -> ColumnElement[bool]:
    conditions: list[ColumnElement[bool]] = []
    if token.prefix:
        # A prefix is a range of the term index: term >= 'main' AND term < 'maio'.
        conditions.append(
            and_(st.c.term >= token.prefix, st.c.term < prefix_upper_bound(token.prefix))
        )
    if token.exact:
        conditions.append(st.c.term.in_(token.exact))
    return or_(*conditions) if len(conditions) > 1 else conditions[0]


def _where_conditions(where: PermitWhere) -> list[ColumnElement[bool]]:
    """The filter bar's conditions (desk/domain/permit_filter.py) in SQL, dates inclusive."""
    f = where.filter
    out: list[ColumnElement[bool]] = []
    if f.statuses:
        out.append(p.c.status.in_(sorted(f.statuses)))
    if f.open_only:
        out.append(p.c.status.in_(sorted(OPEN_STATUSES)))
    if f.kind:
        out.append(p.c.kind == f.kind)
    for column, low, high in (
        (p.c.applied_on, f.applied_from, f.applied_to),
        (p.c.issued_on, f.issued_from, f.issued_to),
    ):
        if low is not None:
            out.append(column >= low)
        if high is not None:
            out.append(column <= high)
    if f.inspector_id is not None:
        ins = schema.inspection
        out.append(
            or_(
                p.c.issued_by_id == f.inspector_id,
                p.c.id.in_(select(ins.c.permit_id).where(ins.c.inspector_id == f.inspector_id)),
            )
        )
    if f.entered_by_me:
        # Who entered the application: the audit trail's "create" row of the permit.
        a = schema.audit_event
        mine = select(a.c.entity_id).where(
            a.c.entity == "permit", a.c.action == "create", a.c.user_id == where.entered_by_id
        )
        out.append(p.c.id.in_(mine) if where.entered_by_id is not None else false())
    if f.lapsing_days is not None:
        ids = sorted(where.permit_ids or ())
        out.append(p.c.id.in_(ids) if ids else false())
    return out


def _filtered(
    stmt: Select[Any], municipality_id: int, plan: SearchPlan, where: PermitWhere | None = None
) -> Select[Any]:
    stmt = stmt.where(p.c.municipality_id == municipality_id)
    if plan.tokens:
        stmt = stmt.where(p.c.id.in_(_matched_ids(plan)))
    if where is not None:
        stmt = stmt.where(*_where_conditions(where))
    return stmt


def _matched_ids(plan: SearchPlan) -> Any:
    """The ids of the permits every word matches. Several words: the INTERSECT of each word's
    ids, which PostgreSQL computes from the term index alone; one IN per word made it probe
    each word's terms permit by permit (100 ms for 'santa mo' at 100,000 permits)."""
    matched = [select(st.c.permit_id).where(_term_condition(t)) for t in plan.tokens]
    return matched[0] if len(matched) == 1 else intersect(*matched)


def plan_search(
    conn: Connection, municipality_id: int, text: str, where: PermitWhere | None = None
) -> SearchPlan:
    """What `text` filters by. Words match as prefixes, street suffixes and directions both
    ways (USPS Pub. 28); when that finds no permit, each word that matches no term at all is
    replaced by the indexed terms closest to it (same first letter, a few edits away)."""
    exact = SearchPlan(token_matches(text))
    if not exact.tokens:
        return exact
    if conn.execute(_filtered(select(p.c.id), municipality_id, exact, where).limit(1)).first():
        return exact
    return _corrected(conn, exact)


def count_search(
    conn: Connection, municipality_id: int, text: str, where: PermitWhere | None = None
) -> tuple[SearchPlan, int]:
    """The plan of `text` and how many permits it finds; the exact count decides whether to
    correct, so a search that finds permits costs one COUNT, as before. `where` narrows both."""
    exact = SearchPlan(token_matches(text))
    found = _count(conn, municipality_id, exact, where)
    if found or not exact.tokens:
        return exact, found
    plan = _corrected(conn, exact)
    return plan, (_count(conn, municipality_id, plan, where) if plan != exact else 0)


def _corrected(conn: Connection, exact: SearchPlan) -> SearchPlan:
    """`exact` with each word that matches no indexed term replaced by the closest terms."""
    tokens: list[TokenMatch] = []
    for token in exact.tokens:
        known = conn.execute(select(st.c.term).where(_term_condition(token)).limit(1)).first()
        if known is not None or not correctable(token.typed):
            tokens.append(token)
            continue
        first = token.typed[0]
        # One letter's range of the term index, shorter terms left out: a few thousand terms.
        candidates = conn.scalars(
            select(st.c.term)
            .where(
                st.c.term >= first,
                st.c.term < prefix_upper_bound(first),
                func.length(st.c.term) >= min_candidate_length(token.typed),
            )
            .distinct()
        )
        close = closest_terms(token.typed, candidates)
        if not close:
            tokens.append(token)
            continue
        tokens.append(
            TokenMatch(
                token.typed,
                None,
                tuple(term for term, _ in close),
                tuple(d for _, d in close),
            )
        )
    plan = SearchPlan(tuple(tokens))
    return plan if plan.close_matches else exact


def _closeness(plan: SearchPlan) -> ColumnElement[Any] | None:
    """Edits from what was typed to the permit's closest terms (corrected words only)."""
    parts: list[ColumnElement[Any]] = []
    for token in plan.tokens:
        if not token.corrected:
            continue
        rank = case(
            *[(st.c.term == term, d) for term, d in zip(token.exact, token.distances, strict=True)],
            else_=99,
        )
        parts.append(
            select(func.min(rank))
            .where(st.c.permit_id == p.c.id, st.c.term.in_(token.exact))
            .scalar_subquery()
        )
    if not parts:
        return None
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _count(
    conn: Connection, municipality_id: int, plan: SearchPlan, where: PermitWhere | None = None
) -> int:
    if plan.tokens and where is None and _sole_municipality(conn, municipality_id):
        # One office's register (the usual case): the term index alone counts the permits, an
        # index-only scan, where joining the permits for their municipality read every permit
        # (PostgreSQL chose a full scan and a hash join: 40 ms of the 50 at 100,000 permits).
        if len(plan.tokens) == 1:
            stmt = select(func.count(st.c.permit_id.distinct())).where(
                _term_condition(plan.tokens[0])
            )
        else:
            stmt = select(func.count()).select_from(_matched_ids(plan).subquery())
        return int(conn.execute(stmt).scalar_one())
    stmt = _filtered(select(func.count()).select_from(p), municipality_id, plan, where)
    return int(conn.execute(stmt).scalar_one())


def _sole_municipality(conn: Connection, municipality_id: int) -> bool:
    """Whether the register holds this municipality alone (then every permit is its own)."""
    m = schema.municipality
    ids = conn.execute(select(m.c.id).limit(2)).scalars().all()
    return ids == [municipality_id]


def count_permits(
    conn: Connection,
    municipality_id: int,
    text: str = "",
    *,
    plan: SearchPlan | None = None,
    where: PermitWhere | None = None,
) -> int:
    if plan is not None:
        return _count(conn, municipality_id, plan, where)
    return count_search(conn, municipality_id, text, where)[1]


def search_permits(
    conn: Connection,
    municipality_id: int,
    text: str = "",
    *,
    sort: str = DEFAULT_SORT,
    descending: bool = True,
    offset: int = 0,
    limit: int = 200,
    plan: SearchPlan | None = None,
    where: PermitWhere | None = None,
) -> list[PermitListRow]:
    """A page of the permits list, filtered and sorted in SQL; close matches closest first."""
    if plan is None:
        plan = plan_search(conn, municipality_id, text, where)
    key = sort if sort in SORT_COLUMNS else DEFAULT_SORT
    column = SORT_COLUMNS[key]
    order = column.desc() if descending else column.asc()
    tiebreak = p.c.id.desc() if descending else p.c.id.asc()
    closeness = _closeness(plan)
    ordering = [order if key in _NEVER_EMPTY else order.nulls_last(), tiebreak]
    if closeness is not None:
        ordering.insert(0, closeness.asc())
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
        .order_by(*ordering)
        .offset(offset)
        .limit(limit)
    )
    stmt = _filtered(stmt, municipality_id, plan, where)
    return [PermitListRow(*row) for row in conn.execute(stmt)]


def permit_detail(conn: Connection, permit_id: int) -> PermitDetail | None:
    pc, m, u = schema.parcel, schema.municipality, schema.app_user
    row = conn.execute(
        select(
            p,
            pc.c.pin,
            pc.c.legal_description,
            pc.c.zoning_district,
            pc.c.sewer_delinquent,
            lst.c.address,
            m.c.ordinance.label("municipality_key"),
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
            mailing_address=_one_line_address(
                r.address_line1, r.address_line2, r.city, r.state, r.zip
            ),
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
        areas=tuple((str(k), int(v)) for k, v in (row.areas or {}).items()),
        stories=row.stories,
        volume_cuft=row.volume_cuft,
        occupancy_class=row.occupancy_class,
        construction_type=row.construction_type,
        disturbed_acres=row.disturbed_acres,
        work_details=tuple((str(k), str(v)) for k, v in (row.work_details or {}).items()),
        emergency=row.emergency,
        work_began_before_permit=row.work_began_before_permit,
        damage_percent=row.damage_percent,
        sewer_permission=row.sewer_permission,
        sewer_delinquent=bool(row.sewer_delinquent),
        parcel_id=row.parcel_id,
    )


def _one_line_address(line1: str, line2: str, city: str, state: str, zip_code: str) -> str:
    """'6120 N Port Washington Rd, Glendale, WI 53217'; no bare state without city or ZIP."""
    city_line = f"{city}, {state} {zip_code}".strip(" ,") if (city or zip_code) else ""
    return ", ".join(x for x in (line1, line2, city_line) if x)


def permit_history(conn: Connection, permit_id: int) -> list[AuditEntry]:
    """The permit's audit trail (its own rows and those of rows that belong to it), newest first."""
    a, u = schema.audit_event, schema.app_user
    rows = conn.execute(
        select(a, u.c.username)
        .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
        .where(a.c.permit_id == permit_id)
        .order_by(a.c.id.desc())
    )
    return [audit_entry(r) for r in rows]


def audit_entry(r: Any) -> AuditEntry:
    """An audit row (with the user's username) as the History tabs read it."""
    return AuditEntry(
        at=r.at,
        username=r.username or "(system)",
        entity=r.entity,
        entity_id=r.entity_id,
        action=r.action,
        changes=tuple(FieldChange(c["field"], c["old"], c["new"]) for c in r.changes),
    )


def first_municipality(conn: Connection) -> tuple[int, str, str] | None:
    """(id, key, name) of the register's first municipality."""
    m = schema.municipality
    row = conn.execute(select(m.c.id, m.c.key, m.c.name).order_by(m.c.id).limit(1)).first()
    return None if row is None else (row.id, row.key, row.name)


def municipalities(conn: Connection) -> list[tuple[int, str, str]]:
    """(id, key, name) of every municipality of the register, by name: the one a session
    works in is chosen among them (the sign-in dialog, File → Switch municipality)."""
    m = schema.municipality
    rows = conn.execute(select(m.c.id, m.c.key, m.c.name).order_by(m.c.name, m.c.id))
    return [(r.id, r.key, r.name) for r in rows]


def municipality_ordinance(conn: Connection, municipality_id: int) -> str:
    """The shipped ordinance the municipality follows ("" for none)."""
    m = schema.municipality
    row = conn.execute(select(m.c.ordinance).where(m.c.id == municipality_id)).first()
    return "" if row is None else str(row.ordinance)


def municipality_by_key(conn: Connection, key: str) -> tuple[int, str, str] | None:
    m = schema.municipality
    row = conn.execute(select(m.c.id, m.c.key, m.c.name).where(m.c.key == key)).first()
    return None if row is None else (row.id, row.key, row.name)


def user_count(conn: Connection) -> int:
    """People: the built-in command-line actor does not make a database set up."""
    u = schema.app_user
    return int(
        conn.execute(select(func.count()).select_from(u).where(u.c.system.is_(False))).scalar_one()
    )


def user_full_name(conn: Connection, user_id: int) -> str:
    u = schema.app_user
    name = conn.execute(select(u.c.full_name).where(u.c.id == user_id)).scalar_one_or_none()
    return str(name or "")


def permit_id_by_number(conn: Connection, municipality_id: int, number: str) -> int | None:
    p = schema.permit
    found = conn.execute(
        select(p.c.id).where(p.c.municipality_id == municipality_id, p.c.number == number)
    ).scalar_one_or_none()
    return None if found is None else int(found)


def _ids(entries: Iterable[AuditEntry], *fields: str) -> set[int]:
    out: set[int] = set()
    for entry in entries:
        for change in entry.changes:
            if change.field in fields:
                for value in (change.old, change.new):
                    if value and value.isdigit():
                        out.add(int(value))
    return out


def history_references(conn: Connection, entries: list[AuditEntry]) -> HistoryReferences:
    """Names for the user, party, parcel and municipality ids mentioned in a permit's history."""
    u, pa, pc, m, p = (
        schema.app_user,
        schema.party,
        schema.parcel,
        schema.municipality,
        schema.permit,
    )
    users = _ids(entries, "issued_by_id", "user_id")
    parties = _ids(entries, "party_id")
    parcels = _ids(entries, "parcel_id")
    munis = _ids(entries, "municipality_id")
    permits = _ids(entries, "permit_id")
    items = {e.entity_id for e in entries if e.entity == "permit_checklist_item"}
    ci = schema.permit_checklist_item

    def names(query: object) -> dict[int, str]:
        return {int(i): str(n) for i, n in conn.execute(query)}  # type: ignore[call-overload]

    return HistoryReferences(
        users=names(select(u.c.id, u.c.full_name).where(u.c.id.in_(users))) if users else {},
        parties=names(select(pa.c.id, pa.c.name).where(pa.c.id.in_(parties))) if parties else {},
        parcels=names(select(pc.c.id, pc.c.pin).where(pc.c.id.in_(parcels))) if parcels else {},
        municipalities=(names(select(m.c.id, m.c.name).where(m.c.id.in_(munis))) if munis else {}),
        permits={
            int(i): (n or f"Application #{i}")
            for i, n in conn.execute(select(p.c.id, p.c.number).where(p.c.id.in_(permits)))
        }
        if permits
        else {},
        checklist_items=names(select(ci.c.id, ci.c.text).where(ci.c.id.in_(items)))
        if items
        else {},
    )


# --- fee schedule screens -----------------------------------------------------------------


def fee_version_sources(conn: Connection, municipality_id: int) -> dict[int, tuple[str, Any, str]]:
    """For each stored fee schedule version: (source 'shipped'/'admin', created_at, created by
    full name or '')."""
    v, u = schema.fee_schedule_version, schema.app_user
    rows = conn.execute(
        select(v.c.id, v.c.source, v.c.created_at, u.c.full_name)
        .select_from(v.outerjoin(u, u.c.id == v.c.created_by_id))
        .where(v.c.municipality_id == municipality_id)
    )
    return {int(r.id): (str(r.source), r.created_at, str(r.full_name or "")) for r in rows}


def municipality_letterhead(conn: Connection, municipality_id: int) -> docs.Letterhead:
    """The letterhead in force now, printed at the top of the municipality's letters, quotes
    and reports (with its logo); empty when the municipality does not exist."""
    return find_letterhead(conn, municipality_id, None) or docs.Letterhead()


def is_demo(conn: Connection) -> bool:
    """True when the database was made by `permitdesk demo` (its municipality says so)."""
    for (settings,) in conn.execute(select(schema.municipality.c.settings)):
        if isinstance(settings, dict) and settings.get("demo") is True:
            return True
    return False


# --- intake form and permit documents -------------------------------------------------------

_CHOICES = 20


def _like_prefix(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


def parcel_matches(
    conn: Connection, municipality_id: int, text: str, limit: int = _CHOICES
) -> list[docs.ParcelChoice]:
    """Parcels whose address ('6120 N Port...'), street, PIN or owner of record starts with
    `text` (any case); retired parcels are not offered. A prefix scan of the municipality's
    parcels: a few milliseconds on 25,000."""
    pc = schema.parcel
    wanted = " ".join(text.split())
    if not wanted:
        return []
    like = _like_prefix(wanted)
    address = pc.c.house_number + " " + pc.c.street
    rows = conn.execute(
        select(*_parcel_choice_columns())
        .where(
            pc.c.municipality_id == municipality_id,
            pc.c.retired_on.is_(None),
            address.ilike(like, escape="\\")
            | pc.c.street.ilike(like, escape="\\")
            | pc.c.pin.ilike(like, escape="\\")
            | pc.c.owner_name.ilike(like, escape="\\"),
        )
        .order_by(pc.c.street, func.length(pc.c.house_number), pc.c.house_number, pc.c.unit)
        .limit(limit)
    )
    return [docs.ParcelChoice(*r) for r in rows]


def _parcel_choice_columns() -> tuple[Any, ...]:
    pc = schema.parcel
    owners = case(
        (pc.c.owner_name_2 != "", pc.c.owner_name + " & " + pc.c.owner_name_2),
        else_=pc.c.owner_name,
    )
    return (
        pc.c.id,
        pc.c.pin,
        pc.c.house_number,
        pc.c.street,
        pc.c.unit,
        pc.c.city,
        pc.c.zip,
        owners,
    )


def parcel_choice(conn: Connection, parcel_id: int) -> docs.ParcelChoice | None:
    pc = schema.parcel
    row = conn.execute(select(*_parcel_choice_columns()).where(pc.c.id == parcel_id)).first()
    return None if row is None else docs.ParcelChoice(*row)


def party_matches(conn: Connection, text: str, limit: int = _CHOICES) -> list[docs.PartyChoice]:
    """People and organizations whose name, last name or a word of the name starts with `text`."""
    pa = schema.party
    wanted = " ".join(text.split())
    if not wanted:
        return []
    like = _like_prefix(wanted)
    rows = conn.execute(
        select(
            pa.c.id,
            pa.c.name,
            pa.c.address_line1,
            pa.c.address_line2,
            pa.c.city,
            pa.c.state,
            pa.c.zip,
            pa.c.phone,
        )
        .where(
            pa.c.retired_on.is_(None),
            pa.c.name.ilike(like, escape="\\")
            | pa.c.last_name.ilike(like, escape="\\")
            | pa.c.name.ilike("% " + like, escape="\\"),
        )
        .order_by(pa.c.name, pa.c.id)
        .limit(limit)
    )
    return [
        docs.PartyChoice(
            id=r.id,
            name=r.name,
            address=_one_line_address(r.address_line1, r.address_line2, r.city, r.state, r.zip),
            phone=r.phone,
        )
        for r in rows
    ]


def party_choice(conn: Connection, party_id: int) -> docs.PartyChoice | None:
    pa = schema.party
    r = conn.execute(select(pa).where(pa.c.id == party_id)).first()
    if r is None:
        return None
    return docs.PartyChoice(
        id=r.id,
        name=r.name,
        address=_one_line_address(r.address_line1, r.address_line2, r.city, r.state, r.zip),
        phone=r.phone,
    )


def party_credentials(conn: Connection, party_id: int) -> list[HeldCredential]:
    c = schema.credential
    rows = conn.execute(
        select(c.c.kind, c.c.number, c.c.expires_on)
        .where((c.c.party_id == party_id) & c.c.superseded_by_id.is_(None))
        .order_by(c.c.id)
    )
    return [HeldCredential(r.kind, r.number, r.expires_on) for r in rows]


def _municipality_print(conn: Connection, municipality_id: int) -> Any:
    m = schema.municipality
    return conn.execute(
        select(
            m.c.ordinance.label("key"),
            m.c.name,
            m.c.letterhead,
            m.c.inspector_name,
            m.c.inspector_title,
        ).where(m.c.id == municipality_id)
    ).one()


def _first_in(parties: tuple[Any, ...], *roles: Any) -> str:
    for role in roles:
        for line in parties:
            if line.role == role:
                return str(line.name)
    return ""


def permit_card_data(conn: Connection, permit_id: int) -> docs.PermitCardData | None:
    """What the job-site card of 15.1.8(a) prints; None when the permit does not exist or has no
    number yet (a card is printed on issue)."""
    detail = permit_detail(conn, permit_id)
    if detail is None or not detail.number:
        return None
    row = conn.execute(
        select(p.c.municipality_id, p.c.issued_by_id).where(p.c.id == permit_id)
    ).one()
    m = _municipality_print(conn, row.municipality_id)
    # A reprint shows the letterhead of the day the permit was issued, signed by its issuer.
    head = letterhead_as_of(conn, row.municipality_id, detail.issued_on)
    name, title = signer(conn, row.issued_by_id, head)
    return docs.PermitCardData(
        municipality_name=head.name or m.name,
        letterhead=head,
        number=detail.number,
        address=detail.address,
        pin=detail.pin,
        kind_label=kind_label(m.key, detail.kind),
        description=detail.description,
        owner=_first_in(
            detail.parties, PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER, PartyRole.APPLICANT
        ),
        contractor=_first_in(
            detail.parties,
            PartyRole.CONTRACTOR,
            PartyRole.PLUMBER,
            PartyRole.ELECTRICIAN,
            PartyRole.HVAC_CONTRACTOR,
        ),
        issued_on=detail.issued_on,
        expires_on=detail.expires_on,
        inspector_name=name,
        inspector_title=title,
    )


def application_summary_data(
    conn: Connection, permit_id: int
) -> docs.ApplicationSummaryData | None:
    """The application as filed, with its parties and assessed fee lines."""
    detail = permit_detail(conn, permit_id)
    if detail is None:
        return None
    row = conn.execute(select(p.c.municipality_id, p.c.areas).where(p.c.id == permit_id)).one()
    m = _municipality_print(conn, row.municipality_id)
    fl, v = schema.permit_fee_line, schema.fee_schedule_version
    lines = conn.execute(
        select(
            fl.c.code,
            fl.c.description,
            fl.c.section,
            fl.c.amount,
            fl.c.deposit,
            fl.c.note,
            v.c.label,
        )
        .join(v, v.c.id == fl.c.version_id)
        .where(fl.c.permit_id == permit_id)
        .order_by(fl.c.id)
    ).all()
    areas = row.areas if isinstance(row.areas, dict) else {}
    return docs.ApplicationSummaryData(
        municipality_name=m.name,
        # The application as it stands, printed now: today's letterhead.
        letterhead=letterhead_as_of(conn, row.municipality_id, None),
        permit_id=detail.id,
        number=detail.number,
        status=detail.status.label,
        kind_code=detail.kind,
        kind_label=kind_label(m.key, detail.kind),
        description=detail.description,
        address=detail.address,
        pin=detail.pin,
        legal_description=detail.legal_description,
        zoning_district=detail.zoning_district,
        applied_on=detail.applied_on,
        issued_on=detail.issued_on,
        valuation=detail.valuation,
        floor_area_sqft=detail.floor_area_sqft,
        areas=tuple((str(k), int(a)) for k, a in areas.items()),
        dwelling_units=detail.dwelling_units,
        parties=tuple(
            docs.SummaryParty(pl.role.label, pl.name, pl.mailing_address, pl.phone)
            for pl in detail.parties
        ),
        fee_lines=tuple(
            docs.SummaryFeeLine(
                code=r.code,
                description=r.description,
                section=r.section,
                amount=r.amount,
                deposit=bool(r.deposit),
                note=r.note or "",
            )
            for r in lines
        ),
        schedule_version=lines[0].label if lines else "",
    )


def municipality_ids(conn: Connection) -> list[tuple[int, str]]:
    m = schema.municipality
    return [(r.id, r.name) for r in conn.execute(select(m.c.id, m.c.name).order_by(m.c.id))]


def order_notice(conn: Connection, order_id: int) -> OrderNotice | None:
    """What a stop-work order or revocation notice prints (reports/notices.py)."""
    o = schema.permit_order
    row = conn.execute(select(o).where(o.c.id == order_id)).first()
    if row is None:
        return None
    detail = permit_detail(conn, row.permit_id)
    assert detail is not None
    muni_id = conn.execute(
        select(schema.permit.c.municipality_id).where(schema.permit.c.id == row.permit_id)
    ).scalar_one()
    head = letterhead_as_of(conn, muni_id, row.issued_on)
    name, title = signer(conn, row.by_user_id, head)
    owner = next((p for p in detail.parties if p.role.value == "building_owner"), None)
    contractor = next((p for p in detail.parties if p.role.value == "contractor"), None)
    return OrderNotice(
        kind=row.kind,
        order_id=row.id,
        issued_on=row.issued_on,
        reasons=row.reasons,
        section=row.section,
        lifted_on=row.lifted_on,
        lift_notice=row.lift_notice,
        permit_number=detail.number,
        permit_id=detail.id,
        kind_label=kind_label(detail.municipality_key, detail.kind),
        description=detail.description,
        address=detail.address,
        owner=owner.name if owner else "",
        owner_address=owner.mailing_address if owner else "",
        contractor=contractor.name if contractor else "",
        municipality_name=head.name,
        letterhead=head,
        inspector_name=name,
        inspector_title=title,
    )


def open_orders(conn: Connection, permit_id: int) -> list[tuple[int, str, date, date | None]]:
    """(order id, kind, issued on, lifted on) of a permit's orders, newest first."""
    o = schema.permit_order
    return [
        (r.id, r.kind, r.issued_on, r.lifted_on)
        for r in conn.execute(
            select(o.c.id, o.c.kind, o.c.issued_on, o.c.lifted_on)
            .where(o.c.permit_id == permit_id)
            .order_by(o.c.id.desc())
        )
    ]
