"""`permitdesk demo`: a demo database with years of plausible permits, fast.

Users and the municipality are created through the services (so their passwords and audit
rows are real). The bulk data (parcels, parties, credentials, permits, their parties, the
permits list's search index, stop-work orders and revocations, deadline extensions, the recent
permits' checklists, and the audit rows of each step, as the services would write them) is
planned in memory with seeded `random.Random`s and written with Core executemany inserts in one
transaction: 100,000 permits take well under a minute on SQLite.

Every kind of the municipality appears, and every status (a small demo is steered to show each
a few times); the lapse sweep the app runs on start finds nothing to expire on the demo's day,
because each permit's dates were judged by the same deadline rules (desk/demo_data.py).

The vocabularies and the rules of what is plausible live in desk/demo_data.py, the checklists'
in db/demo_checklists.py, the money (fee lines, payments, voids, a returned check, refunds, daily
closes and turnovers to the treasurer) in db/demo_cash.py; a large build plans the money
and derives the search index and history in forked workers while this process writes.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import random
import threading
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from functools import partial
from itertools import accumulate
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, Dialect, func, insert, select, text

from db import audit_chain, demo_cash, demo_inspections, schema
from db.database import Database
from db.demo_checklists import RECENT_LIMIT, RECENT_YEARS, ChecklistPlanner, Planned
from db.numbering import set_at_least
from db.tracking import listing_row
from desk import demo_data as dd
from desk.clock import FixedClock
from desk.domain.checklists import ItemState, template_for
from desk.domain.enums import (
    NUMBERED_STATUSES,
    PartyKind,
    PartyRole,
    PermitStatus,
    Role,
    WorkClass,
)
from desk.domain.kinds import PermitKind, kinds_for
from desk.domain.lifecycle import ACTIVE, PermitDates, Rule
from desk.domain.model import Actor
from desk.domain.municipality import LetterheadVersion
from desk.domain.numbering import PERMIT_SERIES, format_number
from desk.domain.reports import NOT_A_BUILDING, OWNERSHIP, PUBLIC, name_looks_public
from desk.errors import ValidationError
from desk.services.setup import ensure_municipality, shipped_profiles
from desk.services.users import create_first_administrator, create_user


@dataclass(frozen=True)
class DemoSpec:
    municipality: str = "glendale"
    years: int = 3
    per_year: int = 400
    seed: int = 1
    today: date | None = None  # None = date.today(); tests pass a fixed date
    # Bonds, certificates and street deposits, entered through the services after the bulk
    # load (db/demo_sureties.py): their audit rows and deposit receipts come after the bulk
    # data's, so the demo's "rows in time order" checks turn them off.
    sureties: bool = True


DEMO_PASSWORD = "permitdesk"
DEMO_USERS: tuple[tuple[str, str, set[Role]], ...] = (
    ("admin", "Alex Administrator", {Role.ADMINISTRATOR}),
    ("clerk", "Carol Clerk", {Role.CLERK}),
    ("inspector", "Ivan Inspector", {Role.INSPECTOR}),
    ("engineer", "Erin Engineer", {Role.ENGINEER}),
    ("treasurer", "Terry Treasurer", {Role.TREASURER}),
)
# Printed under the name on what each issues (the permit card names the inspector who issued).
DEMO_TITLES = {
    "admin": "Office Administrator",
    "clerk": "Permit Clerk",
    "inspector": "Building Inspector",
    "engineer": "City Engineer",
    "treasurer": "City Treasurer",
}
CHUNK = 5_000
PRICE_INFLATION = 0.03  # construction costs per year, for the valuations of older permits


# --- the plan: everything generated in memory first ----------------------------------------


@dataclass
class _Town:
    parcels: list[dict[str, Any]] = field(default_factory=list)
    parties: list[dict[str, Any]] = field(default_factory=list)
    credentials: list[dict[str, Any]] = field(default_factory=list)
    owner_of_parcel: list[int] = field(default_factory=list)  # party id by parcel index
    residential: list[int] = field(default_factory=list)  # parcel indexes
    business: list[int] = field(default_factory=list)
    holding_owners: list[int] = field(default_factory=list)  # party ids of owner LLCs
    pools: dict[str, tuple[list[int], list[float]]] = field(default_factory=dict)
    owners: int = 0
    contractors: int = 0
    designers: int = 0


@dataclass(frozen=True)
class _Event:
    at: datetime
    index: int  # permit index
    step: str  # create, review, waive, issue, start, activity, extend, hold, lift, revoke, ...
    ref: int = -1  # a rarer step's audit rows in _PermitPlan.aux


def _window(spec: DemoSpec, today: date) -> date:
    """The first day of the `years` years that end on `today`."""
    try:
        start = today.replace(year=today.year - spec.years)
    except ValueError:  # 29 February
        start = today.replace(year=today.year - spec.years, day=28)
    return start + timedelta(days=1)


def _ownership_marks(
    kind: PermitKind, units: int, town: _Town, ids: _Ids, owner: int
) -> dict[str, str]:
    """The intake form's answer for the demo's publicly owned housing: a new building with
    dwelling units whose owner is a government (the City, a school district) is marked
    "publicly owned" (Census Form C-404 leaves it off); the rest say nothing."""
    if units <= 0 or kind.work_class is not WorkClass.NEW or kind.code in NOT_A_BUILDING:
        return {}
    name = str(town.parties[owner - ids.party - 1]["name"])
    return {OWNERSHIP: PUBLIC} if name_looks_public(name) else {}


class _Ids:
    """Explicit ids after those already in the database (so rows can refer to each other)."""

    def __init__(self, conn: Connection) -> None:
        def top(table: Any) -> int:
            return int(conn.execute(select(func.max(table.c.id))).scalar_one() or 0)

        self.parcel = top(schema.parcel)
        self.party = top(schema.party)
        self.permit = top(schema.permit)
        self.checklist = top(schema.permit_checklist_item)
        self.order = top(schema.permit_order)
        self.extension = top(schema.permit_extension)


def _plan_town(
    rng: random.Random,
    spec: DemoSpec,
    today: date,
    municipality_id: int,
    ids: _Ids,
    city: str,
    total_permits: int,
) -> _Town:
    town = _Town()
    streets = dd.streets_for(spec.municipality)
    n_parcels = max(50, total_permits // 4)

    def new_party(**values: Any) -> int:
        pid = ids.party + len(town.parties) + 1
        row = {
            "id": pid,
            "kind": PartyKind.PERSON,
            "name": "",
            "first_name": "",
            "last_name": "",
            "address_line1": "",
            "address_line2": "",
            "city": "",
            "state": "WI",
            "zip": "",
            "phone": "",
            "email": "",
        }
        row.update(values)
        town.parties.append(row)
        return pid

    # Parcels: distinct house numbers on the town's streets, condominium units if they run out.
    slots = [
        (si, number)
        for si, s in enumerate(streets)
        for number in range(s.low + si % 2 * 2, s.high, 2)
    ]
    picked = sorted(rng.sample(slots, min(n_parcels, len(slots))))
    units: list[tuple[int, int, str]] = [(si, n, "") for si, n in picked]
    condos: dict[tuple[int, int], int] = {}
    while len(units) < n_parcels:
        si, n, _ = units[rng.randrange(len(picked))]
        condos[si, n] = condos.get((si, n), 100) + 1
        units.append((si, n, str(condos[si, n])))
    for ordinal, (si, number, unit) in enumerate(units):
        s = streets[si]
        if unit:
            district = "R-3"
        elif s.arterial and rng.random() < 0.6:
            district = s.zoning if s.zoning in dd.BUSINESS_DISTRICTS else "B-1"
        elif s.zoning in dd.RESIDENTIAL_DISTRICTS:
            district = s.zoning if rng.random() < 0.85 else rng.choice(dd.RESIDENTIAL_DISTRICTS)
        else:
            district = "R-3"
        lo, hi = dd.LOT_AREA[district]
        town.parcels.append(
            {
                "id": ids.parcel + ordinal + 1,
                "municipality_id": municipality_id,
                "pin": dd.pin_for(si, ordinal),
                "house_number": str(number),
                "street": s.name,
                "unit": unit,
                "city": city,
                "zip": s.zip,
                "legal_description": (
                    f"Unit {unit}, {s.subdivision} Condominium"
                    if unit
                    else dd.legal_description(rng, s, number, district)
                ),
                "zoning_district": district,
                "lot_area_sqft": rng.randint(lo, hi) // 10 * 10,
            }
        )
        (town.business if district in dd.BUSINESS_DISTRICTS else town.residential).append(ordinal)
    # Every kind needs somewhere to happen.
    need = max(3, n_parcels // 25)
    while len(town.business) < need and len(town.residential) > need:
        moved = town.residential.pop(rng.randrange(len(town.residential)))
        town.parcels[moved]["zoning_district"] = "B-1"
        town.business.append(moved)
    town.business.sort()

    # Owners.
    org_ids: dict[str, int] = {}

    def org(name: str, line1: str, org_city: str, zip_code: str, state: str = "WI") -> int:
        if name not in org_ids:
            org_ids[name] = new_party(
                kind=PartyKind.ORGANIZATION,
                name=name,
                address_line1=line1,
                city=org_city,
                state=state,
                zip=zip_code,
                phone=dd.phone(rng),
            )
        return org_ids[name]

    def holding_name() -> str:
        pattern = rng.choice(dd.OWNER_ORG_PATTERNS)
        return pattern.format(
            surname=dd.surname(rng),
            place=rng.choice(dd.PLACE_WORDS),
            street=rng.choice(streets).name.split(" ", 1)[1].rsplit(" ", 1)[0],
        )

    landlords = [holding_name() for _ in range(max(3, n_parcels // 60))]
    for parcel in town.parcels:
        address = f"{parcel['house_number']} {parcel['street']}"
        if parcel["unit"]:
            address += f" Unit {parcel['unit']}"
        business = parcel["zoning_district"] in dd.BUSINESS_DISTRICTS
        r = rng.random()
        if business:
            if r < 0.12:
                name = rng.choice(dd.INSTITUTIONS)
            elif r < 0.35:
                name = rng.choice(landlords)
            else:
                name = holding_name()
            if name in org_ids:
                owner = org_ids[name]
            else:
                elsewhere = name not in dd.INSTITUTIONS and rng.random() < 0.5
                a = dd.business_address(rng) if elsewhere else None
                owner = org(
                    name,
                    a.line1 if a else address,
                    a.city if a else city,
                    a.zip if a else parcel["zip"],
                )
                town.holding_owners.append(owner)
        elif r < 0.05:
            a = dd.business_address(rng)
            owner = org(rng.choice(landlords), a.line1, a.city, a.zip)
            if owner not in town.holding_owners:
                town.holding_owners.append(owner)
        elif r < 0.09:
            name = f"{dd.surname(rng)} Family Trust"
            owner = org(name, address, city, parcel["zip"])
        else:
            person = dd.person_name(rng)
            away = rng.random() < 0.06
            if away:
                away_city, state, zip_code = rng.choice(dd.AWAY_ADDRESSES)
                line1 = f"{rng.randint(100, 9999)} {rng.choice(dd.BUSINESS_STREETS)}"
            else:
                away_city, state, zip_code, line1 = city, "WI", parcel["zip"], address
            email = ""
            if rng.random() < 0.2:
                user = dd.slug(person.first[0] + person.last)
                email = f"{user}{rng.randint(1, 99)}@example.com"
            owner = new_party(
                kind=PartyKind.PERSON,
                name=person.display,
                first_name=person.first,
                last_name=person.last,
                address_line1=line1,
                city=away_city,
                state=state,
                zip=zip_code,
                phone=dd.phone(rng) if rng.random() < 0.7 else "",
                email=email,
            )
        town.owner_of_parcel.append(owner)
        # The county's owner of record, in its capitals, with the mailing address.
        row = town.parties[owner - ids.party - 1]
        city_line = ", ".join(x for x in (row["city"], row["state"], row["zip"]) if x)
        parcel["owner_name"] = str(row["name"]).upper()
        parcel["owner_address"] = f"{row['address_line1']}, {city_line}".upper()
    town.owners = len(town.parties)

    # Contractors and designers, with their state credentials.
    taken: set[str] = set(org_ids)
    n_contractors = min(600, max(20, round(total_permits * 0.02)))

    def company(words: tuple[str, ...], kinds: Sequence[Any]) -> int:
        name = dd.company_name(rng, words, taken)
        a = dd.business_address(rng)
        pid = new_party(
            kind=PartyKind.ORGANIZATION,
            name=name,
            address_line1=a.line1,
            city=a.city,
            zip=a.zip,
            phone=dd.phone(rng),
            email=f"office@{dd.slug(name)[:24]}.example.com",
        )
        for kind in kinds:
            town.credentials.append(
                {
                    "party_id": pid,
                    "kind": kind,
                    "number": dd.credential_number(rng, kind),
                    "issuing_state": "WI",
                    "expires_on": dd.credential_expiry(rng, today),
                }
            )
        return pid

    for trade in dd.TRADES:
        members = [
            company(trade.words, trade.credentials)
            for _ in range(max(2, round(n_contractors * trade.share)))
        ]
        rng.shuffle(members)  # a few busy firms, many occasional ones
        weights = [1.0 / (rank + 1) ** 0.8 for rank in range(len(members))]
        town.pools[trade.key] = (members, list(accumulate(weights)))
    town.contractors = len(town.parties) - town.owners
    n_designers = max(3, n_contractors // 12)
    designers = []
    for _ in range(n_designers):
        words, kind = rng.choice(dd.DESIGNER_WORDS)
        designers.append(company((words,), (kind,)))
    town.pools["designer"] = (designers, list(accumulate([1.0] * len(designers))))
    town.designers = n_designers
    return town


@dataclass
class _PermitPlan:
    rows: list[dict[str, Any]]
    parties: list[list[tuple[PartyRole, int]]]
    parcel_index: list[int]
    events: list[_Event]
    created_at: list[datetime]
    applied_from: date
    aux: list[list[dict[str, Any]]]  # the audit rows of the rarer steps, by _Event.ref
    orders: list[dict[str, Any]]
    extensions: list[dict[str, Any]]
    checklist_items: list[dict[str, Any]]
    checklists: ChecklistPlanner
    checklists_since: date
    unextended: dict[int, date]


# Every kind, however rare (moving a building, solid fill, a grease interceptor), a handful of
# times in any demo but the tiniest, some of them within the checklists' two years.
MIN_PER_KIND = 5
MIN_RECENT_PER_KIND = 2
# How old (days since the application) a permit may be for each status a small demo is made
# to show; open applications stay younger than two months.
STATUS_AGE: dict[PermitStatus, tuple[int, int]] = {
    PermitStatus.DRAFT: (0, dd.DRAFT_DAYS),
    PermitStatus.APPLIED: (0, 7),
    PermitStatus.IN_REVIEW: (1, 25),
    PermitStatus.APPROVED: (2, 25),
    PermitStatus.ISSUED: (3, 40),
    PermitStatus.WORK_STARTED: (20, 300),
    PermitStatus.ON_HOLD: (20, 300),
    PermitStatus.COMPLETED: (60, 1_000),
    PermitStatus.EXPIRED: (200, 1_100),
    PermitStatus.REVOKED: (40, 700),
    PermitStatus.VOID: (20, 700),
    PermitStatus.WITHDRAWN: (10, 700),
    PermitStatus.DENIED: (10, 700),
}
OPEN_AGE_LIMIT = 50
# A live permit with a moved deadline: which status, rule and age make one.
EXTENSION_SHOWCASE: tuple[tuple[PermitStatus, Rule, tuple[int, int]], ...] = (
    (PermitStatus.ISSUED, Rule.BUILDING, (125, 150)),  # start extended (15.1.8(b))
    (PermitStatus.WORK_STARTED, Rule.BUILDING, (560, 680)),  # completion extended
    (PermitStatus.WORK_STARTED, Rule.STREET_OPENING, (32, 50)),  # renewed (§435-7)
    (PermitStatus.WORK_STARTED, Rule.EROSION, (185, 330)),  # 15.2.8(e)(1)
)


def _ages(applied: list[date], today: date, lo: int, hi: int) -> range:
    """The indexes of the permits applied for `lo` to `hi` days before today (applied is sorted)."""
    return range(
        bisect_left(applied, today - timedelta(days=hi)),
        bisect_left(applied, today - timedelta(days=lo - 1)),
    )


def _every_kind(
    rng: random.Random,
    kind_of: list[PermitKind],
    applied: list[date],
    kinds: tuple[PermitKind, ...],
    recent_from: int,
) -> None:
    """Give the rare kinds a handful of permits, taken from the most common kinds (in months
    when the rare kind is applied for)."""
    total = len(kind_of)
    minimum = min(MIN_PER_KIND, total // (3 * len(kinds)))
    min_recent = min(MIN_RECENT_PER_KIND, minimum)
    if minimum < 1:
        return
    counts = Counter(k.code for k in kind_of)
    recent = Counter(k.code for k in kind_of[recent_from:])
    plenty = 4 * MIN_PER_KIND
    taken: set[int] = set()
    for kind in kinds:
        while recent[kind.code] < min_recent or counts[kind.code] < minimum:
            lo = recent_from if recent[kind.code] < min_recent else 0
            if lo >= total:
                break
            best = max(dd.kind_weight(kind.code, m) for m in range(1, 13))
            found = None
            for attempt in range(200):
                i = lo + int(rng.random() * (total - lo))
                if i in taken or counts[kind_of[i].code] <= plenty:
                    continue
                season = dd.kind_weight(kind.code, applied[i].month) / best
                if attempt >= 100 or rng.random() < season:
                    found = i
                    break
            if found is None:
                break
            old = kind_of[found].code
            counts[old] -= 1
            counts[kind.code] += 1
            if found >= recent_from:
                recent[old] -= 1
                recent[kind.code] += 1
            kind_of[found] = kind
            taken.add(found)


def _follows(rule: Rule, kind: PermitKind) -> bool:
    return kind.lifecycle is rule


def _every_status(
    rng: random.Random,
    kind_of: list[PermitKind],
    applied: list[date],
    lcs: list[dd.Lifecycle],
    today: date,
    municipality: str,
    recent_from: int,
) -> set[int]:
    """Make a small demo show every status a few times, a few live permits with a moved
    deadline, and an open application whose survey is more than a year old; return the
    indexes of the latter (its checklist says so)."""
    total = len(lcs)
    minimum = 0 if total < 150 else 2 if total < 1_000 else 3
    counts = Counter(lc.status for lc in lcs)
    forced: set[int] = set()

    def fits(status: PermitStatus, kind: PermitKind) -> bool:
        if status is PermitStatus.ON_HOLD:
            return bool(dd.stop_work_reasons(kind))
        if status is PermitStatus.REVOKED:
            return bool(dd.revocation_grounds(kind))
        if status is PermitStatus.EXPIRED:
            return kind.lifecycle is not Rule.NONE
        if status is PermitStatus.WORK_STARTED:
            return kind.lifecycle is not Rule.GREASE_INTERCEPTOR
        return True

    def force(
        status: PermitStatus,
        ages: tuple[int, int],
        ok: Callable[[PermitKind], bool],
        extend: bool = False,
    ) -> int | None:
        lo, hi = ages
        for widen in range(3):
            top = hi * 2**widen
            if status in dd.OPEN:
                top = min(top, OPEN_AGE_LIMIT)
            span = _ages(applied, today, lo, top)
            candidates = [
                i
                for i in span
                if i not in forced and counts[lcs[i].status] > minimum and ok(kind_of[i])
            ]
            rng.shuffle(candidates)
            for i in candidates[:30]:
                lc = dd.lifecycle(rng, kind_of[i], applied[i], today, want=status, extend=extend)
                if lc.status is status and (not extend or lc.extension is not None):
                    counts[lcs[i].status] -= 1
                    counts[status] += 1
                    lcs[i] = lc
                    forced.add(i)
                    return i
        return None

    if minimum:
        for status in PermitStatus:
            for _ in range(minimum - counts[status]):
                force(status, STATUS_AGE[status], partial(fits, status))
        live_extended = sum(1 for lc in lcs if lc.extension is not None and lc.status in ACTIVE)
        more = True
        while more and live_extended < 2:
            more = False
            for status, rule, ages in EXTENSION_SHOWCASE:
                if live_extended < 2 and force(status, ages, partial(_follows, rule), True):
                    live_extended += 1
                    more = True

    # 15.1.7(b)(2): one open application whose survey is more than a year old.
    def surveyed(kind: PermitKind) -> bool:
        template = template_for(municipality, kind.code)
        return template is not None and template.item("survey.date") is not None

    waiting = (PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED)
    for i in range(total - 1, recent_from - 1, -1):
        if lcs[i].status in waiting and surveyed(kind_of[i]):
            return {i}
    if minimum and any(surveyed(k) for k in set(kind_of)):
        found = force(PermitStatus.IN_REVIEW, STATUS_AGE[PermitStatus.IN_REVIEW], surveyed)
        if found is not None:
            return {found}
    return set()


def _plan_permits(
    rng: random.Random,
    spec: DemoSpec,
    today: date,
    municipality_id: int,
    ids: _Ids,
    town: _Town,
    kinds: tuple[PermitKind, ...],
    now_cap: datetime | None,
    users: dict[str, int],
) -> _PermitPlan:
    total = spec.years * spec.per_year
    first_day = _window(spec, today)
    days = dd.office_days(first_day, today)
    applied = sorted(
        rng.choices(days, weights=[dd.MONTH_WEIGHT[d.month - 1] for d in days], k=total)
    )
    # The kind of each permit, drawn month by month (roofs in summer, furnaces in the fall).
    kind_of: list[PermitKind] = [kinds[0]] * total
    by_month: dict[int, list[int]] = {m: [] for m in range(1, 13)}
    for i, d in enumerate(applied):
        by_month[d.month].append(i)
    for month, indexes in by_month.items():
        drawn = rng.choices(kinds, [dd.kind_weight(k.code, month) for k in kinds], k=len(indexes))
        for i, k in zip(indexes, drawn, strict=True):
            kind_of[i] = k
    since = today - timedelta(days=365 * RECENT_YEARS)
    recent_from = max(bisect_left(applied, since), total - RECENT_LIMIT)
    _every_kind(rng, kind_of, applied, kinds, recent_from)
    lcs = [dd.lifecycle(rng, kind_of[i], applied[i], today) for i in range(total)]
    old_survey = _every_status(rng, kind_of, applied, lcs, today, spec.municipality, recent_from)

    price_index = {
        y: (1 + PRICE_INFLATION) ** (y - today.year) for y in range(first_day.year, today.year + 1)
    }
    offsets: dict[date, timedelta] = {}

    def utc(d: date, minute: int) -> datetime:
        off = offsets.get(d)
        if off is None:
            off = offsets[d] = timedelta(hours=-dd.central_utc_offset_hours(d))
        at = datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(minutes=minute) + off
        return at if now_cap is None or at <= now_cap else now_cap

    inspector, clerk = users["inspector"], users["clerk"]
    checklists = ChecklistPlanner(
        spec.municipality, today, spec.seed, ids.checklist + 1, clerk, inspector
    )
    rows: list[dict[str, Any]] = []
    party_lists: list[list[tuple[PartyRole, int]]] = []
    parcel_index: list[int] = []
    events: list[_Event] = []
    created_at: list[datetime] = []
    aux: list[list[dict[str, Any]]] = []
    orders: list[dict[str, Any]] = []
    extensions: list[dict[str, Any]] = []
    checklist_items: list[dict[str, Any]] = []
    unextended: dict[int, date] = {}  # the term a permit was issued with, before its extension
    residential, business = town.residential, town.business
    for i in range(total):
        k = kind_of[i]
        code = k.code
        day = applied[i]
        lc = lcs[i]
        if code in dd.COMMERCIAL_KINDS or (code in dd.MIXED_KINDS and rng.random() < 0.15):
            pi = rng.choice(business)
        else:
            pi = rng.choice(residential)
        work = dd.describe(code, rng, price_index[day.year])

        owner = town.owner_of_parcel[pi]
        roles = [(PartyRole.BUILDING_OWNER, owner)]
        if town.holding_owners and rng.random() < 0.04:
            roles.append((PartyRole.LAND_OWNER, rng.choice(town.holding_owners)))
        else:
            roles.append((PartyRole.LAND_OWNER, owner))
        contractor: tuple[PartyRole, int] | None = None
        trade = dd.KIND_TRADE.get(code)
        if trade is not None and rng.random() < trade[1]:
            members, cum = town.pools[trade[0]]
            pid = members[bisect_left(cum, rng.random() * cum[-1])]
            contractor = (dd.TRADES_BY_KEY[trade[0]].role, pid)
        by_trade = trade is not None and trade[0] in ("plumber", "electrician", "hvac")
        if contractor is not None and rng.random() < (0.92 if by_trade else 0.6):
            roles.append((PartyRole.APPLICANT, contractor[1]))
        else:
            roles.append((PartyRole.APPLICANT, owner))
        if contractor is not None:
            roles.append(contractor)
        if rng.random() < dd.KIND_DESIGNER.get(code, 0.0):
            members, _ = town.pools["designer"]
            roles.append((PartyRole.DESIGNER, rng.choice(members)))

        permit_id = ids.permit + i + 1
        row = {
            "id": permit_id,
            "municipality_id": municipality_id,
            "number": None,
            "kind": code,
            "permit_class": k.permit_class,
            "work_class": k.work_class,
            "description": work.description,
            "parcel_id": town.parcels[pi]["id"],
            "valuation": work.valuation,
            "floor_area_sqft": work.floor_area_sqft,
            "areas": work.areas,
            "dwelling_units": work.dwelling_units,
            "status": lc.status,
            "applied_on": day,
            "issued_on": lc.issued_on,
            "expires_on": lc.expires_on,
            "commenced_on": lc.commenced_on,
            "completed_on": lc.completed_on,
            "status_date": lc.status_date,
            "issued_by_id": inspector if lc.issued_on is not None else None,
            "approved_on": lc.approved_on,
            "last_activity_on": lc.last_activity_on,
            "requested_until": lc.requested_until,
            "emergency": lc.emergency,
            # The work facts of the intake form (revision 0006) the checklists read.
            "stories": work.stories,
            "volume_cuft": work.volume_cuft,
            "disturbed_acres": work.disturbed_acres,
            "work_details": _ownership_marks(k, work.dwelling_units, town, ids, owner),
            "construction_type": work.construction_type,
        }
        rows.append(row)
        party_lists.append(roles)
        parcel_index.append(pi)

        planned = None
        if i >= recent_from:
            planned = checklists.plan(
                row, decided=lc.issued_on or today, old_survey=i in old_survey
            )
            if planned is not None:
                checklist_items.extend(planned.rows)

        # The steps of its history, each at an office hour; same-day steps follow each other.
        steps: list[tuple[str, date]] = [("create", day)]
        if lc.issued_on is None:
            if lc.reviewed_on is not None:
                steps.append(("review", lc.reviewed_on))
        else:
            steps.append(("issue", lc.issued_on))
            if lc.status is PermitStatus.COMPLETED or lc.status is PermitStatus.VOID:
                # A completed permit's start is entered with its final inspection, in one step.
                steps.append(("finish", lc.status_date))
            else:
                _live_steps(steps, lc, today)
        term_before = lc.expires_on
        if lc.extension is not None:
            steps.append(("extend", lc.extension.granted_on))
            term_before = dd.term_end(
                PermitDates(
                    k.lifecycle,
                    PermitStatus.ISSUED,
                    lc.issued_on,
                    requested_until=lc.requested_until,
                )
            )
            if term_before != lc.expires_on and term_before is not None:
                unextended[i] = term_before
        if planned is not None and planned.waived is not None:
            steps.append(("waive", lc.issued_on or lc.approved_on or lc.reviewed_on or day))
        if lc.extension is not None or (planned is not None and planned.waived is not None):
            steps.sort(key=lambda s: (s[1], _STEP_ORDER[s[0]]))  # the others come in order
        minute = 0
        prev: date | None = None
        timed: dict[str, datetime] = {}
        for step, d in steps:
            if d == prev:
                minute = min(minute + 10 + int(rng.random() * 81), 17 * 60 + 30)
            else:
                minute = 8 * 60 + int(rng.random() * (7 * 60 + 31))
            prev = d
            at = utc(d, minute)
            timed[step] = at
            ref = -1
            if step not in _COMMON_STEPS:
                ref = len(aux)
                aux.append(
                    _rare_step(
                        step, at, row, lc, users, planned, ids, orders, extensions, term_before
                    )
                )
            events.append(_Event(at, i, step, ref))
        created_at.append(timed["create"])
        if planned is not None:  # what the clerk ticked came in before the permit was issued
            limit = timed.get("issue") or timed.get("waive") or now_cap
            for n, item in enumerate(planned.rows):
                if item["state"] is ItemState.WAIVED or item["at"] is None:
                    continue
                if item["at"] < timed["create"] or (limit is not None and item["at"] >= limit):
                    item["at"] = timed["create"] + timedelta(seconds=15 * (n + 1))

    # Numbers in the order of issue (15.1.6(c)): by issue date, then by id, per year.
    numbered = sorted(
        (r for r in rows if r["status"] in NUMBERED_STATUSES),
        key=lambda r: (r["issued_on"], r["id"]),
    )
    seq: dict[int, int] = {}
    for r in numbered:
        year = r["issued_on"].year
        seq[year] = seq.get(year, 0) + 1
        r["number"] = format_number(year, seq[year])
    events.sort(key=lambda e: (e.at, e.index, _STEP_ORDER[e.step]))
    return _PermitPlan(
        rows,
        party_lists,
        parcel_index,
        events,
        created_at,
        first_day,
        aux,
        orders,
        extensions,
        checklist_items,
        checklists,
        since,
        unextended,
    )


def _live_steps(steps: list[tuple[str, date]], lc: dd.Lifecycle, today: date) -> None:
    """The steps after issue of a permit that was not completed (or voided)."""
    order = lc.order
    if lc.commenced_on is not None:
        steps.append(("start", lc.commenced_on))
    since_start = (order.lifted_on if order else None) or lc.commenced_on
    seen = lc.last_activity_on
    if seen and since_start and seen > since_start:
        steps.append(("activity", seen))  # an inspection (record_activity)
    if order is not None and order.kind == "stop_work":
        steps.append(("hold", order.issued_on))
        if order.lifted_on is not None:
            steps.append(("lift", order.lifted_on))
    elif order is not None:
        steps.append(("revoke", order.issued_on))
    if lc.status is PermitStatus.EXPIRED:
        # sweep_lapsed marks it on the first morning the app starts after the deadline.
        steps.append(("expire", min(dd.next_office_day(lc.status_date), today)))


_STEP_ORDER = {
    "create": 0,
    "review": 1,
    "waive": 2,
    "issue": 3,
    "start": 4,
    "activity": 5,
    "extend": 6,
    "hold": 7,
    "lift": 8,
    "revoke": 9,
    "finish": 10,
    "expire": 11,
}
# Steps whose audit rows the worker derives from the permit's row; the others carry theirs.
_COMMON_STEPS = frozenset({"create", "review", "issue", "start", "finish"})


def _iso(d: date | None) -> str | None:
    return None if d is None else d.isoformat()


def _ch(name: str, old: str | None, new: str | None) -> dict[str, str | None]:
    return {"field": name, "old": old, "new": new}


def _audit(
    at: datetime,
    user: int | None,
    entity: str,
    entity_id: int,
    permit_id: int,
    action: str,
    changes: list[dict[str, str | None]],
) -> dict[str, Any]:
    return {
        "at": at,
        "user_id": user,
        "entity": entity,
        "entity_id": entity_id,
        "permit_id": permit_id,
        "action": action,
        "changes": changes,
    }


def _rare_step(
    step: str,
    at: datetime,
    row: dict[str, Any],
    lc: dd.Lifecycle,
    users: dict[str, int],
    planned: Planned | None,
    ids: _Ids,
    orders: list[dict[str, Any]],
    extensions: list[dict[str, Any]],
    term_before: date | None,
) -> list[dict[str, Any]]:
    """The rows a rarer step writes (an order, an extension, a waiver) and its audit rows, as
    the services and db.tracking write them (values in column order, rendered as text)."""
    pid = row["id"]
    inspector = users["inspector"]
    commenced = _iso(lc.commenced_on)
    if step == "activity":  # record_activity
        before = lc.order.lifted_on if lc.order and lc.order.lifted_on else lc.commenced_on
        changes = [_ch("last_activity_on", _iso(before), _iso(lc.last_activity_on))]
        return [_audit(at, inspector, "permit", pid, pid, "update", changes)]
    if step == "expire":  # sweep_lapsed, run by the app on start: no one signed in
        was = "work_started" if commenced else "issued"
        changes = [
            _ch("status", was, "expired"),
            _ch("status_date", commenced or _iso(lc.issued_on), _iso(lc.status_date)),
        ]
        return [_audit(at, None, "permit", pid, pid, "update", changes)]
    if step == "waive":  # mark_item by the inspector (15.1.7(c))
        assert planned is not None and planned.waived is not None
        item = planned.waived
        item["at"] = at
        changes = [
            _ch("state", "open", "waived"),
            _ch("reason", "", item["reason"]),
            _ch("by_user_id", None, str(inspector)),
            _ch("at", None, at.isoformat()),
        ]
        return [_audit(at, inspector, "permit_checklist_item", item["id"], pid, "update", changes)]
    if step == "extend":  # extend_deadline
        ext = lc.extension
        assert ext is not None
        ext_id = ids.extension + len(extensions) + 1
        extensions.append(
            {
                "id": ext_id,
                "permit_id": pid,
                "deadline": ext.deadline,
                "until": ext.until,
                "reason": ext.reason,
                "by_user_id": inspector,
                "at": at,
            }
        )
        out = [
            _audit(
                at,
                inspector,
                "permit_extension",
                ext_id,
                pid,
                "create",
                [
                    _ch("permit_id", None, str(pid)),
                    _ch("deadline", None, ext.deadline),
                    _ch("until", None, ext.until.isoformat()),
                    _ch("reason", None, ext.reason),
                    _ch("by_user_id", None, str(inspector)),
                    _ch("at", None, at.isoformat()),
                ],
            )
        ]
        if term_before != lc.expires_on:
            changes = [_ch("expires_on", _iso(term_before), _iso(lc.expires_on))]
            out.append(_audit(at, inspector, "permit", pid, pid, "update", changes))
        return out
    order = lc.order
    assert order is not None
    if step == "lift":  # lift_stop_work_order
        order_id = orders[-1]["id"]
        lifted = _iso(order.lifted_on)
        return [
            _audit(
                at,
                inspector,
                "permit_order",
                order_id,
                pid,
                "update",
                [_ch("lifted_on", None, lifted), _ch("lift_notice", "", order.lift_notice)],
            ),
            _audit(
                at,
                inspector,
                "permit",
                pid,
                pid,
                "update",
                [
                    _ch("status", "on_hold", "work_started"),
                    _ch("status_date", _iso(order.issued_on), lifted),
                    _ch("last_activity_on", commenced, lifted),
                ],
            ),
        ]
    # hold (issue_stop_work_order) or revoke (revoke_permit): the order and the new status.
    order_id = ids.order + len(orders) + 1
    orders.append(
        {
            "id": order_id,
            "permit_id": pid,
            "kind": order.kind,
            "issued_on": order.issued_on,
            "reasons": order.reasons,
            "section": order.section,
            "by_user_id": inspector,
            "at": at,
            "lifted_on": order.lifted_on,
            "lift_notice": order.lift_notice,
        }
    )
    status = "on_hold" if order.kind == "stop_work" else "revoked"
    return [
        _audit(
            at,
            inspector,
            "permit_order",
            order_id,
            pid,
            "create",
            [
                _ch("permit_id", None, str(pid)),
                _ch("kind", None, order.kind),
                _ch("issued_on", None, order.issued_on.isoformat()),
                _ch("reasons", None, order.reasons),
                _ch("section", None, order.section),
                _ch("by_user_id", None, str(inspector)),
                _ch("at", None, at.isoformat()),
            ],
        ),
        _audit(
            at,
            inspector,
            "permit",
            pid,
            pid,
            "update",
            [
                _ch("status", "work_started", status),
                _ch("status_date", commenced, order.issued_on.isoformat()),
            ],
        ),
    ]


def _audit_rows(event: _Event, job: _Job) -> list[dict[str, Any]]:
    """The audit rows of one step, with values rendered as db.tracking renders them."""
    if event.ref >= 0:
        return job.aux[event.ref]
    row = job.rows[event.index]
    users = job.users
    status = row["status"].value
    user = users["inspector"]
    step = event.step
    if step == "create":
        user = users["clerk"]
        changes = [
            _ch("municipality_id", None, str(row["municipality_id"])),
            _ch("kind", None, row["kind"]),
            _ch("permit_class", None, row["permit_class"].value),
            _ch("work_class", None, row["work_class"].value),
            _ch("description", None, row["description"]),
            _ch("parcel_id", None, str(row["parcel_id"])),
            _ch("valuation", None, f"{row['valuation']:.2f}"),
            _ch("floor_area_sqft", None, str(row["floor_area_sqft"])),
        ]
        if row["areas"]:
            changes.append(_ch("areas", None, json.dumps(row["areas"], sort_keys=True)))
        applied = row["applied_on"].isoformat()
        changes += [
            _ch("dwelling_units", None, str(row["dwelling_units"])),
            _ch("status", None, "draft" if status == "draft" else "applied"),
            _ch("applied_on", None, applied),
            _ch("status_date", None, applied),
        ]
        if row["emergency"]:
            changes.append(_ch("emergency", None, "True"))
        if row["stories"] is not None:
            changes.append(_ch("stories", None, str(row["stories"])))
            changes.append(_ch("volume_cuft", None, str(row["volume_cuft"])))
        if row["construction_type"]:
            changes.append(_ch("construction_type", None, row["construction_type"]))
        if row["disturbed_acres"] is not None:
            changes.append(_ch("disturbed_acres", None, f"{row['disturbed_acres']:.2f}"))
        if row["work_details"]:  # as db/tracking.py writes a dict
            details = json.dumps(row["work_details"], sort_keys=True)
            changes.append(_ch("work_details", None, details))
    elif step == "review":
        if status == "withdrawn":
            user = users["clerk"]
        changes = [
            _ch("status", "applied", status),
            _ch("status_date", row["applied_on"].isoformat(), _iso(row["status_date"])),
        ]
        if row["approved_on"] is not None:
            changes.append(_ch("approved_on", None, row["approved_on"].isoformat()))
    elif step == "issue":
        issued = row["issued_on"].isoformat()
        changes = [
            _ch("number", None, row["number"]),
            _ch("status", "applied", "issued"),
            _ch("issued_on", None, issued),
        ]
        if row["expires_on"] is not None:
            # Before any extension: the term the permit was issued with.
            term = job.unextended.get(event.index, row["expires_on"])
            changes.append(_ch("expires_on", None, term.isoformat()))
        changes += [
            _ch("status_date", row["applied_on"].isoformat(), issued),
            _ch("issued_by_id", None, str(row["issued_by_id"])),
        ]
        if row["requested_until"] is not None:
            changes.append(_ch("requested_until", None, row["requested_until"].isoformat()))
    elif step == "start":
        commenced = row["commenced_on"].isoformat()
        changes = [
            _ch("status", "issued", "work_started"),
            _ch("commenced_on", None, commenced),
            _ch("status_date", row["issued_on"].isoformat(), commenced),
            _ch("last_activity_on", None, commenced),
        ]
    elif status == "completed":  # the final inspection: started and completed
        changes = [
            _ch("status", "issued", status),
            _ch("commenced_on", None, row["commenced_on"].isoformat()),
            _ch("completed_on", None, row["completed_on"].isoformat()),
            _ch("status_date", row["issued_on"].isoformat(), row["status_date"].isoformat()),
            _ch("last_activity_on", None, row["completed_on"].isoformat()),
        ]
    else:  # void (void_permit)
        changes = [
            _ch("status", "issued", status),
            _ch("status_date", row["issued_on"].isoformat(), _iso(row["status_date"])),
        ]
    return [
        {
            "at": event.at,
            "user_id": user,
            "entity": "permit",
            "entity_id": row["id"],
            "permit_id": row["id"],
            "action": "create" if step == "create" else "update",
            "changes": changes,
        }
    ]


# --- writing ----------------------------------------------------------------------------------
#
# Rows go in with executemany of Core `insert(table)` statements. On PostgreSQL that is
# `conn.execute(insert(table), rows)`. On SQLite, where SQLAlchemy's per-row parameter bookkeeping
# costs more than SQLite's own work on the 1.7 million search-term rows of a 100,000-permit
# database, the same compiled statement runs through the driver's executemany with parameters
# made by the columns' own bind processors (dates, enums, money, JSON, UTC times).

_COMPILED: dict[tuple[str, str, tuple[str, ...]], tuple[str, list[tuple[str, Any]]]] = {}


def _compiled(dialect: Dialect, table: Any, keys: tuple[str, ...]) -> tuple[str, list[Any]]:
    """The INSERT for these columns and, in parameter order, each column's bind processor."""
    key = (dialect.name, table.name, keys)
    found = _COMPILED.get(key)
    if found is None:
        compiled = insert(table).compile(dialect=dialect, column_keys=list(keys))
        assert compiled.positiontup is not None
        order = list(compiled.positiontup)
        procs = [table.c[k].type.dialect_impl(dialect).bind_processor(dialect) for k in order]
        found = _COMPILED[key] = (compiled.string, list(zip(order, procs, strict=True)))
    return found


@dataclass
class _Batch:
    """Rows for one table: dicts for `conn.execute(insert(table), rows)`, or an SQLite INSERT
    with its parameter tuples ready for the driver (made in the worker process)."""

    table: str
    rows: list[dict[str, Any]] | None = None
    sql: str = ""
    params: list[tuple[Any, ...]] | None = None
    # Audit rows: each row's content without its id (db/audit_chain.py), made in the worker;
    # this process gives the rows their ids and chains their hashes, in order.
    tails: list[str] | None = None
    id_hash_at: tuple[int, int] = (0, 0)  # where the id and the hash are in `params`


def _batch(dialect: Dialect | None, table: Any, rows: list[dict[str, Any]]) -> _Batch:
    if dialect is None or not rows:
        return _Batch(table.name, rows=rows)
    sql, columns = _compiled(dialect, table, tuple(rows[0]))
    # Column by column: the loops run in C except for the processors themselves.
    values: list[Iterable[Any]] = []
    for key, proc in columns:
        column = map(itemgetter(key), rows)
        values.append(column if proc is None else map(proc, column))
    return _Batch(table.name, sql=sql, params=list(zip(*values, strict=True)))


class _Writer:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.dialect: Dialect | None = conn.dialect if conn.dialect.name == "sqlite" else None

    def __call__(self, table: Any, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            self.batch(_batch(self.dialect, table, list(rows)))

    def batch(self, batch: _Batch) -> None:
        if batch.params:
            self.conn.exec_driver_sql(batch.sql, batch.params)
        elif batch.rows:
            self.conn.execute(insert(schema.metadata.tables[batch.table]), batch.rows)


# What each chunk of permits brings with it: its rows of the permits list's search index
# (db.tracking.listing_row, the app's own function) and the audit rows due by then. Both are
# pure and the costliest part of the work, so a large build computes them in a forked worker
# process while this one writes; the rows are the same either way.
_ListingInput = tuple[int, str | None, str, str, str, str, list[tuple[PartyRole, str]]]


@dataclass
class _Job:
    listing_input: list[_ListingInput]
    rows: list[dict[str, Any]]
    events: list[_Event]
    event_bounds: list[tuple[int, int]]  # per chunk: the slice of `events` written with it
    users: dict[str, int]
    dialect: Dialect | None
    aux: list[list[dict[str, Any]]]
    unextended: dict[int, date]


_JOB: _Job | None = None
PARALLEL_FROM = 20_000  # permits


def _derive_chunk(chunk: int) -> list[_Batch]:
    job = _JOB
    assert job is not None
    start = chunk * CHUNK
    listing: list[dict[str, Any]] = []
    terms: list[dict[str, Any]] = []
    for args in job.listing_input[start : start + CHUNK]:
        row, term_rows = listing_row(*args)
        listing.append(row)
        terms.extend(term_rows)
    terms.sort(key=itemgetter("term"))  # neighbouring keys: fewer index pages touched
    lo, hi = job.event_bounds[chunk]
    audit = [a for e in job.events[lo:hi] for a in _audit_rows(e, job)]
    return [
        _batch(job.dialect, schema.permit_listing, listing),
        _batch(job.dialect, schema.permit_search_term, terms),
        _audit_batch(job.dialect, audit),
    ]


def _audit_batch(dialect: Dialect | None, rows: list[dict[str, Any]]) -> _Batch:
    """Audit rows ready for the driver, each with its content without its id: _Chain gives them
    their ids and hashes as they are written, in order. The changes are encoded once, for the
    column and the hash alike, as audit_chain.append_encoded writes them ("changes_json" when a
    row brings them encoded already)."""
    for a in rows:  # the rows are this batch's own
        if "changes_json" not in a:
            a["changes_json"] = audit_chain.encoded_changes(a["changes"])
    tails = [audit_chain.encoded_tail(a) for a in rows]
    if dialect is None:  # PostgreSQL: dicts through SQLAlchemy, the changes as JSON values
        audit = [
            {
                **{f: a[f] for f in _AUDIT_FIELDS if f != "changes"},
                "changes": a["changes"] if "changes" in a else json.loads(a["changes_json"]),
                "id": 0,
                "row_hash": "",
            }
            for a in rows
        ]
        return _Batch(schema.audit_event.name, rows=audit, tails=tails)
    keys = (*_AUDIT_FIELDS, "id", "row_hash")
    sql, columns = _compiled(dialect, schema.audit_event, keys)
    order = [key for key, _ in columns]
    at_proc = dict(columns)["at"]
    stored: dict[datetime, Any] = {}
    # Each row's parameters in the statement's order; the id and hash are _Chain's to fill in.
    source = ["changes_json" if k == "changes" else k for k in order]
    params = []
    for a in rows:
        at = a["at"]
        if at not in stored:
            stored[at] = at_proc(at) if at_proc is not None else at
        a = {**a, "id": 0, "row_hash": "", "at": stored[at]}
        params.append(tuple([a[k] for k in source]))
    batch = _Batch(schema.audit_event.name, sql=sql, params=params, tails=tails)
    batch.id_hash_at = (order.index("id"), order.index("row_hash"))
    return batch


_AUDIT_FIELDS = ("at", "user_id", "entity", "entity_id", "permit_id", "action", "changes")


class _Chain:
    """Ids and hashes for the bulk audit rows, chained onto the services' rows before them."""

    def __init__(self, conn: Connection) -> None:
        audit_chain.lock(conn)
        self.last_id, self.previous = audit_chain.last_link(conn)

    def __call__(self, batch: _Batch) -> None:
        if batch.tails is None:
            return
        link, previous, row_id = audit_chain.link, self.previous, self.last_id
        hashes = []
        for tail in batch.tails:
            row_id += 1
            previous = link(previous, row_id, tail)
            hashes.append(previous)
        first_id = self.last_id + 1
        if batch.params is not None:
            at_id, at_hash = batch.id_hash_at
            params = []
            for i, (values, h) in enumerate(zip(batch.params, hashes, strict=True)):
                row = list(values)
                row[at_id], row[at_hash] = first_id + i, h
                params.append(tuple(row))
            batch.params = params
        elif batch.rows:
            for i, (r, h) in enumerate(zip(batch.rows, hashes, strict=True)):
                r["id"], r["row_hash"] = first_id + i, h
        self.last_id, self.previous = row_id, previous


# The money is planned and made ready for the driver in a worker too, while this
# process writes the permits: a large build's main process is its slowest part.
_MONEY: Callable[[], tuple[demo_cash.CashPlan, list[_Batch]]] | None = None


def _money_batches(_: int = 0) -> tuple[demo_cash.CashPlan, list[_Batch]]:
    assert _MONEY is not None
    return _MONEY()


@contextmanager
def _derived(
    job: _Job, chunks: int, money: Callable[[], demo_cash.CashPlan]
) -> Iterator[tuple[Iterator[list[_Batch]], Callable[[], tuple[demo_cash.CashPlan, list[_Batch]]]]]:
    """The derived rows chunk by chunk, and a function that returns the money's plan (without
    its rows) with its rows as batches in an order their references allow."""
    global _JOB, _MONEY

    def make_money() -> tuple[demo_cash.CashPlan, list[_Batch]]:
        plan = money()
        batches = [
            _batch(job.dialect, schema.metadata.tables[name], list(part))
            for name in demo_cash.TABLES
            for part in _chunks(plan.rows[name], CHUNK)
        ]
        # The money's audit rows, loaded at the last moment of the history: after every permit
        # event's, so the trail stays in time order.
        moments = [m for m in (demo_cash.last_moment(plan.rows), _last_event(job)) if m]
        if moments:
            audit = demo_cash.audit_rows(plan.rows, max(moments))
            batches += [_audit_batch(job.dialect, list(part)) for part in _chunks(audit, CHUNK)]
        return replace(plan, rows={}), batches

    _JOB, _MONEY = job, make_money
    parallel = (
        len(job.listing_input) >= PARALLEL_FROM
        and (os.cpu_count() or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1  # never fork a process with threads (the GUI)
    )
    try:
        if parallel:
            # Forked before the write transaction begins; the children never touch the database.
            with multiprocessing.get_context("fork").Pool(2) as pool:
                pending = pool.apply_async(_money_batches, (0,))
                yield pool.imap(_derive_chunk, range(chunks)), pending.get
        else:
            yield map(_derive_chunk, range(chunks)), make_money
    finally:
        _JOB = _MONEY = None


@contextmanager
def _bulk_transaction(database: Database) -> Iterator[Connection]:
    """One transaction for the bulk rows. On SQLite, foreign keys are not checked row by row
    (the generator assigns every id itself; `permitdesk db check` runs PRAGMA foreign_key_check,
    and the tests do)."""
    with database.engine.connect() as conn:
        raw = conn.connection.dbapi_connection if conn.dialect.name == "sqlite" else None
        if raw is not None:
            raw.execute("PRAGMA foreign_keys=OFF")  # outside a transaction, or it is a no-op
        try:
            with conn.begin():
                yield conn
        finally:
            if raw is not None:
                raw.execute("PRAGMA foreign_keys=ON")


def _at(event: _Event) -> datetime:
    return event.at


def _last_event(job: _Job) -> datetime | None:
    return max((e.at for e in job.events), default=None)


def _day(d: date) -> str:
    return f"{d.day} {d:%b %Y}"


def _chunks(seq: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(seq), size):
        yield seq[start : start + size]


# --- writing --------------------------------------------------------------------------------


def build_demo(
    database: Database,
    spec: DemoSpec,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """Fill an empty database with demo data; return a paragraph saying what is in it."""
    # Millions of small rows and no reference cycles: the cyclic collector would only walk
    # them again and again (a third of the time of a 100,000-permit build).
    if not kinds_for(spec.municipality) and spec.municipality in shipped_profiles():
        # A municipality with code enforcement only (Hudson ch. 140): no permits to make.
        from db.demo_enforcement import build_enforcement_demo

        return build_enforcement_demo(database, spec)
    collecting = gc.isenabled()
    gc.disable()
    try:
        summary = _build(database, spec, progress)
    finally:
        if collecting:
            gc.enable()
    if not spec.sureties:
        return summary
    from db.demo_licensing import demo_licensing
    from db.demo_sureties import demo_sureties

    today = spec.today or date.today()
    sureties = demo_sureties(database, today)
    # City licences and condemnations (db/demo_licensing.py), after the sureties, the same way.
    return f"{summary} {sureties} {demo_licensing(database, today)}"


def open_demo_office(
    database: Database, spec: DemoSpec, clock: FixedClock
) -> tuple[Actor, dict[str, int], int, str]:
    """The demo users and the municipality, through the services, as the office would on its
    first day: (the administrator, user id by user name, the municipality's id, its name)."""
    uow = database.uow()
    name, full, _ = DEMO_USERS[0]
    admin = create_first_administrator(uow, clock, name, full, DEMO_PASSWORD, DEMO_TITLES[name])
    users = {name: admin.user_id}
    for name, full, staff_roles in DEMO_USERS[1:]:
        users[name] = create_user(
            uow,
            clock,
            admin,
            username=name,
            full_name=full,
            title=DEMO_TITLES[name],
            password=DEMO_PASSWORD,
            roles=staff_roles,
            must_change_password=False,  # the README gives every demo login's password
        )
    municipality_id = ensure_municipality(uow, clock, admin, spec.municipality)
    with uow:
        uow.act_as(admin, clock.now())
        muni = uow.municipalities.get(municipality_id)
        assert muni is not None
        muni.settings = {**muni.settings, "demo": True}
        muni.inspector_name = dd.DEMO_INSPECTOR_NAME
        # The office's first day, before any document: its first letterhead version names
        # the demo inspector too.
        for version in uow.registers.find(LetterheadVersion, municipality_id=municipality_id):
            version.inspector_name = dd.DEMO_INSPECTOR_NAME
        uow.commit()
        town_name = muni.name
    return admin, users, municipality_id, town_name


def _build(
    database: Database,
    spec: DemoSpec,
    progress: Callable[[int, int], None] | None,
) -> str:
    started = time.perf_counter()
    if spec.years < 1:
        raise ValidationError("years", "must be at least 1")
    if spec.per_year < 0:
        raise ValidationError("per year", "must not be negative")
    kinds = kinds_for(spec.municipality)
    if not kinds:
        raise ValidationError("municipality", f"'{spec.municipality}' has no permit kinds")
    profile = shipped_profiles().get(spec.municipality, {})
    today = spec.today or date.today()
    now_cap = datetime.now(UTC) if spec.today is None else None
    rng = random.Random(spec.seed)
    first_day = _window(spec, today)
    total = spec.years * spec.per_year

    # Staff and the municipality, through the services, as the office would on its first day.
    clock = FixedClock(
        datetime(first_day.year, first_day.month, first_day.day, 8, tzinfo=UTC)
        + timedelta(hours=-dd.central_utc_offset_hours(first_day))
    )
    _admin, users, municipality_id, town_name = open_demo_office(database, spec, clock)

    # The fee schedule and the GL accounts, imported by the services as on the first day.
    schedule, ledger = demo_cash.prepare(database, municipality_id, spec.municipality, clock.now())
    if progress:
        progress(0, total)
    with database.engine.connect() as conn:
        ids = _Ids(conn)
        cash_ids = demo_cash.CashIds(conn)
    town = _plan_town(rng, spec, today, municipality_id, ids, profile.get("city", ""), total)
    plan = _plan_permits(rng, spec, today, municipality_id, ids, town, kinds, now_cap, users)
    names = {p["id"]: p["name"] for p in town.parties}
    links = [
        {"permit_id": row["id"], "party_id": pid, "role": role}
        for row, roles in zip(plan.rows, plan.parties, strict=True)
        for role, pid in roles
    ]
    listing_input: list[_ListingInput] = []
    for row, roles, pi in zip(plan.rows, plan.parties, plan.parcel_index, strict=True):
        parcel = town.parcels[pi]
        listing_input.append(
            (
                row["id"],
                row["number"],
                parcel["pin"],
                parcel["house_number"],
                parcel["street"],
                parcel["unit"],
                [(role, names[pid]) for role, pid in roles],
            )
        )
    # The history goes in in time order: with each chunk, the events before the moment the
    # next chunk's first permit arrives.
    starts = range(0, total, CHUNK)
    bounds: list[tuple[int, int]] = []
    lo = 0
    for start in starts:
        end = start + CHUNK
        hi = (
            bisect_left(plan.events, plan.created_at[end], lo=lo, key=_at)
            if end < total
            else len(plan.events)
        )
        bounds.append((lo, hi))
        lo = hi
    sqlite_dialect = database.engine.dialect if database.engine.dialect.name == "sqlite" else None
    job = _Job(
        listing_input,
        plan.rows,
        plan.events,
        bounds,
        users,
        sqlite_dialect,
        plan.aux,
        plan.unextended,
    )

    money_plan = partial(
        demo_cash.plan_cash,
        seed=spec.seed,
        municipality=spec.municipality,
        municipality_id=municipality_id,
        today=today,
        now_cap=now_cap,
        schedule=schedule,
        ledger=ledger,
        users=users,
        ids=cash_ids,
        permits=plan.rows,
        roles=plan.parties,
        parties=town.parties,
    )

    with (
        _derived(job, len(starts), money_plan) as (derived, money_ready),
        _bulk_transaction(database) as conn,
    ):
        write = _Writer(conn)
        chain = _Chain(conn)
        for part in _chunks(town.parties, CHUNK):
            write(schema.party, part)
        for part in _chunks(town.credentials, CHUNK):
            write(schema.credential, part)
        for part in _chunks(town.parcels, CHUNK):
            write(schema.parcel, part)
        link = 0
        for start, batches in zip(starts, derived, strict=True):
            end = min(start + CHUNK, total)
            write(schema.permit, plan.rows[start:end])
            first_link = link
            while link < len(links) and links[link]["permit_id"] <= plan.rows[end - 1]["id"]:
                link += 1
            write(schema.permit_party, links[first_link:link])
            for batch in batches:
                chain(batch)
                write.batch(batch)
            if progress:
                progress(end, total)
        for extra, rows in (
            (schema.permit_order, plan.orders),
            (schema.permit_extension, plan.extensions),
            (schema.permit_checklist_item, plan.checklist_items),
        ):
            for part in _chunks(rows, CHUNK):
                write(extra, part)
        money, money_batches = money_ready()
        for batch in money_batches:
            chain(batch)
            write.batch(batch)
        demo_cash.set_receipt_counters(conn, municipality_id, money)
        # Inspections after the fees: re-inspections follow the fees added.
        inspected = demo_inspections.write_inspections(
            conn,
            write,
            municipality=spec.municipality,
            municipality_id=municipality_id,
            permits=plan.rows,
            today=today,
            now_cap=now_cap,
            seed=spec.seed,
            users=users,
        )

        last: dict[int, int] = {}
        for r in plan.rows:
            if r["number"] is not None:
                year = r["issued_on"].year
                last[year] = max(last.get(year, 0), int(r["number"].split("-")[1]))
        for year, value in sorted(last.items()):
            set_at_least(conn, municipality_id, PERMIT_SERIES, year, value)
        # Fresh statistics, or SQLite's planner walks all 100,000 permits through the
        # municipality_id index for every search instead of looking up the matched ids.
        conn.exec_driver_sql("ANALYZE")
        if conn.dialect.name == "postgresql":
            for table in (
                "parcel",
                "party",
                "permit",
                "permit_order",
                "permit_extension",
                "permit_checklist_item",
                "audit_event",
                *demo_cash.TABLES,
            ):
                conn.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT MAX(id) FROM {table}))"
                    )
                )

    numbered = sum(1 for r in plan.rows if r["number"] is not None)
    held = sum(1 for r in plan.rows if r["status"] is PermitStatus.ON_HOLD)
    revoked = sum(1 for r in plan.rows if r["status"] is PermitStatus.REVOKED)
    expired = sum(1 for r in plan.rows if r["status"] is PermitStatus.EXPIRED)
    seconds = time.perf_counter() - started
    span = f" applied for from {_day(plan.applied_from)} to {_day(today)}" if total else ""
    logins = ", ".join(u for u, _, _ in DEMO_USERS)
    return (
        f"Demo database for {town_name} at {database.where}: {total:,} permits{span} "
        f"({numbered:,} issued and numbered; {held:,} on hold under a stop-work order, "
        f"{revoked:,} revoked, {expired:,} expired, {len(plan.extensions):,} deadline "
        f"extensions), {len(town.parcels):,} parcels, "
        f"{len(town.parties):,} parties ({town.owners:,} owners, {town.contractors:,} "
        f"contractors, {town.designers:,} designers) and {len(DEMO_USERS)} users, "
        f"built in {seconds:.1f} s. Sign in as {logins}; every password is "
        f"'{DEMO_PASSWORD}'."
        + plan.checklists.summary(plan.checklists_since)
        + money.summary()
        + inspected.summary()
    )
