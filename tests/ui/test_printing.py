"""Printing in one step: every printout is filed as PDF in the document folder
(`<folder>/<year>/<kind>/<name>.pdf`, never over an earlier one) and goes to the print dialog
without a Save-as dialog; the cashier prints the receipt right after the payment when "Print
receipt" is ticked (remembered on this computer); Ctrl+P prints what the section shows."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrinter
from pytestqt.qtbot import QtBot
from reportlab.pdfgen.canvas import Canvas

from tests.ui.sample import Sample
from tests.ui.test_cashier_flow import two_permits_owing
from ui import dialogs, exports, settings
from ui import pdf as pdf_module
from ui.main_window import MainWindow
from ui.pdf import PdfWindow
from ui.presenters.session import Session
from ui.views.cashier import CashierView

YEAR = str(date.today().year)


class Printer:
    """The patched print dialog: accepted (one keystroke), the pages printed into a PDF file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.asked: list[int] = []

    def __call__(self, _parent: Any, printer: QPrinter, pages: int) -> bool:
        self.asked.append(pages)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(self.folder / f"printed-{len(self.asked)}.pdf"))
        return True

    def pages(self, n: int = 1) -> int:
        """The pages that reached the printer (as images: no text to read)."""
        return len(PdfReader(str(self.folder / f"printed-{n}.pdf")).pages)


def text_of(path: Path) -> str:
    return " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages)


@pytest.fixture
def printer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Printer:
    p = Printer(tmp_path)
    monkeypatch.setattr(pdf_module, "choose_printer", p)
    return p


@pytest.fixture
def no_save_as(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every Save-as dialog asked (a printout must ask none); every message box said."""
    asked: list[str] = []
    monkeypatch.setattr(
        dialogs, "choose_file", lambda _p, caption, *_a, **_k: asked.append(caption)
    )
    for name in ("warn", "inform", "error"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: asked.append(text))
    return asked


def write_page(text: str) -> Any:
    def write(path: Path) -> None:
        canvas = Canvas(str(path))
        canvas.drawString(72, 720, text)
        canvas.save()

    return write


def test_a_printout_is_filed_by_year_and_kind_and_never_over_an_earlier_one(
    qapp: Any, printer: Printer, no_save_as: list[str]
) -> None:
    first = exports.print_now(None, "Print receipt", "receipt-2026-0007.pdf", write_page("A"))
    assert first == settings.document_folder() / YEAR / "Receipts" / "receipt-2026-0007.pdf"
    assert first.exists() and printer.asked == [1]
    second = exports.print_now(None, "Print receipt", "receipt-2026-0007.pdf", write_page("B"))
    assert second == first.with_name("receipt-2026-0007 (2).pdf")
    assert text_of(first) == "A" and text_of(second) == "B"
    assert printer.asked == [1, 1] and printer.pages(2) == 1
    assert no_save_as == []
    # The default folder is under the data folder (redirected into tmp by the fixtures).
    assert settings.document_folder() == settings.default_document_folder()
    assert settings.default_document_folder().name == "documents"


def test_a_folder_that_cannot_be_made_is_named_and_nothing_is_lost(
    qapp: Any, tmp_path: Path, printer: Printer, no_save_as: list[str]
) -> None:
    (tmp_path / "a-file").write_text("")
    settings.write(settings.DOCUMENT_FOLDER, str(tmp_path / "a-file" / "documents"))
    path = exports.print_now(
        None, "Print receipt", "receipt-2026-0008", write_page("C"), "Receipts"
    )
    assert path is not None and path.exists() and printer.asked == [1]
    assert len(no_save_as) == 1 and str(tmp_path / "a-file" / "documents") in no_save_as[0]


def test_the_pdf_window_prints_on_enter_and_saves_a_copy_as(
    qtbot: QtBot, tmp_path: Path, printer: Printer, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[Path] = []
    monkeypatch.setattr(dialogs, "show_file", lambda _p, path, _t: shown.append(path))
    filed = exports.save_and_open(
        None, "Print permit card", "unused caption", "permit-card-2026-0002.pdf", write_page("D")
    )
    assert filed == settings.document_folder() / YEAR / "Permit cards" / filed.name
    assert shown == [filed]
    window = PdfWindow(None, filed, "Permit card 2026-0002")
    qtbot.addWidget(window)
    window.show()
    assert window.print_button.isDefault()
    qtbot.keyClick(window, Qt.Key.Key_Return)
    assert printer.asked == [1]
    target = tmp_path / "for-the-owner"
    monkeypatch.setattr(dialogs, "choose_file", lambda *_a, **_k: str(target))
    window.save_button.click()
    copy = target.with_suffix(".pdf")
    assert copy.read_bytes() == filed.read_bytes() and filed.exists()
    assert window.status.text() == f"Saved a copy to {copy}."
    window.close()


def test_the_print_receipt_tick_is_remembered_on_this_computer(
    qtbot: QtBot, sample: Sample, session: Session
) -> None:
    view = CashierView(sample.database, session, sample.clock)
    qtbot.addWidget(view)
    assert view.print_after.isChecked()  # ticked by default
    view.print_after.setChecked(False)
    again = CashierView(sample.database, session, sample.clock)
    qtbot.addWidget(again)
    assert not again.print_after.isChecked()


def test_from_the_typed_amounts_to_the_printed_receipt_in_at_most_six_keystrokes(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    printer: Printer,
    no_save_as: list[str],
) -> None:
    first, _second = two_permits_owing(sample)
    window = main_window
    view = window.show_section("Cashier")
    assert isinstance(view, CashierView)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    assert view.add_permit(sample.issued_id)
    qtbot.keyClicks(view.amount, "70.00")  # the amounts typed (a check)
    qtbot.keyClicks(view.number, "1042")
    qtbot.keyClicks(view.bank, "Associated Bank")

    keystrokes = 0

    def press(widget: Any, key: Qt.Key, mod: Qt.KeyboardModifier) -> None:
        nonlocal keystrokes
        keystrokes += 1
        qtbot.keyClick(widget, key, mod)

    press(view.amount, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Take payment
    keystrokes += len(printer.asked)  # Enter in the print dialog
    assert keystrokes <= 6
    assert view.presenter.last is not None, view.error_label.text()
    receipt = view.presenter.last.receipt_number
    assert printer.asked == [1] and printer.pages() == 1
    filed = settings.document_folder() / YEAR / "Receipts" / f"receipt-{receipt}.pdf"
    assert f"No. {receipt}" in text_of(filed) and first in text_of(filed)
    assert no_save_as == []


def test_ctrl_p_prints_the_sections_printout_and_says_when_there_is_none(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    printer: Printer,
    no_save_as: list[str],
) -> None:
    two_permits_owing(sample)
    window = main_window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)  # the permit list
    assert printer.asked == [1]  # printed as a list (tests/ui/test_list_printing.py)
    assert list((settings.document_folder() / YEAR / "Reports").glob("permits-*.pdf"))
    view = window.show_section("Cashier")
    assert isinstance(view, CashierView)
    view.print_after.setChecked(False)
    assert view.add_permit(sample.issued_id)
    qtbot.keyClicks(view.number, "1042")
    qtbot.keyClicks(view.bank, "Associated Bank")
    qtbot.keyClick(view.bank, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert printer.asked == [1]  # unticked: no receipt printed
    assert view.presenter.last is not None, view.error_label.text()
    receipt = view.presenter.last.receipt_number
    qtbot.keyClick(view.bank, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert printer.asked == [1, 1]
    filed = settings.document_folder() / YEAR / "Receipts" / f"receipt-{receipt}.pdf"
    assert f"No. {receipt}" in text_of(filed)
    assert no_save_as == []


def test_ctrl_p_in_the_permit_window_prints_the_permit_card(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, printer: Printer
) -> None:
    permit_window = main_window.open_permit(sample.issued_id)
    permit_window.activateWindow()
    qtbot.waitUntil(permit_window.isActiveWindow, timeout=2000)
    qtbot.keyClick(permit_window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert printer.asked == [1]
    cards = list((settings.document_folder() / YEAR / "Permit cards").glob("*.pdf"))
    assert len(cards) == 1 and "permit-card-" in cards[0].name
    permit_window.close()
    # Not issued yet: the application summary.
    unissued = main_window.open_permit(sample.permit_ids["garcia"])
    unissued.activateWindow()
    qtbot.waitUntil(unissued.isActiveWindow, timeout=2000)
    qtbot.keyClick(unissued, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert printer.asked == [1, 1]
    assert len(list((settings.document_folder() / YEAR / "Applications").glob("*.pdf"))) == 1
    unissued.close()


def test_the_document_folder_is_shown_and_changed_from_the_file_menu(
    tmp_path: Path, main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "ask", lambda _p, _t, text, **_k: said.append(text) or True)
    chosen = tmp_path / "office" / "printouts"
    monkeypatch.setattr(dialogs, "choose_folder", lambda *_a: str(chosen))
    main_window.folder_action.trigger()
    assert str(settings.default_document_folder()) in said[0]
    assert settings.document_folder() == chosen and chosen.is_dir()
    filed = exports.file_pdf(None, "Print route sheet", "route-ada-2026-03-02", write_page("E"))
    assert filed == chosen / YEAR / "Route sheets" / "route-ada-2026-03-02.pdf"


def test_ctrl_p_prints_the_treasurer_s_reconciliation_and_the_deposit_list(
    qtbot: QtBot, main_window: MainWindow, printer: Printer, no_save_as: list[str]
) -> None:
    window = main_window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    treasurer = window.show_section("Treasurer")
    treasurer.show_page("reconciliation")
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert len(printer.asked) == 1  # the print dialog, once, for every page of it
    filed = list((settings.document_folder() / YEAR / "Reports").glob("reconciliation-*.pdf"))
    # The current month to date, as the page opens on it.
    assert len(filed) == 1
    assert "Treasurer's reconciliation, 03/01/2026 – 03/02/2026" in text_of(filed[0])
    window.show_section("Deposits")
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert len(printer.asked) == 2
    assert list((settings.document_folder() / YEAR / "Reports").glob("street-deposits-*.pdf"))
    # No licence chosen: the list of licences shown is printed.
    window.show_section("Licences & condemnations")
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert len(printer.asked) == 3
    listed = list((settings.document_folder() / YEAR / "Reports").glob("licences-*.pdf"))
    assert len(listed) == 1 and "Licences" in text_of(listed[0])
    assert no_save_as == []
