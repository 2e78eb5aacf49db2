"""Signing in on the command line: every command that reads the register's data or changes it
acts as a user who signed in, as the window does, and the audit trail names that user.

- `--user U`: the password is the first line of standard input (asked, not echoed, when
  standard input is a terminal). desk.services.users.sign_in checks it, so a wrong password
  counts and waits exactly as at the window's sign-in.
- PERMITDESK_TOKEN: a sign-in token an administrator issued (`permitdesk users token`), for
  scripted set-ups. An environment variable, never an argument: `ps` shows arguments to
  every user of the computer.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from desk.errors import AuthenticationFailed, PermissionDenied

if TYPE_CHECKING:  # the domain is imported when a command signs in, not at every start
    from desk.clock import Clock
    from desk.domain.enums import Role
    from desk.domain.model import Actor
    from desk.domain.permissions import Permission

TOKEN_ENV = "PERMITDESK_TOKEN"

USER_HELP = (
    "sign in as this user: the password is the first line of standard input (asked when "
    f"it is a terminal); or, instead, set {TOKEN_ENV} to a sign-in token an administrator "
    "issued (permitdesk users token)"
)
NEW_PASSWORD_NOTE = (
    "Standard input: the first line is the signing-in password of --user, the second the new "
    f"password (with {TOKEN_ENV}, the new password is the only line)."
)
NOT_SIGNED_IN = (
    "sign in to use this command: give --user U (the password is read from standard input) "
    f"or set {TOKEN_ENV} to a sign-in token an administrator issued"
)
MUST_CHANGE = (
    "{user} must change the password an administrator gave before working: sign in to the "
    "Permit Desk window, change the password there, then use the command line"
)

# What a command needs beyond a signed-in user: a permission, any one of several (the window
# shows the section to any of them), or a role.
Need: TypeAlias = "Permission | Sequence[Permission] | Role | None"


def add_sign_in_options(p: argparse.ArgumentParser, *, new_password: bool = False) -> None:
    """--user; `new_password`: the command reads a new password too (the second line)."""
    text = USER_HELP
    if new_password:
        text += "; the new password is the next line (the first with the token)"
    p.add_argument("--user", metavar="U", help=text)


def read_secret(prompt: str, missing: str) -> str:
    """One line of standard input without its line end, or asked without echo on a terminal;
    `missing`: the words when there is no line (AuthenticationFailed, exit 2)."""
    if sys.stdin is None:
        raise AuthenticationFailed(missing)
    tty = sys.stdin.isatty()
    secret = getpass.getpass(prompt) if tty else sys.stdin.readline().rstrip("\r\n")
    if not secret:
        raise AuthenticationFailed(missing)
    return secret


def token_given() -> bool:
    return bool(os.environ.get(TOKEN_ENV, "").strip())


def signed_in(
    args: argparse.Namespace, database: Any, clock: Clock, *, need: Need = None, doing: str = ""
) -> Actor:
    """The user the command acts as, signed in with --user and the password on standard input
    or with PERMITDESK_TOKEN; refused (exit 2, in words) when not signed in, signed in wrongly,
    with a first password still to change, or without what `need` asks for (`doing`: the words
    for the refusal, e.g. "export the audit trail")."""
    from desk.services import tokens, users

    user = (getattr(args, "user", None) or "").strip()
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        actor = tokens.actor_for_token(database.uow(), clock, token)
        if user and user != actor.username:
            raise AuthenticationFailed(
                f"{TOKEN_ENV} signs in {actor.username}, not {user}: leave out --user or unset "
                f"{TOKEN_ENV}"
            )
    elif user:
        password = read_secret(
            f"Password for {user}: ",
            f"no password for {user} on standard input (its first line)",
        )
        result = users.sign_in(database.uow(), clock, user, password)
        if result.must_change_password:
            raise AuthenticationFailed(MUST_CHANGE.format(user=user))
        actor = result.actor
    else:
        raise AuthenticationFailed(NOT_SIGNED_IN)
    check_need(actor, need, doing)
    return actor


def check_need(actor: Actor, need: Need, doing: str = "") -> None:
    if need is None:
        return
    from desk.domain.enums import Role
    from desk.domain.permissions import ROLE_PERMISSIONS, Permission, allowed, require

    if isinstance(need, Permission):
        require(actor, need)
        return
    who = ", ".join(sorted(r.label.lower() for r in actor.roles)) or "no role"
    if isinstance(need, Role):
        if need not in actor.roles:
            raise PermissionDenied(
                f"You are signed in as {actor.username} ({who}); only a user with the role "
                f"{need.label.lower()} may {doing or 'do this'}."
            )
        return
    if not any(allowed(actor, p) for p in need):
        able = sorted(
            r.label.lower() for r, ps in ROLE_PERMISSIONS.items() if any(p in ps for p in need)
        )
        raise PermissionDenied(
            f"You are signed in as {actor.username} ({who}); only a user with the role "
            f"{' or '.join(able)} may {doing or need[0].value}."
        )


USERS_READ = "SELECT username, password_hash, roles, active FROM app_user"


def administrator_by_password(args: argparse.Namespace, engine: Any, *, doing: str) -> str:
    """`db upgrade` and `db restore`: an administrator's user name and password (the first line
    of standard input) checked against the register as it is, reading only what every schema
    revision has and writing nothing (a register at an older revision, or one about to be
    replaced, cannot take a sign-in's record). Returns the user name."""
    from sqlalchemy import text

    from desk.services import users

    user = (getattr(args, "user", None) or "").strip()
    if not user:
        raise AuthenticationFailed(
            f"only an administrator may {doing}: give --user U (the password is read from "
            "standard input)"
        )
    password = read_secret(
        f"Password for {user}: ", f"no password for {user} on standard input (its first line)"
    )
    with engine.connect() as conn:
        # Every row, picked here: the same pages `db restore` probed (not the name's index).
        rows = conn.execute(text(USERS_READ)).all()
    row = next((r for r in rows if r.username == user), None)
    matches = users.password_matches(row.password_hash if row is not None else None, password)
    if row is None or not row.active or not matches:
        raise AuthenticationFailed(users.WRONG)
    if "administrator" not in str(row.roles).split(","):  # Role.ADMINISTRATOR
        raise PermissionDenied(
            f"You are signed in as {user}; only a user with the role administrator may {doing}."
        )
    return user
