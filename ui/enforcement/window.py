"""One window per code enforcement case: a header (case number, address, the stage it is at)
with the steps this user may take now, over four tabs: the Timeline (everything recorded, in
date order, with the section it rests on, as the permit window's History), the Violations with
their state and correction dates, the Notices with their addressees and service, and the
occupancy calculations attached (Hudson 140-7), each to reprint as it was. The
complainant's name shows only to the inspector and the administrator."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHeaderView,
    QPushButton,
    QWidget,
)

from db import enforcement_queries as q
from db import occupancy_queries as oq
from db.enforcement_case_view import CaseFacts, ViolationFact, case_facts
from db.letterheads import letterhead_as_of
from desk.domain.permissions import Permission, allowed
from desk.domain.reports import code_citations
from desk.errors import DeskError
from desk.services.enforcement import complaints
from ui import dialogs
from ui import record_window as rw
from ui.exports import NOTICES, printout
from ui.geometry import fit_window
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters import enforcement as p
from ui.presenters import violation_withdrawal as vw
from ui.views import enforcement_dialogs as d
from ui.views import review_dialogs as rd
from ui.views.common import LinesModel, enable_buttons, fit_columns, selected_row
from ui.views.occupancy_checks import CalculatorLink, OccupancyChecks

WARN = QColor(160, 40, 30)
DEFAULT_SIZE = (980, 640)
RECORD_KEY = "Ctrl+Shift+H"  # the record of hearing: every letter of its words is taken


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

        self.title_label = rw.header_label(self, "permitTitle")
        self.stage_label = rw.header_label(self, "statusChip", selectable=False)
        self.address_label = rw.header_label(self, "permitAddress")
        self.complainant_label = rw.header_label(self, "permitKind")
        self.complainant_label.setVisible(False)

        # Hudson 140-3's steps, and Wis. Stat. ch. 68's for a Ch. 512 case: each case shows
        # its procedure's (p.step_shown).
        self.buttons = rw.step_buttons(self, p.WINDOW_STEP_LABELS, self.run_step)
        steps_row = rw.button_row()
        # The corrections and the hearing's papers (140-3B, F) on a second row: the steps fill
        # the first. A Ch. 512 case's review and appeal (Wis. Stat. ch. 68) have a row between.
        prints_row = rw.button_row()
        review_row = rw.button_row()
        for key, button in self.buttons.items():
            if key in p.REVIEW_ROW:
                review_row.addWidget(button)
            else:
                (prints_row if key in p.SECOND_ROW else steps_row).addWidget(button)
        steps_row.addStretch(1)
        review_row.addStretch(1)
        # Hudson 140-7, Ch. 512-11: the calculator, its result attached to this case.
        self.occupancy_button = QPushButton("Calculat&e occupancy…", self)
        self.occupancy_button.setObjectName("caseOccupancy")
        self.occupancy_button.setAutoDefault(False)
        self.occupancy_button.clicked.connect(lambda: self.open_calculator())
        steps_row.addWidget(self.occupancy_button)
        self.calculator_link = CalculatorLink(self, self._attached)
        self.print_button = QPushButton("P&rint notice…", self)
        self.print_button.setObjectName("printNotice")
        self.print_button.setAutoDefault(False)
        self.print_button.clicked.connect(lambda: self.print_notice())
        # A violation recorded by mistake, the one selected on the Violations tab (Alt+W).
        self.withdraw_button = QPushButton(vw.LABEL, self)
        self.withdraw_button.setObjectName("withdrawViolation")
        self.withdraw_button.setAutoDefault(False)
        self.withdraw_button.clicked.connect(lambda: self.withdraw_violation())
        prints_row.addWidget(self.withdraw_button)
        prints_row.addStretch(1)
        prints_row.addWidget(self.print_button)
        self.hearing_notice_button = QPushButton("Print hearin&g notice…", self)
        self.hearing_notice_button.setObjectName("printHearingNotice")
        self.hearing_record_button = QPushButton("Print record of hearing…", self)
        self.hearing_record_button.setToolTip(f"Record of hearing, {RECORD_KEY}")  # cited on load
        self.hearing_record_button.setObjectName("printHearingRecord")
        for button, slot in (
            (self.hearing_notice_button, self.print_hearing_notice),
            (self.hearing_record_button, self.print_hearing_record),
        ):
            button.setAutoDefault(False)
            button.clicked.connect(lambda _=False, f=slot: f())
            prints_row.addWidget(button)

        header = rw.stacked_header(
            self,
            self.title_label,
            self.stage_label,
            (self.address_label, self.complainant_label),
            (steps_row, review_row, prints_row),
        )

        self.timeline = p.Rows(p.TIMELINE_COLUMNS, [])
        self.violations = p.Rows(p.VIOLATION_COLUMNS, [])
        self.notices = p.Rows(p.NOTICE_COLUMNS, [])
        self.timeline_model = LinesModel(self.timeline, self, WARN)
        self.violation_model = LinesModel(self.violations, self, WARN)
        self.notice_model = LinesModel(self.notices, self, WARN)
        self.tabs = rw.record_tabs(self, "caseTabs")
        self.timeline_table = rw.table_tab(
            self.tabs, "timelineTable", self.timeline_model, "&Timeline"
        )
        self.violation_table = rw.table_tab(
            self.tabs, "violationsTable", self.violation_model, "&Violations"
        )
        self.notice_table = rw.table_tab(self.tabs, "noticesTable", self.notice_model, "N&otices")
        self.violation_table.selectionModel().currentRowChanged.connect(
            lambda *_: self._withdraw_state()
        )
        self.occupancy = OccupancyChecks(context.database, context.session, self.tabs)
        self.tabs.addTab(self.occupancy, "Occupanc&y")
        self.check_table = self.occupancy.table
        self.check_model = self.occupancy.model
        self.reprint_button = self.occupancy.reprint_button
        # A long inspection wraps: its rows are as high as their words at the width shown.
        self.timeline_table.setWordWrap(True)
        self.timeline_table.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )

        rw.lay_out(self, header, self.tabs)
        rw.window_keys(self, self.reload, lambda: self.print_notice(direct=True))
        QShortcut(QKeySequence(RECORD_KEY), self).activated.connect(
            lambda: self.print_hearing_record() if self.hearing_record_button.isEnabled() else None
        )
        fit_window(self, "enforcement_case", DEFAULT_SIZE)

    # --- reading ---------------------------------------------------------------------------

    @property
    def today(self) -> date:
        return self.context.clock.today()

    def reload(self) -> bool:
        """Read the case again; False when it does not exist."""
        with self.context.database.read() as conn:
            facts = case_facts(conn, [self.case_id]).get(self.case_id)
            entries = q.timeline(conn, self.case_id) if facts is not None else []
            checks = oq.occupancy_checks(conn, case_id=self.case_id) if facts is not None else []
        if facts is None:
            self.title_label.setText(f"Case #{self.case_id}")
            self.address_label.setText("This case does not exist.")
            for button in (*self.buttons.values(), self.withdraw_button):
                button.setEnabled(False)
            return False
        self.facts = facts
        today = self.today
        title, address, stage = p.header_words(facts, today)
        self.setWindowTitle(f"{title}, {facts.address} — Permit Desk")
        self.title_label.setText(title)
        self.address_label.setText(address)
        rw.show_status(self.stage_label, stage, p.stage_tone(facts, today))
        self._show_complainant(facts)
        self.timeline = p.timeline_table(entries, facts.housing_code)
        step = code_citations(facts.housing_code).step  # Hudson 140-3, or the code's procedure
        record = f"Record of hearing ({step('140-3F')}), {RECORD_KEY}"
        self.hearing_record_button.setToolTip(record)
        kept = self.selected_violation()
        self.violations = p.Rows(p.VIOLATION_COLUMNS, p.violation_rows(facts, today))
        self.notices = p.Rows(p.notice_columns(facts), p.notice_rows(facts, today))
        for model, rows in (
            (self.timeline_model, self.timeline),
            (self.violation_model, self.violations),
            (self.notice_model, self.notices),
        ):
            model.set_presenter(rows)
        self.occupancy.load(checks)
        self._select_violation(kept.id if kept is not None else None)
        fit_columns(self.timeline_table, (2,))
        fit_columns(self.violation_table, (1,))
        fit_columns(self.notice_table, (2,))
        self.occupancy_button.setEnabled(
            facts.closed_on is None
            and allowed(self.context.session.actor, Permission.INSPECT_HOUSING)
        )
        self.steps = {s.key: s for s in p.case_steps(facts, today, self.context.session.actor)}
        for key, button in self.buttons.items():
            button.setVisible(key in self.steps and p.step_shown(facts, key))
            if key in self.steps:
                button.setText(self.steps[key].label)
            else:  # another procedure's step: never taken here
                button.setEnabled(False)
        enable_buttons((self.buttons[k], s.may) for k, s in self.steps.items())
        self.print_button.setEnabled(bool(facts.notices))
        self.hearing_notice_button.setEnabled(p.hearing_to_notify(facts) is not None)
        self.hearing_record_button.setEnabled(p.hearing_of_record(facts) is not None)
        if facts.procedure.review:  # Wis. Stat. ch. 68: no hearing before the Council
            why = self.steps["hearing"].may[1]
            for button in (self.hearing_notice_button, self.hearing_record_button):
                button.setEnabled(False)
                button.setToolTip(why)
        self._withdraw_state()
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
            "schedule": lambda: d.ScheduleVisitDialog(c, f, self),
            "inspection": lambda: d.InspectionDialog(c, f, self),
            "notice": lambda: d.NoticeDialog(c, f, self),
            "service": lambda: d.ServiceDialog(c, f, self),
            "petition": lambda: d.PetitionDialog(c, f, self),
            "close": lambda: d.CloseDialog(c, f, self),
            "returned": lambda: d.ReturnedDialog(c, f, self),
            "correct": lambda: d.CorrectionDialog(c, f, self),
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
        if f.procedure.review:
            makers.update(self._review_dialogs(f))
        make = makers.get(key)
        return make() if make is not None else None

    def _review_dialogs(self, f: CaseFacts) -> dict[str, Callable[[], ActionDialog | None]]:
        """Wis. Stat. ch. 68's steps (a Ch. 512 case): the request for review (68.08), the
        decision on review (68.09), the appeal (68.10), its hearing and final determination."""
        c = self.context
        makers: dict[str, Callable[[], ActionDialog | None]] = {
            "petition": lambda: rd.RequestForReviewDialog(c, f, self),
        }
        requested = p.awaiting_review(f)
        decided = p.appealable(f)
        pending = p.pending_appeal(f)
        if requested is not None:
            makers["review"] = lambda: rd.ReviewDecisionDialog(c, f, requested, self)
        if decided is not None:
            makers["appeal"] = lambda: rd.AppealDialog(c, f, decided, self)
        if pending is not None:
            n, a = pending
            makers["appeal_hearing"] = lambda: rd.AppealHearingDialog(c, f, a, self)
            if a.hearing_on is not None:
                makers["final"] = lambda: rd.FinalDeterminationDialog(c, f, n, a, self)
        return makers

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
            self._offer_papers(key)
        return done

    # --- a violation recorded by mistake ----------------------------------------------------

    def selected_violation(self) -> ViolationFact | None:
        row = selected_row(self.violation_table)
        rows = self.violations.rows
        item = rows[row].item if 0 <= row < len(rows) else None
        return item if isinstance(item, ViolationFact) else None

    def _select_violation(self, violation_id: int | None) -> None:
        """The row of the violation selected before a reload (else the first) selected again."""
        rows = self.violations.rows
        ids = [getattr(line.item, "id", None) for line in rows]
        if rows:
            self.violation_table.selectRow(ids.index(violation_id) if violation_id in ids else 0)

    def _withdraw_state(self) -> None:
        if self.facts is None:
            return
        v = self.selected_violation()
        enable_buttons(
            [(self.withdraw_button, vw.may_withdraw(self.facts, v, self.context.session.actor))]
        )

    def withdraw_violation(self) -> bool:
        """The selected violation withdrawn as recorded by mistake, with the reason asked; True
        when the service ran. The window reads the case again either way."""
        self.reload()
        f = self.facts
        v = self.selected_violation()
        if f is None or v is None or not vw.may_withdraw(f, v, self.context.session.actor)[0]:
            return False
        dialog = d.WithdrawViolationDialog(self.context, f, v, self)
        done = actions.exec_dialog(dialog)
        self.reload()
        dialog.deleteLater()
        if done:
            self.changed.emit(self.case_id)
        return done

    def _offer_papers(self, key: str) -> None:
        """The hearing's papers offered once the step that makes them is recorded: the written
        notice to the petitioner (140-3B), the record of hearing (140-3F)."""
        step = code_citations(self.facts.housing_code if self.facts else None).step
        if key == "hearing" and dialogs.ask(
            self,
            "Notice of hearing",
            "The hearing is scheduled. Print the written notice of it for the petitioner "
            f"now ({step('140-3B')})?",
            default_yes=True,
        ):
            self.print_hearing_notice()
        elif key == "decision" and dialogs.ask(
            self,
            "Record of hearing",
            "The Council's decision is recorded. Print the record of hearing now "
            f"({step('140-3F')})?",
            default_yes=True,
        ):
            self.print_hearing_record()

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

    def print_hearing_notice(self, direct: bool = False) -> Path | None:
        """The written notice of the scheduled hearing to the petitioner(s) (140-3B)."""
        from reports.enforcement.hearing import render_hearing_notice

        f = self.facts
        heard = p.hearing_to_notify(f) if f is not None else None
        if f is None or heard is None:
            return None
        mid = self.context.session.municipality_id
        today = self.today

        def write(out: Path) -> None:
            with self.context.database.read() as conn:
                h = q.hearing(conn, heard.id)
                assert h is not None
                letterhead = letterhead_as_of(conn, mid, h.notice_sent_on or today)
            render_hearing_notice(h, letterhead, out)

        return printout(
            self,
            f"Notice of hearing — {f.number}",
            f"hearing-notice-{f.number}-{heard.id}.pdf",
            write,
            NOTICES,
            "The notice of hearing",
            direct=direct,
        )

    def print_hearing_record(self, direct: bool = False) -> Path | None:
        """The record of the hearing (140-3F): the summary, the findings and decision, and a
        copy of every notice of the matter (the notice heard and those before it)."""
        from reports.enforcement.hearing import render_hearing_record

        f = self.facts
        heard = p.hearing_of_record(f) if f is not None else None
        if f is None or heard is None:
            return None
        mid = self.context.session.municipality_id
        ids = [n.id for n in f.notices if n.id <= heard.id]

        def write(out: Path) -> None:
            with self.context.database.read() as conn:
                h = q.hearing(conn, heard.id)
                assert h is not None
                docs = [q.notice_document(conn, i) for i in ids]
                entries = q.timeline(conn, f.id)
                letterhead = letterhead_as_of(conn, mid, h.decided_on or h.hearing_on)
            render_hearing_record(h, docs, entries, letterhead, out)

        return printout(
            self,
            f"Record of hearing — {f.number}",
            f"hearing-record-{f.number}-{heard.id}.pdf",
            write,
            NOTICES,
            "The record of hearing",
            direct=direct,
        )

    # --- occupancy (Hudson 140-7, Ch. 512-11) ----------------------------------------------

    @property
    def checks(self) -> p.Rows:
        return self.occupancy.checks

    @property
    def calculator(self) -> QWidget | None:
        return self.calculator_link.window

    def open_calculator(self) -> QWidget | None:
        """The occupancy calculator under the case's housing code, attaching to this case."""
        f = self.facts
        if f is None or f.closed_on is not None:
            return None
        c = self.context
        return self.calculator_link.open(
            c.database, c.session, c.clock, for_case=(self.case_id, f.number), code=f.housing_code
        )

    def _attached(self) -> None:
        self.reload()
        self.tabs.setCurrentWidget(self.occupancy)
        self.changed.emit(self.case_id)

    def reprint_check(self, direct: bool = False) -> Path | None:
        """The chosen calculation (else the latest) as attached: its frozen rooms and result."""
        return self.occupancy.reprint(direct)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit(self.case_id)
        super().closeEvent(event)
