"""Small widget helpers shared by the views."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QAbstractItemModel, QDate, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDateEdit,
    QFrame,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableView,
    QWidget,
)

from ui.presenters.formatting import EMPTY


def to_qdate(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


def from_qdate(day: QDate) -> date:
    return date(day.year(), day.month(), day.day())


def date_edit(parent: QWidget, name: str) -> QDateEdit:
    """A date field as the office writes dates (MM/DD/YYYY), with a calendar to pick from."""
    edit = QDateEdit(parent)
    edit.setObjectName(name)
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("MM/dd/yyyy")
    return edit


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
