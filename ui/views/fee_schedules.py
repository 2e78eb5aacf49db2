"""Administration → Fee schedules: the versions of the municipality's schedule and their items.

Listed only for users who may change fee schedules (the service checks again when saving).
A version is never edited here: "New version from date…" copies the latest into a dialog.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from db import queries
from db.database import Database
from desk.clock import Clock
from desk.errors import DeskError
from desk.fees.model import FeeSchedule, ScheduleVersion
from desk.services import fees
from ui.icons import lock_icon
from ui.models.fee_schedules import FeeItemsTableModel, VersionsTableModel
from ui.presenters.fee_schedules import VersionSource, banner_text, version_rows
from ui.presenters.formatting import count_of, format_percent
from ui.presenters.session import Session
from ui.views.fee_items import fit_item_columns, items_table
from ui.views.new_fee_version import NewFeeVersionDialog

SECTION_TITLE = "Fee schedules"


class FeeSchedulesView(QWidget):
    schedule_changed = Signal()  # a new version was saved

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
        *,
        remember_geometry: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("feeSchedulesView")
        self.remember_geometry = remember_geometry
        self.database = database
        self.session = session
        self.clock = clock
        self.schedule: FeeSchedule | None = None
        self.loaded = False
        self.dialog: NewFeeVersionDialog | None = None

        heading = QLabel(SECTION_TITLE, self)
        heading.setObjectName("viewHeading")
        subtitle = QLabel(
            f"{session.municipality_name}. A change to the fees is a new version from a date; "
            "permits keep the version that priced them.",
            self,
        )
        subtitle.setObjectName("noteText")
        subtitle.setWordWrap(True)
        self.new_button = QPushButton("&New version from date…", self)
        self.new_button.setObjectName("newVersion")
        self.new_button.clicked.connect(self.open_new_version)
        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(self.new_button)

        self.versions_model = VersionsTableModel(self)
        self.versions_table = items_table(self, "versionsTable")
        self.versions_table.setAlternatingRowColors(False)
        self.versions_table.setModel(self.versions_model)
        header = self.versions_table.horizontalHeader()
        for column, mode in enumerate(
            (
                QHeaderView.ResizeMode.Stretch,
                QHeaderView.ResizeMode.ResizeToContents,
                QHeaderView.ResizeMode.ResizeToContents,
                QHeaderView.ResizeMode.ResizeToContents,
                QHeaderView.ResizeMode.ResizeToContents,
            )
        ):
            header.setSectionResizeMode(column, mode)
        self.versions_table.setAccessibleName("Versions")
        selection = self.versions_table.selectionModel()
        selection.currentRowChanged.connect(self._version_selected)

        # The banner: read-only (with its lock) or a note on how changes are made.
        self.banner = QFrame(self)
        self.banner.setObjectName("versionBanner")
        self.banner_icon = QLabel(self.banner)
        self.banner_icon.setPixmap(lock_icon().pixmap(16, 16))
        self.banner_text = QLabel(self.banner)
        self.banner_text.setObjectName("bannerText")
        self.banner_text.setWordWrap(True)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(10, 6, 10, 6)
        banner_layout.addWidget(self.banner_icon, 0, Qt.AlignmentFlag.AlignTop)
        banner_layout.addWidget(self.banner_text, 1)

        self.items_title = QLabel(self)
        self.items_title.setObjectName("sectionTitle")
        self.items_title.setWordWrap(True)  # the version's terms: two lines on a narrow screen
        self.items_model = FeeItemsTableModel(self)
        self.items_table = items_table(self, "feeItemsTable")
        self.items_table.setModel(self.items_model)
        self.items_table.setAccessibleName("Fee items")
        self.message = QLabel(self)
        self.message.setObjectName("errorText")
        self.message.setWordWrap(True)
        self.message.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 12)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(subtitle)
        layout.addSpacing(4)
        layout.addWidget(self.versions_table)
        layout.addWidget(self.message)
        layout.addSpacing(6)
        layout.addWidget(self.items_title)
        layout.addWidget(self.banner)
        layout.addWidget(self.items_table, 1)
        self.setFocusProxy(self.versions_table)

    # --- loading -----------------------------------------------------------------------------

    def load(self, select_id: int | None = None) -> None:
        """Read the versions (the shipped schedule is imported on first use) and show them."""
        current = select_id if select_id is not None else self.selected_version_id()
        try:
            self.schedule = fees.fee_schedule(
                self.database.uow(), self.clock, self.session.municipality_id
            )
            with self.database.read() as conn:
                raw = queries.fee_version_sources(conn, self.session.municipality_id)
        except DeskError as e:
            self.schedule = None
            self.versions_model.set_rows([])
            self.items_model.set_version(None)
            self.message.setText(str(e))
            self.message.setVisible(True)
            self.new_button.setEnabled(False)
            self.loaded = True
            return
        self.message.setVisible(False)
        self.new_button.setEnabled(True)
        sources = {i: VersionSource(*info) for i, info in raw.items()}
        rows = version_rows(self.schedule, sources, self.clock.today())
        self.versions_model.set_rows(rows)
        self._fit_versions_height()
        self.loaded = True
        row = self.versions_model.row_of(current) if current is not None else None
        if row is None:
            in_force = self.schedule.version_on(self.clock.today())
            row = self.versions_model.row_of(in_force.id) if in_force is not None else None
        self.select_row(row if row is not None else 0)

    def _fit_versions_height(self) -> None:
        rows = max(1, min(len(self.versions_model.rows), 6))
        height = (
            self.versions_table.verticalHeader().defaultSectionSize() * rows
            + self.versions_table.horizontalHeader().sizeHint().height()
            + 2 * self.versions_table.frameWidth()
            + 2
        )
        self.versions_table.setFixedHeight(height)

    def select_row(self, row: int) -> None:
        if not 0 <= row < self.versions_model.rowCount():
            self._show_version(None)
            return
        index = self.versions_model.index(row, 0)
        self.versions_table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self._show_version(self.version_at(row))

    def select_version(self, version_id: int) -> None:
        row = self.versions_model.row_of(version_id)
        if row is not None:
            self.select_row(row)

    def version_at(self, row: int) -> ScheduleVersion | None:
        if self.schedule is None or not 0 <= row < len(self.versions_model.rows):
            return None
        wanted = self.versions_model.rows[row].id
        return next((v for v in self.schedule.versions if v.id == wanted), None)

    def selected_version_id(self) -> int | None:
        index = self.versions_table.currentIndex()
        if not index.isValid() or index.row() >= len(self.versions_model.rows):
            return None
        return self.versions_model.rows[index.row()].id

    @property
    def selected_version(self) -> ScheduleVersion | None:
        index = self.versions_table.currentIndex()
        return self.version_at(index.row()) if index.isValid() else None

    def _version_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_version(self.version_at(current.row()) if current.isValid() else None)

    def _show_version(self, version: ScheduleVersion | None) -> None:
        if version is self.items_model.version and version is not None:
            return
        self.items_model.set_version(version)
        fit_item_columns(self.items_table, self.items_model)
        if version is None:
            self.items_title.setText("Items")
            self.banner.setVisible(False)
            return
        facts = [count_of(len(version.items), "item")]
        if version.admin_rate:
            facts.append(f"{format_percent(version.admin_rate)} administrative cost where marked")
        if version.round_up_to_dollar:
            facts.append("fees rounded up to the next whole dollar")
        self.items_title.setText(f"Items of {version.label} — {', '.join(facts)}")
        self.banner.setProperty("readOnly", version.read_only)
        self.banner_icon.setVisible(version.read_only)
        self.banner_text.setText(banner_text(version))
        self.banner.setVisible(True)
        self.banner.style().unpolish(self.banner)
        self.banner.style().polish(self.banner)

    # --- a new version -------------------------------------------------------------------------

    def open_new_version(self) -> NewFeeVersionDialog | None:
        """The dialog over a copy of the latest version (window-modal; saved when it says so)."""
        if self.schedule is None or not self.schedule.versions:
            return None
        latest = max(self.schedule.versions, key=lambda v: v.effective_from)
        dialog = NewFeeVersionDialog(
            self.database,
            self.session,
            self.clock,
            latest,
            self,
            remember_geometry=self.remember_geometry,
        )
        dialog.saved.connect(self._saved)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _saved(self, version_id: int) -> None:
        self.load(select_id=version_id)
        self.schedule_changed.emit()
