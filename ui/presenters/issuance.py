"""The issue dialog, Qt-free: the unmet conditions on the chosen day, the Issue button's text and
whether it may be pressed, and what the dialog says once the permit has its number.
The conditions come from desk.services.issuance; the dialog only shows them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from desk.domain.enums import NUMBERED_STATUSES, PermitStatus
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from ui.presenters.formatting import format_date

ISSUE_TEXT = "&Issue permit"
UNMET = "✗"
MET = "✓"


def may_issue(actor: Actor, status: PermitStatus) -> bool:
    """Whether the permit window offers "Issue permit…": the inspector's (15.1.6) and only for an
    application that has no number yet and was not withdrawn or denied (issue_permit's rules)."""
    return (
        allowed(actor, Permission.ISSUE_PERMIT)
        and status not in NUMBERED_STATUSES
        and status not in (PermitStatus.WITHDRAWN, PermitStatus.DENIED)
    )


def term_text(on: date, label: str, due: date, section: str) -> str:
    """What the dialog says of the term a permit issued on `on` would have."""
    return f"If issued on {format_date(on)}: {label} until {format_date(due)} ({section})."


def conditions_not_met(n: int) -> str:
    return "1 condition is not met" if n == 1 else f"{n:,} conditions are not met"


class IssuancePresenter:
    def __init__(self, title: str) -> None:
        self.title = title  # "Application #12"
        self.on: date | None = None
        self.shortfalls: tuple[str, ...] = ()
        self.checked = False
        self.number: str | None = None  # once issued

    def set_shortfalls(self, on: date, shortfalls: Sequence[str]) -> None:
        self.on = on
        self.shortfalls = tuple(shortfalls)
        self.checked = True

    def issued(self, number: str) -> None:
        self.number = number
        self.shortfalls = ()

    @property
    def can_issue(self) -> bool:
        return self.checked and self.number is None and not self.shortfalls

    @property
    def issue_text(self) -> str:
        """The Issue button: "Issue permit", or why it cannot be pressed."""
        if self.shortfalls:
            return conditions_not_met(len(self.shortfalls))
        return ISSUE_TEXT

    @property
    def lines(self) -> tuple[str, ...]:
        """One line per unmet condition, marked, in the service's words (with the section)."""
        return tuple(f"{UNMET}  {s}" for s in self.shortfalls)

    @property
    def summary(self) -> str:
        if self.number is not None:
            return self.result_text
        day = format_date(self.on) if self.on else ""
        if not self.checked:
            return "Checking the conditions…"
        if self.shortfalls:
            return f"On {day}, {conditions_not_met(len(self.shortfalls)).lower()}:"
        return f"{MET}  Every condition for issuance is met on {day}."

    @property
    def result_text(self) -> str:
        return f"Issued as permit {self.number}" if self.number else ""

    @property
    def issued_ok(self) -> bool:
        return self.number is not None
