"""Administration → Municipality: the rooming-house licence fee (Hudson 140-10A), empty until the
Council sets it; a bad amount is shown naming the field and focuses it; Revert forgets it."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from desk.services import municipality as svc
from tests.ui.sample import Sample
from tests.ui.test_municipality_view import _view, main_window


def _fee(sample: Sample) -> Decimal | None:
    return svc.municipality_settings(
        sample.database.uow(), sample.municipality_id
    ).rooming_licence_fee


def test_the_administrator_sets_the_licence_fee_and_a_bad_one_names_the_field(
    qtbot: QtBot, sample: Sample
) -> None:
    window = main_window(qtbot, sample)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    view = _view(window)
    edit = view.fields["rooming_licence_fee"]
    assert isinstance(edit, QLineEdit)
    assert edit.text() == "" and not view.presenter.dirty  # not set: none is shipped
    qtbot.keyClicks(edit, "fifty")
    assert not view.save()
    assert view.error_label.text() == (
        "Rooming-house licence fee: 'fifty' is not an amount of money"
    )
    assert edit.hasFocus()
    view.revert()
    assert edit.text() == "" and not view.presenter.dirty
    qtbot.keyClicks(edit, "50")
    assert view.save()
    assert _fee(sample) == Decimal("50.00")
    assert edit.text() == "50.00" and not view.presenter.dirty
    edit.clear()
    qtbot.keyClicks(edit, " ")
    assert view.save()
    assert _fee(sample) is None
