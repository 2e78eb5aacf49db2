"""Signing in, and the first start on an empty database."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from db import queries
from db.database import Database
from desk.domain.enums import Role
from desk.services import users
from tests.ui.sample import PASSWORD, Sample
from ui import first_run, settings
from ui.first_run import ADMIN, DEMO, FirstRunDialog
from ui.login import LoginDialog
from ui.presenters.login import DEMO_NOTE


def test_a_wrong_password_shows_the_error_and_keeps_the_dialog_open(
    qtbot: QtBot, sample: Sample
) -> None:
    dialog = LoginDialog(sample.database)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.username_edit, "admin")
    qtbot.keyClicks(dialog.password_edit, "not-the-password")
    qtbot.keyClick(dialog.password_edit, Qt.Key.Key_Return)
    assert dialog.isVisible()
    assert dialog.actor is None
    assert dialog.error_label.isVisible()
    assert dialog.error_label.text() == (
        "Unknown user name or wrong password. After several wrong tries in a row, wait 5 "
        "minutes before you try again."
    )


def test_an_unknown_name_and_a_locked_account_read_like_a_wrong_password(
    qtbot: QtBot, sample: Sample
) -> None:
    users.lock(sample.database.uow(), sample.clock, sample.admin, sample.clerk.user_id)
    dialog = LoginDialog(sample.database, remember=False)
    qtbot.addWidget(dialog)
    dialog.show()
    shown = []
    for name, password in (("carol", PASSWORD), ("no-such-user", PASSWORD), ("admin", "x-x-x-x")):
        dialog.username_edit.setText(name)
        dialog.password_edit.setText(password)
        dialog.sign_in_button.click()
        assert dialog.isVisible() and dialog.actor is None
        shown.append(dialog.error_label.text())
    assert shown == [users.WRONG] * 3
    assert dialog.focusWidget() is dialog.password_edit  # the name stays: type the password again


def test_the_right_password_signs_in_and_remembers_the_user_name(
    qtbot: QtBot, sample: Sample
) -> None:
    dialog = LoginDialog(sample.database)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.username_edit, "carol")
    qtbot.keyClicks(dialog.password_edit, PASSWORD)
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        qtbot.keyClick(dialog.password_edit, Qt.Key.Key_Return)
    assert dialog.actor is not None
    assert dialog.actor.username == "carol"
    assert dialog.actor.roles == frozenset({Role.CLERK})
    assert settings.read_text(settings.LAST_USERNAME) == "carol"

    again = LoginDialog(sample.database)
    qtbot.addWidget(again)
    assert again.username_edit.text() == "carol"


def test_an_empty_user_name_is_asked_for_before_anything_is_checked(
    qtbot: QtBot, sample: Sample
) -> None:
    dialog = LoginDialog(sample.database, remember=False)
    qtbot.addWidget(dialog)
    dialog.try_sign_in()
    assert dialog.error_label.text() == "Enter your user name."


def test_after_loading_demo_data_the_login_shows_the_demo_logins(
    qtbot: QtBot, sample: Sample
) -> None:
    dialog = LoginDialog(sample.database, note=DEMO_NOTE)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.note_label.isVisible()
    assert "admin / clerk / inspector / engineer / treasurer" in dialog.note_label.text()
    assert "permitdesk" in dialog.note_label.text()


def fill_admin_form(qtbot: QtBot, dialog: FirstRunDialog, again: str) -> None:
    dialog.pages.setCurrentWidget(dialog.admin_page)
    dialog.municipality_box.setCurrentIndex(dialog.municipality_box.findData("new_lisbon"))
    qtbot.keyClicks(dialog.username_edit, "mgarcia")
    qtbot.keyClicks(dialog.full_name_edit, "Maria Garcia")
    qtbot.keyClicks(dialog.password_edit, "long-enough-1")
    qtbot.keyClicks(dialog.password_again_edit, again)


def test_the_first_start_offers_demo_data_or_an_empty_database(
    qtbot: QtBot, empty_database: Database
) -> None:
    dialog = FirstRunDialog(empty_database)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.windowTitle() == "Welcome to Permit Desk"
    assert dialog.demo_button.text() == "Load demo data"
    assert dialog.empty_button.text() == "Start with an empty database"
    names = [dialog.municipality_box.itemText(i) for i in range(dialog.municipality_box.count())]
    assert names == ["City of Glendale", "City of Hudson", "City of New Lisbon"]


def test_two_different_passwords_are_refused_naming_the_field(
    qtbot: QtBot, empty_database: Database
) -> None:
    dialog = FirstRunDialog(empty_database)
    qtbot.addWidget(dialog)
    dialog.show()
    fill_admin_form(qtbot, dialog, again="long-enough-2")
    dialog.create_button.click()
    assert dialog.admin_error.text().startswith("Password (again): ")
    assert dialog.focusWidget() is dialog.password_again_edit
    with empty_database.read() as conn:
        assert queries.user_count(conn) == 0


def test_creating_the_administrator_sets_up_the_municipality_and_signs_in(
    qtbot: QtBot, empty_database: Database
) -> None:
    dialog = FirstRunDialog(empty_database)
    qtbot.addWidget(dialog)
    dialog.show()
    fill_admin_form(qtbot, dialog, again="long-enough-1")
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        dialog.create_button.click()
    assert dialog.outcome == ADMIN
    assert dialog.actor is not None and dialog.actor.username == "mgarcia"
    with empty_database.read() as conn:
        assert queries.first_municipality(conn) == (1, "new_lisbon", "City of New Lisbon")
    assert users.authenticate(empty_database.uow(), "mgarcia", "long-enough-1").roles == {
        Role.ADMINISTRATOR
    }


def test_loading_demo_data_runs_in_the_background_with_a_progress_bar(
    qtbot: QtBot, empty_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []

    def fake_demo(database: Database, progress: Any) -> str:
        seen.append(database)
        for done in range(0, 101, 25):
            progress(done, 100)
        return "Demo database built."

    monkeypatch.setattr(first_run, "_run_demo", fake_demo)
    dialog = FirstRunDialog(empty_database)
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        dialog.demo_button.click()
    assert seen == [empty_database]
    assert dialog.outcome == DEMO
    assert dialog.demo_summary == "Demo database built."
    assert dialog.progress_bar.maximum() == 100


def test_a_failed_demo_load_says_why_and_goes_back_to_the_choice(
    qtbot: QtBot, empty_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(database: Database, progress: Any) -> str:
        raise users.ValidationError("municipality", "no such profile")

    monkeypatch.setattr(first_run, "_run_demo", broken)
    dialog = FirstRunDialog(empty_database)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.start_demo()
    qtbot.waitUntil(lambda: dialog.welcome_error.isVisible(), timeout=5000)
    assert "municipality: no such profile" in dialog.welcome_error.text()
    assert dialog.pages.currentWidget() is dialog.welcome_page
