"""One window per permit: a header (number, status, kind, address, and what can be done with
the permit: issue it, the lifecycle actions, print) over the tabs of tabs.py."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QMenu,
    QPushButton,
    QWidget,
)

from db import queries
from desk.domain.kinds import kind_by_code
from desk.domain.lifecycle import ACTIVE, Deadline, Rule
from desk.errors import DeskError
from desk.services import street_register
from desk.services.lifecycle import permit_deadlines
from ui import dialogs
from ui import record_window as rw
from ui.geometry import fit_window
from ui.permit import actions
from ui.permit.base import PermitContext, PermitTab
from ui.permit.documents import (
    print_application,
    print_main,
    print_order_notice,
    print_permit_card,
)
from ui.permit.issue_dialog import IssueDialog
from ui.permit.street_register import CouncilApprovalDialog, StreetRepavingDialog
from ui.permit.tabs import PERMIT_TABS
from ui.presenters.issuance import may_issue
from ui.presenters.permit_actions import (
    LIFT_PRINT,
    REVOKE_PRINT,
    STOP_WORK_PRINT,
    ActionKind,
    PermitAction,
    available_actions,
    no_action_text,
)
from ui.presenters.permit_detail import PermitSummaryPresenter, permit_title

DEFAULT_SIZE = (920, 700)


class PermitWindow(QWidget):
    closed = Signal(int)  # permit id

    def __init__(
        self,
        context: PermitContext,
        parent: QWidget | None = None,
        *,
        remember_geometry: bool = True,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("permitWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.context = context
        self.remember_geometry = remember_geometry
        self.presenter: PermitSummaryPresenter | None = None

        self.title_label = rw.header_label(self, "permitTitle")
        self.status_label = rw.header_label(self, "statusChip", selectable=False)
        self.kind_label = rw.header_label(self, "permitKind", selectable=False)
        self.address_label = rw.header_label(self, "permitAddress")

        # Issuing (15.1.6: the inspector's) and the lifecycle actions; both follow the status and
        # the signed-in user's roles, and the services check again.
        self.issue_button = QPushButton("&Issue permit…", self)
        self.issue_button.setObjectName("issuePermit")
        self.issue_button.setVisible(False)
        self.issue_button.clicked.connect(self.open_issue_dialog)
        self.actions_button = QPushButton("Ac&tions", self)
        self.actions_button.setObjectName("permitActions")
        self.actions_menu = QMenu(self.actions_button)
        self.actions_menu.setObjectName("permitActionsMenu")
        self.actions_button.setMenu(self.actions_menu)
        self.issue_dialog: IssueDialog | None = None
        self.available: dict[str, PermitAction] = {}
        self.deadlines: list[Deadline] = []

        # Documents: the application summary; the card once the permit has a number.
        self.print_application_button = QPushButton("Print &application…", self)
        self.print_application_button.setObjectName("printApplication")
        self.print_application_button.clicked.connect(
            lambda: print_application(self, self.context, self.context.clock.today())
        )
        self.print_card_button = QPushButton("Print permit &card…", self)
        self.print_card_button.setObjectName("printPermitCard")
        self.print_card_button.setEnabled(False)
        self.print_card_button.clicked.connect(lambda: print_permit_card(self, self.context))

        act_row = rw.button_row(8)
        act_row.addWidget(self.issue_button)
        act_row.addWidget(self.actions_button)
        print_row = rw.button_row(8)
        print_row.addWidget(self.print_application_button)
        print_row.addWidget(self.print_card_button)
        # The actions and printouts in a second column, at the right.
        header, header_layout = rw.header_frame(self)
        header_layout.setHorizontalSpacing(16)
        header_layout.addLayout(rw.title_row(self.title_label, self.status_label), 0, 0)
        header_layout.addLayout(act_row, 0, 1, Qt.AlignmentFlag.AlignRight)
        header_layout.addWidget(self.address_label, 1, 0)
        header_layout.addLayout(print_row, 1, 1, 2, 1, Qt.AlignmentFlag.AlignRight)
        header_layout.addWidget(self.kind_label, 2, 0)
        header_layout.setColumnStretch(0, 1)

        self.tabs = rw.record_tabs(self, "permitTabs")
        self.tab_pages: dict[str, PermitTab] = {}
        for tab_class in PERMIT_TABS:
            page = tab_class(context, self.tabs)
            self.tab_pages[tab_class.key] = page
            self.tabs.addTab(page, tab_class.title)

        rw.lay_out(self, header, self.tabs)
        # Ctrl+P: the permit's printout straight to the print dialog.
        rw.window_keys(
            self, self.reload, lambda: print_main(self, self.context, self.context.clock.today())
        )

        fit_window(self, "permit", DEFAULT_SIZE, keep=remember_geometry)

    @property
    def permit_id(self) -> int:
        return self.context.permit_id

    def reload(self) -> bool:
        """Read the permit and refresh every tab on one connection; False if it is gone."""
        with self.context.database.read() as conn:
            detail = queries.permit_detail(conn, self.permit_id)
            if detail is None:
                self.title_label.setText(permit_title(None, self.permit_id))
                self.address_label.setText("This permit no longer exists.")
                self.tabs.setEnabled(False)
                self.issue_button.setVisible(False)
                self.actions_button.setEnabled(False)
                return False
            for page in self.tab_pages.values():
                page.load(conn, detail)
        self.presenter = PermitSummaryPresenter(detail)
        self.print_card_button.setEnabled(bool(detail.number))
        self.deadlines = self._deadlines(detail.status in ACTIVE)
        self._update_actions()
        if self.issue_dialog is not None and self.issue_dialog.isVisible():
            self.issue_dialog.check()  # a checklist item ticked meanwhile
        p = self.presenter
        self.setWindowTitle(f"{p.window_title} — Permit Desk")
        self.title_label.setText(p.title)
        rw.show_status(self.status_label, p.status, p.status_key)
        self.kind_label.setText(p.kind)
        self.address_label.setText(p.address)
        return True

    # --- issuing and the lifecycle actions --------------------------------------------------

    def _deadlines(self, active: bool) -> list[Deadline]:
        if not active:
            return []
        try:
            return permit_deadlines(self.context.database.uow(), self.permit_id)
        except DeskError:
            return []

    def _update_actions(self) -> None:
        assert self.presenter is not None
        detail = self.presenter.detail
        actor = self.context.session.actor
        self.issue_button.setVisible(may_issue(actor, detail.status))
        groups = available_actions(
            detail.status,
            actor,
            has_deadlines=bool(self.deadlines),
            street_opening=_is_street_opening(detail.municipality_key, detail.kind),
        )
        self.available = {a.key: a for group in groups for a in group}
        self.actions_menu.clear()
        for i, group in enumerate(groups):
            if i:
                self.actions_menu.addSeparator()
            for action in group:
                item = self.actions_menu.addAction(action.label)
                item.setObjectName(action.key)
                item.triggered.connect(lambda _=False, a=action: self.run_action(a.key))
        self.actions_button.setEnabled(bool(groups))
        self.actions_button.setToolTip("" if groups else no_action_text(detail.status))

    def action_labels(self) -> list[str]:
        """The Actions menu as it reads, without mnemonics (tests and screen readers)."""
        return [a.text().replace("&", "") for a in self.actions_menu.actions() if a.text()]

    def open_issue_dialog(self) -> IssueDialog | None:
        """The issue dialog, not modal: checklist items can be ticked while it is open."""
        if self.presenter is None or not self.issue_button.isVisible():
            return None
        if self.issue_dialog is not None and self.issue_dialog.isVisible():
            self.issue_dialog.raise_()
            self.issue_dialog.activateWindow()
            return self.issue_dialog
        if self.issue_dialog is not None:
            self.issue_dialog.deleteLater()
        p = self.presenter
        dialog = IssueDialog(
            self.context,
            p.title,
            ", ".join(x for x in (p.detail.address, p.kind) if x),
            self,
            applied_on=p.detail.applied_on,
        )
        dialog.issued.connect(lambda _number: self.reload())
        self.issue_dialog = dialog
        dialog.show()
        return dialog

    def run_action(self, key: str) -> bool:
        """Open the action's dialog; True when its service ran. The window reloads either way
        (a refusal may mean the permit changed elsewhere)."""
        action = self.available.get(key)
        if action is None or self.presenter is None:
            return False
        dialog = self._action_dialog(action)
        done = actions.exec_dialog(dialog)
        self.reload()
        if done:
            self._after(action, dialog)
        dialog.deleteLater()
        return done

    def _action_dialog(self, action: PermitAction) -> QDialog:
        assert self.presenter is not None
        title = self.presenter.title
        if action.kind is ActionKind.STATUS:
            assert action.status is not None
            return actions.StatusChangeDialog(self.context, title, action.status, self)
        if action.kind is ActionKind.EXTEND:
            return actions.ExtendDeadlineDialog(self.context, self.deadlines, self)
        if action.kind is ActionKind.STOP_WORK:
            return actions.StopWorkDialog(self.context, self)
        if action.kind is ActionKind.LIFT:
            return actions.LiftStopWorkDialog(self.context, self)
        if action.kind is ActionKind.REVOKE:
            return actions.RevokeDialog(self.context, self)
        if action.kind is ActionKind.COUNCIL_APPROVAL:
            return CouncilApprovalDialog(self.context, self)
        if action.kind is ActionKind.STREET_REPAVING:
            street = street_register.street_of(self.context.database.uow(), self.permit_id)
            return StreetRepavingDialog(self.context, street, self)
        return actions.VoidDialog(self.context, title, self)

    def _after(self, action: PermitAction, dialog: QDialog) -> None:
        """Offer the written order and placard the ordinance requires to be served and posted."""
        order_id: int | None = None
        question = ""
        if isinstance(dialog, actions.StopWorkDialog):
            order_id, question = dialog.order_id, STOP_WORK_PRINT
        elif isinstance(dialog, actions.RevokeDialog):
            order_id, question = dialog.order_id, REVOKE_PRINT
        elif action.kind is ActionKind.LIFT:
            order_id, question = self._lifted_order(), LIFT_PRINT
        if order_id is None:
            return
        if dialogs.ask(self, dialog.windowTitle(), question, default_yes=True):
            print_order_notice(self, self.context, order_id)

    def _lifted_order(self) -> int | None:
        with self.context.database.read() as conn:
            orders = queries.open_orders(conn, self.permit_id)
        return next(
            (oid for oid, kind, _on, lifted in orders if kind == "stop_work" and lifted), None
        )

    def select_tab(self, key: str) -> None:
        page = self.tab_pages.get(key)
        if page is None:
            raise KeyError(f"the permit window has no tab '{key}'")
        self.tabs.setCurrentWidget(page)

    def tab(self, key: str) -> PermitTab:
        return self.tab_pages[key]

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.issue_dialog is not None:
            self.issue_dialog.close()
        self.closed.emit(self.permit_id)
        super().closeEvent(event)


def _is_street_opening(municipality_key: str, kind: str) -> bool:
    """A kind whose issue waits five years after the street's repaving (§435-8.I)."""
    try:
        return kind_by_code(municipality_key, kind).lifecycle is Rule.STREET_OPENING
    except DeskError:
        return False
