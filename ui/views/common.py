"""Small widget helpers shared by the views."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from enum import Enum
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QDate, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableView,
    QWidget,
)

from ui.columns import fit_to_width
from ui.date_field import DateField
from ui.models.base import Index, PresenterTableModel
from ui.presenters.formatting import EMPTY


def to_qdate(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


def from_qdate(day: QDate) -> date:
    return date(day.year(), day.month(), day.day())


def date_edit(
    parent: QWidget,
    name: str,
    day: date | None = None,
    *,
    today: Callable[[], date] | None = None,
) -> DateField:
    """A date field as the office writes dates (MM/DD/YYYY), typed or picked on a calendar;
    showing `day` when one is given. `today`: the view's clock, for "today" and "+3" typed."""
    return DateField(parent, name, day, today=today)


def read_only_table(parent: QWidget, name: str, model: QAbstractItemModel) -> QTableView:
    """A list the way every screen shows one: whole rows selected, no grid, rows one line high,
    headings left-aligned, nothing edited in place."""
    table = QTableView(parent)
    table.setObjectName(name)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.verticalHeader().setDefaultSectionSize(parent.fontMetrics().height() + 10)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return table


def search_field(
    parent: QWidget, name: str, placeholder: str, changed: Callable[..., object]
) -> QLineEdit:
    """A list's search: `changed` is called (with the text, when it takes it) as it is typed."""
    field = QLineEdit(parent)
    field.setObjectName(name)
    field.setPlaceholderText(placeholder)
    field.textChanged.connect(changed)
    return field


def filter_combo(
    parent: QWidget,
    name: str,
    choices: Iterable[tuple[str, Enum | None]],
    changed: Callable[..., object],
) -> QComboBox:
    """A list's filter: each (label, value) a choice, its data the value's text ("" for None,
    any); `changed` is called when another is picked."""
    combo = QComboBox(parent)
    combo.setObjectName(name)
    for label, value in choices:
        combo.addItem(label, value.value if value else "")
    combo.currentIndexChanged.connect(changed)
    return combo


def fit_columns(table: QTableView, stretch: Iterable[int]) -> None:
    """Short columns as wide as their values; the columns in `stretch` share the rest; on a
    narrow screen the widest give up room rather than the table scrolling sideways."""
    fit_to_width(table, stretch)


def selected_row(table: QTableView) -> int:
    """The row of the table's current index, -1 when there is none."""
    index = table.currentIndex()
    return index.row() if index.isValid() else -1


class LinesModel(PresenterTableModel[Any]):
    """Rows a presenter holds as `Line`s (ui/presenters/registers.py: cells and a warning flag);
    a row with the flag is shown in `colour` (a subclass's, or the one given)."""

    colour: QColor | None = None

    def __init__(
        self, presenter: Any = None, parent: Any = None, colour: QColor | None = None
    ) -> None:
        super().__init__(presenter, parent)
        if colour is not None:
            self.colour = colour

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row.cells[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and row.warn:
            return self.colour
        return None

    def reload(self) -> None:
        self.beginResetModel()
        self.endResetModel()


ButtonSpec = tuple[str, QPushButton, Callable[[], object]]


def wire_buttons(*specs: ButtonSpec) -> list[QPushButton]:
    """Each (object name, button, slot): named (tests find it by name), not the dialog's default
    (Enter stays with the table) and connected. Returns the buttons in order."""
    for name, button, slot in specs:
        button.setObjectName(name)
        button.setAutoDefault(False)
        button.clicked.connect(slot)
    return [button for _, button, _ in specs]


def button_row(*specs: ButtonSpec) -> QHBoxLayout:
    """The buttons of `specs`, wired, in a row from the left."""
    row = QHBoxLayout()
    for button in wire_buttons(*specs):
        row.addWidget(button)
    row.addStretch(1)
    return row


def enable(button: QWidget, reason: str | None) -> None:
    """A greyed action says why: enabled when `reason` is None or empty, else disabled with the
    reason as its tooltip and What's This (Shift+F1), which a disabled button still shows."""
    button.setEnabled(not reason)
    button.setToolTip(reason or "")
    button.setWhatsThis(reason or "")


def enable_buttons(checks: Iterable[tuple[QPushButton, tuple[bool, str]]]) -> None:
    """Each button enabled or not by its presenter's (may, why not); the reason is its tooltip."""
    for button, (ok, why) in checks:
        enable(button, None if ok else (why or "Not available now."))


def error_label(parent: QWidget | None = None) -> QLabel:
    """A form's error line: red (style.qss), wrapped, hidden until there is something to say."""
    label = QLabel(parent)
    label.setObjectName("errorText")
    label.setWordWrap(True)
    label.setVisible(False)
    return label


def note_label(parent: QWidget, *, selectable: bool = True) -> QLabel:
    """The words under a list (the selected row in full, or why a step waits): wrapped, and
    selectable unless told otherwise."""
    label = QLabel(parent)
    label.setObjectName("noteText")
    label.setWordWrap(True)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def value_label(text: str, name: str = "fieldValue") -> QLabel:
    """A read-only value of a form, selectable; an empty one ("—") is styled as missing."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setProperty("missing", text == EMPTY or text.startswith(EMPTY + " "))
    return label


def section_title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionTitle")
    return label


def page_scroll(parent: QWidget, page: QWidget | None = None) -> QScrollArea:
    """The frameless scroll area a page sits in: it fills the space it is given and scrolls,
    rather than widening the window, when that is narrower than the page can be."""
    scroll = QScrollArea(parent)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    if page is not None:
        scroll.setWidget(page)
    return scroll
