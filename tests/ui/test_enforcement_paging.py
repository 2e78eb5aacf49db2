"""The Code enforcement list at more cases than a page (like the permits list): it says how many
the filter and the search find, shows the first 200, reads the rest as the inspector scrolls,
and reads each case's stage for the rows shown only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db.database import Database
from db.enforcement_case_view import CaseFacts
from desk.clock import FixedClock
from desk.enforcement.readmodels import CaseFilter
from tests.db.enforcement_bulk import add_cases
from tests.db.enforcement_setup import Office, case_with_notice, office
from ui.app import application, make_session
from ui.views.enforcement import EnforcementView

TODAY = date(2026, 3, 2)
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def o(empty_database: Database) -> Office:
    return office(empty_database, FixedClock(TODAY))


def shown(qtbot: QtBot, o: Office) -> EnforcementView:
    application()
    view = EnforcementView(o.db, make_session(o.db, o.inspector), o.clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_205_cases_show_the_count_and_the_first_200_and_scrolling_reads_the_rest(
    qtbot: QtBot, o: Office, qtmodeltester: ModelTester
) -> None:
    case_with_notice(o)  # CE-2026-0001 today, Otto Owner on its notice
    vine = add_cases(o, 201, o.parcel("047-0003-001", "500"), 100, date(2026, 2, 20))
    elm = add_cases(o, 3, o.parcel("047-0002-001", "77", "Elm St"), 400, date(2026, 3, 1))
    view = shown(qtbot, o)
    asked: list[int] = []
    facts = view.presenter.facts_of

    def counted(ids: Sequence[int]) -> Mapping[int, CaseFacts]:
        asked.append(len(ids))
        return facts(ids)

    view.presenter.facts_of = counted
    view.load()
    assert view.summary.text() == "205 cases: open"
    assert view.model.rowCount() == 200
    numbers = ["CE-2026-0001", *elm, *vine]
    assert view.case_numbers() == numbers[:200]
    assert asked == [200]  # the stages of the first page only
    assert view.presenter.rows[0].cells[3] == "notice issued, not yet served"
    assert view.presenter.rows[1].cells[3] == "complaint"

    # Ctrl+End goes to the last row read; the list reads the next page as it gets there.
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_End, Ctrl)
    qtbot.waitUntil(lambda: view.model.rowCount() == 205, timeout=3000)
    assert view.case_numbers() == numbers
    assert asked == [200, 5]
    assert not view.model.canFetchMore()
    qtbot.keyClick(view.table, Qt.Key.Key_End, Ctrl)
    last = view.presenter.case(view.table.currentIndex().row())
    assert last is not None and last.number == "CE-2026-0100"
    assert view.note.text().startswith("CE-2026-0100, 500 Vine St · PIN 047-0003-001")
    assert view.summary.text() == "205 cases: open"

    # The search narrows the count (in SQL): the street, the owner on a notice.
    view.search.setText("elm")
    assert view.summary.text() == "3 cases: open"
    assert view.case_numbers() == elm
    view.search.setText("otto")
    assert view.case_numbers() == ["CE-2026-0001"]
    view.search.setText("vine")
    assert view.summary.text() == "202 cases: open"
    assert view.model.rowCount() == 200
    view.search.clear()
    view.show_filter(CaseFilter.NOT_SERVED)
    assert view.summary.text() == "1 case: notice not yet served"
    assert view.case_numbers() == ["CE-2026-0001"]
    # Last: the tester fetches more itself on every reset of a model it watches.
    qtmodeltester.check(view.model)


def test_showing_the_section_again_the_same_day_does_not_sweep_again(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ui.views.enforcement as module

    swept: list[date] = []

    def sweep(_uow: object, clock: FixedClock, _mid: int) -> list[object]:
        swept.append(clock.today())
        return []

    monkeypatch.setattr(module, "sweep_notices", sweep)
    view = shown(qtbot, o)
    view.load()
    view.load()
    assert swept == [TODAY]
    o.clock.set(date(2026, 3, 3))
    view.load()
    view.load()
    assert swept == [TODAY, date(2026, 3, 3)]
