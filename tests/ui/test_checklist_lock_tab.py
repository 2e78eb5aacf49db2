"""The Checklist tab of an issued permit: read-only with a "Locked" line; the inspector (not
the clerk) reopens it with a reason, marks an item, and locks it again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desk.domain.checklists import ItemState
from desk.domain.enums import Role
from desk.services import users
from tests.ui.sample import PASSWORD, Sample
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit.checklist import ChecklistTab

ITEM = "plans_residential.fireplace"


def window_for(qtbot: QtBot, sample: Sample, username: str) -> MainWindow:
    application()
    if username == "ivan":
        users.create_user(
            sample.database.uow(),
            sample.clock,
            sample.admin,
            username="ivan",
            full_name="Ivan Inspector",
            password=PASSWORD,
            roles={Role.INSPECTOR},
        )
    actor = users.authenticate(sample.database.uow(), username, PASSWORD)
    window = MainWindow(
        sample.database,
        make_session(sample.database, actor),
        remember_geometry=False,
        clock=sample.clock,
    )
    qtbot.addWidget(window)
    window.show()
    window.load()
    return window


def issued_tab(window: MainWindow, sample: Sample) -> ChecklistTab:
    permit_window = window.open_permit(sample.issued_id)
    permit_window.select_tab("checklist")
    tab = permit_window.tab("checklist")
    assert isinstance(tab, ChecklistTab)
    return tab


def state_of(tab: ChecklistTab) -> ItemState:
    assert tab.presenter is not None
    line = tab.presenter.item(tab.presenter.row_of(ITEM))
    assert line is not None
    return line.state


def test_a_clerk_sees_the_lock_line_and_no_reopen_button(qtbot: QtBot, sample: Sample) -> None:
    tab = issued_tab(window_for(qtbot, sample, "carol"), sample)
    assert tab.lock_label.isVisibleTo(tab)
    assert tab.lock_label.text() == "Locked: the permit was issued on 03/02/2026."
    assert not tab.reopen_checklist_button.isVisibleTo(tab)
    assert not tab.received_button.isVisibleTo(tab)  # the items are read-only
    tab.select_code(ITEM)
    before = state_of(tab)
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)  # nothing happens
    assert state_of(tab) is before


def test_the_inspector_reopens_with_a_reason_marks_an_item_and_locks_it_again(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab = issued_tab(window_for(qtbot, sample, "ivan"), sample)
    assert tab.lock_label.text() == "Locked: the permit was issued on 03/02/2026."
    assert tab.reopen_checklist_button.isVisibleTo(tab)
    assert not tab.lock_checklist_button.isVisibleTo(tab)
    asked: list[str] = []

    def answer(parent: object, title: str, label: str) -> str:
        asked.append(title)
        return "Fireplace plans replaced"

    monkeypatch.setattr(dialogs, "ask_text", answer)
    qtbot.mouseClick(tab.reopen_checklist_button, Qt.MouseButton.LeftButton)
    assert asked == ["Reopen checklist"]
    tab = issued_tab(tab.window(), sample) if not tab.isVisible() else tab
    assert tab.lock_label.text().startswith("Reopened by Ivan Inspector on 03/02/2026")
    assert tab.lock_label.text().endswith(": Fireplace plans replaced")
    assert not tab.reopen_checklist_button.isVisibleTo(tab)
    assert tab.lock_checklist_button.isVisibleTo(tab)
    assert tab.received_button.isVisibleTo(tab)
    tab.select_code(ITEM)
    tab.table.setFocus()
    assert state_of(tab) is ItemState.RECEIVED
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)  # received -> open
    assert state_of(tab) is ItemState.OPEN
    qtbot.mouseClick(tab.lock_checklist_button, Qt.MouseButton.LeftButton)
    assert tab.lock_label.text() == "Locked: the permit was issued on 03/02/2026."
    assert not tab.received_button.isVisibleTo(tab)
    # The History tab shows the reopening with its reason.
    history = tab.window().tab("history")  # type: ignore[attr-defined]
    texts = [
        tuple(history.model.index(r, c).data() for c in range(2, 6))
        for r in range(history.model.rowCount())
    ]
    assert ("Checklist reopened", "Reason", "", "Fireplace plans replaced") in texts
    assert ("Checklist locked", "", "", "") in texts
