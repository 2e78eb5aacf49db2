"""The permit window's Actions menu: status changes, deadlines extended, stop-work orders and
their lifting, revocation and voiding, each through its dialog and service, with the notices
printed (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QDate
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.services import lifecycle, permits
from tests.factories import Register, make_issuable, seed_register
from ui import dialogs
from ui.app import application, make_session
from ui.permit import actions
from ui.permit.base import PermitContext
from ui.permit.summary import SummaryTab
from ui.permit.window import PermitWindow

NUMBER = "2026-0001"


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


@pytest.fixture
def issued(database: Database, clock: FixedClock, reg: Register) -> int:
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    assert permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id) == NUMBER
    return reg.permit_id


def open_window(
    qtbot: QtBot, database: Database, clock: FixedClock, actor: Actor, permit_id: int
) -> PermitWindow:
    application()
    context = PermitContext(database, make_session(database, actor), permit_id, clock)
    window = PermitWindow(context, remember_geometry=False)
    qtbot.addWidget(window)
    window.show()
    window.reload()
    return window


class Shown:
    """What the patched message boxes and file dialogs saw."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.questions: list[str] = []
        self.saved: list[Path] = []
        self.dialogs: list[QDialog] = []


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Shown:
    s = Shown()
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: s.warnings.append(text))

    def ask(_parent: object, _title: str, question: str, **_kw: object) -> bool:
        s.questions.append(question)
        return True  # yes, print it

    monkeypatch.setattr(dialogs, "ask", ask)

    def choose_file(_parent: object, _caption: str, _filter: str = "", **kw: str) -> str:
        path = tmp_path / Path(kw["directory"]).name
        s.saved.append(path)
        return str(path)

    monkeypatch.setattr(dialogs, "choose_file", choose_file)
    # A printout is filed without a Save-as dialog: what is shown is what was saved.
    monkeypatch.setattr(dialogs, "show_file", lambda _p, path, _t: s.saved.append(Path(path)))
    return s


def answer(monkeypatch: pytest.MonkeyPatch, shown: Shown, fill: Callable[[QDialog], None]) -> None:
    """The action's dialog is filled in by `fill` and OK pressed (instead of a modal exec)."""

    def run(dialog: QDialog) -> bool:
        shown.dialogs.append(dialog)
        fill(dialog)
        assert isinstance(dialog, actions.ActionDialog)
        return dialog.submit()

    monkeypatch.setattr(actions, "exec_dialog", run)


def pdf_text(path: Path) -> str:
    """The PDF's words, one space between them (a line may wrap anywhere)."""
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


def summary(window: PermitWindow) -> SummaryTab:
    tab = window.tab("summary")
    assert isinstance(tab, SummaryTab)
    return tab


# --- what the menu offers -------------------------------------------------------------------


def test_the_inspector_sees_the_actions_of_an_issued_permit(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register, issued: int
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)
    assert window.actions_button.isEnabled()
    assert window.action_labels() == [
        "Work started…",
        "Completed (finaled)…",
        "Extend a deadline…",
        "Stop-work order…",
        "Revoke…",
        "Mark expired…",
        "Void…",
    ]


def test_a_clerk_may_only_record_that_work_started(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register, issued: int
) -> None:
    window = open_window(qtbot, database, clock, reg.clerk, issued)
    assert window.action_labels() == ["Work started…"]
    assert not window.issue_button.isVisible()


def test_an_application_can_be_reviewed_approved_withdrawn_or_denied(
    qtbot: QtBot, database: Database, clock: FixedClock, reg: Register
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, reg.permit_id)
    assert window.action_labels() == [
        "Start review…",
        "Approve…",
        "Withdrawn by the applicant…",
        "Deny…",
    ]
    clerk = open_window(qtbot, database, clock, reg.clerk, reg.permit_id)
    assert clerk.action_labels() == ["Withdrawn by the applicant…"]


# --- status changes ---------------------------------------------------------------------------


def test_recording_that_work_started_takes_the_date_and_moves_the_deadline(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock.set(date(2026, 4, 15))
    window = open_window(qtbot, database, clock, reg.clerk, issued)

    def fill(d: QDialog) -> None:
        assert isinstance(d, actions.StatusChangeDialog)
        assert d.date.date() == QDate(2026, 4, 15)  # the clock's day by default
        d.date.setDate(QDate(2026, 4, 13))

    answer(monkeypatch, shown, fill)
    assert window.run_action("status:work_started")
    assert window.status_label.text() == "Work started"
    assert summary(window).value("Work commenced") == "04/13/2026"
    # 15.1.8(b): suspended 60 days after the last work seen is now the deadline that runs.
    assert summary(window).value("Work suspended: must resume") == "06/12/2026"
    assert shown.warnings == []


# --- deadlines --------------------------------------------------------------------------------


def test_extending_the_completion_deadline_shows_the_new_date(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)
    assert summary(window).value("All work completed") == "09/02/2027"  # 18 months, 15.1.8(c)

    def fill(d: QDialog) -> None:
        assert isinstance(d, actions.ExtendDeadlineDialog)
        assert [c.text for c in d.choices] == [
            "Work must start — by 07/02/2026 (15.1.8(b))",
            "All work completed — by 09/02/2027 (15.1.8(c))",
        ]
        d.select("complete")
        d.until.setDate(QDate(2027, 12, 1))
        d.reason.setPlainText("Windows back-ordered by the manufacturer")

    answer(monkeypatch, shown, fill)
    assert window.run_action("extend")
    s = summary(window)
    assert s.value("All work completed") == "12/01/2027"
    assert s.value("Expires") == "12/01/2027"
    assert [d.note for d in s.deadlines if d.label == "All work completed"] == ["extended"]
    assert shown.warnings == []


def test_an_extension_without_a_reason_is_refused_and_nothing_changes(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)
    with database.read() as conn:
        before = len(queries.permit_history(conn, issued))

    def fill(d: QDialog) -> None:
        assert isinstance(d, actions.ExtendDeadlineDialog)
        d.select("complete")
        d.until.setDate(QDate(2027, 12, 1))

    answer(monkeypatch, shown, fill)
    assert not window.run_action("extend")
    assert shown.warnings == []  # said once, in the form
    (dialog,) = shown.dialogs
    assert isinstance(dialog, actions.ExtendDeadlineDialog)
    assert dialog.error_label.text() == "Reason: say why the deadline is extended"
    assert dialog.until.date() == QDate(2027, 12, 1)  # what was typed is kept
    assert summary(window).value("All work completed") == "09/02/2027"
    with database.read() as conn:
        assert len(queries.permit_history(conn, issued)) == before


def test_a_refusal_because_the_permit_changed_elsewhere_is_shown_and_the_window_catches_up(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)
    # Another workstation revokes the permit while this window shows it issued.
    lifecycle.revoke_permit(database.uow(), clock, reg.admin, issued, ["a"])
    answer(monkeypatch, shown, lambda d: None)
    assert not window.run_action("status:completed")
    assert shown.warnings == []  # said once, in the form
    assert shown.dialogs[-1].error_label.text() == (
        "A permit that is revoked cannot become completed (it may become: nothing)."
    )
    assert window.status_label.text() == "Revoked"
    assert window.action_labels() == []
    assert not window.actions_button.isEnabled()


# --- stop-work orders -------------------------------------------------------------------------


def test_a_stop_work_order_puts_the_permit_on_hold_and_prints_the_order(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)

    def fill(d: QDialog) -> None:
        assert isinstance(d, actions.StopWorkDialog)
        assert d.section.currentData() == "15.1.12"
        assert [d.section.itemData(i) for i in range(d.section.count())] == [
            "15.1.12",
            "15.1.90(b)(2)",
            "15.2.10(a)",
        ]
        d.reasons.setPlainText("Framing does not follow the approved plans (rear wall)")

    answer(monkeypatch, shown, fill)
    assert window.run_action("stop_work")
    assert window.status_label.text() == "On hold"
    assert "Lift the stop-work order…" in window.action_labels()
    assert "Stop-work order…" not in window.action_labels()
    assert shown.questions and shown.questions[0].startswith("The stop-work order is recorded")
    (pdf,) = shown.saved
    assert pdf.name == f"stop-work-order-{NUMBER}.pdf"
    text = pdf_text(pdf)
    assert NUMBER in text
    assert "STOP WORK" in text
    assert "Framing does not follow the approved plans" in text

    # Lifting it by written notice (15.1.12) puts the permit back and prints the notice.
    clock.set(date(2026, 3, 9))

    def lift(d: QDialog) -> None:
        assert isinstance(d, actions.LiftStopWorkDialog)
        d.notice.setPlainText("Rear wall reframed per plans and inspected.")

    answer(monkeypatch, shown, lift)
    assert window.run_action("lift")
    assert window.status_label.text() == "Issued"  # work had not started yet
    assert "Stop-work order…" in window.action_labels()
    lifted = shown.saved[1]
    assert lifted.name == f"stop-work-order-{NUMBER}-lifted.pdf"
    text = pdf_text(lifted)
    assert "Lifted on" in text
    assert "Rear wall reframed per plans and inspected." in text


def test_a_stop_work_order_without_reasons_is_refused(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)
    answer(monkeypatch, shown, lambda d: None)
    assert not window.run_action("stop_work")
    assert shown.warnings == []  # said once, in the form
    assert shown.dialogs[-1].error_label.text() == (
        "Reasons: state the violations the order is for"
    )
    assert window.status_label.text() == "Issued"
    assert shown.saved == []


# --- revocation and voiding -------------------------------------------------------------------


def test_revoking_for_reasons_b_and_d_prints_the_notice_and_placard(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)

    def fill(d: QDialog) -> None:
        assert isinstance(d, actions.RevokeDialog)
        assert list(d.reason_boxes) == ["a", "b", "c", "d", "e", "f"]
        d.reason_boxes["b"].setChecked(True)
        d.reason_boxes["d"].setChecked(True)
        d.details.setPlainText("Open excavation left unguarded overnight.")

    answer(monkeypatch, shown, fill)
    assert window.run_action("revoke")
    assert window.status_label.text() == "Revoked"
    (pdf,) = shown.saved
    assert pdf.name == f"revocation-notice-{NUMBER}.pdf"
    text = pdf_text(pdf)
    assert NUMBER in text
    assert "PERMIT REVOKED" in text  # the placard, page 2
    assert "inadequate supervision on the job site" in text  # (d)
    assert "dangerous to life or property" in text  # (b)


def test_revoking_without_a_reason_is_refused(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.inspector, issued)
    answer(monkeypatch, shown, lambda d: None)
    assert not window.run_action("revoke")
    assert shown.warnings == []  # said once, in the form
    assert shown.dialogs[-1].error_label.text() == (
        "Reasons: choose one or more of the reasons a–f of 15.1.7(g)"
    )
    assert window.status_label.text() == "Issued"


def test_an_administrator_voids_a_permit_with_a_reason(
    qtbot: QtBot,
    database: Database,
    clock: FixedClock,
    reg: Register,
    issued: int,
    shown: Shown,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_window(qtbot, database, clock, reg.admin, issued)

    def fill(d: QDialog) -> None:
        assert isinstance(d, actions.VoidDialog)
        d.reason.setText("Issued to the wrong parcel")

    answer(monkeypatch, shown, fill)
    assert window.run_action("void")
    assert window.status_label.text() == "Void"
    assert window.title_label.text() == f"Permit {NUMBER}"  # it keeps its number
    assert window.action_labels() == []
