"""Code enforcement cases for a demo database (Hudson ch. 140), entered through the services.

`build_enforcement_demo(database, spec)` builds the demo of a municipality that has code
enforcement only (Hudson: its ordinance on file is the housing code): the demo users, the
municipality, parcels on its streets (each through `permits.add_parcel`), and cases in every
state of 140-3, each step recorded by the service that the office would use on its day (a fixed
clock walks through time), so numbering (CE-YYYY-NNNN), the audit trail and the rules hold:

- complaint only; inspected with violations (or opened on the inspector's observation, 140-2);
- notice issued, not yet served (140-3A); served, petition window open (140-3B);
- petition filed, hearing scheduled (140-3B); the Council sustained, modified or withdrew the
  notice (140-3C);
- a notice that became an order, no petition (140-3D, by `sweep_notices`); an order past its
  correction date with re-inspection, citation and abatement by the city (its cost on the
  special-charge list, Wis. s. 66.0627); an emergency order (140-3H);
- registered mail returned unclaimed: to be served again, or served again by posting
  (140-3A(4));
- closed: corrected, unfounded, withdrawn.

Complainants have names and contacts (confidential: no list shows them). Rooming-house licences
in every state of 140-10 are made by db/demo_licences.py on parcels no case uses. Deterministic
for a seed and a `today`.
"""

from __future__ import annotations

import contextlib
import heapq
import random
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from db import schema
from db.database import Database
from db.demo_licences import DEMO_FEE, licence_scenarios
from desk import demo_data as dd
from desk.clock import FixedClock
from desk.domain.model import Actor, Parcel
from desk.enforcement.model import (
    AddresseeRole,
    Channel,
    ClosureReason,
    Decision,
    EscalationKind,
    ServiceMethod,
)
from desk.services import permits
from desk.services.enforcement import cases, complaints, inspections, notices, orders, petitions
from desk.services.enforcement.sweep import sweep_notices
from desk.services.users import actor_for_username

if TYPE_CHECKING:
    from db.demo import DemoSpec

CASES_PER = 30  # one case per this many permits a year would bring (--per-year 400: 40 cases)
HEARING_PLACE = "Council Chambers, City Hall, 505 Third St"
SERVED_BY = "Dale Kowalski, Building Inspector"

# What a complaint says, and the items of ch. 140 the inspector finds for it: (section, room).
PROBLEMS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Rear porch stairs broken and the railing is loose", (("140-6C", "rear porch"),)),
    ("No heat in the upstairs apartment", (("140-5D", "whole unit"),)),
    ("Mice and cockroaches throughout the building", (("140-9E", "kitchen"),)),
    ("Garbage and rubbish piled behind the building for weeks", (("140-9C", "rear yard"),)),
    ("Roof leaking into the bedroom ceiling", (("140-6A", "bedroom"),)),
    ("No hot water for over a week", (("140-8A", "basement"),)),
    ("Screens missing, flies and mosquitoes getting in", (("140-8C", "living room"),)),
    ("Bathroom floor rotted around the toilet", (("140-6E", "bathroom"), ("140-6D", "bathroom"))),
    ("Kitchen outlets dead, extension cords everywhere", (("140-8B", "kitchen"),)),
    ("Basement window broken and boarded, no light", (("140-5F", "basement"),)),
)
# Items with 30 days to correct, for cases that must not be past due yet.
SLOW = (0, 4, 6, 7, 8, 9)
RUBBISH = 3  # abated by the city when the order is not complied with


@dataclass(frozen=True)
class _Owner:
    name: str
    address: str
    agent: str = ""  # a property manager for an absentee owner
    agent_address: str = ""
    tenant: str = ""


@dataclass
class _Made:
    states: Counter[str] = field(default_factory=Counter)
    charges: Decimal = Decimal(0)
    licences: Counter[str] = field(default_factory=Counter)  # rooming houses (140-10)


Steps = Generator[date, None, None]


class _Office:
    """The services, called as the clerk and the inspector on the clock's day."""

    def __init__(self, database: Database, mid: int, rng: random.Random, today: date) -> None:
        self.db = database
        self.mid = mid
        self.rng = rng
        self.today = today
        self.clock = FixedClock(today)
        uow = database.uow()
        self.clerk: Actor = actor_for_username(uow, "clerk")
        self.inspector: Actor = actor_for_username(uow, "inspector")
        self.made = _Made()
        self.taken_names: set[str] = set()
        self.citations = 0

    @property
    def day(self) -> date:
        return self.clock.today()

    def person(self) -> str:
        while True:
            name = dd.person_name(self.rng, joint_share=0.0).display
            if name not in self.taken_names:
                self.taken_names.add(name)
                return name

    def complaint(self, parcel_id: int, problem: int, channel: Channel | None = None) -> int:
        channel = channel or self.rng.choice(list(Channel))
        name = self.person()
        contact = dd.phone(self.rng, "715")
        taken = complaints.take_complaint(
            self.db.uow(),
            self.clock,
            self.clerk,
            self.mid,
            parcel_id,
            channel,
            PROBLEMS[problem][0],
            complainant_name=name,
            complainant_contact=contact,
        )
        return taken.case.case_id

    def observe(self, parcel_id: int, problem: int) -> int:
        opened = cases.open_case(
            self.db.uow(),
            self.clock,
            self.inspector,
            self.mid,
            parcel_id,
            f"Seen from the street: {PROBLEMS[problem][0].lower()}",
        )
        return opened.case_id

    def inspect(self, case_id: int, problem: int | None) -> tuple[int, ...]:
        found = (
            [
                inspections.FoundViolation(section, unit="1" if i == 0 else "", room=room)
                for i, (section, room) in enumerate(PROBLEMS[problem][1])
            ]
            if problem is not None
            else []
        )
        done = inspections.record_inspection(
            self.db.uow(),
            self.clock,
            self.inspector,
            case_id,
            self.day,
            found=found,
            notes="" if found else "Nothing found in violation of ch. 140",
        )
        return done.violation_ids

    def recheck(self, case_id: int, violations: tuple[int, ...], corrected: bool) -> None:
        inspections.record_inspection(
            self.db.uow(),
            self.clock,
            self.inspector,
            case_id,
            self.day,
            checks={v: corrected for v in violations},
        )

    def notice(
        self,
        case_id: int,
        violations: tuple[int, ...],
        owner: _Owner,
        days: int,
        *,
        emergency: bool = False,
    ) -> tuple[int, ...]:
        """The notice (140-3A) or emergency order (140-3H); returns its addressees' ids."""
        to = [notices.Addressee(AddresseeRole.OWNER, owner.name, owner.address)]
        if owner.agent:
            to.append(notices.Addressee(AddresseeRole.AGENT, owner.agent, owner.agent_address))
        if owner.tenant:
            to.append(notices.Addressee(AddresseeRole.OCCUPANT, owner.tenant, owner.address))
        by = self.day + timedelta(days=days)
        issued = notices.issue_notice(
            self.db.uow(),
            self.clock,
            self.inspector,
            case_id,
            to,
            [
                notices.NoticeLine(v, "Repair or replace to a safe and sanitary condition", by)
                for v in violations
            ],
            "The dwelling does not comply with the minimum standards of ch. 140 found on "
            f"inspection{': an immediate danger to the occupants' if emergency else ''}.",
            emergency=emergency,
        )
        return issued.addressee_ids

    def serve(self, addressee_id: int, method: ServiceMethod = ServiceMethod.PERSONAL) -> int:
        return notices.record_service(
            self.db.uow(), self.clock, self.inspector, addressee_id, method, self.day, SERVED_BY
        ).service_id

    def notice_of(self, addressee_id: int) -> int:
        with self.db.read() as conn:
            return int(
                conn.execute(
                    select(schema.enforcement_addressee.c.notice_id).where(
                        schema.enforcement_addressee.c.id == addressee_id
                    )
                ).scalar_one()
            )

    def order_of(self, case_id: int) -> int:
        od = schema.enforcement_order
        with self.db.read() as conn:
            return int(
                conn.execute(
                    select(od.c.id)
                    .where(
                        (od.c.case_id == case_id)
                        & od.c.revoked_on.is_(None)
                        & od.c.superseded_on.is_(None)
                    )
                    .order_by(od.c.id.desc())
                    .limit(1)
                ).scalar_one()
            )

    def petition_and_hearing(self, addressee: int, petitioner: str) -> Steps:
        """A timely petition (140-3B) two days on, the hearing's notice two days after."""
        yield self.day + timedelta(days=2)
        petitions.record_petition(
            self.db.uow(),
            self.clock,
            self.clerk,
            addressee,
            self.day,
            petitioner,
            "The work is under way; more time is needed to hire a contractor",
        )
        yield self.day + timedelta(days=2)
        notice_id = self.notice_of(addressee)
        hearing_on = self.day + timedelta(days=self.rng.randint(10, 16))
        petitions.schedule_hearing(
            self.db.uow(),
            self.clock,
            self.inspector,
            notice_id,
            hearing_on,
            HEARING_PLACE,
            self.day,
        )

    def decide(self, addressee: int, decision: Decision, violations: tuple[int, ...]) -> None:
        notice_id = self.notice_of(addressee)
        hearing = schema.enforcement_notice
        with self.db.read() as conn:
            on = conn.execute(
                select(hearing.c.hearing_on).where(hearing.c.id == notice_id)
            ).scalar_one()
        assert on == self.day
        findings = {
            Decision.SUSTAIN: "The violations were found as stated; the notice is sustained.",
            Decision.MODIFY: "The violations were found as stated; more time is allowed.",
            Decision.WITHDRAW: "The owner showed the work was done before the notice.",
        }[decision]
        new_dates = (
            {v: self.day + timedelta(days=45) for v in violations}
            if decision is Decision.MODIFY
            else None
        )
        petitions.record_council_decision(
            self.db.uow(),
            self.clock,
            self.inspector,
            notice_id,
            decision,
            self.day,
            findings,
            new_dates,
        )

    def sweep(self) -> None:
        sweep_notices(self.db.uow(), self.clock, self.mid)

    def escalate(
        self,
        case_id: int,
        kind: EscalationKind,
        notes: str,
        *,
        reinspect_on: date | None = None,
        court_reference: str = "",
        cost: Decimal | None = None,
    ) -> None:
        orders.record_escalation(
            self.db.uow(),
            self.clock,
            self.inspector,
            orders.EscalationInput(
                order_id=self.order_of(case_id),
                kind=kind,
                decided_on=self.day,
                notes=notes,
                reinspect_on=reinspect_on,
                court_reference=court_reference,
                cost=cost,
            ),
        )

    def close(self, case_id: int, reason: ClosureReason, note: str = "") -> None:
        cases.close_case(self.db.uow(), self.clock, self.inspector, case_id, reason, note)


# --- the scenarios: each yields the day of its next step, then takes it ---------------------


def _complaint_only(o: _Office, parcel: int, owner: _Owner, start: date) -> Steps:
    yield start
    o.complaint(parcel, o.rng.randrange(len(PROBLEMS)))
    o.made.states["complaint only"] += 1


def _inspected(o: _Office, parcel: int, owner: _Owner, start: date, observed: bool) -> Steps:
    problem = o.rng.choice(SLOW)
    yield start
    case = o.observe(parcel, problem) if observed else o.complaint(parcel, problem)
    yield start + timedelta(days=3)
    o.inspect(case, problem)
    o.made.states["inspected, violations found"] += 1


def _not_served(o: _Office, parcel: int, owner: _Owner, start: date) -> Steps:
    problem = o.rng.choice(SLOW)
    yield start
    case = o.complaint(parcel, problem)
    yield start + timedelta(days=4)
    found = o.inspect(case, problem)
    yield start + timedelta(days=4 + o.rng.randint(14, 19))
    o.notice(case, found, owner, 30)
    o.made.states["notice issued, not served"] += 1


def _window_open(o: _Office, parcel: int, owner: _Owner, start: date) -> Steps:
    problem = o.rng.choice(SLOW)
    yield start
    case = o.complaint(parcel, problem)
    yield start + timedelta(days=4)
    found = o.inspect(case, problem)
    yield start + timedelta(days=16)
    to = o.notice(case, found, owner, 30)
    yield o.today - timedelta(days=o.rng.randint(1, 8))
    for a in to:
        o.serve(a)
    o.made.states["served, petition window open"] += 1


def _council(
    o: _Office, parcel: int, owner: _Owner, start: date, decision: Decision | None
) -> Steps:
    """A petition heard by the Council (None: the hearing is still to come). After a sustained
    or modified notice the work is done and the case closed when the register reaches it."""
    problem = o.rng.choice(SLOW)
    yield start
    case = o.complaint(parcel, problem)
    yield start + timedelta(days=2)
    o.complaint(parcel, problem, Channel.PHONE)  # a second neighbour: joins the open case
    yield start + timedelta(days=3)
    found = o.inspect(case, problem)
    yield start + timedelta(days=6)
    to = o.notice(case, found, owner, 60)
    yield start + timedelta(days=7)
    for a in to:
        o.serve(a)
    yield from o.petition_and_hearing(to[0], owner.name)
    if decision is None:
        o.made.states["petition filed, hearing scheduled"] += 1
        return
    notice_id = o.notice_of(to[0])
    with o.db.read() as conn:
        n = schema.enforcement_notice
        hearing_on = conn.execute(select(n.c.hearing_on).where(n.c.id == notice_id)).scalar_one()
    yield hearing_on
    o.decide(to[0], decision, found)
    o.made.states[f"Council: {decision.value}"] += 1
    if decision is Decision.WITHDRAW:
        yield hearing_on + timedelta(days=3)
        o.close(case, ClosureReason.WITHDRAWN, "The Common Council withdrew the notice (140-3C)")
        o.made.states["closed withdrawn"] += 1
        return
    done = hearing_on + timedelta(days=60 if decision is Decision.SUSTAIN else 46)
    if done <= o.today:
        yield done
        o.recheck(case, found, True)
        o.close(case, ClosureReason.CORRECTED)
        o.made.states["closed corrected"] += 1


def _automatic_order(o: _Office, parcel: int, owner: _Owner, start: date) -> Steps:
    """140-3D: served, no petition: the sweep makes it an order; corrected when time allows."""
    problem = o.rng.choice(SLOW)
    yield start
    case = o.complaint(parcel, problem)
    yield start + timedelta(days=2)
    found = o.inspect(case, problem)
    yield start + timedelta(days=4)
    to = o.notice(case, found, owner, 45)
    yield start + timedelta(days=5)
    for a in to:
        o.serve(a)
    # The day after the last window closed, at the latest: a last day on a weekend or holiday
    # moves (Wis. Stat. 990.001(4)), by 4 days at most.
    yield start + timedelta(days=20)
    o.sweep()
    o.made.states["notice became an order (140-3D)"] += 1
    done = start + timedelta(days=50)
    if done <= o.today:
        yield done
        o.recheck(case, found, True)
        o.close(case, ClosureReason.CORRECTED)
        o.made.states["closed corrected"] += 1


def _past_due(o: _Office, parcel: int, owner: _Owner, start: date, *, close: bool) -> Steps:
    """An order not complied with: re-inspection, a citation, then abatement by the city."""
    yield start
    case = o.complaint(parcel, RUBBISH)
    yield start + timedelta(days=2)
    found = o.inspect(case, RUBBISH)
    yield start + timedelta(days=4)
    to = o.notice(case, found, owner, 21)  # after any order day: past due under the order
    yield start + timedelta(days=5)
    o.serve(to[0], ServiceMethod.REGISTERED_MAIL)
    for a in to[1:]:
        o.serve(a)
    yield start + timedelta(days=20)  # every window closed, extended or not (990.001(4))
    o.sweep()
    yield start + timedelta(days=26)
    o.recheck(case, found, False)
    o.escalate(
        case,
        EscalationKind.REINSPECTION,
        "Rubbish still piled behind the building",
        reinspect_on=start + timedelta(days=35),
    )
    yield start + timedelta(days=35)
    o.recheck(case, found, False)
    yield start + timedelta(days=36)
    o.citations += 1
    o.escalate(
        case,
        EscalationKind.CITATION,
        "Referred to the Hudson Municipal Court",
        court_reference=f"HMC {o.day.year}-{o.citations:04d}",
    )
    yield start + timedelta(days=60)
    cost = Decimal(o.rng.randrange(350, 2400)) + Decimal("0.00")
    o.escalate(
        case,
        EscalationKind.ABATEMENT,
        "City contractor removed the rubbish and debris",
        cost=cost,
    )
    o.made.charges += cost
    o.made.states["order past due, escalated"] += 1
    if close and start + timedelta(days=62) <= o.today:
        yield start + timedelta(days=62)
        o.recheck(case, found, True)
        o.close(case, ClosureReason.CORRECTED)
        o.made.states["closed corrected"] += 1


def _emergency(o: _Office, parcel: int, owner: _Owner, start: date) -> Steps:
    problem = 1  # no heat: 140-5D
    yield start
    case = o.complaint(parcel, problem, Channel.PHONE)
    found = o.inspect(case, problem)
    to = o.notice(case, found, owner, 1, emergency=True)
    for a in to:
        o.serve(a)
    o.made.states["emergency order (140-3H)"] += 1


def _returned(o: _Office, parcel: int, owner: _Owner, start: date, *, serve_again: bool) -> Steps:
    problem = o.rng.choice(SLOW)
    yield start
    case = o.complaint(parcel, problem, Channel.LETTER)
    yield start + timedelta(days=3)
    found = o.inspect(case, problem)
    yield start + timedelta(days=7)
    to = o.notice(case, found, owner, 45)
    yield start + timedelta(days=8)
    mailed = o.serve(to[0], ServiceMethod.REGISTERED_MAIL)
    for a in to[1:]:
        o.serve(a)
    yield start + timedelta(days=21)
    notices.record_returned_unclaimed(o.db.uow(), o.clock, o.inspector, mailed, o.day)
    if not serve_again:
        o.made.states["registered mail returned, to serve again"] += 1
        return
    yield start + timedelta(days=23)
    o.serve(to[0], ServiceMethod.POSTING)
    o.made.states["returned, served again by posting"] += 1


def _closed(o: _Office, parcel: int, owner: _Owner, start: date, reason: ClosureReason) -> Steps:
    problem = o.rng.choice(SLOW)
    yield start
    case = o.complaint(parcel, problem)
    if reason is ClosureReason.WITHDRAWN:
        yield start + timedelta(days=o.rng.randint(1, 6))
        o.close(case, reason, "The complainant withdrew the complaint; the tenant moved out")
    elif reason is ClosureReason.UNFOUNDED:
        yield start + timedelta(days=4)
        o.inspect(case, None)
        o.close(case, reason)
    else:
        yield start + timedelta(days=3)
        found = o.inspect(case, problem)
        yield start + timedelta(days=33)
        o.recheck(case, found, True)
        o.close(case, reason)
    o.made.states[f"closed {reason.value}"] += 1


Scenario = Callable[[_Office, int, _Owner, date], Steps]


def _scenarios(
    today: date, first: date, rng: random.Random, count: int
) -> list[tuple[Scenario, date]]:
    """Each state once near `today` (or in the past for the closed ones), then older cases,
    mostly closed, spread over the register's years."""

    def ago(lo: int, hi: int) -> date:
        return today - timedelta(days=rng.randint(lo, hi))

    def old() -> date:
        span = max(0, (today - timedelta(days=150) - first).days)
        return first + timedelta(days=rng.randint(0, span))

    def council(d: Decision | None) -> Scenario:
        return lambda o, p, w, s: _council(o, p, w, s, d)

    def closed(r: ClosureReason) -> Scenario:
        return lambda o, p, w, s: _closed(o, p, w, s, r)

    plan: list[tuple[Scenario, date]] = [
        (_complaint_only, ago(0, 5)),
        (lambda o, p, w, s: _inspected(o, p, w, s, False), ago(8, 20)),
        (lambda o, p, w, s: _inspected(o, p, w, s, True), ago(8, 20)),
        (_not_served, ago(26, 28)),
        (_window_open, ago(24, 28)),
        (council(None), ago(20, 24)),
        (council(Decision.SUSTAIN), ago(40, 44)),
        (council(Decision.MODIFY), old()),
        (council(Decision.WITHDRAW), old()),
        (_automatic_order, ago(28, 32)),
        (lambda o, p, w, s: _past_due(o, p, w, s, close=False), ago(100, 120)),
        (_emergency, ago(2, 15)),
        (lambda o, p, w, s: _returned(o, p, w, s, serve_again=False), ago(30, 40)),
        (lambda o, p, w, s: _returned(o, p, w, s, serve_again=True), ago(40, 50)),
        (closed(ClosureReason.CORRECTED), old()),
        (closed(ClosureReason.UNFOUNDED), ago(10, 20)),
        (closed(ClosureReason.WITHDRAWN), old()),
    ]
    later: list[tuple[Scenario, float]] = [
        (closed(ClosureReason.CORRECTED), 0.3),
        (closed(ClosureReason.UNFOUNDED), 0.15),
        (closed(ClosureReason.WITHDRAWN), 0.1),
        (_automatic_order, 0.2),
        (council(Decision.SUSTAIN), 0.1),
        (council(Decision.MODIFY), 0.05),
        (council(Decision.WITHDRAW), 0.05),
        (lambda o, p, w, s: _past_due(o, p, w, s, close=True), 0.05),
    ]
    while len(plan) < count:
        (scenario,) = rng.choices([s for s, _ in later], [w for _, w in later])
        plan.append((scenario, old()))
    return plan


# --- the build ------------------------------------------------------------------------------


def _parcels(o: _Office, town: str, count: int) -> list[tuple[int, _Owner]]:
    """Parcels on the municipality's streets, through the service, with whom a notice names."""
    streets = dd.streets_for("hudson")
    slots = [(si, n) for si, s in enumerate(streets) for n in range(s.low + si % 2 * 2, s.high, 4)]
    picked = sorted(o.rng.sample(slots, min(count, len(slots))))
    admin = actor_for_username(o.db.uow(), "admin")
    out = []
    for ordinal, (si, number) in enumerate(picked):
        s = streets[si]
        district = s.zoning
        lo, hi = dd.LOT_AREA[district]
        pid = permits.add_parcel(
            o.db.uow(),
            o.clock,
            admin,
            Parcel(
                municipality_id=o.mid,
                pin=dd.pin_for(si, ordinal),
                house_number=str(number),
                street=s.name,
                city=town,
                zip=s.zip,
                legal_description=dd.legal_description(o.rng, s, number, district),
                zoning_district=district,
                lot_area_sqft=o.rng.randint(lo, hi) // 10 * 10,
            ),
        )
        here = f"{number} {s.name}, {town} WI {s.zip}"
        r = o.rng.random()
        if r < 0.25:  # an absentee landlord with a local manager
            city, state, zip_code = o.rng.choice(dd.AWAY_ADDRESSES)
            owner = _Owner(
                f"{dd.surname(o.rng)} Rentals LLC",
                f"{o.rng.randint(100, 9999)} {o.rng.choice(dd.BUSINESS_STREETS)}, "
                f"{city} {state} {zip_code}",
                agent="St. Croix Property Management",
                agent_address=f"1410 Coulee Rd, {town} WI 54016",
                tenant=o.person(),
            )
        elif r < 0.5:
            owner = _Owner(o.person(), f"{o.rng.randint(100, 2400)} Laurel Ave, {town} WI 54016")
            owner = _Owner(owner.name, owner.address, tenant=o.person())
        else:
            owner = _Owner(o.person(), here)
        out.append((pid, owner))
    return out


def _walk(o: _Office, steps: list[Steps]) -> None:
    """Run the scenarios' steps in date order, the clock set to each step's day."""
    queue: list[tuple[date, int, Steps]] = []
    for i, s in enumerate(steps):
        heapq.heappush(queue, (next(s), i, s))
    while queue:
        day, i, s = heapq.heappop(queue)
        if day > o.today:
            raise ValueError(f"a demo step falls after today ({day})")
        o.clock.set(day)
        with contextlib.suppress(StopIteration):
            heapq.heappush(queue, (s.send(None), i, s))


def _schedule_visits(o: _Office, most: int = 7) -> None:
    """Case inspections on the inspector's day (Hudson 140-2, 140-3A(3)): the first inspection
    of the freshest complaints today, re-inspections on the open violations' earliest
    correction dates in the coming week (today when that date has passed)."""
    from desk.services.enforcement import visits

    c, vi = schema.enforcement_case, schema.enforcement_violation
    ins = schema.enforcement_inspection
    licensed = select(schema.rooming_licence.c.case_id).where(
        schema.rooming_licence.c.case_id.is_not(None)
    )
    with o.db.read() as conn:
        open_cases = (
            conn.execute(
                select(c.c.id).where(
                    (c.c.municipality_id == o.mid)
                    & c.c.closed_on.is_(None)
                    & c.c.id.not_in(licensed)  # rooming houses: their licence's own steps
                )
            )
            .scalars()
            .all()
        )
        inspected = set(conn.execute(select(ins.c.case_id)).scalars())
        due = dict(
            conn.execute(
                select(vi.c.case_id, func.min(vi.c.correct_by))
                .where(vi.c.state == "open")
                .group_by(vi.c.case_id)
            ).all()
        )
        ids = sorted(open_cases)
    fresh = [(o.today, i, "09:00") for i in ids if i not in inspected][-2:]
    again = sorted((max(d, o.today), i) for i, d in due.items() if i in ids)
    past = [i for d, i in again if d == o.today]  # past their date: today and the next day
    tomorrow = dd.next_office_day(o.today + timedelta(days=1))
    coming = [
        (dd.next_office_day(d), i, "")
        for d, i in again
        if o.today < d <= o.today + timedelta(days=21)
    ]
    plan = (
        fresh
        + [(o.today, i, "") for i in past[:2]]
        + [(tomorrow, i, "10:00") for i in past[2:4]]
        + coming[:2]
    )
    for day, case_id, time in plan[:most]:
        visits.schedule_visit(
            o.db.uow(),
            o.clock,
            o.clerk,
            case_id,
            day,
            inspector_id=o.inspector.user_id,
            time=time,
        )


def demo_enforcement(database: Database, seed: int, first: date, today: date, count: int) -> _Made:
    """Add `count` cases opened from `first` to `today` to the demo register (its municipality
    and users made already)."""
    m = schema.municipality
    with database.read() as conn:
        mid, town = conn.execute(select(m.c.id, m.c.settings).order_by(m.c.id)).one()
    rng = random.Random(seed * 7919 + 140)
    o = _Office(database, int(mid), rng, today)
    city = str((town or {}).get("city", "Hudson"))
    o.clock.set(first)
    parcels = _parcels(o, city, max(60, count * 3))
    plan = _scenarios(today, first, rng, count)
    picks = rng.sample(range(len(parcels)), len(plan))
    used = set(picks)
    free = [(pid, w.address) for i, (pid, w) in enumerate(parcels) if i not in used]
    # rooming houses walked with the cases: licence and case numbers follow their days
    licences, o.made.licences = licence_scenarios(
        database.uow,
        o.mid,
        free,
        today,
        seed,
        o.person,
        actor_for_username(database.uow(), "admin"),
        o.clerk,
        o.inspector,
    )
    _walk(
        o,
        [
            scenario(o, parcels[p][0], parcels[p][1], max(start, first))
            for (scenario, start), p in zip(plan, picks, strict=True)
        ]
        + licences,
    )
    o.clock.set(today)
    o.sweep()  # as the app does on start (140-3D)
    _schedule_visits(o)  # the inspector's day shows case stops (Day page, route sheet)
    return o.made


def build_enforcement_demo(database: Database, spec: DemoSpec) -> str:
    """The demo of a municipality with code enforcement only: users, parcels and cases."""
    from db.demo import DEMO_PASSWORD, DEMO_USERS, open_demo_office

    today = spec.today or date.today()
    start = today - timedelta(days=365 * spec.years)
    clock = FixedClock(datetime(start.year, start.month, start.day, 14, tzinfo=UTC))
    _admin, _users, _mid, town = open_demo_office(database, spec, clock)
    count = max(17, round(spec.per_year * spec.years / CASES_PER))
    made = demo_enforcement(database, spec.seed, start + timedelta(days=1), today, count)
    states = "; ".join(f"{k}: {v}" for k, v in sorted(made.states.items()))
    licences = "; ".join(f"{k}: {v}" for k, v in sorted(made.licences.items()))
    logins = ", ".join(u for u, _, _ in DEMO_USERS)
    return (
        f"Demo database for {town} at {database.where}: code enforcement only (Hudson ch. 140; "
        f"no permit kinds): {count} cases ({states}); ${made.charges:,.2f} of abatement costs "
        f"on the special-charge list; {sum(made.licences.values())} rooming-house licences "
        f"({licences}; the Council sets the licence fee: ${DEMO_FEE} here is demo data). "
        f"Sign in as {logins}; every "
        f"password is '{DEMO_PASSWORD}'."
    )
