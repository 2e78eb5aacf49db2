"""The Fees & Payments tab: the fee lines assessed on the permit with the schedule
version that priced them, the lines added or corrected since (each with its reason and who),
the receipts that paid the permit, the refunds, and the totals down to the balance due.

"Add fee…" adds a line after assessment (re-inspection, failure to call, a double fee found
later) through add_fee_line with its reason; "Take payment…" opens the Cashier section with
this permit on the payment (the main window connects `take_payment`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db.permit_queries import permit_fee_lines
from desk.domain.cashiering import PermitAccount
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import PermitDetail
from desk.errors import DeskError
from desk.fees.model import ScheduleVersion
from desk.services import cashiering, fees
from ui import dialogs
from ui.models.base import Index, PresenterTableModel
from ui.permit.actions import ActionDialog, _text_box, exec_dialog
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.permit_fees import (
    AMOUNT_COLUMN,
    NO_FEES,
    PAYMENT_AMOUNT_COLUMN,
    PAYMENT_COLUMNS,
    QUANTITY_COLUMN,
    REFUND_AMOUNT_COLUMN,
    REFUND_COLUMNS,
    PermitFeesPresenter,
    fee_item_choices,
    fee_quote_item,
)
from ui.views.common import page_scroll, read_only_table, section_title

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
TITLE = "Fees && Payments"  # a tab's "&" marks a mnemonic: "&&" shows one "&"


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
            if row.version:
                return f"{row.description}\nPriced with {row.version}"
            return row.description
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


class _Rows:
    """Rows of plain cells for a PresenterTableModel (payments, refunds)."""

    def __init__(self, columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> None:
        self.columns = columns
        self.rows = rows


class CellsTableModel(PresenterTableModel[_Rows]):
    def __init__(self, money_column: int, parent: Any = None) -> None:
        super().__init__(None, parent)
        self.money_column = money_column

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == self.money_column:
            return _RIGHT
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.TextAlignmentRole
            and orientation == Qt.Orientation.Horizontal
            and section == self.money_column
        ):
            return _RIGHT
        return super().headerData(section, orientation, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags


def _fit(table: QTableView, stretch: int, max_height: int = 360) -> None:
    """Columns fitted to their contents, one stretched; the table as tall as its rows."""
    model = table.model()
    header = table.horizontalHeader()
    header.setStretchLastSection(False)
    for col in range(model.columnCount()):
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    rows = model.rowCount()
    height = header.sizeHint().height() + rows * table.verticalHeader().defaultSectionSize()
    table.setFixedHeight(min(height + 2 * table.frameWidth() + 2, max_height))


class AddFeeDialog(ActionDialog):
    """A fee charged after assessment, priced with the schedule in effect today, with its
    reason (kept with the line and in the permit's history)."""

    def __init__(
        self, context: PermitContext, version: ScheduleVersion, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            context,
            "Add a fee",
            f"Priced with the fee schedule “{version.label}”. The fee is a new line on the "
            "permit with your name and the reason; nothing assessed before is changed.",
            "A&dd fee",
            parent,
        )
        self.version = version
        self.items = fee_item_choices(version)
        self.item = QComboBox(self)
        self.item.setObjectName("feeItem")
        for code, text in self.items:
            self.item.addItem(text, code)
        self.quantity = QLineEdit(self)
        self.quantity.setObjectName("feeQuantity")
        self.amount = QLineEdit(self)
        self.amount.setObjectName("feeAmount")
        self.reason = _text_box(self, "feeReason", "e.g. re-inspection of the footings, 03/04")
        self.add_field("&Fee item:", self.item, "code")
        self.add_field("&Quantity:", self.quantity, "quantity")
        self.add_field("A&mount:", self.amount, "amount")
        self.add_field("&Reason:", self.reason, "reason")
        self.item.currentIndexChanged.connect(self._item_changed)
        self.added = ""
        reinspection = self.item.findData("REINSPECTION")
        if reinspection >= 0:
            self.item.setCurrentIndex(reinspection)
        self._item_changed()

    def _item_changed(self) -> None:
        item = self.version.item(str(self.item.currentData() or ""))
        takes = item is not None and item.kind.takes_quantity
        self.quantity.setEnabled(takes)
        self.quantity.setPlaceholderText("" if takes else "not used by this item")
        self.amount.setPlaceholderText("only for an amount entered or at cost")

    def run(self) -> None:
        item = fee_quote_item(
            self.version,
            str(self.item.currentData() or ""),
            self.quantity.text(),
            self.amount.text(),
        )
        added = cashiering.add_fee_line(
            self.context.database.uow(),
            self.context.clock,
            self.context.session.actor,
            self.context.permit_id,
            item,
            self.reason.toPlainText(),
        )
        self.added = f"Added {item.code}: ${added:,.2f}."


class FeesTab(PermitTab):
    key = "fees"
    title = TITLE
    take_payment = Signal(int)  # permit id: the main window opens the Cashier with it

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: PermitFeesPresenter | None = None
        self.model = FeeLinesTableModel(None, self)
        self.payments_model = CellsTableModel(PAYMENT_AMOUNT_COLUMN, self)
        self.refunds_model = CellsTableModel(REFUND_AMOUNT_COLUMN, self)

        actor = context.session.actor
        self.balance_label = QLabel(self)
        self.balance_label.setObjectName("balanceText")
        self.add_fee_button = QPushButton("A&dd fee…", self)
        self.add_fee_button.setObjectName("addFee")
        self.add_fee_button.setVisible(allowed(actor, Permission.ADD_FEE_LINE))
        self.add_fee_button.clicked.connect(self.open_add_fee)
        self.pay_button = QPushButton("Take pa&yment…", self)
        self.pay_button.setObjectName("takePayment")
        self.pay_button.setVisible(allowed(actor, Permission.TAKE_PAYMENT))
        self.pay_button.clicked.connect(lambda: self.take_payment.emit(self.context.permit_id))
        bar = QHBoxLayout()
        bar.addWidget(self.balance_label, 1)
        bar.addWidget(self.add_fee_button)
        bar.addWidget(self.pay_button)

        self.source_label = QLabel(self)
        self.source_label.setObjectName("noteText")
        self.source_label.setWordWrap(True)
        self.table = read_only_table(self, "feeLinesTable", self.model)

        # The totals, right-aligned under the Amount column, down to the balance due.
        self.totals_box = QWidget(self)
        self.totals_grid = QGridLayout(self.totals_box)
        self.totals_grid.setContentsMargins(0, 4, 8, 0)
        self.totals_grid.setHorizontalSpacing(24)
        self.totals_grid.setVerticalSpacing(3)
        self.total_labels: dict[str, QLabel] = {}

        self.payments_title = section_title("Payments")
        self.payments_table = read_only_table(self, "paymentsTable", self.payments_model)
        self.refunds_title = section_title("Refunds")
        self.refunds_table = read_only_table(self, "refundsTable", self.refunds_model)

        page = QWidget(self)
        page_layout = QVBoxLayout(page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.setSpacing(8)
        page_layout.addWidget(self.source_label)
        page_layout.addWidget(self.table)
        page_layout.addWidget(self.totals_box)
        page_layout.addWidget(self.payments_title)
        page_layout.addWidget(self.payments_table)
        page_layout.addWidget(self.refunds_title)
        page_layout.addWidget(self.refunds_table)
        page_layout.addStretch(1)
        scroll = page_scroll(self)
        scroll.setWidget(page)
        self.table_page = scroll

        self.empty_label = QLabel(NO_FEES, self)
        self.empty_label.setObjectName("emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(scroll)
        self.pages.addWidget(self.empty_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addLayout(bar)
        layout.addWidget(self.pages)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        account: PermitAccount | None
        try:
            account = cashiering.permit_account(
                self.context.database.uow(), self.context.clock, detail.id
            )
        except DeskError:
            account = None  # e.g. no GL accounts: the fees still show
        self.presenter = PermitFeesPresenter(permit_fee_lines(conn, detail.id), account)
        self.model.set_presenter(self.presenter)
        self.balance_label.setText(self.presenter.balance_text)
        if self.presenter.empty:
            self.pages.setCurrentWidget(self.empty_label)
            return
        self.source_label.setText(self.presenter.source)
        self.source_label.setVisible(bool(self.presenter.source))
        _fit(self.table, 1, 420)
        self._show_totals()
        self.payments_model.set_presenter(_Rows(PAYMENT_COLUMNS, self.presenter.payments))
        self.refunds_model.set_presenter(_Rows(REFUND_COLUMNS, self.presenter.refunds))
        for title, table, rows, stretch in (
            (self.payments_title, self.payments_table, self.presenter.payments, 2),
            (self.refunds_title, self.refunds_table, self.presenter.refunds, 4),
        ):
            title.setVisible(bool(rows))
            table.setVisible(bool(rows))
            if rows:
                _fit(table, stretch, 240)
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

    def add_fee_dialog(self) -> AddFeeDialog | None:
        try:
            schedule = fees.fee_schedule(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.municipality_id,
            )
        except DeskError as e:
            dialogs.warn(self, "Add a fee", str(e))
            return None
        version = schedule.version_on(self.context.clock.today())
        if version is None:
            dialogs.warn(self, "Add a fee", "No fee schedule is in effect today.")
            return None
        return AddFeeDialog(self.context, version, self)

    def open_add_fee(self) -> bool:
        dialog = self.add_fee_dialog()
        if dialog is None or not exec_dialog(dialog):
            return False
        window = self.window()
        if hasattr(window, "reload"):
            window.reload()
        return True
