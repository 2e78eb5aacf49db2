"""Small slips at the counter, each of which cost a clerk something."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tests.ui.sample import Sample
from ui.app import make_session
from ui.permit.base import PermitContext
from ui.permit.inspections import RequestDialog


def test_a_request_from_the_permit_window_shows_no_permit_finder_over_its_heading(
    qtbot: QtBot, sample: Sample
) -> None:
    session = make_session(sample.database, sample.admin)
    context = PermitContext(sample.database, session, sample.issued_id, sample.clock)
    dialog = RequestDialog(context)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    # The permit is known: its number is shown as text, and there is nothing to search.
    assert not dialog.finder.isVisible()
    assert dialog.permit_label.isVisible()
    assert dialog.permit_label.text().startswith("2026-")
