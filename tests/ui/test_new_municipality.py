"""Any Wisconsin municipality set up without a developer: the first run's "Another Wisconsin
municipality…" and Administration → New municipality, the form from the keyboard, the window
opened for it and switched back; a Ch. 512 municipality's case window and calculator cite
Ch. 512 and nothing of Hudson's ch. 140."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from db import queries
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.enums import Role
from desk.services import users
from tests.db.test_ch512_municipality import westby, work_a_case
from tests.ui.sample import PASSWORD, Sample
from ui import app, dialogs, settings
from ui.first_run import ADMIN, FirstRunDialog
from ui.login import LoginDialog
from ui.main_window import MainWindow
from ui.views import enforcement_dialogs as d
from ui.views.enforcement import SECTION_TITLE as ENFORCEMENT
from ui.views.new_municipality import NewMunicipalityDialog

Key = Qt.Key
Alt = Qt.KeyboardModifier.AltModifier


def the_form(qtbot: QtBot) -> NewMunicipalityDialog:
    """The New municipality form once it is shown and active, the focus on its first field."""
    found: list[NewMunicipalityDialog] = []

    def shown() -> bool:
        found[:] = [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, NewMunicipalityDialog) and w.isVisible()
        ]
        return bool(found)

    qtbot.waitUntil(shown, timeout=3000)
    form = found[0]
    form.activateWindow()
    qtbot.waitUntil(form.isActiveWindow, timeout=3000)
    return form


def type_keys(qtbot: QtBot, text: str) -> None:
    focused = QApplication.focusWidget()
    assert focused is not None
    qtbot.keyClicks(focused, text)


def press(qtbot: QtBot, key: Key) -> None:
    focused = QApplication.focusWidget()
    assert focused is not None
    qtbot.keyClick(focused, key)


def fill_westby(qtbot: QtBot, form: NewMunicipalityDialog) -> None:
    """Westby, a city of Vernon County under Ch. 512, typed as a clerk types: Enter on the empty
    form first (refused, naming the field), then each field and Tab."""
    assert form.focusWidget() is form.fields["name"]
    press(qtbot, Key.Key_Return)
    assert form.isVisible()
    assert form.error_label.text() == "Name: enter the municipality's name, e.g. Westby"
    assert form.focusWidget() is form.fields["name"]
    type_keys(qtbot, "Westby")
    press(qtbot, Key.Key_Tab)  # Kind: City
    press(qtbot, Key.Key_Tab)
    type_keys(qtbot, "vern")  # the county completes as it is typed
    press(qtbot, Key.Key_Tab)
    type_keys(qtbot, "54667")
    press(qtbot, Key.Key_Tab)  # PLACENAME, followed the name
    press(qtbot, Key.Key_Tab)
    type_keys(qtbot, "C")  # Housing code: Ch. 512
    press(qtbot, Key.Key_Tab)  # Permit kinds: none
    f = form.presenter.form
    assert (f.name, f.kind, f.county, f.zip) == ("Westby", "city", "Vernon", "54667")
    assert f.placename == "CITY OF WESTBY"
    assert f.letterhead == "City of Westby\nBuilding Inspection Department"
    assert (f.housing_code, f.ordinance) == ("ch-512", "")
    line = form.fields["county"].findChild(QLineEdit)
    assert line is not None and line.text() == "Vernon"  # spelled as the list spells it


def test_the_first_run_sets_up_westby_from_the_keyboard_and_opens_its_window(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    titles: list[str] = []

    def first_run(dialog: FirstRunDialog) -> int:
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=3000)
        dialog.empty_button.click()
        assert dialog.focusWidget() is dialog.municipality_box
        names = [dialog.municipality_box.itemText(i) for i in range(3)]
        assert names == ["City of Glendale", "City of Hudson", "City of New Lisbon"]
        qtbot.keyClick(dialog.focusWidget(), Key.Key_W, Alt)  # Another Wisconsin municipality…
        form = the_form(qtbot)
        fill_westby(qtbot, form)
        press(qtbot, Key.Key_Return)  # a valid form: Enter uses it
        qtbot.waitUntil(lambda: not form.isVisible(), timeout=3000)
        dialog.activateWindow()  # as the window manager does when the form closes
        qtbot.waitUntil(dialog.isActiveWindow, timeout=3000)
        assert dialog.municipality_box.currentText() == "City of Westby"
        assert dialog.focusWidget() is dialog.username_edit
        type_keys(qtbot, "dolson")
        press(qtbot, Key.Key_Tab)
        type_keys(qtbot, "Dana Olson")
        press(qtbot, Key.Key_Tab)
        type_keys(qtbot, "westby-code-1")
        press(qtbot, Key.Key_Tab)
        type_keys(qtbot, "westby-code-1")
        dialog.create_button.click()
        assert dialog.outcome == ADMIN
        return int(dialog.result())

    def event_loop(application: QApplication) -> int:
        shown = [
            w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
        ]
        titles.extend(w.windowTitle() for w in shown)
        for w in shown:
            # Tools → Occupancy calculator reckons under the municipality's code (512-11).
            calculator = w.open_occupancy_calculator()
            titles.append(str(calculator.code_combo.currentData()))
            w.close()
        return 0

    monkeypatch.setattr(FirstRunDialog, "exec", first_run)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    url = sqlite_url(tmp_path / "westby.db")
    assert app.run_gui(url, None, "permits", (1280, 800), None, "") == 0
    assert titles == ["Permit Desk — City of Westby", "ch-512"]
    database = open_database(url)
    try:
        with database.read() as conn:
            assert queries.municipalities(conn) == [(1, "city_westby", "City of Westby")]
        dana = users.authenticate(database.uow(), "dolson", "westby-code-1")
        assert dana.roles == {Role.ADMINISTRATOR}
    finally:
        database.close()


def test_administration_new_municipality_then_switching_there_and_back(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    titles: list[str] = []
    asked: list[str] = []
    rounds: list[int] = []

    def sign_in_as_admin(dialog: LoginDialog) -> int:
        assert not dialog.municipality_box.isVisibleTo(dialog)  # one municipality: no choice
        dialog.username_edit.setText("admin")
        dialog.password_edit.setText(PASSWORD)
        dialog.try_sign_in()
        return int(QDialog.DialogCode.Accepted)

    def ask(_parent: QWidget | None, _title: str, question: str, **_k: object) -> bool:
        asked.append(question)
        return True

    def event_loop(application: QApplication) -> int:
        rounds.append(len(rounds))
        window = next(
            w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
        )
        titles.append(window.windowTitle())
        if len(rounds) == 1:  # Glendale: Administration → New municipality…
            assert window.new_municipality_action is not None
            window.new_municipality_action.trigger()
            form = the_form(qtbot)
            fill_westby(qtbot, form)
            press(qtbot, Key.Key_Return)
            qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)  # switched
        elif len(rounds) == 2:  # Westby: File → Switch municipality… back to Glendale
            monkeypatch.setattr(dialogs, "choose", lambda *_a, **_k: "City of Glendale")
            window.switch_action.trigger()
            assert not window.isVisible()
        else:
            window.close()
        return 0

    monkeypatch.setattr(LoginDialog, "exec", sign_in_as_admin)
    monkeypatch.setattr(dialogs, "ask", ask)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert app.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
    assert titles == [
        "Permit Desk — City of Glendale",
        "Permit Desk — City of Westby",
        "Permit Desk — City of Glendale",
    ]
    assert asked == [
        "The City of Westby is set up in this register. Switch to it now? (File → Switch "
        "municipality goes back and forth.)"
    ]
    # The next sign-in on this computer offers both, the last one worked in first.
    assert settings.read_text(settings.LAST_MUNICIPALITY) == "glendale"
    login = LoginDialog(sample.database)
    qtbot.addWidget(login)
    assert login.municipality_box.isVisibleTo(login)
    names = [login.municipality_box.itemText(i) for i in range(login.municipality_box.count())]
    assert names == ["City of Glendale", "City of Westby"]
    assert login.municipality_box.currentText() == "City of Glendale"
    login.municipality_box.setCurrentIndex(1)
    login.username_edit.setText("admin")
    login.password_edit.setText(PASSWORD)
    login.try_sign_in()
    assert settings.read_text(settings.LAST_MUNICIPALITY) == "city_westby"
    session = app.make_session(sample.database, sample.admin, login.municipality_id)
    assert session.municipality_name == "City of Westby" and session.municipality_key == ""


def test_a_clerk_has_no_new_municipality_and_switches_only_when_there_are_two(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "inform", lambda _p, _t, text: said.append(text))
    window = MainWindow(
        sample.database,
        app.make_session(sample.database, sample.clerk),
        remember_geometry=False,
        clock=sample.clock,
    )
    qtbot.addWidget(window)
    assert window.new_municipality_action is None
    assert not window.choose_municipality()
    assert said == [
        "This register has only the City of Glendale. An administrator sets up another under "
        "Administration → New municipality."
    ]
    assert window.switch_to is None


def visible_words(widget: QWidget) -> list[str]:
    """What a person can read in a window: labels, buttons, choices, placeholders, tooltips."""
    words = []
    for w in [widget, *widget.findChildren(QWidget)]:
        if isinstance(w, QLabel | QAbstractButton):
            words.append(w.text())
        if isinstance(w, QComboBox):
            words += [w.itemText(i) for i in range(w.count())]
        if isinstance(w, QLineEdit):
            words.append(w.placeholderText())
        words.append(w.toolTip())
        words.append(w.windowTitle())
    return [x for x in words if x]


def test_a_ch_512_case_window_and_section_cite_ch_512_and_nothing_of_hudson(
    qtbot: QtBot, empty_database: Database
) -> None:
    clock = FixedClock(date(2026, 3, 2))
    w = westby(empty_database, clock)
    worked = work_a_case(w)
    app.application()
    window = MainWindow(
        empty_database,
        app.make_session(empty_database, w.inspector),
        remember_geometry=False,
        clock=clock,
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    window.load()
    window.show_section(ENFORCEMENT)
    case = window.enforcement_view.open_case(worked.case_id)
    qtbot.addWidget(case)
    words = visible_words(window.enforcement_view) + visible_words(case)
    timeline = case.timeline.rows
    words += [cell for line in timeline for cell in line.cells]
    steps = case.steps.values()
    words += [step.may[1] for step in steps]
    # Every step's dialog, and the section's own (a complaint, an observation, the docket).
    f = case.facts
    assert f is not None
    opened: list[QDialog] = [
        dialog
        for key in ("schedule", "inspection", "notice", "service", "petition", "close")
        if (dialog := case._dialog(key)) is not None
    ]
    notice = f.notices[-1]
    context = window.enforcement_view._context()
    opened += [
        d.ReturnedDialog(case.context, f, case),
        d.CorrectionDialog(case.context, f, case),
        d.HearingDialog(case.context, f, notice, case),
        d.DecisionDialog(case.context, f, notice, case),
        d.ComplaintDialog(context, window),
        d.ObservationDialog(context, window),
        d.DocketDialog(context, date(2026, 3, 24), window),
    ]
    for dialog in opened:
        words += visible_words(dialog)
        dialog.deleteLater()
    assert any("512-9D" in x for x in words)
    # Wis. Stat. 68.09(4): the decision on review, not the Council, makes the order.
    order = ("03/24/2026", "Order", "The determination is an order upon the decision on review")
    assert (*order, "Wis. Stat. 68.09(4)") in [line.cells for line in timeline]
    hudson = [x for x in words if "Hudson" in x or "140-" in x]
    assert hudson == []


def test_the_letterhead_and_placename_follow_the_name_until_they_are_typed_over() -> None:
    from ui.presenters.new_municipality import NewMunicipalityPresenter

    p = NewMunicipalityPresenter()
    p.set("name", "Ontario")
    assert p.form.letterhead == "City of Ontario\nBuilding Inspection Department"
    assert p.form.placename == "CITY OF ONTARIO"
    p.set("name", "Village of Ontario")  # the kind typed with the name is chosen
    assert p.form.kind == "village"
    assert p.form.letterhead == "Village of Ontario\nBuilding Inspection Department"
    p.set("letterhead", "Village of Ontario\nOffice of the Building Inspector")
    p.set("placename", "VILLAGE OF ONTARIO ")
    p.set("name", "Ontario ")
    assert p.form.letterhead == "Village of Ontario\nOffice of the Building Inspector"
    assert p.form.placename == "VILLAGE OF ONTARIO "
    p.set("letterhead", "")  # emptied: it follows the name again
    p.set("kind", "town")
    assert p.form.letterhead == "Town of Ontario\nBuilding Inspection Department"
    error = p.check()
    assert error is not None and (error.field, error.message) == (
        "county",
        "County: choose the county the municipality is in",
    )
    p.set("county", "Vernon")
    p.set("zip", "5466")
    error = p.check()
    assert error is not None and error.message == "ZIP: '5466' is not a ZIP code"
    p.set("zip", "54651")
    assert p.check() is None and p.checked_name == "Town of Ontario"
