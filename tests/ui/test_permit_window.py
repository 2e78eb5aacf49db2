"""A permit's window: header, Summary and History tabs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from desk.services import permits
from tests.ui.sample import ISSUED_NUMBER, Sample
from ui.main_window import MainWindow
from ui.permit.history import HistoryTab
from ui.permit.parties import PartiesTab
from ui.permit.summary import SummaryTab
from ui.permit.tabs import PERMIT_TABS


def summary_texts(tab: SummaryTab) -> list[str]:
    body = tab._scroll.widget()
    return [w.text() for w in body.findChildren(QLabel)] if body is not None else []


def history_cells(tab: HistoryTab) -> list[tuple[str, ...]]:
    model = tab.model
    return [
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]


def test_the_window_has_its_tabs_in_the_order_of_the_paper_file(
    main_window: MainWindow, sample: Sample
) -> None:
    window = main_window.open_permit(sample.issued_id)
    # As shown: a tab's "&&" is one "&" on screen.
    tabs = [window.tabs.tabText(i).replace("&&", "&") for i in range(window.tabs.count())]
    keys = [t.key for t in PERMIT_TABS]
    expected = [
        "Summary",
        "Parties",
        "Work",
        "Checklist",
        "Fees & Payments",
        "Sureties",
        "Inspections",
        "History",
    ]
    assert tabs == expected
    assert keys == [
        "summary",
        "parties",
        "work",
        "checklist",
        "fees",
        "sureties",
        "inspections",
        "history",
    ]
    assert window.windowTitle().startswith("Permit 2026-0001 — 6120 N Port Washington Rd")
    assert window.kind_label.text() == "New one- or two-family dwelling"


def test_the_summary_shows_the_permit_form_and_the_parties_tab_its_parties(
    main_window: MainWindow, sample: Sample
) -> None:
    window = main_window.open_permit(sample.issued_id)
    summary = window.tab("summary")
    assert isinstance(summary, SummaryTab)
    assert summary.value("Number") == ISSUED_NUMBER
    assert summary.value("Status") == "Issued"
    assert summary.value("Parcel number") == "047-9991-002"
    assert summary.value("Zoning") == "RS-4"
    assert summary.value("Valuation") == "$412,500.00"
    assert summary.value("Floor area") == "2,450 sq ft"
    assert summary.value("Applied") == "02/10/2026"
    assert summary.value("Issued") == "03/02/2026"
    assert summary.value("Expires") == "09/02/2027"  # 18 months after issue (15.1.8(c))
    assert summary.value("Issued by") == "Alex Administrator"
    parties = window.tab("parties")
    assert isinstance(parties, PartiesTab)
    assert parties.presenter is not None
    roles = [(p.role, p.name, p.phone) for p in parties.presenter.cards]
    assert roles == [
        ("Owner of the building", "Anna Schmidt", "414-555-0142"),
        ("Contractor", "Badger State Builders LLC", "414-555-0300"),
    ]
    assert "Anna Schmidt" not in summary_texts(summary)  # shown once, on its own tab


def test_an_application_not_issued_yet_is_titled_by_its_id(
    main_window: MainWindow, sample: Sample
) -> None:
    permit_id = sample.permit_ids["garcia"]
    window = main_window.open_permit(permit_id)
    assert window.title_label.text() == f"Application #{permit_id}"
    assert window.status_label.text() == "Applied"
    summary = window.tab("summary")
    assert isinstance(summary, SummaryTab)
    assert summary.value("Number") == "— (not issued yet)"


def test_the_history_tab_lists_the_issue_one_row_per_changed_field(
    main_window: MainWindow, sample: Sample
) -> None:
    window = main_window.open_permit(sample.issued_id)
    window.select_tab("history")
    history = window.tab("history")
    assert isinstance(history, HistoryTab)
    assert window.tabs.currentWidget() is history
    rows = history_cells(history)
    header = [history.model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert header == ["When", "Who", "What", "Field", "Old", "New"]
    # Newest first: the issue, by the administrator (by full name), at 3:00 PM UTC local time.
    assert rows[0][1:] == ("Alex Administrator", "Permit issued", "Number", "", ISSUED_NUMBER)
    assert ("", "", "", "Status", "Applied", "Issued") in rows
    assert ("", "", "", "Issued on", "", "03/02/2026") in rows
    assert ("", "", "", "Issued by", "", "Alex Administrator") in rows
    # The checklist the office completed before issuing is in the history too.
    # Opening it is one row; each item received is a row named by the item's text.
    whats = [r[2] for r in rows if r[2] and not r[2].startswith("Checklist: ")]
    assert whats == [
        "Permit issued",
        "Checklist opened",
        "Contractor added",
        "Owner of the building added",
        "Permit created",
    ]
    assert (
        "Checklist: three complete sets of plans and specifications",
        "State",
        "Open",
        "Received",
    ) in [r[2:] for r in rows]


def test_the_history_model_passes_the_qt_model_tester(
    qtmodeltester: ModelTester, main_window: MainWindow, sample: Sample
) -> None:
    window = main_window.open_permit(sample.issued_id)
    history = window.tab("history")
    assert isinstance(history, HistoryTab)
    qtmodeltester.check(history.model)


def test_a_change_made_elsewhere_shows_after_a_refresh(
    main_window: MainWindow, sample: Sample
) -> None:
    permit_id = sample.permit_ids["kowalski"]
    window = main_window.open_permit(permit_id)
    permits.update_description(
        sample.database.uow(), sample.clock, sample.clerk, permit_id, "Reroof, 34 squares"
    )
    main_window.refresh()
    summary = window.tab("summary")
    assert isinstance(summary, SummaryTab)
    assert summary.value("Description") == "Reroof, 34 squares"
    history = window.tab("history")
    assert isinstance(history, HistoryTab)
    first = history_cells(history)[0]
    assert first[1:] == (
        "Carol Clerk",
        "Permit changed",
        "Description",
        "Tear-off and reroof, 32 squares",
        "Reroof, 34 squares",
    )


def test_escape_closes_the_permit_window_and_forgets_it(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    window = main_window.open_permit(sample.issued_id)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: sample.issued_id not in main_window.permit_windows, timeout=2000)


def test_ctrl_n_in_a_permit_window_opens_new_application(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    window = main_window.open_permit(sample.issued_id)
    qtbot.waitExposed(window)
    assert main_window.intake_window is None
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    form = main_window.intake_window
    assert form is not None and form.isVisible()
    form.presenter.dirty = False
    form.close()
