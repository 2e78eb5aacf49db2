"""Administration → Users and File → Change my password, on the sample register."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from desk.domain.enums import Role
from desk.services import users
from tests.ui.sample import PASSWORD, Sample
from ui import dialogs
from ui.main_window import MainWindow
from ui.presenters.formatting import format_timestamp
from ui.views.users import SECTION_TITLE, PasswordDialog, UserDialog, UsersView


@pytest.fixture
def view(main_window: MainWindow) -> UsersView:
    main_window.show_section(SECTION_TITLE)
    assert main_window.users_view is not None
    return main_window.users_view


def test_the_users_list_is_a_sound_model_with_each_users_roles_and_state(
    qtmodeltester: object, view: UsersView
) -> None:
    qtmodeltester.check(view.model)  # type: ignore[attr-defined]
    rows = {line.cells[1]: line.cells for line in view.presenter.rows}
    assert rows["admin"][3:5] == ("Administrator", "Active")
    assert rows["carol"][3:5] == ("Clerk", "Must change password")
    assert users.COMMAND_LINE not in rows


def test_an_administrator_cannot_disable_herself_and_the_button_says_why(
    view: UsersView,
) -> None:
    view.select_user("admin")
    assert not view.toggle_button.isEnabled()
    assert view.toggle_button.toolTip() == "You cannot disable your own account."
    view.select_user("carol")
    assert view.toggle_button.isEnabled() and view.toggle_button.text() == "&Disable"


def test_a_duplicate_user_name_is_shown_on_the_field_and_nothing_is_added(
    qtbot: QtBot, view: UsersView, sample: Sample
) -> None:
    dialog = view.add_user()
    qtbot.keyClicks(dialog.username_edit, "carol")
    qtbot.keyClicks(dialog.full_name_edit, "Another Carol")
    dialog.role_boxes[Role.CLERK].setChecked(True)
    qtbot.keyClicks(dialog.password_edit, "fresh-start-9")
    qtbot.keyClicks(dialog.password_again_edit, "fresh-start-9")
    dialog.save_button.click()
    assert dialog.isVisible()
    assert dialog.error_label.text() == "User name: 'carol' is already taken"
    assert dialog.focusWidget() is dialog.username_edit or not dialog.isActiveWindow()
    dialog.password_again_edit.setText("fresh-start-8")
    dialog.save_button.click()
    assert dialog.error_label.text() == "Password (again): the two passwords differ"
    dialog.reject()
    assert len(view.presenter.rows) == 2


def test_changing_roles_and_title_and_resetting_a_password(
    qtbot: QtBot, view: UsersView, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    view.select_user("carol")
    dialog = view.edit_user()
    assert isinstance(dialog, UserDialog)
    assert dialog.username_edit.isReadOnly()
    dialog.title_edit.setText("Deputy Clerk")
    dialog.role_boxes[Role.TREASURER].setChecked(True)
    dialog.save_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    row = {line.cells[1]: line.cells for line in view.presenter.rows}["carol"]
    assert row[2:4] == ("Deputy Clerk", "Clerk, Treasurer")

    reset = view.reset_password()
    assert isinstance(reset, PasswordDialog)
    reset.password_edit.setText("carol")
    reset.password_again_edit.setText("carol")
    reset.save_button.click()
    assert reset.error_label.text() == "Password: use at least 8 characters"
    reset.password_edit.setText("told-at-desk-5")
    reset.password_again_edit.setText("told-at-desk-5")
    reset.save_button.click()
    assert reset.result() == QDialog.DialogCode.Accepted
    signed = users.sign_in(sample.database.uow(), sample.clock, "carol", "told-at-desk-5")
    assert signed.must_change_password
    assert signed.actor.roles == frozenset({Role.CLERK, Role.TREASURER})


def test_file_change_my_password_asks_the_current_one(
    main_window: MainWindow, sample: Sample
) -> None:
    dialog = main_window.change_my_password()
    assert isinstance(dialog, PasswordDialog)
    dialog.current_edit.setText("not-mine-at-all")
    dialog.password_edit.setText("my-new-phrase-1")
    dialog.password_again_edit.setText("my-new-phrase-1")
    dialog.save_button.click()
    assert dialog.error_label.text() == "Current password: this is not your current password"
    dialog.current_edit.setText(PASSWORD)
    dialog.save_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert users.sign_in(sample.database.uow(), sample.clock, "admin", "my-new-phrase-1")


def test_a_clerk_has_no_users_section(qtbot: QtBot, sample: Sample) -> None:
    from ui.app import make_session

    window = MainWindow(
        sample.database,
        make_session(sample.database, sample.clerk),
        remember_geometry=False,
        clock=sample.clock,
    )
    qtbot.addWidget(window)
    assert SECTION_TITLE not in window.section_titles()
    assert window.users_view is None
    assert window.password_action.text() == "Change my &password…"


def test_disabling_is_asked_first_and_no_is_no(
    view: UsersView, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    view.select_user("carol")
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: False)
    view.toggle_button.click()
    assert {line.cells[1]: line.cells[4] for line in view.presenter.rows}["carol"] != "Disabled"
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    view.toggle_button.click()
    assert {line.cells[1]: line.cells[4] for line in view.presenter.rows}["carol"] == "Disabled"
    assert view.toggle_button.text() == "&Enable"
    view.toggle_button.click()  # enabling asks nothing
    assert {line.cells[1]: line.cells[4] for line in view.presenter.rows}["carol"] != "Disabled"


def test_a_user_whose_roles_change_is_asked_to_sign_in_again_at_the_next_action(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.app import make_session

    window = MainWindow(
        sample.database,
        make_session(sample.database, sample.clerk),
        remember_geometry=False,
        clock=sample.clock,
    )
    qtbot.addWidget(window)
    window.show()
    users.set_roles(
        sample.database.uow(), sample.clock, sample.admin, sample.clerk.user_id, {Role.TREASURER}
    )
    warned: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: warned.append(text))
    window.show_section("Deadlines")
    assert window.sign_out_reason == (
        "An administrator changed your roles; sign in again to work with the new ones."
    )
    assert warned == [window.sign_out_reason]
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)


def test_an_administrator_locks_a_clerk_from_the_list_and_unlocks_her(
    main_window: MainWindow, view: UsersView, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    from desk.errors import AuthenticationFailed

    def state() -> str:
        return {line.cells[1]: line.cells[4] for line in view.presenter.rows}["carol"]

    view.select_user("admin")
    assert not view.lock_button.isEnabled()
    assert view.lock_button.toolTip() == "You cannot lock your own account."
    # Wrong passwords only delay the next try; the administrator sees how many.
    for _ in range(3):
        with pytest.raises(AuthenticationFailed):
            users.sign_in(sample.database.uow(), sample.clock, "carol", "a-wrong-guess")
    view.load()
    view.select_user("carol")
    assert state() == "Must change password"
    assert " 3 wrong passwords in a row, the last at " in view.note.text()
    assert view.lock_button.text() == "&Lock" and view.lock_button.isEnabled()
    assert view.lock_button.focusPolicy() & Qt.FocusPolicy.TabFocus  # reached by Tab

    asked: list[str] = []

    def ask(_parent: object, _title: str, question: str, **_k: object) -> bool:
        asked.append(question)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    view.lock_button.click()
    assert asked == [
        "Lock Carol Clerk's account? They cannot sign in until an administrator unlocks it. "
        "Reset the password too if someone else may know it."
    ]
    when = format_timestamp(sample.clock.now())
    assert state() == f"Locked by Alex Administrator, {when}"
    assert f"Locked by Alex Administrator, {when}: cannot sign in until an administrator " in (
        view.note.text()
    )
    assert view.lock_button.text() == "&Unlock"
    with pytest.raises(AuthenticationFailed, match=r"^Unknown user name or wrong password"):
        users.sign_in(sample.database.uow(), sample.clock, "carol", PASSWORD)

    sample.clock.advance(timedelta(minutes=20))
    view.lock_button.click()  # no question: unlocking takes nothing away
    assert len(asked) == 1
    assert view.lock_button.text() == "&Lock"
    assert state() == "Must change password"
    assert users.sign_in(sample.database.uow(), sample.clock, "carol", PASSWORD)


def test_a_users_form_saved_over_another_administrators_change_offers_to_reload(
    view: UsersView, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    view.select_user("carol")
    first = view.edit_user()
    assert first is not None and first.user is not None
    # The same user opened at another workstation before the first one saves.
    second = UserDialog(None, sample.database, view.session, sample.clock, first.user)
    first.title_edit.setText("Deputy Clerk")
    first.save_button.click()
    assert first.result() == QDialog.DialogCode.Accepted
    offered: list[str] = []
    monkeypatch.setattr(dialogs, "offer_reload", lambda _p, _t, text: offered.append(text) or True)
    second.full_name_edit.setText("Carol C. Clerk")
    second.save_button.click()
    assert second.result() != QDialog.DialogCode.Accepted
    assert offered == [second.error_label.text()]
    assert offered[0].startswith("The user carol was changed by Alex Administrator at ")
    # Reloaded: the other administrator's title is shown, and the name can be changed again.
    assert (second.full_name_edit.text(), second.title_edit.text()) == (
        "Carol Clerk",
        "Deputy Clerk",
    )
    second.full_name_edit.setText("Carol C. Clerk")
    second.save_button.click()
    assert second.result() == QDialog.DialogCode.Accepted
    view.load()
    row = {line.cells[1]: line.cells for line in view.presenter.rows}["carol"]
    assert row[:3] == ("Carol C. Clerk", "carol", "Deputy Clerk")
