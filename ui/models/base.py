"""A table model over a presenter that holds its rows in memory (`rows`, `columns`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex


class RowsPresenter(Protocol):
    @property
    def rows(self) -> Sequence[Any]: ...

    @property
    def columns(self) -> Sequence[str]: ...


P = TypeVar("P", bound=RowsPresenter)


class PresenterTableModel(QAbstractTableModel, Generic[P]):
    """Row count, columns and headers from the presenter; subclasses say what a cell shows."""

    def __init__(self, presenter: P | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self.presenter = presenter

    def set_presenter(self, presenter: P) -> None:
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

    def row_at(self, index: Index) -> Any | None:
        """The presenter's row behind a valid index, or None."""
        if self.presenter is None or not index.isValid():
            return None
        if not 0 <= index.row() < len(self.presenter.rows):
            return None
        return self.presenter.rows[index.row()]
