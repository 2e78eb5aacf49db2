"""Tools → Fee calculator (Ctrl+K): price a few items without a permit, print the quote.

A non-modal window over FeeCalculatorPresenter. Keyboard: type a code or words of the item,
Tab to its fields, Enter adds the line; Delete removes the selected line; Enter on a line
puts it back in the form to change it. The breakdown follows 150 ms after the last change.
"""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

from PySide6.QtCore import QDate, QEvent, QObject, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QCompleter,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db import queries
from db.database import Database
from desk.clock import Clock
from desk.fees.model import FeeItem, FeeSchedule, ScheduleVersion
from desk.services import fees
from ui import dialogs
from ui.exports import QUOTES, filed_path
from ui.geometry import fit_window
from ui.models.fee_quote import BreakdownTableModel, CalculatorLinesModel
from ui.presenters.fee_calculator import (
    FIELD_KEYS,
    FeeCalculatorPresenter,
    InputField,
    fields_for,
    sample_lines,
)
from ui.presenters.session import Session
from ui.views.common import date_edit, from_qdate, to_qdate

UPDATE_DELAY_MS = 150
DEFAULT_SIZE = (980, 720)
TITLE = "Fee calculator"
_MONEY_SAMPLE = "$99,999.00"
_SECTION_CHARS = 28


class _LinesTable(QTableView):
    """Delete removes the selected line; Enter or a double click puts it back in the form."""

    remove_requested = Signal(int)
    edit_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doubleClicked.connect(lambda index: self.edit_requested.emit(index.row()))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        if index.isValid() and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.remove_requested.emit(index.row())
            event.accept()
            return
        if index.isValid() and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.edit_requested.emit(index.row())
            event.accept()
            return
        super().keyPressEvent(event)


def _table(table: QTableView, name: str) -> None:
    table.setObjectName(name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    vertical = table.verticalHeader()
    vertical.setVisible(False)
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vertical.setDefaultSectionSize(table.fontMetrics().height() + 10)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setStretchLastSection(False)


class FeeCalculatorWindow(QWidget):
    closed = Signal()

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        schedule: FeeSchedule,
        parent: QWidget | None = None,
        *,
        remember_geometry: bool = True,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("feeCalculator")
        self.setWindowTitle(f"{TITLE} — Permit Desk")
        self.database = database
        self.session = session
        self.clock = clock
        self.remember_geometry = remember_geometry
        self.presenter = FeeCalculatorPresenter(schedule, clock.today())
        self.editing: int | None = None  # the line being changed in the form
        self._choices_for: ScheduleVersion | None = None  # whose items the completer lists

        self._build()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(UPDATE_DELAY_MS)
        self._timer.timeout.connect(self.recalculate_now)

        QShortcut(QKeySequence(QKeySequence.StandardKey.Close), self).activated.connect(self.close)
        fit_window(self, "fee_calculator", DEFAULT_SIZE, keep=remember_geometry)
        self._refresh_choices()
        self._show_fields()
        self.recalculate_now()

    # --- building --------------------------------------------------------------------------

    def _build(self) -> None:
        p = self.presenter
        heading = QLabel(TITLE, self)
        heading.setObjectName("viewHeading")
        self.date_edit = date_edit(self, "quoteDate")
        self.date_edit.setDate(to_qdate(p.on))
        self.date_edit.setAccessibleName("Fees in effect on")
        self.date_edit.setToolTip("The date whose fee schedule applies (today by default)")
        self.date_edit.dateChanged.connect(self._date_changed)
        date_label = QLabel("Fees in effect &on", self)
        date_label.setBuddy(self.date_edit)
        self.version_label = QLabel(self)
        self.version_label.setObjectName("noteText")

        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(date_label)
        top.addWidget(self.date_edit)

        # The item and the fields its kind needs.
        self.item_combo = QComboBox(self)
        self.item_combo.setObjectName("itemCombo")
        self.item_combo.setEditable(True)
        self.item_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.item_combo.setMaxVisibleItems(16)
        self.item_combo.setMinimumContentsLength(34)
        self.item_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.item_combo.setAccessibleName("Fee item")
        line_edit = self.item_combo.lineEdit()
        assert line_edit is not None
        line_edit.setPlaceholderText("Type a code or words of the description")
        line_edit.setClearButtonEnabled(True)
        line_edit.installEventFilter(self)
        self._choices = QStringListModel(self)
        completer = QCompleter(self._choices, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        completer.setMaxVisibleItems(12)
        self.item_combo.setCompleter(completer)
        self.item_combo.currentTextChanged.connect(lambda _t: self._show_fields())
        item_label = QLabel("&Item", self)
        item_label.setBuddy(self.item_combo)

        self.field_labels: dict[str, QLabel] = {}
        self.field_edits: dict[str, QLineEdit] = {}
        form = QGridLayout()
        form.setHorizontalSpacing(8)
        form.setVerticalSpacing(3)
        form.addWidget(item_label, 0, 0)
        form.addWidget(self.item_combo, 1, 0)
        for column, key in enumerate(FIELD_KEYS, start=1):
            label = QLabel(self)
            label.setObjectName("fieldLabel")
            edit = QLineEdit(self)
            edit.setObjectName(f"field_{key}")
            edit.setMinimumWidth(110)
            edit.returnPressed.connect(self.add_from_form)
            label.setBuddy(edit)
            self.field_labels[key] = label
            self.field_edits[key] = edit
            form.addWidget(label, 0, column)
            form.addWidget(edit, 1, column)
        self.add_button = QPushButton("&Add line", self)
        self.add_button.setObjectName("addLine")
        self.add_button.clicked.connect(self.add_from_form)
        self.add_button.setAutoDefault(True)
        form.addWidget(self.add_button, 1, len(FIELD_KEYS) + 1)
        form.setColumnStretch(0, 1)
        self.item_hint = QLabel(self)
        self.item_hint.setObjectName("noteText")

        # The lines entered.
        self.lines_model = CalculatorLinesModel(p, self)
        self.lines_table = _LinesTable(self)
        _table(self.lines_table, "calculatorLines")
        self.lines_table.setModel(self.lines_model)
        self.lines_table.remove_requested.connect(self.remove_line)
        self.lines_table.edit_requested.connect(self.edit_line)
        lines_header = self.lines_table.horizontalHeader()
        lines_header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        lines_header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        lines_header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        lines_header.resizeSection(2, self.fontMetrics().horizontalAdvance("x" * 34))
        rows = 5
        self.lines_table.setFixedHeight(
            self.lines_table.verticalHeader().defaultSectionSize() * rows
            + self.fontMetrics().height()
            + 18
        )
        self.remove_button = QPushButton("&Remove line", self)
        self.remove_button.setObjectName("removeLine")
        self.remove_button.clicked.connect(self._remove_current)
        lines_title = QLabel("Items", self)
        lines_title.setObjectName("sectionTitle")

        # What the ordinance needs to know about the work.
        self.work_began_box = QCheckBox("&Work began before permit", self)
        self.work_began_box.setObjectName("workBegan")
        self.work_began_box.toggled.connect(self._flags_changed)
        self.emergency_box = QCheckBox("&Emergency", self)
        self.emergency_box.setObjectName("emergency")
        self.emergency_box.toggled.connect(self._flags_changed)
        self.excavated_edit = date_edit(self, "excavatedOn")
        self.excavated_edit.setDate(to_qdate(p.on))
        self.excavated_edit.dateChanged.connect(self._flags_changed)
        self.applied_edit = date_edit(self, "appliedOn")
        self.applied_edit.setDate(to_qdate(p.on))
        self.applied_edit.dateChanged.connect(self._flags_changed)
        self.excavated_label = QLabel("E&xcavated on", self)
        self.excavated_label.setBuddy(self.excavated_edit)
        self.applied_label = QLabel("Application &filed on", self)
        self.applied_label.setBuddy(self.applied_edit)
        flags = QHBoxLayout()
        flags.setSpacing(10)
        flags.addWidget(self.work_began_box)
        flags.addSpacing(12)
        flags.addWidget(self.emergency_box)
        flags.addSpacing(12)
        for widget in (
            self.excavated_label,
            self.excavated_edit,
            self.applied_label,
            self.applied_edit,
        ):
            flags.addWidget(widget)
        flags.addStretch(1)

        # The breakdown.
        breakdown_title = QLabel("Breakdown", self)
        breakdown_title.setObjectName("sectionTitle")
        self.breakdown_model = BreakdownTableModel(p, self)
        self.breakdown_table = QTableView(self)
        _table(self.breakdown_table, "breakdownTable")
        self.breakdown_table.setModel(self.breakdown_model)
        header = self.breakdown_table.horizontalHeader()
        money = self.fontMetrics().horizontalAdvance(_MONEY_SAMPLE) + 28
        for column, mode in enumerate(
            (
                QHeaderView.ResizeMode.ResizeToContents,
                QHeaderView.ResizeMode.Stretch,
                QHeaderView.ResizeMode.Interactive,  # fitted in recalculate_now, capped
                QHeaderView.ResizeMode.Fixed,
                QHeaderView.ResizeMode.Fixed,
                QHeaderView.ResizeMode.Fixed,
            )
        ):
            header.setSectionResizeMode(column, mode)
            if mode is QHeaderView.ResizeMode.Fixed:
                header.resizeSection(column, money)
        self.empty_label = QLabel(self)
        self.empty_label.setObjectName("emptyState")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.breakdown_pages = QStackedWidget(self)
        self.breakdown_pages.addWidget(self.breakdown_table)
        self.breakdown_pages.addWidget(self.empty_label)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.footnote_label = QLabel(self)
        self.footnote_label.setObjectName("noteText")

        self.print_button = QPushButton("&Print quote…", self)
        self.print_button.setObjectName("printQuote")
        self.print_button.clicked.connect(self.print_quote)
        self.clear_button = QPushButton("C&lear", self)
        self.clear_button.clicked.connect(self.clear)
        self.close_button = QPushButton("Close", self)
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.footnote_label, 1)
        buttons.addWidget(self.clear_button)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.close_button)

        lines_row = QHBoxLayout()
        lines_row.addWidget(self.lines_table, 1)
        side = QVBoxLayout()
        side.addWidget(self.remove_button)
        side.addStretch(1)
        lines_row.addLayout(side)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 14, 18, 14)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(self.version_label)
        layout.addSpacing(6)
        layout.addLayout(form)
        layout.addWidget(self.item_hint)
        layout.addWidget(lines_title)
        layout.addLayout(lines_row)
        layout.addSpacing(4)
        layout.addLayout(flags)
        layout.addSpacing(6)
        layout.addWidget(breakdown_title)
        layout.addWidget(self.breakdown_pages, 1)
        layout.addWidget(self.error_label)
        layout.addLayout(buttons)

        # Tab follows the form: date, item, its fields, Add, the lines, the flags, the breakdown.
        chain: list[QWidget] = [
            self.date_edit,
            self.item_combo,
            *(self.field_edits[k] for k in FIELD_KEYS),
            self.add_button,
            self.lines_table,
            self.remove_button,
            self.work_began_box,
            self.emergency_box,
            self.excavated_edit,
            self.applied_edit,
            self.breakdown_table,
            self.clear_button,
            self.print_button,
            self.close_button,
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)
        self.setFocusProxy(self.item_combo)

    # --- the form ----------------------------------------------------------------------------

    def _refresh_choices(self) -> None:
        version = self.presenter.version
        if version is self._choices_for and version is not None:
            return
        self._choices_for = version
        text = self.item_combo.currentText()
        choices = [c.text for c in self.presenter.item_choices()]
        self._choices.setStringList(choices)
        self.item_combo.blockSignals(True)
        self.item_combo.clear()
        self.item_combo.addItems(choices)
        self.item_combo.setCurrentIndex(-1)
        self.item_combo.setEditText(text)
        self.item_combo.blockSignals(False)
        self.version_label.setText(self.presenter.version_text)
        self._show_emergency_dates()

    def current_item(self) -> FeeItem | None:
        return self.presenter.find_item(self.item_combo.currentText())

    def _show_fields(self) -> None:
        item = self.current_item()
        wanted: dict[str, InputField] = (
            {f.key: f for f in fields_for(item)} if item is not None else {}
        )
        for key in FIELD_KEYS:
            field = wanted.get(key)
            label, edit = self.field_labels[key], self.field_edits[key]
            label.setVisible(field is not None)
            edit.setVisible(field is not None)
            if field is not None:
                label.setText(field.label)
                edit.setPlaceholderText(field.placeholder)
                edit.setAccessibleName(field.label)
        text = self.item_combo.currentText().strip()
        if item is not None:
            hint = f"{item.code} — {item.description} ({item.kind.label}, {item.section})"
            if not wanted:
                hint += ": nothing to enter, press Enter to add it"
        elif text:
            hint = f"No item of this schedule matches '{text}'; keep typing or pick from the list."
        else:
            hint = ""
        self.item_hint.setText(hint)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in the item box: to the item's first field, or add it when it needs none."""
        if watched is self.item_combo.lineEdit() and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._item_entered()
                return True
            if event.key() == Qt.Key.Key_Escape and self.editing is not None:
                self.cancel_edit()
                return True
        return super().eventFilter(watched, event)

    def _item_entered(self) -> None:
        completer = self.item_combo.completer()
        popup = completer.popup() if completer is not None else None
        if popup is not None and popup.isVisible():
            popup.hide()
        item = self.current_item()
        if item is None:
            self._show_fields()
            return
        self.item_combo.setEditText(f"{item.code} — {item.description}")
        first = next(iter(fields_for(item)), None)
        if first is None:
            self.add_from_form()
        else:
            edit = self.field_edits[first.key]
            edit.setFocus(Qt.FocusReason.OtherFocusReason)
            edit.selectAll()

    def add_from_form(self) -> None:
        """Add (or update) the line described by the form; the breakdown follows."""
        item = self.current_item()
        if item is None:
            self._show_fields()
            self.item_combo.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        values = {
            f.key: self.field_edits[f.key].text() for f in fields_for(item)
        }  # as typed; the presenter parses and names mistakes
        if self.editing is not None and self.editing < len(self.presenter.lines):
            self.presenter.replace_line(self.editing, item.code, values)
            row = self.editing
        else:
            row = self.presenter.add_line(item.code, values)
        self.editing = None
        self.add_button.setText("&Add line")
        self.lines_model.refresh()
        self.lines_table.selectRow(row)
        self._reset_form()
        self.schedule_update()

    def _reset_form(self) -> None:
        for edit in self.field_edits.values():
            edit.clear()
        self.item_combo.setCurrentIndex(-1)
        self.item_combo.setEditText("")
        self.item_combo.setFocus(Qt.FocusReason.OtherFocusReason)

    def edit_line(self, row: int) -> None:
        """Put a line back in the form; Enter then updates it in place (Esc cancels)."""
        if not 0 <= row < len(self.presenter.lines):
            return
        line = self.presenter.lines[row]
        item = self.presenter.item(line.code)
        self.editing = row
        self.item_combo.setEditText(
            f"{item.code} — {item.description}" if item is not None else line.code
        )
        self._show_fields()
        for key, edit in self.field_edits.items():
            edit.setText(line.values.get(key, ""))
        self.add_button.setText("&Update line")
        first = next(iter(fields_for(item)), None) if item is not None else None
        target = self.field_edits[first.key] if first is not None else self.item_combo
        target.setFocus(Qt.FocusReason.OtherFocusReason)

    def cancel_edit(self) -> None:
        self.editing = None
        self.add_button.setText("&Add line")
        self._reset_form()

    def remove_line(self, row: int) -> None:
        if not 0 <= row < len(self.presenter.lines):
            return
        self.presenter.remove_line(row)
        if self.editing is not None:
            self.cancel_edit()
        self.lines_model.refresh()
        if self.presenter.lines:
            self.lines_table.selectRow(min(row, len(self.presenter.lines) - 1))
            self.lines_table.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.item_combo.setFocus(Qt.FocusReason.OtherFocusReason)
        self.schedule_update()

    def _remove_current(self) -> None:
        index = self.lines_table.currentIndex()
        if index.isValid():
            self.remove_line(index.row())

    def clear(self) -> None:
        self.presenter.clear()
        for box in (self.work_began_box, self.emergency_box):
            box.blockSignals(True)
            box.setChecked(False)
            box.blockSignals(False)
        self.cancel_edit()
        self.lines_model.refresh()
        self.schedule_update()

    # --- date and flags ----------------------------------------------------------------------

    def set_date(self, day: date) -> None:
        self.date_edit.setDate(to_qdate(day))

    def _date_changed(self, day: QDate) -> None:
        self.presenter.set_date(from_qdate(day))
        self._refresh_choices()
        self._show_fields()
        self.lines_model.refresh()
        self.schedule_update()

    def _show_emergency_dates(self) -> None:
        show = self.presenter.needs_emergency_dates and self.emergency_box.isChecked()
        for widget in (
            self.excavated_label,
            self.excavated_edit,
            self.applied_label,
            self.applied_edit,
        ):
            widget.setVisible(show)

    def _flags_changed(self, *_args: object) -> None:
        self.presenter.set_flags(
            work_began_before_permit=self.work_began_box.isChecked(),
            emergency=self.emergency_box.isChecked(),
            excavated_on=from_qdate(self.excavated_edit.date()),
            applied_on=from_qdate(self.applied_edit.date()),
        )
        self._show_emergency_dates()
        self.schedule_update()

    # --- the breakdown -----------------------------------------------------------------------

    def schedule_update(self) -> None:
        """Price again 150 ms after the last change (typing a date fires on every digit)."""
        self._timer.start()

    @property
    def update_pending(self) -> bool:
        return self._timer.isActive()

    def recalculate_now(self) -> None:
        self._timer.stop()
        p = self.presenter
        p.recalculate()
        self.lines_model.refresh()
        self.breakdown_model.refresh()
        self.error_label.setText(p.error)
        self.error_label.setVisible(bool(p.error))
        self.empty_label.setText(p.empty_text)
        self.breakdown_pages.setCurrentWidget(
            self.empty_label if p.empty_text else self.breakdown_table
        )
        self.footnote_label.setText(p.footnote if p.quote is not None else "")
        self.print_button.setEnabled(p.can_print)
        self.breakdown_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        self._fit_section_column()
        if p.error_line is not None:
            self.lines_table.selectRow(p.error_line)

    def _fit_section_column(self) -> None:
        """The section as wide as it needs, up to a cap (a long citation elides; see its tip)."""
        table = self.breakdown_table
        header = table.horizontalHeader()
        title = header.sectionSizeFromContents(2).width()
        cap = table.fontMetrics().averageCharWidth() * _SECTION_CHARS
        header.resizeSection(2, max(title, min(table.sizeHintForColumn(2), cap)))

    # --- loading ------------------------------------------------------------------------------

    def set_schedule(self, schedule: FeeSchedule) -> None:
        """The schedule changed (a new version was saved): list its items and price again."""
        self.presenter.set_schedule(schedule)
        self._choices_for = None
        self._refresh_choices()
        self._show_fields()
        self.schedule_update()

    def load_sample(self) -> None:
        """The screenshot's example (Glendale only): a new house with its plumbing."""
        for line in sample_lines(self.presenter.municipality):
            self.presenter.add_line(line.code, dict(line.values))
        self.lines_model.refresh()
        self.recalculate_now()

    # --- printing -----------------------------------------------------------------------------

    def print_quote(self) -> Path | None:
        """Save the current quote as a PDF and open it; the path, or None if cancelled."""
        if self._timer.isActive():
            self.recalculate_now()
        quote = self.presenter.quote
        if quote is None or not self.presenter.can_print:
            return None
        on = self.presenter.on
        # Filed in the document folder without asking; the PDF window offers Save as….
        path = filed_path(self, TITLE, f"fee-quote-{on.isoformat()}.pdf", QUOTES)
        try:
            with self.database.read() as conn:
                letterhead = queries.municipality_letterhead(conn, self.session.municipality_id)
            from reports.fee_quote import render_quote_pdf  # reportlab: load on first print

            render_quote_pdf(
                quote,
                self.session.municipality_name,
                letterhead,
                path,
                self.session.full_name or self.session.actor.username,
                on,
            )
        except OSError as e:
            path.unlink(missing_ok=True)
            dialogs.error(self, TITLE, f"The quote could not be saved to {path}: {e.strerror or e}")
            return None
        dialogs.show_file(self, path, TITLE)
        return path

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit()
        super().closeEvent(event)


def open_calculator(
    database: Database,
    session: Session,
    clock: Clock,
    parent: QWidget | None = None,
    *,
    remember_geometry: bool = True,
) -> FeeCalculatorWindow:
    """A calculator over the municipality's schedule (imported on first use); DeskError if none."""
    schedule = fees.fee_schedule(database.uow(), clock, session.municipality_id)
    return FeeCalculatorWindow(
        database, session, clock, schedule, parent, remember_geometry=remember_geometry
    )
