"""City electrical licences and condemnations for a demo database.

`demo_licensing(database, today)` adds them to a demo register that `permitdesk demo` built,
after the bonds and deposits, through the services and on their own days (a fixed clock set to
each day), as the office would have recorded them:

- City electrical licences (Glendale 15.1.75) granted each January to the electrical contractors
  of the register whose state licence is in force that day, numbered EL-YYYY-NNNN; two revoked
  after the inspector's complaint, the Clerk's hearing and the Council's finding (15.1.78), one
  complaint dismissed, and this year's complaint with its hearing scheduled;
- condemnations of dwellings (Hudson ch. 140): open and overdue to vacate, open and vacated,
  placarded this week, lifted on written approval, and razed (on the parcel of a razing permit
  when the register has one) or removed.

Glendale only: the other municipality's ordinances license no trade. It picks the demo's own
parties and parcels; the summary says what was added.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, and_, select

from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain import licensing as rules
from desk.domain.enums import PermitStatus, WorkClass
from desk.domain.licensing import Outcome
from desk.domain.model import Actor
from desk.errors import DeskError
from desk.services import licensing as svc
from desk.services.users import actor_for_username

LICENSEES = 10  # electrical contractors licensed each year
pa = schema.party
cr = schema.credential
pc = schema.parcel
p_ = schema.permit


@dataclass
class _Made:
    licences: int = 0
    revoked: int = 0
    dismissed: int = 0
    pending: int = 0
    condemnations: dict[str, int] = field(default_factory=dict)

    def condemned(self, state: str) -> None:
        self.condemnations[state] = self.condemnations.get(state, 0) + 1


@dataclass(frozen=True)
class _Staff:
    clerk: Actor
    inspector: Actor


def _at(day: date) -> FixedClock:
    return FixedClock(day)


def _office_day(day: date) -> date:
    """The day, or the Monday after when it falls on a weekend."""
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _municipality(conn: Connection) -> tuple[int, str]:
    m = schema.municipality
    row = conn.execute(select(m.c.id, m.c.key).order_by(m.c.id)).first()
    if row is None:
        raise DeskError("the database has no municipality yet")
    return int(row.id), str(row.key)


def _first_year(conn: Connection, municipality_id: int, today: date) -> int:
    first = conn.execute(
        select(p_.c.applied_on)
        .where(p_.c.municipality_id == municipality_id, p_.c.applied_on.is_not(None))
        .order_by(p_.c.applied_on)
        .limit(1)
    ).scalar()
    if first is None:
        return today.year
    # The first January the register covers (a register that starts in December starts its
    # licences the next January).
    year = first.year if first <= date(first.year, 1, 5) else first.year + 1
    return min(year, today.year)


def _electricians(conn: Connection) -> list[int]:
    kinds = [k.value for k in rules.QUALIFYING["electrical"]]
    ids = conn.execute(
        select(pa.c.id).join(cr, cr.c.party_id == pa.c.id).where(cr.c.kind.in_(kinds)).distinct()
    ).scalars()
    return sorted(int(x) for x in ids)[:LICENSEES]


def demo_licensing(database: Database, today: date) -> str:
    """Add the demo's City licences and condemnations; return a sentence saying what."""
    with database.read() as conn:
        municipality_id, key = _municipality(conn)
        first_year = _first_year(conn, municipality_id, today)
        electricians = _electricians(conn)
    if key != "glendale":
        return "No City licences or condemnations: this municipality's ordinances have none."
    uow = database.uow()
    staff = _Staff(actor_for_username(uow, "clerk"), actor_for_username(uow, "inspector"))
    made = _Made()
    _licences(database, municipality_id, today, first_year, electricians, staff, made)
    _condemnations(database, municipality_id, today, first_year, staff, made)
    states = ", ".join(f"{n} {state}" for state, n in made.condemnations.items())
    return (
        f"{made.licences} City electrical licences ({made.revoked} revoked after a Council "
        f"hearing, {made.dismissed} complaint dismissed, {made.pending} pending); "
        f"condemnations: {states or 'none'}."
    )


# --- licences (15.1.75, 15.1.78) ----------------------------------------------------------------


def _licences(
    database: Database,
    municipality_id: int,
    today: date,
    first_year: int,
    electricians: list[int],
    staff: _Staff,
    made: _Made,
) -> None:
    """Year by year: each January the electricians whose state licence is in force are licensed
    for the year, in the order they come in (numbers in the order of issue); then the year's
    complaints. A licensee whose licence was revoked is not licensed again in the demo."""
    revoked: set[int] = set()
    years = list(range(first_year, today.year + 1))
    for year in years:
        day = _office_day(date(year, 1, 5))
        granted: list[tuple[int, int]] = []  # (licence id, party id)
        for party_id in electricians:
            if day > today or party_id in revoked:
                continue
            try:
                licence = svc.grant_city_licence(
                    database.uow(),
                    _at(day),
                    staff.inspector,
                    municipality_id,
                    party_id,
                    fee_note="Licence fee paid at the counter",
                )
            except DeskError:
                continue  # the state licence had lapsed: no City licence that year
            granted.append((licence.licence_id, party_id))
            made.licences += 1
            day = _office_day(day + timedelta(days=2))
        for index, disqualified in _complaints(year, years, today):
            if not -len(granted) <= index < len(granted):
                continue
            licence_id, party_id = granted[index]
            if disqualified is None:  # this year's: the complaint is open
                complaint = today - timedelta(days=12)
            else:
                complaint = _office_day(date(year, 6, 2) if disqualified else date(year, 9, 8))
            if complaint > today or complaint.year != year:
                continue
            try:
                done = _complain(database, licence_id, complaint, today, disqualified, staff, made)
            except DeskError:
                continue
            if done:
                revoked.add(party_id)


def _complaints(year: int, years: list[int], today: date) -> list[tuple[int, bool | None]]:
    """(index of the year's licence, disqualified) of the year's complaints: a licence revoked
    in the first year, the last one revoked and the first one cleared in the last full year, and
    an open complaint this year."""
    out: list[tuple[int, bool | None]] = []
    full = [y for y in years if y < today.year]
    if full and year == full[0]:
        out.append((1, True))
    if full and year == full[-1]:
        out += [(-1, True), (0, False)]
    if year == today.year:
        out.append((0, None))
    return out


def _complain(
    database: Database,
    licence_id: int,
    complaint: date,
    today: date,
    disqualified: bool | None,
    staff: _Staff,
    made: _Made,
) -> bool:
    """File the complaint and follow it as far as `today` allows; True when revoked."""
    basis = (
        "Wiring concealed before the rough-in inspection at two sites; a correction order "
        "not complied with within seven days (15.1.76(c))"
        if disqualified is not False
        else "Late notice of the completion of wiring (15.1.76(c))"
    )
    svc.file_licence_complaint(
        database.uow(), _at(complaint), staff.inspector, licence_id, complaint, basis
    )
    notice = complaint + timedelta(days=3)
    hearing = _office_day(complaint + timedelta(days=14))
    if notice > today and disqualified is not None:
        return False
    svc.schedule_revocation_hearing(
        database.uow(),
        _at(min(notice, today)),
        staff.clerk,
        licence_id,
        hearing,
        notice,
        "The licensee and the employer, by certified mail",
    )
    if disqualified is None:
        made.pending += 1
        return False
    day_after = hearing + timedelta(days=1)
    if day_after > today:
        return False
    finding = (
        "The Council finds the licensee, for good and proper cause, disqualified to hold the "
        "licence (vote 6–1)"
        if disqualified
        else "The Council does not find the licensee disqualified; the complaint is dismissed"
    )
    svc.record_council_finding(
        database.uow(), _at(day_after), staff.clerk, licence_id, hearing, disqualified, finding
    )
    if not disqualified:
        made.dismissed += 1
        return False
    svc.revoke_city_licence(database.uow(), _at(day_after), staff.inspector, licence_id)
    made.revoked += 1
    return True


# --- condemnations (Hudson 140; 15.1.6(c)) -----------------------------------------------------


def _addresses(conn: Connection, municipality_id: int, n: int) -> list[tuple[int, str]]:
    """Residential parcels spread over the register: (parcel id, address)."""
    rows = conn.execute(
        select(pc.c.id, pc.c.house_number, pc.c.street)
        .where(
            pc.c.municipality_id == municipality_id,
            pc.c.house_number != "",
            pc.c.zoning_district.like("R%"),
        )
        .order_by(pc.c.id)
    ).all()
    if not rows:
        return []
    step = max(1, len(rows) // (n + 1))
    picked = rows[step::step][:n]
    return [(int(r.id), f"{r.house_number} {r.street}") for r in picked]


def _razing_permit(conn: Connection, municipality_id: int, today: date) -> Any | None:
    lst = schema.permit_listing
    return conn.execute(
        select(p_.c.id, p_.c.parcel_id, p_.c.applied_on, p_.c.completed_on, lst.c.address)
        .join(lst, lst.c.permit_id == p_.c.id)
        .where(
            and_(
                p_.c.municipality_id == municipality_id,
                p_.c.work_class == WorkClass.RAZE.value,
                p_.c.status == PermitStatus.COMPLETED.value,
                p_.c.completed_on.is_not(None),
                p_.c.applied_on > date(today.year - 2, 1, 1),
            )
        )
        .order_by(p_.c.completed_on.desc())
        .limit(1)
    ).first()


@dataclass(frozen=True)
class _Case:
    state: str
    condemned_on: date
    grounds: tuple[str, ...]
    reasons: str
    unit: str = ""


def _condemnations(
    database: Database,
    municipality_id: int,
    today: date,
    first_year: int,
    staff: _Staff,
    made: _Made,
) -> None:
    last_year = today.year - 1
    cases = [
        _Case(
            "open, overdue to vacate",
            today - timedelta(days=75),
            ("B1",),
            "Rear wall bowed and cracked; second-floor joists rotted through; rodent infestation",
            "Upper",
        ),
        _Case(
            "open, vacated",
            today - timedelta(days=40),
            ("B2",),
            "No working toilet or bathtub; the only bedroom window painted shut",
        ),
        _Case(
            "open, placarded this week",
            today - timedelta(days=3),
            ("B1", "B3"),
            "Fire damage: roof open to the weather, stairway unsafe",
        ),
        _Case(
            "lifted",
            _office_day(date(last_year, 3, 16)),
            ("B2",),
            "Furnace condemned by the gas utility; no heat in the dwelling",
            "Lower",
        ),
        _Case(
            "removed",
            _office_day(date(first_year, 4, 6)),
            ("B3",),
            "Mobile home on blocks at the river's edge, undermined by flooding",
        ),
        _Case(
            "lifted",
            _office_day(date(first_year, 8, 3)),
            ("B1",),
            "Sewage backing into the basement dwelling unit",
            "Basement",
        ),
    ]
    with database.read() as conn:
        places = _addresses(conn, municipality_id, len(cases))
        razing = _razing_permit(conn, municipality_id, today)
    for case, (parcel_id, address) in zip(cases, places, strict=False):
        if case.condemned_on > today:
            continue
        cid = svc.record_condemnation(
            database.uow(),
            _at(case.condemned_on),
            staff.inspector,
            svc.CondemnationInput(
                municipality_id=municipality_id,
                address=address,
                grounds=case.grounds,
                reasons=case.reasons,
                condemned_on=case.condemned_on,
                dwelling_unit=case.unit,
                notified="Owner by certified mail; notice to the occupants posted with the placard",
                parcel_id=parcel_id,
            ),
        )
        _follow(database, cid, case, today, staff)
        made.condemned(case.state)
    if razing is not None:
        condemned = razing.applied_on - timedelta(days=21)
        cid = svc.record_condemnation(
            database.uow(),
            _at(condemned),
            staff.inspector,
            svc.CondemnationInput(
                municipality_id=municipality_id,
                address=razing.address,
                grounds=("B1",),
                reasons="Foundation failed; the house is leaning and cannot be repaired",
                condemned_on=condemned,
                notified="Owner in person",
                permit_id=razing.id,
            ),
        )
        svc.record_razed(
            database.uow(),
            _at(razing.completed_on),
            staff.inspector,
            cid,
            razing.completed_on,
            Outcome.RAZED,
            "Razed under the razing permit (15.1.10)",
        )
        made.condemned("razed")


def _follow(database: Database, cid: int, case: _Case, today: date, staff: _Staff) -> None:
    if case.state == "open, vacated":
        day = case.condemned_on + timedelta(days=30)
        svc.record_vacated(database.uow(), _at(day), staff.inspector, cid, day)
    elif case.state == "lifted":
        day = min(case.condemned_on + timedelta(days=70), today)
        svc.record_vacated(
            database.uow(), _at(day), staff.inspector, cid, case.condemned_on + timedelta(days=20)
        )
        svc.lift_condemnation(
            database.uow(),
            _at(day),
            staff.inspector,
            cid,
            day,
            f"Letter of approval to reoccupy dated {day:%m/%d/%Y}: the defects are eliminated",
        )
    elif case.state == "removed":
        day = min(case.condemned_on + timedelta(days=150), today)
        svc.record_razed(
            database.uow(),
            _at(day),
            staff.inspector,
            cid,
            day,
            Outcome.REMOVED,
            "Removed from the site by the owner",
        )
