"""A shared counter PC: File → Sign out, the idle lock, the sign-in dialog's focus, the window
title, and Enter in the first-run form."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from db.database import Database
from db.engine import sqlite_url
from db.user_queries import user_rows
from desk.services import municipality as municipality_svc
from tests.ui.sample import PASSWORD, Sample
from ui import app, dialogs, settings
from ui.first_run import ADMIN, FirstRunDialog
from ui.login import LoginDialog
from ui.main_window import MainWindow
from ui.views.municipality import SECTION_TITLE as MUNICIPALITY
from ui.views.municipality import MunicipalityView
from ui.views.users import PasswordDialog

CAROLS_OWN = "carol-own-words"


def failed_tries(sample: Sample) -> dict[str, int]:
    with sample.database.read() as conn:
        return {row.username: row.failed_sign_ins for row in user_rows(conn)}


def signed_in_as(username: str, password: str) -> object:
    def answer(dialog: LoginDialog) -> int:
        dialog.username_edit.setText(username)
        dialog.password_edit.setText(password)
        dialog.try_sign_in()
        return int(QDialog.DialogCode.Accepted if dialog.actor else QDialog.DialogCode.Rejected)

    return answer


def choose_own(dialog: PasswordDialog) -> int:
    """Carol's first password was the administrator's: she chooses her own."""
    dialog.password_edit.setText(CAROLS_OWN)
    dialog.password_again_edit.setText(CAROLS_OWN)
    dialog.try_save()
    return int(dialog.result())


def shown_main_windows() -> list[MainWindow]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
    ]


def test_sign_out_closes_the_session_and_the_next_user_gets_a_window_of_their_own(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logins: list[str] = []
    seen: list[str] = []
    answers = [signed_in_as("admin", PASSWORD), signed_in_as("carol", PASSWORD)]

    def sign_in(dialog: LoginDialog) -> int:
        logins.append(dialog.windowTitle())
        return int(answers[len(logins) - 1](dialog))  # type: ignore[operator]

    def event_loop(application: QApplication) -> int:
        [window] = shown_main_windows()
        seen.append(window.user_label.text())
        if len(seen) == 1:
            # The administrator leaves a permit and the occupancy calculator open.
            permit = window.open_permit(sample.issued_id)
            calculator = window.open_occupancy_calculator()
            window.sign_out_action.trigger()
            assert not window.isVisible()
            assert not permit.isVisible() and not calculator.isVisible()
        else:
            others = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
            assert others == [window]  # nothing of the administrator's session is left
            assert window.windowTitle() == "Permit Desk — City of Glendale"
            window.close()  # Quit
        return 0

    monkeypatch.setattr(LoginDialog, "exec", sign_in)
    monkeypatch.setattr(PasswordDialog, "exec", choose_own)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert app.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
    assert logins == ["Sign in — Permit Desk", "Sign in — Permit Desk"]
    assert seen == ["Alex Administrator (Administrator)", "Carol Clerk (Clerk)"]


def test_cancel_at_the_sign_in_after_signing_out_quits(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logins: list[str] = []
    loops: list[str] = []

    def sign_in(dialog: LoginDialog) -> int:
        logins.append(dialog.username_edit.text())
        if len(logins) > 1:
            return int(QDialog.DialogCode.Rejected)
        return int(signed_in_as("admin", PASSWORD)(dialog))  # type: ignore[operator]

    def event_loop(application: QApplication) -> int:
        [window] = shown_main_windows()
        loops.append(window.user_label.text())
        window.sign_out_action.trigger()
        return 0

    monkeypatch.setattr(LoginDialog, "exec", sign_in)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert app.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
    assert loops == ["Alex Administrator (Administrator)"]
    assert logins == ["", "admin"]  # the last user's name offered, not signed in
    assert shown_main_windows() == []


def window_for(qtbot: QtBot, sample: Sample, *, clerk: bool, idle_ms: int = 0) -> MainWindow:
    app.application()
    session = app.make_session(sample.database, sample.clerk if clerk else sample.admin)
    window = MainWindow(
        sample.database,
        session,
        remember_geometry=False,
        clock=sample.clock,
        idle_lock_ms=idle_ms,
    )
    qtbot.addWidget(window)
    window.show()
    window.load()
    return window


def test_sign_out_asks_about_an_unsaved_application_as_quit_does(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = window_for(qtbot, sample, clerk=True)
    form = window.new_application()
    assert form is not None
    form.load_sample()
    assert form.presenter.dirty
    asked: list[str] = []
    answer = [False]

    def ask(_parent: object, _title: str, text: str, **_k: object) -> bool:
        asked.append(text)
        return answer[0]

    monkeypatch.setattr(dialogs, "ask", ask)
    assert not window.sign_out_by_user()  # kept: still signed in, the form open
    assert asked == [
        "This application has not been saved. Close the form and lose what was entered?"
    ]
    assert window.isVisible() and form.isVisible() and not window.signing_out
    answer[0] = True
    assert window.sign_out_by_user()
    assert not window.isVisible() and not form.isVisible() and window.signing_out


def locked_dialog(qtbot: QtBot, window: MainWindow) -> LoginDialog:
    qtbot.waitUntil(lambda: window.session_lock.locked, timeout=3000)
    dialog = window.session_lock.dialog
    assert dialog is not None
    return dialog


def test_an_idle_window_locks_and_the_users_password_resumes_it_as_it_was(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)  # closing at teardown
    window = window_for(qtbot, sample, clerk=True, idle_ms=300)
    form = window.new_application()
    assert form is not None
    form.load_sample()
    kind = form.kind_combo.currentText()
    assert kind
    password_dialog = window.change_my_password()  # a dialog left open too
    assert isinstance(password_dialog, PasswordDialog)

    dialog = locked_dialog(qtbot, window)
    heading = dialog.findChild(QLabel, "dialogHeading")
    assert heading is not None and heading.text() == "Locked — Carol Clerk's session"
    # The user name is fixed (a label, not a field): only Carol's password resumes.
    assert dialog.username_label.text() == "carol" and dialog.username_label.isVisible()
    assert not dialog.username_edit.isVisible()
    assert dialog.focusWidget() is dialog.password_edit
    assert dialog.someone_else_button.isVisible()
    assert dialog.sign_in_button.text() == "Unlock"
    # Nothing of the session shows behind it.
    central = window.centralWidget()
    assert central is not None and not central.isVisible()
    assert not form.isVisible()
    assert not password_dialog.password_edit.isVisible()
    assert dialog.note_label.text() == (
        "Someone else signs Carol Clerk out: the unsaved new application will be lost."
    )
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # Escape does not unlock
    assert window.session_lock.locked and not form.isVisible()

    qtbot.keyClicks(dialog.password_edit, "a-wrong-guess")
    qtbot.keyClick(dialog.password_edit, Qt.Key.Key_Return)
    assert dialog.error_label.isVisible() and window.session_lock.locked
    assert failed_tries(sample) == {"admin": 0, "carol": 1}  # counted against Carol only

    dialog.password_edit.clear()
    qtbot.keyClicks(dialog.password_edit, PASSWORD)
    qtbot.keyClick(dialog.password_edit, Qt.Key.Key_Return)
    assert not window.session_lock.locked
    assert central.isVisible() and form.isVisible()
    assert form.kind_combo.currentText() == kind and form.presenter.dirty
    assert password_dialog.isVisible() and password_dialog.password_edit.isVisible()
    assert failed_tries(sample)["carol"] == 0
    # And it locks again after the next idle spell.
    assert locked_dialog(qtbot, window) is not dialog


def test_someone_else_confirms_the_loss_of_unsaved_forms_and_signs_the_session_out(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = window_for(qtbot, sample, clerk=True, idle_ms=300)
    form = window.new_application()
    assert form is not None
    form.load_sample()
    asked: list[str] = []
    answer = [False]

    def ask(_parent: object, _title: str, text: str, **_k: object) -> bool:
        asked.append(text)
        return answer[0]

    monkeypatch.setattr(dialogs, "ask", ask)
    dialog = locked_dialog(qtbot, window)
    dialog.someone_else_button.click()
    assert asked == ["Carol Clerk's unsaved new application will be lost. Sign Carol Clerk out?"]
    assert window.session_lock.locked and window.isVisible()  # went back: still locked
    answer[0] = True
    dialog.someone_else_button.click()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)
    assert window.sign_out_reason == "Carol Clerk was signed out for someone else."
    assert not form.isVisible() and window.session_lock.dialog is None
    assert len(asked) == 2  # the form's own question is not asked again


def test_a_window_with_nothing_unsaved_is_signed_out_by_someone_else_without_a_question(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = window_for(qtbot, sample, clerk=False, idle_ms=300)
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: pytest.fail("nothing to lose"))
    dialog = locked_dialog(qtbot, window)
    assert not dialog.note_label.isVisible()
    dialog.someone_else_button.click()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)
    assert window.sign_out_reason == "Alex Administrator was signed out for someone else."


def test_the_idle_minutes_are_set_per_municipality_and_zero_never_locks(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: pytest.fail(text))
    window = window_for(qtbot, sample, clerk=False)
    view = window.show_section(MUNICIPALITY)
    assert isinstance(view, MunicipalityView)
    edit = view.fields["idle_lock_minutes"]
    assert isinstance(edit, QLineEdit)
    assert edit.text() == "15"  # the default
    edit.selectAll()
    qtbot.keyClicks(edit, "-3")
    assert not view.save()
    assert view.error_label.text() == (
        "Lock after idle: enter minutes from 1 to 1440, or 0 for never"
    )
    edit.selectAll()
    qtbot.keyClicks(edit, "0")
    assert view.save()
    assert municipality_svc.idle_lock_minutes(sample.database.uow(), sample.municipality_id) == 0
    never = MainWindow(sample.database, window.session, remember_geometry=False)
    qtbot.addWidget(never)
    assert not never.session_lock.watch.enabled  # 0: never
    edit.selectAll()
    qtbot.keyClicks(edit, "5")
    assert view.save()
    five = MainWindow(sample.database, window.session, remember_geometry=False)
    qtbot.addWidget(five)
    assert five.session_lock.watch.timer.interval() == 5 * 60_000


def test_keyboard_and_mouse_input_put_the_lock_off(qtbot: QtBot, sample: Sample) -> None:
    window = window_for(qtbot, sample, clerk=False, idle_ms=20_000)
    timer = window.session_lock.watch.timer

    def counted_down() -> int:
        # Until a second of the countdown has passed: on a loaded machine the window's own
        # show and focus events may restart it first, so no fixed wait is enough.
        qtbot.waitUntil(lambda: 0 < timer.remainingTime() < 19_000, timeout=15_000)
        return timer.remainingTime()

    before = counted_down()
    qtbot.keyClick(window.nav, Qt.Key.Key_Shift)
    # The countdown starts again from the full 20 s.
    assert timer.remainingTime() > before + 500
    before = counted_down()
    qtbot.mouseMove(window.nav, QPoint(3, 3))
    assert timer.remainingTime() > before + 500
    assert not window.session_lock.locked


def test_a_fresh_sign_in_starts_in_the_user_name_with_the_last_one_selected(
    qtbot: QtBot, sample: Sample
) -> None:
    settings.write(settings.LAST_USERNAME, "carol")
    dialog = LoginDialog(sample.database)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.focusWidget() is dialog.username_edit
    assert dialog.username_edit.selectedText() == "carol"
    assert not dialog.someone_else_button.isVisible()
    # The next person types their own name over it, never into Carol's password.
    qtbot.keyClicks(dialog.username_edit, "admin")
    assert dialog.username_edit.text() == "admin"
    assert dialog.password_edit.text() == ""


def test_enter_in_the_first_run_password_creates_the_administrator(
    qtbot: QtBot, empty_database: Database
) -> None:
    dialog = FirstRunDialog(empty_database)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.empty_button, Qt.MouseButton.LeftButton)  # as a person gets there
    dialog.municipality_box.setCurrentIndex(dialog.municipality_box.findData("new_lisbon"))
    qtbot.keyClicks(dialog.username_edit, "mgarcia")
    qtbot.keyClicks(dialog.full_name_edit, "Maria Garcia")
    qtbot.keyClicks(dialog.password_edit, "long-enough-1")
    qtbot.keyClicks(dialog.password_again_edit, "long-enough-1")
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        qtbot.keyClick(dialog.password_again_edit, Qt.Key.Key_Return)
    assert dialog.outcome == ADMIN
    assert dialog.actor is not None and dialog.actor.username == "mgarcia"


def shown_title(title: str) -> str:
    """The title the window manager shows: Qt appends the application's display name to a
    title that does not already end with it (QPlatformWindow::formatWindowTitle)."""
    name = QApplication.applicationDisplayName()
    return title if not name or title.endswith(name) else f"{title} — {name}"


def test_the_window_title_names_permit_desk_once(qtbot: QtBot, sample: Sample) -> None:
    window = window_for(qtbot, sample, clerk=False)
    assert shown_title(window.windowTitle()) == "Permit Desk — City of Glendale"


def test_the_users_list_says_who_never_signed_in(sample: Sample) -> None:
    from ui.presenters.users import UsersPresenter

    with sample.database.read() as conn:
        rows = user_rows(conn)
    presenter = UsersPresenter.of(sample.admin.user_id, rows)
    last = {line.cells[1]: line.cells[-1] for line in presenter.rows}
    assert last["carol"] == "Never signed in"
