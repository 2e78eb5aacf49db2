"""The inspection dialog's violation picker takes only an exact choice. Typing "handrail", Down,
Enter once recorded "140-4A Kitchen sink and laundry tray" (Down stepped to the first item of
the list) and the same Enter recorded the whole inspection. Now: the words are looked for in
section and title, Down opens what they find (never the next item of the list), a text that
names no one item is marked and said, and Enter in the picker or its list never records."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import Channel
from desk.services.enforcement import complaints
from tests.db.enforcement_setup import Office, office
from ui import dialogs
from ui.app import application, make_session
from ui.enforcement.window import CaseWindow
from ui.permit import actions
from ui.views import enforcement_dialogs as d
from ui.views.enforcement import EnforcementView

TODAY = date(2026, 3, 2)
Alt = Qt.KeyboardModifier.AltModifier
Ctrl = Qt.KeyboardModifier.ControlModifier
STAIRS = "140-6C Stairs, porches and appurtenances"


@pytest.fixture
def o(empty_database: Database) -> Office:
    return office(empty_database, FixedClock(TODAY))


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)
    return said


def press(qtbot: QtBot, key: Qt.Key) -> None:
    """A key where the user's would go: the open completion list, else the focused field."""
    target = QApplication.activePopupWidget() or QApplication.focusWidget()
    assert target is not None
    qtbot.keyClick(target, key)


def typed(qtbot: QtBot, text: str) -> None:
    target = QApplication.focusWidget()
    assert target is not None
    qtbot.keyClicks(target, text)


def inspections_recorded(o: Office) -> int:
    with o.db.read() as conn:
        return int(
            conn.execute(
                select(func.count()).select_from(schema.enforcement_inspection)
            ).scalar_one()
        )


def case_window(qtbot: QtBot, o: Office) -> CaseWindow:
    taken = complaints.take_complaint(
        o.db.uow(), o.clock, o.clerk, o.mid, o.parcel_id, Channel.PHONE, "Rear porch stairs broken"
    )
    application()
    view = EnforcementView(o.db, make_session(o.db, o.inspector), o.clock)
    qtbot.addWidget(view)
    view.load()
    window = view.open_case(taken.case.case_id)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    return window


def shown(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]
) -> list[QDialog]:
    """The step's dialog shown (not modal) and driven from the keyboard by `fill`."""
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


def alt(qtbot: QtBot, widget: QWidget, k: Qt.Key) -> None:
    top = widget.window()
    top.activateWindow()
    qtbot.waitUntil(top.isActiveWindow, timeout=2000)
    qtbot.keyClick(widget, k, Alt)


def test_handrail_down_enter_records_nothing_and_stairs_picked_is_recorded(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch, warnings: list[str]
) -> None:
    window = case_window(qtbot, o)

    def inspection(dialog: QDialog) -> None:
        assert isinstance(dialog, d.InspectionDialog)
        picker = dialog.item
        picker.setFocus()
        # The keystrokes of the mistake: no item of Hudson 140 says handrail.
        typed(qtbot, "handrail")
        assert not picker.popup_open
        press(qtbot, Qt.Key.Key_Down)
        assert picker.currentText() == "handrail"  # not 140-4A, the first item of the list
        press(qtbot, Qt.Key.Key_Return)
        assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
        assert dialog.found_list.count() == 0
        assert inspections_recorded(o) == 0
        assert picker.property("invalid") is True
        assert dialog.error_label.isVisible()
        assert dialog.error_label.text() == (
            "violation: no item of City of Hudson, Ch. 140 Minimum Housing matches “handrail”: "
            "type its section (e.g. 140-4A) or words of its title"
        )

        # The words are looked for in the titles: "stairs" finds 140-6C alone.
        qtbot.keyClick(picker, Qt.Key.Key_A, Ctrl)
        typed(qtbot, "stairs")
        assert picker.popup_open and picker.matches.stringList() == [STAIRS]
        assert picker.property("invalid") is False
        press(qtbot, Qt.Key.Key_Down)  # highlights the completion
        press(qtbot, Qt.Key.Key_Return)  # chooses it; the dialog stays
        assert not picker.popup_open
        assert picker.currentText() == STAIRS
        assert dialog.isVisible() and inspections_recorded(o) == 0
        # The correction date follows the item: 30 days after the inspection (140-3A(3)).
        assert dialog.correct_by.date().toPython() == date(2026, 4, 1)
        press(qtbot, Qt.Key.Key_Return)  # Enter again in the picker: still nothing recorded
        assert dialog.isVisible() and inspections_recorded(o) == 0

        # Added, then recorded with Enter in another field (the dialog's default button).
        alt(qtbot, dialog, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: dialog.found_list.count() == 1, timeout=2000)
        assert dialog.found_list.item(0).text() == f"{STAIRS}, correct by 04/01/2026"
        dialog.notes.setFocus()
        qtbot.keyClick(dialog.notes, Qt.Key.Key_Return)

    seen = shown(qtbot, monkeypatch, inspection)
    alt(qtbot, window, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    assert warnings == []
    assert inspections_recorded(o) == 1
    assert [line.cells[:2] for line in window.violations.rows] == [
        ("140-6C", "Stairs, porches and appurtenances")
    ]
    assert "Kitchen sink" not in " ".join(window.timeline_texts())


def test_words_that_find_several_items_are_not_one_choice(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch, warnings: list[str]
) -> None:
    window = case_window(qtbot, o)

    def inspection(dialog: QDialog) -> None:
        assert isinstance(dialog, d.InspectionDialog)
        dialog.item.setFocus()
        typed(qtbot, "140-6")  # 140-6A to 140-6H: none highlighted until chosen
        assert len(dialog.item.matches.stringList()) == 8
        press(qtbot, Qt.Key.Key_Return)
        assert dialog.item.currentText() == "140-6"
        assert dialog.item.property("invalid") is True
        assert "“140-6” is not one item: 8 items match" in dialog.error_label.text()
        # OK with the text still there: refused, named, nothing recorded.
        dialog.notes.setFocus()
        qtbot.keyClick(dialog.notes, Qt.Key.Key_Return)
        assert dialog.isVisible() and inspections_recorded(o) == 0
        dialog.reject()

    seen = shown(qtbot, monkeypatch, inspection)
    alt(qtbot, window, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    assert inspections_recorded(o) == 0
