"""`permitdesk` command line. Commands that need no window never import PySide6 (fast start)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from desk import __version__
from desk.errors import DeskError


class UsageError(Exception):
    """A user error: exit 2 with one line, never a traceback."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _add_db_options(p: argparse.ArgumentParser, *, required: bool = False) -> None:
    g = p.add_mutually_exclusive_group(required=required)
    g.add_argument("--db", metavar="PATH", help="SQLite database file")
    g.add_argument("--database-url", metavar="URL", help="e.g. postgresql://user@host/permitdesk")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="permitdesk", description="Permit Desk: building permits, fees, inspections."
    )
    parser.add_argument("--version", action="version", version=f"permitdesk {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    gui = sub.add_parser("gui", help="start the application (the default)")
    _add_db_options(gui)
    gui.add_argument("--screenshot", metavar="OUT.png", help="render a view offscreen, save, exit")
    gui.add_argument(
        "--view",
        default="permits",
        help="view to render: permits; permit:NUMBER[:TAB] with TAB summary, parties, work, "
        "checklist, fees or history; permit:#ID[:TAB] for an application with no number yet; "
        "permit:#ID:issue (the issue dialog, for an inspector); fees (fee schedules, for an "
        "administrator); calculator (the fee calculator; a sample quote for Glendale); intake; "
        "inspections[:requests|day|week|orders] (the Inspections section)",
    )
    gui.add_argument("--size", default="1280x800", help="window size for --screenshot, WxH")
    gui.add_argument("--user", help="sign in as this user (required for --screenshot on real data)")
    gui.add_argument("--search", default="", help="text typed in the permits search (screenshots)")

    demo = sub.add_parser("demo", help="build a demo database")
    _add_db_options(demo, required=True)
    demo.add_argument("--municipality", default="glendale")
    demo.add_argument("--years", type=int, default=3)
    demo.add_argument("--per-year", type=int, default=400)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--replace", action="store_true", help="overwrite an existing SQLite file")

    db = sub.add_parser("db", help="upgrade, check or back up a database")
    dbsub = db.add_subparsers(dest="db_command", required=True, parser_class=_Parser)
    for name, text in (
        ("upgrade", "upgrade the schema (after a backup)"),
        ("check", "integrity and foreign-key checks; OK or each problem"),
        ("backup", "write a consistent copy"),
        ("use", "open this database from now on (saved in the user's settings)"),
    ):
        sp = dbsub.add_parser(name, help=text)
        _add_db_options(sp)
        if name == "backup":
            sp.add_argument(
                "--out", metavar="PATH", help="backup file (default: beside the database)"
            )
    life = sub.add_parser("lifecycle", help="permit deadlines")
    lifesub = life.add_subparsers(dest="lifecycle_command", required=True, parser_class=_Parser)
    sweep = lifesub.add_parser("sweep", help="mark permits whose deadline has passed expired")
    _add_db_options(sweep)
    due = lifesub.add_parser("due", help="permits with a deadline in the next days")
    _add_db_options(due)
    due.add_argument("--days", type=int, default=30)

    fees = sub.add_parser("fees", help="fee schedules and quotes")
    feesub = fees.add_subparsers(dest="fees_command", required=True, parser_class=_Parser)
    q = feesub.add_parser("quote", help="price a request read as JSON from standard input")
    q.add_argument("--municipality", required=True, metavar="KEY", help="e.g. glendale")
    q.add_argument("--db", metavar="PATH", help="price with this database's schedule")
    q.add_argument("--on", metavar="YYYY-MM-DD", help="the date whose version applies (today)")
    report = sub.add_parser("report", help="print reports")
    reportsub = report.add_subparsers(dest="report_command", required=True, parser_class=_Parser)
    route = reportsub.add_parser("route-sheet", help="an inspector's day as a PDF route sheet")
    _add_db_options(route)
    route.add_argument("--inspector", required=True, metavar="NAME", help="user name or full name")
    route.add_argument("--date", required=True, metavar="YYYY-MM-DD")
    route.add_argument("--pdf", required=True, metavar="F", help="the PDF file to write")
    return parser


def _url(args: argparse.Namespace) -> str:
    from permitdesk.config import resolve_url

    must_exist = args.command == "db" and args.db_command != "use"
    if getattr(args, "db", None) and must_exist and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    return resolve_url(getattr(args, "db", None), getattr(args, "database_url", None))


def cmd_db(args: argparse.Namespace) -> int:
    from db.database import open_database
    from db.engine import sqlite_backup, sqlite_file
    from db.migrate import backup_path, check

    url = _url(args)
    if args.db_command == "use":
        from permitdesk.config import save_database_url, settings_file

        database = open_database(url)  # creates or upgrades it, and proves it can be opened
        database.close()
        save_database_url(url)
        print(f"Permit Desk will open {database.where} (saved in {settings_file()}).")
        return 0
    if args.db_command == "upgrade":
        database = open_database(url, create=False)
        print(database.opened.message or f"The database is up to date ({database.where}).")
        database.close()
        return 0
    database = open_database(url, create=False, migrate=False)
    try:
        if args.db_command == "check":
            problems = check(database.engine)
            if not problems:
                print("OK")
                return 0
            for problem in problems:
                print(problem)
            return 1
        path = sqlite_file(database.engine)
        if path is None:
            raise UsageError("back up a PostgreSQL database with pg_dump on the server")
        out = Path(args.out) if args.out else backup_path(path, "backup")
        sqlite_backup(path, out)
        print(f"Backed up {path} to {out}")
        return 0
    finally:
        database.close()


def cmd_demo(args: argparse.Namespace) -> int:
    if args.years < 1 or args.years > 50:
        raise UsageError("--years must be between 1 and 50")
    if args.per_year < 0:
        raise UsageError("--per-year must not be negative")
    from db.database import open_database
    from db.demo import DemoSpec, build_demo
    from permitdesk.config import resolve_url

    if args.db:
        path = Path(args.db)
        if path.exists():
            if not args.replace:
                raise UsageError(f"{path} exists; pass --replace to overwrite it")
            for suffix in ("", "-wal", "-shm"):
                Path(str(path) + suffix).unlink(missing_ok=True)
    database = open_database(resolve_url(args.db, args.database_url))
    try:
        summary = build_demo(
            database,
            DemoSpec(
                municipality=args.municipality,
                years=args.years,
                per_year=args.per_year,
                seed=args.seed,
            ),
            progress=_print_progress,
        )
    finally:
        database.close()
    print(summary)
    return 0


def _print_progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done:,} / {total:,} permits", end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)


def cmd_gui(args: argparse.Namespace) -> int:
    size = (1280, 800)
    if args.size:
        try:
            w, h = (int(x) for x in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            raise UsageError(f"--size '{args.size}' is not WIDTHxHEIGHT, e.g. 1280x800") from None
    if args.screenshot and args.db and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    from ui.app import run_gui  # PySide6 is imported only here

    return run_gui(
        url=_url(args),
        screenshot=args.screenshot,
        view=args.view,
        size=size,
        user=args.user,
        search=args.search,
    )


def cmd_fees(args: argparse.Namespace) -> int:
    import json
    from datetime import date

    from desk.fees.jsonio import quote_to_json, request_from_json

    try:
        on = date.fromisoformat(args.on) if args.on else date.today()
    except ValueError:
        raise UsageError(f"--on '{args.on}' is not a date YYYY-MM-DD") from None
    request = request_from_json(sys.stdin.read())
    if args.db:
        from db import queries
        from db.database import open_database
        from desk.clock import SystemClock
        from desk.services.fees import quote
        from permitdesk.config import resolve_url

        if not Path(args.db).exists():
            raise UsageError(f"no database file at {args.db}")
        database = open_database(resolve_url(args.db, None), create=False)
        try:
            with database.read() as conn:
                muni = queries.municipality_by_key(conn, args.municipality)
            if muni is None:
                raise UsageError(f"the database has no municipality '{args.municipality}'")
            result = quote(database.uow(), SystemClock(), muni[0], request, on)
        finally:
            database.close()
    else:
        from desk.services.fees import quote_shipped

        result = quote_shipped(args.municipality, request, on)
    print(json.dumps(quote_to_json(result), indent=2))
    return 0


def cmd_lifecycle(args: argparse.Namespace) -> int:
    from db import queries
    from db.database import open_database
    from desk.clock import SystemClock
    from desk.services.lifecycle import lapsing_within, sweep_lapsed

    if args.db and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    if args.lifecycle_command == "due" and args.days < 0:
        raise UsageError("--days must not be negative")
    database = open_database(_url(args), create=False)
    try:
        with database.read() as conn:
            munis = queries.municipality_ids(conn)
        clock = SystemClock()
        for muni_id, name in munis:
            if args.lifecycle_command == "sweep":
                found = sweep_lapsed(database.uow(), clock, muni_id)
                verb = "expired"
            else:
                found = lapsing_within(database.uow(), clock, muni_id, args.days)
                verb = "due"
            for lapse in found:
                d = lapse.deadline
                print(
                    f"{lapse.number or f'#{lapse.permit_id}'}\t{verb}\t{d.due.isoformat()}"
                    f"\t{d.label} ({d.section})"
                )
            print(f"{name}: {len(found)} permit(s) {verb}")
    finally:
        database.close()
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from datetime import date

    from db import inspection_queries, queries
    from db.database import open_database

    if args.report_command == "route-sheet":
        try:
            day = date.fromisoformat(args.date)
        except ValueError:
            raise UsageError(f"--date '{args.date}' is not a date YYYY-MM-DD") from None
        if args.db and not Path(args.db).exists():
            raise UsageError(f"no database file at {args.db}")
        database = open_database(_url(args), create=False)
        try:
            with database.read() as conn:
                who = inspection_queries.user_by_name(conn, args.inspector)
                if who is None:
                    raise UsageError(f"no user named '{args.inspector}'")
                muni = queries.first_municipality(conn)
                if muni is None:
                    raise UsageError("the database has no municipality yet")
                sheet = inspection_queries.route_sheet(conn, muni[0], who[0], day)
        finally:
            database.close()
        from reports.route_sheet import render_route_sheet

        out = Path(args.pdf)
        render_route_sheet(sheet, out)
        print(f"{len(sheet.stops)} stop(s) for {sheet.inspector_name} on {day.isoformat()}: {out}")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "gui": cmd_gui,
    "demo": cmd_demo,
    "db": cmd_db,
    "fees": cmd_fees,
    "lifecycle": cmd_lifecycle,
    "report": cmd_report,
}


def main(argv: Sequence[str] | None = None) -> int:
    from db.engine import DatabaseError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["gui", *(argv or sys.argv[1:])])
        return COMMANDS[args.command](args)
    except (UsageError, DeskError, DatabaseError) as e:
        print(f"permitdesk: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a file that cannot be read or written
        print(
            f"permitdesk: error: {e.strerror or e}: {e.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        return 130
