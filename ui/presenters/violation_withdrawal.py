"""The case window's "Withdraw violation…" without Qt: whether the violation selected on the
Violations tab may be withdrawn as recorded by mistake, and why not. The service
(desk/services/enforcement/corrections.py withdraw_violation) checks again; this only spares
a refusal."""

from __future__ import annotations

from db.enforcement_case_view import CaseFacts, NoticeFact, ViolationFact
from desk.domain.model import Actor
from desk.domain.permissions import allowed
from desk.domain.reports import code_citations
from desk.enforcement.model import Decision, NoticeKind, ViolationState
from desk.services.enforcement.corrections import VIOLATION_PERMISSION
from ui.presenters.formatting import format_date

LABEL = "&Withdraw violation…"  # Alt+W: no other button or tab of the case window uses W
KEY = "Alt+W"


def live_notice_of(f: CaseFacts, v: ViolationFact) -> NoticeFact | None:
    """The issued notice naming the violation, unless the Council withdrew it (140-3C)."""
    return next(
        (n for n in f.notices if n.decision is not Decision.WITHDRAW and v.id in n.violation_ids),
        None,
    )


def may_withdraw(f: CaseFacts, v: ViolationFact | None, actor: Actor) -> tuple[bool, str]:
    """(may, why not) for the violation selected (None: none is)."""
    step = code_citations(f.housing_code).step
    if f.closed_on is not None:
        return False, f"Case {f.number} is closed."
    if not allowed(actor, VIOLATION_PERMISSION):
        return False, f"The inspector withdraws a violation ({VIOLATION_PERMISSION.value})."
    if v is None:
        return False, "Select the violation recorded by mistake on the Violations tab."
    if v.state is ViolationState.CORRECTED:
        return False, f"{v.section} was found corrected on {format_date(v.closed_on)}."
    if v.state is ViolationState.WITHDRAWN:
        return False, f"{v.section} was withdrawn on {format_date(v.closed_on)}."
    n = live_notice_of(f, v)
    if n is not None:
        if n.kind is NoticeKind.EMERGENCY:
            return False, (
                f"{v.section} is on the emergency order of {format_date(n.issued_on)}: the "
                f"Common Council continues, modifies or revokes it ({step('140-3H')})."
            )
        return False, (
            f"{v.section} is on the notice of violation of {format_date(n.issued_on)}: the "
            f"Common Council sustains, modifies or withdraws it ({step('140-3C')})."
        )
    return True, ""


def violation_words(v: ViolationFact) -> str:
    """'140-4A Kitchen sink and laundry tray (Unit 1, kitchen), correct by 04/01/2026'."""
    where = f" ({v.location})" if v.location else ""
    return f"{v.section} {v.title}{where}, correct by {format_date(v.correct_by)}"


__all__ = ["KEY", "LABEL", "live_notice_of", "may_withdraw", "violation_words"]
