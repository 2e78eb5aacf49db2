"""The "Parcels" section: the municipality's parcel register, searched as you type (PIN,
address, owner of record, state or tax parcel id), filtered (Active, Retired, All) and sorted
(by street and house number, or by PIN), read 200 at a time as it is scrolled
(ui/views/paged.py). Every municipality has it, a permit office or not: code enforcement and the
rooming-house licences choose their property here too.

Enter opens the parcel's window (ui/parcel/window.py); New parcel… adds one by hand, Import
parcels… brings in the county's parcel file; Edit… (Ctrl+E), Retire…, Restore and Merge…
correct the register (desk/services/parcels). The buttons follow the roles, each disabled with
why as its tooltip; the services check again. A thin view over ui/presenters/parcels.py."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QPushButton,
    QWidget,
)

from db import parcel_queries as q
from db.database import Database
from desk.clock import Clock
from desk.errors import DeskError
from ui import dialogs
from ui.columns import fit_to_width
from ui.models.base import Index
from ui.parcel import dialogs as d
from ui.parcel.window import ParcelWindow, restore_parcel
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.presenters import parcels as p
from ui.presenters.session import Session
from ui.views.common import (
    button_row,
    enable_buttons,
    filter_combo,
    note_label,
    read_only_table,
    search_field,
    selected_row,
)
from ui.views.paged import PagedLinesModel
from ui.views.record_list import RecordListSection

__all__ = ["SECTION_TITLE", "ParcelsView"]
SECTION_TITLE = p.SECTION_TITLE
GREY = QColor(110, 118, 128)  # a retired parcel: read, no longer chosen


class SqlParcelSource:
    """The municipality's parcels, each page read on a short connection."""

    def __init__(self, database: Database, municipality_id: int) -> None:
        self.database = database
        self.municipality_id = municipality_id

    def count(self, which: q.ParcelFilter, text: str) -> int:
        with self.database.read() as conn:
            return q.parcel_count(conn, self.municipality_id, which, text)

    def page(
        self, which: q.ParcelFilter, text: str, sort: q.ParcelSort, offset: int, limit: int
    ) -> list[q.ParcelRow]:
        with self.database.read() as conn:
            return q.parcel_rows(conn, self.municipality_id, which, text, sort, limit, offset)


class ParcelsModel(PagedLinesModel):
    """The list's rows; the figures right-aligned."""

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in p.NUMERIC_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return super().data(index, role)


class ParcelsView(RecordListSection):
    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
        *,
        open_case: Callable[[int], object] | None = None,
        open_licence: Callable[[int], object] | None = None,
    ) -> None:
        super().__init__("parcelsView", database, session, clock, parent)
        self.open_case = open_case
        self.open_licence = open_licence
        self.presenter = p.ParcelListPresenter(
            SqlParcelSource(database, session.municipality_id), session.actor
        )
        self.parcel_windows: dict[int, ParcelWindow] = {}

        self.search = search_field(
            self, "parcelSearch", "PIN, address, owner or state parcel id", self._filter
        )
        self.filter = filter_combo(self, "parcelFilter", p.FILTERS, self._filter)
        self.sort = filter_combo(self, "parcelSort", p.SORTS, self._filter)
        self.model = ParcelsModel(self.presenter, self, GREY)
        self.table = read_only_table(self, "parcelsTable", self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.activated.connect(lambda _i: self.open_selected())
        self.note = note_label(self)
        self.model.failed.connect(self.note.setText)
        self.new_button = QPushButton("&New parcel…", self)
        self.open_button = QPushButton("&Open", self)
        self.edit_button = QPushButton(f"&Edit… ({p.EDIT_KEY})", self)
        self.retire_button = QPushButton("&Retire…", self)
        self.restore_button = QPushButton("Re&store", self)
        self.merge_button = QPushButton("&Merge…", self)
        self.import_button = QPushButton("&Import parcels…", self)
        buttons = button_row(
            ("newParcel", self.new_button, lambda: self.new_parcel()),
            ("openParcel", self.open_button, lambda: self.open_selected()),
            ("editParcel", self.edit_button, lambda: self.edit_selected()),
            ("retireParcel", self.retire_button, lambda: self.retire_selected()),
            ("restoreParcel", self.restore_button, lambda: self.restore_selected()),
            ("mergeParcels", self.merge_button, lambda: self.merge_selected()),
        )
        buttons.addWidget(self.import_button)
        self.import_button.setObjectName("importParcels")
        self.import_button.setAutoDefault(False)
        self.import_button.clicked.connect(lambda: self.import_parcels())
        self._layout(buttons)
        QShortcut(QKeySequence(p.EDIT_KEY), self).activated.connect(lambda: self.edit_selected())

    def _layout(self, buttons: QHBoxLayout) -> None:
        """As RecordListSection._list_layout, with the sort beside the filter."""
        top = self._heading(SECTION_TITLE)
        filters = QHBoxLayout()
        filters.addWidget(self.search, 2)
        filters.addWidget(self.filter)
        filters.addWidget(self.sort)
        layout = self._section_layout(top)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        layout.addLayout(buttons)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._buttons())
        QShortcut(QKeySequence.StandardKey.Find, self).activated.connect(self._focus_search)

    # --- loading ----------------------------------------------------------------------------

    def load(self) -> None:
        """The list read again, and the parcels' windows open."""
        self._reload()
        self.reload_windows()
        self.loaded = True

    def reload_windows(self) -> None:
        for window in list(self.parcel_windows.values()):
            window.reload()

    def _reload(self, keep: int | None = None) -> None:
        current = self.presenter.parcel(selected_row(self.table))
        self.presenter.load()
        row = self.presenter.row_of(keep or (current.id if current else 0))
        self.model.reload()
        self._fit()
        if self.model.rowCount():
            self.table.selectRow(max(row, 0))
        self.summary.setText(self.presenter.summary)
        self._buttons()

    def _fit(self) -> None:
        """The figures as wide as they are; the address and the owner share the rest."""
        fit_to_width(self.table, (1, 2))

    def _buttons(self) -> None:
        actor = self.session.actor
        r = self.presenter.parcel(selected_row(self.table))
        s = p.state_of_row(r)
        enable_buttons(
            (
                (self.new_button, p.manage_allowed(actor)),
                (self.open_button, (True, "") if r else (False, "Select a parcel.")),
                (self.edit_button, p.edit_allowed(actor, s)),
                (self.retire_button, p.retire_allowed(actor, s)),
                (self.restore_button, p.restore_allowed(actor, s)),
                (self.merge_button, p.merge_allowed(actor, s)),
                (self.import_button, p.import_allowed(actor)),
            )
        )
        pr = self.presenter
        self.note.setText(pr.detail(selected_row(self.table)) if pr.rows else pr.empty_text)

    def _filter(self) -> None:
        self.presenter.text = self.search.text()
        self.presenter.which = q.ParcelFilter(self.filter.currentData())
        self.presenter.sort = q.ParcelSort(self.sort.currentData())
        self._reload()

    def show_filter(self, which: q.ParcelFilter) -> None:
        self.filter.setCurrentIndex([f for _l, f in p.FILTERS].index(which))

    def set_search(self, text: str) -> None:
        self.search.setText(text)

    def pins(self) -> list[str]:
        """The parcels the list shows, by PIN (tests and screen readers)."""
        return self.presenter.pins()

    def select_parcel(self, parcel_id: int) -> bool:
        row = self.presenter.row_of(parcel_id)
        if row >= 0:
            self.table.selectRow(row)
        return row >= 0

    # --- steps ------------------------------------------------------------------------------

    def open_selected(self) -> ParcelWindow | None:
        r = self.presenter.parcel(selected_row(self.table))
        return self.open_parcel(r.id) if r is not None else None

    def open_parcel(self, parcel_id: int) -> ParcelWindow:
        """The parcel's window, created the first time (one window per parcel)."""

        def make() -> ParcelWindow:
            window = ParcelWindow(
                self._context(),
                parcel_id,
                self,
                open_permit=self.open_permit.emit,
                open_case=self.open_case,
                open_licence=self.open_licence,
            )
            # A merge changes two parcels: every open window reads its parcel again.
            window.changed.connect(lambda _rid: self.reload_windows())
            return window

        return self._record_window(self.parcel_windows, parcel_id, make)

    def _changed(self, parcel_id: int) -> None:
        """A correction made here: the list, and the parcel's window when it is open."""
        self._reload(parcel_id)
        window = self.parcel_windows.get(parcel_id)
        if window is not None:
            window.reload()

    def new_parcel(self) -> int | None:
        """A parcel added by hand (the county's file brings the rest)."""
        if not p.manage_allowed(self.session.actor)[0]:
            return None
        from ui.views.intake_dialogs import NewParcelDialog

        dialog = NewParcelDialog(
            self.database,
            self.clock,
            self.session.actor,
            self.session.municipality_id,
            self,
            street=self.search.text(),  # what was searched for and not found
        )
        done = actions.exec_dialog(dialog)
        parcel_id = dialog.parcel_id
        dialog.deleteLater()
        if not done or parcel_id is None:
            return None
        self.search.clear()
        if self.presenter.which is q.ParcelFilter.RETIRED:
            self.show_filter(q.ParcelFilter.ACTIVE)
        self._reload(parcel_id)
        self._status("The parcel is added to the register.")
        return parcel_id

    def _facts(self) -> q.ParcelFacts | None:
        r = self.presenter.parcel(selected_row(self.table))
        if r is None:
            return None
        try:
            return d.read_facts(self._context(), r.id)
        except DeskError as e:
            dialogs.warn(self, SECTION_TITLE, str(e))
            return None

    def _run(self, make: Callable[[q.ParcelFacts], ActionDialog], done_words: str) -> bool:
        f = self._facts()
        if f is None:
            return False
        dialog = make(f)
        d.focus_first(dialog)
        done = actions.exec_dialog(dialog)
        dialog.deleteLater()
        self._changed(f.id)
        if done:
            self._status(done_words.format(pin=f.pin))
        return done

    def edit_selected(self) -> bool:
        s = p.state_of_row(self.presenter.parcel(selected_row(self.table)))
        if not p.edit_allowed(self.session.actor, s)[0]:
            return False
        return self._run(
            lambda f: d.ParcelEditDialog(self._context(), f, self), "Parcel {pin} is corrected."
        )

    def retire_selected(self) -> bool:
        s = p.state_of_row(self.presenter.parcel(selected_row(self.table)))
        if not p.retire_allowed(self.session.actor, s)[0]:
            return False
        return self._run(
            lambda f: d.RetireDialog(self._context(), f, self), "Parcel {pin} is retired."
        )

    def restore_selected(self) -> bool:
        r = self.presenter.parcel(selected_row(self.table))
        if r is None or not p.restore_allowed(self.session.actor, p.state_of_row(r))[0]:
            return False
        f = self._facts()
        done = f is not None and restore_parcel(self, self._context(), f)
        self._changed(r.id)
        if done:
            self._status(f"Parcel {r.pin} is restored.")
        return done

    def merge_selected(self) -> bool:
        r = self.presenter.parcel(selected_row(self.table))
        if not p.merge_allowed(self.session.actor, p.state_of_row(r))[0]:
            return False
        dialog = d.MergeDialog(self._context(), r.pin if r is not None else "", self)
        dialog.focus_start()
        done = actions.exec_dialog(dialog)
        kept = dialog.kept.currentData()
        dialog.deleteLater()
        if not done:
            return False
        for window in list(self.parcel_windows.values()):
            window.reload()
        self._reload(int(kept) if kept is not None else None)
        self._status("The parcels are merged.")
        return True

    def import_parcels(self) -> object:
        """The county's parcel file (ui/views/parcel_import.py): the main window's one import
        window (File → Import parcels…), which reads this list again once it has imported."""
        if not p.import_allowed(self.session.actor)[0]:
            return None
        opener = getattr(self.window(), "open_parcel_import", None)
        if callable(opener):
            return opener()
        # On its own (tests): imported when asked for, the readers of the files load only then.
        screen: Any = importlib.import_module("ui.views.parcel_import")
        dialog = screen.open_parcel_import(self, self.database, self.session, self.clock)
        dialog.imported.connect(lambda _id: self.load())
        return dialog
