"""Read-side queries of City licences and condemnations (revision 0011): the two registers the
"Licences & condemnations" section lists (filtered and searched in SQL), the report helpers the
monthly and annual reports read, and the data of the printed licence and placard. They return the
frozen read models of desk/domain/licensing.py, never live ORM objects."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, Connection, and_, func, inspect, or_, select

from db import schema
from db.letterheads import letterhead_as_of
from desk.domain import licensing as rules
from desk.domain import reports as r
from desk.domain.enums import CredentialKind
from desk.domain.licensing import (
    CondemnationLine,
    Letterhead,
    LicenceCertificate,
    LicenceLine,
    LicenceStatus,
    Outcome,
    Placard,
)
from desk.domain.ordinances import Part, Provides
from desk.errors import NotFound

cl = schema.city_licence
cd = schema.condemnation
p_ = schema.permit
pa = schema.party
cr = schema.credential
TABLES = ("city_licence", "condemnation")


def recorded(conn: Connection) -> bool:
    """True when the database has the registers (revision 0011 or later)."""
    return set(TABLES) <= set(inspect(conn).get_table_names())


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def letterhead(conn: Connection, municipality_id: int, on: date | None = None) -> Letterhead:
    """The letterhead in force on `on` (a document's date; None: now)."""
    head = letterhead_as_of(conn, municipality_id, on)
    return Letterhead(
        municipality_name=head.name,
        lines=head,
        inspector_name=head.inspector_name,
        inspector_title=head.inspector_title,
    )


# --- licences -------------------------------------------------------------------------------------

_LICENCE_COLUMNS = (
    cl.c.id,
    cl.c.number,
    cl.c.licensee,
    cl.c.trade,
    cl.c.credential_kind,
    cl.c.credential_number,
    cl.c.credential_expires_on,
    cl.c.granted_on,
    cl.c.expires_on,
    cl.c.revoked_on,
    cl.c.complaint_on,
    cl.c.hearing_on,
    cl.c.finding_on,
    cl.c.disqualified,
    cl.c.council_finding,
    cl.c.party_id,
)


def _licence_line(row: Any) -> LicenceLine:
    return LicenceLine(
        id=row.id,
        number=row.number,
        licensee=row.licensee,
        trade=row.trade,
        credential=rules.credential_words(
            CredentialKind(row.credential_kind), row.credential_number, row.credential_expires_on
        ),
        granted_on=row.granted_on,
        expires_on=row.expires_on,
        revoked_on=row.revoked_on,
        complaint_on=row.complaint_on,
        hearing_on=row.hearing_on,
        finding_on=row.finding_on,
        disqualified=row.disqualified,
        council_finding=row.council_finding,
        party_id=row.party_id,
    )


def status_filter(status: LicenceStatus, on: date) -> ColumnElement[bool]:
    """The licences in `status` on `on`, as SQL (the rule is licensing.licence_status)."""
    revoked = and_(cl.c.revoked_on.is_not(None), cl.c.revoked_on <= on)
    not_revoked = or_(cl.c.revoked_on.is_(None), cl.c.revoked_on > on)
    if status is LicenceStatus.REVOKED:
        return revoked
    if status is LicenceStatus.EXPIRED:
        return and_(not_revoked, cl.c.expires_on < on)
    return and_(not_revoked, cl.c.expires_on >= on, cl.c.granted_on <= on)


def licence_rows(
    conn: Connection,
    municipality_id: int,
    on: date,
    text: str = "",
    status: LicenceStatus | None = None,
    limit: int = 2000,
) -> list[LicenceLine]:
    """The licence register, newest first: licences in `status` on `on` (any status when None)
    whose licensee's name or number contains `text`."""
    where: list[ColumnElement[bool]] = [cl.c.municipality_id == municipality_id]
    if status is not None:
        where.append(status_filter(status, on))
    wanted = " ".join(text.split())
    if wanted:
        like = _like(wanted)
        where.append(
            or_(cl.c.licensee.ilike(like, escape="\\"), cl.c.number.ilike(like, escape="\\"))
        )
    stmt = (
        select(*_LICENCE_COLUMNS)
        .where(*where)
        .order_by(cl.c.granted_on.desc(), cl.c.id.desc())
        .limit(limit)
    )
    return [_licence_line(row) for row in conn.execute(stmt)]


def licence_line(conn: Connection, licence_id: int) -> LicenceLine:
    row = conn.execute(select(*_LICENCE_COLUMNS).where(cl.c.id == licence_id)).first()
    if row is None:
        raise NotFound(f"City licence #{licence_id} does not exist")
    return _licence_line(row)


def licence_counts(conn: Connection, municipality_id: int, on: date) -> dict[LicenceStatus, int]:
    out = {}
    for status in LicenceStatus:
        out[status] = int(
            conn.execute(
                select(func.count()).where(
                    cl.c.municipality_id == municipality_id, status_filter(status, on)
                )
            ).scalar_one()
        )
    return out


@dataclass(frozen=True)
class Candidate:
    """A party who may be granted a City licence: the name, the address, and the best
    qualifying state credential on record (in force or not)."""

    party_id: int
    name: str
    address: str
    credential: str
    in_force: bool


def licence_candidates(
    conn: Connection, text: str, on: date, trade: str = "electrical", limit: int = 50
) -> list[Candidate]:
    """Parties holding a qualifying state credential (15.1.75(a)) whose name contains `text`,
    those with one in force on `on` first."""
    kinds = [k.value for k in rules.QUALIFYING[rules.check_trade(trade)]]
    wanted = " ".join(text.split())
    stmt = (
        select(
            pa.c.id,
            pa.c.name,
            pa.c.address_line1,
            pa.c.city,
            cr.c.kind,
            cr.c.number,
            cr.c.expires_on,
        )
        .join(cr, cr.c.party_id == pa.c.id)
        .where(cr.c.kind.in_(kinds) & cr.c.superseded_by_id.is_(None))
        .order_by(pa.c.name, pa.c.id, cr.c.expires_on.desc())
    )
    if wanted:
        stmt = stmt.where(pa.c.name.ilike(_like(wanted), escape="\\"))
    best: dict[int, Candidate] = {}
    for row in conn.execute(stmt):
        valid = row.expires_on is None or row.expires_on >= on
        mine = best.get(row.id)
        if mine is not None and (mine.in_force or not valid):
            continue
        best[row.id] = Candidate(
            party_id=row.id,
            name=row.name,
            address=", ".join(x for x in (row.address_line1, row.city) if x),
            credential=rules.credential_words(CredentialKind(row.kind), row.number, row.expires_on),
            in_force=valid,
        )
    out = sorted(best.values(), key=lambda c: (not c.in_force, c.name.lower(), c.party_id))
    return out[:limit]


def _licences_dated(
    conn: Connection,
    municipality_id: int,
    day: ColumnElement[Any],
    start: date,
    end: date,
    trade: str | None,
) -> list[LicenceLine]:
    """The licences whose `day` column falls from `start` through `end`, in its order."""
    where = [cl.c.municipality_id == municipality_id, day.between(start, end)]
    if trade is not None:
        where.append(cl.c.trade == trade)
    stmt = select(*_LICENCE_COLUMNS).where(*where).order_by(day, cl.c.id)
    return [_licence_line(row) for row in conn.execute(stmt)]


def licences_granted(
    conn: Connection, municipality_id: int, start: date, end: date, trade: str | None = None
) -> list[LicenceLine]:
    """The licences granted from `start` through `end` (15.1.74(b): "licenses ... granted"), in
    the order of their numbers."""
    return _licences_dated(conn, municipality_id, cl.c.granted_on, start, end, trade)


def licences_revoked(
    conn: Connection, municipality_id: int, start: date, end: date, trade: str | None = None
) -> list[LicenceLine]:
    """The licences revoked from `start` through `end` (15.1.78(c))."""
    return _licences_dated(conn, municipality_id, cl.c.revoked_on, start, end, trade)


def licences_granted_by_trade(
    conn: Connection, municipality_id: int, start: date, end: date
) -> dict[str, int]:
    """How many licences of each trade were granted from `start` through `end`."""
    out: dict[str, int] = defaultdict(int)
    for trade, n in conn.execute(
        select(cl.c.trade, func.count())
        .where(cl.c.municipality_id == municipality_id, cl.c.granted_on.between(start, end))
        .group_by(cl.c.trade)
    ):
        out[str(trade)] += int(n)
    return dict(out)


def licence_certificate(conn: Connection, licence_id: int) -> LicenceCertificate:
    row = conn.execute(
        select(
            *_LICENCE_COLUMNS,
            cl.c.municipality_id,
            pa.c.address_line1,
            pa.c.address_line2,
            pa.c.city,
            pa.c.state,
            pa.c.zip,
        )
        .join(pa, pa.c.id == cl.c.party_id)
        .where(cl.c.id == licence_id)
    ).first()
    if row is None:
        raise NotFound(f"City licence #{licence_id} does not exist")
    city = " ".join(x for x in (f"{row.city}," if row.city else "", row.state, row.zip) if x)
    line = _licence_line(row)
    return LicenceCertificate(
        letterhead=letterhead(conn, row.municipality_id, line.granted_on),
        licence_id=line.id,
        number=line.number,
        licensee=line.licensee,
        licensee_address=", ".join(x for x in (row.address_line1, row.address_line2, city) if x),
        trade=line.trade,
        credential=line.credential,
        granted_on=line.granted_on,
        expires_on=line.expires_on,
        revoked_on=line.revoked_on,
    )


# --- condemnations --------------------------------------------------------------------------------

CONDEMNATION_STATES = ("open", "overdue", "lifted", "closed", "all")  # the register's lists


def _condemnation_line(row: Any) -> CondemnationLine:
    return CondemnationLine(
        id=row.id,
        address=row.address,
        dwelling_unit=row.dwelling_unit,
        condemned_on=row.condemned_on,
        grounds=tuple(row.grounds or ()),
        vacate_by=row.vacate_by,
        outcome=Outcome(row.outcome),
        reasons=row.reasons,
        outcome_on=row.outcome_on,
        placarded_on=row.placarded_on,
        vacated_on=row.vacated_on,
        permit_id=row.permit_id,
        permit_number=row.permit_number or "",
    )


def _condemnation_select() -> Any:
    return select(
        cd.c.id,
        cd.c.address,
        cd.c.dwelling_unit,
        cd.c.condemned_on,
        cd.c.grounds,
        cd.c.vacate_by,
        cd.c.outcome,
        cd.c.reasons,
        cd.c.outcome_on,
        cd.c.placarded_on,
        cd.c.vacated_on,
        cd.c.permit_id,
        p_.c.number.label("permit_number"),
    ).select_from(cd.outerjoin(p_, p_.c.id == cd.c.permit_id))


def _state_filter(state: str, on: date) -> ColumnElement[bool]:
    if state == "open":
        return cd.c.outcome == Outcome.OPEN.value
    if state == "overdue":  # Hudson 140 C: not vacated by the day ordered
        return and_(
            cd.c.outcome == Outcome.OPEN.value, cd.c.vacated_on.is_(None), cd.c.vacate_by < on
        )
    if state == "lifted":
        return cd.c.outcome == Outcome.DEFECTS_ELIMINATED.value
    if state == "closed":
        return cd.c.outcome.in_([Outcome.RAZED.value, Outcome.REMOVED.value])
    return cd.c.id.is_not(None)


def condemnation_rows(
    conn: Connection,
    municipality_id: int,
    on: date,
    text: str = "",
    state: str = "open",
    limit: int = 2000,
) -> list[CondemnationLine]:
    """The condemnation register, newest first, in one of CONDEMNATION_STATES on `on`, whose
    address, unit or reasons contain `text`."""
    if state not in CONDEMNATION_STATES:
        raise ValueError(f"unknown state {state!r}")
    where: list[ColumnElement[bool]] = [
        cd.c.municipality_id == municipality_id,
        _state_filter(state, on),
    ]
    wanted = " ".join(text.split())
    if wanted:
        like = _like(wanted)
        where.append(
            or_(
                cd.c.address.ilike(like, escape="\\"),
                cd.c.dwelling_unit.ilike(like, escape="\\"),
                cd.c.reasons.ilike(like, escape="\\"),
                p_.c.number.ilike(like, escape="\\"),
            )
        )
    stmt = (
        _condemnation_select()
        .where(*where)
        .order_by(cd.c.condemned_on.desc(), cd.c.id.desc())
        .limit(limit)
    )
    return [_condemnation_line(row) for row in conn.execute(stmt)]


def condemnation_counts(conn: Connection, municipality_id: int, on: date) -> dict[str, int]:
    return {
        state: int(
            conn.execute(
                select(func.count()).where(
                    cd.c.municipality_id == municipality_id, _state_filter(state, on)
                )
            ).scalar_one()
        )
        for state in CONDEMNATION_STATES
    }


def condemnation_line(conn: Connection, condemnation_id: int) -> CondemnationLine:
    row = conn.execute(_condemnation_select().where(cd.c.id == condemnation_id)).first()
    if row is None:
        raise NotFound(f"condemnation #{condemnation_id} does not exist")
    return _condemnation_line(row)


def condemnations_in(
    conn: Connection, municipality_id: int, start: date, end: date
) -> list[CondemnationLine]:
    """The dwellings condemned from `start` through `end` (15.1.6(c)), oldest first."""
    stmt = (
        _condemnation_select()
        .where(cd.c.municipality_id == municipality_id, cd.c.condemned_on.between(start, end))
        .order_by(cd.c.condemned_on, cd.c.id)
    )
    return [_condemnation_line(row) for row in conn.execute(stmt)]


def placard(conn: Connection, condemnation_id: int) -> Placard:
    row = conn.execute(
        select(
            cd.c.id,
            cd.c.municipality_id,
            cd.c.address,
            cd.c.dwelling_unit,
            cd.c.condemned_on,
            cd.c.placarded_on,
            cd.c.vacate_by,
            cd.c.grounds,
            cd.c.outcome,
        ).where(cd.c.id == condemnation_id)
    ).first()
    if row is None:
        raise NotFound(f"condemnation #{condemnation_id} does not exist")
    return Placard(
        letterhead=letterhead(conn, row.municipality_id, row.placarded_on or row.condemned_on),
        condemnation_id=row.id,
        address=row.address,
        dwelling_unit=row.dwelling_unit,
        condemned_on=row.condemned_on,
        placarded_on=row.placarded_on,
        vacate_by=row.vacate_by,
        grounds=tuple(row.grounds or ()),
        outcome=Outcome(row.outcome),
    )


def permit_address(conn: Connection, permit_id: int) -> tuple[str, int | None]:
    """A permit's address as the listing shows it, and its parcel."""
    lst = schema.permit_listing
    row = conn.execute(
        select(lst.c.address, p_.c.parcel_id)
        .select_from(p_.outerjoin(lst, lst.c.permit_id == p_.c.id))
        .where(p_.c.id == permit_id)
    ).first()
    if row is None:
        return "", None
    return row.address or "", row.parcel_id


# --- the reports (15.1.74(b), 15.1.6(c)) ----------------------------------------------------------


def licence_counts_for(
    conn: Connection, municipality_id: int, periods: Sequence[r.Period], trade: str | None
) -> tuple[r.LicenceCount, ...]:
    """The monthly report's licence figures: a row per licensed trade the report covers, with
    the licences granted in each of its four periods (the month, the same month last year, the
    year to date and the year before's)."""
    trades = r.licence_trades(trade)
    if not trades or not recorded(conn):
        return ()
    counts = [licences_granted_by_trade(conn, municipality_id, x.start, x.end) for x in periods]
    return tuple(r.LicenceCount(t, *(c.get(t, 0) for c in counts)) for t in trades)


def month_licences(
    conn: Connection, municipality_id: int, period: r.Period, trade: str | None
) -> tuple[LicenceLine, ...]:
    """The licences granted in the month, of the trades the report covers."""
    trades = r.licence_trades(trade)
    if not trades or not recorded(conn):
        return ()
    return tuple(
        x
        for x in licences_granted(conn, municipality_id, period.start, period.end)
        if x.trade in trades
    )


def licensing_section(
    conn: Connection,
    municipality_id: int,
    period: r.Period,
    trade: str | None,
    provides: Provides,
) -> r.LicensingSection:
    """The annual report's licences granted and revoked and dwellings condemned in the period:
    condemnations in the Council's and the building report, licences in the Council's and in
    the licensed trade's (the electrical inspector's annual report, 15.1.74(b)); each only
    where the municipality keeps that record."""
    show_condemnations = trade in (None, "building") and provides.has(Part.CONDEMNATIONS)
    trades = r.licence_trades(trade) if provides.has(Part.LICENCES) else ()
    if not recorded(conn):
        return r.LicensingSection(
            False, show_condemnations=show_condemnations, show_licences=bool(trades)
        )
    granted = [
        x
        for x in licences_granted(conn, municipality_id, period.start, period.end)
        if x.trade in trades
    ]
    revoked = [
        x
        for x in licences_revoked(conn, municipality_id, period.start, period.end)
        if x.trade in trades
    ]
    return r.LicensingSection(
        recorded=True,
        condemnations=tuple(condemnations_in(conn, municipality_id, period.start, period.end))
        if show_condemnations
        else (),
        licences_granted=tuple(granted),
        licences_revoked=tuple(revoked),
        show_condemnations=show_condemnations,
        show_licences=bool(trades),
    )
