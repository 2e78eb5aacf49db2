"""What the Code enforcement section and a case's window read besides the list and the timeline
(db/enforcement_queries.py): each case's violations, notices, addressees, service, petitions and
orders, in a few queries for many cases at once. Frozen rows; never the complainant's name or
contact (only the ids of the complaints, for the inspector's own read)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any

from sqlalchemy import BindParameter, Connection, Select, bindparam, func, select

from db import schema
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.enforcement.model import (
    AddresseeRole,
    Decision,
    NoticeKind,
    OrderKind,
    ServiceMethod,
    ViolationState,
)
from desk.enforcement.procedure import Procedure, ProcedureError, load_procedure, office_procedure
from desk.enforcement.rules import effective_service, housing_code_key, served_with_agent

c = schema.enforcement_case
pc = schema.parcel


@dataclass(frozen=True)
class ViolationFact:
    id: int
    section: str
    title: str
    unit: str
    room: str
    correct_by: date
    state: ViolationState
    closed_on: date | None

    @property
    def location(self) -> str:
        return ", ".join(x for x in (f"Unit {self.unit}" if self.unit else "", self.room) if x)


@dataclass(frozen=True)
class ServiceFact:
    id: int
    method: ServiceMethod
    served_on: date
    served_by: str
    returned_on: date | None
    returned_how: str = ""  # unclaimed or refused


@dataclass(frozen=True)
class AddresseeFact:
    id: int
    role: AddresseeRole
    name: str
    address: str
    services: tuple[ServiceFact, ...]

    @property
    def served_on(self) -> date | None:
        """The addressee's own service that governs: the earliest (140-3A(4): registered mail
        is service when sent; a letter returned unclaimed or refused does not undo it)."""
        return effective_service(s.served_on for s in self.services)


@dataclass(frozen=True)
class PetitionFact:
    addressee_id: int
    petitioner: str
    filed_on: date
    timely: bool
    id: int = 0


@dataclass(frozen=True)
class AppealFact:
    """An appeal from the decision on review (Wis. Stat. 68.10), its hearing and final
    determination (68.11, 68.12)."""

    id: int
    appellant: str
    filed_on: date
    timely: bool
    hearing_on: date | None
    hearing_notice_on: date | None
    decision: Decision | None
    decided_on: date | None


@dataclass(frozen=True)
class OrderFact:
    id: int
    kind: OrderKind
    effective_on: date
    revoked_on: date | None
    superseded_on: date | None
    set_aside_on: date | None = None  # a timely petition recorded after it was made (140-3B)

    @property
    def in_force(self) -> bool:
        return self.revoked_on is None and self.superseded_on is None and not self.set_aside_on


@dataclass(frozen=True)
class NoticeFact:
    id: int
    kind: NoticeKind
    issued_on: date
    violation_ids: tuple[int, ...]
    addressees: tuple[AddresseeFact, ...]
    petitions: tuple[PetitionFact, ...]
    orders: tuple[OrderFact, ...]
    hearing_on: date | None
    hearing_place: str
    decision: Decision | None
    decided_on: date | None
    appeals: tuple[AppealFact, ...] = ()  # Wis. Stat. 68.10 (a case under ch. 68)

    @property
    def final_decision(self) -> Decision | None:
        """68.12: the final determination on the appeal, if one is recorded."""
        return next((a.decision for a in self.appeals if a.decision is not None), None)

    @property
    def orders_made(self) -> tuple[OrderFact, ...]:
        """The orders, those set aside left out (140-3B: a timely petition recorded late)."""
        return tuple(o for o in self.orders if o.set_aside_on is None)

    def served(self) -> list[date | None]:
        """Each addressee's service, an owner served through the agent (140-3A(4))."""
        return served_with_agent([(a.role, a.served_on) for a in self.addressees])

    def served_on(self, addressee_id: int) -> date | None:
        return next(
            (
                s
                for a, s in zip(self.addressees, self.served(), strict=True)
                if a.id == addressee_id
            ),
            None,
        )


@dataclass(frozen=True)
class CaseFacts:
    id: int
    number: str
    parcel_id: int
    address: str
    opened_on: date
    housing_code: str
    summary: str
    closed_on: date | None
    closed_reason: str
    complaint_ids: tuple[int, ...]
    inspections: int
    violations: tuple[ViolationFact, ...]
    notices: tuple[NoticeFact, ...]
    calendar: OfficeCalendar = STATUTE  # the office's days for computing time (990.001(4))
    # The procedure of the code the case was opened under, with the office's own periods
    # (Hudson 140-3; Wis. Stat. ch. 68 for Ch. 512): desk/enforcement/procedure.py.
    procedure: Procedure = field(default_factory=lambda: load_procedure("hudson-140-3"))


def case_id_by_number(conn: Connection, municipality_id: int, number: str) -> int | None:
    return conn.execute(
        select(c.c.id).where(
            (c.c.municipality_id == municipality_id)
            & (func.upper(c.c.number) == number.strip().upper())
        )
    ).scalar_one_or_none()


@lru_cache(maxsize=1)
def _fact_statements() -> dict[str, Select[Any]]:
    """case_facts' statements, built once: each list of ids is one expanding parameter given
    at execution, so neither the statement nor its cache key is made again per page."""
    cp = schema.enforcement_complaint
    ins = schema.enforcement_inspection
    vi = schema.enforcement_violation
    n = schema.enforcement_notice
    ni = schema.enforcement_notice_item
    ad = schema.enforcement_addressee
    sv = schema.enforcement_service
    pe = schema.enforcement_petition
    od = schema.enforcement_order
    mu = schema.municipality
    cases: BindParameter[int] = bindparam("case_ids", expanding=True)
    notices: BindParameter[int] = bindparam("notice_ids", expanding=True)
    address = func.trim(pc.c.house_number + " " + pc.c.street)
    return {
        "complaints": select(cp.c.case_id, cp.c.id)
        .where(cp.c.case_id.in_(cases))
        .order_by(cp.c.id),
        "inspections": select(ins.c.case_id, func.count())
        .where(ins.c.case_id.in_(cases))
        .group_by(ins.c.case_id),
        "violations": select(vi).where(vi.c.case_id.in_(cases)).order_by(vi.c.id),
        "notices": select(n).where(n.c.case_id.in_(cases)).order_by(n.c.id),
        "items": select(ni.c.notice_id, ni.c.violation_id)
        .where(ni.c.notice_id.in_(notices))
        .order_by(ni.c.id),
        # A service or petition withdrawn was a mistake: it is not a fact of the case.
        "services": select(sv)
        .join(ad, ad.c.id == sv.c.addressee_id)
        .where(ad.c.notice_id.in_(notices) & sv.c.withdrawn_on.is_(None))
        .order_by(sv.c.id),
        "addressees": select(ad).where(ad.c.notice_id.in_(notices)).order_by(ad.c.id),
        "petitions": select(pe)
        .where(pe.c.notice_id.in_(notices) & pe.c.withdrawn_on.is_(None))
        .order_by(pe.c.id),
        "orders": select(od).where(od.c.notice_id.in_(notices)).order_by(od.c.id),
        "appeals": select(schema.enforcement_appeal)
        .where(schema.enforcement_appeal.c.notice_id.in_(notices))
        .order_by(schema.enforcement_appeal.c.id),
        "cases": select(c, address.label("address"), pc.c.unit, mu.c.settings.label("settings"))
        .join(pc, pc.c.id == c.c.parcel_id)
        .join(mu, mu.c.id == c.c.municipality_id)
        .where(c.c.id.in_(cases)),
    }


def case_facts(conn: Connection, case_ids: Iterable[int]) -> dict[int, CaseFacts]:
    """The facts of each case, by id (a handful of queries, whatever the number of cases)."""
    ids = sorted(set(case_ids))
    if not ids:
        return {}
    q = _fact_statements()
    by_case = {"case_ids": ids}
    complaints: dict[int, list[int]] = defaultdict(list)
    for r in conn.execute(q["complaints"], by_case).all():
        complaints[r.case_id].append(r.id)
    inspections: dict[int, int] = {
        case_id: int(count) for case_id, count in conn.execute(q["inspections"], by_case).all()
    }
    violations: dict[int, list[ViolationFact]] = defaultdict(list)
    for r in conn.execute(q["violations"], by_case).all():
        violations[r.case_id].append(
            ViolationFact(
                r.id, r.section, r.title, r.unit, r.room, r.correct_by, r.state, r.closed_on
            )
        )
    notice_rows = conn.execute(q["notices"], by_case).all()
    by_notice = {"notice_ids": [r.id for r in notice_rows]}
    items: dict[int, list[int]] = defaultdict(list)
    for r in conn.execute(q["items"], by_notice).all():
        items[r.notice_id].append(r.violation_id)
    services: dict[int, list[ServiceFact]] = defaultdict(list)
    for r in conn.execute(q["services"], by_notice).all():
        services[r.addressee_id].append(
            ServiceFact(r.id, r.method, r.served_on, r.served_by, r.returned_on, r.returned_how)
        )
    addressees: dict[int, list[AddresseeFact]] = defaultdict(list)
    for r in conn.execute(q["addressees"], by_notice).all():
        addressees[r.notice_id].append(
            AddresseeFact(r.id, r.role, r.name, r.address, tuple(services[r.id]))
        )
    petitions: dict[int, list[PetitionFact]] = defaultdict(list)
    for r in conn.execute(q["petitions"], by_notice).all():
        petitions[r.notice_id].append(
            PetitionFact(r.addressee_id, r.petitioner, r.filed_on, r.timely, r.id)
        )
    orders: dict[int, list[OrderFact]] = defaultdict(list)
    for r in conn.execute(q["orders"], by_notice).all():
        orders[r.notice_id].append(
            OrderFact(r.id, r.kind, r.effective_on, r.revoked_on, r.superseded_on, r.set_aside_on)
        )
    appeals: dict[int, list[AppealFact]] = defaultdict(list)
    for r in conn.execute(q["appeals"], by_notice).all():
        appeals[r.notice_id].append(
            AppealFact(
                r.id,
                r.appellant,
                r.filed_on,
                r.timely,
                r.hearing_on,
                r.hearing_notice_on,
                r.decision,
                r.decided_on,
            )
        )
    notices: dict[int, list[NoticeFact]] = defaultdict(list)
    for r in notice_rows:
        notices[r.case_id].append(
            NoticeFact(
                r.id,
                r.kind,
                r.issued_on,
                tuple(items[r.id]),
                tuple(addressees[r.id]),
                tuple(petitions[r.id]),
                tuple(orders[r.id]),
                r.hearing_on,
                r.hearing_place,
                r.decision,
                r.decided_on,
                tuple(appeals[r.id]),
            )
        )
    out: dict[int, CaseFacts] = {}
    for r in conn.execute(q["cases"], by_case).all():
        out[r.id] = CaseFacts(
            id=r.id,
            number=r.number,
            parcel_id=r.parcel_id,
            address=r.address + (f", Unit {r.unit}" if r.unit else ""),
            opened_on=r.opened_on,
            housing_code=r.housing_code,
            summary=r.summary,
            closed_on=r.closed_on,
            closed_reason=r.closed_reason.value if r.closed_reason else "",
            complaint_ids=tuple(complaints[r.id]),
            inspections=int(inspections.get(r.id, 0)),
            violations=tuple(violations[r.id]),
            notices=tuple(notices[r.id]),
            calendar=OfficeCalendar.of(r.settings if isinstance(r.settings, dict) else None),
            procedure=case_procedure(r.housing_code, r.settings),
        )
    return out


def case_procedure(housing_code: str, settings: Any) -> Procedure:
    """The procedure of a case opened under `housing_code`, with the office's own periods while
    the municipality enforces that code; the shipped periods if the settings cannot be read (the
    Municipality screen refuses such settings; a read never fails on them)."""
    own = settings if isinstance(settings, dict) else None
    try:
        return office_procedure(housing_code, housing_code_key(own), own)
    except ProcedureError:
        return office_procedure(housing_code, None, None)


def municipality_housing_code(conn: Connection, municipality_id: int) -> str:
    """The housing code the municipality enforces now ("" for none): what a new case is
    opened under, and how the section's texts cite the procedure."""
    m = schema.municipality
    settings = conn.execute(
        select(m.c.settings).where(m.c.id == municipality_id)
    ).scalar_one_or_none()
    return housing_code_key(settings if isinstance(settings, dict) else None)


def housing_code_days(conn: Connection, municipality_id: int) -> dict[str, int]:
    """The office's own days to correct, by section (municipality settings), or none."""
    m = schema.municipality
    settings = conn.execute(
        select(m.c.settings).where(m.c.id == municipality_id)
    ).scalar_one_or_none()
    days = (settings or {}).get("housing_code_days")
    return dict(days) if isinstance(days, dict) else {}


def office_calendar(conn: Connection, municipality_id: int) -> OfficeCalendar:
    """The office's days for computing time (Wis. Stat. 990.001(4)): its Saturday hours."""
    m = schema.municipality
    settings = conn.execute(
        select(m.c.settings).where(m.c.id == municipality_id)
    ).scalar_one_or_none()
    return OfficeCalendar.of(settings if isinstance(settings, dict) else None)
