"""Rooming house licences for the Hudson demo (Hudson 140-10), entered through the services on
their days (a fixed clock set to each step), one in each state of the register: applications
pending (one short of 140-10E/G), issued and in force, in force expiring within 60 days, expired,
warned with a correction date ahead (140-10C), suspended within the 10-day window, revoked
automatically (140-10D) or by the Council after a petition (140-3E), denied (140-10B), and ended
by a change of owner (140-10A). The Council's licence fee is demo data (DEMO_FEE).

Each licence is a scenario yielding the day of its next step: db/demo_enforcement.py walks them
in date order with its cases, so licences are numbered (RH-YYYY-NNNN) in the order of their issue
days and the Building Inspector's cases (CE-YYYY-NNNN) in the order of their opening days. On
parcels no case uses; deterministic for a seed and `today`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Generator
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from desk import demo_data as dd
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.enforcement.licences import HearingDecision
from desk.enforcement.model import ClosureReason
from desk.services import municipality
from desk.services.enforcement import cases, inspections
from desk.services.enforcement import licences as svc
from desk.services.uow import UnitOfWork

DEMO_FEE = Decimal("50.00")  # demo data: the Council sets the real fee (none shipped)
ROOMS = (
    svc.RoomInput("Room 1", Decimal(96), True, 1),
    svc.RoomInput("Room 2", Decimal(130), True, 2),
    svc.RoomInput("Room 3", Decimal(88), True, 1),
    svc.RoomInput("Room 4", Decimal(120), True, 2),
    svc.RoomInput("Kitchen", Decimal(150), False),
)
SMALL_ROOM = svc.RoomInput("Room 5", Decimal(60), True, 2)  # 140-10G: two sleepers need 100

Steps = Generator[date, None, None]
Step = Generator[date, None, int]  # a licence's steps, returning its id (or a case's)
CLEAN = "Rooming house inspected: in compliance with ch. 140"


class _Licences:
    def __init__(
        self,
        uow: Callable[[], UnitOfWork],
        clock: FixedClock,
        mid: int,
        clerk: Actor,
        inspector: Actor,
        rng: random.Random,
        person: Callable[[], str],
    ) -> None:
        self.uow, self.clock, self.mid = uow, clock, mid
        self.clerk, self.inspector, self.rng, self.person = clerk, inspector, rng, person
        self.receipts = 0
        self.states: Counter[str] = Counter()

    def on(self, d: date) -> Generator[date, None, None]:
        """Wait for the walk to reach `d`, then set the clock to that afternoon."""
        yield d
        self.clock.set(datetime.combine(d, time(15), tzinfo=UTC))

    def apply(self, parcel_id: int, address: str, d: date, *, short: bool = False) -> Step:
        yield from self.on(d)
        persons = 11 if short else self.rng.randint(5, 8)
        return svc.record_application(
            self.uow(),
            self.clock,
            self.clerk,
            svc.ApplicationInput(
                municipality_id=self.mid,
                parcel_id=parcel_id,
                operator_name=self.person(),
                operator_address=address,
                persons=persons,
                water_closets=1 if short else 1 + persons // 10,
                lavatories=1 if short else 1 + persons // 10,
                baths=1 if short else 1 + persons // 10,
                rooms=(*ROOMS, SMALL_ROOM) if short else ROOMS,
                applied_on=d,
            ),
        )

    def inspect(
        self, licence_id: int, d: date, found: tuple[str, ...] = ()
    ) -> Generator[date, None, tuple[int, ...]]:
        yield from self.on(d)
        case_id = svc.open_licence_case(self.uow(), self.clock, self.inspector, licence_id)
        done = inspections.record_inspection(
            self.uow(),
            self.clock,
            self.inspector,
            case_id,
            d,
            found=[inspections.FoundViolation(s, room="common hall") for s in found],
            notes="" if found else CLEAN,
        )
        return done.violation_ids

    def recheck(self, licence_id: int, violations: tuple[int, ...], d: date) -> Steps:
        yield from self.on(d)
        case_id = svc.open_licence_case(self.uow(), self.clock, self.inspector, licence_id)
        inspections.record_inspection(
            self.uow(),
            self.clock,
            self.inspector,
            case_id,
            d,
            checks=dict.fromkeys(violations, False),
        )

    def close_clean(self, licence_id: int) -> None:
        """The inspection found nothing and the application is decided: the case is done.
        ClosureReason.UNFOUNDED is the register's "inspected, no violation found"."""
        case_id = svc.open_licence_case(self.uow(), self.clock, self.inspector, licence_id)
        cases.close_case(
            self.uow(),
            self.clock,
            self.inspector,
            case_id,
            ClosureReason.UNFOUNDED,
            "No violation found; the rooming house licence was decided (140-10A)",
        )

    def issue(self, parcel_id: int, address: str, d: date) -> Step:
        licence_id = yield from self.apply(parcel_id, address, d - timedelta(days=12))
        yield from self.inspect(licence_id, d - timedelta(days=5))
        yield from self.on(d)
        self.receipts += 1
        svc.issue_licence(
            self.uow(),
            self.clock,
            self.clerk,
            licence_id,
            fee_receipt=f"CC-{d.year}-{self.receipts:04d}",
        )
        self.close_clean(licence_id)
        return licence_id

    def suspend(self, parcel_id: int, address: str, issued: date, found: date) -> Step:
        """Issued; 140-10I found on `found`, to correct in 14 days; not corrected: suspended."""
        licence_id = yield from self.issue(parcel_id, address, issued)
        violations = yield from self.inspect(licence_id, found, ("140-10I",))
        correct_by = found + timedelta(days=14)
        svc.give_warning(self.uow(), self.clock, self.inspector, licence_id, correct_by)
        yield from self.recheck(licence_id, violations, correct_by)
        svc.suspend_licence(self.uow(), self.clock, self.inspector, licence_id)
        return licence_id


def licence_scenarios(
    uow: Callable[[], UnitOfWork],
    mid: int,
    parcels: list[tuple[int, str]],
    today: date,
    seed: int,
    person: Callable[[], str],
    admin: Actor,
    clerk: Actor,
    inspector: Actor,
) -> tuple[list[Steps], Counter[str]]:
    """One licence in each state on the first of `parcels` ((id, operator's address)), as
    scenarios for the walk; the count of each state, filled in as they run."""
    rng = random.Random(seed * 7919 + 1410)
    clock = FixedClock(today)
    lic = _Licences(uow, clock, mid, clerk, inspector, rng, person)
    states = lic.states
    spots = iter(parcels)

    def ago(days: int) -> date:
        return today - timedelta(days=days)

    def spot() -> tuple[int, str]:
        return next(spots)

    def fee() -> Steps:  # before the first application
        yield from lic.on(ago(420))
        municipality.update_municipality(
            uow(), clock, admin, mid, {"rooming_licence_fee": str(DEMO_FEE)}
        )

    def pending() -> Steps:
        yield from lic.apply(*spot(), ago(rng.randint(2, 6)))
        states["applications pending"] += 1

    def short() -> Steps:  # short of fixtures (140-10E) and sleeping room space (140-10G)
        licence_id = yield from lic.apply(*spot(), ago(rng.randint(7, 12)), short=True)
        yield from lic.inspect(licence_id, ago(3))
        states["applications pending"] += 1

    def in_force(days: int, state: str) -> Steps:
        yield from lic.issue(*spot(), ago(days))
        states[state] += 1

    def warned() -> Steps:  # 140-10I found, the correction date ahead (140-10C)
        licence_id = yield from lic.issue(*spot(), ago(rng.randint(150, 250)))
        yield from lic.inspect(licence_id, ago(6), ("140-10I",))
        svc.give_warning(uow(), clock, inspector, licence_id, ago(6) + timedelta(days=21))
        states["warned"] += 1

    def suspended(issued: int, found: int, state: str) -> Steps:
        yield from lic.suspend(*spot(), ago(issued), ago(found))
        states[state] += 1

    def heard() -> Steps:  # petitioned in time; the Council sustained the suspension (140-3E)
        licence_id = yield from lic.suspend(*spot(), ago(rng.randint(300, 330)), ago(110))
        yield from lic.on(ago(92))
        svc.record_petition(uow(), clock, clerk, licence_id, ago(92), "the operator")
        yield from lic.on(ago(70))
        svc.record_hearing_decision(
            uow(),
            clock,
            inspector,
            licence_id,
            HearingDecision.SUSTAIN,
            ago(70),
            "The common hall's fire exit was still blocked on re-inspection; suspension sustained.",
        )
        states["revoked by the Council"] += 1

    def denied() -> Steps:  # 140-10B
        licence_id = yield from lic.apply(*spot(), ago(rng.randint(30, 40)))
        yield from lic.on(ago(25))
        svc.deny_application(
            uow(),
            clock,
            inspector,
            licence_id,
            "The second-floor rooms have no second means of egress; the house cannot be "
            "licensed as applied for.",
        )
        states["denied"] += 1

    def sold() -> Steps:  # ended by a change of owner: not transferable (140-10A)
        licence_id = yield from lic.issue(*spot(), ago(rng.randint(120, 200)))
        yield from lic.on(ago(20))
        successor = person()
        svc.record_change(
            uow(),
            clock,
            clerk,
            licence_id,
            clock.now() - timedelta(hours=rng.randint(3, 20)),
            successor,
            f"{rng.randint(100, 2400)} {rng.choice(dd.BUSINESS_STREETS)}, Hudson WI 54016",
        )
        states["ended by a change of owner"] += 1

    def sweep() -> Steps:  # as the app does on start (140-10D): after every other step today
        yield from lic.on(today)
        svc.sweep_licences(uow(), clock, mid)

    return [
        fee(),
        pending(),
        short(),
        in_force(rng.randint(60, 200), "in force"),
        # in force, expiring within 60 days (a renewal letter due)
        in_force(365 - rng.randint(15, 50), "in force, expiring within 60 days"),
        # expired: issued more than a year ago, not renewed
        in_force(365 + rng.randint(10, 30), "expired"),
        warned(),
        # suspended within the 10-day window (140-10D)
        suspended(rng.randint(200, 260), 18, "suspended"),
        # not petitioned: revoked automatically on the 11th day (the sweep, 140-10D)
        suspended(rng.randint(270, 300), 70, "revoked automatically"),
        heard(),
        denied(),
        sold(),
        sweep(),
    ], states
