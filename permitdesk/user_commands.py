"""`permitdesk users ...`: the Users screen's work from the command line, for scripted set-ups
and support. An administrator signs in (--user U, the password the first line of standard
input, or PERMITDESK_TOKEN) and the audit trail names them. A new password is read from
standard input too (the next line), never from an argument that `ps` or the shell history
shows.

`users recover` is the exception: the register's owner (the account owning the SQLite file, the
role owning the PostgreSQL tables) gets an administrator's account back without signing in,
recorded as the built-in actor "command line"."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desk.domain.enums import Role
from permitdesk import arguments as types
from permitdesk import signing

ROLES = [r.value for r in Role]
ADMIN_NOTE = "An administrator signs in with --user U (the password on standard input)."
TOKEN_SHOWN_ONCE = (
    "This is {user}'s sign-in token, shown this once (only its fingerprint is kept). Give it "
    "to the command line in the environment, never as an argument: "
    "PERMITDESK_TOKEN=<the token> permitdesk report monthly --month 2026-03 --pdf m.pdf"
)


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    users = sub.add_parser(
        "users",
        help="list and manage users (an administrator signs in)",
        description="Users and roles. " + ADMIN_NOTE + " Passwords are read from standard "
        "input, one a line.",
    )
    usersub = users.add_subparsers(dest="users_command", required=True, parser_class=parser_class)

    def command(
        name: str, text: str, *, new_password: bool = False, signed: bool = True
    ) -> argparse.ArgumentParser:
        note = signing.NEW_PASSWORD_NOTE if new_password and signed else ""
        p = usersub.add_parser(name, help=text, description=f"{text}. {note}".strip())
        add_db_options(p)
        if signed:
            signing.add_sign_in_options(p, new_password=new_password)
        return p

    def role_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--role",
            action="append",
            required=True,
            choices=ROLES,
            metavar="ROLE",
            help=f"one of {', '.join(ROLES)}; repeat for several roles",
        )

    def username(p: argparse.ArgumentParser, text: str = "the user's sign-in name") -> None:
        p.add_argument("--username", required=True, metavar="U", help=text)

    command("list", "every user with roles, state and last sign-in")
    add = command(
        "add", "add a user; the first password (standard input) must be changed", new_password=True
    )
    username(add, "sign-in name, no spaces")
    add.add_argument("--name", required=True, metavar="FULL NAME", help="the person's name")
    add.add_argument(
        "--title", default="", help="printed under the name, e.g. 'Building Inspector'"
    )
    role_option(add)
    roles = command("roles", "replace a user's roles")
    username(roles)
    role_option(roles)
    for name, text in (
        ("disable", "disable a user who left (users are never deleted)"),
        ("enable", "enable a disabled user again"),
        ("lock", "lock an account (the user cannot sign in until it is unlocked)"),
        ("unlock", "unlock a locked account"),
    ):
        username(command(name, text))
    username(
        command(
            "reset-password",
            "set a new password (standard input) to be changed at next sign-in",
            new_password=True,
        )
    )
    token = command(
        "token",
        "issue a sign-in token for scripts (PERMITDESK_TOKEN); it is printed this once",
    )
    username(token, "the user the token signs in")
    token.add_argument("--label", default="", metavar="TEXT", help="what the token is for")
    token.add_argument(
        "--days",
        type=types.bounded_int(1, types.MAX_DAYS),
        metavar="N",
        help="it expires after N days (default: it lasts until revoked)",
    )
    revoke = command("revoke-token", "revoke a user's sign-in tokens (all, or by --label)")
    username(revoke)
    revoke.add_argument("--label", metavar="TEXT", help="only the tokens with this label")
    recover = command(
        "recover",
        "the register's owner gets an administrator's account back without signing in: "
        "unlocked, enabled and given a new password (standard input, one line) to change at "
        "the next sign-in. Only the account owning the SQLite file, or the role owning the "
        "PostgreSQL tables, may",
        signed=False,
    )
    username(recover, "the administrator's sign-in name")


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    from db.database import open_database
    from desk.clock import SystemClock

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    database = open_database(url, create=False)
    clock = SystemClock()
    try:
        if args.users_command == "recover":
            return _recover(database, clock, args.username, usage_error)
        actor = signing.signed_in(
            args, database, clock, need=Role.ADMINISTRATOR, doing="manage users"
        )
        return _manage(database, clock, actor, args)
    finally:
        database.close()


def _new_password(args: argparse.Namespace) -> str:
    where = "the only line" if signing.token_given() else "the second line, after yours"
    return signing.read_secret(
        "New password: ", f"no new password for {args.username} on standard input ({where})"
    )


def _manage(database: Any, clock: Any, actor: Any, args: argparse.Namespace) -> int:
    from db.user_queries import user_rows
    from desk.services import tokens, users

    command = args.users_command
    if command == "list":
        with database.read() as conn:
            _print_table(user_rows(conn))
        return 0
    if command == "add":
        password = _new_password(args)
        users.create_user(
            database.uow(),
            clock,
            actor,
            username=args.username,
            full_name=args.name,
            title=args.title,
            password=password,
            roles={Role(r) for r in args.role},
        )
        print(f"Added {args.username.strip()} ({', '.join(sorted(set(args.role)))}).")
        return 0
    user_id = users.user_id_for(database.uow(), args.username)
    if command == "roles":
        users.set_roles(database.uow(), clock, actor, user_id, {Role(r) for r in args.role})
        print(f"{args.username}: {', '.join(sorted(set(args.role)))}.")
    elif command == "unlock":
        users.unlock(database.uow(), clock, actor, user_id)
        print(f"{args.username} is unlocked.")
    elif command == "lock":
        users.lock(database.uow(), clock, actor, user_id)
        print(f"{args.username} is locked: they cannot sign in until an administrator unlocks.")
    elif command in ("disable", "enable"):
        users.set_active(database.uow(), clock, actor, user_id, command == "enable")
        print(f"{args.username} is {command}d.")
    elif command == "token":
        token = tokens.issue_token(database.uow(), clock, actor, user_id, args.label, args.days)
        print(token)
        print(TOKEN_SHOWN_ONCE.format(user=args.username), file=sys.stderr)
    elif command == "revoke-token":
        count = tokens.revoke_token(database.uow(), clock, actor, user_id, args.label)
        which = f" labelled '{args.label}'" if args.label is not None else ""
        if not count and args.label is not None:
            from desk.errors import NotFound

            raise NotFound(f"{args.username} has no token in use{which}")
        print(f"{count} sign-in token(s) of {args.username}{which} revoked.")
    else:
        password = _new_password(args)
        users.reset_password(database.uow(), clock, actor, user_id, password)
        print(f"{args.username}'s password is reset; it must be changed at the next sign-in.")
    return 0


def _recover(database: Any, clock: Any, username: str, usage_error: type[Exception]) -> int:
    """`users recover`: the owner's way back in when no administrator can sign in."""
    from db.ownership import owner_refusal
    from desk.services import users

    refusal = owner_refusal(database.engine)
    if refusal is not None:
        raise usage_error(refusal)
    password = signing.read_secret(
        "New password: ", f"no new password for {username} on standard input (one line)"
    )
    users.recover_administrator(database.uow(), clock, username, password)
    print(
        f"{username.strip()} is unlocked and enabled, with the new password; it must be "
        "changed at the next sign-in."
    )
    return 0


def _print_table(rows: Any) -> None:
    header = ("user name", "full name", "roles", "state", "last sign-in")
    lines = [header] + [
        (
            r.username,
            r.full_name,
            ",".join(sorted(x.value for x in r.roles)),
            ("disabled" if not r.active else "locked" if r.locked else "active")
            + (", must change password" if r.active and r.must_change_password else ""),
            r.last_sign_in_at.strftime("%Y-%m-%d %H:%M UTC") if r.last_sign_in_at else "never",
        )
        for r in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
