"""The Help menu: the user guide (F1) and its contents, the shortcuts, About."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from db.migrate import HEAD
from db.places import log_dir
from ui import dialogs
from ui.help import GuideWindow
from ui.main_window import MainWindow
from ui.presenters.help import GUIDE_MISSING, contents_tree, find_guide, guide_candidates

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"


def guide_sections() -> list[str]:
    """The guide's `## ` headings, read from the file outside code blocks."""
    out, fenced = [], False
    for line in GUIDE.read_text("utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"## \S", line):
            out.append(line[3:].strip())
    return out


def open_guide_with_f1(qtbot: QtBot, window: MainWindow) -> GuideWindow:
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(
        lambda: window.help_menu.guide is not None and window.help_menu.guide.isVisible()
    )
    guide = window.help_menu.guide
    assert guide is not None
    qtbot.waitExposed(guide)
    return guide


def test_f1_opens_the_user_guide_with_its_sections_as_the_contents(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    guide = open_guide_with_f1(qtbot, main_window)

    assert not guide.isModal()
    assert "Fees" in guide_sections() and "Reports" in guide_sections()
    assert guide.heading_titles() == guide_sections()
    fees = guide.item_for("Fees")
    assert fees is not None and fees.childCount() > 0  # its ### headings under it
    assert "Permit Desk" in guide.text.toPlainText()


def test_clicking_a_contents_entry_scrolls_the_guide_to_that_heading(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    guide = open_guide_with_f1(qtbot, main_window)
    bar = guide.text.verticalScrollBar()
    guide.scroll_to_block(0)
    assert bar.value() == 0

    fees = guide.item_for("Fees")
    assert fees is not None
    rect = guide.contents.visualItemRect(fees)
    qtbot.mouseClick(guide.contents.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    assert bar.value() > 0
    top = guide.text.cursorForPosition(QPoint(40, 30)).block()
    assert top.text() == "Fees"


def test_the_guide_says_so_in_one_sentence_when_it_is_not_installed(
    qtbot: QtBot, tmp_path: Path
) -> None:
    guide = GuideWindow(None, tmp_path / "no-guide.md")
    qtbot.addWidget(guide)
    assert guide.text.toPlainText() == GUIDE_MISSING
    assert guide.contents.topLevelItemCount() == 0


def test_the_packaged_guide_is_found_in_the_pyinstaller_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packaged = tmp_path / "docs" / "user-guide.md"
    packaged.parent.mkdir()
    packaged.write_text("# Guide\n", "utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert find_guide() == packaged
    assert guide_candidates()[1] == GUIDE  # and the checkout's, for an editable install
    assert find_guide([tmp_path / "missing.md", GUIDE]) == GUIDE


def test_contents_tree_nests_subsections_under_their_section() -> None:
    tree = contents_tree([(1, "Guide", 0), (2, "Fees", 3), (3, "Quotes", 5), (2, "Reports", 9)])
    assert [(n.title, [c.title for c in n.children]) for n in tree] == [
        ("Fees", ["Quotes"]),
        ("Reports", []),
    ]


def test_about_shows_the_database_its_schema_revision_and_the_log_folder(
    qtbot: QtBot, main_window: MainWindow, db_path: Path
) -> None:
    dialog = main_window.help_menu.about_dialog()
    qtbot.addWidget(dialog)

    assert dialog.values["Database"].text() == str(db_path.resolve())
    assert dialog.values["Schema revision"].text() == HEAD  # the newest migration
    assert dialog.values["Log folder"].text() == str(log_dir())
    assert dialog.values["Version"].text() == "0.1.0"
    flags = dialog.values["Database"].textInteractionFlags()
    assert flags & Qt.TextInteractionFlag.TextSelectableByMouse

    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert f"Database: {db_path.resolve()}" in copied
    assert f"Schema revision: {HEAD}" in copied


def test_open_log_folder_shows_the_folder_of_the_log(
    main_window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    opened: list[Path] = []
    monkeypatch.setattr(dialogs, "open_file", lambda path: opened.append(Path(path)) or True)
    menu = next(a.menu() for a in main_window.menuBar().actions() if a.text() == "&Help")
    assert main_window.help_menu.log_action in menu.actions()
    main_window.help_menu.log_action.trigger()
    assert opened == [log_dir()] and log_dir().is_dir()
    assert str(log_dir()).startswith(str(tmp_path / "state"))


def test_the_shortcuts_dialog_lists_every_main_window_shortcut(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    dialog = main_window.help_menu.shortcuts_dialog()
    qtbot.addWidget(dialog)
    rows = dialog.rows()

    assert ("Ctrl+N", "New Application") in rows
    assert ("Ctrl+K", "Fee calculator") in rows
    assert ("F1", "User Guide") in rows
    assert ("Ctrl+R", "Inspections: new inspection request") in rows
    assert dialog.table.columnCount() == 2
