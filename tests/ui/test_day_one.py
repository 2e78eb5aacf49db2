"""Day one in a real office, on the screens: an administrator starts empty and adds a clerk and
an inspector; the clerk signs in and must choose her own password; the inspector issues a permit
and its card names him; disabling the clerk signs her out at her next action."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole, Role
from desk.domain.model import Actor, Parcel, Party
from desk.services import permits, users
from tests.factories import make_issuable
from ui import app as ui_app
from ui import dialogs
from ui.first_run import ADMIN, FirstRunDialog
from ui.login import LoginDialog
from ui.main_window import MainWindow
from ui.views.users import PasswordDialog, UserDialog

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)


def add_user(
    qtbot: QtBot,
    window: MainWindow,
    username: str,
    full_name: str,
    title: str,
    role: Role,
    password: str,
) -> None:
    assert window.users_view is not None
    dialog = window.users_view.add_user()
    assert isinstance(dialog, UserDialog)
    qtbot.keyClicks(dialog.username_edit, username)
    qtbot.keyClicks(dialog.full_name_edit, full_name)
    qtbot.keyClicks(dialog.title_edit, title)
    dialog.role_boxes[role].setChecked(True)
    qtbot.keyClicks(dialog.password_edit, password)
    qtbot.keyClicks(dialog.password_again_edit, password)
    dialog.save_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted, dialog.error_label.text()


def window_for(qtbot: QtBot, database: Database, actor: Actor, clock: FixedClock) -> MainWindow:
    window = MainWindow(
        database, ui_app.make_session(database, actor), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    window.show()
    window.load()
    return window


def answer(step: Callable[[QDialog], None], kind: type[QDialog]) -> None:
    """Act in the next modal dialog of `kind` once it is shown (the app's exec() blocks)."""

    def act() -> None:
        widget = QApplication.activeModalWidget()
        if isinstance(widget, kind):
            step(widget)
        else:
            QTimer.singleShot(20, act)

    QTimer.singleShot(0, act)


def sign_in_as(
    database: Database, username: str, password: str, new_password: str = ""
) -> Actor | None:
    """ui.app.sign_in as a person would use it: the sign-in dialog, then, for a first
    password, the dialog that makes them choose their own."""

    def login(dialog: QDialog) -> None:
        assert isinstance(dialog, LoginDialog)
        dialog.username_edit.setText(username)
        dialog.password_edit.setText(password)
        if new_password:
            answer(choose, PasswordDialog)
        dialog.sign_in_button.click()

    def choose(dialog: QDialog) -> None:
        assert isinstance(dialog, PasswordDialog)
        assert not dialog.current_edit.isVisibleTo(dialog)  # just typed: not asked again
        assert "not the user name" in dialog.findChild(type(dialog.error_label), "noteText").text()
        dialog.password_edit.setText(new_password)
        dialog.password_again_edit.setText(new_password)
        dialog.save_button.click()

    answer(login, LoginDialog)
    return ui_app.sign_in(database, "", "")


def test_an_office_that_starts_empty_runs_the_day_without_a_developer(
    qtbot: QtBot,
    empty_database: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database, clock = empty_database, FixedClock(NOW)
    ui_app.application()

    # 1. "Start empty": the municipality and its first administrator.
    first = FirstRunDialog(database, clock=clock)
    qtbot.addWidget(first)
    first.pages.setCurrentWidget(first.admin_page)
    first.municipality_box.setCurrentIndex(first.municipality_box.findData("glendale"))
    qtbot.keyClicks(first.username_edit, "mgarcia")
    qtbot.keyClicks(first.full_name_edit, "Maria Garcia")
    qtbot.keyClicks(first.password_edit, "office-key-2026")
    qtbot.keyClicks(first.password_again_edit, "office-key-2026")
    first.create_button.click()
    assert first.outcome == ADMIN and first.actor is not None
    admin = first.actor

    # 2. Administration → Users: a clerk and an inspector, each with a first password.
    admin_window = window_for(qtbot, database, admin, clock)
    assert "Users" in admin_window.section_titles()
    admin_window.show_section("Users")
    add_user(qtbot, admin_window, "cora", "Cora Clerk", "Permit Clerk", Role.CLERK, "given-1-pass")
    add_user(
        qtbot,
        admin_window,
        "ivan",
        "Ivan Ilic",
        "Building Inspector",
        Role.INSPECTOR,
        "given-2-pass",
    )
    view = admin_window.users_view
    assert view is not None
    listed = {line.cells[1]: line.cells for line in view.presenter.rows}
    assert listed["cora"][3:5] == ("Clerk", "Must change password")
    assert listed["ivan"][2:5] == ("Building Inspector", "Inspector", "Must change password")
    assert listed["mgarcia"][3:5] == ("Administrator", "Active")

    # 3. The clerk signs in with the first password and must choose her own.
    clerk = sign_in_as(database, "cora", "given-1-pass", new_password="cora-own-secret")
    assert clerk is not None and clerk.roles == frozenset({Role.CLERK})
    assert not users.sign_in(database.uow(), clock, "cora", "cora-own-secret").must_change_password
    with pytest.raises(Exception, match="wrong password"):
        users.sign_in(database.uow(), clock, "cora", "given-1-pass")

    # At the counter she takes an application (the intake form has its own tests).
    uow = database.uow()
    with database.read() as conn:
        from db.queries import first_municipality

        muni = first_municipality(conn)
    assert muni is not None
    parcel_id = permits.add_parcel(
        uow,
        clock,
        clerk,
        Parcel(
            municipality_id=muni[0],
            pin="047-9991-002",
            house_number="6120",
            street="N Port Washington Rd",
            city="Glendale",
            zip="53217",
        ),
    )
    owner_id = permits.add_party(
        uow, clock, clerk, Party(kind=PartyKind.PERSON, name="", first_name="Anna", last_name="Ma")
    )
    permit_id = permits.take_application(
        uow,
        clock,
        clerk,
        permits.ApplicationInput(
            municipality_id=muni[0],
            kind="RES-OTHER",
            parcel_id=parcel_id,
            description="Tear-off and reroof",
            valuation=Decimal("14800.00"),
            parties=((PartyRole.BUILDING_OWNER, owner_id),),
        ),
    )
    make_issuable(database, clock, admin, permit_id)  # checklist received, fees paid
    clerk_window = window_for(qtbot, database, clerk, clock)

    # 4. The inspector signs in, issues the permit in the issue dialog and prints its card.
    inspector = sign_in_as(database, "ivan", "given-2-pass", new_password="ivan-own-secret")
    assert inspector is not None
    inspector_window = window_for(qtbot, database, inspector, clock)
    permit_window = inspector_window.open_permit(permit_id)
    issue = permit_window.open_issue_dialog()
    assert issue is not None
    assert issue.condition_texts() == []
    issue.issue_button.click()
    assert issue.result_label.text() == "Issued as permit 2026-0001"
    card = tmp_path / "card.pdf"
    # Filed without a Save-as dialog: the card shown is copied where the test reads it.
    monkeypatch.setattr(
        dialogs, "show_file", lambda _p, path, _t: card.write_bytes(Path(path).read_bytes())
    )
    issue.card_button.click()
    qtbot.waitUntil(card.exists, timeout=5000)
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(card)).pages)
    assert "2026-0001" in text
    assert "Ivan Ilic" in text and "Building Inspector" in text
    issue.close()

    # 5. The clerk leaves: disabled, she is signed out at her next action.
    view.select_user("cora")
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    monkeypatch.setattr(dialogs, "warn", lambda *_a, **_k: None)
    view.toggle_button.click()
    assert {line.cells[1]: line.cells[4] for line in view.presenter.rows}["cora"] == "Disabled"
    assert clerk_window.isVisible()
    clerk_window.show_section("Deadlines")  # her next action
    assert clerk_window.sign_out_reason == (
        "Your account has been disabled by an administrator; you are signed out."
    )
    qtbot.waitUntil(lambda: not clerk_window.isVisible(), timeout=2000)
    with pytest.raises(Exception, match="wrong password"):
        users.sign_in(database.uow(), clock, "cora", "cora-own-secret")
