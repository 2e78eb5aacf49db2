"""Each register files its printouts apart: a demo register's never land beside the office's own
(where a second copy would be named "… (2).pdf")."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.engine import sqlite_url
from db.places import default_sqlite_path
from ui import dialogs, exports, settings
from ui.main_window import MainWindow


def test_the_default_register_files_in_the_default_folder_and_another_in_its_own(
    tmp_path: Path,
) -> None:
    settings.use_register(sqlite_url(default_sqlite_path()))
    assert settings.document_folder() == settings.default_document_folder()
    settings.use_register(sqlite_url(tmp_path / "demo.db"))
    assert settings.document_folder() == settings.default_document_folder() / "demo"
    settings.use_register("postgresql+psycopg://clerk:secret@server/permits")
    assert settings.document_folder() == settings.default_document_folder() / "permits on server"
    settings.use_register(None)
    assert settings.document_folder() == settings.default_document_folder()


def test_the_open_window_s_register_decides_and_a_folder_chosen_is_kept_for_that_register(
    main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sample register is t.db in the test's folder, not the default permitdesk.db.
    assert settings.document_folder() == settings.default_document_folder() / "t"
    chosen = tmp_path / "office share" / "demo printouts"
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    monkeypatch.setattr(dialogs, "choose_folder", lambda *_a: str(chosen))
    assert exports.choose_document_folder(main_window) == chosen
    assert settings.document_folder() == chosen
    settings.use_register(sqlite_url(default_sqlite_path()))  # the office's own register
    assert settings.document_folder() == settings.default_document_folder()


def test_a_folder_chosen_before_registers_were_kept_apart_still_serves_as_their_root(
    tmp_path: Path,
) -> None:
    settings.write(settings.DOCUMENT_FOLDER, str(tmp_path / "share"))
    settings.use_register(None)
    assert settings.document_folder() == tmp_path / "share"
    settings.use_register(sqlite_url(tmp_path / "demo.db"))
    assert settings.document_folder() == tmp_path / "share" / "demo"
