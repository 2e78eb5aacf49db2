"""Issue 4's acceptance, at the counter and then at the inspector's desk, from the keyboard:
the new-dwelling application typed into the form with its live fee, the issue refused with the
unmet conditions listed, the fees paid, the checklist ticked, the permit issued with the next
number of the year and its permit card printed with that number and the address."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desk.domain.checklists import ItemState
from tests.factories import pay_in_full
from tests.ui.sample import Sample
from tests.ui.test_intake import no_modal_dialogs, take_new_dwelling_application, window
from ui import dialogs
from ui.main_window import MainWindow
from ui.permit.checklist import ChecklistTab

__all__ = ["no_modal_dialogs", "window"]  # the fixtures, shared with the intake tests

SURVEY = "Survey: date of the survey (no more than one year before issuance) not recorded"


def open_items(tab: ChecklistTab) -> list[str]:
    assert tab.presenter is not None
    return [x.code for x in tab.presenter.lines if x.state is ItemState.OPEN and x.required]


def test_a_new_dwelling_goes_from_the_counter_to_an_issued_permit_and_its_card(
    qtbot: QtBot,
    window: MainWindow,
    sample: Sample,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 1. The clerk takes the application; the form shows the $579.00 fee (asserted inside).
    permit_id = take_new_dwelling_application(qtbot, window, sample)
    permit_window = window.permit_windows[permit_id]
    qtbot.waitExposed(permit_window)
    permit_window.activateWindow()
    qtbot.waitUntil(permit_window.isActiveWindow, timeout=2000)

    # 2. The inspector opens the issue dialog: refused, with the unmet conditions in words.
    assert permit_window.issue_button.isVisible()
    qtbot.keyClick(permit_window, Qt.Key.Key_I, Qt.KeyboardModifier.AltModifier)
    # A mnemonic "animates" the click: the button fires a moment later.
    qtbot.waitUntil(lambda: permit_window.issue_dialog is not None, timeout=2000)
    dialog = permit_window.issue_dialog
    assert dialog is not None and dialog.isVisible()
    refused = dialog.condition_texts()
    assert any(t.startswith(SURVEY) for t in refused), refused
    assert (
        "Plans: three complete sets of plans and specifications not received (15.1.7(b)(1))"
        in refused
    )
    assert "Fees of $579.00 are assessed; $0.00 is paid; $579.00 is due (15.1.21)." in refused
    assert not dialog.issue_button.isEnabled()
    assert dialog.issue_button.text() == f"{len(refused)} conditions are not met"

    # The applicant pays the $579.00 at the counter (the cashier screen is issue 5's; the
    # payment goes through the same service).
    pay_in_full(sample.database, sample.clock, sample.admin, permit_id)

    # 3. The checklist, ticked from the keyboard: Space down the list; a dated item takes
    #    the survey's date and Enter.
    permit_window.activateWindow()
    qtbot.waitUntil(permit_window.isActiveWindow, timeout=2000)
    permit_window.select_tab("checklist")
    tab = permit_window.tab("checklist")
    assert isinstance(tab, ChecklistTab)
    assert tab.current_code() == "application.form"  # the first item is selected
    tab.table.setFocus()
    for _ in range(200):
        if not open_items(tab):
            break
        focus = QApplication.focusWidget()
        if focus is tab.value_edit:
            qtbot.keyClicks(tab.value_edit, "02/20/2026")
            qtbot.keyClick(tab.value_edit, Qt.Key.Key_Return)
        else:
            assert tab.presenter is not None
            line = tab.presenter.item(tab.current_row())
            if line is None or line.state is not ItemState.OPEN:  # a heading, or done
                tab.select_next_item()
                continue
            qtbot.keyClick(tab.table, Qt.Key.Key_Space)
    assert open_items(tab) == []
    assert tab.summary_label.text() == "26 of 26 received — complete"

    # 4. Checked again, the dialog finds every condition met and Enter issues.
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    qtbot.keyClick(dialog, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)  # &Check again
    qtbot.waitUntil(lambda: dialog.condition_texts() == [], timeout=2000)
    assert dialog.issue_button.isEnabled()
    dialog.issue_button.setFocus()
    qtbot.keyClick(dialog.issue_button, Qt.Key.Key_Return)
    assert dialog.result_label.text() == "Issued as permit 2026-0002"  # the sample holds 0001
    assert permit_window.title_label.text() == "Permit 2026-0002"
    assert permit_window.status_label.text() == "Issued"

    # 5. The permit card, from the dialog: its text holds the number and the address.
    card = tmp_path / "card.pdf"
    # Filed without a Save-as dialog: the card shown is copied where the test reads it.
    monkeypatch.setattr(
        dialogs, "show_file", lambda _p, path, _t: card.write_bytes(Path(path).read_bytes())
    )
    qtbot.keyClick(dialog, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)  # Print permit &card
    qtbot.waitUntil(card.exists, timeout=5000)
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(card)).pages)
    assert "2026-0002" in text
    assert "6120 N Port Washington Rd" in text
