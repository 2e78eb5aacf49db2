"""The pieces the Bonds & Insurance, Deposits and Licences & condemnations sections share: a
list's rows and the record behind the chosen one (ui/presenters/registers.py), the table model
that colours the rows to watch and the list filters (ui/views/common.py), and a step taken on a
yes (ui/views/section.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from desk.domain.licensing import LicenceStatus
from desk.errors import RuleViolation
from ui import dialogs
from ui.presenters.licensing import STATUS_FILTERS
from ui.presenters.registers import Line, item_at, row_of
from ui.views.common import LinesModel, filter_combo
from ui.views.section import SectionView

RED = QColor(160, 40, 30)


@dataclass(frozen=True)
class Deposit:
    deposit_id: int
    permit: str


class Rows:
    columns = ("Permit", "Status")

    def __init__(self, rows: list[Line]) -> None:
        self.rows = rows


ROWS = [
    Line(Deposit(7, "2026-0042"), ("2026-0042", "Held")),
    Line(Deposit(9, "2026-0051"), ("2026-0051", "Eligible for refund"), warn=True),
]


def test_the_record_behind_a_row_and_the_row_of_a_record() -> None:
    assert item_at(ROWS, 1, Deposit) == Deposit(9, "2026-0051")
    assert item_at(ROWS, -1, Deposit) is None  # no row chosen
    assert item_at(ROWS, 2, Deposit) is None
    assert row_of(ROWS, 9, "deposit_id") == 1
    assert row_of(ROWS, 8, "deposit_id") == -1
    assert row_of(ROWS, 9) == -1  # a deposit has no `id`: found by its deposit_id only


def test_a_row_to_watch_is_shown_in_the_colour_of_its_list(
    qtbot: QtBot, qtmodeltester: Any
) -> None:
    model = LinesModel(Rows(ROWS), None, RED)
    qtmodeltester.check(model)
    held, eligible = model.index(0, 1), model.index(1, 1)
    assert model.data(eligible) == "Eligible for refund"
    assert model.data(eligible, Qt.ItemDataRole.ToolTipRole) == "Eligible for refund"
    assert model.data(eligible, Qt.ItemDataRole.ForegroundRole) == RED
    assert model.data(held, Qt.ItemDataRole.ForegroundRole) is None

    class Amber(LinesModel):
        colour = QColor(160, 82, 0)

    amber = Amber(Rows(ROWS))  # a list's own colour, when none is given
    assert amber.data(amber.index(1, 0), Qt.ItemDataRole.ForegroundRole) == QColor(160, 82, 0)


def test_a_status_filter_offers_each_status_and_any(qtbot: QtBot) -> None:
    picked: list[str] = []
    combo = filter_combo(cast(Any, None), "licenceStatusFilter", STATUS_FILTERS, picked.append)
    qtbot.addWidget(combo)
    assert [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())] == [
        ("In force", "in_force"),
        ("Expired", "expired"),
        ("Revoked", "revoked"),
        ("Any status", ""),
    ]
    combo.setCurrentIndex(2)
    assert LicenceStatus(combo.currentData()) is LicenceStatus.REVOKED
    assert picked == [2]


@pytest.fixture
def section(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> tuple[SectionView, dict[str, Any]]:
    seen: dict[str, Any] = {"warned": [], "asked": [], "answer": True}
    monkeypatch.setattr(dialogs, "warn", lambda _p, title, text: seen["warned"].append(text))

    def ask(_p: object, title: str, question: str, **_k: object) -> bool:
        seen["asked"].append(question)
        return bool(seen["answer"])

    monkeypatch.setattr(dialogs, "ask", ask)
    view = SectionView("someView", cast(Any, None), cast(Any, None), cast(Any, None))
    qtbot.addWidget(view)
    return view, seen


def test_a_step_that_may_not_be_taken_says_why_and_asks_nothing(
    section: tuple[SectionView, dict[str, Any]],
) -> None:
    view, seen = section
    ran: list[str] = []
    refused = (False, "Only the City Engineer orders a deposit returned (15.1.43).")
    assert not view._confirmed("Order the refund", refused, "Order it?", lambda: ran.append("x"))
    assert seen["warned"] == ["Only the City Engineer orders a deposit returned (15.1.43)."]
    assert seen["asked"] == [] and ran == []


def test_a_step_runs_only_on_a_yes_and_a_refusal_by_the_service_is_shown(
    section: tuple[SectionView, dict[str, Any]],
) -> None:
    view, seen = section
    ran: list[str] = []
    seen["answer"] = False
    assert not view._confirmed(
        "Revoke", (True, ""), "Revoke EL-2026-0001?", lambda: ran.append("x")
    )
    assert seen["asked"] == ["Revoke EL-2026-0001?"] and ran == []
    seen["answer"] = True
    assert view._confirmed("Revoke", (True, ""), "Revoke EL-2026-0001?", lambda: ran.append("x"))
    assert ran == ["x"] and seen["warned"] == []

    def refuse() -> None:
        raise RuleViolation("The Council's finding comes first (15.1.78(c))")

    assert not view._confirmed("Revoke", (True, ""), "Revoke EL-2026-0001?", refuse)
    assert seen["warned"] == ["The Council's finding comes first (15.1.78(c))"]
