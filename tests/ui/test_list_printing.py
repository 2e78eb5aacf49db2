"""Ctrl+P on a list prints the list as the Council reads it: every row the filter matches (all
pages of it), the filter in words, the day and the count, on US Letter; with no printer set up
the filed PDF is opened in the system's viewer instead of Qt's Print-to-File dialog."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSizeF, Qt
from PySide6.QtGui import QPageLayout, QPageSize
from PySide6.QtPrintSupport import QPrinter, QPrinterInfo
from pytestqt.qtbot import QtBot

from desk.services import permits
from tests.factories import make_issuable
from tests.ui.sample import ISSUED_NUMBER, Sample
from ui import dialogs, settings
from ui import pdf as pdf_module
from ui.main_window import MainWindow
from ui.pdf import choose_printer as system_choose_printer
from ui.views.permits import PermitsView

YEAR = str(date.today().year)
LETTER_POINTS = QSizeF(612, 792)


def pdf_text(path: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True)
    return " ".join(out.stdout.split())


def page_count(path: Path) -> int:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))


class Dialog:
    """The patched print dialog: the printer it was given, accepted into a PDF file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.printers: list[QPrinter] = []

    def __call__(self, _parent: Any, printer: QPrinter, _pages: int) -> bool:
        self.printers.append(printer)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(self.folder / f"printed-{len(self.printers)}.pdf"))
        return True


@pytest.fixture
def dialog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dialog:
    d = Dialog(tmp_path)
    monkeypatch.setattr(pdf_module, "choose_printer", d)
    return d


def issue(sample: Sample, name: str) -> str:
    uow, clock, admin = sample.database.uow(), sample.clock, sample.admin
    make_issuable(sample.database, clock, admin, sample.permit_ids[name])
    return permits.issue_permit(uow, clock, admin, sample.permit_ids[name], issued_on=clock.today())


def press_ctrl_p(qtbot: QtBot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)


def test_ctrl_p_on_the_filtered_permits_list_prints_every_match_with_the_filter_in_words(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, dialog: Dialog
) -> None:
    kowalski, nguyen = issue(sample, "kowalski"), issue(sample, "nguyen")
    main_window.load()
    view = main_window.permits_view
    assert isinstance(view, PermitsView)
    view.presenter.page_size = 1  # the list reads a page at a time: the printout reads them all
    view.filter_bar.applied_from.set_value(date(2026, 2, 20))
    view.filter_bar.applied_to.set_value(date(2026, 2, 26))
    view.apply_filters()
    assert view.presenter.count == 2
    press_ctrl_p(qtbot, main_window)
    assert len(dialog.printers) == 1
    filed = list((settings.document_folder() / YEAR / "Reports").glob("permits-*.pdf"))
    assert len(filed) == 1
    text = pdf_text(filed[0])
    assert "Filter: Applied 02/20/2026 to 02/26/2026. Sorted by applied, descending." in text
    assert "Printed 03/02/2026 — 2 permits" in text
    assert kowalski in text and nguyen in text
    assert "Kowalski" in text and "Nguyen" in text
    assert ISSUED_NUMBER not in text and "Schmidt" not in text  # applied 02/10: not matched
    assert "…" not in text
    # To the printer on Letter, portrait.
    layout = dialog.printers[0].pageLayout()
    assert layout.pageSize().id() == QPageSize.PageSizeId.Letter
    assert layout.orientation() == QPageLayout.Orientation.Portrait
    assert main_window.statusBar().currentMessage() != "Nothing to print here."


def test_every_printer_is_set_to_us_letter_portrait_for_a_letter_document(
    tmp_path: Path, dialog: Dialog
) -> None:
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.pdfgen.canvas import Canvas

    for name, size in (("upright", letter), ("wide", landscape(letter))):
        canvas = Canvas(str(tmp_path / f"{name}.pdf"), pagesize=size)
        canvas.drawString(72, 72, name)
        canvas.save()
        assert pdf_module.print_pdf(None, tmp_path / f"{name}.pdf") == 1
    upright, wide = (p.pageLayout() for p in dialog.printers)
    assert upright.pageSize().id() == QPageSize.PageSizeId.Letter
    assert upright.pageSize().size(QPageSize.Unit.Point) == LETTER_POINTS
    assert upright.orientation() == QPageLayout.Orientation.Portrait
    assert wide.pageSize().id() == QPageSize.PageSizeId.Letter
    assert wide.orientation() == QPageLayout.Orientation.Landscape


def test_with_no_printer_the_filed_pdf_is_opened_and_no_print_dialog_shows(
    qtbot: QtBot, main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdf_module, "choose_printer", system_choose_printer)
    monkeypatch.setattr(QPrinterInfo, "availablePrinters", staticmethod(lambda: []))

    def no_dialog(*_a: Any) -> None:
        raise AssertionError("Qt's print dialog opened")

    monkeypatch.setattr(pdf_module, "QPrintDialog", no_dialog)
    opened: list[Path] = []
    monkeypatch.setattr(dialogs, "open_file", lambda path: opened.append(Path(path)) or True)
    said: list[str] = []
    monkeypatch.setattr(dialogs, "inform", lambda _p, _t, text: said.append(text))
    press_ctrl_p(qtbot, main_window)
    filed = list((settings.document_folder() / YEAR / "Reports").glob("permits-*.pdf"))
    assert opened == filed and len(filed) == 1
    assert said == [
        f"No printer is set up on this computer; the PDF is filed at {filed[0]} and opened."
    ]
    assert "All permits. Sorted by applied, descending." in pdf_text(filed[0])
    assert "5 permits" in pdf_text(filed[0])


def test_ctrl_p_on_the_parcels_list_prints_its_rows_and_search(
    qtbot: QtBot, main_window: MainWindow, dialog: Dialog
) -> None:
    view = main_window.show_section("Parcels")
    view.search.setText("Lake")
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=3000)
    press_ctrl_p(qtbot, main_window)
    assert len(dialog.printers) == 1
    filed = list((settings.document_folder() / YEAR / "Reports").glob("parcels-*.pdf"))
    assert len(filed) == 1, list((settings.document_folder() / YEAR / "Reports").iterdir())
    text = pdf_text(filed[0])
    assert "Search “Lake”" in text
    assert "047-1010-015" in text and "5517 N Lake Dr" in text
    assert "047-9991-002" not in text
    assert page_count(filed[0]) == 1
