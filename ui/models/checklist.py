"""A permit's checklist as a table model over ChecklistPresenter rows (group headings and items)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont

from desk.domain.checklists import ItemState
from ui.models.base import Index, PresenterTableModel
from ui.presenters.checklist import ChecklistPresenter

GROUP_SHADE = QColor(236, 240, 246)
STATE_COLOURS = {
    ItemState.RECEIVED: QColor(30, 110, 50),
    ItemState.WAIVED: QColor(150, 90, 0),
    ItemState.NOT_APPLICABLE: QColor(100, 100, 100),
}
MUTED = QColor(130, 130, 130)
PROBLEM = QColor(170, 30, 30)
CODE_ROLE = Qt.ItemDataRole.UserRole + 1  # the item's code (None on a group heading)


class ChecklistTableModel(PresenterTableModel[ChecklistPresenter]):
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells()[col]
        if role == CODE_ROLE:
            return row.line.code if row.line is not None else None
        if role == Qt.ItemDataRole.ToolTipRole:
            if row.line is None:
                return None
            assert self.presenter is not None  # row_at found a row
            return self.presenter.detail(index.row()) or None
        if role == Qt.ItemDataRole.BackgroundRole and row.is_group:
            return GROUP_SHADE
        if role == Qt.ItemDataRole.FontRole and row.is_group:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and row.line is not None:
            if row.problem and col in (2, 3):
                return PROBLEM
            if not row.required:
                return MUTED
            if col == 2:
                return STATE_COLOURS.get(row.line.state)
        if role == Qt.ItemDataRole.AccessibleTextRole and row.line is not None and col == 0:
            return f"{row.title}: {row.state}"
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
        rows = self.presenter.rows if self.presenter is not None else []
        if 0 <= index.row() < len(rows) and not rows[index.row()].is_group:
            flags |= Qt.ItemFlag.ItemIsSelectable
        return flags
