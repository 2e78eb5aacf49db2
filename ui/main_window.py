"""The main window: sections on the left, the current section on the right, who/where below."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QStackedWidget,
    QWidget,
)

from db.database import Database
from ui import settings
from ui.permit.base import PermitContext
from ui.permit.window import PermitWindow
from ui.presenters.permit_list import PermitListPresenter, SqlPermitSource
from ui.presenters.session import Session
from ui.views.permits import PermitsView


class MainWindow(QMainWindow):
    def __init__(
        self,
        database: Database,
        session: Session,
        *,
        remember_geometry: bool = True,
    ) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.database = database
        self.session = session
        self.remember_geometry = remember_geometry
        self.permit_windows: dict[int, PermitWindow] = {}
        self.setWindowTitle(session.window_title)

        presenter = PermitListPresenter(
            SqlPermitSource(database, session.municipality_id), session.municipality_key
        )
        self.permits_view = PermitsView(presenter, self, remember_columns=remember_geometry)
        self.permits_view.open_permit.connect(self.open_permit)

        # Only sections that work are listed; later issues add theirs here.
        self.sections: list[tuple[str, QWidget]] = [("Permits", self.permits_view)]
        self.nav = QListWidget(self)
        self.nav.setObjectName("navigation")
        self.nav.setAccessibleName("Sections")
        self.stack = QStackedWidget(self)
        for title, widget in self.sections:
            item = QListWidgetItem(title)
            item.setSizeHint(QSize(0, self.fontMetrics().height() + 18))
            self.nav.addItem(item)
            self.stack.addWidget(widget)
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.nav.setCurrentRow(0)
        width = max(self.fontMetrics().horizontalAdvance(t) for t, _ in self.sections) + 64
        self.nav.setFixedWidth(max(width, 132))

        central = QWidget(self)
        central.setObjectName("central")
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self._build_actions()
        self._build_status_bar()
        self.resize(1280, 800)
        if remember_geometry:
            self._restore_state()

    def _build_actions(self) -> None:
        menu = self.menuBar().addMenu("&File")
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
        for action in (self.find_action, self.refresh_action):
            menu.addAction(action)
            self.addAction(action)  # shortcuts work while the menu bar is hidden too
        menu.addSeparator()
        menu.addAction(self.quit_action)
        self.addAction(self.quit_action)

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
        geometry = settings.read_bytes(settings.MAIN_GEOMETRY)
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = settings.read_bytes(settings.MAIN_STATE)
        if state is not None:
            self.restoreState(state)

    def load(self) -> None:
        """Show the data: restore columns, then count and fetch the first page."""
        if self.remember_geometry:
            self.permits_view.restore_columns()
        self.permits_view.load()

    def closeEvent(self, event: QCloseEvent) -> None:
        for window in list(self.permit_windows.values()):
            window.close()
        if self.remember_geometry:
            settings.write(settings.MAIN_GEOMETRY, self.saveGeometry())
            settings.write(settings.MAIN_STATE, self.saveState())
            self.permits_view.save_columns()
        super().closeEvent(event)

    # --- actions ----------------------------------------------------------------------

    def focus_search(self) -> None:
        self.nav.setCurrentRow(0)
        self.permits_view.focus_search()

    def refresh(self) -> None:
        self.permits_view.load()
        for window in self.permit_windows.values():
            window.reload()

    def open_permit(self, permit_id: int) -> PermitWindow:
        """Show the permit's window, creating it the first time (one window per permit)."""
        window = self.permit_windows.get(permit_id)
        if window is None:
            context = PermitContext(self.database, self.session, permit_id)
            window = PermitWindow(context, self, remember_geometry=self.remember_geometry)
            window.closed.connect(self._permit_closed)
            self.permit_windows[permit_id] = window
            window.reload()
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def _permit_closed(self, permit_id: int) -> None:
        self.permit_windows.pop(permit_id, None)
