"""Roles as offices have them (SQLite and PostgreSQL): the treasurer's own drawer goes straight
into her custody when she closes it (15.1.34(b)(4)), an office with no engineer names the role
that orders street deposit refunds (15.1.43), a greyed button says why, and the clerk's Needs
attention lists the drawers left open and the refunds ordered but not paid."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QDialog, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.model import Actor, Party
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering, fees, permits
from desk.services import sureties as sure
from desk.services.municipality import update_municipality
from tests.factories import Register, application, seed_register
from ui import dialogs
from ui.app import application as qt_application
from ui.app import make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.views.deposits import SECTION_TITLE as DEPOSITS
from ui.views.deposits import DepositsView, RefundDialog
from ui.views.home import SECTION_TITLE as HOME
from ui.views.treasurer import SECTION_TITLE as TREASURER
from ui.views.treasurer import TreasurerView

D = Decimal
PAID_ON = date(2026, 3, 2)
DONE = date(2026, 4, 15)
ORDERED_ON = date(2026, 10, 12)  # day 180 after DONE


def _pay(database: Database, clock: FixedClock, actor: Actor, reg: Register, permit_id: int,
         amount: str, method: PaymentMethod, check: str = "") -> None:  # fmt: skip
    extra = (
        {"check_number": check, "check_drawer": "Anna Schmidt", "check_bank": "Tri City"}
        if check
        else {}
    )
    cashiering.take_payment(
        database.uow(),
        clock,
        actor,
        cashiering.PaymentInput(
            municipality_id=reg.municipality_id,
            tender=Tender(method, D(amount), **extra),
            allocations=(Allocation(permit_id, D(amount)),),
            payer_name="Anna Schmidt",
        ),
    )


def _treasurer_view(
    qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor
) -> TreasurerView:
    qt_application()
    view = TreasurerView(database, make_session(database, actor), clock)
    qtbot.addWidget(view)
    view.resize(1200, 760)
    view.show()
    view.load()
    return view


def test_the_treasurer_closes_her_drawer_and_nothing_waits_for_acknowledgment(
    qtbot: QtBot, database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    reroof = permits.take_application(uow, clock, reg.clerk, application(reg))
    fees.assess_fees(
        uow,
        clock,
        reg.clerk,
        reroof,
        QuoteRequest(items=(QuoteItem("RES-OTHER", amount=D("100")),)),
    )  # $140.00
    _pay(database, clock, reg.treasurer, reg, reroof, "74.50", PaymentMethod.CASH)
    _pay(database, clock, reg.treasurer, reg, reroof, "65.50", PaymentMethod.CHECK, check="311")

    view = _treasurer_view(qtbot, database, clock, reg.treasurer)
    page = view.show_page("close")
    page.counted[PaymentMethod.CASH].setText("74.50")
    page.counted[PaymentMethod.CASH].textEdited.emit("74.50")
    page.counted[PaymentMethod.CHECK].setText("65.50")
    page.counted[PaymentMethod.CHECK].textEdited.emit("65.50")
    assert page.close_button.isEnabled()
    assert page.close_day()
    assert page.message.text() == (
        "The drawer Main is closed for 03/02/2026. The money is in your custody: turnover #1 "
        "is delivered and acknowledged by you; nothing waits for acknowledgment."
    )
    # A closed day's button says why it is greyed.
    assert not page.close_button.isEnabled()
    assert page.close_button.toolTip() == "The drawer Main is already closed for 03/02/2026."

    turnovers = view.show_page("turnovers")
    assert turnovers.summary.text() == "Every closed day is turned over."
    assert not turnovers.create_button.isEnabled()
    assert turnovers.create_button.toolTip() == (
        "Choose a closed day to turn over; nothing is waiting."
    )
    (t,) = turnovers.presenter.turnovers
    cells = turnovers.presenter.turnover_cells(t)
    assert (cells[2], cells[4], cells[6], cells[7], cells[10]) == (
        "Terry Treasurer",
        "$140.00",
        "03/02/2026",
        cashiering.OWN_DRAWER,
        "Acknowledged",
    )
    assert not turnovers.ack_button.isEnabled() and not turnovers.ack_note.isVisible()
    assert turnovers.ack_button.toolTip() == (
        "Turnover #1 was acknowledged on 03/02/2026 by Terry Treasurer."
    )
    assert turnovers.resolve_button.toolTip() == ("Turnover #1 has no open difference to resolve.")

    recon = view.show_page("reconciliation")
    assert [recon.figure(x) for x in ("Receipts", "Turnovers acknowledged")] == [
        "$140.00",
        "$140.00",
    ]
    assert [recon.figure(x) for x in ("+ Turnovers pending", "+ Undeposited")] == [
        "$0.00",
        "$0.00",
    ]
    assert recon.figure("= Accounted for") == recon.figure("= Net collections") == "$140.00"


def _sewer_with_deposit(database: Database, clock: FixedClock, reg: Register) -> tuple[int, int]:
    uow = database.uow()
    plumber = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(kind=PartyKind.ORGANIZATION, name="North Shore Plumbing Co",
              address_line1="5800 N Bayshore Dr", city="Glendale", zip="53217"),
    )  # fmt: skip
    sewer = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="SEWER-WATER",
            parcel_id=reg.parcel_id,
            description="Sanitary lateral to the main in the street",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id), (PartyRole.PLUMBER, plumber)),
        ),
    )
    deposit_id, _ = sure.take_deposit(
        uow,
        clock,
        reg.clerk,
        sure.DepositInput(
            permit_id=sewer,
            depositor="North Shore Plumbing Co",
            depositor_party_id=plumber,
            amount=D("500.00"),
            refund_payee="Anna Schmidt",
        ),
        Tender(PaymentMethod.CHECK, D("500.00"), "2231", "North Shore Plumbing Co", "Tri City"),
    )
    clock.set(DONE + timedelta(days=2))
    sure.record_completion(uow, clock, reg.inspector, deposit_id, DONE)
    return sewer, deposit_id


def _deposits_view(
    qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor
) -> DepositsView:
    qt_application()
    view = DepositsView(database, make_session(database, actor), clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.load()
    return view


def test_an_office_without_an_engineer_has_the_treasurer_order_and_the_clerk_pay(
    qtbot: QtBot, database: Database, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = seed_register(database, clock)
    sewer, deposit_id = _sewer_with_deposit(database, clock, reg)
    clock.set(ORDERED_ON)
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    warned: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: warned.append(text))

    treasurer = _deposits_view(qtbot, database, clock, reg.treasurer)
    treasurer.select_queue("eligible")
    treasurer.table.selectRow(treasurer.presenter.row_of(deposit_id))
    refusal = "The City Engineer orders a deposit refund (15.1.43); your roles: treasurer."
    assert not treasurer.order_button.isEnabled()
    assert treasurer.order_button.toolTip() == refusal
    assert treasurer.order_button.whatsThis() == refusal
    assert treasurer.why.text() == refusal
    assert treasurer.refund_button.toolTip() == (
        "The City Clerk issues the refund check (15.1.43); your roles: treasurer."
    )

    # The administrator names the treasurer to act for the City Engineer.
    update_municipality(
        database.uow(), clock, reg.admin, reg.municipality_id, {"refund_order_role": "treasurer"}
    )
    treasurer.load()
    treasurer.select_queue("eligible")
    treasurer.table.selectRow(treasurer.presenter.row_of(deposit_id))
    assert treasurer.order_button.isEnabled() and treasurer.order_button.toolTip() == ""
    treasurer.order_button.click()
    assert warned == []
    line = next(x for x in treasurer.presenter.lines if x.deposit_id == deposit_id)
    assert (line.ordered_on, line.ordered_by) == (ORDERED_ON, "Terry Treasurer")

    # Later, the clerk's home lists the refund ordered and not paid, and the drawer left open
    # with the deposit's receipt; each opens the place where it is done.
    clock.set(date(2026, 12, 3))
    window = MainWindow(
        database, make_session(database, reg.clerk), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    window.load()
    window.show_section(HOME)
    groups = {g.key: g for g in window.home_view.groups}
    (drawer,) = groups["drawers_not_closed"].items
    assert drawer.what == "Drawer not closed: Main, 03/02/2026 (1 receipt, $500.00)"
    (ordered,) = groups["refunds_ordered"].items
    assert ordered.what == (
        f"Deposit refund ordered 10/12/2026, not yet paid: Application #{sewer} · "
        "6120 N Port Washington Rd, $500.00 to Anna Schmidt"
    )
    assert ordered.why == (
        "Ordered by Terry Treasurer 52 days ago; the City Clerk writes the check (15.1.43)"
    )
    window.home_view._activate(_tree_item(window, drawer.what))
    assert window.current_section_title() == TREASURER
    assert window.treasurer_view is not None
    close = window.treasurer_view.close_page
    assert window.treasurer_view.current_page() == "close"
    assert (close.presenter.day, close.presenter.drawer) == (PAID_ON, "Main")
    assert close.state.text().startswith("Drawer Main, 03/02/2026: open, 1 receipt")
    window.home_view._activate(_tree_item(window, ordered.what))
    assert window.current_section_title() == DEPOSITS
    clerk = window.deposits_view
    assert clerk.tabs.currentIndex() == 2 and clerk.presenter.queue == "ordered"

    # The clerk writes the check: the engineer-less office completes the refund.
    clerk.table.selectRow(clerk.presenter.row_of(deposit_id))

    def run(dialog: QDialog) -> bool:
        assert isinstance(dialog, RefundDialog)
        dialog.check_number.setText("10441")
        return dialog.submit()

    monkeypatch.setattr(actions, "exec_dialog", run)
    assert clerk.refund_button.isEnabled()
    clerk.refund_button.click()
    assert warned == []
    with database.uow() as u:
        assert cashiering.deposit_held(u, sewer) == D("0.00")
    window.show_section(HOME)
    window.home_view.load()
    assert {g.key: g for g in window.home_view.groups}["refunds_ordered"].count == 0


def _tree_item(window: MainWindow, what: str) -> QTreeWidgetItem:
    tree = window.home_view.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for j in range(top.childCount()):
            child = top.child(j)
            if child.text(0) == what:
                return child
    raise AssertionError(f"{what} is not on the home")
