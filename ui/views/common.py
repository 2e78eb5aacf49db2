"""Small widget helpers shared by the views."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QDateEdit, QWidget


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
