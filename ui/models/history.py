"""A permit's History tab as a table model over HistoryPresenter rows (already in memory)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont

from ui.models.base import Index, PresenterTableModel
from ui.presenters.history import HistoryPresenter

EVENT_SHADE = QColor(242, 245, 249)  # every other change event, so a clerk sees where each begins


class HistoryTableModel(PresenterTableModel[HistoryPresenter]):
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells()[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            full = (row.when, row.who, row.what, row.field, row.old, row.new)[index.column()]
            return full or None
        if role == Qt.ItemDataRole.BackgroundRole and row.event % 2:
            return EVENT_SHADE
        if role == Qt.ItemDataRole.FontRole and index.column() == 2 and row.first_of_event:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )
