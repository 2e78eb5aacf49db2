"""Issue 5's acceptance, at the counter and then at the treasurer's desk: a contractor's check
for two permits taken at the Cashier screen from the keyboard, its receipt printed (the PDF holds
the receipt number and both permits), the drawer closed, the day turned over, the turnover
acknowledged by the treasurer, and the reconciliation showing the money turned over."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from desk.domain.enums import Role
from desk.fees.engine import QuoteItem
from desk.services import cashiering, permits, users
from tests.factories import make_issuable
from tests.ui.sample import ISSUED_NUMBER, PASSWORD, Sample
from ui import app, dialogs
from ui import pdf as pdf_module
from ui.app import make_session
from ui.main_window import MainWindow
from ui.permit.fees import FeesTab
from ui.views import treasurer as treasurer_module
from ui.views.cashier import CashierView
from ui.views.treasurer import FormDialog, TreasurerView

D = Decimal


@pytest.fixture
def quiet(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Message boxes are recorded, not shown (a failing step must not block the run)."""
    said: list[str] = []
    for name in ("warn", "inform", "error"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "show_file", lambda *_a: None)
    return said


def filed(sample: Sample, kind: str, name: str) -> Path:
    """Where a printout is filed this year (the document folder's default, in tmp)."""
    from datetime import date

    from ui import settings

    return settings.document_folder() / str(date.today().year) / kind / name


def two_permits_owing(sample: Sample) -> tuple[str, str]:
    """The new dwelling (2026-0001) and Kowalski's reroof, issued as 2026-0002, each owing a
    re-inspection fee added after issuance ($50.00 + 40 % = $70.00, 15.1.21(a)(12))."""
    uow, clock, admin = sample.database.uow(), sample.clock, sample.admin
    reroof = sample.permit_ids["kowalski"]
    make_issuable(sample.database, clock, admin, reroof)
    number = permits.issue_permit(uow, clock, admin, reroof, issued_on=clock.today())
    for permit_id in (sample.issued_id, reroof):
        cashiering.add_fee_line(
            uow, clock, admin, permit_id, QuoteItem("REINSPECTION", quantity=D(1)), "footings"
        )
    return ISSUED_NUMBER, number


def main_window_as(qtbot: QtBot, sample: Sample, username: str) -> MainWindow:
    app.application()
    actor = users.authenticate(sample.database.uow(), username, PASSWORD)
    window = MainWindow(
        sample.database,
        make_session(sample.database, actor),
        remember_geometry=False,
        clock=sample.clock,
    )
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.load()
    return window


def key(qtbot: QtBot, widget: object, k: Qt.Key, mod: Qt.KeyboardModifier | None = None) -> None:
    qtbot.keyClick(widget, k, mod or Qt.KeyboardModifier.NoModifier)


def test_a_check_for_two_permits_goes_from_the_counter_to_the_treasurers_reconciliation(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    quiet: list[str],
    qtmodeltester: ModelTester,
) -> None:
    first, second = two_permits_owing(sample)
    window = main_window
    view = window.show_section("Cashier")
    assert isinstance(view, CashierView)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)

    # 1. Find the contractor's permits and put both on the payment, from the keyboard.
    key(qtbot, window, Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)  # &Search
    assert QApplication.focusWidget() is view.search_edit
    qtbot.keyClicks(view.search_edit, "badger")
    key(qtbot, view.search_edit, Qt.Key.Key_Return)  # search now, go to the results
    assert QApplication.focusWidget() is view.results
    found = [r.permit.label for r in view.presenter.results]
    assert found[:2] == [second, first]  # newest first; both owe $70.00
    assert [r.cells()[6] for r in view.presenter.results[:2]] == ["$70.00", "$70.00"]
    key(qtbot, view.results, Qt.Key.Key_Return)  # add the first; back to Search
    assert QApplication.focusWidget() is view.search_edit
    key(qtbot, view.search_edit, Qt.Key.Key_Return)
    key(qtbot, view.results, Qt.Key.Key_Down)
    key(qtbot, view.results, Qt.Key.Key_Return)
    assert [line.label for line in view.presenter.lines] == [second, first]
    assert view.payer.text() == "Badger State Builders LLC"  # the contractor, typed over if not
    assert view.allocation_label.text() == "$140.00 to 2 permits."

    # 2. The check: its number and bank; Ctrl+Enter takes the payment and ("Print receipt"
    # ticked) files its receipt and opens the print dialog at once.
    key(qtbot, window, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)  # Check &no.
    qtbot.keyClicks(view.number, "1042")
    key(qtbot, window, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)  # &Bank
    qtbot.keyClicks(view.bank, "Associated Bank")
    assert view.print_after.isChecked()
    pages: list[int] = []
    monkeypatch.setattr(pdf_module, "choose_printer", lambda _p, _printer, n: pages.append(n))
    key(qtbot, view.bank, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert quiet == []
    result = view.presenter.last
    assert result is not None
    receipt = result.receipt_number
    assert receipt == "2026-0001"
    assert view.result_label.text() == (
        "Receipt 2026-0001: $140.00 by check from Badger State Builders LLC for 2 permits."
    )
    assert view.presenter.lines == []  # ready for the next payer
    assert view.receipts_model.rowCount() == 1

    # 3. The receipt went to the print dialog, filed in the document folder: it holds the
    # receipt number and both permits.
    assert pages == [1]
    pdf = filed(sample, "Receipts", f"receipt-{receipt}.pdf")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(pdf)).pages)
    assert f"No. {receipt}" in text
    assert f"{first} 6120 N Port Washington Rd" in text
    assert f"{second} 5517 N Lake Dr" in text
    assert "Check no. 1042, Associated Bank" in text and "COPY" not in text
    # Enter on "Print receipt…" files a copy (never over the first) and shows it.
    assert QApplication.focusWidget() is view.print_button
    key(qtbot, view.print_button, Qt.Key.Key_Return)
    again = pdf.with_name(f"receipt-{receipt}-copy.pdf")
    assert again.exists() and "COPY" in PdfReader(str(again)).pages[0].extract_text()

    # The permit window's Fees & Payments tab shows the receipt and nothing due.
    permit_window = window.open_permit(sample.issued_id)
    permit_window.select_tab("fees")
    tab = permit_window.tab("fees")
    assert isinstance(tab, FeesTab)
    assert tab.total("Paid") == "$70.00" and tab.total("Balance due") == "$0.00"
    assert tab.payments_model.index(0, 0).data() == receipt
    qtmodeltester.check(tab.payments_model)
    permit_window.close()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)

    # 4. The clerk's day ends: the drawer counted and closed, the day turned over.
    treasury = window.show_section("Treasurer")
    assert isinstance(treasury, TreasurerView)
    close = treasury.close_page
    assert close.cells[1][3].text() == "$140.00"  # expected: the check
    key(qtbot, treasury, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)  # &Counted (cash)
    assert QApplication.focusWidget() is close.counted[cashiering.PaymentMethod.CASH]
    key(qtbot, QApplication.focusWidget(), Qt.Key.Key_Tab)  # to the check's count
    qtbot.keyClicks(QApplication.focusWidget(), "140.00")
    assert close.presenter.preview == "Counted $140.00 of $140.00 expected: even."
    key(qtbot, treasury, Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)  # C&lose day
    qtbot.waitUntil(lambda: close.presenter.closed, timeout=2000)
    assert close.message.text() == "The drawer Main is closed for 03/02/2026."
    turnovers = treasury.show_page("turnovers")
    assert turnovers.summary.text() == "1 closed day chosen: $140.00 collected, $140.00 counted."
    key(qtbot, treasury, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)  # &Create turnover
    qtbot.waitUntil(lambda: len(turnovers.presenter.turnovers) == 1, timeout=2000)
    assert turnovers.turnovers_model.index(0, 10).data() == "Awaiting the treasurer"

    # 5. The treasurer acknowledges it with the bank deposit reference.
    users.create_user(
        sample.database.uow(),
        sample.clock,
        sample.admin,
        username="terry",
        full_name="Terry Treasurer",
        password=PASSWORD,
        roles={Role.TREASURER},
    )
    desk = main_window_as(qtbot, sample, "terry")
    assert "Treasurer" in desk.section_titles()
    their = desk.show_section("Treasurer")
    assert isinstance(their, TreasurerView)
    page = their.show_page("turnovers")

    def fill(dialog: FormDialog) -> bool:
        reference, deposited = dialog.fields["reference"], dialog.fields["deposited"]
        assert isinstance(reference, QLineEdit) and isinstance(deposited, QLineEdit)
        reference.setText("Associated Bank deposit 7781")
        assert deposited.text() == "140.00"  # the money delivered
        return dialog.submit()

    monkeypatch.setattr(treasurer_module, "run_dialog", fill)
    page.turnovers.selectRow(0)
    assert page.acknowledge_selected()
    assert page.message.text() == (
        "Turnover #1 is acknowledged: deposit Associated Bank deposit 7781."
    )
    assert page.turnovers_model.index(0, 10).data() == "Acknowledged"

    # 6. The reconciliation of the month shows the money turned over and balances.
    recon = their.show_page("reconciliation")
    recon.show_button.click()
    assert recon.figure("Receipts") == "$140.00"
    assert recon.figure("Turnovers acknowledged") == "$140.00"
    assert recon.figure("+ Undeposited") == "$0.00"
    assert recon.verdict.text().startswith("Balanced")
    assert quiet == []
    for model in (
        view.results_model,
        view.lines_model,
        view.receipts_model,
        close.receipts_model,
        page.closes_model,
        page.turnovers_model,
        recon.accounts_model,
    ):
        qtmodeltester.check(model)


def test_the_fees_and_payments_tab_adds_a_fee_with_its_reason_and_takes_it_to_the_cashier(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    monkeypatch: pytest.MonkeyPatch,
    quiet: list[str],
) -> None:
    from ui.permit import fees as fees_module

    permit_window = main_window.open_permit(sample.issued_id)
    qtbot.waitExposed(permit_window)
    permit_window.activateWindow()
    qtbot.waitUntil(permit_window.isActiveWindow, timeout=2000)
    permit_window.select_tab("fees")
    tab = permit_window.tab("fees")
    assert isinstance(tab, FeesTab)
    assert tab.pages.currentWidget() is tab.empty_label  # nothing assessed on the sample permit

    def fill(dialog: object) -> bool:
        assert isinstance(dialog, fees_module.AddFeeDialog)
        assert dialog.item.currentData() == "REINSPECTION"
        dialog.quantity.setText("1")
        assert not dialog.submit()  # no reason yet: the dialog says so and stays open
        assert dialog.error_label.text() == "Reason: say why the fee is added"
        dialog.reason.setPlainText("Footings not ready at the 03/02 inspection")
        return dialog.submit()

    monkeypatch.setattr(fees_module, "exec_dialog", fill)
    qtbot.keyClick(tab, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)  # A&dd fee…
    qtbot.waitUntil(lambda: tab.pages.currentWidget() is tab.table_page, timeout=2000)
    assert tab.model.index(0, 0).data() == "REINSPECTION"
    assert tab.model.index(0, 1).data() == (
        "Re-inspection — added 03/02/2026 by Alex Administrator: Footings not ready at the "
        "03/02 inspection"
    )
    assert tab.total("Balance due") == "$70.00"
    assert tab.balance_label.text() == "$70.00 is due of $70.00 charged."

    tab.pay_button.click()  # Take payment…: the Cashier, with this permit on the payment
    cashier = main_window.cashier_view
    assert cashier is not None and main_window.stack.currentWidget().widget() is cashier  # type: ignore[attr-defined]
    assert [(line.label, line.amount_text) for line in cashier.presenter.lines] == [
        (ISSUED_NUMBER, "70.00")
    ]
    assert quiet == []  # said once, in the form (not again in a message box)


@pytest.mark.parametrize(
    "view", ["cashier", "treasurer", "treasurer:turnovers", "treasurer:reconciliation"]
)
def test_a_screenshot_of_the_cashier_and_the_treasurers_pages(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path, view: str
) -> None:
    from PySide6.QtGui import QImage

    from db.engine import sqlite_url

    two_permits_owing(sample)
    out = tmp_path / "shot.png"
    assert app.run_gui(sqlite_url(db_path), str(out), view, (1280, 800), "admin", "") == 0
    assert QImage(str(out)).size().toTuple() == (1280, 800)


def test_the_treasurer_views_name_their_pages_and_refuse_an_unknown_one(
    capsys: pytest.CaptureFixture[str], sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    from db.engine import sqlite_url
    from ui.presenters.views import ViewSpec, parse_view

    assert parse_view("cashier") == ViewSpec("cashier")
    assert parse_view("treasurer") == ViewSpec("treasurer", tab="close")
    assert parse_view("Treasurer:Reconciliation") == ViewSpec("treasurer", tab="reconciliation")
    with pytest.raises(ValueError, match="unknown page 'ledger'"):
        parse_view("treasurer:ledger")
    # An inspector takes no payments: no Cashier section to show.
    users.create_user(
        sample.database.uow(),
        sample.clock,
        sample.admin,
        username="ivan",
        full_name="Ivan Inspector",
        password=PASSWORD,
        roles={Role.INSPECTOR},
    )
    out = str(tmp_path / "x.png")
    assert app.run_gui(sqlite_url(db_path), out, "cashier", (1280, 800), "ivan", "") == 2
    assert "the Cashier section is not for ivan's roles" in capsys.readouterr().err


def test_the_treasurer_saves_the_days_report_the_transmittal_and_the_reconciliation(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quiet: list[str]
) -> None:
    from openpyxl import load_workbook

    from db.database import open_database
    from db.engine import sqlite_url
    from desk.clock import FixedClock
    from tests.cashbook import DAY, turned_over

    database = open_database(sqlite_url(tmp_path / "cash.db"))
    day = turned_over(database, FixedClock(DAY))
    app.application()
    window = MainWindow(
        database,
        make_session(database, day.reg.treasurer),
        remember_geometry=False,
        clock=day.clock,
    )
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.load()
    treasury = window.show_section("Treasurer")
    assert isinstance(treasury, TreasurerView)
    asked: list[str] = []

    def choose_file(_parent: object, caption: str, _filter: str = "", **kw: str) -> str:
        asked.append(caption)
        return str(tmp_path / Path(kw["directory"]).stem)  # typed without its suffix

    monkeypatch.setattr(dialogs, "choose_file", choose_file)
    treasury.close_page.show_day(DAY)
    pdf = treasury.close_page.export(".pdf")  # a printout: filed without asking
    assert pdf is not None and pdf.parent.name == "Reports"
    assert pdf.name == "daily-cash-2026-03-02.pdf"
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(pdf)).pages)
    assert "Daily cash report" in text and "$579.00" in text and "Page 1 of 1" in text
    turnovers = treasury.show_page("turnovers")
    turnovers.turnovers.selectRow(0)
    xlsx = turnovers.export(".xlsx")
    assert xlsx is not None and xlsx.name == f"transmittal-{day.turnover_id}-2026-03-02.xlsx"
    by_account = load_workbook(xlsx)["By account"]
    assert by_account["A1"].value.startswith(f"Turnover #{day.turnover_id}")
    recon = treasury.show_page("reconciliation")
    recon.show_button.click()
    out = recon.export(".xlsx")
    assert out is not None and out.name == "reconciliation-2026-03-01-2026-03-02.xlsx"
    assert load_workbook(out)["GL accounts"]["A4"].value == "Account"
    assert asked == [
        "Save the transmittal",
        "Save the reconciliation",
    ]
    assert quiet == []

    # A place that cannot be written (a file where the folder should be): the treasurer is
    # told where, and nothing is opened.
    (tmp_path / "not-a-folder").write_text("")
    bad = tmp_path / "not-a-folder" / "day.xlsx"
    monkeypatch.setattr(dialogs, "choose_file", lambda *_a, **_k: str(bad))
    monkeypatch.setattr(dialogs, "show_file", lambda _w, path, _t: quiet.append(f"opened {path}"))
    assert treasury.close_page.export(".xlsx") is None
    assert quiet[-1].startswith(f"It could not be saved to {bad}: ")
    window.close()
    database.close()
