"""One window per person or organization, in the style of the case and licence windows: a
header (the name with its status, the kind and mailing address, phone and e-mail) with the steps
this user may take (Edit… Ctrl+E, Retire…, Restore, Merge…), over six tabs: the Summary (every
field, and the city and rooming-house licences and notices that name the record), the
Credentials (current ones, then the renewed ones kept as history; Add credential…, Renew…),
the Permits it has a role on (Enter opens the permit's window), Bonds & insurance, Payments
(receipts and street deposits) and the History of the record from the audit trail."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from db.audit_queries import history_lookup
from db.party_queries import CredentialFact, PartyFacts, party_facts, party_history
from desk.errors import DeskError
from desk.services.people import retire
from ui import dialogs
from ui import record_window as rw
from ui.geometry import fit_window
from ui.models.history import HistoryTableModel
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.person import dialogs as d
from ui.presenters import people as p
from ui.presenters.record_window import Rows, Step
from ui.presenters.registers import item_at
from ui.presenters.views import PERSON_TABS
from ui.views.common import (
    LinesModel,
    enable_buttons,
    fit_columns,
    page_scroll,
    read_only_table,
    section_title,
    selected_row,
    value_label,
)

WARN = QColor(160, 40, 30)
DEFAULT_SIZE = (1040, 660)
TABS = PERSON_TABS


class PersonWindow(QWidget):
    closed = Signal(int)  # party id
    changed = Signal(int)  # the record was changed here: the list shows it
    open_permit = Signal(int)  # a permit chosen on the Permits tab

    def __init__(
        self, context: PermitContext, party_id: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("personWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.context = context
        self.party_id = party_id
        self.facts: PartyFacts | None = None
        self.steps: dict[str, Step] = {}

        self.title_label = rw.header_label(self, "permitTitle")
        self.status_label = rw.header_label(self, "statusChip", selectable=False)
        self.address_label = rw.header_label(self, "permitAddress")
        self.contact_label = rw.header_label(self, "permitKind")
        self.buttons = rw.step_buttons(self, p.STEP_LABELS, self.run_step)
        steps_row = rw.button_row()
        for button in self.buttons.values():
            steps_row.addWidget(button)
        steps_row.addStretch(1)
        self.buttons["edit"].setToolTip(f"Edit the record ({p.EDIT_KEY})")
        header = rw.stacked_header(
            self,
            self.title_label,
            self.status_label,
            (self.address_label, self.contact_label),
            (steps_row,),
        )

        self.tabs = rw.record_tabs(self, "personTabs")
        self.pages: dict[str, QWidget] = {}
        self._summary_tab()
        self._credentials_tab()
        self.permits = Rows(p.PERMIT_COLUMNS, [])
        self.permit_model = LinesModel(self.permits, self, WARN)
        self.permit_table = rw.table_tab(self.tabs, "personPermits", self.permit_model, "&Permits")
        self.permit_table.activated.connect(lambda i: self.open_permit_at(i.row()))
        self.pages["permits"] = self._last_page()
        self.bonds = Rows(p.BOND_COLUMNS, [])
        self.bond_model = LinesModel(self.bonds, self, WARN)
        self.bond_table = rw.table_tab(
            self.tabs, "personBonds", self.bond_model, "&Bonds && insurance"
        )
        self.pages["bonds"] = self._last_page()
        self.payments = Rows(p.PAYMENT_COLUMNS, [])
        self.payment_model = LinesModel(self.payments, self, WARN)
        self.payment_table = rw.table_tab(
            self.tabs, "personPayments", self.payment_model, "Pa&yments"
        )
        self.pages["payments"] = self._last_page()
        self._history_tab()
        for table in (
            self.permit_table,
            self.bond_table,
            self.payment_table,
            self.credential_table,
            self.other_table,
        ):
            table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

        rw.lay_out(self, header, self.tabs)
        rw.window_keys(self, self.reload, lambda: None)
        QShortcut(QKeySequence(p.EDIT_KEY), self).activated.connect(lambda: self.run_step("edit"))
        fit_window(self, "person", DEFAULT_SIZE)

    # --- the tabs ---------------------------------------------------------------------------

    def _last_page(self) -> QWidget:
        page = self.tabs.widget(self.tabs.count() - 1)
        assert page is not None
        return page

    def _summary_tab(self) -> None:
        page = QWidget(self.tabs)
        page.setObjectName("summaryBody")
        self.summary_grid = QGridLayout()
        self.summary_grid.setHorizontalSpacing(18)
        self.summary_grid.setVerticalSpacing(6)
        self.others = Rows(p.OTHER_COLUMNS, [])
        self.other_model = LinesModel(self.others, self, WARN)
        self.other_table = read_only_table(page, "personRecords", self.other_model)
        self.other_heading = section_title("Licences and notices")
        box = QVBoxLayout(page)
        box.setContentsMargins(20, 16, 20, 16)
        box.setSpacing(10)
        box.addLayout(self.summary_grid)
        box.addWidget(self.other_heading)
        box.addWidget(self.other_table, 1)
        self.summary_page = page
        self.tabs.addTab(page_scroll(self.tabs, page), "S&ummary")
        self.pages["summary"] = self._last_page()

    def _credentials_tab(self) -> None:
        page = QWidget(self.tabs)
        self.credentials = Rows(p.CREDENTIAL_COLUMNS, [])
        self.credential_model = LinesModel(self.credentials, self, WARN)
        self.credential_table = read_only_table(page, "personCredentials", self.credential_model)
        self.credential_buttons = rw.step_buttons(page, p.CREDENTIAL_STEPS, self.run_step)
        self.credential_note = QLabel(page)
        self.credential_note.setObjectName("noteText")
        self.credential_note.setWordWrap(True)
        row = rw.button_row()
        for button in self.credential_buttons.values():
            row.addWidget(button)
        row.addStretch(1)
        box = QVBoxLayout(page)
        box.setContentsMargins(12, 12, 12, 12)
        box.addWidget(self.credential_table, 1)
        box.addWidget(self.credential_note)
        box.addLayout(row)
        self.tabs.addTab(page, "&Credentials")
        self.pages["credentials"] = page
        self.credential_table.selectionModel().currentRowChanged.connect(
            lambda *_: self._credential_buttons()
        )

    def _history_tab(self) -> None:
        page = QWidget(self.tabs)
        self.history_model = HistoryTableModel(None, self)
        self.history_table = read_only_table(page, "personHistory", self.history_model)
        self.history_table.horizontalHeader().setStretchLastSection(True)
        self.history_empty = QLabel(page)
        self.history_empty.setObjectName("emptyState")
        self.history_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.history_pages = QStackedWidget(page)
        self.history_pages.addWidget(self.history_table)
        self.history_pages.addWidget(self.history_empty)
        box = QVBoxLayout(page)
        box.setContentsMargins(12, 12, 12, 12)
        box.addWidget(self.history_pages)
        self.tabs.addTab(page, "Histor&y")
        self.pages["history"] = page
        self.history: p.PartyHistoryPresenter | None = None

    def select_tab(self, key: str) -> None:
        """Show the tab `key` (TABS); KeyError names the tabs there are."""
        page = self.pages.get(key)
        if page is None:
            raise KeyError(f"no tab '{key}'; tabs: {', '.join(TABS)}")
        self.tabs.setCurrentWidget(page)

    # --- reading ----------------------------------------------------------------------------

    @property
    def today(self) -> date:
        return self.context.clock.today()

    def reload(self) -> bool:
        """Read the record again; False when it does not exist."""
        c = self.context
        with c.database.read() as conn:
            f = party_facts(conn, self.party_id, c.session.municipality_id)
            if f is not None:
                ids = [self.party_id, *(i for i, _n in f.merged_from)]
                entries = party_history(conn, ids)
                lookup = history_lookup(conn, entries)
        if f is None:
            self.title_label.setText(f"Record #{self.party_id}")
            self.address_label.setText("This person or organization is not on the register.")
            for button in (*self.buttons.values(), *self.credential_buttons.values()):
                button.setEnabled(False)
            return False
        self.facts = f
        today = self.today
        h = p.header(f)
        self.setWindowTitle(f"{f.name} — Permit Desk")
        self.title_label.setText(h.title)
        rw.show_status(self.status_label, h.chip, h.tone)
        self.address_label.setText(h.address)
        self.contact_label.setText(h.contact)
        self._show_summary(f, today)
        self.credentials = Rows(p.CREDENTIAL_COLUMNS, p.credential_rows(f, today))
        self.permits = Rows(p.PERMIT_COLUMNS, p.permit_rows(f, c.session.municipality_key))
        self.bonds = Rows(p.BOND_COLUMNS, p.bond_rows(f, today))
        self.payments = Rows(p.PAYMENT_COLUMNS, p.payment_rows(f))
        for model, rows, table, stretch in (
            (self.credential_model, self.credentials, self.credential_table, 5),
            (self.permit_model, self.permits, self.permit_table, 4),
            (self.bond_model, self.bonds, self.bond_table, 0),
            (self.payment_model, self.payments, self.payment_table, 4),
        ):
            model.set_presenter(rows)
            fit_columns(table, (stretch,))
        names = {f.id: f.name, **dict(f.merged_from)}
        if f.merged_into_id is not None:
            names[f.merged_into_id] = f.merged_into
        self.history = p.PartyHistoryPresenter(
            entries,
            self.party_id,
            {x.id: x for x in f.credentials},
            names,
            lookup=lookup,
            municipality_key=c.session.municipality_key,
        )
        self.history_model.set_presenter(self.history)
        if self.history.rows:
            for i in range(self.history_model.columnCount() - 1):
                self.history_table.resizeColumnToContents(i)
            self.history_pages.setCurrentWidget(self.history_table)
        else:
            self.history_empty.setText(self.history.empty_text)
            self.history_pages.setCurrentWidget(self.history_empty)
        self.steps = {s.key: s for s in p.steps(f, c.session.actor)}
        enable_buttons((self.buttons[k], self.steps[k].may) for k in self.buttons)
        self.buttons["retire"].setVisible(f.retired_on is None)
        self.buttons["restore"].setVisible(f.retired_on is not None)
        if self.credentials.rows and selected_row(self.credential_table) < 0:
            self.credential_table.selectRow(0)
        self._credential_buttons()
        return True

    def _show_summary(self, f: PartyFacts, today: date) -> None:
        grid = self.summary_grid
        while grid.count():
            item = grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        top = Qt.AlignmentFlag.AlignTop
        fields = p.summary_fields(f)
        for row, (label, value) in enumerate(fields):
            name = QLabel(label)
            name.setObjectName("fieldLabel")
            grid.addWidget(name, row, 0, top)
            grid.addWidget(value_label(value), row, 1, top)
            grid.setRowStretch(row, 0)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(len(fields), 1)  # the rows as high as they are; the rest below
        self.others = Rows(p.OTHER_COLUMNS, p.other_rows(f, today))
        self.other_model.set_presenter(self.others)
        fit_columns(self.other_table, (0,))
        shown = bool(self.others.rows)
        self.other_heading.setVisible(shown)
        self.other_table.setVisible(shown)

    def summary_texts(self) -> list[tuple[str, str]]:
        """The Summary tab's (label, value) pairs as shown (tests read it as a clerk would)."""
        return p.summary_fields(self.facts) if self.facts is not None else []

    def selected_credential(self) -> CredentialFact | None:
        return item_at(self.credentials.rows, selected_row(self.credential_table), CredentialFact)

    def _credential_buttons(self) -> None:
        f = self.facts
        if f is None:
            return
        add = self.steps.get("add_credential")
        base = add.may if add is not None else (False, "")
        chosen = self.selected_credential()
        renew = p.renew_allowed(chosen, base, bool(f.current_credentials))
        enable_buttons(
            (
                (self.credential_buttons["add_credential"], base),
                (self.credential_buttons["renew"], renew),
            )
        )
        if not f.credentials:
            self.credential_note.setText("No state credential on record.")
        elif chosen is not None and chosen.current:
            self.credential_note.setText(
                f"{p.credential_words(chosen)}. Renew… records the renewed one; this one stays "
                "listed as history."
            )
        else:
            self.credential_note.setText("")

    def open_permit_at(self, row: int) -> None:
        line = self.permits.rows[row] if 0 <= row < len(self.permits.rows) else None
        if line is not None:
            self.open_permit.emit(line.item.permit_id)  # type: ignore[attr-defined]

    # --- steps ------------------------------------------------------------------------------

    def _dialog(self, key: str) -> ActionDialog | None:
        f = self.facts
        assert f is not None
        c = self.context
        if key == "edit":
            return d.PartyEditDialog(c, f, self)
        if key == "retire":
            return d.RetireDialog(c, f, self)
        if key == "merge":
            return d.MergeDialog(c, f.id, f.name, self)
        if key == "add_credential":
            return d.CredentialDialog(c, f, self)
        if key == "renew":
            old = self.selected_credential()
            if old is None or not old.current:
                current = f.current_credentials
                old = current[0] if len(current) == 1 else None
            return d.RenewDialog(c, f, old, self) if old is not None else None
        return None

    def run_step(self, key: str) -> bool:
        """The step's dialog; True when its service ran. The window reads the record again
        either way (a refusal may mean another workstation got there first)."""
        selected = self.selected_credential()
        self.reload()
        if selected is not None:
            self._select_credential(selected.id)
        step = self.steps.get(key)
        if step is None or not step.may[0]:
            return False
        if key == "restore":
            done = self._restore()
        else:
            dialog = self._dialog(key)
            if dialog is None:
                dialogs.warn(self, "Renew a credential", "Select the credential to renew.")
                return False
            done = actions.exec_dialog(dialog)
            dialog.deleteLater()
        self.reload()
        if done:
            self.changed.emit(self.party_id)
        return done

    def _restore(self) -> bool:
        f = self.facts
        assert f is not None
        if not dialogs.ask(
            self,
            "Restore",
            f"Restore {f.name}? The record is offered again when a permit, a payment or a "
            "notice names someone.",
        ):
            return False
        try:
            retire.restore_party(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                f.id,
                f.version,
            )
        except DeskError as e:
            dialogs.warn(self, "Restore", str(e))
            return False
        return True

    def _select_credential(self, credential_id: int) -> None:
        for n, line in enumerate(self.credentials.rows):
            if getattr(line.item, "id", None) == credential_id:
                self.credential_table.selectRow(n)
                return

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit(self.party_id)
        super().closeEvent(event)


def button(window: PersonWindow, key: str) -> QPushButton:
    """A step's button by its key (tests)."""
    return {**window.buttons, **window.credential_buttons}[key]
