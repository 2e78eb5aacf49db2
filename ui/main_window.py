"""The main window: sections on the left, the current section on the right, who/where below."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from db import queries
from db.changes import Change
from db.database import Database
from db.ordinance_queries import municipality_provides
from db.user_queries import user_access
from desk.clock import Clock, SystemClock
from desk.domain.kinds import kinds_for
from desk.domain.ordinances import Part
from desk.domain.permissions import Permission, allowed
from desk.errors import DeskError, SignedOut
from desk.services import fees
from ui import dialogs, exports, list_print, settings
from ui.backups import BackupActions
from ui.date_field import use_office_clock
from ui.geometry import fit_window
from ui.help import install_help_menu
from ui.live import LiveChanges
from ui.permit.base import PermitContext
from ui.permit.window import PermitWindow
from ui.presenters.permit_list import PermitListPresenter, SqlPermitSource
from ui.presenters.saved_searches import SavedSearches
from ui.presenters.session import Session
from ui.session_lock import SessionLock
from ui.views.bonds import SECTION_TITLE as BONDS
from ui.views.bonds import BondsView
from ui.views.cashier import SECTION_TITLE as CASHIER
from ui.views.cashier import CashierView
from ui.views.common import page_scroll
from ui.views.deadlines import DeadlinesView
from ui.views.deposits import SECTION_TITLE as DEPOSITS
from ui.views.deposits import DepositsView
from ui.views.enforcement import SECTION_TITLE as ENFORCEMENT
from ui.views.enforcement import EnforcementView
from ui.views.fee_calculator import FeeCalculatorWindow, open_calculator
from ui.views.fee_schedules import SECTION_TITLE as FEE_SCHEDULES
from ui.views.fee_schedules import FeeSchedulesView
from ui.views.gl_accounts import SECTION_TITLE as GL_ACCOUNTS
from ui.views.gl_accounts import GlAccountsView
from ui.views.home import SECTION_TITLE as HOME_TITLE
from ui.views.home import HomeView
from ui.views.inspections import SECTION_TITLE as INSPECTIONS
from ui.views.inspections import InspectionsView
from ui.views.intake import IntakeWindow, open_intake
from ui.views.licensing import SECTION_TITLE as LICENSING
from ui.views.licensing import LicensingView
from ui.views.municipality import SECTION_TITLE as MUNICIPALITY
from ui.views.municipality import MunicipalityView
from ui.views.new_municipality import new_municipality_dialog
from ui.views.occupancy import OccupancyWindow, open_occupancy
from ui.views.parcels import SECTION_TITLE as PARCELS
from ui.views.parcels import ParcelsView
from ui.views.people import SECTION_TITLE as PEOPLE
from ui.views.people import PeopleView
from ui.views.permits import PermitsView
from ui.views.register_check import RegisterCheckDialog, may_check
from ui.views.reports import SECTION_TITLE as REPORTS
from ui.views.reports import ReportsView
from ui.views.rooming import SECTION_TITLE as ROOMING
from ui.views.rooming import RoomingView
from ui.views.treasurer import SECTION_TITLE as TREASURER
from ui.views.treasurer import TreasurerView
from ui.views.users import SECTION_TITLE as USERS
from ui.views.users import UsersView, change_own_password_dialog

PERMITS = "Permits"
SAVED_ROLE = Qt.ItemDataRole.UserRole + 1  # a sidebar row's saved search name
SAVED_INDENT = "   "
HOME = HOME_TITLE
SIGNED_OUT = SignedOut.MESSAGE
ROLES_CHANGED = SignedOut.ROLES_CHANGED
DEADLINES = "Deadlines"


class MainWindow(QMainWindow):
    # A unit of work refused the user (disabled since signing in), perhaps in a worker thread:
    # queued to the window's thread, which signs them out.
    signed_out = Signal(str)

    def __init__(
        self,
        database: Database,
        session: Session,
        *,
        remember_geometry: bool = True,
        clock: Clock | None = None,
        idle_lock_ms: int | None = None,
    ) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.database = database
        self.session = session
        self.clock: Clock = clock or SystemClock()
        use_office_clock(self.clock.today)  # "today" typed in any date field: the register's
        self.remember_geometry = remember_geometry
        self.permit_windows: dict[int, PermitWindow] = {}
        self._loaded = False  # load() has run: sections read their data when shown
        self.fee_calculator: FeeCalculatorWindow | None = None
        self.occupancy_window: OccupancyWindow | None = None
        self.intake_window: IntakeWindow | None = None
        self.parcel_import_dialog: QDialog | None = None  # File → Import parcels…
        self.setWindowTitle(session.window_title)
        settings.use_register(database.engine.url.render_as_string(hide_password=True))

        source = SqlPermitSource(
            database, session.municipality_id, user_id=session.actor.user_id, clock=self.clock
        )
        presenter = PermitListPresenter(source, session.municipality_key)
        # Saved searches are each user's, on this computer (QSettings keyed by user name).
        key = settings.saved_searches_key(session.actor.username)
        self.saved_searches = SavedSearches(
            lambda: settings.read_text(key), lambda text: settings.write(key, text)
        )
        self.permits_view = PermitsView(
            presenter, self, remember_columns=remember_geometry, saved=self.saved_searches
        )
        self.permits_view.open_permit.connect(self.open_permit)
        self.permits_view.new_application.connect(self.new_application)
        self.permits_view.saved_searches_changed.connect(self._saved_searches_changed)
        self.permits_view.filters_edited.connect(self._permits_edited)

        # Only sections that work are listed. Administration
        # sections only for those allowed (the services check again).
        # Needs attention (F2): the first screen after signing in, what waits for this user.
        self.home_view = HomeView(database, session, self.clock, self)
        self.home_view.open_permit.connect(self.open_permit)
        self.home_view.open_section.connect(self._open_section_named)
        self.home_view.open_place.connect(self._open_place)
        self.sections: list[tuple[str, QWidget]] = [
            (HOME, self.home_view),
            (PERMITS, self.permits_view),
        ]
        # The parcel register, in every municipality (Hudson's cases and licences choose their
        # property from it); the steps follow the roles and the services check again.
        self.parcels_view = ParcelsView(
            database,
            session,
            self.clock,
            self,
            open_case=lambda cid: self.enforcement_view.open_case(cid),
            open_licence=lambda lid: self.rooming_view.open_licence(lid),
        )
        self.parcels_view.open_permit.connect(self.open_permit)
        self.sections.append((PARCELS, self.parcels_view))
        # People and organizations (owners, contractors, designers, payers): every role reads
        # them; the corrections follow the roles and the services check again.
        self.people_view = PeopleView(database, session, self.clock, self)
        self.people_view.open_permit.connect(self.open_permit)
        self.sections.append((PEOPLE, self.people_view))
        self.deadlines_view = DeadlinesView(database, session, self.clock, self)
        self.deadlines_view.open_permit.connect(self.open_permit)
        self.sections.append((DEADLINES, self.deadlines_view))
        self.inspections_view = InspectionsView(database, session, self.clock, self)
        self.inspections_view.open_permit.connect(self.open_permit)
        self.sections.append((INSPECTIONS, self.inspections_view))
        # The bond and insurance register with its expiry watch; the street deposits.
        self.bonds_view = BondsView(database, session, self.clock, self)
        self.bonds_view.open_permit.connect(self.open_permit)
        self.sections.append((BONDS, self.bonds_view))
        self.deposits_view = DepositsView(database, session, self.clock, self)
        self.deposits_view.open_permit.connect(self.open_permit)
        self.sections.append((DEPOSITS, self.deposits_view))
        # City electrical licences (15.1.75, 15.1.78) and condemnations (15.1.6(c), Hudson 140):
        # every role reads the registers; the buttons follow the roles (the services check).
        self.licensing_view = LicensingView(database, session, self.clock, self)
        self.licensing_view.open_permit.connect(self.open_permit)
        self.sections.append((LICENSING, self.licensing_view))
        # Code enforcement (Hudson 140-3): every role reads the cases; the steps follow the
        # roles (the clerk takes complaints and petitions) and the services check again.
        self.enforcement_view = EnforcementView(database, session, self.clock, self)
        self.sections.append((ENFORCEMENT, self.enforcement_view))
        # Case stops on the inspector's day open the case window (its inspection step).
        self.inspections_view.open_case.connect(self.enforcement_view.open_case)
        self.inspections_view.inspect_case.connect(
            lambda cid: self.enforcement_view.open_case(cid).run_step("inspection")
        )
        # Rooming house licences (Hudson 140-10): every role reads the register; the steps
        # follow the roles (the clerk records and issues, the inspector inspects and suspends).
        self.rooming_view = RoomingView(
            database, session, self.clock, self, open_case=self.enforcement_view.open_case
        )
        self.sections.append((ROOMING, self.rooming_view))
        # Cashiering: the counter takes payments; the treasurer's pages (the clerk
        # closes the drawer and delivers turnovers too, desk.domain.permissions).
        self.cashier_view: CashierView | None = None
        if allowed(session.actor, Permission.TAKE_PAYMENT):
            self.cashier_view = CashierView(database, session, self.clock, self)
            self.cashier_view.paid.connect(self._money_moved)
            self.sections.append((CASHIER, self.cashier_view))
        self.treasurer_view: TreasurerView | None = None
        if any(
            allowed(session.actor, p)
            for p in (Permission.CLOSE_DRAWER, Permission.ACKNOWLEDGE_TURNOVER, Permission.REFUND)
        ):
            self.treasurer_view = TreasurerView(database, session, self.clock, self)
            self.sections.append((TREASURER, self.treasurer_view))
        # Reports: to the Council, the state and the Census; the BLDS export.
        self.reports_view = ReportsView(database, session, self.clock, self)
        self.sections.append((REPORTS, self.reports_view))
        # The GL accounts and which account each fee code books to (administrators).
        self.gl_accounts_view: GlAccountsView | None = None
        if allowed(session.actor, Permission.MANAGE_GL_ACCOUNTS):
            self.gl_accounts_view = GlAccountsView(database, session, self.clock, self)
            self.sections.append((GL_ACCOUNTS, self.gl_accounts_view))
        self.fee_schedules_view: FeeSchedulesView | None = None
        if allowed(session.actor, Permission.MANAGE_FEES):
            self.fee_schedules_view = FeeSchedulesView(
                database, session, self.clock, self, remember_geometry=remember_geometry
            )
            self.fee_schedules_view.schedule_changed.connect(self._schedule_changed)
            self.sections.append((FEE_SCHEDULES, self.fee_schedules_view))
        # Administration → Municipality: what the documents print, and its settings.
        self.municipality_view: MunicipalityView | None = None
        if allowed(session.actor, Permission.MANAGE_MUNICIPALITY):
            self.municipality_view = MunicipalityView(database, session, self.clock, self)
            self.sections.append((MUNICIPALITY, self.municipality_view))
        # Administration → Users: who works here, their roles, disabling, password resets.
        self.users_view: UsersView | None = None
        if allowed(session.actor, Permission.MANAGE_USERS):
            self.users_view = UsersView(database, session, self.clock, self)
            self.sections.append((USERS, self.users_view))
        # One municipality at a time: only the sections its ordinances provide
        # (desk.domain.ordinances); Hudson ch. 140 has no permits, Glendale no rooming houses.
        self._drop_sections_not_provided()
        self.sign_out_reason = ""
        # File → Switch municipality: the municipality the app re-opens this window for (ui.app).
        self.switch_to: int | None = None
        self.signed_out.connect(self.sign_out)
        # File → Sign out: the app asks who signs in next (ui.app), the process goes on.
        self.signing_out = False
        # A counter PC left alone locks behind the sign-in dialog after the municipality's
        # idle minutes (Administration → Municipality; idle_lock_ms: tests' short timeout).
        if idle_lock_ms is None:
            from desk.services.municipality import idle_lock_minutes

            idle_lock_ms = idle_lock_minutes(database.uow(), session.municipality_id) * 60_000
        self.session_lock = SessionLock(
            self,
            database,
            session.actor.username,
            session.full_name,
            idle_lock_ms,
            unsaved_forms=self.unsaved_forms,
            sign_out=self.sign_out,
        )
        database.signed_out_listeners.append(self._refused)
        self.nav = QListWidget(self)
        self.nav.setObjectName("navigation")
        self.nav.setAccessibleName("Sections")
        self.stack = QStackedWidget(self)
        for title, widget in self.sections:
            item = QListWidgetItem(title)
            item.setSizeHint(QSize(0, self.fontMetrics().height() + 18))
            self.nav.addItem(item)
            self.stack.addWidget(page_scroll(self.stack, widget))
        # Saved searches: indented rows under Permits; a row's SAVED_ROLE is the search's name.
        self._add_saved_rows()
        self.nav.currentRowChanged.connect(self._nav_changed)
        self.nav.setCurrentRow(0)
        width = max(self.fontMetrics().horizontalAdvance(t) for t, _ in self.sections) + 64
        self.nav.setFixedWidth(max(width, 132))

        central = QWidget(self)
        central.setObjectName("central")
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        # A register that cannot be written says so above everything, all the time.
        self.read_only_banner = QLabel(database.read_only_notice or "", central)
        self.read_only_banner.setObjectName("readOnlyBanner")
        self.read_only_banner.setWordWrap(True)
        self.read_only_banner.setVisible(database.read_only)
        outer.addWidget(self.read_only_banner)
        layout = QHBoxLayout()
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        outer.addLayout(layout, 1)
        self.setCentralWidget(central)

        self._build_actions()
        self.help_menu = install_help_menu(self, database)  # after every other menu: last
        self._build_status_bar()
        fit_window(self, "main", (1280, 800), keep=remember_geometry)
        if remember_geometry:
            self._restore_state()
        # Other workstations' changes, within a second or two (ui.live).
        self.live = LiveChanges(database, self)
        self.live.changed.connect(self._changed_elsewhere)

    def _drop_sections_not_provided(self) -> None:
        """The sections of parts the municipality's ordinances do not provide leave the
        sidebar; their views stay built (other views signal them) but hidden."""
        with self.database.read() as conn:
            self.provides = provides = municipality_provides(conn, self.session.municipality_id)
        parts = {
            PERMITS: Part.PERMITS,
            DEADLINES: Part.PERMITS,
            FEE_SCHEDULES: Part.PERMITS,
            BONDS: Part.BONDS,
            DEPOSITS: Part.DEPOSITS,
            ENFORCEMENT: Part.ENFORCEMENT,
            ROOMING: Part.ROOMING,
        }
        kept = []
        for title, widget in self.sections:
            wanted = provides.has(parts[title]) if title in parts else True
            if title == LICENSING:
                wanted = provides.has(Part.LICENCES) or provides.has(Part.CONDEMNATIONS)
            if wanted:
                kept.append((title, widget))
            else:
                widget.hide()
        self.sections = kept

    def _build_actions(self) -> None:
        menu = self.menuBar().addMenu("&File")
        self.new_action = QAction("&New Application…", self)
        self.new_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_action.triggered.connect(self.new_application)
        menu.addAction(self.new_action)
        self.addAction(self.new_action)
        self.home_action = QAction("&Needs Attention", self)
        self.home_action.setShortcut(QKeySequence("F2"))
        self.home_action.triggered.connect(self.show_home)
        menu.addAction(self.home_action)
        self.addAction(self.home_action)
        self.find_action = QAction("&Find Permit…", self)
        self.find_action.setShortcut(QKeySequence.StandardKey.Find)
        self.find_action.triggered.connect(self.focus_search)
        self.refresh_action = QAction("&Refresh", self)
        self.refresh_action.setShortcut(QKeySequence.StandardKey.Refresh)
        self.refresh_action.triggered.connect(self.refresh)
        self.quit_action = QAction("&Quit", self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self.close)
        # The one Ctrl+P of the main window (a second one would be ambiguous): the section shown
        # prints its printout (print_current), else its list as filtered (ui.list_print),
        # straight to the print dialog.
        self.print_action = QAction("Prin&t…", self)
        self.print_action.setShortcut(QKeySequence.StandardKey.Print)
        self.print_action.triggered.connect(
            lambda: list_print.print_shown(
                self._current_section(), self.statusBar(), self.database, self.session, self.clock
            )
        )
        self.folder_action = QAction("&Document folder…", self)
        self.folder_action.triggered.connect(lambda: exports.choose_document_folder(self))
        for action in (self.find_action, self.refresh_action, self.print_action):
            menu.addAction(action)
            self.addAction(action)  # shortcuts work while the menu bar is hidden too
        menu.addAction(self.folder_action)
        # The register to the backup folder, checked once written (ui/backups.py).
        self.backups = BackupActions(
            self, self.database, self.session.actor, self.session.municipality_id, self.clock
        )
        self.backup_action = QAction("&Back up now…", self)
        self.backup_action.setObjectName("fileBackUpNow")
        self.backup_action.triggered.connect(self.backups.back_up_now)
        menu.addAction(self.backup_action)
        # The county's parcel file: the clerk and the administrator (the service checks again).
        self.import_parcels_action = QAction("Import p&arcels…", self)
        self.import_parcels_action.setObjectName("fileImportParcels")
        self.import_parcels_action.triggered.connect(self.open_parcel_import)
        if not allowed(self.session.actor, Permission.IMPORT_DATA):
            from ui.presenters.import_jobs import who_may

            why = who_may(Permission.IMPORT_DATA)
            self.import_parcels_action.setEnabled(False)
            self.import_parcels_action.setToolTip(why)
            self.import_parcels_action.setStatusTip(why)
        menu.addAction(self.import_parcels_action)
        # The contractors' spreadsheet, as the People section's button does.
        self.import_contractors_action = QAction("Import &contractors…", self)
        self.import_contractors_action.setObjectName("fileImportContractors")
        self.import_contractors_action.triggered.connect(self.people_view.import_contractors)
        self.import_contractors_action.setEnabled(self.import_parcels_action.isEnabled())
        self.import_contractors_action.setToolTip(self.import_parcels_action.toolTip())
        self.import_contractors_action.setStatusTip(self.import_parcels_action.statusTip())
        menu.addAction(self.import_contractors_action)
        menu.setToolTipsVisible(True)  # a greyed entry says who may
        menu.addSeparator()
        self.password_action = QAction("Change my &password…", self)
        self.password_action.triggered.connect(self.change_my_password)
        menu.addAction(self.password_action)
        # The app works in one municipality at a time: another of this register re-opens the
        # window for it, the same user signed in.
        self.switch_action = QAction("Switch &municipality…", self)
        self.switch_action.setObjectName("fileSwitchMunicipality")
        self.switch_action.triggered.connect(self.choose_municipality)
        menu.addAction(self.switch_action)
        menu.addSeparator()
        # A shared counter PC: the next person signs in without restarting the app.
        self.sign_out_action = QAction("Sign &out", self)
        self.sign_out_action.setObjectName("fileSignOut")
        self.sign_out_action.setShortcut(QKeySequence("Ctrl+Shift+L"))
        self.sign_out_action.triggered.connect(self.sign_out_by_user)
        menu.addAction(self.sign_out_action)
        self.addAction(self.sign_out_action)
        menu.addAction(self.quit_action)
        self.addAction(self.quit_action)

        tools = self.menuBar().addMenu("&Tools")
        self.calculator_action = QAction("Fee &calculator…", self)
        self.calculator_action.setShortcut(QKeySequence("Ctrl+K"))
        self.calculator_action.triggered.connect(self.open_fee_calculator)
        tools.addAction(self.calculator_action)
        self.addAction(self.calculator_action)
        # A municipality with code enforcement only (Hudson ch. 140) has no permits to take
        # or price: the two stay in the menus, greyed, and say why.
        if not kinds_for(self.session.municipality_key):
            why = f"{self.session.municipality_name} has no permit kinds in Permit Desk"
            for action in (self.new_action, self.calculator_action):
                action.setEnabled(False)
                action.setStatusTip(why)
                action.setToolTip(why)
        # Hudson 140-7, Ch. 512-11: a unit's occupancy limits from its rooms.
        self.occupancy_action = QAction("&Occupancy calculator…", self)
        self.occupancy_action.setObjectName("toolsOccupancy")
        self.occupancy_action.triggered.connect(self.open_occupancy_calculator)
        tools.addAction(self.occupancy_action)
        if not self.provides.has(Part.ENFORCEMENT):  # its limits are a housing code's
            why = f"{self.session.municipality_name} enforces no housing code in Permit Desk"
            self.occupancy_action.setEnabled(False)
            self.occupancy_action.setStatusTip(why)
            self.occupancy_action.setToolTip(why)
        # New Lisbon §435-8.I: the street register's repavings, for those who keep it.
        self.repaving_action = QAction("Street &repaving…", self)
        self.repaving_action.setObjectName("toolsStreetRepaving")
        self.repaving_action.triggered.connect(self.open_street_repaving)
        if allowed(self.session.actor, Permission.RECORD_STREET_REPAVING):
            tools.addAction(self.repaving_action)

        # Administration: the sections only administrators have, by name as the guide calls them.
        self.admin_menu: QMenu | None = None
        for title in (USERS, MUNICIPALITY, GL_ACCOUNTS, FEE_SCHEDULES):
            if title not in self.section_titles():
                continue
            if self.admin_menu is None:
                self.admin_menu = self.menuBar().addMenu("&Administration")
            action = self.admin_menu.addAction(title)
            action.setObjectName(f"admin:{title}")
            action.triggered.connect(lambda _checked=False, t=title: self.show_section(t))
        # Another Wisconsin municipality in this register (then offered to switch to).
        self.new_municipality_action: QAction | None = None
        if allowed(self.session.actor, Permission.MANAGE_MUNICIPALITY):
            if self.admin_menu is None:
                self.admin_menu = self.menuBar().addMenu("&Administration")
            self.admin_menu.addSeparator()
            self.new_municipality_action = self.admin_menu.addAction("New municipality…")
            self.new_municipality_action.setObjectName("admin:New municipality")
            self.new_municipality_action.triggered.connect(self.new_municipality)
        # The register against its audit trail and the anchors file (ui/views/register_check.py).
        self.check_register_action: QAction | None = None
        if may_check(self.session.actor):
            if self.admin_menu is None:
                self.admin_menu = self.menuBar().addMenu("&Administration")
            self.admin_menu.addSeparator()
            self.check_register_action = self.admin_menu.addAction("Check the register…")
            self.check_register_action.setObjectName("admin:Check the register")
            self.check_register_action.triggered.connect(self.check_register)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        bar.setObjectName("statusBar")
        bar.setSizeGripEnabled(True)
        self.user_label = QLabel(self.session.user_text)
        self.user_label.setObjectName("statusUser")
        self.municipality_label = QLabel(self.session.municipality_name)
        self.database_label = QLabel(self.session.database_text)
        self.database_label.setObjectName("statusDatabase")
        self.database_label.setToolTip(self.session.where)
        self.database_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bar.addWidget(self.user_label)
        bar.addWidget(self.municipality_label)
        bar.addPermanentWidget(self.database_label)

    # --- state ------------------------------------------------------------------------

    def _restore_state(self) -> None:
        state = settings.read_bytes(settings.MAIN_STATE)
        if state is not None:
            self.restoreState(state)

    def load(self) -> None:
        """Show the data: restore columns, then count and fetch the first page; the home when
        it is the section shown (not read while the window is being built)."""
        if self.remember_geometry:
            self.permits_view.restore_columns()
        self.permits_view.load()
        self._loaded = True
        if self._current_section() is self.home_view:
            self.home_view.load()

    def _current_section(self) -> QWidget | None:
        here = self.stack.currentIndex()
        return self.sections[here][1] if 0 <= here < len(self.sections) else None

    def closeEvent(self, event: QCloseEvent) -> None:
        view = self.municipality_view
        if not self.sign_out_reason and view is not None and not view.confirm_leave():
            event.ignore()  # unsaved municipality settings: the administrator kept them
            return
        if self.sign_out_reason and self.intake_window is not None:
            self.intake_window.presenter.dirty = False  # disabled: it can no longer be saved
        if self.intake_window is not None and not self.intake_window.close():
            event.ignore()  # an unsaved application: the clerk chose to keep it
            return
        # Every other window of the session (a case, a person, a dialog) closes with it:
        # nothing of this user's stays on screen for the next one, and the app can end. A form
        # with unsaved changes asks first; kept, the session stays open with it.
        for child in self.findChildren(QWidget):
            if child.isWindow() and (child.isVisible() or child in self.session_lock.hidden):
                if self.sign_out_reason and hasattr(child, "dirty"):
                    child.dirty = False  # signed out: it can no longer be saved
                if not child.close():
                    event.ignore()
                    return
        self.session_lock.stop()
        if self._refused in self.database.signed_out_listeners:
            self.database.signed_out_listeners.remove(self._refused)
        self.live.stop()
        for window in list(self.permit_windows.values()):
            window.close()
        if self.fee_calculator is not None:
            self.fee_calculator.close()
        if self.occupancy_window is not None:
            self.occupancy_window.close()
        if self.remember_geometry:
            settings.write(settings.MAIN_STATE, self.saveState())
            self.permits_view.save_columns()
        super().closeEvent(event)

    # --- who is signed in ----------------------------------------------------------------

    def _refused(self, message: str) -> None:
        self.signed_out.emit(message)  # from any thread; the window acts in its own

    def still_signed_in(self) -> bool:
        """Checked on opening a section or a permit (reads), as the unit of work checks every
        write: a user disabled meanwhile is signed out at their next action, and so is one
        whose roles an administrator changed (the window was built for the old ones)."""
        with self.database.read() as conn:
            state, roles = user_access(conn, self.session.actor.user_id)
        reason = ""
        if state != "active":
            reason = SignedOut.LOCKED if state == "locked" else SIGNED_OUT
        elif roles != self.session.actor.roles:
            reason = ROLES_CHANGED
        if reason:
            dialogs.warn(self, "Signed out", reason)
            self.sign_out(reason)
        return not reason

    def sign_out(self, reason: str) -> None:
        """Close every window of this user; the app then asks who signs in (ui.app)."""
        if self.sign_out_reason:
            return
        self.sign_out_reason = reason
        QTimer.singleShot(0, self.close)  # after the slot that met the refusal has returned

    def sign_out_by_user(self) -> bool:
        """File → Sign out: unsaved forms are asked about as Quit asks; then every window of
        the session closes and the app asks who signs in next (ui.app). False when a form
        was kept."""
        self.signing_out = True
        if not self.close():
            self.signing_out = False  # the user kept an unsaved form: still signed in
            return False
        return True

    def unsaved_forms(self) -> list[str]:
        """The forms with edits not saved, as a sentence names them ("new application")."""
        forms = []
        if self.intake_window is not None and self.intake_window.presenter.dirty:
            forms.append("new application")
        view = self.municipality_view
        if view is not None and view.presenter.dirty:
            forms.append("municipality settings")
        return forms

    def municipalities(self) -> list[tuple[int, str, str]]:
        with self.database.read() as conn:
            return queries.municipalities(conn)

    def choose_municipality(self) -> bool:
        """File → Switch municipality: another of the register's, chosen from a list."""
        here = self.session.municipality_id
        others = self.municipalities()
        if len(others) < 2:
            dialogs.inform(
                self,
                "Switch municipality",
                f"This register has only the {self.session.municipality_name}. An administrator "
                "sets up another under Administration → New municipality.",
            )
            return False
        names = [name for _id, _key, name in others]
        current = next((n for n, (mid, _k, _name) in enumerate(others) if mid == here), 0)
        name = dialogs.choose(
            self, "Switch municipality", "Work in the municipality:", names, current
        )
        chosen = next((m for m in others if m[2] == name), None)
        if chosen is None or chosen[0] == here:
            return False
        return self.switch_municipality(chosen[0], chosen[1])

    def switch_municipality(self, municipality_id: int, key: str = "") -> bool:
        """Close every window of this municipality; the app re-opens the main window for the
        other one (ui.app), the same user signed in. False when a window kept its edits."""
        self.switch_to = municipality_id
        if not self.close():
            self.switch_to = None  # unsaved edits kept: staying here
            return False
        if key and self.remember_geometry:
            settings.write(settings.LAST_MUNICIPALITY, key)  # preselected at the next sign-in
        return True

    def new_municipality(self) -> QDialog:
        """Administration → New municipality: any Wisconsin city, village or town, created in
        this register; then offered to switch to."""
        dialog = new_municipality_dialog(self, self.database.uow, self.clock, self.session.actor)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._municipality_created(dialog.presenter.created_id))
        dialog.open()
        return dialog

    def check_register(self) -> QDialog:
        """Administration → Check the register…: run off the UI thread, the outcome shown."""
        dialog = RegisterCheckDialog(self.database, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        dialog.start()
        return dialog

    def _municipality_created(self, municipality_id: int | None) -> None:
        # Asked once the dialog has closed: switching closes this window.
        QTimer.singleShot(0, lambda: self._offer_switch(municipality_id))

    def _offer_switch(self, municipality_id: int | None) -> None:
        created = next((m for m in self.municipalities() if m[0] == municipality_id), None)
        if created is None:
            return
        self.statusBar().showMessage(f"The {created[2]} is set up.", 10_000)
        if dialogs.ask(
            self,
            "New municipality",
            f"The {created[2]} is set up in this register. Switch to it now? (File → Switch "
            "municipality goes back and forth.)",
            default_yes=True,
        ):
            self.switch_municipality(created[0], created[1])

    def change_my_password(self) -> QDialog:
        """File → Change my password."""
        dialog = change_own_password_dialog(self, self.database, self.session.actor, self.clock)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(
            lambda: self.statusBar().showMessage("Your password is changed.", 10_000)
        )
        dialog.open()
        return dialog

    # --- actions ----------------------------------------------------------------------

    def focus_search(self) -> None:
        self.show_section(PERMITS)
        self.permits_view.focus_search()

    def show_home(self) -> None:
        self.show_section(HOME)
        self.home_view.focus_list()

    def _open_section_named(self, title: str) -> None:
        """A home item done elsewhere: its section, when this user has it."""
        if title in self.section_titles():
            self.show_section(title)

    def _open_place(self, title: str, place: str) -> None:
        """A home item done at one place of a section (a drawer's day, a deposits queue)."""
        if title in self.section_titles():
            view = self.show_section(title)
            show_place = getattr(view, "show_place", None)
            if callable(show_place):
                show_place(place)

    def refresh(self) -> None:
        self.permits_view.load()
        for window in self.permit_windows.values():
            window.reload()
        if self.fee_schedules_view is not None and self.fee_schedules_view.loaded:
            self.fee_schedules_view.load()
        if self.enforcement_view.loaded:
            self.enforcement_view.load()  # makes the orders due today (140-3D)
        if self.rooming_view.loaded:
            self.rooming_view.load()  # revokes the licences due today (140-10D)
        if self.parcels_view.loaded:
            self.parcels_view.load()
        if self.people_view.loaded:
            self.people_view.load()
        if self.fee_calculator is not None:
            self._schedule_changed()

    def _changed_elsewhere(self, changes: list[Change]) -> None:
        """Committed on another workstation (or in another window here): the lists shown and
        the permits' windows show it. Views where a user may be typing are not reloaded under
        them: the Municipality screen with unsaved edits says so instead, and the treasurer's
        counts wait for F5."""
        permit_ids = {c.permit_id for c in changes if c.permit_id is not None}
        if permit_ids or any(c.entity in ("parcel", "party") for c in changes):
            self.permits_view.refresh()
        for permit_id in permit_ids:
            window = self.permit_windows.get(permit_id)
            if window is not None:
                window.reload()
        here = self.stack.currentIndex()
        shown = self.sections[here][1] if 0 <= here < len(self.sections) else None
        if shown is not self.parcels_view:  # shown, its load reads them again
            self.parcels_view.reload_windows()  # a parcel's permits, cases, history
        # A person's new address or renewed credential: the People list when shown, the
        # person's windows, and the permits' windows (their Parties tab checks credentials).
        people = [c.entity for c in changes if c.entity in ("party", "credential")]
        self.people_view.changed_elsewhere([c.entity for c in changes], shown is self.people_view)
        if people:
            for window in self.permit_windows.values():
                if window.permit_id not in permit_ids:
                    window.reload()
        lists: list[QWidget | None] = [
            self.home_view,
            self.parcels_view,
            self.deadlines_view,
            self.inspections_view,
            self.bonds_view,
            self.deposits_view,
            self.licensing_view,
            self.enforcement_view,
            self.rooming_view,
            self.users_view,
            self.gl_accounts_view,
        ]
        if shown is not None and shown in lists:
            shown.load()  # type: ignore[attr-defined]
        if self.cashier_view is not None and shown is self.cashier_view:
            self.cashier_view.load_receipts()
        # What this workstation saved itself is no news to it.
        muni = [c for c in changes if c.entity == "municipality" and not c.here]
        if muni and self.municipality_view is not None and self.municipality_view.loaded:
            self.municipality_view.changed_elsewhere(muni[-1])
        elsewhere = any(not c.here for c in changes)
        if self.treasurer_view is not None and shown is self.treasurer_view and elsewhere:
            self.statusBar().showMessage(
                "Changed on another workstation: press F5 to see it.", 10000
            )

    # --- sections ---------------------------------------------------------------------

    def section_titles(self) -> list[str]:
        return [title for title, _ in self.sections]

    def show_section(self, title: str) -> QWidget:
        """Select a section by its title (KeyError if this user does not have it)."""
        index = self.section_titles().index(title) if title in self.section_titles() else -1
        if index < 0:
            raise KeyError(title)
        self.nav.setCurrentRow(self._nav_row(index))
        return self.sections[index][1]

    def current_section_title(self) -> str:
        here = self.stack.currentIndex()
        return self.sections[here][0] if 0 <= here < len(self.sections) else ""

    # --- saved searches in the sidebar -----------------------------------------------

    def saved_search_rows(self) -> list[str]:
        """The saved searches' names as the sidebar lists them, in order."""
        out = []
        for row in range(self.nav.count()):
            name = self.nav.item(row).data(SAVED_ROLE)
            if name:
                out.append(str(name))
        return out

    def show_saved_search(self, name: str) -> None:
        """Choose a saved search in the sidebar (KeyError when there is none by that name)."""
        for row in range(self.nav.count()):
            if self.nav.item(row).data(SAVED_ROLE) == name:
                self.nav.setCurrentRow(row)
                return
        raise KeyError(name)

    def _add_saved_rows(self) -> None:
        if PERMITS not in self.section_titles():
            return
        row = self._nav_row(self.section_titles().index(PERMITS)) + 1
        height = self.fontMetrics().height() + 12
        for search in self.saved_searches.all():
            item = QListWidgetItem(SAVED_INDENT + search.name)
            item.setData(SAVED_ROLE, search.name)
            item.setToolTip(f"Saved search: {search.name}")
            item.setSizeHint(QSize(0, height))
            self.nav.insertItem(row, item)
            row += 1

    def _nav_row(self, section: int) -> int:
        """The sidebar row of section number `section` (saved-search rows are skipped)."""
        seen = -1
        for row in range(self.nav.count()):
            if not self.nav.item(row).data(SAVED_ROLE):
                seen += 1
                if seen == section:
                    return row
        return -1

    def _nav_target(self, row: int) -> tuple[int, str]:
        """(section number, saved search name or "") of a sidebar row."""
        item = self.nav.item(row)
        if item is None:
            return -1, ""
        name = str(item.data(SAVED_ROLE) or "")
        sections = sum(1 for r in range(row + 1) if not self.nav.item(r).data(SAVED_ROLE))
        return sections - 1, name

    def _nav_changed(self, row: int) -> None:
        section, name = self._nav_target(row)
        if not self._section_changed(section):
            return
        search = self.saved_searches.find(name) if name else None
        if search is not None:
            self.permits_view.show_saved(search)

    def _saved_searches_changed(self) -> None:
        """One saved or deleted: the sidebar lists them again, the one shown selected."""
        shown = self.permits_view.current_saved
        self.nav.blockSignals(True)
        try:
            for row in reversed(range(self.nav.count())):
                if self.nav.item(row).data(SAVED_ROLE):
                    self.nav.takeItem(row)
            self._add_saved_rows()
            self._select_quietly(shown)
        finally:
            self.nav.blockSignals(False)

    def _permits_edited(self) -> None:
        """The search or a filter changed by hand: the sidebar shows Permits, not the saved
        search (choosing that search again shows it as saved)."""
        item = self.nav.currentItem()
        if item is not None and item.data(SAVED_ROLE):
            self._select_quietly(None)

    def _select_quietly(self, saved: str | None) -> None:
        row = -1
        if saved:
            names = [self.nav.item(r).data(SAVED_ROLE) for r in range(self.nav.count())]
            row = names.index(saved) if saved in names else -1
        if row < 0 and PERMITS in self.section_titles():
            row = self._nav_row(self.section_titles().index(PERMITS))
        blocked = self.nav.blockSignals(True)
        self.nav.setCurrentRow(row)
        self.nav.blockSignals(blocked)

    def _section_changed(self, row: int) -> bool:
        """Show section number `row`; False when it was refused (signed out, or unsaved
        municipality settings kept)."""
        if not self.still_signed_in():
            return False
        here = self.stack.currentIndex()
        muni = self.municipality_view
        # Unsaved municipality settings: asked first; kept means staying there.
        leaving = self.sections[here][1] if 0 <= here < len(self.sections) else None
        if muni is not None and row != here and leaving is muni and not muni.confirm_leave():
            self.nav.blockSignals(True)
            self.nav.setCurrentRow(self._nav_row(here))
            self.nav.blockSignals(False)
            return False
        self.stack.setCurrentIndex(row)
        widget = self.sections[row][1] if 0 <= row < len(self.sections) else None
        self._find_key(widget)
        if self.gl_accounts_view is not None and widget is self.gl_accounts_view:
            self.gl_accounts_view.load()  # another administrator may have changed a mapping
        view = self.fee_schedules_view
        if view is not None and widget is view and not view.loaded:
            view.load()
        if widget is self.home_view and self._loaded:
            self.home_view.load()  # what waits changes with every workstation's work
        if widget is self.deadlines_view:
            self.deadlines_view.load()  # always fresh: deadlines move with every change
        if widget is self.inspections_view:
            self.inspections_view.load()  # requests come in from every workstation
        if widget is self.bonds_view or widget is self.deposits_view:
            widget.load()  # the watch and the refund queue move with the day
        if self.users_view is not None and widget is self.users_view:
            self.users_view.load()  # another administrator may have added or disabled someone
        if widget is self.licensing_view:
            self.licensing_view.load()  # licences expire and vacate dates pass with the day
        if widget is self.enforcement_view:
            self.enforcement_view.load()  # windows close and orders fall due with the day
        if widget is self.parcels_view:
            self.parcels_view.load()  # imports and corrections from every workstation
        if widget is self.people_view:
            self.people_view.load()  # imports and corrections from every workstation
        if widget is self.rooming_view:
            self.rooming_view.load()  # licences expire and are revoked with the day (140-10D)
        if self.municipality_view is not None and widget is self.municipality_view:
            self.municipality_view.load()  # another administrator may have changed it
        for money_view in (self.cashier_view, self.treasurer_view):
            if money_view is not None and widget is money_view:
                money_view.load()  # other workstations take payments and close drawers too
        return True

    def _find_key(self, shown: QWidget | None) -> None:
        """A section with a search of its own (Ctrl+F) takes the key while it is shown: with
        Find Permit holding it too, Qt would fire neither."""
        action = getattr(self, "find_action", None)  # the first section is shown before it
        if action is None:
            return
        find = QKeySequence(QKeySequence.StandardKey.Find)
        own = shown is not None and any(s.key() == find for s in shown.findChildren(QShortcut))
        action.setShortcut(QKeySequence() if own else find)

    def _schedule_changed(self) -> None:
        """A new fee schedule version: the calculator prices with it from now on."""
        if self.fee_calculator is None:
            return
        try:
            schedule = fees.fee_schedule(
                self.database.uow(), self.clock, self.session.municipality_id
            )
        except DeskError as e:
            dialogs.warn(self, "Fee calculator", str(e))
            return
        self.fee_calculator.set_schedule(schedule)

    def open_permit(self, permit_id: int) -> PermitWindow:
        """Show the permit's window, creating it the first time (one window per permit)."""
        self.still_signed_in()
        window = self.permit_windows.get(permit_id)
        if window is None:
            context = PermitContext(self.database, self.session, permit_id, self.clock)
            window = PermitWindow(context, self, remember_geometry=self.remember_geometry)
            window.closed.connect(self._permit_closed)
            fees_tab = window.tab_pages.get("fees")
            if fees_tab is not None and hasattr(fees_tab, "take_payment"):
                fees_tab.take_payment.connect(self.take_payment_for)
            # The Parties tab's Credentials… opens the person's window here (one per person).
            parties_tab = window.tab_pages.get("parties")
            if parties_tab is not None and hasattr(parties_tab, "person_bar"):
                parties_tab.person_bar.person_opener = self.people_view.open_person
            self.permit_windows[permit_id] = window
            window.reload()
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def _permit_closed(self, permit_id: int) -> None:
        self.permit_windows.pop(permit_id, None)

    def take_payment_for(self, permit_id: int) -> CashierView | None:
        """The permit window's "Take payment…": the Cashier with the permit on the payment."""
        if self.cashier_view is None:
            return None
        self.show_section(CASHIER)
        self.raise_()
        self.activateWindow()
        self.cashier_view.add_permit(permit_id)
        return self.cashier_view

    def _money_moved(self, permit_ids: list[int]) -> None:
        """A payment or a void: the permits' windows show the new balance."""
        for permit_id in permit_ids or list(self.permit_windows):
            window = self.permit_windows.get(permit_id)
            if window is not None:
                window.reload()

    def open_parcel_import(self) -> QDialog:
        """File → Import parcels…: one window at a time, raised when already open."""
        from ui.views.parcel_import import open_parcel_import

        dialog = self.parcel_import_dialog
        if dialog is None:
            opened = open_parcel_import(self, self.database, self.session, self.clock)
            opened.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            opened.imported.connect(self._parcels_imported)
            opened.finished.connect(self._parcel_import_closed)
            self.parcel_import_dialog = dialog = opened
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _parcel_import_closed(self) -> None:
        self.parcel_import_dialog = None

    def _parcels_imported(self, _import_id: int) -> None:
        """The register's parcels changed: the lists that show them read them again."""
        self.permits_view.refresh()
        self.parcels_view.load()

    def open_street_repaving(self) -> bool:
        """Tools → Street repaving…: record a repaving on the street register (§435-8.I)."""
        from ui.permit import actions
        from ui.permit.base import PermitContext
        from ui.permit.street_register import StreetRepavingDialog

        context = PermitContext(self.database, self.session, 0, self.clock)  # no permit
        dialog = StreetRepavingDialog(context, "", self)
        done = actions.exec_dialog(dialog)
        dialog.deleteLater()
        return done

    def open_fee_calculator(self) -> FeeCalculatorWindow | None:
        """Tools → Fee calculator (Ctrl+K): one non-modal window, raised when already open."""
        window = self.fee_calculator
        if window is None:
            try:
                window = open_calculator(
                    self.database,
                    self.session,
                    self.clock,
                    self,
                    remember_geometry=self.remember_geometry,
                )
            except DeskError as e:
                dialogs.warn(self, "Fee calculator", str(e))
                return None
            window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            window.closed.connect(self._calculator_closed)
            self.fee_calculator = window
        window.show()
        window.raise_()
        window.activateWindow()
        window.item_combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return window

    def _calculator_closed(self) -> None:
        self.fee_calculator = None

    def open_occupancy_calculator(self) -> OccupancyWindow:
        """Tools → Occupancy calculator: one non-modal window, raised when already open."""
        window = self.occupancy_window
        if window is None:
            window = open_occupancy(
                self.database,
                self.session,
                self.clock,
                self,
                remember_geometry=self.remember_geometry,
            )
            window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            window.closed.connect(self._occupancy_closed)
            self.occupancy_window = window
        window.show()
        window.raise_()
        window.activateWindow()
        window.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return window

    def _occupancy_closed(self) -> None:
        self.occupancy_window = None

    def new_application(self) -> IntakeWindow | None:
        """File → New application (Ctrl+N): one form at a time, raised when already open."""
        window = self.intake_window
        if window is None:
            try:
                window = open_intake(self.database, self.session, self.clock, self)
            except DeskError as e:
                dialogs.warn(self, "New application", str(e))
                return None
            window.saved.connect(self._application_saved)
            window.closed.connect(self._intake_closed)
            self.intake_window = window
        window.show()
        window.raise_()
        window.activateWindow()
        window.kind_combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return window

    def _intake_closed(self) -> None:
        self.intake_window = None

    def _application_saved(self, permit_id: int) -> None:
        self.permits_view.load()
        self.open_permit(permit_id)
