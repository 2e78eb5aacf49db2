"""Helpers of the enforcement services: the rows a service decides on, locked case first."""

from __future__ import annotations

from datetime import date
from typing import TypeVar

from desk.dates import short_date
from desk.domain.model import Municipality, Parcel
from desk.enforcement import rules
from desk.enforcement.appeal import Appeal
from desk.enforcement.computing_time import OfficeCalendar
from desk.enforcement.model import (
    EnforcementCase,
    EnforcementOrder,
    Notice,
    NoticeAddressee,
    NoticeService,
    Petition,
)
from desk.enforcement.procedure import Procedure, ProcedureError, office_procedure
from desk.errors import NotFound, ValidationError
from desk.housing.codes import HousingCode, HousingCodeError, load_housing_code
from desk.services.uow import UnitOfWork

T = TypeVar("T")

DAYS_SETTING = "housing_code_days"  # municipality.settings: section -> the office's own days


def municipality(uow: UnitOfWork, municipality_id: int) -> Municipality:
    muni = uow.municipalities.get(municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return muni


def parcel(uow: UnitOfWork, municipality_id: int, parcel_id: int | None) -> Parcel:
    if parcel_id is None:
        raise ValidationError(
            "property",
            "choose the parcel from the register (a parcel not in it: Parcels → New parcel…, "
            "or File → Import parcels… for the county's file)",
        )
    row = uow.parcels.get(parcel_id)  # locked: complaints on one parcel are taken in turn
    if row is None or row.municipality_id != municipality_id:
        raise ValidationError("property", f"parcel #{parcel_id} does not exist")
    return row


def address(uow: UnitOfWork, parcel_id: int) -> str:
    """The parcel's address, read without a lock (the parcel is locked before its case only)."""
    found = uow.enforcement.find(Parcel, id=parcel_id)
    return found[0].address if found else ""


def row(uow: UnitOfWork, cls: type[T], row_id: int, what: str) -> T:
    found = uow.enforcement.get(cls, row_id)
    if found is None:
        raise NotFound(f"{what} #{row_id} does not exist")
    return found


def peek(uow: UnitOfWork, cls: type[T], row_id: int, what: str) -> T:
    """The row read without a lock: to learn which case to lock first (locks are taken case
    first, then its notice, so two services never wait on each other in opposite order)."""
    found = uow.enforcement.find(cls, id=row_id)
    if not found:
        raise NotFound(f"{what} #{row_id} does not exist")
    return found[0]


def case(uow: UnitOfWork, case_id: int) -> EnforcementCase:
    """The case, locked."""
    return row(uow, EnforcementCase, case_id, "case")


def open_case(uow: UnitOfWork, case_id: int) -> EnforcementCase:
    c = case(uow, case_id)
    rules.check_open(c.closed_on, c.number)
    return c


def notice_locked(uow: UnitOfWork, notice_id: int) -> tuple[EnforcementCase, Notice]:
    """The notice's case and the notice, locked in that order."""
    n = peek(uow, Notice, notice_id, "notice")
    c = case(uow, n.case_id)
    return c, row(uow, Notice, notice_id, "notice")


def addressee_locked(
    uow: UnitOfWork, addressee_id: int
) -> tuple[EnforcementCase, Notice, NoticeAddressee]:
    a = peek(uow, NoticeAddressee, addressee_id, "addressee")
    c, n = notice_locked(uow, a.notice_id)
    return c, n, a


def housing_code(uow: UnitOfWork, c: EnforcementCase) -> HousingCode:
    """The case's housing code, with the office's own days to correct (municipality settings)."""
    muni = municipality(uow, c.municipality_id)
    try:
        code = load_housing_code(c.housing_code)
        days = (muni.settings or {}).get(DAYS_SETTING)
        return code.with_days(days) if days else code
    except HousingCodeError as e:
        raise ValidationError("housing code", str(e)) from None


def calendar(uow: UnitOfWork, municipality_id: int) -> OfficeCalendar:
    """The office's days for computing time (Wis. Stat. 990.001(4)): its Saturday hours."""
    return OfficeCalendar.of(municipality(uow, municipality_id).settings)


def procedure(uow: UnitOfWork, c: EnforcementCase) -> Procedure:
    """The procedure of the code the case was opened under (Hudson 140-3, or Wis. Stat. ch. 68
    for Ch. 512), with the office's own periods while the municipality enforces that code."""
    settings = municipality(uow, c.municipality_id).settings or {}
    try:
        return office_procedure(c.housing_code, rules.housing_code_key(settings), settings)
    except (ProcedureError, HousingCodeError) as e:
        raise ValidationError("procedure", str(e)) from None


def appeals(uow: UnitOfWork, notice_id: int) -> list[Appeal]:
    """The notice's appeals (Wis. Stat. 68.10), first filed first."""
    return sorted(uow.enforcement.find(Appeal, notice_id=notice_id), key=lambda a: a.id or 0)


def served_on(uow: UnitOfWork, addressee_id: int) -> date | None:
    """The addressee's own service that governs: the earliest not withdrawn as entered by
    mistake (registered mail returned unclaimed still counts, 140-3A(4))."""
    return rules.effective_service(
        s.served_on
        for s in uow.enforcement.find(NoticeService, addressee_id=addressee_id)
        if s.withdrawn_on is None
    )


def service_of(uow: UnitOfWork, a: NoticeAddressee) -> date | None:
    """The addressee's service, an owner served through the agent of the same notice."""
    addressees = uow.enforcement.find(NoticeAddressee, notice_id=a.notice_id)
    served = rules.served_with_agent([(x.role, served_on(uow, x.id or 0)) for x in addressees])
    return next(s for x, s in zip(addressees, served, strict=True) if x.id == a.id)


def orders_in_effect(uow: UnitOfWork, notice_id: int) -> list[EnforcementOrder]:
    """The notice's orders, those set aside left out (140-3B: a timely petition recorded late)."""
    return [
        o
        for o in uow.enforcement.find(EnforcementOrder, notice_id=notice_id)
        if o.set_aside_on is None
    ]


def facts(
    uow: UnitOfWork, n: Notice, cal: OfficeCalendar, proc: Procedure | None = None
) -> rules.NoticeFacts:
    assert n.id is not None
    addressees = uow.enforcement.find(NoticeAddressee, notice_id=n.id)
    served = rules.served_with_agent([(a.role, served_on(uow, a.id or 0)) for a in addressees])
    petitions = [
        p for p in uow.enforcement.find(Petition, notice_id=n.id) if p.withdrawn_on is None
    ]
    return rules.NoticeFacts(
        kind=n.kind,
        served=served,
        timely_petitions=sum(1 for p in petitions if p.timely),
        decision=n.decision,
        has_order=bool(orders_in_effect(uow, n.id)),
        calendar=cal,
        request_days=proc.request.days if proc else rules.deadlines.PETITION_DAYS,
        final_decision=next(
            (a.decision for a in appeals(uow, n.id) if a.decision is not None), None
        ),
    )


def not_before(field: str, day: date, earliest: date, what: str) -> None:
    if day < earliest:
        raise ValidationError(field, f"{short_date(day)} is before {what} ({short_date(earliest)})")
