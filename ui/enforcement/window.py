"""One window per code enforcement case: a header (case number, address, the stage it is at)
with the steps this user may take now, over three tabs: the Timeline (everything recorded, in
date order, with the section it rests on, as the permit window's History), the Violations with
their state and correction dates, and the Notices with their addressees and service. The
complainant's name shows only to the inspector and the administrator."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from db import enforcement_queries as q
from db.enforcement_case_view import CaseFacts, case_facts
from db.letterheads import letterhead_as_of
from desk.errors import DeskError
from desk.services.enforcement import complaints
from ui.exports import NOTICES, printout
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters import enforcement as p
from ui.views import enforcement_dialogs as d
from ui.views.common import LinesModel, enable_buttons, fit_columns, read_only_table

WARN = QColor(160, 40, 30)
DEFAULT_SIZE = (980, 640)


class CaseWindow(QWidget):
    closed = Signal(int)  # case id
    changed = Signal(int)  # a step was recorded: the section's list shows it

    def __init__(self, context: PermitContext, case_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("caseWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.context = context
        self.case_id = case_id
        self.facts: CaseFacts | None = None
        self.steps: dict[str, p.Step] = {}

        self.title_label = QLabel(self)
        self.title_label.setObjectName("permitTitle")
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stage_label = QLabel(self)
        self.stage_label.setObjectName("statusChip")
        self.address_label = QLabel(self)
        self.address_label.setObjectName("permitAddress")
        self.address_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.complainant_label = QLabel(self)
        self.complainant_label.setObjectName("permitKind")
        self.complainant_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.complainant_label.setVisible(False)

        self.buttons: dict[str, QPushButton] = {}
        steps_row = QHBoxLayout()
        steps_row.setSpacing(6)
        for key, label in p.STEP_LABELS:
            button = QPushButton(label, self)
            button.setObjectName(f"step_{key}")
            button.setAutoDefault(False)
            button.clicked.connect(lambda _=False, k=key: self.run_step(k))
            self.buttons[key] = button
            steps_row.addWidget(button)
        steps_row.addStretch(1)
        self.print_button = QPushButton("P&rint notice…", self)
        self.print_button.setObjectName("printNotice")
        self.print_button.setAutoDefault(False)
        self.print_button.clicked.connect(lambda: self.print_notice())
        steps_row.addWidget(self.print_button)

        header = QFrame(self)
        header.setObjectName("permitHeader")
        title_row = QHBoxLayout()
        title_row.setSpacing(12)
        title_row.addWidget(self.title_label)
        title_row.addWidget(self.stage_label, 0, Qt.AlignmentFlag.AlignVCenter)
        title_row.addStretch(1)
        grid = QGridLayout(header)
        grid.setContentsMargins(20, 14, 20, 12)
        grid.setVerticalSpacing(4)
        grid.addLayout(title_row, 0, 0)
        grid.addWidget(self.address_label, 1, 0)
        grid.addWidget(self.complainant_label, 2, 0)
        grid.addLayout(steps_row, 3, 0)

        self.timeline = p.Rows(p.TIMELINE_COLUMNS, [])
        self.violations = p.Rows(p.VIOLATION_COLUMNS, [])
        self.notices = p.Rows(p.NOTICE_COLUMNS, [])
        self.timeline_model = LinesModel(self.timeline, self, WARN)
        self.violation_model = LinesModel(self.violations, self, WARN)
        self.notice_model = LinesModel(self.notices, self, WARN)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("caseTabs")
        self.tabs.setDocumentMode(True)
        self.timeline_table = self._tab("timelineTable", self.timeline_model, "&Timeline")
        self.violation_table = self._tab("violationsTable", self.violation_model, "&Violations")
        self.notice_table = self._tab("noticesTable", self.notice_model, "N&otices")
        # A long inspection wraps: its rows are as high as their words at the width shown.
        self.timeline_table.setWordWrap(True)
        self.timeline_table.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(header)
        layout.addWidget(self.tabs, 1)

        for sequence in (
            QKeySequence(QKeySequence.StandardKey.Close),
            QKeySequence(Qt.Key.Key_Escape),
        ):
            QShortcut(sequence, self).activated.connect(self.close)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self).activated.connect(
            self.reload
        )
        QShortcut(QKeySequence(QKeySequence.StandardKey.Print), self).activated.connect(
            lambda: self.print_notice(direct=True)
        )
        self.resize(*DEFAULT_SIZE)

    def _tab(self, name: str, model: LinesModel, label: str) -> QTableView:
        page = QWidget(self.tabs)
        table = read_only_table(page, name, model)
        box = QVBoxLayout(page)
        box.setContentsMargins(12, 12, 12, 12)
        box.addWidget(table)
        self.tabs.addTab(page, label)
        return table

    # --- reading ---------------------------------------------------------------------------

    @property
    def today(self) -> date:
        return self.context.clock.today()

    def reload(self) -> bool:
        """Read the case again; False when it does not exist."""
        with self.context.database.read() as conn:
            facts = case_facts(conn, [self.case_id]).get(self.case_id)
            entries = q.timeline(conn, self.case_id) if facts is not None else []
        if facts is None:
            self.title_label.setText(f"Case #{self.case_id}")
            self.address_label.setText("This case does not exist.")
            for button in self.buttons.values():
                button.setEnabled(False)
            return False
        self.facts = facts
        today = self.today
        title, address, stage = p.header_words(facts, today)
        self.setWindowTitle(f"{title}, {facts.address} — Permit Desk")
        self.title_label.setText(title)
        self.address_label.setText(address)
        self.stage_label.setText(stage)
        self.stage_label.setProperty("status", p.stage_tone(facts, today))
        self.stage_label.style().unpolish(self.stage_label)
        self.stage_label.style().polish(self.stage_label)
        self._show_complainant(facts)
        self.timeline = p.timeline_table(entries)
        self.violations = p.Rows(p.VIOLATION_COLUMNS, p.violation_rows(facts, today))
        self.notices = p.Rows(p.NOTICE_COLUMNS, p.notice_rows(facts, today))
        for model, rows in (
            (self.timeline_model, self.timeline),
            (self.violation_model, self.violations),
            (self.notice_model, self.notices),
        ):
            model.set_presenter(rows)
        fit_columns(self.timeline_table, (2,))
        fit_columns(self.violation_table, (1,))
        fit_columns(self.notice_table, (2,))
        self.steps = {s.key: s for s in p.case_steps(facts, today, self.context.session.actor)}
        enable_buttons((self.buttons[k], s.may) for k, s in self.steps.items())
        self.print_button.setEnabled(bool(facts.notices))
        return True

    def _show_complainant(self, facts: CaseFacts) -> None:
        """Who complained: read through the service, for the inspector and administrator only."""
        actor = self.context.session.actor
        if not facts.complaint_ids or not p.complainant_allowed(actor):
            self.complainant_label.setVisible(False)
            return
        names = []
        for cid in facts.complaint_ids:
            try:
                who = complaints.complainant(self.context.database.uow(), actor, cid)
            except DeskError:
                continue
            words = ", ".join(x for x in (who.name, who.contact) if x)
            names.append(words or "anonymous")
        self.complainant_label.setText("Complainant (confidential): " + "; ".join(names))
        self.complainant_label.setVisible(bool(names))

    def timeline_texts(self) -> list[str]:
        return [line.cells[2] for line in self.timeline.rows]

    # --- steps -----------------------------------------------------------------------------

    def _dialog(self, key: str) -> ActionDialog | None:
        f = self.facts
        assert f is not None
        c = self.context
        makers: dict[str, Callable[[], ActionDialog | None]] = {
            "inspection": lambda: d.InspectionDialog(c, f, self),
            "notice": lambda: d.NoticeDialog(c, f, self),
            "service": lambda: d.ServiceDialog(c, f, self),
            "petition": lambda: d.PetitionDialog(c, f, self),
            "close": lambda: d.CloseDialog(c, f, self),
        }
        hearing = p.awaiting_hearing(f)
        decision = p.awaiting_decision(f)
        order = p.overdue_order(f, self.today)
        if hearing is not None:
            makers["hearing"] = lambda: d.HearingDialog(c, f, hearing, self)
        if decision is not None:
            makers["decision"] = lambda: d.DecisionDialog(c, f, decision, self)
        if order is not None:
            makers["escalation"] = lambda: d.EscalationDialog(c, f, order.id, self)
        make = makers.get(key)
        return make() if make is not None else None

    def run_step(self, key: str) -> bool:
        """The step's dialog; True when its service ran. The window reads the case again
        either way (a refusal may mean another workstation got there first)."""
        self.reload()
        step = self.steps.get(key)
        if step is None or not step.may[0]:
            return False
        dialog = self._dialog(key)
        if dialog is None:
            return False
        done = actions.exec_dialog(dialog)
        self.reload()
        dialog.deleteLater()
        if done:
            self.changed.emit(self.case_id)
        return done

    def print_notice(self, direct: bool = False) -> Path | None:
        """The latest notice as issued (140-3A), one copy per addressee."""
        from reports.enforcement.notice import render_notice

        f = self.facts
        if f is None or not f.notices:
            return None
        notice_id = f.notices[-1].id
        mid = self.context.session.municipality_id

        def write(out: Path) -> None:
            with self.context.database.read() as conn:
                doc = q.notice_document(conn, notice_id)
                letterhead = letterhead_as_of(conn, mid, doc.issued_on)
            render_notice(doc, letterhead, out)

        return printout(
            self,
            f"Notice — {f.number}",
            f"notice-{f.number}-{notice_id}.pdf",
            write,
            NOTICES,
            "The notice",
            direct=direct,
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit(self.case_id)
        super().closeEvent(event)
