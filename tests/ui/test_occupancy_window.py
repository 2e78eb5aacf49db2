"""Tools → Occupancy calculator: rooms typed from the keyboard, the limits as they are typed,
mistakes named beside the table, Ctrl+P files and prints one page, the screenshot view."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication, QMenu, QWidget
from pytestqt.qtbot import QtBot

from db.engine import sqlite_url
from tests.ui.sample import Sample
from ui import app, settings
from ui import pdf as pdf_module
from ui.main_window import MainWindow
from ui.presenters.session import Session
from ui.views.occupancy import SUBFOLDER, OccupancyWindow


class Printer:
    """The patched print dialog: accepted, the pages printed into a PDF file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.asked: list[int] = []

    def __call__(self, _parent: Any, printer: QPrinter, pages: int) -> bool:
        self.asked.append(pages)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(self.folder / f"printed-{len(self.asked)}.pdf"))
        return True


@pytest.fixture
def window(qtbot: QtBot, sample: Sample, session: Session) -> MainWindow:
    from desk.services import municipality

    # The calculator reads a housing code; Glendale's own ordinance has none until it adopts one.
    municipality.update_municipality(
        sample.database.uow(), sample.clock, sample.admin, sample.municipality_id,
        {"housing_code": "hudson-140"},
    )  # fmt: skip
    app.application()
    main = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(main)
    main.show()
    main.load()
    return main


@pytest.fixture
def calculator(qtbot: QtBot, window: MainWindow) -> OccupancyWindow:
    tools = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Tools" and a.menu())
    assert isinstance(tools, QMenu)
    action = next(a for a in tools.actions() if a.text() == "&Occupancy calculator…")
    action.trigger()
    calc = window.occupancy_window
    assert calc is not None
    qtbot.waitExposed(calc)
    calc.activateWindow()
    return calc


def focused(calc: OccupancyWindow) -> QWidget:
    widget = QApplication.focusWidget()
    return widget if widget is not None else calc.table


def type_keys(qtbot: QtBot, calc: OccupancyWindow, *keys: str | Qt.Key) -> None:
    """Each key to the widget that has the focus, as the keyboard sends it."""
    for key in keys:
        if isinstance(key, str):
            for char in key:
                qtbot.keyClicks(focused(calc), char)
        else:
            qtbot.keyClick(focused(calc), key)


TAB = Qt.Key.Key_Tab


def test_the_tools_menu_opens_one_calculator_under_the_municipalitys_code(
    qtbot: QtBot, window: MainWindow, calculator: OccupancyWindow
) -> None:
    assert calculator.presenter.code == "hudson-140"  # no housing_code in the settings
    assert calculator.code_combo.currentData() == "hudson-140"
    window.occupancy_action.trigger()
    assert window.occupancy_window is calculator  # raised, not a second one
    assert not calculator.isModal()


def test_an_inspector_types_two_rooms_and_prints_the_result(
    qtbot: QtBot, calculator: OccupancyWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calc = calculator
    printer = Printer(tmp_path)
    monkeypatch.setattr(pdf_module, "choose_printer", printer)
    assert calc.table.hasFocus() or QApplication.focusWidget() is None
    calc.table.setFocus()
    # Living room: living, 200 sq ft, 8 ft throughout, window 20, openable 8.
    type_keys(qtbot, calc, "Living room", TAB, "l", TAB, "200", TAB, TAB, TAB, "20", TAB, "8")
    type_keys(qtbot, calc, TAB)
    assert calc.result_label.text() == (
        "Complies — at most 1 occupant in 200 sq ft of habitable floor area"
    )
    # Ctrl+N: a second room; Bedroom 2, 70 sq ft, one adult sleeping (140-7B: 80 needed).
    qtbot.keyClick(focused(calc), Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert calc.table.currentIndex().row() == 1
    # "b" picks the bedroom: the code's sleeping room, not the bathroom.
    type_keys(qtbot, calc, "Bedroom 2", TAB, "b", TAB, "70", TAB, TAB, TAB, TAB, TAB)
    type_keys(qtbot, calc, TAB, "1", TAB)
    rows = calc.presenter.rows
    assert [(r.name, r.use, r.floor_area, r.over_12) for r in rows] == [
        ("Living room", "living", "200", ""),
        ("Bedroom 2", "sleeping", "70", "1"),
    ]
    # 270 sq ft: two occupants (140-7A: 250); one stated.
    assert calc.result_label.text() == (
        "Does not comply: 1 shortfall — at most 2 occupants in 270 sq ft of habitable floor area"
    )
    assert calc.figure_labels["verdict"].text() == "no"
    shortfalls = [calc.shortfalls.item(i).text() for i in range(calc.shortfalls.count())]
    assert shortfalls == [
        "140-7B Bedroom 2: 1 occupant (1 over 12) sleeps in 70 sq ft; 140-7B requires 80 sq ft."
    ]

    qtbot.keyClick(focused(calc), Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert printer.asked == [1]
    folder = settings.document_folder() / str(date.today().year) / SUBFOLDER
    (filed,) = folder.glob("occupancy-*.pdf")
    reader = PdfReader(filed)
    assert len(reader.pages) == 1
    text = " ".join((reader.pages[0].extract_text() or "").split())
    for words in (
        "Occupancy calculation",
        "City of Hudson, Ch. 140 Minimum Housing",
        "Living room",
        "Bedroom 2",
        "Habitable floor area 270 sq ft",
        "Maximum occupants 2",
        "Does not comply: 1 shortfall",
        "140-7B Bedroom 2: 1 occupant (1 over 12) sleeps in 70 sq ft; 140-7B requires 80 sq ft.",
    ):
        assert words in text


def test_a_bad_area_is_named_beside_the_table_and_delete_removes_a_room(
    qtbot: QtBot, calculator: OccupancyWindow
) -> None:
    calc = calculator
    calc.table.setFocus()
    type_keys(qtbot, calc, "Den", TAB, "l", TAB, "12x", TAB)
    assert calc.error_label.isVisible()
    assert calc.error_label.text() == 'Den: floor area: "12x" is not a number'
    assert calc.result_label.text() == "Fix the mistake shown below the table"
    assert not calc.print_button.isEnabled()
    qtbot.keyClick(focused(calc), Qt.Key.Key_Insert)
    assert len(calc.presenter.rows) == 2
    calc.table.setCurrentIndex(calc.model.index(0, 2))
    calc.table.setFocus()
    qtbot.keyClick(calc.table, Qt.Key.Key_Delete)
    assert [r.name for r in calc.presenter.rows] == [""]
    assert not calc.error_label.isVisible()


def test_switching_the_code_recalculates(qtbot: QtBot, calculator: OccupancyWindow) -> None:
    calculator.load_sample()
    assert calculator.figure_labels["habitable"].text() == "464 sq ft"
    calculator.code_combo.setCurrentIndex(calculator.code_combo.findData("ch-512"))
    assert calculator.shortfalls.item(0).text().startswith("512-11G Kitchen")


def test_ch_512_shows_the_artificial_light_and_attic_columns_and_counts_them(
    qtbot: QtBot, calculator: OccupancyWindow
) -> None:
    from ui.presenters.occupancy import ATTIC, COLUMN_KEYS, LIGHT

    light, attic = COLUMN_KEYS.index(LIGHT), COLUMN_KEYS.index(ATTIC)
    calculator.load_sample()
    # Hudson ch. 140 has neither case: no such columns.
    assert calculator.table.isColumnHidden(light) and calculator.table.isColumnHidden(attic)
    calculator.code_combo.setCurrentIndex(calculator.code_combo.findData("ch-512"))
    assert not calculator.table.isColumnHidden(light)
    assert not calculator.table.isColumnHidden(attic)
    kitchen = next(i for i, r in enumerate(calculator.presenter.rows) if r.use == "kitchen")
    assert calculator.shortfalls.item(0).text().startswith("512-11G Kitchen")
    before = calculator.shortfalls.count()
    # Space on the cell ticks it: the kitchen is lit artificially (512-11G).
    calculator.table.setCurrentIndex(calculator.model.index(kitchen, light))
    calculator.table.setFocus()
    qtbot.keyClick(calculator.table, Qt.Key.Key_Space)
    assert calculator.presenter.rows[kitchen].artificial_light
    texts = [calculator.shortfalls.item(i).text() for i in range(calculator.shortfalls.count())]
    assert not any(t.startswith("512-11G Kitchen") for t in texts)
    assert len(texts) < before
    # A bedroom reads as the code's sleeping room.
    bedroom = next(i for i, r in enumerate(calculator.presenter.rows) if r.use == "sleeping")
    assert calculator.model.index(bedroom, 1).data() == "bedroom (sleeping)"


def test_the_rooms_model_passes_the_model_tester(
    qtmodeltester: Any, calculator: OccupancyWindow
) -> None:
    calculator.load_sample()
    qtmodeltester.check(calculator.model)


def test_mnemonics_are_unique_and_tab_follows_the_form(calculator: OccupancyWindow) -> None:
    from PySide6.QtWidgets import QAbstractButton, QLabel

    texts = [w.text() for w in calculator.findChildren(QLabel) + calculator.findChildren(
        QAbstractButton)]  # fmt: skip
    keys = [t[t.index("&") + 1].lower() for t in texts if "&" in t]
    assert len(keys) == len(set(keys)), keys
    order = []
    widget: QWidget | None = calculator.code_combo
    for _ in range(10):
        assert widget is not None
        order.append(widget.objectName())
        widget = widget.nextInFocusChain()
        while widget is not None and (
            widget.focusPolicy() == Qt.FocusPolicy.NoFocus or not widget.isVisible()
        ):
            widget = widget.nextInFocusChain()
    assert order[:4] == ["housingCode", "occupancyRooms", "addRoom", "removeRoom"]


def test_the_screenshot_shows_a_two_bedroom_unit(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "occupancy.png"
    rc = app.run_gui(sqlite_url(db_path), str(out), "occupancy", (1366, 768), "admin", "")
    assert rc == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)


def test_the_notes_and_headings_cite_only_the_code_chosen(calculator: OccupancyWindow) -> None:
    """Hudson 140-1 leaves a child under one out of the occupants; Ch. 512 has no such rule,
    so under Ch. 512 the window says nothing of it and cites no Hudson section."""
    model = calculator.model

    def tips() -> list[str]:
        return [
            str(model.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole))
            for i in range(model.columnCount())
        ]

    assert calculator.stated_note.text().endswith("A child under one is no occupant (140-1).")
    assert "Sleeping, living, dining and kitchen are habitable (140-1)" in tips()
    assert "Under 12 (a child under one is no occupant, 140-1)" in tips()
    calculator.code_combo.setCurrentIndex(calculator.code_combo.findData("ch-512"))
    assert calculator.stated_note.text() == "Blank: the sleepers stated in the rooms."
    assert not [t for t in tips() if "140-" in t]
    assert "A mechanical device ventilates the room (512-11K/L); Space ticks it" in tips()
    assert "Sleeping, living, dining and kitchen are habitable" in tips()
