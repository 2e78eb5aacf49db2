"""The Rooming houses section and a licence's window without Qt (Hudson 140-10): the register's
rows, filters, search and summary; a licence's header words and status with its dates, its
rooms, fixtures and shortfalls (140-10E/G), its dated history, which step the signed-in user may
take now and why not; and the application form's numbers read from what was typed. The rules
are desk/enforcement/licences.py's; the rows come from db/licence_register_queries.py and
db/licence_view.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from db.licence_view import LicenceFacts, RoomFact
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.enforcement import licences as rules
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.enforcement.licences import (
    HearingDecision,
    LicenceRow,
    LicenceState,
    RegisterFilter,
    RevocationKind,
    Shortfall,
)
from desk.errors import ValidationError
from desk.text import sentence_start
from ui.presenters.formatting import EMPTY, count_of, format_date
from ui.presenters.record_window import Rows, Step
from ui.presenters.registers import Line, item_at, row_of

SECTION_TITLE = "Rooming houses"
NEW_KEY = "Ctrl+N"  # a new application, while the section is shown
COLUMNS = (
    "Licence",
    "Operator",
    "Dwelling",
    "Persons",
    "Applied",
    "Issued",
    "Last valid day",
    "Status",
)
FILTERS: tuple[tuple[str, RegisterFilter], ...] = (
    ("All", RegisterFilter.ALL),
    ("In force", RegisterFilter.IN_FORCE),
    (f"Expiring within {rules.RENEWAL_DAYS} days", RegisterFilter.EXPIRING),
    ("Suspended", RegisterFilter.SUSPENDED),
    ("Revoked", RegisterFilter.REVOKED),
    ("Expired", RegisterFilter.EXPIRED),
    ("Applications pending", RegisterFilter.PENDING),
)
APPLICATION = "Application"  # the number column of one not issued yet


def money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


# --- the register ---------------------------------------------------------------------------


def _warn(status: str) -> bool:
    return status in ("suspended", "revoked", "expired")


def caution(status: str) -> bool:
    """In force but needing a look: warned (140-10C) or expiring within the watch (140-10A),
    not when all it says is that its renewal is issued; shown amber, where _warn's are red."""
    head = f"{rules.IN_FORCE} — "
    if not status.startswith(head):
        return False
    return any(not note.startswith("renewal issued") for note in status[len(head) :].split("; "))


def register_cells(r: LicenceRow) -> tuple[str, ...]:
    return (
        r.number or APPLICATION,
        r.operator,
        r.address,
        str(r.persons),
        format_date(r.applied_on),
        format_date(r.issued_on) or EMPTY,
        format_date(r.expires_on) or EMPTY,
        r.status,
    )


def _matches(r: LicenceRow, text: str) -> bool:
    words = " ".join((r.number, r.operator, r.address, r.pin)).lower()
    return all(w in words for w in text.lower().split())


class RegisterPresenter:
    columns = COLUMNS

    def __init__(
        self,
        fetch: Callable[[RegisterFilter], list[LicenceRow]],
        today: Callable[[], date],
        actor: Actor,
        calendar: OfficeCalendar = STATUTE,
    ) -> None:
        self.fetch = fetch
        self.today = today
        self.actor = actor
        self.calendar = calendar  # the office's days (Wis. Stat. 990.001(4))
        self.which = RegisterFilter.ALL
        self.text = ""
        self.rows: list[Line] = []

    def load(self) -> None:
        # The register is a few dozen houses: the search runs over the filter's rows.
        found = [r for r in self.fetch(self.which) if _matches(r, self.text.strip())]
        self.rows = [Line(r, register_cells(r), warn=_warn(r.status)) for r in found]

    def licence(self, row: int) -> LicenceRow | None:
        return item_at(self.rows, row, LicenceRow)

    def row_of(self, licence_id: int) -> int:
        return row_of(self.rows, licence_id, "licence_id")

    @property
    def filter_label(self) -> str:
        return next(label for label, f in FILTERS if f is self.which)

    @property
    def summary(self) -> str:
        noun = "application" if self.which is RegisterFilter.PENDING else "licence"
        return f"{count_of(len(self.rows), noun)}: {self.filter_label.lower()}"

    @property
    def empty_text(self) -> str:
        if self.text.strip():
            return f"No licence or application matches “{self.text.strip()}”."
        if self.which is RegisterFilter.ALL:
            return (
                "No rooming house licences yet. New application… "
                f"({NEW_KEY}) records an operator's application (Hudson 140-10A)."
            )
        return f"None: {self.filter_label.lower()}."

    def detail(self, row: int) -> str:
        r = self.licence(row)
        if r is None:
            return ""
        parts = [f"{r.number or 'Application'} · {r.operator} · {r.address}"]
        if r.pin:
            parts.append(f"PIN {r.pin}")
        parts.append(count_of(r.persons, "person"))
        if r.status.startswith(rules.IN_FORCE) and r.expires_on is not None:
            left = (r.expires_on - self.today()).days
            parts.append(f"valid through {format_date(r.expires_on)} ({count_of(left, 'day')})")
        elif r.status.startswith(rules.NOT_YET) and r.expires_on is not None:
            parts.append(
                f"a renewal, in force from {format_date(r.valid_from)} through "
                f"{format_date(r.expires_on)}"
            )
        if r.suspended_on is not None and r.status == "suspended":
            parts.append(
                f"suspended {format_date(r.suspended_on)}, petition through "
                f"{format_date(rules.petition_last_day(r.suspended_on, self.calendar))}"
            )
        return " · ".join(parts) + ". Enter opens it."

    def can_apply(self) -> tuple[bool, str]:
        if not allowed(self.actor, Permission.RECORD_ROOMING_APPLICATION):
            return False, "The clerk records applications (Hudson 140-10A)."
        return True, ""


def register_title(which: RegisterFilter, text: str, today: date) -> str:
    """The printed register's title: what it shows, on which day."""
    label = next(label for label, f in FILTERS if f is which)
    searched = f", matching “{text.strip()}”" if text.strip() else ""
    return f"Rooming house licences — {label.lower()}{searched}, {format_date(today)}"


# --- the licence window ------------------------------------------------------------------------


def status_words(f: LicenceFacts, today: date) -> str:
    """The status with the dates that matter in it (140-10A, C, D)."""
    s = f.state
    if s is LicenceState.APPLIED:
        return f"application pending since {format_date(f.applied_on)}"
    if s is LicenceState.DENIED:
        last = rules.denial_petition_last_day(f.denied_on, f.calendar) if f.denied_on else None
        words = f"denied {format_date(f.denied_on)}"
        if last is not None and f.petition_filed_on is None:
            words += f" · petition through {format_date(last)}"
        return words
    if s is LicenceState.ISSUED:
        assert f.expires_on is not None
        if rules.expired(f.expires_on, today):
            return f"expired: last valid day {format_date(f.expires_on)}"
        if rules.not_yet_in_force(f.valid_from, today):
            return (
                f"issued {format_date(f.issued_on)}, in force from {format_date(f.valid_from)} "
                f"through {format_date(f.expires_on)}"
            )
        words = f"in force · issued {format_date(f.issued_on)}, valid through "
        words += format_date(f.expires_on)
        if f.warned_on is not None:
            words += f" · warned {format_date(f.warned_on)}, correct by {format_date(f.correct_by)}"
        renewal = renewal_words(f)
        if renewal:
            words += f" · {renewal}"
        return words
    if s is LicenceState.SUSPENDED:
        assert f.suspended_on is not None
        words = f"suspended {format_date(f.suspended_on)}"
        if f.petition_filed_on is not None and f.petition_timely:
            return words + f" · petition filed {format_date(f.petition_filed_on)}"
        last = rules.petition_last_day(f.suspended_on, f.calendar)
        return words + f" · petition through {format_date(last)}, else revoked"
    if s is LicenceState.REVOKED:
        how = {
            RevocationKind.AUTOMATIC: "no petition (140-10D)",
            RevocationKind.COUNCIL: "by the Council (140-3E)",
        }
        why = how.get(f.revocation, "") if f.revocation else ""
        return f"revoked {format_date(f.revoked_on)}" + (f", {why}" if why else "")
    return f"ended {format_date(f.ended_on)}: change of owner or control (140-10A)"


def renewal_words(f: LicenceFacts) -> str:
    """Its renewal as the register says it (140-10A): applied for, or issued; "" for none (or
    one denied, or ended by a change of owner)."""
    r = f.renewal
    if r is None:
        return ""
    if r.state is LicenceState.APPLIED:
        return rules.RenewalNote(r.applied_on).words
    if r.number is not None and r.state is not LicenceState.ENDED:
        return rules.RenewalNote(r.applied_on, r.number, r.valid_from).words
    return ""


def status_tone(f: LicenceFacts, today: date) -> str:
    """The chip's colour, by the permit status it looks like (style.qss)."""
    if f.state is LicenceState.ISSUED:
        assert f.expires_on is not None
        if rules.expired(f.expires_on, today):
            return "expired"
        return "expired" if f.warned_on is not None else "issued"
    if f.state is LicenceState.APPLIED:
        return "applied"
    if f.state is LicenceState.ENDED:
        return "completed"
    return "revoked"  # denied, suspended, revoked


def header_words(f: LicenceFacts, today: date) -> tuple[str, str, str, str]:
    """(title, operator line, dwelling line, status line) of the window."""
    title = f"Licence {f.number}" if f.number else "Application"
    operator = f"Operator: {f.operator_name}, {f.operator_address}"
    dwelling = f"{f.dwelling}" + (f" · PIN {f.pin}" if f.pin else "")
    dwelling += f" · applied {format_date(f.applied_on)}"
    if f.renews is not None:
        dwelling += f" · renews {f.renews.number}"
    if f.renewal is not None and f.renewal.number:
        dwelling += f" · renewed by {f.renewal.number}"
    if f.case_number:
        dwelling += f" · case {f.case_number}"
    return title, operator, dwelling, status_words(f, today)


def window_title(f: LicenceFacts) -> str:
    name = f"Rooming house licence {f.number}" if f.number else "Rooming house application"
    return f"{name}, {f.dwelling} — Permit Desk"


ROOM_COLUMNS = ("Room", "Floor area (sq ft)", "Sleeping", "Over 12", "Under 12")
FIXTURE_COLUMNS = ("Section", "Item", "Finding")
HISTORY_COLUMNS = ("Date", "What", "Details", "Section")


def _area(x: Decimal) -> str:
    return f"{x.normalize():f}" if x == x.to_integral_value() else f"{x:f}".rstrip("0")


def room_rows(rooms: Sequence[RoomFact], found: Sequence[Shortfall] = ()) -> Rows:
    short = {s.room for s in found if s.room}
    return Rows(
        ROOM_COLUMNS,
        [
            Line(
                r,
                (
                    r.name,
                    _area(r.floor_area),
                    "yes" if r.sleeping else "no",
                    str(r.occupants_over_12) if r.sleeping else EMPTY,
                    str(r.occupants_under_12) if r.sleeping else EMPTY,
                ),
                warn=r.name in short,
            )
            for r in rooms
        ],
    )


def fixture_rows(f: LicenceFacts, found: Sequence[Shortfall]) -> Rows:
    """The persons and fixtures applied for with what 140-10E asks of them, then each shortfall
    of 140-10E/G as check_licence finds it."""
    need = rules.sets_required(f.persons)
    lines = [
        Line(None, ("140-10E", "Persons residing", f"{f.persons}: {need} set(s) of fixtures")),
    ]
    for what, have in (
        ("Flush water closets", f.water_closets),
        ("Lavatory basins", f.lavatories),
        ("Bathtubs or showers", f.baths),
    ):
        ok = have >= need
        lines.append(
            Line(
                None,
                ("140-10E", what, f"{have} ({'enough' if ok else f'{need} needed'})"),
                warn=not ok,
            )
        )
    sleeping = [r for r in f.rooms if r.sleeping]
    lines.append(Line(None, ("140-10G", "Sleeping rooms", str(len(sleeping)))))
    for s in found:
        item = s.room or "Shortfall"
        lines.append(Line(s, (s.section, item, s.text), warn=True))
    if not found:
        lines.append(Line(None, ("", "Checks", "The fixtures and sleeping rooms pass.")))
    return Rows(FIXTURE_COLUMNS, lines)


@dataclass(frozen=True)
class Event:
    on: date
    what: str
    text: str
    section: str
    case_id: int | None = None  # a linked case: Enter opens it


def _at(at: datetime) -> str:
    return f"{format_date(at.date())} {at.strftime('%H:%M')}"


def history_events(f: LicenceFacts) -> list[Event]:
    """The dated events kept on the licence, in date order."""
    applied = f"{f.operator_name}: {count_of(f.persons, 'person')}, {len(f.rooms)} room(s)"
    if f.renews is not None:
        applied += (
            f"; to renew licence {f.renews.number}, valid through "
            f"{format_date(f.renews.expires_on)}"
        )
    ev: list[Event] = [Event(f.applied_on, "Application", applied, "140-10A")]
    if f.case_id is not None and f.case_number:
        inspected = (
            f"last inspected {format_date(f.last_inspected_on)}"
            if f.last_inspected_on
            else "not inspected yet"
        )
        ev.append(
            Event(
                f.last_inspected_on or f.applied_on,
                "Inspection case",
                f"Case {f.case_number}: {inspected}, "
                f"{count_of(f.open_violations, 'open violation')}. Enter opens the case.",
                "140-10A",
                f.case_id,
            )
        )
    if f.denied_on is not None:
        ev.append(Event(f.denied_on, "Denied", f.denial_reason, "140-10B"))
    if f.renewal is not None:
        r = f.renewal
        if r.number is not None:
            words = f"Licence {r.number} renews it from {format_date(r.valid_from)}"
            words += f" through {format_date(r.expires_on)}; applied {format_date(r.applied_on)}"
        else:
            words = f"Application #{r.id} to renew it: {state_words(r.state)}"
        ev.append(Event(r.applied_on, "Renewal", words, "140-10A"))
    if f.issued_on is not None:
        words = f"Licence {f.number}, valid through {format_date(f.expires_on)}"
        if f.valid_from is not None and f.valid_from != f.issued_on:
            words = (
                f"Licence {f.number}, valid from {format_date(f.valid_from)} through "
                f"{format_date(f.expires_on)}"
            )
        if f.issued_by:
            words += f", by {f.issued_by}"
        if f.fee is not None:
            words += f"; fee {money(f.fee)}"
        if f.fee_receipt:
            words += f", receipt {f.fee_receipt}"
        ev.append(Event(f.issued_on, "Issued", words, "140-10A"))
    if f.warned_on is not None:
        ev.append(
            Event(
                f.warned_on,
                "Warning notice",
                f"Correct the violations by {format_date(f.correct_by)} or the licence is "
                "suspended",
                "140-10C",
            )
        )
    if f.suspended_on is not None:
        ev.append(
            Event(
                f.suspended_on,
                "Suspended",
                "Cease operating; petition through "
                f"{format_date(rules.petition_last_day(f.suspended_on, f.calendar))}",
                "140-10C",
            )
        )
    if f.petition_filed_on is not None:
        late = "" if f.petition_timely else " (late)"
        ev.append(
            Event(f.petition_filed_on, "Petition", f"By {f.petitioner}{late}", "140-10D, 140-3B")
        )
    if f.decided_on is not None and f.decision is not None:
        words = {
            HearingDecision.SUSTAIN: "Sustained",
            HearingDecision.MODIFY: "Modified",
            HearingDecision.WITHDRAW: "Withdrawn",
        }[f.decision]
        ev.append(Event(f.decided_on, "Council", f"{words}: {f.findings}", "140-3C"))
    if f.revoked_on is not None:
        how = (
            "no timely petition (140-10D)"
            if f.revocation is RevocationKind.AUTOMATIC
            else "the Council sustained the suspension"
        )
        ev.append(Event(f.revoked_on, "Revoked", sentence_start(how), "140-10D"))
    if f.revocation_set_aside_on is not None:
        ev.append(
            Event(
                f.revocation_set_aside_on,
                "Revocation set aside",
                f"The automatic revocation did not arise: {f.revocation_set_aside_reason}",
                "140-10D",
            )
        )
    if f.changed_at is not None and f.ended_on is not None:
        late = " (late)" if f.change_notice_late else ""
        notice = _at(f.change_notice_at) if f.change_notice_at else EMPTY
        ev.append(
            Event(
                f.ended_on,
                "Change of owner",
                f"Changed {_at(f.changed_at)}, notice {notice}{late}; successor "
                f"{f.successor_name}, {f.successor_address}. The licence ends.",
                "140-10A",
            )
        )
    return sorted(ev, key=lambda e: e.on)


def history_rows(f: LicenceFacts) -> Rows:
    return Rows(
        HISTORY_COLUMNS,
        [
            Line(e, (format_date(e.on), e.what, e.text, e.section), warn=e.what == "Suspended")
            for e in history_events(f)
        ],
    )


# --- the steps ---------------------------------------------------------------------------------


STEP_LABELS = (
    ("case", "Inspection &case…"),
    ("issue", "&Issue licence…"),
    ("deny", "&Deny…"),
    ("warning", "&Warning notice…"),
    ("suspend", "&Suspend…"),
    ("petition", "&Petition…"),
    ("decision", "Council d&ecision…"),
    ("change", "C&hange of owner…"),
    ("renew", "Renew&al…"),
)
NOTICE_KINDS = (("warning", "Warning notice"), ("suspension", "Suspension"), ("denial", "Denial"))


def in_force(f: LicenceFacts, today: date) -> bool:
    """Issued, not expired, and not a renewal before its first day (140-10A)."""
    return (
        f.state is LicenceState.ISSUED
        and f.expires_on is not None
        and not rules.expired(f.expires_on, today)
        and not rules.not_yet_in_force(f.valid_from, today)
    )


def _role(actor: Actor, permission: Permission, who: str) -> tuple[bool, str] | None:
    return None if allowed(actor, permission) else (False, f"{who} ({permission.value}).")


def state_words(state: LicenceState) -> str:
    return "pending" if state is LicenceState.APPLIED else state.value


def licence_steps(f: LicenceFacts, today: date, actor: Actor, shortfalls: int = 0) -> list[Step]:
    """Each step of the window with whether this user may take it now and why not (the
    `shortfalls` of 140-10E/G check_licence found). The services check again; this only
    spares a refusal."""

    def when(ok: bool, why: str) -> tuple[bool, str]:
        return (True, "") if ok else (False, why)

    def gate(permission: Permission, who: str, ready: tuple[bool, str]) -> tuple[bool, str]:
        return _role(actor, permission, who) or ready

    name = f.number or "The application"
    pending = f.state is LicenceState.APPLIED
    live = in_force(f, today)
    not_pending = f"{name} is {state_words(f.state)}, not pending."
    not_live = f"{name} is {state_words(f.state)}, not in force."
    if f.state is LicenceState.ISSUED and not live:
        not_live = f"{name} expired after {format_date(f.expires_on)}."
    inspector, clerk = "The inspector", "The clerk"

    case_ready = when(
        pending or live or f.state is LicenceState.SUSPENDED,
        f"{name} is {status_words(f, today)}: nothing to inspect for.",
    )
    if f.state is LicenceState.APPLIED and f.case_id is not None and f.case_closed_on is None:
        case_ready = (True, "")
    issue_ready = when(pending, not_pending)
    if pending:
        if shortfalls:
            issue_ready = (
                False,
                f"{count_of(shortfalls, 'shortfall')} of 140-10E/G: see Fixtures & checks.",
            )
        elif f.case_id is None:
            issue_ready = (False, "The inspector has not opened an inspection case yet (140-10A).")
        elif f.last_inspected_on is None or f.last_inspected_on < f.applied_on:
            issue_ready = (
                False,
                f"The inspector has not inspected since the application of "
                f"{format_date(f.applied_on)} (140-10A).",
            )
        elif f.open_violations:
            issue_ready = (
                False,
                f"{count_of(f.open_violations, 'violation')} open on case {f.case_number} "
                "(140-10A).",
            )
    warn_ready = when(live, not_live)
    if live and not f.open_violations:
        warn_ready = (False, "No violation is open on the licence's case: inspect first (140-10C).")
    suspend_ready = when(live, not_live)
    if live:
        if f.warned_on is None or f.correct_by is None:
            suspend_ready = (
                False,
                "Give the warning notice with a correction date first (140-10C).",
            )
        elif today < f.correct_by:
            suspend_ready = (
                False,
                f"The correction period runs to {format_date(f.correct_by)} (140-10C).",
            )
    petitionable = f.state in (LicenceState.DENIED, LicenceState.SUSPENDED) or (
        f.state is LicenceState.ISSUED and f.warned_on is not None
    )
    petition_ready = when(petitionable, "No denial, warning or suspension to petition (140-3B).")
    if petitionable and f.petition_filed_on is not None and f.petition_timely:
        petition_ready = (
            False,
            f"A petition was filed on {format_date(f.petition_filed_on)} already.",
        )
    decision_ready = when(
        bool(f.petition_filed_on and f.petition_timely)
        and f.state in (LicenceState.DENIED, LicenceState.SUSPENDED, LicenceState.ISSUED),
        "No timely petition awaits the Council's decision (140-3B, C).",
    )
    change_ready = when(
        live or f.state is LicenceState.SUSPENDED,
        f"{name} is {state_words(f.state)}, not in force.",
    )
    steps = {
        "renew": gate(Permission.RECORD_ROOMING_APPLICATION, clerk, renew_ready(f, today)),
        "case": gate(Permission.OPEN_CASE, inspector, case_ready),
        "issue": gate(Permission.ISSUE_ROOMING_LICENCE, "The City Clerk", issue_ready),
        "deny": gate(Permission.SUSPEND_ROOMING_LICENCE, inspector, when(pending, not_pending)),
        "warning": gate(Permission.SUSPEND_ROOMING_LICENCE, inspector, warn_ready),
        "suspend": gate(Permission.SUSPEND_ROOMING_LICENCE, inspector, suspend_ready),
        "petition": gate(Permission.RECORD_PETITION, clerk, petition_ready),
        "decision": gate(Permission.RECORD_COUNCIL_DECISION, inspector, decision_ready),
        "change": gate(Permission.RECORD_ROOMING_APPLICATION, clerk, change_ready),
    }
    return [Step(key, label, steps[key]) for key, label in STEP_LABELS]


def renew_ready(f: LicenceFacts, today: date) -> tuple[bool, str]:
    """Whether the operator's renewal may be recorded today, and why not (140-10A); the words
    of desk/enforcement/renewals.py, which the service checks again."""
    name = f.number or "The application"
    if f.state is not LicenceState.ISSUED:
        return False, f"{name} is {state_words(f.state)}: it cannot be renewed (140-10A)."
    assert f.expires_on is not None
    if rules.expired(f.expires_on, today):
        return False, f"{name} expired after {format_date(f.expires_on)}: apply anew (140-10A)."
    r = f.renewal
    if r is not None and r.state is LicenceState.APPLIED:
        return False, f"A renewal was applied for on {format_date(r.applied_on)} (pending)."
    if r is not None and r.number is not None and r.state is not LicenceState.ENDED:
        return False, f"Renewed already: {r.number}, from {format_date(r.valid_from)}."
    opens = rules.renewal_opens(f.expires_on)
    if today < opens:
        return (
            False,
            f"A renewal may be applied for from {format_date(opens)} "
            f"({rules.RENEWAL_DAYS} days before {format_date(f.expires_on)}, 140-10A).",
        )
    return True, ""


def certificate_allowed(f: LicenceFacts, today: date) -> tuple[bool, str]:
    """A licence in force, or a renewal issued to go up on its first day (140-10A)."""
    if f.number is None:
        return False, "Not issued: there is no certificate to print."
    if not in_force(f, today) and not (
        f.state is LicenceState.ISSUED and rules.not_yet_in_force(f.valid_from, today)
    ):
        return False, f"Licence {f.number} is not in force."
    return True, ""


def notices_available(f: LicenceFacts) -> list[tuple[str, str]]:
    """(kind, label) of the notices this licence has: a warning, a suspension, a denial."""
    have = {
        "warning": f.warned_on is not None,
        "suspension": f.suspended_on is not None,
        "denial": f.denied_on is not None,
    }
    return [(k, label) for k, label in NOTICE_KINDS if have[k]]


def renewal_term_words(f: LicenceFacts) -> str:
    """The issue dialog's words on a renewal's term (140-10A); "" for a new licence."""
    old = f.renews
    if old is None or old.expires_on is None:
        return ""
    start, last = rules.renewal_term(old.expires_on, old.expires_on)
    return (
        f" A renewal of licence {old.number}: issued by {format_date(old.expires_on)}, it is "
        f"valid from {format_date(start)} through {format_date(last)}; issued later, from the "
        "day of issue."
    )


def fee_words(fee: Decimal | None) -> str:
    """The issue dialog's fee line: the Council's fee in force (140-10A)."""
    if fee is None:
        return "not set by the Council"
    if fee == 0:
        return "none ($0.00, as the Council set it)"
    return f"{money(fee)}, as the Council set it, paid to the City Clerk"


def fee_warning(fee: Decimal | None) -> str:
    """What the issue dialog says at once when no licence can be issued for want of a fee."""
    return rules.fee_not_set_text() if fee is None else ""


# --- the application form ------------------------------------------------------------------------


def parse_count(field: str, text: str, *, where: str = "") -> int:
    """A whole number typed in a count field; the error names the field (and the room)."""
    raw = text.strip() or "0"
    if not raw.isdigit():
        prefix = f"{where}: " if where else ""
        raise ValidationError(field, f"{prefix}give a whole number, not “{text.strip()}”")
    return int(raw)


def parse_area(text: str, where: str) -> Decimal:
    """A floor area in square feet, as typed ("120", "120.5", "1,200")."""
    raw = text.replace(",", "").replace("sq ft", "").strip()
    try:
        area = Decimal(raw)
    except InvalidOperation:
        raise ValidationError(
            "floor area", f"{where}: give the floor area in square feet, e.g. 120"
        ) from None
    if not area.is_finite() or area <= 0:
        raise ValidationError("floor area", f"{where}: give the floor area in square feet")
    return area


def room_label(row: int, name: str) -> str:
    """How an error names a room of the form: 'Room row 2 (Room 2)'."""
    return f"row {row + 1}" + (f" ({name.strip()})" if name.strip() else "")
