"""The demo's inspections, written in bulk after the permits and the money.

Each issued permit whose kind has an inspection sequence (resources/inspection_types.toml) is
inspected as far as its story has gone: a completed permit through the final, made on the day
the demo already gives as completed_on; a started one partway. Visits fall on office days after
issue, made by the demo's inspector. Most pass; some are rejected with a correction order
(15.1.90(b)(1): 30 days, 7 for electrical work, 15.1.76(c)) and pass on re-inspection; a few
stages were covered before the inspection was called for (15.1.21(a)(13)); erosion control
sites are visited through the season (15.2.9); completed new buildings get their numbered
certificate of occupancy (15.1.13(a)); and the coming office days hold open requests.

Fees: the money demo (db/demo_cash.py) already adds a REINSPECTION fee after assessment to a
few started permits; those permits' re-inspections are placed on the day the fee was added.
Every other re-inspection and failure to call carries the inspector's fee waiver with its
reason, as desk.services.inspections would record it, so the cash demo's balances stand.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Table, func, select, text

from db import schema
from db.demo_cash import REINSPECTION
from db.numbering import set_at_least
from desk import demo_data as dd
from desk.domain.enums import PartyRole, PermitStatus
from desk.domain.inspections import (
    InspectionSequence,
    InspectionType,
    Result,
    Timing,
    correction_due,
    sequence_for,
)
from desk.domain.model import InspectionStatus
from desk.domain.numbering import format_number
from desk.services.inspections import CERTIFICATE_SERIES

TABLES = ("inspection", "correction_order", "occupancy_certificate")
CHUNK = 5000

# New buildings whose completion brings a certificate of occupancy (15.1.13(a)).
CERTIFIED_KINDS = frozenset({"RES-NEW-DWELLING", "COM-NEW"})
# Started but not completed: inspected partway, up to the day the story stopped.
PARTWAY = frozenset(
    {PermitStatus.WORK_STARTED, PermitStatus.ON_HOLD, PermitStatus.REVOKED, PermitStatus.EXPIRED}
)
REJECT_RATE = 0.07  # per stage
FAIL_TO_CALL_RATE = 0.012  # per stage after the first
OPEN_ORDER_RATE = 0.12  # a started permit's latest stage rejected and not yet re-inspected
# Open requests on the coming office days: today (or the next office day) first.
REQUESTS_PER_DAY = (8, 6, 5, 4, 3)

WAIVE_REINSPECTION = "Minor items, the first rejection on this permit: re-inspection fee waived"
WAIVE_FAIL_TO_CALL = "First occurrence for this contractor: a written warning, no fee"

_ITEMS: dict[str, tuple[str, ...]] = {
    "building": (
        "Missing fire blocking at the top plates of the interior walls",
        "Anchor bolts more than 6 feet apart along the rear foundation wall",
        "Stair handrail missing on the basement stairs",
        "Header over the garage door undersized against the approved plans",
        "Footing width short of the approved 20 inches at the northeast corner",
        "Setback to the side lot line less than shown on the plot plan: survey stakes needed",
        "Smoke alarms not interconnected in the bedrooms",
    ),
    "electrical": (
        "Boxes not secured to the framing in the kitchen",
        "GFCI protection missing on the bathroom receptacles",
        "Grounding electrode conductor not bonded at the water meter",
        "Cables not stapled within 12 inches of the boxes",
    ),
    "plumbing": (
        "Drain line not holding the test: leak at the cleanout",
        "Vent not extended through the roof",
        "Missing trap primer on the floor drain",
    ),
    "hvac": (
        "Flue clearance to combustibles less than one inch",
        "Combustion air opening not provided for the furnace room",
    ),
    "erosion": (
        "Silt fence down along the street side",
        "Tracking pad missing at the driveway: mud on the street",
    ),
    "other": (
        "Trench backfill not compacted in lifts",
        "Pavement cut not saw-cut to straight lines",
    ),
}
_PASS_NOTES = ("", "", "", "Approved.", "OK to cover.", "Approved as built.")
_FTC_NOTES = (
    "Found covered with no inspection called for; openings cut for viewing.",
    "Work concealed before the inspection; contractor opened it up the same day.",
)


@dataclass
class InspectionPlan:
    inspections: int = 0
    rejected: int = 0
    orders_open: int = 0
    failures_to_call: int = 0
    certificates: int = 0
    open_requests: int = 0

    def summary(self) -> str:
        return (
            f" Inspections: {self.inspections:,} ({self.rejected:,} rejected with a correction "
            f"order, {self.orders_open:,} of them still open; {self.failures_to_call:,} "
            f"failures to call; {self.open_requests:,} open requests for the coming days) and "
            f"{self.certificates:,} certificates of occupancy."
        )


class _Days:
    """Office days between two dates, looked up by bisection (a 100,000-permit build asks
    hundreds of thousands of times)."""

    def __init__(self, first: date, last: date) -> None:
        self.days = dd.office_days(first, last)

    def between(self, lo: date, hi: date) -> list[date]:
        return self.days[bisect_left(self.days, lo) : bisect_right(self.days, hi)]

    def after(self, d: date) -> date:
        i = bisect_right(self.days, d)
        return self.days[i] if i < len(self.days) else dd.next_office_day(d + timedelta(1))

    def before(self, d: date) -> date | None:
        i = bisect_left(self.days, d)
        return self.days[i - 1] if i else None


def write_inspections(
    conn: Connection,
    write: Callable[[Table, Sequence[dict[str, Any]]], None],
    *,
    municipality: str,
    municipality_id: int,
    permits: Sequence[dict[str, Any]],
    today: date,
    now_cap: datetime | None,
    seed: int,
    users: dict[str, int],
) -> InspectionPlan:
    """Plan and insert the inspections, correction orders and certificates of the demo's
    permits (the rows of db.demo's plan, already written with their fees)."""
    rng = random.Random(f"{seed}-inspections")
    inspector = users["inspector"]
    inspector_name = conn.execute(
        select(schema.app_user.c.full_name).where(schema.app_user.c.id == inspector)
    ).scalar_one()
    fee_days: dict[int, date] = {}
    fa = schema.fee_adjustment
    for pid, day in conn.execute(
        select(fa.c.permit_id, func.min(fa.c.day))
        .where(fa.c.code == REINSPECTION)
        .group_by(fa.c.permit_id)
    ):
        fee_days[pid] = day
    callers: dict[int, tuple[str, str]] = {}
    pp, party = schema.permit_party, schema.party
    for pid, name, phone in conn.execute(
        select(pp.c.permit_id, party.c.name, party.c.phone)
        .join(party, party.c.id == pp.c.party_id)
        .where(pp.c.role == PartyRole.APPLICANT)
    ):
        callers.setdefault(pid, (name, phone))

    def top(table: Table) -> int:
        return int(conn.execute(select(func.max(table.c.id))).scalar_one() or 0)

    next_id = {name: top(schema.metadata.tables[name]) for name in TABLES}

    def new_id(name: str) -> int:
        next_id[name] += 1
        return next_id[name]

    offsets: dict[date, timedelta] = {}

    def utc(d: date, minute: int) -> datetime:
        off = offsets.get(d)
        if off is None:
            off = offsets[d] = timedelta(hours=-dd.central_utc_offset_hours(d))
        at = datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(minutes=minute) + off
        return at if now_cap is None or at <= now_cap else now_cap

    first = min((p["issued_on"] for p in permits if p["issued_on"] is not None), default=today)
    days = _Days(first, today + timedelta(days=60))
    sequences: dict[str, InspectionSequence | None] = {}
    rows: list[dict[str, Any]] = []
    orders: list[dict[str, Any]] = []
    certificates: list[dict[str, Any]] = []
    plan = InspectionPlan()
    # (permit id, the stage to request next, the earliest day it may be made)
    candidates: list[tuple[int, InspectionType, date]] = []

    def visit(
        pid: int,
        t: InspectionType,
        day: date,
        result: Result | None,
        *,
        notes: str = "",
        failure_to_call: bool = False,
        fee_waiver: str = "",
    ) -> int:
        iid = new_id("inspection")
        caller, phone = callers.get(pid, ("Owner", ""))
        called = days.before(day) or day
        rows.append(
            {
                "id": iid,
                "permit_id": pid,
                "type_code": t.code,
                "requested_by": "(not called for)" if failure_to_call else caller,
                "requested_phone": "" if failure_to_call else phone,
                "requested_at": utc(called, rng.randint(8 * 60, 16 * 60)),
                "desired_on": None if failure_to_call else day,
                "desired_time": "" if failure_to_call else rng.choice(("", "", "AM", "PM")),
                "scheduled_on": day,
                "inspector_id": inspector,
                "route_position": None,
                "status": InspectionStatus.DONE,
                "result": result,
                "notes": notes,
                "result_at": utc(day, rng.randint(9 * 60, 15 * 60 + 30)),
                "recorded_by_id": inspector,
                "failure_to_call": failure_to_call,
                "fee_waiver": fee_waiver,
            }
        )
        plan.inspections += 1
        return iid

    def reject(pid: int, t: InspectionType, day: date, corrected: date | None) -> None:
        iid = visit(pid, t, day, Result.REJECTED, notes="Correction notice left on site.")
        choices = _ITEMS.get(t.trade, _ITEMS["other"])
        items = "\n".join(rng.sample(choices, 1 if rng.random() < 0.7 else 2))
        orders.append(
            {
                "id": new_id("correction_order"),
                "permit_id": pid,
                "inspection_id": iid,
                "noticed_on": day,
                "due_on": correction_due(day, t.trade),  # 15.1.90(b)(1), 15.1.76(c)
                "section": "15.1.76(c)" if t.trade == "electrical" else "15.1.90(b)(1)",
                "items": items,
                "corrected_on": corrected,
                "extended": False,
                "extension_reasons": "",
                "by_user_id": inspector,
                "at": utc(day, 15 * 60 + 45),
            }
        )
        plan.rejected += 1
        plan.orders_open += corrected is None

    for p in permits:
        status = p["status"]
        issued = p["issued_on"]
        if issued is None or p["number"] is None or status is PermitStatus.VOID:
            continue
        kind = p["kind"]
        if kind not in sequences:
            sequences[kind] = sequence_for(municipality, kind)
        seq = sequences[kind]
        if seq is None:
            continue
        pid = p["id"]
        start = max(p["commenced_on"] or issued, issued)
        completed = status is PermitStatus.COMPLETED and p["completed_on"] is not None
        if completed:
            end = p["completed_on"]
        elif status in PARTWAY and p["commenced_on"] is not None:
            end = min(p["status_date"], today - timedelta(days=1))
        else:
            if status in (PermitStatus.ISSUED, PermitStatus.WORK_STARTED):
                candidates.append((pid, seq.types[0], days.after(issued)))
            continue
        stages = [t for t in seq.types if not t.recurring]
        recurring = [t for t in seq.types if t.recurring]
        if recurring:
            _visits(rng, days, recurring[0], start, end, completed, pid, visit)
            if status is PermitStatus.WORK_STARTED:
                candidates.append((pid, recurring[0], days.after(end)))
            continue
        if completed:
            done = len(stages)
        elif len(stages) > 1:
            done = rng.randint(1, len(stages) - 1)
        else:
            done = 0
        if done == 0:
            if status is PermitStatus.WORK_STARTED:
                candidates.append((pid, stages[0], days.after(start)))
            continue
        span = days.between(start, end - timedelta(days=1) if completed else end) or [start]
        picked = sorted(rng.choices(span, k=done - 1 if completed else done))
        if completed:
            picked.append(end)  # the final passed on the day the permit was completed
        fee_day = fee_days.get(pid)
        # The stage re-inspected on the fee's day: the last visit before it (15.1.21(a)(12)).
        fee_stage = None
        if fee_day is not None and start <= fee_day <= end:
            fee_stage = max(bisect_left(picked, fee_day) - 1, 0)
        open_last = (
            not completed and status is PermitStatus.WORK_STARTED and rng.random() < OPEN_ORDER_RATE
        )
        for j, (t, day) in enumerate(zip(stages[:done], picked, strict=True)):
            last = j == done - 1
            waiver = ""
            if j == fee_stage and fee_day is not None:
                rejected_on = max(min(day, days.before(fee_day) or day), start)
                if rejected_on < fee_day:
                    # Re-inspected on the day the money demo added the fee: no waiver.
                    reject(pid, t, rejected_on, fee_day)
                    visit(pid, t, fee_day, Result.PASSED, notes="Corrections made.")
                    continue
            if last and open_last:
                reject(pid, t, day, None)
                candidates.append((pid, t, days.after(day)))
                continue
            if j and rng.random() < FAIL_TO_CALL_RATE:
                visit(
                    pid,
                    t,
                    day,
                    None,
                    notes=rng.choice(_FTC_NOTES),
                    failure_to_call=True,
                    fee_waiver=WAIVE_FAIL_TO_CALL,
                )
                plan.failures_to_call += 1
            elif rng.random() < REJECT_RATE:
                if last and completed:
                    # The final stays on completed_on: the rejected visit came before it.
                    earlier = days.before(day)
                    if earlier is not None and earlier >= (picked[j - 1] if j else start):
                        reject(pid, t, earlier, day)
                        waiver = WAIVE_REINSPECTION
                else:
                    again = days.after(day)
                    if again <= (end if last else picked[j + 1]):
                        reject(pid, t, day, again)
                        day, waiver = again, WAIVE_REINSPECTION
            result = Result.PASSED
            if t.ok_for_service and rng.random() < 0.5:
                result = Result.OK_FOR_SERVICE
            visit(pid, t, day, result, notes=rng.choice(_PASS_NOTES), fee_waiver=waiver)
        if status is PermitStatus.WORK_STARTED and done < len(stages) and not open_last:
            candidates.append((pid, stages[done], days.after(picked[-1])))
        if completed and kind in CERTIFIED_KINDS:
            units = p.get("dwelling_units") or 0
            use = (
                f"{'One' if units <= 1 else 'Two'}-family dwelling"
                if kind.startswith("RES")
                else f"Commercial building: {p['description']}"
            )
            certificates.append(
                {
                    "id": new_id("occupancy_certificate"),
                    "municipality_id": municipality_id,
                    "number": "",
                    "permit_id": pid,
                    "use_stated": use,
                    "conditions": "",
                    "occupant": "",
                    "temporary_until": None,
                    "issued_on": end,
                    "inspector_id": inspector,
                    "inspector_name": inspector_name,
                    "at": utc(end, 16 * 60),
                }
            )

    plan.open_requests = _requests(rng, days, today, candidates, callers, inspector, rows, utc)
    # Numbers gapless per year in the order issued (15.1.13(a); the CO series of the service).
    certificates.sort(key=lambda c: (c["issued_on"], c["id"]))
    counts: dict[int, int] = {}
    for c in certificates:
        year = c["issued_on"].year
        counts[year] = counts.get(year, 0) + 1
        c["number"] = format_number(year, counts[year])
    plan.certificates = len(certificates)
    rows.sort(key=lambda r: r["id"])
    for table, batch in (
        (schema.inspection, rows),
        (schema.correction_order, orders),
        (schema.occupancy_certificate, certificates),
    ):
        for lo in range(0, len(batch), CHUNK):
            write(table, batch[lo : lo + CHUNK])
    for year, value in sorted(counts.items()):
        set_at_least(conn, municipality_id, CERTIFICATE_SERIES, year, value)
    if conn.dialect.name == "postgresql":
        for name in TABLES:
            conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {name}), 1), "
                    f"(SELECT MAX(id) FROM {name}) IS NOT NULL)"
                )
            )
    return plan


def _visits(
    rng: random.Random,
    days: _Days,
    t: InspectionType,
    start: date,
    end: date,
    completed: bool,
    pid: int,
    visit: Callable[..., int],
) -> None:
    """A recurring stage: erosion control sites once a month March - October and twice a month
    November - February (15.2.9); a grease interceptor once a year (15.1.57(c))."""
    day = start
    while day <= end:
        found = days.between(day, end)
        if not found:
            break
        on = found[0]
        visit(pid, t, on, Result.PASSED, notes=rng.choice(_PASS_NOTES))
        step = 365 if t.timing is Timing.ANNUAL else 30 if 3 <= on.month <= 10 else 14
        day = on + timedelta(days=step - rng.randint(0, 4))
    if completed:
        visit(pid, t, end, Result.PASSED, notes="Site stabilized; controls may be removed.")


def _requests(
    rng: random.Random,
    days: _Days,
    today: date,
    candidates: list[tuple[int, InspectionType, date]],
    callers: dict[int, tuple[str, str]],
    inspector: int,
    rows: list[dict[str, Any]],
    utc: Callable[[date, int], datetime],
) -> int:
    """Open requests for today (or the next office day) and the office days after it, so the
    inspector's day on the demo's today is not empty. The first two days are on the route."""
    coming = days.between(today, today + timedelta(days=14))[: len(REQUESTS_PER_DAY)]
    pool = sorted(candidates, key=lambda c: c[0])
    rng.shuffle(pool)
    used: set[int] = set()
    made = 0
    top = max((r["id"] for r in rows), default=0)
    for n, (day, wanted) in enumerate(zip(coming, REQUESTS_PER_DAY, strict=False)):
        position = taken = 0
        for pid, t, earliest in pool:
            if taken >= wanted:
                break
            if pid in used or earliest > day:
                continue
            used.add(pid)
            taken += 1
            caller, phone = callers.get(pid, ("Owner", ""))
            called = days.before(min(day, today + timedelta(days=1))) or today
            scheduled = n < 2 or rng.random() < 0.5
            position += scheduled
            top += 1
            rows.append(
                {
                    "id": top,
                    "permit_id": pid,
                    "type_code": t.code,
                    "requested_by": caller,
                    "requested_phone": phone,
                    "requested_at": utc(called, rng.randint(8 * 60, 16 * 60)),
                    "desired_on": day,
                    "desired_time": rng.choice(("", "AM", "PM", "10:00")),
                    "scheduled_on": day if scheduled else None,
                    "inspector_id": inspector if scheduled else None,
                    "route_position": position if scheduled else None,
                    "status": InspectionStatus.SCHEDULED
                    if scheduled
                    else InspectionStatus.REQUESTED,
                    "result": None,
                    "notes": "",
                    "result_at": None,
                    "recorded_by_id": None,
                    "failure_to_call": False,
                    "fee_waiver": "",
                }
            )
            made += 1
    return made
