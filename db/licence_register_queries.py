"""Read side of the rooming house licence register (Hudson 140-10, revision 0018): the register
filtered in SQL (in force, expiring within N days, suspended, revoked, expired, pending), the
renewal-letter rows of the licences expiring soon, the licence certificate (140-10A) and the
written notices of 140-10B/C. Frozen rows, never live ORM objects."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, func, select, true

from db import schema
from db.enforcement_case_view import office_calendar
from db.licence_view import dwelling_words
from desk.enforcement.licences import (
    RENEWAL_DAYS,
    LicenceCertificate,
    LicenceNoticeDoc,
    LicenceNoticeKind,
    LicenceNoticeViolation,
    LicenceRow,
    LicenceState,
    RegisterFilter,
    RenewalLetterRow,
    RenewalNote,
    not_yet_in_force,
    status_on,
)
from desk.errors import NotFound, RuleViolation
from desk.housing.codes import HousingCodeError, load_housing_code


def _renewal(column: str, issued: bool) -> Any:
    """A column of the licence's renewal (140-10A), as a correlated subquery: the pending
    application (`issued` False) or the renewal issued; a denied or ended one is none."""
    lic, ren = schema.rooming_licence, schema.rooming_licence.alias("renewal")
    which = ren.c.number.is_not(None) if issued else ren.c.state == LicenceState.APPLIED.value
    return (
        select(ren.c[column])
        .where(
            (ren.c.renews_id == lic.c.id)
            & which
            & (ren.c.state != LicenceState.ENDED.value)
            & (ren.c.state != LicenceState.DENIED.value)
        )
        .order_by(ren.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )


def _renewed() -> ColumnElement[bool]:
    """The licence's renewal is issued: no longer expiring, no renewal letter (140-10A)."""
    lic, ren = schema.rooming_licence, schema.rooming_licence.alias("renewed")
    return (
        select(ren.c.id)
        .where(
            (ren.c.renews_id == lic.c.id)
            & ren.c.number.is_not(None)
            & (ren.c.state != LicenceState.ENDED.value)
        )
        .exists()
    )


def _renewal_pending() -> ColumnElement[bool]:
    lic, ren = schema.rooming_licence, schema.rooming_licence.alias("pending")
    return (
        select(ren.c.id)
        .where((ren.c.renews_id == lic.c.id) & (ren.c.state == LicenceState.APPLIED.value))
        .exists()
    )


def _where(which: RegisterFilter, today: date, days: int) -> ColumnElement[bool]:
    lic = schema.rooming_licence.c
    issued = lic.state == LicenceState.ISSUED.value
    # 140-10A: valid through expires_on; expired from the day after. A renewal issued early is
    # in force from its valid_from (licences issued before revision 0021 have none).
    in_force = (
        issued & (lic.expires_on >= today) & (lic.valid_from.is_(None) | (lic.valid_from <= today))
    )
    if which is RegisterFilter.IN_FORCE:
        return in_force
    if which is RegisterFilter.EXPIRING:
        return in_force & (lic.expires_on <= today + timedelta(days=days)) & ~_renewed()
    if which is RegisterFilter.EXPIRED:
        return issued & (lic.expires_on < today)
    if which is RegisterFilter.SUSPENDED:
        return lic.state == LicenceState.SUSPENDED.value
    if which is RegisterFilter.REVOKED:
        return lic.state == LicenceState.REVOKED.value
    if which is RegisterFilter.PENDING:
        return lic.state == LicenceState.APPLIED.value
    return true()


def _base(municipality_id: int) -> Select[Any]:
    lic, p = schema.rooming_licence, schema.parcel
    return (
        select(
            lic.c.id,
            lic.c.number,
            lic.c.operator_name,
            lic.c.operator_address,
            lic.c.dwelling_unit,
            lic.c.persons,
            lic.c.applied_on,
            lic.c.issued_on,
            lic.c.valid_from,
            lic.c.expires_on,
            lic.c.state,
            lic.c.suspended_on,
            lic.c.revoked_on,
            lic.c.correct_by,
            p.c.pin,
            p.c.house_number,
            p.c.street,
            _renewal("applied_on", issued=False).label("renewal_applied_on"),
            _renewal("applied_on", issued=True).label("renewed_applied_on"),
            _renewal("number", issued=True).label("renewal_number"),
            _renewal("valid_from", issued=True).label("renewal_from"),
        )
        .join(p, p.c.id == lic.c.parcel_id)
        .where(lic.c.municipality_id == municipality_id)
    )


def _renewal_note(r: Any) -> RenewalNote | None:
    if r.renewal_number is not None:
        return RenewalNote(r.renewed_applied_on, r.renewal_number, r.renewal_from)
    if r.renewal_applied_on is not None:
        return RenewalNote(r.renewal_applied_on)
    return None


def register(
    conn: Connection,
    municipality_id: int,
    today: date,
    which: RegisterFilter = RegisterFilter.ALL,
    days: int = RENEWAL_DAYS,
) -> list[LicenceRow]:
    """The register's rows, by expiry for the expiring, else by number then application. A
    licence in force names its renewal applied for or issued (140-10A)."""
    lic = schema.rooming_licence.c
    order = (
        (lic.expires_on, lic.id)
        if which is RegisterFilter.EXPIRING
        else (lic.number.is_(None), lic.number, lic.id)
    )
    rows = conn.execute(_base(municipality_id).where(_where(which, today, days)).order_by(*order))
    out = []
    for r in rows:
        renewal = _renewal_note(r)
        out.append(
            LicenceRow(
                licence_id=r.id,
                number=r.number or "",
                operator=r.operator_name,
                address=dwelling_words(r.house_number, r.street, r.dwelling_unit),
                pin=r.pin,
                persons=r.persons,
                applied_on=r.applied_on,
                issued_on=r.issued_on,
                expires_on=r.expires_on,
                status=status_on(
                    LicenceState(r.state),
                    r.expires_on,
                    today,
                    correct_by=r.correct_by,
                    watch_days=days,
                    valid_from=r.valid_from,
                    renewal=renewal,
                ),
                suspended_on=r.suspended_on,
                revoked_on=r.revoked_on,
                valid_from=r.valid_from,
                renewal=renewal,
            )
        )
    return out


def renewal_letters(
    conn: Connection, municipality_id: int, today: date, days: int = RENEWAL_DAYS
) -> list[RenewalLetterRow]:
    """A letter to each operator whose licence is in force and expires within `days`, unless
    its renewal is applied for or issued already (140-10A)."""
    lic = schema.rooming_licence.c
    rows = conn.execute(
        _base(municipality_id)
        .where(_where(RegisterFilter.EXPIRING, today, days) & ~_renewal_pending())
        .order_by(lic.expires_on, lic.id)
    )
    return [
        RenewalLetterRow(
            licence_id=r.id,
            number=r.number,
            operator=r.operator_name,
            operator_address=r.operator_address,
            dwelling=dwelling_words(r.house_number, r.street, r.dwelling_unit),
            expires_on=r.expires_on,
        )
        for r in rows
    ]


def _one(conn: Connection, licence_id: int) -> Any:
    lic, p = schema.rooming_licence, schema.parcel
    row = conn.execute(
        select(lic, p.c.pin, p.c.house_number, p.c.street)
        .join(p, p.c.id == lic.c.parcel_id)
        .where(lic.c.id == licence_id)
    ).one_or_none()
    if row is None:
        raise NotFound(f"rooming house licence #{licence_id} does not exist")
    return row


def certificate(
    conn: Connection, licence_id: int, today: date | None = None
) -> LicenceCertificate | None:
    """The licence to display within the rooming house (140-10A); None for an application never
    issued (pending or denied). `status` is read on `today` (the issue day when not given), and
    for a renewal issued early on its first day in force, when it goes up in the house."""
    r = _one(conn, licence_id)
    if r.number is None or r.issued_on is None or r.expires_on is None:
        return None
    on = today or r.issued_on
    if not_yet_in_force(r.valid_from, on):  # a renewal is printed to be displayed from then
        on = r.valid_from
    renews = ""
    if r.renews_id is not None:
        lic = schema.rooming_licence.c
        renews = conn.execute(select(lic.number).where(lic.id == r.renews_id)).scalar() or ""
    u = schema.app_user
    issued_by = conn.execute(
        select(func.coalesce(func.nullif(u.c.full_name, ""), u.c.username)).where(
            u.c.id == r.issued_by_id
        )
    ).scalar_one_or_none()
    rooms = schema.rooming_licence_room.c
    sleeping = conn.execute(
        select(func.count())
        .select_from(schema.rooming_licence_room)
        .where((rooms.licence_id == licence_id) & rooms.sleeping)
    ).scalar_one()
    return LicenceCertificate(
        licence_id=r.id,
        municipality_id=r.municipality_id,
        number=r.number,
        operator=r.operator_name,
        operator_address=r.operator_address,
        dwelling=dwelling_words(r.house_number, r.street, r.dwelling_unit),
        pin=r.pin,
        persons=r.persons,
        sleeping_rooms=int(sleeping),
        issued_on=r.issued_on,
        expires_on=r.expires_on,
        fee=r.fee,
        fee_receipt=r.fee_receipt or "",
        issued_by=issued_by or "",
        status=status_on(LicenceState(r.state), r.expires_on, on, valid_from=r.valid_from),
        valid_from=r.valid_from,
        renews=renews,
    )


def _code_text(key: str, section: str, title: str) -> str:
    try:
        return load_housing_code(key).standard(section).text
    except (HousingCodeError, KeyError):
        return title


def _notice_violations(
    conn: Connection, case_id: int | None, on: date
) -> tuple[LicenceNoticeViolation, ...]:
    """The violations open on the licence's case on the notice's day: found by then and not
    corrected or withdrawn before it (a reprint lists the same ones)."""
    if case_id is None:
        return ()
    c, vi, ins = (
        schema.enforcement_case,
        schema.enforcement_violation,
        schema.enforcement_inspection,
    )
    key = conn.execute(select(c.c.housing_code).where(c.c.id == case_id)).scalar_one()
    rows = conn.execute(
        select(vi.c.section, vi.c.title, vi.c.unit, vi.c.room, vi.c.correct_by)
        .join(ins, ins.c.id == vi.c.inspection_id)
        .where(
            (vi.c.case_id == case_id)
            & (ins.c.inspected_on <= on)
            & (vi.c.closed_on.is_(None) | (vi.c.closed_on > on))
        )
        .order_by(vi.c.id)
    ).all()
    return tuple(
        LicenceNoticeViolation(
            section=v.section,
            title=v.title,
            text=_code_text(key, v.section, v.title),
            location=", ".join(x for x in (f"Unit {v.unit}" if v.unit else "", v.room) if x),
            correct_by=v.correct_by,
        )
        for v in rows
    )


def licence_notice(
    conn: Connection, licence_id: int, kind: LicenceNoticeKind | str
) -> LicenceNoticeDoc:
    """The written notice of `kind` from the dates kept on the licence; RuleViolation when the
    licence has no such notice (never warned, suspended or denied)."""
    kind = LicenceNoticeKind(kind)
    r = _one(conn, licence_id)
    name = r.number or f"The application #{r.id}"
    dated = {
        LicenceNoticeKind.WARNING: r.warned_on,
        LicenceNoticeKind.SUSPENSION: r.suspended_on,
        LicenceNoticeKind.DENIAL: r.denied_on,
    }[kind]
    if dated is None:
        words = {
            LicenceNoticeKind.WARNING: "no written notice to correct was given (140-10C)",
            LicenceNoticeKind.SUSPENSION: "it was not suspended (140-10C)",
            LicenceNoticeKind.DENIAL: "it was not denied (140-10B)",
        }[kind]
        raise RuleViolation(f"{name}: {words}")
    case_number = ""
    if r.case_id is not None:
        c = schema.enforcement_case.c
        case_number = conn.execute(select(c.number).where(c.id == r.case_id)).scalar_one()
    return LicenceNoticeDoc(
        kind=kind,
        licence_id=r.id,
        municipality_id=r.municipality_id,
        number=r.number or "",
        operator=r.operator_name,
        operator_address=r.operator_address,
        dwelling=dwelling_words(r.house_number, r.street, r.dwelling_unit),
        pin=r.pin,
        case_number=case_number,
        applied_on=r.applied_on,
        issued_on=r.issued_on,
        expires_on=r.expires_on,
        warned_on=r.warned_on,
        correct_by=r.correct_by,
        suspended_on=r.suspended_on,
        denied_on=r.denied_on,
        denial_reason=r.denial_reason,
        violations=()
        if kind is LicenceNoticeKind.DENIAL
        else _notice_violations(conn, r.case_id, dated),
        calendar=office_calendar(conn, r.municipality_id),
    )
