"""Live refresh on the main window: what another workstation commits shows here within the
next poll, without F5; the clerk keeps her place, and a form being edited says so instead of
being reloaded under the typing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from db.database import Database, open_database
from desk.domain.enums import PermitStatus
from desk.services import lifecycle, municipality, users
from tests.ui.sample import Sample
from ui import dialogs
from ui.main_window import MainWindow
from ui.views.municipality import SECTION_TITLE as MUNICIPALITY
from ui.views.treasurer import SECTION_TITLE as TREASURER
from ui.views.users import SECTION_TITLE as USERS
from ui.views.users import UserDialog


@pytest.fixture(autouse=True)
def let_unsaved_edits_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the window at teardown with the municipality edit under way lets it go."""
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)


@pytest.fixture
def elsewhere(sample: Sample) -> Iterator[Database]:
    """The same register opened by a second workstation."""
    other = open_database(sample.database.engine.url.render_as_string(hide_password=False))
    try:
        yield other
    finally:
        other.close()


def status_of(window: MainWindow, permit_id: int) -> str:
    model = window.permits_view.model
    for row in range(model.rowCount()):
        if model.permit_id(row) == permit_id:
            return str(model.index(row, 1).data())
    raise AssertionError(f"permit #{permit_id} is not listed")


def test_a_withdrawal_elsewhere_shows_in_the_list_and_the_selection_stays(
    main_window: MainWindow, sample: Sample, elsewhere: Database
) -> None:
    view = main_window.permits_view
    garcia = sample.permit_ids["garcia"]
    row = next(r for r in range(view.model.rowCount()) if view.model.permit_id(r) == garcia)
    view.table.selectRow(row)
    kowalski = sample.permit_ids["kowalski"]
    assert status_of(main_window, kowalski) == "Applied"
    lifecycle.change_status(
        elsewhere.uow(), sample.clock, sample.admin, kowalski, PermitStatus.WITHDRAWN
    )
    assert status_of(main_window, kowalski) == "Applied"  # not yet polled
    changes = main_window.live.poll()
    assert {(c.entity, c.permit_id) for c in changes} >= {("permit", kowalski)}
    assert status_of(main_window, kowalski) == "Withdrawn"
    index = view.table.currentIndex()
    assert view.model.permit_id(index.row()) == garcia


def test_the_municipality_screen_reloads_or_warns_before_its_edits_are_overwritten(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, elsewhere: Database
) -> None:
    view = main_window.show_section(MUNICIPALITY)

    def save_elsewhere(name: str) -> None:
        municipality.update_municipality(
            elsewhere.uow(), sample.clock, sample.admin, sample.municipality_id,
            {"treasurer_name": name},
        )  # fmt: skip

    treasurer = view.fields["treasurer_name"]  # type: ignore[attr-defined]
    assert isinstance(treasurer, QLineEdit)
    save_elsewhere("Terry Treasurer")
    main_window.live.poll()
    assert treasurer.text() == "Terry Treasurer"  # nothing typed here: shown at once
    inspector = view.fields["inspector_name"]  # type: ignore[attr-defined]
    inspector.selectAll()
    qtbot.keyClicks(inspector, "Ivan Inspector")  # an edit under way here
    save_elsewhere("Pat Payne")
    main_window.live.poll()
    assert inspector.text() == "Ivan Inspector" and treasurer.text() == "Terry Treasurer"
    assert view.error_label.text().startswith(  # type: ignore[attr-defined]
        "Alex Administrator changed this municipality's settings at "
    )


def test_a_user_form_says_when_the_user_is_changed_elsewhere(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    elsewhere: Database,
) -> None:
    main_window.show_section(USERS)
    users_view = main_window.users_view
    assert users_view is not None
    users_view.select_user("carol")
    dialog = users_view.edit_user()
    assert isinstance(dialog, UserDialog)
    users.set_active(elsewhere.uow(), sample.clock, sample.admin, sample.clerk.user_id, False)
    main_window.live.poll()
    assert dialog.error_label.text().startswith("Alex Administrator changed this user at ")
    dialog.close()


def test_a_save_on_this_workstation_is_not_news_from_another_one(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, elsewhere: Database
) -> None:
    """One PC, one clerk: her own save reloads what shows it, but never says "changed on
    another workstation" or warns her form against her own change."""
    view = main_window.show_section(MUNICIPALITY)
    inspector = view.fields["inspector_name"]  # type: ignore[attr-defined]
    inspector.selectAll()
    qtbot.keyClicks(inspector, "Ivan Inspector")  # an edit under way

    def save(where: Database, name: str) -> None:
        municipality.update_municipality(
            where.uow(), sample.clock, sample.admin, sample.municipality_id,
            {"treasurer_name": name},
        )  # fmt: skip

    save(sample.database, "Terry Treasurer")  # this workstation's own register connection
    changes = main_window.live.poll()
    assert changes and all(c.here for c in changes)
    assert view.error_label.text() == ""  # type: ignore[attr-defined]
    assert inspector.text() == "Ivan Inspector"

    main_window.show_section(TREASURER)
    main_window.statusBar().clearMessage()
    save(sample.database, "Pat Payne")
    main_window.live.poll()
    assert main_window.statusBar().currentMessage() == ""
    save(elsewhere, "Dana Doyle")
    changes = main_window.live.poll()
    assert changes and not any(c.here for c in changes)
    assert main_window.statusBar().currentMessage() == (
        "Changed on another workstation: press F5 to see it."
    )
