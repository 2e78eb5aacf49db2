"""`permitdesk audit export`: the audit trail of a period as a workbook, for administrators;
`permitdesk audit anchor`: the audit trail's head as one line (db/audit_anchors.py), printed and
optionally appended to an anchors file. Both open the database without upgrading it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from pathlib import Path


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    audit = sub.add_parser(
        "audit", help="export the audit trail of a period, or take an anchor of it"
    )
    auditsub = audit.add_subparsers(dest="audit_command", required=True, parser_class=parser_class)
    text = "the audit rows of a period (UTC days) as .xlsx: who, what, old → new, row hash"
    export = auditsub.add_parser("export", help=text, description=text)
    export.add_argument("--from", dest="start", required=True, metavar="YYYY-MM-DD")
    export.add_argument("--to", dest="end", required=True, metavar="YYYY-MM-DD")
    export.add_argument("--xlsx", required=True, metavar="F", help="the workbook to write")
    add_db_options(export)
    from permitdesk.signing import add_sign_in_options  # an administrator signs in

    add_sign_in_options(export)
    text = "print the audit trail's head as one line (an anchor) to keep outside the database"
    anchor = auditsub.add_parser(
        "anchor",
        help=text,
        description=f"{text}; `permitdesk db check --anchors FILE` compares the trail with it",
    )
    anchor.add_argument(
        "--append", metavar="FILE", help="also add the line to this anchors file (made if missing)"
    )
    add_db_options(anchor)
    add_sign_in_options(anchor)


def _date(text: str, option: str, usage_error: type[Exception]) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise usage_error(f"{option} '{text}' is not a date YYYY-MM-DD") from None


def run_anchor(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    """`permitdesk audit anchor`: the head's line on standard output (and --append FILE)."""
    from db.audit_anchors import append_anchor, head
    from db.database import open_database
    from db.integrity import refuse_damaged
    from desk.clock import SystemClock
    from desk.domain.enums import Role
    from permitdesk.signing import signed_in

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    database = open_database(url, create=False)
    try:
        refuse_damaged(database.engine)
        clock = SystemClock()
        signed_in(args, database, clock, need=Role.ADMINISTRATOR, doing="take an anchor")
        with database.read() as conn:
            anchor = head(conn, clock)
    finally:
        database.close()
    if args.append:
        target = Path(args.append)
        if target.is_dir():
            raise usage_error(f"--append {target} is a folder; give the anchors file's name")
        append_anchor(target, anchor)
    print(anchor.line())
    return 0


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    if args.audit_command == "anchor":
        return run_anchor(args, url, usage_error)
    from db.audit_queries import audit_rows
    from db.database import open_database
    from reports.audit_export import export_audit

    start = _date(args.start, "--from", usage_error)
    end = _date(args.end, "--to", usage_error)
    if end < start:
        raise usage_error("--to is before --from")
    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    database = open_database(url, create=False)
    try:
        from db.integrity import refuse_damaged
        from desk.clock import SystemClock
        from desk.domain.enums import Role
        from permitdesk.signing import signed_in

        refuse_damaged(database.engine)
        signed_in(
            args, database, SystemClock(), need=Role.ADMINISTRATOR, doing="export the audit trail"
        )
        with database.read() as conn:
            rows = audit_rows(conn, start, end)
        out = Path(args.xlsx)
        export_audit(out, rows, start, end, database.where)
    finally:
        database.close()
    print(f"Wrote {len(rows):,} audit rows from {start} to {end} to {out}.")
    return 0
