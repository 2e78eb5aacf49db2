"""The sign-in dialog's logic: check the fields, ask the service, word the failure."""

from __future__ import annotations

from collections.abc import Callable

from desk.domain.model import Actor
from desk.domain.sign_ins import REFUSED
from desk.errors import AuthenticationFailed

DEMO_NOTE = "Demo logins: admin / clerk / inspector / engineer / treasurer, password permitdesk"


class LoginPresenter:
    def __init__(
        self,
        authenticate: Callable[[str, str], Actor],
        last_username: str = "",
        *,
        locked_name: str = "",
    ) -> None:
        self._authenticate = authenticate
        self.username = last_username
        # A locked session's user's full name: only their password resumes it.
        self.locked_name = locked_name
        self.error = ""
        self.actor: Actor | None = None

    def sign_in(self, username: str, password: str) -> Actor | None:
        """The signed-in actor, or None with `error` saying what went wrong."""
        self.username = username.strip()
        self.error = ""
        self.actor = None
        if not self.username:
            self.error = "Enter your user name."
            return None
        if not password:
            self.error = "Enter your password."
            return None
        try:
            self.actor = self._authenticate(self.username, password)
        except AuthenticationFailed as e:
            self.error = str(e) or REFUSED
            return None
        return self.actor

    @property
    def focus_password(self) -> bool:
        """The cursor starts in Password only to resume a locked session (the user name fixed):
        at a shared counter the next person types their own name first, never into Password
        where it would count as a wrong password of the last user."""
        return bool(self.locked_name)

    @property
    def heading(self) -> str:
        if self.locked_name:
            return f"Locked — {self.locked_name}'s session"
        return "Sign in to Permit Desk"
