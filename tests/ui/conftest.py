"""UI test fixtures: offscreen Qt, private QSettings, and a small register made through services."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from db.database import Database, open_database
from db.engine import sqlite_url
from tests.ui.sample import Sample, build_sample
from ui.app import application, make_session
from ui.main_window import PERMITS, MainWindow
from ui.presenters.session import Session


@pytest.fixture(autouse=True)
def private_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """QSettings go to a temporary folder: tests never read or write the user's real ones. The
    data folder too (printouts are filed under it by default)."""
    folder = tmp_path / "settings"
    folder.mkdir()
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("ui.settings._register", None)  # no register open yet
    # No real print dialog in a test (a payment prints its receipt): cancelled unless patched.
    monkeypatch.setattr("ui.pdf.choose_printer", lambda *_a: False)
    yield folder


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


@pytest.fixture
def sample(db_path: Path) -> Iterator[Sample]:
    database = open_database(sqlite_url(db_path))
    try:
        yield build_sample(database)
    finally:
        database.close()


@pytest.fixture
def empty_database(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "empty.db"))
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def session(sample: Sample) -> Session:
    return make_session(sample.database, sample.admin)


@pytest.fixture
def main_window(qtbot: QtBot, sample: Sample, session: Session) -> MainWindow:
    application()  # the stylesheet, as in the app
    window = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.show_section(PERMITS)  # most tests work the list; the home is tested on its own
    window.load()
    return window
