"""The treasurer's refund page reads the inspections made on a plumbing permit from the register
and shows them read-only (15.1.42): nothing there for the treasurer to type or lower."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QLineEdit, QSpinBox
from pytestqt.qtbot import QtBot

from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.cashiering import RefundGround
from desk.domain.inspections import Result
from desk.services import permits
from tests.db.test_cashiering import _inspection, _office, _plumbing_permit
from ui.app import make_session
from ui.presenters.treasurer import GROUNDS
from ui.views.treasurer import TreasurerView


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "p.db"))
    try:
        yield database
    finally:
        database.close()


@pytest.mark.parametrize(
    ("result", "shown", "quoted"),
    [
        (
            Result.PASSED,
            "1 inspection made: Plumbing rough-in passed 03/04/2026 — 15.1.42: no refund",
            "No refund. 1 inspection was made before the permit was voided (Plumbing rough-in "
            "passed 03/04/2026): the entire permit fee is retained (15.1.42).",
        ),
        (
            None,  # requested, never made
            "No inspection made on the register — 15.1.42: refunded less the clerical fee",
            "Refund $74.00; $10.00 is kept.",
        ),
    ],
)
def test_the_refund_page_shows_the_inspections_made_from_the_register_read_only(
    qtbot: QtBot, db: Database, tmp_path: Path, result: Result | None, shown: str, quoted: str
) -> None:
    office = _office(db, FixedClock(date(2026, 3, 2)))
    pid = _plumbing_permit(office)
    _inspection(office, pid, result, date(2026, 3, 4))
    clock = office.clock
    permits.void_permit(db.uow(), clock, office.reg.inspector, pid, "at the plumber's request")

    view = TreasurerView(db, make_session(db, office.reg.treasurer), clock)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.tabs.setCurrentWidget(view.refunds_page)
    view.load()
    page = view.refunds_page
    page.permit.setText(f"#{pid}")
    page.ground.setCurrentIndex(GROUNDS.index(RefundGround.PLUMBING_VOID))
    assert page.find_permit()

    made = page.findChild(QLabel, "inspectionsMade")
    assert made is not None and made.isEnabled()
    assert made.text() == shown
    # The count is the register's: no spin box or field to type it in.
    assert page.findChildren(QSpinBox) == []
    assert [e.objectName() for e in page.findChildren(QLineEdit)].count("inspectionsMade") == 0
    assert page.quote()
    assert page.quote_label.text().startswith(quoted)

    qtbot.wait(50)  # let the form lay the new texts out before the screenshot
    shot = Path(os.environ.get("PERMITDESK_SHOT_DIR", tmp_path)) / f"refund-{result}.png"
    assert view.grab().save(str(shot))
