"""First start: load demo data, or set up the municipality and its first administrator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from desk.clock import Clock
from desk.domain.model import Actor
from desk.domain.passwords import password_problem
from desk.errors import ValidationError
from desk.services import setup, users
from desk.services.uow import UnitOfWork

# The service names fields in words; the form knows them by key.
_FORM_FIELDS = {
    "user name": "username",
    "full name": "full_name",
    "password": "password",
    "password (again)": "password_again",
    "municipality": "municipality",
}


# The municipality choice when it is another Wisconsin municipality, set up in the form
# (AdminForm.new_municipality) rather than from a shipped profile.
NEW_MUNICIPALITY = "+new"


@dataclass(frozen=True)
class AdminForm:
    municipality: str  # a shipped profile's key, or NEW_MUNICIPALITY
    username: str
    full_name: str
    password: str
    password_again: str
    new_municipality: setup.NewMunicipality | None = None  # with NEW_MUNICIPALITY


@dataclass(frozen=True)
class FieldError:
    field: str  # a key of AdminForm
    message: str  # names the field: 'User name: enter a user name without spaces'


def municipality_choices(
    profiles: dict[str, dict[str, Any]] | None = None,
) -> list[tuple[str, str]]:
    """(key, name) of the shipped municipality profiles, by name."""
    profiles = setup.shipped_profiles() if profiles is None else profiles
    return sorted(((k, str(p.get("name", k))) for k, p in profiles.items()), key=lambda x: x[1])


def _error(field: str, message: str) -> FieldError:
    return FieldError(_FORM_FIELDS.get(field, field), f"{field[:1].upper()}{field[1:]}: {message}")


def check_admin_form(form: AdminForm) -> FieldError | None:
    """The first problem with the form, in the order of its fields; None when it can be saved."""
    if not form.municipality:
        return _error("municipality", "choose the municipality this office serves")
    if form.municipality == NEW_MUNICIPALITY:
        if form.new_municipality is None:
            return _error("municipality", "set up the municipality this office serves")
        try:
            setup.check_new_municipality(form.new_municipality)
        except ValidationError as e:
            return _error("municipality", f"{e.field}: {e.message}")
    if not form.username.strip():
        return _error("user name", "enter a user name")
    if any(c.isspace() for c in form.username.strip()):
        return _error("user name", "enter a user name without spaces")
    if not form.full_name.strip():
        return _error("full name", "enter the person's name")
    weak = password_problem(form.password, form.username.strip())
    if weak is not None:
        return _error("password", weak)
    if form.password != form.password_again:
        return _error("password (again)", "the two passwords differ; type the same one twice")
    return None


def create_administrator(
    uow: UnitOfWork, clock: Clock, form: AdminForm
) -> tuple[Actor | None, FieldError | None]:
    """Create the first administrator and the municipality (a shipped one, or another set up
    in the New municipality form); the actor or the field error."""
    problem = check_admin_form(form)
    if problem is not None:
        return None, problem
    try:
        actor = users.create_first_administrator(
            uow, clock, form.username, form.full_name, form.password
        )
        if form.municipality == NEW_MUNICIPALITY and form.new_municipality is not None:
            setup.create_municipality(uow, clock, actor, form.new_municipality)
        else:
            setup.ensure_municipality(uow, clock, actor, form.municipality)
    except ValidationError as e:
        return None, _error(e.field, e.message)
    return actor, None
