"""The Cashier section: find the permits a payer pays (number, address, owner or
contractor), see what each owes, type each permit's share, the payer and the tender, take the
payment and print its numbered receipt; below, the day's receipts with Void… and Reprint….

The whole flow works from the keyboard: type in Search and press Enter to go to the results;
Enter (or Space) adds the highlighted permit and returns to Search for the next one; Tab moves
on to the shares (type over an amount; Delete removes a permit), the payer and the tender;
Ctrl+Enter takes the payment and, with "Print receipt" ticked (remembered on this computer),
files its receipt and opens the print dialog at once; Ctrl+P prints the receipt chosen below,
else the last one taken; Enter on "Print receipt…" files and shows the PDF.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    QStringListModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QKeyEvent, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QCompleter,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.domain.cashiering import PaymentMethod, ReceiptView
from desk.errors import DeskError, ValidationError
from ui import dialogs, settings
from ui.columns import fit_to_width
from ui.exports import RECEIPTS, print_now, save_and_open
from ui.presenters.cashier import (
    AMOUNT_COLUMN,
    DUE_COLUMN,
    LINE_COLUMNS,
    LINE_MONEY,
    METHODS,
    RECEIPT_COLUMNS,
    RECEIPT_MONEY,
    RESULT_COLUMNS,
    RESULT_MONEY,
    CashierPresenter,
    SqlCashier,
    method_fields,
    receipt_file_name,
)
from ui.presenters.session import Session
from ui.views.common import date_edit, from_qdate, page_scroll, section_title, to_qdate

SECTION_TITLE = "Cashier"
Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
MUTED = QColor(138, 146, 156)
DUE = QColor(150, 40, 30)
SEARCH_DELAY_MS = 250


def ask_text(parent: QWidget | None, title: str, label: str) -> str | None:
    """A reason typed by the clerk (a void's), or None when cancelled. Tests patch this."""
    text, ok = QInputDialog.getMultiLineText(parent, title, label)
    return str(text) if ok else None


def _receipt_writer(view: ReceiptView) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        from reports.receipt import render_receipt  # reportlab: load on first print

        render_receipt(view, path)

    return write


def save_receipt(parent: QWidget, view: ReceiptView) -> Path | None:
    """File the receipt as a PDF in the document folder and show it (to print or save as)."""
    return save_and_open(
        parent,
        "Print receipt",
        "Save the receipt as PDF",
        receipt_file_name(view),
        _receipt_writer(view),
        what="The receipt",
        subfolder=RECEIPTS,
    )


def print_receipt_now(parent: QWidget, view: ReceiptView) -> Path | None:
    """File the receipt and go straight to the print dialog."""
    return print_now(
        parent,
        "Print receipt",
        receipt_file_name(view),
        _receipt_writer(view),
        RECEIPTS,
        "The receipt",
    )


class CellsModel(QAbstractTableModel):
    """A table over rows of cells the presenter computes; money columns right-aligned; one
    column may be edited (the shares)."""

    def __init__(
        self,
        columns: Sequence[str],
        rows: Callable[[], Sequence[Sequence[str]]],
        money: Sequence[int] = (),
        parent: Any = None,
        *,
        editable: int | None = None,
        on_edit: Callable[[int, str], None] | None = None,
        muted: Callable[[int], bool] | None = None,
        warn: Callable[[int, int], bool] | None = None,
        tooltip: Callable[[int], str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)
        self._rows = rows
        self.money = frozenset(money)
        self.editable = editable
        self.on_edit = on_edit
        self.muted = muted
        self.warn = warn
        self.tooltip = tooltip
        self.cache: list[Sequence[str]] = []

    def reload(self) -> None:
        self.beginResetModel()
        self.cache = list(self._rows())
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.cache)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section in self.money:
            return _RIGHT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.cache):
            return None
        r, c = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self.cache[r][c]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(r) if self.tooltip is not None else self.cache[r][c]
        if role == Qt.ItemDataRole.TextAlignmentRole and c in self.money:
            return _RIGHT
        if role == Qt.ItemDataRole.ForegroundRole:
            if self.warn is not None and self.warn(r, c):
                return DUE
            if self.muted is not None and self.muted(r):
                return MUTED
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (
            role != Qt.ItemDataRole.EditRole
            or not index.isValid()
            or index.column() != self.editable
            or self.on_edit is None
        ):
            return False
        self.on_edit(index.row(), str(value))
        self.cache = list(self._rows())
        self.dataChanged.emit(index, index)
        return True

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )
        if index.column() == self.editable:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags


class _KeyTable(QTableView):
    """Enter or Space on a row (`activated_row`); Delete (`delete_row`)."""

    activated_row = Signal(int)
    delete_row = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        row = self.currentIndex().row()
        key = event.key()
        if (
            key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
            and row >= 0
            and self.state() != QAbstractItemView.State.EditingState
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.activated_row.emit(row)
            return
        if key == Qt.Key.Key_Delete and row >= 0:
            self.delete_row.emit(row)
            return
        super().keyPressEvent(event)


def _table(parent: QWidget, name: str, model: QAbstractTableModel, *stretch: int) -> _KeyTable:
    table = _KeyTable(parent)
    table.setObjectName(name)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setAlternatingRowColors(True)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(parent.fontMetrics().height() + 10)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    fit_to_width(table, stretch)  # these share the spare width; long text is elided
    return table


# Below this width (a 1024-pixel screen, less the section list) the payment panel goes under the
# permits instead of beside them, and the page scrolls down rather than sideways.
SIDE_BY_SIDE = 960
MIN_WIDTH, MIN_HEIGHT = 560, 620


class _Body(QWidget):
    """A section's page: at least its least size, and taller where its contents need it (a
    fixed least size would squash a page that stacks its parts on a narrow screen)."""

    def __init__(self, parent: QWidget, least: QSize) -> None:
        super().__init__(parent)
        self.least = least

    def minimumSizeHint(self) -> QSize:
        return super().minimumSizeHint().expandedTo(self.least)

    def sizeHint(self) -> QSize:
        return super().sizeHint().expandedTo(self.least)


def scrolled_body(view: QWidget, name: str, width: int, height: int) -> QVBoxLayout:
    """The section's page, at least `width` × `height`, in a scroll area filling `view`: on a
    small screen the section scrolls instead of forcing the main window wider than the screen.
    Returns the page's layout, to fill."""
    body = _Body(view, QSize(width, height))
    body.setObjectName(name)
    body_layout = QVBoxLayout(body)
    body_layout.setContentsMargins(16, 12, 16, 12)
    scroll = page_scroll(view)
    scroll.setWidget(body)
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(scroll)
    return body_layout


class CashierView(QWidget):
    paid = Signal(list)  # the permit ids a payment went to (their windows refresh)

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("cashierView")
        self.clock = clock
        self.loaded = False
        self.presenter = CashierPresenter(
            SqlCashier(database, clock, session),
            session.municipality_id,
            session.municipality_key,
            clock.today(),
        )
        p = self.presenter
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.search_now)

        title = QLabel(SECTION_TITLE, self)
        title.setObjectName("viewHeading")
        self.drawer = QComboBox(self)
        self.drawer.setObjectName("drawer")
        self.drawer.setEditable(True)
        self.drawer.setMinimumContentsLength(10)
        self.drawer.currentTextChanged.connect(self._drawer_changed)
        drawer_label = QLabel("&Drawer", self)
        drawer_label.setBuddy(self.drawer)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        top.addWidget(drawer_label)
        top.addWidget(self.drawer)

        # --- left: find the permits, and the permits this payment is for -------------------
        self.search_edit = QLineEdit(self)
        self.search_edit.setObjectName("searchBox")
        self.search_edit.setPlaceholderText("Permit number, address, owner or contractor")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.textEdited.connect(lambda _t: self._search_timer.start())
        self.search_edit.returnPressed.connect(self._search_entered)
        search_label = QLabel("&Search", self)
        search_label.setBuddy(self.search_edit)
        self.owing = QCheckBox("&Owing only", self)
        self.owing.setObjectName("owingOnly")
        self.owing.toggled.connect(self._owing_toggled)
        self.results_model = CellsModel(
            RESULT_COLUMNS,
            lambda: [r.cells() for r in p.results],
            RESULT_MONEY,
            self,
            warn=lambda r, c: c == DUE_COLUMN and p.results[r].permit.due > 0,
            muted=lambda r: p.results[r].permit.due <= 0,
            tooltip=lambda r: p.results[r].tooltip,
        )
        self.results = _table(self, "cashierResults", self.results_model, 2, 3, 4)
        self.results.activated_row.connect(self.add_result)
        self.results.doubleClicked.connect(lambda i: self.add_result(i.row()))
        self.results_summary = QLabel(p.search_summary, self)
        self.results_summary.setObjectName("countLabel")

        self.lines_model = CellsModel(
            LINE_COLUMNS,
            lambda: [line.cells() for line in p.lines],
            LINE_MONEY,
            self,
            editable=AMOUNT_COLUMN,
            on_edit=self._line_edited,
        )
        self.lines = _table(self, "paymentLines", self.lines_model, 1)
        self.lines.setEditTriggers(
            QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.lines.delete_row.connect(self.remove_line)
        self.lines.activated_row.connect(lambda r: self.lines.edit(self.lines_model.index(r, 3)))
        self.lines.setMaximumHeight(200)
        self.remove_button = QPushButton("Remove permit", self)
        self.remove_button.setToolTip("Remove the selected permit from this payment (Delete)")
        self.remove_button.clicked.connect(
            lambda: self.remove_line(self.lines.currentIndex().row())
        )

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        search_row = QHBoxLayout()
        search_row.addWidget(search_label)
        search_row.addWidget(self.search_edit, 1)
        search_row.addWidget(self.owing)
        left_layout.addLayout(search_row)
        left_layout.addWidget(self.results, 1)
        left_layout.addWidget(self.results_summary)
        lines_head = QHBoxLayout()
        lines_head.addWidget(section_title("This payment is for"), 1)
        lines_head.addWidget(self.remove_button)
        left_layout.addLayout(lines_head)
        left_layout.addWidget(self.lines)

        # --- right: the payer and the tender -----------------------------------------------
        form_box = QFrame(self)
        form_box.setObjectName("paymentForm")
        form = QFormLayout(form_box)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.payer = QLineEdit(self)
        self.payer.setObjectName("payer")
        self.payer.setPlaceholderText("Type a name; pick a party from the list")
        self.payer_model = QStringListModel(self)
        completer = QCompleter(self.payer_model, self.payer)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.payer.setCompleter(completer)
        self.payer.textEdited.connect(self._payer_typed)
        self.payer.textChanged.connect(self._payer_changed)
        self.method = QComboBox(self)
        self.method.setObjectName("method")
        for m in METHODS:
            self.method.addItem(m.label, m.value)
        self.method.currentIndexChanged.connect(self._method_changed)
        self.amount = QLineEdit(self)
        self.amount.setObjectName("amount")
        self.amount.setPlaceholderText("the shares' total")
        self.amount.textChanged.connect(self._amount_changed)
        self.number = QLineEdit(self)
        self.number.setObjectName("checkNumber")
        self.check_drawer = QLineEdit(self)
        self.check_drawer.setObjectName("checkDrawer")
        self.check_drawer.setPlaceholderText("the payer, unless typed")
        self.bank = QLineEdit(self)
        self.bank.setObjectName("checkBank")
        self.card = QLineEdit(self)
        self.card.setObjectName("cardReference")
        self.card.setPlaceholderText("the terminal's authorization")
        for edit in (self.number, self.check_drawer, self.bank, self.card):
            edit.textChanged.connect(self._tender_typed)
        self.labels: dict[str, QLabel] = {}

        def row(text: str, widget: QWidget, key: str) -> None:
            label = QLabel(text, self)
            label.setBuddy(widget)
            self.labels[key] = label
            form.addRow(label, widget)

        row("&Payer", self.payer, "payer")
        row("&Method", self.method, "method")
        row("&Amount", self.amount, "amount")
        row("Check &no.", self.number, "number")
        row("Name on chec&k", self.check_drawer, "check_drawer")
        row("&Bank", self.bank, "check_bank")
        row("&Card reference", self.card, "card_reference")
        self.credit_label = QLabel(self)
        self.credit_label.setObjectName("noteText")
        self.credit_label.setWordWrap(True)
        self.allocation_label = QLabel(self)
        self.allocation_label.setObjectName("allocationText")
        self.allocation_label.setWordWrap(True)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        self.take_button = QPushButton("Take pa&yment", self)
        self.take_button.setObjectName("takePaymentButton")
        self.take_button.setToolTip("Take the payment and number its receipt (Ctrl+Enter)")
        self.take_button.clicked.connect(self.take_payment)
        self.clear_button = QPushButton("C&lear", self)
        self.clear_button.clicked.connect(self.clear)
        self.result_label = QLabel(self)
        self.result_label.setObjectName("paymentResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.print_after = QCheckBox("Pr&int receipt", self)
        self.print_after.setObjectName("printAfterPayment")
        self.print_after.setToolTip("Print the receipt as soon as the payment is taken")
        self.print_after.setChecked(settings.read_bool(settings.PRINT_RECEIPT, True))
        self.print_after.toggled.connect(lambda on: settings.write(settings.PRINT_RECEIPT, on))
        self.print_button = QPushButton("Print &receipt…", self)
        self.print_button.setObjectName("printReceipt")
        self.print_button.setEnabled(False)
        self.print_button.clicked.connect(lambda: self.print_receipt())
        self.print_button.setAutoDefault(True)

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(section_title("Payment"))
        right_layout.addWidget(form_box)
        right_layout.addWidget(self.credit_label)
        right_layout.addWidget(self.allocation_label)
        right_layout.addWidget(self.error_label)
        buttons = QHBoxLayout()
        buttons.addWidget(self.take_button, 1)
        buttons.addWidget(self.print_after)
        buttons.addWidget(self.clear_button)
        right_layout.addLayout(buttons)
        right_layout.addWidget(self.result_label)
        right_layout.addWidget(self.print_button)
        right_layout.addStretch(1)

        # --- below: the day's receipts -----------------------------------------------------
        self.day = date_edit(self, "receiptsDay")
        self.day.setDate(to_qdate(clock.today()))
        self.day.dateChanged.connect(lambda _d: self.load_receipts())
        self.receipts_model = CellsModel(
            RECEIPT_COLUMNS,
            lambda: [p.receipt_cells(r) for r in p.receipts],
            RECEIPT_MONEY,
            self,
            muted=lambda r: bool(p.receipts[r].status),
        )
        self.receipts = _table(self, "receiptsTable", self.receipts_model, 3)
        self.receipts.setMinimumHeight(140)
        self.receipts_summary = QLabel(self)
        self.receipts_summary.setObjectName("countLabel")
        self.void_button = QPushButton("&Void…", self)
        self.void_button.setObjectName("voidReceipt")
        self.void_button.clicked.connect(self.void_selected)
        self.reprint_button = QPushButton("R&eprint…", self)
        self.reprint_button.setObjectName("reprintReceipt")
        self.reprint_button.clicked.connect(self.reprint_selected)
        receipts_box = QWidget(self)
        receipts_layout = QVBoxLayout(receipts_box)
        receipts_layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(section_title("Receipts"))
        head.addWidget(self.day)
        head.addWidget(self.receipts_summary, 1)
        head.addWidget(self.void_button)
        head.addWidget(self.reprint_button)
        receipts_layout.addLayout(head)
        receipts_layout.addWidget(self.receipts, 1)

        upper = QWidget(self)
        grid = QGridLayout(upper)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(12)
        grid.addWidget(left, 0, 0)
        grid.setColumnStretch(0, 2)
        right.setMinimumWidth(340)
        self._upper, self._left, self._right = grid, left, right
        self._stacked: bool | None = None
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(upper)
        splitter.addWidget(receipts_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        body = scrolled_body(self, "cashierBody", MIN_WIDTH, MIN_HEIGHT)
        body.addLayout(top)
        body.addWidget(splitter, 1)
        page = body.parentWidget()
        assert page is not None
        self._body: QWidget = page
        self._arrange(self.width())

        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(self.take_payment)
        QWidget.setTabOrder(self.search_edit, self.owing)
        QWidget.setTabOrder(self.owing, self.results)
        QWidget.setTabOrder(self.results, self.lines)
        QWidget.setTabOrder(self.lines, self.payer)
        QWidget.setTabOrder(self.payer, self.method)
        QWidget.setTabOrder(self.method, self.amount)
        QWidget.setTabOrder(self.amount, self.number)
        QWidget.setTabOrder(self.number, self.check_drawer)
        QWidget.setTabOrder(self.check_drawer, self.bank)
        QWidget.setTabOrder(self.bank, self.card)
        QWidget.setTabOrder(self.card, self.take_button)
        QWidget.setTabOrder(self.take_button, self.print_after)
        QWidget.setTabOrder(self.print_after, self.print_button)
        self._method_changed()
        self._refresh_form()

    # --- loading ------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(event.size().width())

    def _arrange(self, width: int) -> None:
        """The payment panel beside the permits when there is room, else under them."""
        stacked = width < SIDE_BY_SIDE
        if stacked == self._stacked:
            return
        self._stacked = stacked
        self._upper.removeWidget(self._right)
        if stacked:
            self._upper.addWidget(self._right, 1, 0)
            self._upper.setColumnStretch(1, 0)
            # The permits keep their height; the panel's rows are added below them.
            self._body.setMinimumHeight(MIN_HEIGHT + self._right.sizeHint().height())
        else:
            self._upper.addWidget(self._right, 0, 1)
            self._upper.setColumnStretch(1, 1)
            self._body.setMinimumHeight(MIN_HEIGHT)

    def load(self) -> None:
        """Fill the drawers and today's receipts (the main window calls this on show)."""
        current = self.drawer.currentText() or self.presenter.drawer
        self.drawer.blockSignals(True)
        self.drawer.clear()
        self.drawer.addItems(self.presenter.backend.drawers())
        self.drawer.setCurrentText(current)
        self.drawer.blockSignals(False)
        self.load_receipts()
        if self.presenter.search_text or self.presenter.owing_only:
            self.search_now()
        self.loaded = True

    def focus_search(self) -> None:
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    # --- finding and adding permits ------------------------------------------------------

    def search_now(self) -> None:
        self._search_timer.stop()
        try:
            self.presenter.search(self.search_edit.text())
        except DeskError as e:
            dialogs.warn(self, SECTION_TITLE, str(e))
            return
        self.results_model.reload()
        self.results_summary.setText(self.presenter.search_summary)
        if self.results_model.rowCount():
            self.results.selectRow(0)

    def _search_entered(self) -> None:
        self.search_now()
        if self.results_model.rowCount():
            self.results.setFocus(Qt.FocusReason.TabFocusReason)
            self.results.selectRow(0)

    def _owing_toggled(self, on: bool) -> None:
        self.presenter.owing_only = on
        self.search_now()

    def add_result(self, row: int) -> None:
        if self.presenter.add_result(row) is None:
            return
        self._lines_changed()
        self.focus_search()  # the next permit of the same payment

    def add_permit(self, permit_id: int) -> bool:
        """Put a permit on the payment (the permit window's "Take payment…")."""
        line = self.presenter.add_permit_id(permit_id)
        if line is None:
            return False
        self._lines_changed()
        self.lines.setFocus(Qt.FocusReason.OtherFocusReason)
        self.lines.setCurrentIndex(self.lines_model.index(len(self.presenter.lines) - 1, 3))
        return True

    def remove_line(self, row: int) -> None:
        self.presenter.remove(row)
        self._lines_changed()

    def _line_edited(self, row: int, text: str) -> None:
        self.presenter.set_line_amount(row, text)
        self._refresh_form()

    def _lines_changed(self) -> None:
        self.lines_model.reload()
        if self.payer.text() != self.presenter.payer_name:
            self.payer.setText(self.presenter.payer_name)
        self._refresh_form()

    # --- the form ------------------------------------------------------------------------

    def _drawer_changed(self, text: str) -> None:
        self.presenter.drawer = text.strip()

    def _payer_typed(self, text: str) -> None:
        self.payer_model.setStringList(self.presenter.find_payers(text))

    def _payer_changed(self, text: str) -> None:
        self.presenter.set_payer(text)
        if self.presenter.payer_party_id is not None and self.payer.text() != (
            self.presenter.payer_name
        ):
            # A party picked from the list: show its name alone.
            QTimer.singleShot(0, lambda: self.payer.setText(self.presenter.payer_name))
        self._refresh_form()

    def selected_method(self) -> PaymentMethod:
        return PaymentMethod(self.method.currentData())

    def _method_changed(self) -> None:
        method = self.selected_method()
        self.presenter.tender.method = method
        shown = set(method_fields(method))
        self.labels["number"].setText(
            "Money order &no." if method is PaymentMethod.MONEY_ORDER else "Check &no."
        )
        number_shown = bool(shown & {"check_number", "money_order_number"})
        for key, widget in (
            ("number", self.number),
            ("check_drawer", self.check_drawer),
            ("check_bank", self.bank),
            ("card_reference", self.card),
        ):
            visible = number_shown if key == "number" else key in shown
            widget.setVisible(visible)
            self.labels[key].setVisible(visible)
        self._tender_typed()

    def _amount_changed(self, text: str) -> None:
        self.presenter.tender.amount_text = text
        self._refresh_form()

    def _tender_typed(self) -> None:
        t = self.presenter.tender
        if t.method is PaymentMethod.MONEY_ORDER:
            t.money_order_number, t.check_number = self.number.text(), ""
        else:
            t.check_number, t.money_order_number = self.number.text(), ""
        t.check_drawer = self.check_drawer.text()
        t.check_bank = self.bank.text()
        t.card_reference = self.card.text()

    def _refresh_form(self) -> None:
        p = self.presenter
        self.allocation_label.setText(p.allocation_summary)
        credit = p.payer_credit() if p.payer_name.strip() else None
        self.credit_label.setText(
            f"{p.payer_name} has ${credit:,.2f} of credit on account."
            if credit is not None and credit > 0
            else ""
        )
        self.credit_label.setVisible(bool(self.credit_label.text()))
        self.take_button.setEnabled(bool(p.lines))

    def _commit_editor(self) -> None:
        """A share still being typed counts (Ctrl+Enter straight from the amount)."""
        if self.lines.state() == QAbstractItemView.State.EditingState:
            editor = self.lines.indexWidget(self.lines.currentIndex()) or self.focusWidget()
            if editor is not None and editor is not self.lines:
                self.lines.commitData(editor)
                self.lines.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)

    def take_payment(self) -> bool:
        self._commit_editor()
        self._tender_typed()
        self.presenter.set_payer(self.payer.text())
        self.error_label.setVisible(False)
        permit_ids = [line.permit.permit_id for line in self.presenter.lines]
        try:
            self.presenter.take()
        except ValidationError as e:
            self._show_error(str(e), e.field)
            return False
        except DeskError as e:
            self._show_error(str(e), "")
            return False
        self.result_label.setText(self.presenter.last_text)
        self._reset_form()
        self.print_button.setEnabled(True)
        self.print_button.setDefault(True)
        self.print_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.load_receipts()
        self.paid.emit(permit_ids)
        if self.print_after.isChecked():
            self._print_last_now()
        return True

    def _print_last_now(self) -> Path | None:
        return self.print_receipt(direct=True)

    def print_current(self) -> bool:
        """Ctrl+P: the receipt chosen in the day's list, else the last one taken, straight to
        the print dialog. False when there is none to print."""
        row = self._selected_receipt()
        if row >= 0:
            try:
                view = self.presenter.reprint(row)
            except DeskError as e:
                dialogs.warn(self, "Print receipt", str(e))
                return True
            print_receipt_now(self, view)
            self.load_receipts()
            return True
        if self.presenter.last is None:
            return False
        self._print_last_now()
        return True

    def _show_error(self, text: str, field: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(True)
        targets = {
            "payer": self.payer,
            "amount": self.amount,
            "check number": self.number,
            "money order number": self.number,
            "name on check": self.check_drawer,
            "bank": self.bank,
            "card reference": self.card,
            "drawer": self.drawer,
            "permits": self.search_edit,
        }
        target = targets.get(field)
        if target is None and field.startswith(("amount for ", "permit")):
            target = self.lines
        if target is not None:
            target.setFocus(Qt.FocusReason.OtherFocusReason)

    def _reset_form(self) -> None:
        for edit in (self.payer, self.amount, self.number, self.check_drawer, self.bank, self.card):
            edit.blockSignals(True)
            edit.clear()
            edit.blockSignals(False)
        self.presenter.clear()
        self._tender_typed()
        self.lines_model.reload()
        self._refresh_form()

    def clear(self) -> None:
        self._reset_form()
        self.error_label.setVisible(False)
        self.focus_search()

    def print_receipt(self, direct: bool = False) -> Path | None:
        """The last receipt taken, shown to print, or (`direct`) straight to the print dialog."""
        try:
            view = self.presenter.print_last()
        except DeskError as e:
            dialogs.warn(self, "Print receipt", str(e))
            return None
        if view is None:
            return None
        path = (print_receipt_now if direct else save_receipt)(self, view)
        self.load_receipts()
        return path

    # --- the day's receipts ------------------------------------------------------------------

    def show_receipts_of(self, day: date) -> None:
        self.day.setDate(to_qdate(day))  # loads them

    def load_receipts(self) -> None:
        self.presenter.load_receipts(from_qdate(self.day.date()))
        self.receipts_model.reload()
        self.receipts_summary.setText(self.presenter.receipts_summary)

    def _selected_receipt(self) -> int:
        return self.receipts.currentIndex().row() if self.receipts.currentIndex().isValid() else -1

    def void_selected(self) -> bool:
        row = self._selected_receipt()
        why_not = self.presenter.can_void(row)
        if why_not:
            dialogs.warn(self, "Void receipt", why_not)
            return False
        r = self.presenter.receipts[row]
        reason = ask_text(
            self,
            "Void receipt",
            f"Why is receipt {r.receipt_number} ({r.payer}, ${r.amount:,.2f}) voided?\n"
            "The receipt stays in the register, marked void, with your reason.",
        )
        if reason is None:
            return False
        try:
            message = self.presenter.void(row, reason)
        except DeskError as e:
            dialogs.warn(self, "Void receipt", str(e))
            return False
        self.receipts_model.reload()
        self.receipts_summary.setText(self.presenter.receipts_summary)
        self.result_label.setText(message)
        self.paid.emit([])
        return True

    def reprint_selected(self) -> Path | None:
        row = self._selected_receipt()
        if row < 0:
            dialogs.warn(self, "Reprint receipt", "Choose a receipt.")
            return None
        try:
            view = self.presenter.reprint(row)
        except DeskError as e:
            dialogs.warn(self, "Reprint receipt", str(e))
            return None
        path = save_receipt(self, view)
        self.load_receipts()
        return path
