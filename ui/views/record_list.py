"""A section that is one list of records, each opening its own window: the Code enforcement cases
(Hudson 140-3) and the Rooming house licences (140-10). The search and filter over the table,
the note and the buttons under it, Ctrl+F to the search, and one window per record, raised when
it is open already and read again when it reports a step."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QTableView, QWidget

from desk.clock import Clock
from desk.errors import DeskError
from desk.services.uow import UnitOfWork
from ui.views.section import SectionView

W = TypeVar("W", bound=QWidget)


class RecordListSection(SectionView):
    search: QLineEdit
    filter: QComboBox
    table: QTableView
    note: QLabel
    swept_on: date | None = None  # the day this section last ran its register's sweep

    def _sweep_once_a_day(self, sweep: Callable[[UnitOfWork, Clock, int], object]) -> None:
        """The register's lifecycle sweep (what the ordinance does by itself: a notice becomes
        an order, 140-3D; a suspended licence is revoked, 140-10D) the first time the section
        is shown each day, as on start; not a write on every show or refresh. Recorded as the
        app's, not the user's; on a refusal the next start or the CLI sweep tries again."""
        today = self.clock.today()
        if self.database.read_only or self.swept_on == today:
            return
        self.swept_on = today
        with contextlib.suppress(DeskError):
            sweep(self.database.uow(), self.clock, self.session.municipality_id)

    def _list_layout(self, title: str, buttons: QHBoxLayout) -> None:
        """The heading (`title`, the counts) over the search and filter, the table, the note
        and the buttons; the buttons follow the row selected (`_buttons`)."""
        top = self._heading(title)
        filters = QHBoxLayout()
        filters.addWidget(self.search, 2)
        filters.addWidget(self.filter)
        layout = self._section_layout(top)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        layout.addLayout(buttons)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._buttons())
        QShortcut(QKeySequence.StandardKey.Find, self).activated.connect(self._focus_search)

    def _buttons(self) -> None:
        raise NotImplementedError

    def _reload(self, keep: int | None = None) -> None:
        """The list read again, the record `keep` (else the one selected) selected."""
        raise NotImplementedError

    def _focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def _record_window(self, windows: dict[int, W], record_id: int, make: Callable[[], W]) -> W:
        """The record's window from `windows`, made the first time (one window per record);
        it leaves `windows` when closed, and a step recorded in it reads the list again."""
        window = windows.get(record_id)
        if window is None:
            window = make()
            signals: Any = window  # closed and changed: the record windows' own signals
            signals.closed.connect(lambda rid: windows.pop(rid, None))
            signals.changed.connect(lambda rid: self._reload(rid))
            windows[record_id] = window
            signals.reload()
        window.show()
        window.raise_()
        window.activateWindow()
        return window
