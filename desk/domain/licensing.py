"""City electrical licences and the condemnation of dwellings unfit for human habitation: the
rules, their words and the read models the reports and printouts use. Pure: no I/O, no clock
(the day is passed in).

Licences (Glendale 15.1.75, 15.1.78):

- 15.1.75(a): a holder of a state electrical contractor's, electrical contractor's–restricted or
  master electrician's licence "shall be entitled to an electrical license to be issued by the
  City". The City licence rests on a state credential in force on the day it is granted
  (the register knows electrical contractor and master electrician credentials). (b): no licence
  is needed for minor repairs.
- Term: the ordinance names none. A City licence runs through December 31 of the year it is
  granted, or through the state credential's expiry when that comes first (the City licence
  cannot outlast the state licence it rests on).
- Numbers: "EL-YYYY-NNNN", gapless per municipality and year like permits (15.1.74(a)).
- 15.1.78 revocation: (a) the Electrical Inspector files a complaint with the City Clerk; (b) the
  Clerk, within thirty days thereafter, schedules a hearing before the Common Council with not
  less than five days' written notice to the licensee and the employer, specifying the basis of
  the complaint; (c) on the Council's finding that the licensee is disqualified, the Electrical
  Inspector formally revokes the licence. Days are counted as Wis. Stat. 990.001(4) counts them
  (exclude the first day, include the last): a complaint filed March 2 may be heard through
  April 1; notice mailed March 10 is five days' notice for a hearing on March 15.

Condemnation (the record Glendale 15.1.6(c) keeps of "all removal and condemnation of
buildings"; the procedure of the minimum-housing chapter, Hudson ch. 140, "Requirements to
condemn"):

- B: a dwelling or dwelling unit with any of the defects B(1)–B(3) is condemned as unfit for
  human habitation and placarded by the Building Inspector;
- C: it is vacated within 60 days as ordered by the Building Inspector (the period is a setting
  of the municipality's profile, `settings["licensing"]["vacate_days"]`, 60 when not set);
- D: it is not used for human habitation again until written approval is secured from, and the
  placard removed by, the Building Inspector, who removes it once the defects are eliminated;
- E: no person defaces or removes the placard except as D provides.
"""

from __future__ import annotations

import calendar
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum
from typing import Any

from desk.dates import short_date
from desk.domain.credentials import HeldCredential, noun
from desk.domain.enums import CredentialKind, Role
from desk.errors import PermissionDenied, RuleViolation, ValidationError

# --- licences: constants ------------------------------------------------------------------------

LICENCE_SERIES = "EL"  # gapless per municipality and year (db/numbering.py)
LICENCE_SECTION = "15.1.75"
REVOCATION_SECTION = "15.1.78"
# The trades the City licenses. 15.1.75 licenses electricians only; the column keeps the trade so
# the reports can put a licence beside the permits of its trade.
LICENCE_TRADES: tuple[str, ...] = ("electrical",)
# 15.1.75(a): the state licences that entitle the holder to the City licence.
QUALIFYING: dict[str, tuple[CredentialKind, ...]] = {
    "electrical": (CredentialKind.ELECTRICAL_CONTRACTOR, CredentialKind.MASTER_ELECTRICIAN),
}
HEARING_WITHIN_DAYS = 30  # 15.1.78(b): "within thirty (30) days thereafter"
NOTICE_DAYS = 5  # 15.1.78(b): "not less than five (5) days' written notice"

# --- condemnation: constants --------------------------------------------------------------------

CONDEMNATION_SECTION = "Hudson 140, Requirements to condemn"
RECORD_SECTION = "15.1.6(c)"
VACATE_DAYS = 60  # Hudson 140 C: "vacated within 60 days as ordered by the Building Inspector"
SETTINGS_KEY = "licensing"  # Municipality.settings[SETTINGS_KEY]
VACATE_SETTING = "vacate_days"
MAX_VACATE_DAYS = 365


def _d(day: date | None) -> str:
    """MM/DD/YYYY, as the office writes dates."""
    return "" if day is None else short_date(day)


# --- who may do what ----------------------------------------------------------------------------

# 15.1.75: the City issues the licence; the Electrical Inspector (the inspector's role) grants it.
GRANT_ROLES = frozenset({Role.INSPECTOR, Role.ADMINISTRATOR})
# 15.1.78(a): the Electrical Inspector files the complaint with the Clerk, who may enter it.
COMPLAINT_ROLES = frozenset({Role.INSPECTOR, Role.CLERK, Role.ADMINISTRATOR})
# 15.1.78(b): the City Clerk schedules the hearing and keeps the Council's finding.
HEARING_ROLES = frozenset({Role.CLERK, Role.ADMINISTRATOR})
# 15.1.78(c): the Electrical Inspector formally revokes the licence.
REVOKE_ROLES = frozenset({Role.INSPECTOR, Role.ADMINISTRATOR})
# Hudson 140 B, D: the Building Inspector condemns, placards and removes the placard.
CONDEMN_ROLES = frozenset({Role.INSPECTOR, Role.ADMINISTRATOR})


def may(roles: Collection[Role], allowed: frozenset[Role]) -> bool:
    return bool(set(roles) & allowed)


def require_role(
    username: str, roles: Collection[Role], allowed: frozenset[Role], what: str
) -> None:
    """PermissionDenied in the words the other services use."""
    if may(roles, allowed):
        return
    who = ", ".join(sorted(r.label.lower() for r in roles)) or "no role"
    able = " or ".join(sorted(r.label.lower() for r in allowed if r is not Role.ADMINISTRATOR))
    raise PermissionDenied(
        f"You are signed in as {username} ({who}); only a user with the role {able} "
        f"(or an administrator) may {what}."
    )


# --- licences: the rules ------------------------------------------------------------------------


def licence_number(year: int, seq: int) -> str:
    """'EL-2026-0007', widening past 9999 rather than wrapping."""
    if seq < 1:
        raise ValueError("sequence numbers start at 1")
    return f"{LICENCE_SERIES}-{year}-{seq:04d}"


def check_trade(trade: str) -> str:
    if trade not in LICENCE_TRADES:
        raise ValidationError(
            "trade", f"the City licenses the {', '.join(LICENCE_TRADES)} trade only (15.1.75)"
        )
    return trade


def qualifying_credential(
    licensee: str, trade: str, held: Sequence[HeldCredential], on: date
) -> HeldCredential:
    """The state credential the City licence rests on: one of the qualifying kinds, in force on
    the day of the grant (the one that runs longest). Else a ValidationError naming the licensee
    field and saying what is missing or when it expired (15.1.75(a))."""
    kinds = QUALIFYING[check_trade(trade)]
    words = " or ".join(noun(k) for k in kinds)
    fitting = [c for c in held if c.kind in kinds]
    if not fitting:
        others = ", ".join(sorted({c.kind.label.lower() for c in held}))
        also = f" (on record: {others})" if others else ""
        raise ValidationError(
            "licensee",
            f"{licensee} holds no state {words} on record{also}; the City licence is issued "
            f"only to holders of one ({LICENCE_SECTION}(a))",
        )
    valid = [c for c in fitting if c.valid_on(on)]
    if not valid:
        latest = max(fitting, key=lambda c: c.expires_on or date.min)
        raise ValidationError(
            "licensee",
            f"{licensee}'s {noun(latest.kind)} {latest.number} expired "
            f"{_d(latest.expires_on)}; it must be in force on {_d(on)} ({LICENCE_SECTION}(a))",
        )
    return max(valid, key=lambda c: c.expires_on or date.max)


def licence_term(granted_on: date, credential_expires: date | None) -> date:
    """The last day of the licence: December 31 of the year granted, or the state credential's
    expiry when earlier (the ordinance gives no term; see the module docstring)."""
    year_end = date(granted_on.year, 12, 31)
    if credential_expires is not None and credential_expires < year_end:
        return credential_expires
    return year_end


class LicenceStatus(StrEnum):
    """Where a licence stands on a day; follows from its dates (not stored)."""

    IN_FORCE = "in_force"
    EXPIRED = "expired"
    REVOKED = "revoked"

    @property
    def label(self) -> str:
        return {"in_force": "In force", "expired": "Expired", "revoked": "Revoked"}[self.value]


def licence_status(expires_on: date, revoked_on: date | None, on: date) -> LicenceStatus:
    if revoked_on is not None and revoked_on <= on:
        return LicenceStatus.REVOKED
    if on > expires_on:
        return LicenceStatus.EXPIRED
    return LicenceStatus.IN_FORCE


@dataclass(frozen=True)
class Revocation:
    """A licence's complaint and hearing as recorded (15.1.78)."""

    complaint_on: date | None = None
    hearing_on: date | None = None
    notice_on: date | None = None
    finding_on: date | None = None
    disqualified: bool | None = None  # None: no finding yet
    revoked_on: date | None = None

    @property
    def pending(self) -> bool:
        """A complaint whose hearing has not ended in a finding, or a finding of
        disqualification the inspector has not acted on yet."""
        if self.complaint_on is None or self.revoked_on is not None:
            return False
        return self.disqualified is None or self.disqualified

    def lapsed(self, today: date) -> bool:
        """A complaint no hearing was scheduled for within the thirty days (15.1.78(b)): it can
        no longer be heard, and the inspector may file a new one."""
        return (
            self.complaint_on is not None
            and self.hearing_on is None
            and self.disqualified is None
            and self.revoked_on is None
            and today > hearing_deadline(self.complaint_on)
        )

    def open_on(self, today: date) -> bool:
        """Pending and not lapsed: a new complaint must wait for this one's finding."""
        return self.pending and not self.lapsed(today)

    @property
    def dismissed(self) -> bool:
        return self.complaint_on is not None and self.disqualified is False

    def stage(self, today: date) -> str:
        """The complaint in a few words, for the register."""
        if self.revoked_on is not None:
            return f"Revoked {_d(self.revoked_on)}"
        if self.complaint_on is None:
            return ""
        if self.disqualified is True:
            return f"Council found disqualified {_d(self.finding_on)}: to be revoked"
        if self.disqualified is False:
            return f"Complaint dismissed {_d(self.finding_on)}"
        if self.hearing_on is not None:
            return f"Hearing {_d(self.hearing_on)}"
        last = hearing_deadline(self.complaint_on)
        if today > last:
            return f"Complaint {_d(self.complaint_on)}: no hearing by {_d(last)}"
        return f"Complaint {_d(self.complaint_on)}: hearing by {_d(last)}"


def hearing_deadline(complaint_on: date) -> date:
    """15.1.78(b): the last day the Council's hearing may be held."""
    return complaint_on + timedelta(days=HEARING_WITHIN_DAYS)


def latest_notice(hearing_on: date) -> date:
    """15.1.78(b): the last day written notice may go out for a hearing on `hearing_on`."""
    return hearing_on - timedelta(days=NOTICE_DAYS)


def check_complaint(
    status: LicenceStatus, revocation: Revocation, complaint_on: date, basis: str, today: date
) -> None:
    """15.1.78(a): a complaint against a licence in force, stating its basis (the notice must
    specify it, (b)); one complaint at a time."""
    if status is not LicenceStatus.IN_FORCE:
        raise RuleViolation(f"The licence is {status.label.lower()}; there is nothing to revoke")
    if revocation.open_on(today):
        raise RuleViolation(
            f"A complaint filed {_d(revocation.complaint_on)} is still open; record the "
            "Council's finding first"
        )
    if complaint_on > today:
        raise ValidationError("complaint date", f"{_d(complaint_on)} is after today")
    if not basis.strip():
        raise ValidationError(
            "basis", "state the basis of the complaint; the notice must specify it (15.1.78(b))"
        )


def check_hearing(complaint_on: date, hearing_on: date, notice_on: date, notified: str) -> None:
    """15.1.78(b): the hearing within thirty days after the complaint; written notice to the
    licensee and the employer not less than five days before it, not before the complaint."""
    if hearing_on <= complaint_on:
        raise ValidationError(
            "hearing date", f"must be after the complaint filed {_d(complaint_on)}"
        )
    last = hearing_deadline(complaint_on)
    if hearing_on > last:
        raise ValidationError(
            "hearing date",
            f"{_d(hearing_on)} is more than {HEARING_WITHIN_DAYS} days after the complaint filed "
            f"{_d(complaint_on)}; the hearing must be held by {_d(last)} ({REVOCATION_SECTION}(b))."
            " When that day has passed, the inspector files the complaint again",
        )
    if notice_on < complaint_on:
        raise ValidationError(
            "notice date", f"{_d(notice_on)} is before the complaint filed {_d(complaint_on)}"
        )
    if notice_on > latest_notice(hearing_on):
        raise ValidationError(
            "notice date",
            f"written notice on {_d(notice_on)} is less than {NOTICE_DAYS} days before the "
            f"hearing on {_d(hearing_on)}; send it by {_d(latest_notice(hearing_on))} "
            f"({REVOCATION_SECTION}(b))",
        )
    if not notified.strip():
        raise ValidationError(
            "notified", "name who was given written notice: the licensee and the employer"
        )


def check_finding(revocation: Revocation, finding_on: date, finding: str, today: date) -> None:
    """The Common Council's finding upon the hearing (15.1.78(c))."""
    if revocation.complaint_on is None or revocation.revoked_on is not None:
        raise RuleViolation("There is no open complaint against this licence")
    if revocation.disqualified is not None:
        raise RuleViolation(f"The Council's finding of {_d(revocation.finding_on)} is recorded")
    if revocation.hearing_on is None:
        raise RuleViolation("The Clerk has not scheduled the hearing yet (15.1.78(b))")
    if finding_on < revocation.hearing_on:
        raise ValidationError(
            "finding date", f"is before the hearing on {_d(revocation.hearing_on)}"
        )
    if finding_on > today:
        raise ValidationError("finding date", f"{_d(finding_on)} is after today")
    if not finding.strip():
        raise ValidationError("finding", "enter the Council's finding as recorded in its minutes")


def check_revocation(revocation: Revocation, today: date) -> None:
    """15.1.78(c): the inspector revokes only upon the Council's finding of disqualification,
    made at a hearing that has been held."""
    if revocation.revoked_on is not None:
        raise RuleViolation(f"The licence was revoked on {_d(revocation.revoked_on)}")
    if revocation.complaint_on is None:
        raise RuleViolation(
            "A licence is revoked only upon a complaint heard by the Common Council (15.1.78)"
        )
    if revocation.hearing_on is None:
        raise RuleViolation("The Clerk has not scheduled the Council's hearing yet (15.1.78(b))")
    if today < revocation.hearing_on:
        raise RuleViolation(
            f"The Council's hearing on {_d(revocation.hearing_on)} has not been held yet "
            "(15.1.78(c))"
        )
    if revocation.disqualified is None:
        raise RuleViolation("Record the Council's finding first (15.1.78(c))")
    if not revocation.disqualified:
        raise RuleViolation(
            f"The Council did not find the licensee disqualified ({_d(revocation.finding_on)}); "
            "the licence stays in force"
        )


# --- condemnation: the rules --------------------------------------------------------------------


class Ground(StrEnum):
    """Hudson 140 B: the defects for which a dwelling is condemned. Values are stored."""

    B1 = "B1"
    B2 = "B2"
    B3 = "B3"

    @property
    def code(self) -> str:
        return f"B({self.value[1]})"

    @property
    def words(self) -> str:
        return GROUND_WORDS[self]

    @property
    def section(self) -> str:
        return f"Hudson 140 {self.code}"

    @property
    def short(self) -> str:
        """The defect in a few words, for a form's check box."""
        return {
            "B1": "damaged, decayed, dilapidated, insanitary, unsafe or vermin infested",
            "B2": "lacks illumination, ventilation or sanitary facilities",
            "B3": "unsanitary or dangerous by its general condition or location",
        }[self.value]


GROUND_WORDS: dict[Ground, str] = {
    Ground.B1: (
        "so damaged, decayed, dilapidated, insanitary, unsafe or vermin infested that it creates "
        "a serious hazard to the health or safety of the occupants or of the public"
    ),
    Ground.B2: (
        "lacks illumination, ventilation or sanitary facilities adequate to protect the health "
        "or safety of the occupants or of the public"
    ),
    Ground.B3: (
        "because of its general condition or location is unsanitary or otherwise dangerous to "
        "the health or safety of occupants or of the public"
    ),
}


class Outcome(StrEnum):
    """How a condemnation ended. Values are stored; never rename one."""

    OPEN = "open"  # placarded; not yet lifted, razed or removed
    DEFECTS_ELIMINATED = "defects_eliminated"  # D: written approval, placard removed
    RAZED = "razed"
    REMOVED = "removed"

    @property
    def label(self) -> str:
        return {
            "open": "Open",
            "defects_eliminated": "Defects eliminated",
            "razed": "Razed",
            "removed": "Removed",
        }[self.value]


def parse_grounds(values: Iterable[str]) -> tuple[Ground, ...]:
    """'B1', 'b(1)' or a Ground → Grounds in B order; at least one (Hudson 140 B)."""
    found: set[Ground] = set()
    for v in values:
        raw = str(v).strip().upper().replace("(", "").replace(")", "")
        try:
            found.add(Ground(raw))
        except ValueError:
            raise ValidationError("grounds", f"'{v}' is not one of B(1), B(2), B(3)") from None
    if not found:
        raise ValidationError(
            "grounds", "tick at least one of the defects B(1), B(2) or B(3) (Hudson 140 B)"
        )
    return tuple(sorted(found))


def grounds_text(values: Iterable[str]) -> str:
    """'B(1), B(3)'."""
    return ", ".join(g.code for g in parse_grounds(values))


def vacate_period(settings: Mapping[str, Any] | None) -> int:
    """The days a condemned dwelling has to be vacated: the profile's setting, else 60
    (Hudson 140 C)."""
    section = (settings or {}).get(SETTINGS_KEY)
    raw = section.get(VACATE_SETTING) if isinstance(section, Mapping) else None
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= MAX_VACATE_DAYS:
        return raw
    return VACATE_DAYS


def check_vacate_period(days: int) -> int:
    if not 1 <= days <= MAX_VACATE_DAYS:
        raise ValidationError(
            "vacate days", f"enter a number of days from 1 to {MAX_VACATE_DAYS} (Hudson: 60)"
        )
    return days


def vacate_date(condemned_on: date, days: int = VACATE_DAYS) -> date:
    """Hudson 140 C: the day by which the dwelling is to be vacated."""
    return condemned_on + timedelta(days=days)


def check_condemnation(
    *,
    address: str,
    reasons: str,
    condemned_on: date,
    placarded_on: date | None,
    vacate_by: date,
    days: int,
    today: date,
) -> None:
    """What a condemnation needs before it is recorded (Hudson 140 B, C)."""
    if not address.strip():
        raise ValidationError("address", "enter the address of the dwelling condemned")
    if not reasons.strip():
        raise ValidationError(
            "reasons", "describe the defects found; the owner and occupants are told why"
        )
    if condemned_on > today:
        raise ValidationError("condemned on", f"{_d(condemned_on)} is after today")
    if placarded_on is not None:
        if placarded_on < condemned_on:
            raise ValidationError(
                "placarded on", f"is before the condemnation on {_d(condemned_on)}"
            )
        if placarded_on > today:
            raise ValidationError("placarded on", f"{_d(placarded_on)} is after today")
    latest = vacate_date(condemned_on, days)
    if vacate_by <= condemned_on:
        raise ValidationError("vacate by", f"must be after the condemnation on {_d(condemned_on)}")
    if vacate_by > latest:
        raise ValidationError(
            "vacate by",
            f"{_d(vacate_by)} is more than {days} days after the condemnation; the dwelling is "
            f"vacated within {days} days, by {_d(latest)} (Hudson 140 C)",
        )


def check_open(outcome: Outcome, outcome_on: date | None = None) -> None:
    if outcome is not Outcome.OPEN:
        when = f" {_d(outcome_on)}" if outcome_on else ""
        raise RuleViolation(f"The condemnation is closed: {outcome.label.lower()}{when}")


def check_vacated(
    outcome: Outcome,
    condemned_on: date,
    vacated_on: date,
    today: date,
    outcome_on: date | None = None,
) -> None:
    """Hudson 140 C: the dwelling vacated as ordered; it stays placarded until D."""
    check_open(outcome, outcome_on)
    if vacated_on < condemned_on:
        raise ValidationError("vacated on", f"is before the condemnation on {_d(condemned_on)}")
    if vacated_on > today:
        raise ValidationError("vacated on", f"{_d(vacated_on)} is after today")


def check_lift(
    outcome: Outcome,
    condemned_on: date,
    removed_on: date,
    approval: str,
    today: date,
    outcome_on: date | None = None,
) -> None:
    """Hudson 140 D: reoccupied only after written approval from the Building Inspector, who
    removes the placard once the defects are eliminated."""
    check_open(outcome, outcome_on)
    if not approval.strip():
        raise ValidationError(
            "approval",
            "record the written approval to reoccupy: its date, reference or words (Hudson 140 D)",
        )
    if removed_on < condemned_on:
        raise ValidationError(
            "placard removed on", f"is before the condemnation on {_d(condemned_on)}"
        )
    if removed_on > today:
        raise ValidationError("placard removed on", f"{_d(removed_on)} is after today")


def check_closed(outcome: Outcome, condemned_on: date, on: date, today: date) -> None:
    """A condemned building razed or removed."""
    if outcome not in (Outcome.RAZED, Outcome.REMOVED):
        raise ValidationError("outcome", "choose razed or removed")
    if on < condemned_on:
        raise ValidationError("date", f"is before the condemnation on {_d(condemned_on)}")
    if on > today:
        raise ValidationError("date", f"{_d(on)} is after today")


def outcome_on_day(outcome: Outcome, outcome_on: date | None, on: date) -> Outcome:
    """The outcome as it stood on `on` (a report as of December 31 shows an outcome recorded
    later as still open)."""
    if outcome is Outcome.OPEN or outcome_on is None or outcome_on > on:
        return Outcome.OPEN
    return outcome


def condemnation_state(
    outcome: Outcome, outcome_on: date | None, vacate_by: date, vacated_on: date | None, on: date
) -> tuple[str, bool]:
    """('Open: vacate by 05/01/2026', False), ('Overdue to vacate since ...', True), ...: the
    register's status in words and whether it needs attention."""
    if outcome is not Outcome.OPEN:
        return f"{outcome.label} {_d(outcome_on)}", False
    if vacated_on is not None:
        return f"Vacated {_d(vacated_on)}; placarded", False
    if on > vacate_by:
        return f"Overdue to vacate since {_d(vacate_by + timedelta(days=1))}", True
    return f"Open: vacate by {_d(vacate_by)}", False


# --- read models (the registers, the reports, the printouts) ----------------------------------


@dataclass(frozen=True)
class LicenceLine:
    """A City licence as the register and the reports list it."""

    id: int
    number: str
    licensee: str
    trade: str
    credential: str  # 'Master electrician licence ME-22041, until 06/30/2027'
    granted_on: date
    expires_on: date
    revoked_on: date | None = None
    complaint_on: date | None = None
    hearing_on: date | None = None
    finding_on: date | None = None
    disqualified: bool | None = None
    council_finding: str = ""
    party_id: int | None = None

    def status_on(self, on: date) -> LicenceStatus:
        return licence_status(self.expires_on, self.revoked_on, on)

    @property
    def revocation(self) -> Revocation:
        return Revocation(
            complaint_on=self.complaint_on,
            hearing_on=self.hearing_on,
            finding_on=self.finding_on,
            disqualified=self.disqualified,
            revoked_on=self.revoked_on,
        )


@dataclass(frozen=True)
class CondemnationLine:
    """A condemnation as the register and the annual report list it."""

    id: int
    address: str
    dwelling_unit: str
    condemned_on: date
    grounds: tuple[str, ...]
    vacate_by: date
    outcome: Outcome
    reasons: str = ""
    outcome_on: date | None = None
    placarded_on: date | None = None
    vacated_on: date | None = None
    permit_id: int | None = None
    permit_number: str = ""

    @property
    def grounds_text(self) -> str:
        return grounds_text(self.grounds)

    @property
    def where(self) -> str:
        return f"{self.address}, {self.dwelling_unit}" if self.dwelling_unit else self.address

    def outcome_on_day(self, on: date) -> Outcome:
        return outcome_on_day(self.outcome, self.outcome_on, on)

    def outcome_words(self, on: date) -> str:
        """'Razed 08/14/2025', 'Open' as the outcome stood on `on`."""
        now = self.outcome_on_day(on)
        return "Open" if now is Outcome.OPEN else f"{now.label} {_d(self.outcome_on)}"


@dataclass(frozen=True)
class Letterhead:
    municipality_name: str
    lines: tuple[str, ...]
    inspector_name: str
    inspector_title: str


@dataclass(frozen=True)
class LicenceCertificate:
    """The City licence as printed (15.1.75)."""

    letterhead: Letterhead
    licence_id: int
    number: str
    licensee: str
    licensee_address: str
    trade: str
    credential: str
    granted_on: date
    expires_on: date
    revoked_on: date | None = None

    @property
    def trade_words(self) -> str:
        return f"{self.trade.capitalize()} Licence"


@dataclass(frozen=True)
class Placard:
    """The placard posted on a condemned dwelling (Hudson 140 B, C, E)."""

    letterhead: Letterhead
    condemnation_id: int
    address: str
    dwelling_unit: str
    condemned_on: date
    placarded_on: date | None
    vacate_by: date
    grounds: tuple[str, ...]
    outcome: Outcome = Outcome.OPEN

    @property
    def where(self) -> str:
        return f"{self.address}, {self.dwelling_unit}" if self.dwelling_unit else self.address

    @property
    def grounds_lines(self) -> tuple[str, ...]:
        """'B(1): so damaged, decayed, ... (Hudson 140 B(1))' per ground."""
        return tuple(f"{g.code}: one which is {g.words}" for g in parse_grounds(self.grounds))


def credential_words(kind: CredentialKind, number: str, expires_on: date | None) -> str:
    """'Master electrician licence ME-22041, until 06/30/2027'."""
    text = noun(kind)
    text = text[:1].upper() + text[1:] + f" {number}"
    return text + (f", until {_d(expires_on)}" if expires_on else "")


def year_end(year: int) -> date:
    return date(year, 12, calendar.monthrange(year, 12)[1])
