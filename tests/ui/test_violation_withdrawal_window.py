"""The case window withdraws the violation selected on the Violations tab as recorded by mistake
(Withdraw violation…, Alt+W), asking the reason: the timeline says so, the violation shows
withdrawn. A violation on the issued notice cannot be (only the Common Council withdraws or
modifies a notice, Hudson 140-3C), and the clerk cannot."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.services.enforcement import inspections
from tests.db.enforcement_setup import Office, case_with_notice, office
from ui import dialogs
from ui.app import application, make_session
from ui.enforcement.window import CaseWindow
from ui.permit import actions
from ui.views import enforcement_dialogs as d
from ui.views.enforcement import EnforcementView

TODAY = date(2026, 3, 2)
REASON = "Wrong house: the sink is at 414 Vine St"


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
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)
    return said


def case(o: Office, clock: FixedClock) -> int:
    """140-6C on the notice of 03/02; 140-4A found on 03/04, on no notice."""
    case_id, _v, _issued = case_with_notice(o)
    clock.set(date(2026, 3, 4))
    inspections.record_inspection(
        o.db.uow(),
        clock,
        o.inspector,
        case_id,
        clock.today(),
        found=[inspections.FoundViolation("140-4A", unit="1", room="kitchen")],
    )
    clock.set(date(2026, 3, 5))
    return case_id


def window_for(qtbot: QtBot, o: Office, actor: Actor, case_id: int) -> CaseWindow:
    application()
    view = EnforcementView(o.db, make_session(o.db, actor), o.clock)
    qtbot.addWidget(view)
    view.load()
    window = view.open_case(case_id)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    return window


def select(qtbot: QtBot, window: CaseWindow, section: str) -> None:
    """The Violations tab (Alt+V), the row of `section` chosen with the arrow keys."""
    qtbot.keyClick(window, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
    table = window.violation_table
    table.setFocus()
    sections = [line.cells[0] for line in window.violations.rows]
    table.selectRow(0)
    for _ in range(sections.index(section)):
        qtbot.keyClick(table, Qt.Key.Key_Down)
    assert window.selected_violation() is not None
    assert window.selected_violation().section == section  # type: ignore[union-attr]


def test_the_inspector_withdraws_the_selected_violation_with_the_reason(
    qtbot: QtBot,
    o: Office,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    case_id = case(o, clock)
    window = window_for(qtbot, o, o.inspector, case_id)
    assert window.withdraw_button.text() == "&Withdraw violation…"

    # On the issued notice: the button says why not.
    select(qtbot, window, "140-6C")
    assert not window.withdraw_button.isEnabled()
    assert window.withdraw_button.toolTip() == (
        "140-6C is on the notice of violation of 03/02/2026: the Common Council sustains, "
        "modifies or withdraws it (140-3C)."
    )

    select(qtbot, window, "140-4A")
    assert window.withdraw_button.isEnabled()
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        assert isinstance(dialog, d.WithdrawViolationDialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        assert dialog.violation.section == "140-4A"
        # Enter with no reason: the dialog stays and says so.
        dialog.reason.setFocus()
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)
        assert dialog.isVisible()
        assert dialog.error_label.text() == "Reason: is required"
        qtbot.keyClicks(dialog.reason, REASON)
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.AltModifier)  # Withdraw violation…
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    qtbot.waitUntil(lambda: window.timeline_texts()[-1].startswith("Violation"), timeout=2000)

    assert warnings == []  # said once, in the form
    assert (
        window.timeline_texts()[-1] == f"Violation 140-4A withdrawn: entered by mistake — {REASON}"
    )
    assert window.timeline.rows[-1].cells[:2] == ("03/05/2026", "Correction")
    states = {line.cells[0]: line.cells[4] for line in window.violations.rows}
    assert states == {"140-6C": "open", "140-4A": "withdrawn 03/05/2026"}
    # Still selected, and withdrawn already: the button says so.
    assert window.selected_violation().section == "140-4A"  # type: ignore[union-attr]
    assert not window.withdraw_button.isEnabled()
    assert window.withdraw_button.toolTip() == "140-4A was withdrawn on 03/05/2026."


def test_the_clerk_cannot_withdraw_a_violation(qtbot: QtBot, o: Office, clock: FixedClock) -> None:
    case_id = case(o, clock)
    window = window_for(qtbot, o, o.clerk, case_id)
    select(qtbot, window, "140-4A")
    assert not window.withdraw_button.isEnabled()
    assert window.withdraw_button.toolTip() == (
        "The inspector withdraws a violation (record housing inspections and violations)."
    )
    assert not window.withdraw_violation()
