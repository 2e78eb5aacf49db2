"""The Treasurer section as the treasurer sees it: a turnover they delivered themselves says so
before the acknowledgment form is filled in, the reconciliation opens on the current month, and
the refund check's date is a date field."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.cashiering import Allocation, MethodTotals, PaymentMethod, RefundGround, Tender
from desk.domain.model import Actor, Refund
from desk.services import cashiering as cash
from desk.services import fees, permits
from tests.cashbook import DAY, WIRING, CashDay, close_the_day, open_day
from tests.factories import application
from ui import dialogs
from ui.app import make_session
from ui.date_field import DateField
from ui.presenters.treasurer import GROUNDS, SELF_ACKNOWLEDGMENT
from ui.views import treasurer as treasurer_module
from ui.views.common import to_qdate
from ui.views.treasurer import FormDialog, TreasurerView

D = Decimal
NEXT_DAY = date(2026, 3, 3)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "t.db"))
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def quiet(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Message boxes are recorded, not shown."""
    said: list[str] = []
    for name in ("warn", "inform", "error"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: said.append(text))
    return said


def treasurer_view(qtbot: QtBot, day: CashDay, who: Actor) -> TreasurerView:
    view = TreasurerView(day.database, make_session(day.database, who), day.clock)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.load()
    return view


def two_turnovers(db: Database) -> CashDay:
    """Monday's drawer closed and delivered by the clerk (#1); on Tuesday the clerk takes a
    payment and closes the drawer, and the treasurer delivers it (#2). (A drawer the treasurer
    closes herself goes straight into her custody: tests/ui/test_office_roles.py.)"""
    day = open_day(db, FixedClock(DAY))
    close_the_day(day)
    reg, clock = day.reg, day.clock
    cash.create_turnover(db.uow(), clock, reg.clerk, reg.municipality_id, [day.close_id or 0])
    clock.set(NEXT_DAY)
    uow = db.uow()
    fence = permits.take_application(uow, clock, reg.clerk, application(reg, "fence wiring"))
    fees.assess_fees(uow, clock, reg.clerk, fence, WIRING)
    cash.take_payment(
        uow,
        clock,
        reg.clerk,
        cash.PaymentInput(
            municipality_id=reg.municipality_id,
            tender=Tender(PaymentMethod.CASH, D("168.00")),
            allocations=(Allocation(fence, D("168.00")),),
            payer_name="Anna Schmidt",
        ),
    )
    close = cash.close_day(
        uow,
        clock,
        reg.clerk,
        reg.municipality_id,
        cash.DEFAULT_DRAWER,
        NEXT_DAY,
        MethodTotals(cash=D("168.00")),
        "",
    )
    cash.create_turnover(uow, clock, reg.treasurer, reg.municipality_id, [close])
    return day


def test_the_treasurer_is_told_before_the_form_that_they_cannot_acknowledge_their_own_turnover(
    qtbot: QtBot, db: Database, monkeypatch: pytest.MonkeyPatch, quiet: list[str]
) -> None:
    day = two_turnovers(db)
    view = treasurer_view(qtbot, day, day.reg.treasurer)
    page = view.show_page("turnovers")
    assert [t.turnover_id for t in page.presenter.turnovers] == [2, 1]  # newest first
    note = page.findChild(QLabel, "acknowledgeRefusal")
    assert note is page.ack_note

    # Their own turnover is chosen: Acknowledge is disabled and the page says why.
    assert page.selected_turnover() == 2
    assert not page.ack_button.isEnabled()
    assert note.isVisible()
    assert note.text() == (
        "You delivered this turnover; another person (the treasurer) acknowledges it."
    )
    assert page.ack_button.toolTip() == SELF_ACKNOWLEDGMENT

    # No form to fill in for nothing: the page says so instead of opening it.
    opened: list[FormDialog] = []
    monkeypatch.setattr(treasurer_module, "run_dialog", lambda d: opened.append(d) or False)
    assert not page.acknowledge_selected()
    assert opened == []
    assert page.message.text() == SELF_ACKNOWLEDGMENT
    # The form itself, however it is reached, is disabled with the same sentence.
    dialog = page.acknowledge_dialog(2)
    assert dialog is not None
    assert dialog.error_label.text() == SELF_ACKNOWLEDGMENT
    assert not dialog.error_label.isHidden()
    assert not dialog.ok_button.isEnabled()
    assert not any(f.isEnabled() for f in dialog.fields.values())

    # The clerk's turnover: Acknowledge is open and the sentence is gone.
    page.turnovers.selectRow(1)
    assert page.selected_turnover() == 1
    assert page.ack_button.isEnabled()
    assert not note.isVisible()

    def fill(dialog: FormDialog) -> bool:
        assert dialog.ok_button.isEnabled() and dialog.error_label.isHidden()
        reference = dialog.fields["reference"]
        assert isinstance(reference, QLineEdit)
        reference.setText("DEP-0302")
        return dialog.submit()

    monkeypatch.setattr(treasurer_module, "run_dialog", fill)
    assert page.acknowledge_selected()
    assert page.message.text() == "Turnover #1 is acknowledged: deposit DEP-0302."
    # Back on the newest, their own: disabled again, the service's check unchanged behind it.
    assert page.selected_turnover() == 2
    assert not page.ack_button.isEnabled() and note.isVisible()
    assert quiet == []


def test_an_acknowledged_turnover_the_treasurer_delivered_shows_no_refusal(
    qtbot: QtBot, db: Database
) -> None:
    day = two_turnovers(db)
    view = treasurer_view(qtbot, day, day.reg.admin)  # the administrator acknowledges #2
    page = view.show_page("turnovers")
    assert page.selected_turnover() == 2 and page.ack_button.isEnabled()
    assert page.ack_note.isHidden()
    cash.acknowledge_turnover(
        db.uow(), day.clock, day.reg.admin, 2, NEXT_DAY, "DEP-0303", D("168.00")
    )
    mine = treasurer_view(qtbot, day, day.reg.treasurer).show_page("turnovers")
    assert mine.selected_turnover() == 2
    assert mine.presenter.acknowledge_refusal(2) == ""  # nothing left to acknowledge
    assert mine.ack_note.isHidden()


def test_the_reconciliation_opens_on_the_current_month(qtbot: QtBot, db: Database) -> None:
    day = open_day(db, FixedClock(DAY))
    day.clock.set(date(2026, 4, 17))
    view = treasurer_view(qtbot, day, day.reg.treasurer)
    page = view.show_page("reconciliation")
    assert page.start.text() == "04/01/2026"
    assert page.end.text() == "04/17/2026"
    page.show_button.click()
    result = page.presenter.result
    assert result is not None
    assert (result.start, result.end) == (date(2026, 4, 1), date(2026, 4, 17))


def test_the_refund_check_date_is_a_date_field_with_a_calendar(qtbot: QtBot, db: Database) -> None:
    day = open_day(db, FixedClock(DAY))
    cash.adjust_fee(db.uow(), day.clock, day.reg.inspector, day.house, "RES-NEW", D("-35"), "area")
    day.clock.set(date(2026, 3, 6))
    view = treasurer_view(qtbot, day, day.reg.treasurer)
    page = view.show_page("refunds")
    check_date = page.findChild(DateField, "refundCheckDate")
    assert check_date is page.check_date
    assert check_date.calendarPopup()
    assert check_date.displayFormat() == "MM/dd/yyyy"
    assert check_date.text() == "03/06/2026"  # today, from the view's clock

    # The check written yesterday: the date picked is the one recorded.
    page.permit.setText(f"#{day.house}")
    page.ground.setCurrentIndex(GROUNDS.index(RefundGround.OVERPAYMENT))
    assert page.find_permit()
    page.check_number.setText("5001")
    check_date.setDate(to_qdate(date(2026, 3, 5)))
    assert check_date.text() == "03/05/2026"
    assert page.refund(), page.message.text()
    assert page.message.text() == "Refunded $35.00 by check 5001."
    uow = db.uow()
    with uow:
        (refund,) = uow.cash.find(Refund, municipality_id=day.reg.municipality_id)
        assert (refund.check_number, refund.check_date) == ("5001", date(2026, 3, 5))
