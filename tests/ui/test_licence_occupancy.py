"""The occupancy calculator opened from a rooming house licence's window (Hudson 140-7, 140-10):
Alt+L opens it with the licence's rooms typed in, Alt+L there attaches to this licence (its
number filled in), Enter; the licence window reads the licence again and shows its Occupancy
tab with the maximum occupants, and the calculation reprints as it was attached. The step is
the inspector's, and none for a licence that is over."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from tests.db.enforcement_setup import Office, office
from tests.db.licence_fee import RECEIPT, set_licence_fee
from ui import dialogs
from ui.app import application, make_session
from ui.permit import actions
from ui.permit.base import PermitContext
from ui.rooming.window import LicenceWindow
from ui.views.occupancy import AttachDialog, OccupancyWindow

TODAY = date(2026, 3, 2)
Alt = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def o(empty_database: Database, clock: FixedClock) -> Office:
    o = office(empty_database, clock)
    set_licence_fee(o)
    return o


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    return said


def _application(o: Office) -> int:
    """Three rooms, 410 sq ft of habitable floor: at most 4 (140-7A); three stated."""
    return svc.record_application(
        o.db.uow(),
        o.clock,
        o.clerk,
        svc.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=o.parcel_id,
            operator_name="Rita Roomer",
            operator_address="5 Oak St, Hudson WI 54016",
            persons=3,
            water_closets=1,
            lavatories=1,
            baths=1,
            rooms=[
                svc.RoomInput("Room 1", Decimal(120), True, 2),
                svc.RoomInput("Room 2", Decimal("90.5"), True, 1),
                svc.RoomInput("Lounge", Decimal(200), False),
            ],
        ),
    )


def _issued(o: Office) -> int:
    licence_id = _application(o)
    case_id = svc.open_licence_case(o.db.uow(), o.clock, o.inspector, licence_id)
    inspections.record_inspection(o.db.uow(), o.clock, o.inspector, case_id, TODAY)
    svc.issue_licence(o.db.uow(), o.clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    return licence_id


def _window(qtbot: QtBot, o: Office, actor: Actor, licence_id: int) -> LicenceWindow:
    application()
    context = PermitContext(o.db, make_session(o.db, actor), 0, o.clock)
    window = LicenceWindow(context, licence_id)
    qtbot.addWidget(window)
    window.show()
    window.reload()
    return window


def _alt(qtbot: QtBot, widget: QWidget, key: Qt.Key) -> None:
    top = widget.window()
    top.activateWindow()
    qtbot.waitUntil(top.isActiveWindow, timeout=2000)
    qtbot.keyClick(widget, key, Alt)


def test_the_inspector_calculates_from_the_licence_attaches_it_and_reprints_it(
    qtbot: QtBot,
    o: Office,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    tmp_path: Path,
) -> None:
    licence_id = _issued(o)
    window = _window(qtbot, o, o.inspector, licence_id)
    assert window.tabs.count() == 4
    assert window.tabs.tabText(3) == "Occ&upancy"
    assert window.occupancy.table.model().rowCount() == 0
    assert window.occupancy_button.isEnabled()
    assert not window.occupancy.reprint_button.isEnabled()

    _alt(qtbot, window.room_table, Qt.Key.Key_L)  # Ca&lculate occupancy…
    qtbot.waitUntil(lambda: window.calculator is not None, timeout=3000)
    calc = window.calculator
    assert isinstance(calc, OccupancyWindow)
    assert calc.windowTitle() == "Occupancy calculator for RH-2026-0001 — Permit Desk"
    # The licence's rooms typed in: a sleeping room as sleeping, the rest as living space.
    assert [(r.name, r.use, r.floor_area, r.over_12, r.under_12) for r in calc.presenter.rows] == [
        ("Room 1", "sleeping", "120", "2", ""),
        ("Room 2", "sleeping", "90.5", "1", ""),
        ("Lounge", "living", "200", "", ""),
    ]
    assert calc.figure_labels["max"].text() == "4"
    assert calc.attach_licence_button.text() == "Attach to &licence RH-2026-0001…"
    assert calc.attach_licence_button.isEnabled()
    assert not calc.attach_case_button.isEnabled()

    seen: list[AttachDialog] = []

    def run(dialog: QDialog) -> bool:
        assert isinstance(dialog, AttachDialog)
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        assert dialog.number.text() == "RH-2026-0001"
        assert QApplication.focusWidget() is dialog.unit  # the number is filled in
        qtbot.keyClicks(dialog.unit, "Upper")
        qtbot.keyClick(dialog.unit, Qt.Key.Key_Return)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    _alt(qtbot, calc.table, Qt.Key.Key_L)  # Attach to &licence RH-2026-0001…
    qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)
    assert warnings == []
    assert calc.attach_status.text().startswith("Attached to RH-2026-0001")

    # The licence window read the licence again and shows its Occupancy tab.
    qtbot.waitUntil(lambda: len(window.occupancy.checks.rows) == 1, timeout=2000)
    assert window.tabs.currentWidget() is window.occupancy
    assert [line.cells for line in window.occupancy.checks.rows] == [
        ("03/02/2026", "Upper", "4", "yes", "—")
    ]
    assert window.occupancy.reprint_button.isEnabled()

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
    _alt(qtbot, window.occupancy.table, Qt.Key.Key_A)  # Reprint calcul&ation…
    qtbot.waitUntil(lambda: bool(filed), timeout=2000)  # the button clicks after a blink
    outcome = seen[0].outcome
    assert outcome is not None and outcome.max_occupants == 4
    assert [p.name for p in filed] == [f"occupancy-RH-2026-0001-{outcome.check_id}.pdf"]
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(filed[0]).pages).split())
    assert "Attached to RH-2026-0001" in text
    assert "Maximum occupants 4" in text
    assert "Unit Upper" in text

    # Opened again, the same calculator comes forward.
    assert window.open_calculator() is calc


def test_the_clerk_may_not_calculate_and_no_one_for_a_denied_application(
    qtbot: QtBot, o: Office
) -> None:
    licence_id = _application(o)
    clerk = _window(qtbot, o, o.clerk, licence_id)
    assert not clerk.occupancy_button.isEnabled()
    assert clerk.occupancy_button.toolTip() == (
        "The inspector (record housing inspections and violations)."
    )
    assert clerk.open_calculator() is None

    inspector = _window(qtbot, o, o.inspector, licence_id)
    assert inspector.occupancy_button.isEnabled()
    svc.deny_application(o.db.uow(), o.clock, o.inspector, licence_id, "No fire escape")
    inspector.reload()
    assert not inspector.occupancy_button.isEnabled()
    assert inspector.occupancy_button.toolTip() == (
        "The application is denied: nothing to calculate for."
    )
    assert inspector.open_calculator() is None
