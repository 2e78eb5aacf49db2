"""The permits table: a QAbstractTableModel over PermitListPresenter, which pages rows from SQL.

Sorting is a new SQL query (no QSortFilterProxyModel); so is every search.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from desk.domain.permit_filter import PermitFilter
from ui.presenters.permit_list import PermitListPresenter

PERMIT_ID_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


class PermitTableModel(QAbstractTableModel):
    def __init__(self, presenter: PermitListPresenter, parent: Any = None) -> None:
        super().__init__(parent)
        self.presenter = presenter

    # --- what the view asks -------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.presenter.count

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.presenter.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(self.presenter.columns):
            return None
        column = self.presenter.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.title
        if role == Qt.ItemDataRole.TextAlignmentRole:
            horizontal = (
                Qt.AlignmentFlag.AlignRight if column.numeric else Qt.AlignmentFlag.AlignLeft
            )
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.InitialSortOrderRole:
            # Newest dates and biggest valuations first; text columns A to Z.
            descending = self.presenter.first_direction_descending(column.key)
            order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
            return order.value
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Sort by {column.title.lower()}"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.column() >= len(self.presenter.columns):
            return None
        if role not in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
            Qt.ItemDataRole.TextAlignmentRole,
            Qt.ItemDataRole.ForegroundRole,
            PERMIT_ID_ROLE,
        ):
            return None
        column = self.presenter.columns[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            horizontal = (
                Qt.AlignmentFlag.AlignRight if column.numeric else Qt.AlignmentFlag.AlignLeft
            )
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        row = self.presenter.row(index.row())
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.presenter.cell_text(row, column.key)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.presenter.cell_tooltip(row, column.key)
        if role == PERMIT_ID_ROLE:
            return row.id
        if self.presenter.is_dim(row, column.key):
            return QApplication.palette().color(
                QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text
            )
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.presenter.columns):
            return
        key = self.presenter.columns[column].key
        descending = order == Qt.SortOrder.DescendingOrder
        if key == self.presenter.sort_key and descending == self.presenter.descending:
            return
        # A reset, not a layout change: rows are re-queried, so no persistent index survives.
        self.beginResetModel()
        try:
            self.presenter.set_sort(key, descending)
        finally:
            self.endResetModel()

    # --- what the window tells it -------------------------------------------------------

    def search(self, text: str) -> bool:
        """Filter; returns False (and leaves the view alone) when nothing changes."""
        if not self.presenter.search_changes(text):
            self.presenter.search_text = text
            return False
        self.beginResetModel()
        try:
            changed = self.presenter.set_search(text)
        finally:
            self.endResetModel()
        return changed

    def set_filter(self, filters: PermitFilter) -> bool:
        """Filter by the bar (in SQL); returns False (and leaves the view alone) when unchanged."""
        if self.presenter.loaded and filters == self.presenter.filters:
            return False
        self.beginResetModel()
        try:
            changed = self.presenter.set_filter(filters)
        finally:
            self.endResetModel()
        return changed

    def show(self, text: str, filters: PermitFilter) -> None:
        """Search for `text` with `filters` at once (a saved search): one reset, one count."""
        self.beginResetModel()
        try:
            self.presenter.search_text = text
            self.presenter.filters = filters
            self.presenter.load()
        finally:
            self.endResetModel()

    def reload(self) -> None:
        """Count and page again (after a change elsewhere, or F5)."""
        self.beginResetModel()
        try:
            self.presenter.load()
        finally:
            self.endResetModel()

    def permit_id(self, row: int) -> int | None:
        found = self.presenter.row(row)
        return None if found is None else found.id
