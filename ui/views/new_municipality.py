"""New municipality: any Wisconsin city, village or town, from the first run (created with the
first administrator) or Administration → New municipality (created here). A thin view over
ui.presenters.new_municipality; the service checks again."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desk.clock import Clock
from desk.domain.model import Actor
from desk.services import setup
from desk.services.uow import UnitOfWork
from ui import focus
from ui.presenters.new_municipality import (
    KIND_CHOICES,
    LABELS,
    NOTES,
    NewMunicipalityForm,
    NewMunicipalityPresenter,
    housing_code_choices,
    permit_choices,
)
from ui.views.common import note_label, section_title

TITLE = "New municipality"
MNEMONICS = {
    "name": "&Name",
    "kind": "&Kind",
    "county": "C&ounty",
    "zip": "&ZIP",
    "placename": "&PLACENAME",
    "housing_code": "&Housing code",
    "ordinance": "Permit k&inds",
    "letterhead": "&Letterhead",
    "address": "A&ddress",
    "inspector_name": "Inspector's na&me",
    "inspector_title": "Inspector's &title",
}


class NewMunicipalityDialog(QDialog):
    """With `save` (uow, clock, actor): Create saves the municipality (its id in
    `presenter.created_id`). Without: Create accepts a valid form, and the caller creates it
    (the first run, with the first administrator)."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        form: NewMunicipalityForm | None = None,
        save: tuple[Callable[[], UnitOfWork], Clock, Actor] | None = None,
        ok_text: str = "&Create municipality",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("newMunicipalityDialog")
        self.setWindowTitle(f"{TITLE} — Permit Desk")
        self.presenter = NewMunicipalityPresenter(form)
        self._save = save
        self._filling = False
        self.fields: dict[str, QWidget] = {}

        heading = QLabel("A Wisconsin city, village or town", self)
        heading.setObjectName("dialogHeading")
        intro = note_label(self)
        intro.setText(
            "What it is, what its documents print, and what it administers. Everything here "
            "can be changed later under Administration → Municipality."
        )

        left = self._form()
        left.addRow(section_title("The municipality"))
        self._line(left, "name", "e.g. Westby")
        kind = QComboBox(self)
        for value, label in KIND_CHOICES:
            kind.addItem(label, value)
        self._choice(left, "kind", kind)
        self._choice(left, "county", self._county_box())
        self._line(left, "zip", "e.g. 54667")
        self._line(left, "placename", "e.g. CITY OF WESTBY")
        left.addRow(section_title("What it administers"))
        code = QComboBox(self)
        for value, label in housing_code_choices():
            code.addItem(label, value)
        self._choice(left, "housing_code", code)
        permits = QComboBox(self)
        for value, label in permit_choices():
            permits.addItem(label, value)
        self._choice(left, "ordinance", permits)

        right = self._form()
        right.addRow(section_title("What its documents print"))
        letterhead = self._text_box("letterhead", 4)
        self._add(right, "letterhead", letterhead)
        address = self._text_box("address", 3)
        address.setPlaceholderText("Street\nCity, WI ZIP")
        self._add(right, "address", address)
        self._line(right, "inspector_name", "who signs notices and permits")
        self._line(right, "inspector_title")

        columns = QHBoxLayout()
        columns.setSpacing(28)
        for half in (left, right):
            column = QVBoxLayout()
            column.addLayout(half)
            column.addStretch(1)
            columns.addLayout(column, 1)

        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        buttons = QDialogButtonBox(self)
        self.ok_button = QPushButton(ok_text, self)
        self.ok_button.setObjectName("createMunicipality")
        self.ok_button.setDefault(True)
        self.ok_button.setAutoDefault(True)
        buttons.addButton(self.ok_button, QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        assert cancel is not None
        self.ok_button.clicked.connect(self.submit)
        cancel.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(22, 16, 22, 14)
        layout.setSpacing(8)
        layout.addWidget(heading)
        layout.addWidget(intro)
        layout.addSpacing(4)
        layout.addLayout(columns)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        self.setMinimumWidth(940)
        self._fill()
        self.fields["name"].setFocus(Qt.FocusReason.OtherFocusReason)
        focus.install(self)

    # --- building ------------------------------------------------------------------------

    def _form(self) -> QFormLayout:
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setVerticalSpacing(7)
        form.setHorizontalSpacing(12)
        return form

    def _add(self, form: QFormLayout, key: str, widget: QWidget) -> None:
        widget.setObjectName(key)
        widget.setAccessibleName(LABELS[key])
        self.fields[key] = widget
        label = QLabel(MNEMONICS[key], self)
        label.setObjectName("fieldLabel")
        label.setBuddy(widget)
        if key not in NOTES:
            form.addRow(label, widget)
            return
        box = QWidget(self)
        box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        if isinstance(widget, QComboBox):
            column.addWidget(widget, 0, Qt.AlignmentFlag.AlignLeft)  # as wide as its choices
        else:
            column.addWidget(widget)
        hint = note_label(box)
        hint.setText(NOTES[key])
        column.addWidget(hint)
        form.addRow(label, box)

    def _line(self, form: QFormLayout, key: str, placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(self)
        edit.setPlaceholderText(placeholder)
        edit.textEdited.connect(lambda text: self._edited(key, text))
        self._add(form, key, edit)
        return edit

    def _choice(self, form: QFormLayout, key: str, box: QComboBox) -> None:
        if box.isEditable():  # the county: its text, typed or chosen
            box.currentTextChanged.connect(lambda text: self._edited(key, text))
        else:
            box.currentIndexChanged.connect(
                lambda _i: self._edited(key, str(box.currentData() or ""))
            )
        self._add(form, key, box)

    def _county_box(self) -> QComboBox:
        """The 72 counties; typing picks one ("ver" completes Vernon)."""
        box = QComboBox(self)
        box.setEditable(True)
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        box.addItems(list(setup.COUNTIES))
        box.setCurrentIndex(-1)
        box.setEditText("")
        line = box.lineEdit()
        assert line is not None
        line.setPlaceholderText("Type to choose, e.g. Vernon")
        completer = QCompleter(list(setup.COUNTIES), box)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.InlineCompletion)
        box.setCompleter(completer)
        box.setMaxVisibleItems(15)
        box.setMinimumContentsLength(16)  # "Fond du Lac", "Vernon Parish" typed in full
        # "vernon" typed is Vernon: the county as the list spells it, once the field is left.
        line.editingFinished.connect(lambda: self._spell_county(box))
        return box

    def _spell_county(self, box: QComboBox) -> None:
        typed = " ".join(box.currentText().split()).casefold()
        match = next((c for c in setup.COUNTIES if c.casefold() == typed), None)
        if match is not None and match != box.currentText():
            box.setCurrentIndex(box.findText(match))

    def _text_box(self, key: str, lines: int) -> QPlainTextEdit:
        box = QPlainTextEdit(self)
        box.setTabChangesFocus(True)
        box.setFixedHeight(box.fontMetrics().lineSpacing() * lines + 14)
        box.textChanged.connect(lambda: self._edited(key, box.toPlainText()))
        return box

    # --- showing -------------------------------------------------------------------------

    def _fill(self) -> None:
        """The form's values on screen (the letterhead and PLACENAME follow the name)."""
        f = self.presenter.form
        self._filling = True
        try:
            for key in ("name", "zip", "placename", "inspector_name", "inspector_title"):
                edit = self.fields[key]
                assert isinstance(edit, QLineEdit)
                if edit.text() != getattr(f, key):
                    edit.setText(getattr(f, key))
            for key in ("letterhead", "address"):
                box = self.fields[key]
                assert isinstance(box, QPlainTextEdit)
                if box.toPlainText() != getattr(f, key):
                    box.setPlainText(getattr(f, key))
            for key in ("kind", "housing_code", "ordinance"):
                combo = self.fields[key]
                assert isinstance(combo, QComboBox)
                combo.setCurrentIndex(max(0, combo.findData(getattr(f, key))))
            county = self.fields["county"]
            assert isinstance(county, QComboBox)
            if county.currentText() != f.county:
                county.setEditText(f.county)
        finally:
            self._filling = False
        error = self.presenter.error
        self.error_label.setText(error.message if error else "")
        self.error_label.setVisible(error is not None)
        self._fit()

    def _fit(self) -> None:
        """Tall enough for the notes and the error line when it shows: the dialog keeps the
        height it opened with, and the wrapped notes would be squeezed."""
        if self.isVisible() and self.error_label.isVisible():
            need = self.sizeHint().height()
            if need > self.height():
                self.resize(self.width(), need)

    def _edited(self, key: str, value: str) -> None:
        if self._filling:
            return
        self.presenter.set(key, value)
        if key in ("name", "kind"):
            self._fill()  # the letterhead and PLACENAME follow
        elif self.presenter.error is None and self.error_label.isVisible():
            self.error_label.setVisible(False)

    # --- saving --------------------------------------------------------------------------

    def submit(self) -> None:
        """Create (Enter): only a valid form closes the dialog; an error names its field and
        the focus goes there."""
        if self._save is None:
            ok = self.presenter.check() is None
        else:
            ok = self.presenter.save(*self._save)
        if ok:
            self.accept()
            return
        self._fill()
        error = self.presenter.error
        widget = self.fields.get(error.field) if error is not None else None
        if widget is not None:
            widget.setFocus(Qt.FocusReason.OtherFocusReason)
            if isinstance(widget, QLineEdit):
                widget.selectAll()


def new_municipality_dialog(
    parent: QWidget | None, uow: Callable[[], UnitOfWork], clock: Clock, actor: Actor
) -> NewMunicipalityDialog:
    """Administration → New municipality: created when the administrator presses Create."""
    return NewMunicipalityDialog(parent, save=(uow, clock, actor))
