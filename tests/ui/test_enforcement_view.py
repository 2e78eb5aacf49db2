"""The "Code enforcement" section and a case's window, driven from the keyboard (Hudson 140-3):
the clerk takes a phoned complaint (Ctrl+J), the inspector opens the case with Enter, records
the inspection with a violation picked from the housing code, issues the notice, records its
service; ten days later the section's refresh makes the notice an order (140-3D); past the
correction date the case is past due; the re-inspection finds it corrected and the case closes.
The list's filters and the timeline say so at each step; the clerk never sees who complained."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLineEdit, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.enforcement.readmodels import CaseFilter
from tests.db.enforcement_setup import Office, office
from ui import dialogs
from ui.app import application, make_session
from ui.enforcement.window import CaseWindow
from ui.permit import actions
from ui.views import enforcement_dialogs as d
from ui.views.enforcement import EnforcementView

TODAY = date(2026, 3, 2)
Alt = Qt.KeyboardModifier.AltModifier
Ctrl = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def o(empty_database: Database, clock: FixedClock) -> Office:
    return office(empty_database, clock)


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "warn", lambda _p, _t, text: said.append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *_a: None)
    return said


def view_for(qtbot: QtBot, o: Office, actor: Actor) -> EnforcementView:
    application()
    view = EnforcementView(o.db, make_session(o.db, actor), o.clock)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=2000)
    view.load()
    return view


def by_keys(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, fill: Callable[[QDialog], None]
) -> list[QDialog]:
    """The step's dialog shown, filled from the keyboard by `fill`, and OK pressed with Enter
    in a line of the form (the dialog's default button)."""
    seen: list[QDialog] = []

    def run(dialog: QDialog) -> bool:
        seen.append(dialog)
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
        fill(dialog)
        edit = next(
            (
                w
                for w in dialog.findChildren(QLineEdit)
                if w.isEnabled() and w.isVisible() and not isinstance(w.parent(), QComboBox)
            ),
            None,
        )
        assert edit is not None
        edit.setFocus()
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        return dialog.result() == QDialog.DialogCode.Accepted

    monkeypatch.setattr(actions, "exec_dialog", run)
    return seen


def alt(qtbot: QtBot, widget: QWidget, k: Qt.Key, seen: list[QDialog] | None = None) -> None:
    """Alt+key: the button's mnemonic clicks it a moment later (QAbstractButton.animateClick);
    with `seen`, wait for its dialog to have run."""
    top = widget.window()
    top.activateWindow()  # offscreen, a closed dialog leaves no window active
    qtbot.waitUntil(top.isActiveWindow, timeout=2000)
    qtbot.keyClick(widget, k, Alt)
    if seen is not None:
        qtbot.waitUntil(lambda: bool(seen) and not seen[-1].isVisible(), timeout=3000)


def typed(qtbot: QtBot, widget: QWidget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def in_filter(view: EnforcementView, which: CaseFilter) -> list[str]:
    view.show_filter(which)
    return view.case_numbers()


def test_with_no_case_the_list_says_how_to_open_one(qtbot: QtBot, o: Office) -> None:
    view = view_for(qtbot, o, o.clerk)
    assert view.case_numbers() == []
    assert view.note.text() == "No code enforcement cases yet. A complaint (Ctrl+J) opens one."
    assert view.complaint_button.isEnabled()


def test_a_complaint_goes_to_an_order_and_the_case_closes_once_corrected(
    qtbot: QtBot,
    o: Office,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    warnings: list[str],
    qtmodeltester: ModelTester,
) -> None:
    # 1. The clerk takes a phoned complaint: Ctrl+J, the property typed, what is wrong.
    clerk = view_for(qtbot, o, o.clerk)

    def complaint(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ComplaintDialog)
        typed(qtbot, dialog.search, "412 Vi")
        assert dialog.parcel.count() == 1
        typed(qtbot, dialog.description, "Rear porch stairs broken")
        typed(qtbot, dialog.complainant, "Nellie Neighbour")
        typed(qtbot, dialog.contact, "(715) 555-0199")

    seen = by_keys(qtbot, monkeypatch, complaint)
    qtbot.keyClick(clerk, Qt.Key.Key_J, Ctrl)
    assert len(seen) == 1 and warnings == []
    assert clerk.case_numbers() == ["CE-2026-0001"]
    assert clerk.presenter.rows[0].cells[3] == "complaint"
    qtmodeltester.check(clerk.model)

    # The clerk's window: no complainant, no inspector's step.
    clerk.table.setFocus()
    qtbot.keyClick(clerk.table, Qt.Key.Key_Return)
    (mine,) = clerk.case_windows.values()
    assert not mine.complainant_label.isVisible()
    assert "Nellie" not in " ".join(mine.timeline_texts())
    assert not mine.buttons["inspection"].isEnabled()
    assert mine.timeline_texts() == ["Complaint by phone: Rear porch stairs broken"]
    mine.close()

    # 2. The inspector opens the case with Enter and records the inspection (Alt+I).
    view = view_for(qtbot, o, o.inspector)
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    window = next(iter(view.case_windows.values()))
    assert isinstance(window, CaseWindow)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    assert window.title_label.text() == "Case CE-2026-0001"
    assert window.complainant_label.text() == (
        "Complainant (confidential): Nellie Neighbour, (715) 555-0199"
    )
    qtmodeltester.check(window.timeline_model)

    def inspection(dialog: QDialog) -> None:
        assert isinstance(dialog, d.InspectionDialog)
        line = dialog.item.lineEdit()
        assert line is not None
        typed(qtbot, line, "140-6C")  # the section, or words of the title and Down
        typed(qtbot, dialog.unit, "1")
        typed(qtbot, dialog.room, "rear porch")
        # The correction date follows the item: 30 days after the inspection.
        assert dialog.correct_by.date().toPython() == date(2026, 4, 1)
        alt(qtbot, dialog, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: dialog.found_list.count() == 1, timeout=2000)

    seen = by_keys(qtbot, monkeypatch, inspection)
    alt(qtbot, window, Qt.Key.Key_I, seen)
    assert warnings == []
    assert window.stage_label.text() == "inspected · correct by 04/01/2026"
    assert window.timeline_texts()[-1].startswith("Inspection by ")
    assert "140-6C" in window.timeline_texts()[-1]
    assert [line.cells[4] for line in window.violations.rows] == ["open"]

    # 3. The notice (Alt+N): the remedial action, the reasons, the owner.
    def notice(dialog: QDialog) -> None:
        assert isinstance(dialog, d.NoticeDialog)
        (box, action), *_ = dialog.lines.values()
        assert box.isChecked()
        typed(qtbot, action, "Repair the stair treads and handrail")
        typed(qtbot, dialog.statement, "The rear porch stairs are unsafe to use.")
        typed(qtbot, dialog.name, "Otto Owner")
        typed(qtbot, dialog.address, "9 Elm St, Hudson WI 54016")
        alt(qtbot, dialog, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: dialog.addressee_list.count() == 1, timeout=2000)

    seen = by_keys(qtbot, monkeypatch, notice)
    alt(qtbot, window, Qt.Key.Key_N, seen)
    assert warnings == []
    assert window.stage_label.text() == "notice issued, not yet served"
    assert window.timeline_texts()[-1] == "Notice of violation issued to Otto Owner (owner): 140-6C"
    view.load()
    assert in_filter(view, CaseFilter.NOT_SERVED) == ["CE-2026-0001"]

    # 4. Served personally today (Alt+S): the petition window runs through 03/12 (140-3B).
    def service(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ServiceDialog)
        assert dialog.served_by.text() == "Ivan Inspector"

    seen = by_keys(qtbot, monkeypatch, service)
    alt(qtbot, window, Qt.Key.Key_S, seen)
    assert warnings == []
    assert window.stage_label.text() == "petition window open until 03/12/2026"
    assert window.timeline_texts()[-1].startswith("Served on Otto Owner (owner) personally")
    assert in_filter(view, CaseFilter.NOT_SERVED) == []
    assert in_filter(view, CaseFilter.WINDOW_OPEN) == ["CE-2026-0001"]
    assert view.presenter.rows[0].cells[3:5] == (
        "petition window open until 03/12/2026",
        "03/12/2026",
    )

    # 5. Eleven days later no petition came: the refresh makes the order (140-3D).
    clock.set(date(2026, 3, 13))
    view.load()
    assert in_filter(view, CaseFilter.WINDOW_OPEN) == []
    assert in_filter(view, CaseFilter.OPEN) == ["CE-2026-0001"]
    assert view.presenter.rows[0].cells[3] == "order in force"
    assert window.stage_label.text() == "order in force · correct by 04/01/2026"
    assert window.timeline_texts()[-1] == ("The notice became an order: no petition within 10 days")
    assert window.timeline.rows[-1].cells[3] == "140-3D"

    # 6. Past the correction date it is past due.
    clock.set(date(2026, 4, 2))
    view.load()
    assert in_filter(view, CaseFilter.ORDER_PAST_DUE) == ["CE-2026-0001"]
    assert view.presenter.rows[0].cells[3] == "past due since 04/01/2026"
    assert window.buttons["escalation"].isEnabled()

    # 7. The re-inspection finds it corrected (Alt+I, the finding picked by keys).
    def reinspection(dialog: QDialog) -> None:
        assert isinstance(dialog, d.InspectionDialog)
        (finding,) = dialog.findings.values()
        finding.setFocus()
        qtbot.keyClick(finding, Qt.Key.Key_Down)  # Not checked -> Corrected
        assert finding.currentText() == "Corrected"

    seen = by_keys(qtbot, monkeypatch, reinspection)
    alt(qtbot, window, Qt.Key.Key_I, seen)
    assert warnings == []
    assert window.timeline_texts()[-1].endswith("re-inspected: 140-6C corrected")
    assert window.stage_label.text() == "violations corrected"
    assert in_filter(view, CaseFilter.ORDER_PAST_DUE) == []

    # 8. The case closes (Alt+L), every violation corrected.
    seen = by_keys(qtbot, monkeypatch, lambda dialog: None)
    alt(qtbot, window, Qt.Key.Key_L, seen)
    assert warnings == []
    assert window.stage_label.text() == "closed (corrected)"
    assert window.timeline_texts()[-1] == "Case closed (corrected)"
    assert not any(b.isEnabled() for b in window.buttons.values())
    assert in_filter(view, CaseFilter.OPEN) == []
    assert in_filter(view, CaseFilter.CLOSED_THIS_YEAR) == ["CE-2026-0001"]
    assert [t.cells[1] for t in window.timeline.rows] == [
        "Complaint",
        "Inspection",
        "Notice",
        "Service",
        "Order",
        "Inspection",
        "Closed",
    ]
    window.close()


def test_a_mistake_keeps_the_dialog_open_and_names_the_field(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch, warnings: list[str]
) -> None:
    view = view_for(qtbot, o, o.clerk)

    def complaint(dialog: QDialog) -> None:
        assert isinstance(dialog, d.ComplaintDialog)
        typed(qtbot, dialog.search, "412")

    seen = by_keys(qtbot, monkeypatch, complaint)
    assert not view.take_complaint()
    assert warnings == []  # said once, in the form
    dialog = seen[0]
    assert isinstance(dialog, d.ComplaintDialog)
    assert dialog.error_label.text().startswith("What is wrong: ")
    assert QApplication.focusWidget() is dialog.description
    assert view.case_numbers() == []


def test_the_section_is_in_the_main_window_after_licences(
    qtbot: QtBot, empty_database: Database, clock: FixedClock, o: Office
) -> None:
    from desk.services import municipality
    from ui.main_window import MainWindow

    application()
    window = MainWindow(empty_database, make_session(o.db, o.clerk), remember_geometry=False)
    qtbot.addWidget(window)
    # Glendale's own ordinance has no housing code: no section until the office adopts one.
    assert "Code enforcement" not in window.section_titles()
    window.close()
    municipality.update_municipality(
        o.db.uow(), o.clock, o.admin, o.mid, {"housing_code": "hudson-140"}
    )
    window = MainWindow(empty_database, make_session(o.db, o.clerk), remember_geometry=False)
    qtbot.addWidget(window)
    titles = window.section_titles()
    assert titles.index("Code enforcement") == titles.index("Licences & condemnations") + 1
    assert window.show_section("Code enforcement") is window.enforcement_view


def test_the_case_window_prints_the_notice_as_issued(
    qtbot: QtBot, o: Office, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pypdf import PdfReader

    from tests.db.enforcement_setup import case_with_notice

    case_id, _v, _n = case_with_notice(o)
    opened: list[Path] = []
    monkeypatch.setattr(
        dialogs, "choose_file", lambda _p, _c, _f="", **kw: str(tmp_path / "notice.pdf")
    )
    monkeypatch.setattr(dialogs, "show_file", lambda _w, path, _t: opened.append(Path(path)))
    view = view_for(qtbot, o, o.clerk)
    window = view.open_case(case_id)
    path = window.print_notice()
    assert path is not None and path.exists()
    text = PdfReader(str(path)).pages[0].extract_text()
    assert "CE-2026-0001" in text and "Otto Owner" in text
    assert "Nellie" not in text  # the complainant is on no notice
