"""Where the keyboard is in a form dialog, and how a mistake is said.

Every form dialog calls `install(dialog)` once: when it is shown, the cursor is in its first
field (in tab order), never on a button, so the clerk's first keystrokes land in the form and
Enter runs the dialog's default button, which saves only what the service accepts. A service's
ValidationError is said once, in the form's error line, with the field named as the form labels
it ("Check number: ..."), and the cursor goes to that field."""

from __future__ import annotations

import re
from collections.abc import Mapping

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)

from desk.errors import DeskError, ValidationError

INPUTS = (QLineEdit, QComboBox, QAbstractSpinBox, QPlainTextEdit, QTextEdit)


def is_input(widget: QWidget) -> bool:
    """A field one types or chooses in, that takes the focus by Tab and can be changed."""
    if not isinstance(widget, INPUTS) or not widget.isEnabled():
        return False
    if not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
        return False
    if widget.focusProxy() is not None:  # the line inside a combo or a date: the box counts
        return False
    if isinstance(widget, QLineEdit | QAbstractSpinBox | QPlainTextEdit | QTextEdit):
        return not widget.isReadOnly()
    return True


def first_input(dialog: QWidget) -> QWidget | None:
    """The first field of the dialog in tab order that is shown and can be changed."""
    widget = dialog.nextInFocusChain()
    for _ in range(5000):  # the chain is a circle; the bound only guards a broken one
        if widget is None or widget is dialog:
            return None
        if dialog.isAncestorOf(widget) and widget.isVisibleTo(dialog) and is_input(widget):
            return widget
        widget = widget.nextInFocusChain()
    return None


def settle(dialog: QDialog) -> None:
    """The cursor in the first field, unless the dialog put it in a field itself; Enter there
    presses the dialog's default button."""
    current = dialog.focusWidget()
    if current is None or not is_input(current) or not current.isVisibleTo(dialog):
        target = first_input(dialog)
        if target is not None:
            target.setFocus(Qt.FocusReason.TabFocusReason)
            if isinstance(target, QLineEdit):
                target.selectAll()  # a suggested value is replaced by what is typed
    ensure_default(dialog)


def ensure_default(dialog: QDialog) -> None:
    """Enter in a field presses the dialog's OK (its accept button), not whichever button
    comes first in the tab order, as Qt would choose when none is the default. Buttons keep
    their autoDefault: Enter on a button the clerk tabbed to ("Cancel", "Check again")
    presses that button, not OK behind it."""
    buttons = [b for b in dialog.findChildren(QPushButton) if b.window() is dialog]
    if any(b.isDefault() for b in buttons):
        return
    for box in dialog.findChildren(QDialogButtonBox):
        for button in box.buttons():
            if isinstance(button, QPushButton) and box.buttonRole(button) in _ACCEPTS:
                button.setDefault(True)
                return


_ACCEPTS = (QDialogButtonBox.ButtonRole.AcceptRole, QDialogButtonBox.ButtonRole.YesRole)


class _OnShow(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and watched is self.parent():
            assert isinstance(watched, QDialog)
            settle(watched)
        return False


def install(dialog: QDialog) -> None:
    """Settle the focus each time the dialog is shown (see the module's docstring)."""
    if getattr(dialog, "_focus_on_show", None) is None:
        watcher = _OnShow(dialog)
        dialog.installEventFilter(watcher)
        dialog._focus_on_show = watcher  # type: ignore[attr-defined]


# --- errors in words -----------------------------------------------------------------------


def _words(text: str) -> str:
    """A form label as words: "Check &number:" -> "Check number"."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip().rstrip(":").strip()


def _key(text: str) -> str:
    """A label or a field key compared loosely: "Parcel number (PIN)" ~ "parcel_number"."""
    text = re.sub(r"\(.*?\)", "", _words(text))
    return " ".join(text.replace("_", " ").lower().split())


def field_label(dialog: QWidget, widget: QWidget) -> str:
    """The words the form labels `widget` with, or "" (a check box names itself)."""
    for form in dialog.findChildren(QFormLayout):
        label = form.labelForField(widget)
        if isinstance(label, QLabel) and _words(label.text()):
            return _words(label.text())
    for label in dialog.findChildren(QLabel):
        if label.buddy() is widget and _words(label.text()):
            return _words(label.text())
    return ""


def find_field(
    dialog: QWidget, field: str, fields: Mapping[str, QWidget] | None = None
) -> QWidget | None:
    """The widget a service's error names: by the dialog's own map, else by its label."""
    if not field:
        return None
    fields = fields or {}
    for name in (field, field.replace("_", " "), field.replace(" ", "_")):
        if name in fields:
            return fields[name]
    wanted = _key(field)
    for form in dialog.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            item = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            text = label.widget() if label is not None else None
            widget = item.widget() if item is not None else None
            if isinstance(text, QLabel) and widget is not None and _key(text.text()) == wanted:
                return widget
    return None


def in_words(error: DeskError, label: str = "") -> str:
    """The error as the clerk reads it: a field error names the field as the form labels it
    (or its key in words), never the key a service uses ("check_number")."""
    if not isinstance(error, ValidationError) or not error.field:
        return str(error)
    name = label or error.field.replace("_", " ").strip()
    return f"{name[:1].upper()}{name[1:]}: {error.message}"


def show_error(
    dialog: QWidget,
    line: QLabel,
    error: DeskError,
    fields: Mapping[str, QWidget] | None = None,
) -> QWidget | None:
    """Say `error` once, in the form's error line; a field error puts the cursor in the field.
    The field, if one was found."""
    widget = None
    if isinstance(error, ValidationError):
        widget = find_field(dialog, error.field, fields)
    label = field_label(dialog, widget) if widget is not None else ""
    line.setText(in_words(error, label))
    line.setVisible(True)
    if widget is not None and widget.isEnabled():
        focus_field(widget)
    return widget


def focus_field(widget: QWidget) -> None:
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    if isinstance(widget, QLineEdit):
        widget.selectAll()
