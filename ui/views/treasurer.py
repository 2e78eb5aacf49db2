"""The Treasurer section: the daily close per drawer (expected by method against the
count, over/short with its explanation), turnovers to the City Treasurer (15.1.34(b)(4)) with
the transmittal and the treasurer's acknowledgment, the reconciliation of any period, refunds by
the ordinance's rules, returned checks, and payers' credits.

Pages follow the day's order: close the drawer, deliver the closed days, the treasurer
acknowledges, and the reconciliation proves every dollar is in a turnover or still undeposited.
Buttons a user may not use are disabled with the reason as their tooltip; the services check
again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.domain.attention import CLOSE_PLACE, TURNOVER_PLACE
from desk.domain.cashiering import DRAWER_METHODS, PaymentMethod, RefundGround
from desk.domain.enums import Role
from desk.domain.permissions import Permission, allowed
from desk.errors import DeskError, ValidationError
from desk.money import format_money
from ui import dialogs, focus
from ui.anchors import file_anchor, record_anchor, take_anchor
from ui.columns import fit_to_width
from ui.exports import REPORTS, XLSX, filed_path, save_path, write_and_open, write_and_print
from ui.presenters.formatting import format_date
from ui.presenters.session import Session
from ui.presenters.treasurer import (
    ACCOUNT_COLUMNS,
    CLOSE_COLUMNS,
    CREDIT_COLUMNS,
    OPEN_CLOSE_COLUMNS,
    TURNOVER_COLUMNS,
    DailyClosePresenter,
    ReconciliationPresenter,
    RefundPresenter,
    ReturnedCheckPresenter,
    SqlTreasury,
    TurnoversPresenter,
)
from ui.reflow import Reflow, holder
from ui.views.cashier import CellsModel, _table, scrolled_body
from ui.views.common import date_edit, enable, from_qdate, section_title, to_qdate

SECTION_TITLE = "Treasurer"
PAGES = ("close", "turnovers", "reconciliation", "refunds", "returned")
Index = QModelIndex | QPersistentModelIndex
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def run_dialog(dialog: QDialog) -> bool:
    """Show a dialog modally; True when it was accepted. Tests patch this."""
    return dialog.exec() == QDialog.DialogCode.Accepted


def _note(parent: QWidget, name: str = "noteText") -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _bold(label: QLabel) -> QLabel:
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


def _not_allowed(actor: Any, permission: Permission) -> str | None:
    """Why the signed-in user may not take the action at all (None when they may)."""
    if allowed(actor, permission):
        return None
    roles = ", ".join(sorted(r.value for r in actor.roles)) or "none"
    return f"Only a user allowed to {permission.value} can do this; your roles: {roles}."


def _gate(button: QPushButton, actor: Any, permission: Permission) -> None:
    enable(button, _not_allowed(actor, permission))


def _save_as(parent: QWidget, caption: str, name: str, suffix: str) -> Path | None:
    """A PDF is filed in the document folder (Reports) without asking; a workbook is saved
    where the user says."""
    if suffix == ".pdf":
        return filed_path(parent, caption, name, REPORTS)
    return save_path(parent, caption, name, XLSX)


def _written(
    parent: QWidget, title: str, path: Path, write: Any, *, direct: bool = False
) -> Path | None:
    """The file written and shown, or, for Ctrl+P (`direct`), sent straight to the print
    dialog."""
    return (write_and_print if direct else write_and_open)(parent, title, path, write)


def _left(button: QPushButton) -> QHBoxLayout:
    """A button at its own width, on the left of its row."""
    row = QHBoxLayout()
    row.addWidget(button)
    row.addStretch(1)
    return row


class FormDialog(QDialog):
    """A heading, a form and OK/Cancel over one action (`action`); a mistake keeps the dialog
    open with what was typed and says why."""

    def __init__(
        self, heading: str, note: str, ok_text: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(heading)
        head = QLabel(heading, self)
        head.setObjectName("dialogHeading")
        self.note = _note(self)
        self.note.setText(note)
        self.form = QFormLayout()
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.error_label = _note(self, "errorText")
        self.error_label.setVisible(False)
        buttons = QDialogButtonBox(self)
        self.ok_button = QPushButton(ok_text, self)
        self.ok_button.setDefault(True)
        buttons.addButton(self.ok_button, QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        assert cancel is not None
        cancel.clicked.connect(self.reject)
        self.ok_button.clicked.connect(self.submit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 14)
        layout.addWidget(head)
        layout.addWidget(self.note)
        layout.addLayout(self.form)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)
        self.action: Callable[[], str] = lambda: ""
        self.fields: dict[str, QWidget] = {}  # by name, for whoever fills the dialog in
        self.result_text = ""
        focus.install(self)  # opens in its first field, not on OK

    def submit(self) -> bool:
        try:
            self.result_text = self.action()
        except DeskError as e:
            focus.show_error(self, self.error_label, e, self.fields)
            return False
        self.accept()
        return True


# --- the daily close ---------------------------------------------------------------------------


class DailyClosePage(QWidget):
    def __init__(self, view: TreasurerView) -> None:
        super().__init__(view)
        self.view = view
        self.presenter = DailyClosePresenter(view.backend, view.clock.today(), view.clock.today())
        self.day = date_edit(self, "closeDay")
        self.day.setDate(to_qdate(view.clock.today()))
        self.day.dateChanged.connect(lambda _d: self.load())
        self.drawer = QComboBox(self)
        self.drawer.setObjectName("closeDrawer")
        self.drawer.setEditable(True)
        self.drawer.setMinimumContentsLength(10)
        self.drawer.activated.connect(lambda _i: self._drawer_changed())
        drawer_edit = self.drawer.lineEdit()
        assert drawer_edit is not None
        drawer_edit.editingFinished.connect(self._drawer_changed)
        day_label = QLabel("D&ay", self)
        day_label.setBuddy(self.day)
        drawer_label = QLabel("Dra&wer", self)
        drawer_label.setBuddy(self.drawer)
        self.state = _note(self)
        top = QHBoxLayout()
        top.addWidget(day_label)
        top.addWidget(self.day)
        top.addSpacing(12)
        top.addWidget(drawer_label)
        top.addWidget(self.drawer)
        top.addSpacing(12)
        top.addWidget(self.state, 1)

        figures = QFrame(self)
        figures.setObjectName("closeFigures")
        grid = QGridLayout(figures)
        grid.setHorizontalSpacing(22)
        grid.setVerticalSpacing(6)
        heads: list[QLabel] = []
        for c, text in enumerate(CLOSE_COLUMNS):
            head = QLabel("&Counted" if text == "Counted" else text, figures)
            head.setObjectName("columnHeading")
            grid.addWidget(head, 0, c, Qt.AlignmentFlag.AlignLeft if c == 0 else _RIGHT)
            heads.append(head)
        self.cells: list[list[QLabel]] = []
        self.counted: dict[PaymentMethod, QLineEdit] = {}
        for r, m in enumerate((*DRAWER_METHODS, None), start=1):
            row: list[QLabel] = []
            for c in range(len(CLOSE_COLUMNS)):
                if c == 4 and m is not None:
                    edit = QLineEdit(figures)
                    edit.setObjectName(f"counted_{m.value}")
                    edit.setAlignment(_RIGHT)
                    edit.setMaximumWidth(130)
                    edit.setAccessibleName(f"Counted {m.label.lower()}")
                    edit.textEdited.connect(lambda text, method=m: self._counted(method, text))
                    self.counted[m] = edit
                    grid.addWidget(edit, r, c)
                    row.append(QLabel(figures))  # placeholder: keeps the indexes aligned
                    continue
                label = QLabel(figures)
                left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
                label.setAlignment(left if c == 0 else _RIGHT)
                if m is None:
                    _bold(label)
                grid.addWidget(label, r, c)
                row.append(label)
            self.cells.append(row)
        grid.setColumnStretch(len(CLOSE_COLUMNS), 1)
        heads[CLOSE_COLUMNS.index("Counted")].setBuddy(self.counted[DRAWER_METHODS[0]])
        self.preview = _note(self, "closePreview")
        self.explanation = QPlainTextEdit(self)
        self.explanation.setObjectName("closeExplanation")
        self.explanation.setPlaceholderText("Why the drawer is over or short (required then)")
        self.explanation.setTabChangesFocus(True)
        self.explanation.setFixedHeight(self.explanation.fontMetrics().lineSpacing() * 3 + 14)
        self.explanation.textChanged.connect(self._explained)
        explanation_label = QLabel("E&xplanation", self)
        explanation_label.setBuddy(self.explanation)
        self.close_button = QPushButton("C&lose day", self)
        self.close_button.setObjectName("closeDay")
        self.close_button.clicked.connect(self.close_day)
        _gate(self.close_button, view.session.actor, Permission.CLOSE_DRAWER)
        self.pdf_button = QPushButton("Daily cash report P&DF…", self)
        self.pdf_button.clicked.connect(lambda: self.export(".pdf"))
        self.xlsx_button = QPushButton("Daily cash report &spreadsheet…", self)
        self.xlsx_button.clicked.connect(lambda: self.export(".xlsx"))
        self.message = _note(self, "closeMessage")

        self.receipts_model = CellsModel(
            ("Receipt", "Payer", "Method", "Amount", "Status"),
            self._receipt_rows,
            (3,),
            self,
        )
        self.receipts = _table(self, "closeReceipts", self.receipts_model, 1)

        actions = QHBoxLayout()
        actions.addWidget(self.close_button)
        actions.addStretch(1)
        actions.addWidget(self.pdf_button)
        actions.addWidget(self.xlsx_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 10, 0, 0)
        layout.addLayout(top)
        layout.addWidget(figures)
        layout.addWidget(self.preview)
        layout.addWidget(explanation_label)
        layout.addWidget(self.explanation)
        layout.addLayout(actions)
        layout.addWidget(self.message)
        layout.addWidget(section_title("The drawer's receipts"))
        layout.addWidget(self.receipts, 1)

    def _receipt_rows(self) -> list[tuple[str, ...]]:
        if self.presenter.report is None:
            return []
        return [
            (
                r.receipt_number,
                r.payer,
                r.method.label,
                format_money(r.amount),
                {"void": "Void", "returned": "Check returned"}.get(r.status, ""),
            )
            for r in self.presenter.drawer_cash.receipts
        ]

    def load(self) -> None:
        p = self.presenter
        p.today = self.view.clock.today()
        p.day = from_qdate(self.day.date())
        p.drawer = self.drawer.currentText().strip() or p.drawer
        p.load()
        names = p.drawer_names()
        self.drawer.blockSignals(True)
        self.drawer.clear()
        self.drawer.addItems(names)
        self.drawer.setCurrentText(p.drawer)
        self.drawer.blockSignals(False)
        for m, edit in self.counted.items():
            edit.setText(p.counted_text.get(m, ""))
        self.explanation.blockSignals(True)
        self.explanation.setPlainText(p.explanation)
        self.explanation.blockSignals(False)
        self.receipts_model.reload()
        self._refresh()

    def show_day(self, day: date) -> None:
        self.day.setDate(to_qdate(day))  # loads it

    def _drawer_changed(self) -> None:
        text = self.drawer.currentText().strip()
        if text and text != self.presenter.drawer:
            self.presenter.drawer = text
            self.load()

    def _counted(self, method: PaymentMethod, text: str) -> None:
        self.presenter.counted_text[method] = text
        self._refresh()

    def _explained(self) -> None:
        self.presenter.explanation = self.explanation.toPlainText()

    def _refresh(self) -> None:
        p = self.presenter
        closed = p.closed
        for r, cells in enumerate([*p.rows(), p.totals()]):
            for c, text in enumerate(cells):
                if c == 4 and r < len(DRAWER_METHODS):
                    continue
                self.cells[r][c].setText(text)
        for edit in self.counted.values():
            edit.setReadOnly(closed)
        self.explanation.setReadOnly(closed)
        self.state.setText(p.state)
        self.preview.setText(p.preview)
        actor = self.view.session.actor
        enable(self.close_button, _not_allowed(actor, Permission.CLOSE_DRAWER) or p.close_refusal)

    def close_day(self) -> bool:
        p = self.presenter
        p.explanation = self.explanation.toPlainText()
        try:
            p.close()
        except ValidationError as e:
            self.message.setText(str(e))
            target: QWidget | None = None
            if e.field == "explanation":
                target = self.explanation
            for m, edit in self.counted.items():
                if e.field == f"counted {m.label.lower()}":
                    target = edit
            if target is not None:
                target.setFocus()
            return False
        except DeskError as e:
            self.message.setText(str(e))
            return False
        self.receipts_model.reload()
        self._refresh()
        closed = p.closed_message(Role.TREASURER in self.view.session.actor.roles)
        # The audit trail's head with the close, outside the database (ui/anchors.py).
        _, failed = file_anchor(self.view.database, self.view.clock)
        self.message.setText(f"{closed} {failed}" if failed else closed)
        self.view.changed()
        return True

    def export(self, suffix: str, *, direct: bool = False) -> Path | None:
        from reports.cash_reports import export_daily_cash_xlsx, render_daily_cash_pdf

        report = self.presenter.report
        if report is None:
            return None
        name = f"daily-cash-{report.day.isoformat()}{suffix}"
        path = _save_as(self, "Save the daily cash report", name, suffix)
        if path is None:
            return None
        if suffix != ".pdf":
            return _written(
                self,
                "Daily cash report",
                path,
                lambda out: export_daily_cash_xlsx(report, out),
                direct=direct,
            )
        # Read after the report: the head printed covers everything the report shows.
        anchor = take_anchor(self.view.database, self.view.clock)
        written = _written(
            self,
            "Daily cash report",
            path,
            lambda out: render_daily_cash_pdf(report, out, anchor),
            direct=direct,
        )
        failed = record_anchor(anchor) if written is not None else None
        if failed:
            self.message.setText(failed)
        return written


# --- turnovers ----------------------------------------------------------------------------


class _CheckModel(CellsModel):
    """The closed days, each with a check box (chosen for the turnover)."""

    def __init__(self, page: TurnoversPage) -> None:
        p = page.presenter
        super().__init__(
            OPEN_CLOSE_COLUMNS,
            lambda: [p.close_cells(c) for c in p.open_closes],
            (2, 3, 4),
            page,
        )
        self.page = page

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.CheckStateRole and index.isValid() and index.column() == 0:
            close = self.page.presenter.open_closes[index.row()]
            on = close.close_id in self.page.presenter.selected
            return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        return super().data(index, role)

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid() or index.column():
            return False
        close = self.page.presenter.open_closes[index.row()]
        on = Qt.CheckState(value) == Qt.CheckState.Checked
        self.page.presenter.toggle(close.close_id, on)
        self.dataChanged.emit(index, index)
        self.page.refresh_summary()
        return True

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        return flags | Qt.ItemFlag.ItemIsUserCheckable if index.column() == 0 else flags


class TurnoversPage(QWidget):
    def __init__(self, view: TreasurerView) -> None:
        super().__init__(view)
        self.view = view
        actor = view.session.actor
        self.presenter = TurnoversPresenter(view.backend, view.clock.today())
        p = self.presenter
        self.closes_model = _CheckModel(self)
        self.closes = _table(self, "openCloses", self.closes_model, 5)
        self.closes.activated_row.connect(self._toggle_row)
        self.closes.setMaximumHeight(220)
        self.summary = _note(self, "turnoverSummary")
        self.create_button = QPushButton("&Create turnover", self)
        self.create_button.setObjectName("createTurnover")
        self.create_button.clicked.connect(self.create_turnover)
        _gate(self.create_button, actor, Permission.DELIVER_TURNOVER)

        self.turnovers_model = CellsModel(
            TURNOVER_COLUMNS,
            lambda: [p.turnover_cells(t) for t in p.turnovers],
            (4, 5, 8, 9),
            self,
            warn=lambda r, c: c == 10 and p.turnovers[r].flagged,
        )
        self.turnovers = _table(self, "turnoversTable", self.turnovers_model, 10)
        # At 1024 px the deposit slip's reference and the count of days give way (the
        # transmittal has them).
        fit_to_width(self.turnovers, (10,), optional=(7, 3))
        self.pdf_button = QPushButton("Transmittal P&DF…", self)
        self.pdf_button.clicked.connect(lambda: self.export(".pdf"))
        self.xlsx_button = QPushButton("Transmittal .xls&x…", self)
        self.xlsx_button.clicked.connect(lambda: self.export(".xlsx"))
        self.ack_button = QPushButton("&Acknowledge…", self)
        self.ack_button.setObjectName("acknowledgeTurnover")
        self.ack_button.clicked.connect(self.acknowledge_selected)
        _gate(self.ack_button, actor, Permission.ACKNOWLEDGE_TURNOVER)
        # Who delivered the chosen turnover is told so here, before any form is filled in.
        self.ack_note = _note(self, "acknowledgeRefusal")
        self.ack_note.setVisible(False)
        selection = self.turnovers.selectionModel()
        assert selection is not None
        selection.currentRowChanged.connect(lambda *_a: self.refresh_acknowledge())
        self.resolve_button = QPushButton("Re&solve difference…", self)
        self.resolve_button.clicked.connect(self.resolve_selected)
        _gate(self.resolve_button, actor, Permission.ACKNOWLEDGE_TURNOVER)
        self.message = _note(self, "turnoverMessage")

        head = QHBoxLayout()
        head.addWidget(section_title("Closed days not yet turned over"), 1)
        make = QHBoxLayout()
        make.addWidget(self.summary, 1)
        make.addWidget(self.create_button)
        buttons = QHBoxLayout()
        buttons.addWidget(section_title("Turnovers to the City Treasurer"), 1)
        buttons.addWidget(self.pdf_button)
        buttons.addWidget(self.xlsx_button)
        buttons.addWidget(self.ack_button)
        buttons.addWidget(self.resolve_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 10, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.closes)
        layout.addLayout(make)
        layout.addSpacing(8)
        layout.addLayout(buttons)
        layout.addWidget(self.ack_note)
        layout.addWidget(self.turnovers, 1)
        layout.addWidget(self.message)

    def load(self) -> None:
        self.presenter.today = self.view.clock.today()
        self.presenter.load()
        self.closes_model.reload()
        self.turnovers_model.reload()
        if self.turnovers_model.rowCount():
            self.turnovers.selectRow(0)
        self.refresh_summary()
        self.refresh_acknowledge()

    def refresh_summary(self) -> None:
        p = self.presenter
        if not p.open_closes and not p.deductions.total:
            self.summary.setText("Every closed day is turned over.")
        else:
            self.summary.setText(p.summary)
        actor = self.view.session.actor
        nothing = (
            None
            if p.selected or p.deductions.total
            else "Choose a closed day to turn over; nothing is waiting."
        )
        enable(self.create_button, _not_allowed(actor, Permission.DELIVER_TURNOVER) or nothing)

    def refresh_acknowledge(self) -> None:
        """Acknowledge follows the chosen turnover: disabled, with the sentence saying why, when
        the signed-in user delivered it."""
        actor = self.view.session.actor
        gated = _not_allowed(actor, Permission.ACKNOWLEDGE_TURNOVER)
        turnover_id = self.selected_turnover()
        enable(self.resolve_button, gated or self.presenter.resolve_reason(turnover_id))
        if gated:
            enable(self.ack_button, gated)
            return
        try:
            refusal = (
                self.presenter.acknowledge_refusal(turnover_id) if turnover_id is not None else ""
            )
            reason = self.presenter.acknowledge_reason(turnover_id)
        except DeskError as e:
            refusal = reason = str(e)
        # The note under the buttons says only a refusal the user could not guess.
        self.ack_note.setText(refusal)
        self.ack_note.setVisible(bool(refusal))
        enable(self.ack_button, reason)

    def _toggle_row(self, row: int) -> None:
        index = self.closes_model.index(row, 0)
        on = self.closes_model.data(index, Qt.ItemDataRole.CheckStateRole)
        new = Qt.CheckState.Unchecked if on == Qt.CheckState.Checked else Qt.CheckState.Checked
        self.closes_model.setData(index, new.value, Qt.ItemDataRole.CheckStateRole)

    def create_turnover(self) -> int | None:
        try:
            turnover_id = self.presenter.create()
        except DeskError as e:
            self.message.setText(str(e))
            return None
        self.closes_model.reload()
        self.turnovers_model.reload()
        self.turnovers.selectRow(0)
        self.refresh_summary()
        self.refresh_acknowledge()
        delivered = (
            f"Turnover #{turnover_id} is delivered; the treasurer acknowledges it with the date "
            "and the bank deposit reference."
        )
        # The audit trail's head with the turnover, outside the database (ui/anchors.py).
        _, failed = file_anchor(self.view.database, self.view.clock)
        self.message.setText(f"{delivered} {failed}" if failed else delivered)
        self.view.changed()
        return turnover_id

    def selected_turnover(self) -> int | None:
        index = self.turnovers.currentIndex()
        if not index.isValid():
            return None
        return self.presenter.turnovers[index.row()].turnover_id

    def acknowledge_dialog(self, turnover_id: int) -> FormDialog | None:
        t = self.presenter.turnover(turnover_id)
        if t is None:
            return None
        dialog = FormDialog(
            f"Acknowledge turnover #{turnover_id}",
            f"Delivered {format_date(t.delivered_on)} by {t.delivered_by or '—'}: "
            f"{format_money(t.amount)} book amount, {format_money(t.cash_delivered)} money "
            "delivered. A difference between the money delivered and the deposit is flagged "
            "until it is resolved.",
            "&Acknowledge",
            self,
        )
        on = date_edit(dialog, "ackDate")
        on.setDate(to_qdate(self.view.clock.today()))
        reference = QLineEdit(dialog)
        reference.setObjectName("depositReference")
        reference.setPlaceholderText("e.g. Associated Bank deposit 7781")
        deposited = QLineEdit(f"{t.cash_delivered:,.2f}", dialog)
        deposited.setObjectName("amountDeposited")
        deposited.setAlignment(_RIGHT)
        dialog.form.addRow("&Date received", on)
        dialog.form.addRow("Bank deposit &reference", reference)
        dialog.form.addRow("Amount &deposited", deposited)
        dialog.fields = {"date": on, "reference": reference, "deposited": deposited}
        dialog.action = lambda: self.presenter.acknowledge(
            turnover_id, from_qdate(on.date()), reference.text(), deposited.text()
        )
        refusal = self.presenter.acknowledge_refusal(turnover_id)
        if refusal:
            # Said up front: the service would refuse the filled-in form anyway.
            dialog.error_label.setText(refusal)
            dialog.error_label.setVisible(True)
            for widget in (on, reference, deposited, dialog.ok_button):
                widget.setEnabled(False)
        return dialog

    def acknowledge_selected(self) -> bool:
        turnover_id = self.selected_turnover()
        if turnover_id is None:
            dialogs.warn(self, "Acknowledge turnover", "Choose a turnover.")
            return False
        refusal = self.presenter.acknowledge_refusal(turnover_id)
        if refusal:
            self.message.setText(refusal)
            return False
        dialog = self.acknowledge_dialog(turnover_id)
        if dialog is None or not run_dialog(dialog):
            return False
        self._after(dialog.result_text)
        return True

    def resolve_selected(self) -> bool:
        turnover_id = self.selected_turnover()
        t = self.presenter.turnover(turnover_id) if turnover_id is not None else None
        if t is None or not t.flagged:
            dialogs.warn(
                self, "Resolve a difference", "Choose a turnover with a flagged difference."
            )
            return False
        dialog = FormDialog(
            f"Resolve the difference of turnover #{t.turnover_id}",
            f"Deposited {format_money(t.deposited)} of {format_money(t.cash_delivered)} "
            "delivered. Say how the difference was resolved.",
            "Re&solve",
            self,
        )
        text = QPlainTextEdit(dialog)
        text.setTabChangesFocus(True)
        dialog.form.addRow("&Resolution", text)
        tid = t.turnover_id

        def act() -> str:
            self.presenter.resolve(tid, text.toPlainText())
            return f"The difference of turnover #{tid} is resolved."

        dialog.action = act
        if not run_dialog(dialog):
            return False
        self._after(dialog.result_text)
        return True

    def _after(self, message: str) -> None:
        self.turnovers_model.reload()
        self.turnovers.selectRow(0)
        self.refresh_acknowledge()
        self.message.setText(message)
        self.view.changed()

    def export(self, suffix: str, *, direct: bool = False) -> Path | None:
        from reports.cash_reports import export_transmittal_xlsx, render_transmittal_pdf

        turnover_id = self.selected_turnover()
        if turnover_id is None:
            dialogs.warn(self, "Transmittal", "Choose a turnover.")
            return None
        t = self.view.backend.transmittal(turnover_id)
        name = f"transmittal-{turnover_id}-{t.delivered_on.isoformat()}{suffix}"
        path = _save_as(self, "Save the transmittal", name, suffix)
        if path is None:
            return None
        muni = self.view.session.municipality_name
        if suffix != ".pdf":
            return _written(
                self,
                "Transmittal",
                path,
                lambda out: export_transmittal_xlsx(t, muni, out),
                direct=direct,
            )
        # Read after the transmittal: the head printed covers the turnover and all before it.
        anchor = take_anchor(self.view.database, self.view.clock)
        written = _written(
            self,
            "Transmittal",
            path,
            lambda out: render_transmittal_pdf(t, muni, out, anchor),
            direct=direct,
        )
        failed = record_anchor(anchor) if written is not None else None
        if failed:
            self.message.setText(failed)
        return written


# --- the reconciliation ------------------------------------------------------------------------


class ReconciliationPage(QWidget):
    def __init__(self, view: TreasurerView) -> None:
        super().__init__(view)
        self.view = view
        today = view.clock.today()
        self.presenter = ReconciliationPresenter(view.backend, today.replace(day=1), today)
        p = self.presenter
        self.start = date_edit(self, "reconFrom")
        self.end = date_edit(self, "reconTo")
        self._default_period: tuple[date, date] | None = None
        self._follow_the_month()
        start_label = QLabel("&From", self)
        start_label.setBuddy(self.start)
        end_label = QLabel("T&o", self)
        end_label.setBuddy(self.end)
        self.show_button = QPushButton("S&how", self)
        self.show_button.setObjectName("showReconciliation")
        self.show_button.clicked.connect(self.load)
        self.pdf_button = QPushButton("P&DF…", self)
        self.pdf_button.clicked.connect(lambda: self.export(".pdf"))
        self.xlsx_button = QPushButton(".xls&x…", self)
        self.xlsx_button.clicked.connect(lambda: self.export(".xlsx"))
        top = QHBoxLayout()
        top.addWidget(start_label)
        top.addWidget(self.start)
        top.addWidget(end_label)
        top.addWidget(self.end)
        top.addWidget(self.show_button)
        top.addStretch(1)
        top.addWidget(self.pdf_button)
        top.addWidget(self.xlsx_button)

        proof = QFrame(self)
        proof.setObjectName("reconProof")
        self.proof_grid = QGridLayout(proof)
        self.proof_grid.setHorizontalSpacing(28)
        self.proof_grid.setVerticalSpacing(4)
        self.proof_labels: dict[str, QLabel] = {}
        self.verdict = _note(self, "reconVerdict")
        self.notes = _note(self)
        self.accounts_model = CellsModel(
            ACCOUNT_COLUMNS, p.account_rows, (3, 4, 5, 6, 7, 8, 9), self
        )
        self.accounts = _table(self, "reconAccounts", self.accounts_model, 1)
        self.error = _note(self, "errorText")

        summary = QHBoxLayout()
        summary.addWidget(proof)
        side = QVBoxLayout()
        side.addWidget(self.verdict)
        side.addWidget(self.notes)
        side.addStretch(1)
        summary.addLayout(side, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 10, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.error)
        layout.addLayout(summary)
        layout.addWidget(section_title("GL accounts: opening, movements, closing"))
        layout.addWidget(self.accounts, 1)

    def _follow_the_month(self) -> None:
        """The current month to date, read from the clock when the page is shown: a window
        left open past a month end opens on the new month. A period the treasurer chose stays."""
        shown = (from_qdate(self.start.date()), from_qdate(self.end.date()))
        if self._default_period is not None and shown != self._default_period:
            return
        today = self.view.clock.today()
        self._default_period = (today.replace(day=1), today)
        self.start.setDate(to_qdate(self._default_period[0]))
        self.end.setDate(to_qdate(self._default_period[1]))

    def load(self) -> None:
        self._follow_the_month()
        p = self.presenter
        p.start, p.end = from_qdate(self.start.date()), from_qdate(self.end.date())
        try:
            p.load()
        except DeskError as e:
            self.error.setText(str(e))
            self.error.setVisible(True)
            return
        self.error.setVisible(False)
        while self.proof_grid.count():
            item = self.proof_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.proof_labels = {}
        parent = self.proof_grid.parentWidget()
        for r, (label, amount, total) in enumerate(p.proof()):
            name = QLabel(label, parent)
            value = QLabel(amount, parent)
            value.setAlignment(_RIGHT)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            if total:
                _bold(name)
                _bold(value)
            self.proof_grid.addWidget(name, r, 0)
            self.proof_grid.addWidget(value, r, 1)
            self.proof_labels[label] = value
        self.verdict.setText(p.verdict)
        result = p.result
        self.verdict.setProperty("ok", bool(result and result.balanced and result.gl_balanced))
        self.verdict.style().unpolish(self.verdict)
        self.verdict.style().polish(self.verdict)
        self.notes.setText(p.notes)
        self.accounts_model.reload()

    def figure(self, label: str) -> str:
        """The amount shown next to a line of the proof (tests read it by its label)."""
        return self.proof_labels[label].text()

    def export(self, suffix: str, *, direct: bool = False) -> Path | None:
        from reports.cash_reports import export_reconciliation_xlsx, render_reconciliation_pdf

        if self.presenter.result is None:
            self.load()
        r = self.presenter.result
        if r is None:
            return None
        name = f"reconciliation-{r.start.isoformat()}-{r.end.isoformat()}{suffix}"
        path = _save_as(self, "Save the reconciliation", name, suffix)
        if path is None:
            return None
        session = self.view.session
        muni = session.municipality_name
        if suffix == ".xlsx":
            return write_and_open(
                self, "Reconciliation", path, lambda out: export_reconciliation_xlsx(r, muni, out)
            )
        letterhead = self.view.letterhead()
        return _written(
            self,
            "Reconciliation",
            path,
            lambda out: render_reconciliation_pdf(r, muni, letterhead, out),
            direct=direct,
        )


# --- refunds and credits -----------------------------------------------------------------------


class RefundsPage(QWidget):
    def __init__(self, view: TreasurerView) -> None:
        super().__init__(view)
        self.view = view
        actor = view.session.actor
        self.presenter = RefundPresenter(view.backend, view.clock.today())
        p = self.presenter
        self.permit = QLineEdit(self)
        self.permit.setObjectName("refundPermit")
        self.permit.setPlaceholderText("Permit number, or #12 for an application")
        self.permit.returnPressed.connect(self.find_permit)
        self.find_button = QPushButton("F&ind", self)
        self.find_button.clicked.connect(self.find_permit)
        self.found = _note(self)
        self.ground = QComboBox(self)
        self.ground.setObjectName("refundGround")
        # Only the grounds this municipality's ordinance has (the plumbing void: 15.1.42).
        for g in view.backend.refund_grounds():
            self.ground.addItem(g.label, g.value)
        self.ground.setCurrentIndex(max(0, self.ground.findData(p.ground.value)))
        self.ground.currentIndexChanged.connect(self._ground_changed)
        # 15.1.42: the inspections made come from the register; the treasurer cannot type them.
        self.inspections = _note(self, "inspectionsMade")
        self.inspections.setWordWrap(False)  # one line; a wrapped row kept its first height
        self.filed = QCheckBox("Filed with the state on", self)
        self.filed_on = date_edit(self, "filedOn")
        self.filed_on.setDate(to_qdate(view.clock.today()))
        self.quote_button = QPushButton("&Quote", self)
        self.quote_button.setObjectName("refundQuote")
        self.quote_button.clicked.connect(self.quote)
        self.quote_label = _note(self, "refundQuoteText")
        self.check_number = QLineEdit(self)
        self.check_number.setObjectName("refundCheckNumber")
        self.check_date = date_edit(self, "refundCheckDate")
        self.check_date.setDate(to_qdate(view.clock.today()))
        self.refund_button = QPushButton("&Refund", self)
        self.refund_button.setObjectName("refundButton")
        self.refund_button.clicked.connect(self.refund)
        _gate(self.refund_button, actor, Permission.REFUND)
        self.message = _note(self, "refundMessage")

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        for wide in (self.permit, self.ground, self.check_number):
            wide.setMinimumWidth(260)
        # Its placeholder says what to type ('#12 for an application'): read whole, not cut.
        hint = self.permit.fontMetrics().horizontalAdvance(self.permit.placeholderText())
        self.permit.setMinimumWidth(max(260, hint + 40))
        # Fields stay at their size hint, and a wrapped note's hint is narrow: give the notes
        # the width of the form's widest field, so they read as sentences, not a column.
        for note in (self.found, self.quote_label, self.message):
            note.setMinimumWidth(420)
        find_row = QHBoxLayout()
        find_row.addWidget(self.permit, 1)
        find_row.addWidget(self.find_button)
        permit_label = QLabel("&Permit", self)
        permit_label.setBuddy(self.permit)
        form.addRow(permit_label, find_row)
        form.addRow("", self.found)
        form.addRow("&Ground", self.ground)
        form.addRow("Inspections made", self.inspections)
        filed_row = QHBoxLayout()
        filed_row.addWidget(self.filed)
        filed_row.addWidget(self.filed_on)
        filed_row.addStretch(1)
        form.addRow("Act 211", filed_row)
        form.addRow("", _left(self.quote_button))
        form.addRow("", self.quote_label)
        form.addRow("Refund check &no.", self.check_number)
        form.addRow("Check &date", self.check_date)
        form.addRow("", _left(self.refund_button))
        form.addRow("", self.message)

        self.credits_model = CellsModel(
            CREDIT_COLUMNS, lambda: [p.credit_cells(c) for c in p.credits], (1,), self
        )
        self.credits = _table(self, "creditsTable", self.credits_model, 0)
        self.credit_amount = QLineEdit(self)
        self.credit_amount.setPlaceholderText("all of it")
        self.credit_amount.setMinimumWidth(90)
        self.credit_check = QLineEdit(self)
        self.credit_check.setPlaceholderText("check no.")
        self.credit_check.setMinimumWidth(90)
        self.credit_date = date_edit(self, "creditCheckDate")
        self.credit_date.setDate(to_qdate(view.clock.today()))
        self.credit_button = QPushButton("Refund cr&edit", self)
        self.credit_button.clicked.connect(self.refund_credit)
        _gate(self.credit_button, actor, Permission.REFUND)
        self.credit_message = _note(self)
        # Two short rows: one row of the five did not fit beside the refund form at 1280 px.
        credit_row = QGridLayout()
        credit_row.addWidget(QLabel("Amount", self), 0, 0)
        credit_row.addWidget(self.credit_amount, 0, 1)
        credit_row.addWidget(self.credit_check, 0, 2)
        credit_row.addWidget(QLabel("Check date", self), 1, 0)
        credit_row.addWidget(self.credit_date, 1, 1)
        credit_row.addWidget(self.credit_button, 1, 2)
        credit_row.setColumnStretch(3, 1)

        left = QVBoxLayout()
        left.addWidget(section_title("Refund a permit's fees"))
        left.addLayout(form)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(section_title("Payers' credits on account"))
        right.addWidget(self.credits, 1)
        right.addLayout(credit_row)
        right.addWidget(self.credit_message)
        # Side by side at 1366 px; the credits under the refund form at 1024.
        self.parts = Reflow(holder(self, left), holder(self, right), self, stretch=(3, 2))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 10, 0, 0)
        layout.addWidget(self.parts)
        self._ground_changed()

    def load(self) -> None:
        self.presenter.today = self.view.clock.today()
        self.presenter.load_credits()
        self.credits_model.reload()

    def _ground_changed(self) -> None:
        ground = RefundGround(self.ground.currentData())
        self.presenter.ground = ground
        self.inspections.setEnabled(ground is RefundGround.PLUMBING_VOID)
        self.filed.setEnabled(ground is RefundGround.ACT_211)
        self.filed_on.setEnabled(ground is RefundGround.ACT_211)
        self.presenter.decision = None
        self.quote_label.setText("")

    def find_permit(self) -> bool:
        found = self.presenter.find(self.permit.text())
        self.found.setText(self.presenter.message)
        self.inspections.setText(self.presenter.inspections_text)
        self.quote_label.setText("")
        return found

    def _facts(self) -> None:
        p = self.presenter
        p.ground = RefundGround(self.ground.currentData())
        p.filed_on = from_qdate(self.filed_on.date()) if self.filed.isChecked() else None

    def quote(self) -> bool:
        self._facts()
        try:
            if self.presenter.permit is None and not self.find_permit():
                return False
            self.presenter.quote()
        except DeskError as e:
            self.quote_label.setText(str(e))
            return False
        self.quote_label.setText(self.presenter.quote_text)
        return True

    def refund(self) -> bool:
        self._facts()
        try:
            self.presenter.refund(self.check_number.text(), from_qdate(self.check_date.date()))
        except DeskError as e:
            self.message.setText(str(e))
            return False
        self.message.setText(self.presenter.message)
        self.found.setText("")
        self.quote_label.setText("")
        self.view.changed()
        return True

    def refund_credit(self) -> bool:
        row = self.credits.currentIndex().row()
        try:
            text = self.presenter.refund_credit(
                row,
                self.credit_amount.text(),
                self.credit_check.text(),
                from_qdate(self.credit_date.date()),
            )
        except DeskError as e:
            self.credit_message.setText(str(e))
            return False
        self.credits_model.reload()
        self.credit_message.setText(text)
        self.view.changed()
        return True


# --- returned checks --------------------------------------------------------------------------


class ReturnedCheckPage(QWidget):
    def __init__(self, view: TreasurerView) -> None:
        super().__init__(view)
        self.view = view
        self.presenter = ReturnedCheckPresenter(view.backend)
        self.number = QLineEdit(self)
        self.number.setObjectName("returnedReceipt")
        self.number.setPlaceholderText("Receipt number, e.g. 2026-0042")
        self.number.returnPressed.connect(self.find_receipt)
        self.find_button = QPushButton("F&ind", self)
        self.find_button.clicked.connect(self.find_receipt)
        self.found = _note(self)
        self.notice = QPlainTextEdit(self)
        self.notice.setObjectName("bankNotice")
        self.notice.setPlaceholderText("The bank's notice: date, reference, reason")
        self.notice.setTabChangesFocus(True)
        self.notice.setFixedHeight(self.notice.fontMetrics().lineSpacing() * 4 + 14)
        self.record_button = QPushButton("&Record returned check", self)
        self.record_button.setObjectName("recordReturned")
        self.record_button.clicked.connect(self.record)
        enable(
            self.record_button,
            _not_allowed(view.session.actor, Permission.RECORD_RETURNED_CHECK)
            or "Find the receipt of the returned check first.",
        )
        self.message = _note(self, "returnedMessage")
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        row = QHBoxLayout()
        row.addWidget(self.number, 1)
        row.addWidget(self.find_button)
        label = QLabel("Recei&pt", self)
        label.setBuddy(self.number)
        form.addRow(label, row)
        form.addRow("", self.found)
        notice_label = QLabel("Bank &notice", self)
        notice_label.setBuddy(self.notice)
        form.addRow(notice_label, self.notice)
        form.addRow("", _left(self.record_button))
        form.addRow("", self.message)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 10, 0, 0)
        layout.addWidget(section_title("A check that came back unpaid (NSF)"))
        layout.addWidget(
            QLabel(
                "The payment is reversed: its permits owe the money again. The returned check is "
                "deducted at the next turnover.",
                self,
            )
        )
        layout.addLayout(form)
        layout.addStretch(1)

    def load(self) -> None:
        pass

    def find_receipt(self) -> bool:
        found = self.presenter.find(self.number.text())
        self.found.setText(self.presenter.message)
        enable(
            self.record_button,
            _not_allowed(self.view.session.actor, Permission.RECORD_RETURNED_CHECK)
            or (None if self.presenter.can_record else self.presenter.message or "No receipt."),
        )
        return found

    def record(self) -> bool:
        try:
            text = self.presenter.record(self.notice.toPlainText())
        except DeskError as e:
            self.message.setText(str(e))
            return False
        self.message.setText(text)
        self.found.setText(self.presenter.message)
        enable(self.record_button, "Recorded; find the receipt of another returned check.")
        self.view.changed()
        return True


# --- the section ---------------------------------------------------------------------------------


class TreasurerView(QWidget):
    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("treasurerView")
        self.database = database
        self.session = session
        self.clock = clock
        self.backend = SqlTreasury(database, clock, session)
        self.loaded = False
        title = QLabel(SECTION_TITLE, self)
        title.setObjectName("viewHeading")
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("treasurerPages")
        self.tabs.setDocumentMode(True)
        self.close_page = DailyClosePage(self)
        self.turnovers_page = TurnoversPage(self)
        self.reconciliation_page = ReconciliationPage(self)
        self.refunds_page = RefundsPage(self)
        self.returned_page = ReturnedCheckPage(self)
        self.pages: dict[str, Any] = {
            "close": self.close_page,
            "turnovers": self.turnovers_page,
            "reconciliation": self.reconciliation_page,
            "refunds": self.refunds_page,
            "returned": self.returned_page,
        }
        for key, text in (
            ("close", "Daily close"),
            ("turnovers", "Turnovers"),
            ("reconciliation", "Reconciliation"),
            ("refunds", "Refunds and credits"),
            ("returned", "Returned check"),
        ):
            self.tabs.addTab(self.pages[key], text)
        self.tabs.currentChanged.connect(lambda _i: self._page_shown())
        self._dirty: set[str] = set(PAGES)
        # Narrow enough for a 1024-pixel screen: the pages scroll down, never sideways.
        body = scrolled_body(self, "treasurerBody", 600, 600)
        body.addWidget(title)
        body.addWidget(self.tabs, 1)

    def load(self) -> None:
        self._dirty = set(PAGES)
        self._page_shown()
        self.loaded = True

    def _page_shown(self) -> None:
        key = self.current_page()
        # Only the page shown sets how narrow the section may be: the daily close fits a
        # 1024-pixel screen even though the refunds page needs more.
        for name, page in self.pages.items():
            across = QSizePolicy.Policy.Preferred if name == key else QSizePolicy.Policy.Ignored
            page.setSizePolicy(across, QSizePolicy.Policy.Preferred)
        if key in self._dirty:
            self._dirty.discard(key)
            try:
                self.pages[key].load()
            except DeskError as e:
                dialogs.warn(self, SECTION_TITLE, str(e))

    def changed(self) -> None:
        """Money moved: the other pages read the register again when next shown."""
        self._dirty = set(PAGES) - {self.current_page()}

    def current_page(self) -> str:
        return PAGES[self.tabs.currentIndex()]

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print): the page's report (the daily cash report, the transmittal
        chosen, the reconciliation) straight to the print dialog."""
        export = getattr(self.pages[self.current_page()], "export", None)
        return callable(export) and export(".pdf", direct=True) is not None

    def show_page(self, key: str) -> Any:
        self.tabs.setCurrentIndex(PAGES.index(key))
        self._page_shown()
        return self.pages[key]

    def show_place(self, place: str) -> None:
        """A Needs attention item: "close:<drawer>:<yyyy-mm-dd>" opens that drawer's day,
        "turnover:<id>" the Turnovers page with that turnover chosen."""
        kind, _, rest = place.partition(":")
        if kind == TURNOVER_PLACE and rest.isdigit():
            turnovers = self.show_page("turnovers")
            rows = [t.turnover_id for t in turnovers.presenter.turnovers]
            if int(rest) in rows:
                turnovers.turnovers.selectRow(rows.index(int(rest)))
            return
        drawer, _, day = rest.rpartition(":")
        if kind != CLOSE_PLACE or not day:
            return
        page = self.show_page("close")
        page.drawer.setCurrentText(drawer)
        page.presenter.drawer = drawer
        target = date.fromisoformat(day)
        if from_qdate(page.day.date()) == target:
            page.load()  # the same day: no dateChanged to read the drawer chosen
        else:
            page.show_day(target)

    def show_latest_day(self) -> date:
        """The daily close of today, or of the latest day with receipts when today has none."""
        from db import cash_queries

        today = self.clock.today()
        with self.database.read() as conn:
            latest = cash_queries.last_receipt_day(conn, self.session.municipality_id, today)
        day = latest or today
        self.show_page("close")
        self.close_page.show_day(day)
        return day

    def letterhead(self) -> Sequence[str]:
        from db import queries

        with self.database.read() as conn:
            return queries.municipality_letterhead(conn, self.session.municipality_id)
