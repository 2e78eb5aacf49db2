"""Administration → Municipality: an administrator edits and saves; a clerk has no such section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from desk.services import municipality as svc
from tests.ui.sample import Sample
from ui import app, dialogs
from ui.main_window import MainWindow
from ui.views.municipality import SECTION_TITLE, MunicipalityView


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A question left over at teardown (closing with unsaved edits) lets them go."""
    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: pytest.fail(text))


def main_window(qtbot: QtBot, sample: Sample, *, clerk: bool = False) -> MainWindow:
    app.application()
    session = app.make_session(sample.database, sample.clerk if clerk else sample.admin)
    window = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.load()
    return window


def _view(window: MainWindow) -> MunicipalityView:
    shown = window.show_section(SECTION_TITLE)
    assert isinstance(shown, MunicipalityView)
    assert shown.loaded
    return shown


def test_the_administrator_changes_the_treasurers_name_and_sees_it_after_reloading(
    qtbot: QtBot, sample: Sample
) -> None:
    window = main_window(qtbot, sample)
    view = _view(window)
    edit = view.fields["treasurer_name"]
    assert isinstance(edit, QLineEdit)
    assert edit.text() == ""
    assert not view.save_button.isEnabled()
    window.activateWindow()  # shortcuts go to the active window
    qtbot.waitUntil(window.isActiveWindow)
    edit.setFocus()
    qtbot.keyClicks(edit, "Terry Treasurer")
    assert view.presenter.dirty and view.save_button.isEnabled()
    qtbot.keyClick(edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Save
    assert not view.presenter.dirty
    assert svc.municipality_settings(
        sample.database.uow(), sample.municipality_id
    ).treasurer_name == ("Terry Treasurer")

    # A new window (another day's sign-in) reads it back from the database.
    again = _view(main_window(qtbot, sample))
    again_edit = again.fields["treasurer_name"]
    assert isinstance(again_edit, QLineEdit)
    assert again_edit.text() == "Terry Treasurer"
    assert "2 letterhead versions" in again.status_label.text()


def test_a_bad_nsf_charge_is_shown_naming_the_field_and_focuses_it(
    qtbot: QtBot, sample: Sample
) -> None:
    window = main_window(qtbot, sample)
    window.activateWindow()  # focus is given in the active window
    qtbot.waitUntil(window.isActiveWindow)
    view = _view(window)
    edit = view.fields["nsf_charge"]
    assert isinstance(edit, QLineEdit)
    edit.setText("")
    qtbot.keyClicks(edit, "thirty")
    assert not view.save()
    assert view.error_label.text() == "NSF charge: 'thirty' is not an amount of money"
    assert edit.hasFocus()


def test_leaving_with_unsaved_changes_asks_and_no_keeps_the_section(
    qtbot: QtBot, sample: Sample, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = main_window(qtbot, sample)
    view = _view(window)
    edit = view.fields["inspector_title"]
    assert isinstance(edit, QLineEdit)
    qtbot.keyClicks(edit, " & Zoning Administrator")
    asked: list[str] = []

    def ask(_parent: Any, _title: str, question: str, **_: Any) -> bool:
        asked.append(question)
        return False

    monkeypatch.setattr(dialogs, "ask", ask)
    window.nav.setCurrentRow(0)
    assert asked and "not saved" in asked[0]
    assert window.current_section_title() == SECTION_TITLE  # saved searches shift sidebar rows
    assert view.presenter.dirty


def test_a_logo_chosen_is_previewed_and_saved(
    qtbot: QtBot, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtGui import QImage

    logo = tmp_path / "seal.png"
    image = QImage(40, 20, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.darkBlue)
    assert image.save(str(logo))
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    view = _view(main_window(qtbot, sample))
    monkeypatch.setattr(dialogs, "choose_file", lambda *_a, **_k: str(text))
    view.choose_image("logo")
    assert view.error_label.text() == "Logo: the file is not a PNG or JPEG image"
    monkeypatch.setattr(dialogs, "choose_file", lambda *_a, **_k: str(logo))
    view.choose_image("logo")
    assert view.previews["logo"].pixmap() is not None
    assert not view.previews["logo"].pixmap().isNull()
    assert view.save()
    shown = svc.municipality_settings(sample.database.uow(), sample.municipality_id)
    assert shown.logo is not None and shown.logo.content == logo.read_bytes()


def test_a_clerk_does_not_see_the_municipality_section(qtbot: QtBot, sample: Sample) -> None:
    window = main_window(qtbot, sample, clerk=True)
    assert SECTION_TITLE not in window.section_titles()
    assert window.municipality_view is None


def test_a_municipality_form_saved_over_another_administrators_change_is_refused(
    qtbot: QtBot, sample: Sample
) -> None:
    from ui.presenters.municipality import MunicipalityPresenter

    ours, theirs = (
        MunicipalityPresenter(
            sample.database.uow, sample.clock, sample.admin, sample.municipality_id
        )
        for _ in range(2)
    )
    ours.load()
    theirs.load()
    theirs.set("treasurer_name", "Terry Treasurer")
    assert theirs.save()
    ours.set("treasurer_name", "Pat Payne")
    assert not ours.save()
    assert ours.stale
    assert ours.error.startswith("The municipality City of Glendale was changed by Alex ")
    assert ours.dirty  # what was typed stays on screen until the user reloads
    ours.load()
    assert ours.form["treasurer_name"] == "Terry Treasurer"
    assert svc.municipality_settings(
        sample.database.uow(), sample.municipality_id
    ).treasurer_name == ("Terry Treasurer")
