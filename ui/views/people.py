"""The "People" section: the owners, contractors, designers and payers of the register, searched
as you type (name, address, phone, e-mail, credential number; every word must match) and
filtered (active, retired, all, contractors holding a credential, a credential expiring in 60
days). The list shows how many are found and reads them 200 at a time as it is scrolled
(ui/views/paged.py). Enter opens the person's window (ui/person/window.py); New person…, Edit…,
Retire…, Restore, Merge… and Import contractors… follow the user's roles, a disabled one saying
why in its tooltip. A thin view over ui/presenters/people.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QPushButton, QWidget

from db import party_queries as q
from db.database import Database
from db.party_queries import PartyFilter, PartyRow
from desk.clock import Clock
from ui.models.base import Index
from ui.permit import actions
from ui.person import dialogs as d
from ui.person.window import PersonWindow
from ui.presenters.people import (
    ACTIVE,
    EDIT_KEY,
    FILTERS,
    SECTION_TITLE,
    PeopleListPresenter,
)
from ui.presenters.session import Session
from ui.views.common import (
    button_row,
    enable_buttons,
    filter_combo,
    fit_columns,
    note_label,
    read_only_table,
    search_field,
    selected_row,
)
from ui.views.paged import PagedLinesModel
from ui.views.record_list import RecordListSection

__all__ = ["SECTION_TITLE", "PeopleView"]
WARN = QColor(160, 40, 30)
GREY = QColor(110, 118, 128)  # retired or merged: read, no longer chosen
PERMITS_COLUMN = 5  # a count, right-aligned
WATCHED = ("party", "credential", "permit_party")  # other workstations' changes shown here


class SqlPeopleSource:
    """The register's people and organizations, each read on a short connection."""

    def __init__(self, database: Database, clock: Clock) -> None:
        self.database = database
        self.clock = clock

    def count(self, which: PartyFilter, text: str) -> int:
        with self.database.read() as conn:
            return q.party_count(conn, self.clock.today(), which, text)

    def page(self, which: PartyFilter, text: str, offset: int, limit: int) -> list[PartyRow]:
        with self.database.read() as conn:
            return q.party_rows(conn, self.clock.today(), which, text, limit, offset)


class PeopleModel(PagedLinesModel):
    """A current credential past its expiry in red; a retired or merged record in grey."""

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == PERMITS_COLUMN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            row = self.row_at(index)
            if row is not None and not row.warn and row.cells[-1] != ACTIVE:
                return GREY
        return super().data(index, role)


class PeopleView(RecordListSection):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__("peopleView", database, session, clock, parent)
        self.presenter = PeopleListPresenter(
            SqlPeopleSource(database, clock), clock.today, session.actor
        )
        self.person_windows: dict[int, PersonWindow] = {}
        self.import_dialog: QWidget | None = None  # Import contractors…, while it is open

        self.search = search_field(
            self, "peopleSearch", "Name, address, phone, e-mail or licence number", self._filter
        )
        self.filter = filter_combo(self, "peopleFilter", FILTERS, self._filter)
        self.model = PeopleModel(self.presenter, self, WARN)
        self.table = read_only_table(self, "peopleTable", self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.activated.connect(lambda _i: self.open_selected())
        self.note = note_label(self)
        self.model.failed.connect(self.note.setText)
        self.new_button = QPushButton("&New person…", self)
        self.open_button = QPushButton("&Open", self)
        self.edit_button = QPushButton(f"&Edit… ({EDIT_KEY})", self)
        self.retire_button = QPushButton("&Retire…", self)
        self.restore_button = QPushButton("Re&store", self)
        self.merge_button = QPushButton("&Merge…", self)
        self.import_button = QPushButton("&Import contractors…", self)
        buttons = button_row(
            ("newPerson", self.new_button, self.new_person),
            ("openPerson", self.open_button, self.open_selected),
            ("editPerson", self.edit_button, self.edit_selected),
            ("retirePerson", self.retire_button, self.retire_selected),
            ("restorePerson", self.restore_button, self.restore_selected),
            ("mergePeople", self.merge_button, self.merge_selected),
            ("importContractors", self.import_button, self.import_contractors),
        )
        self._list_layout(SECTION_TITLE, buttons)
        QShortcut(QKeySequence(EDIT_KEY), self).activated.connect(self.edit_selected)

    # --- loading ----------------------------------------------------------------------------

    def load(self) -> None:
        """The list read again, the open windows too."""
        self._reload()
        for window in list(self.person_windows.values()):
            window.reload()
        self.loaded = True

    def changed_elsewhere(self, entities: Sequence[str], shown: bool) -> None:
        """Another workstation (or window) changed people or credentials: the list when it is
        shown (else when it is shown next), the people's windows open."""
        if not any(e in WATCHED for e in entities):
            return
        if shown and self.loaded:
            self.load()
        else:
            self._reload_windows()

    def _reload(self, keep: int | None = None) -> None:
        current = self.presenter.party(selected_row(self.table))
        self.presenter.load()
        row = self.presenter.row_of(keep or (current.party_id if current else 0))
        self.model.reload()
        fit_columns(self.table, (0, 2, 4))
        if self.model.rowCount():
            self.table.selectRow(max(row, 0))
        self.summary.setText(self.presenter.summary)
        self._buttons()

    def _buttons(self) -> None:
        row = selected_row(self.table)
        p = self.presenter
        enable_buttons(
            (
                (self.new_button, p.can_manage()),
                (self.open_button, p.can_open(row)),
                (self.edit_button, p.can_edit(row)),
                (self.retire_button, p.can_retire(row)),
                (self.restore_button, p.can_restore(row)),
                (self.merge_button, p.can_merge(row)),
                (self.import_button, p.can_import()),
            )
        )
        self.note.setText(p.detail(row) if p.rows else p.empty_text)

    def _filter(self) -> None:
        self.presenter.text = self.search.text()
        self.presenter.which = PartyFilter(self.filter.currentData())
        self._reload()

    def show_filter(self, which: PartyFilter) -> None:
        self.filter.setCurrentIndex([f for _l, f in FILTERS].index(which))

    def names(self) -> list[str]:
        """The names the list shows (tests and screen readers)."""
        return [line.cells[0] for line in self.presenter.rows]

    def select_party(self, party_id: int) -> bool:
        row = self.presenter.row_of(party_id)
        if row >= 0:
            self.table.selectRow(row)
        return row >= 0

    # --- steps ------------------------------------------------------------------------------

    def _selected(self) -> PartyRow | None:
        return self.presenter.party(selected_row(self.table))

    def new_person(self) -> int | None:
        """The New person dialog of the application form; the record added is selected."""
        if not self.presenter.can_manage()[0]:
            return None
        from ui.views.intake_dialogs import NewPartyDialog

        typed = " ".join(self.search.text().split())
        # A name searched for and not found is the name to add; a phone or an e-mail is not.
        name = typed if typed and not any(ch.isdigit() or ch == "@" for ch in typed) else ""
        dialog = NewPartyDialog(self.database, self.clock, self.session.actor, self, name=name)
        done = actions.exec_dialog(dialog)
        party_id = dialog.party_id
        dialog.deleteLater()
        if not done or party_id is None:
            return None
        self._status("Added to the register.")
        self._show(party_id)
        return party_id

    def _show(self, party_id: int) -> None:
        """The record in the list: the search cleared, a filter that shows it."""
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.presenter.text = ""
        if self.presenter.which not in (PartyFilter.ACTIVE, PartyFilter.ALL):
            self.filter.blockSignals(True)
            self.show_filter(PartyFilter.ACTIVE)
            self.filter.blockSignals(False)
            self.presenter.which = PartyFilter.ACTIVE
        self._reload(party_id)

    def _facts(self) -> q.PartyFacts | None:
        r = self._selected()
        return d.read_facts(self._context(), r.party_id) if r is not None else None

    def _run(self, dialog: actions.ActionDialog, party_id: int) -> bool:
        done = actions.exec_dialog(dialog)
        dialog.deleteLater()
        self._reload(party_id)
        window = self.person_windows.get(party_id)
        if window is not None:
            window.reload()
        return done

    def edit_selected(self) -> bool:
        row = selected_row(self.table)
        f = self._facts()
        if f is None or not self.presenter.can_edit(row)[0]:
            return False
        done = self._run(d.PartyEditDialog(self._context(), f, self), f.id)
        if done:
            self._status(f"{f.name}: the record is saved.")
        return done

    def retire_selected(self) -> bool:
        row = selected_row(self.table)
        f = self._facts()
        if f is None or not self.presenter.can_retire(row)[0]:
            return False
        done = self._run(d.RetireDialog(self._context(), f, self), f.id)
        if done:
            self._status(f"{f.name} is retired.")
        return done

    def restore_selected(self) -> bool:
        from desk.services.people import retire

        row = selected_row(self.table)
        f = self._facts()
        if f is None:
            return False
        done = self._confirmed(
            "Restore",
            self.presenter.can_restore(row),
            f"Restore {f.name}? The record is offered again when a permit, a payment or a "
            "notice names someone.",
            lambda: retire.restore_party(
                self.database.uow(), self.clock, self.session.actor, f.id, f.version
            ),
        )
        self._reload(f.id)
        if done:
            self._status(f"{f.name} is restored.")
        return done

    def merge_selected(self) -> bool:
        """Merge… with the selected record as the one kept and the search for its duplicate
        started with its name."""
        row = selected_row(self.table)
        r = self._selected()
        if r is None or not self.presenter.can_merge(row)[0]:
            return False
        dialog = d.MergeDialog(self._context(), r.party_id, r.name, self)
        done = actions.exec_dialog(dialog)
        kept = dialog.kept_id
        dialog.deleteLater()
        if done and kept is not None:
            self._status("The records are merged.")
            self._show(kept)
        else:
            self._reload(r.party_id)
        for window in list(self.person_windows.values()):
            window.reload()
        return done

    def import_contractors(self) -> object:
        """The contractors' spreadsheet (ui/views/contractor_import.py), one window at a time;
        the list reads again once it has imported."""
        if not self.presenter.can_import()[0]:
            return None
        shown = self.import_dialog
        if shown is not None and shown.isVisible():
            shown.raise_()
            shown.activateWindow()
            return shown
        # Imported when asked for: the import screen and its readers load only then.
        from ui.views.contractor_import import open_contractor_import

        dialog = open_contractor_import(self, self.database, self.session, self.clock)
        dialog.imported.connect(lambda *_a: self.load())
        self.import_dialog = dialog
        return dialog

    def open_selected(self) -> PersonWindow | None:
        r = self._selected()
        return self.open_person(r.party_id) if r is not None else None

    def open_person(self, party_id: int, tab: str | None = None) -> PersonWindow:
        """The person's window, created the first time (one window per record), on `tab`."""
        window = self._record_window(
            self.person_windows, party_id, lambda: self._person_window(party_id)
        )
        if tab is not None:
            window.select_tab(tab)
        return window

    def _person_window(self, party_id: int) -> PersonWindow:
        window = PersonWindow(self._context(), party_id, self)
        window.open_permit.connect(self.open_permit)
        # A merge in one window moves records shown in another: each reads again.
        window.changed.connect(lambda _rid: self._reload_windows())
        return window

    def _reload_windows(self) -> None:
        for window in list(self.person_windows.values()):
            window.reload()
