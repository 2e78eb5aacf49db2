"""The Summary tab: the permit's form, read-only, and its parties."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from desk.domain.readmodels import PermitDetail
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.formatting import EMPTY
from ui.presenters.permit_detail import PermitSummaryPresenter, Section

# Sections side by side: the left column and the right column.
_LEFT = ("Permit", "Dates")
_RIGHT = ("Site", "Size and value")


def _value_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("fieldValue")
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setProperty("missing", text == EMPTY or text.startswith(EMPTY + " "))
    return label


def _section_title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionTitle")
    return label


class SummaryTab(PermitTab):
    key = "summary"
    title = "Summary"

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.values: dict[str, QLabel] = {}
        self.presenter: PermitSummaryPresenter | None = None
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
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
        grid.addWidget(self._parties(), 1, 0, 1, 2)
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
            grid.addWidget(_section_title(section.title), row, 0, 1, 2)
            row += 1
            for field in section.fields:
                name = QLabel(field.label)
                name.setObjectName("fieldLabel")
                name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
                value = _value_label(field.value)
                name.setBuddy(value)
                self.values[field.label] = value
                grid.addWidget(name, row, 0)
                grid.addWidget(value, row, 1)
                row += 1
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(row, 1)
        return box

    def _parties(self) -> QWidget:
        assert self.presenter is not None
        box = QWidget()
        outer = QVBoxLayout(box)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        outer.addWidget(_section_title("Parties"))
        parties = self.presenter.parties()
        if not parties:
            outer.addWidget(_value_label("No owner, applicant or contractor recorded."))
            return box
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(6)
        for col, heading in enumerate(("Role", "Name", "Mailing address", "Phone")):
            label = QLabel(heading)
            label.setObjectName("columnHeading")
            grid.addWidget(label, 0, col)
        for row, party in enumerate(parties, start=1):
            role = QLabel(party.role)
            role.setObjectName("fieldLabel")
            grid.addWidget(role, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(_value_label(party.name), row, 1, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(_value_label(party.address or EMPTY), row, 2, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(_value_label(party.phone or EMPTY), row, 3, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(2, 3)
        grid.setColumnStretch(3, 1)
        outer.addLayout(grid)
        return box

    def value(self, label: str) -> str:
        """The text shown for a field (tests look fields up by their label)."""
        return self.values[label].text()
