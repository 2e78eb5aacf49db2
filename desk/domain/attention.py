"""What waits for whom: the groups of the home screen ("Needs attention"), which roles see each,
and the reports the calendar makes due. The lists themselves come from the registers' own
queries and rules (db/attention, desk/services/attention)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from desk.domain.enums import Role
from desk.domain.reports import DueDate, electrical_annual_due, monthly_report_due, previous_month

# The window's sections an item without a permit opens (their titles in the sidebar).
TREASURER = "Treasurer"
BONDS = "Bonds & Insurance"
REPORTS = "Reports"
DEPOSITS = "Deposits"
CASHIER = "Cashier"
INSPECTIONS = "Inspections"
DEADLINES = "Deadlines"
PERMITS = "Permits"
ENFORCEMENT = "Code enforcement"
# Places inside a section an item opens: the Treasurer's daily close of a drawer and day
# ("close:<drawer>:<yyyy-mm-dd>"), the Deposits' queue of refunds ordered, awaiting the check.
CLOSE_PLACE = "close"
ORDERED_PLACE = "ordered"
TURNOVER_PLACE = "turnover"  # "turnover:<id>": the Treasurer's Turnovers page, that turnover chosen


@dataclass(frozen=True)
class Item:
    """One thing waiting: what it is, why it waits (in words, with its section), and where
    Enter takes the user: the permit, or else a section of the window."""

    what: str  # "2026-0412 · 6120 N Port Washington Rd"
    why: str
    permit_id: int | None = None
    section: str = ""
    place: str = ""  # where in the section (CLOSE_PLACE, ORDERED_PLACE); "" its first page


@dataclass(frozen=True)
class Group:
    key: str
    title: str
    items: tuple[Item, ...]
    # Where the whole list lives (Enter on the group heading goes there).
    section: str = ""

    @property
    def count(self) -> int:
        return len(self.items)


C, INS, T, E, A = Role.CLERK, Role.INSPECTOR, Role.TREASURER, Role.ENGINEER, Role.ADMINISTRATOR

# The groups in the order the home shows them, and who sees each (an administrator sees all).
# "Ready for the inspector" and "Ready to issue" are one list: who can issue sees the second.
TITLES: dict[str, tuple[str, frozenset[Role]]] = {
    "ready_to_issue": ("Ready to issue", frozenset({INS})),
    "ready_for_inspector": ("Ready for the inspector", frozenset({C})),
    "missing_checklist": ("Applications missing checklist items", frozenset({C})),
    "unpaid": ("Unpaid balances", frozenset({C})),
    "deposits_awaiting_receipt": ("Street deposits waiting for a receipt", frozenset({C})),
    # A past day's drawer left open, and a refund the engineer ordered that no check has paid
    # (15.1.43: returned on his order by the City Clerk).
    "drawers_not_closed": ("Drawers not closed on past days", frozenset({C})),
    "refunds_ordered": ("Deposit refunds ordered, not yet paid", frozenset({C})),
    "act211": ("Act 211 filings with the state", frozenset({C})),
    "inspections_today": ("Today's inspections", frozenset({INS})),
    "orders_past_due": ("Correction orders past due", frozenset({INS})),
    "stop_work": ("Stop-work orders in force", frozenset({INS})),
    "lapsing": ("Permits lapsing within 30 days", frozenset({INS})),
    "notices_unserved": ("Notices of violation not yet served", frozenset({INS})),
    "enforcement_past_due": ("Housing orders past their correction date", frozenset({INS})),
    "reports_due": ("Reports due", frozenset({INS})),
    "drawers_open": ("Drawers not closed", frozenset({T})),
    "turnovers": ("Turnovers to acknowledge", frozenset({T})),
    "refundable": ("Street deposits eligible for refund", frozenset({T, E})),
    "returned_checks": ("Returned checks not made good", frozenset({T})),
    "expiring": ("Bonds and insurance ending within 60 days", frozenset({T})),
    # The register's backup (File → Back up now…): who keeps the register sees it is old.
    "backup": ("Backup", frozenset({C})),
}


def group_keys(roles: Iterable[Role]) -> list[str]:
    """The groups a user with `roles` sees, in the home's order."""
    held = set(roles)
    if A in held:
        held = {C, INS, T, E}
    keys = [k for k, (_, who) in TITLES.items() if who & held]
    if "ready_to_issue" in keys and "ready_for_inspector" in keys:
        keys.remove("ready_for_inspector")  # the same permits; this user can issue them
    if "drawers_open" in keys and "drawers_not_closed" in keys:
        keys.remove("drawers_not_closed")  # the treasurer's list has the past days too
    return keys


def title(key: str) -> str:
    return TITLES[key][0]


def reports_due(today: date, trades: Iterable[str]) -> list[DueDate]:
    """The inspectors' reports the calendar makes due now: each trade's monthly report for the
    month before, from the 1st to its day (15.1.74(b): the 10th; 15.1.34(b)(8)), and the
    electrical annual report in January and February (15.1.74(b): before March 1st)."""
    year, month = previous_month(today)
    trades = tuple(trades)
    out = []
    for trade in trades:
        due = monthly_report_due(year, month, trade)
        if today <= due.due:
            out.append(due)
    if "electrical" in trades and today.month <= 2:
        out.append(electrical_annual_due(today.year - 1))
    return out
