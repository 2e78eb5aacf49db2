"""Administration → Users (administrators): who works in the office, their roles, disabling a
user who left, locking and unlocking an account, resetting a password. File → Change my
password and the change a first or reset password requires use the PasswordDialog here too."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from db.changes import Change
from db.database import Database
from db.user_queries import UserRow, user_rows
from desk.clock import Clock
from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.errors import DeskError, StaleEdit
from desk.services import users
from ui import dialogs, focus
from ui.live import changed_text, watch_record
from ui.presenters.first_run import FieldError
from ui.presenters.session import ROLE_ORDER, Session
from ui.presenters.users import (
    ROLE_HELP,
    NewUser,
    UsersPresenter,
    check_passwords_match,
    save_with,
)
from ui.views.common import (
    LinesModel,
    button_row,
    enable_buttons,
    error_label,
    fit_columns,
    note_label,
    read_only_table,
    section_title,
    selected_row,
)

SECTION_TITLE = "Users"


def _password_edit(name: str) -> QLineEdit:
    edit = QLineEdit()
    edit.setObjectName(name)
    edit.setEchoMode(QLineEdit.EchoMode.Password)
    return edit


class _FormDialog(QDialog):
    """A dialog whose Save runs `save()` -> FieldError | None: the error is shown naming the
    field, and the cursor goes to that box."""

    def __init__(self, parent: QWidget | None, title: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.fields: dict[str, QWidget] = {}
        self.error_label = error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setDefault(True)
        self.buttons.accepted.connect(self.try_save)
        self.buttons.rejected.connect(self.reject)
        focus.install(self)  # opens in its first field, not on Save

    def save(self) -> FieldError | None:
        raise NotImplementedError

    def try_save(self) -> None:
        problem = self.save()
        if problem is None:
            self.accept()
            return
        self.error_label.setText(problem.message)
        self.error_label.setVisible(True)
        widget = self.fields.get(problem.field)
        if widget is not None:
            focus.focus_field(widget)


class UserDialog(_FormDialog):
    """Add a user (with a first password), or change a user's name, title and roles."""

    def __init__(
        self,
        parent: QWidget | None,
        database: Database,
        session: Session,
        clock: Clock,
        user: UserRow | None = None,
    ) -> None:
        super().__init__(parent, "Add user" if user is None else f"Change {user.full_name}")
        self.setObjectName("userDialog")
        self.database, self.session, self.clock, self.user = database, session, clock, user
        self.username_edit = QLineEdit(user.username if user else "")
        self.username_edit.setObjectName("username")
        self.username_edit.setReadOnly(user is not None)  # the audit trail knows them by it
        self.full_name_edit = QLineEdit(user.full_name if user else "")
        self.full_name_edit.setObjectName("full_name")
        self.title_edit = QLineEdit(user.title if user else "")
        self.title_edit.setObjectName("title")
        self.title_edit.setPlaceholderText("printed under the name, e.g. Building Inspector")
        self.role_boxes: dict[Role, QCheckBox] = {}
        roles = QVBoxLayout()
        roles.setSpacing(2)
        for role in ROLE_ORDER:
            box = QCheckBox(f"{role.label} — {ROLE_HELP[role]}")
            box.setObjectName(f"role_{role.value}")
            box.setChecked(user is not None and role in user.roles)
            self.role_boxes[role] = box
            roles.addWidget(box)
        form = QFormLayout()
        form.addRow("&User name", self.username_edit)
        form.addRow("&Full name", self.full_name_edit)
        form.addRow("&Title", self.title_edit)
        form.addRow("Roles", roles)
        self.fields = {
            "username": self.username_edit,
            "full_name": self.full_name_edit,
            "title": self.title_edit,
            "roles": self.role_boxes[ROLE_ORDER[0]],
        }
        self.password_edit = _password_edit("password")
        self.password_again_edit = _password_edit("password_again")
        if user is None:
            form.addRow("First &password", self.password_edit)
            form.addRow("Password (&again)", self.password_again_edit)
            self.fields["password"] = self.password_edit
            self.fields["password_again"] = self.password_again_edit
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        if user is None:
            rule = note_label(self)
            rule.setText(
                f"{users.PASSWORD_RULE} The user must choose their own at the first sign-in."
            )
            layout.addWidget(rule)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)
        (self.full_name_edit if user else self.username_edit).setFocus()
        if user is not None:
            watch_record(database, self, "user", user.id, self._changed_elsewhere)

    def _changed_elsewhere(self, change: Change) -> None:
        self.error_label.setText(changed_text(change, "user"))
        self.error_label.setVisible(True)

    def roles(self) -> frozenset[Role]:
        return frozenset(r for r, box in self.role_boxes.items() if box.isChecked())

    def form(self) -> NewUser:
        return NewUser(
            username=self.username_edit.text(),
            full_name=self.full_name_edit.text(),
            title=self.title_edit.text(),
            roles=self.roles(),
            password=self.password_edit.text(),
            password_again=self.password_again_edit.text(),
        )

    def save(self) -> FieldError | None:
        f = self.form()
        uow, clock, actor = self.database.uow, self.clock, self.session.actor
        if self.user is None:
            mismatch = check_passwords_match(f.password, f.password_again)
            return mismatch or save_with(
                lambda: users.create_user(
                    uow(),
                    clock,
                    actor,
                    username=f.username,
                    full_name=f.full_name,
                    title=f.title,
                    password=f.password,
                    roles=f.roles,
                )
            )
        user = self.user
        try:
            return save_with(
                lambda: users.edit_user(
                    uow(), clock, actor, user.id, f.full_name, f.title, f.roles, user.version
                )
            )
        except StaleEdit as e:
            if dialogs.offer_reload(self, self.windowTitle(), str(e)):
                self.reload()
            return FieldError("", str(e))

    def reload(self) -> None:
        """Show the user as the register has them now (after a save over a newer change)."""
        assert self.user is not None
        with self.database.read() as conn:
            now = next((r for r in user_rows(conn) if r.id == self.user.id), None)
        if now is None:
            return
        self.user = now
        self.full_name_edit.setText(now.full_name)
        self.title_edit.setText(now.title)
        for role, box in self.role_boxes.items():
            box.setChecked(role in now.roles)


class PasswordDialog(_FormDialog):
    """A new password twice, stating the rule; with the current password when it is one's own.
    `forced`: the first sign-in with a first or reset password (Cancel quits)."""

    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        heading: str,
        save: Callable[[str, str], None],
        *,
        ask_current: bool,
    ) -> None:
        super().__init__(parent, title)
        self.setObjectName("passwordDialog")
        self._save = save
        top = QLabel(heading)
        top.setWordWrap(True)
        self.current_edit = _password_edit("current")
        self.password_edit = _password_edit("password")
        self.password_again_edit = _password_edit("password_again")
        form = QFormLayout()
        if ask_current:
            form.addRow("&Current password", self.current_edit)
        form.addRow("&New password", self.password_edit)
        form.addRow("New password (&again)", self.password_again_edit)
        self.fields = {
            "current": self.current_edit,
            "password": self.password_edit,
            "password_again": self.password_again_edit,
        }
        rule = note_label(self)
        rule.setText(users.PASSWORD_RULE)
        layout = QVBoxLayout(self)
        layout.addWidget(top)
        layout.addLayout(form)
        layout.addWidget(rule)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)
        (self.current_edit if ask_current else self.password_edit).setFocus()

    def save(self) -> FieldError | None:
        new, again = self.password_edit.text(), self.password_again_edit.text()
        mismatch = check_passwords_match(new, again)
        return mismatch or save_with(lambda: self._save(self.current_edit.text(), new))


def change_own_password_dialog(
    parent: QWidget | None,
    database: Database,
    actor: Actor,
    clock: Clock,
    *,
    current: str = "",
) -> PasswordDialog:
    """File → Change my password; with `current` given (just typed at sign-in), the forced
    change of a first or reset password, which does not ask for it again."""
    forced = bool(current)
    dialog = PasswordDialog(
        parent,
        "Choose your password" if forced else "Change my password",
        "Your password was set by an administrator. Choose your own before you start; only "
        "you will know it."
        if forced
        else "Type your current password, then the new one twice.",
        lambda typed, new: users.change_own_password(
            database.uow(), clock, actor, current or typed, new
        ),
        ask_current=not forced,
    )
    return dialog


class UsersView(QWidget):
    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("usersView")
        self.database, self.session, self.clock = database, session, clock
        self.presenter = UsersPresenter.of(session.actor.user_id, [])
        self.model = LinesModel(self.presenter, self)
        self.model.colour = self.palette().color(self.palette().ColorRole.PlaceholderText)
        self.table = read_only_table(self, "usersTable", self.model)
        self.table.doubleClicked.connect(lambda _index: self.edit_user())
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._selection_changed())
        self.add_button = QPushButton("&Add user…")
        self.edit_button = QPushButton("&Change…")
        self.toggle_button = QPushButton("&Disable")
        self.lock_button = QPushButton("&Lock")
        self.reset_button = QPushButton("&Reset password…")
        buttons = button_row(
            ("addUser", self.add_button, self.add_user),
            ("editUser", self.edit_button, self.edit_user),
            ("toggleUser", self.toggle_button, self.toggle_active),
            ("lockUser", self.lock_button, self.toggle_lock),
            ("resetPassword", self.reset_button, self.reset_password),
        )
        QShortcut(QKeySequence("Ctrl+Shift+U"), self, self.add_user)
        intro = note_label(self)
        intro.setText(
            "Everyone who uses Permit Desk signs in as themselves: the history of every permit "
            "names who did what. A user who leaves is disabled, never deleted; an account whose "
            "password someone else may know is locked until another administrator unlocks it. "
            "The roles decide what each may do; an administrator may do everything."
        )
        self.note = note_label(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(section_title(SECTION_TITLE))
        layout.addWidget(intro)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)

    def load(self, select_id: int | None = None) -> None:
        keep = select_id
        if keep is None:
            current = self.presenter.user(selected_row(self.table))
            keep = current.id if current else None
        with self.database.read() as conn:
            rows = user_rows(conn)
        self.presenter = UsersPresenter.of(self.session.actor.user_id, rows, self.clock.now())
        self.model.set_presenter(self.presenter)
        fit_columns(self.table, stretch=(0,))
        row = self.presenter.row_of(keep) if keep is not None else -1
        if row >= 0:
            self.table.selectRow(row)
        self._selection_changed()

    def select_user(self, username: str) -> None:
        row = next(
            (i for i, line in enumerate(self.presenter.rows) if line.cells[1] == username), -1
        )
        if row >= 0:
            self.table.selectRow(row)

    def _selection_changed(self) -> None:
        row = selected_row(self.table)
        chosen = self.presenter.user(row) is not None
        self.toggle_button.setText(self.presenter.toggle_label(row))
        self.lock_button.setText(self.presenter.lock_label(row))
        enable_buttons(
            (
                (self.edit_button, (chosen, "" if chosen else "Choose a user first.")),
                (self.toggle_button, self.presenter.may_disable(row)),
                (self.lock_button, self.presenter.may_lock(row)),
                (self.reset_button, (chosen, "" if chosen else "Choose a user first.")),
            )
        )
        self.note.setText(self.presenter.describe(row))

    def _selected(self) -> UserRow | None:
        return self.presenter.user(selected_row(self.table))

    def _open(self, dialog: QDialog, select_id: int | None = None) -> None:
        """Window-modal, so the main window keeps painting; the list reloads on Save."""
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.load(select_id))
        dialog.open()

    def add_user(self) -> UserDialog:
        dialog = UserDialog(self, self.database, self.session, self.clock)
        dialog.accepted.connect(lambda: self.select_user(dialog.username_edit.text().strip()))
        self._open(dialog)
        return dialog

    def edit_user(self) -> UserDialog | None:
        user = self._selected()
        if user is None:
            return None
        dialog = UserDialog(self, self.database, self.session, self.clock, user)
        self._open(dialog, user.id)
        return dialog

    def toggle_lock(self) -> None:
        """Lock an account (asked first), or Unlock a locked one (nothing taken away: not
        asked)."""
        user = self._selected()
        if user is None:
            return
        if not user.locked and not dialogs.ask(
            self,
            "Lock user",
            f"Lock {user.full_name}'s account? They cannot sign in until an administrator "
            "unlocks it. Reset the password too if someone else may know it.",
        ):
            return
        act = users.unlock if user.locked else users.lock
        try:
            act(self.database.uow(), self.clock, self.session.actor, user.id)
        except DeskError as e:
            dialogs.warn(self, "Users", str(e))
        self.load(user.id)

    def toggle_active(self) -> None:
        """Disable, or Enable again."""
        user = self._selected()
        if user is None:
            return
        if user.active and not dialogs.ask(
            self,
            "Disable user",
            f"Disable {user.full_name}? They can no longer sign in, and are signed out at their "
            "next action if they are working now. Their name stays in every record.",
        ):
            return
        try:
            users.set_active(
                self.database.uow(), self.clock, self.session.actor, user.id, not user.active
            )
        except DeskError as e:
            dialogs.warn(self, "Users", str(e))
        self.load(user.id)

    def reset_password(self) -> PasswordDialog | None:
        user = self._selected()
        if user is None:
            return None
        dialog = PasswordDialog(
            self,
            f"Reset {user.full_name}'s password",
            f"A new password for {user.full_name} ({user.username}). Tell it to them in person; "
            "they must choose their own at the next sign-in.",
            lambda _current, new: users.reset_password(
                self.database.uow(), self.clock, self.session.actor, user.id, new
            ),
            ask_current=False,
        )
        self._open(dialog, user.id)
        return dialog
