"""Tools → Fee calculator: from the keyboard, live breakdown, errors, printing, screenshots."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QImage
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from db.engine import sqlite_url
from tests.ui.sample import Sample
from ui import app, dialogs
from ui.main_window import MainWindow
from ui.presenters.session import Session
from ui.views import fee_calculator
from ui.views.fee_calculator import FeeCalculatorWindow

MONEY_COLUMNS = (3, 4, 5)


@pytest.fixture
def window(qtbot: QtBot, sample: Sample, session: Session) -> MainWindow:
    app.application()
    main = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(main)
    main.show()
    main.load()
    return main


@pytest.fixture
def calculator(qtbot: QtBot, window: MainWindow) -> FeeCalculatorWindow:
    calc = window.open_fee_calculator()
    assert calc is not None
    qtbot.waitExposed(calc)
    return calc


def breakdown(calc: FeeCalculatorWindow) -> list[list[str]]:
    model = calc.breakdown_model
    return [
        [model.data(model.index(r, c)) for c in range(model.columnCount())]
        for r in range(model.rowCount())
    ]


def amount_of(calc: FeeCalculatorWindow, code_or_label: str) -> str:
    for row in breakdown(calc):
        if code_or_label in (row[0], row[1]) or row[1].startswith(code_or_label):
            return row[5]
    raise KeyError(code_or_label)


def wait_priced(qtbot: QtBot, calc: FeeCalculatorWindow) -> None:
    qtbot.waitUntil(lambda: not calc.update_pending, timeout=2000)


def pick(qtbot: QtBot, calc: FeeCalculatorWindow, text: str) -> QLineEdit:
    """Type in the item box and press Enter, as a clerk does."""
    edit = calc.item_combo.lineEdit()
    assert edit is not None
    edit.setFocus()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    return edit


def test_the_calculator_models_pass_the_model_tester(
    qtbot: QtBot, qtmodeltester: object, calculator: FeeCalculatorWindow
) -> None:
    calculator.load_sample()
    calculator.work_began_box.setChecked(True)
    calculator.recalculate_now()
    qtmodeltester.check(calculator.breakdown_model)  # type: ignore[attr-defined]
    qtmodeltester.check(calculator.lines_model)  # type: ignore[attr-defined]


def test_ctrl_k_opens_one_non_modal_calculator(qtbot: QtBot, window: MainWindow) -> None:
    assert window.calculator_action.shortcut().toString() == "Ctrl+K"
    assert "Fee &calculator" in window.calculator_action.text()
    window.calculator_action.trigger()
    calc = window.fee_calculator
    assert calc is not None and calc.isVisible() and not calc.isModal()
    window.calculator_action.trigger()
    assert window.fee_calculator is calc  # raised, not a second one
    # The main window still works while the calculator is open.
    assert window.isEnabled() and window.permits_view.search_box.isEnabled()


def test_a_clerk_prices_a_new_house_from_the_keyboard(
    qtbot: QtBot, calculator: FeeCalculatorWindow
) -> None:
    calc = calculator
    pick(qtbot, calc, "RES-NEW")
    quantity = calc.field_edits["quantity"]
    assert quantity.isVisible() and calc.field_labels["quantity"].text() == "Square feet"
    assert not calc.field_edits["amount"].isVisible()
    assert QApplication.focusWidget() is quantity or quantity.hasFocus()
    qtbot.keyClicks(quantity, "2400")
    qtbot.keyClick(quantity, Qt.Key.Key_Return)
    pick(qtbot, calc, "RES-STATE-SEAL")  # nothing to enter: Enter adds it
    wait_priced(qtbot, calc)
    assert [line.code for line in calc.presenter.lines] == ["RES-NEW", "RES-STATE-SEAL"]
    assert breakdown(calc)[0] == [
        "RES-NEW",
        "Residential new construction, all floor area",
        "15.1.21(a)(1)",
        "$288.00",
        "$115.20",
        "$404.00",
    ]
    assert amount_of(calc, "Total") == "$439.00"
    assert not calc.error_label.isVisible()

    calc.work_began_box.setChecked(True)
    wait_priced(qtbot, calc)
    assert amount_of(calc, "double fee — work began before permit") == "$404.00"
    assert amount_of(calc, "Total") == "$843.00"

    pick(qtbot, calc, "RES-ACCESSORY")
    qtbot.keyClick(calc.field_edits["quantity"], Qt.Key.Key_Return)  # no quantity typed
    wait_priced(qtbot, calc)
    assert calc.error_label.isVisible()
    assert calc.error_label.text() == "RES-ACCESSORY.quantity: enter the quantity (square feet)"
    assert amount_of(calc, "Total") == "—"  # the last total is not shown as if current
    assert calc.lines_table.currentIndex().row() == 2  # the line the message is about


def test_a_missing_quantity_for_a_new_house_is_named_in_red(
    qtbot: QtBot, calculator: FeeCalculatorWindow
) -> None:
    calc = calculator
    pick(qtbot, calc, "RES-STATE-SEAL")
    pick(qtbot, calc, "RES-NEW")
    qtbot.keyClick(calc.field_edits["quantity"], Qt.Key.Key_Return)
    wait_priced(qtbot, calc)
    assert calc.error_label.text() == "RES-NEW.quantity: enter the quantity (square feet)"
    assert calc.error_label.objectName() == "errorText"  # red in the stylesheet
    assert not calc.print_button.isEnabled()
    # Delete removes the selected line and the quote is current again.
    calc.lines_table.setFocus()
    calc.lines_table.selectRow(1)
    qtbot.keyClick(calc.lines_table, Qt.Key.Key_Delete)
    wait_priced(qtbot, calc)
    assert [line.code for line in calc.presenter.lines] == ["RES-STATE-SEAL"]
    assert amount_of(calc, "Total") == "$35.00" and not calc.error_label.isVisible()


def test_a_line_is_changed_by_putting_it_back_in_the_form(
    qtbot: QtBot, calculator: FeeCalculatorWindow
) -> None:
    calc = calculator
    pick(qtbot, calc, "RES-NEW")
    qtbot.keyClicks(calc.field_edits["quantity"], "2400")
    qtbot.keyClick(calc.field_edits["quantity"], Qt.Key.Key_Return)
    calc.lines_table.setFocus()
    calc.lines_table.selectRow(0)
    qtbot.keyClick(calc.lines_table, Qt.Key.Key_Return)
    quantity = calc.field_edits["quantity"]
    assert quantity.text() == "2400" and calc.add_button.text() == "&Update line"
    quantity.selectAll()
    qtbot.keyClicks(quantity, "3000")
    qtbot.keyClick(quantity, Qt.Key.Key_Return)
    wait_priced(qtbot, calc)
    assert len(calc.presenter.lines) == 1
    assert amount_of(calc, "RES-NEW") == "$504.00"  # 3,000 × 0.12 = 360 + 144 = 504


def test_the_form_follows_the_tab_order_of_the_paper(calculator: FeeCalculatorWindow) -> None:
    calc = calculator
    order = [calc.date_edit]
    widget = calc.date_edit.nextInFocusChain()
    wanted = {
        calc.item_combo,
        calc.field_edits["quantity"],
        calc.add_button,
        calc.lines_table,
        calc.work_began_box,
        calc.emergency_box,
        calc.breakdown_table,
        calc.print_button,
    }
    while widget is not calc.date_edit and len(order) < 200:
        if widget in wanted:
            order.append(widget)
        widget = widget.nextInFocusChain()
    assert order == [
        calc.date_edit,
        calc.item_combo,
        calc.field_edits["quantity"],
        calc.add_button,
        calc.lines_table,
        calc.work_began_box,
        calc.emergency_box,
        calc.breakdown_table,
        calc.print_button,
    ]


def test_money_is_right_aligned_and_the_total_is_bold(calculator: FeeCalculatorWindow) -> None:
    calculator.load_sample()
    model = calculator.breakdown_model
    last = model.rowCount() - 1
    for column in MONEY_COLUMNS:
        alignment = model.data(model.index(0, column), Qt.ItemDataRole.TextAlignmentRole)
        assert alignment & Qt.AlignmentFlag.AlignRight
        header = model.headerData(
            column, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole
        )
        assert header & Qt.AlignmentFlag.AlignRight
    font = model.data(model.index(last, 5), Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.bold()
    assert model.data(model.index(last, 5)) == "$607.00"
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert titles == ["Code", "Description", "Section", "Base", "40 % admin", "Amount"]


def test_printing_files_the_quote_as_a_pdf_and_opens_it(
    qtbot: QtBot,
    calculator: FeeCalculatorWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []
    opened: list[str] = []

    def choose_file(parent: object, caption: str, file_filter: str = "", **kw: object) -> str:
        asked.append(f"{caption} | {file_filter} | {kw.get('save')}")
        return str(tmp_path / "quote")  # no suffix typed: .pdf is added

    monkeypatch.setattr(dialogs, "choose_file", choose_file)
    monkeypatch.setattr(dialogs, "show_file", lambda _w, path, _t: opened.append(str(path)))
    calculator.load_sample()
    assert calculator.print_button.isEnabled()
    qtbot.mouseClick(calculator.print_button, Qt.MouseButton.LeftButton)
    assert asked == []  # a printout: filed in the document folder, no Save-as dialog
    assert len(opened) == 1
    out = Path(opened[0])
    assert out.parent.name == "Fee quotes" and out.name.startswith("fee-quote-")
    text = "".join(page.extract_text() for page in pypdf.PdfReader(out).pages)
    for expected in ("City of Glendale", "Fee quote", "RES-NEW", "404.00", "607.00"):
        assert expected in text
    assert "Alex Administrator" in text


def test_a_quote_that_cannot_be_written_leaves_no_file(
    qtbot: QtBot, calculator: FeeCalculatorWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reports import fee_quote

    def fail(*_a: object) -> None:
        raise OSError("disk full")

    opened: list[object] = []
    errors: list[str] = []
    monkeypatch.setattr(fee_quote, "render_quote_pdf", fail)
    monkeypatch.setattr(dialogs, "error", lambda _p, _t, text: errors.append(text))
    monkeypatch.setattr(dialogs, "show_file", lambda _w, path, _t: opened.append(path))
    calculator.load_sample()
    assert calculator.print_quote() is None
    assert opened == [] and len(errors) == 1 and "disk full" in errors[0]


def test_the_breakdown_waits_for_the_typing_to_stop(
    qtbot: QtBot, calculator: FeeCalculatorWindow
) -> None:
    calc = calculator
    calc.presenter.add_line("RES-POOL")
    calc.lines_model.refresh()
    calc.schedule_update()
    assert calc.update_pending and fee_calculator.UPDATE_DELAY_MS == 150
    assert calc.breakdown_model.rowCount() == 0
    wait_priced(qtbot, calc)
    assert amount_of(calc, "Total") == "$70.00"


@pytest.mark.parametrize("user", ["admin", "carol"])
def test_a_screenshot_of_the_calculator_is_a_png_of_the_requested_size(
    qtbot: QtBot, sample: Sample, db_path: Path, tmp_path: Path, user: str
) -> None:
    out = tmp_path / f"calculator-{user}.png"
    rc = app.run_gui(sqlite_url(db_path), str(out), "calculator", (1000, 700), user, "")
    assert rc == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1000, 700)


def test_the_screenshot_calculator_holds_the_glendale_sample(
    qtbot: QtBot, calculator: FeeCalculatorWindow
) -> None:
    calculator.load_sample()
    assert [line.code for line in calculator.presenter.lines] == [
        "RES-NEW",
        "RES-STATE-SEAL",
        "PLUMBING",
    ]
    assert amount_of(calculator, "PLUMBING") == "$168.00"
    assert amount_of(calculator, "Total") == "$607.00"
