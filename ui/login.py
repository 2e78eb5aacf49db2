"""Sign in: user name, password, Enter; the last user name is remembered on this workstation."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from db import queries
from db.database import Database
from desk.clock import SystemClock
from desk.domain.model import Actor
from desk.services import users
from ui import settings
from ui.presenters.login import LoginPresenter


class LoginDialog(QDialog):
    """Sign in; or, with `locked_name`, resume the locked session of `username` (the name
    fixed, its password only) or hand the workstation to someone else."""

    someone_else = Signal()  # locked: another person wants to sign in

    def __init__(
        self,
        database: Database,
        parent: QWidget | None = None,
        *,
        note: str = "",
        username: str = "",
        remember: bool = True,
        locked_name: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("loginDialog")
        self.setWindowTitle("Sign in — Permit Desk")
        self.database = database
        self.remember = remember and not locked_name
        last = username or (settings.read_text(settings.LAST_USERNAME) if remember else "")
        self.presenter = LoginPresenter(self._sign_in, last, locked_name=locked_name)
        self.locked = bool(locked_name)
        self.actor: Actor | None = None
        self.signed_in: users.SignIn | None = None
        self.first_password = ""  # kept only to change a first or reset password at once

        heading = QLabel(self.presenter.heading)
        heading.setObjectName("dialogHeading")
        self.note_label = QLabel(note)
        self.note_label.setObjectName("noteText")
        self.note_label.setWordWrap(True)
        self.note_label.setVisible(bool(note))
        self.note_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.username_edit = QLineEdit(self.presenter.username)
        self.username_edit.setObjectName("username")
        # Locked: the session's user name, shown, not editable (a wrong password counts
        # against that user only).
        self.username_label = QLabel(self.presenter.username)
        self.username_label.setObjectName("lockedUsername")
        self.password_edit = QLineEdit()
        self.password_edit.setObjectName("password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.error_label = QLabel()
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)

        form = QFormLayout()
        if self.locked:
            self.username_edit.setVisible(False)
            form.addRow("User name", self.username_label)
        else:
            self.username_label.setVisible(False)
            form.addRow("&User name", self.username_edit)
        form.addRow("&Password", self.password_edit)
        # A register with several municipalities: the one to work in, the last one used on
        # this computer first. The session works in one at a time (File → Switch municipality).
        with database.read() as conn:
            self.municipalities = queries.municipalities(conn)
        last = settings.read_text(settings.LAST_MUNICIPALITY) if remember else ""
        self.municipality_box = QComboBox()
        self.municipality_box.setObjectName("municipality")
        for mid, key, name in self.municipalities:
            self.municipality_box.addItem(name, mid)
            if key == last:
                self.municipality_box.setCurrentIndex(self.municipality_box.count() - 1)
        if len(self.municipalities) > 1 and not self.locked:
            form.addRow("&Municipality", self.municipality_box)
        else:
            self.municipality_box.setVisible(False)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.sign_in_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.sign_in_button.setText("Sign in")
        self.sign_in_button.setDefault(True)
        buttons.accepted.connect(self.try_sign_in)
        buttons.rejected.connect(self.reject)
        self.someone_else_button = buttons.addButton(
            "Someone &else", QDialogButtonBox.ButtonRole.ResetRole
        )
        self.someone_else_button.setObjectName("someoneElse")
        self.someone_else_button.setAutoDefault(False)  # Enter unlocks, never signs out
        self.someone_else_button.clicked.connect(self.someone_else)
        if self.locked:
            self.sign_in_button.setText("Unlock")
            buttons.button(QDialogButtonBox.StandardButton.Cancel).setVisible(False)
        else:
            self.someone_else_button.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 16)
        layout.setSpacing(12)
        layout.addWidget(heading)
        layout.addWidget(self.note_label)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        # Enter signs in: the default set again now the buttons are in the dialog (set before,
        # the dialog would make the first button in the focus chain its default).
        self.sign_in_button.setDefault(True)
        self.setMinimumWidth(380)
        if self.presenter.focus_password:
            self.password_edit.setFocus()
        else:
            # Typing replaces the last user's name: the next person at the counter types theirs.
            self.username_edit.selectAll()
            self.username_edit.setFocus()

    def reject(self) -> None:
        """Escape or the close button: a locked session stays locked (Someone else or the
        password are the ways out); a fresh sign-in is cancelled."""
        if not self.locked:
            super().reject()

    def _sign_in(self, username: str, password: str) -> Actor:
        self.signed_in = users.sign_in(self.database.uow(), SystemClock(), username, password)
        self.first_password = password if self.signed_in.must_change_password else ""
        return self.signed_in.actor

    def try_sign_in(self) -> None:
        name = self.username_label.text() if self.locked else self.username_edit.text()
        actor = self.presenter.sign_in(name, self.password_edit.text())
        if actor is None:
            self.error_label.setText(self.presenter.error)
            self.error_label.setVisible(True)
            self.password_edit.selectAll()
            filled = self.locked or self.username_edit.text().strip()
            field = self.password_edit if filled else self.username_edit
            field.setFocus()
            return
        self.actor = actor
        if self.remember:
            settings.write(settings.LAST_USERNAME, self.presenter.username)
            if self.municipality_key:
                settings.write(settings.LAST_MUNICIPALITY, self.municipality_key)
        self.accept()

    @property
    def municipality_id(self) -> int | None:
        """The municipality chosen to work in; None when the register has none yet."""
        data = self.municipality_box.currentData()
        return int(data) if data is not None else None

    @property
    def municipality_key(self) -> str:
        return next((k for i, k, _n in self.municipalities if i == self.municipality_id), "")
