"""One window per parcel: a header (the PIN, Active or Retired, the address and the owner of
record) with the corrections this user may make (Edit…, Retire… or Restore, Merge…), each
disabled with its reason as the tooltip, over the tabs: the Summary (the office's record and the
county's, the file and date they came from), its Permits (Enter opens the permit's window), its
code enforcement Cases (Enter opens the case's window), its rooming-house Licences and
condemnations, the street Deposits of its permits, the Street register's repavings of its street
and its History. Ctrl+E edits, F5 reads it again, Ctrl+W or Esc close."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QGridLayout,
    QHeaderView,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from db.enforcement_case_view import case_facts
from db.parcel_queries import (
    ParcelDeposit,
    ParcelFacts,
    ParcelLicence,
    ParcelPermit,
    parcel_facts,
)
from desk.errors import DeskError
from desk.services.parcels import retire
from ui import dialogs
from ui import record_window as rw
from ui.geometry import fit_window
from ui.models.history import HistoryTableModel
from ui.parcel import dialogs as d
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters import parcels as p
from ui.presenters.permit_detail import Section
from ui.views.common import (
    LinesModel,
    enable_buttons,
    fit_columns,
    page_scroll,
    read_only_table,
    section_title,
    value_label,
)

WARN = QColor(160, 40, 30)
DEFAULT_SIZE = (1040, 660)


def restore_parcel(parent: QWidget, context: PermitContext, f: ParcelFacts) -> bool:
    """A parcel retired by mistake offered again, on a yes; True when it was restored."""
    if not p.restore_allowed(context.session.actor, p.state_of_facts(f))[0]:
        return False
    question = f"Restore parcel {f.pin}? It is offered again when a parcel is chosen."
    if not dialogs.ask(parent, "Restore parcel", question):
        return False
    try:
        retire.restore_parcel(
            context.database.uow(), context.clock, context.session.actor, f.id, f.version
        )
    except DeskError as e:
        dialogs.warn(parent, "Restore parcel", str(e))
        return False
    return True


class ParcelWindow(QWidget):
    closed = Signal(int)  # parcel id
    changed = Signal(int)  # corrected, retired, restored or merged: the list shows it

    def __init__(
        self,
        context: PermitContext,
        parcel_id: int,
        parent: QWidget | None = None,
        *,
        open_permit: Callable[[int], object] | None = None,
        open_case: Callable[[int], object] | None = None,
        open_licence: Callable[[int], object] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("parcelWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.context = context
        self.parcel_id = parcel_id
        self.open_permit = open_permit
        self.open_case = open_case
        self.open_licence = open_licence
        self.facts: ParcelFacts | None = None
        self.values: dict[str, QLabel] = {}

        self.title_label = rw.header_label(self, "permitTitle")
        self.status_label = rw.header_label(self, "statusChip", selectable=False)
        self.address_label = rw.header_label(self, "permitAddress")
        self.owner_label = rw.header_label(self, "permitKind")
        self.owner_label.setWordWrap(True)
        self.buttons = rw.step_buttons(
            self,
            (
                ("edit", f"&Edit… ({p.EDIT_KEY})"),
                ("retire", "&Retire…"),
                ("restore", "Re&store"),
                ("merge", "&Merge…"),
            ),
            self.run_step,
        )
        steps_row = rw.button_row()
        for button in self.buttons.values():
            steps_row.addWidget(button)
        steps_row.addStretch(1)
        header = rw.stacked_header(
            self,
            self.title_label,
            self.status_label,
            (self.address_label, self.owner_label),
            (steps_row,),
        )

        self.tabs = rw.record_tabs(self, "parcelTabs")
        self.summary_page = QWidget(self.tabs)
        self.summary_page.setObjectName("parcelSummary")
        self.summary_scroll = page_scroll(self.summary_page)
        box = QVBoxLayout(self.summary_page)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.summary_scroll)
        self.tabs.addTab(self.summary_page, "S&ummary")
        self.permits = p.Rows(p.PERMIT_COLUMNS, [])
        self.cases = p.Rows(p.CASE_COLUMNS, [])
        self.licences = p.Rows(p.LICENCE_COLUMNS, [])
        self.deposits = p.Rows(p.DEPOSIT_COLUMNS, [])
        self.streets = p.Rows(p.STREET_COLUMNS, [])
        self.permit_model = LinesModel(self.permits, self, WARN)
        self.case_model = LinesModel(self.cases, self, WARN)
        self.licence_model = LinesModel(self.licences, self, WARN)
        self.deposit_model = LinesModel(self.deposits, self, WARN)
        self.street_model = LinesModel(self.streets, self, WARN)
        self.permit_table = rw.table_tab(self.tabs, "parcelPermits", self.permit_model, "&Permits")
        self.case_table = rw.table_tab(self.tabs, "parcelCases", self.case_model, "&Cases")
        self.licence_table = rw.table_tab(
            self.tabs, "parcelLicences", self.licence_model, "&Licences && condemnations"
        )
        self.deposit_table = rw.table_tab(
            self.tabs, "parcelDeposits", self.deposit_model, "&Deposits"
        )
        self.street_table = rw.table_tab(
            self.tabs, "parcelStreet", self.street_model, "Street re&gister"
        )
        self.history: p.ParcelHistory | None = None
        self.history_model = HistoryTableModel(None, self)
        history_page = QWidget(self.tabs)
        self.history_table = read_only_table(history_page, "parcelHistory", self.history_model)
        self.history_table.horizontalHeader().setStretchLastSection(True)
        self.history_empty = QLabel(history_page)
        self.history_empty.setObjectName("emptyState")
        self.history_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hbox = QVBoxLayout(history_page)
        hbox.setContentsMargins(12, 12, 12, 12)
        hbox.addWidget(self.history_table)
        hbox.addWidget(self.history_empty)
        self.tabs.addTab(history_page, "Histor&y")
        self.permit_table.activated.connect(lambda i: self.open_permit_row(i.row()))
        self.case_table.activated.connect(lambda i: self.open_case_row(i.row()))
        self.licence_table.activated.connect(lambda i: self.open_licence_row(i.row()))
        self.deposit_table.activated.connect(lambda i: self.open_deposit_row(i.row()))
        self.street_table.setWordWrap(True)
        self.street_table.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )

        rw.lay_out(self, header, self.tabs)
        rw.window_keys(self, self.reload, lambda: None)
        QShortcut(QKeySequence(p.EDIT_KEY), self).activated.connect(lambda: self.run_step("edit"))
        fit_window(self, "parcel", DEFAULT_SIZE)

    # --- reading ---------------------------------------------------------------------------

    @property
    def today(self) -> date:
        return self.context.clock.today()

    def reload(self) -> bool:
        """Read the parcel again; False when it does not exist."""
        with self.context.database.read() as conn:
            facts = parcel_facts(conn, self.parcel_id)
            cases = case_facts(conn, [c.id for c in facts.cases]) if facts else {}
        if facts is None:
            self.title_label.setText(f"Parcel #{self.parcel_id}")
            self.address_label.setText("This parcel does not exist.")
            for button in self.buttons.values():
                button.setEnabled(False)
            return False
        self.facts = facts
        key = self.context.session.municipality_key
        title, status, address, owner = p.header_words(facts)
        self.setWindowTitle(p.window_title(facts))
        self.title_label.setText(title)
        self.address_label.setText(address)
        self.owner_label.setText(owner)
        rw.show_status(self.status_label, status, p.status_tone(facts.retired_on))
        self._summary(facts)
        today = self.today
        self.permits = p.permit_rows(facts, key)
        self.cases = p.case_rows(facts, cases, today)
        self.licences = p.licence_rows(facts, today)
        self.deposits = p.deposit_rows(facts)
        self.streets = p.street_rows(facts, today)
        for model, rows in (
            (self.permit_model, self.permits),
            (self.case_model, self.cases),
            (self.licence_model, self.licences),
            (self.deposit_model, self.deposits),
            (self.street_model, self.streets),
        ):
            model.set_presenter(rows)
        fit_columns(self.permit_table, (1,))
        fit_columns(self.case_table, (3,))
        fit_columns(self.licence_table, (2,))
        fit_columns(self.deposit_table, (1,))
        fit_columns(self.street_table, (4,))
        self._tab_counts(facts)
        self.history = p.parcel_history(facts, key)
        self.history_model.set_presenter(self.history)
        for i in range(self.history_model.columnCount() - 1):
            self.history_table.resizeColumnToContents(i)
        self.history_table.setVisible(bool(self.history.rows))
        self.history_empty.setVisible(not self.history.rows)
        self.history_empty.setText(self.history.empty_text)
        actor = self.context.session.actor
        state = p.state_of_facts(facts)
        enable_buttons(
            (
                (self.buttons["edit"], p.edit_allowed(actor, state)),
                (self.buttons["retire"], p.retire_allowed(actor, state)),
                (self.buttons["restore"], p.restore_allowed(actor, state)),
                (self.buttons["merge"], p.merge_allowed(actor, state)),
            )
        )
        # Retired, Restore is the step; active, Retire is.
        self.buttons["restore"].setVisible(facts.retired_on is not None)
        self.buttons["retire"].setVisible(facts.retired_on is None)
        return True

    def _tab_counts(self, f: ParcelFacts) -> None:
        """Each tab's label with how many rows it holds, so an empty tab need not be opened."""
        counts = (
            (1, "&Permits", len(f.permits)),
            (2, "&Cases", len(f.cases)),
            (3, "&Licences && condemnations", len(f.licences) + len(f.condemnations)),
            (4, "&Deposits", len(f.deposits)),
            (5, "Street re&gister", len(f.street_entries)),
        )
        for index, label, n in counts:
            self.tabs.setTabText(index, f"{label} ({n})" if n else label)

    def _summary(self, f: ParcelFacts) -> None:
        self.values = {}
        body = QWidget()
        body.setObjectName("summaryBody")
        grid = QGridLayout(body)
        grid.setContentsMargins(20, 16, 20, 16)
        grid.setHorizontalSpacing(36)
        grid.setVerticalSpacing(12)
        grid.addWidget(self._column(p.office_section(f)), 0, 0)
        grid.addWidget(self._column(p.county_section(f)), 0, 1)
        records = QVBoxLayout()
        records.setSpacing(4)
        records.addWidget(section_title("On the register"))
        words = value_label(p.records_words(f))
        self.values["On the register"] = words
        records.addWidget(words)
        grid.addLayout(records, 1, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(2, 1)
        self.summary_scroll.setWidget(body)

    def _column(self, section: Section) -> QWidget:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(6)
        grid.addWidget(section_title(section.title), 0, 0, 1, 2)
        for row, field in enumerate(section.fields, start=1):
            name = QLabel(field.label)
            name.setObjectName("fieldLabel")
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            value = value_label(field.value)
            name.setBuddy(value)
            self.values[f"{section.title}: {field.label}"] = value
            grid.addWidget(name, row, 0)
            grid.addWidget(value, row, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(len(section.fields) + 1, 1)
        return box

    def value(self, label: str) -> str:
        """A field of the Summary by its section and label: "The office's record: Street"."""
        return self.values[label].text()

    def history_rows(self) -> list[tuple[str, ...]]:
        return [row.cells() for row in self.history.rows] if self.history else []

    def select_tab(self, key: str) -> None:
        """'summary', 'permits', 'cases', 'licences', 'deposits', 'street' or 'history'."""
        keys = ("summary", "permits", "cases", "licences", "deposits", "street", "history")
        if key not in keys:
            raise KeyError(f"unknown tab '{key}'; tabs: {', '.join(keys)}")
        self.tabs.setCurrentIndex(keys.index(key))

    # --- opening what points at it ---------------------------------------------------------

    def open_permit_row(self, row: int) -> bool:
        if not 0 <= row < len(self.permits.rows) or self.open_permit is None:
            return False
        item = self.permits.rows[row].item
        assert isinstance(item, ParcelPermit)
        self.open_permit(item.id)
        return True

    def open_case_row(self, row: int) -> bool:
        if not 0 <= row < len(self.cases.rows) or self.open_case is None:
            return False
        self.open_case(getattr(self.cases.rows[row].item, "id"))  # noqa: B009
        return True

    def open_licence_row(self, row: int) -> bool:
        if not 0 <= row < len(self.licences.rows) or self.open_licence is None:
            return False
        item = self.licences.rows[row].item
        if not isinstance(item, ParcelLicence):
            return False  # a condemnation: its register is Licences & condemnations
        self.open_licence(item.id)
        return True

    def open_deposit_row(self, row: int) -> bool:
        if not 0 <= row < len(self.deposits.rows) or self.open_permit is None:
            return False
        item = self.deposits.rows[row].item
        assert isinstance(item, ParcelDeposit)
        self.open_permit(item.permit_id)
        return True

    # --- steps -----------------------------------------------------------------------------

    def run_step(self, key: str) -> bool:
        """The step's dialog; True when its service ran. The window reads the parcel again
        either way (a refusal may mean another workstation got there first)."""
        self.reload()
        f = self.facts
        if f is None:
            return False
        actor = self.context.session.actor
        state = p.state_of_facts(f)
        if key == "restore":
            return self.restore()
        checks = {
            "edit": p.edit_allowed(actor, state),
            "retire": p.retire_allowed(actor, state),
            "merge": p.merge_allowed(actor, state),
        }
        if key not in checks or not checks[key][0]:
            return False
        dialog: ActionDialog
        if key == "edit":
            dialog = d.ParcelEditDialog(self.context, f, self)
        elif key == "retire":
            dialog = d.RetireDialog(self.context, f, self)
        else:
            merging = d.MergeDialog(self.context, f.pin, self)
            merging.focus_start()  # the duplicate is this parcel: the one kept is asked
            dialog = merging
        if key != "merge":
            d.focus_first(dialog)
        done = actions.exec_dialog(dialog)
        dialog.deleteLater()
        self.reload()
        if done:
            self.changed.emit(self.parcel_id)
        return done

    def restore(self) -> bool:
        f = self.facts
        if f is None:
            return False
        done = restore_parcel(self, self.context, f)
        self.reload()
        if done:
            self.changed.emit(self.parcel_id)
        return done

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit(self.parcel_id)
        super().closeEvent(event)
