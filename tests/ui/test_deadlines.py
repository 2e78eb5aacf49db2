"""The Deadlines section lists live permits by their next deadline and opens them."""

from __future__ import annotations

from datetime import date

from pytestqt.qtbot import QtBot

from desk.domain.lifecycle import Deadline
from desk.services.lifecycle import Lapse
from ui.presenters.deadlines import DeadlinesPresenter
from ui.views.deadlines import DeadlinesModel


def _presenter() -> DeadlinesPresenter:
    lapses = [
        Lapse(7, "2026-0412", Deadline("start", "Work must start", date(2026, 12, 3), "15.1.8(b)"),
              "6120 N Port Washington Rd", "RES-NEW-DWELLING"),
        Lapse(9, "2026-0388", Deadline("expires", "Plumbing permit in force", date(2026, 12, 28),
                                       "15.1.42"), "5909 N Milwaukee River Pkwy", "PLUMBING"),
    ]  # fmt: skip
    return DeadlinesPresenter(lambda days: lapses, "glendale", lambda: date(2026, 11, 29))


def test_each_row_says_when_what_and_which_section(qtbot: QtBot, qtmodeltester: object) -> None:
    presenter = _presenter()
    presenter.load()
    assert presenter.rows[0].cells == (
        "12/03/2026",
        "4 days",
        "2026-0412",
        "New one- or two-family dwelling",
        "6120 N Port Washington Rd",
        "Work must start",
        "15.1.8(b)",
    )
    assert presenter.rows[0].overdue_soon and not presenter.rows[1].overdue_soon
    assert presenter.summary == "2 permit deadlines in the next 30 days"
    model = DeadlinesModel(presenter)
    model.reload()
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    assert model.rowCount() == 2
