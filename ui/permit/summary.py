"""The Summary tab: the permit's form, read-only, and its deadlines (the parties have their own
tab)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from desk.domain.lifecycle import ACTIVE
from desk.domain.readmodels import PermitDetail
from desk.errors import DeskError
from desk.services.lifecycle import permit_deadlines
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.permit_actions import DeadlineRow, deadline_rows, deadlines_note
from ui.presenters.permit_detail import PermitSummaryPresenter, Section
from ui.views.common import page_scroll, section_title, value_label

# Sections side by side: the left column and the right column.
_LEFT = ("Permit", "Dates")
_RIGHT = ("Site", "Size and value")


class SummaryTab(PermitTab):
    key = "summary"
    title = "Summary"

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.values: dict[str, QLabel] = {}
        self.presenter: PermitSummaryPresenter | None = None
        self.deadlines: list[DeadlineRow] = []
        self._scroll = page_scroll(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._scroll)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        self.presenter = PermitSummaryPresenter(detail)
        self.values = {}
        body = QWidget()
        body.setObjectName("summaryBody")
        grid = QGridLayout(body)
        grid.setContentsMargins(20, 16, 20, 16)
        grid.setHorizontalSpacing(36)
        grid.setVerticalSpacing(18)
        sections = {s.title: s for s in self.presenter.sections()}
        for col, titles in enumerate((_LEFT, _RIGHT)):
            grid.addWidget(self._column([sections[t] for t in titles]), 0, col)
        grid.addWidget(self._deadlines(detail), 1, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(2, 1)
        self._scroll.setWidget(body)

    def _column(self, sections: list[Section]) -> QWidget:
        """Sections stacked in one grid, so their labels line up down the column."""
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(6)
        row = 0
        for section in sections:
            if row:
                grid.setRowMinimumHeight(row, 12)
                row += 1
            grid.addWidget(section_title(section.title), row, 0, 1, 2)
            row += 1
            for field in section.fields:
                name = QLabel(field.label)
                name.setObjectName("fieldLabel")
                name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
                value = value_label(field.value)
                name.setBuddy(value)
                self.values[field.label] = value
                grid.addWidget(name, row, 0)
                grid.addWidget(value, row, 1)
                row += 1
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(row, 1)
        return box

    def _deadlines(self, detail: PermitDetail) -> QWidget:
        """The permit's deadlines as desk/ computes them (15.1.8, 15.1.42, 15.2.8(e), §435-7 …),
        each moved by its latest extension."""
        rows: list[DeadlineRow] = []
        if detail.issued_on is not None and detail.status in ACTIVE:
            try:
                found = permit_deadlines(self.context.database.uow(), detail.id)
            except DeskError:
                found = []
            rows = deadline_rows(found, self.context.clock.today())
        self.deadlines = rows
        box = QWidget()
        outer = QVBoxLayout(box)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        outer.addWidget(section_title("Deadlines"))
        note = deadlines_note(detail.status, detail.issued_on is not None, bool(rows))
        if note:
            outer.addWidget(value_label(note))
            return box
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(6)
        for col, heading in enumerate(("Deadline", "By", "Section", "")):
            label = QLabel(heading)
            label.setObjectName("columnHeading")
            grid.addWidget(label, 0, col)
        for row, d in enumerate(rows, start=1):
            name = QLabel(d.label)
            name.setObjectName("fieldLabel")
            due = value_label(d.due)
            self.values[d.label] = due
            grid.addWidget(name, row, 0)
            grid.addWidget(due, row, 1)
            grid.addWidget(value_label(d.section), row, 2)
            grid.addWidget(value_label(d.note), row, 3)
        grid.setColumnStretch(3, 1)
        outer.addLayout(grid)
        return box

    def value(self, label: str) -> str:
        """The text shown for a field (tests look fields up by their label)."""
        return self.values[label].text()
