"""Administration → Users, File → Change my password and the first-sign-in change: what the
list shows, and each form's checks before the service (which checks everything again)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from db.user_queries import UserRow
from desk.domain import sign_ins
from desk.domain.enums import Role
from desk.errors import ValidationError
from ui.presenters.first_run import FieldError
from ui.presenters.formatting import format_timestamp
from ui.presenters.registers import Line
from ui.presenters.session import ROLE_ORDER

COLUMNS = ("Name", "User name", "Title", "Roles", "State", "Last sign-in")

# What each role may do, in the words the add-user dialog shows beside its box.
ROLE_HELP: dict[Role, str] = {
    Role.CLERK: "takes applications and payments at the counter",
    Role.INSPECTOR: "reviews plans, issues permits, inspects",
    Role.ENGINEER: "keeps the parties and their credentials",
    Role.TREASURER: "reconciles turnovers, refunds, returned checks",
    Role.ADMINISTRATOR: "users, the municipality, fees and GL accounts",
}

# The service names fields in words; the dialogs know their boxes by these keys.
_FIELDS = {
    "user name": "username",
    "full name": "full_name",
    "title": "title",
    "roles": "roles",
    "password": "password",
    "password (again)": "password_again",
    "current password": "current",
    "new password": "password",
    "user": "user",
}


def roles_text(roles: frozenset[Role] | set[Role]) -> str:
    return ", ".join(r.label for r in ROLE_ORDER if r in roles)


def locked_text(row: UserRow) -> str:
    """Who locked the account and when: "Locked by Alex Administrator, 03/02/2026 9:05 AM"."""
    words = "Locked"
    if row.locked_by:
        words += f" by {row.locked_by}"
    if row.locked_at is not None:
        words += f", {format_timestamp(row.locked_at)}"
    return words


def state_text(row: UserRow) -> str:
    if not row.active:
        return "Disabled"
    if row.locked:
        return locked_text(row)
    return "Must change password" if row.must_change_password else "Active"


def wrong_passwords_text(row: UserRow, now: datetime | None) -> str:
    """The wrong passwords in a row that still count (they delay the next try, never lock)."""
    if now is None or row.last_failed_at is None:
        return ""
    count = sign_ins.failures_in_a_row(row.failed_sign_ins, row.last_failed_at, now)
    if not count:
        return ""
    words = f" {count} wrong password{'s' if count > 1 else ''} in a row, the last at "
    words += f"{format_timestamp(row.last_failed_at)}"
    wait = sign_ins.wait_before_next_try(row.failed_sign_ins, row.last_failed_at, now)
    if wait:
        words += f"; the next try is checked in {wait} seconds"
    quiet = int(sign_ins.QUIET.total_seconds() // 60)
    return words + f" (the count starts over {quiet} minutes after the last)."


def field_error(e: ValidationError) -> FieldError:
    return FieldError(
        _FIELDS.get(e.field, e.field), f"{e.field[:1].upper()}{e.field[1:]}: {e.message}"
    )


@dataclass
class UsersPresenter:
    """The list; the buttons follow the selected user (the services check again)."""

    me: int  # the signed-in administrator's user id
    rows: list[Line]
    columns: tuple[str, ...] = COLUMNS
    now: datetime | None = None  # for the wrong passwords that still count

    @classmethod
    def of(cls, me: int, users: Sequence[UserRow], now: datetime | None = None) -> UsersPresenter:
        return cls(
            me,
            [
                Line(
                    u,
                    (
                        u.full_name,
                        u.username,
                        u.title,
                        roles_text(u.roles),
                        state_text(u),
                        (
                            format_timestamp(u.last_sign_in_at)
                            if u.last_sign_in_at
                            else "Never signed in"
                        ),
                    ),
                    warn=not u.active or u.locked,
                )
                for u in users
            ],
            now=now,
        )

    def user(self, row: int) -> UserRow | None:
        if not 0 <= row < len(self.rows):
            return None
        item = self.rows[row].item
        return item if isinstance(item, UserRow) else None

    def row_of(self, user_id: int) -> int:
        return next((i for i, line in enumerate(self.rows) if line.item.id == user_id), -1)  # type: ignore[attr-defined]

    def may_disable(self, row: int) -> tuple[bool, str]:
        u = self.user(row)
        if u is None:
            return False, "Choose a user first."
        if u.id == self.me:
            return False, "You cannot disable your own account."
        return True, ""

    def toggle_label(self, row: int) -> str:
        u = self.user(row)
        return "&Enable" if u is not None and not u.active else "&Disable"

    def may_lock(self, row: int) -> tuple[bool, str]:
        """Lock, or Unlock a locked account; never one's own (the service checks again, and
        that the last administrator who can sign in is not locked)."""
        u = self.user(row)
        if u is None:
            return False, "Choose a user first."
        if u.id == self.me:
            if u.locked:
                return False, "Another administrator unlocks your account."
            return False, "You cannot lock your own account."
        return True, ""

    def lock_label(self, row: int) -> str:
        u = self.user(row)
        return "&Unlock" if u is not None and u.locked else "&Lock"

    def describe(self, row: int) -> str:
        """The selected user in full, under the list."""
        u = self.user(row)
        if u is None:
            return (
                f"{len(self.rows)} user(s). Choose one to change roles, disable or lock it, or "
                "reset its password."
            )
        since = format_timestamp(u.created_at) if u.created_at else "the start"
        words = f"{u.full_name} ({u.username}): {roles_text(u.roles)}. Added {since}."
        if not u.active:
            words += " Disabled: cannot sign in; kept, because the audit trail names them."
        if u.locked:
            words += (
                f" {locked_text(u)}: cannot sign in until an administrator unlocks the account "
                "(Unlock; Reset password too if someone else may know it)."
            )
        elif u.active and u.must_change_password:
            words += " Must choose a new password at the next sign-in."
        return words + wrong_passwords_text(u, self.now)


@dataclass(frozen=True)
class NewUser:
    username: str
    full_name: str
    title: str
    roles: frozenset[Role]
    password: str
    password_again: str


def check_passwords_match(password: str, again: str) -> FieldError | None:
    if password != again:
        return FieldError("password_again", "Password (again): the two passwords differ")
    return None


def save_with(action: Callable[[], object]) -> FieldError | None:
    """Run a service call; its validation error as the form's field error."""
    try:
        action()
    except ValidationError as e:
        return field_error(e)
    return None
