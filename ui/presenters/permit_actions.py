"""What the permit window's Actions menu offers, Qt-free: the lifecycle moves the permit's status
and the signed-in user's roles allow (desk.domain.lifecycle.TRANSITIONS,
desk.services.lifecycle.STATUS_PERMISSION, desk.domain.permissions), and the words of each
action's dialog. The services check everything again; a hidden action is not a permission."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from desk.domain.enums import PermitStatus
from desk.domain.lifecycle import ACTIVE, TRANSITIONS, Deadline
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.services.lifecycle import REVOCATION_REASONS, STATUS_PERMISSION
from ui.presenters.formatting import format_date

S = PermitStatus


class ActionKind(StrEnum):
    STATUS = "status"
    EXTEND = "extend"
    STOP_WORK = "stop_work"
    LIFT = "lift"
    REVOKE = "revoke"
    VOID = "void"
    COUNCIL_APPROVAL = "council_approval"  # §435-8.I, a street opening
    STREET_REPAVING = "street_repaving"  # §435-8.I, the street register


@dataclass(frozen=True)
class StatusWords:
    menu: str  # with its mnemonic
    title: str  # the dialog's heading
    date_label: str  # the date field's label
    button: str  # the dialog's OK button


# Each status change in words; the menu mnemonics do not repeat among
# the actions that can appear together.
STATUS_WORDS: dict[PermitStatus, StatusWords] = {
    S.IN_REVIEW: StatusWords("Start &review…", "Start the review", "Review started on", "Start"),
    S.APPLIED: StatusWords(
        "Back to a&pplied…", "Return the application to applied", "Returned on", "Return"
    ),
    S.APPROVED: StatusWords("&Approve…", "Approve the application", "Approved on", "Approve"),
    S.DENIED: StatusWords("&Deny…", "Deny the application", "Denied on", "Deny"),
    S.WITHDRAWN: StatusWords(
        "&Withdrawn by the applicant…", "Record the withdrawal", "Withdrawn on", "Record"
    ),
    S.WORK_STARTED: StatusWords(
        "Work s&tarted…", "Record that work has started", "Work started on", "Record"
    ),
    S.COMPLETED: StatusWords(
        "&Completed (finaled)…", "Record that all work is completed", "Completed on", "Record"
    ),
    S.EXPIRED: StatusWords("Mark e&xpired…", "Mark the permit expired", "Expired on", "Mark"),
}
# The order the menu lists them in: forward along the lifecycle first, endings last.
_STATUS_ORDER = (
    S.IN_REVIEW,
    S.APPROVED,
    S.APPLIED,
    S.WORK_STARTED,
    S.COMPLETED,
)
_ENDINGS = (S.WITHDRAWN, S.DENIED, S.EXPIRED)


@dataclass(frozen=True)
class PermitAction:
    kind: ActionKind
    label: str  # menu text, with its mnemonic
    status: PermitStatus | None = None  # for a status change

    @property
    def key(self) -> str:
        """'status:approved', 'extend', ... (tests and the window look actions up by key)."""
        return f"{self.kind.value}:{self.status.value}" if self.status else self.kind.value

    @property
    def words(self) -> StatusWords:
        assert self.status is not None
        return STATUS_WORDS[self.status]


def _status_action(target: PermitStatus) -> PermitAction:
    return PermitAction(ActionKind.STATUS, STATUS_WORDS[target].menu, target)


def available_actions(
    status: PermitStatus, actor: Actor, *, has_deadlines: bool, street_opening: bool = False
) -> list[list[PermitAction]]:
    """The actions for a permit in `status`, in groups (the menu puts a line between them).
    `street_opening`: New Lisbon's five years after repaving apply (§435-8.I)."""

    def may_become(target: PermitStatus) -> bool:
        permission = STATUS_PERMISSION.get(target)
        return (
            target in TRANSITIONS[status]
            and permission is not None
            and allowed(actor, permission)
            # 15.1.12: a stop-work order comes off only by the inspector's written notice, so
            # the way out of "on hold" is Lift, not a bare status change.
            and not (status is S.ON_HOLD and target in (S.WORK_STARTED, S.ISSUED))
        )

    inspector = allowed(actor, Permission.ISSUE_PERMIT)
    forward = [_status_action(t) for t in _STATUS_ORDER if may_become(t)]
    orders: list[PermitAction] = []
    if inspector and status in ACTIVE and has_deadlines:
        orders.append(PermitAction(ActionKind.EXTEND, "&Extend a deadline…"))
    if inspector and S.ON_HOLD in TRANSITIONS[status]:
        orders.append(PermitAction(ActionKind.STOP_WORK, "&Stop-work order…"))
    if inspector and status is S.ON_HOLD:
        orders.append(PermitAction(ActionKind.LIFT, "&Lift the stop-work order…"))
    endings = [_status_action(t) for t in _ENDINGS if may_become(t)]
    if inspector and S.REVOKED in TRANSITIONS[status]:
        endings.insert(0, PermitAction(ActionKind.REVOKE, "Re&voke…"))
    # Void is for a live permit issued in error (it keeps its number); an application is
    # withdrawn or denied, and a permit that ended (completed, expired, revoked) stays as it ended.
    if status in ACTIVE and allowed(actor, Permission.VOID_PERMIT):
        endings.append(PermitAction(ActionKind.VOID, "V&oid…"))
    # §435-8.I: the Council's approval before issue; the street's repaving on the register.
    street: list[PermitAction] = []
    if street_opening and status in (S.APPLIED, S.IN_REVIEW, S.APPROVED):
        if allowed(actor, Permission.RECORD_COUNCIL_APPROVAL):
            street.append(
                PermitAction(
                    ActionKind.COUNCIL_APPROVAL, "Record the &Council's approval of the opening…"
                )
            )
        if allowed(actor, Permission.RECORD_STREET_REPAVING):
            street.append(PermitAction(ActionKind.STREET_REPAVING, "Street re&paving…"))
    return [group for group in (forward, orders, street, endings) if group]


def no_action_text(status: PermitStatus) -> str:
    """The Actions button's tooltip when nothing applies."""
    if status is S.COMPLETED:  # what is still done on one is done from its tabs
        return (
            "A completed permit has no further steps. Its certificate of occupancy is issued "
            "on the Inspections tab; fees still due are taken on the Fees tab."
        )
    if not TRANSITIONS[status]:
        return f"A {status.label.lower()} permit has no further steps."
    return "Your role has no action on this permit."


# --- the dialogs' words -------------------------------------------------------------------------


@dataclass(frozen=True)
class DeadlineChoice:
    code: str
    text: str  # "All work completed — by 09/02/2027 (15.1.8(c))"
    due: date


def deadline_choices(deadlines: Sequence[Deadline]) -> list[DeadlineChoice]:
    return [
        DeadlineChoice(
            d.code,
            f"{d.label} — by {format_date(d.due)} ({d.section})"
            + (" — extended" if d.extended else ""),
            d.due,
        )
        for d in deadlines
    ]


def default_extension(due: date) -> date:
    """The new date the extend dialog suggests: 30 days on (a street opening's renewal step,
    §435-7; the inspector changes it for a longer extension)."""
    return due + timedelta(days=30)


@dataclass(frozen=True)
class DeadlineRow:
    """A deadline in the Summary tab."""

    label: str
    due: str
    section: str
    note: str  # "extended", "passed"


def deadline_rows(deadlines: Sequence[Deadline], today: date) -> list[DeadlineRow]:
    return [
        DeadlineRow(
            d.label,
            format_date(d.due),
            d.section,
            ", ".join(n for n, on in (("extended", d.extended), ("passed", d.passed(today))) if on),
        )
        for d in sorted(deadlines, key=lambda d: d.due)
    ]


def deadlines_note(status: PermitStatus, issued: bool, has_deadlines: bool) -> str:
    """What the Summary says instead of, or over, the deadlines."""
    if not issued:
        return "The deadlines start to run when the permit is issued."
    if status not in ACTIVE:
        return f"No deadline runs: the permit is {status.label.lower()}."
    if not has_deadlines:
        return "No deadline applies to this kind of permit."
    return ""


# The sections a stop-work order may be served under.
STOP_WORK_SECTIONS: tuple[tuple[str, str], ...] = (
    ("15.1.12", "15.1.12 — the Code or the approved plans are not complied with"),
    ("15.1.90(b)(2)", "15.1.90(b)(2) — a violation not corrected 30 days after written notice"),
    ("15.2.10(a)", "15.2.10(a) — erosion control: no permit, plan not followed, conditions unmet"),
)


def revocation_choices() -> list[tuple[str, str]]:
    """(code, words) for the reasons a–f of 15.1.7(g)(1), as the checkboxes show them."""
    return [(code, text[:1].upper() + text[1:]) for code, text in REVOCATION_REASONS.items()]


# What the window asks after an order is recorded, and the file names it suggests.
STOP_WORK_PRINT = (
    "The stop-work order is recorded and the permit is on hold.\n\n"
    "Print the order and the placard for the site now?"
)
LIFT_PRINT = "The stop-work order is lifted.\n\nPrint the order with the notice that lifts it now?"
REVOKE_PRINT = "The permit is revoked.\n\nPrint the notice of revocation and the placard now?"


def order_file_name(kind: str, number: str | None, permit_id: int, lifted: bool = False) -> str:
    who = number or f"application-{permit_id}"
    if kind == "revocation":
        return f"revocation-notice-{who}.pdf"
    return f"stop-work-order-{who}{'-lifted' if lifted else ''}.pdf"
