"""Rooming house licences (Hudson 140-10; the ordinance text numbers the rooming-house section
140-10, its subsections A to K as the text gives them, with no H): the records, mapped by
db/orm.py, and the pure rules — expiry, the 24-hour notice of a change, the suspension's
petition window and automatic revocation, the fixtures per 10 persons, the sleeping rooms.

Readings of the text where it leaves room (the office may decide otherwise):
- Expiry (140-10A "at the end of one year following its date of issuance"): the year following
  day D begins D+1 and ends on the anniversary, so a licence issued on D is valid through
  D + 1 year (the same date a year later) and expired from the day after. Issued on 29 February,
  it is valid through 28 February of the next year (a year never runs past its own length).
- Renewal (140-10A sets no renewal of its own; the operator applies again, and no person may
  operate without a valid licence): the operator may apply within the last RENEWAL_DAYS days of
  the licence (the register's expiry watch). A renewal issued before the old licence ends is
  valid from the day after it ends (valid_from) and runs as a licence issued that day would, so
  there is neither a gap nor an overlap; issued after it ended, it runs from its day of issue.
- The change of owner or control (140-10A): notice is due within 24 hours after the change, by
  the clock (changed at 14:00 on one day: timely through 14:00 the next). The licence is not
  transferable: it ends on the day of the change, however timely the notice; the successor
  applies anew.
- Automatic revocation (140-10D "within 10 days following the day on which such license was
  suspended"): the day of suspension is not counted, so a licence suspended on S may be
  petitioned through S+10 inclusive and is revoked on S+11 when no petition was filed.
- Fixtures (140-10E): a flush water closet, a lavatory basin and a bathtub or shower for each
  10 persons or fraction: ceil(persons / 10) of each; the operator's family counts where it
  shares them (the persons stated include it). The urinal substitution for rooms let only to
  males is not modelled.
- Sleeping rooms (140-10G): every sleeping room, whatever the number of rooms (140-10G does
  not repeat 140-7B's "in every dwelling unit of two or more rooms"), computed as 140-7B
  computes it (desk/housing/occupancy.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum

from desk.dates import short_date
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.errors import ValidationError
from desk.housing import occupancy
from desk.money import format_money, parse_money

LICENCE_SERIES = "RH"  # rooming house licences, RH-YYYY-NNNN, gapless per year of issue
PETITION_DAYS = 10  # 140-10D
CHANGE_NOTICE_HOURS = 24  # 140-10A
PERSONS_PER_SET = 10  # 140-10E
RENEWAL_DAYS = 60  # the register's "expiring within" default
# The licence fee is set by the Council (none shipped): settings["rooming_licence_fee"], money as
# text, absent while the Council has not set it; 0.00 means no fee.
FEE_SETTING = "rooming_licence_fee"
FEE_LABEL = "Rooming-house licence fee"


class LicenceState(StrEnum):
    APPLIED = "applied"  # application recorded, not yet issued or denied
    DENIED = "denied"  # 140-10B: a hearing may be requested under 140-3
    ISSUED = "issued"  # in force until it expires (read from expires_on)
    SUSPENDED = "suspended"  # 140-10C: the operator must cease operating
    REVOKED = "revoked"  # 140-10D automatic, or the Council sustained the suspension (140-3E)
    ENDED = "ended"  # 140-10A: not transferable, ended by a change of owner or control


class RevocationKind(StrEnum):
    AUTOMATIC = "automatic"  # 140-10D: no petition within 10 days of the suspension
    COUNCIL = "council"  # 140-3E: the suspension sustained after the hearing


class HearingDecision(StrEnum):
    """140-3C: the Council sustains, modifies or withdraws."""

    SUSTAIN = "sustain"
    MODIFY = "modify"
    WITHDRAW = "withdraw"


@dataclass(eq=False, kw_only=True)
class RoomingLicence:
    """An application and, once issued, the licence (140-10A): in the operator's name, for the
    specific dwelling (parcel and unit), with its rooms, fixtures and persons as applied for."""

    municipality_id: int
    parcel_id: int
    dwelling_unit: str = ""
    operator_name: str
    operator_address: str
    operator_party_id: int | None = None
    persons: int  # residing, the operator's family sharing the facilities included (140-10E)
    water_closets: int
    lavatories: int
    baths: int  # bathtubs or showers
    applied_on: date
    state: LicenceState = LicenceState.APPLIED
    case_id: int | None = None  # the enforcement case of the Building Inspector's inspections
    number: str | None = None  # RH-YYYY-NNNN once issued
    issued_on: date | None = None
    issued_by_id: int | None = None
    expires_on: date | None = None  # the last day it is valid
    denied_on: date | None = None
    denial_reason: str = ""
    # 140-10C: the written notice that the licence will be suspended unless corrected
    warned_on: date | None = None
    correct_by: date | None = None
    suspended_on: date | None = None  # the written notice of suspension
    petition_filed_on: date | None = None  # 140-10B/D: the hearing requested under 140-3
    petitioner: str = ""
    petition_timely: bool | None = None
    decision: HearingDecision | None = None  # the Council's, after the hearing
    decided_on: date | None = None
    findings: str = ""
    revoked_on: date | None = None
    revocation: RevocationKind | None = None
    # 140-10A: change of ownership, interest or control
    changed_at: datetime | None = None
    change_notice_at: datetime | None = None
    change_notice_late: bool | None = None
    successor_name: str = ""
    successor_address: str = ""
    # 140-10A: a renewal names the licence it renews and is valid from the day after it ends
    renews_id: int | None = None
    valid_from: date | None = None
    # 140-10D: an automatic revocation set aside by a timely petition recorded after it
    revocation_set_aside_on: date | None = None
    revocation_set_aside_reason: str = ""
    ended_on: date | None = None
    by_user_id: int | None = None
    at: datetime | None = None
    fee: Decimal | None = None  # the Council's fee in force on the day of issue
    fee_receipt: str = ""  # the City Clerk's receipt for it
    id: int | None = None
    version: int = 0


@dataclass(eq=False, kw_only=True)
class LicenceRoom:
    licence_id: int
    name: str
    floor_area: Decimal  # square feet
    sleeping: bool
    occupants_over_12: int = 0
    occupants_under_12: int = 0
    id: int | None = None


# --- numbering and dates ------------------------------------------------------------------------


def licence_number(year: int, seq: int) -> str:
    """'RH-2026-0001', gapless per municipality and year of issue (db/numbering.py)."""
    if seq < 1:
        raise ValueError("sequence numbers start at 1")
    return f"{LICENCE_SERIES}-{year}-{seq:04d}"


def last_valid_day(issued_on: date) -> date:
    """140-10A: valid through the anniversary of issuance (see the module's reading)."""
    try:
        return issued_on.replace(year=issued_on.year + 1)
    except ValueError:  # 29 February
        return date(issued_on.year + 1, 2, 28)


def expired(expires_on: date, today: date) -> bool:
    return today > expires_on


def renewal_opens(expires_on: date) -> date:
    """140-10A: the first day a renewal may be applied for, RENEWAL_DAYS before the last valid
    day (the register's expiry watch: expiring_within is true from this day)."""
    return expires_on - timedelta(days=RENEWAL_DAYS)


def renewal_term(old_expires_on: date, issued_on: date) -> tuple[date, date]:
    """140-10A: (valid_from, expires_on) of a renewal issued on `issued_on`. Issued while the old
    licence is valid, it runs one year from the day after the old one's last valid day: through
    the anniversary of that last day, so term follows term with no gap, no overlap and no drift;
    issued after, from its day of issue as a new licence."""
    if issued_on <= old_expires_on:
        return old_expires_on + timedelta(days=1), last_valid_day(old_expires_on)
    return issued_on, last_valid_day(issued_on)


def not_yet_in_force(valid_from: date | None, today: date) -> bool:
    """A renewal issued early is not in force before its valid_from (140-10A)."""
    return valid_from is not None and today < valid_from


def change_notice_due(changed_at: datetime) -> datetime:
    """140-10A: written notice within 24 hours after the change."""
    return changed_at + timedelta(hours=CHANGE_NOTICE_HOURS)


def change_notice_late(changed_at: datetime, notice_at: datetime) -> bool:
    return notice_at > change_notice_due(changed_at)


def petition_last_day(suspended_on: date, cal: OfficeCalendar = STATUTE) -> date:
    """140-10D: a petition is timely through the 10th day following the suspension, a last day
    on a Sunday, a legal holiday or a Saturday the office is closed moved to the next day it is
    open (Wis. Stat. 990.001(4))."""
    return cal.last_day(suspended_on, PETITION_DAYS, filing=True).day


def petition_timely(suspended_on: date, filed_on: date, cal: OfficeCalendar = STATUTE) -> bool:
    return filed_on <= petition_last_day(suspended_on, cal)


def automatic_revocation_day(suspended_on: date, cal: OfficeCalendar = STATUTE) -> date:
    """140-10D: with no petition, deemed revoked the day after the window closed (S+11)."""
    return petition_last_day(suspended_on, cal) + timedelta(days=1)


def denial_petition_last_day(denied_on: date, cal: OfficeCalendar = STATUTE) -> date:
    """140-10B hearing "under the procedure provided by 140-3": 140-3B's 10 days after the
    written denial (990.001(4) as for any petition)."""
    return cal.last_day(denied_on, PETITION_DAYS, filing=True).day


def expiring_within(expires_on: date, today: date, days: int = RENEWAL_DAYS) -> bool:
    return today <= expires_on <= today + timedelta(days=days)


# --- checks on the rooms and fixtures ----------------------------------------------------------


@dataclass(frozen=True)
class Shortfall:
    section: str  # "140-10E", "140-10G"
    room: str | None  # None: the house as a whole
    text: str


def sets_required(persons: int) -> int:
    """140-10E: one set per 10 persons or fraction thereof."""
    if persons < 0:
        raise ValidationError("persons", "must not be negative")
    return -(-persons // PERSONS_PER_SET)


def fixture_shortfalls(
    persons: int, water_closets: int, lavatories: int, baths: int
) -> list[Shortfall]:
    """140-10E: a flush water closet, a lavatory basin and a bathtub or shower per 10 persons
    or fraction thereof."""
    need = sets_required(persons)
    out = []
    for have, what in (
        (water_closets, "flush water closet"),
        (lavatories, "lavatory basin"),
        (baths, "bathtub or shower"),
    ):
        if have < need:
            out.append(
                Shortfall(
                    "140-10E",
                    None,
                    f"{persons} persons need {need} {what}(s) (one per 10 or fraction); "
                    f"{have} supplied.",
                )
            )
    return out


def sleeping_room_shortfalls(rooms: list[LicenceRoom]) -> list[Shortfall]:
    """140-10G: each sleeping room's floor space for its sleepers, as 140-7B computes it."""
    out = []
    for r in rooms:
        if not r.sleeping:
            continue
        sleepers = r.occupants_over_12 + r.occupants_under_12
        if sleepers == 0:
            continue
        need = occupancy.hudson_sleeping_area(r.occupants_over_12, r.occupants_under_12)
        if r.floor_area < need:
            out.append(
                Shortfall(
                    "140-10G",
                    r.name,
                    f"{sleepers} sleeper(s) in {occupancy.fmt(r.floor_area)} sq ft; "
                    f"140-10G requires {occupancy.fmt(need)} sq ft.",
                )
            )
    return out


def shortfalls(licence: RoomingLicence, rooms: list[LicenceRoom]) -> list[Shortfall]:
    return fixture_shortfalls(
        licence.persons, licence.water_closets, licence.lavatories, licence.baths
    ) + sleeping_room_shortfalls(rooms)


def check_counts(persons: int, water_closets: int, lavatories: int, baths: int) -> None:
    if persons < 1:
        raise ValidationError("persons", "give the number of persons residing (at least one)")
    for field, n in (
        ("water closets", water_closets),
        ("lavatories", lavatories),
        ("baths or showers", baths),
    ):
        if n < 0:
            raise ValidationError(field, "must not be negative")


def check_room(name: str, floor_area: Decimal, sleeping: bool, over_12: int, under_12: int) -> None:
    if not name.strip():
        raise ValidationError("room", "give each room a name")
    if floor_area <= 0:
        raise ValidationError("floor area", f"{name}: give the floor area in square feet")
    if over_12 < 0 or under_12 < 0:
        raise ValidationError("occupants", f"{name}: must not be negative")
    if not sleeping and over_12 + under_12:
        raise ValidationError("occupants", f"{name}: only a sleeping room has sleepers")


# --- the register -------------------------------------------------------------------------------


class RegisterFilter(StrEnum):
    ALL = "all"
    IN_FORCE = "in force"
    EXPIRING = "expiring"  # in force, expiring within the days asked (60 by default)
    SUSPENDED = "suspended"
    REVOKED = "revoked"
    EXPIRED = "expired"
    PENDING = "applications pending"


IN_FORCE = "in force"  # every register status of a licence in force starts with it
NOT_YET = "renewal — in force from"  # a renewal issued before the licence it renews ended


@dataclass(frozen=True)
class RenewalNote:
    """The renewal of a licence as the register reads it (140-10A): applied for, or issued."""

    applied_on: date
    number: str | None = None  # once issued
    valid_from: date | None = None

    @property
    def issued(self) -> bool:
        return self.number is not None

    @property
    def words(self) -> str:
        if self.number is None:
            return f"renewal applied on {short_date(self.applied_on)}"
        start = f", from {short_date(self.valid_from)}" if self.valid_from else ""
        return f"renewal issued — {self.number}{start}"


def status_on(
    state: LicenceState,
    expires_on: date | None,
    today: date,
    *,
    correct_by: date | None = None,
    watch_days: int | None = None,
    valid_from: date | None = None,
    renewal: RenewalNote | None = None,
) -> str:
    """What the register shows: the state, with 'expired' read from the date. A licence in
    force says what a clerk on the phone needs: warned with its correction date (140-10C; "past
    due" once that date has passed and it is not yet suspended), and, with `watch_days`, its
    last valid day when that falls within them (140-10A: a renewal is due), and its renewal
    applied for or issued. A renewal issued early is not in force before its `valid_from`."""
    if state is LicenceState.ISSUED and expires_on is not None and expired(expires_on, today):
        return "expired"
    if state is not LicenceState.ISSUED:
        return state.value
    if valid_from is not None and not_yet_in_force(valid_from, today):
        return f"{NOT_YET} {short_date(valid_from)}"
    notes = []
    if correct_by is not None:
        late = ", past due" if correct_by < today else ""
        notes.append(f"warned, correct by {short_date(correct_by)}{late}")
    renewed = renewal is not None and renewal.issued
    if (
        watch_days is not None
        and expires_on is not None
        and not renewed
        and expires_on <= today + timedelta(days=watch_days)
    ):
        notes.append(f"expires {short_date(expires_on)}")
    if renewal is not None:
        notes.append(renewal.words)
    return f"{IN_FORCE} — {'; '.join(notes)}" if notes else IN_FORCE


@dataclass(frozen=True)
class LicenceRow:
    licence_id: int
    number: str  # "" until issued
    operator: str
    address: str  # the dwelling: the parcel's address and unit
    pin: str
    persons: int
    applied_on: date
    issued_on: date | None
    expires_on: date | None
    status: str
    suspended_on: date | None
    revoked_on: date | None
    valid_from: date | None = None  # a renewal issued early: in force from this day
    renewal: RenewalNote | None = None  # its renewal applied for or issued (140-10A)


@dataclass(frozen=True)
class RenewalLetterRow:
    """A renewal letter for a licence expiring soon: to the operator at the address given."""

    licence_id: int
    number: str
    operator: str
    operator_address: str
    dwelling: str
    expires_on: date

    @property
    def renewal_opens(self) -> date:
        return renewal_opens(self.expires_on)

    @property
    def text(self) -> str:
        return (
            f"Rooming house licence {self.number} for {self.dwelling} expires at the end of "
            f"{short_date(self.expires_on)} (Hudson 140-10A). Apply to the office of the "
            f"Building Inspector to renew it, on or after {short_date(self.renewal_opens)}; a "
            f"renewal issued by {short_date(self.expires_on)} runs from "
            f"{short_date(self.expires_on + timedelta(days=1))}."
        )


# --- the fee ------------------------------------------------------------------------------------


def check_fee(value: object) -> Decimal | None:
    """What an administrator typed for the fee: empty is not set (None), else money >= 0."""
    text = "" if value is None else str(value).strip()
    if not text:
        return None
    return parse_money(text, FEE_LABEL)


def licence_fee(settings: Mapping[str, object] | None) -> Decimal | None:
    """The fee in force from a municipality's settings; None while the Council has not set it."""
    raw = (settings or {}).get(FEE_SETTING)
    try:
        return check_fee(raw)
    except ValidationError:
        return None  # never stored so: the settings screen checks it


def fee_not_set_text() -> str:
    """The words of a council-set fee not set yet (as desk/fees/engine.py says them)."""
    return (
        f"{FEE_LABEL}: the council has not set this fee yet; an administrator sets it in "
        f"Administration → Municipality ({FEE_LABEL})."
    )


def receipt_text(fee: Decimal) -> str:
    return f"enter the City Clerk's receipt number for the {format_money(fee)} licence fee"


# --- the documents' read models (db/licence_register_queries.py; reports/enforcement/licence.py)


class LicenceNoticeKind(StrEnum):
    WARNING = "warning"  # 140-10C: suspended unless corrected by the date
    SUSPENSION = "suspension"  # 140-10C, D: cease operating; petition within 10 days
    DENIAL = "denial"  # 140-10B: the reason, and the hearing under 140-3


@dataclass(frozen=True)
class LicenceCertificate:
    """The licence as issued, to be displayed in a conspicuous place within the rooming house
    (140-10A): in the operator's name, for the specific dwelling, not transferable."""

    licence_id: int
    municipality_id: int
    number: str
    operator: str
    operator_address: str
    dwelling: str  # the parcel's address and unit
    pin: str
    persons: int
    sleeping_rooms: int
    issued_on: date
    expires_on: date  # the last day it is valid
    fee: Decimal | None  # None: issued before the fee was recorded
    fee_receipt: str
    issued_by: str  # the City Clerk who issued it
    status: str  # status_on(...) the day it is printed: "in force", "expired", "revoked", ...
    valid_from: date | None = None  # a renewal: the day after the licence it renews ended
    renews: str = ""  # the number of the licence it renews


@dataclass(frozen=True)
class LicenceNoticeViolation:
    section: str
    title: str
    text: str  # the code's words, or the title when the code is not shipped
    location: str  # "Unit 1, kitchen"; "" for the dwelling
    correct_by: date


@dataclass(frozen=True)
class LicenceNoticeDoc:
    """The written notice to the operator of 140-10C (warning, suspension) or 140-10B (denial),
    from the dates kept on the licence."""

    kind: LicenceNoticeKind
    licence_id: int
    municipality_id: int
    number: str  # "" for a denied application
    operator: str
    operator_address: str
    dwelling: str
    pin: str
    case_number: str
    applied_on: date
    issued_on: date | None
    expires_on: date | None
    warned_on: date | None
    correct_by: date | None
    suspended_on: date | None
    denied_on: date | None
    denial_reason: str
    violations: tuple[LicenceNoticeViolation, ...]
    calendar: OfficeCalendar = STATUTE  # the office's days (Wis. Stat. 990.001(4))

    @property
    def dated(self) -> date:
        """The notice's date: the warning's, the suspension's or the denial's."""
        d = {
            LicenceNoticeKind.WARNING: self.warned_on,
            LicenceNoticeKind.SUSPENSION: self.suspended_on,
            LicenceNoticeKind.DENIAL: self.denied_on,
        }[self.kind]
        assert d is not None
        return d

    @property
    def petition_last_day(self) -> date | None:
        """The last day a petition for a hearing under 140-3 is timely (140-10D; 140-10B with
        140-3B); None for the warning (140-10D sets no period for it)."""
        if self.kind is LicenceNoticeKind.SUSPENSION:
            assert self.suspended_on is not None
            return petition_last_day(self.suspended_on, self.calendar)
        if self.kind is LicenceNoticeKind.DENIAL:
            assert self.denied_on is not None
            return denial_petition_last_day(self.denied_on, self.calendar)
        return None
