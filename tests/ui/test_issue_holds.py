"""The issue dialog lists the holds the service applies: the lot's house number with the
municipality's own section (Glendale 15.1.7(b)(1)), and New Lisbon's five years after repaving
(§435-8.I), lifted from the permit window's Actions menu by the Council's approval (SQLite and
PostgreSQL)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.services import intake, street_register
from tests.db.test_street_register import PAVED, _new_lisbon, dwelling_on_a_lot_without_a_number
from tests.factories import seed_register
from tests.ui.test_issue_dialog import open_dialog, open_window
from ui import dialogs
from ui.permit import actions
from ui.permit.street_register import CouncilApprovalDialog, StreetRepavingDialog
from ui.views.common import to_qdate

SHOTS = Path(os.environ.get("PERMITDESK_SHOTS", "/tmp/permitdesk-shots"))


def answer(monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]) -> None:
    def run(dialog: QDialog) -> bool:
        fill(dialog)
        assert isinstance(dialog, actions.ActionDialog)
        return dialog.submit()

    monkeypatch.setattr(actions, "exec_dialog", run)


@pytest.fixture(autouse=True)
def no_message_boxes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: shown.append(text))
    return shown


def test_the_dialog_lists_the_missing_house_number_with_glendales_section_until_it_is_recorded(
    qtbot: QtBot, database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    lot, permit_id = dwelling_on_a_lot_without_a_number(database, clock, reg)
    uow = database.uow()
    window = open_window(qtbot, database, clock, reg.inspector, permit_id)
    dialog = open_dialog(window)
    hold = (
        "No official house number is on record for parcel 047-9991-099; a building permit for "
        "a new structure is not issued until it is recorded (15.1.7(b)(1))"
    )
    assert dialog.condition_texts() == [hold]  # Glendale's section, not New Lisbon's
    assert dialog.issue_button.text() == "1 condition is not met"
    assert not dialog.issue_button.isEnabled()
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.resize(760, 360)
    qtbot.wait(50)  # the new rows laid out before the grab
    dialog.grab().save(str(SHOTS / f"issue-house-number-{database.engine.dialect.name}.png"))

    intake.record_house_number(uow, clock, reg.clerk, lot, "5910")
    dialog.check_button.click()
    assert dialog.condition_texts() == []
    assert dialog.issue_button.isEnabled()


def test_a_repaved_street_holds_the_opening_to_the_anniversary_and_the_councils_approval_lifts_it(
    qtbot: QtBot, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FixedClock(date(2026, 5, 25))
    nl = _new_lisbon(database, clock)
    window = open_window(qtbot, database, clock, nl.inspector, nl.permit_id)
    assert "Street repaving…" in window.action_labels()
    assert "Record the Council's approval of the opening…" in window.action_labels()

    # The repaving, recorded from the permit's Actions menu: the parcel's street is filled in.
    def repaving(dialog: QDialog) -> None:
        assert isinstance(dialog, StreetRepavingDialog)
        assert dialog.street.text() == "E Bridge St"
        dialog.repaved_on.setDate(to_qdate(PAVED))
        dialog.notes.setPlainText("Mill and overlay")

    answer(monkeypatch, repaving)
    assert window.run_action("street_repaving")

    dialog = open_dialog(window)
    dialog.date_edit.setDate(to_qdate(date(2026, 5, 31)))  # the day before the anniversary
    held = [t for t in dialog.condition_texts() if "§435-8.I" in t]
    assert held == [
        "E Bridge St was repaved on 06/01/2021; it may not be opened before 06/01/2026 (five "
        "years) unless the Common Council approves the opening as absolutely essential, and no "
        "approval is on record (§435-8.I, Excavation in new streets limited)."
    ]
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.resize(760, 560)
    qtbot.wait(50)
    dialog.grab().save(str(SHOTS / f"issue-repaving-{database.engine.dialect.name}.png"))
    dialog.date_edit.setDate(to_qdate(date(2026, 6, 1)))  # the anniversary: no longer held
    assert not [t for t in dialog.condition_texts() if "§435-8.I" in t]
    dialog.date_edit.setDate(to_qdate(date(2026, 6, 2)))
    assert not [t for t in dialog.condition_texts() if "§435-8.I" in t]

    def approval(dialog: QDialog) -> None:
        assert isinstance(dialog, CouncilApprovalDialog)
        dialog.approved_on.setDate(to_qdate(date(2026, 5, 20)))
        dialog.resolution.setText("Res. 2026-14")

    dialog.date_edit.setDate(to_qdate(date(2026, 5, 31)))
    assert [t for t in dialog.condition_texts() if "§435-8.I" in t]
    answer(monkeypatch, approval)
    assert window.run_action("council_approval")
    # The window reloads; the open dialog checks again (the edges of the approval's day are
    # tested on the service, tests/db/test_street_register.py).
    dialog.check_button.click()
    assert not [t for t in dialog.condition_texts() if "§435-8.I" in t]
    rows = street_register.repavings(database.uow(), nl.municipality_id)
    assert [(r.street, r.repaved_on, r.notes) for r in rows] == [
        ("E Bridge St", PAVED, "Mill and overlay")
    ]


def test_a_clerk_records_the_councils_approval_but_not_the_repaving(
    qtbot: QtBot, database: Database, clock: FixedClock
) -> None:
    nl = _new_lisbon(database, clock)
    window = open_window(qtbot, database, clock, nl.clerk, nl.permit_id)
    labels = window.action_labels()
    assert "Record the Council's approval of the opening…" in labels
    assert "Street repaving…" not in labels
