"""The occupancy calculator's result attached to a case from the keyboard (Hudson 140-7): Alt+T,
the case number typed, Enter; the status line says which violations were recorded, and the
case window's Occupancy tab and timeline show the calculation. A mistake in the number is said
in the dialog, naming the field."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.enforcement.model import Channel
from desk.services.enforcement import complaints
from tests.db.enforcement_setup import Office, office
from ui import dialogs
from ui.app import application, make_session
from ui.enforcement.window import CaseWindow
from ui.permit import actions
from ui.permit.base import PermitContext
from ui.views.occupancy import AttachDialog, OccupancyWindow

TODAY = date(2026, 3, 2)
Alt = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def o(empty_database: Database, clock: FixedClock) -> Office:
    return office(empty_database, clock)


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    return said


def _case(o: Office) -> int:
    taken = complaints.take_complaint(
        o.db.uow(), o.clock, o.clerk, o.mid, o.parcel_id, Channel.PHONE, "Six people upstairs"
    )
    return taken.case.case_id


def _calculator(qtbot: QtBot, o: Office, actor: Actor) -> OccupancyWindow:
    application()
    calc = OccupancyWindow(
        o.db, make_session(o.db, actor), o.clock, "hudson-140", remember_geometry=False
    )
    qtbot.addWidget(calc)
    calc.show()
    calc.activateWindow()
    qtbot.waitUntil(calc.isActiveWindow, timeout=2000)
    # The sample: 464 sq ft of habitable floor, at most 4 (140-7A); six stated.
    calc.load_sample()
    calc.over_edit.setText("5")
    calc.under_edit.setText("1")
    return calc


def _typed_dialog(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, number: str, unit: str
) -> list[AttachDialog]:
    """The dialog run from the keyboard: the number and unit typed, Enter (the default)."""
    seen: list[AttachDialog] = []

    def run(dialog: QDialog) -> bool:
        assert isinstance(dialog, AttachDialog)
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        if number:
            assert QApplication.focusWidget() is dialog.number
            qtbot.keyClicks(dialog.number, number)
            qtbot.keyClick(dialog.number, Qt.Key.Key_Tab)
        # the tab order: number, unit, date; with the number filled in, the unit first
        assert QApplication.focusWidget() is dialog.unit
        qtbot.keyClicks(dialog.unit, unit)
        qtbot.keyClick(dialog.unit, Qt.Key.Key_Return)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def _alt(qtbot: QtBot, widget: QWidget, key: Qt.Key) -> None:
    top = widget.window()
    top.activateWindow()
    qtbot.waitUntil(top.isActiveWindow, timeout=2000)
    qtbot.keyClick(widget, key, Alt)


def test_alt_t_attaches_to_the_case_typed_and_the_case_window_shows_it(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch, warnings: list[str]
) -> None:
    case_id = _case(o)
    calc = _calculator(qtbot, o, o.inspector)
    assert calc.attach_case_button.isEnabled()
    seen = _typed_dialog(qtbot, monkeypatch, "ce-2026-1", "Upper")
    _alt(qtbot, calc.table, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    assert warnings == []
    assert calc.attach_status.isVisible()
    assert calc.attach_status.text() == (
        "Attached to CE-2026-0001; 3 violations recorded (140-7A, 140-5A, 140-7B)"
    )

    window = CaseWindow(PermitContext(o.db, make_session(o.db, o.inspector), 0, o.clock), case_id)
    qtbot.addWidget(window)
    window.show()
    window.reload()
    assert [line.cells for line in window.checks.rows] == [
        ("03/02/2026", "Upper", "4", "no", "140-7A the unit; 140-5A Kitchen; 140-7B Bedroom 2")
    ]
    assert window.check_model.rowCount() == 1
    assert window.reprint_button.isEnabled()
    assert "Occupancy calculated: 4 may live here (140-7A); does not comply (Unit Upper)" in (
        window.timeline_texts()
    )
    assert [line.cells[0] for line in window.violations.rows] == ["140-7A", "140-5A", "140-7B"]


def test_the_case_window_opens_the_calculator_for_its_case_and_reprints_the_result(
    qtbot: QtBot,
    o: Office,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    tmp_path: Path,
) -> None:
    case_id = _case(o)
    application()
    window = CaseWindow(PermitContext(o.db, make_session(o.db, o.inspector), 0, o.clock), case_id)
    qtbot.addWidget(window)
    window.show()
    window.reload()
    assert window.occupancy_button.isEnabled() and not window.reprint_button.isEnabled()
    _alt(qtbot, window.timeline_table, Qt.Key.Key_E)  # Calculat&e occupancy…
    qtbot.waitUntil(lambda: window.calculator is not None, timeout=3000)
    calc = window.calculator
    assert isinstance(calc, OccupancyWindow)
    assert calc.attach_case_button.text() == "A&ttach to CE-2026-0001…"
    assert not calc.attach_licence_button.isEnabled()
    calc.load_sample()
    calc.over_edit.setText("5")
    calc.under_edit.setText("1")
    seen = _typed_dialog(qtbot, monkeypatch, "", "2")  # the number is filled in already
    _alt(qtbot, calc.table, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    assert seen[0].number.text() == "CE-2026-0001"
    # The case window read the case again and shows the Occupancy tab.
    qtbot.waitUntil(lambda: len(window.checks.rows) == 1, timeout=2000)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Occupanc&y"

    filed: list[Path] = []

    def printout(
        _parent: object,
        _title: str,
        name: str,
        write: Callable[[Path], object],
        *_a: object,
        **_k: object,
    ) -> Path:
        out = tmp_path / name
        write(out)
        filed.append(out)
        return out

    monkeypatch.setattr("ui.views.occupancy_checks.printout", printout)
    window.reprint_button.click()
    assert filed and filed[0].name.startswith("occupancy-CE-2026-0001-")
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(filed[0]).pages).split())
    assert "Attached to CE-2026-0001" in text and "Maximum occupants 4" in text


def test_a_case_number_not_of_this_office_is_said_in_the_dialog(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch, warnings: list[str]
) -> None:
    _case(o)
    calc = _calculator(qtbot, o, o.inspector)
    said: list[str] = []

    def run(dialog: QDialog) -> bool:
        assert isinstance(dialog, AttachDialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        for number in ("2026-1", "CE-2026-0099"):
            dialog.number.setFocus()
            dialog.number.selectAll()
            qtbot.keyClicks(dialog.number, number)
            qtbot.keyClick(dialog.number, Qt.Key.Key_Return)
            assert dialog.isVisible()  # kept open, the number to correct
            assert QApplication.focusWidget() is dialog.number
            said.append(dialog.error_label.text())
        dialog.reject()
        return False

    monkeypatch.setattr(actions, "exec_dialog", run)
    _alt(qtbot, calc.table, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: len(said) == 2, timeout=3000)
    name = make_session(o.db, o.inspector).municipality_name
    assert said == [
        "Case number: type the case number as CE-YYYY-NNNN, e.g. CE-2026-0008",
        f"Case number: CE-2026-0099 is no case of {name}",
    ]
    assert warnings == []  # said once, in the form
    assert not calc.attach_status.isVisible()


def test_the_clerk_may_not_attach(qtbot: QtBot, o: Office) -> None:
    calc = _calculator(qtbot, o, o.clerk)
    assert calc.presenter.result is not None
    assert not calc.attach_case_button.isEnabled()
    assert not calc.attach_licence_button.isEnabled()
