"""The date field (ui.date_field.DateField): typed as a clerk types dates, one tab stop,
arrows and a calendar; and in New application, digits meant for the address never become the
application date, and a date in the future is saved only when the clerk says so."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QApplication, QFormLayout, QLineEdit, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from db import schema
from desk.domain.enums import CredentialKind, PartyRole
from desk.errors import ValidationError
from tests.ui.sample import Sample
from tests.ui.test_intake import BUILDERS, licence, open_form, party_id, sample_parcel
from ui import app, dialogs
from ui.date_field import DateField
from ui.main_window import MainWindow
from ui.presenters.session import Session
from ui.views.intake import IntakeWindow

TODAY = date(2026, 12, 3)


class Form(QWidget):
    """A label, the date field and the field after it, as in every dialog."""

    def __init__(self) -> None:
        super().__init__()
        layout = QFormLayout(self)
        self.before = QLineEdit(self)
        self.field = DateField(self, "checkedOn", date(2026, 3, 2), today=lambda: TODAY)
        self.after = QLineEdit(self)
        layout.addRow("&Name:", self.before)
        layout.addRow("&Checked on:", self.field)
        layout.addRow("&Address:", self.after)
        self.changes: list[QDate] = []
        self.refusals: list[str] = []
        self.field.dateChanged.connect(self.changes.append)
        self.field.invalidEntered.connect(self.refusals.append)


@pytest.fixture
def form(qtbot: QtBot) -> Form:
    app.application()
    shown = Form()
    qtbot.addWidget(shown)
    shown.show()
    qtbot.waitExposed(shown)
    shown.activateWindow()
    shown.field.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(shown.field.hasFocus, timeout=2000)
    return shown


def test_typing_12_3_26_is_december_3_2026(qtbot: QtBot, form: Form) -> None:
    qtbot.keyClicks(form.field, "12/3/26")
    qtbot.keyClick(form.field, Qt.Key.Key_Tab)
    assert form.field.day() == date(2026, 12, 3)
    assert form.field.date() == QDate(2026, 12, 3)
    assert form.field.text() == "12/03/2026"  # shown the office's way once editing is done
    assert form.changes == [QDate(2026, 12, 3)]


def test_the_field_is_selected_on_tab_so_typing_replaces_the_date(qtbot: QtBot, form: Form) -> None:
    assert form.field.selectedText() == "03/02/2026"
    qtbot.keyClicks(form.field, "t")
    qtbot.keyClick(form.field, Qt.Key.Key_Return)
    assert form.field.day() == TODAY


def test_tab_leaves_the_field_for_the_next_one_and_shift_tab_for_the_one_before(
    qtbot: QtBot, form: Form
) -> None:
    qtbot.keyClicks(form.field, "12/")  # half typed: Tab still leaves, in one press
    qtbot.keyClick(form.field, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is form.after
    qtbot.keyClick(form.after, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is form.field
    qtbot.keyClick(form.field, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is form.before


def test_text_that_is_not_a_date_is_marked_and_named_by_the_label_never_made_a_date(
    qtbot: QtBot, form: Form
) -> None:
    qtbot.keyClicks(form.field, "6100")
    qtbot.keyClick(form.field, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is form.after
    assert form.field.day() == date(2026, 3, 2)  # the date it had, unchanged
    assert form.changes == []
    message = "Checked on: “6100” is not a date; type it as MM/DD/YYYY (e.g. 12/03/2026)"
    assert form.field.error().startswith(message)
    assert form.refusals and form.refusals[0].startswith(message)
    assert form.field.text() == "6100"  # left for the clerk to correct
    assert form.field.property("invalid") is True
    assert form.field.toolTip().startswith(message)

    form.field.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClicks(form.field, "12-3-2026")
    qtbot.keyClick(form.field, Qt.Key.Key_Tab)
    assert form.field.error() == ""
    assert form.field.property("invalid") is False
    assert form.field.day() == date(2026, 12, 3)


def test_up_and_down_move_a_day_page_up_and_down_a_month(qtbot: QtBot, form: Form) -> None:
    qtbot.keyClick(form.field, Qt.Key.Key_Up)
    assert form.field.day() == date(2026, 3, 3)
    assert form.field.text() == "03/03/2026"
    qtbot.keyClick(form.field, Qt.Key.Key_Down)
    qtbot.keyClick(form.field, Qt.Key.Key_Down)
    assert form.field.day() == date(2026, 3, 1)
    qtbot.keyClick(form.field, Qt.Key.Key_PageDown)
    assert form.field.day() == date(2026, 2, 1)
    form.field.setDate(date(2026, 1, 31))
    qtbot.keyClick(form.field, Qt.Key.Key_PageUp)
    assert form.field.day() == date(2026, 2, 28)  # the month's last day: February is shorter
    # An arrow after a typed date counts from what is typed.
    form.field.selectAll()
    qtbot.keyClicks(form.field, "12/31/26")
    qtbot.keyClick(form.field, Qt.Key.Key_Up)
    assert form.field.day() == date(2027, 1, 1)


def test_f4_opens_the_calendar_and_a_day_picked_there_is_the_date(qtbot: QtBot, form: Form) -> None:
    assert form.field.calendar_popup() is None
    qtbot.keyClick(form.field, Qt.Key.Key_F4)
    popup = form.field.calendar_popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible, timeout=2000)
    calendar = popup.findChild(QWidget, "dateFieldCalendar")
    assert calendar is not None
    assert calendar.selectedDate() == QDate(2026, 3, 2)  # it opens on the field's date
    calendar.setSelectedDate(QDate(2026, 3, 9))
    calendar.activated.emit(QDate(2026, 3, 9))  # Enter (or a double click) on the 9th
    assert not popup.isVisible()
    assert form.field.day() == date(2026, 3, 9)
    assert form.field.text() == "03/09/2026"


def test_the_calendar_button_opens_the_calendar_without_being_a_tab_stop(
    qtbot: QtBot, form: Form
) -> None:
    form.field.calendar_action.trigger()
    popup = form.field.calendar_popup()
    assert popup is not None and popup.isVisible()
    qtbot.keyClick(popup.findChild(QWidget, "dateFieldCalendar"), Qt.Key.Key_Escape)
    assert not popup.isVisible()
    assert form.field.day() == date(2026, 3, 2)


def test_a_field_that_may_be_empty_reads_none_and_refuses_nonsense() -> None:
    app.application()
    field = DateField(None, "from", optional=True, label="Applied on or after")
    assert field.value() is None and field.text() == ""
    field.setText("3/2/26")
    assert field.value() == date(2026, 3, 2)
    field.setText("")
    assert field.value() is None
    field.setText("soon")
    assert field.value() is None
    assert field.error().startswith("Applied on or after: “soon” is not a date")


def test_a_typed_date_outside_the_fields_range_is_refused_not_moved(form: Form) -> None:
    form.field.setMinimumDate(date(2026, 1, 1))
    form.field.setText("12/31/25")
    assert form.field.day() == date(2026, 3, 2)
    assert form.field.error() == (
        "Checked on: 12/31/2025 is before 01/01/2026, the earliest allowed"
    )


# --- New application --------------------------------------------------------------------


@pytest.fixture
def window(qtbot: QtBot, sample: Sample, session: Session) -> MainWindow:
    app.application()
    main = MainWindow(sample.database, session, remember_geometry=False, clock=sample.clock)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    main.load()
    return main


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    questions: list[str] = []
    for name in ("warn", "inform", "error"):
        monkeypatch.setattr(dialogs, name, lambda _p, _t, text: questions.append(text))
    return questions


def permit_count(sample: Sample) -> int:
    with sample.database.read() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.permit)).scalar_one())


def test_an_address_typed_after_tabbing_from_kind_never_becomes_the_application_date(
    qtbot: QtBot, window: MainWindow, sample: Sample, asked: list[str]
) -> None:
    form = open_form(qtbot, window)
    qtbot.keyClicks(form.kind_combo, "New")
    qtbot.keyClick(form.kind_combo, Qt.Key.Key_Tab)
    date_field = form.applied_edit
    assert QApplication.focusWidget() is date_field
    assert date_field.selectedText() == "03/02/2026"  # the whole date, one tab stop

    qtbot.keyClicks(date_field, "6100")
    qtbot.keyClick(date_field, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is form.parcel_edit
    assert form.presenter.applied_on == date(2026, 3, 2)
    error = form.errors["applied_on"]
    assert error.isVisible()
    assert error.text().startswith("Application date: “6100” is not a date")
    before = permit_count(sample)
    assert form.save() is None  # the last good date is never saved in its place
    assert permit_count(sample) == before
    assert QApplication.focusWidget() is date_field
    form.presenter.dirty = False


def ready_application(qtbot: QtBot, window: MainWindow, sample: Sample) -> IntakeWindow:
    licence(sample, BUILDERS, CredentialKind.DWELLING_CONTRACTOR, "DC-1187", date(2027, 6, 30))
    form = open_form(qtbot, window)
    form.select_kind("RES-NEW-DWELLING")
    form.set_parcel_id(sample_parcel(sample, "6120"))
    form.set_party_id(PartyRole.CONTRACTOR, party_id(sample, "Badger"))
    form.edits["description"].setText("New house")
    form._typed("description", "New house")
    for key, value in (("area_first", "1400"), ("valuation", "412500"), ("dwelling_units", "1")):
        if key in form.edits and form.edits[key].isVisibleTo(form):
            form.edits[key].setText(value)
            form._typed(key, value)
    return form


def test_a_future_application_date_is_saved_only_when_the_clerk_confirms_it(
    qtbot: QtBot,
    window: MainWindow,
    sample: Sample,
    asked: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    form = ready_application(qtbot, window, sample)
    form.applied_edit.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClicks(form.applied_edit, "12/6/26")
    qtbot.keyClick(form.applied_edit, Qt.Key.Key_Tab)
    assert form.presenter.applied_on == date(2026, 12, 6)

    questions: list[str] = []
    monkeypatch.setattr(dialogs, "ask", lambda _p, _t, q, **_k: questions.append(q) or False)
    before = permit_count(sample)
    assert form.save() is None
    assert questions == ["The application date 12/06/2026 is in the future. Save it anyway?"]
    assert permit_count(sample) == before  # nothing written
    assert form.errors["applied_on"].text() == "The application date 12/06/2026 is in the future."
    assert QApplication.focusWidget() is form.applied_edit

    monkeypatch.setattr(dialogs, "ask", lambda _p, _t, q, **_k: questions.append(q) or True)
    permit_id = form.save()
    assert permit_id is not None, asked
    assert permit_count(sample) == before + 1
    with sample.database.read() as conn:
        applied = conn.execute(
            select(schema.permit.c.applied_on).where(schema.permit.c.id == permit_id)
        ).scalar_one()
    assert applied == date(2026, 12, 6)


def test_a_date_more_than_a_year_back_is_asked_about_and_an_ordinary_one_is_not(
    qtbot: QtBot, window: MainWindow, sample: Sample, asked: list[str]
) -> None:
    form = ready_application(qtbot, window, sample)
    p = form.presenter
    assert p.date_question() == ""  # today
    p.set_applied_on(date(2025, 3, 2))
    assert p.date_question() == ""  # a year back to the day
    p.set_applied_on(date(2025, 3, 1))
    assert p.date_question() == (
        "The application date 03/01/2025 is more than a year ago. Save it anyway?"
    )
    p.set_applied_on(date(2026, 3, 3))
    assert p.date_question() == "The application date 03/03/2026 is in the future. Save it anyway?"
    p.confirm_date()
    p.application()  # confirmed for this date: no question
    p.set_applied_on(date(2026, 3, 4))
    with pytest.raises(ValidationError, match="03/04/2026 is in the future"):
        p.application()  # another date: asked again
    p.dirty = False


def test_a_field_made_without_a_clock_counts_today_by_the_registers_clock(
    window: MainWindow, sample: Sample
) -> None:
    """Every screen's date field, not only New application's: "today" and "+3" are the
    office's day (the main window's clock), which the services judge by, not the PC's."""
    from ui.views.common import date_edit

    office_day = sample.clock.today()
    assert office_day != date.today()  # the sample's clock is not the wall clock
    field = date_edit(window, "anyDay")
    assert field.day() == office_day  # a new field starts on the office's day
    field.setText("+3")
    assert field.day() == office_day + timedelta(days=3)
    field.setText("today")
    assert field.day() == office_day
