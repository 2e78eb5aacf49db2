"""The case window's and section's new steps, from the keyboard (Hudson 140-3): the hearing's
papers (140-3B written notice, 140-3F record) offered and printed, Ctrl+P still the notice of
violation; registered mail returned unclaimed (140-3A(4)) and the "Serve again" filter; a
service entered by mistake withdrawn; a case opened on the inspector's observation (140-2);
the Council's hearing docket of the next meeting date, read back from the PDF."""

# ruff: noqa: F811 (the fixtures of test_enforcement_view, imported, are the parameters)
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from desk.enforcement.model import ServiceMethod
from desk.enforcement.readmodels import CaseFilter
from desk.services.enforcement import notices, petitions
from tests.db.enforcement_setup import Office, case_with_notice
from tests.ui.test_enforcement_view import (  # noqa: F401 (fixtures)
    Alt,
    Ctrl,
    alt,
    by_keys,
    clock,
    in_filter,
    o,
    typed,
    view_for,
    warnings,
)
from ui import dialogs
from ui.permit import actions
from ui.views import enforcement_dialogs as d

TODAY = date(2026, 3, 2)
PLACE = "Council Chambers, City Hall"


def _text(path: Path) -> str:
    return " ".join(
        " ".join((page.extract_text() or "").split()) for page in PdfReader(str(path)).pages
    )


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The printouts shown in the app's window (save_and_open) and sent to the printer."""
    seen: list[Path] = []
    monkeypatch.setattr(dialogs, "show_file", lambda _w, path, _t: seen.append(Path(path)))
    import ui.pdf

    monkeypatch.setattr(ui.pdf, "print_pdf", lambda _p, path: seen.append(Path(path)))
    return seen


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    questions: list[str] = []

    def ask(_p: object, title: str, _q: str, **_kw: object) -> bool:
        questions.append(title)
        return True

    monkeypatch.setattr(dialogs, "ask", ask)
    return questions


def _served(o: Office, addressee_id: int, how: ServiceMethod = ServiceMethod.PERSONAL) -> int:
    return notices.record_service(
        o.db.uow(), o.clock, o.clerk, addressee_id, how, o.clock.today(), "Carol"
    ).service_id


def test_the_hearing_papers_are_offered_and_printed_and_ctrl_p_is_the_notice(
    qtbot: QtBot,
    o: Office,
    clock: object,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    shown: list[Path],
    asked: list[str],
) -> None:
    case_id, _v, issued = case_with_notice(o)
    (owner,) = issued.addressee_ids
    _served(o, owner)
    petitions.record_petition(
        o.db.uow(), o.clock, o.clerk, owner, TODAY, "Otto Owner", "The stairs are being rebuilt"
    )
    view = view_for(qtbot, o, o.inspector)
    window = view.open_case(case_id)
    assert not window.hearing_notice_button.isEnabled()
    assert not window.hearing_record_button.isEnabled()

    def hearing(dialog: QDialog) -> None:
        assert isinstance(dialog, d.HearingDialog)
        dialog.hearing_on.setDate(QDate(2026, 3, 17))

    seen = by_keys(qtbot, monkeypatch, hearing)
    alt(qtbot, window, Qt.Key.Key_H, seen)
    assert warnings == [] and asked == ["Notice of hearing"]
    (notice,) = shown
    assert notice.name == "hearing-notice-CE-2026-0001-1.pdf"
    text = _text(notice)
    assert "Notice of hearing" in text and "To Otto Owner, 9 Elm St, Hudson WI 54016" in text
    assert f"Hearing date 03/17/2026 Time and place {PLACE}" in text
    assert "Nellie" not in text
    assert window.hearing_notice_button.isEnabled()
    view.load()
    assert in_filter(view, CaseFilter.HEARING_SCHEDULED) == ["CE-2026-0001"]

    # Alt+G prints the written notice again while the hearing is scheduled.
    alt(qtbot, window, Qt.Key.Key_G)
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=10_000)
    assert shown[1].name.startswith("hearing-notice-CE-2026-0001-1")

    # The Council decides on the 17th; the record of hearing is offered (140-3F).
    o.clock.set(date(2026, 3, 17))
    window.reload()

    def decision(dialog: QDialog) -> None:
        assert isinstance(dialog, d.DecisionDialog)
        typed(qtbot, dialog.findings, "The Council heard the owner and sustained the notice.")

    seen = by_keys(qtbot, monkeypatch, decision)
    alt(qtbot, window, Qt.Key.Key_D, seen)
    assert warnings == [] and asked == ["Notice of hearing", "Record of hearing"]
    record = shown[2]
    assert record.name == "hearing-record-CE-2026-0001-1.pdf"
    text = _text(record)
    assert "Record of hearing" in text
    assert "The Council heard the owner and sustained the notice." in text
    assert "On 03/17/2026 the Common Council sustained the notice (140-3C)." in text
    assert "Copy for the record — CE-2026-0001" in text and "Nellie" not in text
    assert not window.hearing_notice_button.isEnabled()
    assert window.hearing_record_button.isEnabled()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_H, Ctrl | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: len(shown) == 4, timeout=10_000)
    assert shown[3].name.startswith("hearing-record-CE-2026-0001-1")

    # Ctrl+P in the case window is still the notice of violation, straight to the printer.
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_P, Ctrl)
    qtbot.waitUntil(lambda: len(shown) == 5, timeout=10_000)
    assert shown[4].name.startswith("notice-CE-2026-0001-1")
    window.close()


def test_mail_returned_unclaimed_from_the_case_window_puts_the_case_on_serve_again(
    qtbot: QtBot,
    o: Office,
    clock: object,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    case_id, _v, issued = case_with_notice(o)
    view = view_for(qtbot, o, o.clerk)
    window = view.open_case(case_id)
    assert not window.buttons["returned"].isEnabled()
    _served(o, issued.addressee_ids[0], ServiceMethod.REGISTERED_MAIL)
    o.clock.set(date(2026, 3, 9))
    window.reload()
    assert window.buttons["returned"].isEnabled()

    # A day in the future: the dialog stays open and says which field.
    said: list[str] = []

    def tomorrow(dialog: QDialog) -> bool:
        assert isinstance(dialog, d.ReturnedDialog)
        dialog.show()
        assert dialog.service.currentText() == "Otto Owner (owner), mailed 03/02/2026"
        dialog.returned_on.setDate(QDate(2026, 3, 10))
        line = dialog.returned_on  # the date field is one line: Enter in it submits
        line.setFocus()
        qtbot.keyClick(line, Qt.Key.Key_Return)
        said.append(dialog.error_label.text())
        visible = dialog.isVisible()
        dialog.reject()
        return not visible

    monkeypatch.setattr(actions, "exec_dialog", tomorrow)
    alt(qtbot, window, Qt.Key.Key_U)
    qtbot.waitUntil(lambda: bool(said), timeout=10_000)
    assert said[0] == "Returned on: 03/10/2026 is in the future"
    assert warnings == []  # said once, in the form
    warnings.clear()

    seen = by_keys(qtbot, monkeypatch, lambda dialog: None)  # today, 03/09
    alt(qtbot, window, Qt.Key.Key_U, seen)
    assert warnings == []
    # 140-3A(4): served the day it was mailed; the return is recorded, the service stands.
    assert [line.cells[3] for line in window.notices.rows] == [
        "03/02/2026 registered mail (returned unclaimed 03/09/2026: serve again)"
    ]
    assert window.timeline_texts()[-1] == (
        "Registered mail to Otto Owner returned unclaimed: the service of 03/02/2026 stands "
        "(mailed to the last known address); serve again personally or by posting if you can"
    )
    assert not window.buttons["returned"].isEnabled()
    view.load()
    assert in_filter(view, CaseFilter.SERVE_AGAIN) == ["CE-2026-0001"]
    window.close()


def test_a_service_entered_by_mistake_is_withdrawn_from_the_case_window(
    qtbot: QtBot,
    o: Office,
    clock: object,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    case_id, _v, issued = case_with_notice(o)
    _served(o, issued.addressee_ids[0])
    clerk = view_for(qtbot, o, o.clerk)
    mine = clerk.open_case(case_id)
    assert not mine.buttons["correct"].isEnabled()  # the inspector corrects
    mine.close()
    view = view_for(qtbot, o, o.inspector)
    window = view.open_case(case_id)
    assert window.stage_label.text() == "petition window open until 03/12/2026"

    def correct(dialog: QDialog) -> None:
        assert isinstance(dialog, d.CorrectionDialog)
        assert dialog.entry.currentText() == "Service on Otto Owner (owner), 03/02/2026 personal"
        typed(qtbot, dialog.reason, "Served the occupant, not the owner")

    seen = by_keys(qtbot, monkeypatch, correct)
    alt(qtbot, window, Qt.Key.Key_M, seen)
    assert warnings == []
    assert window.stage_label.text() == "notice issued, not yet served"
    assert window.timeline_texts()[-1] == (
        "Service on Otto Owner of 03/02/2026 withdrawn, entered by mistake: "
        "Served the occupant, not the owner"
    )
    assert window.timeline.rows[-1].cells[1] == "Correction"
    assert not window.buttons["correct"].isEnabled()
    assert window.buttons["service"].isEnabled()
    view.load()
    assert in_filter(view, CaseFilter.NOT_SERVED) == ["CE-2026-0001"]
    window.close()


def test_the_inspector_opens_a_case_on_observation(
    qtbot: QtBot,
    o: Office,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    clerk = view_for(qtbot, o, o.clerk)
    assert not clerk.observation_button.isEnabled()
    view = view_for(qtbot, o, o.inspector)
    assert view.observation_button.isEnabled()

    def observed(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ObservationDialog)
        typed(qtbot, dialog.search, "412 Vi")
        assert dialog.parcel.count() == 1
        typed(qtbot, dialog.observed, "Broken window on the second floor, street side")

    seen = by_keys(qtbot, monkeypatch, observed)
    alt(qtbot, view, Qt.Key.Key_B, seen)
    assert warnings == []
    assert view.case_numbers() == ["CE-2026-0001"]
    (window,) = view.case_windows.values()
    assert window.timeline_texts() == [
        "Case CE-2026-0001 opened: Broken window on the second floor, street side"
    ]
    assert window.timeline.rows[0].cells[3] == "140-2"

    # A second observation on the property belongs on its open case: said in the dialog.
    seen = by_keys(qtbot, monkeypatch, observed)
    assert not view.open_on_observation()
    dialog = seen[0]
    assert isinstance(dialog, d.ObservationDialog)
    assert "Case CE-2026-0001 is open on this property" in (
        dialog.error_label.text() + " ".join(warnings)
    )


def test_the_hearing_docket_of_the_next_meeting_date(
    qtbot: QtBot,
    o: Office,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    shown: list[Path],
) -> None:
    case_id, _v, issued = case_with_notice(o)
    (owner,) = issued.addressee_ids
    _served(o, owner)
    petitions.record_petition(
        o.db.uow(), o.clock, o.clerk, owner, TODAY, "Otto Owner", "The stairs are being rebuilt"
    )
    petitions.schedule_hearing(
        o.db.uow(), o.clock, o.inspector, issued.notice_id, date(2026, 3, 17), PLACE, TODAY
    )
    view = view_for(qtbot, o, o.clerk)
    chosen: list[date] = []

    def docket(dialog: QDialog) -> None:
        assert isinstance(dialog, d.DocketDialog)
        chosen.append(d._day(dialog.meeting_on))

    seen = by_keys(qtbot, monkeypatch, docket)
    alt(qtbot, view, Qt.Key.Key_K, seen)
    assert warnings == [] and chosen == [date(2026, 3, 17)]
    (path,) = shown
    text = _text(path)
    assert "Common Council hearing docket" in text and "Hearings of 03/17/2026" in text
    assert "CE-2026-0001" in text and "412 Vine St" in text and "Otto Owner" in text
    assert "1 hearing." in text
    assert "Nellie" not in text and "555-0199" not in text
    assert case_id
