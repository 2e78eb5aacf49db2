"""The Reports section (issue 8): choose a report and its period, see when it is due, make it in
the background with a progress bar and Cancel, preview it, and save the Excel and PDF files."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader
from pytestqt.qtbot import QtBot

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.reports import report_citations
from desk.errors import ValidationError
from tests.db.test_reports import Office, _office
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.presenters import reports as pr
from ui.presenters.views import parse_view
from ui.views import reports as view_module
from ui.views.reports import ReportsView

GLENDALE = report_citations("glendale")


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    db = open_database(sqlite_url(tmp_path_factory.mktemp("reports") / "office.db"))
    try:
        yield _office(db)
    finally:
        db.close()


@pytest.fixture
def view(qtbot: QtBot, office: Office) -> ReportsView:
    application()
    session = make_session(office.db, office.reg.admin)
    widget = ReportsView(office.db, session, FixedClock(date(2026, 1, 5)))
    qtbot.addWidget(widget)
    widget.resize(1100, 760)
    widget.show()
    return widget


# --------------------------------------------------------------------------- the presenter


def test_the_presenter_starts_on_last_month_and_says_when_it_is_due() -> None:
    p = pr.ReportsPresenter(lambda: date(2026, 1, 5), True, "the City of Glendale", GLENDALE)
    assert (p.key, p.year, p.month) == ("monthly", 2025, 12)
    assert p.due_text == (
        "Monthly permit report: due Saturday 01/10/2026 (in 5 days) — 15.1.74(b), 15.1.34(b)(8)"
    )
    p.choose("electrical_annual")
    assert (p.year, p.uses_month, p.offers_register) == (2025, False, True)
    assert "before" not in p.due_text and "02/28/2026" in p.due_text
    p.choose("act211")
    assert p.due_text.startswith("Act 211 filing of new dwelling permits with the state: due")
    p.choose("c404")
    assert p.offers_whole_year and p.uses_month
    p.whole_year = True
    assert not p.uses_month
    p.choose("blds")
    assert not p.makes_files and not p.uses_year


def test_a_month_still_to_come_is_refused_naming_the_month() -> None:
    p = pr.ReportsPresenter(lambda: date(2026, 1, 5), True, "the City of Glendale", GLENDALE)
    p.year, p.month = 2026, 2
    with pytest.raises(ValidationError, match="month: is still to come"):
        p.request()
    p.year = 1980
    with pytest.raises(ValidationError, match="year: must be between 1990 and 2026"):
        p.request()


def test_each_report_in_the_list_shows_its_next_due_date() -> None:
    today = date(2026, 1, 5)
    assert pr.due_line("monthly", today, True, GLENDALE) == "December 2025: due 01/10/2026"
    assert pr.due_line("act211", today, True, GLENDALE) == "December 2025: due 01/15/2026"
    assert pr.due_line("electrical_annual", today, True, GLENDALE) == "2025: due 02/28/2026"
    assert pr.due_line("annual", today, True, GLENDALE) == "Yearly, to the Council (15.1.6(c))"


def test_reports_views_are_named_for_screenshots() -> None:
    assert parse_view("reports").tab == "annual"
    assert parse_view("reports:c404").tab == "c404"
    with pytest.raises(ValueError, match="unknown report 'weekly'"):
        parse_view("reports:weekly")


# --------------------------------------------------------------------------- the view


def test_the_reports_section_is_in_the_main_window(main_window: MainWindow) -> None:
    assert "Reports" in main_window.section_titles()
    shown = main_window.show_section("Reports")
    assert shown is main_window.reports_view


def test_the_annual_report_is_made_previewed_and_saved(
    view: ReportsView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view.select("annual")
    assert view.year.value() == 2025 and not view.month.isVisible()
    assert "ordinance sets no day" in view.due.text()
    assert not view.save_pdf.isEnabled()
    out = view.make_now()
    assert out is not None and out.pdf is not None and out.pdf.exists()
    pages = len(PdfReader(str(out.pdf)).pages)
    assert view.preview_stack.currentWidget() is view.pdf_preview
    assert view.pdf_preview.page_count == pages
    assert view.pdf_preview.page_label.text() == f"Page 1 of {pages}"
    first = " ".join(view.pdf_preview.text_of_page(0).split())
    assert first.startswith("City of Glendale Department of Building Inspection")
    assert "Annual report of the Building Inspector — 2025" in first
    assert "$614.00" in "".join(view.pdf_preview.text_of_page(n) for n in range(pages))
    assert view.save_pdf.isEnabled() and view.save_xlsx.isEnabled()
    target = tmp_path / "council"
    monkeypatch.setattr(dialogs, "choose_file", lambda *a, **k: str(target))
    saved = view.save(".xlsx")
    assert saved == tmp_path / "council.xlsx"
    wb = load_workbook(saved)
    assert wb.properties.title == "Annual report to the Common Council — 2025"
    pdf = view.save(".pdf")
    assert pdf is not None and len(PdfReader(str(pdf)).pages) >= 4
    assert view.status.text() == f"Saved {pdf}"
    opened: list[Any] = []
    monkeypatch.setattr(dialogs, "open_file", lambda path: opened.append(path) or True)
    view.open_button.click()
    assert opened == [out.pdf]


def test_the_work_runs_in_the_background_with_a_progress_bar(
    qtbot: QtBot, view: ReportsView
) -> None:
    view.select("c404")
    view.whole_year.setChecked(True)
    with qtbot.waitSignal(view.finished, timeout=60_000) as blocker:
        view.make()
        assert view.progress.isVisible() and view.cancel_button.isVisible()
        assert not view.make_button.isEnabled()
    out = blocker.args[0]
    assert out.title == "Census Bureau Form C-404 — 2025"
    assert not view.progress.isVisible() and view.make_button.isEnabled()
    assert "Five-or-more-unit buildings" in view.pdf_preview.text_of_page(0)


def test_the_report_is_printed_page_by_page_from_the_print_dialog(
    view: ReportsView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtPrintSupport import QPrinter

    from ui import pdf as pdf_module

    view.select("c404")
    view.whole_year.setChecked(True)
    assert not view.print_button.isEnabled()
    out = view.make_now()
    assert out is not None and out.pdf is not None and view.print_button.isEnabled()
    pages = len(PdfReader(str(out.pdf)).pages)
    printed = tmp_path / "printed.pdf"
    asked: list[int] = []

    def to_a_file(parent: Any, printer: QPrinter, count: int) -> bool:
        asked.append(count)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(printed))
        return True

    monkeypatch.setattr(pdf_module, "choose_printer", to_a_file)
    assert view.print_report() == pages
    assert asked == [pages]
    assert len(PdfReader(str(printed)).pages) == pages
    assert view.status.text() == f"Sent {pages} page{'s' if pages != 1 else ''} to the printer."
    # A copy is filed in the document folder (Reports) as it goes to the printer.
    from datetime import date

    from ui import settings

    (filed,) = (settings.document_folder() / str(date.today().year) / "Reports").glob("*.pdf")
    assert len(PdfReader(str(filed)).pages) == pages
    # Cancelling the print dialog sends nothing and says nothing.
    monkeypatch.setattr(pdf_module, "choose_printer", lambda *a: False)
    assert view.print_report() == 0


def test_cancel_stops_the_work_and_writes_nothing(qtbot: QtBot, view: ReportsView) -> None:
    view.select("monthly")
    view.make()
    view.cancel()
    qtbot.waitUntil(lambda: not view.presenter.running, timeout=60_000)
    assert view.presenter.output is None
    assert view.status.text() == "Cancelled: nothing was written."
    assert not view.save_pdf.isEnabled()


def test_a_period_still_to_come_is_named_under_the_period(view: ReportsView) -> None:
    view.select("act211")
    view.year.setValue(2026)
    view.month.setCurrentIndex(2)  # March 2026, after the clock's January 5
    assert view.make_now() is None
    assert view.error.isVisible()
    assert view.error.text() == "Month: is still to come; choose this month or an earlier one"


def test_the_blds_files_go_to_the_folder_chosen(
    view: ReportsView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view.select("blds")
    assert view.make_button.text() == "&Export to a folder…"
    assert not view.save_pdf.isVisible()
    monkeypatch.setattr(view_module, "choose_folder", lambda *a: str(tmp_path / "open-data"))
    out = view.make_now()
    assert out is not None
    assert sorted(p.name for p in (tmp_path / "open-data").iterdir()) == [
        "contractors.csv",
        "inspections.csv",
        "permits.csv",
    ]
    assert view.preview_stack.currentWidget() is view.words
    assert "6 permits" in view.words.toPlainText()
    assert not view.print_button.isVisible()


def test_an_act_211_filing_is_recorded_from_the_reports_section(
    view: ReportsView, monkeypatch: pytest.MonkeyPatch
) -> None:
    view.select("act211")
    assert view.filing_button.isVisible()
    answers = iter(
        [
            ("2025-9999", date(2025, 3, 14)),  # no such permit: the dialog says so and stays
            ("2025-0001", date(2025, 3, 14)),
        ]
    )
    shown: list[str] = []

    def fill(dialog: view_module.FilingDialog) -> int:
        if dialog.error.text():
            shown.append(dialog.error.text())
        try:
            number, filed = next(answers)
        except StopIteration:
            return view_module.QDialog.DialogCode.Rejected
        dialog.number.setText(number)
        dialog.filed.setDate(view_module.to_qdate(filed))
        return view_module.QDialog.DialogCode.Accepted

    monkeypatch.setattr(view_module.FilingDialog, "exec", fill)
    words = view.record_filing()
    assert shown == ["Permit: no permit numbered '2025-9999'"]
    assert words == "Permit 2025-0001 filed with the state on 03/14/2025."
    assert view.status.text() == words


def test_the_preview_zooms_and_comes_back_to_the_whole_page(view: ReportsView) -> None:
    from PySide6.QtPdfWidgets import QPdfView

    view.select("monthly")
    assert view.make_now() is not None
    preview = view.pdf_preview
    assert preview.view.zoomMode() == QPdfView.ZoomMode.FitInView
    preview.zoom_in.click()
    assert preview.view.zoomMode() == QPdfView.ZoomMode.Custom
    larger = preview.view.zoomFactor()
    preview.zoom_out.click()
    assert preview.view.zoomFactor() < larger
    preview.fit_to_width.click()
    assert preview.view.zoomMode() == QPdfView.ZoomMode.FitToWidth
    preview.fit.click()
    assert preview.view.zoomMode() == QPdfView.ZoomMode.FitInView
    # Choosing another period clears the preview until the report is made again.
    view.month.setCurrentIndex(0)
    assert preview.page_count == 0 and view.preview_stack.currentWidget() is view.words
