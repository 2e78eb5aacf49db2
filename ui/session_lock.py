"""A counter PC left signed in: after some minutes without keyboard or mouse the main window
hides its work behind the sign-in dialog. The same user's password resumes the session as it
was (open forms kept); "Someone else" signs the session out for the next person."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QDialog, QMainWindow, QWidget

from db.database import Database
from ui import dialogs
from ui.login import LoginDialog

# What counts as someone at the keyboard (a window repainting or a timer firing does not).
_INPUT = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseMove,
        QEvent.Type.Wheel,
        QEvent.Type.TouchBegin,
        QEvent.Type.TabletPress,
    }
)


class IdleWatch(QObject):
    """Application-wide: any key or mouse input starts the countdown again; `idle` when it runs
    out. An interval of 0 never fires (the municipality's "0: never")."""

    idle = Signal()

    def __init__(self, interval_ms: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(max(interval_ms, 0))
        self.timer.timeout.connect(self.idle)
        self.enabled = interval_ms > 0
        app = QApplication.instance()
        if self.enabled and app is not None:
            app.installEventFilter(self)
            self.timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _INPUT and self.timer.isActive():
            self.timer.start()  # from the full interval again
        return False

    def pause(self) -> None:
        self.timer.stop()

    def resume(self) -> None:
        if self.enabled:
            self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        app = QApplication.instance()
        if self.enabled and app is not None:
            app.removeEventFilter(self)
        self.enabled = False


class SessionLock(QObject):
    """The main window's lock: `lock()` hides the window's content and every other window,
    and asks for the session user's password."""

    locked_changed = Signal(bool)

    def __init__(
        self,
        window: QMainWindow,
        database: Database,
        username: str,
        full_name: str,
        interval_ms: int,
        *,
        unsaved_forms: Callable[[], list[str]],
        sign_out: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.database = database
        self.username = username
        self.full_name = full_name or username
        self.unsaved_forms = unsaved_forms
        self._sign_out = sign_out
        self.watch = IdleWatch(interval_ms, self)
        self.watch.idle.connect(self.lock)
        self.dialog: LoginDialog | None = None
        self.hidden: list[QWidget] = []  # the windows hidden by the lock, shown again on resume
        # A dialog is not hidden (hiding ends the exec() that may be waiting on it, as Cancel
        # would): its content is.
        self.covered: list[QDialog] = []
        self.hidden_parts: list[QWidget] = []

    @property
    def locked(self) -> bool:
        return self.dialog is not None

    def lock(self) -> LoginDialog:
        if self.dialog is not None:
            return self.dialog
        self.watch.pause()
        popup = QApplication.activePopupWidget()
        if popup is not None:
            popup.close()  # an open menu or list would show through
        shown = [
            w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not self.window
        ]
        self.covered = [w for w in shown if isinstance(w, QDialog)]
        self.hidden = [w for w in shown if not isinstance(w, QDialog)]
        for w in self.hidden:
            w.hide()
        direct = Qt.FindChildOption.FindDirectChildrenOnly
        self.hidden_parts = [
            part
            for dialog in self.covered
            for part in dialog.findChildren(QWidget, options=direct)
            if part.isVisible() and not part.isWindow()
        ]
        for part in self.hidden_parts:
            part.hide()
        central = self.window.centralWidget()
        if central is not None:
            central.setVisible(False)
        self.window.menuBar().setEnabled(False)
        self.window.statusBar().clearMessage()
        dialog = LoginDialog(
            self.database, self.window, username=self.username, locked_name=self.full_name
        )
        dialog.setObjectName("lockDialog")
        unsaved = self.unsaved_forms()
        if unsaved:
            dialog.note_label.setText(
                f"Someone else signs {self.full_name} out: the unsaved "
                f"{' and '.join(unsaved)} will be lost."
            )
            dialog.note_label.setVisible(True)
        dialog.accepted.connect(self._resume)
        dialog.someone_else.connect(self.someone_else)
        self.dialog = dialog
        self.locked_changed.emit(True)
        dialog.open()  # window-modal: nothing behind it takes input
        return dialog

    def _resume(self) -> None:
        dialog = self.dialog
        if dialog is None or dialog.actor is None:
            return
        self.dialog = None
        dialog.deleteLater()
        central = self.window.centralWidget()
        if central is not None:
            central.setVisible(True)
        self.window.menuBar().setEnabled(True)
        for w in self.hidden:
            w.show()
        for part in self.hidden_parts:
            part.show()
        self.hidden, self.covered, self.hidden_parts = [], [], []
        self.window.activateWindow()
        self.watch.resume()
        self.locked_changed.emit(False)

    def someone_else(self) -> bool:
        """Sign this session out for another person; its unsaved forms are lost, so that is
        asked first. False when the person went back."""
        unsaved = self.unsaved_forms()
        if unsaved and not dialogs.ask(
            self.dialog,
            "Someone else",
            f"{self.full_name}'s unsaved {' and '.join(unsaved)} will be lost. Sign "
            f"{self.full_name} out?",
        ):
            return False
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.done(LoginDialog.DialogCode.Rejected)  # reject() is refused while locked
            dialog.deleteLater()
        for covered in self.covered:
            covered.done(QDialog.DialogCode.Rejected)  # its exec() ends as with Cancel
        # The other windows, `hidden` among them, close with the main window
        # (MainWindow.closeEvent), their unsaved edits discarded as confirmed.
        self.covered, self.hidden_parts = [], []
        self.watch.stop()
        self._sign_out(f"{self.full_name} was signed out for someone else.")
        return True

    def stop(self) -> None:
        self.watch.stop()
