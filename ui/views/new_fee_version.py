"""New version from date…: a label, the day it takes effect, and the items copied from the latest.

Nothing is saved until "Save version" (desk.services.fees.create_version checks the date, the
items and the user's role, and its messages are shown next to the field they are about).
Closing with changes asks first.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.errors import DeskError, ValidationError
from desk.fees.model import ScheduleVersion
from desk.services import fees
from ui import dialogs, focus
from ui.geometry import fit_window
from ui.models.fee_schedules import FeeItemsTableModel
from ui.presenters.fee_schedules import (
    DATE_FIELD,
    LABEL_FIELD,
    VersionDraft,
    default_effective_from,
    error_field,
    field_message,
)
from ui.presenters.formatting import format_date
from ui.presenters.session import Session
from ui.views.common import date_edit, error_label, from_qdate, to_qdate
from ui.views.fee_items import fit_item_columns, items_table

TITLE = "New fee schedule version"
DISCARD_QUESTION = "Discard this new version? Nothing of it has been saved."


class NewFeeVersionDialog(QDialog):
    saved = Signal(int)  # the new version's id

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        latest: ScheduleVersion,
        parent: QWidget | None = None,
        *,
        remember_geometry: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("newFeeVersionDialog")
        self.setWindowTitle(f"{TITLE} — Permit Desk")
        self.database = database
        self.session = session
        self.clock = clock
        self.latest = latest
        self.draft = VersionDraft(latest)
        self.version_id: int | None = None
        self.remember_geometry = remember_geometry
        self._initial_date = default_effective_from(latest, clock.today())

        heading = QLabel(TITLE, self)
        heading.setObjectName("dialogHeading")
        note = QLabel(
            f"A copy of {latest.label} (in effect from {format_date(latest.effective_from)}). "
            "Change the fees that change: double-click a shaded cell or start typing in it. "
            "Nothing is saved until Save version.",
            self,
        )
        note.setObjectName("noteText")
        note.setWordWrap(True)

        self.label_edit = QLineEdit(self)
        self.label_edit.setObjectName("versionLabel")
        self.label_edit.setPlaceholderText("e.g. 2026 fee ordinance")
        self.label_error = error_label(self)
        self.date_edit = date_edit(self, "effectiveFrom")
        self.date_edit.setDate(to_qdate(self._initial_date))
        self.date_error = error_label(self)
        form = QGridLayout()
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(4)
        label_label = QLabel("&Label", self)
        label_label.setBuddy(self.label_edit)
        date_label = QLabel("&Effective from", self)
        date_label.setBuddy(self.date_edit)
        form.addWidget(label_label, 0, 0)
        form.addWidget(self.label_edit, 0, 1, Qt.AlignmentFlag.AlignLeft)
        form.addWidget(self.label_error, 1, 1)
        form.addWidget(date_label, 2, 0)
        form.addWidget(self.date_edit, 2, 1, Qt.AlignmentFlag.AlignLeft)
        form.addWidget(self.date_error, 3, 1)
        form.setColumnStretch(1, 1)
        self.label_edit.setMinimumWidth(360)

        self.model = FeeItemsTableModel(self)
        self.model.set_draft(self.draft)
        self.model.edited.connect(self._cell_edited)
        self.table = items_table(self, "draftItemsTable")
        self.table.setModel(self.model)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        fit_item_columns(self.table, self.model)
        self.table_error = error_label(self)

        buttons = QDialogButtonBox(self)
        self.save_button = QPushButton("&Save version", self)
        self.save_button.setObjectName("saveVersion")
        self.save_button.setAutoDefault(False)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        assert self.cancel_button is not None
        self.cancel_button.setAutoDefault(False)
        self.save_button.clicked.connect(self.save)
        self.cancel_button.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 14)
        layout.setSpacing(8)
        layout.addWidget(heading)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.table_error)
        layout.addWidget(buttons)
        fit_window(self, "new_fee_version", (1180, 720), keep=remember_geometry)
        self.label_edit.setFocus()
        focus.install(self)

    # --- state ---------------------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        """Anything typed that would be lost by closing."""
        if self.version_id is not None:
            return False
        return (
            self.draft.changed
            or bool(self.label_edit.text().strip())
            or from_qdate(self.date_edit.date()) != self._initial_date
        )

    def _cell_edited(self, message: str) -> None:
        self._show(self.table_error, message or self.draft.first_error)

    @staticmethod
    def _show(label: QLabel, text: str) -> None:
        label.setText(text)
        label.setVisible(bool(text))

    # --- saving --------------------------------------------------------------------------------

    def save(self) -> int | None:
        """Validate and save through the service; the new version's id, or None (errors shown)."""
        for label in (self.label_error, self.date_error, self.table_error):
            self._show(label, "")
        try:
            version = self.draft.version(self.label_edit.text(), from_qdate(self.date_edit.date()))
            version_id = fees.create_version(
                self.database.uow(),
                self.clock,
                self.session.actor,
                self.session.municipality_id,
                version,
            )
        except ValidationError as e:
            where = error_field(e)
            if where == LABEL_FIELD:
                self._show(self.label_error, field_message(e))
                self.label_edit.setFocus()
            elif where == DATE_FIELD:
                self._show(self.date_error, field_message(e))
                self.date_edit.setFocus()
            else:
                self._show(self.table_error, focus.in_words(e))
            return None
        except DeskError as e:  # not allowed, or the database refused
            self._show(self.table_error, str(e))
            return None
        self.version_id = version_id
        self.saved.emit(version_id)
        self.accept()
        return version_id

    def reject(self) -> None:
        """Cancel, Esc or the window's close button: ask first when something was changed."""
        if self.dirty and not dialogs.ask(self, TITLE, DISCARD_QUESTION):
            return
        super().reject()

    def done(self, result: int) -> None:
        super().done(result)
