"""The issue dialog lists temporary wiring's missing period (15.1.76(a)) and says the term the
permit would have; the Deadlines list shows an ended temporary certificate as overdue
(15.1.13(d)). SQLite and PostgreSQL for the dialog."""

from __future__ import annotations

import os
from datetime import date, timedelta
from pathlib import Path

from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.lifecycle import Deadline
from desk.services import lifecycle
from desk.services.lifecycle import OCCUPANCY_ENDED, Lapse
from tests.db.test_temporary_deadlines import temporary_wiring
from tests.factories import seed_register
from tests.ui.test_issue_dialog import open_dialog, open_window
from ui.presenters.deadlines import DeadlinesPresenter
from ui.views.deadlines import DeadlinesModel

NO_PERIOD = (
    "Temporary wiring: the period the wiring is to remain in service is not stated "
    "(at most 90 days) (15.1.76(a))"
)


def test_the_issue_dialog_asks_for_the_temporary_wiring_period_then_shows_its_end(
    qtbot: QtBot, database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = seed_register(database, clock)
    permit_id = temporary_wiring(database, clock, reg)
    window = open_window(qtbot, database, clock, reg.inspector, permit_id)
    dialog = open_dialog(window)
    assert dialog.condition_texts() == [NO_PERIOD]
    assert not dialog.issue_button.isEnabled()
    assert not dialog.term_label.isVisible()  # no period, no end
    shot = Path(os.environ.get("PERMITDESK_SHOT_DIR", tmp_path)) / "issue-temporary-wiring.png"
    dialog.grab().save(str(shot))

    end = clock.today() + timedelta(days=90)
    lifecycle.set_requested_period(database.uow(), clock, reg.clerk, permit_id, end)
    dialog.check_button.click()
    assert dialog.condition_texts() == []
    assert dialog.issue_button.isEnabled()
    assert dialog.term_label.isVisible()
    assert dialog.term_label.text() == (
        f"If issued on {clock.today():%m/%d/%Y}: Temporary wiring: service cut off until "
        f"{end:%m/%d/%Y} (15.1.76(a))."
    )


def test_an_ended_temporary_certificate_is_listed_as_overdue_with_what_to_do(
    qtbot: QtBot, qtmodeltester: object, tmp_path: Path
) -> None:
    ended = Lapse(
        12,
        "2026-0107",
        Deadline("occupancy", "Temporary occupancy ends: final certificate due",
                 date(2026, 11, 26), "15.1.13(d)"),
        "6120 N Port Washington Rd",
        "RES-NEW-DWELLING",
        OCCUPANCY_ENDED,
    )  # fmt: skip
    due = Lapse(
        9,
        "2026-0388",
        Deadline("expires", "Temporary wiring: service cut off", date(2026, 12, 1), "15.1.76(a)"),
        "5909 N Milwaukee River Pkwy",
        "ELECTRICAL-TEMP",
    )
    presenter = DeadlinesPresenter(lambda _d: [ended, due], "glendale", lambda: date(2026, 11, 29))
    presenter.load()
    assert presenter.rows[0].cells[:3] == ("11/26/2026", "3 days overdue", "2026-0107")
    assert presenter.rows[0].cells[5].endswith("(15.1.13(b)(1))")
    assert presenter.rows[0].overdue_soon
    assert presenter.rows[1].cells[1] == "2 days"
    assert presenter.summary == "2 permit deadlines in the next 30 days, 1 of them overdue"
    model = DeadlinesModel(presenter)
    model.reload()
    qtmodeltester.check(model)  # type: ignore[attr-defined]
