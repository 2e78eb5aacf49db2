"""`permitdesk gui`: screenshot mode, its errors, and window state kept between sessions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from db.engine import sqlite_url
from desk.domain.enums import Role
from desk.services import users
from tests.ui.sample import PASSWORD, Sample
from ui import app, dialogs
from ui.first_run import FirstRunDialog
from ui.login import LoginDialog
from ui.main_window import MainWindow
from ui.presenters.session import Session
from ui.views.users import PasswordDialog


def test_a_screenshot_of_the_permits_list_is_a_png_of_the_requested_size(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "shot.png"
    rc = app.run_gui(sqlite_url(db_path), str(out), "permits", (1100, 700), "admin", "")
    assert rc == 0
    image = QImage(str(out))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1100, 700)


def test_a_screenshot_of_the_deadlines_section(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "deadlines.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "deadlines", (1000, 600), "admin", "") == 0
    assert (QImage(str(out)).width(), QImage(str(out)).height()) == (1000, 600)


def test_a_screenshot_of_a_permit_window_and_its_history_tab(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    for view in ("permit:2026-0001", "permit:2026-0001:history"):
        out = tmp_path / f"{view.replace(':', '_')}.png"
        assert app.run_gui(sqlite_url(db_path), str(out), view, (1280, 800), "admin", "") == 0
        assert not QImage(str(out)).isNull()


def test_a_screenshot_with_a_search_typed_in(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "search.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "permits", (900, 600), "carol", "schm") == 0
    assert out.exists()


def test_a_screenshot_of_a_real_database_needs_a_user(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shot.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "permits", (1280, 800), None, "") == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "permitdesk: error: --user is required for a screenshot of a database that is not a demo"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    ("view", "user", "message"),
    [
        ("council", "admin", "unknown view 'council'"),
        ("permit:2026-0001:payments", "admin", "unknown tab 'payments'"),
        ("permit:2031-0404", "admin", "no permit numbered '2031-0404'"),
        ("permits", "nobody", "no active user named 'nobody'"),
    ],
)
def test_a_screenshot_that_cannot_be_taken_exits_2_with_one_line(
    qtbot: QtBot,
    sample: Sample,
    db_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    view: str,
    user: str,
    message: str,
) -> None:
    rc = app.run_gui(sqlite_url(db_path), str(tmp_path / "x.png"), view, (1280, 800), user, "")
    assert rc == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("permitdesk: error: ")
    assert message in err


def test_a_screenshot_of_a_demo_database_signs_in_as_admin(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app, "is_demo_database", lambda database: True)
    out = tmp_path / "demo.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "permits", (800, 600), None, "") == 0
    assert out.exists()


def test_the_main_window_remembers_its_size_between_sessions(
    qtbot: QtBot, sample: Sample, session: Session
) -> None:
    first = MainWindow(sample.database, session)
    qtbot.addWidget(first)
    first.resize(720, 480)  # the offscreen screen is 800 x 600: restoring clamps to it
    first.show()
    first.load()
    first.close()
    second = MainWindow(sample.database, session)
    qtbot.addWidget(second)
    assert (second.width(), second.height()) == (720, 480)


def test_a_screenshot_ignores_the_remembered_size(
    qtbot: QtBot, sample: Sample, session: Session, db_path: Path, tmp_path: Path
) -> None:
    first = MainWindow(sample.database, session)
    qtbot.addWidget(first)
    first.resize(600, 400)
    first.show()
    first.close()
    out = tmp_path / "shot.png"
    assert app.run_gui(sqlite_url(db_path), str(out), "permits", (1024, 640), "admin", "") == 0
    assert QImage(str(out)).size().toTuple() == (1024, 640)


def sign_in_as_carol(dialog: LoginDialog) -> int:
    """The sign-in dialog's exec(), as Carol would answer it."""
    dialog.username_edit.setText("carol")
    dialog.password_edit.setText(PASSWORD)
    dialog.try_sign_in()
    return int(QDialog.DialogCode.Accepted if dialog.actor else QDialog.DialogCode.Rejected)


def test_the_interactive_start_signs_in_and_opens_the_main_window(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def choose_own(dialog: PasswordDialog) -> int:
        """Carol's password was given by the administrator: she must choose her own first."""
        seen.append(dialog.windowTitle())
        dialog.password_edit.setText("carol-own-words")
        dialog.password_again_edit.setText("carol-own-words")
        dialog.try_save()
        return int(dialog.result())

    def event_loop(application: QApplication) -> int:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
        shown = [w for w in windows if w.isVisible()]
        seen.extend(w.windowTitle() for w in shown)
        seen.extend(w.user_label.text() for w in shown)
        for w in shown:
            w.close()
        return 0

    monkeypatch.setattr(LoginDialog, "exec", sign_in_as_carol)
    monkeypatch.setattr(PasswordDialog, "exec", choose_own)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert app.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
    assert seen == [
        "Choose your password",
        "Permit Desk — City of Glendale",
        "Carol Clerk (Clerk)",
    ]
    signed = users.sign_in(sample.database.uow(), sample.clock, "carol", "carol-own-words")
    assert not signed.must_change_password


def test_cancelling_the_change_of_a_first_password_quits_without_a_window(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QApplication] = []
    monkeypatch.setattr(LoginDialog, "exec", sign_in_as_carol)
    monkeypatch.setattr(PasswordDialog, "exec", lambda _d: int(QDialog.DialogCode.Rejected))
    monkeypatch.setattr(QApplication, "exec", lambda a: opened.append(a) or 0)
    assert app.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
    assert opened == []


def test_a_user_disabled_while_working_is_signed_out_and_asked_to_sign_in_again(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes: list[str] = []

    def sign_in(dialog: LoginDialog) -> int:
        notes.append(dialog.note_label.text())
        if len(notes) > 1:
            return int(QDialog.DialogCode.Rejected)  # nobody else signs in: the app ends
        dialog.username_edit.setText("admin")
        dialog.password_edit.setText(PASSWORD)
        dialog.try_sign_in()
        return int(QDialog.DialogCode.Accepted)

    def event_loop(application: QApplication) -> int:
        window = next(
            w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
        )
        # Another administrator disables this one meanwhile; her next action signs her out.
        second = users.create_user(
            sample.database.uow(),
            sample.clock,
            sample.admin,
            username="bea",
            full_name="Bea Admin",
            password="second-admin-1",
            roles={Role.ADMINISTRATOR},
        )
        bea = users.actor_for_username(sample.database.uow(), "bea")
        assert second == bea.user_id
        users.set_active(sample.database.uow(), sample.clock, bea, sample.admin.user_id, False)
        window.show_section("Deadlines")
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)
        return 0

    monkeypatch.setattr(dialogs, "warn", lambda *_a, **_k: None)
    monkeypatch.setattr(LoginDialog, "exec", sign_in)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert app.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
    assert notes == ["", "Your account has been disabled by an administrator; you are signed out."]


def test_the_interactive_start_on_a_new_database_opens_the_welcome_dialog(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    titles: list[str] = []

    def quit_at_welcome(dialog: QDialog) -> int:
        titles.append(dialog.windowTitle())
        return int(QDialog.DialogCode.Rejected)

    monkeypatch.setattr(FirstRunDialog, "exec", quit_at_welcome)
    url = sqlite_url(tmp_path / "new.db")
    assert app.run_gui(url, None, "permits", (1280, 800), None, "") == 0
    assert titles == ["Welcome to Permit Desk"]


def test_a_database_that_cannot_be_opened_is_explained_in_a_message_box(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, text: shown.append(text))
    bad = tmp_path / "not-permitdesk.db"
    sqlite3.connect(bad).execute("CREATE TABLE x (y)").connection.commit()
    assert app.run_gui(sqlite_url(bad), None, "permits", (1280, 800), None, "") == 2
    assert len(shown) == 1
    assert "not made by Permit Desk" in shown[0]
