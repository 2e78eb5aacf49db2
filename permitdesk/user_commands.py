"""`permitdesk users ...`: the Users screen's work from the command line, for scripted set-ups
and support. Acts as the built-in "command line" actor of the audit trail; passwords are read
from standard input (one line), never from an argument that `ps` or the shell history shows."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desk.domain.enums import Role

ROLES = [r.value for r in Role]


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    users = sub.add_parser(
        "users",
        help="list and manage users (acts as 'command line' in the audit trail)",
        description="Users and roles. Passwords are read from standard input, one line.",
    )
    usersub = users.add_subparsers(dest="users_command", required=True, parser_class=parser_class)

    def command(name: str, text: str) -> argparse.ArgumentParser:
        p = usersub.add_parser(name, help=text, description=text)
        add_db_options(p)
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

    command("list", "every user with roles, state and last sign-in")
    add = command("add", "add a user; the first password (standard input) must be changed")
    add.add_argument("--username", required=True, metavar="U", help="sign-in name, no spaces")
    add.add_argument("--name", required=True, metavar="FULL NAME", help="the person's name")
    add.add_argument(
        "--title", default="", help="printed under the name, e.g. 'Building Inspector'"
    )
    role_option(add)
    roles = command("roles", "replace a user's roles")
    roles.add_argument("--username", required=True, metavar="U")
    role_option(roles)
    for name, text in (
        ("disable", "disable a user who left (users are never deleted)"),
        ("enable", "enable a disabled user again"),
        ("unlock", "unlock an account locked by wrong passwords in a row"),
        ("reset-password", "set a new password (standard input) to be changed at next sign-in"),
    ):
        command(name, text).add_argument("--username", required=True, metavar="U")


def _read_password(prompt: str) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    line = sys.stdin.readline()
    password = line.rstrip("\r\n")
    if not password:
        raise ValueError("no password on standard input (one line)")
    return password


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    from db.database import open_database
    from db.user_queries import user_rows
    from desk.clock import SystemClock
    from desk.services import users

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    database = open_database(url, create=False)
    clock = SystemClock()
    try:
        if args.users_command == "list":
            with database.read() as conn:
                rows = user_rows(conn)
            _print_table(rows)
            return 0
        password = ""
        if args.users_command in ("add", "reset-password"):
            try:
                password = _read_password("New password: ")
            except ValueError as e:
                raise usage_error(str(e)) from None
        actor = users.command_line_actor(database.uow(), clock)
        if args.users_command == "add":
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
        if args.users_command == "roles":
            users.set_roles(database.uow(), clock, actor, user_id, {Role(r) for r in args.role})
            print(f"{args.username}: {', '.join(sorted(set(args.role)))}.")
        elif args.users_command == "unlock":
            users.unlock(database.uow(), clock, actor, user_id)
            print(f"{args.username} is unlocked.")
        elif args.users_command in ("disable", "enable"):
            users.set_active(database.uow(), clock, actor, user_id, args.users_command == "enable")
            print(f"{args.username} is {args.users_command}d.")
        else:
            users.reset_password(database.uow(), clock, actor, user_id, password)
            print(f"{args.username}'s password is reset; it must be changed at the next sign-in.")
        return 0
    finally:
        database.close()


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
