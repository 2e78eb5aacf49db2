"""The Code enforcement section and a case's window without Qt: the stage a case is at in words
(Hudson 140-3), its next date, the list's filters, which step the signed-in user may take and
why not, and the rows of the timeline, violations and notices. The rules are
desk/enforcement/rules.py's; the rows come from db/enforcement_queries.py and
db/enforcement_case_view.py."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from db.enforcement_case_view import (
    AddresseeFact,
    AppealFact,
    CaseFacts,
    NoticeFact,
    OrderFact,
    ServiceFact,
    ViolationFact,
)
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.domain.reports import code_citations
from desk.enforcement import deadlines, rules
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.enforcement.model import Decision, NoticeKind, OrderKind, ServiceMethod, ViolationState
from desk.enforcement.procedure import Procedure
from desk.enforcement.readmodels import CaseFilter, CaseRow, TimelineEntry
from ui.presenters.formatting import EMPTY, count_of, format_date
from ui.presenters.paging import PAGE_SIZE, PagedList, WholeList
from ui.presenters.record_window import Rows, Step
from ui.presenters.registers import Line, item_at, row_of

SECTION_TITLE = "Code enforcement"
COMPLAINT_KEY = "Ctrl+J"  # take a complaint (Ctrl+K is the fee calculator)
COLUMNS = ("Case", "Address", "Opened", "Stage", "Next date", "Owner")
FILTERS: tuple[tuple[str, CaseFilter], ...] = (
    ("Open", CaseFilter.OPEN),
    ("Notice not yet served", CaseFilter.NOT_SERVED),
    ("Petition window open", CaseFilter.WINDOW_OPEN),
    ("Order past its correction date", CaseFilter.ORDER_PAST_DUE),
    ("Hearing scheduled", CaseFilter.HEARING_SCHEDULED),
    ("Closed this year", CaseFilter.CLOSED_THIS_YEAR),
    ("Serve again", CaseFilter.SERVE_AGAIN),  # registered mail returned unclaimed (140-3A(4))
    ("All cases", CaseFilter.ALL),
)
# --view enforcement[:FILTER]
FILTER_KEYS = {
    "open": CaseFilter.OPEN,
    "unserved": CaseFilter.NOT_SERVED,
    "serveagain": CaseFilter.SERVE_AGAIN,
    "window": CaseFilter.WINDOW_OPEN,
    "pastdue": CaseFilter.ORDER_PAST_DUE,
    "hearing": CaseFilter.HEARING_SCHEDULED,
    "closed": CaseFilter.CLOSED_THIS_YEAR,
    "all": CaseFilter.ALL,
}


# --- the stage ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseStage:
    words: str  # "petition window open until 03/12/2026"
    next_on: date | None  # the next date that matters
    next_what: str  # what happens then
    warn: bool = False  # past due: shown in the warning colour


def live_notice(f: CaseFacts) -> NoticeFact | None:
    """The case's latest notice not withdrawn by the Council (140-3C)."""
    withdrawn = Decision.WITHDRAW
    live = [n for n in f.notices if withdrawn not in (n.decision, n.final_decision)]
    return live[-1] if live else None


def notice_facts(
    n: NoticeFact, cal: OfficeCalendar = STATUTE, proc: Procedure | None = None
) -> rules.NoticeFacts:
    return rules.NoticeFacts(
        kind=n.kind,
        served=n.served(),  # an owner served through the agent (140-3A(4))
        timely_petitions=sum(1 for p in n.petitions if p.timely),
        decision=n.decision,
        has_order=bool(n.orders_made),
        calendar=cal,
        request_days=proc.request.days if proc else deadlines.PETITION_DAYS,
        final_decision=n.final_decision,
    )


def review_stage(f: CaseFacts, n: NoticeFact, today: date) -> CaseStage | None:
    """Wis. Stat. ch. 68 after a request for review: the decision on review due (68.09(3)),
    the appeal's hearing (68.11(1)) and final determination (68.12(1)); None otherwise."""
    proc, cal = f.procedure, f.calendar
    if not proc.review:
        return None
    if n.decision is None:
        timely = [p.filed_on for p in n.petitions if p.timely]
        if not timely:
            return None
        review = proc.period("review")
        due = deadlines.review_due(min(timely), review.days, cal)
        late = today > due
        return CaseStage(
            f"review requested, decision {'was ' if late else ''}due {format_date(due)}",
            due,
            f"decision on review ({review.section})",
            warn=late,
        )
    pending = next((a for a in n.appeals if a.timely and a.decision is None), None)
    if pending is None:
        return None
    if pending.hearing_on is None:
        hearing = proc.period("hearing")
        by = deadlines.hearing_last_day(pending.filed_on, hearing.days, cal)
        return CaseStage(
            f"appeal filed, hearing by {format_date(by)}",
            by,
            f"hearing on the appeal ({hearing.section})",
            warn=today > by,
        )
    if today <= pending.hearing_on:
        on = pending.hearing_on
        return CaseStage(f"appeal hearing {format_date(on)}", on, "hearing")
    final = proc.period("final")
    due = deadlines.final_due(pending.hearing_on, final.days, cal)
    return CaseStage(
        f"appeal heard, final determination due {format_date(due)}",
        due,
        f"final determination ({final.section})",
        warn=today > due,
    )


def order_in_force(n: NoticeFact) -> OrderFact | None:
    return next((o for o in reversed(n.orders) if o.in_force), None)


def open_violations(f: CaseFacts) -> list[ViolationFact]:
    return [v for v in f.violations if v.state is ViolationState.OPEN]


def past_due_violations(f: CaseFacts, n: NoticeFact, today: date) -> list[ViolationFact]:
    ids = set(n.violation_ids)
    return [
        v for v in open_violations(f) if v.id in ids and deadlines.past_due(v.correct_by, today)
    ]


def _none_left(f: CaseFacts) -> CaseStage:
    """No violation open: corrected, or every one withdrawn (a mistake, or the Council)."""
    if all(v.state is ViolationState.WITHDRAWN for v in f.violations):
        return CaseStage("violations withdrawn", None, "close the case")
    return CaseStage("violations corrected", None, "close the case")


def case_stage(f: CaseFacts, today: date) -> CaseStage:
    """Where the case stands: complaint, inspected, notice issued, served, petition window open
    until DATE (140-3B), hearing DATE, order in force (140-3C, D, H), past due, closed."""
    if f.closed_on is not None:
        return CaseStage(f"closed ({f.closed_reason})", None, "")
    still = open_violations(f)
    earliest = min((v.correct_by for v in still), default=None)
    if not f.inspections:
        return CaseStage("complaint", None, "inspect")
    n = live_notice(f)
    if n is None:
        if f.violations and not still:
            return _none_left(f)
        if not f.violations:
            return CaseStage("inspected, no violation found", None, "close the case")
        if earliest is not None and deadlines.past_due(earliest, today):
            # Re-inspect, or give the time to correct in a notice (140-3A(3), 140-10C).
            return CaseStage("inspected, correction date passed", earliest, "past due", warn=True)
        return CaseStage("inspected", earliest, "correct by")
    proc = f.procedure
    facts = notice_facts(n, f.calendar, proc)
    stage = rules.stage(facts, today)
    if stage is rules.Stage.NOT_SERVED:
        return CaseStage("notice issued, not yet served", None, "serve the notice")
    if stage is rules.Stage.WINDOW_OPEN:
        days = proc.request.days
        window = max(
            (deadlines.petition_window(d, f.calendar, days) for d in n.served() if d),
            key=lambda w: w.day,
        )
        last = window.day
        if proc.review:  # Wis. Stat. 68.08
            words = f"review may be requested until {format_date(last)}"
        else:
            words = f"petition window open until {format_date(last)}"
        if window.extended:
            words += f" (extended: {window.reason})"
        return CaseStage(words, last, "window closes")
    if stage is not rules.Stage.WITHDRAWN and (ch68 := review_stage(f, n, today)) is not None:
        return ch68
    if stage is rules.Stage.HEARING:
        if n.hearing_on is not None:
            return CaseStage(f"hearing {format_date(n.hearing_on)}", n.hearing_on, "hearing")
        return CaseStage("petition filed, hearing to schedule", None, "schedule the hearing")
    if stage is rules.Stage.DUE_FOR_ORDER:
        due = rules.due_for_order(facts, today)
        if proc.review:
            cited = proc.no_filing_section  # Wis. Stat. 68.08
            return CaseStage("served, no review requested", due, f"becomes an order ({cited})")
        cited = code_citations(f.housing_code).step("140-3D")
        return CaseStage("served, window closed", due, f"becomes an order ({cited})")
    # An order (or the last notice withdrawn and nothing newer).
    if not still:
        return _none_left(f)
    late = past_due_violations(f, n, today)
    if late:
        first = min(v.correct_by for v in late)
        return CaseStage(f"past due since {format_date(first)}", first, "past due", warn=True)
    return CaseStage("order in force", earliest, "correct by")


# --- the list -------------------------------------------------------------------------------


def take_complaint_allowed(actor: Actor) -> tuple[bool, str]:
    if not allowed(actor, Permission.TAKE_COMPLAINT):
        return False, "The clerk or the inspector takes complaints."
    return True, ""


def open_on_observation_allowed(actor: Actor, code: str = "") -> tuple[bool, str]:
    """Only the inspector; `code`: the municipality's housing code, cited ('' Hudson's)."""
    if not allowed(actor, Permission.OPEN_CASE):
        cited = code_citations(code or None).step("140-2")
        return False, f"The inspector opens a case on observation ({cited})."
    return True, ""


class CaseSource(Protocol):
    """The list's cases: how many the filter and the search find, and a page of them."""

    def count(self, which: CaseFilter, text: str) -> int: ...

    def page(self, which: CaseFilter, text: str, offset: int, limit: int) -> list[CaseRow]: ...


class CaseListPresenter(PagedList[CaseRow]):
    """The cases the filter and the search find: their number (one COUNT) and the rows read so
    far, a page of `page_size` at a time as the list is scrolled (ui/views/paged.py); the
    stage of a row from case_facts, read for the rows of the page only."""

    columns = COLUMNS

    def __init__(
        self,
        source: CaseSource | Callable[[CaseFilter, str], list[CaseRow]],
        facts: Callable[[Sequence[int]], Mapping[int, CaseFacts]],
        today: Callable[[], date],
        actor: Actor,
        page_size: int = PAGE_SIZE,
    ) -> None:
        super().__init__(page_size)
        self.source: CaseSource = WholeList(source) if callable(source) else source
        self.facts_of = facts
        self.today = today
        self.actor = actor
        self.which = CaseFilter.OPEN
        self.stages: dict[int, CaseStage] = {}

    def _count(self) -> int:
        return self.source.count(self.which, self.text)

    def _page(self, offset: int, limit: int) -> list[CaseRow]:
        return self.source.page(self.which, self.text, offset, limit)

    def _forget(self) -> None:
        self.stages = {}

    def _lines(self, found: list[CaseRow]) -> list[Line]:
        today = self.today()
        facts = self.facts_of([r.case_id for r in found])
        lines = []
        for r in found:
            f = facts.get(r.case_id)
            s = case_stage(f, today) if f else CaseStage(EMPTY, None, "")
            self.stages[r.case_id] = s
            lines.append(
                Line(
                    r,
                    (
                        r.number,
                        r.address,
                        format_date(r.opened_on),
                        s.words,
                        format_date(s.next_on) or EMPTY,
                        r.owner or EMPTY,
                    ),
                    warn=s.warn,
                )
            )
        return lines

    def case(self, row: int) -> CaseRow | None:
        return item_at(self.rows, row, CaseRow)

    def row_of(self, case_id: int) -> int:
        """The row of the case among those read (-1: not read, or not found)."""
        return row_of(self.rows, case_id, "case_id")

    @property
    def filter_label(self) -> str:
        return next(label for label, f in FILTERS if f is self.which)

    @property
    def summary(self) -> str:
        return f"{count_of(self.count, 'case')}: {self.filter_label.lower()}"

    @property
    def empty_text(self) -> str:
        if self.text.strip():
            return f"No case matches “{self.text.strip()}”."
        if self.which in (CaseFilter.OPEN, CaseFilter.ALL):
            return f"No code enforcement cases yet. A complaint ({COMPLAINT_KEY}) opens one."
        return f"No cases: {self.filter_label.lower()}."

    def detail(self, row: int) -> str:
        r = self.case(row)
        if r is None:
            return ""
        s = self.stages.get(r.case_id)
        parts = [f"{r.number}, {r.address}"]
        if r.pin:
            parts.append(f"PIN {r.pin}")
        parts.append(count_of(r.open_violations, "open violation"))
        if s is not None and s.next_on is not None:
            parts.append(f"next: {s.next_what} {format_date(s.next_on)}")
        return " · ".join(parts) + ". Enter opens the case."

    def can_take_complaint(self) -> tuple[bool, str]:
        return take_complaint_allowed(self.actor)


# --- the case window ------------------------------------------------------------------------

TIMELINE_COLUMNS = ("Date", "What", "Details", "Section")
VIOLATION_COLUMNS = ("Section", "Violation", "Where", "Correct by", "State")
NOTICE_COLUMNS = ("Notice", "Issued", "Addressee", "Served", "Petition window")
_KIND_WORDS = {
    "case": "Case opened",
    "complaint": "Complaint",
    "inspection": "Inspection",
    "notice": "Notice",
    "service": "Service",
    "petition": "Petition",
    "hearing": "Hearing",
    "decision": "Council",
    "order": "Order",
    "escalation": "Enforcement",
    "closure": "Closed",
    "correction": "Correction",
}


_SECTIONS = {"inspection": "140-2"}  # the inspector's inspections


def timeline_rows(
    entries: Sequence[TimelineEntry], code: str = rules.DEFAULT_HOUSING_CODE
) -> list[tuple[str, str, str, str]]:
    """Date, what, the words, the section (as the case's code cites its procedure): the
    History tab's way of reading."""
    step = code_citations(code).step
    return [
        (
            format_date(e.on),
            _KIND_WORDS.get(e.kind, e.kind.title()),
            e.text,
            e.section or (step(_SECTIONS[e.kind]) if e.kind in _SECTIONS else ""),
        )
        for e in entries
    ]


def violation_rows(f: CaseFacts, today: date) -> list[Line]:
    out = []
    for v in f.violations:
        late = v.state is ViolationState.OPEN and deadlines.past_due(v.correct_by, today)
        state = v.state.value
        if v.closed_on is not None:
            state += f" {format_date(v.closed_on)}"
        elif late:
            state = "open, past due"
        out.append(
            Line(
                v,
                (v.section, v.title, v.location or EMPTY, format_date(v.correct_by), state),
                warn=late,
            )
        )
    return out


_DECIDED = {
    Decision.SUSTAIN: "sustained",
    Decision.MODIFY: "modified",
    Decision.WITHDRAW: "withdrawn",
}


def _served_words(n: NoticeFact, a: AddresseeFact) -> str:
    """'03/02/2026 registered mail (returned unclaimed 03/09/2026: serve again)'; the earliest
    service governs (140-3A(4))."""
    if a.served_on is None:
        through_agent = n.served_on(a.id)
        if through_agent is not None:
            return f"{format_date(through_agent)} through the agent"
        return "not yet served"
    s = next(x for x in a.services if x.served_on == a.served_on)
    words = f"{format_date(a.served_on)} {s.method.value}"
    if all(x.returned_on is not None for x in a.services):
        last = a.services[-1]
        how = last.returned_how or "unclaimed"
        words += f" (returned {how} {format_date(last.returned_on)}: serve again)"
    return words


def notice_columns(f: CaseFacts) -> tuple[str, ...]:
    """The Notices tab's columns: the last is the window to request review (Wis. Stat. 68.08)
    for a case under ch. 68, the petition window (140-3B) for the others."""
    if f.procedure.review:
        return (*NOTICE_COLUMNS[:-1], "Review window")
    return NOTICE_COLUMNS


def notice_rows(f: CaseFacts, today: date) -> list[Line]:
    out = []
    for n in f.notices:
        kind = "Emergency order" if n.kind is NoticeKind.EMERGENCY else "Notice of violation"
        proc = f.procedure
        if n.decision is not None and proc.review:  # Wis. Stat. 68.09(4)
            kind += f" ({proc.decided(n.decision)} on review)"
            if n.final_decision is not None:  # 68.12
                kind += f"; {proc.decided(n.final_decision)} on appeal"
        elif n.decision is not None:
            kind += f" ({_DECIDED[n.decision]} by the Council)"
        for i, a in enumerate(n.addressees):
            window = EMPTY
            served = n.served_on(a.id)
            if served is not None and n.kind is NoticeKind.NOTICE:
                last = deadlines.petition_window(served, f.calendar, proc.request.days)
                state = "open" if today <= last.day else "closed"
                window = f"{state}, through {format_date(last.day)}"
                if last.extended:
                    window += f" (extended: {last.reason})"
            filed = [p for p in n.petitions if p.addressee_id == a.id]
            if filed:
                window = f"{proc.filing_short} filed {format_date(filed[-1].filed_on)}" + (
                    "" if filed[-1].timely else " (late)"
                )
            out.append(
                Line(
                    a,
                    (
                        kind if i == 0 else "",
                        format_date(n.issued_on) if i == 0 else "",
                        f"{a.name} ({a.role.value})",
                        _served_words(n, a),
                        window,
                    ),
                    warn=n.served_on(a.id) is None,
                )
            )
    return out


STEP_LABELS = (
    ("schedule", "S&chedule inspection…"),  # on the inspector's day (Day page, route sheet)
    ("inspection", "&Inspection…"),
    ("notice", "Issue &notice…"),
    ("service", "&Service…"),
    ("petition", "&Petition…"),
    ("hearing", "&Hearing…"),
    ("decision", "Council &decision…"),
    ("escalation", "En&force order…"),
    ("close", "C&lose case…"),
    ("returned", "Mail ret&urned…"),
    ("correct", "Correct a &mistake…"),
)
SECOND_ROW = ("returned", "correct")  # the case window's row of corrections and papers
# Wis. Stat. ch. 68 (a code with no procedure of its own, Ch. 512): the petition's step is the
# request for review (68.08), and the Council's hearing and decision give way to the decision on
# review (68.09), the appeal (68.10), its hearing (68.11) and the final determination (68.12).
# Their Alt keys are those of the steps not shown for such a case (Petition P, Council's
# Hearing H and Decision D), plus Q and A, used by no other button or tab of the window.
REQUEST_LABEL = "Re&quest for review…"
REVIEW_STEP_LABELS = (
    ("review", "&Decision on review…"),
    ("appeal", "A&ppeal…"),
    ("appeal_hearing", "Appeal &hearing…"),
    ("final", "Fin&al determination…"),
)
COUNCIL_STEPS = ("hearing", "decision")  # hidden for a case reviewed under ch. 68
REVIEW_ROW = tuple(key for key, _ in REVIEW_STEP_LABELS)  # the case window's row of them
# Every button of the case window, in the order of its rows.
WINDOW_STEP_LABELS = (
    *STEP_LABELS[: [k for k, _ in STEP_LABELS].index("decision") + 1],
    *REVIEW_STEP_LABELS,
    *STEP_LABELS[[k for k, _ in STEP_LABELS].index("decision") + 1 :],
)


def _role(
    actor: Actor, permission: Permission, who: str, code: str = rules.DEFAULT_HOUSING_CODE
) -> tuple[bool, str] | None:
    if allowed(actor, permission):
        return None
    words = permission.value  # 'record petitions for a hearing (Hudson 140-3B)'
    c = code_citations(code)
    if not c.numbers_its_procedure:  # the step as the case's code cites it: (Ch. 512)
        words = re.sub(r"\(Hudson [^)]*\)$", f"({c.procedure})", words)
    return False, f"{who} ({words})."


def noticeable(f: CaseFacts) -> list[ViolationFact]:
    """Open violations on no live notice (a notice withdrawn frees its violations, 140-3C)."""
    on = {vid for n in f.notices if n.decision is not Decision.WITHDRAW for vid in n.violation_ids}
    return [v for v in open_violations(f) if v.id not in on]


def unserved(f: CaseFacts) -> list[tuple[NoticeFact, AddresseeFact]]:
    return [
        (n, a)
        for n in f.notices
        if n.decision is not Decision.WITHDRAW
        for a in n.addressees
        # never served, or every letter came back (140-3A(4): serve again)
        if all(s.returned_on is not None for s in a.services)
    ]


def petitionable(f: CaseFacts) -> list[tuple[NoticeFact, AddresseeFact]]:
    return [(n, a) for n in f.notices if n.decision is None for a in n.addressees]


def awaiting_hearing(f: CaseFacts) -> NoticeFact | None:
    return next(
        (
            n
            for n in reversed(f.notices)
            if n.decision is None and any(p.timely for p in n.petitions)
        ),
        None,
    )


def awaiting_decision(f: CaseFacts) -> NoticeFact | None:
    return next(
        (n for n in reversed(f.notices) if n.decision is None and n.hearing_on is not None), None
    )


def overdue_order(f: CaseFacts, today: date) -> OrderFact | None:
    for n in reversed(f.notices):
        o = order_in_force(n)
        if o is not None and past_due_violations(f, n, today):
            return o
    return None


def returnable(f: CaseFacts) -> list[tuple[NoticeFact, AddresseeFact, ServiceFact]]:
    """Registered mail recorded as service and not recorded returned (140-3A(4))."""
    return [
        (n, a, s)
        for n in f.notices
        if n.decision is not Decision.WITHDRAW
        for a in n.addressees
        for s in a.services
        if s.method is ServiceMethod.REGISTERED_MAIL and s.returned_on is None
    ]


@dataclass(frozen=True)
class Correction:
    """A service or petition that may be withdrawn as entered by mistake
    (desk/services/enforcement/corrections.py)."""

    kind: str  # "service" or "petition"
    row_id: int
    words: str


def corrections(f: CaseFacts) -> list[Correction]:
    """What nothing rests on yet: a service, while the notice is no order (bar the emergency
    order itself, 140-3H) and its addressee has no petition; a petition, until its hearing is
    scheduled (140-3B). The service checks again."""
    out = []
    for n in f.notices:
        if n.decision is not None:
            continue
        made = any(o.kind is not OrderKind.EMERGENCY for o in n.orders_made)
        petitioned = {p.addressee_id for p in n.petitions}
        for a in n.addressees:
            if made or a.id in petitioned:
                continue
            for s in a.services:
                out.append(
                    Correction(
                        "service",
                        s.id,
                        f"Service on {a.name} ({a.role.value}), {format_date(s.served_on)} "
                        f"{s.method.value}",
                    )
                )
        if n.hearing_on is None:
            for p in n.petitions:
                out.append(
                    Correction(
                        "petition",
                        p.id,
                        f"Petition by {p.petitioner}, filed {format_date(p.filed_on)}",
                    )
                )
    return out


def hearing_to_notify(f: CaseFacts) -> NoticeFact | None:
    """The notice whose hearing is scheduled, not yet decided: its written notice (140-3B)."""
    return awaiting_decision(f)


def hearing_of_record(f: CaseFacts) -> NoticeFact | None:
    """The latest notice heard and decided: its record of hearing (140-3F)."""
    return next(
        (n for n in reversed(f.notices) if n.decision is not None and n.hearing_on is not None),
        None,
    )


def case_steps(f: CaseFacts, today: date, actor: Actor) -> list[Step]:
    """Each step of the case window, with whether this user may take it now and why not. The
    services check again; this only spares a refusal."""
    closed = f.closed_on is not None
    inspector = "The inspector"
    step = code_citations(f.housing_code).step  # Hudson 140-3, or the code's procedure

    def gate(permission: Permission, who: str, ready: tuple[bool, str]) -> tuple[bool, str]:
        if closed:
            return False, f"Case {f.number} is closed."
        return _role(actor, permission, who, f.housing_code) or ready

    def when(ok: bool, why: str) -> tuple[bool, str]:
        return (True, "") if ok else (False, why)

    steps = {
        "schedule": gate(Permission.EDIT_PERMIT, "The clerk or the inspector", (True, "")),
        "inspection": gate(Permission.INSPECT_HOUSING, inspector, (True, "")),
        "notice": gate(
            Permission.ISSUE_HOUSING_NOTICE,
            inspector,
            when(
                bool(noticeable(f)),
                f"No open violation is waiting for a notice ({step('140-3A')}).",
            ),
        ),
        "service": gate(
            Permission.RECORD_SERVICE,
            "The clerk or the inspector",
            when(
                bool(unserved(f)),
                f"Every addressee of the notices is served ({step('140-3A(4)')}).",
            ),
        ),
        "petition": gate(
            Permission.RECORD_PETITION,
            "The clerk",
            when(bool(petitionable(f)), f"No notice is open to a petition ({step('140-3B')})."),
        ),
        "hearing": gate(
            Permission.SCHEDULE_HEARING,
            inspector,
            when(
                awaiting_hearing(f) is not None,
                f"No timely petition awaits a hearing ({step('140-3B')}).",
            ),
        ),
        "decision": gate(
            Permission.RECORD_COUNCIL_DECISION,
            inspector,
            when(
                awaiting_decision(f) is not None, f"No hearing is scheduled ({step('140-3B, C')})."
            ),
        ),
        "escalation": gate(
            Permission.RECORD_ESCALATION,
            inspector,
            when(
                overdue_order(f, today) is not None,
                "No order in force is past its correction date.",
            ),
        ),
        "close": gate(Permission.CLOSE_CASE, inspector, (True, "")),
        "returned": gate(
            Permission.RECORD_SERVICE,
            "The clerk or the inspector",
            when(
                bool(returnable(f)),
                f"No registered mail is out awaiting return ({step('140-3A(4)')}).",
            ),
        ),
        "correct": gate(
            Permission.ISSUE_HOUSING_NOTICE,
            inspector,
            when(bool(corrections(f)), "No service or petition may be withdrawn now."),
        ),
    }
    if not f.procedure.review:
        return [Step(key, label, steps[key]) for key, label in STEP_LABELS]
    # Wis. Stat. ch. 68: the Council neither hears nor decides (its steps are not shown).
    council = (
        False,
        f"{code_citations(f.housing_code).chapter} cases are reviewed under {f.procedure.name}.",
    )
    if not closed:
        steps.update({k: council for k in COUNCIL_STEPS})
    steps["petition"] = gate(
        Permission.RECORD_PETITION,
        "The clerk",
        when(
            bool(petitionable(f)),
            f"No notice is open to a request for review ({f.procedure.request.section}).",
        ),
    )
    steps.update(review_steps(f, today, actor))
    labels = dict(WINDOW_STEP_LABELS) | {"petition": REQUEST_LABEL}
    return [Step(key, labels[key], steps[key]) for key, _ in WINDOW_STEP_LABELS]


def step_shown(f: CaseFacts, key: str) -> bool:
    """Whether the case window shows the step's button: the ch. 68 steps for a case reviewed
    under Wis. Stat. ch. 68, the Council's hearing and decision for the others (Hudson 140-3)."""
    if f.procedure.review:
        return key not in COUNCIL_STEPS
    return key not in dict(REVIEW_STEP_LABELS)


# --- Wis. Stat. ch. 68: review and appeal ----------------------------------------------------


def awaiting_review(f: CaseFacts) -> NoticeFact | None:
    """The latest notice with a timely request for review and no decision on it (68.09)."""
    return awaiting_hearing(f)


def appealable(f: CaseFacts) -> NoticeFact | None:
    """The latest notice decided on review with no appeal pending or determined (68.10)."""
    for n in reversed(f.notices):
        if n.decision is None:
            continue
        if any(a.decision is not None or a.timely for a in n.appeals):
            return None
        return n
    return None


def pending_appeal(f: CaseFacts) -> tuple[NoticeFact, AppealFact] | None:
    """The timely appeal awaiting its final determination (68.11, 68.12)."""
    for n in reversed(f.notices):
        for a in n.appeals:
            if a.timely and a.decision is None:
                return n, a
    return None


def review_steps(f: CaseFacts, today: date, actor: Actor) -> dict[str, tuple[bool, str]]:
    """The ch. 68 steps' (may, why not): the decision on review, the appeal, its hearing and
    the final determination. The services check again."""
    proc = f.procedure
    section = {k: proc.period(k).section for k in ("review", "appeal", "hearing", "final")}

    def gate(permission: Permission, who: str, ready: tuple[bool, str]) -> tuple[bool, str]:
        if f.closed_on is not None:
            return False, f"Case {f.number} is closed."
        if not allowed(actor, permission):
            return False, who
        return ready

    def when(ok: bool, why: str) -> tuple[bool, str]:
        return (True, "") if ok else (False, why)

    pending = pending_appeal(f)
    heard = pending is not None and pending[1].hearing_on is not None
    final_ready = when(heard, f"No appeal has been heard ({section['final']}).")
    if pending is not None and pending[1].hearing_on is not None and pending[1].hearing_on > today:
        final_ready = (False, f"The appeal is heard on {format_date(pending[1].hearing_on)}.")
    return {
        "review": gate(
            Permission.RECORD_COUNCIL_DECISION,
            f"The inspector decides on review ({section['review']}).",
            when(
                awaiting_review(f) is not None,
                f"No timely request for review awaits a decision ({section['review']}).",
            ),
        ),
        "appeal": gate(
            Permission.RECORD_PETITION,
            f"The clerk records an appeal ({section['appeal']}).",
            when(
                appealable(f) is not None,
                f"No decision on review is open to an appeal ({section['appeal']}).",
            ),
        ),
        "appeal_hearing": gate(
            Permission.SCHEDULE_HEARING,
            f"The inspector schedules the hearing on an appeal ({section['hearing']}).",
            when(
                pending is not None, f"No timely appeal awaits its hearing ({section['hearing']})."
            ),
        ),
        "final": gate(
            Permission.RECORD_COUNCIL_DECISION,
            f"The inspector records the final determination ({section['final']}).",
            final_ready,
        ),
    }


def complainant_allowed(actor: Actor) -> bool:
    """Who complained is confidential: the inspector and the administrator only."""
    return allowed(actor, Permission.VIEW_COMPLAINANT)


def header_words(f: CaseFacts, today: date) -> tuple[str, str, str]:
    """(title, address line, stage line) of the case window."""
    s = case_stage(f, today)
    stage = s.words
    shown = s.next_on is not None and s.next_what not in ("", "past due", "hearing")
    if shown and not stage.endswith(format_date(s.next_on)):
        stage += f" · {s.next_what} {format_date(s.next_on)}"
    opened = f"opened {format_date(f.opened_on)}"
    return f"Case {f.number}", f"{f.address} · {opened}", stage


def timeline_table(
    entries: Sequence[TimelineEntry], code: str = rules.DEFAULT_HOUSING_CODE
) -> Rows:
    rows = timeline_rows(entries, code)
    return Rows(TIMELINE_COLUMNS, [Line(e, cells) for e, cells in zip(entries, rows, strict=True)])


def stage_tone(f: CaseFacts, today: date) -> str:
    """The stage chip's colour, by the permit status it looks like (style.qss): closed green,
    past due red, an order in force amber, before that blue."""
    s = case_stage(f, today)
    if f.closed_on is not None:
        return "completed"
    if s.warn:
        return "revoked"
    if s.words == "order in force":
        return "expired"
    return "applied"
