"""The "Rooming houses" section and a licence's window, driven from the keyboard (Hudson 140-10):
the clerk types an operator's application with its rooms (Ctrl+N), a mistake in a room keeps
the form open and names the field and the room's row; the inspector opens the inspection case
from the licence's window and records the inspection there; the City Clerk issues the licence
with the receipt for the Council's fee, and the register shows it in force through the
anniversary. The steps follow the roles: the clerk issues, the inspector warns and suspends."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.enforcement.licences import RegisterFilter
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from tests.db.enforcement_setup import Office, office
from tests.db.licence_fee import RECEIPT, set_licence_fee
from ui import dialogs
from ui.app import application, make_session
from ui.permit import actions
from ui.rooming import dialogs as d
from ui.rooming.window import LicenceWindow
from ui.views.rooming import RoomingView

TODAY = date(2026, 3, 2)
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def o(empty_database: Database, clock: FixedClock) -> Office:
    o = office(empty_database, clock)
    set_licence_fee(o)
    return o


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    return said


def view_for(qtbot: QtBot, o: Office, actor: Actor, opened: list[int] | None = None) -> RoomingView:
    application()
    view = RoomingView(
        o.db,
        make_session(o.db, actor),
        o.clock,
        open_case=(lambda cid: opened.append(cid)) if opened is not None else None,
    )
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=2000)
    view.load()
    return view


def typed(qtbot: QtBot, widget: QWidget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def enter(qtbot: QtBot, dialog: QDialog) -> None:
    """Enter in the form's first line: the dialog's default button."""
    edit = next(
        w
        for w in dialog.findChildren(QLineEdit)
        if w.isEnabled() and w.isVisible() and w.objectName()
    )
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def shown(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]
) -> list[QDialog]:
    """The step's dialog shown and handed to `fill`, which types and presses Enter."""
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        fill(dialog)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def cell(qtbot: QtBot, dialog: d.ApplicationDialog, row: int, column: int, text: str) -> None:
    """A cell of the rooms table typed into, and Tab to the next."""
    table = dialog.rooms
    table.setFocus()
    table.setCurrentCell(row, column)
    qtbot.keyClick(table, Qt.Key.Key_F2)  # edit the cell
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)


def window_of(qtbot: QtBot, view: RoomingView) -> LicenceWindow:
    view.table.setFocus()
    view.table.selectRow(0)
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    (window,) = view.licence_windows.values()
    return window


def test_an_empty_register_says_how_to_start(qtbot: QtBot, o: Office) -> None:
    view = view_for(qtbot, o, o.clerk)
    assert view.shown() == []
    assert view.note.text() == (
        "No rooming house licences yet. New application… (Ctrl+N) records an operator's "
        "application (Hudson 140-10A)."
    )
    assert view.new_button.isEnabled()
    assert view.summary.text() == "0 licences: all"
    inspector = view_for(qtbot, o, o.inspector)
    assert not inspector.new_button.isEnabled()
    assert inspector.new_button.toolTip() == "The clerk records applications (Hudson 140-10A)."


def test_an_application_is_inspected_and_issued_and_the_register_shows_it_in_force(
    qtbot: QtBot,
    o: Office,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    qtmodeltester: ModelTester,
) -> None:
    # 1. The clerk types the application (Ctrl+N); a floor area mistyped keeps it open.
    clerk = view_for(qtbot, o, o.clerk)
    errors: list[str] = []

    def application_form(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ApplicationDialog)
        typed(qtbot, dialog.operator, "Rita Roomer")
        typed(qtbot, dialog.operator_address, "5 Oak St, Hudson WI 54016")
        typed(qtbot, dialog.search, "412 Vi")
        assert dialog.parcel.count() == 1
        for box, n in (
            (dialog.persons, "5"),
            (dialog.water_closets, "1"),
            (dialog.lavatories, "1"),
            (dialog.baths, "1"),
        ):
            box.setFocus()
            box.selectAll()
            qtbot.keyClicks(box, n)
        cell(qtbot, dialog, 0, 0, "Room 1")
        cell(qtbot, dialog, 0, 1, "80")
        cell(qtbot, dialog, 0, 3, "1")
        dialog.add_room()
        cell(qtbot, dialog, 1, 0, "Room 2")
        cell(qtbot, dialog, 1, 1, "big")
        cell(qtbot, dialog, 1, 3, "2")
        enter(qtbot, dialog)
        assert dialog.isVisible()  # kept open, what was typed kept
        errors.append(dialog.error_label.text())
        assert dialog.rooms.currentRow() == 1
        cell(qtbot, dialog, 1, 1, "120.5")
        enter(qtbot, dialog)

    seen = shown(qtbot, monkeypatch, application_form)
    clerk.table.setFocus()
    qtbot.keyClick(clerk.table, Qt.Key.Key_N, Ctrl)
    assert len(seen) == 1
    assert errors == ["Rooms: room row 2 (Room 2): give the floor area in square feet, e.g. 120"]
    assert warnings == []  # said once, in the form
    assert clerk.shown() == [
        (
            "Application",
            "Rita Roomer",
            "412 Vine St",
            "5",
            "03/02/2026",
            "—",
            "—",
            "applied",
        )
    ]
    qtmodeltester.check(clerk.model)
    mine = window_of(qtbot, clerk)
    assert mine.title_label.text() == "Application"
    assert [line.cells for line in mine.rooms.rows] == [
        ("Room 1", "80", "yes", "1", "0"),
        ("Room 2", "120.5", "yes", "2", "0"),
    ]
    # The clerk issues, but not before the inspector has been; the inspector's steps are not hers.
    assert not mine.buttons["issue"].isEnabled()
    assert mine.buttons["issue"].toolTip() == (
        "The inspector has not opened an inspection case yet (140-10A)."
    )
    assert not mine.buttons["case"].isEnabled()
    assert not mine.buttons["deny"].isEnabled()
    mine.close()

    # 2. The inspector opens the inspection case from the licence's window; the case's window
    # (Code enforcement) is where the inspection is recorded.
    opened: list[int] = []
    inspector = view_for(qtbot, o, o.inspector, opened)
    window = window_of(qtbot, inspector)
    assert window.buttons["deny"].isEnabled()
    assert not window.buttons["issue"].isEnabled()
    assert window.buttons["issue"].toolTip() == (
        "The City Clerk (issue rooming house licences (Hudson 140-10A))."
    )
    window.buttons["case"].click()
    assert len(opened) == 1 and warnings == []  # said once, in the form
    assert window.dwelling_label.text().endswith("case CE-2026-0001")
    inspections.record_inspection(o.db.uow(), clock, o.inspector, opened[0], TODAY)
    window.close()

    # 3. The City Clerk issues it: the fee in force shown, the receipt asked for.
    clerk = view_for(qtbot, o, o.clerk)
    mine = window_of(qtbot, clerk)
    assert mine.buttons["issue"].isEnabled()
    issue_errors: list[str] = []

    def issue(dialog: QDialog) -> None:
        assert isinstance(dialog, d.IssueDialog)
        assert dialog.fee_label.text() == "$25.00, as the Council set it, paid to the City Clerk"
        enter(qtbot, dialog)  # no receipt yet
        assert dialog.isVisible()
        issue_errors.append(dialog.error_label.text())
        assert dialog.receipt.hasFocus()
        typed(qtbot, dialog.receipt, RECEIPT)
        enter(qtbot, dialog)

    seen = shown(qtbot, monkeypatch, issue)
    mine.buttons["issue"].click()
    assert issue_errors == [
        "Receipt: enter the City Clerk's receipt number for the $25.00 licence fee"
    ]
    assert mine.title_label.text() == "Licence RH-2026-0001"
    assert mine.status_label.text() == "in force · issued 03/02/2026, valid through 03/02/2027"
    assert mine.history_texts()[-1] == (
        "Issued: Licence RH-2026-0001, valid through 03/02/2027, by Carol Clerk; fee $25.00, "
        f"receipt {RECEIPT}"
    )
    clerk.show_filter(RegisterFilter.IN_FORCE)
    assert clerk.shown() == [
        (
            "RH-2026-0001",
            "Rita Roomer",
            "412 Vine St",
            "5",
            "03/02/2026",
            "03/02/2026",
            "03/02/2027",
            "in force",
        )
    ]
    assert clerk.summary.text() == "1 licence: in force"
    clerk.show_filter(RegisterFilter.PENDING)
    assert clerk.shown() == []
    # Expiring within 60 days from 01/01/2027; expired the day after its last valid day.
    clock.set(date(2027, 1, 2))
    clerk.show_filter(RegisterFilter.EXPIRING)
    assert [r[0] for r in clerk.shown()] == ["RH-2026-0001"]
    clock.set(date(2027, 3, 3))
    clerk.show_filter(RegisterFilter.EXPIRED)
    assert [r[-1] for r in clerk.shown()] == ["expired"]


def issued_licence(o: Office, clock: FixedClock) -> int:
    """Rita Roomer's licence, applied for, inspected and issued today: its inspection case."""
    licence_id = svc.record_application(
        o.db.uow(),
        clock,
        o.clerk,
        svc.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=o.parcel_id,
            operator_name="Rita Roomer",
            operator_address="5 Oak St, Hudson WI 54016",
            persons=3,
            water_closets=1,
            lavatories=1,
            baths=1,
            rooms=[svc.RoomInput("Room 1", Decimal(120), True, 2)],
        ),
    )
    case_id = svc.open_licence_case(o.db.uow(), clock, o.inspector, licence_id)
    inspections.record_inspection(o.db.uow(), clock, o.inspector, case_id, TODAY)
    svc.issue_licence(o.db.uow(), clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    return case_id


def test_the_inspector_warns_and_suspends_and_the_clerk_may_petition(
    qtbot: QtBot,
    o: Office,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    case_id = issued_licence(o, clock)
    clock.set(TODAY + timedelta(days=30))
    found = inspections.record_inspection(
        o.db.uow(),
        clock,
        o.inspector,
        case_id,
        clock.today(),
        found=[inspections.FoundViolation("140-6C", room="Room 2", correct_by=date(2026, 4, 15))],
    )
    inspector = view_for(qtbot, o, o.inspector)
    window = window_of(qtbot, inspector)
    clerk = view_for(qtbot, o, o.clerk)
    theirs = window_of(qtbot, clerk)
    assert window.buttons["warning"].isEnabled()
    assert not theirs.buttons["warning"].isEnabled()
    assert not theirs.buttons["suspend"].isEnabled()
    assert theirs.buttons["change"].isEnabled()  # 140-10A: the clerk records the change

    # 140-10C: the written notice, with a date to correct by
    def warning(dialog: QDialog) -> None:
        assert isinstance(dialog, d.WarningDialog)
        dialog.correct_by.setFocus()
        dialog.correct_by.setDate(clock.today() + timedelta(days=14))
        qtbot.keyClick(dialog.correct_by, Qt.Key.Key_Return)

    shown(qtbot, monkeypatch, warning)
    window.buttons["warning"].click()
    assert warnings == []
    assert window.status_label.text().endswith("warned 04/01/2026, correct by 04/15/2026")
    assert not window.buttons["suspend"].isEnabled()
    assert window.buttons["suspend"].toolTip() == (
        "The correction period runs to 04/15/2026 (140-10C)."
    )
    assert [k for k, _ in window.steps.items() if window.buttons[k].isEnabled()] == [
        "case",
        "warning",
    ]
    # re-inspected at the end of the period: not corrected; the inspector suspends
    clock.set(date(2026, 4, 15))
    inspections.record_inspection(
        o.db.uow(),
        clock,
        o.inspector,
        case_id,
        clock.today(),
        checks={found.violation_ids[0]: False},
    )
    window.reload()
    theirs.reload()
    assert window.buttons["suspend"].isEnabled()
    assert not theirs.buttons["suspend"].isEnabled()

    def suspend(dialog: QDialog) -> None:
        assert isinstance(dialog, d.SuspendDialog)
        qtbot.keyClick(dialog.suspended_on, Qt.Key.Key_Return)

    shown(qtbot, monkeypatch, suspend)
    window.buttons["suspend"].click()
    assert warnings == []
    assert window.status_label.text() == (
        # the 10th day is Saturday 04/25, the office closed: Monday (Wis. Stat. 990.001(4))
        "suspended 04/15/2026 · petition through 04/27/2026, else revoked"
    )
    theirs.reload()
    assert theirs.buttons["petition"].isEnabled()
    assert not window.buttons["petition"].isEnabled()
    assert [a.text() for a in window.notice_menu.actions()] == ["Warning notice", "Suspension"]
    inspector.show_filter(RegisterFilter.SUSPENDED)
    assert [r[-1] for r in inspector.shown()] == ["suspended"]


def _text(path: Path) -> str:
    return " ".join((page.extract_text() or "") for page in PdfReader(str(path)).pages)


def test_the_register_the_certificate_the_notices_and_the_renewal_letters_print(
    qtbot: QtBot,
    o: Office,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    files: list[Path] = []
    monkeypatch.setattr(dialogs, "show_file", lambda _p, path, _t: files.append(path))
    issued_licence(o, clock)
    clerk = view_for(qtbot, o, o.clerk)
    # the register as shown: in force only
    clerk.show_filter(RegisterFilter.IN_FORCE)
    register = clerk.print_register()
    assert register is not None and files[-1] == register
    words = _text(register)
    assert "Rooming house licences — in force, 03/02/2026" in words
    assert "RH-2026-0001" in words and "Rita Roomer" in words and "03/02/2027" in words
    # nothing expires within 60 days yet: no letters, and it says so
    assert clerk.renewal_letters() is None
    # the certificate, from the licence's window
    window = window_of(qtbot, clerk)
    certificate = window.print_certificate()
    assert certificate is not None and "RH-2026-0001" in _text(certificate)
    assert not window.notice_button.isEnabled()
    # within 60 days of the last valid day: one letter to the operator
    clock.set(date(2027, 1, 15))
    letters = clerk.renewal_letters()
    assert letters is not None
    assert "RH-2026-0001" in _text(letters)
    assert warnings == []


def test_a_change_of_owner_takes_the_day_and_time_typed_and_names_a_wrong_time(
    qtbot: QtBot,
    o: Office,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    """140-10A: notice within 24 hours of the change. The day and the time are two fields
    typed as a clerk types them: '6100' in the time is refused naming the field, never taken
    for a moment; 4:45 pm on 3/3/26 is the moment recorded, and notice the next day at 5 PM
    is late."""
    issued_licence(o, clock)
    clock.set(TODAY + timedelta(days=3))
    window = window_of(qtbot, view_for(qtbot, o, o.clerk))
    recorded: list[d.ChangeDialog] = []

    def fill(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ChangeDialog)
        recorded.append(dialog)
        # The day field has the cursor; Tab goes to the time, never into the day's parts.
        assert QApplication.focusWidget() is dialog.changed_at.date_field
        qtbot.keyClick(dialog.changed_at.date_field, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is dialog.changed_at.time_field
        dialog.changed_at.date_field.setText("3/3/26")
        dialog.changed_at.time_field.setText("6100")
        dialog.notice_at.date_field.setText("3/4/26")
        dialog.notice_at.time_field.setText("5 PM")
        typed(qtbot, dialog.successor, "Sam Successor")
        typed(qtbot, dialog.successor_address, "9 Elm St, Hudson WI 54016")
        enter(qtbot, dialog)
        assert dialog.isVisible()
        assert dialog.error_label.text().startswith("Changed at: “6100” is not a time")
        assert QApplication.focusWidget() is dialog.changed_at.date_field
        dialog.changed_at.time_field.setText("4:45 pm")
        enter(qtbot, dialog)

    shown(qtbot, monkeypatch, fill)
    window.buttons["change"].click()
    (dialog,) = recorded
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.recorded is not None
    assert dialog.recorded.notice_due.astimezone().replace(tzinfo=None) == datetime(
        2026, 3, 4, 16, 45
    )
    assert dialog.recorded.late and dialog.recorded.ended_on == date(2026, 3, 3)
