"""Documents printed from the app (a permit card, a receipt, a notice, a quote) open in the
app's own PDF window, ready to print with Ctrl+P; a workbook opens in the system's program."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtPrintSupport import QPrinter
from pytestqt.qtbot import QtBot

from reports.report_pdf import Col, Pdf
from tests.reports.test_report_tables import HEADING
from ui import dialogs
from ui import pdf as pdf_module
from ui.pdf import PdfWindow


@pytest.fixture
def two_pages(tmp_path: Path) -> Path:
    pdf = Pdf(HEADING, "Register")
    pdf.table([Col("Permit", 1.0)], [[f"2026-{k:04d}"] for k in range(1, 90)])
    out = tmp_path / "register.pdf"
    pdf.build(out)
    assert len(PdfReader(str(out)).pages) == 2
    return out


def _windows() -> list[PdfWindow]:
    return list(PdfWindow.showing)


def test_a_pdf_is_shown_in_the_app_and_printed_from_there(
    qtbot: QtBot, two_pages: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialogs.show_file(None, two_pages, "Permit card 2026-0002")
    window = next(w for w in _windows() if w.path == two_pages)
    qtbot.addWidget(window)
    assert window.windowTitle() == "Permit card 2026-0002" and window.isVisible()
    assert window.preview.page_label.text() == "Page 1 of 2"
    assert "2026-0001" in window.preview.text_of_page(0)
    printed = tmp_path / "printed.pdf"

    def to_a_file(_parent: Any, printer: QPrinter, pages: int) -> bool:
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(printed))
        printer.setFromTo(2, 2)  # the clerk asks for page 2 only
        return True

    monkeypatch.setattr(pdf_module, "choose_printer", to_a_file)
    assert window.print_document() == 1
    assert len(PdfReader(str(printed)).pages) == 1
    assert window.status.text() == "Sent 1 page to the printer."
    window.close()  # Esc or Close: the window is let go
    assert window not in _windows()


def test_a_workbook_opens_in_the_systems_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    monkeypatch.setattr(dialogs, "open_file", lambda path: opened.append(Path(path)) or True)
    book = tmp_path / "deposits.xlsx"
    book.write_bytes(b"")
    dialogs.show_file(None, book, "Street deposits")
    assert opened == [book]


def test_a_file_that_is_not_a_pdf_goes_to_the_systems_viewer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    monkeypatch.setattr(dialogs, "open_file", lambda path: opened.append(Path(path)) or True)
    broken = tmp_path / "broken.pdf"
    broken.write_text("not a pdf")
    before = len(_windows())
    dialogs.show_file(None, broken, "Receipt")
    assert opened == [broken] and len(_windows()) == before
