"""A register on a CD: the window opens on it with a banner saying it is read-only; looking
works, and a change is refused in a sentence (the window goes on)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from db.database import Database, open_database
from db.engine import sqlite_url
from desk.errors import ReadOnlyRegister
from desk.services import users
from tests.read_only import read_only_folder
from tests.ui.sample import PASSWORD, Sample
from ui import app, dialogs
from ui.app import application, make_session
from ui.login import LoginDialog
from ui.main_window import MainWindow


@pytest.fixture
def on_cd(
    sample: Sample, db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Database]:
    sample.database.close()
    with read_only_folder(tmp_path / "cd", {"t.db": db_path.read_bytes()}, monkeypatch) as cd:
        database = open_database(sqlite_url(cd / "t.db"))
        try:
            yield database
        finally:
            database.close()


def test_the_window_says_it_is_read_only_and_refuses_a_change(
    qtbot: QtBot, on_cd: Database, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert on_cd.read_only
    login = LoginDialog(on_cd, note="", username="admin")
    qtbot.addWidget(login)
    login.password_edit.setText(PASSWORD)
    login.try_sign_in()
    assert login.actor is not None and login.actor.username == "admin"

    application()
    window = MainWindow(on_cd, make_session(on_cd, login.actor), remember_geometry=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.load()
    assert window.read_only_banner.isVisible()
    assert window.read_only_banner.text().startswith(f"Read-only: {on_cd.where} cannot be")
    assert window.permits_view.model.rowCount() == len(sample.permit_ids)

    warned: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: warned.append(text))
    try:
        users.unlock(on_cd.uow(), sample.clock, login.actor, login.actor.user_id)
    except ReadOnlyRegister as e:
        app._excepthook(type(e), e, e.__traceback__)
    assert warned == [ReadOnlyRegister.MESSAGE]
