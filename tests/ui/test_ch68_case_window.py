"""A Ch. 512 case (the City of Westby) in its window, from the keyboard: review and appeal under
Wis. Stat. ch. 68 instead of Hudson's petition and Council hearing. The clerk records a request
for review (68.08), the inspector the decision on review (68.09), the clerk an appeal (68.10);
a hearing 16 days after the appeal is refused citing 68.11(1) and 15 days taken; the final
determination (68.12) recorded late is warned. The stage words follow each step. And the
Municipality screen of a Ch. 512 municipality shows the periods the office may set and saves one;
Hudson's shows none."""

# ruff: noqa: F811 (the fixtures of test_enforcement_view, imported, are the parameters)
from __future__ import annotations

import re
from datetime import date

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QDialog, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.services import municipality as municipality_service
from tests.db.test_ch68_procedure import served_notice
from tests.db.test_ch512_municipality import Westby, westby
from tests.ui.test_enforcement_view import alt, by_keys, typed, warnings  # noqa: F401
from ui.app import application, make_session
from ui.enforcement.window import CaseWindow
from ui.views import review_dialogs as rd
from ui.views.enforcement import EnforcementView
from ui.views.municipality import MunicipalityView

SERVED = date(2026, 3, 2)  # Monday


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(SERVED)


@pytest.fixture
def w(empty_database: Database, clock: FixedClock) -> Westby:
    return westby(empty_database, clock)


def window_for(qtbot: QtBot, w: Westby, actor: Actor, case_id: int) -> CaseWindow:
    application()
    view = EnforcementView(w.db, make_session(w.db, actor), w.clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.load()
    window = view.open_case(case_id)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    return window


def shown_keys(window: CaseWindow) -> list[str]:
    """The Alt letters of the window's visible buttons and its tabs."""
    texts = [b.text() for b in window.findChildren(QPushButton) if b.isVisible()]
    texts += [window.tabs.tabText(i) for i in range(window.tabs.count())]
    return [m[1].lower() for t in texts if (m := re.search(r"&(\w)", t))]


def test_review_and_appeal_of_a_ch_512_notice_from_the_case_window(
    qtbot: QtBot,
    w: Westby,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
) -> None:
    case_id, _notice_id, _addressee_id = served_notice(w, SERVED)

    # The clerk, March 20: a request for review (Alt+Q), filed today, by the owner.
    clock.set(date(2026, 3, 20))
    clerk = window_for(qtbot, w, w.clerk, case_id)
    assert clerk.stage_label.text() == "review may be requested until 04/01/2026"
    assert clerk.buttons["petition"].text() == "Re&quest for review…"
    # The Council neither hears nor decides a Ch. 512 notice; its papers are not printed.
    for key in ("hearing", "decision"):
        assert not clerk.buttons[key].isVisible()
    assert not clerk.hearing_notice_button.isEnabled()
    assert clerk.hearing_notice_button.toolTip() == (
        "Ch. 512 cases are reviewed under Wis. Stat. ch. 68."
    )
    assert [clerk.buttons[k].isVisible() for k in ("review", "appeal", "appeal_hearing")] == [
        True,
        True,
        True,
    ]
    keys = shown_keys(clerk)
    assert len(keys) == len(set(keys)), keys  # no Alt key twice in the window
    assert not clerk.buttons["review"].isEnabled()  # the clerk does not decide

    def request(dialog: QDialog) -> None:
        assert isinstance(dialog, rd.RequestForReviewDialog)
        assert "request for review (Wis. Stat. 68.08)" in dialog.note.text()
        assert dialog.petitioner.text() == "Ole Hanson"
        typed(qtbot, dialog.grounds, "The window was fixed last week.")

    seen = by_keys(qtbot, monkeypatch, request)
    alt(qtbot, clerk, Qt.Key.Key_Q, seen)
    assert warnings == []
    assert clerk.stage_label.text() == "review requested, decision due 04/04/2026"
    assert clerk.notices.rows[0].cells[4] == "request for review filed 03/20/2026"
    clerk.close()

    # The inspector, April 1: the decision on review (Alt+D), affirmed with the reasons.
    clock.set(date(2026, 4, 1))
    inspector = window_for(qtbot, w, w.inspector, case_id)
    keys = shown_keys(inspector)
    assert len(keys) == len(set(keys)), keys
    assert not inspector.buttons["appeal"].isEnabled()
    assert inspector.buttons["appeal"].toolTip() == (
        "The clerk records an appeal (Wis. Stat. 68.10(2))."
    )

    def decision(dialog: QDialog) -> None:
        assert isinstance(dialog, rd.ReviewDecisionDialog)
        assert "by 04/04/2026 (15 days (Wis. Stat. 68.09(3)))" in dialog.note.text()
        typed(qtbot, dialog.reasons, "The pane is cracked through.")

    seen = by_keys(qtbot, monkeypatch, decision)
    alt(qtbot, inspector, Qt.Key.Key_D, seen)
    assert warnings == []
    assert inspector.notices.rows[0].cells[0] == "Notice of violation (affirmed on review)"
    assert inspector.stage_label.text().startswith("order in force")
    inspector.close()

    # The clerk, April 10: the appeal (Alt+P).
    clock.set(date(2026, 4, 10))
    clerk = window_for(qtbot, w, w.clerk, case_id)

    def appeal(dialog: QDialog) -> None:
        assert isinstance(dialog, rd.AppealDialog)
        assert "by 05/01/2026" in dialog.note.text()  # 30 days of April 1
        assert dialog.appellant.text() == "Ole Hanson"
        typed(qtbot, dialog.grounds, "The decision ignores the repair.")

    seen = by_keys(qtbot, monkeypatch, appeal)
    alt(qtbot, clerk, Qt.Key.Key_P, seen)
    assert warnings == []
    assert clerk.stage_label.text() == "appeal filed, hearing by 04/25/2026"
    clerk.close()

    # The inspector, April 14: the hearing (Alt+H). April 26, 16 days after the appeal, is
    # refused with the service's words; April 25, 15 days, is taken.
    clock.set(date(2026, 4, 14))
    inspector = window_for(qtbot, w, w.inspector, case_id)
    refused: list[str] = []

    def hearing(dialog: QDialog) -> None:
        assert isinstance(dialog, rd.AppealHearingDialog)
        assert "Hold the hearing by 04/25/2026" in dialog.note.text()
        assert "at least 10 days before (Wis. Stat. 68.11(1))" in dialog.note.text()
        dialog.hearing_on.setDate(QDate(2026, 4, 26))
        assert dialog.sent_on.date() == QDate(2026, 4, 14)
        qtbot.keyClick(dialog.place, Qt.Key.Key_Return)
        assert dialog.isVisible() and dialog.error_label.isVisible()
        refused.append(dialog.error_label.text())
        dialog.hearing_on.setDate(QDate(2026, 4, 25))

    seen = by_keys(qtbot, monkeypatch, hearing)
    alt(qtbot, inspector, Qt.Key.Key_H, seen)
    (words,) = refused
    assert "68.11(1)" in words and "hold it by 04/25/2026" in words, words
    assert warnings == []  # said once, in the form
    assert inspector.stage_label.text() == "appeal hearing 04/25/2026"
    assert not inspector.buttons["final"].isEnabled()  # not heard yet
    inspector.close()

    # May 18, after the hearing: the final determination (Alt+A), late: recorded and warned.
    clock.set(date(2026, 5, 18))
    inspector = window_for(qtbot, w, w.inspector, case_id)
    assert inspector.stage_label.text() == "appeal heard, final determination due 05/15/2026"

    def final(dialog: QDialog) -> None:
        assert isinstance(dialog, rd.FinalDeterminationDialog)
        typed(qtbot, dialog.findings, "The pane was still cracked at the hearing.")

    seen = by_keys(qtbot, monkeypatch, final)
    alt(qtbot, inspector, Qt.Key.Key_A, seen)
    (late,) = warnings
    assert "after its last day, 05/15/2026 (Wis. Stat. 68.12(1))" in late
    assert inspector.notices.rows[0].cells[0] == (
        "Notice of violation (affirmed on review); affirmed on appeal"
    )
    assert not inspector.buttons["final"].isEnabled()
    assert not inspector.buttons["appeal"].isEnabled()
    correct_by = inspector.violations.rows[0].cells[3]
    assert inspector.stage_label.text() == f"past due since {correct_by}", correct_by


def municipality_view(qtbot: QtBot, w: Westby) -> MunicipalityView:
    application()
    view = MunicipalityView(w.db, make_session(w.db, w.admin), w.clock)
    qtbot.addWidget(view)
    view.resize(1280, 900)
    view.show()
    view.load()
    return view


def test_the_municipality_screen_sets_the_periods_of_a_ch_512_municipality(
    qtbot: QtBot, w: Westby, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui import dialogs

    monkeypatch.setattr(dialogs, "ask", lambda *_a, **_k: True)
    view = municipality_view(qtbot, w)
    request = view.fields["procedure_days.request"]
    review = view.fields["procedure_days.review"]
    assert isinstance(request, QLineEdit) and isinstance(review, QLineEdit)
    qtbot.waitUntil(request.isVisible, timeout=2000)  # shown once the rows are laid out
    assert request.placeholderText() == "30 days (the statute's)"
    labels = [
        view.right_form.labelForField(view.fields[f"procedure_days.{k}"]).text()
        for k in ("request", "review", "hearing")
    ]
    assert labels == [
        "Request for review (Wis. Stat. 68.08)",
        "Decision on review (Wis. Stat. 68.09(3))",
        "Hearing on the appeal (Wis. Stat. 68.11(1))",
    ]
    assert "procedure_days.judicial" not in view.fields  # the statute's, not the office's

    # Shorter than the statute for a person's filing: refused, naming the field.
    typed(qtbot, request, "20")
    assert not view.save()
    assert view.error_label.text() == (
        "Request for review (Wis. Stat. 68.08): 20 days is shorter than the 30 days "
        "Wis. Stat. 68.08 gives"
    )
    assert request.hasFocus()
    request.clear()
    typed(qtbot, request, "45")
    assert view.save(), view.error_label.text()
    saved = municipality_service.municipality_settings(w.db.uow(), w.mid)
    assert dict(saved.procedure_days) == {"request": 45}
    assert request.text() == "45"

    # Hudson 140-3 has no period the office sets: no such fields.
    municipality_service.update_municipality(
        w.db.uow(), w.clock, w.admin, w.mid, {"housing_code": "hudson-140"}
    )
    hudson = municipality_view(qtbot, w)
    assert not [k for k in hudson.fields if k.startswith("procedure_days.")]
    assert not hudson.findChildren(QLineEdit, "procedure_days.request")
