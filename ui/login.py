"""Sign in: user name, password, Enter; the last user name is remembered on this workstation."""

from __future__ import annotations

from PySide6.QtCore import Qt
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
    def __init__(
        self,
        database: Database,
        parent: QWidget | None = None,
        *,
        note: str = "",
        username: str = "",
        remember: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("loginDialog")
        self.setWindowTitle("Sign in — Permit Desk")
        self.database = database
        self.remember = remember
        last = username or (settings.read_text(settings.LAST_USERNAME) if remember else "")
        self.presenter = LoginPresenter(self._sign_in, last)
        self.actor: Actor | None = None
        self.signed_in: users.SignIn | None = None
        self.first_password = ""  # kept only to change a first or reset password at once

        heading = QLabel("Sign in to Permit Desk")
        heading.setObjectName("dialogHeading")
        self.note_label = QLabel(note)
        self.note_label.setObjectName("noteText")
        self.note_label.setWordWrap(True)
        self.note_label.setVisible(bool(note))
        self.note_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.username_edit = QLineEdit(self.presenter.username)
        self.username_edit.setObjectName("username")
        self.password_edit = QLineEdit()
        self.password_edit.setObjectName("password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.error_label = QLabel()
        self.error_label.setObjectName("errorText")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)

        form = QFormLayout()
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
        if len(self.municipalities) > 1:
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

        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 16)
        layout.setSpacing(12)
        layout.addWidget(heading)
        layout.addWidget(self.note_label)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        self.setMinimumWidth(380)
        if self.presenter.focus_password:
            self.password_edit.setFocus()
        else:
            self.username_edit.setFocus()

    def _sign_in(self, username: str, password: str) -> Actor:
        self.signed_in = users.sign_in(self.database.uow(), SystemClock(), username, password)
        self.first_password = password if self.signed_in.must_change_password else ""
        return self.signed_in.actor

    def try_sign_in(self) -> None:
        actor = self.presenter.sign_in(self.username_edit.text(), self.password_edit.text())
        if actor is None:
            self.error_label.setText(self.presenter.error)
            self.error_label.setVisible(True)
            self.password_edit.selectAll()
            field = self.password_edit if self.username_edit.text().strip() else self.username_edit
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
