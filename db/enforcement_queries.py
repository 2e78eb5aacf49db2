"""Read side of code enforcement: the case list, a case's timeline, the serve-again list, the
agents who owe the owner a letter, and the special charges for the tax roll. Frozen rows, safe
across threads. None of them reads the complainant (enforcement_complaint's complainant_*
columns): the inspector's own read is desk.services.enforcement.complaints.complainant."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, Select, exists, func, literal, or_, select

from db import occupancy_queries, schema
from db.enforcement_case_view import case_procedure
from desk.dates import short_date
from desk.domain.reports import code_citations
from desk.enforcement import deadlines
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.enforcement.model import (
    AddresseeRole,
    Decision,
    EscalationKind,
    NoticeKind,
    OrderKind,
    ServiceMethod,
    ViolationState,
)
from desk.enforcement.procedure import Procedure
from desk.enforcement.readmodels import (
    AgentDutyRow,
    CaseFilter,
    CaseRow,
    NoticeDocument,
    NoticeDocumentItem,
    ServeAgainRow,
    SpecialChargeRow,
    TimelineEntry,
)
from desk.enforcement.rules import DEFAULT_HOUSING_CODE
from desk.housing.codes import housing_code_keys

c = schema.enforcement_case
pc = schema.parcel
n = schema.enforcement_notice
ni = schema.enforcement_notice_item
ad = schema.enforcement_addressee
sv = schema.enforcement_service
pe = schema.enforcement_petition
od = schema.enforcement_order
vi = schema.enforcement_violation
vc = schema.enforcement_violation_check
ins = schema.enforcement_inspection
cp = schema.enforcement_complaint
es = schema.enforcement_escalation
ap = schema.enforcement_appeal


def _standing(addressee_id: ColumnElement[int]) -> ColumnElement[bool]:
    """A service on the addressee whose letter did not come back (not withdrawn)."""
    return exists().where(
        (sv.c.addressee_id == addressee_id)
        & sv.c.returned_on.is_(None)
        & sv.c.withdrawn_on.is_(None)
    )


def _served(addressee: Any) -> ColumnElement[bool]:
    """The addressee was served (140-3A(4)): any service not withdrawn — registered mail
    returned unclaimed or refused still served — or, for an owner, the agent of the same notice
    was served."""
    own = exists().where((sv.c.addressee_id == addressee.c.id) & sv.c.withdrawn_on.is_(None))
    agent = ad.alias("agent")
    through_agent = exists().where(
        (agent.c.notice_id == addressee.c.notice_id)
        & (agent.c.role == AddresseeRole.AGENT.value)
        & (sv.c.addressee_id == agent.c.id)
        & sv.c.withdrawn_on.is_(None)
    )
    return own | ((addressee.c.role == AddresseeRole.OWNER.value) & through_agent)


def _returned(addressee_id: ColumnElement[int]) -> ColumnElement[bool]:
    """Registered mail to the addressee returned unclaimed (140-3A(4)), not withdrawn."""
    return exists().where(
        (sv.c.addressee_id == addressee_id)
        & (sv.c.method == ServiceMethod.REGISTERED_MAIL.value)
        & sv.c.returned_on.is_not(None)
        & sv.c.withdrawn_on.is_(None)
    )


def _live_notice() -> ColumnElement[bool]:
    return (n.c.case_id == c.c.id) & (
        n.c.decision.is_(None) | (n.c.decision != Decision.WITHDRAW.value)
    )


Windows = tuple[tuple[str, int], ...]  # (housing code, its procedure's days to file)


def request_windows(conn: Connection, municipality_id: int) -> Windows:
    """Each shipped housing code with the days its procedure gives to file (140-3B: 10; Wis.
    Stat. 68.08: 30, or the office's own): a case keeps the code it was opened under."""
    m = schema.municipality
    raw = conn.execute(select(m.c.settings).where(m.c.id == municipality_id)).scalar_one_or_none()
    settings = raw if isinstance(raw, dict) else None
    return tuple((k, case_procedure(k, settings).request.days) for k in housing_code_keys())


def _window_open_since(
    today: date, cal: OfficeCalendar, days: int = deadlines.PETITION_DAYS
) -> ColumnElement[bool]:
    """The earliest service of an addressee (`first`) whose petition window is open today:
    S >= today - 10 (the procedure's days), or an earlier S whose last day was extended to
    today or later (Wis. Stat. 990.001(4))."""
    first = (
        select(func.min(sv.c.served_on))
        .where((sv.c.addressee_id == ad.c.id) & sv.c.withdrawn_on.is_(None))
        .scalar_subquery()
    )
    since = today - timedelta(days=days)
    extended = [
        since - timedelta(days=k)
        for k in range(1, deadlines.MOST_EXTENSION_DAYS + 1)
        if deadlines.window_open(since - timedelta(days=k), today, cal, days)
    ]
    return (first >= since) | first.in_(extended) if extended else first >= since


def _window_open(today: date, cal: OfficeCalendar, windows: Windows) -> ColumnElement[bool]:
    """The window open by the procedure of the code each case was opened under."""
    if not windows:
        return _window_open_since(today, cal)
    keys = [k for k, _ in windows]
    return or_(
        *(
            (c.c.housing_code == key) & _window_open_since(today, cal, days)
            for key, days in windows
        ),
        c.c.housing_code.not_in(keys) & _window_open_since(today, cal),
    )


def _filter(
    which: CaseFilter, today: date, cal: OfficeCalendar = STATUTE, windows: Windows = ()
) -> ColumnElement[bool]:
    is_open = c.c.closed_on.is_(None)
    if which is CaseFilter.OPEN:
        return is_open
    if which is CaseFilter.CLOSED_THIS_YEAR:
        return c.c.closed_on.between(date(today.year, 1, 1), date(today.year, 12, 31))
    if which is CaseFilter.HEARING_SCHEDULED:
        return is_open & exists().where(
            (n.c.case_id == c.c.id) & n.c.hearing_on.is_not(None) & n.c.decision.is_(None)
        )
    if which is CaseFilter.NOT_SERVED:
        unserved = exists().where(_live_notice() & (ad.c.notice_id == n.c.id) & ~_served(ad))
        return is_open & unserved
    if which is CaseFilter.SERVE_AGAIN:
        again = _live_notice() & (ad.c.notice_id == n.c.id) & _returned(ad.c.id)
        return is_open & exists().where(again & ~_standing(ad.c.id))
    if which is CaseFilter.WINDOW_OPEN:
        # 140-3B: served on S, open through S+10, the last day extended by 990.001(4).
        no_order = ~exists().where((od.c.notice_id == n.c.id) & od.c.set_aside_on.is_(None))
        return is_open & exists().where(
            (n.c.case_id == c.c.id)
            & (n.c.kind == NoticeKind.NOTICE.value)
            & n.c.decision.is_(None)
            & no_order
            & (ad.c.notice_id == n.c.id)
            & _window_open(today, cal, windows)
        )
    if which is CaseFilter.ORDER_PAST_DUE:
        return is_open & exists().where((od.c.case_id == c.c.id) & _past_due_under_order(today))
    return literal(True)


def _past_due_under_order(today: date) -> ColumnElement[bool]:
    """An open violation that an order in effect covers (an item of the order's notice, 140-3C,
    D, H), past its correction date. Not in effect: revoked, superseded, or set aside for a
    timely petition (140-3B); a violation found later, or withdrawn, is no item of it."""
    return (
        od.c.revoked_on.is_(None)
        & od.c.superseded_on.is_(None)
        & od.c.set_aside_on.is_(None)
        & (ni.c.notice_id == od.c.notice_id)
        & (vi.c.id == ni.c.violation_id)
        & (vi.c.state == ViolationState.OPEN.value)
        & (vi.c.correct_by < today)
    )


def past_due_under_orders(conn: Connection, case_ids: list[int], today: date) -> dict[int, int]:
    """Case id -> how many open violations its orders in effect cover past their correction
    date (the "order past its correction date" filter's own reading)."""
    if not case_ids:
        return {}
    stmt = (
        select(od.c.case_id, func.count(func.distinct(vi.c.id)))
        .select_from(od, ni, vi)
        .where(od.c.case_id.in_(case_ids) & _past_due_under_order(today))
        .group_by(od.c.case_id)
    )
    return {case_id: int(n) for case_id, n in conn.execute(stmt).tuples()}


def _address() -> ColumnElement[str]:
    return func.trim(pc.c.house_number + literal(" ") + pc.c.street)


def _case_where(
    municipality_id: int,
    today: date,
    which: CaseFilter,
    text: str,
    cal: OfficeCalendar,
    windows: Windows = (),
) -> ColumnElement[bool]:
    """The cases of the list: the municipality's, through `which`, each word of `text` in the
    case number, the address, the PIN or the name of an owner addressed by a notice. The
    parcels and the owners matching a word are found once (uncorrelated IN), not per case."""
    where = (c.c.municipality_id == municipality_id) & _filter(which, today, cal, windows)
    for w in text.lower().split():
        like = f"%{w}%"
        parcels = (
            select(pc.c.id)
            .where(func.lower(_address()).like(like) | func.lower(pc.c.pin).like(like))
            .correlate(None)
        )
        owners = (
            select(n.c.case_id)
            .join(ad, ad.c.notice_id == n.c.id)
            .where((ad.c.role == AddresseeRole.OWNER.value) & func.lower(ad.c.name).like(like))
            .correlate(None)
        )
        where = where & or_(
            func.lower(c.c.number).like(like), c.c.parcel_id.in_(parcels), c.c.id.in_(owners)
        )
    return where


def case_count(
    conn: Connection,
    municipality_id: int,
    today: date,
    which: CaseFilter = CaseFilter.ALL,
    text: str = "",
    cal: OfficeCalendar = STATUTE,
) -> int:
    """How many cases case_rows would list (the section's "N cases")."""
    windows = request_windows(conn, municipality_id) if which is CaseFilter.WINDOW_OPEN else ()
    stmt = _count_statement(municipality_id, today, which, text, cal, windows)
    return int(conn.execute(stmt).scalar_one())


# The list asks the same statements again and again (each keystroke, each page, each refresh):
# built once, a statement is not rebuilt nor its cache key computed again by SQLAlchemy.
@lru_cache(maxsize=128)
def _count_statement(
    municipality_id: int,
    today: date,
    which: CaseFilter,
    text: str,
    cal: OfficeCalendar,
    windows: Windows = (),
) -> Select[Any]:
    where = _case_where(municipality_id, today, which, text, cal, windows)
    return select(func.count()).select_from(c).where(where)


def case_rows(
    conn: Connection,
    municipality_id: int,
    today: date,
    which: CaseFilter = CaseFilter.ALL,
    text: str = "",
    limit: int | None = None,
    offset: int = 0,
    cal: OfficeCalendar = STATUTE,
) -> list[CaseRow]:
    """The cases of the municipality, newest first, filtered in SQL; `text` matches the case
    number, the address, the PIN or an owner addressed by a notice. `limit` rows from
    `offset` (a page of the list)."""
    windows = request_windows(conn, municipality_id) if which is CaseFilter.WINDOW_OPEN else ()
    stmt = _rows_statement(municipality_id, today, which, text, limit, offset, cal, windows)
    # Plain tuples: a page is read per keystroke, and named access costs per row and field.
    return [
        CaseRow(
            case_id,
            number,
            opened_on,
            address + (f", Unit {unit}" if unit else ""),
            pin,
            owner,
            int(open_violations or 0),
            closed_on,
            str(closed_reason.value) if closed_reason else "",
        )
        for (
            case_id,
            number,
            opened_on,
            address,
            unit,
            pin,
            owner,
            open_violations,
            closed_on,
            closed_reason,
        ) in conn.execute(stmt).tuples().all()
    ]


@lru_cache(maxsize=128)
def _rows_statement(
    municipality_id: int,
    today: date,
    which: CaseFilter,
    text: str,
    limit: int | None,
    offset: int,
    cal: OfficeCalendar,
    windows: Windows = (),
) -> Select[Any]:
    owner = (
        select(ad.c.name)
        .join(n, n.c.id == ad.c.notice_id)
        .where((n.c.case_id == c.c.id) & (ad.c.role == AddresseeRole.OWNER.value))
        .order_by(ad.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    open_count = (
        select(func.count())
        .select_from(vi)
        .where((vi.c.case_id == c.c.id) & (vi.c.state == ViolationState.OPEN.value))
        .scalar_subquery()
    )
    newest = (c.c.opened_on.desc(), c.c.id.desc())
    # The page's ids first: the owner and the open violations are then read for its rows only,
    # not for every case the sort goes through.
    where = _case_where(municipality_id, today, which, text, cal, windows)
    page = select(c.c.id).where(where).order_by(*newest)
    if offset:
        page = page.offset(offset)
    if limit is not None:
        page = page.limit(limit)
    stmt = (
        select(
            c.c.id,
            c.c.number,
            c.c.opened_on,
            _address().label("address"),
            pc.c.unit,
            pc.c.pin,
            func.coalesce(owner, "").label("owner"),
            open_count.label("open_violations"),
            c.c.closed_on,
            c.c.closed_reason,
        )
        .select_from(c.join(pc, pc.c.id == c.c.parcel_id))
        .where(c.c.id.in_(page))
        .order_by(*newest)
    )
    return stmt


_ORDER_WORDS = {
    OrderKind.AUTOMATIC: ("The notice became an order: no petition within 10 days", "140-3D"),
    OrderKind.COUNCIL: ("The notice is an order upon the Common Council's decision", "140-3C"),
    OrderKind.EMERGENCY: ("Emergency order in effect", "140-3H"),
}
_METHOD_WORDS = {
    ServiceMethod.PERSONAL: "personally",
    ServiceMethod.REGISTERED_MAIL: "by registered mail",
    ServiceMethod.POSTING: "by posting in a conspicuous place",
}
_DECISION_WORDS = {
    Decision.SUSTAIN: "sustained",
    Decision.MODIFY: "modified",
    Decision.WITHDRAW: "withdrawn",
}


def _case_settings(conn: Connection, case_id: int) -> dict[str, Any] | None:
    m = schema.municipality
    settings = conn.execute(
        select(m.c.settings).join(c, c.c.municipality_id == m.c.id).where(c.c.id == case_id)
    ).scalar_one_or_none()
    return settings if isinstance(settings, dict) else None


def _case_calendar(conn: Connection, case_id: int) -> OfficeCalendar:
    return OfficeCalendar.of(_case_settings(conn, case_id))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def timeline(conn: Connection, case_id: int) -> list[TimelineEntry]:
    """Everything that happened in the case, in date order (the order recorded within a day).
    The complaint is shown by what is wrong and how it came in, never by who complained."""
    events: list[tuple[date, int, int, TimelineEntry]] = []

    def add(on: date, rank: int, row_id: int, kind: str, text: str, section: str = "") -> None:
        events.append((on, rank, row_id, TimelineEntry(on, kind, text, section)))

    case = conn.execute(select(c).where(c.c.id == case_id)).one()
    # The steps are cited as the case's code cites its procedure (Hudson 140-3, or Ch. 512).
    step = code_citations(case.housing_code).step
    # Wis. Stat. ch. 68 for a code with no procedure of its own: its steps cite the statute.
    proc = case_procedure(case.housing_code, _case_settings(conn, case_id))
    if case.origin.value == "observation":
        opened = f"Case {case.number} opened: {case.summary}"
        add(case.opened_on, 0, 0, "case", opened, step("140-2"))
    for r in conn.execute(
        select(cp.c.id, cp.c.received_on, cp.c.channel, cp.c.description).where(
            cp.c.case_id == case_id
        )
    ):
        add(r.received_on, 1, r.id, "complaint", f"Complaint by {r.channel.value}: {r.description}")
    # An occupancy calculation shows just before the inspection that recorded what it found.
    for on, inspection_id, entry in occupancy_queries.timeline_entries(conn, case_id):
        add(on, 2, inspection_id, entry.kind, entry.text, entry.section)
    u = schema.app_user
    for r in conn.execute(
        select(ins.c.id, ins.c.inspected_on, ins.c.notes, u.c.full_name)
        .join(u, u.c.id == ins.c.inspector_id)
        .where(ins.c.case_id == case_id)
    ):
        found = conn.execute(
            select(
                vi.c.id,
                vi.c.section,
                vi.c.title,
                vi.c.unit,
                vi.c.room,
                vi.c.correct_by,
                vi.c.closed_on,
                vi.c.withdrawn_reason,
            )
            .where(vi.c.inspection_id == r.id)
            .order_by(vi.c.id)
        ).all()
        checks = conn.execute(
            select(vi.c.section, vc.c.corrected)
            .join(vi, vi.c.id == vc.c.violation_id)
            .where(vc.c.inspection_id == r.id)
            .order_by(vc.c.id)
        ).all()
        parts = [f"Inspection by {r.full_name}"]
        if found:
            parts.append(
                "violations found: "
                + "; ".join(
                    f"{v.section} {v.title}"
                    + (f" ({_where(v.unit, v.room)})" if v.unit or v.room else "")
                    + f", correct by {short_date(v.correct_by)}"
                    + (f" (withdrawn {short_date(v.closed_on)})" if v.withdrawn_reason else "")
                    for v in found
                )
            )
        if checks:
            parts.append(
                "re-inspected: "
                + "; ".join(
                    f"{k.section} {'corrected' if k.corrected else 'not corrected'}" for k in checks
                )
            )
        if not found and not checks:
            parts.append("no violation found")
        if r.notes:
            parts.append(r.notes)
        add(
            r.inspected_on,
            2,
            r.id,
            "inspection",
            ": ".join(parts[:1]) + (": " + "; ".join(parts[1:]) if parts[1:] else ""),
        )
        # A violation recorded by mistake, withdrawn with its reason (the Council's withdrawal
        # of a notice, 140-3C, gives none: the decision's line says it).
        for v in found:
            if v.withdrawn_reason and v.closed_on is not None:
                add(
                    v.closed_on,
                    11,
                    v.id,
                    "correction",
                    f"Violation {v.section} withdrawn: entered by mistake — {v.withdrawn_reason}",
                    step("140-2"),
                )
    for r in conn.execute(select(n).where(n.c.case_id == case_id).order_by(n.c.id)):
        names = conn.execute(
            select(ad.c.name, ad.c.role).where(ad.c.notice_id == r.id).order_by(ad.c.id)
        ).all()
        items = (
            conn.execute(select(ni.c.section).where(ni.c.notice_id == r.id).order_by(ni.c.id))
            .scalars()
            .all()
        )
        who = ", ".join(f"{a.name} ({a.role.value})" for a in names)
        if r.kind is NoticeKind.EMERGENCY:
            add(
                r.issued_on,
                3,
                r.id,
                "notice",
                f"Emergency order issued to {who}: {', '.join(items)}",
                step("140-3H"),
            )
        else:
            add(
                r.issued_on,
                3,
                r.id,
                "notice",
                f"Notice of violation issued to {who}: {', '.join(items)}",
                step("140-3A"),
            )
        if r.hearing_on is not None:
            sent = (
                f"; written notice sent {short_date(r.hearing_notice_on)}"
                if r.hearing_notice_on
                else ""
            )
            add(
                r.hearing_on,
                6,
                r.id,
                "hearing",
                f"Hearing before the Common Council at {r.hearing_place}{sent}",
                step("140-3B"),
            )
        if r.decision is not None and r.decided_on is not None and proc.review:
            add(
                r.decided_on,
                7,
                r.id,
                "decision",
                f"Decision on review by {proc.decided_by}: determination "
                f"{proc.decided(r.decision)}: {r.findings}",
                proc.decision_section,
            )
        elif r.decision is not None and r.decided_on is not None:
            add(
                r.decided_on,
                7,
                r.id,
                "decision",
                f"Common Council: notice {_DECISION_WORDS[r.decision]}: {r.findings}",
                step("140-3H" if r.kind is NoticeKind.EMERGENCY else "140-3C"),
            )
    cal = _case_calendar(conn, case_id)
    earliest: dict[int, date] = {}
    for r in conn.execute(
        select(sv, ad.c.name, ad.c.role, n.c.kind)
        .join(ad, ad.c.id == sv.c.addressee_id)
        .join(n, n.c.id == ad.c.notice_id)
        .where(n.c.case_id == case_id)
        .order_by(sv.c.served_on, sv.c.id)
    ):
        how = _METHOD_WORDS[r.method]
        text = f"Served on {r.name} ({r.role.value}) {how}, by {r.served_by}"
        if r.agent_must_notify_owner:
            text += (
                "; this serves the owner, and the agent must notify the owner by registered letter"
            )
        first = earliest.get(r.addressee_id)
        if r.withdrawn_on is not None:
            text += f" (withdrawn {short_date(r.withdrawn_on)})"
        elif first is not None:
            text += f"; the earliest service, of {short_date(first)}, governs"
        else:
            earliest[r.addressee_id] = r.served_on
            if r.kind is NoticeKind.NOTICE:
                last = deadlines.petition_window(r.served_on, cal, proc.request.days)
                text += f"; a {proc.filing_short} may be filed through {last.text()}"
        add(r.served_on, 4, r.id, "service", text, step("140-3A(4)"))
        if r.returned_on is not None:
            add(
                r.returned_on,
                4,
                r.id,
                "service",
                f"Registered mail to {r.name} returned {r.returned_how or 'unclaimed'}: the "
                f"service of {short_date(r.served_on)} stands (mailed to the last known "
                "address); serve again personally or by posting if you can",
                step("140-3A(4)"),
            )
        if r.withdrawn_on is not None:
            add(
                r.withdrawn_on,
                11,
                r.id,
                "correction",
                f"Service on {r.name} of {short_date(r.served_on)} withdrawn, entered by "
                f"mistake: {r.withdrawn_reason}",
                step("140-3A(4)"),
            )
    for r in conn.execute(
        select(pe).join(n, n.c.id == pe.c.notice_id).where(n.c.case_id == case_id)
    ):
        add(
            r.filed_on,
            5,
            r.id,
            "petition",
            f"{_capital(proc.filing)} filed by {r.petitioner} "
            f"({'timely' if r.timely else 'late'}): {r.grounds}"
            + (f" (withdrawn {short_date(r.withdrawn_on)})" if r.withdrawn_on else ""),
            proc.request.section if proc.review else step("140-3B"),
        )
        if r.withdrawn_on is not None:
            add(
                r.withdrawn_on,
                11,
                r.id,
                "correction",
                f"{_capital(proc.filing_short)} by {r.petitioner} of {short_date(r.filed_on)} "
                f"withdrawn, entered by mistake: {r.withdrawn_reason}",
                proc.request.section if proc.review else step("140-3B"),
            )
    for r in conn.execute(select(od).where(od.c.case_id == case_id)):
        words, section = _ORDER_WORDS[r.kind]
        if proc.review and r.kind is OrderKind.AUTOMATIC:  # Wis. Stat. 68.08
            words = f"The determination became an order: {proc.no_filing_words}".format(
                days=proc.request.days
            )
            cited = proc.no_filing_section
        elif proc.review and r.kind is OrderKind.COUNCIL:  # 68.09(4)
            words = "The determination is an order upon the decision on review"
            cited = proc.decision_section
        else:
            cited = step(section)
        add(r.effective_on, 8, r.id, "order", words, cited)
        if r.revoked_on is not None:
            revoked = "Emergency order revoked after hearing"
            add(r.revoked_on, 8, r.id, "order", revoked, step("140-3H"))
        if r.superseded_on is not None:
            add(
                r.superseded_on,
                8,
                r.id,
                "order",
                "Emergency order modified after hearing",
                step("140-3H"),
            )
        if r.set_aside_on is not None and proc.review:
            appealed = r.set_aside_reason.startswith("reversed on appeal")
            add(
                r.set_aside_on,
                8,
                r.id,
                "order",
                f"Order of {short_date(r.effective_on)} set aside: {r.set_aside_reason}"
                + ("" if appealed else "; the request awaits the decision on review"),
                proc.period("final" if appealed else "request").section,
            )
        elif r.set_aside_on is not None:
            add(
                r.set_aside_on,
                8,
                r.id,
                "order",
                f"Order of {short_date(r.effective_on)} set aside: {r.set_aside_reason}; the "
                "notice awaits the Council's hearing",
                step("140-3B"),
            )
    for r in conn.execute(select(ap).where(ap.c.case_id == case_id).order_by(ap.c.id)):
        _appeal_lines(r, proc, add)
    for r in conn.execute(select(es).where(es.c.case_id == case_id)):
        add(r.decided_on, 9, r.id, "escalation", _escalation_words(r), "")
    # Visits on the inspector's day: scheduled, done (its inspection is the next line), or
    # cancelled with the reason; on the day scheduled, before that day's inspection.
    from db.inspection_queries import case_visits
    from desk.enforcement.model import VisitStatus
    from desk.enforcement.visits import PURPOSE_WORDS, time_words

    for x in case_visits(conn, case_id):
        what = PURPOSE_WORDS[x.purpose].split(" ", 1)[1].capitalize()  # "Re-inspection"
        at = f" at {time_words(x.scheduled_time)}" if x.scheduled_time else ""
        text = f"{what} scheduled with {x.inspector_name}{at}"
        if x.status is VisitStatus.DONE:
            text += ": done"
        elif x.status is VisitStatus.CANCELLED:
            why = next((n for n in reversed(x.notes.splitlines()) if n), "")
            text += f": {why[0].lower()}{why[1:]}" if why else ": cancelled"
        section = {"inspection": "140-2", "reinspection": "140-3A(3)"}.get(x.purpose, "140-10A")
        add(x.scheduled_on, 1, 10**9 + x.id, "visit", text, step(section))
    if case.closed_on is not None:
        reason = case.closed_reason.value if case.closed_reason else ""
        note = f": {case.close_note}" if case.close_note else ""
        add(case.closed_on, 10, 0, "closure", f"Case closed ({reason}){note}")
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    return [e[3] for e in events]


def _appeal_lines(r: Row[Any], proc: Procedure, add: Callable[..., None]) -> None:
    """An appeal from the decision on review (68.10), its hearing (68.11), the final
    determination (68.12) and, for information, the time for certiorari (68.13)."""
    add(
        r.filed_on,
        7,
        r.id,
        "appeal",
        f"Appeal filed by {r.appellant} ({'timely' if r.timely else 'late'}): {r.grounds}",
        proc.period("appeal").section,
    )
    if r.hearing_on is not None:
        sent = (
            f"; notice served on the appellant {short_date(r.hearing_notice_on)}"
            if r.hearing_notice_on
            else ""
        )
        add(
            r.hearing_on,
            7,
            r.id,
            "hearing",
            f"Hearing on the appeal at {r.hearing_place}{sent}",
            proc.period("hearing").section,
        )
    if r.decision is not None and r.decided_on is not None:
        judicial = proc.periods.get("judicial")
        court = (
            f" (judicial review by certiorari within {judicial.days} days of receipt, "
            f"{judicial.section})"
            if judicial
            else ""
        )
        add(
            r.decided_on,
            7,
            r.id,
            "decision",
            f"Final determination on the appeal: {proc.decided(r.decision)}: {r.findings}{court}",
            proc.period("final").section,
        )


def _where(unit: str, room: str) -> str:
    return ", ".join(x for x in (f"Unit {unit}" if unit else "", room) if x)


def _escalation_words(r: Row[Any]) -> str:
    kind = r.kind
    notes = f": {r.notes}" if r.notes else ""
    if kind is EscalationKind.REINSPECTION:
        return f"Order not complied with: re-inspection on {short_date(r.reinspect_on)}{notes}"
    if kind is EscalationKind.CITATION:
        ref = f" ({r.court_reference})" if r.court_reference else ""
        return f"Order not complied with: citation referred to the municipal court{ref}{notes}"
    if kind is EscalationKind.CONDEMNATION:
        return f"Order not complied with: condemnation #{r.condemnation_id}{notes}"
    return f"Order not complied with: abatement by the city, cost ${r.cost:,.2f}{notes}"


def serve_again(conn: Connection, municipality_id: int) -> list[ServeAgainRow]:
    """Addressees whose registered mail came back unclaimed and who have not been served since
    (140-3A(4)), on open cases and notices not withdrawn."""
    returned = (
        select(sv.c.addressee_id, func.max(sv.c.returned_on).label("returned_on"))
        .where(
            (sv.c.method == ServiceMethod.REGISTERED_MAIL.value)
            & sv.c.returned_on.is_not(None)
            & sv.c.withdrawn_on.is_(None)
        )
        .group_by(sv.c.addressee_id)
        .subquery()
    )
    stmt = (
        select(
            c.c.number,
            n.c.id.label("notice_id"),
            ad.c.id,
            ad.c.name,
            ad.c.address,
            returned.c.returned_on,
        )
        .select_from(
            returned.join(ad, ad.c.id == returned.c.addressee_id)
            .join(n, n.c.id == ad.c.notice_id)
            .join(c, c.c.id == n.c.case_id)
        )
        .where(
            (c.c.municipality_id == municipality_id)
            & c.c.closed_on.is_(None)
            & (n.c.decision.is_(None) | (n.c.decision != Decision.WITHDRAW.value))
            & ~_standing(ad.c.id)
        )
        .order_by(returned.c.returned_on, ad.c.id)
    )
    return [
        ServeAgainRow(r.number, r.notice_id, r.id, r.name, r.address, r.returned_on)
        for r in conn.execute(stmt)
    ]


def agent_duties(conn: Connection, municipality_id: int) -> list[AgentDutyRow]:
    """Agents served (140-1 "owner"): each owes the owner a registered letter."""
    stmt = (
        select(c.c.number, n.c.id.label("notice_id"), ad.c.name, sv.c.served_on)
        .select_from(
            sv.join(ad, ad.c.id == sv.c.addressee_id)
            .join(n, n.c.id == ad.c.notice_id)
            .join(c, c.c.id == n.c.case_id)
        )
        .where(
            (c.c.municipality_id == municipality_id)
            & sv.c.agent_must_notify_owner
            & sv.c.withdrawn_on.is_(None)
        )
        .order_by(sv.c.served_on, sv.c.id)
    )
    return [AgentDutyRow(r.number, r.notice_id, r.name, r.served_on) for r in conn.execute(stmt)]


def special_charges(conn: Connection, municipality_id: int, year: int) -> list[SpecialChargeRow]:
    """The city's abatement costs to go on the tax roll of `year`, by parcel (Wis. s. 66.0627)."""
    address = _address()
    stmt = (
        select(
            pc.c.pin,
            address.label("address"),
            pc.c.unit,
            c.c.number,
            es.c.decided_on,
            es.c.cost,
            es.c.notes,
        )
        .select_from(es.join(c, c.c.id == es.c.case_id).join(pc, pc.c.id == c.c.parcel_id))
        .where(
            (c.c.municipality_id == municipality_id)
            & (es.c.kind == EscalationKind.ABATEMENT.value)
            & (es.c.tax_roll_year == year)
        )
        .order_by(pc.c.pin, es.c.decided_on, es.c.id)
    )
    return [
        SpecialChargeRow(
            r.pin,
            r.address + (f", Unit {r.unit}" if r.unit else ""),
            r.number,
            r.decided_on,
            r.cost if r.cost is not None else Decimal(0),
            r.notes,
        )
        for r in conn.execute(stmt)
    ]


def notice_document(conn: Connection, notice_id: int) -> NoticeDocument:
    """The notice as issued, from its frozen rows (no complainant, no later facts)."""
    u = schema.app_user
    r = conn.execute(
        select(
            n,
            c.c.number,
            c.c.housing_code.label("case_code"),
            c.c.id.label("of_case"),
            func.coalesce(func.nullif(u.c.full_name, ""), u.c.username).label("issuer"),
        )
        .join(c, c.c.id == n.c.case_id)
        .join(u, u.c.id == n.c.issued_by_id)
        .where(n.c.id == notice_id)
    ).one()
    people = conn.execute(
        select(ad.c.role, ad.c.name, ad.c.address)
        .where(ad.c.notice_id == notice_id)
        .order_by(ad.c.id)
    ).all()
    items = conn.execute(select(ni).where(ni.c.notice_id == notice_id).order_by(ni.c.id)).all()
    proc = case_procedure(r.case_code, _case_settings(conn, r.of_case))
    return NoticeDocument(
        notice_id=notice_id,
        case_number=r.number,
        kind=r.kind.value,
        issued_on=r.issued_on,
        issued_by=r.issuer,
        property_address=r.property_address,
        statement=r.statement,
        housing_code=r.housing_code,
        addressees=tuple((p.role.value, p.name, p.address) for p in people),
        items=tuple(
            NoticeDocumentItem(
                i.section, i.title, i.code_text, i.location, i.correct_by, i.remedial_action
            )
            for i in items
        ),
        procedure=proc.key,
        request_days=r.request_days or proc.request.days,  # as stated when issued
    )


@dataclass(frozen=True)
class HearingPetition:
    """A petition heard (140-3B): by or for an addressee, at the address as issued."""

    petitioner: str
    address: str
    filed_on: date
    grounds: str
    timely: bool


@dataclass(frozen=True)
class HearingItem:
    """A violation of the notice heard: its correction date as issued and as it stands now
    (the Council may modify it, 140-3C)."""

    section: str
    title: str
    location: str
    correct_by_issued: date
    correct_by_now: date
    state: str


@dataclass(frozen=True)
class HearingRow:
    """A notice's hearing before the Common Council (140-3B) and its decision (140-3C, 140-3F)."""

    notice_id: int
    case_id: int
    case_number: str
    kind: str  # "notice" or "emergency"
    property_address: str
    issued_on: date
    hearing_on: date
    place: str
    notice_sent_on: date | None
    petitions: tuple[HearingPetition, ...]
    decision: str | None
    decided_on: date | None
    findings: str
    items: tuple[HearingItem, ...]
    housing_code: str = DEFAULT_HOUSING_CODE  # the notice's: the papers cite its procedure


def _hearing_rows(conn: Connection, where: ColumnElement[bool]) -> list[HearingRow]:
    rows = conn.execute(
        select(n, c.c.number)
        .join(c, c.c.id == n.c.case_id)
        .where(n.c.hearing_on.is_not(None) & where)
        .order_by(n.c.hearing_on, c.c.number, n.c.id)
    ).all()
    out = []
    for r in rows:
        petitions = conn.execute(
            select(pe.c.petitioner, ad.c.address, pe.c.filed_on, pe.c.grounds, pe.c.timely)
            .join(ad, ad.c.id == pe.c.addressee_id)
            .where((pe.c.notice_id == r.id) & pe.c.withdrawn_on.is_(None))
            .order_by(pe.c.filed_on, pe.c.id)
        ).all()
        items = conn.execute(
            select(
                ni.c.section,
                ni.c.title,
                ni.c.location,
                ni.c.correct_by,
                vi.c.correct_by,
                vi.c.state,
            )
            .join(vi, vi.c.id == ni.c.violation_id)
            .where(ni.c.notice_id == r.id)
            .order_by(ni.c.id)
        ).all()
        out.append(
            HearingRow(
                notice_id=r.id,
                case_id=r.case_id,
                case_number=r.number,
                kind=r.kind.value,
                property_address=r.property_address,
                issued_on=r.issued_on,
                hearing_on=r.hearing_on,
                place=r.hearing_place,
                notice_sent_on=r.hearing_notice_on,
                petitions=tuple(
                    HearingPetition(p.petitioner, p.address, p.filed_on, p.grounds, bool(p.timely))
                    for p in petitions
                ),
                decision=r.decision.value if r.decision is not None else None,
                decided_on=r.decided_on,
                findings=r.findings or "",
                items=tuple(HearingItem(i[0], i[1], i[2], i[3], i[4], i[5].value) for i in items),
                housing_code=r.housing_code or DEFAULT_HOUSING_CODE,
            )
        )
    return out


def hearing(conn: Connection, notice_id: int) -> HearingRow | None:
    """The notice's hearing (140-3B) and decision, or None when none is scheduled."""
    rows = _hearing_rows(conn, n.c.id == notice_id)
    return rows[0] if rows else None


def hearing_docket(conn: Connection, municipality_id: int, on: date) -> list[HearingRow]:
    """The Common Council's hearings of `on` (140-3B), by case number."""
    return _hearing_rows(conn, (c.c.municipality_id == municipality_id) & (n.c.hearing_on == on))


def next_hearing_day(conn: Connection, municipality_id: int, today: date) -> date | None:
    """The first meeting date, today or later, with a hearing scheduled (140-3B)."""
    return conn.execute(
        select(func.min(n.c.hearing_on))
        .join(c, c.c.id == n.c.case_id)
        .where((c.c.municipality_id == municipality_id) & (n.c.hearing_on >= today))
    ).scalar_one_or_none()


__all__ = [
    "agent_duties",
    "case_rows",
    "hearing",
    "hearing_docket",
    "next_hearing_day",
    "notice_document",
    "past_due_under_orders",
    "serve_again",
    "special_charges",
    "timeline",
]
