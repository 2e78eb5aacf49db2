"""Administration → Fee schedules: the versions, their items, and a new version from a date."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QAbstractItemView, QLineEdit
from pytestqt.qtbot import QtBot

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, setup, users
from tests.ui.sample import NOW, PASSWORD, Sample
from ui import app, dialogs
from ui.main_window import MainWindow
from ui.models.fee_schedules import WARNING
from ui.presenters.fee_schedules import NOT_SET
from ui.views.fee_schedules import SECTION_TITLE, FeeSchedulesView
from ui.views.new_fee_version import NewFeeVersionDialog

D = Decimal
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
)


def main_window(qtbot: QtBot, sample: Sample, *, clerk: bool = False) -> MainWindow:
    app.application()
    session = app.make_session(sample.database, sample.clerk if clerk else sample.admin)
    window = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.load()
    return window


@pytest.fixture
def admin_window(qtbot: QtBot, sample: Sample) -> MainWindow:
    return main_window(qtbot, sample)


@pytest.fixture
def view(admin_window: MainWindow) -> FeeSchedulesView:
    shown = admin_window.show_section(SECTION_TITLE)
    assert isinstance(shown, FeeSchedulesView)
    return shown


def cell(view: FeeSchedulesView, code: str, key: str) -> str:
    model = view.items_model
    row = model.row_of(code)
    assert row is not None
    return str(model.data(model.index(row, model.column_of(key))))


@pytest.fixture(autouse=True)
def discard_drafts_at_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that leaves a changed draft open: closing the main window at teardown asks
    whether to discard it; the answer is yes (a test that asks itself patches this again)."""
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)


def version_labels(view: FeeSchedulesView) -> list[str]:
    return [row.label for row in view.versions_model.rows]


def edit_cell(qtbot: QtBot, dialog: NewFeeVersionDialog, code: str, key: str, text: str) -> None:
    """Double-click-free editing from the keyboard: select the cell, F2, type, Enter."""
    model = dialog.model
    row = model.row_of(code)
    assert row is not None
    index = model.index(row, model.column_of(key))
    dialog.table.setFocus()
    dialog.table.setCurrentIndex(index)
    qtbot.keyClick(dialog.table, Qt.Key.Key_F2)
    editors = [e for e in dialog.table.viewport().findChildren(QLineEdit) if e.isVisible()]
    assert len(editors) == 1, editors
    editor = editors[0]
    assert editor.text() == model.data(index, Qt.ItemDataRole.EditRole)
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits and closes the editor on the next turn of the event loop.
    qtbot.waitUntil(lambda: not dialog.table.viewport().findChildren(QLineEdit), timeout=10_000)


def test_the_items_and_versions_models_pass_the_model_tester(
    qtbot: QtBot, qtmodeltester: object, view: FeeSchedulesView
) -> None:
    qtmodeltester.check(view.versions_model)  # type: ignore[attr-defined]
    qtmodeltester.check(view.items_model)  # type: ignore[attr-defined]
    dialog = view.open_new_version()
    assert dialog is not None
    qtmodeltester.check(dialog.model)  # type: ignore[attr-defined]
    dialog.label_edit.clear()
    dialog.reject()


def test_an_administrator_sees_the_shipped_version_and_its_items(view: FeeSchedulesView) -> None:
    assert version_labels(view) == ["Glendale 15.1.21 (shipped)"]
    row = view.versions_model.rows[0]
    assert (row.effective_from, row.effective_to, row.source) == (
        "01/01/2000",
        "—",
        "shipped with Permit Desk",
    )
    assert view.items_model.rowCount() == 40
    assert cell(view, "RES-NEW", "rates") == "0.12"
    assert cell(view, "RES-NEW", "minimum") == "100.00"
    assert cell(view, "RES-NEW", "admin") == "yes"
    assert cell(view, "RES-STATE-SEAL", "admin") == "no"
    assert cell(view, "FAIL-TO-CALL", "rates") == "50.00 / 100.00 / 150.00"
    assert cell(view, "COM-EROSION", "rates") == "200.00 first acre, 100.00 each further"
    assert cell(view, "RES-NEW", "unit") == "per sq ft"
    assert view.banner_text.text().startswith("This version has not priced a permit yet")
    assert not view.banner_icon.isVisibleTo(view)


def test_an_administrator_makes_a_new_version_from_july_and_quotes_follow_it(
    qtbot: QtBot, sample: Sample, view: FeeSchedulesView
) -> None:
    qtbot.mouseClick(view.new_button, Qt.MouseButton.LeftButton)
    dialog = view.dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.label_edit, "2026 fee ordinance")
    dialog.date_edit.setDate(QDate(2026, 7, 1))
    edit_cell(qtbot, dialog, "RES-NEW", "rates", "0.14")
    assert (
        dialog.model.data(
            dialog.model.index(dialog.model.row_of("RES-NEW") or 0, dialog.model.column_of("rates"))
        )
        == "0.14"
    )
    assert not dialog.table_error.isVisible()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and dialog.version_id is not None

    assert version_labels(view) == ["Glendale 15.1.21 (shipped)", "2026 fee ordinance"]
    assert view.selected_version_id() == dialog.version_id  # the new one is selected
    assert cell(view, "RES-NEW", "rates") == "0.14"
    new_row = view.versions_model.rows[1]
    assert new_row.source == "entered by Alex Administrator on 03/02/2026"
    assert view.versions_model.rows[0].effective_to == "06/30/2026"

    uow, mid = sample.database.uow(), sample.municipality_id
    after = fees.quote(uow, sample.clock, mid, NEW_HOUSE, date(2026, 7, 2))
    before = fees.quote(uow, sample.clock, mid, NEW_HOUSE, date(2026, 6, 30))
    assert (after.total, after.schedule_version) == (D("506.00"), "2026 fee ordinance")
    assert (before.total, before.schedule_version) == (D("439.00"), "Glendale 15.1.21 (shipped)")


def test_ticking_a_check_box_in_the_draft_changes_whether_an_item_doubles(
    qtbot: QtBot, sample: Sample, view: FeeSchedulesView
) -> None:
    dialog = view.open_new_version()
    assert dialog is not None
    model = dialog.model
    row = model.row_of("RES-NEW")
    assert row is not None
    doubles = model.index(row, model.column_of("doubles"))
    assert model.flags(doubles) & Qt.ItemFlag.ItemIsUserCheckable
    assert model.data(doubles, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    # The delegate sends the new state as a plain int.
    assert model.setData(doubles, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.data(doubles, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    qtbot.keyClicks(dialog.label_edit, "No double fee for houses")
    dialog.date_edit.setDate(QDate(2026, 7, 1))
    assert dialog.save() is not None
    later = QuoteRequest(items=NEW_HOUSE.items, work_began_before_permit=True)
    uow, mid = sample.database.uow(), sample.municipality_id
    assert fees.quote(uow, sample.clock, mid, later, date(2026, 7, 2)).total == D("439.00")
    assert fees.quote(uow, sample.clock, mid, later, date(2026, 6, 30)).total == D("843.00")


def test_a_date_not_after_the_latest_version_is_refused_next_to_the_date(
    qtbot: QtBot, view: FeeSchedulesView
) -> None:
    dialog = view.open_new_version()
    assert dialog is not None
    qtbot.keyClicks(dialog.label_edit, "too early")
    dialog.date_edit.setDate(QDate(2000, 1, 1))
    assert dialog.save() is None
    assert dialog.isVisible()
    assert dialog.date_error.isVisible()
    assert dialog.date_error.text() == (
        "Effective from: must be after 01/01/2000, when the current version "
        "'Glendale 15.1.21 (shipped)' took effect"
    )
    assert not dialog.label_error.isVisible()
    dialog.label_edit.clear()
    dialog.date_edit.setDate(QDate(2026, 7, 1))
    assert dialog.save() is None
    assert dialog.label_error.text() == "Label: name the new version"
    assert version_labels(view) == ["Glendale 15.1.21 (shipped)"]


def test_a_mistyped_rate_is_named_by_item_and_column_and_nothing_is_saved(
    qtbot: QtBot, view: FeeSchedulesView
) -> None:
    dialog = view.open_new_version()
    assert dialog is not None
    qtbot.keyClicks(dialog.label_edit, "2026")
    dialog.date_edit.setDate(QDate(2026, 7, 1))
    edit_cell(qtbot, dialog, "RES-NEW", "rates", "0.1x")
    assert dialog.table_error.text() == "RES-NEW, Rate(s): '0.1x' is not an amount of money"
    assert dialog.save() is None
    assert dialog.table_error.text() == "RES-NEW, Rate(s): '0.1x' is not an amount of money"
    assert version_labels(view) == ["Glendale 15.1.21 (shipped)"]


def test_closing_with_unsaved_edits_asks_first(
    qtbot: QtBot, view: FeeSchedulesView, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = [False, True]
    questions: list[str] = []

    def ask(parent: object, title: str, question: str, **kw: object) -> bool:
        questions.append(question)
        return answers.pop(0)

    monkeypatch.setattr(dialogs, "ask", ask)
    dialog = view.open_new_version()
    assert dialog is not None
    edit_cell(qtbot, dialog, "RES-STATE-SEAL", "rates", "40.00")
    dialog.close()
    assert dialog.isVisible()  # "No": keep editing
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert questions == ["Discard this new version? Nothing of it has been saved."] * 2
    assert version_labels(view) == ["Glendale 15.1.21 (shipped)"]


def test_quitting_with_an_unsaved_draft_asks_and_kept_keeps_the_session_open(
    qtbot: QtBot,
    admin_window: MainWindow,
    view: FeeSchedulesView,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = [False, True]
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: answers.pop(0))
    dialog = view.open_new_version()
    assert dialog is not None
    edit_cell(qtbot, dialog, "RES-STATE-SEAL", "rates", "40.00")
    admin_window.show()
    assert not admin_window.close()  # "No": the draft and the session stay
    assert dialog.isVisible() and admin_window.isVisible()
    assert admin_window.close()  # "Yes": discarded, and the window closes
    assert not dialog.isVisible()
    assert answers == []


def test_closing_without_edits_does_not_ask(
    qtbot: QtBot, view: FeeSchedulesView, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialogs, "ask", lambda *a, **k: pytest.fail("asked"))
    dialog = view.open_new_version()
    assert dialog is not None
    dialog.reject()
    assert not dialog.isVisible()


def test_a_clerk_does_not_see_the_fee_schedules_section(qtbot: QtBot, sample: Sample) -> None:
    window = main_window(qtbot, sample, clerk=True)
    # Glendale's sections: no code enforcement or rooming houses (Hudson ch. 140).
    # The clerk takes payments and closes the drawer (Cashier, Treasurer), issue 5.
    assert window.section_titles() == [
        "Needs attention",
        "Permits",
        "Parcels",
        "People",
        "Deadlines",
        "Inspections",
        "Bonds & Insurance",
        "Deposits",
        "Licences & condemnations",
        "Cashier",
        "Treasurer",
        "Reports",
    ]
    assert window.fee_schedules_view is None
    admin = main_window(qtbot, sample)
    assert admin.section_titles() == [
        "Needs attention",
        "Permits",
        "Parcels",
        "People",
        "Deadlines",
        "Inspections",
        "Bonds & Insurance",
        "Deposits",
        "Licences & condemnations",
        "Cashier",
        "Treasurer",
        "Reports",
        "GL accounts",
        "Fee schedules",
        "Municipality",
        "Users",
    ]


def test_a_version_that_priced_a_permit_is_read_only_and_says_why(
    qtbot: QtBot, sample: Sample
) -> None:
    fees.assess_fees(
        sample.database.uow(), sample.clock, sample.clerk, sample.permit_ids["schmidt"], NEW_HOUSE
    )
    window = main_window(qtbot, sample)
    view = window.show_section(SECTION_TITLE)
    assert isinstance(view, FeeSchedulesView)
    version = view.selected_version
    assert version is not None and version.read_only
    assert view.banner.isVisibleTo(view) and view.banner_icon.isVisibleTo(view)
    assert view.banner_text.text() == (
        "Read-only: it has priced permits; make a new version from a date."
    )
    assert view.versions_model.rows[0].status.endswith("read-only")
    lock = view.versions_model.data(view.versions_model.index(0, 0), Qt.ItemDataRole.DecorationRole)
    assert lock is not None and not lock.isNull()
    model = view.items_model
    assert view.items_table.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            flags = model.flags(model.index(row, column))
            assert not flags & Qt.ItemFlag.ItemIsEditable
            assert not flags & Qt.ItemFlag.ItemIsUserCheckable
    rates = model.index(model.row_of("RES-NEW") or 0, model.column_of("rates"))
    assert not model.setData(rates, "0.20")
    assert cell(view, "RES-NEW", "rates") == "0.12"


def test_an_unset_council_fee_reads_not_set_in_the_warning_colour(
    qtbot: QtBot, tmp_path: Path
) -> None:
    database = open_database(sqlite_url(tmp_path / "nl.db"))
    try:
        clock = FixedClock(NOW)
        admin = users.create_first_administrator(
            database.uow(), clock, "admin", "Nora Admin", PASSWORD
        )
        setup.ensure_municipality(database.uow(), clock, admin, "new_lisbon")
        app.application()
        window = MainWindow(
            database, app.make_session(database, admin), remember_geometry=False, clock=clock
        )
        qtbot.addWidget(window)
        view = window.show_section(SECTION_TITLE)
        assert isinstance(view, FeeSchedulesView)
        model = view.items_model
        row = model.row_of("STREET-OPENING")
        assert row is not None
        index = model.index(row, model.column_of("council_value"))
        assert model.data(index) == NOT_SET
        assert model.data(index, Qt.ItemDataRole.ForegroundRole) == WARNING
        window.close()
    finally:
        database.close()


def test_a_screenshot_of_the_fee_schedules_is_a_png_of_the_requested_size(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "fees.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "fees", (1200, 760), "admin", "") == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 760)


def test_a_screenshot_of_the_fee_schedules_needs_an_administrator(
    qtbot: QtBot,
    sample: Sample,
    db_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "fees.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "fees", (1200, 760), "carol", "") == 2
    assert "the Fee schedules section is for administrators" in capsys.readouterr().err
    assert not out.exists()
