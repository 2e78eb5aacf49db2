"""The permit window's Checklist tab: tick items from the keyboard, date the survey, waive with a
reason (inspector only), and the summary line a clerk reads."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from desk.domain.checklists import ItemState
from desk.services import checklists
from tests.ui.sample import Sample
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import checklist as checklist_module
from ui.permit.checklist import ChecklistTab


def new_application(sample: Sample) -> int:
    """A new-dwelling application just taken (the sample's issued permit has its checklist
    complete)."""
    from dataclasses import replace

    from desk.services import permits

    uow = sample.database.uow()
    with uow:
        issued = uow.permits.get(sample.issued_id)
        assert issued is not None and issued.parcel_id is not None
        parcel_id = issued.parcel_id
        parties = tuple((link.role, link.party.id) for link in issued.parties)
    application = permits.ApplicationInput(
        municipality_id=sample.municipality_id,
        kind="RES-NEW-DWELLING",
        parcel_id=parcel_id,
        description="Second new dwelling on the lot",
        floor_area_sqft=2450,
        dwelling_units=1,
        parties=parties,  # type: ignore[arg-type]
    )
    return permits.take_application(uow, sample.clock, sample.admin, replace(application))


def open_tab(window: MainWindow, sample: Sample, permit_id: int | None = None) -> ChecklistTab:
    permit_id = permit_id or new_application(sample)
    permit_window = window.open_permit(permit_id)
    permit_window.select_tab("checklist")
    tab = permit_window.tab("checklist")
    assert isinstance(tab, ChecklistTab)
    return tab


def state_of(tab: ChecklistTab, code: str) -> ItemState:
    assert tab.presenter is not None
    line = tab.presenter.item(tab.presenter.row_of(code))
    assert line is not None
    return line.state


def cells(tab: ChecklistTab, code: str) -> tuple[str, ...]:
    assert tab.presenter is not None
    row = tab.presenter.row_of(code)
    return tuple(tab.model.index(row, c).data() for c in range(tab.model.columnCount()))


def test_space_ticks_items_received_one_after_another(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    tab = open_tab(main_window, sample)
    total = len(tab.presenter.lines) if tab.presenter else 0
    assert tab.summary_label.text() == f"0 of {total} received — {total} open"
    assert tab.current_code() == "application.form"
    tab.table.setFocus()
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)
    assert state_of(tab, "application.form") is ItemState.RECEIVED
    assert state_of(tab, "application.legal") is ItemState.RECEIVED
    assert tab.summary_label.text() == f"2 of {total} received — {total - 2} open"
    _, section, state, _, by, when = cells(tab, "application.form")
    assert (section, state, by) == ("15.1.7(b)(1)", "✓ Received", "Alex Administrator")
    assert when.startswith("03/02/2026 ")  # the workstation's local time
    # Space on a received item opens it again.
    tab.select_code("application.form")
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)
    assert state_of(tab, "application.form") is ItemState.OPEN


def test_the_survey_is_received_with_the_date_it_bears(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    tab = open_tab(main_window, sample)
    tab.select_code("survey.date")
    tab.table.setFocus()
    assert tab.value_edit.isVisibleTo(tab) and tab.value_edit.placeholderText() == "MM/DD/YYYY"
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)  # no date yet: the date field takes the focus
    assert state_of(tab, "survey.date") is ItemState.OPEN
    assert "Enter the date" in tab.detail_label.text()
    qtbot.keyClicks(tab.value_edit, "03/01/2025")
    qtbot.keyClick(tab.value_edit, Qt.Key.Key_Return)
    assert state_of(tab, "survey.date") is ItemState.RECEIVED
    assert cells(tab, "survey.date")[3] == "03/01/2025"
    # On 2 March 2026 a survey of 1 March 2025 is more than a year old.
    tab.select_code("survey.date")
    assert "More than one year old on 03/02/2026 (15.1.7(b)(2))" in tab.detail_label.text()
    assert tab.summary_label.text().endswith("— date of the survey out of date")


def test_the_inspector_waives_an_item_with_a_reason(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab = open_tab(main_window, sample)
    monkeypatch.setattr(checklist_module, "ask_reason", lambda parent, item: "No fireplace")
    tab.select_code("plans_residential.fireplace")
    assert tab.waive_button.isVisibleTo(tab)
    qtbot.mouseClick(tab.waive_button, Qt.MouseButton.LeftButton)
    assert state_of(tab, "plans_residential.fireplace") is ItemState.WAIVED
    assert cells(tab, "plans_residential.fireplace")[2:4] == ("Waived", "No fireplace")
    assert "1 waived" in tab.summary_label.text()
    # The change shows on the History tab at once.
    history = main_window.open_permit(tab.context.permit_id).tab("history")
    rows = [
        tuple(history.model.index(r, c).data() for c in range(2, 6))  # type: ignore[attr-defined]
        for r in range(4)
    ]
    fireplace = "fireplace details at 3/4 inch per foot, cross-section of fireplace and flues"
    assert rows[:2] == [
        (f"Checklist: {fireplace}", "State", "Open", "Waived"),
        ("", "Reason", "", "No fireplace"),
    ]


def test_a_clerk_sees_no_waive_button_and_cannot_undo_a_waiver(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    permit_id = new_application(sample)
    checklists.mark_item(
        sample.database.uow(),
        sample.clock,
        sample.admin,
        permit_id,
        "plans_residential.fireplace",
        ItemState.WAIVED,
        reason="No fireplace",
    )
    application()
    window = MainWindow(
        sample.database, make_session(sample.database, sample.clerk), remember_geometry=False
    )
    qtbot.addWidget(window)
    window.show()
    window.load()
    tab = open_tab(window, sample, permit_id)
    assert not tab.waive_button.isVisibleTo(tab)
    tab.select_code("plans_residential.fireplace")
    assert not tab.received_button.isEnabled()
    warnings: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda parent, title, text: warnings.append(text))
    qtbot.keyClick(tab.table, Qt.Key.Key_Space)  # nothing happens: the presenter refuses
    assert state_of(tab, "plans_residential.fireplace") is ItemState.WAIVED
    # And the service refuses even when the button is bypassed.
    tab._mark(ItemState.OPEN)
    assert warnings and "waive" in warnings[0]


def test_the_checklist_model_passes_the_qt_model_tester(
    qtmodeltester: ModelTester, main_window: MainWindow, sample: Sample
) -> None:
    tab = open_tab(main_window, sample)
    tab.select_code("survey.date")
    tab.value_edit.setText(date(2026, 2, 1).strftime("%m/%d/%Y"))
    tab.mark_received()
    qtmodeltester.check(tab.model)


def test_the_screenshot_view_accepts_the_checklist_tab() -> None:
    from ui.presenters.views import ViewSpec, parse_view

    assert parse_view("permit:2026-0001:checklist") == ViewSpec("permit", "2026-0001", "checklist")
