"""Rules of code enforcement (Hudson 140-3): the checks a service makes after it has locked the
case, and the stage a notice is at. Each cites its section."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import Any

from desk.dates import short_date
from desk.domain.numbering import CASE_SERIES
from desk.enforcement import deadlines
from desk.enforcement.computing_time import STATUTE, OfficeCalendar
from desk.enforcement.model import AddresseeRole, Decision, NoticeKind
from desk.errors import RuleViolation, ValidationError

DEFAULT_HOUSING_CODE = "hudson-140"
HOUSING_CODE_SETTING = "housing_code"  # municipality.settings: the code the office enforces
NO_HOUSING_CODE = "none"  # the setting of a municipality that enforces none in Permit Desk


def case_number(year: int, seq: int) -> str:
    """'CE-2026-0007', gapless per municipality and year (db/numbering.py)."""
    if seq < 1:
        raise ValueError("sequence numbers start at 1")
    return f"{CASE_SERIES}-{year}-{seq:04d}"


def housing_code_key(settings: Mapping[str, Any] | None) -> str:
    """The housing code the municipality enforces; Hudson ch. 140 unless set; "" when it was
    set up to enforce none."""
    value = (settings or {}).get(HOUSING_CODE_SETTING)
    if value == NO_HOUSING_CODE:
        return ""
    return str(value) if value else DEFAULT_HOUSING_CODE


def text(field: str, value: str, *, required: bool = True) -> str:
    cleaned = " ".join(value.split())
    if required and not cleaned:
        raise ValidationError(field, "is required")
    return cleaned


def check_not_future(field: str, day: date, today: date) -> None:
    if day > today:
        raise ValidationError(field, f"{short_date(day)} is in the future")


def check_open(closed_on: date | None, number: str) -> None:
    if closed_on is not None:
        raise RuleViolation(f"Case {number} was closed on {short_date(closed_on)}")


def check_finding(correct_by: date, inspected_on: date, corrected: bool, section: str) -> None:
    """A violation can be found not corrected only on or after its correction date (140-3A(3):
    the notice allows a reasonable time); found corrected, any day."""
    if not corrected and inspected_on < correct_by:
        raise RuleViolation(
            f"{section} is to be corrected by {short_date(correct_by)}: it cannot be found "
            f"not corrected on {short_date(inspected_on)}, before that date (140-3A(3))"
        )


def check_cost(cost: Decimal | None) -> Decimal:
    if cost is None or cost <= 0:
        raise ValidationError("cost", "the cost of the abatement must be more than zero")
    if cost != cost.quantize(Decimal("0.01")):
        raise ValidationError("cost", "give the cost in dollars and cents")
    return cost


class Stage(StrEnum):
    """Where a notice stands (140-3)."""

    NOT_SERVED = "not yet served"  # an addressee has no service in effect
    WINDOW_OPEN = "petition window open"  # 140-3B
    HEARING = "petition filed, awaiting the Council"  # 140-3B
    DUE_FOR_ORDER = "window closed, no petition"  # 140-3D: the sweep makes it an order
    ORDER = "order"
    WITHDRAWN = "withdrawn"  # 140-3C

    @property
    def label(self) -> str:
        return self.value


@dataclass(frozen=True)
class NoticeFacts:
    kind: NoticeKind
    served: Sequence[date | None]  # each addressee's service in effect (None: none)
    timely_petitions: int
    decision: Decision | None
    has_order: bool  # an order in effect or spent, not one set aside
    calendar: OfficeCalendar = STATUTE
    # The case's procedure's period to file (140-3B: 10 days; Wis. Stat. 68.08: 30 days).
    request_days: int = deadlines.PETITION_DAYS
    # Wis. Stat. 68.12: the final determination on an appeal (withdraw: reversed).
    final_decision: Decision | None = None


def stage(n: NoticeFacts, today: date) -> Stage:
    if Decision.WITHDRAW in (n.decision, n.final_decision):
        return Stage.WITHDRAWN
    if n.has_order and (n.kind is not NoticeKind.EMERGENCY or n.decision is not None):
        return Stage.ORDER
    if n.timely_petitions and n.decision is None:
        return Stage.HEARING
    if n.kind is NoticeKind.EMERGENCY:
        return Stage.ORDER  # 140-3H: effective immediately
    if not n.served or any(s is None for s in n.served):
        return Stage.NOT_SERVED
    days = [s for s in n.served if s is not None]
    if any(deadlines.window_open(s, today, n.calendar, n.request_days) for s in days):
        return Stage.WINDOW_OPEN
    return Stage.DUE_FOR_ORDER


def due_for_order(n: NoticeFacts, today: date) -> date | None:
    """140-3D: the day a notice becomes an order without a hearing, once every addressee was
    served and every window closed with no timely petition; None while it may not (yet)."""
    if n.kind is not NoticeKind.NOTICE or n.has_order or n.timely_petitions or n.decision:
        return None
    if stage(n, today) is not Stage.DUE_FOR_ORDER:
        return None
    served = (s for s in n.served if s is not None)
    return deadlines.automatic_order_day(served, n.calendar, n.request_days)


def effective_service(services: Iterable[date]) -> date | None:
    """The service that governs, of the days an addressee was served (withdrawn ones left
    out): the earliest. Registered mail is service the day it is sent to the last known
    address (140-3A(4): "deemed to be properly served"); a letter returned unclaimed or
    refused is recorded and may prompt serving again, but does not undo it."""
    return min(services, default=None)


def served_with_agent(
    addressees: Sequence[tuple[AddresseeRole, date | None]],
) -> list[date | None]:
    """Each addressee's service, an owner served through the owner's agent (140-3A(4) serves
    "the owner or his agent"; 140-1 "owner"): an owner not served in person is served the day
    the agent of the same notice was."""
    agent = min((s for r, s in addressees if r is AddresseeRole.AGENT and s), default=None)
    out: list[date | None] = []
    for role, served in addressees:
        if role is AddresseeRole.OWNER and agent is not None:
            served = min(served, agent) if served else agent
        out.append(served)
    return out


def check_decision(
    decision: Decision,
    new_dates: Mapping[int, date],
    violation_ids: Iterable[int],
    decided_on: date,
) -> None:
    """140-3C: a modification names its new correction dates, for violations of the notice."""
    ids = set(violation_ids)
    unknown = set(new_dates) - ids
    if unknown:
        raise ValidationError(
            "correction dates", f"violation(s) {sorted(unknown)} are not in this notice"
        )
    if decision is Decision.MODIFY and not new_dates:
        raise ValidationError("correction dates", "a modified notice gives new correction dates")
    if decision is not Decision.MODIFY and new_dates:
        raise ValidationError("correction dates", "only a modification changes the dates")
    for d in new_dates.values():
        if d < decided_on:
            raise ValidationError(
                "correction dates", f"{short_date(d)} is before the decision's date"
            )
