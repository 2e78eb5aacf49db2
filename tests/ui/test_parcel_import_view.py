"""File → Import parcels…, driven from the keyboard: an empty Hudson office brings in the
county's parcel file (the State's own sample, a file geodatabase of the City of Westby with four
layers), sees the dry run, imports, and takes its first complaint on a parcel it now has. Cancel
while the parcels are being written leaves the register as it was."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QLineEdit, QMenu, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from db import parcel_import, schema
from db.database import Database
from desk.clock import FixedClock
from desk.services.parcels import imports as parcel_imports
from tests.factories import open_office
from tests.parcel_files import SAMPLE
from ui import dialogs
from ui.app import application, make_session
from ui.main_window import MainWindow
from ui.permit import actions
from ui.presenters import parcel_import as p
from ui.views import enforcement_dialogs as d
from ui.views.enforcement import SECTION_TITLE as ENFORCEMENT
from ui.views.parcel_import import ParcelImportDialog, open_parcel_import

GDB = "TEST_DATASET_PARCELS_2023.gdb"
Alt = Qt.KeyboardModifier.AltModifier
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(date(2026, 3, 2))


@pytest.fixture
def gdb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample, offered by the (patched) folder chooser."""
    copy = Path(shutil.copytree(SAMPLE / GDB, tmp_path / "county" / GDB))
    monkeypatch.setattr(dialogs, "choose_folder", lambda *_a, **_k: str(copy))
    return copy


def _count(database: Database, table: Any) -> int:
    with database.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def _key(qtbot: QtBot, dialog: QDialog, key: Qt.Key, modifier: Any = None) -> None:
    """A key pressed where the focus is, the dialog active (offscreen, a closed dialog leaves
    no window active)."""
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    target = dialog.focusWidget() or dialog
    if modifier is None:
        qtbot.keyClick(target, key)
    else:
        qtbot.keyClick(target, key, modifier)


def _to_the_dry_run(qtbot: QtBot, dialog: ParcelImportDialog) -> None:
    """The file (Alt+G: the .gdb folder), the parcel layer and the mapping as preselected
    (Enter, Enter), the place CITY OF WESTBY (Down: the place with the most rows), the dry run
    (Enter)."""
    assert dialog.focusWidget() is dialog.choose_file_button
    _key(qtbot, dialog, Qt.Key.Key_G, Alt)
    qtbot.waitUntil(lambda: dialog.step == p.LAYER, timeout=10_000)
    assert dialog.focusWidget() is dialog.layer_combo
    assert dialog.layer_combo.count() == 4
    assert dialog.layer_combo.currentText() == (
        "PARCELS_TEST_DATASET_2023 — parcel shapes (polygons), 153 rows"
    )
    _key(qtbot, dialog, Qt.Key.Key_Return)
    assert dialog.step == p.MAPPING
    assert dialog.focusWidget() is dialog.mapping_combos["pin"]
    assert dialog.mapping_combos["pin"].currentText() == "PARCELID"
    assert dialog.mapping_combos["house_number"].currentText() == (
        "ADDNUMPREFIX + ADDNUM + ADDNUMSUFFIX"
    )
    preview = dialog.preview_rows.rows
    assert len(preview) == 20
    assert preview[1].cells[1:3] == ("291005820000", "306 Ulland Ave")
    assert not dialog.error.isVisible()
    _key(qtbot, dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.step == p.PLACE, timeout=10_000)
    assert dialog.focusWidget() is dialog.place_combo
    # Hudson's own place is not in Westby's file: the clerk chooses.
    assert dialog.place_combo.currentText() == "Choose the place…"
    assert dialog.place_text.text().startswith(
        "This file has no rows of CITY OF HUDSON, the municipality's place name"
    )
    _key(qtbot, dialog, Qt.Key.Key_Return)  # Enter with no place: refused, saying why
    assert dialog.step == p.PLACE
    assert dialog.error.text() == (
        "Only rows of: choose the place whose parcels to import, or (every row)"
    )
    _key(qtbot, dialog, Qt.Key.Key_Down)
    assert dialog.place_combo.currentText() == "CITY OF WESTBY — 124 rows"
    _key(qtbot, dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.step == p.DRY_RUN, timeout=20_000)


def test_an_empty_hudson_office_imports_its_parcels_and_takes_its_first_complaint(
    qtbot: QtBot,
    empty_database: Database,
    clock: FixedClock,
    gdb: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = empty_database
    _admin, _mid, (carol,) = open_office(database, clock, "hudson", ("carol",))
    application()
    window = MainWindow(
        database, make_session(database, carol), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.load()

    # File → Import parcels…: the clerk may.
    action = window.import_parcels_action
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu) and action in file_menu.actions()
    assert action.text() == "Import p&arcels…" and action.isEnabled()
    action.trigger()
    dialog = window.parcel_import_dialog
    assert isinstance(dialog, ParcelImportDialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    assert dialog.width() <= 1366 and dialog.height() <= 768 - 60  # the taskbar, the title

    _to_the_dry_run(qtbot, dialog)
    assert dialog.summary.text() == "124 new, 0 changed, 0 unchanged, 29 of other places left out"
    tabs = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert tabs[0] == "New (124)" and "Rejected (0)" in tabs and "Places left out (4)" in tabs
    places = [row.cells for row in dialog.tab_rows["places"].rows]
    assert places[0] == ("TOWN OF CHRISTIANA", "21")
    assert _count(database, schema.parcel) == 0  # a dry run writes nothing

    # Save dry run… (Alt+S): the workbook, where the clerk says.
    saved = tmp_path / "dry run.xlsx"
    monkeypatch.setattr(dialogs, "choose_file", lambda *_a, **_k: str(saved))
    shown: list[Path] = []
    monkeypatch.setattr(dialogs, "show_file", lambda _p, path, _t: shown.append(Path(path)))
    _key(qtbot, dialog, Qt.Key.Key_S, Alt)
    qtbot.waitUntil(lambda: shown == [saved], timeout=3000)
    assert openpyxl.load_workbook(saved)["New"].max_row == 125

    # Import (Enter): off the UI thread, then the result in one line.
    assert dialog.next_button.text() == "&Import (124 new, 0 changed)"
    _key(qtbot, dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.step == p.DONE, timeout=20_000)
    assert (
        dialog.result_label.text() == "124 parcels added, 0 changed; saved as import of 03/02/2026"
    )
    assert dialog.focusWidget() is dialog.close_button
    assert _count(database, schema.parcel) == 124
    _key(qtbot, dialog, Qt.Key.Key_Return)  # Close
    qtbot.waitUntil(lambda: window.parcel_import_dialog is None, timeout=2000)

    # The first complaint (Ctrl+J) on a parcel chosen from the picker.
    view = window.show_section(ENFORCEMENT)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)

    def complaint(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ComplaintDialog)
        _typed(qtbot, dialog.search, "306 Ulland")
        assert [dialog.parcel.itemText(i) for i in range(dialog.parcel.count())] == [
            "306 Ulland Ave  (PIN 291005820000)"
        ]
        _typed(qtbot, dialog.description, "Rotted porch floor at the front steps")

    seen = _by_keys(qtbot, monkeypatch, complaint)
    qtbot.keyClick(view, Qt.Key.Key_J, Ctrl)
    assert len(seen) == 1
    assert view.case_numbers() == ["CE-2026-0001"]  # type: ignore[attr-defined]
    c, pc = schema.enforcement_case, schema.parcel
    with database.read() as conn:
        row = conn.execute(
            select(c.c.number, pc.c.pin, pc.c.owner_name).join(pc, pc.c.id == c.c.parcel_id)
        ).one()
    assert tuple(row) == ("CE-2026-0001", "291005820000", "MICHAEL H & REBECCA L SOLBERG")


def test_cancel_while_the_parcels_are_written_leaves_no_parcel(
    qtbot: QtBot,
    empty_database: Database,
    clock: FixedClock,
    gdb: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = empty_database
    _admin, _mid, (carol,) = open_office(database, clock, "hudson", ("carol",))
    application()
    dialog = open_parcel_import(None, database, make_session(database, carol), clock)
    assert isinstance(dialog, ParcelImportDialog)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    _to_the_dry_run(qtbot, dialog)

    # The import is held after its first 50 parcels are written, until the clerk has pressed
    # Cancel; it stops at the next chunk and rolls back.
    monkeypatch.setattr(parcel_import, "CHUNK", 50)
    held = threading.Event()
    real = parcel_imports.import_parcels

    def holding(*args: Any, progress: Callable[[int, int], None], **kw: Any) -> Any:
        def step(done: int, total: int) -> None:
            progress(done, total)
            held.wait(10)

        return real(*args, progress=step, **kw)

    monkeypatch.setattr(parcel_imports, "import_parcels", holding)
    _key(qtbot, dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.progress.value() == 50, timeout=10_000)
    assert dialog.progress.maximum() == 124
    assert dialog.focusWidget() is dialog.cancel_button
    _key(qtbot, dialog, Qt.Key.Key_Escape)  # Esc cancels the work; the window stays
    assert dialog.isVisible() and dialog.status.text() == "Cancelling…"
    held.set()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=10_000)
    assert dialog.outcome.text() == "Cancelled: nothing was changed."
    assert dialog.step == p.DRY_RUN and dialog.next_button.isEnabled()
    assert _count(database, schema.parcel) == 0
    assert _count(database, schema.data_import) == 0


def _typed(qtbot: QtBot, widget: QWidget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def _by_keys(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]
) -> list[QDialog]:
    """The step's dialog shown, filled from the keyboard by `fill`, and OK pressed with Enter
    in a line of the form (tests/ui/test_enforcement_view.py)."""
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        fill(dialog)
        edit = next(
            w
            for w in dialog.findChildren(QLineEdit)
            if w.isEnabled() and w.isVisible() and not isinstance(w.parent(), QComboBox)
        )
        edit.setFocus()
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def test_an_inspector_sees_the_menu_entry_greyed_saying_who_may_import(
    qtbot: QtBot, empty_database: Database, clock: FixedClock
) -> None:
    _admin, _mid, (ivan,) = open_office(empty_database, clock, "hudson", ("ivan",))
    application()
    session = make_session(empty_database, ivan)
    window = MainWindow(empty_database, session, remember_geometry=False, clock=clock)
    qtbot.addWidget(window)
    action = window.import_parcels_action
    assert not action.isEnabled()
    assert action.toolTip() == (
        "Only an administrator or a clerk may import parcels and contractors from files."
    )


def test_a_bad_file_and_a_mapping_without_the_key_are_said_once_naming_them(
    qtbot: QtBot,
    empty_database: Database,
    clock: FixedClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _admin, _mid, (carol,) = open_office(empty_database, clock, "hudson", ("carol",))
    boxes: list[str] = []
    for name in ("warn", "error", "inform"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: boxes.append(text))
    junk = tmp_path / "minutes.gpkg"
    junk.write_bytes(b"%PDF-1.7 council minutes, not a geopackage " * 40)
    chosen = [str(junk)]
    monkeypatch.setattr(dialogs, "choose_file", lambda *_a, **_k: chosen[-1])
    application()
    dialog = open_parcel_import(None, empty_database, make_session(empty_database, carol), clock)
    assert isinstance(dialog, ParcelImportDialog)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)

    _key(qtbot, dialog, Qt.Key.Key_F, Alt)
    qtbot.waitUntil(lambda: dialog.error.isVisible(), timeout=10_000)
    assert dialog.step == p.FILE
    assert dialog.error.text().startswith(
        "minutes.gpkg is not a file geodatabase (.gdb), a shapefile, a GeoPackage"
    )
    assert boxes == []  # in the window, once

    # The assessor's own spreadsheet: its columns matched by name, no place column.
    sheet = tmp_path / "assessor.csv"
    sheet.write_text(
        "Tax key,Owner,Address\n101,ANNA SCHMIDT,12 MAIN STREET\n102,BO LEE,14 MAIN ST\n"
    )
    chosen.append(str(sheet))
    _key(qtbot, dialog, Qt.Key.Key_F, Alt)
    qtbot.waitUntil(lambda: dialog.step == p.LAYER, timeout=10_000)
    assert not dialog.error.isVisible()
    assert dialog.layer_combo.currentText() == "assessor — a table, 2 rows"
    _key(qtbot, dialog, Qt.Key.Key_Return)
    pin = dialog.mapping_combos["pin"]
    assert pin.currentText() == "Tax key"
    assert [row.cells[1:3] for row in dialog.preview_rows.rows] == [
        ("101", "12 Main St"),
        ("102", "14 Main St"),
    ]
    _key(qtbot, dialog, Qt.Key.Key_Home)  # (not in the file)
    assert pin.currentText() == "(not in the file)"
    message = (
        "assessor.csv, layer assessor: Parcel number (PIN): choose the column that holds the "
        "parcel number (the key; V10: PARCELID)"
    )
    assert dialog.error.text() == message
    assert dialog.preview_rows.rows[0].cells[-1] == "the parcel number is blank"
    _key(qtbot, dialog, Qt.Key.Key_Return)
    assert dialog.step == p.MAPPING and dialog.focusWidget() is pin
    _key(qtbot, dialog, Qt.Key.Key_T)  # typed in the choice: the column "Tax key"
    assert pin.currentText() == "Tax key" and not dialog.error.isVisible()
    _key(qtbot, dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.step == p.PLACE, timeout=10_000)
    assert [dialog.place_combo.itemText(i) for i in range(dialog.place_combo.count())] == [
        "(every row)"
    ]
    assert dialog.place_text.text().startswith(
        "The mapping reads no place name: every row is read."
    )
    _key(qtbot, dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.step == p.DRY_RUN, timeout=10_000)
    assert dialog.summary.text() == "2 new, 0 changed, 0 unchanged"
    assert boxes == []
