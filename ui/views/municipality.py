"""Administration → Municipality: the name, letterhead and address the documents print, who
signs them (with the signature image), the logo, and the municipality's settings. Administrators
only (the service checks again). Save (Ctrl+S) writes only what changed; Revert forgets the
edits; leaving with unsaved changes asks first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from db.changes import Change
from db.database import Database
from desk.clock import Clock
from desk.domain.backups import LABELS as BACKUP_LABELS
from desk.domain.municipality import LABELS, MAX_IMAGE_BYTES, ImageKind
from desk.domain.ordinances import SettingGroup, provides
from desk.enforcement.licences import FEE_LABEL
from desk.errors import DeskError
from desk.services.setup import COUNTIES
from ui import dialogs
from ui.live import changed_text
from ui.presenters.municipality import (
    CHOICE_FIELDS,
    FEE_DATES,
    FLAG_FIELDS,
    HELP,
    HOUSING_CODES,
    IMAGE_NOTE,
    PERIOD_PREFIX,
    PERIODS_HELP,
    REFUND_ORDER_ROLES,
    REPRINT_NOTE,
    TEXT_FIELDS,
    MunicipalityPresenter,
    period_label,
)
from ui.presenters.new_municipality import KIND_CHOICES
from ui.presenters.session import Session
from ui.reflow import Reflow, holder
from ui.views.common import note_label, section_title

SECTION_TITLE = "Municipality"
PREVIEW = {"logo": (220, 90), "signature": (220, 60)}
IMAGE_LABELS = {"signature": "Inspector's signature", "logo": "Logo"}
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg);;All files (*)"
# Hudson 140-10A: the Council sets the rooming-house licence fee; none is shipped.
FEE_KEY = "rooming_licence_fee"
OWN_LABELS = {FEE_KEY: FEE_LABEL, **BACKUP_LABELS}
OWN_HELP = {
    FEE_KEY: "Charged when the City Clerk issues a rooming-house licence (Hudson 140-10A); set "
    "by the Council. Empty: not set, and no licence can be issued; 0.00: no fee.",
}


# The Settings rows of each group of desk.domain.ordinances, shown when an ordinance gives it.
SETTING_GROUP_FIELDS = {
    SettingGroup.PERMIT_FEES: (
        "fees_due_section",  # 15.1.21
        "no_refund_once_issued",
        "plumbing_clerical",  # 15.1.42
        "withdrawn_refund",
        "denied_refund",
        "admin_cost_account",  # the 40% of 15.1.21
        "refund_order_role",  # 15.1.43
        "fee_schedule_date",
        "c404_high_value",
    ),
    SettingGroup.VACATE: ("vacate_days",),  # Hudson 140-11C
    SettingGroup.ROOMING_FEE: (FEE_KEY,),  # Hudson 140-10A
}


class MunicipalityView(QWidget):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("municipalityView")
        self.presenter = MunicipalityPresenter(
            database.uow, clock, session.actor, session.municipality_id
        )
        self.loaded = False
        self._filling = False
        self.fields: dict[str, QWidget] = {}
        self.previews: dict[str, QLabel] = {}
        self.image_texts: dict[str, QLabel] = {}
        self.remove_buttons: dict[str, QPushButton] = {}

        heading = QLabel(SECTION_TITLE, self)
        heading.setObjectName("viewHeading")
        self.reprint_note = note_label(self)
        self.reprint_note.setText(REPRINT_NOTE)

        # One form per column, the groups' titles spanning it: the labels line up.
        left = self._form()
        left.addRow(section_title("Identity"))
        self._line(left, "name")
        letterhead = self._text_box("letterhead", 4)
        letterhead.setPlaceholderText("One line each; the first is printed bold")
        left.addRow(self._label("letterhead", letterhead), letterhead)
        address = self._text_box("address", 3)
        address.setPlaceholderText("Street\nCity, state and ZIP")
        left.addRow(self._label("address", address), address)
        left.addRow(self._gap())
        left.addRow(section_title("People who sign"))
        self._line(left, "inspector_name")
        self._line(left, "inspector_title")
        left.addRow(self._label("signature"), self._image_row("signature"))
        self._line(left, "treasurer_name")
        left.addRow(self._gap())
        left.addRow(section_title("Logo"))
        left.addRow(self._label("logo"), self._image_row("logo"))
        left.addRow(self._gap())
        left.addRow(section_title("Backups"))
        self._backup_folder_row(left)
        self._line(left, "backup_keep", "14")
        self._line(left, "backup_overdue_days", "days")

        right = self._form()
        # What the municipality is and enforces; its permit kinds are set up with it.
        right.addRow(section_title("The municipality and its code"))
        self._combo(right, "kind", [("(not set)", ""), *((t, k) for k, t in KIND_CHOICES)])
        self._combo(right, "county", [("(not set)", ""), *((c, c) for c in COUNTIES)])
        self._line(right, "placename", "e.g. CITY OF WESTBY")
        self._combo(right, "housing_code", [(t, k) for k, t in HOUSING_CODES])
        self.permits_label = note_label(self)
        self.permits_label.setObjectName("permitKinds")
        self.permits_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        permits_title = QLabel("Permit kinds", self)
        permits_title.setObjectName("fieldLabel")
        right.addRow(permits_title, self.permits_label)
        right.addRow(self._gap())
        right.addRow(section_title("Settings"))
        self._line(right, "fees_due_section", "the ordinance's section")
        self._flag(right, "no_refund_once_issued", "In force")
        self._line(right, "plumbing_clerical", "e.g. 10.00; empty: no such rule")
        self._line(right, "withdrawn_refund", "full, none or less N")
        self._line(right, "denied_refund", "full, none or less N")
        self._line(right, "nsf_charge", "0.00")
        self._line(right, "admin_cost_account", "empty, or e.g. 100-44390")
        self._combo(right, "refund_order_role", [(t, v) for v, t in REFUND_ORDER_ROLES])
        self._line(right, "vacate_days", "days")
        combo = QComboBox(self)
        combo.setObjectName("fee_schedule_date")
        for value, text in FEE_DATES:
            combo.addItem(text, value)
        combo.currentIndexChanged.connect(
            lambda _i: self._edited("fee_schedule_date", combo.currentData())
        )
        self.fields["fee_schedule_date"] = combo
        right.addRow(
            self._label("fee_schedule_date", combo), self._with_help(combo, "fee_schedule_date")
        )
        self._line(right, "c404_high_value", "whole dollars")
        self._line(right, FEE_KEY, "empty: not set by the Council")
        self._flag(right, "office_open_saturdays", "Saturday office hours")
        self._line(right, "idle_lock_minutes", "minutes; 0: never")
        # The office's own periods of review and appeal (Ch. 512: Wis. Stat. ch. 68), built
        # on load for the code the municipality enforces; none for Hudson 140-3.
        self.right_form = right
        self.period_rows: list[QWidget] = []
        self.period_keys: tuple[str, ...] = ()

        parts = []
        for form in (left, right):
            column = QVBoxLayout()  # the shorter column's rows stay together at the top
            column.addLayout(form)
            column.addStretch(1)
            parts.append(holder(self, column))
        # Two columns at 1366 px, one above the other at 1024: never scrolled sideways.
        self.columns = Reflow(parts[0], parts[1], self, spacing=32)

        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.status_label = note_label(self)
        self.save_button = QPushButton("&Save", self)
        self.save_button.setObjectName("saveMunicipality")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.revert_button = QPushButton("&Revert", self)
        self.revert_button.setObjectName("revertMunicipality")
        self.revert_button.clicked.connect(self.revert)
        # Save and Revert beside the heading: in sight however far the form is scrolled.
        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(self.revert_button)
        top.addWidget(self.save_button)

        self.save_action = QAction("Save", self)
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.save_action.triggered.connect(self.save)
        self.addAction(self.save_action)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 18)
        layout.addLayout(top)
        layout.addWidget(self.reprint_note)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        layout.addSpacing(8)
        layout.addWidget(self.columns)
        layout.addStretch(1)
        self._update_buttons()

    # --- building ------------------------------------------------------------------------

    def _form(self) -> QFormLayout:
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setVerticalSpacing(8)
        form.setHorizontalSpacing(14)
        return form

    def _gap(self) -> QWidget:
        gap = QWidget(self)
        gap.setFixedHeight(10)
        return gap

    def _label(self, key: str, buddy: QWidget | None = None) -> QLabel:
        label = QLabel(IMAGE_LABELS.get(key) or OWN_LABELS.get(key) or LABELS[key], self)
        label.setObjectName("fieldLabel")
        if buddy is not None:
            label.setBuddy(buddy)
        return label

    def _with_help(self, widget: QWidget, key: str) -> QWidget:
        if key not in HELP and key not in OWN_HELP:
            return widget
        box = QWidget(self)
        box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        if isinstance(widget, QLineEdit):
            layout.addWidget(widget)
        else:
            layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignLeft)  # a check box, a combo
        hint = note_label(box)
        hint.setText(HELP.get(key) or OWN_HELP[key])
        layout.addWidget(hint)
        return box

    def _line(self, form: QFormLayout, key: str, placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(key)
        edit.setPlaceholderText(placeholder)
        edit.textEdited.connect(lambda text: self._edited(key, text))
        self.fields[key] = edit
        form.addRow(self._label(key, edit), self._with_help(edit, key))
        return edit

    def _flag(self, form: QFormLayout, key: str, text: str) -> QCheckBox:
        flag = QCheckBox(text, self)
        flag.setObjectName(key)
        flag.toggled.connect(lambda on: self._edited(key, on))
        self.fields[key] = flag
        form.addRow(self._label(key), self._with_help(flag, key))
        return flag

    def _combo(self, form: QFormLayout, key: str, choices: list[tuple[str, str]]) -> QComboBox:
        """A choice of the form (typing the first letters picks one: "Ver" is Vernon)."""
        combo = QComboBox(self)
        combo.setObjectName(key)
        for text, value in choices:
            combo.addItem(text, value)
        combo.setMaxVisibleItems(15)
        combo.currentIndexChanged.connect(lambda _i: self._edited(key, combo.currentData()))
        self.fields[key] = combo
        form.addRow(self._label(key, combo), self._with_help(combo, key))
        return combo

    def _text_box(self, key: str, lines: int) -> QPlainTextEdit:
        box = QPlainTextEdit(self)
        box.setObjectName(key)
        box.setTabChangesFocus(True)
        box.setFixedHeight(box.fontMetrics().lineSpacing() * lines + 14)
        box.textChanged.connect(lambda: self._edited(key, box.toPlainText()))
        self.fields[key] = box
        return box

    def _image_row(self, kind: str) -> QWidget:
        box = QWidget(self)
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        preview = QLabel(box)
        preview.setObjectName(f"{kind}Preview")
        preview.setFixedSize(*PREVIEW[kind])
        preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        preview.setStyleSheet("background: white; border: 1px solid #d8dde4;")
        choose = QPushButton("Choose…", box)
        choose.setObjectName(f"choose_{kind}")
        choose.clicked.connect(lambda: self.choose_image(kind))
        remove = QPushButton("Remove", box)
        remove.setObjectName(f"remove_{kind}")
        remove.clicked.connect(lambda: self.remove_image(kind))
        text = note_label(box)
        grid.addWidget(preview, 0, 0, 3, 1)
        grid.addWidget(choose, 0, 1)
        grid.addWidget(remove, 1, 1)
        grid.addWidget(text, 3, 0, 1, 2)
        grid.setColumnStretch(2, 1)
        self.previews[kind] = preview
        self.image_texts[kind] = text
        self.remove_buttons[kind] = remove
        self.fields[kind] = choose
        return box

    def heightForWidth(self, width: int) -> int:
        # QFormLayout under-reports what its wrapped notes need, and the scroll area would cut
        # them when the error line shows: never less than the page's own size hint.
        return max(super().heightForWidth(width), self.sizeHint().height())

    # --- showing -------------------------------------------------------------------------

    def load(self) -> None:
        try:
            self.presenter.load()
        except DeskError as e:
            dialogs.warn(self, SECTION_TITLE, str(e))
            return
        self.loaded = True
        self._fill()

    def _seed_fee(self) -> None:
        """The fee is not among the presenter's fields: put its saved text in the form, so
        that Save sends it only when edited (the service parses and checks it)."""
        p = self.presenter
        if p.settings is None or FEE_KEY in p.saved_form:
            return
        fee = p.settings.rooming_licence_fee
        text = "" if fee is None else f"{fee:,.2f}"
        p.saved_form[FEE_KEY] = text
        p.form.setdefault(FEE_KEY, text)

    def _build_periods(self) -> None:
        """One field per period the office may set, for the saved housing code (rebuilt when
        the code changes); empty shows the statute's days."""
        p = self.presenter
        keys = tuple(x.key for x in p.periods)
        if keys == self.period_keys:
            return
        for widget in self.period_rows:
            self.right_form.removeRow(widget)
        for key in [k for k in self.fields if k.startswith(PERIOD_PREFIX)]:
            del self.fields[key]
        self.period_rows = []
        self.period_keys = keys
        if not keys:
            return
        title = section_title(p.periods_title)
        hint = note_label(self)
        hint.setText(PERIODS_HELP)
        self.right_form.addRow(title)
        self.right_form.addRow(hint)
        self.period_rows = [title, hint]
        for period in p.periods:
            key = PERIOD_PREFIX + period.key
            edit = QLineEdit(self)
            edit.setObjectName(key)
            edit.setPlaceholderText(f"{period.days} days (the statute's)")
            edit.setToolTip(f"Counted from {period.counted_from}.")
            edit.textEdited.connect(lambda text, k=key: self._edited(k, text))
            label = QLabel(period_label(period), self)
            label.setObjectName("fieldLabel")
            label.setWordWrap(True)
            label.setBuddy(edit)
            self.fields[key] = edit
            self.right_form.addRow(label, edit)
            self.period_rows.append(edit)

    def _fill(self) -> None:
        p = self.presenter
        self._seed_fee()
        self._build_periods()
        self._filling = True
        try:
            for key in [k for k in self.fields if k.startswith(PERIOD_PREFIX)]:
                period_edit = self.fields[key]
                assert isinstance(period_edit, QLineEdit)
                period_edit.setText(str(p.form.get(key, "")))
            fee = self.fields[FEE_KEY]
            assert isinstance(fee, QLineEdit)
            fee.setText(str(p.form.get(FEE_KEY, "")))
            for key in TEXT_FIELDS:
                widget = self.fields[key]
                value = str(p.form.get(key, ""))
                if isinstance(widget, QPlainTextEdit):
                    if widget.toPlainText() != value:
                        widget.setPlainText(value)
                elif isinstance(widget, QLineEdit):
                    widget.setText(value)
            for key in FLAG_FIELDS:
                flag = self.fields[key]
                assert isinstance(flag, QCheckBox)
                flag.setChecked(bool(p.form.get(key)))
            for key in CHOICE_FIELDS:
                combo = self.fields[key]
                assert isinstance(combo, QComboBox)
                combo.setCurrentIndex(max(0, combo.findData(p.form.get(key))))
            self.permits_label.setText(p.permits_text)
        finally:
            self._filling = False
        self._show_groups_provided()
        for kind in ("logo", "signature"):
            self._show_image(kind)
        self.error_label.setText(p.error)
        self.error_label.setVisible(bool(p.error))
        self.status_label.setText(" ".join(x for x in (p.message, p.version_text) if x))
        self._update_buttons()

    def _show_groups_provided(self) -> None:
        """Only the settings of the municipality's own ordinances: Glendale's screen has no
        vacate period or rooming-house fee (Hudson ch. 140), Hudson's no permit fee rules."""
        s = self.presenter.settings
        if s is None:
            return
        shown = provides(s.ordinance, {"housing_code": s.housing_code})
        for group, keys in SETTING_GROUP_FIELDS.items():
            for key in keys:
                widget = self.fields.get(key)
                box = widget.parentWidget() if widget is not None else None  # _with_help's
                if box is not None:
                    self.right_form.setRowVisible(box, shown.shows(group))

    def _show_image(self, kind: str) -> None:
        content = self.presenter.shown_image(kind)
        preview = self.previews[kind]
        pixmap = QPixmap()
        if content and pixmap.loadFromData(content):
            preview.setPixmap(
                pixmap.scaled(
                    preview.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
        else:
            preview.clear()
            preview.setText("(none)")
        self.image_texts[kind].setText(f"{self.presenter.image_text(kind)} {IMAGE_NOTE}")
        self.remove_buttons[kind].setEnabled(content is not None)

    def _update_buttons(self) -> None:
        dirty = self.presenter.dirty
        self.save_button.setEnabled(dirty)
        self.revert_button.setEnabled(dirty)

    def _edited(self, key: str, value: Any) -> None:
        if self._filling:
            return
        self.presenter.set(key, value)
        self._update_buttons()

    # --- actions -------------------------------------------------------------------------

    def save(self) -> bool:
        if not self.presenter.dirty:
            return True
        ok = self.presenter.save()
        self._fill()
        if not ok and self.presenter.stale:
            if dialogs.offer_reload(self, SECTION_TITLE, self.presenter.error):
                self.presenter.load()
                self._fill()
                self._update_buttons()
        elif not ok:
            self._focus_error()
        return ok

    def _focus_error(self) -> None:
        field = self.presenter.error_field
        if not field and self.presenter.error.startswith(f"{FEE_LABEL}:"):
            field = FEE_KEY
        widget = self.fields.get(field)
        if widget is not None:
            widget.setFocus(Qt.FocusReason.OtherFocusReason)
            if isinstance(widget, QLineEdit):
                widget.selectAll()

    def revert(self) -> None:
        self.presenter.revert()
        self._fill()

    def choose_image(self, kind: str) -> None:
        label = ImageKind(kind).label
        path = dialogs.choose_file(self, f"Choose the {label.lower()} (PNG or JPEG)", IMAGE_FILTER)
        if not path:
            return
        try:
            with open(path, "rb") as f:
                content = f.read(MAX_IMAGE_BYTES + 1)  # enough to say it is too big
        except OSError as e:
            dialogs.warn(self, SECTION_TITLE, f"{label}: cannot read {path} ({e.strerror})")
            return
        if not self.presenter.choose_image(kind, content, Path(path).name):
            self._fill()
            self._focus_error()
            return
        self._fill()

    def _backup_folder_row(self, form: QFormLayout) -> None:
        """The backup folder, typed or chosen (a second disk or a share)."""
        edit = QLineEdit(self)
        edit.setObjectName("backup_folder")
        edit.setPlaceholderText("a second disk or a share")
        edit.textEdited.connect(lambda text: self._edited("backup_folder", text))
        self.fields["backup_folder"] = edit
        choose = QPushButton("Choose…", self)
        choose.setObjectName("chooseBackupFolder")
        choose.clicked.connect(self.choose_backup_folder)
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        line = QHBoxLayout()
        line.addWidget(edit, 1)
        line.addWidget(choose)
        column.addLayout(line)
        hint = note_label(box)
        hint.setText(HELP["backup_folder"])
        column.addWidget(hint)
        form.addRow(self._label("backup_folder", edit), box)

    def choose_backup_folder(self) -> None:
        edit = self.fields["backup_folder"]
        assert isinstance(edit, QLineEdit)
        folder = dialogs.choose_folder(self, "Choose the backup folder", edit.text())
        if folder:
            edit.setText(str(Path(folder)))
            self._edited("backup_folder", edit.text())

    def remove_image(self, kind: str) -> None:
        self.presenter.remove_image(kind)
        self._fill()

    def changed_elsewhere(self, change: Change) -> None:
        """Saved by another administrator: shown at once when nothing is being edited here;
        with unsaved edits, the screen says so before more is typed over it."""
        if not self.presenter.dirty:
            self.load()
            return
        self.error_label.setText(changed_text(change, "municipality's settings"))
        self.error_label.setVisible(True)

    def confirm_leave(self) -> bool:
        """True when the view may be left: nothing unsaved, or the user lets the edits go."""
        if not self.presenter.dirty:
            return True
        if dialogs.ask(
            self,
            SECTION_TITLE,
            "The municipality has changes that are not saved. Leave without saving them?",
        ):
            self.revert()
            return True
        return False
