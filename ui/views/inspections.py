"""The Inspections section: the requests taken on the phone, the inspector's day in
route order, the week, and the open correction orders.

Keyboard: Ctrl+R takes a new request; on the Day page Alt+Up / Alt+Down move a stop along the
route, Enter records its result, and P, R, A, C, O record passed, rejected, partial, cancelled
or OK for service straight away. Double-click opens the permit.

Case inspections of code enforcement (Hudson 140-3, 140-10A) are on the Day page beside the
permit stops, in one route order: Enter or double-click opens the case's window (the main window
connects `open_case`); Record result opens its inspection step (`inspect_case`); Move up/down
number the permit and case stops again together (desk.services.enforcement.visits).

A municipality with no permit kinds (code enforcement only, Hudson ch. 140) has no Requests or
Correction orders pages and no New request…: the section opens on the Day page.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from db import inspection_queries as iq
from db.database import Database
from desk.clock import Clock
from desk.domain.inspections import Result, Timing, sequences_for
from desk.domain.kinds import kinds_for
from desk.domain.permissions import Permission, allowed
from desk.errors import DeskError
from desk.services import inspections as svc
from desk.services.enforcement import visits
from ui import dialogs
from ui.columns import fit_to_width
from ui.exports import ROUTE_SHEETS, XLSX, print_now, save_and_open
from ui.models.base import Index, PresenterTableModel
from ui.permit import actions
from ui.permit.base import PermitContext
from ui.permit.inspections import (
    ExtendOrderDialog,
    RequestDialog,
    ResultDialog,
    ScheduleDialog,
    after_result,
    inspection_table,
    next_working_day,
    print_correction_notice,
)
from ui.presenters.formatting import format_date
from ui.presenters.inspections import (
    DayPresenter,
    OrdersPresenter,
    RequestsPresenter,
    WeekPresenter,
    monday_of,
    visits_summary,
)
from ui.presenters.session import Session
from ui.views.common import date_edit, from_qdate, to_qdate

SECTION_TITLE = "Inspections"
LATE = QColor(168, 40, 29)


class StopsModel(PresenterTableModel[Any]):
    """Requests, a day's stops or correction orders: rows the presenter holds (`cells`)."""

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row.cells[index.column()]
        late = getattr(row, "late", False) or getattr(row, "overdue", False)
        if role == Qt.ItemDataRole.ForegroundRole and late:
            return LATE
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )


def _table(parent: QWidget, name: str, model: StopsModel) -> QTableView:
    table = QTableView(parent)
    table.setModel(model)
    table.setAlternatingRowColors(True)
    return inspection_table(table, name)


# How often each recurring visit is due, in words.
VISIT_RULES = {
    Timing.EROSION_SEASON: "monthly March–October, twice November–February",
    Timing.ANNUAL: "once a year",
}


def _button(parent: QWidget, text: str, name: str) -> QPushButton:
    b = QPushButton(text, parent)
    b.setObjectName(name)
    b.setAutoDefault(False)
    return b


class InspectionsView(QWidget):
    open_permit = Signal(int)
    open_case = Signal(int)  # case id: the case's window
    inspect_case = Signal(int)  # case id: the case window's inspection step

    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("inspectionsView")
        self.database = database
        self.session = session
        self.clock = clock
        self.loaded = False
        self.is_inspector = allowed(session.actor, Permission.ISSUE_PERMIT)
        self.inspects_housing = allowed(session.actor, Permission.INSPECT_HOUSING)
        # Code enforcement only (Hudson ch. 140): no permits to request, schedule or order
        # corrections on; the Day and Week pages carry the case stops.
        self.has_permits = bool(kinds_for(session.municipality_key))

        title = QLabel(SECTION_TITLE, self)
        title.setObjectName("viewHeading")
        self.new_button = _button(self, "&New request… (Ctrl+R)", "newInspectionRequest")
        self.new_button.clicked.connect(lambda: self.new_request())
        self.new_button.setVisible(self.has_permits)
        if self.has_permits:
            QShortcut(QKeySequence("Ctrl+R"), self).activated.connect(lambda: self.new_request())
        self.pages = QTabWidget(self)
        self.pages.setObjectName("inspectionsPages")
        self.pages.setDocumentMode(True)
        self.pages.addTab(self._requests_page(), "&Requests")
        self.pages.addTab(self._day_page(), "&Day")
        self.pages.addTab(self._week_page(), "&Week")
        self.pages.addTab(self._orders_page(), "Correction &orders")
        # Hidden, not removed: the pages keep their indexes (Day is 1).
        for index in (0, 3):
            self.pages.setTabVisible(index, self.has_permits)
        if not self.has_permits:
            self.pages.setCurrentIndex(1)
        self.pages.currentChanged.connect(self._page_changed)

        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        top.addWidget(self.new_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(self.pages, 1)

    def _page_changed(self, index: int) -> None:
        if not self.pages.isTabVisible(index):  # asked for by name (--view inspections)
            self.pages.setCurrentIndex(1)  # the Day: its change loads
            return
        self.load()

    # --- pages ---------------------------------------------------------------------------

    def _requests_page(self) -> QWidget:
        page = QWidget(self)
        self.requests = RequestsPresenter([], self.clock.now())
        self.requests_model = StopsModel(self.requests, page)
        self.requests_summary = QLabel(page)
        self.requests_summary.setObjectName("countLabel")
        self.requests_table = _table(page, "requestsTable", self.requests_model)
        # Nine columns: the long texts share the width left and elide (the cell's tooltip has
        # it whole); as wide as their values, the table scrolled sideways.
        fit_to_width(self.requests_table, (2, 4, 7, 8))  # address, caller, scheduled, due
        self.requests_table.doubleClicked.connect(lambda i: self._open(self.requests, i.row()))
        self.schedule_button = _button(page, "&Schedule…", "scheduleInspection")
        self.cancel_button = _button(page, "Ca&ncel request…", "cancelInspection")
        self.open_request_button = _button(page, "Open &permit", "openRequestPermit")
        self.visits_button = _button(page, "Generate site &visits", "generateVisits")
        # Only where the ordinance has recurring visits (Glendale's erosion control sites,
        # 15.2.9, and grease interceptors, 15.1.57(c)); the tooltip names each with its section.
        recurring = [
            t for s in sequences_for(self.session.municipality_key) for t in s.types if t.recurring
        ]
        self.visits_button.setVisible(bool(recurring))
        self.visits_button.setToolTip(
            "; ".join(
                dict.fromkeys(
                    f"{t.label}: {VISIT_RULES[t.timing]} ({t.section})" for t in recurring
                )
            )
        )
        self.schedule_button.clicked.connect(lambda: self.schedule_selected())
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.open_request_button.clicked.connect(
            lambda: self._open(self.requests, self.requests_table.currentIndex().row())
        )
        self.visits_button.clicked.connect(self.generate_visits)
        buttons = QHBoxLayout()
        for b in (self.schedule_button, self.cancel_button, self.open_request_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.visits_button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addWidget(self.requests_summary)
        layout.addWidget(self.requests_table, 1)
        layout.addLayout(buttons)
        return page

    def _day_page(self) -> QWidget:
        page = QWidget(self)
        self.day = DayPresenter([])
        self.day_model = StopsModel(self.day, page)
        self.inspector_combo = QComboBox(page)
        self.inspector_combo.setObjectName("dayInspector")
        self.inspector_combo.setAccessibleName("Inspector")
        # The names come with load(): the Day may be shown first (no permit kinds), empty.
        self.inspector_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.day_date = date_edit(page, "dayDate")
        self.day_date.setDate(to_qdate(self.clock.today()))
        self.inspector_combo.currentIndexChanged.connect(lambda _i: self.load_day())
        self.day_date.dateChanged.connect(lambda _d: self.load_day())
        previous = _button(page, "◀", "previousDay")
        previous.setToolTip("The day before")
        previous.setFixedWidth(36)
        previous.clicked.connect(lambda: self._shift_day(-1))
        following = _button(page, "▶", "nextDay")
        following.setToolTip("The day after")
        following.setFixedWidth(36)
        following.clicked.connect(lambda: self._shift_day(1))
        self.day_summary = QLabel(page)
        self.day_summary.setObjectName("countLabel")
        self.day_table = _table(page, "dayTable", self.day_model)
        self.day_table.installEventFilter(self)
        # The notes give way to the result when the window is narrow.
        self.day_table.horizontalHeader().setStretchLastSection(False)
        self.day_table.horizontalHeader().setSectionResizeMode(7, QHeaderView.ResizeMode.Stretch)
        self.day_table.doubleClicked.connect(lambda i: self._open(self.day, i.row()))
        self.up_button = _button(page, "Move &up", "moveUp")
        self.down_button = _button(page, "Move do&wn", "moveDown")
        self.result_button = _button(page, "Record &result…", "dayRecordResult")
        self.result_button.setVisible(self.is_inspector or self.inspects_housing)
        self.print_button = _button(page, "&Print route…", "printRouteSheet")
        self.export_button = _button(page, "E&xport…", "exportRoute")
        self.up_button.setToolTip("Earlier in the route (Alt+Up)")
        self.down_button.setToolTip("Later in the route (Alt+Down)")
        self.result_button.setToolTip(
            "Enter, or P, R, A, C, O on the selected stop; a case stop opens its inspection"
        )
        self.print_button.setToolTip("The route sheet as a PDF")
        self.export_button.setToolTip("The route as an Excel workbook (.xlsx)")
        self.up_button.clicked.connect(lambda: self.move_stop(-1))
        self.down_button.clicked.connect(lambda: self.move_stop(1))
        self.result_button.clicked.connect(lambda: self.record_result())
        self.print_button.clicked.connect(lambda: self.print_route())
        self.export_button.clicked.connect(lambda: self.export_route())
        for keys, step in (("Alt+Up", -1), ("Alt+Down", 1)):
            shortcut = QShortcut(QKeySequence(keys), page)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda s=step: self.move_stop(s))
        top = QHBoxLayout()
        label = QLabel("&Inspector:", page)
        label.setBuddy(self.inspector_combo)
        top.addWidget(label)
        top.addWidget(self.inspector_combo)
        top.addSpacing(12)
        top.addWidget(previous)
        top.addWidget(self.day_date)
        top.addWidget(following)
        top.addStretch(1)
        buttons = QHBoxLayout()
        for b in (self.up_button, self.down_button, self.result_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.export_button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.day_summary)
        layout.addWidget(self.day_table, 1)
        layout.addLayout(buttons)
        return page

    def _week_page(self) -> QWidget:
        page = QWidget(self)
        self.monday = monday_of(self.clock.today())
        self.week_title = QLabel(page)
        self.week_title.setObjectName("sectionTitle")
        previous = _button(page, "◀ Week &before", "previousWeek")
        previous.clicked.connect(lambda: self._shift_week(-7))
        following = _button(page, "Week &after ▶", "nextWeek")
        following.clicked.connect(lambda: self._shift_week(7))
        self.week_table = QTableWidget(0, 7, page)
        self.week_table.setObjectName("weekTable")
        self.week_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.week_table.setWordWrap(True)
        self.week_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.week_table.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.week_table.cellDoubleClicked.connect(self._week_open_day)
        top = QHBoxLayout()
        top.addWidget(self.week_title)
        top.addStretch(1)
        top.addWidget(previous)
        top.addWidget(following)
        note = QLabel("Double-click a day to open it on the Day page.", page)
        note.setObjectName("noteText")
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.week_table, 1)
        layout.addWidget(note)
        return page

    def _orders_page(self) -> QWidget:
        page = QWidget(self)
        self.orders = OrdersPresenter([], self.clock.today())
        self.orders_model = StopsModel(self.orders, page)
        self.orders_summary = QLabel(page)
        self.orders_summary.setObjectName("countLabel")
        self.orders_summary.setWordWrap(True)
        self.orders_table = _table(page, "ordersTable", self.orders_model)
        fit_to_width(self.orders_table, (self.orders_model.columnCount() - 1,))
        self.orders_table.doubleClicked.connect(lambda i: self._open_order(i.row()))
        self.notice_button = _button(page, "Print &notice…", "printOrderNotice")
        self.extend_button = _button(page, "More &time…", "extendOrder")
        self.stop_work_button = _button(page, "&Stop-work order…", "orderStopWork")
        self.open_order_button = _button(page, "Open &permit", "openOrderPermit")
        for b in (self.extend_button, self.stop_work_button):
            b.setVisible(self.is_inspector)
        self.notice_button.clicked.connect(self.print_notice)
        self.extend_button.clicked.connect(self.extend_order)
        self.stop_work_button.clicked.connect(lambda: self.stop_work())
        self.open_order_button.clicked.connect(
            lambda: self._open_order(self.orders_table.currentIndex().row())
        )
        buttons = QHBoxLayout()
        for b in (
            self.notice_button,
            self.extend_button,
            self.stop_work_button,
            self.open_order_button,
        ):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addWidget(self.orders_summary)
        layout.addWidget(self.orders_table, 1)
        layout.addLayout(buttons)
        return page

    # --- loading ---------------------------------------------------------------------------

    def load(self) -> None:
        """Refresh every page from the database (each is small: open work only)."""
        with self.database.read() as conn:
            people = iq.inspectors(conn)
            requests = iq.open_requests(conn, self.session.municipality_id)
            orders = iq.open_orders(conn, self.session.municipality_id)
            week = iq.week(conn, self.session.municipality_id, self.monday, cases=True)
        self._fill_inspectors(people)
        self.requests = RequestsPresenter(requests, self.clock.now())
        self.requests_model.set_presenter(self.requests)
        self.requests_summary.setText(self.requests.summary)
        self.orders = OrdersPresenter(orders, self.clock.today())
        self.orders_model.set_presenter(self.orders)
        self.orders_summary.setText(self.orders.summary)
        self._fill_week(WeekPresenter(week, self.monday, people))
        self.load_day()
        self.loaded = True

    def _fill_inspectors(self, people: list[tuple[int, str]]) -> None:
        current = self.inspector_combo.currentData()
        self.inspector_combo.blockSignals(True)
        self.inspector_combo.clear()
        for uid, name in people:
            self.inspector_combo.addItem(name, uid)
        mine = self.inspector_combo.findData(self.session.actor.user_id)
        keep = self.inspector_combo.findData(current)
        self.inspector_combo.setCurrentIndex(keep if keep >= 0 else max(mine, 0))
        self.inspector_combo.blockSignals(False)

    def load_day(self) -> None:
        uid = self.inspector_combo.currentData()
        day = from_qdate(self.day_date.date())
        row = self.day_table.currentIndex().row()
        stops = []
        if uid is not None:
            with self.database.read() as conn:
                stops = iq.inspector_day(conn, int(uid), day, cases=True)
        self.day = DayPresenter(stops)
        self.day_model.set_presenter(self.day)
        self.day_summary.setText(self.day.summary(self.inspector_combo.currentText(), day))
        if self.day.rows:
            self.day_table.selectRow(min(max(row, 0), len(self.day.rows) - 1))

    def _fill_week(self, week: WeekPresenter) -> None:
        self.week = week
        self.week_title.setText(week.title)
        self.week_table.setRowCount(len(week.rows))
        self.week_table.setHorizontalHeaderLabels(week.columns)
        self.week_table.setVerticalHeaderLabels(week.rows)
        for r in range(len(week.rows)):
            for c in range(7):
                item = QTableWidgetItem(week.cell_text(r, c))
                item.setTextAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
                self.week_table.setItem(r, c, item)

    def _shift_day(self, days: int) -> None:
        self.day_date.setDate(self.day_date.date().addDays(days))

    def _shift_week(self, days: int) -> None:
        self.monday += timedelta(days=days)
        self.load()

    def _week_open_day(self, row: int, column: int) -> None:
        self.inspector_combo.setCurrentIndex(
            max(0, self.inspector_combo.findData(self.week.inspector_ids[row]))
        )
        self.day_date.setDate(to_qdate(self.week.days[column]))
        self.pages.setCurrentIndex(1)

    # --- helpers ---------------------------------------------------------------------------

    def _context(self, permit_id: int) -> PermitContext:
        return PermitContext(self.database, self.session, permit_id, self.clock)

    def _open(self, presenter: Any, row: int) -> None:
        if 0 <= row < len(presenter.rows):
            stop = presenter.rows[row].stop
            if stop.is_case and stop.case_id is not None:
                self.open_case.emit(stop.case_id)
            else:
                self.open_permit.emit(stop.permit_id)

    def _open_order(self, row: int) -> None:
        if 0 <= row < len(self.orders.rows):
            self.open_permit.emit(self.orders.rows[row].order.permit_id)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.day_table and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                row = self.day_table.currentIndex().row()
                if 0 <= row < len(self.day.rows) and self.day.rows[row].stop.is_case:
                    self._open(self.day, row)  # a case stop: its window
                else:
                    self.record_result()
                return True
            result = DayPresenter.key_result(event.text())
            if result is not None and mods == Qt.KeyboardModifier.NoModifier:
                self.record_result(result)
                return True
        return super().eventFilter(watched, event)

    # --- requests --------------------------------------------------------------------------

    def new_request(self) -> RequestDialog | None:
        """Ctrl+R: a call at the counter; then offer to put it on an inspector's day. None
        where there are no permit kinds (nothing to request an inspection of)."""
        if not self.has_permits:
            return None
        dialog = RequestDialog(self._context(0), self)
        done = actions.exec_dialog(dialog)
        if done and dialog.request is not None:
            self.load()
            if not dialogs.tell(self, dialog.confirmation()):
                dialogs.inform(self, "Inspection requested", dialog.confirmation())
            self.schedule(dialog.request.inspection_id, dialog.permit_id, dialog.request.type_label)
        return dialog if done else None

    def schedule_selected(self) -> ScheduleDialog | None:
        row = self.requests_table.currentIndex().row()
        if not 0 <= row < len(self.requests.rows):
            dialogs.inform(self, "Schedule", "Select a request first.")
            return None
        stop = self.requests.rows[row].stop
        return self.schedule(
            stop.inspection_id, stop.permit_id, f"{stop.type_label}, {stop.address}"
        )

    def schedule(self, inspection_id: int, permit_id: int, what: str) -> ScheduleDialog | None:
        dialog = ScheduleDialog(
            self._context(permit_id),
            inspection_id,
            what,
            self,
            inspector_id=self.inspector_combo.currentData(),
            day=max(from_qdate(self.day_date.date()), self.clock.today())
            if from_qdate(self.day_date.date()) >= self.clock.today()
            else next_working_day(self.clock.today()),
        )
        done = actions.exec_dialog(dialog)
        self.load()
        return dialog if done else None

    def cancel_selected(self) -> None:
        row = self.requests_table.currentIndex().row()
        if not 0 <= row < len(self.requests.rows):
            return
        stop = self.requests.rows[row].stop
        reason = dialogs.choose(
            self,
            "Cancel the request",
            f"Why is {stop.type_label} at {stop.address} cancelled?",
            ["The caller asked", "Work not ready", "Requested twice", "Other"],
        )
        if reason is None:
            return
        try:
            svc.cancel_inspection(
                self.database.uow(), self.clock, self.session.actor, stop.inspection_id, reason
            )
        except DeskError as e:
            dialogs.warn(self, "Cancel the request", str(e))
        self.load()

    def generate_visits(self) -> None:
        try:
            visits = svc.generate_site_visits(
                self.database.uow(), self.clock, self.session.actor, self.session.municipality_id
            )
        except DeskError as e:
            dialogs.warn(self, "Site visits", str(e))
            return
        self.load()
        dialogs.inform(self, "Site visits", visits_summary(visits))

    # --- the day ---------------------------------------------------------------------------

    def move_stop(self, step: int) -> None:
        row = self.day_table.currentIndex().row()
        if not self.day.can_move(row, step):
            return
        stop = self.day.rows[row].stop
        try:
            if any(r.stop.is_case for r in self.day.rows):
                # Permit and case stops share the route: numbered again together.
                uid = self.inspector_combo.currentData()
                visits.move_on_route(
                    self.database.uow(),
                    self.clock,
                    self.session.actor,
                    int(uid),
                    from_qdate(self.day_date.date()),
                    "case" if stop.is_case else "permit",
                    (stop.visit_id or 0) if stop.is_case else stop.inspection_id,
                    step,
                )
            else:
                svc.move_in_route(
                    self.database.uow(), self.clock, self.session.actor, stop.inspection_id, step
                )
        except DeskError as e:
            dialogs.warn(self, "Route", str(e))
            return
        self.day_table.selectRow(row + step)
        self.load_day()
        self.day_table.selectRow(row + step)

    def record_result(self, result: Result | None = None) -> ResultDialog | None:
        row = self.day_table.currentIndex().row()
        if 0 <= row < len(self.day.rows) and self.day.rows[row].stop.is_case:
            if result is None:  # the result keys are the permit's; Enter opens the case
                self.inspect_selected_case(row)
            return None
        if not self.day.open_row(row):
            return None
        if not self.is_inspector:
            dialogs.inform(self, "Record the result", "Results are recorded by an inspector.")
            return None
        stop = self.day.rows[row].stop
        context = self._context(stop.permit_id)
        with self.database.read() as conn:
            head = iq.permit_inspections(conn, stop.permit_id)
        itype = svc.inspection_type(head.municipality_key, stop.type_code) if head else None
        dialog = ResultDialog(
            context,
            stop.inspection_id,
            f"{stop.type_label} — {stop.permit_number}, {stop.address}",
            itype,
            self,
            result=result,
        )
        done = actions.exec_dialog(dialog)
        self.load()
        if done:
            after_result(self, context, dialog)
            self.load()
        return dialog if done else None

    def inspect_selected_case(self, row: int) -> None:
        """A case stop: the case window's inspection step (Hudson 140-2); recording it makes
        the visit done. A stop done already, or a user who does not inspect, opens the case."""
        stop = self.day.rows[row].stop
        if stop.case_id is None:
            return
        if self.day.open_row(row) and self.inspects_housing:
            self.inspect_case.emit(stop.case_id)
        else:
            self.open_case.emit(stop.case_id)
        self.load_day()

    def _sheet(self) -> Any:
        uid = self.inspector_combo.currentData()
        if uid is None:
            return None
        with self.database.read() as conn:
            return iq.route_sheet(
                conn, self.session.municipality_id, int(uid), from_qdate(self.day_date.date())
            )

    def _file_stem(self, sheet: Any) -> str:
        who = sheet.inspector_name.lower().replace(" ", "-")
        return f"route-{who}-{sheet.day.isoformat()}"

    def print_route(self) -> Path | None:
        sheet = self._sheet()
        if sheet is None:
            return None
        from reports.route_sheet import render_route_sheet

        return save_and_open(
            self,
            "Print route sheet",
            "Save the route sheet as PDF",
            f"{self._file_stem(sheet)}.pdf",
            lambda path: render_route_sheet(sheet, path),
            subfolder=ROUTE_SHEETS,
        )

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print) on the Day page: the route sheet straight to the print dialog.
        False elsewhere, or with no inspector chosen."""
        if self.pages.currentIndex() != 1:
            return False
        sheet = self._sheet()
        if sheet is None:
            return False
        from reports.route_sheet import render_route_sheet

        print_now(
            self,
            "Print route sheet",
            f"{self._file_stem(sheet)}.pdf",
            lambda path: render_route_sheet(sheet, path),
            ROUTE_SHEETS,
        )
        return True

    def export_route(self) -> Path | None:
        sheet = self._sheet()
        if sheet is None:
            return None
        from reports.route_sheet import export_route_xlsx

        return save_and_open(
            self,
            "Export route",
            "Export the route",
            f"{self._file_stem(sheet)}.xlsx",
            lambda path: export_route_xlsx(sheet, path),
            XLSX,
        )

    # --- correction orders ------------------------------------------------------------------

    def _order_row(self) -> Any:
        row = self.orders_table.currentIndex().row()
        return self.orders.rows[row] if 0 <= row < len(self.orders.rows) else None

    def print_notice(self) -> None:
        row = self._order_row()
        if row is not None:
            print_correction_notice(self, self.database, row.order.id)

    def extend_order(self) -> None:
        row = self._order_row()
        if row is None:
            return
        dialog = ExtendOrderDialog(
            self._context(row.order.permit_id), row.order.id, row.order.due_on, self
        )
        actions.exec_dialog(dialog)
        self.load()

    def stop_work(self) -> actions.StopWorkDialog | None:
        """15.1.90(b)(2): the order was not complied with in time; the lifecycle's stop-work
        order, its reasons filled in from the correction order."""
        row = self._order_row()
        if row is None:
            return None
        o = row.order
        dialog = actions.StopWorkDialog(self._context(o.permit_id), self)
        index = dialog.section.findData("15.1.90(b)(2)")
        if index >= 0:
            dialog.section.setCurrentIndex(index)
        dialog.reasons.setPlainText(
            f"Correction order of {format_date(o.noticed_on)} not complied with by "
            f"{format_date(o.due_on)}: " + "; ".join(o.items.splitlines())
        )
        done = actions.exec_dialog(dialog)
        self.load()
        if done and dialog.order_id is not None:
            from ui.permit.documents import print_order_notice
            from ui.presenters.permit_actions import STOP_WORK_PRINT

            if dialogs.ask(self, dialog.windowTitle(), STOP_WORK_PRINT, default_yes=True):
                print_order_notice(self, self._context(o.permit_id), dialog.order_id)
        return dialog if done else None

    def today(self) -> date:
        return self.clock.today()
