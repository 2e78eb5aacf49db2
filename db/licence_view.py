"""What a rooming house licence's window shows (Hudson 140-10): the licence row with its dwelling,
its rooms, the case its inspections are on (and whether the inspector has been since the
application, how many violations are open), the licence it renews and its renewal (140-10A), and
the Council's fee in force. Frozen rows, never live ORM objects; db/licence_register_queries.py
keeps the register itself."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import ColumnElement, Connection, func, select

from db import schema
from db.enforcement_case_view import office_calendar
from desk.enforcement import licences as rules
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.enforcement.licences import (
    HearingDecision,
    LicenceState,
    RevocationKind,
)
from desk.enforcement.model import ViolationState


@dataclass(frozen=True)
class RoomFact:
    name: str
    floor_area: Decimal  # square feet
    sleeping: bool
    occupants_over_12: int
    occupants_under_12: int


@dataclass(frozen=True)
class LicenceFacts:
    id: int
    municipality_id: int
    parcel_id: int
    number: str | None
    state: LicenceState
    operator_name: str
    operator_address: str
    dwelling: str  # the parcel's address and unit
    dwelling_unit: str
    pin: str
    persons: int
    water_closets: int
    lavatories: int
    baths: int
    applied_on: date
    issued_on: date | None
    issued_by: str
    expires_on: date | None
    denied_on: date | None
    denial_reason: str
    warned_on: date | None
    correct_by: date | None
    suspended_on: date | None
    petition_filed_on: date | None
    petitioner: str
    petition_timely: bool | None
    decision: HearingDecision | None
    decided_on: date | None
    findings: str
    revoked_on: date | None
    revocation: RevocationKind | None
    changed_at: datetime | None
    change_notice_at: datetime | None
    change_notice_late: bool | None
    successor_name: str
    successor_address: str
    ended_on: date | None
    fee: Decimal | None
    fee_receipt: str
    rooms: tuple[RoomFact, ...]
    case_id: int | None
    case_number: str
    case_closed_on: date | None
    last_inspected_on: date | None  # the latest inspection on the licence's case
    open_violations: int  # on the licence's case
    # 140-10A: a renewal issued early is in force from valid_from (None: from issued_on)
    valid_from: date | None = None
    renews: RenewalLink | None = None  # the licence this one renews
    renewal: RenewalLink | None = None  # its latest renewal, applied for or issued
    calendar: OfficeCalendar = STATUTE  # the office's days (Wis. Stat. 990.001(4))
    # 140-10D: an automatic revocation set aside by a timely petition typed in after it
    revocation_set_aside_on: date | None = None
    revocation_set_aside_reason: str = ""


@dataclass(frozen=True)
class RenewalLink:
    """The other end of a renewal (140-10A): the licence renewed, or the renewal."""

    id: int
    number: str | None  # None: an application not issued
    state: LicenceState
    applied_on: date
    valid_from: date | None
    expires_on: date | None


def _link(conn: Connection, where: ColumnElement[bool]) -> RenewalLink | None:
    lic = schema.rooming_licence.c
    r = conn.execute(
        select(lic.id, lic.number, lic.state, lic.applied_on, lic.valid_from, lic.expires_on)
        .where(where)
        .order_by(lic.id.desc())
        .limit(1)
    ).first()
    if r is None:
        return None
    return RenewalLink(
        r.id, r.number, LicenceState(r.state), r.applied_on, r.valid_from, r.expires_on
    )


def dwelling_words(house_number: str | None, street: str | None, unit: str | None) -> str:
    text = " ".join(x for x in (house_number, street) if x)
    return f"{text}, Unit {unit}" if unit else text


def licence_facts(conn: Connection, licence_id: int) -> LicenceFacts | None:
    lic, p, c, u = (
        schema.rooming_licence,
        schema.parcel,
        schema.enforcement_case,
        schema.app_user,
    )
    r = conn.execute(
        select(
            lic,
            p.c.pin,
            p.c.house_number,
            p.c.street,
            c.c.number.label("case_number"),
            c.c.closed_on.label("case_closed_on"),
            u.c.full_name.label("issuer_name"),
            u.c.username.label("issuer_username"),
        )
        .select_from(
            lic.join(p, p.c.id == lic.c.parcel_id)
            .outerjoin(c, c.c.id == lic.c.case_id)
            .outerjoin(u, u.c.id == lic.c.issued_by_id)
        )
        .where(lic.c.id == licence_id)
    ).first()
    if r is None:
        return None
    rm = schema.rooming_licence_room.c
    rooms = tuple(
        RoomFact(
            x.name,
            Decimal(x.floor_area),
            bool(x.sleeping),
            x.occupants_over_12,
            x.occupants_under_12,
        )
        for x in conn.execute(
            select(rm.name, rm.floor_area, rm.sleeping, rm.occupants_over_12, rm.occupants_under_12)
            .where(rm.licence_id == licence_id)
            .order_by(rm.id)
        )
    )
    last_inspected: date | None = None
    still_open = 0
    if r.case_id is not None:
        i, v = schema.enforcement_inspection.c, schema.enforcement_violation.c
        last_inspected = conn.execute(
            select(func.max(i.inspected_on)).where(i.case_id == r.case_id)
        ).scalar()
        still_open = conn.execute(
            select(func.count())
            .select_from(schema.enforcement_violation)
            .where(v.case_id == r.case_id, v.state == ViolationState.OPEN.value)
        ).scalar_one()
    lic_c = schema.rooming_licence.c
    renews = _link(conn, lic_c.id == r.renews_id) if r.renews_id is not None else None
    renewal = _link(conn, lic_c.renews_id == r.id)
    return LicenceFacts(
        id=r.id,
        municipality_id=r.municipality_id,
        parcel_id=r.parcel_id,
        number=r.number,
        state=LicenceState(r.state),
        operator_name=r.operator_name,
        operator_address=r.operator_address,
        dwelling=dwelling_words(r.house_number, r.street, r.dwelling_unit),
        dwelling_unit=r.dwelling_unit,
        pin=r.pin,
        persons=r.persons,
        water_closets=r.water_closets,
        lavatories=r.lavatories,
        baths=r.baths,
        applied_on=r.applied_on,
        issued_on=r.issued_on,
        issued_by=r.issuer_name or r.issuer_username or "",
        expires_on=r.expires_on,
        denied_on=r.denied_on,
        denial_reason=r.denial_reason,
        warned_on=r.warned_on,
        correct_by=r.correct_by,
        suspended_on=r.suspended_on,
        petition_filed_on=r.petition_filed_on,
        petitioner=r.petitioner,
        petition_timely=r.petition_timely,
        decision=HearingDecision(r.decision) if r.decision else None,
        decided_on=r.decided_on,
        findings=r.findings,
        revoked_on=r.revoked_on,
        revocation=RevocationKind(r.revocation) if r.revocation else None,
        changed_at=r.changed_at,
        change_notice_at=r.change_notice_at,
        change_notice_late=r.change_notice_late,
        successor_name=r.successor_name,
        successor_address=r.successor_address,
        ended_on=r.ended_on,
        fee=r.fee,
        fee_receipt=r.fee_receipt or "",
        rooms=rooms,
        case_id=r.case_id,
        case_number=r.case_number or "",
        case_closed_on=r.case_closed_on,
        last_inspected_on=last_inspected,
        open_violations=int(still_open),
        valid_from=r.valid_from,
        renews=renews,
        renewal=renewal,
        calendar=office_calendar(conn, r.municipality_id),
        revocation_set_aside_on=r.revocation_set_aside_on,
        revocation_set_aside_reason=r.revocation_set_aside_reason or "",
    )


def licence_id_by_number(conn: Connection, municipality_id: int, number: str) -> int | None:
    lic = schema.rooming_licence.c
    return conn.execute(
        select(lic.id).where(lic.municipality_id == municipality_id, lic.number == number.upper())
    ).scalar()


def licence_fee(conn: Connection, municipality_id: int) -> Decimal | None:
    """The Council's rooming house licence fee in force (municipality.settings, 140-10A), None
    while the Council has not set it."""
    settings = conn.execute(
        select(schema.municipality.c.settings).where(schema.municipality.c.id == municipality_id)
    ).scalar()
    return rules.licence_fee(settings if isinstance(settings, dict) else None)
