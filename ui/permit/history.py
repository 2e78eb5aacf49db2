"""The History tab: every recorded change to the permit and the rows that belong to it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db import queries
from db.audit_queries import history_lookup
from desk.domain.readmodels import PermitDetail
from ui.columns import fit_to_width
from ui.models.history import HistoryTableModel
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.history import ACCOUNTING_TOGGLE, HistoryPresenter
from ui.views.common import read_only_table


class HistoryTab(PermitTab):
    key = "history"
    title = "History"

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: HistoryPresenter | None = None
        self.can_show_accounting = HistoryPresenter.accounting_allowed(context.session.actor)
        # The treasurer's view of the ledger rows; a clerk never sees the box.
        self.accounting = QCheckBox(ACCOUNTING_TOGGLE, self)
        self.accounting.setObjectName("showAccounting")
        self.accounting.setVisible(self.can_show_accounting)
        self.accounting.setEnabled(self.can_show_accounting)
        self.accounting.toggled.connect(self._show_accounting)
        self.model = HistoryTableModel(None, self)
        self.table = read_only_table(self, "historyTable", self.model)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.horizontalHeader().setDefaultAlignment(
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        )
        self.empty_label = QLabel(self)
        self.empty_label.setObjectName("emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.table)
        self.pages.addWidget(self.empty_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(self.accounting)
        layout.addWidget(self.pages)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        entries = queries.permit_history(conn, detail.id)
        self.presenter = HistoryPresenter(
            entries,
            detail.municipality_key,
            lookup=history_lookup(conn, entries),
            can_show_accounting=self.can_show_accounting,
            show_accounting=self.accounting.isChecked(),
        )
        self._show_rows()

    def _show_accounting(self, on: bool) -> None:
        if self.presenter is not None:
            self.presenter.set_show_accounting(on)
            self._show_rows()

    def _show_rows(self) -> None:
        assert self.presenter is not None
        self.model.set_presenter(self.presenter)
        # Columns as wide as what they hold, cut to the window's width; New takes the rest.
        fit_to_width(self.table, (self.model.columnCount() - 1,))
        if self.presenter.rows:
            self.pages.setCurrentWidget(self.table)
        else:
            self.empty_label.setText(self.presenter.empty_text)
            self.pages.setCurrentWidget(self.empty_label)
