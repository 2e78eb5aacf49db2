"""Needs attention: each role's home on the demo database, each list checked against the
register's own filter (the Cashier's owing list, the refund queue, the expiry watch, ...), Enter
opening the permit or the section, and the list following the data."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from db.attention.counter import NOT_OWED, pending_applications
from db.cash_queries import payable_permits, turnovers
from db.database import Database, open_database
from db.demo import DemoSpec, build_demo
from db.enforcement_queries import case_rows
from db.engine import sqlite_url
from db.inspection_queries import inspector_day, overdue_orders
from db.surety_queries import deposit_lines, queue_counts
from desk.clock import FixedClock
from desk.domain.attention import Group
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.enforcement.readmodels import CaseFilter
from desk.services import cashiering, users
from desk.services.issuance import issuance_shortfalls
from desk.services.lifecycle import lapsing_within
from desk.services.sureties import expiry_watch
from ui.app import application, make_session
from ui.main_window import PERMITS, MainWindow
from ui.views.home import SECTION_TITLE as HOME
from ui.views.treasurer import SECTION_TITLE as TREASURER

TODAY = date(2026, 12, 1)
CLOCK = FixedClock(TODAY)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    database = open_database(sqlite_url(path))
    build_demo(database, DemoSpec(years=1, per_year=300, seed=1, today=TODAY))
    try:
        yield database
    finally:
        database.close()


def _window(qtbot: QtBot, demo: Database, username: str) -> MainWindow:
    application()
    actor = users.actor_for_username(demo.uow(), username)
    window = MainWindow(demo, make_session(demo, actor), remember_geometry=False, clock=CLOCK)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.load()
    return window


def _groups(window: MainWindow) -> dict[str, Group]:
    return {g.key: g for g in window.home_view.groups}


def _permits(group: Group) -> set[int]:
    return {i.permit_id for i in group.items if i.permit_id is not None}


def _mid(window: MainWindow) -> int:
    return window.session.municipality_id


def test_the_clerk_sees_the_counter_s_lists_as_the_registers_have_them(
    qtbot: QtBot, demo: Database
) -> None:
    window = _window(qtbot, demo, "clerk")
    assert window.section_titles()[0] == HOME
    assert window.stack.currentWidget().widget() is window.home_view  # type: ignore[attr-defined]
    groups = _groups(window)
    assert list(groups) == [
        "ready_for_inspector",
        "missing_checklist",
        "unpaid",
        "deposits_awaiting_receipt",
        "drawers_not_closed",
        "refunds_ordered",
        "act211",
        "backup",  # the register's last backup (ui/backups.py)
    ]
    with demo.read() as conn:
        owing = payable_permits(conn, _mid(window), "", owing_only=True, limit=10_000)
        pending = [
            r.permit_id
            for r in owing
            if r.status not in NOT_OWED  # the Cashier lists withdrawn ones too; nobody chases them
        ]
        awaiting = [d for d in deposit_lines(conn, _mid(window), TODAY) if d.status is None]
    assert _permits(groups["unpaid"]) == set(pending)
    assert groups["unpaid"].count == len(pending) > 0
    first = next(r for r in owing if r.permit_id == groups["unpaid"].items[0].permit_id)
    assert groups["unpaid"].items[0].why.startswith(f"${first.due:,.2f} owed of")
    assert groups["deposits_awaiting_receipt"].count == len(awaiting)
    # Ready for the inspector: exactly the applications the Issue button would accept today.
    with demo.read() as conn:
        applications = [pid for pid, _ in pending_applications(conn, _mid(window))]
    ready = {pid for pid in applications if not issuance_shortfalls(demo.uow(), pid, TODAY)}
    assert _permits(groups["ready_for_inspector"]) == ready
    # A clerk is not offered a button she cannot press: the heading says who issues.
    assert (
        window.home_view.tree.topLevelItem(0).text(0) == f"Ready for the inspector ({len(ready)})"
    )


def test_the_inspector_sees_issuing_the_day_the_orders_and_the_deadlines(
    qtbot: QtBot, demo: Database
) -> None:
    window = _window(qtbot, demo, "inspector")
    groups = _groups(window)
    assert list(groups) == [
        "ready_to_issue",
        "inspections_today",
        "orders_past_due",
        "stop_work",
        "lapsing",
        "notices_unserved",
        "enforcement_past_due",
        "reports_due",
    ]
    mid = _mid(window)
    with demo.read() as conn:
        route = inspector_day(conn, window.session.actor.user_id, TODAY)
        late = overdue_orders(conn, mid, TODAY)
    assert [i.permit_id for i in groups["inspections_today"].items] == [s.permit_id for s in route]
    assert groups["orders_past_due"].count == len(late)
    lapsing = lapsing_within(demo.uow(), CLOCK, mid, 30)
    assert groups["lapsing"].count == len(lapsing) > 0
    # 12/01: November's electrical and plumbing monthly reports are due on 12/10 (15.1.74(b)).
    assert [i.what for i in groups["reports_due"].items] == [
        "Electrical inspector's monthly report to the City Clerk",
        "Plumbing inspector's monthly report to the City Administrator",
    ]
    assert "12/10/2026" in groups["reports_due"].items[0].why


def test_the_treasurer_sees_turnovers_refunds_and_expiring_cover(
    qtbot: QtBot, demo: Database
) -> None:
    window = _window(qtbot, demo, "treasurer")
    groups = _groups(window)
    assert list(groups) == [
        "drawers_open",
        "turnovers",
        "refundable",
        "returned_checks",
        "expiring",
    ]
    mid = _mid(window)
    with demo.read() as conn:
        waiting = [t for t in turnovers(conn, mid) if t.acknowledged_on is None]
        eligible = queue_counts(conn, mid, TODAY)["eligible"]
    assert groups["turnovers"].count == len(waiting)
    assert groups["refundable"].count == eligible
    assert groups["expiring"].count == len(expiry_watch(demo.uow(), CLOCK, mid, 60))


def test_the_administrator_sees_every_group_once(qtbot: QtBot, demo: Database) -> None:
    window = _window(qtbot, demo, "admin")
    keys = list(_groups(window))
    assert "ready_to_issue" in keys and "ready_for_inspector" not in keys
    assert {"unpaid", "inspections_today", "turnovers", "expiring"} <= set(keys)
    assert "drawers_open" in keys and "drawers_not_closed" not in keys  # the same drawers
    assert len(keys) == len(set(keys)) == 19


def test_enter_opens_the_permit_or_the_section_and_f2_comes_back(
    qtbot: QtBot, demo: Database
) -> None:
    window = _window(qtbot, demo, "admin")
    window.focus_search()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_F2)
    assert window.section_titles()[window.stack.currentIndex()] == HOME
    tree = window.home_view.tree
    unpaid = next(
        tree.topLevelItem(n)
        for n in range(tree.topLevelItemCount())
        if tree.topLevelItem(n).text(0).startswith("Unpaid balances")
    )
    first = unpaid.child(0)
    tree.setCurrentItem(first)
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Return)
    item = first.data(0, Qt.ItemDataRole.UserRole)
    assert item.permit_id in window.permit_windows
    window.permit_windows[item.permit_id].close()
    turnover = next(
        tree.topLevelItem(n)
        for n in range(tree.topLevelItemCount())
        if tree.topLevelItem(n).text(0).startswith("Turnovers to acknowledge")
    )
    tree.setCurrentItem(turnover.child(0))
    chosen = turnover.child(0).data(0, Qt.ItemDataRole.UserRole)
    qtbot.keyClick(tree, Qt.Key.Key_Return)
    assert window.section_titles()[window.stack.currentIndex()] == TREASURER
    # The Turnovers page, with that turnover chosen to acknowledge (not the daily close).
    treasurer = window.treasurer_view
    assert treasurer is not None
    page = treasurer.pages["turnovers"]
    assert treasurer.tabs.currentWidget() is page
    assert chosen.place == f"turnover:{page.selected_turnover()}"
    # F2 is the window's own shortcut (it works while the menu bar is hidden too).
    assert window.home_action.shortcut().toString() == "F2"
    assert window.home_action in window.actions()
    window.home_action.trigger()
    assert window.section_titles()[window.stack.currentIndex()] == HOME
    window.focus_search()
    assert window.section_titles()[window.stack.currentIndex()] == PERMITS


def test_the_home_follows_a_payment_taken_elsewhere(qtbot: QtBot, demo: Database) -> None:
    window = _window(qtbot, demo, "clerk")
    unpaid = _groups(window)["unpaid"]
    paid = unpaid.items[-1]
    assert paid.permit_id is not None
    due = cashiering.permit_balance(demo.uow(), CLOCK, paid.permit_id).due
    clerk = users.actor_for_username(demo.uow(), "clerk")
    cashiering.take_payment(
        demo.uow(),
        CLOCK,
        clerk,
        cashiering.PaymentInput(
            municipality_id=_mid(window),
            tender=Tender(PaymentMethod.CASH, due),
            allocations=(Allocation(paid.permit_id, due),),
            payer_name="Paid at the counter",
        ),
    )
    window._changed_elsewhere([])  # what the live watcher calls within a second or two
    after = _groups(window)["unpaid"]
    assert after.count == unpaid.count - 1
    assert paid.permit_id not in _permits(after)
    assert due > Decimal("0")


def test_the_hudson_inspector_sees_the_notices_to_serve_and_the_housing_orders_past_due(
    qtbot: QtBot, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("hudson") / "demo.db"
    database = open_database(sqlite_url(path))
    try:
        build_demo(database, DemoSpec("hudson", years=1, per_year=300, seed=1, today=TODAY))
        window = _window(qtbot, database, "inspector")
        groups = _groups(window)
        with database.read() as conn:
            mid = _mid(window)
            unserved = case_rows(conn, mid, TODAY, CaseFilter.NOT_SERVED)
            late = case_rows(conn, mid, TODAY, CaseFilter.ORDER_PAST_DUE)
        # The Code enforcement list's own filters, case for case.
        assert [i.what for i in groups["notices_unserved"].items] == [
            f"{r.number} · {r.address}" for r in unserved
        ]
        assert [i.what for i in groups["enforcement_past_due"].items] == [
            f"{r.number} · {r.address}" for r in late
        ]
        assert groups["notices_unserved"].count > 0 and groups["enforcement_past_due"].count > 0
        assert "140-3A(4)" in groups["notices_unserved"].items[0].why
        assert groups["enforcement_past_due"].section == "Code enforcement"
        window.close()
    finally:
        database.close()
