"""The Permits section as a clerk uses it: search as you type, sort, open, shortcuts."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from desk.services import permits
from tests.factories import make_issuable
from tests.ui.sample import ISSUED_NUMBER, Sample
from ui.main_window import MainWindow
from ui.models.permits import PERMIT_ID_ROLE, PermitTableModel
from ui.permit.window import PermitWindow
from ui.presenters.permit_list import EMPTY_DATABASE_TEXT, PermitListPresenter, SqlPermitSource
from ui.views.permits import PermitsView


def column_texts(window: MainWindow, key: str) -> list[str]:
    model = window.permits_view.model
    col = model.presenter.column_index(key)
    return [model.index(r, col).data() for r in range(model.rowCount())]


def click_header(qtbot: QtBot, window: MainWindow, key: str) -> None:
    table = window.permits_view.table
    header = table.horizontalHeader()
    section = window.permits_view.presenter.column_index(key)
    x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
    )


def test_the_permits_model_passes_the_qt_model_tester(
    qtmodeltester: ModelTester, sample: Sample
) -> None:
    presenter = PermitListPresenter(
        SqlPermitSource(sample.database, sample.municipality_id), "glendale", page_size=2
    )
    model = PermitTableModel(presenter)
    model.reload()
    qtmodeltester.check(model)
    model.search("nguyen")
    qtmodeltester.check(model)
    model.sort(0, Qt.SortOrder.AscendingOrder)
    qtmodeltester.check(model)


def test_the_list_shows_every_permit_newest_application_first_with_a_count(
    main_window: MainWindow,
) -> None:
    view = main_window.permits_view
    assert view.count_label.text() == "5 permits"
    assert column_texts(main_window, "owner") == [
        "Linh Nguyen",
        "Maria Garcia",
        "Linh Nguyen",
        "Tomasz Kowalski",
        "Anna Schmidt",
    ]
    assert main_window.windowTitle() == "Permit Desk — City of Glendale"


def test_a_row_reads_as_the_clerk_expects_dates_money_and_labels(main_window: MainWindow) -> None:
    model = main_window.permits_view.model
    row = column_texts(main_window, "owner").index("Anna Schmidt")
    cells = {c.key: model.index(row, i).data() for i, c in enumerate(model.presenter.columns)}
    assert cells == {
        "number": ISSUED_NUMBER,
        "status": "Issued",
        "kind": "New one- or two-family dwelling",
        "address": "6120 N Port Washington Rd",
        "owner": "Anna Schmidt",
        "contractor": "Badger State Builders LLC",
        "applied": "02/10/2026",
        "issued": "03/02/2026",
        "valuation": "$412,500.00",
    }
    valuation = model.index(row, model.presenter.column_index("valuation"))
    assert valuation.data(Qt.ItemDataRole.TextAlignmentRole) & Qt.AlignmentFlag.AlignRight


def test_a_permit_not_issued_yet_shows_a_dash_explained_by_its_tooltip(
    main_window: MainWindow,
) -> None:
    model = main_window.permits_view.model
    row = column_texts(main_window, "owner").index("Maria Garcia")
    number = model.index(row, 0)
    assert number.data() == "—"
    assert number.data(Qt.ItemDataRole.ToolTipRole) == "not issued yet"


def test_typing_part_of_an_owners_name_narrows_the_list_to_that_owners_permit(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    view = main_window.permits_view
    qtbot.keyClicks(view.search_box, "schm")
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=2000)
    assert column_texts(main_window, "owner") == ["Anna Schmidt"]
    assert view.count_label.text() == "1 permit"


def test_a_search_that_finds_nothing_says_so_and_suggests_what_to_try(
    main_window: MainWindow,
) -> None:
    view = main_window.permits_view
    view.set_search_now("xyz")
    assert view.model.rowCount() == 0
    assert view.count_label.text() == (
        "No permits match 'xyz' — check the spelling, or search by parcel number"
    )
    view.set_search_now("")
    assert view.count_label.text() == "5 permits"


def test_the_parcel_number_and_the_permit_number_find_a_permit(main_window: MainWindow) -> None:
    view = main_window.permits_view
    view.set_search_now("047-1010")
    assert column_texts(main_window, "owner") == ["Tomasz Kowalski"]
    view.set_search_now("2026-0001")
    assert column_texts(main_window, "number") == [ISSUED_NUMBER]


def test_clicking_the_number_header_sorts_by_number_and_again_reverses(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    make_issuable(sample.database, sample.clock, sample.admin, sample.permit_ids["kowalski"])
    permits.issue_permit(
        sample.database.uow(), sample.clock, sample.admin, sample.permit_ids["kowalski"]
    )
    main_window.refresh()
    click_header(qtbot, main_window, "number")
    assert column_texts(main_window, "number") == ["2026-0001", "2026-0002", "—", "—", "—"]
    header = main_window.permits_view.table.horizontalHeader()
    assert header.sortIndicatorSection() == 0
    click_header(qtbot, main_window, "number")
    assert column_texts(main_window, "number")[:2] == ["2026-0002", "2026-0001"]


def test_clicking_the_valuation_header_shows_the_biggest_job_first(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    click_header(qtbot, main_window, "valuation")
    assert column_texts(main_window, "valuation")[0] == "$412,500.00"


def test_enter_on_a_row_opens_the_permit_window_with_number_and_address(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    view = main_window.permits_view
    row = column_texts(main_window, "owner").index("Anna Schmidt")
    view.table.setFocus()
    view.table.selectRow(row)
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    window = main_window.permit_windows[sample.issued_id]
    assert isinstance(window, PermitWindow)
    assert window.isVisible()
    assert window.title_label.text() == "Permit 2026-0001"
    assert window.address_label.text() == "6120 N Port Washington Rd"
    assert window.status_label.text() == "Issued"


def test_a_double_click_opens_the_permit_and_a_second_one_reuses_its_window(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    view = main_window.permits_view
    row = column_texts(main_window, "owner").index("Maria Garcia")
    rect = view.table.visualRect(view.model.index(row, 3))
    for _ in range(2):
        qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert list(main_window.permit_windows) == [sample.permit_ids["garcia"]]
    window = main_window.permit_windows[sample.permit_ids["garcia"]]
    assert window.title_label.text() == f"Application #{sample.permit_ids['garcia']}"


def test_enter_in_the_search_box_opens_the_only_match(
    qtbot: QtBot, main_window: MainWindow, sample: Sample
) -> None:
    view = main_window.permits_view
    qtbot.keyClicks(view.search_box, "kowalski")
    qtbot.keyClick(view.search_box, Qt.Key.Key_Return)
    assert list(main_window.permit_windows) == [sample.permit_ids["kowalski"]]


def test_the_find_shortcut_puts_the_cursor_in_the_search_box(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    view = main_window.permits_view
    main_window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is main_window, timeout=2000)
    view.table.setFocus()
    assert not view.search_box.hasFocus()
    find = QKeySequence(QKeySequence.StandardKey.Find)[0]  # type: ignore[index]
    qtbot.keyClick(view.table, find.key(), find.keyboardModifiers())
    qtbot.waitUntil(view.search_box.hasFocus, timeout=2000)


def test_the_quit_shortcut_is_the_standard_one(main_window: MainWindow) -> None:
    assert main_window.quit_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Quit)
    main_window.quit_action.trigger()
    assert not main_window.isVisible()


def test_the_status_bar_says_who_is_signed_in_the_municipality_and_the_database(
    main_window: MainWindow, sample: Sample
) -> None:
    assert main_window.user_label.text() == "Alex Administrator (Administrator)"
    assert main_window.municipality_label.text() == "City of Glendale"
    assert main_window.database_label.text() == f"Database: {sample.database.where}"


def test_the_navigation_lists_only_sections_that_work(main_window: MainWindow) -> None:
    nav = main_window.nav
    # The sample signs in as the administrator, who also has Administration → Fee schedules.
    assert [nav.item(i).text() for i in range(nav.count())] == [
        "Needs attention",
        "Permits",
        "   My open applications",  # saved searches, indented under Permits
        "   Lapsing in 30 days",
        "Parcels",
        "People",
        "Deadlines",
        "Inspections",
        "Bonds & Insurance",
        "Deposits",
        "Licences & condemnations",  # no Code enforcement: Glendale adopted no housing code
        "Cashier",
        "Treasurer",
        "Reports",
        "GL accounts",
        "Fee schedules",
        "Municipality",
        "Users",
    ]


def test_the_administration_menu_opens_each_administrators_section(
    main_window: MainWindow,
) -> None:
    menu = main_window.admin_menu
    assert menu is not None
    titles = [a.text() for a in menu.actions()]
    # The sections, then (after a separator) setting up another municipality, then (after
    # another) the register's check.
    assert titles == [
        "Users",
        "Municipality",
        "GL accounts",
        "Fee schedules",
        "",
        "New municipality…",
        "",
        "Check the register…",
    ]
    menu.actions()[0].trigger()
    assert main_window.current_section_title() == "Users"


def test_a_register_without_permits_shows_how_to_get_some(qtbot: QtBot) -> None:
    presenter = PermitListPresenter(_NoPermits(), "glendale")
    view = PermitsView(presenter, remember_columns=False)
    qtbot.addWidget(view)
    view.show()
    view.load()
    assert view.pages.currentWidget() is view.empty_label
    assert "No permits yet." in view.empty_label.text()
    assert "New Application (Ctrl+N)" in view.empty_label.text()
    assert "Administration → Users" in view.empty_label.text()
    assert "Administration → Municipality" in view.empty_label.text()
    assert presenter.empty_text == EMPTY_DATABASE_TEXT


def test_the_permit_id_travels_with_each_row(main_window: MainWindow, sample: Sample) -> None:
    model = main_window.permits_view.model
    ids = {model.index(r, 0).data(PERMIT_ID_ROLE) for r in range(model.rowCount())}
    assert ids == set(sample.permit_ids.values())


class _NoPermits:
    def count(self, text: str) -> int:
        return 0

    def page(self, text: str, sort: str, descending: bool, offset: int, limit: int) -> list:
        return []
