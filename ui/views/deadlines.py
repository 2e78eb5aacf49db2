"""Deadlines: live permits that lapse in the next days (15.1.8, 15.1.42, 15.2.8, §435-7, ...).
Double-click or Enter opens the permit; the inspector extends a deadline from the permit."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.services.lifecycle import lapsing_within
from ui.presenters.deadlines import COLUMNS, DeadlinesPresenter
from ui.presenters.session import Session

Index = QModelIndex | QPersistentModelIndex
SOON = QColor(160, 82, 0)


class DeadlinesModel(QAbstractTableModel):
    def __init__(self, presenter: DeadlinesPresenter, parent: Any = None) -> None:
        super().__init__(parent)
        self.presenter = presenter

    def reload(self) -> None:
        self.beginResetModel()
        try:
            self.presenter.load()
        finally:
            self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.presenter.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section] if 0 <= section < len(COLUMNS) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.presenter.rows):
            return None
        row = self.presenter.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row.cells[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and row.overdue_soon and index.column() < 2:
            return SOON
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )


class _Table(QTableView):
    activated_row = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.activated_row.emit(self.currentIndex().row())
            return
        super().keyPressEvent(event)


class DeadlinesView(QWidget):
    open_permit = Signal(int)

    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("deadlinesView")
        self.loaded = False
        self.presenter = DeadlinesPresenter(
            lambda days: lapsing_within(database.uow(), clock, session.municipality_id, days),
            session.municipality_key,
            clock.today,
        )
        self.model = DeadlinesModel(self.presenter, self)
        title = QLabel("Deadlines", self)
        title.setObjectName("viewHeading")  # the same heading style as Fee schedules
        self.summary = QLabel(self)
        self.summary.setObjectName("countLabel")
        self.days = QSpinBox(self)
        self.days.setRange(1, 365)
        self.days.setValue(self.presenter.days)
        self.days.setSuffix(" days")
        self.days.setAccessibleName("Look ahead")
        self.days.valueChanged.connect(self._days_changed)
        self.table = _Table(self)
        self.table.setObjectName("deadlinesTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # The deadline's words take the spare width, not the short section number.
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.table.doubleClicked.connect(lambda index: self._open(index.row()))
        self.table.activated_row.connect(self._open)

        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        top.addWidget(QLabel("Look ahead", self))
        top.addWidget(self.days)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)

    def load(self) -> None:
        self.model.reload()
        self.summary.setText(self.presenter.summary)
        self.loaded = True

    def _days_changed(self, days: int) -> None:
        self.presenter.days = days
        self.load()

    def _open(self, row: int) -> None:
        if 0 <= row < len(self.presenter.rows):
            self.open_permit.emit(self.presenter.rows[row].permit_id)
