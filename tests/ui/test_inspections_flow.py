"""Acceptance (issue 7): the clerk takes a phone request for the footing inspection and puts it
on the inspector's day; the inspector rejects it from the keyboard with a correction order and
its written notice, passes the re-inspection (the $70.00 re-inspection fee), then the final, and
prints the certificate of occupancy naming the permit and the use (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db import inspection_queries as iq
from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PermitStatus
from desk.domain.inspections import Result
from desk.domain.model import Actor
from desk.services import inspections as svc
from desk.services import permits
from desk.services.inspections import RequestInput, ResultInput
from tests.factories import Register, make_issuable, seed_register
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.permit.base import PermitContext
from ui.permit.inspections import (
    CertificateDialog,
    InspectionsTab,
    RequestDialog,
    ResultDialog,
    ScheduleDialog,
)
from ui.presenters.views import parse_view
from ui.views.common import to_qdate
from ui.views.inspections import SECTION_TITLE, InspectionsView

NUMBER = "2026-0001"
MONDAY = date(2026, 3, 23)


class Seen:
    def __init__(self) -> None:
        self.told: list[str] = []
        self.asked: list[str] = []
        self.saved: list[Path] = []
        self.warnings: list[str] = []


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Seen:
    s = Seen()
    monkeypatch.setattr(dialogs, "inform", lambda _p, _t, text: s.told.append(text))
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: s.warnings.append(text))

    def ask(_parent: object, _title: str, question: str, **_kw: object) -> bool:
        s.asked.append(question)
        return True

    def choose_file(_parent: object, _caption: str, _filter: str = "", **kw: str) -> str:
        path = tmp_path / Path(kw["directory"]).name
        s.saved.append(path)
        return str(path)

    monkeypatch.setattr(dialogs, "ask", ask)
    monkeypatch.setattr(dialogs, "choose_file", choose_file)
    # A PDF printout is filed without a Save-as dialog: what is shown is what was saved.
    monkeypatch.setattr(
        dialogs,
        "show_file",
        lambda _p, path, _t: s.saved.append(Path(path)) if Path(path).suffix == ".pdf" else None,
    )
    return s


def fill_with(monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]) -> None:
    """Each dialog is filled in by `fill` and OK pressed (instead of a modal exec)."""

    def run(dialog: QDialog) -> bool:
        fill(dialog)
        assert isinstance(dialog, actions.ActionDialog)
        return dialog.submit()

    monkeypatch.setattr(actions, "exec_dialog", run)


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


WINDOWS: list[MainWindow] = []  # kept alive while the test drives their views


def section(qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor) -> InspectionsView:
    application()
    window = MainWindow(
        database, make_session(database, actor), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    WINDOWS.append(window)
    window.resize(1280, 800)
    window.show()
    window.load()
    assert "Inspections" in window.section_titles()
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, InspectionsView)
    return view


def test_a_phone_request_becomes_a_rejection_a_paid_reinspection_a_final_and_a_certificate(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    seen: Seen,
) -> None:
    reg: Register = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    assert permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id) == NUMBER
    location = svc.request_inspection(
        database.uow(), clock, reg.clerk, RequestInput(reg.permit_id, "BLD-LOCATION", "Mike")
    )
    svc.record_result(
        database.uow(), clock, reg.inspector, ResultInput(location.inspection_id, Result.PASSED)
    )
    with database.read() as conn:
        ivan = iq.user_by_name(conn, "ivan")
    assert ivan is not None

    # --- the clerk takes the call (Ctrl+R) and schedules it for Monday -------------------------
    clock.set(date(2026, 3, 20))
    clerk_view = section(qtbot, database, clock, reg.clerk)

    def clerk_fills(dialog: QDialog) -> None:
        if isinstance(dialog, RequestDialog):
            dialog.finder.setText("2026-0001")
            assert dialog.choose_permit_text("2026-0001")
            assert dialog.type_combo.currentData() == "BLD-FOOTINGS"  # what comes next, first
            dialog.caller.setText("Mike Kowalczyk")
            dialog.phone.setText("(414) 555-0142")
            dialog.time.setCurrentText("AM")
        elif isinstance(dialog, ScheduleDialog):
            dialog.inspector.setCurrentIndex(dialog.inspector.findData(ivan[0]))
            dialog.day.setDate(to_qdate(MONDAY))

    fill_with(monkeypatch, clerk_fills)
    clerk_view.window().activateWindow()
    qtbot.waitUntil(lambda: clerk_view.window().isActiveWindow(), timeout=2000)
    clerk_view.requests_table.setFocus()
    qtbot.keyClick(clerk_view.requests_table, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    # Said on the status line: no box to dismiss after every call.
    assert seen.warnings == [] and seen.told == [], (seen.warnings, seen.told)
    status = clerk_view.window().statusBar().currentMessage()  # type: ignore[attr-defined]
    assert status.startswith("Footings and foundation requested.")
    (row,) = clerk_view.requests.rows
    assert row.cells[1:5] == (
        NUMBER,
        "6120 N Port Washington Rd",
        "Footings and foundation",
        "Mike Kowalczyk",
    )
    assert row.cells[7] == "03/23/2026 — Ivan Inspector"

    # --- Monday: the inspector rejects it from the keyboard ------------------------------------
    clock.set(MONDAY)
    view = section(qtbot, database, clock, reg.inspector)
    view.pages.setCurrentIndex(1)
    view.inspector_combo.setCurrentIndex(view.inspector_combo.findData(ivan[0]))
    view.day_date.setDate(to_qdate(MONDAY))
    assert [r.cells[2:5] for r in view.day.rows] == [
        ("6120 N Port Washington Rd", NUMBER, "Footings and foundation")
    ]

    def inspector_fills(dialog: QDialog) -> None:
        if isinstance(dialog, ResultDialog):
            if dialog.chosen is Result.REJECTED:
                assert dialog.correct_by.date().toPython() == date(2026, 4, 22)  # 30 days
                dialog.items.setPlainText("Add #4 rebar at the north footing")
        elif isinstance(dialog, RequestDialog):
            dialog.caller.setText("Mike Kowalczyk")
        elif isinstance(dialog, ScheduleDialog):
            dialog.day.setDate(to_qdate(MONDAY))
        elif isinstance(dialog, CertificateDialog):
            # The re-inspection fee is unpaid: said, and the certificate does not wait for it.
            assert dialog.balance_note.startswith("$70.00 is still due on this permit.")
            assert dialog.balance_note in dialog.note.text()
            dialog.use.setText("Single-family dwelling (R-3) with attached garage")

    fill_with(monkeypatch, inspector_fills)
    view.day_table.setFocus()
    view.day_table.selectRow(0)
    qtbot.keyClick(view.day_table, Qt.Key.Key_R)
    assert "Correction order: correct by 04/22/2026." in seen.told[-1]
    notice = seen.saved[-1]
    assert notice.name == f"correction-order-{NUMBER}-1.pdf"
    assert "Correct by 04/22/2026" in pdf_text(notice)
    assert "Add #4 rebar at the north footing" in pdf_text(notice)
    view.pages.setCurrentIndex(3)
    assert [r.cells[2] for r in view.orders.rows] == [NUMBER]

    # --- the re-inspection, requested from the permit, passes: the fee is added ----------------
    tab = InspectionsTab(PermitContext(database, view.session, reg.permit_id, clock))
    qtbot.addWidget(tab)
    tab.refresh()
    assert tab.next_label.text().startswith("Next: Footings and foundation")
    request = tab.request_inspection()
    assert request is not None and request.type_combo.currentData() == "BLD-FOOTINGS"
    view.load()
    view.pages.setCurrentIndex(1)
    view.day_table.selectRow(0)
    view.schedule(request.request.inspection_id, reg.permit_id, "Re-inspection")  # type: ignore[union-attr]
    view.pages.setCurrentIndex(1)
    view.load_day()
    assert [r.cells[4] for r in view.day.rows] == ["Footings and foundation"] * 2
    view.day_table.setFocus()
    view.day_table.selectRow(1)
    qtbot.keyClick(view.day_table, Qt.Key.Key_P)
    assert "$70.00 added to the permit: Re-inspection of Footings and foundation" in seen.told[-1]
    view.pages.setCurrentIndex(3)
    assert view.orders.rows == []  # corrected by the re-inspection

    # --- the other stages (by the services), then the final from the day page ---------------
    for code in ("BLD-FRAMING", "BLD-BASEMENT-FLOOR"):
        r = svc.request_inspection(
            database.uow(), clock, reg.clerk, RequestInput(reg.permit_id, code, "Mike")
        )
        svc.record_result(
            database.uow(), clock, reg.inspector, ResultInput(r.inspection_id, Result.PASSED)
        )
    final = svc.request_inspection(
        database.uow(), clock, reg.clerk, RequestInput(reg.permit_id, "BLD-FINAL", "Mike")
    )
    svc.schedule_inspection(database.uow(), clock, reg.clerk, final.inspection_id, ivan[0], MONDAY)
    view.pages.setCurrentIndex(1)
    view.load_day()
    view.day_table.setFocus()
    view.day_table.selectRow(2)
    qtbot.keyClick(view.day_table, Qt.Key.Key_P)
    assert "The permit is completed as of 03/23/2026." in seen.told[-2]
    assert seen.asked[-1].startswith("The final inspection passed. Issue the certificate")
    assert seen.told[-1] == (
        "Certificate 2026-0001 is issued. $70.00 is still due on this permit. The certificate "
        "does not wait for it (15.1.13); the counter collects it."
    )
    certificate = seen.saved[-1]
    assert certificate.name == "certificate-of-occupancy-2026-0001.pdf"
    text = pdf_text(certificate)
    assert NUMBER in text and "Single-family dwelling (R-3) with attached garage" in text
    assert "Certificate of Occupancy" in text and "No. 2026-0001" in text
    with database.read() as conn:
        detail = queries.permit_detail(conn, reg.permit_id)
    assert detail is not None and detail.status is PermitStatus.COMPLETED
    assert detail.completed_on == MONDAY
    assert seen.warnings == []


def test_the_view_argument_names_the_inspections_pages() -> None:
    assert parse_view("inspections").tab == "requests"
    assert parse_view("inspections:day").section == "inspections"
    assert parse_view("permit:2026-0001:inspections").tab == "inspections"
    with pytest.raises(ValueError, match="pages: requests, day, week, orders"):
        parse_view("inspections:month")


def test_the_day_page_saves_the_route_sheet_as_pdf_and_the_route_as_a_workbook(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    seen: Seen,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from openpyxl import load_workbook

    from ui import pdf as pdf_module

    reg: Register = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    assert permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id) == NUMBER
    with database.read() as conn:
        ivan = iq.user_by_name(conn, "ivan")
    assert ivan is not None
    location = svc.request_inspection(
        database.uow(), clock, reg.clerk, RequestInput(reg.permit_id, "BLD-LOCATION", "Mike")
    )
    svc.schedule_inspection(
        database.uow(), clock, reg.clerk, location.inspection_id, ivan[0], MONDAY
    )
    view = section(qtbot, database, clock, reg.inspector)
    view.pages.setCurrentIndex(1)
    view.inspector_combo.setCurrentIndex(view.inspector_combo.findData(ivan[0]))
    view.day_date.setDate(to_qdate(MONDAY))

    pdf = view.print_route()
    assert pdf is not None and pdf.name == "route-ivan-inspector-2026-03-23.pdf"
    text = pdf_text(pdf)
    assert "Route sheet — Ivan Inspector, Monday 03/23/2026" in text
    assert "6120 N Port Washington Rd" in text and NUMBER in text
    xlsx = view.export_route()
    assert xlsx is not None and xlsx.name == "route-ivan-inspector-2026-03-23.xlsx"
    ws = load_workbook(xlsx).active
    assert ws is not None
    assert [c.value for c in ws[4]][:5] == [
        1,
        None,
        "6120 N Port Washington Rd",
        NUMBER,
        "Location",
    ]
    assert seen.saved == [pdf, xlsx]

    # Ctrl+P (File ▸ Print) on the Day page: the route sheet straight to the print dialog,
    # filed beside the first one, never over it.
    asked: list[int] = []
    monkeypatch.setattr(pdf_module, "choose_printer", lambda _p, _pr, n: asked.append(n))
    assert view.print_current() and asked == [1]
    assert pdf.with_name("route-ivan-inspector-2026-03-23 (2).pdf").exists()
    assert pdf.parent.name == "Route sheets"
    view.pages.setCurrentIndex(0)
    assert not view.print_current()  # the requests page has no printout
