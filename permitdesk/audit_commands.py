"""`permitdesk audit export`: the audit trail of a period as a workbook, for administrators.
Read-only: it opens the database without upgrading it and writes nothing to it."""

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
    audit = sub.add_parser("audit", help="export the audit trail of a period")
    auditsub = audit.add_subparsers(dest="audit_command", required=True, parser_class=parser_class)
    text = "the audit rows of a period (UTC days) as .xlsx: who, what, old → new, row hash"
    export = auditsub.add_parser("export", help=text, description=text)
    export.add_argument("--from", dest="start", required=True, metavar="YYYY-MM-DD")
    export.add_argument("--to", dest="end", required=True, metavar="YYYY-MM-DD")
    export.add_argument("--xlsx", required=True, metavar="F", help="the workbook to write")
    add_db_options(export)


def _date(text: str, option: str, usage_error: type[Exception]) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise usage_error(f"{option} '{text}' is not a date YYYY-MM-DD") from None


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
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
        with database.read() as conn:
            rows = audit_rows(conn, start, end)
        out = Path(args.xlsx)
        export_audit(out, rows, start, end, database.where)
    finally:
        database.close()
    print(f"Wrote {len(rows):,} audit rows from {start} to {end} to {out}.")
    return 0
