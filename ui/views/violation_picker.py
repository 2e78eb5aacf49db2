"""The inspection dialog's violation picker: an editable list of the housing code's items whose
completions are the items holding every typed word (section and title). Only an exact choice
counts: Down opens the completions (it never steps to the next item of the list), Enter
chooses the highlighted completion and never reaches the dialog's default button, and a text
that names no one item is marked and said (ui/presenters/violation_picker.py)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QCompleter, QWidget

from desk.housing.codes import Standard
from ui.presenters import violation_picker as vp

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_STEP = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
_MARK = "border: 1px solid #b3261e;"


class _WordsCompleter(QCompleter):
    """Shows the list as the picker filtered it, with no row highlighted until the inspector
    moves to one: Qt would highlight the first row starting with the text ('140-6' ->
    140-6A), and Enter would take it."""

    def splitPath(self, path: str) -> list[str]:
        return ["\x00"]  # starts no item: the prefix highlights none


class ViolationPicker(QComboBox):
    chosen = Signal()  # the text names one item (picked from the completions or typed)
    refused = Signal(str)  # Enter or Down on a text that names none: why, naming it

    def __init__(
        self, standards: Sequence[Standard], code_name: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.standards = list(standards)
        self.code_name = code_name
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.addItem("", None)
        for s in self.standards:
            self.addItem(vp.label(s), s.section)
        self.matches = QStringListModel([vp.label(s) for s in self.standards], self)
        completer = _WordsCompleter(self.matches, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        # The list is filtered here, by every word; the completer shows it as it is.
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.setCompleter(completer)
        self.words = completer
        completer.activated.connect(lambda _t: self._chosen())
        line = self.lineEdit()
        assert line is not None
        line.textEdited.connect(self._filter)
        self.currentIndexChanged.connect(lambda _i: self._chosen())

    # --- what is chosen --------------------------------------------------------------------

    def standard(self) -> Standard | None:
        return vp.exact(self.standards, self.currentText())

    def refusal(self) -> str:
        return vp.refusal(self.standards, self.currentText(), self.code_name)

    def clear_choice(self) -> None:
        self.setCurrentIndex(0)
        self.setEditText("")
        self.matches.setStringList([vp.label(s) for s in self.standards])
        self.mark(False)

    def mark(self, wrong: bool) -> None:
        self.setProperty("invalid", wrong)
        self.setStyleSheet(_MARK if wrong else "")

    @property
    def popup(self) -> QAbstractItemView:
        """The completions' list."""
        popup = self.words.popup()
        assert popup is not None
        return popup

    @property
    def popup_open(self) -> bool:
        return self.popup.isVisible()

    # --- keys ------------------------------------------------------------------------------

    def keyPressEvent(self, e: QKeyEvent) -> None:
        key = e.key()
        if self.popup_open:
            popup = self.popup
            if key in _ENTER and popup.currentIndex().isValid():
                # Left to the completer: it chooses the highlighted completion (ignored here,
                # it does; accepted, it would not) and the dialog never sees the key.
                e.ignore()
                return
            if key in _ENTER:  # none highlighted: nothing is chosen
                e.accept()
                popup.hide()
                self.check()
                return
            super().keyPressEvent(e)
            return
        if key in _ENTER:
            e.accept()  # never the dialog's default button
            self.check()
            return
        if key in _STEP and not e.modifiers() & Qt.KeyboardModifier.AltModifier:
            e.accept()  # never a silent step to the next item of the list
            if self.matches.rowCount():
                self.words.complete()
            else:
                self.check()
            return
        super().keyPressEvent(e)

    def wheelEvent(self, e: QWheelEvent) -> None:
        e.ignore()  # a wheel turned over the field would change the item unseen

    def check(self) -> bool:
        """True when the text names one item; else the field is marked and `refused` says why.
        An empty field is no choice and no mistake."""
        if not self.currentText().strip() or self.standard() is not None:
            self.mark(False)
            return True
        self.mark(True)
        self.refused.emit(self.refusal())
        return False

    def _filter(self, text: str) -> None:
        self.mark(False)
        self.matches.setStringList([vp.label(s) for s in vp.matching(self.standards, text)])
        self._chosen()  # the section typed in full names the item

    def _chosen(self) -> None:
        if self.standard() is not None:
            self.mark(False)
            self.chosen.emit()


__all__ = ["ViolationPicker"]
