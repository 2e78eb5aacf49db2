"""Errors a service raises. Each carries a message a clerk can read."""

from __future__ import annotations


class DeskError(Exception):
    """Base class: a rule or an input stopped the action. `str()` is the user-facing message."""


class ValidationError(DeskError):
    """Bad input. `field` names the form field, so the UI can point at it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class DuplicateRecord(ValidationError):
    """The record would repeat one the register already holds under a number that must be
    unique: `existing_id` is that record, so a form can offer to use it instead."""

    def __init__(self, field: str, message: str, existing_id: int) -> None:
        super().__init__(field, message)
        self.existing_id = existing_id


class PermissionDenied(DeskError):
    """The acting user's roles do not allow the action. Checked in the service, not the UI."""


class NotFound(DeskError):
    """A record the action refers to does not exist."""


class RuleViolation(DeskError):
    """An ordinance rule forbids the action; the message cites the section."""


class AuthenticationFailed(DeskError):
    """Wrong user name or password, or a disabled account."""


class SignedOut(DeskError):
    """The acting user was disabled after signing in: the action is refused and the window
    signs them out."""

    MESSAGE = "Your account has been disabled by an administrator; you are signed out."
    ROLES_CHANGED = "An administrator changed your roles; sign in again to work with the new ones."
    LOCKED = "An administrator locked your account; you are signed out."


class ReadOnlyRegister(DeskError):
    """The register was opened read-only (a copy on a CD, an archive on a read-only share)."""

    MESSAGE = (
        "This register is open read-only (the file cannot be written here), so nothing can be "
        "changed; open a writable copy to work in it."
    )

    def __init__(self) -> None:
        super().__init__(self.MESSAGE)


class IssuanceRefused(RuleViolation):
    """issue_permit found unmet conditions; `shortfalls` lists each in words with its section."""

    def __init__(self, shortfalls: list[str]) -> None:
        super().__init__(
            "The permit cannot be issued yet:\n" + "\n".join(f"• {s}" for s in shortfalls)
        )
        self.shortfalls = shortfalls


class StaleEdit(DeskError):
    """A form was saved over a change made since it was opened (on another workstation, or in
    another window): nothing is written; the form offers to reload the record."""

    def __init__(self, what: str, by: str, at: str) -> None:
        super().__init__(
            f"{what} was changed by {by} at {at}, after you opened it. Nothing was saved: "
            "reload it to see the change, then make yours again."
        )
        self.what = what
        self.by = by
        self.at = at
