"""The sign-in dialog's logic: check the fields, ask the service, word the failure."""

from __future__ import annotations

from collections.abc import Callable

from desk.domain.model import Actor
from desk.domain.sign_ins import REFUSED
from desk.errors import AuthenticationFailed

DEMO_NOTE = "Demo logins: admin / clerk / inspector / engineer / treasurer, password permitdesk"


class LoginPresenter:
    def __init__(self, authenticate: Callable[[str, str], Actor], last_username: str = "") -> None:
        self._authenticate = authenticate
        self.username = last_username
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
        """Put the cursor in the password box when the user name is already filled in."""
        return bool(self.username)
