"""Who is signed in, to which municipality, and where the data is: what the status bar shows."""

from __future__ import annotations

from dataclasses import dataclass

from desk.domain.enums import Role
from desk.domain.model import Actor

# Roles in the order an office lists them (the administrator last: it is a duty, not a job).
ROLE_ORDER = (Role.INSPECTOR, Role.ENGINEER, Role.CLERK, Role.TREASURER, Role.ADMINISTRATOR)


@dataclass(frozen=True)
class Session:
    actor: Actor
    full_name: str
    municipality_id: int
    # The shipped ordinance the municipality follows (Municipality.ordinance, "" for none):
    # permit kinds, forms and the other shipped resources are looked up by it.
    municipality_key: str
    municipality_name: str
    where: str

    @property
    def roles_text(self) -> str:
        roles = [r.label for r in ROLE_ORDER if r in self.actor.roles]
        return ", ".join(roles) or "no role"

    @property
    def user_text(self) -> str:
        """'Alex Administrator (Administrator)'."""
        return f"{self.full_name or self.actor.username} ({self.roles_text})"

    @property
    def database_text(self) -> str:
        return f"Database: {self.where}"

    @property
    def window_title(self) -> str:
        return f"Permit Desk — {self.municipality_name}"
