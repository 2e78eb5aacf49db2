"""The Inspections section of a municipality with code enforcement only (the City of Hudson,
ch. 140; no permit kinds): it opens on the Day page with the case stops; the Requests and
Correction orders pages and New request… (Ctrl+R) are not there. Glendale's is unchanged."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import Channel
from desk.services.enforcement import complaints
from desk.services.enforcement import visits as svc
from tests.db.enforcement_setup import Office
from tests.factories import open_office
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.views.inspections import SECTION_TITLE, InspectionsView

TODAY = date(2026, 3, 2)  # a Monday


def _office(db: Database, key: str) -> Office:
    clock = FixedClock(TODAY)
    admin, mid, (clerk, inspector) = open_office(db, clock, key, ("carol", "ivan"))
    o = Office(db, clock, admin, clerk, inspector, mid, 0)
    o.parcel_id = o.parcel("047-0001-001", "412")
    case_id = complaints.take_complaint(
        o.db.uow(), o.clock, o.clerk, o.mid, o.parcel_id, Channel.PHONE, "No heat upstairs"
    ).case.case_id
    svc.schedule_visit(o.db.uow(), o.clock, o.inspector, case_id, time="9:30")
    return o


def _view(qtbot: QtBot, o: Office) -> tuple[MainWindow, InspectionsView]:
    application()
    window = MainWindow(
        o.db, make_session(o.db, o.inspector), remember_geometry=False, clock=o.clock
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, InspectionsView)
    view.load()
    return window, view


def _tabs(view: InspectionsView) -> list[str]:
    return [
        view.pages.tabText(i).replace("&", "")
        for i in range(view.pages.count())
        if view.pages.isTabVisible(i)
    ]


def _header(view: InspectionsView) -> list[str]:
    m = view.day_table.model()
    return [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]


def test_hudson_opens_on_the_day_with_its_case_stops_and_no_permit_requests(
    qtbot: QtBot, empty_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QDialog] = []
    monkeypatch.setattr(actions, "exec_dialog", lambda dialog: opened.append(dialog))
    o = _office(empty_database, "hudson")
    window, view = _view(qtbot, o)
    assert _tabs(view) == ["Day", "Week"]
    assert view.pages.currentIndex() == 1 and view.pages.currentWidget().isVisible()
    assert not view.new_button.isVisible()
    assert not view.visits_button.isVisibleTo(window)
    assert not view.open_request_button.isVisibleTo(window)
    assert [(r.cells[1], r.cells[3]) for r in view.day.rows] == [("9:30 AM", "CE-2026-0001")]
    assert _header(view)[3] == "Permit / case"
    # The permit result keys do not apply to a case stop: its result is the case's inspection.
    assert view.day_summary.text().endswith(
        "1 stop, 1 to go. Enter opens the case to record the inspection."
    )
    view.pages.setCurrentIndex(0)  # asked for the Requests by name: the Day instead
    assert view.pages.currentIndex() == 1
    # Ctrl+R: nothing to request an inspection of; no dialog, no error.
    view.day_table.setFocus()
    qtbot.keyClick(view.day_table, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert view.new_request() is None and opened == []


def test_glendale_keeps_its_requests_page_and_new_request(
    qtbot: QtBot, empty_database: Database
) -> None:
    o = _office(empty_database, "glendale")
    window, view = _view(qtbot, o)
    assert _tabs(view) == ["Requests", "Day", "Week", "Correction orders"]
    assert view.pages.currentIndex() == 0
    assert view.new_button.isVisible()
    assert view.visits_button.isVisibleTo(window)
    view.pages.setCurrentIndex(1)
    assert [(r.cells[1], r.cells[3]) for r in view.day.rows] == [("9:30 AM", "CE-2026-0001")]
    assert _header(view)[3] == "Permit / case"
