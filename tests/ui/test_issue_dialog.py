"""The issue dialog of the permit window: the unmet conditions in words, Issue disabled until
they are met, then the number, the header and the permit card (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.checklists import ItemState
from desk.domain.model import Actor
from desk.services import checklists
from tests.factories import Register, make_issuable, seed_register
from ui import dialogs
from ui.app import application, make_session
from ui.permit.base import PermitContext
from ui.permit.issue_dialog import IssueDialog
from ui.permit.summary import SummaryTab
from ui.permit.window import PermitWindow

SURVEY_AGE = (
    "Survey: date of the survey (no more than one year before issuance) not recorded (15.1.7(b)(2))"
)
NO_CERTIFICATION = (
    "Badger State Builders LLC: no dwelling contractor certification on record (Wis. Stat. 101.654)"
)


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def open_window(
    qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor, permit_id: int
) -> PermitWindow:
    application()  # the stylesheet, as in the app
    context = PermitContext(database, make_session(database, actor), permit_id, clock)
    window = PermitWindow(context, remember_geometry=False)
    qtbot.addWidget(window)
    window.show()
    window.reload()
    return window


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: shown.append(text))
    return shown


def open_dialog(window: PermitWindow) -> IssueDialog:
    assert window.issue_button.isVisible()
    window.issue_button.click()
    dialog = window.issue_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_the_dialog_lists_every_unmet_condition_and_issue_stays_disabled(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, reg.permit_id)
    dialog = open_dialog(window)
    texts = dialog.condition_texts()
    assert SURVEY_AGE in texts
    assert NO_CERTIFICATION in texts
    assert len(texts) == 27
    assert dialog.summary_label.text() == "On 03/02/2026, 27 conditions are not met:"
    assert not dialog.issue_button.isEnabled()
    assert dialog.issue_button.text() == "27 conditions are not met"
    assert dialog.date_edit.date().toString("MM/dd/yyyy") == "03/02/2026"  # the clock's day
    # Enter does not issue while conditions are unmet.
    qtbot.keyClick(dialog.date_edit, Qt.Key.Key_Return)
    assert window.title_label.text() == f"Application #{reg.permit_id}"


def test_the_list_is_checked_again_on_check_again_and_when_the_date_changes(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, reg.permit_id)
    dialog = open_dialog(window)
    # The survey date is ticked in the Checklist tab (here: the service) while the dialog is open.
    checklists.mark_item(
        database.uow(),
        clock,
        reg.inspector,
        reg.permit_id,
        "survey.date",
        ItemState.RECEIVED,
        value_date=date(2025, 3, 2),  # exactly one year before the issue date: still good
    )
    dialog.check_button.click()
    assert SURVEY_AGE not in dialog.condition_texts()
    assert len(dialog.condition_texts()) == 26
    # A day later the survey is more than a year old (15.1.7(b)(2)): checked on the date change.
    dialog.date_edit.setDate(dialog.date_edit.date().addDays(1))
    assert dialog.summary_label.text() == "On 03/03/2026, 27 conditions are not met:"
    assert (
        "Survey dated 03/02/2025 is more than one year old (15.1.7(b)(2))"
        in dialog.condition_texts()
    )


def test_once_every_condition_is_met_enter_issues_and_the_header_shows_the_number(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, reg.permit_id)
    dialog = open_dialog(window)
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    window.reload()  # the window reloads after a checklist tick; the dialog checks again
    assert dialog.condition_texts() == []
    assert dialog.summary_label.text() == "✓  Every condition for issuance is met on 03/02/2026."
    assert dialog.issue_button.isEnabled()
    assert dialog.issue_button.text() == "&Issue permit"

    qtbot.keyClick(dialog.date_edit, Qt.Key.Key_Return)  # Enter issues

    assert dialog.result_label.text() == "Issued as permit 2026-0001"
    assert not dialog.issue_button.isVisible()
    assert window.title_label.text() == "Permit 2026-0001"
    assert window.status_label.text() == "Issued"
    assert not window.issue_button.isVisible()  # nothing left to issue
    summary = window.tab("summary")
    assert isinstance(summary, SummaryTab)
    assert summary.value("Issued by") == "Ivan Inspector"
    assert summary.value("Work must start") == "07/02/2026"  # 4 months (15.1.8(b))

    # The dialog offers the job-site card (15.1.8(a)).
    out = tmp_path / "card.pdf"
    # Filed without a Save-as dialog: the card shown is copied where the test reads it.
    monkeypatch.setattr(
        dialogs, "show_file", lambda _p, path, _t: out.write_bytes(Path(path).read_bytes())
    )
    assert dialog.card_button.isVisible()
    dialog.card_button.click()
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "2026-0001" in text
    assert "6120 N Port Washington Rd" in text
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_a_condition_that_fails_between_the_check_and_issue_is_shown(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    warnings: list[str],
) -> None:
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    window = open_window(qtbot, database, clock, reg.inspector, reg.permit_id)
    dialog = open_dialog(window)
    assert dialog.issue_button.isEnabled()
    # Someone reopens the survey date at another workstation before Issue is pressed.
    checklists.mark_item(
        database.uow(), clock, reg.inspector, reg.permit_id, "survey.date", ItemState.OPEN
    )
    assert dialog.issue() is None
    assert dialog.condition_texts() == [SURVEY_AGE]
    assert not dialog.issue_button.isEnabled()
    assert dialog.issue_button.text() == "1 condition is not met"
    assert warnings and SURVEY_AGE in warnings[0]
    assert window.title_label.text() == f"Application #{reg.permit_id}"


def test_a_clerk_does_not_see_the_issue_button(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register
) -> None:
    window = open_window(qtbot, database, clock, reg.clerk, reg.permit_id)
    assert not window.issue_button.isVisible()
    assert window.open_issue_dialog() is None
