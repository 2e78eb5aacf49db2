"""File → New application (Ctrl+N): the form a clerk fills in at the counter.

A window over IntakePresenter, in the order of the paper form: the kind (the form then shows
what it needs), the date, the parcel, the parties with their credentials, the work, the flags;
on the right the fees, priced 150 ms after the last change, and any items the clerk adds.
Save takes the application, assesses its fees with the same request and opens the permit.
Everything works from the keyboard; closing with changes asks first.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from PySide6.QtCore import (
    QElapsedTimer,
    QEvent,
    QObject,
    QSize,
    QStringListModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QFocusEvent,
    QKeyEvent,
    QKeySequence,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QCompleter,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.domain.credentials import requirement
from desk.domain.enums import PartyRole
from desk.domain.kinds import PermitKind
from desk.domain.reports import OWNERSHIP
from desk.errors import DeskError, ValidationError
from desk.fees.model import FeeSchedule
from desk.services import fees, permits
from desk.services.intake import LEVELS
from desk.services.parcels.owner import owner_as_party
from ui import dialogs
from ui.geometry import fit_window
from ui.models.fee_quote import BreakdownTableModel, CalculatorLinesModel
from ui.presenters.fee_calculator import FIELD_KEYS, InputField, fields_for
from ui.presenters.intake import (
    ACRES,
    ACRES_NOTE,
    APPLIED_ON,
    AREA_KEYS,
    CONSTRUCTION_TYPE,
    CONSTRUCTION_TYPES,
    DESCRIPTION,
    DWELLING_UNITS,
    FEE_AMOUNT,
    FEES,
    FLOOR_AREA_NOTE,
    OCCUPANCY,
    OWNERSHIP_HINT,
    OWNERSHIP_TEXT,
    PARCEL,
    PAVEMENT_AGE,
    SBD_FIELDS,
    STORIES,
    VALUATION,
    VOLUME,
    IntakePresenter,
    IntakeSource,
    SqlIntakeSource,
    field_of,
    find_kind,
    work_began_text,
)
from ui.presenters.intake import valuation_note as valuation_note_for
from ui.presenters.session import Session
from ui.views.common import date_edit, from_qdate, to_qdate
from ui.views.fee_calculator import _LinesTable, _table
from ui.views.intake_dialogs import HouseNumberDialog, NewParcelDialog, NewPartyDialog

TITLE = "New application"
UPDATE_DELAY_MS = 150
DEFAULT_SIZE = (1240, 860)
# Narrower than this, the fees panel goes under the form.
FEES_BESIDE_FORM = 1160
_MONEY_SAMPLE = "$99,999.00"


def _completer(parent: QObject) -> tuple[QCompleter, QStringListModel]:
    model = QStringListModel(parent)
    completer = QCompleter(model, parent)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    completer.setMaxVisibleItems(12)
    return completer, model


class _KindCombo(QComboBox):
    """The kind picker: typing finds a kind by any word of its name or its code ('dwelling',
    'house', 'RES-NEW'), not only by how its name starts; item 0 is the placeholder."""

    def __init__(self, kinds: Sequence[PermitKind], parent: QWidget) -> None:
        super().__init__(parent)
        self._kinds = kinds
        self._typed = ""
        self._since = QElapsedTimer()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        text = event.text()
        plain = not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier
        if not plain or not text or not text.isprintable() or text.isspace():
            super().keyPressEvent(event)  # arrows, space (opens the list), shortcuts
            return
        if (
            not self._since.isValid()
            or self._since.elapsed() > QApplication.keyboardInputInterval()
        ):
            self._typed = ""
        self._since.start()
        self._typed += text
        current = self.currentIndex() - 1
        # Like Qt's type-ahead: a new search may stay on the current kind; one letter typed
        # again steps to the next kind with it.
        repeated = len(self._typed) > 1 and len(set(self._typed.lower())) == 1
        found = find_kind(self._kinds, self._typed, current if repeated else current - 1)
        if found is None and repeated:
            found = find_kind(self._kinds, self._typed[0], current)
        if found is not None:
            self.setCurrentIndex(found + 1)
        event.accept()


class _FormScroll(QScrollArea):
    """The form's scroll area: as narrow as the form allows, never narrower, so the splitter
    cannot squeeze it and cut off the New… buttons (scrolling is down only)."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        body = self.widget()
        if body is None:
            return hint
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(body.minimumSizeHint().width() + bar, hint.height())


class _Title(QLabel):
    def __init__(self, text: str, parent: QWidget) -> None:
        super().__init__(text, parent)
        self.setObjectName("sectionTitle")


class _PartyRow:
    """One role: the party's name with a completer, 'New…', and the credential message."""

    def __init__(self, window: IntakeWindow, role: PartyRole, grid: QGridLayout, row: int) -> None:
        self.role = role
        self.label = QLabel(role.label, window)
        self.label.setObjectName("fieldLabel")
        self.edit = QLineEdit(window)
        self.edit.setObjectName(f"party_{role.value}")
        self.edit.setAccessibleName(role.label)
        self.edit.setPlaceholderText("Type a name; pick from the list")
        self.edit.setClearButtonEnabled(True)
        self.label.setBuddy(self.edit)
        self.completer, self.model = _completer(self.edit)
        self.edit.setCompleter(self.completer)
        self.new_button = QPushButton("New…", window)
        self.new_button.setObjectName(f"newParty_{role.value}")
        self.new_button.setToolTip(f"Add a new person or organization as {role.label.lower()}")
        self.note = QLabel(window)
        self.note.setObjectName("noteText")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.label, row, 0)
        grid.addWidget(self.edit, row, 1)
        grid.addWidget(self.new_button, row, 2)
        grid.addWidget(self.note, row + 1, 1, 1, 2)

    def widgets(self) -> list[QWidget]:
        return [self.label, self.edit, self.new_button, self.note]

    def set_visible(self, visible: bool) -> None:
        for w in self.widgets():
            w.setVisible(visible)
        if not visible:
            self.note.setVisible(False)


class IntakeWindow(QWidget):
    saved = Signal(int)  # the new permit's id
    closed = Signal()

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        schedule: FeeSchedule,
        parent: QWidget | None = None,
        *,
        source: IntakeSource | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("intakeWindow")
        self.setWindowTitle(f"{TITLE} — Permit Desk")
        self.database = database
        self.session = session
        self.clock = clock
        self.presenter = IntakePresenter(
            session.municipality_id,
            session.municipality_key,
            schedule,
            source or SqlIntakeSource(database, session.municipality_id),
            clock.today(),
        )
        self.saved_permit_id: int | None = None
        self._loading = False
        self._built = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(UPDATE_DELAY_MS)
        self._timer.timeout.connect(self.recalculate_now)
        self._build()
        self.close_action = QAction("Close", self)
        self.close_action.setShortcut(QKeySequence.StandardKey.Close)
        self.close_action.triggered.connect(self.close)
        self.save_action = QAction("Save application", self)
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.triggered.connect(self.save)
        self.addAction(self.close_action)
        self.addAction(self.save_action)
        fit_window(self, "new_application", DEFAULT_SIZE)
        self._kind_changed()
        self.presenter.dirty = False

    # --- building ------------------------------------------------------------------------

    def _line(self, key: str, label: str, placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(f"field_{key}")
        edit.setAccessibleName(label)
        edit.setPlaceholderText(placeholder)
        edit.textEdited.connect(lambda text, k=key: self._typed(k, text))
        self.edits[key] = edit
        return edit

    def _error(self, key: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName("errorText")
        label.setWordWrap(True)
        label.setVisible(False)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.errors[key] = label
        return label

    def _build(self) -> None:
        p = self.presenter
        self.edits: dict[str, QLineEdit] = {}
        self.errors: dict[str, QLabel] = {}
        self.rows: dict[str, list[QWidget]] = {}  # work field -> widgets shown with it

        heading = QLabel(TITLE, self)
        heading.setObjectName("viewHeading")

        body = QWidget()
        body.setObjectName("intakeBody")
        form = QGridLayout(body)
        form.setContentsMargins(18, 12, 18, 12)
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(5)
        form.setColumnStretch(1, 1)
        row = itertools.count()

        def add(label: str, widget: QWidget, key: str = "", extra: QWidget | None = None) -> int:
            r = next(row)
            caption = QLabel(label, body)
            caption.setObjectName("fieldLabel")
            caption.setBuddy(widget)
            form.addWidget(caption, r, 0)
            if extra is None:
                form.addWidget(widget, r, 1, 1, 2)
            else:
                form.addWidget(widget, r, 1)
                form.addWidget(extra, r, 2)
            shown = [caption, widget] + ([extra] if extra is not None else [])
            if key:
                err = self._error(key)
                form.addWidget(err, next(row), 1, 1, 2)
                self.rows.setdefault(key, []).extend(shown)
            return r

        # The permit: kind and date.
        form.addWidget(_Title("Permit", body), next(row), 0, 1, 3)
        self.kind_combo = _KindCombo(p.kinds, body)
        self.kind_combo.setObjectName("kindCombo")
        self.kind_combo.setAccessibleName("Kind of permit")
        self.kind_combo.addItem("— choose the kind of permit —", None)
        for kind in p.kinds:
            self.kind_combo.addItem(p.kind_text(kind), kind.code)
        self.kind_combo.currentIndexChanged.connect(lambda _i: self._kind_changed())
        add("&Kind", self.kind_combo, "kind")
        self.applied_edit = date_edit(body, "appliedOn", today=self.clock.today)
        self.applied_edit.setDate(to_qdate(p.applied_on))
        self.applied_edit.setAccessibleName("Application date")
        self.applied_edit.dateChanged.connect(self._date_changed)
        self.applied_edit.invalidEntered.connect(lambda m: self._set_error(APPLIED_ON, m))
        add("Application &date", self.applied_edit)
        form.addWidget(self._error(APPLIED_ON), next(row), 1, 1, 2)

        # The site.
        form.addWidget(_Title("Site", body), next(row), 0, 1, 3)
        self.parcel_edit = QLineEdit(body)
        self.parcel_edit.setObjectName("parcelEdit")
        self.parcel_edit.setAccessibleName("Parcel (address or PIN)")
        self.parcel_edit.setPlaceholderText("Type the address or the PIN; pick from the list")
        self.parcel_edit.setClearButtonEnabled(True)
        self.parcel_completer, self.parcel_model = _completer(self.parcel_edit)
        self.parcel_edit.setCompleter(self.parcel_completer)
        self.parcel_edit.textEdited.connect(self._parcel_typed)
        self.parcel_edit.editingFinished.connect(self._parcel_done)
        self.parcel_edit.installEventFilter(self)
        self.parcel_completer.activated.connect(lambda _t: self._parcel_done())
        self.new_parcel_button = QPushButton("New &parcel…", body)
        self.new_parcel_button.setObjectName("newParcel")
        self.new_parcel_button.clicked.connect(self.new_parcel)
        add("Parcel / &address", self.parcel_edit, PARCEL, self.new_parcel_button)
        self.parcel_note = QLabel(body)
        self.parcel_note.setObjectName("noteText")
        self.parcel_note.setWordWrap(True)
        self.house_button = QPushButton("Record &house number…", body)
        self.house_button.setObjectName("recordHouseNumber")
        self.house_button.clicked.connect(self.record_house_number)
        r = next(row)
        form.addWidget(self.parcel_note, r, 1)
        form.addWidget(self.house_button, r, 2)
        # The county's owner of record, offered for the owner roles: Alt+N takes it.
        self.owner_note = QLabel(body)
        self.owner_note.setObjectName("noteText")
        self.owner_note.setWordWrap(True)
        self.owner_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.owner_button = QPushButton("Use as ow&ner", body)
        self.owner_button.setObjectName("useOwnerOfRecord")
        self.owner_button.setToolTip("Make the owner of record the owner on this application")
        self.owner_button.clicked.connect(self.use_owner_of_record)
        r = next(row)
        form.addWidget(self.owner_note, r, 1)
        form.addWidget(self.owner_button, r, 2)

        # The parties.
        form.addWidget(_Title("Parties", body), next(row), 0, 1, 3)
        self.party_rows: dict[PartyRole, _PartyRow] = {}
        for role in PartyRole:
            r = next(row)
            next(row)
            party = _PartyRow(self, role, form, r)
            party.edit.textEdited.connect(lambda text, pr=party: self._party_typed(pr, text))
            party.edit.editingFinished.connect(lambda pr=party: self._party_done(pr))
            party.edit.installEventFilter(self)
            party.completer.activated.connect(lambda _t, pr=party: self._party_done(pr))
            party.new_button.clicked.connect(lambda _c=False, pr=party: self.new_party(pr))
            self.party_rows[role] = party
            err = self._error(role.value)
            form.addWidget(err, next(row), 1, 1, 2)

        # The work.
        form.addWidget(_Title("Work", body), next(row), 0, 1, 3)
        add("Desc&ription", self._line(DESCRIPTION, "Description of the work"), DESCRIPTION)
        valuation = self._line(VALUATION, "Valuation", "$")
        add("&Valuation", valuation, VALUATION)
        self.valuation_note: QLabel | None = None
        if valuation_note_for(p.municipality_key):
            self.valuation_note = QLabel(valuation_note_for(p.municipality_key), body)
            self.valuation_note.setObjectName("noteText")
            form.addWidget(self.valuation_note, next(row), 1, 1, 2)
            self.rows[VALUATION].append(self.valuation_note)

        areas = QWidget(body)
        areas_grid = QGridLayout(areas)
        areas_grid.setContentsMargins(0, 0, 0, 0)
        areas_grid.setHorizontalSpacing(8)
        areas_grid.setVerticalSpacing(2)
        for i, ((_level, label, _), key) in enumerate(zip(LEVELS, AREA_KEYS, strict=True)):
            caption = QLabel(label, areas)
            caption.setObjectName("fieldLabel")
            edit = self._line(key, f"Floor area, {label.lower()} (sq ft)", "sq ft")
            edit.setMaximumWidth(110)
            caption.setBuddy(edit)
            areas_grid.addWidget(caption, (i // 3) * 2, i % 3)
            areas_grid.addWidget(edit, (i // 3) * 2 + 1, i % 3)
        add("Floor areas (sq ft)", areas, "areas")
        self.floor_area_label = QLabel(body)
        self.floor_area_label.setObjectName("floorAreaTotal")
        self.floor_area_label.setWordWrap(True)
        form.addWidget(self.floor_area_label, next(row), 1, 1, 2)
        self.rows["areas"].append(self.floor_area_label)

        add("Dwelling &units", self._line(DWELLING_UNITS, "Dwelling units"), DWELLING_UNITS)
        add("&Stories", self._line(STORIES, "Stories"), STORIES)
        add("Vol&ume (cu ft)", self._line(VOLUME, "Volume in cubic feet"), VOLUME)
        acres = self._line(ACRES, "Disturbed land in acres", "acres, e.g. 1.25")
        add("Disturbed &land (acres)", acres, ACRES)
        acres_note = QLabel(ACRES_NOTE, body)
        acres_note.setObjectName("noteText")
        acres_note.setWordWrap(True)
        form.addWidget(acres_note, next(row), 1, 1, 2)
        self.rows[ACRES].append(acres_note)
        self.occupancy_combo = QComboBox(body)
        self.occupancy_combo.setObjectName("occupancyCombo")
        self.occupancy_combo.setAccessibleName("Occupancy class")
        self.occupancy_combo.currentIndexChanged.connect(
            lambda _i: self._typed(OCCUPANCY, self.occupancy_combo.currentData() or "")
        )
        add("&Occupancy class", self.occupancy_combo, OCCUPANCY)
        self.construction_combo = QComboBox(body)
        self.construction_combo.setObjectName("constructionCombo")
        self.construction_combo.setAccessibleName("Construction type")
        self.construction_combo.addItems(list(CONSTRUCTION_TYPES))
        self.construction_combo.currentTextChanged.connect(
            lambda text: self._typed(CONSTRUCTION_TYPE, text)
        )
        add("Construction &type", self.construction_combo, CONSTRUCTION_TYPE)
        self.fee_amount_label_widget = QLabel(body)
        self.fee_amount_label_widget.setObjectName("fieldLabel")
        fee_amount = self._line(FEE_AMOUNT, "Fee amount", "$")
        r = next(row)
        form.addWidget(self.fee_amount_label_widget, r, 0)
        form.addWidget(fee_amount, r, 1, 1, 2)
        self.fee_amount_label_widget.setBuddy(fee_amount)
        form.addWidget(self._error(FEE_AMOUNT), next(row), 1, 1, 2)
        self.rows[FEE_AMOUNT] = [self.fee_amount_label_widget, fee_amount]
        paving = self._line(PAVEMENT_AGE, "Age of the final paving in full years", "full years")
        add("Final paving ag&e (years)", paving, PAVEMENT_AGE)

        # SBD-5823, collapsible.
        self.sbd_toggle = QToolButton(body)
        self.sbd_toggle.setObjectName("sbdToggle")
        self.sbd_toggle.setText("Uniform Building Permit Application (SBD-5823)")
        self.sbd_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.sbd_toggle.setCheckable(True)
        self.sbd_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.sbd_toggle.toggled.connect(self._sbd_toggled)
        self.sbd_box = QFrame(body)
        self.sbd_box.setObjectName("sbdBox")
        sbd_grid = QGridLayout(self.sbd_box)
        sbd_grid.setContentsMargins(12, 4, 0, 4)
        sbd_grid.setHorizontalSpacing(10)
        sbd_grid.setVerticalSpacing(4)
        self.sbd_widgets: list[QWidget] = []
        for i, f in enumerate(SBD_FIELDS):
            caption = QLabel(f.label, self.sbd_box)
            caption.setObjectName("fieldLabel")
            widget: QWidget
            if f.choices:
                combo = QComboBox(self.sbd_box)
                combo.setObjectName(f"field_{f.key}")
                combo.setAccessibleName(f.label)
                combo.addItems(list(f.choices))
                combo.currentTextChanged.connect(lambda text, k=f.key: self._typed(k, text))
                widget = combo
            else:
                widget = self._line(f.key, f.label, f.placeholder)
            caption.setBuddy(widget)
            sbd_grid.addWidget(caption, i, 0)
            sbd_grid.addWidget(widget, i, 1)
            self.sbd_widgets.append(widget)
        sbd_grid.setColumnStretch(1, 1)
        self.sbd_box.setVisible(False)
        form.addWidget(self.sbd_toggle, next(row), 0, 1, 3)
        form.addWidget(self.sbd_box, next(row), 0, 1, 3)
        self.rows["sbd"] = [self.sbd_toggle]

        # Ownership: Census Form C-404 counts new privately owned housing only. The box keeps a
        # short label (the form stays narrow); its consequence wraps below it.
        ownership_title = _Title("Ownership", body)
        self.ownership_box = QCheckBox(OWNERSHIP_TEXT, body)
        self.ownership_box.setObjectName("ownershipPublic")
        self.ownership_box.setAccessibleName(OWNERSHIP_TEXT.replace("&", ""))
        self.ownership_box.setAccessibleDescription(OWNERSHIP_HINT)
        self.ownership_box.toggled.connect(self._ownership_changed)
        ownership_hint = QLabel(OWNERSHIP_HINT, body)
        ownership_hint.setObjectName("noteText")
        ownership_hint.setWordWrap(True)
        self.ownership_note = QLabel(body)  # when the owner's name reads as public
        self.ownership_note.setObjectName("errorText")
        self.ownership_note.setWordWrap(True)
        form.addWidget(ownership_title, next(row), 0, 1, 3)
        form.addWidget(self.ownership_box, next(row), 0, 1, 3)
        form.addWidget(ownership_hint, next(row), 0, 1, 3)
        form.addWidget(self.ownership_note, next(row), 0, 1, 3)
        self.rows[OWNERSHIP] = [ownership_title, self.ownership_box, ownership_hint]

        # Flags.
        form.addWidget(_Title("Work begun, emergency", body), next(row), 0, 1, 3)
        self.work_began_box = QCheckBox(work_began_text(self.session.municipality_key), body)
        self.work_began_box.setObjectName("workBegan")
        self.emergency_box = QCheckBox("E&mergency", body)
        self.emergency_box.setObjectName("emergency")
        for box in (self.work_began_box, self.emergency_box):
            box.toggled.connect(self._flags_changed)
        flags = QHBoxLayout()
        flags.addWidget(self.work_began_box)
        flags.addSpacing(16)
        flags.addWidget(self.emergency_box)
        flags.addStretch(1)
        form.addLayout(flags, next(row), 0, 1, 3)
        form.setRowStretch(next(row), 1)

        self.form_scroll = _FormScroll(self)
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.form_scroll.setWidget(body)

        # The fees panel.
        fees_panel = QWidget(self)
        fees_layout = QVBoxLayout(fees_panel)
        fees_layout.setContentsMargins(12, 12, 18, 12)
        fees_layout.setSpacing(6)
        fees_layout.addWidget(_Title("Fees", fees_panel))
        self.version_label = QLabel(fees_panel)
        self.version_label.setObjectName("noteText")
        self.version_label.setWordWrap(True)
        fees_layout.addWidget(self.version_label)
        self.breakdown_model = BreakdownTableModel(p.fees, self)
        self.breakdown_table = QTableView(fees_panel)
        _table(self.breakdown_table, "intakeBreakdown")
        self.breakdown_table.setModel(self.breakdown_model)
        header = self.breakdown_table.horizontalHeader()
        # As wide as the amount or the widest heading ('40 % admin'), with the sort arrow's room.
        metrics = self.fontMetrics()
        money = max(metrics.horizontalAdvance(s) for s in (_MONEY_SAMPLE, "100 % admin")) + 32
        for column in range(6):
            if column in (3, 4, 5):
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
                header.resizeSection(column, money)
            elif column == 1:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            else:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.breakdown_table.setColumnHidden(2, True)  # the section: in the tooltip of the item
        fees_layout.addWidget(self.breakdown_table, 2)
        self.total_label = QLabel(fees_panel)
        self.total_label.setObjectName("intakeTotal")
        self.total_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        fees_layout.addWidget(self.total_label)
        self.fees_note = QLabel(fees_panel)
        self.fees_note.setObjectName("noteText")
        self.fees_note.setWordWrap(True)
        fees_layout.addWidget(self.fees_note)
        fees_layout.addWidget(self._error(FEES))

        fees_layout.addWidget(_Title("Other fee items", fees_panel))
        self.item_combo = QComboBox(fees_panel)
        self.item_combo.setObjectName("extraItemCombo")
        self.item_combo.setEditable(True)
        self.item_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.item_combo.setAccessibleName("Add a fee item")
        # A long item (New Lisbon's) is cut in the closed box, not allowed to widen the window.
        self.item_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.item_combo.setMinimumContentsLength(24)
        item_edit = self.item_combo.lineEdit()
        assert item_edit is not None
        item_edit.setPlaceholderText("Type a code or words of an item to add")
        item_edit.installEventFilter(self)
        self.item_completer, self.item_model = _completer(self.item_combo)
        self.item_combo.setCompleter(self.item_completer)
        choices = [c.text for c in p.fees.item_choices()]
        self.item_model.setStringList(choices)
        self.item_combo.addItems(choices)
        self.item_combo.setCurrentIndex(-1)
        self.item_combo.currentTextChanged.connect(lambda _t: self._show_item_fields())
        fees_layout.addWidget(self.item_combo)
        item_fields = QGridLayout()
        item_fields.setHorizontalSpacing(8)
        self.item_labels: dict[str, QLabel] = {}
        self.item_edits: dict[str, QLineEdit] = {}
        for column, key in enumerate(FIELD_KEYS):
            item_label = QLabel(fees_panel)
            item_label.setObjectName("fieldLabel")
            item_value = QLineEdit(fees_panel)
            item_value.setObjectName(f"extra_{key}")
            item_value.returnPressed.connect(self.add_extra_item)
            item_label.setBuddy(item_value)
            self.item_labels[key] = item_label
            self.item_edits[key] = item_value
            item_fields.addWidget(item_label, 0, column)
            item_fields.addWidget(item_value, 1, column)
        self.add_item_button = QPushButton("Add &item", fees_panel)
        self.add_item_button.setObjectName("addExtraItem")
        self.add_item_button.clicked.connect(self.add_extra_item)
        item_fields.addWidget(self.add_item_button, 1, len(FIELD_KEYS))
        fees_layout.addLayout(item_fields)
        self.lines_model = CalculatorLinesModel(p.fees, self)
        self.lines_table = _LinesTable(fees_panel)
        _table(self.lines_table, "extraItems")
        self.lines_table.setModel(self.lines_model)
        self.lines_table.remove_requested.connect(self.remove_extra_item)
        lines_header = self.lines_table.horizontalHeader()
        lines_header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        lines_header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        lines_header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.lines_table.setToolTip("Delete removes the selected item")
        fees_layout.addWidget(self.lines_table, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter = splitter
        splitter.addWidget(self.form_scroll)
        splitter.addWidget(fees_panel)
        # Half and half: the fee table's amount columns need ~400 px besides the description.
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([620, 620])
        self.form_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.general_error = QLabel(self)
        self.general_error.setObjectName("errorText")
        self.general_error.setWordWrap(True)
        self.general_error.setVisible(False)
        self.save_button = QPushButton("&Save application", self)
        self.save_button.setObjectName("saveApplication")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("cancelApplication")
        self.cancel_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(18, 0, 18, 12)
        buttons.addWidget(self.general_error, 1)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.save_button)

        top = QHBoxLayout()
        top.setContentsMargins(18, 12, 18, 0)
        top.addWidget(heading)
        top.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)

        # Tab order: the paper form top to bottom, then the fees panel, then Save.
        chain: list[QWidget] = [self.kind_combo, self.applied_edit, self.parcel_edit]
        chain += [self.new_parcel_button, self.house_button, self.owner_button]
        for party in self.party_rows.values():
            chain += [party.edit, party.new_button]
        chain += [self.edits[DESCRIPTION], self.edits[VALUATION]]
        chain += [self.edits[k] for k in AREA_KEYS]
        chain += [self.edits[DWELLING_UNITS], self.edits[STORIES], self.edits[VOLUME]]
        chain += [self.edits[ACRES]]
        chain += [self.occupancy_combo, self.construction_combo, self.edits[FEE_AMOUNT]]
        chain += [self.edits[PAVEMENT_AGE]]
        chain += [self.sbd_toggle, *self.sbd_widgets, self.ownership_box]
        chain += [self.work_began_box, self.emergency_box, self.item_combo]
        chain += [self.item_edits[k] for k in FIELD_KEYS]
        chain += [self.add_item_button, self.lines_table, self.breakdown_table]
        chain += [self.save_button, self.cancel_button]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)
        self._chain = chain
        self._body = body
        self.setFocusProxy(self.kind_combo)
        self._show_item_fields()
        self._built = True

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab walks the paper form's order, skipping what the kind does not ask for (Qt's own
        chain loses its way over the hidden rows)."""
        current = QApplication.focusWidget()
        chain = [w for w in self._chain if w.isVisibleTo(self) and w.isEnabled()]
        index = next_index = None
        for i, widget in enumerate(chain):
            if current is widget or (current is not None and widget.isAncestorOf(current)):
                index = i
                break
        if index is None or not chain:
            return super().focusNextPrevChild(next)
        next_index = (index + (1 if next else -1)) % len(chain)
        target = chain[next_index]
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        target.setFocus(reason)
        if self._body.isAncestorOf(target):
            self.form_scroll.ensureWidgetVisible(target)
        if isinstance(target, QLineEdit):
            target.selectAll()
        return True

    # --- what the clerk does -------------------------------------------------------------

    def _typed(self, key: str, text: str) -> None:
        if self._loading:
            return
        self.presenter.set_value(key, text)
        self._clear_error(key if not key.startswith("area_") else "areas")
        self.schedule_update()

    def _date_changed(self) -> None:
        self.presenter.set_applied_on(from_qdate(self.applied_edit.date()))
        self._clear_error(APPLIED_ON)
        self._refresh_parties()
        self.schedule_update()

    def _flags_changed(self, *_args: object) -> None:
        self.presenter.set_flags(
            work_began_before_permit=self.work_began_box.isChecked(),
            emergency=self.emergency_box.isChecked(),
        )
        self.schedule_update()

    def _ownership_changed(self, on: bool) -> None:
        self.presenter.set_owner_public(on)
        self._refresh_ownership()

    def _refresh_ownership(self) -> None:
        note = self.presenter.ownership_note
        self.ownership_note.setText(note)
        self.ownership_note.setVisible(bool(note))

    def _sbd_toggled(self, on: bool) -> None:
        self.sbd_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.sbd_box.setVisible(on and self.presenter.shows("sbd"))

    def select_kind(self, code: str) -> None:
        index = self.kind_combo.findData(code)
        if index < 0:
            raise KeyError(code)
        self.kind_combo.setCurrentIndex(index)

    def _kind_changed(self) -> None:
        p = self.presenter
        p.set_kind(self.kind_combo.currentData())
        self._clear_error("kind")
        for key, widgets in self.rows.items():
            if key in ("kind",):
                continue
            shown = key in (PARCEL, DESCRIPTION) or p.shows(key)
            for w in widgets:
                w.setVisible(shown)
            if not shown and key in self.errors:
                self.errors[key].setVisible(False)
        self.fee_amount_label_widget.setText(p.fee_amount_label)
        if self.valuation_note is not None:  # a trade permit's valuation is its trade's cost
            trade = p.kind.trade if p.kind is not None else "building"
            self.valuation_note.setText(valuation_note_for(p.municipality_key, trade))
        self.edits[FEE_AMOUNT].setAccessibleName(p.fee_amount_label)
        self.sbd_box.setVisible(self.sbd_toggle.isChecked() and p.shows("sbd"))
        selected = self.occupancy_combo.currentData()
        self.occupancy_combo.blockSignals(True)
        self.occupancy_combo.clear()
        for key, label in p.occupancy_choices:
            self.occupancy_combo.addItem(label, key)
        self.occupancy_combo.setCurrentIndex(max(0, self.occupancy_combo.findData(selected)))
        self.occupancy_combo.blockSignals(False)
        roles = set(p.roles)
        for role, party in self.party_rows.items():
            party.set_visible(role in roles)
            if role not in roles:
                self.errors[role.value].setVisible(False)
        self._refresh_parcel()
        self._refresh_parties()
        self._refresh_ownership()
        self.schedule_update()

    # --- parcel --------------------------------------------------------------------------

    def _parcel_typed(self, text: str) -> None:
        self._clear_error(PARCEL)
        self.parcel_model.setStringList(self.presenter.parcel_matches(text))

    def _parcel_done(self) -> None:
        text = self.parcel_edit.text()
        p = self.presenter
        if not text.strip():
            p.set_parcel(None)
        elif p.choose_parcel(text):
            assert p.parcel is not None
            if self.parcel_edit.text() != p.parcel.text:
                self.parcel_edit.setText(p.parcel.text)
            self.parcel_edit.setCursorPosition(0)
        self._refresh_parcel()
        self.schedule_update()

    def _refresh_parcel(self) -> None:
        p = self.presenter
        typed = self.parcel_edit.text().strip()
        if p.parcel is None and typed:
            self.parcel_note.setText(
                "No parcel chosen: pick one from the list, or add it with New parcel."
            )
            self.parcel_note.setObjectName("errorText")
        else:
            self.parcel_note.setText(p.parcel_note)
            self.parcel_note.setObjectName("errorText" if p.needs_house_number else "noteText")
        self.parcel_note.style().unpolish(self.parcel_note)
        self.parcel_note.style().polish(self.parcel_note)
        self.house_button.setVisible(p.needs_house_number)
        self._refresh_owner_offer()

    def _owner_roles_offered(self) -> tuple[PartyRole, ...]:
        return self.presenter.owner_offer(self.presenter.roles)

    def _refresh_owner_offer(self) -> None:
        owner = self.presenter.owner_of_record
        offered = bool(self._owner_roles_offered())
        self.owner_note.setText(f"Owner of record: {owner}" if owner else "")
        self.owner_note.setVisible(bool(owner))
        self.owner_button.setVisible(offered)

    def use_owner_of_record(self) -> None:
        """The owner of record, as a person or organization of the register, in each owner
        role still empty (the county's mailing address becomes theirs)."""
        parcel, roles = self.presenter.parcel, self._owner_roles_offered()
        if parcel is None or not roles:
            return
        try:
            party_id = owner_as_party(
                self.database.uow(), self.clock, self.session.actor, parcel.id
            )
        except DeskError as e:
            dialogs.warn(self, "Owner of record", str(e))
            return
        for role in roles:
            self.set_party_id(role, party_id)
        self._refresh_owner_offer()
        self.party_rows[roles[0]].edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def new_parcel(self) -> None:
        typed = self.parcel_edit.text().strip()
        dialog = NewParcelDialog(
            self.database,
            self.clock,
            self.session.actor,
            self.session.municipality_id,
            self,
            street=typed,
        )
        if dialog.exec() != NewParcelDialog.DialogCode.Accepted or dialog.parcel_id is None:
            return
        self.set_parcel_id(dialog.parcel_id)

    def set_parcel_id(self, parcel_id: int) -> None:
        choice = self.presenter.source.parcel(parcel_id)
        self.presenter.set_parcel(choice)
        self.parcel_edit.setText(choice.text if choice is not None else "")
        self.parcel_edit.setCursorPosition(0)
        self._clear_error(PARCEL)
        self._refresh_parcel()

    def record_house_number(self) -> None:
        parcel = self.presenter.parcel
        if parcel is None:
            return
        dialog = HouseNumberDialog(
            self.database,
            self.clock,
            self.session.actor,
            parcel.id,
            f"Parcel {parcel.pin}, {parcel.street}",
            self,
        )
        if dialog.exec() == HouseNumberDialog.DialogCode.Accepted:
            self.set_parcel_id(parcel.id)

    # --- parties -------------------------------------------------------------------------

    def _party_typed(self, party: _PartyRow, text: str) -> None:
        self._clear_error(party.role.value)
        party.model.setStringList(self.presenter.party_matches(text))

    def _party_done(self, party: _PartyRow) -> None:
        text = party.edit.text()
        p = self.presenter
        if not text.strip():
            p.set_party(party.role, None)
        elif p.choose_party(party.role, text):
            chosen = p.parties[party.role]
            if party.edit.text() != chosen.text:
                party.edit.setText(chosen.text)
            party.edit.setCursorPosition(0)
        self._refresh_party(party)

    def _refresh_parties(self) -> None:
        for party in self.party_rows.values():
            if party.edit.isVisibleTo(self):
                self._refresh_party(party)

    def _refresh_party(self, party: _PartyRow) -> None:
        p = self.presenter
        typed = party.edit.text().strip()
        chosen = p.parties.get(party.role)
        if chosen is None and typed:
            text, ok = "Not on record: pick from the list, or add with New…", False
        else:
            check = p.credential_check(party.role)
            text, ok = check.message, check.ok
            if not text and p.kind is not None:
                need = requirement(party.role, p.kind)
                if need is not None and chosen is None:
                    text = f"Needs a {need.words} ({need.section})"
        party.note.setText(text)
        party.note.setVisible(bool(text))
        party.note.setObjectName("noteText" if ok else "errorText")
        party.note.style().unpolish(party.note)
        party.note.style().polish(party.note)
        if party.role in (PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER):
            self._refresh_ownership()
            self._refresh_owner_offer()

    def set_party_id(self, role: PartyRole, party_id: int) -> None:
        from db import queries

        with self.database.read() as conn:
            choice = queries.party_choice(conn, party_id)
        row = self.party_rows[role]
        self.presenter.set_party(role, choice)
        row.edit.setText(choice.text if choice is not None else "")
        row.edit.setCursorPosition(0)
        self._refresh_party(row)

    def new_party(self, party: _PartyRow) -> None:
        need = requirement(party.role, self.presenter.kind) if self.presenter.kind else None
        dialog = NewPartyDialog(
            self.database,
            self.clock,
            self.session.actor,
            self,
            name=party.edit.text().strip(),
            credential=need.kinds[0] if need is not None else None,
        )
        if dialog.exec() != NewPartyDialog.DialogCode.Accepted or dialog.party_id is None:
            return
        self.set_party_id(party.role, dialog.party_id)

    # --- extra fee items -----------------------------------------------------------------

    def _show_item_fields(self) -> None:
        item = self.presenter.fees.find_item(self.item_combo.currentText())
        wanted: dict[str, InputField] = (
            {f.key: f for f in fields_for(item)} if item is not None else {}
        )
        for key in FIELD_KEYS:
            field = wanted.get(key)
            self.item_labels[key].setVisible(field is not None)
            self.item_edits[key].setVisible(field is not None)
            if field is not None:
                self.item_labels[key].setText(field.label)
                self.item_edits[key].setPlaceholderText(field.placeholder)
                self.item_edits[key].setAccessibleName(field.label)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Leaving the parcel or a party (Tab, even with the completer's list open) resolves
        what was typed. Enter in the item box: to the item's first field, or add it."""
        if not self._built:
            return super().eventFilter(watched, event)
        completers = {self.parcel_edit: self.parcel_completer}
        completers.update({pr.edit: pr.completer for pr in self.party_rows.values()})
        if watched in completers and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
                popup = completers[watched].popup()
                if popup is not None:
                    popup.hide()
        if (
            event.type() == QEvent.Type.FocusOut
            and isinstance(event, QFocusEvent)
            and event.reason() != Qt.FocusReason.PopupFocusReason  # the completer's list opened
        ):
            if watched is self.parcel_edit:
                self._parcel_done()
            for party in self.party_rows.values():
                if watched is party.edit:
                    self._party_done(party)
        line_edit = self.item_combo.lineEdit()
        if watched is line_edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                popup = self.item_completer.popup()
                if popup is not None and popup.isVisible():
                    popup.hide()
                item = self.presenter.fees.find_item(self.item_combo.currentText())
                if item is None:
                    return True
                self.item_combo.setEditText(f"{item.code} — {item.description}")
                first = next(iter(fields_for(item)), None)
                if first is None:
                    self.add_extra_item()
                else:
                    self.item_edits[first.key].setFocus(Qt.FocusReason.OtherFocusReason)
                return True
        return super().eventFilter(watched, event)

    def add_extra_item(self) -> None:
        fees_presenter = self.presenter.fees
        item = fees_presenter.find_item(self.item_combo.currentText())
        if item is None:
            self.item_combo.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        values = {f.key: self.item_edits[f.key].text() for f in fields_for(item)}
        fees_presenter.add_line(item.code, values)
        self.presenter.dirty = True
        for edit in self.item_edits.values():
            edit.clear()
        self.item_combo.setCurrentIndex(-1)
        self.item_combo.setEditText("")
        self.item_combo.setFocus(Qt.FocusReason.OtherFocusReason)
        self.lines_model.refresh()
        self.schedule_update()

    def remove_extra_item(self, row: int) -> None:
        self.presenter.fees.remove_line(row)
        self.presenter.dirty = True
        self.lines_model.refresh()
        self.schedule_update()

    # --- the live breakdown --------------------------------------------------------------

    def schedule_update(self) -> None:
        self._timer.start()

    @property
    def update_pending(self) -> bool:
        return self._timer.isActive()

    def recalculate_now(self) -> None:
        self._timer.stop()
        p = self.presenter
        p.recalculate()
        self.breakdown_model.refresh()
        self.lines_model.refresh()
        self.version_label.setText(p.fees.version_text)
        self.floor_area_label.setText(
            f"Floor area counted: {p.floor_area_text} — {FLOOR_AREA_NOTE}"
        )
        q = p.quote
        self.total_label.setText(f"Total {p.total_text}" if q is not None else "")
        self.fees_note.setText(p.empty_fees_text or p.fees.footnote)
        self._set_error(FEES, p.fee_error)

    # --- errors --------------------------------------------------------------------------

    def _set_error(self, key: str, message: str) -> None:
        label = self.errors.get(key)
        if label is None:
            return
        label.setText(message)
        label.setVisible(bool(message))

    def _clear_error(self, key: str) -> None:
        if key != FEES:
            self._set_error(key, "")
        self.general_error.setVisible(False)

    def show_error(self, error: ValidationError) -> None:
        """Next to the field the error names; the first such field gets the focus."""
        key = field_of(error)
        if key in self.errors and self.errors[key].isVisibleTo(self) is False:
            self._set_error(key, error.message)
        if key in self.errors:
            self._set_error(key, error.message if key != FEES else str(error))
            target = self._focus_target(key)
            if target is not None:
                target.setFocus(Qt.FocusReason.OtherFocusReason)
                self.form_scroll.ensureWidgetVisible(target)
        else:
            self.general_error.setText(str(error))
            self.general_error.setVisible(True)

    def _focus_target(self, key: str) -> QWidget | None:
        targets: dict[str, Callable[[], QWidget]] = {
            "kind": lambda: self.kind_combo,
            APPLIED_ON: lambda: self.applied_edit,
            PARCEL: lambda: self.parcel_edit,
            "areas": lambda: self.edits[AREA_KEYS[2]],
            OCCUPANCY: lambda: self.occupancy_combo,
            FEES: lambda: self.item_combo,
        }
        if key in targets:
            return targets[key]()
        if key in self.edits:
            return self.edits[key]
        for role, party in self.party_rows.items():
            if role.value == key:
                return party.edit
        return None

    # --- saving --------------------------------------------------------------------------

    def save(self) -> int | None:
        """Take the application and assess its fees; the new permit's id, or None."""
        self._parcel_done() if self.parcel_edit.hasFocus() else None
        for party in self.party_rows.values():
            if party.edit.hasFocus():
                self._party_done(party)
        self.recalculate_now()
        p = self.presenter
        for label in self.errors.values():
            label.setVisible(False)
        self.general_error.setVisible(False)
        if self.applied_edit.error():  # typed text that is not a date: said, never saved
            self.show_error(ValidationError(APPLIED_ON, self.applied_edit.error()))
            return None
        try:
            application = p.application()
        except ValidationError as e:
            if e.field != APPLIED_ON or not dialogs.ask(self, TITLE, p.date_question()):
                self.show_error(e)
                return None
            p.confirm_date()  # an unusual date, confirmed: asked once per date
            try:
                application = p.application()
            except ValidationError as again:
                self.show_error(again)
                return None
        request = p.request()
        actor = self.session.actor
        try:
            permit_id = permits.take_application(
                self.database.uow(), self.clock, actor, application
            )
        except ValidationError as e:
            self.show_error(e)
            return None
        except DeskError as e:
            dialogs.warn(self, TITLE, str(e))
            return None
        if request is not None:
            try:
                fees.assess_fees(self.database.uow(), self.clock, actor, permit_id, request)
            except DeskError as e:
                dialogs.warn(
                    self,
                    TITLE,
                    f"The application was saved, but its fees were not assessed: {e}",
                )
        p.mark_saved()
        self.saved_permit_id = permit_id
        self.saved.emit(permit_id)
        self.close()
        return permit_id

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The fees beside the form when both fit (the fee table needs ~550 px), else under
        it: on a 1024-pixel screen the form scrolls down, never sideways."""
        super().resizeEvent(event)
        across = event.size().width() >= FEES_BESIDE_FORM
        wanted = Qt.Orientation.Horizontal if across else Qt.Orientation.Vertical
        if self.splitter.orientation() != wanted:
            self.splitter.setOrientation(wanted)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.presenter.dirty and not dialogs.ask(
            self,
            TITLE,
            "This application has not been saved. Close the form and lose what was entered?",
        ):
            event.ignore()
            return
        self.closed.emit()
        super().closeEvent(event)

    # --- screenshots ---------------------------------------------------------------------

    def load_sample(self) -> None:
        """The screenshot's example: a new house on the first parcel with a house number."""
        p = self.presenter
        codes = [k.code for k in p.kinds]
        code = "RES-NEW-DWELLING" if "RES-NEW-DWELLING" in codes else codes[0]
        self.select_kind(code)
        for text in ("1", "2", "3", "4", "5", "6", "7", "8", "9"):
            matches = p.parcel_matches(text)
            if matches:
                self.parcel_edit.setText(matches[0])
                self._parcel_done()
                break
        for role, words in (
            (PartyRole.BUILDING_OWNER, ("Schmidt", "Heinz", "A", "B", "C")),
            (PartyRole.CONTRACTOR, ("Pioneer", "Badger", "Homes", "Builders", "Construction")),
        ):
            for word in words:
                found = p.party_matches(word)
                if found:
                    row = self.party_rows[role]
                    row.edit.setText(found[0])
                    self._party_done(row)
                    break
        values = {
            DESCRIPTION: "New 2-story single-family dwelling with attached garage",
            VALUATION: "412,500",
            "area_basement_unfinished": "1,400",
            "area_first": "1,400",
            "area_second": "1,000",
            "area_garage": "480",
            DWELLING_UNITS: "1",
            STORIES: "2",
            VOLUME: "31,000",
        }
        for key, text in values.items():
            if key in self.edits:
                self.edits[key].setText(text)
                self._typed(key, text)
        self.sbd_toggle.setChecked(True)
        self.recalculate_now()


def open_intake(
    database: Database, session: Session, clock: Clock, parent: QWidget | None = None
) -> IntakeWindow:
    """A new-application form over the municipality's fee schedule; DeskError if it has none."""
    schedule = fees.fee_schedule(database.uow(), clock, session.municipality_id)
    window = IntakeWindow(database, session, clock, schedule, parent)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return window
