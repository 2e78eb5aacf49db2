"""Acceptance (issue 6): on the Deposits screen the clerk takes a plumber's $500 street deposit
by check (the money held in the liability account), the inspector records the completion of the
work, the deposit waits 179 days and becomes eligible on the 180th, the City Engineer orders it
returned, and the clerk refunds it by check to the owner the plumber named (SQLite and
PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.cashiering import PaymentMethod
from desk.domain.enums import PartyKind, PartyRole, Role
from desk.domain.model import Actor, Party
from desk.services import cashiering, permits, users
from tests.factories import PASSWORD, seed_register
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.views.bonds import SECTION_TITLE as BONDS
from ui.views.deposits import (
    SECTION_TITLE,
    CompletionDialog,
    DepositsView,
    RefundDialog,
    TakeDepositDialog,
)

PAID_ON = date(2026, 3, 2)
DONE = date(2026, 4, 15)


class Seen:
    def __init__(self) -> None:
        self.asked: list[str] = []
        self.warnings: list[str] = []
        self.opened: list[Path] = []


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Seen:
    s = Seen()
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: s.warnings.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda _p, _t, text: None)

    def ask(_parent: object, _title: str, question: str, **_kw: object) -> bool:
        s.asked.append(question)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    monkeypatch.setattr(
        dialogs,
        "choose_file",
        lambda _p, _c, _f="", **kw: str(tmp_path / Path(kw["directory"]).name),
    )

    def show_file(_parent: object, path: object, _title: str) -> None:
        s.opened.append(Path(str(path)))

    monkeypatch.setattr(dialogs, "show_file", show_file)
    return s


def fill_with(monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]) -> None:
    def run(dialog: QDialog) -> bool:
        fill(dialog)
        assert isinstance(dialog, actions.ActionDialog)
        return dialog.submit()

    monkeypatch.setattr(actions, "exec_dialog", run)


def view_for(qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor) -> DepositsView:
    application()
    view = DepositsView(database, make_session(database, actor), clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.load()
    return view


def status_of(view: DepositsView, number: str) -> str:
    for r in view.presenter.rows:
        if r.cells[0] == number:
            return r.cells[-1]
    raise AssertionError(f"permit {number} is not in the list")


def test_a_deposit_goes_from_the_counter_to_eligible_to_ordered_to_refunded(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    seen: Seen,
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    users.create_user(
        uow, clock, reg.admin, username="erin", full_name="Erin Engineer", password=PASSWORD,
        roles={Role.ENGINEER},
    )  # fmt: skip
    engineer = users.authenticate(uow, "erin", PASSWORD)
    plumber = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(
            kind=PartyKind.ORGANIZATION,
            name="North Shore Plumbing Co",
            address_line1="5800 N Bayshore Dr",
            city="Glendale",
            zip="53217",
        ),
    )
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
    clock.set(PAID_ON)

    # The main window lists both sections of issue 6.
    window = MainWindow(
        database, make_session(database, reg.clerk), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    assert {SECTION_TITLE, BONDS} <= set(window.section_titles())

    # The clerk takes the deposit at the counter: the plumber pays by check, the refund is to go
    # to the owner, who paid the plumber back.
    clerk_view = view_for(qtbot, database, clock, reg.clerk)
    assert clerk_view.presenter.summary == "No deposit in this list."

    def take(d: QDialog) -> None:
        assert isinstance(d, TakeDepositDialog)
        d.permit.setText(f"#{sewer}")
        d.permit.editingFinished.emit()
        assert d.depositor.currentText() == "North Shore Plumbing Co"  # the plumber first
        assert d.address.text() == "5800 N Bayshore Dr, Glendale, WI 53217"
        d.payee.setText("Anna Schmidt")
        d.payee_address.setText("6120 N Port Washington Rd, Glendale, WI 53217")
        d.tender.method.setCurrentIndex(d.tender.method.findData(PaymentMethod.CHECK.value))
        d.tender.number.setText("2231")
        d.tender.drawer_name.setText("North Shore Plumbing Co")
        d.tender.bank.setText("Tri City National Bank")

    fill_with(monkeypatch, take)
    clerk_view.take_button.click()
    assert seen.warnings == []
    assert status_of(clerk_view, f"#{sewer}") == "Held"
    line = clerk_view.current()
    assert line is not None
    assert (line.amount, line.payee, line.received_on) == (
        Decimal("500.00"),
        "Anna Schmidt",
        PAID_ON,
    )
    assert f"receipt {line.receipt_number} of 03/02/2026" in clerk_view.detail.text()
    assert not clerk_view.order_button.isEnabled()  # the clerk does not order refunds
    with database.uow() as u:
        assert cashiering.deposit_held(u, sewer) == Decimal("500.00")

    # The inspector records the completion of the work.
    clock.set(DONE + timedelta(days=2))
    inspector_view = view_for(qtbot, database, clock, reg.inspector)
    inspector_view.table.selectRow(inspector_view.presenter.row_of(line.deposit_id))

    def complete(d: QDialog) -> None:
        assert isinstance(d, CompletionDialog)
        d.date.setText("04/15/2026")

    fill_with(monkeypatch, complete)
    assert inspector_view.complete_button.isEnabled()
    inspector_view.complete_button.click()
    assert inspector_view.current() is not None
    assert inspector_view.current().eligible_from == date(2026, 10, 12)  # type: ignore[union-attr]

    # Day 179: in the list of those eligible within 30 days; the engineer cannot order it yet.
    clock.set(DONE + timedelta(days=179))
    engineer_view = view_for(qtbot, database, clock, engineer)
    engineer_view.select_queue("soon")
    assert engineer_view.tabs.tabText(1) == "Eligible in the next 30 days (1)"
    assert engineer_view.tabs.tabText(0) == "Eligible now (0)"
    engineer_view.table.selectRow(0)
    assert not engineer_view.order_button.isEnabled()
    assert engineer_view.order_button.toolTip() == "Eligible from 10/12/2026 (15.1.43)."

    # Day 180: eligible now; the City Engineer orders it returned.
    clock.set(DONE + timedelta(days=180))
    engineer_view.load()
    assert engineer_view.tabs.tabText(0) == "Eligible now (1)"
    engineer_view.select_queue("eligible")
    engineer_view.table.selectRow(0)
    assert status_of(engineer_view, f"#{sewer}") == "Eligible for refund"
    assert engineer_view.order_button.isEnabled()
    engineer_view.order_button.click()
    assert seen.asked == [
        f"Order the street deposit of $500.00 for permit #{sewer} returned to Anna Schmidt "
        "(15.1.43)?"
    ]
    engineer_view.select_queue("ordered")
    assert engineer_view.tabs.tabText(2) == "Ordered, awaiting the check (1)"
    assert status_of(engineer_view, f"#{sewer}") == "Refund ordered"

    # The clerk writes the check; the deposit leaves the liability account.
    clock.set(DONE + timedelta(days=183))
    clerk_view.load()
    clerk_view.select_queue("ordered")
    clerk_view.table.selectRow(0)
    assert clerk_view.refund_button.isEnabled()

    def refund(d: QDialog) -> None:
        assert isinstance(d, RefundDialog)
        assert "$500.00 to Anna Schmidt" in d.note.text()
        d.check_number.setText("10441")

    fill_with(monkeypatch, refund)
    clerk_view.refund_button.click()
    assert seen.warnings == []
    clerk_view.select_queue("all")
    assert status_of(clerk_view, f"#{sewer}") == "Refunded"
    assert "Refunded $500.00 by check 10441 of 10/15/2026." in clerk_view.detail.text()
    with database.uow() as u:
        assert cashiering.deposit_held(u, sewer) == Decimal("0.00")

    # The refund queue as a PDF for the engineer and the Council.
    out = clerk_view.export("pdf")
    assert out is not None and seen.opened == [out]
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(out).pages).split())
    assert "Street deposits as of 10/15/2026" in text
    assert "Street deposits held (liability account) on 10/15/2026: $0.00" in text


def test_a_refund_is_refused_in_words_when_the_check_number_is_missing(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    seen: Seen,
) -> None:
    """The dialog stays open and names the field (the services check the order first)."""
    from desk.domain.cashiering import Tender
    from desk.services import sureties

    reg = seed_register(database, clock)
    uow = database.uow()
    users.create_user(
        uow, clock, reg.admin, username="erin", full_name="Erin Engineer", password=PASSWORD,
        roles={Role.ENGINEER},
    )  # fmt: skip
    engineer = users.authenticate(uow, "erin", PASSWORD)
    sewer = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="SEWER-WATER",
            parcel_id=reg.parcel_id,
            description="Water service",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id),),
        ),
    )
    deposit_id, _ = sureties.take_deposit(
        uow,
        clock,
        reg.clerk,
        sureties.DepositInput(
            permit_id=sewer,
            depositor="Anna Schmidt",
            depositor_address="6120 N Port",
            amount=Decimal("500.00"),
        ),
        Tender(PaymentMethod.CASH, Decimal("500.00")),
    )
    clock.set(date(2026, 3, 3))
    sureties.record_completion(uow, clock, reg.inspector, deposit_id, date(2026, 3, 3))
    clock.set(date(2026, 8, 30))
    sureties.order_deposit_refund(uow, clock, engineer, deposit_id)
    view = view_for(qtbot, database, clock, reg.clerk)
    view.table.selectRow(view.presenter.row_of(deposit_id))
    shown: list[Any] = []

    def refund(d: QDialog) -> None:
        assert isinstance(d, RefundDialog)
        shown.append(d)

    fill_with(monkeypatch, refund)
    view.refund_button.click()
    assert seen.warnings == []  # said once, in the form, not again in a box
    assert shown[0].error_label.text() == "Check number: enter the number of the refund check"
    assert status_of(view, f"#{sewer}") == "Refund ordered"
