"""The Work tab: what the application says about the work (PermitWorkPresenter), read-only, in
the Summary tab's look; below, the findings that hold a permit back and who may record them:
the building's damage (15.1.9(b), inspector), the Plumbing Inspector's special permission and
the parcel's delinquent sewer tax (15.1.36, clerk or treasurer). Beside them, who owns a new
building (publicly owned housing is left off Census Form C-404), which the office may correct.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import Connection

from db import queries
from desk.domain.readmodels import PermitDetail
from desk.domain.reports import OWNERSHIP, PRIVATE, PUBLIC, ownership_answer
from desk.errors import DeskError
from desk.services import permits
from desk.services.intake import record_ownership
from ui import dialogs
from ui.permit.base import PermitContext, PermitTab
from ui.presenters.intake import (
    PRIVATE_WORDS,
    PUBLIC_WORDS,
    may_record_ownership,
    ownership_of,
)
from ui.presenters.permit_work import PermitWorkPresenter, WorkField, WorkSection
from ui.views.common import page_scroll, section_title, value_label

TITLE = "Work"
# Sections side by side: the work on the left; the flags and holds on the right; the SBD-5823
# answers below, across.
OWNERSHIP_TITLE = "Ownership"
_RIGHT = ("Work begun, emergency", "Holds", OWNERSHIP_TITLE)
_OWNERSHIP_CHOICES = ((PRIVATE, PRIVATE_WORDS), (PUBLIC, PUBLIC_WORDS))


def ask_damage(parent: QWidget | None, current: int | None) -> int | None:
    """The inspector's finding in percent of equalized value, or None when cancelled. Tests
    patch this."""
    value, ok = QInputDialog.getInt(
        parent,
        "Record damage",
        "Damage or deterioration of the building, as a share of its equalized value (%)\n"
        "50% or more: no permit to repair, alter or move it (15.1.9(b)).",
        current if current is not None else 0,
        0,
        100,
    )
    return int(value) if ok else None


def ask_permission(parent: QWidget | None, pin: str) -> str | None:
    """The words of the Plumbing Inspector's special permission, or None when cancelled."""
    text, ok = QInputDialog.getMultiLineText(
        parent,
        "Sewer permission",
        f"Special permission to connect although a sewer tax or assessment on parcel {pin} "
        "is delinquent (15.1.36).\nWho granted it, when, and on what terms:",
    )
    return str(text) if ok else None


def ask_ownership(parent: QWidget | None, current: str) -> str | None:
    """PUBLIC or PRIVATE as the clerk chooses, or None when cancelled. Tests patch this."""
    labels = [words for _, words in _OWNERSHIP_CHOICES]
    keys = [key for key, _ in _OWNERSHIP_CHOICES]
    text, ok = QInputDialog.getItem(
        parent,
        "Ownership",
        "Who owns the building? Census Form C-404 counts new privately owned housing only;\n"
        "housing owned by a government body or public housing authority is left off.",
        labels,
        keys.index(current) if current in keys else 0,
        False,
    )
    return keys[labels.index(text)] if ok and text in labels else None


def ownership_section(detail: PermitDetail) -> WorkSection | None:
    line = ownership_of(detail)
    if line is None:
        return None
    value, note = line
    return WorkSection(OWNERSHIP_TITLE, (WorkField("Owner", value, note),))


def _value_label(text: str, note: bool = False, warning: bool = False) -> QLabel:
    label = value_label(text, "errorText" if warning else "noteText" if note else "fieldValue")
    if note:
        label.setProperty("missing", False)
    return label


class WorkTab(PermitTab):
    key = "work"
    title = TITLE

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.presenter: PermitWorkPresenter | None = None
        self.detail: PermitDetail | None = None
        self.values: dict[str, QLabel] = {}
        self.notes: dict[str, QLabel] = {}
        self.section_titles: list[str] = []
        self._scroll = page_scroll(self)

        self.damage_button = QPushButton("Record dama&ge…", self)
        self.damage_button.setObjectName("recordDamage")
        self.damage_button.setToolTip(
            "The inspector's finding of the building's damage (15.1.9(b), 15.1.3(d)(3))"
        )
        self.damage_button.clicked.connect(self.record_damage)
        self.permission_button = QPushButton("Sewer per&mission…", self)
        self.permission_button.setObjectName("recordSewerPermission")
        self.permission_button.setToolTip("The Plumbing Inspector's special permission (15.1.36)")
        self.permission_button.clicked.connect(self.record_sewer_permission)
        self.sewer_tax_button = QPushButton(self)
        self.sewer_tax_button.setObjectName("sewerTaxDelinquent")
        self.sewer_tax_button.setToolTip(
            "Whether a sewer tax or assessment is delinquent on the parcel (15.1.36)"
        )
        self.sewer_tax_button.clicked.connect(self.toggle_sewer_tax)
        self.ownership_button = QPushButton("O&wnership…", self)
        self.ownership_button.setObjectName("recordOwnership")
        self.ownership_button.setToolTip(
            "Whether a government body or public housing authority owns the building "
            "(Census Form C-404 leaves publicly owned housing off)"
        )
        self.ownership_button.clicked.connect(self.change_ownership)
        self.buttons = QHBoxLayout()
        self.buttons.setContentsMargins(20, 6, 20, 10)
        for b in (
            self.damage_button,
            self.permission_button,
            self.sewer_tax_button,
            self.ownership_button,
        ):
            b.setAutoDefault(False)
            b.setVisible(False)
            self.buttons.addWidget(b)
        self.buttons.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._scroll, 1)
        layout.addLayout(self.buttons)

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        # The ownership answer is a work fact of its own, not an SBD-5823 answer: the presenter
        # sees the permit without it, and the Ownership section shows it.
        details = tuple((k, v) for k, v in detail.work_details if k != OWNERSHIP)
        self.detail = detail
        self.presenter = p = PermitWorkPresenter(replace(detail, work_details=details))
        self.values = {}
        self.notes = {}
        sections = p.sections()
        owned = ownership_section(detail)
        if owned is not None:
            sections = (*sections, owned)
        self.section_titles = [s.title for s in sections]
        body = QWidget()
        body.setObjectName("summaryBody")
        grid = QGridLayout(body)
        grid.setContentsMargins(20, 16, 20, 16)
        grid.setHorizontalSpacing(36)
        grid.setVerticalSpacing(18)
        left = [s for s in sections if s.title == "Work"]
        right = [s for s in sections if s.title in _RIGHT]
        below = [s for s in sections if s.title not in _RIGHT and s.title != "Work"]
        grid.addWidget(self._column(left), 0, 0)
        grid.addWidget(self._column(right), 0, 1)
        for row, section in enumerate(below, start=1):
            grid.addWidget(self._column([section], columns=2), row, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(len(below) + 1, 1)
        self._scroll.setWidget(body)

        actor = self.context.session.actor
        self.damage_button.setVisible(p.may_record_damage(actor))
        self.permission_button.setVisible(p.may_record_sewer_permission(actor))
        self.sewer_tax_button.setVisible(p.may_mark_sewer_tax(actor))
        self.sewer_tax_button.setText(p.sewer_tax_button_text)
        self.ownership_button.setVisible(may_record_ownership(detail, actor))

    def _column(self, sections: list[WorkSection], columns: int = 1) -> QWidget:
        """Sections stacked in one grid, so their labels line up; a long section (SBD-5823)
        flows into `columns` label/value pairs side by side."""
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
            grid.addWidget(section_title(section.title), row, 0, 1, 2 * columns)
            row += 1
            if not section.fields and section.empty_text:
                grid.addWidget(_value_label(section.empty_text, note=True), row, 0, 1, 2)
                row += 1
            per_column = -(-len(section.fields) // columns)  # ceiling
            start = row
            for i, field in enumerate(section.fields):
                r, c = start + i % per_column, (i // per_column) * 2
                name = QLabel(field.label)
                name.setObjectName("fieldLabel")
                name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
                value = _value_label(field.value)
                name.setBuddy(value)
                self.values[field.label] = value
                cell = QWidget()
                stack = QVBoxLayout(cell)
                stack.setContentsMargins(0, 0, 0, 0)
                stack.setSpacing(1)
                stack.addWidget(value)
                if field.note:
                    note = _value_label(field.note, note=True, warning=field.warning)
                    self.notes[field.label] = note
                    stack.addWidget(note)
                grid.addWidget(name, r, c)
                grid.addWidget(cell, r, c + 1)
            row = start + per_column
        for c in range(columns):
            grid.setColumnStretch(2 * c + 1, 1)
        grid.setRowStretch(row, 1)
        return box

    # --- recording ----------------------------------------------------------------------

    def record_damage(self) -> None:
        p = self.presenter
        if p is None:
            return
        percent = ask_damage(self, p.detail.damage_percent)
        if percent is None:
            return
        self._run(
            lambda: permits.record_damage(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.context.permit_id,
                percent,
            )
        )

    def record_sewer_permission(self) -> None:
        p = self.presenter
        if p is None:
            return
        text = ask_permission(self, p.detail.pin or "of this permit")
        if text is None or not text.strip():
            return
        self._run(
            lambda: permits.record_sewer_permission(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.context.permit_id,
                text,
            )
        )

    def change_ownership(self) -> None:
        if self.detail is None:
            return
        choice = ask_ownership(self, ownership_answer(dict(self.detail.work_details)))
        if choice is None:
            return
        self._run(
            lambda: record_ownership(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.context.permit_id,
                choice,
            )
        )

    def toggle_sewer_tax(self) -> None:
        p = self.presenter
        if p is None or p.detail.parcel_id is None:
            return
        parcel_id = p.detail.parcel_id
        delinquent = not p.detail.sewer_delinquent
        question = (
            f"Record that a sewer tax or assessment on parcel {p.detail.pin} is delinquent? "
            "Sewer connection permits for it then wait for payment or for the Plumbing "
            "Inspector's special permission (15.1.36)."
            if delinquent
            else f"Record that the sewer taxes and assessments on parcel {p.detail.pin} are paid?"
        )
        if not dialogs.ask(self, TITLE, question):
            return
        self._run(
            lambda: permits.set_sewer_delinquent(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                parcel_id,
                delinquent,
            )
        )

    def _run(self, action: Callable[[], None]) -> None:
        try:
            action()
        except DeskError as e:
            dialogs.warn(self, TITLE, str(e))
            return
        self.refresh()

    def refresh(self) -> None:
        """Reload the whole permit window (History shows the change too), or this tab alone."""
        from ui.permit.window import PermitWindow

        window = self.window()
        if isinstance(window, PermitWindow):
            window.reload()
            return
        with self.context.database.read() as conn:
            detail = queries.permit_detail(conn, self.context.permit_id)
            if detail is not None:
                self.load(conn, detail)

    # --- for tests and screen readers -----------------------------------------------------

    def value(self, label: str) -> str:
        return self.values[label].text()

    def note(self, label: str) -> str:
        return self.notes[label].text() if label in self.notes else ""
