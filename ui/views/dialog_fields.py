"""The fields the code enforcement and rooming house dialogs (Hudson 140-3, 140-10) are made of:
a line, a choice, a count, the day typed, and the property looked up by address or PIN with the
parcels it matches to pick from. One place, so every dialog reads them the same way."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox, QWidget

from db import queries
from ui.date_field import DateField
from ui.permit.actions import ActionDialog


def line(parent: QWidget, name: str, placeholder: str = "", text: str = "") -> QLineEdit:
    edit = QLineEdit(text, parent)
    edit.setObjectName(name)
    edit.setPlaceholderText(placeholder)
    return edit


def combo(parent: QWidget, name: str, choices: list[tuple[str, object]]) -> QComboBox:
    box = QComboBox(parent)
    box.setObjectName(name)
    for label, value in choices:
        box.addItem(label, value)
    return box


def count(parent: QWidget, name: str, value: int = 0) -> QSpinBox:
    box = QSpinBox(parent)
    box.setObjectName(name)
    box.setRange(0, 999)
    box.setValue(value)
    return box


def day(edit: DateField) -> date:
    return edit.day()


def parcel_lookup(
    dialog: ActionDialog,
    names: tuple[str, str],
    example: str,
    parcel_label: str,
    *parcel_fields: str,
) -> tuple[QLineEdit, QComboBox]:
    """The "Property" line (object name names[0]) and the parcel choice (names[1]) under it,
    filled with the parcels the address or PIN typed matches; the parcel's id is the choice's
    data. parcel_fields: the names a service's error marks the choice by."""
    search = line(dialog, names[0], f"Address or PIN, e.g. {example}")
    dialog.add_field("&Property:", search)
    parcel = QComboBox(dialog)
    parcel.setObjectName(names[1])
    dialog.add_field(parcel_label, parcel, *parcel_fields)

    def matches(text: str) -> None:
        context = dialog.context
        with context.database.read() as conn:
            found = queries.parcel_matches(conn, context.session.municipality_id, text)
        parcel.clear()
        for c in found:
            parcel.addItem(f"{c.address}  (PIN {c.pin})", c.id)

    search.textChanged.connect(matches)
    return search, parcel
