"""`permitdesk db ...`: create, upgrade, check, back up or restore a register, and choose the one
this computer opens. On PostgreSQL, `db init --app-role` and `db upgrade` also set up the role the
workstations connect as (db/roles.py): the owner's password is used for the one command and never
saved; a workstation keeps only its own role's password (`db use`)."""

from __future__ import annotations

import argparse
import errno
import getpass
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from permitdesk import signing

GUIDE = "README: Sharing the register on PostgreSQL"  # as db.roles says (not imported: fast start)

APP_ROLE_EXAMPLE = "permitdesk_app"


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[..., None],
) -> None:
    db = sub.add_parser("db", help="create, upgrade, check, back up or restore a database")
    dbsub = db.add_subparsers(dest="db_command", required=True, parser_class=parser_class)
    init = dbsub.add_parser(
        "init", help="create a new, empty register (a new file or an empty PostgreSQL database)"
    )
    add_db_options(init, required=True)
    init.add_argument(
        "--app-role",
        metavar="NAME",
        help=f"PostgreSQL: also set up the role the workstations connect as (e.g. "
        f"{APP_ROLE_EXAMPLE}; created if missing) with only the rights the desk needs; "
        "--database-url then names the owner role. Passwords: the owner's, then the new "
        "role's, one line each on standard input (asked for on a terminal); neither is kept "
        "on this computer",
    )
    for name, text in (
        ("upgrade", "upgrade the schema (after a backup; pg_dump on PostgreSQL)"),
        ("check", "integrity and foreign-key checks; OK or each problem"),
        ("backup", "write a consistent copy"),
        ("use", "open this database from now on (saved in the user's settings)"),
    ):
        sp = dbsub.add_parser(name, help=text)
        add_db_options(sp)
        if name == "check":
            sp.add_argument(
                "--anchors",
                metavar="FILE",
                help="also check that the audit trail still holds every anchor of this file "
                "(the office's 'Audit anchors.txt', or a backup's .anchor file)",
            )
        if name == "backup":
            sp.add_argument(
                "--out", metavar="PATH", help="backup file (default: beside the database)"
            )
            sp.add_argument(
                "--anchors",
                metavar="FILE",
                help="also append the backup's audit trail anchor to this anchors file (e.g. "
                "the office's 'Audit anchors.txt'); it is always written beside the backup as "
                "BACKUP.anchor",
            )
            signing.add_sign_in_options(sp)
        if name == "upgrade":
            sp.add_argument(
                "--user",
                metavar="U",
                help="an administrator of the register; standard input: the password of U on "
                "the first line, then (with --app-role creating a role) the role's password",
            )
            sp.add_argument(
                "--out",
                metavar="PATH",
                help="PostgreSQL: the pg_dump backup file (default: in the current folder)",
            )
            sp.add_argument(
                "--no-backup",
                action="store_true",
                help="PostgreSQL: upgrade without a pg_dump backup (default: refuse without one)",
            )
            sp.add_argument(
                "--app-role",
                metavar="NAME",
                help="PostgreSQL: the workstations' role whose rights are set again after the "
                "upgrade; created if missing, its password the first line of standard input "
                "(default: every role set up before, found by its rights on the audit trail)",
            )
    restore = dbsub.add_parser(
        "restore",
        help="replace an SQLite database with a checked backup (the current file is kept first)",
    )
    restore.add_argument(
        "--from", dest="source", required=True, metavar="BACKUP", help="the backup file"
    )
    add_db_options(restore)
    restore.add_argument(
        "--user",
        metavar="U",
        help="an administrator of the register (of the backup when the register cannot be "
        "read); the password is the first line of standard input",
    )


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    if args.db_command == "use":
        return _use(url)
    if args.db_command == "restore":
        return _restore(args, url, Path(args.source), usage_error)
    if args.db_command == "init":
        return _init(url, args.app_role, usage_error)
    if args.db_command == "upgrade":
        return _upgrade(args, url, usage_error)
    return _check_or_backup(args, url, usage_error)


# --- passwords ---------------------------------------------------------------------------------


def _line_or_prompt(prompt: str) -> str | None:
    """On a terminal, asked without echo; otherwise the next line of standard input (a script's
    way, never an argument that `ps` or the shell history shows). Empty: None."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt) or None
    return sys.stdin.readline().rstrip("\r\n") or None


def _new_password(role: str, exists: bool, usage_error: type[Exception]) -> str | None:
    keep = " (Enter to keep its password)" if exists else ""
    password = _line_or_prompt(f"Password for the workstations' role {role}{keep}: ")
    if password and sys.stdin.isatty() and getpass.getpass("Again: ") != password:
        raise usage_error(f"the two passwords for {role} differ; nothing was changed")
    if password is None and not exists:
        raise usage_error(
            f"the role {role} does not exist yet and needs a password: "
            + ("type one" if sys.stdin.isatty() else "give it on its line of standard input")
        )
    return password


def _password_wanted(e: Exception) -> bool:
    text = str(e)
    return "no password supplied" in text or "password authentication failed" in text


# --- the commands --------------------------------------------------------------------------


def _open_asking(url: str, **options: Any) -> tuple[Any, str]:
    """open_database; when the server wants a password the URL lacks and a person is at the
    terminal, it is asked for (not typed into the URL, where the shell history keeps it) and
    tried once. The database and the URL that opened it."""
    from sqlalchemy.engine import make_url

    from db.database import open_database
    from db.engine import DatabaseError

    try:
        return open_database(url, **options), url
    except DatabaseError as e:
        if not (_password_wanted(e) and sys.stdin.isatty()):
            raise
        parsed = make_url(url)
        password = getpass.getpass(f"Password for {parsed.username}: ")
        url = parsed.set(password=password).render_as_string(hide_password=False)
        return open_database(url, **options), url


def _use(url: str) -> int:
    from permitdesk.config import save_database_url, settings_file

    # Proves it is a register and opens. A workstation's role's password, asked for here, is
    # kept in the pass file (save_database_url).
    database, url = _open_asking(url, create=False)
    try:
        warning = _role_warning(database)
    finally:
        database.close()
    save_database_url(url)
    print(f"Permit Desk will open {database.where} (saved in {settings_file()}).")
    if warning is not None:
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _role_warning(database: Any) -> str | None:
    """On PostgreSQL, the words when this computer would connect as the owner or a superuser."""
    from db.database import Database
    from db.engine import is_sqlite
    from db.roles import role_problem

    if not isinstance(database, Database) or is_sqlite(database.engine):
        return None
    with database.engine.connect() as conn:
        return role_problem(conn)


def _postgres_only(url: str, usage_error: type[Exception]) -> Any:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise usage_error(f"'{url}' is not a database URL") from None
    if parsed.get_backend_name() != "postgresql":
        raise usage_error(
            "--app-role is for a PostgreSQL register: an SQLite register is a file and has no "
            "roles; protect it with its folder's permissions (only the office's users may "
            "change the folder)"
        )
    return parsed


def _init(url: str, app_role: str | None, usage_error: type[Exception]) -> int:
    from db.database import open_database

    if app_role is None:
        database = open_database(url, create=True)
        database.close()
        if not database.opened.created:
            raise usage_error(f"{database.where} is a Permit Desk register already")
        print(f"Created a new Permit Desk register at {database.where}.")
        return 0
    from db import roles

    parsed = _postgres_only(url, usage_error)
    roles.check_role_name(app_role)
    if not parsed.username:
        raise usage_error(
            "--database-url must name the owner role, e.g. "
            "postgresql://permitdesk_owner@SERVER/permitdesk"
        )
    if parsed.username == app_role:
        raise usage_error(
            f"--database-url names {app_role}, the workstations' role: give the owner role "
            f"there (e.g. postgresql://permitdesk_owner@{parsed.host or 'localhost'}/"
            f"{parsed.database or 'permitdesk'})"
        )
    if parsed.password is None:
        # The owner's password is for this one command: it is not saved anywhere.
        owner_password = _line_or_prompt(
            f"Password of the owner role {parsed.username} (not saved; Enter if none is needed): "
        )
        if owner_password:
            url = parsed.set(password=owner_password).render_as_string(hide_password=False)
    exists = _preflight(url, app_role, usage_error)
    password = _new_password(app_role, exists, usage_error)
    database = open_database(url, create=True)
    try:
        if not database.opened.created:
            raise usage_error(
                f"{database.where} is a Permit Desk register already; to set up the "
                f"workstations' role there, run: permitdesk db upgrade --database-url "
                f"{roles.connect_as(parsed, str(parsed.username))} --app-role {app_role}"
            )
        with database.engine.begin() as conn:
            roles.provision_app_role(conn, app_role, password)
        print(f"Created a new Permit Desk register at {database.where}.")
    finally:
        database.close()
    _print_workstation_steps(parsed, app_role)
    return 0


def _preflight(url: str, app_role: str, usage_error: type[Exception]) -> bool:
    """Before anything is created: the owner can connect, and can create the workstations' role
    if it is missing. Whether the role exists."""
    from sqlalchemy.exc import OperationalError

    from db import roles
    from db.engine import DatabaseError, describe, make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            exists = roles.role_exists(conn, app_role)
            me = roles.connected(conn)
    except OperationalError as e:
        raise DatabaseError(f"cannot open the database {describe(engine)}: {e.orig}") from None
    finally:
        engine.dispose()
    if not exists and not (me.superuser or me.create_roles):
        raise usage_error(roles.cannot_create_roles(me.role, app_role))
    return exists


def _print_workstation_steps(owner_url: Any, app_role: str) -> None:
    from db.roles import connect_as

    print(
        f"The workstations connect as {app_role}: it may read and write the register's "
        "records and add to the audit trail, nothing more."
    )
    print("On each workstation run (it asks for the role's password and keeps it there):")
    print(f"  permitdesk db use --database-url {connect_as(owner_url, app_role)}")
    print(
        "The owner's password was not saved on this computer; keep it for 'permitdesk db upgrade'."
    )


def _upgrade(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    from db import roles
    from db.database import open_database
    from db.engine import is_sqlite

    if args.app_role is not None:
        _postgres_only(url, usage_error)
        roles.check_role_name(args.app_role)
    password: str | None = None
    # The owner's password, when asked for, is used for this command only.
    database, url = _open_asking(url, create=False, migrate=False)
    try:
        signing.administrator_by_password(args, database.engine, doing="upgrade the register")
        server = not is_sqlite(database.engine)
        if server:
            with database.engine.connect() as conn:
                refusal = roles.upgrade_refusal(conn, database.engine.url)
                new_role = args.app_role is not None and not roles.role_exists(conn, args.app_role)
            if refusal is not None:
                raise usage_error(refusal)
            if new_role:
                password = _new_password(args.app_role, False, usage_error)
        dumped = _pg_dump_before_upgrade(database, args, usage_error)
    finally:
        database.close()
    database = open_database(url, create=False, upgrade_shared=True)
    try:
        print(database.opened.message or f"The database is up to date ({database.where}).")
        if dumped is not None and database.opened.upgraded_from is not None:
            print(f"A backup of the old database is at {dumped} (pg_dump -Fc; pg_restore).")
        if server:
            _set_rights_again(database, args.app_role, password)
    finally:
        database.close()
    return 0


def _set_rights_again(database: Any, app_role: str | None, password: str | None) -> None:
    """After an upgrade, as the owner: the audit trail's guards put back if anyone changed them,
    and the workstations' role(s) given their rights on the new tables too."""
    from db import roles

    with database.engine.begin() as conn:
        restored = roles.restore_guards(conn)
        names = [app_role] if app_role else roles.app_roles(conn)
        for name in names:
            roles.provision_app_role(conn, name, password if name == app_role else None)
        me = roles.connected(conn).role
    for problem in restored:
        print(f"Put back the audit trail's protection: {problem.finding()}.")
    if names:
        print(
            f"The workstations' role {', '.join(names)} may read and write the register's "
            "records and add to the audit trail, nothing more."
        )
        return
    print(
        f"No workstations' role is set up, so the workstations connect as {me}, which can switch "
        "off the audit trail's protection. Set one up: permitdesk db upgrade --database-url "
        f"{roles.connect_as(database.engine.url, me)} --app-role {APP_ROLE_EXAMPLE} ({GUIDE})"
    )


def _check_or_backup(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    import sqlite3

    from sqlalchemy.exc import DBAPIError

    from db.audit_anchors import (
        anchor_problems_from_file,
        append_anchor,
        backup_anchor_path,
        write_backup_anchor,
    )
    from db.database import open_database
    from db.engine import sqlite_backup, sqlite_file
    from db.migrate import backup_path, check
    from desk.clock import SystemClock

    if args.db_command == "check":
        try:
            database = open_database(url, create=False, migrate=False)
        except DBAPIError as e:
            # A file damaged where its schema is fails on opening: the check's own words.
            reason = str(e.orig or e).splitlines()[0]
            if "malformed" not in reason:
                raise
            print(f"the database cannot be read to the end ({reason}); restore a backup")
            return 1
    else:
        database = open_database(url, create=False, migrate=False)
    try:
        if args.db_command == "check":
            problems = check(database.engine)
            if args.anchors:
                with database.engine.connect() as conn:
                    problems += anchor_problems_from_file(conn, Path(args.anchors))
            if not problems:
                print("OK")
                return 0
            for problem in problems:
                print(problem)
            return 1
        path = sqlite_file(database.engine)
        if path is None:
            raise usage_error("back up a PostgreSQL database with pg_dump on the server")
        signing.signed_in(args, database, SystemClock(), doing="back up the register")
        out = Path(args.out) if args.out else backup_path(path, "backup")
        if out.is_dir():
            raise usage_error(f"--out {out} is a folder; give the backup file's name")
        try:
            sqlite_backup(path, out)
        except sqlite3.Error as e:
            if "full" in str(e):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out)) from e
            raise usage_error(f"cannot write the backup {out} ({e})") from e
        # The copy's own head: a later `db check --anchors` finds rows rewritten before it.
        anchor = write_backup_anchor(out, out)
        print(f"Backed up {path} to {out}")
        print(f"Its audit trail anchor is in {backup_anchor_path(out)}: {anchor.line()}")
        if args.anchors:
            append_anchor(Path(args.anchors), anchor)
        return 0
    finally:
        database.close()


def _restore(args: argparse.Namespace, url: str, source: Path, usage_error: type[Exception]) -> int:
    """`db restore`: SQLite only; a PostgreSQL register comes back with pg_restore."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from db.restore import restore_sqlite

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise usage_error(f"'{url}' is not a database URL") from None
    if parsed.get_backend_name() == "postgresql":
        raise usage_error(
            "db restore restores SQLite files only; restore a PostgreSQL database with "
            "pg_restore from the pg_dump file that `permitdesk db upgrade` wrote"
        )
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise usage_error("db restore needs an SQLite database file: give --db PATH")
    _administrator_for_restore(args, Path(parsed.database), source, usage_error)
    for line in restore_sqlite(source, Path(parsed.database)).lines():
        print(line)
    return 0


def _pg_dump_before_upgrade(
    database: Any, args: argparse.Namespace, usage_error: type[Exception]
) -> Path | None:
    """A PostgreSQL register behind this Permit Desk is dumped (custom format) before
    `db upgrade` changes it; the file's path, or None when there is nothing to upgrade."""
    import shutil
    from datetime import datetime

    from db.engine import is_sqlite
    from db.migrate import HEAD, current_revision, known_revisions

    engine = database.engine
    if is_sqlite(engine):
        return None  # db/migrate.py backs the file up itself
    current = current_revision(engine)
    if current == HEAD or current not in known_revisions():
        return None  # up to date, or newer: open_database says so
    if args.no_backup:
        return None
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise usage_error(
            "pg_dump is not on the PATH, so no backup can be taken before the upgrade; install "
            "the PostgreSQL client tools, or pass --no-backup if the server is backed up"
        )
    url = engine.url
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or f"{url.database}.before-{HEAD}-{stamp}.dump")
    from db.backups import run_pg_dump

    reason = run_pg_dump(pg_dump, url, out)
    if reason is not None:
        raise usage_error(
            f"pg_dump could not back up the database, so it was not upgraded: {reason}"
        )
    print(f"Backed up {database.where} to {out} with pg_dump.")
    return out


def _administrator_for_restore(
    args: argparse.Namespace, target: Path, source: Path, usage_error: type[Exception]
) -> None:
    """An administrator of the register restored over, or, when it cannot be read (the reason
    to restore), of the backup that replaces it. Both are opened read-only: nothing is written
    to either before the restore's own checks."""
    import sqlite3

    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import DBAPIError

    for path in (target, source):
        if not path.is_file():
            continue
        uri = f"{path.resolve().as_uri().replace('file://', 'file:', 1)}?mode=ro"
        engine = create_engine("sqlite://", creator=lambda uri=uri: sqlite3.connect(uri, uri=True))
        try:
            with engine.connect() as conn:
                conn.execute(text(signing.USERS_READ)).all()  # what the sign-in reads
        except DBAPIError:
            engine.dispose()
            continue  # damaged or not a register: the other one's administrators decide
        try:
            signing.administrator_by_password(args, engine, doing="restore the register")
            return
        finally:
            engine.dispose()
    raise usage_error(
        f"neither {target} nor {source} is a register an administrator can sign in to"
    )
