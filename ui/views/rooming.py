"""The "Rooming houses" section (Hudson 140-10): the licence register with its filters (in
force, expiring within 60 days, suspended, revoked, expired, applications pending), searched as
you type (number, operator, address, PIN). Enter opens the licence's window
(ui/rooming/window.py), where the steps are taken; New application… (Ctrl+N) records one (in
the last 60 days of the dwelling's licence, its renewal: 140-10A); Renewal letters… writes a
letter to each operator whose licence expires within 60 days and is not renewed or applied for
again; Ctrl+P prints the register as shown. A licence in force says "renewal applied on …" or
"renewal issued — RH-…, from …". Opening the section revokes the suspended licences with no
timely petition (sweep_licences, 140-10D), as the app does on start. A thin view over
ui/presenters/rooming.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QPushButton, QWidget

from db import licence_register_queries as lq
from db.database import Database
from db.enforcement_case_view import office_calendar
from db.licence_view import licence_facts
from desk.clock import Clock
from desk.enforcement.licences import RegisterFilter
from desk.services.enforcement.licences import sweep_licences
from ui import dialogs
from ui.models.base import Index
from ui.permit import actions
from ui.presenters.rooming import FILTERS, NEW_KEY, SECTION_TITLE, RegisterPresenter, caution
from ui.presenters.session import Session
from ui.rooming import printing
from ui.rooming.dialogs import ApplicationDialog, focus_first
from ui.rooming.window import NOT_READY, LicenceWindow
from ui.views.common import (
    LinesModel,
    button_row,
    enable_buttons,
    filter_combo,
    fit_columns,
    note_label,
    read_only_table,
    search_field,
    selected_row,
)
from ui.views.record_list import RecordListSection

__all__ = ["SECTION_TITLE", "RoomingView"]
WARN = QColor(160, 40, 30)
CAUTION = QColor(160, 82, 0)  # amber: warned or expiring, still in force


class _RegisterModel(LinesModel):
    """Suspended, revoked and expired in red; warned and expiring in amber."""

    colour = WARN

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole:
            row = self.row_at(index)
            if row is not None and not row.warn and caution(row.cells[-1]):
                return CAUTION
        return super().data(index, role)


class RoomingView(RecordListSection):
    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
        open_case: Callable[[int], object] | None = None,
    ) -> None:
        super().__init__("roomingView", database, session, clock, parent)
        mid = session.municipality_id

        def rows(which: RegisterFilter) -> Any:
            with database.read() as conn:
                return lq.register(conn, mid, clock.today(), which)

        with database.read() as conn:
            calendar = office_calendar(conn, mid)
        self.presenter = RegisterPresenter(rows, clock.today, session.actor, calendar)
        self.open_case = open_case  # the Code enforcement section's, for the inspection case
        self.licence_windows: dict[int, LicenceWindow] = {}

        self.search = search_field(
            self, "licenceSearch", "Licence number, operator, address or PIN", self._filter
        )
        self.filter = filter_combo(self, "licenceFilter", FILTERS, self._filter)
        self.model = _RegisterModel(self.presenter, self)
        self.table = read_only_table(self, "licencesTable", self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.activated.connect(lambda _i: self.open_selected())
        self.note = note_label(self)
        self.new_button = QPushButton(f"&New application… ({NEW_KEY})", self)
        self.open_button = QPushButton("&Open", self)
        self.letters_button = QPushButton("Renewal &letters…", self)
        self.print_button = QPushButton("&Print", self)
        buttons = button_row(
            ("newApplication", self.new_button, self.new_application),
            ("openLicence", self.open_button, self.open_selected),
            ("renewalLetters", self.letters_button, lambda: self.renewal_letters()),
            ("printRegister", self.print_button, lambda: self.print_register()),
        )
        self._list_layout(SECTION_TITLE, buttons)

    def event(self, e: QEvent) -> bool:
        # Ctrl+N is also the main window's New permit application (a window shortcut): while
        # the cursor is in this section the key is taken here, as a key press (keyPressEvent).
        if e.type() == QEvent.Type.ShortcutOverride and self._is_new_key(e):
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if self._is_new_key(e):
            e.accept()
            self.new_application()
            return
        super().keyPressEvent(e)

    @staticmethod
    def _is_new_key(e: QEvent) -> bool:
        return isinstance(e, QKeyEvent) and QKeySequence(e.keyCombination()) == QKeySequence(
            NEW_KEY
        )

    # --- loading ----------------------------------------------------------------------------

    def load(self) -> None:
        """The licences revoked today made (140-10D), the register read again, its windows."""
        self._sweep_once_a_day(sweep_licences)
        self._reload()
        for window in list(self.licence_windows.values()):
            window.reload()
        self.loaded = True

    def _reload(self, keep: int | None = None) -> None:
        current = self.presenter.licence(selected_row(self.table))
        self.presenter.load()
        row = self.presenter.row_of(keep or (current.licence_id if current else 0))
        self.model.reload()
        fit_columns(self.table, (1, 2))
        if self.model.rowCount():
            self.table.selectRow(max(row, 0))
        self.summary.setText(self.presenter.summary)
        self._buttons()

    def _buttons(self) -> None:
        row = selected_row(self.table)
        chosen = self.presenter.licence(row) is not None
        enable_buttons(
            (
                (self.new_button, self.presenter.can_apply()),
                (self.open_button, (True, "") if chosen else (False, "Select a licence.")),
                (self.print_button, (True, "")),
            )
        )
        p = self.presenter
        self.note.setText(p.detail(row) if p.rows else p.empty_text)

    def _filter(self) -> None:
        self.presenter.text = self.search.text()
        self.presenter.which = RegisterFilter(self.filter.currentData())
        self._reload()

    def show_filter(self, which: RegisterFilter) -> None:
        self.filter.setCurrentIndex([f for _l, f in FILTERS].index(which))

    def shown(self) -> list[tuple[str, ...]]:
        """The register's rows as shown (tests and screen readers)."""
        return [line.cells for line in self.presenter.rows]

    # --- steps ------------------------------------------------------------------------------

    def new_application(self) -> bool:
        if not self.presenter.can_apply()[0]:
            return False
        dialog = ApplicationDialog(self._context(), self)
        focus_first(dialog)
        done = actions.exec_dialog(dialog)
        licence_id = dialog.licence_id
        dialog.deleteLater()
        if not done or licence_id is None:
            return False
        with self.database.read() as conn:
            facts = licence_facts(conn, licence_id)
        renews = facts.renews if facts is not None else None
        what = f"Renewal of licence {renews.number}" if renews is not None else "Application"
        self._status(f"{what} recorded: the inspector opens its inspection case.")
        self.search.clear()
        if self.presenter.which not in (RegisterFilter.PENDING, RegisterFilter.ALL):
            self.show_filter(RegisterFilter.PENDING)
        self._reload(licence_id)
        return True

    def open_selected(self) -> LicenceWindow | None:
        r = self.presenter.licence(selected_row(self.table))
        return self.open_licence(r.licence_id) if r is not None else None

    def open_licence(self, licence_id: int) -> LicenceWindow:
        """The licence's window, created the first time (one window per licence)."""
        return self._record_window(
            self.licence_windows,
            licence_id,
            lambda: LicenceWindow(self._context(), licence_id, self, self.open_case),
        )

    def renewal_letters(self, direct: bool = False) -> Path | None:
        """A letter to each operator whose licence expires within 60 days (140-10A)."""
        title = "Renewal letters"
        try:
            count, path = printing.print_renewal_letters(
                self, self.database, self.session, self.clock.today(), direct=direct
            )
        except NOT_READY:
            dialogs.warn(self, title, "The renewal letters cannot be printed yet.")
            return None
        if count == 0:
            dialogs.inform(
                self,
                title,
                "No licence in force expires within 60 days without its renewal applied for.",
            )
            return None
        if path is not None:
            self._status(f"{count} renewal letter{'s' * (count != 1)} written.")
        return path

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print): the register as shown, straight to the print dialog."""
        return self.print_register(direct=True) is not None

    def print_register(self, direct: bool = False) -> Path | None:
        p = self.presenter
        return printing.print_register(
            self,
            self.database,
            self.session,
            self.clock.today(),
            p.which,
            p.text,
            p.rows,
            p.empty_text,
            direct=direct,
        )
