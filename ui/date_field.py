"""The one date field of the app: a single line the clerk types a date into.

Not a sectioned QDateEdit: there, Tab from the field before landed in the day section and
digits meant for the next field changed the date. Here the whole field is one tab stop, it is
selected on focus so typing replaces it, and text that is not a date is marked and said with
the field's label, never turned into another date (ui.presenters.date_text reads it).

Keys: Up/Down a day, PageUp/PageDown a month, F4 or Alt+Down (or the small calendar button)
opens a calendar. The date shows as MM/DD/YYYY once editing finishes.

Compatible with what QDateEdit callers use: date()/setDate()/dateChanged (QDate),
setMinimumDate()/setMaximumDate(); plus day() and, for a field that may be empty
(`optional`), value()/set_value().
"""

from __future__ import annotations

import calendar
import contextlib
import datetime as dt
from collections.abc import Callable, Iterable
from datetime import date, timedelta

from PySide6.QtCore import QDate, QEvent, QObject, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction, QFocusEvent, QIcon, QKeyEvent, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCalendarWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desk.errors import ValidationError
from ui.presenters.date_text import (
    TIME_EXAMPLE,
    DateTextError,
    date_text,
    parse_date,
    parse_time,
    time_text,
)

DateLike = QDate | date
MIN_DAY = date(1900, 1, 1)
MAX_DAY = date(2199, 12, 31)


def _py(day: DateLike) -> date:
    return date(day.year(), day.month(), day.day()) if isinstance(day, QDate) else day


def _qt(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


def add_months(day: date, months: int) -> date:
    """The same day `months` later (or earlier); the month's last day when it is shorter."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


def _calendar_icon() -> QIcon:
    """A small drawn calendar page (no icon file to ship)."""
    pixmap = QPixmap(16, 16)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setPen(Qt.GlobalColor.darkGray)
    painter.drawRect(1, 2, 13, 12)
    painter.fillRect(2, 3, 12, 3, Qt.GlobalColor.darkGray)
    for x in (4, 7, 10):
        for y in (8, 11):
            painter.drawPoint(x, y)
    painter.end()
    return QIcon(pixmap)


_office_today: list[Callable[[], dt.date]] = [dt.date.today]


def use_office_clock(today: Callable[[], dt.date]) -> None:
    """What "today" means in every date field made from now on without a clock of its own:
    the register's clock (the main window sets it), so "today", "+3" and a new field's date
    are the office's day, the same the services judge by."""
    _office_today[0] = today


def _plain(label: str) -> str:
    """A label's text without its mnemonic '&' and trailing colon."""
    return label.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(":").strip()


class _CalendarPopup(QFrame):
    """The calendar under the field; a click or Enter picks the day, Escape closes it."""

    def __init__(self, field: DateField) -> None:
        super().__init__(field, Qt.WindowType.Popup)
        self.setObjectName("dateFieldPopup")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.calendar = QCalendarWidget(self)
        self.calendar.setObjectName("dateFieldCalendar")
        self.calendar.setGridVisible(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.addWidget(self.calendar)


class DateField(QLineEdit):
    """A date typed as a clerk types it (see the module docstring)."""

    dateChanged = Signal(QDate)
    invalidEntered = Signal(str)

    def __init__(
        self,
        parent: QWidget | None = None,
        name: str = "",
        day: DateLike | None = None,
        *,
        optional: bool = False,
        label: str = "",
        today: Callable[[], dt.date] | None = None,
    ) -> None:
        super().__init__(parent)
        if name:
            self.setObjectName(name)
        # "today" means the office's day: the view's clock, else the app's (use_office_clock).
        self._today = today if today is not None else _office_today[0]
        self._optional = optional
        self._label = label
        self._min = MIN_DAY
        self._max = MAX_DAY
        self._day: dt.date | None = None if optional else self._today()
        self._error = ""
        self._popup: _CalendarPopup | None = None
        self.setPlaceholderText("any" if optional else "MM/DD/YYYY")
        self.setToolTip(self._hint())
        self.calendar_action = QAction(_calendar_icon(), "Calendar (F4)", self)
        self.calendar_action.setObjectName("dateFieldCalendarButton")
        self.calendar_action.setToolTip("Pick the date on a calendar (F4)")
        self.calendar_action.triggered.connect(self.show_calendar)
        self.addAction(self.calendar_action, QLineEdit.ActionPosition.TrailingPosition)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.editingFinished.connect(self.commit)
        self.textEdited.connect(lambda _t: self._set_error(""))
        self._show()
        if day is not None:
            self.setDate(day)

    # --- the QDateEdit-compatible API -----------------------------------------------------

    def date(self) -> QDate:
        """The date shown (what is typed is read first); a null QDate for an empty optional
        field. Text that is not a date leaves the last date (and the field marked)."""
        self.commit()
        return QDate() if self._day is None else _qt(self._day)

    def setDate(self, day: DateLike) -> None:
        """Show `day`; like QDateEdit, a day outside the range is held to the range."""
        self._set(min(max(_py(day), self._min), self._max))

    def setMinimumDate(self, day: DateLike) -> None:
        self._min = _py(day)
        if self._day is not None and self._day < self._min:
            self._set(self._min)

    def setMaximumDate(self, day: DateLike) -> None:
        self._max = _py(day)
        if self._day is not None and self._day > self._max:
            self._set(self._max)

    def setDateRange(self, low: DateLike, high: DateLike) -> None:
        self.setMinimumDate(low)
        self.setMaximumDate(high)

    def minimumDate(self) -> QDate:
        return _qt(self._min)

    def maximumDate(self) -> QDate:
        return _qt(self._max)

    def calendarPopup(self) -> bool:
        return True

    def displayFormat(self) -> str:
        return "MM/dd/yyyy"

    # --- plain Python dates -----------------------------------------------------------------

    def day(self) -> dt.date:
        """The date shown; an empty optional field has none (use value())."""
        self.commit()
        if self._day is None:
            raise ValueError(f"{self.label_text()}: no date")
        return self._day

    def value(self) -> dt.date | None:
        self.commit()
        return self._day

    def set_value(self, day: DateLike | None) -> None:
        if day is None:
            self._set(None)
        else:
            self.setDate(day)

    # --- validity -------------------------------------------------------------------------

    def label_text(self) -> str:
        """What the field is called on screen: its label, else its accessible name."""
        if self._label:
            return self._label
        window = self.window()
        for label in window.findChildren(QLabel) if window is not None else []:
            if label.buddy() is self and label.text():
                return (
                    label.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(":")
                )
        return self.accessibleName() or self.objectName()

    def set_label(self, label: str) -> None:
        self._label = label

    def is_valid(self) -> bool:
        self.commit()
        return not self._error

    def error(self) -> str:
        """'' when the field holds a date; else why not, with the field's label."""
        self.commit()
        return self._error

    def commit(self) -> None:
        """Read what is typed: a date shows as MM/DD/YYYY (dateChanged when it is another);
        anything else marks the field and says why (invalidEntered)."""
        text = self.text()
        if text == self._shown():
            return
        if self._optional and text.strip().lower() in ("", "any"):
            self._set(None)
            return
        try:
            day = parse_date(text, self._today())
        except DateTextError as e:
            self._refuse(str(e))
            return
        if day < self._min:
            self._refuse(f"{date_text(day)} is before {date_text(self._min)}, the earliest allowed")
        elif day > self._max:
            self._refuse(f"{date_text(day)} is after {date_text(self._max)}, the latest allowed")
        else:
            self._set(day)

    # --- keys, focus and the calendar -------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        plain = mods == Qt.KeyboardModifier.NoModifier
        steps = {
            Qt.Key.Key_Up: (1, 0),
            Qt.Key.Key_Down: (-1, 0),
            Qt.Key.Key_PageUp: (0, 1),
            Qt.Key.Key_PageDown: (0, -1),
        }
        if key == Qt.Key.Key_F4 or (
            key == Qt.Key.Key_Down and mods == Qt.KeyboardModifier.AltModifier
        ):
            self.show_calendar()
            event.accept()
            return
        step = steps.get(Qt.Key(key))
        if plain and step is not None:
            self.step(*step)
            event.accept()
            return
        super().keyPressEvent(event)

    def step(self, days: int, months: int = 0) -> None:
        """Up/Down, PageUp/PageDown: from the date typed (or shown, or today)."""
        self.commit()
        if self._error:
            return  # the text stays for the clerk to correct; nothing is guessed from it
        start = self._day if self._day is not None else self._today()
        moved = add_months(start, months) + timedelta(days=days)
        self._set(min(max(moved, self._min), self._max))
        self.selectAll()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if event.reason() != Qt.FocusReason.MouseFocusReason:
            self.selectAll()  # typing replaces the date, it is not added into it

    def show_calendar(self) -> None:
        self.commit()
        if self._popup is None:
            self._popup = _CalendarPopup(self)
            self._popup.calendar.clicked.connect(self._picked)
            self._popup.calendar.activated.connect(self._picked)
            self._popup.calendar.installEventFilter(self)
        calendar_widget = self._popup.calendar
        calendar_widget.setDateRange(_qt(self._min), _qt(self._max))
        shown = self._day if self._day is not None else self._today()
        calendar_widget.setSelectedDate(_qt(shown))
        calendar_widget.setCurrentPage(shown.year, shown.month)
        self._popup.adjustSize()
        self._popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self._popup.show()
        calendar_widget.setFocus()

    def calendar_popup(self) -> QFrame | None:
        """The calendar once it has been opened (tests look at it)."""
        return self._popup

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        popup = self._popup
        if (
            popup is not None
            and watched is popup.calendar
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            popup.hide()
            self.setFocus()
            return True
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        """As wide as a date and the calendar button: a date does not stretch with the form."""
        hint = super().sizeHint()
        text = self.fontMetrics().horizontalAdvance("00/00/00000")
        return QSize(text + 24 + 16, hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    # --- inside -----------------------------------------------------------------------------

    def _picked(self, day: QDate) -> None:
        self._set(_py(day))
        if self._popup is not None:
            self._popup.hide()
        self.setFocus()

    def _shown(self) -> str:
        return "" if self._day is None else date_text(self._day)

    def _show(self) -> None:
        self.setText(self._shown())

    def _set(self, day: dt.date | None) -> None:
        changed = day != self._day
        self._day = day
        self._set_error("")
        self._show()
        if changed:
            self.dateChanged.emit(QDate() if day is None else _qt(day))

    def _refuse(self, reason: str) -> None:
        self._set_error(f"{self.label_text()}: {reason}")
        self.invalidEntered.emit(self._error)

    def _set_error(self, message: str) -> None:
        if message == self._error:
            return
        self._error = message
        self.setProperty("invalid", bool(message))
        self.setToolTip(message or self._hint())
        self.setAccessibleDescription(message)
        self.style().unpolish(self)
        self.style().polish(self)

    def _hint(self) -> str:
        return "Type a date (12/3/26, today, +3), ↑/↓ a day, PgUp/PgDn a month, F4 a calendar"


def date_errors(widgets: Iterable[QWidget]) -> list[tuple[DateField, str]]:
    """The date fields among `widgets` (and inside them) whose text is not a date."""
    found: list[tuple[DateField, str]] = []
    for widget in widgets:
        fields = [widget] if isinstance(widget, DateField) else []
        fields += widget.findChildren(DateField)
        for field in fields:
            if field.isEnabled() and (message := field.error()):
                found.append((field, message))
    return found


class MomentField(QWidget):
    """A day and a time of day (a notice received at 4:45 PM): the date field above, and a
    line the time is typed into (2:30 PM, 14:30, noon); two tab stops, neither taking the
    keys meant for the other. The moment is in this workstation's time zone."""

    def __init__(self, parent: QWidget, name: str, at: dt.datetime) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.date_field = DateField(self, f"{name}Date")
        self.time_field = QLineEdit(self)
        self.time_field.setObjectName(f"{name}Time")
        self.time_field.setPlaceholderText("2:30 PM")
        self.time_field.setToolTip(f"The time of day: {TIME_EXAMPLE}")
        width = self.time_field.fontMetrics().horizontalAdvance("12:30 PMM") + 24
        self.time_field.setFixedWidth(width)
        self.time_field.editingFinished.connect(self._tidy)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.date_field)
        row.addWidget(self.time_field)
        row.addStretch(1)
        self.setFocusProxy(self.date_field)
        self.set_moment(at)

    def set_moment(self, at: dt.datetime) -> None:
        local = at.astimezone()
        self.date_field.setDate(local.date())
        self.time_field.setText(time_text(local.time()))

    def _tidy(self) -> None:
        """A time typed any accepted way shows as 2:30 PM; other text stays to be corrected."""
        with contextlib.suppress(DateTextError):
            self.time_field.setText(time_text(parse_time(self.time_field.text())))

    def moment(self, field_name: str) -> dt.datetime:
        """The day and time typed, in this workstation's time zone; a ValidationError naming
        `field_name` when the time is not one (the date field reports its own)."""
        try:
            at = parse_time(self.time_field.text())
        except DateTextError as e:
            raise ValidationError(field_name, str(e)) from None
        return dt.datetime.combine(self.date_field.day(), at).astimezone()
