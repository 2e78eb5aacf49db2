"""The permits list's filter bar and the saved searches in the sidebar, as a clerk uses them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from db import schema
from desk.domain.enums import PermitStatus
from desk.domain.permit_filter import (
    APPLICATION_STATUSES,
    LAPSING,
    MY_OPEN_APPLICATIONS,
    PermitFilter,
)
from desk.services import lifecycle
from tests.ui.sample import ISSUED_NUMBER, Sample
from ui import dialogs
from ui.app import make_session
from ui.main_window import PERMITS, MainWindow
from ui.models.permits import PermitTableModel
from ui.presenters.permit_list import PermitListPresenter, SqlPermitSource
from ui.presenters.session import Session
from ui.views import permits as permits_view


def numbers(window: MainWindow) -> list[str]:
    model = window.permits_view.model
    col = model.presenter.column_index("number")
    return [model.index(r, col).data() for r in range(model.rowCount())]


def ids(window: MainWindow) -> set[int]:
    model = window.permits_view.model
    return {pid for r in range(model.rowCount()) if (pid := model.permit_id(r)) is not None}


def test_the_model_passes_the_qt_model_tester_with_filters(
    qtmodeltester: ModelTester, sample: Sample
) -> None:
    presenter = PermitListPresenter(
        SqlPermitSource(sample.database, sample.municipality_id), "glendale", page_size=2
    )
    model = PermitTableModel(presenter)
    model.reload()
    model.set_filter(PermitFilter(open_only=True))
    qtmodeltester.check(model)
    model.set_filter(PermitFilter(statuses=frozenset({PermitStatus.ISSUED})))
    qtmodeltester.check(model)


def test_a_status_on_the_bar_filters_the_list_and_the_count_says_so(
    main_window: MainWindow,
) -> None:
    view = main_window.permits_view
    bar = view.filter_bar
    assert view.count_label.text() == "5 permits"
    assert not bar.clear_button.isEnabled()
    bar.status_combo.setCurrentIndex(bar.status_combo.findText("Issued"))
    assert numbers(main_window) == [ISSUED_NUMBER]
    assert view.count_label.text() == "1 permit — filtered"
    assert bar.clear_button.isEnabled()
    bar.status_combo.setCurrentIndex(bar.status_combo.findText("Void"))
    assert view.count_label.text() == (
        "No permits match these filters — Clear filters shows them all"
    )
    bar.clear_button.click()
    assert view.count_label.text() == "5 permits"
    assert bar.filter() == PermitFilter()


def test_filters_combine_with_the_search_text(main_window: MainWindow) -> None:
    view = main_window.permits_view
    view.set_search_now("nguyen")
    both = view.presenter.count
    assert both == 2
    view.filter_bar.open_only.setChecked(True)
    assert view.presenter.count <= both
    view.filter_bar.status_combo.setCurrentIndex(view.filter_bar.status_combo.findText("Issued"))
    assert view.count_label.text().startswith("No permits match 'nguyen' with these filters")


def test_choosing_my_open_applications_lists_the_users_applications_not_issued(
    qtbot: QtBot, sample: Sample
) -> None:
    p, a = schema.permit, schema.audit_event
    with sample.database.read() as conn:
        expected = {
            r.id
            for r in conn.execute(
                select(p.c.id)
                .join(a, (a.c.entity == "permit") & (a.c.entity_id == p.c.id))
                .where(
                    a.c.action == "create",
                    a.c.user_id == sample.clerk.user_id,
                    p.c.status.in_(sorted(APPLICATION_STATUSES)),
                )
            )
        }
    assert len(expected) == 4  # the sample's clerk took them all; one is issued
    # The clerk signs in: "my" applications are those the clerk entered.
    main_window = MainWindow(
        sample.database,
        make_session(sample.database, sample.clerk),
        remember_geometry=False,
        clock=sample.clock,
    )
    qtbot.addWidget(main_window)
    main_window.show()
    main_window.load()
    main_window.show_saved_search(MY_OPEN_APPLICATIONS)
    assert main_window.current_section_title() == PERMITS
    assert ids(main_window) == expected
    bar = main_window.permits_view.filter_bar
    assert bar.status_combo.currentText() == "Applications (not issued)"
    assert bar.extras_chip.isVisibleTo(bar) and "Entered by me" in bar.extras_chip.text()
    assert main_window.permits_view.count_label.text().endswith("— filtered")


def test_choosing_lapsing_in_30_days_lists_exactly_the_homes_lapsing_permits(
    qtbot: QtBot, sample: Sample, session: Session
) -> None:
    uow = sample.database.uow()
    first_due = min(d.due for d in lifecycle.permit_deadlines(uow, sample.issued_id))
    sample.clock.set(first_due - timedelta(days=10))
    lapsing = lifecycle.lapsing_within(uow, sample.clock, sample.municipality_id, 30)
    assert lapsing
    window = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(window)
    window.show()
    window.load()
    window.show_saved_search(LAPSING)
    assert sorted(numbers(window)) == sorted(x.number or "" for x in lapsing)
    assert window.nav.currentItem().text().strip() == LAPSING
    # Changing a filter by hand: the sidebar shows Permits, not the saved search any more.
    window.permits_view.filter_bar.open_only.setChecked(True)
    assert window.nav.currentItem().text() == PERMITS
    assert window.permits_view.current_saved is None


def test_a_saved_search_is_kept_for_the_user_and_can_be_deleted(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = main_window.permits_view
    view.set_search_now("nguyen")
    view.filter_bar.open_only.setChecked(True)
    shown = numbers(main_window)
    monkeypatch.setattr(permits_view, "ask_name", lambda *_a, **_k: "Nguyen's open jobs")
    assert view.save_search() is not None
    assert main_window.saved_search_rows()[-1] == "Nguyen's open jobs"
    assert main_window.nav.currentItem().text().strip() == "Nguyen's open jobs"
    main_window.close()

    again = MainWindow(sample.database, main_window.session, remember_geometry=False)
    qtbot.addWidget(again)
    again.show()
    again.load()
    assert again.saved_search_rows() == [MY_OPEN_APPLICATIONS, LAPSING, "Nguyen's open jobs"]
    again.show_saved_search("Nguyen's open jobs")
    assert again.permits_view.search_box.text() == "nguyen"
    assert again.permits_view.filter_bar.open_only.isChecked()
    assert numbers(again) == shown
    assert again.permits_view.delete_button.isVisibleTo(again.permits_view)

    asked: list[str] = []

    def ask(_parent: Any, _title: str, question: str, **_: Any) -> bool:
        asked.append(question)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    assert again.permits_view.delete_search()
    assert asked == ["Delete your saved search “Nguyen's open jobs”?"]
    assert again.saved_search_rows() == [MY_OPEN_APPLICATIONS, LAPSING]


def test_a_built_in_name_cannot_be_taken(
    main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    warned: list[str] = []
    monkeypatch.setattr(permits_view, "ask_name", lambda *_a, **_k: "lapsing in 30 days")
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: warned.append(text))
    assert main_window.permits_view.save_search() is None
    assert warned and "built-in" in warned[0]
    assert main_window.saved_search_rows() == [MY_OPEN_APPLICATIONS, LAPSING]


def test_the_filter_bar_fits_the_section_at_1366_by_768(
    qtbot: QtBot, main_window: MainWindow, tmp_path: Any
) -> None:
    main_window.resize(1366, 768)
    main_window.show_saved_search(LAPSING)  # the widest bar: the extra condition shown
    qtbot.wait(50)
    bar = main_window.permits_view.filter_bar
    assert bar.sizeHint().width() <= main_window.permits_view.width() - 32
    assert bar.minimumSizeHint().width() <= 1100 - 32
