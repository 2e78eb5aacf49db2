"""The "Code enforcement" section (Hudson ch. 140, procedure of 140-3): the municipality's cases
with the stage each is at and its next date, filtered (open; notice not yet served; petition
window open; order past its correction date; hearing scheduled; closed this year) and searched
as you type (case number, address, PIN, owner). Enter opens the case's window
(ui/enforcement/window.py), where the steps are taken. Take complaint… (Ctrl+J) opens a case.

The list shows how many cases are found and reads them 200 at a time as it is scrolled
(ui/views/paged.py). Opening the section the first time in a day makes the orders 140-3D says
are due (sweep_notices, as the app does on start), so the list is never behind the day. A thin
view over ui/presenters/enforcement.py."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QPushButton,
    QWidget,
)

from db import enforcement_queries as q
from db.database import Database
from db.enforcement_case_view import case_facts, municipality_housing_code, office_calendar
from desk.clock import Clock
from desk.enforcement.readmodels import CaseFilter, CaseRow
from desk.services.enforcement.sweep import sweep_notices
from ui.enforcement.window import CaseWindow
from ui.permit import actions
from ui.presenters.enforcement import (
    COMPLAINT_KEY,
    FILTERS,
    SECTION_TITLE,
    CaseListPresenter,
    open_on_observation_allowed,
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
from ui.views.enforcement_dialogs import ComplaintDialog, DocketDialog, ObservationDialog
from ui.views.paged import PagedLinesModel
from ui.views.record_list import RecordListSection

__all__ = ["SECTION_TITLE", "EnforcementView"]
WARN = QColor(160, 40, 30)


class SqlCaseSource:
    """The municipality's cases as of the clock's day, each read on a short connection."""

    def __init__(self, database: Database, municipality_id: int, clock: Clock) -> None:
        self.database = database
        self.municipality_id = municipality_id
        self.clock = clock

    def count(self, which: CaseFilter, text: str) -> int:
        with self.database.read() as conn:
            cal = office_calendar(conn, self.municipality_id)
            return q.case_count(conn, self.municipality_id, self.clock.today(), which, text, cal)

    def page(self, which: CaseFilter, text: str, offset: int, limit: int) -> list[CaseRow]:
        with self.database.read() as conn:
            today = self.clock.today()
            cal = office_calendar(conn, self.municipality_id)
            mid = self.municipality_id
            return q.case_rows(conn, mid, today, which, text, limit, offset, cal)


class EnforcementView(RecordListSection):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__("enforcementView", database, session, clock, parent)

        def facts(ids: Sequence[int]) -> Any:
            with database.read() as conn:
                return case_facts(conn, ids)

        source = SqlCaseSource(database, session.municipality_id, clock)
        self.presenter = CaseListPresenter(source, facts, clock.today, session.actor)
        self.case_windows: dict[int, CaseWindow] = {}

        self.search = search_field(
            self, "caseSearch", "Case number, address, PIN or owner", self._filter
        )
        self.filter = filter_combo(self, "caseFilter", FILTERS, self._filter)
        self.model = PagedLinesModel(self.presenter, self, WARN)
        self.table = read_only_table(self, "casesTable", self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.activated.connect(lambda _i: self.open_selected())
        self.note = note_label(self)
        self.model.failed.connect(self.note.setText)
        self.complaint_button = QPushButton(f"Take &complaint… ({COMPLAINT_KEY})", self)
        self.open_button = QPushButton("&Open case", self)
        self.observation_button = QPushButton("Open case on o&bservation…", self)
        self.docket_button = QPushButton("Hearing doc&ket…", self)
        self.housing_code = ""  # the municipality's, read on load: the texts cite its procedure
        buttons = button_row(
            ("takeComplaint", self.complaint_button, self.take_complaint),
            ("openCase", self.open_button, self.open_selected),
            ("openOnObservation", self.observation_button, self.open_on_observation),
            ("hearingDocket", self.docket_button, self.print_docket),
        )
        self._list_layout(SECTION_TITLE, buttons)
        QShortcut(QKeySequence(COMPLAINT_KEY), self).activated.connect(self.take_complaint)

    # --- loading ----------------------------------------------------------------------------

    def load(self) -> None:
        """The orders due today made (140-3D), the list read again, the open cases too."""
        self._sweep_once_a_day(sweep_notices)
        with self.database.read() as conn:
            self.housing_code = municipality_housing_code(conn, self.session.municipality_id)
        self._reload()
        for window in list(self.case_windows.values()):
            window.reload()
        self.loaded = True

    def _reload(self, keep: int | None = None) -> None:
        current = self.presenter.case(selected_row(self.table))
        self.presenter.load()
        row = self.presenter.row_of(keep or (current.case_id if current else 0))
        self.model.reload()
        fit_columns(self.table, (1,))
        if self.model.rowCount():
            self.table.selectRow(max(row, 0))
        self.summary.setText(self.presenter.summary)
        self._buttons()

    def _buttons(self) -> None:
        row = selected_row(self.table)
        enable_buttons(
            (
                (self.complaint_button, self.presenter.can_take_complaint()),
                (
                    self.observation_button,
                    open_on_observation_allowed(self.session.actor, self.housing_code),
                ),
                (
                    self.open_button,
                    (True, "") if self.presenter.case(row) else (False, "Select a case."),
                ),
            )
        )
        p = self.presenter
        self.note.setText(p.detail(row) if p.rows else p.empty_text)

    def _filter(self) -> None:
        self.presenter.text = self.search.text()
        self.presenter.which = CaseFilter(self.filter.currentData())
        self._reload()

    def show_filter(self, which: CaseFilter) -> None:
        self.filter.setCurrentIndex([f for _l, f in FILTERS].index(which))

    def case_numbers(self) -> list[str]:
        """The cases the list shows, by number (tests and screen readers)."""
        return [line.cells[0] for line in self.presenter.rows]

    # --- steps ------------------------------------------------------------------------------

    def take_complaint(self) -> bool:
        if not self.presenter.can_take_complaint()[0]:
            return False
        dialog = ComplaintDialog(self._context(), self)
        done = actions.exec_dialog(dialog)
        opened = dialog.opened
        dialog.deleteLater()
        if not done or opened is None:
            return False
        if opened.opened:
            self._status(f"Complaint taken: case {opened.number} is opened.")
        else:
            self._status(f"Complaint taken: it joins the open case {opened.number}.")
        self.search.clear()
        if self.presenter.which not in (CaseFilter.OPEN, CaseFilter.ALL):
            self.show_filter(CaseFilter.OPEN)
        self._reload(opened.case_id)
        return True

    def open_on_observation(self) -> bool:
        """The inspector's own observation opens a case (140-2); its window opens."""
        if not open_on_observation_allowed(self.session.actor)[0]:
            return False
        dialog = ObservationDialog(self._context(), self)
        done = actions.exec_dialog(dialog)
        opened = dialog.opened
        dialog.deleteLater()
        if not done or opened is None:
            return False
        self._status(f"Case {opened.number} is opened on observation.")
        self.search.clear()
        if self.presenter.which not in (CaseFilter.OPEN, CaseFilter.ALL):
            self.show_filter(CaseFilter.OPEN)
        self._reload(opened.case_id)
        self.open_case(opened.case_id)
        return True

    def print_docket(self, direct: bool = False) -> Path | None:
        """The Common Council's hearing docket for a meeting date (140-3B): the next date with
        hearings scheduled unless another is chosen."""
        from db.letterheads import letterhead_as_of
        from reports.enforcement.hearing import render_hearing_docket
        from ui.exports import REPORTS, printout

        mid = self.session.municipality_id
        today = self.clock.today()
        with self.database.read() as conn:
            first = q.next_hearing_day(conn, mid, today) or today
        dialog = DocketDialog(self._context(), first, self)
        done = actions.exec_dialog(dialog)
        on = dialog.chosen
        dialog.deleteLater()
        if not done or on is None:
            return None

        def write(out: Path) -> None:
            with self.database.read() as conn:
                rows = q.hearing_docket(conn, mid, on)
                letterhead = letterhead_as_of(conn, mid, on)
            render_hearing_docket(on, rows, letterhead, out, self.housing_code)

        return printout(
            self,
            f"Hearing docket — {on.isoformat()}",
            f"hearing-docket-{on.isoformat()}.pdf",
            write,
            REPORTS,
            "The hearing docket",
            direct=direct,
        )

    def open_selected(self) -> CaseWindow | None:
        r = self.presenter.case(selected_row(self.table))
        return self.open_case(r.case_id) if r is not None else None

    def open_case(self, case_id: int) -> CaseWindow:
        """The case's window, created the first time (one window per case)."""
        return self._record_window(
            self.case_windows, case_id, lambda: CaseWindow(self._context(), case_id, self)
        )

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print): the selected case's latest notice, to the print dialog."""
        r = self.presenter.case(selected_row(self.table))
        if r is None:
            return False
        window = CaseWindow(self._context(), r.case_id, self)
        try:
            window.reload()
            path: Path | None = window.print_notice(direct=True)
        finally:
            window.deleteLater()
        return path is not None
