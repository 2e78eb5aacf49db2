"""The home screen ("Needs attention"): for the signed-in user's roles, each group of things
waiting, built from the registers' own queries and the services' own rules."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from sqlalchemy import Connection

from db.attention import clerk, counter, field, treasury
from db.database import Database
from db.surety_queries import deposit_lines
from desk.clock import Clock
from desk.domain import attention as a
from desk.domain.attention import Group, Item
from desk.domain.enums import Role
from desk.domain.reports import report_citations
from desk.services.attention import BackupDue, backup_due, check_applications
from desk.services.lifecycle import lapsing_within
from desk.services.sureties import expiry_watch
from ui.presenters.formatting import count_of, format_date
from ui.presenters.session import Session


class HomePresenter:
    def __init__(self, database: Database, session: Session, clock: Clock) -> None:
        self.database = database
        self.session = session
        self.clock = clock
        self.groups: list[Group] = []

    @property
    def keys(self) -> list[str]:
        return a.group_keys(self.session.actor.roles)

    def heading(self) -> str:
        total = sum(g.count for g in self.groups)
        return f"Needs attention — {count_of(total, 'item')} for {self.session.full_name}"

    def load(self) -> list[Group]:
        today = self.clock.today()
        mid = self.session.municipality_id
        keys = self.keys
        with self.database.read() as conn:
            items: dict[str, list[Item]] = {}
            if {"deposits_awaiting_receipt", "refundable"} & set(keys):
                lines = deposit_lines(conn, mid, today)  # once for both deposit lists
                items["deposits_awaiting_receipt"] = counter.deposits_awaiting_receipt(lines)
                items["refundable"] = treasury.deposits_refundable(lines, today)
            for key in keys:
                found = self._items(key, conn, mid, today)
                if found is not None:
                    items[key] = found
            pending = (
                counter.pending_applications(conn, mid)
                if {"ready_to_issue", "ready_for_inspector", "missing_checklist"} & set(keys)
                else []
            )
        items.update(self._applications(pending))
        items.update(self._from_services(keys, mid, today))
        self.groups = [
            Group(k, a.title(k), tuple(items.get(k, ())), _SECTIONS.get(k, "")) for k in keys
        ]
        return self.groups

    def _items(self, key: str, conn: Connection, mid: int, today: date) -> list[Item] | None:
        """The group's items read from the registers; None for a group built otherwise."""
        if key == "inspections_today":
            mine = Role.INSPECTOR in self.session.actor.roles
            return field.inspections_today(
                conn, mid, today, self.session.actor.user_id if mine else None
            )
        if key == "reports_due":
            trades = report_citations(self.session.municipality_key).trades
            return [
                Item(d.what, f"{d.words(today)} ({d.section})", section=a.REPORTS)
                for d in a.reports_due(today, trades)
            ]
        query = _QUERIES.get(key)
        return query(conn, mid, today) if query is not None else None

    def _applications(self, pending: list[tuple[int, str]]) -> dict[str, list[Item]]:
        if not pending:
            return {}
        what = dict(pending)
        checks = check_applications(self.database.uow(), self.clock, what)
        ready = [
            Item(
                what[c.permit_id],
                "Checklist complete, fees paid, sureties on file",
                permit_id=c.permit_id,
            )
            for c in checks
            if not c.shortfalls
        ]
        missing = [
            Item(what[c.permit_id], "; ".join(c.checklist), permit_id=c.permit_id)
            for c in checks
            if c.checklist
        ]
        return {"ready_to_issue": ready, "ready_for_inspector": ready, "missing_checklist": missing}

    def _from_services(self, keys: list[str], mid: int, today: date) -> dict[str, list[Item]]:
        out: dict[str, list[Item]] = {}
        if "lapsing" in keys:
            out["lapsing"] = [
                Item(
                    counter.permit_what(x.number, x.permit_id, x.address),
                    x.flag
                    or (
                        f"{x.deadline.label} by {format_date(x.deadline.due)} "
                        f"({x.deadline.section})"
                    ),
                    permit_id=x.permit_id,
                )
                for x in lapsing_within(self.database.uow(), self.clock, mid, 30)
            ]
        if "expiring" in keys:
            out["expiring"] = [
                Item(
                    f"{r.title} · {r.holder}",
                    f"{r.message}" + (f"; permits {', '.join(r.permits)}" if r.permits else ""),
                    section=a.BONDS,
                )
                for r in expiry_watch(self.database.uow(), self.clock, mid, 60)
            ]
        if "backup" in keys:
            out["backup"] = _backup_items(backup_due(self.database.uow(), self.clock, mid))
        return out


def _backup_items(due: BackupDue | None) -> list[Item]:
    """'Last backup 11/28/2026 — older than 2 days', or 'No backup yet'."""
    if due is None:
        return []
    how = "File → Back up now… makes one"
    last = due.last
    if last is None:
        return [Item("No backup yet", f"{how}; the folder is set on the Municipality screen")]
    days = f"{due.overdue_days} day" + ("" if due.overdue_days == 1 else "s")
    when = f"Last backup {format_date(last.day)}"
    if not last.checked:
        return [Item(f"{when} — it did not check out", f"{last.where}; {how}")]
    return [Item(f"{when} — older than {days}", f"{last.where}; {how}")]


_QUERIES: dict[str, Callable[[Connection, int, date], list[Item]]] = {
    "unpaid": lambda conn, mid, _today: counter.unpaid_balances(conn, mid),
    "act211": counter.act211_filings,
    "orders_past_due": field.orders_past_due,
    "stop_work": lambda conn, mid, _today: field.stop_work_in_force(conn, mid),
    "notices_unserved": field.notices_unserved,
    "enforcement_past_due": field.enforcement_past_due,
    "drawers_open": treasury.drawers_open,
    "drawers_not_closed": clerk.drawers_not_closed,
    "refunds_ordered": clerk.refunds_ordered_unpaid,
    "turnovers": lambda conn, mid, _today: treasury.turnovers_to_acknowledge(conn, mid),
    "returned_checks": lambda conn, mid, _today: treasury.returned_checks_open(conn, mid),
}
# Where each group's whole list lives in the window.
_SECTIONS = {
    "unpaid": a.CASHIER,
    "deposits_awaiting_receipt": a.DEPOSITS,
    "refundable": a.DEPOSITS,
    "drawers_open": a.TREASURER,
    "drawers_not_closed": a.TREASURER,
    "refunds_ordered": a.DEPOSITS,
    "turnovers": a.TREASURER,
    "returned_checks": a.TREASURER,
    "expiring": a.BONDS,
    "reports_due": a.REPORTS,
    "act211": a.REPORTS,
    "inspections_today": a.INSPECTIONS,
    "orders_past_due": a.INSPECTIONS,
    "lapsing": a.DEADLINES,
    "ready_to_issue": a.PERMITS,
    "ready_for_inspector": a.PERMITS,
    "missing_checklist": a.PERMITS,
    "stop_work": a.PERMITS,
    "notices_unserved": a.ENFORCEMENT,
    "enforcement_past_due": a.ENFORCEMENT,
}
