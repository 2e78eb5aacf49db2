"""Permit lifecycle: which status may follow which, and the deadlines the ordinances set.

Every deadline is a "by" date: the permit is in good standing through that day and lapses the
day after. Month arithmetic keeps the day of the month, or the month's last day when it has
none (issued January 31, four months later is May 31; one month later is February 28).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum

from desk.dates import short_date
from desk.domain.enums import PermitStatus
from desk.errors import RuleViolation, ValidationError

S = PermitStatus

# Which status may follow which. Issuing (approved/applied -> issued) is issue_permit's;
# void is void_permit's. Final statuses have no way out: a new permit is a new record.
TRANSITIONS: dict[PermitStatus, frozenset[PermitStatus]] = {
    S.DRAFT: frozenset({S.APPLIED, S.WITHDRAWN}),
    S.APPLIED: frozenset({S.IN_REVIEW, S.APPROVED, S.WITHDRAWN, S.DENIED}),
    S.IN_REVIEW: frozenset({S.APPROVED, S.APPLIED, S.WITHDRAWN, S.DENIED}),
    S.APPROVED: frozenset({S.IN_REVIEW, S.WITHDRAWN, S.DENIED}),
    S.ISSUED: frozenset({S.WORK_STARTED, S.ON_HOLD, S.COMPLETED, S.EXPIRED, S.REVOKED}),
    S.WORK_STARTED: frozenset({S.ON_HOLD, S.COMPLETED, S.EXPIRED, S.REVOKED}),
    S.ON_HOLD: frozenset({S.WORK_STARTED, S.ISSUED, S.EXPIRED, S.REVOKED}),
    S.COMPLETED: frozenset(),
    S.EXPIRED: frozenset(),
    S.REVOKED: frozenset(),
    S.WITHDRAWN: frozenset(),
    S.DENIED: frozenset(),
    S.VOID: frozenset(),
}

# Statuses in which a permit is alive and its deadlines run.
ACTIVE = frozenset({S.ISSUED, S.WORK_STARTED, S.ON_HOLD})


def check_transition(current: PermitStatus, new: PermitStatus) -> None:
    if new not in TRANSITIONS[current]:
        allowed = ", ".join(s.label.lower() for s in sorted(TRANSITIONS[current])) or "nothing"
        raise RuleViolation(
            f"A permit that is {current.label.lower()} cannot become {new.label.lower()} "
            f"(it may become: {allowed})."
        )


def add_months(day: date, months: int) -> date:
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


class Rule(StrEnum):
    """Which deadline rules a permit kind follows (resources/permit_kinds.toml `lifecycle`)."""

    BUILDING = "building"  # 15.1.8(b)(c)
    PLUMBING = "plumbing"  # 15.1.42
    EROSION = "erosion"  # 15.2.8(e)(1)
    STREET_OPENING = "street_opening"  # §435-7 validity and renewal
    STREET_PRIVILEGE = "street_privilege"  # §435-10 termination
    TEMPORARY_ELECTRICAL = "temporary_electrical"  # 15.1.76(a)
    GREASE_INTERCEPTOR = "grease_interceptor"  # 15.1.57(e)
    SOLID_FILL = "solid_fill"  # 15.1.18
    TEMPORARY_OCCUPANCY = "temporary_occupancy"  # 15.1.13(d)
    NONE = "none"


@dataclass(frozen=True)
class Extension:
    """A deadline moved by the inspector, with the reason (e.g. 15.1.8(b): delay beyond the
    applicant's control)."""

    deadline: str
    until: date
    reason: str


@dataclass(frozen=True)
class PermitDates:
    """What the deadline rules read from a permit."""

    rule: Rule
    status: PermitStatus
    issued_on: date | None
    approved_on: date | None = None
    commenced_on: date | None = None
    last_activity_on: date | None = None  # last inspection or recorded work (suspension)
    requested_until: date | None = None  # temporary electrical, solid fill, temp. occupancy
    building_permit_expires: date | None = None  # erosion: the building permit's term
    extensions: tuple[Extension, ...] = field(default_factory=tuple)
    emergency: bool = False  # street opening: an emergency excavation (§435-8.A)
    # 15.1.13(d): the completion date of a temporary certificate of occupancy still in force
    # (no final certificate issued since): open_temporary_occupancy.
    temporary_occupancy_until: date | None = None


@dataclass(frozen=True)
class Deadline:
    code: str
    label: str
    due: date
    section: str
    extended: bool = False

    def passed(self, today: date) -> bool:
        return today > self.due


# Deadline codes.
START = "start"
RESUME = "resume"
COMPLETE = "complete"
EXPIRES = "expires"
OCCUPANCY = "occupancy"  # 15.1.13(d): a temporary certificate's completion date

BUILDING_START_MONTHS = 4  # 15.1.8(b)
BUILDING_SUSPENSION_DAYS = 60  # 15.1.8(b)
BUILDING_COMPLETION_MONTHS = 18  # 15.1.8(c)
PLUMBING_MONTHS = 6  # 15.1.42
EROSION_DAYS = 180  # 15.2.8(e)(1)
EROSION_EXTENSION_DAYS = 180
STREET_OPENING_DAYS = 30  # §435-7 validity
STREET_OPENING_RENEWAL_DAYS = 30  # §435-7 renewal
STREET_PRIVILEGE_MONTHS = 3  # §435-10
TEMPORARY_ELECTRICAL_MAX_DAYS = 90  # 15.1.76(a)
SOLID_FILL_MAX_MONTHS = 3  # 15.1.18
TEMPORARY_OCCUPANCY_MAX_DAYS = 120  # 15.1.13(d)
# §435-8.A (Frozen ground): "No openings ... between November 15 and May 1" except an emergency
# excavation. November 14 is the last day a non-emergency opening may be open: its 30-day
# validity and its renewals end then at the latest (desk/domain/issuance.py refuses issuing in
# the season itself).
OPENING_SEASON_LAST_DAY = (11, 14)


def frozen_ground_cap(start: date, emergency: bool) -> date | None:
    """§435-8.A: the last day a non-emergency street opening approved on `start` may be open
    (November 14 of that year), or None for an emergency excavation or a start in the season."""
    last = date(start.year, *OPENING_SEASON_LAST_DAY)
    if emergency or start > last:
        return None
    return last


def open_temporary_occupancy(certificates: list[tuple[date, date | None]]) -> date | None:
    """15.1.13(d): the completion date of the permit's temporary certificate of occupancy that is
    still in force, from its certificates in the order of issue as (issued_on, temporary_until):
    the latest temporary one, unless a final certificate (15.1.13(a)) was issued after it."""
    until = None
    for _issued_on, temporary_until in certificates:
        until = temporary_until  # a final certificate (None) ends the temporary one
    return until


def _base_deadlines(p: PermitDates) -> list[Deadline]:
    issued = p.issued_on
    if issued is None:
        return []
    r = p.rule
    if r is Rule.BUILDING:
        out = []
        if p.commenced_on is None:
            out.append(
                Deadline(
                    START, "Work must start", add_months(issued, BUILDING_START_MONTHS), "15.1.8(b)"
                )
            )
        else:
            last = max(d for d in (p.commenced_on, p.last_activity_on) if d is not None)
            out.append(
                Deadline(
                    RESUME,
                    "Work suspended: must resume",
                    last + timedelta(days=BUILDING_SUSPENSION_DAYS),
                    "15.1.8(b)",
                )
            )
        out.append(
            Deadline(
                COMPLETE,
                "All work completed",
                add_months(issued, BUILDING_COMPLETION_MONTHS),
                "15.1.8(c)",
            )
        )
        return out
    if r is Rule.PLUMBING:
        return [
            Deadline(
                EXPIRES, "Plumbing permit in force", add_months(issued, PLUMBING_MONTHS), "15.1.42"
            )
        ]
    if r is Rule.EROSION:
        due = issued + timedelta(days=EROSION_DAYS)
        if p.building_permit_expires is not None and p.building_permit_expires > due:
            due = p.building_permit_expires
        return [Deadline(EXPIRES, "Erosion control permit valid", due, "15.2.8(e)(1)")]
    if r is Rule.STREET_OPENING:
        start = p.approved_on or issued
        due = start + timedelta(days=STREET_OPENING_DAYS)
        cap = frozen_ground_cap(start, p.emergency)
        if cap is not None and cap < due:  # §435-8.A: not into the frozen-ground season
            return [
                Deadline(
                    EXPIRES,
                    "Street opening permit valid (frozen ground from November 15)",
                    cap,
                    "§435-7 (Validity of permit), §435-8.A (Frozen ground)",
                )
            ]
        return [
            Deadline(EXPIRES, "Street opening permit valid", due, "§435-7 (Validity of permit)")
        ]
    if r is Rule.STREET_PRIVILEGE:
        return [
            Deadline(
                EXPIRES,
                "Street privilege permit terminates",
                add_months(issued, STREET_PRIVILEGE_MONTHS),
                "§435-10 (Termination)",
            )
        ]
    if r is Rule.GREASE_INTERCEPTOR:
        return [
            Deadline(
                EXPIRES,
                "Grease interceptor permit expires",
                date(issued.year, 12, 31),
                "15.1.57(e)",
            )
        ]
    if r in (Rule.TEMPORARY_ELECTRICAL, Rule.SOLID_FILL, Rule.TEMPORARY_OCCUPANCY):
        if p.requested_until is None:
            return []
        label, section = {
            Rule.TEMPORARY_ELECTRICAL: ("Temporary wiring: service cut off", "15.1.76(a)"),
            Rule.SOLID_FILL: ("Solid fill permit period ends", "15.1.18"),
            Rule.TEMPORARY_OCCUPANCY: ("Temporary occupancy: completion due", "15.1.13(d)"),
        }[r]
        return [Deadline(EXPIRES, label, p.requested_until, section)]
    return []


def _occupancy_deadlines(p: PermitDates) -> list[Deadline]:
    """15.1.13(d): while a temporary certificate of occupancy is in force, the completion date
    the inspector set on it is a deadline of the permit it was issued on; a final certificate
    clears it."""
    if p.temporary_occupancy_until is None:
        return []
    return [
        Deadline(
            OCCUPANCY,
            "Temporary occupancy ends: final certificate due",
            p.temporary_occupancy_until,
            "15.1.13(d)",
        )
    ]


def deadlines(p: PermitDates) -> list[Deadline]:
    """The permit's deadlines, each moved by its latest extension."""
    out = []
    for d in _base_deadlines(p) + _occupancy_deadlines(p):
        ext = [e for e in p.extensions if e.deadline == d.code]
        if ext:
            latest = max(ext, key=lambda e: e.until)
            if latest.until > d.due:
                d = Deadline(d.code, d.label, latest.until, d.section, extended=True)
        out.append(d)
    return out


def lapsed(p: PermitDates, today: date) -> Deadline | None:
    """The first deadline that has passed while the permit is alive, or None. The temporary
    occupancy deadline does not expire the permit (occupancy_ended)."""
    if p.status not in ACTIVE:
        return None
    passed = [d for d in deadlines(p) if d.passed(today) and d.code != OCCUPANCY]
    return min(passed, key=lambda d: d.due) if passed else None


# The statuses in which a temporary certificate's end is watched: a permit completed by its
# premises examination (a temporary occupancy permit) still carries the certificate.
# An expired permit is watched too: its occupants have no certificate either.
OCCUPANCY_WATCHED = ACTIVE | {S.COMPLETED, S.EXPIRED}


def occupancy_ended(p: PermitDates, today: date) -> Deadline | None:
    """15.1.13(d), (a)(2), (b)(1): the temporary certificate's completion date has passed with no
    final certificate. The permission to occupy ends with it; the permit itself keeps its status
    (its own term is another section's), and the inspector decides on the order to discontinue
    the occupancy (15.1.13(b)(1)). None when not ended."""
    if p.status not in OCCUPANCY_WATCHED:
        return None
    return next((d for d in deadlines(p) if d.code == OCCUPANCY and d.passed(today)), None)


def requested_period_holds(rule: Rule, requested_until: date | None, on: date) -> list[str]:
    """15.1.76(a): a temporary wiring permit states the period the wiring is to remain in
    service, at most 90 days; checked again against the issue date."""
    if rule is not Rule.TEMPORARY_ELECTRICAL:
        return []
    if requested_until is None:
        return [
            "Temporary wiring: the period the wiring is to remain in service is not stated "
            "(at most 90 days) (15.1.76(a))"
        ]
    latest = on + timedelta(days=TEMPORARY_ELECTRICAL_MAX_DAYS)
    if requested_until < on:
        return [
            f"Temporary wiring: the stated period ended on {short_date(requested_until)}, "
            f"before the issue date {short_date(on)} (15.1.76(a))"
        ]
    if requested_until > latest:
        return [
            f"Temporary wiring: the stated period to {short_date(requested_until)} is more than "
            f"90 days from the issue date; {short_date(latest)} at the latest (15.1.76(a))"
        ]
    return []


def check_requested_period(rule: Rule, issued_on: date, until: date) -> None:
    """The periods an applicant states, within the ordinance's maximum."""
    if until < issued_on:
        raise ValidationError("valid until", "is before the issue date")
    if rule is Rule.TEMPORARY_ELECTRICAL and until > issued_on + timedelta(
        days=TEMPORARY_ELECTRICAL_MAX_DAYS
    ):
        raise ValidationError(
            "valid until", "temporary wiring may stay in service at most 90 days (15.1.76(a))"
        )
    if rule is Rule.TEMPORARY_OCCUPANCY and until > issued_on + timedelta(
        days=TEMPORARY_OCCUPANCY_MAX_DAYS
    ):
        raise ValidationError(
            "valid until", "temporary occupancy may last at most 120 days (15.1.13(d))"
        )
    if rule is Rule.SOLID_FILL:
        if until.year != issued_on.year:
            raise ValidationError(
                "valid until", "a solid fill permit ends in the calendar year it starts (15.1.18)"
            )
        if until > add_months(issued_on, SOLID_FILL_MAX_MONTHS) - timedelta(days=1):
            raise ValidationError(
                "valid until",
                "a solid fill permit lasts at most three consecutive months (15.1.18)",
            )


def check_extension(p: PermitDates, code: str, until: date) -> Deadline:
    """An extension must move an existing deadline later, within the ordinance's step."""
    current = next((d for d in deadlines(p) if d.code == code), None)
    if current is None:
        raise ValidationError("deadline", f"this permit has no '{code}' deadline to extend")
    if until <= current.due:
        raise ValidationError(
            "new date", f"must be after the current date {short_date(current.due)}"
        )
    if p.rule is Rule.EROSION and until > current.due + timedelta(days=EROSION_EXTENSION_DAYS):
        raise ValidationError(
            "new date", "an erosion control extension is at most 180 days (15.2.8(e)(1))"
        )
    if code == OCCUPANCY:
        raise ValidationError(
            "deadline",
            "a temporary certificate sets its own completion date, at most 120 days; examine "
            "the premises again and issue a new temporary certificate (15.1.13(d))",
        )
    if p.rule is Rule.STREET_OPENING and until > current.due + timedelta(
        days=STREET_OPENING_RENEWAL_DAYS
    ):
        raise ValidationError(
            "new date", "a street opening permit is renewed 30 days at a time (§435-7)"
        )
    if p.rule is Rule.STREET_OPENING and p.issued_on is not None:
        cap = frozen_ground_cap(p.approved_on or p.issued_on, p.emergency)
        if cap is not None and until > cap:
            # §435-8.A: a renewal does not reach into the frozen-ground season.
            raise ValidationError(
                "new date",
                f"no street openings between November 15 and May 1 except an emergency "
                f"excavation: a renewal ends on {short_date(cap)} at the latest (§435-8.A)",
            )
    if p.rule in (Rule.TEMPORARY_ELECTRICAL, Rule.TEMPORARY_OCCUPANCY, Rule.SOLID_FILL):
        assert p.issued_on is not None
        check_requested_period(p.rule, p.issued_on, until)
    return current
