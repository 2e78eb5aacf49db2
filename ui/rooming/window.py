"""One window per rooming house licence or application (Hudson 140-10): a header (the number or
"Application", the operator, the dwelling, the status with its dates) with the steps this user
may take now, each disabled with its reason as the tooltip, over four tabs: the Rooms, the
Fixtures & checks (140-10E/G as check_licence finds them), the History of the dated events
(the inspection case's row opens that case's window; the licence it renews and its renewal,
140-10A, are events there and in the header) and the Occupancy calculations attached
(Hudson 140-7, Ch. 512-11), each to reprint as it was. The inspector opens the calculator from
here, the licence's rooms typed in, its result attached to this licence."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QMenu,
    QPushButton,
    QWidget,
)

from db import occupancy_queries as oq
from db.licence_view import LicenceFacts, licence_facts
from desk.domain.permissions import Permission, allowed
from desk.enforcement.licences import LicenceState, Shortfall
from desk.errors import DeskError
from desk.services.enforcement import licences as svc
from desk.services.enforcement import renewals
from ui import dialogs
from ui import record_window as rw
from ui.geometry import fit_window
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters import rooming as p
from ui.rooming import dialogs as d
from ui.rooming import printing
from ui.views.common import LinesModel, enable_buttons, fit_columns
from ui.views.occupancy_checks import CalculatorLink, OccupancyChecks

WARN = QColor(160, 40, 30)
DEFAULT_SIZE = (1040, 640)
NOT_READY = (ImportError, AttributeError)  # the printouts' renderers not installed yet
# No occupancy to calculate for a licence that is over (140-10A, B, D).
NO_OCCUPANCY = (LicenceState.DENIED, LicenceState.REVOKED, LicenceState.ENDED)


def calculate_allowed(f: LicenceFacts, may_inspect: bool) -> tuple[bool, str]:
    """Whether the calculator may attach to this licence, and why not (the button's tooltip);
    the service checks the role again."""
    if not may_inspect:
        return False, f"The inspector ({Permission.INSPECT_HOUSING.value})."
    if f.state in NO_OCCUPANCY:
        return (
            False,
            f"{f.number or 'The application'} is {f.state.value}: nothing to calculate for.",
        )
    return True, ""


class LicenceWindow(QWidget):
    closed = Signal(int)  # licence id
    changed = Signal(int)  # a step was recorded: the register shows it

    def __init__(
        self,
        context: PermitContext,
        licence_id: int,
        parent: QWidget | None = None,
        open_case: Callable[[int], object] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("licenceWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.context = context
        self.licence_id = licence_id
        self.open_case = open_case
        self.facts: LicenceFacts | None = None
        self.found: list[Shortfall] = []
        self.steps: dict[str, p.Step] = {}

        self.title_label = rw.header_label(self, "permitTitle")
        self.status_label = rw.header_label(self, "statusChip", selectable=False)
        self.operator_label = rw.header_label(self, "permitAddress")
        self.dwelling_label = rw.header_label(self, "permitKind")

        self.buttons = rw.step_buttons(self, p.STEP_LABELS, self.run_step)
        steps_row = rw.button_row()
        for button in self.buttons.values():
            steps_row.addWidget(button)
        steps_row.addStretch(1)
        # Hudson 140-7, Ch. 512-11: the calculator, its result attached to this licence.
        self.occupancy_button = QPushButton("Ca&lculate occupancy…", self)
        self.occupancy_button.setObjectName("licenceOccupancy")
        self.occupancy_button.setAutoDefault(False)
        self.occupancy_button.clicked.connect(lambda: self.open_calculator())
        steps_row.addWidget(self.occupancy_button)
        self.calculator_link = CalculatorLink(self, self._attached)
        print_row = rw.button_row()
        self.certificate_button = QPushButton("P&rint certificate…", self)
        self.certificate_button.setObjectName("printCertificate")
        self.certificate_button.setAutoDefault(False)
        self.certificate_button.clicked.connect(lambda: self.print_certificate())
        self.notice_button = QPushButton("Print &notice", self)
        self.notice_button.setObjectName("printNotice")
        self.notice_button.setAutoDefault(False)
        self.notice_menu = QMenu(self.notice_button)
        self.notice_button.setMenu(self.notice_menu)
        print_row.addWidget(self.certificate_button)
        print_row.addWidget(self.notice_button)
        print_row.addStretch(1)

        header = rw.stacked_header(
            self,
            self.title_label,
            self.status_label,
            (self.operator_label, self.dwelling_label),
            (steps_row, print_row),
        )

        self.rooms = p.Rows(p.ROOM_COLUMNS, [])
        self.fixtures = p.Rows(p.FIXTURE_COLUMNS, [])
        self.history = p.Rows(p.HISTORY_COLUMNS, [])
        self.room_model = LinesModel(self.rooms, self, WARN)
        self.fixture_model = LinesModel(self.fixtures, self, WARN)
        self.history_model = LinesModel(self.history, self, WARN)
        self.tabs = rw.record_tabs(self, "licenceTabs")
        self.room_table = rw.table_tab(self.tabs, "roomsTable", self.room_model, "R&ooms")
        self.fixture_table = rw.table_tab(
            self.tabs, "fixturesTable", self.fixture_model, "&Fixtures && checks"
        )
        self.history_table = rw.table_tab(self.tabs, "historyTable", self.history_model, "Histor&y")
        for table in (self.fixture_table, self.history_table):
            table.setWordWrap(True)
            table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.history_table.activated.connect(lambda i: self.open_history_row(i.row()))
        # Alt+Y is the History's: Alt+U here.
        self.occupancy = OccupancyChecks(context.database, context.session, self.tabs)
        self.tabs.addTab(self.occupancy, "Occ&upancy")

        rw.lay_out(self, header, self.tabs)
        rw.window_keys(self, self.reload, lambda: self.print_certificate(direct=True))
        fit_window(self, "rooming_licence", DEFAULT_SIZE)

    # --- reading ---------------------------------------------------------------------------

    @property
    def today(self) -> date:
        return self.context.clock.today()

    def reload(self) -> bool:
        """Read the licence again; False when it does not exist."""
        with self.context.database.read() as conn:
            facts = licence_facts(conn, self.licence_id)
            checks = oq.occupancy_checks(conn, licence_id=self.licence_id) if facts else []
        if facts is None:
            self.title_label.setText(f"Licence #{self.licence_id}")
            self.operator_label.setText("This licence does not exist.")
            for button in (*self.buttons.values(), self.occupancy_button):
                button.setEnabled(False)
            return False
        self.facts = facts
        try:
            self.found = svc.check_licence(self.context.database.uow(), self.licence_id)
        except DeskError:
            self.found = []
        today = self.today
        title, operator, dwelling, status = p.header_words(facts, today)
        self.setWindowTitle(p.window_title(facts))
        self.title_label.setText(title)
        self.operator_label.setText(operator)
        self.dwelling_label.setText(dwelling)
        rw.show_status(self.status_label, status, p.status_tone(facts, today))
        self.rooms = p.room_rows(facts.rooms, self.found)
        self.fixtures = p.fixture_rows(facts, self.found)
        self.history = p.history_rows(facts)
        for model, rows in (
            (self.room_model, self.rooms),
            (self.fixture_model, self.fixtures),
            (self.history_model, self.history),
        ):
            model.set_presenter(rows)
        fit_columns(self.room_table, (0,))
        fit_columns(self.fixture_table, (2,))
        fit_columns(self.history_table, (2,))
        self.occupancy.load(checks)
        may_inspect = allowed(self.context.session.actor, Permission.INSPECT_HOUSING)
        enable_buttons([(self.occupancy_button, calculate_allowed(facts, may_inspect))])
        self.steps = {
            s.key: s
            for s in p.licence_steps(facts, today, self.context.session.actor, len(self.found))
        }
        enable_buttons((self.buttons[k], s.may) for k, s in self.steps.items())
        enable_buttons([(self.certificate_button, p.certificate_allowed(facts, today))])
        self.notice_menu.clear()
        kinds = p.notices_available(facts)
        for kind, label in kinds:
            action = self.notice_menu.addAction(label)
            action.triggered.connect(lambda _=False, k=kind: self.print_notice(k))
        enable_buttons(
            [
                (
                    self.notice_button,
                    (True, "") if kinds else (False, "No warning, suspension or denial yet."),
                )
            ]
        )
        return True

    def history_texts(self) -> list[str]:
        return [f"{line.cells[1]}: {line.cells[2]}" for line in self.history.rows]

    def open_history_row(self, row: int) -> bool:
        """The inspection case's row opens the case's window (Code enforcement)."""
        if not 0 <= row < len(self.history.rows):
            return False
        event = self.history.rows[row].item
        case_id = getattr(event, "case_id", None)
        if case_id is None or self.open_case is None:
            return False
        self.open_case(case_id)
        return True

    # --- steps -----------------------------------------------------------------------------

    def _dialog(self, key: str) -> ActionDialog | None:
        f = self.facts
        assert f is not None
        c = self.context
        makers: dict[str, Callable[[], ActionDialog]] = {
            "issue": lambda: d.IssueDialog(c, f, self),
            "deny": lambda: d.DenyDialog(c, f, self),
            "warning": lambda: d.WarningDialog(c, f, self),
            "suspend": lambda: d.SuspendDialog(c, f, self),
            "petition": lambda: d.PetitionDialog(c, f, self),
            "decision": lambda: d.DecisionDialog(c, f, self),
            "change": lambda: d.ChangeDialog(c, f, self),
        }
        make = makers.get(key)
        return make() if make is not None else None

    def run_step(self, key: str) -> bool:
        """The step's dialog; True when its service ran. The window reads the licence again
        either way (a refusal may mean another workstation got there first)."""
        self.reload()
        step = self.steps.get(key)
        if step is None or not step.may[0]:
            return False
        if key == "case":
            return self.inspection_case()
        if key == "renew":
            return self.renew()
        dialog = self._dialog(key)
        if dialog is None:
            return False
        d.focus_first(dialog)
        done = actions.exec_dialog(dialog)
        self.reload()
        dialog.deleteLater()
        if done:
            self.changed.emit(self.licence_id)
        return done

    def inspection_case(self) -> bool:
        """140-10A: the case the inspector records the inspections on (the licence's own, the
        parcel's open case, or a new one), then its window, where the inspection is recorded."""
        f = self.facts
        assert f is not None
        question = (
            f"Open the inspection case of {f.number or 'the application'} for {f.dwelling}? "
            "The inspection is recorded in the case's window."
        )
        new = f.case_id is None or f.case_closed_on is not None
        if new and not dialogs.ask(self, "Inspection case", question):
            return False
        try:
            case_id = svc.open_licence_case(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.licence_id,
            )
        except DeskError as e:
            dialogs.warn(self, "Inspection case", str(e))
            return False
        self.reload()
        self.changed.emit(self.licence_id)
        if self.open_case is not None:
            self.open_case(case_id)
        return True

    def renew(self) -> bool:
        """140-10A: the holder's application to renew, for the same rooms, persons and fixtures
        (changed ones: New application… in the register, which records it as the renewal). The
        inspector inspects and the City Clerk issues it as any application; issued before this
        licence ends, it runs from the day after."""
        f = self.facts
        assert f is not None
        question = (
            f"Record {f.operator_name}'s application to renew licence {f.number} for "
            f"{f.dwelling}, for the same rooms, persons and fixtures, received today? Issued "
            "before this licence ends, the renewal runs from the day after it."
        )
        if not dialogs.ask(self, "Renewal", question):
            return False
        try:
            renewals.apply_for_renewal(
                self.context.database.uow(),
                self.context.clock,
                self.context.session.actor,
                self.licence_id,
            )
        except DeskError as e:
            dialogs.warn(self, "Renewal", str(e))
            self.reload()
            return False
        self.reload()
        self.changed.emit(self.licence_id)
        return True

    # --- occupancy (Hudson 140-7, Ch. 512-11) ----------------------------------------------

    @property
    def label(self) -> str:
        """RH-2026-0001, or "application #3" before it is issued."""
        f = self.facts
        return (f.number if f is not None else None) or f"application #{self.licence_id}"

    @property
    def calculator(self) -> QWidget | None:
        return self.calculator_link.window

    def open_calculator(self) -> QWidget | None:
        """The occupancy calculator under the municipality's housing code, the licence's rooms
        typed in, attaching to this licence."""
        from ui.views.occupancy import licence_rooms

        f = self.facts
        if f is None:
            return None
        may_inspect = allowed(self.context.session.actor, Permission.INSPECT_HOUSING)
        if not calculate_allowed(f, may_inspect)[0]:
            return None
        c = self.context
        return self.calculator_link.open(
            c.database,
            c.session,
            c.clock,
            for_licence=(self.licence_id, self.label),
            rooms=licence_rooms(f.rooms),
        )

    def _attached(self) -> None:
        self.reload()
        self.tabs.setCurrentWidget(self.occupancy)
        self.changed.emit(self.licence_id)

    def reprint_check(self, direct: bool = False) -> Path | None:
        """The chosen calculation (else the latest) as attached: its frozen rooms and result."""
        return self.occupancy.reprint(direct)

    # --- printouts -------------------------------------------------------------------------

    def print_certificate(self, direct: bool = False) -> Path | None:
        f = self.facts
        if f is None or f.number is None or not p.certificate_allowed(f, self.today)[0]:
            return None
        try:
            return printing.print_certificate(
                self,
                self.context.database,
                self.context.session,
                f.id,
                f.number,
                self.today,
                direct=direct,
            )
        except NOT_READY:
            dialogs.warn(
                self, "Print certificate", "The licence certificate cannot be printed yet."
            )
            return None

    def print_notice(self, kind: str, direct: bool = False) -> Path | None:
        f = self.facts
        if f is None or kind not in dict(p.notices_available(f)):
            return None
        on = {"warning": f.warned_on, "suspension": f.suspended_on, "denial": f.denied_on}[kind]
        try:
            return printing.print_notice(
                self,
                self.context.database,
                self.context.session,
                f.id,
                f.number or f"application #{f.id}",
                kind,
                on,
                direct=direct,
            )
        except NOT_READY:
            dialogs.warn(self, "Print notice", "The licence notices cannot be printed yet.")
            return None

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit(self.licence_id)
        super().closeEvent(event)
