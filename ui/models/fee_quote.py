"""Table models of the fee calculator: the entered lines and the priced breakdown."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from ui.presenters.fee_calculator import (
    BREAKDOWN_KEYS,
    MONEY_KEYS,
    BreakdownRow,
    FeeCalculatorPresenter,
)

Index = QModelIndex | QPersistentModelIndex
ERROR = QColor(168, 40, 29)
ERROR_SHADE = QColor(251, 231, 228)
EXTRA_SHADE = QColor(255, 247, 230)  # lines the engine added: double fee, surcharge
TOTAL_SHADE = QColor(238, 242, 247)

_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)


def _dim() -> QColor:
    return QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)


class _PresenterModel(QAbstractTableModel):
    titles: tuple[str, ...] = ()

    def __init__(self, presenter: FeeCalculatorPresenter, parent: Any = None) -> None:
        super().__init__(parent)
        self.presenter = presenter

    def refresh(self) -> None:
        """The presenter changed (a line, a flag, the date): show it again."""
        self.beginResetModel()
        self.endResetModel()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.titles)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def _valid(self, index: Index) -> bool:
        return (
            index.isValid()
            and 0 <= index.row() < self.rowCount()
            and 0 <= index.column() < len(self.titles)
        )


class CalculatorLinesModel(_PresenterModel):
    """What the clerk entered, one row per item; the row the error is about is marked."""

    titles = ("Item", "Description", "Entered")

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.presenter.lines)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.titles):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.titles[section]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _LEFT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not self._valid(index):
            return None
        row, column = index.row(), index.column()
        p = self.presenter
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == 0:
                return p.lines[row].code
            if column == 1:
                return p.line_description(row)
            text = p.line_entered(row)
            if role == Qt.ItemDataRole.ToolTipRole and p.error_line == row:
                return p.error
            return text
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _LEFT
        if p.error_line == row:
            if role == Qt.ItemDataRole.ForegroundRole and column == 2:
                return ERROR
            if role == Qt.ItemDataRole.BackgroundRole:
                return ERROR_SHADE
        return None


class BreakdownTableModel(_PresenterModel):
    """Code, Description, Section, Base, admin, Amount; the total row in bold."""

    def __init__(self, presenter: FeeCalculatorPresenter, parent: Any = None) -> None:
        super().__init__(presenter, parent)
        self.rows: list[BreakdownRow] = presenter.rows()

    def refresh(self) -> None:
        self.beginResetModel()
        self.rows = self.presenter.rows()
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(BREAKDOWN_KEYS)

    def _title(self, section: int) -> str:
        titles = ("Code", "Description", "Section", "Base", self.presenter.admin_title, "Amount")
        return titles[section]

    def _valid(self, index: Index) -> bool:
        return (
            index.isValid()
            and 0 <= index.row() < self.rowCount()
            and 0 <= index.column() < len(BREAKDOWN_KEYS)
        )

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(BREAKDOWN_KEYS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._title(section)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if BREAKDOWN_KEYS[section] in MONEY_KEYS else _LEFT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not self._valid(index):
            return None
        row = self.rows[index.row()]
        key = BREAKDOWN_KEYS[index.column()]
        stale = not self.presenter.current
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells()[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.cells()[index.column()] or None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if key in MONEY_KEYS else _LEFT
        if role == Qt.ItemDataRole.FontRole and (row.total or stale):
            font = QFont()
            font.setBold(row.total)
            font.setItalic(stale)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and stale:
            return _dim()
        if role == Qt.ItemDataRole.BackgroundRole:
            if row.total:
                return TOTAL_SHADE
            if row.extra:
                return EXTRA_SHADE
        return None
