"""The Checklist tab: the permit's checklist by group, with Received / Not applicable / Waive….

Keyboard: arrows move between items, Space toggles Received, Alt+N not applicable, Alt+W waive
(inspector), Alt+O reopen. A dated item (the survey) takes its date from the date field first.
The buttons follow the signed-in user's roles; the services check again.

An issued permit's checklist is read-only, with a "Locked" line; the inspector can reopen it
with a reason (Alt+C) and lock it again (Alt+L).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db import queries
from db.checklist_queries import permit_checklist
from desk.domain.checklists import ItemKind, ItemState
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import PermitDetail
from desk.errors import DeskError
from desk.services import checklists
from ui import dialogs
from ui.models.checklist import ChecklistTableModel
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.checklist import ChecklistPresenter, parse_date
from ui.presenters.formatting import format_date
from ui.views.common import read_only_table

TITLE = "Checklist"


def ask_reason(parent: QWidget | None, item: str) -> str | None:
    """The waiver's reason (15.1.7(c)), or None when cancelled. Tests patch this."""
    text, ok = QInputDialog.getMultiLineText(
        parent, "Waive checklist item", f"Why is this item waived?\n\n{item}"
    )
    return str(text) if ok else None


class ChecklistTab(PermitTab):
    key = "checklist"
    title = TITLE

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: ChecklistPresenter | None = None
        self.model = ChecklistTableModel(None, self)

        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("checklistSummary")
        self.table = read_only_table(self, "checklistTable", self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setTabKeyNavigation(False)
        self.table.installEventFilter(self)

        self.detail_label = QLabel(self)
        self.detail_label.setObjectName("checklistDetail")
        self.detail_label.setWordWrap(True)
        self.value_label = QLabel("&Date on the document:", self)
        self.value_edit = QLineEdit(self)
        self.value_edit.setObjectName("checklistValue")
        self.value_label.setBuddy(self.value_edit)
        self.value_edit.returnPressed.connect(self._value_entered)

        self.received_button = QPushButton("&Received (Space)", self)
        self.na_button = QPushButton("&Not applicable", self)
        self.waive_button = QPushButton("&Waive…", self)
        self.reopen_button = QPushButton("Re&open", self)
        self.received_button.clicked.connect(self.mark_received)
        self.na_button.clicked.connect(lambda: self._mark(ItemState.NOT_APPLICABLE))
        self.waive_button.clicked.connect(self.waive)
        self.reopen_button.clicked.connect(lambda: self._mark(ItemState.OPEN))
        self.can_waive = allowed(context.session.actor, Permission.WAIVE_CHECKLIST_ITEM)
        self.can_reopen = allowed(context.session.actor, Permission.REOPEN_CHECKLIST)
        # A clerk does not see Waive… at all (15.1.7(c) is the inspector's option).
        self.waive_button.setVisible(self.can_waive)

        self.lock_label = QLabel(self)
        self.lock_label.setObjectName("checklistLock")
        self.lock_label.setWordWrap(True)
        self.reopen_checklist_button = QPushButton("Reopen &checklist…", self)
        self.reopen_checklist_button.setObjectName("reopenChecklist")
        self.reopen_checklist_button.clicked.connect(self.reopen_checklist)
        self.lock_checklist_button = QPushButton("&Lock checklist", self)
        self.lock_checklist_button.setObjectName("lockChecklist")
        self.lock_checklist_button.clicked.connect(self.lock_checklist)
        lock_row = QHBoxLayout()
        lock_row.addWidget(self.lock_label, 1)
        for b in (self.reopen_checklist_button, self.lock_checklist_button):
            b.setAutoDefault(False)
            b.setVisible(False)
            lock_row.addWidget(b)
        self.lock_label.setVisible(False)

        values = QHBoxLayout()
        values.addWidget(self.value_label)
        values.addWidget(self.value_edit, 1)
        buttons = QHBoxLayout()
        for b in (self.received_button, self.na_button, self.waive_button, self.reopen_button):
            b.setAutoDefault(False)
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(8)
        layout.addWidget(self.summary_label)
        layout.addLayout(lock_row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.detail_label)
        layout.addLayout(values)
        layout.addLayout(buttons)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._selection_changed())
        self._selection_changed()

    # --- loading --------------------------------------------------------------------------

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        code = self.current_code()
        found = permit_checklist(conn, detail.id)
        if found is None:
            return
        self.presenter = ChecklistPresenter(
            found.template,
            found.lines,
            found.names,
            today=detail.issued_on or self.context.clock.today(),  # the survey's age at issuance
            can_waive=self.can_waive,
            issued_on=found.issued_on,
            reopened=found.reopened,
            can_reopen=self.can_reopen,
        )
        self.model.set_presenter(self.presenter)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.clearSpans()
        for row, r in enumerate(self.presenter.rows):
            if r.is_group:
                self.table.setSpan(row, 0, 1, self.model.columnCount())
        for col in range(1, self.model.columnCount()):
            self.table.resizeColumnToContents(col)
            width = min(self.table.columnWidth(col) + 12, 190)
            self.table.setColumnWidth(col, width)
        self.summary_label.setText(self.presenter.summary)
        self.lock_label.setText(self.presenter.lock_text)
        self.lock_label.setVisible(bool(self.presenter.lock_text))
        self.reopen_checklist_button.setVisible(self.presenter.shows_reopen)
        self.lock_checklist_button.setVisible(self.presenter.shows_lock)
        # Locked: the items read-only, no marking buttons.
        for b in (self.received_button, self.na_button, self.reopen_button):
            b.setVisible(not self.presenter.locked)
        self.waive_button.setVisible(self.can_waive and not self.presenter.locked)
        row = self.presenter.row_of(code) if code else -1
        if row < 0:
            self.select_row(self.presenter.first_item_row())
            self.table.scrollToTop()  # the first group's heading stays in view
        else:
            self.select_row(row)

    def refresh(self) -> None:
        """Reload the whole permit window (History shows the change too), or this tab alone."""
        from ui.permit.window import PermitWindow

        window = self.window()
        if isinstance(window, PermitWindow):
            window.reload()
            return
        with self.context.database.read() as conn:
            detail = queries.permit_detail(conn, self.context.permit_id)
            if detail is not None:
                self.load(conn, detail)

    # --- selection ----------------------------------------------------------------------------

    def current_row(self) -> int:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    def current_code(self) -> str | None:
        line = self.presenter.item(self.current_row()) if self.presenter else None
        return line.code if line else None

    def select_row(self, row: int) -> None:
        if row < 0:
            self._selection_changed()
            return
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(index)
        self._selection_changed()

    def select_code(self, code: str) -> None:
        if self.presenter is not None:
            self.select_row(self.presenter.row_of(code))

    def _selection_changed(self) -> None:
        p = self.presenter
        row = self.current_row()
        line = p.item(row) if p else None
        can_mark = p is not None and p.can_mark(row)
        for b in (self.received_button, self.na_button, self.reopen_button):
            b.setEnabled(can_mark)
        self.waive_button.setEnabled(p is not None and p.can_waive_row(row))
        self.detail_label.setText(p.detail(row) if p else "")
        kind = p.needs_value(row) if p else None
        self.value_label.setVisible(kind is not None)
        self.value_edit.setVisible(kind is not None)
        if line is None or kind is None:
            self.value_edit.clear()
            return
        if kind is ItemKind.DATE:
            self.value_label.setText("&Date on the document:")
            self.value_edit.setPlaceholderText("MM/DD/YYYY")
            self.value_edit.setText(format_date(line.value_date))
        else:
            self.value_label.setText("N&ote:")
            self.value_edit.setPlaceholderText("What was received (number, vote, route…)")
            self.value_edit.setText(line.value_text)

    # --- actions ------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() == Qt.Key.Key_Space and not event.modifiers():
                self.toggle_received()
                return True
        return super().eventFilter(watched, event)

    def toggle_received(self) -> None:
        if self.presenter is None:
            return
        target = self.presenter.toggle_target(self.current_row())
        if target is ItemState.RECEIVED:
            if self.mark_received():
                self.select_next_item()  # tick, tick, tick down the list
        elif target is ItemState.OPEN:
            self._mark(ItemState.OPEN)

    def select_next_item(self) -> None:
        if self.presenter is None:
            return
        rows = self.presenter.rows
        nxt = next(
            (i for i in range(self.current_row() + 1, len(rows)) if not rows[i].is_group), -1
        )
        if nxt >= 0:
            self.select_row(nxt)

    def mark_received(self) -> bool:
        if self.presenter is None:
            return False
        kind = self.presenter.needs_value(self.current_row())
        if kind is ItemKind.DATE:
            day = parse_date(self.value_edit.text(), self.context.clock.today())
            if day is None:
                self.detail_label.setText(
                    "Enter the date the document bears (MM/DD/YYYY), then press Enter."
                )
                self.value_edit.setFocus()
                return False
            return self._mark(ItemState.RECEIVED, value_date=day)
        elif kind is ItemKind.TEXT:
            if not self.value_edit.text().strip():
                self.detail_label.setText("Record what was received, then press Enter.")
                self.value_edit.setFocus()
                return False
            return self._mark(ItemState.RECEIVED, value_text=self.value_edit.text())
        return self._mark(ItemState.RECEIVED)

    def _value_entered(self) -> None:
        if self.mark_received():
            self.select_next_item()

    def waive(self) -> None:
        line = self.presenter.item(self.current_row()) if self.presenter else None
        if line is None:
            return
        reason = ask_reason(self, f"{line.label} ({line.section})")
        if reason is None:
            return
        self._mark(ItemState.WAIVED, reason=reason)

    def reopen_checklist(self) -> None:
        reason = dialogs.ask_text(
            self,
            "Reopen checklist",
            "The checklist of an issued permit is locked.\nWhy is it reopened?",
        )
        if reason is None:
            return
        self._run(checklists.reopen_checklist, reason)

    def lock_checklist(self) -> None:
        self._run(checklists.lock_checklist)

    def _run(self, service: Callable[..., None], *args: object) -> None:
        try:
            service(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.context.permit_id,
                *args,
            )
        except DeskError as e:
            dialogs.warn(self, TITLE, str(e))
            return
        code = self.current_code()
        self.refresh()
        if code:
            self.select_code(code)

    def _mark(
        self,
        state: ItemState,
        *,
        value_date: date | None = None,
        value_text: str | None = None,
        reason: str | None = None,
    ) -> bool:
        code = self.current_code()
        if code is None:
            return False
        try:
            checklists.mark_item(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.context.permit_id,
                code,
                state,
                value_date=value_date,
                value_text=value_text,
                reason=reason,
            )
        except DeskError as e:
            dialogs.warn(self, TITLE, str(e))
            return False
        self.refresh()
        self.select_code(code)
        self.table.setFocus()
        return True
