"""The "Licences & condemnations" section without Qt: what the Electrical licences and the
Condemnations pages list, their filters and counts, which step the signed-in user may take on
the selected row and why not, and the words under the table. The rules are
desk/domain/licensing.py's; the rows come from db/licence_queries.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date

from db.licence_queries import CONDEMNATION_STATES
from desk.domain import licensing as rules
from desk.domain.enums import Role
from desk.domain.licensing import CondemnationLine, LicenceLine, LicenceStatus, Outcome
from desk.errors import RuleViolation
from ui.presenters.formatting import EMPTY, count_of, format_date
from ui.presenters.registers import Line, item_at, row_of

SECTION_TITLE = "Licences & condemnations"
PAGES = ("licences", "condemnations")


# --- Electrical licences --------------------------------------------------------------------------

LICENCE_COLUMNS = (
    "Licence",
    "Licensee",
    "State licence",
    "Granted",
    "Expires",
    "Status",
    "Complaint",
)
STATUS_FILTERS: tuple[tuple[str, LicenceStatus | None], ...] = (
    ("In force", LicenceStatus.IN_FORCE),
    ("Expired", LicenceStatus.EXPIRED),
    ("Revoked", LicenceStatus.REVOKED),
    ("Any status", None),
)


class LicencesPresenter:
    columns = LICENCE_COLUMNS

    def __init__(
        self,
        fetch: Callable[[str, LicenceStatus | None], list[LicenceLine]],
        counts: Callable[[], Mapping[LicenceStatus, int]],
        today: Callable[[], date],
        roles: frozenset[Role],
    ) -> None:
        self.fetch = fetch
        self.counts_of = counts
        self.today = today
        self.roles = roles
        self.text = ""
        self.status: LicenceStatus | None = LicenceStatus.IN_FORCE
        self.rows: list[Line] = []
        self.counts: Mapping[LicenceStatus, int] = {}

    def load(self) -> None:
        today = self.today()
        self.counts = self.counts_of()
        self.rows = []
        for x in self.fetch(self.text, self.status):
            status = x.status_on(today)
            stage = x.revocation.stage(today)
            self.rows.append(
                Line(
                    x,
                    (
                        x.number,
                        x.licensee,
                        x.credential,
                        format_date(x.granted_on),
                        format_date(x.expires_on),
                        status.label,
                        stage,
                    ),
                    warn=status is LicenceStatus.REVOKED or x.revocation.open_on(today),
                )
            )

    def licence(self, row: int) -> LicenceLine | None:
        return item_at(self.rows, row, LicenceLine)

    def row_of(self, licence_id: int) -> int:
        return row_of(self.rows, licence_id)

    @property
    def summary(self) -> str:
        c = self.counts
        return (
            f"{count_of(c.get(LicenceStatus.IN_FORCE, 0), 'licence')} in force, "
            f"{c.get(LicenceStatus.EXPIRED, 0):,} expired, "
            f"{c.get(LicenceStatus.REVOKED, 0):,} revoked"
        )

    @property
    def empty_text(self) -> str:
        if self.text.strip():
            return f"No licence matches “{self.text.strip()}”."
        label = next(label for label, s in STATUS_FILTERS if s is self.status)
        return f"No licences: {label.lower()}."

    # --- which step may be taken -------------------------------------------------------------

    def can_grant(self) -> tuple[bool, str]:
        if not rules.may(self.roles, rules.GRANT_ROLES):
            return False, "The Electrical Inspector grants City licences (15.1.75)."
        return True, ""

    def can_print(self, row: int) -> tuple[bool, str]:
        return (True, "") if self.licence(row) else (False, "Select a licence.")

    def can_complain(self, row: int) -> tuple[bool, str]:
        x = self.licence(row)
        if x is None:
            return False, "Select a licence."
        if not rules.may(self.roles, rules.COMPLAINT_ROLES):
            return False, "The Electrical Inspector files complaints with the Clerk (15.1.78(a))."
        if x.status_on(self.today()) is not LicenceStatus.IN_FORCE:
            return False, f"The licence is {x.status_on(self.today()).label.lower()}."
        if x.revocation.open_on(self.today()):
            return False, "A complaint is open: the Council's finding comes first."
        return True, ""

    def can_schedule(self, row: int) -> tuple[bool, str]:
        x = self.licence(row)
        if x is None:
            return False, "Select a licence."
        if not rules.may(self.roles, rules.HEARING_ROLES):
            return False, "The City Clerk schedules the Council's hearing (15.1.78(b))."
        r = x.revocation
        if not r.pending or r.disqualified is not None:
            return False, "There is no open complaint waiting for a hearing."
        if r.lapsed(self.today()):
            return False, (
                "The thirty days for the hearing have passed (15.1.78(b)); the inspector files "
                "the complaint again."
            )
        return True, ""

    def can_find(self, row: int) -> tuple[bool, str]:
        x = self.licence(row)
        if x is None:
            return False, "Select a licence."
        if not rules.may(self.roles, rules.HEARING_ROLES):
            return False, "The City Clerk records the Council's finding (15.1.78(c))."
        r = x.revocation
        if not r.pending or r.disqualified is not None:
            return False, "There is no open complaint."
        if r.hearing_on is None:
            return False, "Schedule the hearing first."
        if self.today() < r.hearing_on:
            return False, f"The hearing is on {format_date(r.hearing_on)}."
        return True, ""

    def can_revoke(self, row: int) -> tuple[bool, str]:
        x = self.licence(row)
        if x is None:
            return False, "Select a licence."
        if not rules.may(self.roles, rules.REVOKE_ROLES):
            return False, "The Electrical Inspector revokes licences (15.1.78(c))."
        try:
            rules.check_revocation(x.revocation, self.today())
        except RuleViolation as e:
            return False, str(e)
        return True, ""

    def detail(self, row: int) -> str:
        x = self.licence(row)
        if x is None:
            return ""
        today = self.today()
        parts = [
            f"{x.number}, {x.licensee}: {x.credential}. Granted {format_date(x.granted_on)}, "
            f"in force through {format_date(x.expires_on)}."
        ]
        r = x.revocation
        if r.complaint_on is not None:
            parts.append(
                f"Complaint filed {format_date(r.complaint_on)}; the hearing is held by "
                f"{format_date(rules.hearing_deadline(r.complaint_on))} (15.1.78(b))."
            )
        if x.hearing_on is not None:
            parts.append(f"Hearing before the Council {format_date(x.hearing_on)}.")
        if x.disqualified is not None:
            parts.append(f"Finding {format_date(x.finding_on)}: {x.council_finding}")
        if x.revoked_on is not None:
            parts.append(f"Revoked {format_date(x.revoked_on)}.")
        elif x.status_on(today) is LicenceStatus.EXPIRED:
            parts.append("Expired.")
        return " ".join(parts)


# --- Condemnations -------------------------------------------------------------------------------

CONDEMNATION_COLUMNS = (
    "Address",
    "Unit",
    "Condemned",
    "Grounds",
    "Vacate by",
    "Status",
    "Permit",
)
STATE_ORDER = CONDEMNATION_STATES  # the register's lists, in the order of their tabs
STATE_LABELS = {
    "open": "Open",
    "overdue": "Overdue to vacate",
    "lifted": "Lifted",
    "closed": "Razed or removed",
    "all": "All",
}


class CondemnationsPresenter:
    columns = CONDEMNATION_COLUMNS

    def __init__(
        self,
        fetch: Callable[[str, str], list[CondemnationLine]],
        counts: Callable[[], Mapping[str, int]],
        today: Callable[[], date],
        roles: frozenset[Role],
    ) -> None:
        self.fetch = fetch
        self.counts_of = counts
        self.today = today
        self.roles = roles
        self.text = ""
        self.state = "open"
        self.rows: list[Line] = []
        self.counts: Mapping[str, int] = {}

    def load(self) -> None:
        today = self.today()
        self.counts = self.counts_of()
        self.rows = []
        for c in self.fetch(self.text, self.state):
            words, warn = rules.condemnation_state(
                c.outcome, c.outcome_on, c.vacate_by, c.vacated_on, today
            )
            self.rows.append(
                Line(
                    c,
                    (
                        c.address,
                        c.dwelling_unit or EMPTY,
                        format_date(c.condemned_on),
                        c.grounds_text,
                        format_date(c.vacate_by),
                        words,
                        c.permit_number or EMPTY,
                    ),
                    warn=warn,
                )
            )

    def tab_title(self, state: str) -> str:
        n = self.counts.get(state)
        return STATE_LABELS[state] if n is None else f"{STATE_LABELS[state]} ({n:,})"

    def condemnation(self, row: int) -> CondemnationLine | None:
        return item_at(self.rows, row, CondemnationLine)

    def row_of(self, condemnation_id: int) -> int:
        return row_of(self.rows, condemnation_id)

    @property
    def summary(self) -> str:
        c = self.counts
        overdue = c.get("overdue", 0)
        text = count_of(c.get("open", 0), "open condemnation")
        return text + (f", {overdue:,} overdue to vacate" if overdue else "")

    @property
    def empty_text(self) -> str:
        if self.text.strip():
            return f"No condemnation matches “{self.text.strip()}”."
        return f"No condemnations: {STATE_LABELS[self.state].lower()}."

    def can_record(self) -> tuple[bool, str]:
        if not rules.may(self.roles, rules.CONDEMN_ROLES):
            return False, "The Building Inspector condemns and placards dwellings."
        return True, ""

    def _open_step(self, row: int) -> tuple[bool, str]:
        c = self.condemnation(row)
        if c is None:
            return False, "Select a condemnation."
        if not rules.may(self.roles, rules.CONDEMN_ROLES):
            return False, "The Building Inspector records this."
        if c.outcome is not Outcome.OPEN:
            return False, f"Closed: {c.outcome.label.lower()} {format_date(c.outcome_on)}."
        return True, ""

    def can_vacate(self, row: int) -> tuple[bool, str]:
        ok, why = self._open_step(row)
        c = self.condemnation(row)
        if ok and c is not None and c.vacated_on is not None:
            return False, f"Vacated {format_date(c.vacated_on)}."
        return ok, why

    def can_lift(self, row: int) -> tuple[bool, str]:
        return self._open_step(row)

    def can_raze(self, row: int) -> tuple[bool, str]:
        return self._open_step(row)

    def can_print(self, row: int) -> tuple[bool, str]:
        return (True, "") if self.condemnation(row) else (False, "Select a condemnation.")

    def detail(self, row: int) -> str:
        c = self.condemnation(row)
        if c is None:
            return ""
        grounds = "; ".join(
            f"{g.code} {g.words}" for g in rules.parse_grounds(c.grounds)
        )  # the ordinance's words; no municipality's section: the register is Glendale's too
        text = (
            f"{c.where}: condemned {format_date(c.condemned_on)}"
            + (f", placarded {format_date(c.placarded_on)}" if c.placarded_on else "")
            + f". {c.reasons} — Grounds: {grounds}."
        )
        if c.outcome is Outcome.OPEN:
            text += f" To be vacated by {format_date(c.vacate_by)}."
        return text
