"""Administration → GL accounts: the municipality's general-ledger accounts and the
account each fee item code books to. Administrators only; the services check again. Enter (or a
double-click) on a fee code changes its account; money already booked stays where it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.domain.kinds import kinds_for
from desk.errors import DeskError, ValidationError
from desk.services import cashiering, fees
from ui import dialogs, focus
from ui.presenters.gl_accounts import ACCOUNT_COLUMNS, CODE_COLUMNS, KINDS, GlAccountsPresenter
from ui.presenters.session import Session
from ui.views.common import read_only_table

SECTION_TITLE = "GL accounts"
Index = QModelIndex | QPersistentModelIndex


class _Model(QAbstractTableModel):
    def __init__(
        self,
        columns: tuple[str, ...],
        count: Callable[[], int],
        cells: Callable[[int], tuple[str, ...]],
        parent: Any = None,
    ) -> None:
        super().__init__(parent)
        self.columns = columns
        self.count = count
        self.cells = cells

    def reset(self) -> None:
        self.beginResetModel()
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.count()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section] if 0 <= section < len(self.columns) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.count():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self.cells(index.row())[index.column()]
        return None


class _EnterOpens(QObject):
    """Enter on a row of a read-only table runs `action` on that row (the table ignores it)."""

    def __init__(self, table: QTableView, action: Callable[[int], None]) -> None:
        super().__init__(table)
        self.table = table
        self.action = action
        table.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.table.currentIndex().isValid()
        ):
            self.action(self.table.currentIndex().row())
            return True
        return False


class NewAccountDialog(QDialog):
    """Number, name and kind; the service says what is wrong and the field gets the focus."""

    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("New GL account")
        self.database, self.session, self.clock = database, session, clock
        self.account_id: int | None = None
        self.number = QLineEdit(self)
        self.number.setObjectName("accountNumber")
        self.number.setPlaceholderText("e.g. 100-44380")
        self.name = QLineEdit(self)
        self.name.setObjectName("accountName")
        self.kind = QComboBox(self)
        self.kind.setObjectName("accountKind")
        for kind in KINDS:
            self.kind.addItem(kind.label, kind)
        form = QFormLayout()
        form.addRow("&Number", self.number)
        form.addRow("N&ame", self.name)
        form.addRow("&Kind", self.kind)
        note = QLabel(
            "Revenue: the municipality's own income. Liability: money held for someone else "
            "(the state, a depositor, a payer).",
            self,
        )
        note.setObjectName("noteText")
        note.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Add account")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.number.setFocus()
        focus.install(self)

    def accept(self) -> None:
        try:
            self.account_id = cashiering.add_gl_account(
                self.database.uow(),
                self.clock,
                self.session.actor,
                self.session.municipality_id,
                self.number.text(),
                self.name.text(),
                self.kind.currentData(),
            )
        except ValidationError as e:
            # The message names the field (in words) and the account that has the number.
            field = self.name if e.field == "account name" else self.number
            dialogs.warn(self, "New GL account", focus.in_words(e, focus.field_label(self, field)))
            focus.focus_field(field)
            return
        except DeskError as e:
            dialogs.warn(self, "New GL account", str(e))
            return
        super().accept()


class GlAccountsView(QWidget):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("glAccountsView")
        self.database, self.session, self.clock = database, session, clock
        self.loaded = False
        self.dialog: NewAccountDialog | None = None
        self.presenter = GlAccountsPresenter(
            lambda: cashiering.gl_accounts(database.uow(), clock, session.municipality_id),
            self._descriptions,
        )
        p = self.presenter

        heading = QLabel(SECTION_TITLE, self)
        heading.setObjectName("viewHeading")
        subtitle = QLabel(
            f"{session.municipality_name}. Each fee item books to one account; a change applies "
            "to payments from now on, receipts already written keep their split.",
            self,
        )
        subtitle.setObjectName("noteText")
        subtitle.setWordWrap(True)
        self.summary = QLabel(self)
        self.summary.setObjectName("countLabel")

        self.new_button = QPushButton("&New account…", self)
        self.new_button.setObjectName("newAccount")
        self.new_button.clicked.connect(self.open_new_account)
        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(self.new_button)

        self.accounts_model = _Model(
            ACCOUNT_COLUMNS, lambda: len(p.accounts), p.account_cells, self
        )
        self.accounts_table = read_only_table(self, "glAccountsTable", self.accounts_model)
        self.accounts_table.setAccessibleName("Accounts")
        header = self.accounts_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)

        self.change_button = QPushButton("&Change account…", self)
        self.change_button.setObjectName("changeAccount")
        self.change_button.clicked.connect(lambda: self.change_account(self._current_code_row()))
        codes_top = QHBoxLayout()
        codes_title = QLabel("Fee codes", self)
        codes_title.setObjectName("sectionTitle")
        codes_top.addWidget(codes_title)
        codes_top.addStretch(1)
        codes_top.addWidget(self.change_button)
        self.codes_model = _Model(CODE_COLUMNS, lambda: len(p.codes), p.code_cells, self)
        self.codes_table = read_only_table(self, "feeCodesTable", self.codes_model)
        self.codes_table.setAccessibleName("Fee codes")
        header = self.codes_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.codes_table.doubleClicked.connect(lambda index: self.change_account(index.row()))
        self._enter = _EnterOpens(self.codes_table, self.change_account)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(subtitle)
        layout.addWidget(self.summary)
        layout.addWidget(self.accounts_table, 2)
        layout.addSpacing(6)
        layout.addLayout(codes_top)
        layout.addWidget(self.codes_table, 3)
        self.setFocusProxy(self.codes_table)

    def _descriptions(self) -> dict[str, str]:
        """Fee item descriptions from the schedule version in force today (none without permit
        kinds: no fee schedule)."""
        if not kinds_for(self.session.municipality_key):
            return {}
        schedule = fees.fee_schedule(self.database.uow(), self.clock, self.session.municipality_id)
        version = schedule.version_on(self.clock.today())
        return {i.code: i.description for i in version.items} if version else {}

    def load(self) -> None:
        self.presenter.load()
        self.accounts_model.reset()
        self.codes_model.reset()
        self.summary.setText(self.presenter.summary)
        self.loaded = True

    def _current_code_row(self) -> int:
        index = self.codes_table.currentIndex()
        return index.row() if index.isValid() else -1

    def select_code(self, code: str) -> None:
        row = self.presenter.row_of_code(code)
        if row is not None:
            self.codes_table.selectRow(row)
            self.codes_table.setCurrentIndex(self.codes_model.index(row, 0))

    def open_new_account(self) -> NewAccountDialog:
        dialog = NewAccountDialog(self.database, self.session, self.clock, self)
        dialog.accepted.connect(self.load)
        self.dialog = dialog
        dialog.open()
        return dialog

    def change_account(self, row: int) -> None:
        if not 0 <= row < len(self.presenter.codes):
            dialogs.inform(self, "Change account", "Select a fee code first.")
            return
        code = self.presenter.codes[row]
        choice = dialogs.choose(
            self,
            "Change account",
            f"Account for {code.code}" + (f" ({code.description})" if code.description else ""),
            self.presenter.account_choices,
            self.presenter.choice_index(row),
        )
        if choice is None:
            return
        number = self.presenter.number_of(choice)
        if number == code.account_number:
            return
        try:
            cashiering.map_fee_code(
                self.database.uow(),
                self.clock,
                self.session.actor,
                self.session.municipality_id,
                code.code,
                number,
            )
        except DeskError as e:
            dialogs.warn(self, "Change account", str(e))
            return
        self.load()
        self.select_code(code.code)
