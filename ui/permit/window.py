"""One window per permit: a header (number, status, kind, address) over the tabs of tabs.py."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from db import queries
from ui import settings
from ui.permit.base import PermitContext, PermitTab
from ui.permit.documents import print_application, print_permit_card
from ui.permit.tabs import PERMIT_TABS
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

        self.title_label = QLabel(self)
        self.title_label.setObjectName("permitTitle")
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("statusChip")
        self.kind_label = QLabel(self)
        self.kind_label.setObjectName("permitKind")
        self.address_label = QLabel(self)
        self.address_label.setObjectName("permitAddress")
        self.address_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        header = QFrame(self)
        header.setObjectName("permitHeader")
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addWidget(self.title_label)
        top.addWidget(self.status_label, 0, Qt.AlignmentFlag.AlignVCenter)
        top.addStretch(1)
        # Documents (issue 4): the application summary; the card once the permit has a number.
        self.print_application_button = QPushButton("Print &application…", self)
        self.print_application_button.setObjectName("printApplication")
        self.print_application_button.clicked.connect(
            lambda: print_application(self, self.context, date.today())
        )
        self.print_card_button = QPushButton("Print permit &card…", self)
        self.print_card_button.setObjectName("printPermitCard")
        self.print_card_button.setEnabled(False)
        self.print_card_button.clicked.connect(lambda: print_permit_card(self, self.context))
        top.addWidget(self.print_application_button)
        top.addWidget(self.print_card_button)
        header_layout = QVBoxLayout(header)
        header_layout.setContentsMargins(20, 14, 20, 12)
        header_layout.setSpacing(4)
        header_layout.addLayout(top)
        header_layout.addWidget(self.address_label)
        header_layout.addWidget(self.kind_label)

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("permitTabs")
        self.tabs.setDocumentMode(True)
        self.tab_pages: dict[str, PermitTab] = {}
        for tab_class in PERMIT_TABS:
            page = tab_class(context, self.tabs)
            self.tab_pages[tab_class.key] = page
            self.tabs.addTab(page, tab_class.title)

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

        self.resize(*DEFAULT_SIZE)
        if remember_geometry:
            geometry = settings.read_bytes(settings.PERMIT_WINDOW_GEOMETRY)
            if geometry is not None:
                self.restoreGeometry(geometry)

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
                return False
            for page in self.tab_pages.values():
                page.load(conn, detail)
        self.presenter = PermitSummaryPresenter(detail)
        self.print_card_button.setEnabled(bool(detail.number))
        p = self.presenter
        self.setWindowTitle(f"{p.window_title} — Permit Desk")
        self.title_label.setText(p.title)
        self.status_label.setText(p.status)
        self.status_label.setProperty("status", p.status_key)
        self.status_label.style().unpolish(self.status_label)
        self.status_label.style().polish(self.status_label)
        self.kind_label.setText(p.kind)
        self.address_label.setText(p.address)
        return True

    def select_tab(self, key: str) -> None:
        page = self.tab_pages.get(key)
        if page is None:
            raise KeyError(f"the permit window has no tab '{key}'")
        self.tabs.setCurrentWidget(page)

    def tab(self, key: str) -> PermitTab:
        return self.tab_pages[key]

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.remember_geometry:
            settings.write(settings.PERMIT_WINDOW_GEOMETRY, self.saveGeometry())
        self.closed.emit(self.permit_id)
        super().closeEvent(event)
