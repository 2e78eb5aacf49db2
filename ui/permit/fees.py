"""The Fees tab: the fee lines assessed on the permit with the schedule version that priced them,
and the totals. Payments and the balance come with cashiering (a later issue) under the totals."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QGridLayout,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db.permit_queries import permit_fee_lines
from desk.domain.readmodels import PermitDetail
from ui.models.base import Index, PresenterTableModel
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.permit_fees import (
    AMOUNT_COLUMN,
    NO_FEES,
    QUANTITY_COLUMN,
    PermitFeesPresenter,
)
from ui.views.common import read_only_table

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class FeeLinesTableModel(PresenterTableModel[PermitFeesPresenter]):
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells()[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (
            AMOUNT_COLUMN,
            QUANTITY_COLUMN,
        ):
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.description}\nPriced with {row.version}"
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.TextAlignmentRole
            and orientation == Qt.Orientation.Horizontal
            and section in (AMOUNT_COLUMN, QUANTITY_COLUMN)
        ):
            return _RIGHT
        return super().headerData(section, orientation, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags


class FeesTab(PermitTab):
    key = "fees"
    title = "Fees"

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: PermitFeesPresenter | None = None
        self.model = FeeLinesTableModel(None, self)

        self.source_label = QLabel(self)
        self.source_label.setObjectName("noteText")
        self.source_label.setWordWrap(True)
        self.table = read_only_table(self, "feeLinesTable", self.model)

        # The totals, right-aligned under the Amount column; Paid and Balance join them later.
        self.totals_box = QWidget(self)
        self.totals_grid = QGridLayout(self.totals_box)
        self.totals_grid.setContentsMargins(0, 4, 8, 0)
        self.totals_grid.setHorizontalSpacing(24)
        self.totals_grid.setVerticalSpacing(3)
        self.total_labels: dict[str, QLabel] = {}

        page = QWidget(self)
        page_layout = QVBoxLayout(page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.setSpacing(8)
        page_layout.addWidget(self.source_label)
        page_layout.addWidget(self.table)
        page_layout.addWidget(self.totals_box)
        page_layout.addStretch(1)
        self.table_page = page

        self.empty_label = QLabel(NO_FEES, self)
        self.empty_label.setObjectName("emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(page)
        self.pages.addWidget(self.empty_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(self.pages)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        self.presenter = PermitFeesPresenter(permit_fee_lines(conn, detail.id))
        self.model.set_presenter(self.presenter)
        if self.presenter.empty:
            self.pages.setCurrentWidget(self.empty_label)
            return
        self.source_label.setText(self.presenter.source)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        for col in range(self.model.columnCount()):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # A permit has a handful of lines: the table is as tall as they are, the totals under it.
        rows = self.model.rowCount()
        height = (
            header.sizeHint().height() + rows * self.table.verticalHeader().defaultSectionSize()
        )
        self.table.setFixedHeight(min(height + 2 * self.table.frameWidth() + 2, 420))
        self._show_totals()
        self.pages.setCurrentWidget(self.table_page)

    def _show_totals(self) -> None:
        assert self.presenter is not None
        while self.totals_grid.count():
            item = self.totals_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.total_labels = {}
        self.totals_grid.setColumnStretch(0, 1)
        for r, total in enumerate(self.presenter.totals()):
            name = QLabel(total.label, self.totals_box)
            name.setObjectName("fieldLabel")
            amount = QLabel(total.amount, self.totals_box)
            amount.setObjectName("feeTotal" if total.grand else "fieldValue")
            amount.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            amount.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            if total.grand:
                font = QFont(amount.font())
                font.setBold(True)
                amount.setFont(font)
                name.setFont(font)
            self.totals_grid.addWidget(name, r, 1, Qt.AlignmentFlag.AlignRight)
            self.totals_grid.addWidget(amount, r, 2)
            self.total_labels[total.label] = amount

    def total(self, label: str) -> str:
        """The amount shown next to a total's label (tests look totals up by label)."""
        return self.total_labels[label].text()
