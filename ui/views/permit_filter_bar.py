"""The filter bar above the permits table: one compact row that fits the section at 1366×768.

It only shows and reads a PermitFilter; the list filters in SQL (PermitListPresenter).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QWidget,
)

from desk.domain.enums import PermitStatus
from desk.domain.kinds import kinds_for
from desk.domain.permit_filter import APPLICATION_STATUSES, NO_FILTER, PermitFilter
from ui.date_field import DateField

APPLICATIONS_LABEL = "Applications (not issued)"


class OptionalDateEdit(DateField):
    """A date or nothing: left empty (or "any") it filters nothing; its calendar opens on
    this month."""

    def __init__(self, parent: QWidget, name: str, tooltip: str) -> None:
        super().__init__(parent, name, optional=True, label=tooltip)
        self.setAccessibleName(tooltip)


class PermitFilterBar(QWidget):
    changed = Signal()  # the clerk changed a filter (not when show_filter() sets one)

    def __init__(self, municipality_key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("permitFilterBar")
        self._extras = NO_FILTER  # what a saved search filters by beyond the widgets
        self._showing = False

        self.status_combo = QComboBox(self)
        self.status_combo.setObjectName("statusFilter")
        self.status_combo.setAccessibleName("Status")
        self.status_combo.setToolTip("Status")
        self.status_combo.addItem("Any status", frozenset())
        self.status_combo.setMinimumContentsLength(8)  # closed, long choices elide: 1366×768
        self.status_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.status_combo.addItem(APPLICATIONS_LABEL, APPLICATION_STATUSES)
        for status in PermitStatus:
            self.status_combo.addItem(status.label, frozenset({status}))

        self.kind_combo = QComboBox(self)
        self.kind_combo.setObjectName("kindFilter")
        self.kind_combo.setAccessibleName("Kind")
        self.kind_combo.setToolTip("Kind of permit")
        self.kind_combo.addItem("Any kind", "")
        for kind in kinds_for(municipality_key):
            self.kind_combo.addItem(kind.label, kind.code)
            last = self.kind_combo.count() - 1
            self.kind_combo.setItemData(last, kind.label, Qt.ItemDataRole.ToolTipRole)
        self.kind_combo.setMinimumContentsLength(8)
        self.kind_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )

        self.applied_from = OptionalDateEdit(self, "appliedFrom", "Applied on or after")
        self.applied_to = OptionalDateEdit(self, "appliedTo", "Applied on or before")
        self.issued_from = OptionalDateEdit(self, "issuedFrom", "Issued on or after")
        self.issued_to = OptionalDateEdit(self, "issuedTo", "Issued on or before")

        self.inspector_combo = QComboBox(self)
        self.inspector_combo.setObjectName("inspectorFilter")
        self.inspector_combo.setAccessibleName("Inspector")
        self.inspector_combo.setToolTip(
            "Inspector: who issued the permit or has one of its inspections assigned"
        )
        self.inspector_combo.addItem("Any inspector", None)
        self.inspector_combo.setMinimumContentsLength(7)
        self.inspector_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )

        self.open_only = QCheckBox("&Open only", self)
        self.open_only.setObjectName("openOnly")
        self.open_only.setToolTip(
            "Leave out completed, expired, revoked, withdrawn, denied and void permits"
        )

        self.clear_button = QPushButton("C&lear filters", self)
        self.clear_button.setObjectName("clearFilters")
        self.clear_button.clicked.connect(self.clear)

        # A saved search's condition the widgets cannot show ("entered by me", "lapsing"); the
        # view places it beside the count (the bar's row is full at 1366×768).
        self.extras_chip = QToolButton(self)
        self.extras_chip.setObjectName("filterExtras")
        self.extras_chip.setAutoRaise(True)
        self.extras_chip.setToolTip("Click to drop this condition")
        self.extras_chip.clicked.connect(self._drop_extras)
        self.extras_chip.setVisible(False)

        # The dates: the view places them on the count's row, on the right (one row of every
        # filter did not fit the window's first size, 1280 px wide).
        self.dates = QWidget(self)
        self.dates.setObjectName("filterDates")
        dates = QHBoxLayout(self.dates)
        dates.setContentsMargins(0, 0, 0, 0)
        dates.setSpacing(4)
        for title, low, high in (
            ("Applied", self.applied_from, self.applied_to),
            ("Issued", self.issued_from, self.issued_to),
        ):
            label = QLabel(title, self.dates)
            label.setBuddy(low)
            dates.addSpacing(8)
            dates.addWidget(label)
            dates.addWidget(low)
            dates.addWidget(high)

        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(self.status_combo, 1)
        row.addWidget(self.kind_combo, 2)
        row.addWidget(self.inspector_combo, 1)
        row.addSpacing(4)
        row.addWidget(self.open_only)
        row.addWidget(self.clear_button)

        for combo in (self.status_combo, self.kind_combo, self.inspector_combo):
            combo.currentIndexChanged.connect(self._edited)
        for edit in (self.applied_from, self.applied_to, self.issued_from, self.issued_to):
            edit.dateChanged.connect(self._edited)
        self.open_only.toggled.connect(self._edited)
        self._update_buttons()

    # --- choices --------------------------------------------------------------------------

    def set_inspectors(self, people: list[tuple[int, str]]) -> None:
        """(user id, name) of the inspectors; the current choice is kept when still there."""
        chosen = self.inspector_combo.currentData()
        self._showing = True
        try:
            self.inspector_combo.clear()
            self.inspector_combo.addItem("Any inspector", None)
            for user_id, name in people:
                self.inspector_combo.addItem(name, user_id)
            found = self.inspector_combo.findData(chosen) if chosen is not None else 0
            self.inspector_combo.setCurrentIndex(max(found, 0))
        finally:
            self._showing = False

    # --- the filter ------------------------------------------------------------------------

    def filter(self) -> PermitFilter:
        statuses = self.status_combo.currentData()
        inspector = self.inspector_combo.currentData()
        return replace(
            self._extras,
            statuses=frozenset(statuses or ()),
            kind=str(self.kind_combo.currentData() or ""),
            applied_from=self.applied_from.value(),
            applied_to=self.applied_to.value(),
            issued_from=self.issued_from.value(),
            issued_to=self.issued_to.value(),
            inspector_id=inspector if isinstance(inspector, int) else None,
            open_only=self.open_only.isChecked(),
        )

    def show_filter(self, f: PermitFilter) -> None:
        """Set the widgets to `f` without emitting `changed` (a saved search was chosen)."""
        self._showing = True
        try:
            status = self._index_of(self.status_combo, f.statuses)
            if status < 0:
                status = 0  # a set the combo cannot show: any
            self.status_combo.setCurrentIndex(status)
            self.kind_combo.setCurrentIndex(max(self.kind_combo.findData(f.kind), 0))
            inspector = self.inspector_combo.findData(f.inspector_id) if f.inspector_id else 0
            if inspector < 0:
                # An inspector no longer listed (disabled since): still filtered by, and shown.
                self.inspector_combo.addItem(f"User #{f.inspector_id}", f.inspector_id)
                inspector = self.inspector_combo.count() - 1
            self.inspector_combo.setCurrentIndex(inspector)
            self.applied_from.set_value(f.applied_from)
            self.applied_to.set_value(f.applied_to)
            self.issued_from.set_value(f.issued_from)
            self.issued_to.set_value(f.issued_to)
            self.open_only.setChecked(f.open_only)
            self._extras = replace(
                NO_FILTER, entered_by_me=f.entered_by_me, lapsing_days=f.lapsing_days
            )
        finally:
            self._showing = False
        self._update_buttons()

    @staticmethod
    def _index_of(combo: QComboBox, statuses: frozenset[PermitStatus]) -> int:
        for i in range(combo.count()):
            if frozenset(combo.itemData(i) or ()) == statuses:
                return i
        return -1

    def clear(self) -> None:
        if self.filter() == NO_FILTER:
            return
        self.show_filter(NO_FILTER)
        self.changed.emit()

    def _drop_extras(self) -> None:
        self._extras = NO_FILTER
        self._edited()

    def _edited(self, *_args: object) -> None:
        if self._showing:
            return
        self._update_buttons()
        self.changed.emit()

    def _update_buttons(self) -> None:
        self.clear_button.setEnabled(self.filter().active)
        words = []
        if self._extras.entered_by_me:
            words.append("Entered by me")
        if self._extras.lapsing_days is not None:
            words.append(f"Lapsing within {self._extras.lapsing_days} days")
        self.extras_chip.setText(" · ".join(words) + "  ✕" if words else "")
        self.extras_chip.setVisible(bool(words))
