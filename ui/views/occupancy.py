"""Tools → Occupancy calculator: a unit's rooms typed in a table, the limits under the housing
code (Hudson 140-5/140-7, Ch. 512-11) as they are typed, printed on one page.

A non-modal window over OccupancyPresenter. Keyboard: type in a cell to change it, Tab to the
next cell (Ctrl+Tab leaves the table), Space ticks "Mech. vent.", a letter picks the use;
Ctrl+N or Insert adds a room, Delete removes the selected one; Ctrl+P prints. Alt+T attaches
the result to a case (an over-occupied unit is a violation of it), Alt+L to a rooming house
licence; the status line says what was recorded. Opened from a case's or a licence's window, the
calculator attaches to that case or licence (its number filled in), a licence's rooms typed in
already.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db import occupancy_queries as oq
from db import queries
from db.database import Database
from db.licence_view import RoomFact
from desk.clock import Clock
from desk.domain.permissions import Permission, allowed
from desk.errors import ValidationError
from desk.housing.occupancy import CODES, Use, fmt
from desk.services.enforcement.occupancy import AttachResult, attach_occupancy, code_name
from ui import dialogs, exports
from ui.geometry import fit_window
from ui.permit import actions
from ui.permit.actions import ActionDialog
from ui.permit.base import PermitContext
from ui.presenters.occupancy import (
    CH_512_ONLY,
    COLUMN_KEYS,
    COLUMNS,
    FLAGS,
    NAME,
    UNIT_OVER_12,
    UNIT_UNDER_12,
    USE,
    USES,
    OccupancyPresenter,
    RoomRow,
    attach_note,
    case_number,
    default_code,
    licence_ref,
    sample_rows,
    unit_to_json,
    use_label,
)
from ui.presenters.occupancy import (
    stated_note as stated_note_text,
)
from ui.presenters.session import Session
from ui.views.common import date_edit, from_qdate

TITLE = "Occupancy calculator"
SUBFOLDER = "Occupancy calculations"  # <document folder>/<year>/Occupancy calculations
DEFAULT_SIZE = (1100, 720)
_Index = QModelIndex | QPersistentModelIndex
_RIGHT = {"floor_area", "low_area", "low_height", "window_area", "openable_area"}
_RIGHT |= {"over_12", "under_12"}


class RoomsModel(QAbstractTableModel):
    """The presenter's rows, editable; every change recalculates (the window then shows it)."""

    changed = Signal()

    def __init__(self, presenter: OccupancyPresenter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.presenter = presenter

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.presenter.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def _key(self, index: _Index) -> str:
        return COLUMN_KEYS[index.column()]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.presenter.rows[index.row()]
        key = self._key(index)
        if key in FLAGS:
            ticked = bool(row.value(key))
            if role == Qt.ItemDataRole.CheckStateRole:
                return Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked
            if role == Qt.ItemDataRole.AccessibleTextRole:
                return "yes" if ticked else "no"
            return None  # the heading's tooltip says what the box means
        if key == USE and role == Qt.ItemDataRole.DisplayRole:
            return use_label(row.use)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return str(row.value(key))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            horizontal = (
                Qt.AlignmentFlag.AlignRight if key in _RIGHT else Qt.AlignmentFlag.AlignLeft
            )
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            p = self.presenter
            if p.error_row == index.row() and p.error_key == key:
                return p.error
            return COLUMNS[index.column()].hint_for(p.code)
        return None

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        key = self._key(index)
        if key in FLAGS:
            if role != Qt.ItemDataRole.CheckStateRole:
                return False
            checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
            self.presenter.set_value(index.row(), key, checked)
        elif role == Qt.ItemDataRole.EditRole:
            if str(value) == str(self.presenter.rows[index.row()].value(key)):
                return False
            try:
                self.presenter.set_value(index.row(), key, str(value))
            except ValueError:
                return False  # not a use: the combo offers only uses
        else:
            return False
        self.dataChanged.emit(index, index)
        self.changed.emit()
        return True

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self._key(index) in FLAGS:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base | Qt.ItemFlag.ItemIsEditable

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            if orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
                return str(section + 1)
            return None
        column = COLUMNS[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.hint_for(self.presenter.code)
        return None

    def refresh(self) -> None:
        self.beginResetModel()
        self.endResetModel()

    def add_room(self) -> int:
        """A blank row at the end (open editors stay open: no reset)."""
        row = len(self.presenter.rows)
        self.beginInsertRows(QModelIndex(), row, row)
        self.presenter.add_room()
        self.endInsertRows()
        self.changed.emit()
        return row

    def remove_room(self, row: int) -> None:
        if not 0 <= row < len(self.presenter.rows):
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        self.presenter.remove_room(row)
        self.endRemoveRows()
        self.changed.emit()


class _RoomDelegate(QStyledItemDelegate):
    """The use is picked from a combo; a text cell sends each keystroke to the model, so the
    results follow the typing."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: _Index) -> QWidget:
        if COLUMN_KEYS[index.column()] == USE:
            combo = QComboBox(parent)
            for use in USES:
                combo.addItem(use_label(use), use)
            combo.setAccessibleName("Use")
            combo.activated.connect(lambda _i, c=combo: self.commitData.emit(c))
            return combo
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit):
            editor.setAccessibleName(COLUMNS[index.column()].words)
            editor.textEdited.connect(lambda _t, e=editor: self.commitData.emit(e))
        return editor

    def setEditorData(self, editor: QWidget, index: _Index) -> None:
        if isinstance(editor, QComboBox):
            # None picked yet: the first letter typed picks the first use with it.
            editor.setCurrentIndex(editor.findData(str(index.data(Qt.ItemDataRole.EditRole))))
            return
        if isinstance(editor, QLineEdit) and editor.isModified():
            return  # committed while typing: keep the cursor where it is
        super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: _Index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData() or "", Qt.ItemDataRole.EditRole)
            return
        super().setModelData(editor, model, index)


class RoomsTable(QTableView):
    """Delete (not while typing in a cell) removes the selected room."""

    remove_requested = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        editing = self.state() == QAbstractItemView.State.EditingState
        if index.isValid() and not editing and event.key() == Qt.Key.Key_Delete:
            self.remove_requested.emit(index.row())
            event.accept()
            return
        super().keyPressEvent(event)


class AttachDialog(ActionDialog):
    """Attach the calculator's result to a case (CE-YYYY-NNNN of this municipality, open) or to
    a rooming house licence (RH-YYYY-NNNN, or its application #id). The result is computed under
    the case's (the municipality's) housing code: the calculator must show that code."""

    def __init__(
        self,
        context: PermitContext,
        to: str,  # "case" or "licence"
        rooms_json: str,
        shown_code: str,
        number: str = "",
        parent: QWidget | None = None,
    ) -> None:
        case = to == "case"
        super().__init__(
            context,
            "Attach to a case" if case else "Attach to a rooming house licence",
            (
                "Over-occupancy found is a violation of the case: each shortfall is recorded "
                "as the code item its section names, at an inspection on the date below. "
                if case
                else "The licence shows the result; violations go on its inspection case. "
            )
            + attach_note(context.clock.today()),
            "&Attach",
            parent,
        )
        self.to = to
        self.rooms_json = rooms_json
        self.shown_code = shown_code
        self.outcome: AttachResult | None = None
        self.number = QLineEdit(number, self)
        self.number.setObjectName("attachNumber")
        self.number.setPlaceholderText("CE-2026-0008" if case else "RH-2026-0001 or #3")
        self.number.setAccessibleName("Case number" if case else "Licence or application")
        self.add_field("&Case number:" if case else "&Licence:", self.number, to)
        self.unit = QLineEdit(self)
        self.unit.setObjectName("attachUnit")
        self.unit.setMaxLength(80)
        self.unit.setPlaceholderText("e.g. 2 or Upper (blank: the whole dwelling)")
        self.add_field("Dwelling &unit:", self.unit, "unit")
        self.checked_on = date_edit(self, "attachDate", context.clock.today())
        self.add_field("Checked &on:", self.checked_on, "checked on", "inspected on")
        self.setMinimumWidth(520)
        (self.unit if number else self.number).setFocus()

    def run(self) -> None:
        c = self.context
        mid = c.session.municipality_id
        case_id: int | None = None
        licence_id: int | None = None
        if self.to == "case":
            number = case_number(self.number.text())
            with c.database.read() as conn:
                found = oq.case_by_number(conn, mid, number)
            if found is None:
                raise ValidationError(
                    "case", f"{number} is no case of {c.session.municipality_name}"
                )
            case_id, closed_on, code = found
            if closed_on is not None:
                raise ValidationError("case", f"{number} is closed; attach to an open case")
        else:
            lic_number, application = licence_ref(self.number.text())
            with c.database.read() as conn:
                licence_id = oq.licence_id(conn, mid, lic_number, application)
            if licence_id is None:
                what = lic_number or f"application #{application}"
                raise ValidationError("licence", f"{what} is no rooming house licence here")
            code = _municipality_code(c.database, mid)
        if code != self.shown_code:
            raise ValidationError(
                "case" if self.to == "case" else "licence",
                f"the housing code there is {code_name(code)}; choose it above the rooms first",
            )
        self.outcome = attach_occupancy(
            c.database.uow(),
            c.clock,
            c.session.actor,
            case_id=case_id,
            licence_id=licence_id,
            unit_label=self.unit.text(),
            rooms_json=self.rooms_json,
            checked_on=from_qdate(self.checked_on.date()),
        )


def _municipality_code(database: Database, municipality_id: int) -> str:
    """The municipality's housing code (its settings), or Hudson ch. 140."""
    with database.uow() as uow:
        muni = uow.municipalities.get(municipality_id)
        return default_code(muni.settings if muni is not None else None)


def licence_rooms(rooms: Sequence[RoomFact]) -> list[RoomRow]:
    """A licence's rooms as the calculator's rows (140-10: name, floor area, sleeping room and
    its occupants); a room not for sleeping is taken as living space, to correct if it is not."""
    return [
        RoomRow(
            r.name,
            (Use.SLEEPING if r.sleeping else Use.LIVING).value,
            fmt(r.floor_area),
            over_12=str(r.occupants_over_12) if r.occupants_over_12 else "",
            under_12=str(r.occupants_under_12) if r.occupants_under_12 else "",
        )
        for r in rooms
    ]


class OccupancyWindow(QWidget):
    closed = Signal()
    attached = Signal(object)  # AttachResult: a case window reads its case again

    def __init__(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        code: str,
        parent: QWidget | None = None,
        *,
        remember_geometry: bool = True,
        for_case: tuple[int, str] | None = None,
        for_licence: tuple[int, str] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("occupancyCalculator")
        if for_case and for_licence:
            raise ValueError("a calculator attaches to a case or to a licence, not both")
        # Opened from a case's or a licence's window: attaching goes to it (id, number).
        self.for_case = for_case
        self.for_licence = for_licence
        target = for_case or for_licence
        suffix = f" for {target[1]}" if target else ""
        self.setWindowTitle(f"{TITLE}{suffix} — Permit Desk")
        self.database = database
        self.session = session
        self.clock = clock
        self.remember_geometry = remember_geometry
        self.presenter = OccupancyPresenter(code=code)
        self._build()
        for keys in (QKeySequence(QKeySequence.StandardKey.New), QKeySequence("Insert")):
            QShortcut(keys, self).activated.connect(self.add_room)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Print), self).activated.connect(
            self.print_now
        )
        QShortcut(QKeySequence(QKeySequence.StandardKey.Close), self).activated.connect(self.close)
        fit_window(self, "occupancy_calculator", DEFAULT_SIZE, keep=remember_geometry)
        self.add_room(focus=False)
        self.show_result()

    # --- building --------------------------------------------------------------------------

    def _build(self) -> None:
        p = self.presenter
        heading = QLabel(TITLE, self)
        heading.setObjectName("viewHeading")
        self.code_combo = QComboBox(self)
        self.code_combo.setObjectName("housingCode")
        self.code_combo.setAccessibleName("Housing code")
        for choice in p.codes:
            self.code_combo.addItem(choice.label, choice.key)
        self.code_combo.setCurrentIndex(self.code_combo.findData(p.code))
        self.code_combo.currentIndexChanged.connect(self._code_changed)
        code_label = QLabel("Housing &code", self)
        code_label.setBuddy(self.code_combo)
        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(code_label)
        top.addWidget(self.code_combo)

        rooms_label = QLabel("&Rooms of the unit", self)
        rooms_label.setObjectName("sectionTitle")
        self.model = RoomsModel(p, self)
        self.stated_note = QLabel(stated_note_text(p.code), self)  # follows the code chosen
        self.stated_note.setObjectName("noteText")
        self.model.changed.connect(self.show_result)
        self.table = RoomsTable(self)
        self.table.setObjectName("occupancyRooms")
        self.table.setAccessibleName("Rooms of the unit")
        self.table.setModel(self.model)
        self.table.setItemDelegate(_RoomDelegate(self.table))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.setTabKeyNavigation(True)
        self.table.setWordWrap(False)
        self.table.remove_requested.connect(self.remove_room)
        rooms_label.setBuddy(self.table)
        vertical = self.table.verticalHeader()
        vertical.setVisible(False)  # the room's name says which row a mistake is in
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 12)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        header.setMinimumHeight(self.fontMetrics().height() * 2 + 12)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        number = self.fontMetrics().horizontalAdvance("Low-ceiling") + 32
        for column, key in enumerate(COLUMN_KEYS):
            if key == NAME:
                continue
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            width = number
            if key == USE:
                width = self.fontMetrics().horizontalAdvance(use_label("sleeping")) + 48
            elif key in FLAGS:
                title_lines = COLUMNS[column].title.split("\n")
                width = max(self.fontMetrics().horizontalAdvance(t) for t in title_lines) + 28
            header.resizeSection(column, width)
        self.table.setMinimumWidth(self.fontMetrics().horizontalAdvance("Bedroom 2") + 40)
        self._show_code_columns()

        self.add_button = QPushButton("&Add room", self)
        self.add_button.setObjectName("addRoom")
        self.add_button.setToolTip("Add a room (Ctrl+N or Insert)")
        self.add_button.clicked.connect(lambda: self.add_room())
        self.remove_button = QPushButton("Re&move room", self)
        self.remove_button.setObjectName("removeRoom")
        self.remove_button.setToolTip("Remove the selected room (Delete)")
        self.remove_button.clicked.connect(self._remove_current)
        keys_hint = QLabel(
            "Type in a cell; Tab to the next one, Ctrl+Tab out of the table. A letter picks the "
            "use (b: bedroom); Space ticks a box. Ctrl+N or Insert adds a room, Delete removes it.",
            self,
        )
        keys_hint.setObjectName("noteText")
        keys_hint.setWordWrap(True)
        room_buttons = QHBoxLayout()
        room_buttons.addWidget(self.add_button)
        room_buttons.addWidget(self.remove_button)
        room_buttons.addSpacing(12)
        room_buttons.addWidget(keys_hint, 1)

        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        # The unit's stated occupants (blank: the sleepers stated in its rooms).
        self.over_edit = QLineEdit(self)
        self.over_edit.setObjectName("statedOver12")
        self.under_edit = QLineEdit(self)
        self.under_edit.setObjectName("statedUnder12")
        for edit, name in ((self.over_edit, "over 12"), (self.under_edit, "under 12")):
            edit.setAccessibleName(f"Stated occupants {name}")
            edit.setPlaceholderText("from rooms")
            edit.setMaximumWidth(self.fontMetrics().horizontalAdvance("from rooms") + 28)
            edit.textChanged.connect(self._stated_changed)
        stated_label = QLabel("Stated occupants of the unit:", self)
        over_label = QLabel("&Over 12", self)
        over_label.setBuddy(self.over_edit)
        under_label = QLabel("&Under 12", self)
        under_label.setBuddy(self.under_edit)
        stated_note = self.stated_note
        stated = QHBoxLayout()
        stated.addWidget(stated_label)
        stated.addWidget(over_label)
        stated.addWidget(self.over_edit)
        stated.addSpacing(8)
        stated.addWidget(under_label)
        stated.addWidget(self.under_edit)
        stated.addSpacing(12)
        stated.addWidget(stated_note, 1)

        # The result.
        result_title = QLabel("Result", self)
        result_title.setObjectName("sectionTitle")
        self.result_label = QLabel(self)
        self.result_label.setObjectName("occupancyResult")
        self.result_label.setWordWrap(True)
        font = self.result_label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.result_label.setFont(font)
        self.figure_labels: dict[str, QLabel] = {}
        figures = QGridLayout()
        figures.setHorizontalSpacing(14)
        figures.setVerticalSpacing(2)
        for column, (key, title) in enumerate(
            (
                ("habitable", "Habitable floor area"),
                ("max", "Maximum occupants"),
                ("stated", "Stated occupants"),
                ("verdict", "Complies"),
            )
        ):
            caption = QLabel(title, self)
            caption.setObjectName("fieldLabel")
            value = QLabel(self)
            value.setObjectName(f"figure_{key}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.figure_labels[key] = value
            figures.addWidget(caption, 0, column)
            figures.addWidget(value, 1, column)
        figures.setColumnStretch(4, 1)
        self.shortfalls = QListWidget(self)
        self.shortfalls.setObjectName("occupancyShortfalls")
        self.shortfalls.setAccessibleName("Shortfalls")
        self.shortfalls.setWordWrap(True)
        self.shortfalls.setAlternatingRowColors(True)
        shortfalls_label = QLabel("S&hortfalls, by section and room", self)
        shortfalls_label.setObjectName("fieldLabel")
        shortfalls_label.setBuddy(self.shortfalls)

        self.print_button = QPushButton("&Print…", self)
        self.print_button.setObjectName("printOccupancy")
        self.print_button.setToolTip("Print the rooms and the result on one page (Ctrl+P)")
        self.print_button.clicked.connect(self.print_now)
        self.save_button = QPushButton("&Save as PDF…", self)
        self.save_button.setObjectName("saveOccupancy")
        self.save_button.clicked.connect(self.save_pdf)
        self.close_button = QPushButton("Close", self)
        self.close_button.clicked.connect(self.close)
        case_words = f"A&ttach to {self.for_case[1]}…" if self.for_case else "A&ttach to case…"
        licence_words = "Attach to &licence…"
        if self.for_licence:
            label = self.for_licence[1]  # RH-2026-0001, or "application #3"
            licence_words = (
                f"Attach to app&{label[3:]}…"
                if label.startswith("application")
                else f"Attach to &licence {label}…"
            )
        self.attach_case_button = QPushButton(case_words, self)
        self.attach_case_button.setObjectName("attachToCase")
        self.attach_case_button.setToolTip(
            "Keep this result with a code enforcement case; shortfalls become its violations"
        )
        self.attach_case_button.clicked.connect(lambda: self.attach("case"))
        self.attach_licence_button = QPushButton(licence_words, self)
        self.attach_licence_button.setObjectName("attachToLicence")
        self.attach_licence_button.setToolTip("Keep this result with a rooming house licence")
        self.attach_licence_button.clicked.connect(lambda: self.attach("licence"))
        self.attach_status = QLabel(self)
        self.attach_status.setObjectName("attachStatus")
        self.attach_status.setWordWrap(True)
        self.attach_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.attach_status.setVisible(False)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.attach_case_button)
        buttons.addWidget(self.attach_licence_button)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 14, 18, 14)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addSpacing(4)
        layout.addWidget(rooms_label)
        layout.addWidget(self.table, 3)
        layout.addLayout(room_buttons)
        layout.addWidget(self.error_label)
        layout.addLayout(stated)
        layout.addSpacing(6)
        layout.addWidget(result_title)
        layout.addWidget(self.result_label)
        layout.addLayout(figures)
        layout.addWidget(shortfalls_label)
        layout.addWidget(self.shortfalls, 1)
        layout.addWidget(self.attach_status)
        layout.addLayout(buttons)

        chain: list[QWidget] = [
            self.code_combo,
            self.table,
            self.add_button,
            self.remove_button,
            self.over_edit,
            self.under_edit,
            self.shortfalls,
            self.attach_case_button,
            self.attach_licence_button,
            self.print_button,
            self.save_button,
            self.close_button,
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)
        self.setFocusProxy(self.table)

    # --- the rooms ---------------------------------------------------------------------------

    def add_room(self, *, focus: bool = True) -> int:
        """A blank row, its name cell current (typing starts the name)."""
        row = self.model.add_room()
        index = self.model.index(row, 0)
        self.table.setCurrentIndex(index)
        if focus:
            self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.show_result()
        return row

    def remove_room(self, row: int) -> None:
        if not 0 <= row < len(self.presenter.rows):
            return
        column = max(self.table.currentIndex().column(), 0)
        self.model.remove_room(row)
        if self.presenter.rows:
            self.table.setCurrentIndex(
                self.model.index(min(row, len(self.presenter.rows) - 1), column)
            )
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        self.show_result()

    def _remove_current(self) -> None:
        index = self.table.currentIndex()
        if index.isValid():
            self.remove_room(index.row())

    def _show_code_columns(self) -> None:
        """Ch. 512's own cases (an attic half-story, a kitchen lit artificially) are columns only
        under that code: Hudson's screens cite no Ch. 512."""
        for column, key in enumerate(COLUMN_KEYS):
            if key in CH_512_ONLY:
                self.table.setColumnHidden(column, self.presenter.code != "ch-512")
        self.stated_note.setText(stated_note_text(self.presenter.code))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMN_KEYS) - 1)

    def _code_changed(self, _index: int) -> None:
        key = self.code_combo.currentData()
        if isinstance(key, str):
            self.presenter.set_code(key)
            self._show_code_columns()
            self.show_result()

    def _stated_changed(self, _text: str) -> None:
        self.presenter.set_stated(self.over_edit.text(), self.under_edit.text())
        self.show_result()

    def load_sample(self) -> None:
        """The screenshot's example: a small two-bedroom unit for three."""
        self.load_rooms(*sample_rows())

    def load_rooms(self, rows: list[RoomRow], over: str = "", under: str = "") -> None:
        """The rooms typed in (a licence's, the sample), the first one current."""
        for edit in (self.over_edit, self.under_edit):
            edit.blockSignals(True)
        self.over_edit.setText(over)
        self.under_edit.setText(under)
        for edit in (self.over_edit, self.under_edit):
            edit.blockSignals(False)
        self.presenter.load(rows, over, under)
        self.model.refresh()
        self.table.setCurrentIndex(self.model.index(0, 0))
        self.show_result()

    # --- the result --------------------------------------------------------------------------

    def show_result(self) -> None:
        p = self.presenter
        self.result_label.setText(p.result_text)
        self.result_label.setProperty(
            "state", "" if p.result is None else ("ok" if p.result.complies else "short")
        )
        style = "" if p.result is None or p.result.complies else "color: #b3261e;"
        self.result_label.setStyleSheet(style)
        figures = {
            "habitable": p.habitable_text,
            "max": p.max_text,
            "stated": p.stated_text,
            "verdict": "—" if p.result is None else ("yes" if p.result.complies else "no"),
        }
        for key, text in figures.items():
            self.figure_labels[key].setText(text)
        self.error_label.setText(p.error)
        self.error_label.setVisible(bool(p.error))
        for edit, key in ((self.over_edit, UNIT_OVER_12), (self.under_edit, UNIT_UNDER_12)):
            edit.setProperty("invalid", p.error_key == key)
            edit.setStyleSheet("border: 1px solid #b3261e;" if p.error_key == key else "")
        self.shortfalls.clear()
        lines = p.shortfall_lines()
        self.shortfalls.addItems(lines)
        if p.result is not None and not lines:
            self.shortfalls.addItem("None: the unit meets every standard checked.")
        self.print_button.setEnabled(p.can_print)
        self.save_button.setEnabled(p.can_print)
        may = p.can_print and allowed(self.session.actor, Permission.INSPECT_HOUSING)
        self.attach_case_button.setEnabled(may and self.for_licence is None)
        self.attach_licence_button.setEnabled(may and self.for_case is None)

    # --- attaching ---------------------------------------------------------------------------

    def attach(self, to: str) -> AttachResult | None:
        """The result attached to a case or a licence (the dialog asks which); the status line
        says what was recorded."""
        p = self.presenter
        if p.unit is None or p.result is None:
            return None
        context = PermitContext(self.database, self.session, 0, self.clock)
        target = self.for_case if to == "case" else self.for_licence
        number = target[1] if target else ""
        dialog = AttachDialog(context, to, unit_to_json(p.unit), p.code, number, self)
        done = actions.exec_dialog(dialog)
        result = dialog.outcome
        dialog.deleteLater()
        if not done or result is None:
            return None
        self.attach_status.setText(result.summary)
        self.attach_status.setVisible(True)
        self.attached.emit(result)
        return result

    # --- printing ----------------------------------------------------------------------------

    def _writer(self) -> Any:
        p = self.presenter
        unit, result = p.unit, p.result
        assert unit is not None and result is not None
        on = self.clock.today()
        with self.database.read() as conn:
            letterhead = queries.municipality_letterhead(conn, self.session.municipality_id)
        municipality = self.session.municipality_name
        by = self.session.full_name or self.session.actor.username
        code_name = p.code_label

        def write(path: Path) -> None:
            from reports.occupancy_result import render_occupancy_pdf  # reportlab: on first use

            render_occupancy_pdf(code_name, unit, result, municipality, letterhead, path, by, on)

        return write

    def _name(self) -> str:
        return f"occupancy-{self.clock.today().isoformat()}.pdf"

    def print_now(self) -> Path | None:
        """Ctrl+P: filed in the document folder, then straight to the print dialog."""
        if not self.presenter.can_print:
            dialogs.warn(self, TITLE, self.presenter.error or "Type the unit's rooms first.")
            return None
        return exports.print_now(self, TITLE, self._name(), self._writer(), SUBFOLDER)

    def save_pdf(self) -> Path | None:
        """Filed in the document folder and shown; its window saves a copy elsewhere."""
        if not self.presenter.can_print:
            return None
        return exports.save_and_open(
            self, TITLE, "", self._name(), self._writer(), subfolder=SUBFOLDER
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit()
        super().closeEvent(event)


def open_occupancy(
    database: Database,
    session: Session,
    clock: Clock,
    parent: QWidget | None = None,
    *,
    remember_geometry: bool = True,
    for_case: tuple[int, str] | None = None,
    for_licence: tuple[int, str] | None = None,
    code: str | None = None,
) -> OccupancyWindow:
    """The calculator under the municipality's housing code (settings), else Hudson ch. 140."""
    if code is None or code not in CODES:
        code = _municipality_code(database, session.municipality_id)
    return OccupancyWindow(
        database,
        session,
        clock,
        code,
        parent,
        remember_geometry=remember_geometry,
        for_case=for_case,
        for_licence=for_licence,
    )
