"""A permit's History tab as a table model over HistoryPresenter rows (already in memory)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from ui.presenters.history import HistoryPresenter

Index = QModelIndex | QPersistentModelIndex
EVENT_SHADE = QColor(242, 245, 249)  # every other change event, so a clerk sees where each begins


class HistoryTableModel(QAbstractTableModel):
    def __init__(self, presenter: HistoryPresenter | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self.presenter = presenter

    def set_presenter(self, presenter: HistoryPresenter) -> None:
        self.beginResetModel()
        self.presenter = presenter
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.presenter is None:
            return 0
        return len(self.presenter.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.presenter is None else len(self.presenter.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            self.presenter is None
            or orientation != Qt.Orientation.Horizontal
            or role != Qt.ItemDataRole.DisplayRole
            or not 0 <= section < len(self.presenter.columns)
        ):
            return None
        return self.presenter.columns[section]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self.presenter is None or not index.isValid():
            return None
        if not 0 <= index.row() < len(self.presenter.rows):
            return None
        row = self.presenter.rows[index.row()]
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
