"""Table models of Administration → Fee schedules: the versions, and the items of one version.

The items model shows a stored version read-only, or a VersionDraft whose rate, minimum,
admin/doubles, GL account and council-set cells can be edited. A schedule has ~40 items, so
both models hold their rows in memory.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from desk.fees.model import FeeItem, ScheduleVersion
from ui.icons import lock_icon
from ui.presenters.fee_schedules import (
    VERSION_COLUMNS,
    ItemColumn,
    VersionDraft,
    VersionRow,
    cell_text,
    cell_tooltip,
    is_dim,
    is_unset_council_value,
    item_columns,
)

Index = QModelIndex | QPersistentModelIndex
VERSION_ID_ROLE = Qt.ItemDataRole.UserRole + 1
WARNING = QColor(154, 83, 0)  # 'not set': the amber of the stylesheet's warnings
ERROR = QColor(168, 40, 29)
ERROR_SHADE = QColor(251, 231, 228)
EDITABLE_SHADE = QColor(255, 247, 222)  # cells of a draft that may be changed

_BASE_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
)


def _align(numeric: bool) -> int:
    horizontal = Qt.AlignmentFlag.AlignRight if numeric else Qt.AlignmentFlag.AlignLeft
    return int(horizontal | Qt.AlignmentFlag.AlignVCenter)


def _dim() -> QColor:
    return QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)


class VersionsTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[VersionRow] = []

    def set_rows(self, rows: list[VersionRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def row_of(self, version_id: int | None) -> int | None:
        for i, row in enumerate(self.rows):
            if row.id == version_id:
                return i
        return None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(VERSION_COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(VERSION_COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return VERSION_COLUMNS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(False)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        if not 0 <= index.column() < len(VERSION_COLUMNS):
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells()[index.column()]
        if role == Qt.ItemDataRole.DecorationRole and index.column() == 0 and row.read_only:
            return lock_icon()
        if role == Qt.ItemDataRole.ToolTipRole:
            if row.read_only:
                return f"Read-only: {row.reason}"
            return row.cells()[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(False)
        if role == VERSION_ID_ROLE:
            return row.id
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _BASE_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags


class FeeItemsTableModel(QAbstractTableModel):
    """The items of a version (read-only) or of a draft (the editable cells can be changed)."""

    edited = Signal(str)  # the error message of the cell just edited, '' when it parsed

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.version: ScheduleVersion | None = None
        self.draft: VersionDraft | None = None
        self.columns: tuple[ItemColumn, ...] = item_columns(None)

    # --- what it shows -------------------------------------------------------------------

    def set_version(self, version: ScheduleVersion | None) -> None:
        self.beginResetModel()
        self.version = version
        self.draft = None
        self.columns = item_columns(version)
        self.endResetModel()

    def set_draft(self, draft: VersionDraft) -> None:
        self.beginResetModel()
        self.version = draft.base
        self.draft = draft
        self.columns = draft.columns
        self.endResetModel()

    @property
    def editable(self) -> bool:
        return self.draft is not None

    def item(self, row: int) -> FeeItem | None:
        if self.draft is not None:
            items: tuple[FeeItem, ...] | list[FeeItem] = self.draft.items
        elif self.version is not None:
            items = self.version.items
        else:
            return None
        return items[row] if 0 <= row < len(items) else None

    def row_of(self, code: str) -> int | None:
        for row in range(self.rowCount()):
            item = self.item(row)
            if item is not None and item.code == code:
                return row
        return None

    def column_of(self, key: str) -> int:
        for i, c in enumerate(self.columns):
            if c.key == key:
                return i
        raise KeyError(key)

    # --- QAbstractTableModel -------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        if self.draft is not None:
            return len(self.draft.items)
        return 0 if self.version is None else len(self.version.items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        column = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.title
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(column.numeric)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.column() < len(self.columns):
            return None
        item = self.item(index.row())
        if item is None:
            return None
        column = self.columns[index.column()]
        key = column.key
        draft = self.draft
        error = draft.error(index.row(), key) if draft is not None else None
        if role == Qt.ItemDataRole.DisplayRole:
            if draft is not None:
                if column.flag:
                    return None  # a check box says it
                return draft.text(index.row(), key)
            return cell_text(item, key)
        if role == Qt.ItemDataRole.EditRole:
            if draft is None or column.flag:
                return None
            return draft.edit_text(index.row(), key)
        if role == Qt.ItemDataRole.CheckStateRole:
            if draft is None or not column.flag:
                return None
            checked = draft.flag(index.row(), key)
            return Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(column.numeric)
        if role == Qt.ItemDataRole.ToolTipRole:
            return error or cell_tooltip(item, key)
        if role == Qt.ItemDataRole.ForegroundRole:
            if error:
                return ERROR
            if key == "council_value" and is_unset_council_value(item):
                return WARNING
            if is_dim(item, key):
                return _dim()
            return None
        if role == Qt.ItemDataRole.BackgroundRole and draft is not None:
            if error:
                return ERROR_SHADE
            if draft.editable(index.row(), key):
                return EDITABLE_SHADE
            return None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        draft = self.draft
        if draft is None or not 0 <= index.column() < len(self.columns):
            return _BASE_FLAGS
        if not 0 <= index.row() < len(draft.items):
            return _BASE_FLAGS
        column = self.columns[index.column()]
        if not draft.editable(index.row(), column.key):
            return _BASE_FLAGS
        if column.flag:
            return _BASE_FLAGS | Qt.ItemFlag.ItemIsUserCheckable
        return _BASE_FLAGS | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        draft = self.draft
        if draft is None or not index.isValid():
            return False
        if not self.flags(index) & (Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable):
            return False
        key = self.columns[index.column()].key
        row = index.row()
        if role == Qt.ItemDataRole.CheckStateRole and self.columns[index.column()].flag:
            checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value)
            draft.set_flag(row, key, checked)
            self.dataChanged.emit(index, index)
            self.edited.emit("")
            return True
        if role != Qt.ItemDataRole.EditRole or self.columns[index.column()].flag:
            return False
        message = draft.set_text(row, key, str(value if value is not None else ""))
        self.dataChanged.emit(index, index)
        self.edited.emit(message or "")
        return True
