"""Administration → GL accounts (issue 5): the accounts and the account each fee code uses."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desk.services import cashiering
from tests.ui.sample import Sample
from ui import app, dialogs
from ui.main_window import MainWindow
from ui.views.gl_accounts import SECTION_TITLE, GlAccountsView


def main_window(qtbot: QtBot, sample: Sample, *, clerk: bool = False) -> MainWindow:
    app.application()
    session = app.make_session(sample.database, sample.clerk if clerk else sample.admin)
    window = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.load()
    return window


@pytest.fixture
def admin_window(qtbot: QtBot, sample: Sample) -> MainWindow:
    return main_window(qtbot, sample)


@pytest.fixture
def view(admin_window: MainWindow) -> GlAccountsView:
    shown = admin_window.show_section(SECTION_TITLE)
    assert isinstance(shown, GlAccountsView)
    assert shown.loaded
    return shown


def code_cells(view: GlAccountsView, code: str) -> tuple[str, ...]:
    row = view.presenter.row_of_code(code)
    assert row is not None
    model = view.codes_model
    return tuple(str(model.data(model.index(row, c))) for c in range(model.columnCount()))


def test_the_administrator_maps_res_new_to_another_account_with_enter(
    qtbot: QtBot, sample: Sample, view: GlAccountsView, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert code_cells(view, "RES-NEW") == (
        "RES-NEW",
        "Residential new construction, all floor area",
        "100-44300  Building permits",
    )
    asked: list[tuple[str, list[str], int]] = []

    def choose(_parent: Any, _title: str, label: str, items: list[str], current: int) -> str:
        asked.append((label, list(items), current))
        return "100-44370  Plan review"

    monkeypatch.setattr(dialogs, "choose", choose)
    view.select_code("RES-NEW")
    view.codes_table.setFocus()
    qtbot.keyClick(view.codes_table, Qt.Key.Key_Return)

    label, items, current = asked[0]
    assert label == "Account for RES-NEW (Residential new construction, all floor area)"
    assert items[current] == "100-44300  Building permits"  # the combo starts at the current one
    assert code_cells(view, "RES-NEW")[2] == "100-44370  Plan review"
    accounts = cashiering.gl_accounts(sample.database.uow(), sample.clock, sample.municipality_id)
    by_number = {a.number: a for a in accounts}
    assert "RES-NEW" in by_number["100-44370"].codes
    assert "RES-NEW" not in by_number["100-44300"].codes


def test_a_new_account_with_a_number_already_used_is_refused(
    qtbot: QtBot, sample: Sample, view: GlAccountsView, monkeypatch: pytest.MonkeyPatch
) -> None:
    warned: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: warned.append(text))
    before = len(view.presenter.accounts)
    dialog = view.open_new_account()
    dialog.number.setText("100-44300")
    dialog.name.setText("Building permits again")
    dialog.accept()
    assert warned == ["Number: Account 100-44300 already exists (Building permits)."]
    assert dialog.isVisible()  # the administrator corrects the number
    assert dialog.number.hasFocus() or dialog.focusWidget() is dialog.number

    dialog.number.setText("100-44380")
    dialog.name.setText("Sign permits")
    dialog.kind.setCurrentIndex(dialog.kind.findText("Revenue"))
    dialog.accept()
    assert not dialog.isVisible()
    assert len(view.presenter.accounts) == before + 1
    row = [a.number for a in view.presenter.accounts].index("100-44380")
    assert view.presenter.account_cells(row) == ("100-44380", "Sign permits", "Revenue", "—")


def test_a_clerk_does_not_see_the_gl_accounts_section(qtbot: QtBot, sample: Sample) -> None:
    window = main_window(qtbot, sample, clerk=True)
    assert SECTION_TITLE not in window.section_titles()
    assert window.gl_accounts_view is None
    with pytest.raises(KeyError):
        window.show_section(SECTION_TITLE)
