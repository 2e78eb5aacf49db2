"""Case inspections on the Day page (Hudson 140-3): listed beside the permit stops; Enter or a
double-click opens the case window; Record result opens the case's inspection step, whose
recording makes the visit done; the stops move along the route; the case window's Schedule
inspection step puts a re-inspection on the earliest open correction date (140-3A(3))."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db import enforcement_queries as eq
from db import inspection_queries as iq
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import Channel, VisitPurpose, VisitStatus
from desk.services.enforcement import complaints, inspections
from desk.services.enforcement import visits as svc
from tests.db.enforcement_setup import Office, office
from ui import dialogs
from ui.app import application, make_session
from ui.enforcement.window import CaseWindow
from ui.main_window import MainWindow
from ui.permit import actions
from ui.views import enforcement_dialogs as d
from ui.views.inspections import SECTION_TITLE, InspectionsView

TODAY = date(2026, 3, 2)


@pytest.fixture
def o(empty_database: Database) -> Office:
    return office(empty_database, FixedClock(TODAY))


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[QDialog]:
    """Each step's dialog, OK pressed as shown (its defaults)."""
    seen: list[QDialog] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: pytest.fail(text))

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        return bool(dialog.submit())  # type: ignore[attr-defined]

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def _complaint(o: Office, parcel_id: int) -> int:
    return complaints.take_complaint(
        o.db.uow(),
        o.clock,
        o.clerk,
        o.mid,
        parcel_id,
        Channel.PHONE,
        "Rear porch stairs broken",
        complainant_name="Nellie Neighbour",
    ).case.case_id


def _window(qtbot: QtBot, o: Office) -> tuple[MainWindow, InspectionsView]:
    application()
    window = MainWindow(
        o.db, make_session(o.db, o.inspector), remember_geometry=False, clock=o.clock
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, InspectionsView)
    view.pages.setCurrentIndex(1)
    view.load()
    return window, view


def test_a_case_stop_is_on_the_day_and_opens_the_case_window(
    qtbot: QtBot, o: Office, ran: list[QDialog]
) -> None:
    first = _complaint(o, o.parcel_id)
    second = _complaint(o, o.parcel("047-0001-002", "414"))
    a = svc.schedule_visit(o.db.uow(), o.clock, o.clerk, first, inspector_id=o.inspector.user_id)
    svc.schedule_visit(
        o.db.uow(), o.clock, o.inspector, second, time="9:30", notes="Dog in the yard"
    )
    window, view = _window(qtbot, o)
    rows = [r.cells for r in view.day.rows]
    assert [(c[0], c[1], c[2], c[3], c[4], c[5]) for c in rows] == [
        ("1", "", "412 Vine St", "CE-2026-0001", "Code enforcement: inspection (140-2)", ""),
        ("2", "9:30 AM", "414 Vine St", "CE-2026-0002", "Code enforcement: inspection (140-2)", ""),
    ]
    assert "Complaint: Rear porch stairs broken" in rows[1][7]
    assert "Dog in the yard" in rows[1][7]
    assert not any("Nellie" in cell for c in rows for cell in c)
    # The week shows them on the inspector's Monday too.
    row = view.week.inspector_ids.index(o.inspector.user_id)
    assert view.week.cell_text(row, 0).splitlines() == [
        "1. 412 Vine St — Code enforcement: inspection (140-2)",
        "2. 414 Vine St — Code enforcement: inspection (140-2)",
    ]

    # Move down: the first stop after the second, both numbered again.
    view.day_table.setFocus()
    view.day_table.selectRow(0)
    view.move_stop(1)
    assert [r.cells[3] for r in view.day.rows] == ["CE-2026-0002", "CE-2026-0001"]
    assert [r.stop.position for r in view.day.rows] == [1, 2]

    # Enter on a case stop: the case's window, not a permit.
    view.day_table.selectRow(1)
    qtbot.keyClick(view.day_table, Qt.Key.Key_Return)
    case_window = window.enforcement_view.case_windows.get(first)
    assert isinstance(case_window, CaseWindow) and case_window.isVisible()
    case_window.close()

    # Record result: the case window's inspection step; recorded, the visit is done.
    view.day_table.selectRow(1)
    view.result_button.click()
    assert [type(x) for x in ran] == [d.InspectionDialog]
    with o.db.read() as conn:
        [done] = [x for x in iq.case_visits(conn, first)]
        timeline = [e.text for e in eq.timeline(conn, first)]
    assert done.status is VisitStatus.DONE and done.id == a.visit_id
    assert done.inspection_id is not None
    assert "Inspection scheduled with Ivan Inspector: done" in timeline
    # Double-click opens the case too.
    view.day_table.doubleClicked.emit(view.day_model.index(0, 2))
    assert second in window.enforcement_view.case_windows


def test_the_schedule_step_puts_a_reinspection_on_the_earliest_correction_date(
    qtbot: QtBot, o: Office, ran: list[QDialog]
) -> None:
    case_id = _complaint(o, o.parcel_id)
    inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        TODAY,
        found=[
            inspections.FoundViolation("140-6C", unit="1", correct_by=date(2026, 3, 20)),
            inspections.FoundViolation("140-5A", room="bedroom", correct_by=date(2026, 3, 16)),
        ],
    )
    window, _view = _window(qtbot, o)
    case_window = window.enforcement_view.open_case(case_id)
    assert case_window.steps["schedule"].may == (True, "")
    assert case_window.run_step("schedule")
    [dialog] = ran
    assert isinstance(dialog, d.ScheduleVisitDialog)
    assert dialog.purpose.currentData() == VisitPurpose.REINSPECTION.value
    with o.db.read() as conn:
        [visit] = iq.case_visits(conn, case_id)
        stops = iq.inspector_day(conn, o.inspector.user_id, date(2026, 3, 16), cases=True)
    assert (visit.purpose, visit.scheduled_on, visit.inspector_id) == (
        VisitPurpose.REINSPECTION,
        date(2026, 3, 16),
        o.inspector.user_id,
    )
    assert [s.permit_number for s in stops] == ["CE-2026-0001"]
    assert "Re-inspection scheduled with Ivan Inspector" in case_window.timeline_texts()
    # Again: the dialog moves the visit scheduled (or calls it off with the reason).
    case_window.run_step("schedule")
    second = ran[-1]
    assert isinstance(second, d.ScheduleVisitDialog) and second.visit is not None
    # Called off from the dialog: cancelled, the reason on the timeline.
    assert case_window.facts is not None
    off = d.ScheduleVisitDialog(case_window.context, case_window.facts, case_window)
    off.call_off.setChecked(True)
    off.notes.setText("Tenant away until April")
    assert off.submit()
    case_window.reload()
    assert (
        "Re-inspection scheduled with Ivan Inspector: cancelled: Tenant away until April"
        in case_window.timeline_texts()
    )


def test_needs_attention_lists_the_case_stops_of_the_day_and_opens_the_day(
    qtbot: QtBot, o: Office
) -> None:
    """The inspector's "Today's inspections" counts the case inspections too: a day of three
    case visits is not "nothing waiting"."""
    first = _complaint(o, o.parcel_id)
    svc.schedule_visit(o.db.uow(), o.clock, o.inspector, first, time="9:30")
    window, _view = _window(qtbot, o)
    window.show_home()
    window.home_view.load()
    groups = {g.key: g for g in window.home_view.groups}
    [item] = groups["inspections_today"].items
    assert item.what == "CE-2026-0001 · 412 Vine St"
    assert item.why == "Code enforcement: inspection (140-2), 9:30 AM"
    assert item.section == SECTION_TITLE and item.permit_id is None
    assert "Nellie" not in item.what + item.why  # the complainant stays confidential
