"""`permitdesk` command line. Commands that need no window never import PySide6 (fast start)."""

from __future__ import annotations

import argparse
import errno
import re
import sys
from collections.abc import Callable, Sequence
from datetime import date as date_type
from decimal import Decimal
from pathlib import Path
from typing import Any

from desk import __version__
from desk.errors import DeskError
from permitdesk import arguments as types
from permitdesk import (
    audit_commands,
    db_commands,
    enforcement_commands,
    housing_commands,
    parcel_commands,
    people_commands,
    signing,
    user_commands,
)
from ui.presenters import views  # plain text, no Qt


class UsageError(Exception):
    """A user error: exit 2 with one line, never a traceback."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # "argument --days: must be between ..." (permitdesk.arguments) -> "--days must be ..."
        raise UsageError(re.sub(r"^argument (--\S+): (?=['m])", r"\1 ", message))


DB_DEFAULT = (
    "default: $PERMITDESK_DATABASE_URL, else the database chosen with `permitdesk db use`, "
    "else permitdesk.db in your data folder"
)


def _add_db_options(p: argparse.ArgumentParser, *, required: bool = False) -> None:
    g = p.add_mutually_exclusive_group(required=required)
    default = "this or --database-url is required" if required else DB_DEFAULT
    g.add_argument("--db", metavar="PATH", help=f"SQLite database file ({default})")
    g.add_argument(
        "--database-url",
        metavar="URL",
        help="e.g. postgresql://user@host/permitdesk ("
        + ("this or --db is required" if required else "default: as for --db")
        + ")",
    )


def _add_signed_db_options(p: argparse.ArgumentParser) -> None:
    """The database and the sign-in of a command that reads the register's data or writes."""
    _add_db_options(p)
    signing.add_sign_in_options(p)


def _view_help() -> str:
    # Read from ui.presenters.views when the parser is built, so new views list themselves.
    names = views.VIEW_HELP.replace("%", "%%")
    reports = ", ".join(views.REPORT_PAGES)
    return f"the view --screenshot renders (default: %(default)s): {names}; REPORT: {reports}"


def _municipalities_help() -> str:
    from desk.profiles import shipped_profiles

    names = ", ".join(f"{k} ({p.get('name', k)})" for k, p in shipped_profiles().items())
    return f"the municipality whose kinds, fees and streets the demo uses: {names}"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="permitdesk", description="Permit Desk: building permits, fees, inspections."
    )
    parser.add_argument("--version", action="version", version=f"permitdesk {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    gui = sub.add_parser("gui", help="start the application (the default)")
    _add_db_options(gui)
    gui.add_argument(
        "--screenshot",
        metavar="OUT.png",
        help="render a view offscreen, save it to this PNG file and exit; needs no display "
        "(default: open the window)",
    )
    gui.add_argument(
        "--start-frame",
        metavar="OUT.png",
        help="show only the frame a start paints first, save it to this PNG file and exit "
        "(to time how soon a start shows something; `make bench`)",
    )
    gui.add_argument("--view", default="permits", help=_view_help())
    gui.add_argument(
        "--size",
        type=types.size,
        default="1280x800",
        help="window size for --screenshot, WxH (default: %(default)s)",
    )
    gui.add_argument(
        "--user",
        help="sign in as this user (default: ask; for --screenshot: admin on a demo database; "
        "on real data required, with the password the first line of standard input, or "
        f"{signing.TOKEN_ENV} set to the user's sign-in token)",
    )
    gui.add_argument(
        "--search",
        default="",
        help="text typed in the permits search for --screenshot (default: none)",
    )

    demo = sub.add_parser("demo", help="build a demo database")
    _add_db_options(demo, required=True)
    demo.add_argument(
        "--municipality",
        default="glendale",
        metavar="KEY",
        help=f"{_municipalities_help()} (default: %(default)s)",
    )
    demo.add_argument(
        "--years",
        type=types.demo_years,
        default=3,
        help="how many years of permits, up to today, 1 to 50 (default: %(default)s)",
    )
    demo.add_argument(
        "--per-year",
        type=types.per_year,
        default=400,
        help=f"permits per year, 1 to {types.MAX_PER_YEAR:,} (default: %(default)s)",
    )
    demo.add_argument(
        "--seed",
        type=types.seed,
        default=1,
        help="random seed: the same seed builds the same permits (default: %(default)s)",
    )
    demo.add_argument(
        "--replace",
        action="store_true",
        help="delete an existing SQLite file first (default: refuse to touch it)",
    )

    db_commands.add_commands(sub, _Parser, _add_db_options)  # db/roles.py on PostgreSQL
    life = sub.add_parser("lifecycle", help="permit deadlines")
    lifesub = life.add_subparsers(dest="lifecycle_command", required=True, parser_class=_Parser)
    sweep = lifesub.add_parser("sweep", help="mark permits whose deadline has passed expired")
    _add_signed_db_options(sweep)
    due = lifesub.add_parser("due", help="permits with a deadline in the next days")
    _add_signed_db_options(due)
    due.add_argument("--days", type=types.days, default=30)

    fees = sub.add_parser("fees", help="fee schedules and quotes")
    feesub = fees.add_subparsers(dest="fees_command", required=True, parser_class=_Parser)
    text = "price a request read as JSON from standard input"
    q = feesub.add_parser(
        "quote",
        help=text,
        description=f"{text}. With --db a user signs in: the password is the first line of "
        "standard input, the JSON the rest.",
    )
    q.add_argument("--municipality", required=True, metavar="KEY", help="e.g. glendale")
    q.add_argument(
        "--db",
        metavar="PATH",
        help="price with this database's schedule (a user signs in: --user; default: the "
        "shipped schedule, no sign-in)",
    )
    signing.add_sign_in_options(q)
    q.add_argument(
        "--on",
        type=types.iso_date,
        metavar="YYYY-MM-DD",
        help="the date whose version applies (today)",
    )
    report = sub.add_parser("report", help="print reports")
    reportsub = report.add_subparsers(dest="report_command", required=True, parser_class=_Parser)
    route = reportsub.add_parser("route-sheet", help="an inspector's day as a PDF route sheet")
    _add_signed_db_options(route)
    route.add_argument("--inspector", required=True, metavar="NAME", help="user name or full name")
    route.add_argument("--date", type=types.iso_date, required=True, metavar="YYYY-MM-DD")
    route.add_argument("--pdf", required=True, metavar="F", help="the PDF file to write")
    daily = reportsub.add_parser(
        "daily-cash", help="a day's receipts, voids, expected and counted money per drawer"
    )
    _add_signed_db_options(daily)
    daily.add_argument("--date", type=types.iso_date, required=True, metavar="YYYY-MM-DD")
    daily.add_argument("--xlsx", metavar="F", help="the spreadsheet to write")
    daily.add_argument("--pdf", metavar="F", help="the PDF file to write")
    recon = reportsub.add_parser(
        "reconciliation", help="the treasurer's reconciliation of a period"
    )
    _add_signed_db_options(recon)
    recon.add_argument(
        "--from", dest="start", type=types.iso_date, required=True, metavar="YYYY-MM-DD"
    )
    recon.add_argument("--to", dest="end", type=types.iso_date, required=True, metavar="YYYY-MM-DD")
    recon.add_argument("--xlsx", metavar="F", help="the spreadsheet to write")
    recon.add_argument("--pdf", metavar="F", help="the PDF file to write")
    # The street deposits' refund queue and the bonds and certificates expiring.
    deposits = reportsub.add_parser(
        "deposits", help="street deposits as of a day: the refund queue (15.1.43)"
    )
    _add_signed_db_options(deposits)
    deposits.add_argument(
        "--as-of", dest="as_of", type=types.iso_date, metavar="YYYY-MM-DD", help="default: today"
    )
    deposits.add_argument("--xlsx", metavar="F", help="the spreadsheet to write")
    deposits.add_argument("--pdf", metavar="F", help="the PDF file to write")
    expiring = reportsub.add_parser(
        "expiring", help="bonds and insurance certificates expiring in the next days"
    )
    _add_signed_db_options(expiring)
    expiring.add_argument("--days", type=types.days, default=60)
    expiring.add_argument("--xlsx", metavar="F", help="the spreadsheet to write")
    expiring.add_argument("--pdf", metavar="F", help="the PDF file to write")
    expiring.add_argument("--letters", metavar="F", help="also write the reminder letters (PDF)")
    _add_council_report_commands(reportsub, sub)  # council, state, Census, BLDS
    user_commands.add_commands(sub, _Parser, _add_db_options)
    audit_commands.add_commands(sub, _Parser, _add_db_options)
    housing_commands.add_commands(sub, _Parser)  # occupancy limits (Hudson 140-7, 512-11)
    enforcement_commands.add_commands(sub, _Parser, _add_db_options)  # Hudson 140-3
    parcel_commands.add_commands(sub, _Parser, _add_db_options)  # the county's parcel file
    people_commands.add_commands(sub, _Parser, _add_db_options)  # contractors' spreadsheet
    return parser


def _url(args: argparse.Namespace) -> str:
    from permitdesk.config import resolve_url

    must_exist = args.command == "db" and args.db_command not in ("use", "init", "restore")
    if getattr(args, "db", None) and must_exist and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    return resolve_url(getattr(args, "db", None), getattr(args, "database_url", None))


def cmd_demo(args: argparse.Namespace) -> int:
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
    size: tuple[int, int] = args.size  # permitdesk.arguments.size checked it
    if args.screenshot and args.db and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    if args.start_frame:
        return _start_frame_only(args.start_frame)
    if not args.screenshot and no_display():
        # Otherwise Qt prints a page about platform plugins and aborts (exit 134).
        raise UsageError(
            "no display: start Permit Desk on the desktop (DISPLAY and WAYLAND_DISPLAY are not "
            "set), or use --screenshot OUT.png to render a view without one"
        )
    user = _screenshot_user(args) if args.screenshot else args.user
    # PySide6 is imported only here. A window shows before the data layer and the sections
    # are imported (most of a start), and gives way to the sign-in.
    frame = None
    if not args.screenshot:
        from ui.application import show_start_frame

        frame = show_start_frame()
    from ui.app import run_gui

    return run_gui(
        url=_url(args),
        screenshot=args.screenshot,
        view=args.view,
        size=size,
        user=user,
        search=args.search,
        start_frame=frame,
    )


def _start_frame_only(out: str) -> int:
    import os

    from ui.application import show_start_frame

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if not show_start_frame().grab().save(out):
        raise UsageError(f"cannot write {out}")
    return 0


def _screenshot_user(args: argparse.Namespace) -> str | None:
    """The user a screenshot of real data shows the register as, signed in here (the password
    on standard input, or the token): a screenshot shows what that user may see. A demo
    register's logins are public (its README gives them), so it needs none."""
    from db import queries
    from db.database import open_database
    from desk.clock import SystemClock

    if not args.user and not signing.token_given():
        return None  # ui.app: the demo's admin, or refused on real data
    database = open_database(_url(args), create=False)
    try:
        with database.read() as conn:
            if queries.is_demo(conn):
                return str(args.user) if args.user else None
        return signing.signed_in(args, database, SystemClock()).username
    finally:
        database.close()


def cmd_fees(args: argparse.Namespace) -> int:
    import json
    from datetime import date

    from desk.fees.jsonio import quote_to_json, request_from_json

    try:
        on = date.fromisoformat(args.on) if args.on else date.today()
    except ValueError:
        raise UsageError(f"--on '{args.on}' is not a date YYYY-MM-DD") from None
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
            # The password is the first line of standard input; the JSON request the rest.
            signing.signed_in(args, database, SystemClock())
            request = request_from_json(sys.stdin.read())
            with database.read() as conn:
                muni = queries.municipality_by_key(conn, args.municipality)
            if muni is None:
                raise UsageError(f"the database has no municipality '{args.municipality}'")
            result = quote(database.uow(), SystemClock(), muni[0], request, on)
        finally:
            database.close()
    else:
        from desk.services.fees import quote_shipped

        result = quote_shipped(args.municipality, request_from_json(sys.stdin.read()), on)
    print(json.dumps(quote_to_json(result), indent=2))
    return 0


def cmd_lifecycle(args: argparse.Namespace) -> int:
    from db import queries
    from desk.clock import SystemClock
    from desk.services.lifecycle import lapsing_within, sweep_lapsed

    if args.db and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    if args.lifecycle_command == "due" and args.days < 0:
        raise UsageError("--days must not be negative")
    database, actor = _open_signed(args, check=args.lifecycle_command == "due")
    try:
        with database.read() as conn:
            munis = queries.municipality_ids(conn)
        clock = SystemClock()
        for muni_id, name in munis:
            if args.lifecycle_command == "sweep":
                found = sweep_lapsed(database.uow(), clock, muni_id, actor)
                verb = "expired"
            else:
                found = lapsing_within(database.uow(), clock, muni_id, args.days)
                verb = "due"
            for lapse in found:
                d = lapse.deadline
                said = "flagged" if lapse.flag else verb  # 15.1.13(d): not expired, to act on
                print(
                    f"{lapse.number or f'#{lapse.permit_id}'}\t{said}\t{d.due.isoformat()}"
                    f"\t{d.label} ({d.section})" + (f"\t{lapse.flag}" if lapse.flag else "")
                )
            print(f"{name}: {len([f for f in found if not f.flag])} permit(s) {verb}")
    finally:
        database.close()
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    if args.report_command in COUNCIL_REPORTS:
        return cmd_council_report(args)
    if args.report_command in ("deposits", "expiring"):
        return _surety_report(args)
    from db import inspection_queries

    if args.report_command == "route-sheet":
        day = _iso_date(args.date, "--date")
        database, _actor = _open_signed(args)
        try:
            with database.read() as conn:
                who = inspection_queries.user_by_name(conn, args.inspector)
                if who is None:
                    raise UsageError(f"no user named '{args.inspector}'")
                muni = _first_municipality(conn)
                sheet = inspection_queries.route_sheet(conn, muni[0], who[0], day)
        finally:
            database.close()
        from reports.route_sheet import render_route_sheet

        out = Path(args.pdf)
        render_route_sheet(sheet, out)
        print(f"{len(sheet.stops)} stop(s) for {sheet.inspector_name} on {day.isoformat()}: {out}")
    if args.report_command in ("daily-cash", "reconciliation"):
        return _cash_report(args)
    return 0


def _iso_date(text: str, option: str) -> date_type:
    try:
        return date_type.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{option} '{text}' is not a date YYYY-MM-DD") from None


def _over_short(amount: Decimal) -> str:
    from desk.money import format_money

    if not amount:
        return "no over/short"
    return f"{format_money(abs(amount))} {'over' if amount > 0 else 'short'}"


def _cash_reports_need() -> Any:
    """The window shows the cash pages (the Treasurer section) to these permissions' roles."""
    from desk.domain.permissions import Permission

    return (Permission.CLOSE_DRAWER, Permission.ACKNOWLEDGE_TURNOVER, Permission.REFUND)


def _cash_report(args: argparse.Namespace) -> int:
    """`report daily-cash` and `report reconciliation`: the screens' figures (db.cash_queries
    and the reconciliation service), as .xlsx and/or .pdf, and a summary line on stdout."""
    from db import audit_anchors, cash_queries, queries
    from desk.clock import SystemClock
    from desk.money import format_money
    from desk.services.cashiering import reconciliation

    if args.report_command == "daily-cash":
        day = _iso_date(args.date, "--date")
    else:
        start, end = _iso_date(args.start, "--from"), _iso_date(args.end, "--to")
        if end < start:
            raise UsageError(f"--to {end.isoformat()} is before --from {start.isoformat()}")
    # The window shows the cash pages (the Treasurer section) to these permissions' roles.
    database, _actor = _open_signed(args, need=_cash_reports_need(), doing="see the cash reports")
    try:
        with database.read() as conn:
            muni = _first_municipality(conn)
            letterhead = queries.municipality_letterhead(conn, muni[0])
            if args.report_command == "daily-cash":
                report = cash_queries.daily_cash(conn, muni[0], day)
                anchor = audit_anchors.head(conn)  # read after the report: it covers it
        if args.report_command == "reconciliation":
            recon = reconciliation(database.uow(), SystemClock(), muni[0], start, end)
    finally:
        database.close()
    from reports import cash_reports

    written = []
    if args.report_command == "daily-cash":
        if args.xlsx:
            cash_reports.export_daily_cash_xlsx(report, Path(args.xlsx))
            written.append(args.xlsx)
        if args.pdf:
            cash_reports.render_daily_cash_pdf(report, Path(args.pdf), anchor)
            written.append(args.pdf)
        e, c = report.expected, report.counted
        closed = sum(1 for d in report.drawers if d.closed)
        print(
            f"{day.isoformat()}: {sum(d.receipt_count for d in report.drawers)} receipt(s), "
            f"expected {format_money(e.total)}, counted {format_money(c.total)} in {closed} of "
            f"{len(report.drawers)} drawer(s) closed, {_over_short(report.over_short)}"
            + (f": {', '.join(written)}" if written else "")
        )
        return 0
    if args.xlsx:
        cash_reports.export_reconciliation_xlsx(recon, muni[2], Path(args.xlsx))
        written.append(args.xlsx)
    if args.pdf:
        cash_reports.render_reconciliation_pdf(recon, muni[2], letterhead, Path(args.pdf))
        written.append(args.pdf)
    print(
        f"{start.isoformat()} to {end.isoformat()}: net collections {format_money(recon.net)} = "
        f"acknowledged {format_money(recon.acknowledged)} + pending "
        f"{format_money(recon.pending)} + undeposited {format_money(recon.undeposited)}; "
        + ("balanced" if recon.balanced else "OUT OF BALANCE")
        + (f": {', '.join(written)}" if written else "")
    )
    return 0


# --- reports to the Council, the state and the Census; the BLDS export -----------------------

COUNCIL_REPORTS = ("monthly", "annual", "c404", "act211")


def _add_council_report_commands(
    reportsub: argparse._SubParsersAction,
    sub: argparse._SubParsersAction,
) -> None:
    def outputs(p: argparse.ArgumentParser) -> None:
        _add_signed_db_options(p)
        p.add_argument("--municipality", metavar="KEY", help="e.g. glendale (default: the first)")
        p.add_argument("--xlsx", metavar="F", help="the Excel workbook to write")
        p.add_argument("--pdf", metavar="F", help="the PDF file to write")

    monthly = reportsub.add_parser(
        "monthly",
        help="monthly permit activity per trade (15.1.74(b), 15.1.34(b)(8)); code enforcement only "
        "for a municipality without permits (Hudson)",
    )
    outputs(monthly)
    monthly.add_argument("--month", required=True, metavar="YYYY-MM")
    monthly.add_argument("--trade", help="one trade only, e.g. electrical or plumbing")
    annual = reportsub.add_parser(
        "annual",
        help="the annual report to the Common Council (15.1.6(c); code enforcement only for a "
        "municipality without permits)",
    )
    outputs(annual)
    annual.add_argument("--year", required=True, metavar="YYYY")
    annual.add_argument("--trade", help="one trade only (electrical: the 15.1.74(b) report)")
    annual.add_argument(
        "--no-register", action="store_true", help="leave out the list of every permit issued"
    )
    c404 = reportsub.add_parser("c404", help="Census Bureau Form C-404, new housing units")
    outputs(c404)
    period = c404.add_mutually_exclusive_group(required=True)
    period.add_argument("--month", metavar="YYYY-MM")
    period.add_argument("--year", metavar="YYYY")
    act211 = reportsub.add_parser(
        "act211", help="new dwelling permits to file with the state (SPS 320.09)"
    )
    outputs(act211)
    act211.add_argument("--month", required=True, metavar="YYYY-MM")

    export = sub.add_parser("export", help="open-data exports")
    exportsub = export.add_subparsers(dest="export_command", required=True, parser_class=_Parser)
    blds = exportsub.add_parser(
        "blds", help="BLDS permits.csv, inspections.csv and contractors.csv"
    )
    _add_signed_db_options(blds)
    blds.add_argument("--municipality", metavar="KEY", help="e.g. glendale (default: the first)")
    blds.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")


def _open_for_report(args: argparse.Namespace) -> Any:
    from db.database import open_database

    if args.db and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    return open_database(_url(args), create=False)


def _open_signed(
    args: argparse.Namespace, *, need: signing.Need = None, doing: str = "", check: bool = True
) -> tuple[Any, Any]:
    """(the database, the actor): the register opened, checked for damage (`check`: a report
    or a list made from a damaged file would leave rows out without a word) and a user signed
    in with what `need` asks for. The caller closes the database."""
    from db.integrity import refuse_damaged
    from desk.clock import SystemClock

    database = _open_for_report(args)
    try:
        if check:
            refuse_damaged(database.engine)
        actor = signing.signed_in(args, database, SystemClock(), need=need, doing=doing)
    except BaseException:
        database.close()
        raise
    return database, actor


def _first_municipality(conn: Any) -> Any:
    """The register's municipality (id, key, name), for the reports that serve the first."""
    from db import queries

    muni = queries.first_municipality(conn)
    if muni is None:
        raise UsageError("the database has no municipality yet")
    return muni


def cmd_council_report(args: argparse.Namespace) -> int:
    """report monthly|annual|c404|act211: the workbook and/or the PDF, one line on stdout."""
    from desk.clock import SystemClock
    from desk.domain import reports as r

    if not args.xlsx and not args.pdf:
        raise UsageError("nothing to write: give --xlsx F, --pdf F or both")
    kind = args.report_command
    # desk.domain.reports bounds them (1900 to 2100, ASCII digits); '' is refused, not skipped.
    given_month, given_year = getattr(args, "month", None), getattr(args, "year", None)
    month = r.parse_month(given_month, "--month") if given_month is not None else None
    year = r.parse_year(given_year, "--year") if given_year is not None else None
    if (kind in ("monthly", "act211") and month is None) or (kind == "annual" and year is None):
        raise UsageError("give the period: --month YYYY-MM or --year YYYY")
    trade = r.check_trade(getattr(args, "trade", None), "--trade")
    database, _actor = _open_signed(args)
    try:
        from db import report_queries as q

        with database.read() as conn:
            mid = q.municipality_id_for(conn, args.municipality)
            if kind == "monthly":
                assert month is not None
                report: Any = q.monthly_report(conn, mid, *month, trade=trade)
            elif kind == "annual":
                assert year is not None
                report = q.annual_report(
                    conn, mid, year, trade, include_register=not args.no_register
                )
            elif kind == "c404":
                period = r.month_period(*month) if month else r.year_period(year or 0)
                report = q.c404_report(conn, mid, period)
            else:
                assert month is not None
                q.check_report_offered(conn, mid, r.ReportKind.ACT211)
                report = q.act211_report(conn, mid, *month, SystemClock().today())
    finally:
        database.close()
    from reports.report_files import write_report

    written = write_report(report, args.xlsx, args.pdf, prepared_on=SystemClock().today())
    print(f"{report.title}: {', '.join(written)}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """export blds --out DIR: permits.csv, inspections.csv and contractors.csv."""
    from db import report_queries as q
    from reports.blds import export_blds

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file, not a folder")
    database, _actor = _open_signed(args)
    try:
        with database.read() as conn:
            mid = q.municipality_id_for(conn, args.municipality)
            # A municipality with code enforcement only has no permits to export (Hudson).
            if not q.has_permit_kinds(q.heading(conn, mid).municipality_key):
                raise UsageError(
                    "the BLDS export is of permits; this municipality has no permit kinds"
                )
            result = export_blds(
                out,
                (q.BLDS_PERMIT_FIELDS, q.blds_permit_rows(conn, mid)),
                (q.BLDS_INSPECTION_FIELDS, q.blds_inspection_rows(conn, mid)),
                (q.BLDS_CONTRACTOR_FIELDS, q.blds_contractor_rows(conn, mid)),
            )
    finally:
        database.close()
    print(f"BLDS export: {result.summary}")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "gui": cmd_gui,
    "demo": cmd_demo,
    "db": lambda args: db_commands.run(args, _url(args), UsageError),
    "fees": cmd_fees,
    "lifecycle": cmd_lifecycle,
    "report": cmd_report,
    "export": cmd_export,  # the BLDS open-data files
    "users": lambda args: user_commands.run(args, _url(args), UsageError),
    "audit": lambda args: audit_commands.run(args, _url(args), UsageError),
    "housing": lambda args: housing_commands.run(args, UsageError),
    "enforcement": lambda args: enforcement_commands.run(args, _url(args), UsageError),
    "parcels": lambda args: parcel_commands.run(args, _url(args), UsageError),
    "people": lambda args: people_commands.run(args, _url, UsageError),
}


def no_display() -> bool:
    """Linux with no X11 or Wayland display and no platform chosen by QT_QPA_PLATFORM."""
    import os

    if not sys.platform.startswith("linux"):
        return False
    return not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


EXIT_USER, EXIT_FOUND, EXIT_ENVIRONMENT = 2, 1, 3
_ENVIRONMENT_ERRNOS = (errno.ENOSPC, errno.EROFS, errno.EDQUOT)


def main(argv: Sequence[str] | None = None) -> int:
    """The one boundary: expected failures become one line on stderr and an exit code (2 a
    user error, 3 the environment); anything else one sentence naming the log, exit 1."""
    from permitdesk.logs import configure_logging

    log_path = configure_logging()
    parser = build_parser()
    args: argparse.Namespace | None = None
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["gui", *(argv or sys.argv[1:])])
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        code, message = _explain(e, args, log_path)
        print(f"permitdesk: error: {_one_line(message)}", file=sys.stderr)
        return code


def _one_line(message: str) -> str:
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


def _explain(
    e: Exception, args: argparse.Namespace | None, log_path: Path | None
) -> tuple[int, str]:
    """The exit code and the sentence for an exception that reached main()."""
    import logging
    import sqlite3

    from sqlalchemy import exc as sa

    from db.engine import DatabaseError

    chain = _causes(e)
    driver = next((c for c in chain if isinstance(c, sa.DBAPIError)), None)
    reason = _one_line(str(driver.orig if driver is not None else e)) or type(e).__name__
    if isinstance(e, OSError) and e.errno in _ENVIRONMENT_ERRNOS:
        return EXIT_ENVIRONMENT, f"{e.strerror}: {e.filename or _output(args)}".rstrip(": ")
    if isinstance(e, sqlite3.DatabaseError | sa.DatabaseError) and "disk is full" in reason:
        return EXIT_ENVIRONMENT, f"{_where(args)}: {reason}"
    if driver is not None and _is_server(args):
        if "does not exist" in reason:
            return EXIT_USER, f"{_where(args)}: {_short(reason)}"
        if isinstance(driver, sa.OperationalError | sa.InterfaceError):
            return EXIT_ENVIRONMENT, (
                f"cannot reach the database server at {_server(args)} ({_short(reason)})"
            )
    if isinstance(e, UsageError | DeskError | DatabaseError):
        return EXIT_USER, str(e)
    if isinstance(e, sqlite3.DatabaseError | sa.DatabaseError):
        if any(s in reason for s in ("not a database", "malformed", "encrypted", "no such")):
            return EXIT_USER, f"{_where(args)} is not a Permit Desk database ({reason})"
        return EXIT_USER, f"cannot use the database {_where(args)} ({reason})"
    if isinstance(e, OSError):
        return EXIT_USER, f"{e.strerror or e}: {e.filename or ''}".rstrip(": ")
    if isinstance(e, ValueError | OverflowError) and not isinstance(e, UnicodeError):
        return EXIT_USER, f"a value is out of range or malformed ({_short(str(e))})"
    logging.getLogger("permitdesk").exception("permitdesk %s failed", _argv_text(args))
    where = f"the details are in {log_path}" if log_path else "no log could be written"
    return EXIT_FOUND, f"something went wrong ({type(e).__name__}); {where}"


def _causes(e: BaseException) -> list[BaseException]:
    """e and the exceptions it was raised from or while handling (even `from None`)."""
    seen: list[BaseException] = []
    current: BaseException | None = e
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _short(reason: str) -> str:
    """psycopg's 'connection failed: connection to server at "h", port p failed: Connection
    refused' -> 'Connection refused'; 'FATAL:  database "x" does not exist' -> its text."""
    text = _one_line(reason)
    text = text.rsplit(" failed: ", 1)[-1]
    text = text.split("Is the server running")[0].strip()
    for prefix in ("FATAL:", "ERROR:", "connection failed:"):
        text = text.removeprefix(prefix).strip()
    return text[:200] or "no reason given"


def _database_url(args: argparse.Namespace | None) -> Any:
    from sqlalchemy.engine import make_url

    if args is None:
        return None
    try:
        return make_url(_url(args))
    except Exception:
        return None


def _is_server(args: argparse.Namespace | None) -> bool:
    url = _database_url(args)
    return url is not None and url.get_backend_name() != "sqlite"


def _server(args: argparse.Namespace | None) -> str:
    url = _database_url(args)
    if url is None:
        return "the configured address"
    return f"{url.host or 'localhost'}:{url.port or 5432}"


def _output(args: argparse.Namespace | None) -> str:
    """The file a command was writing (a PDF writer's OSError does not name it)."""
    paths = [getattr(args, name, None) for name in ("out", "pdf", "xlsx")]
    return ", ".join(str(p) for p in paths if p)


def _where(args: argparse.Namespace | None) -> str:
    """The database named in messages: the SQLite file, or the URL without its password."""
    url = _database_url(args)
    if url is None:
        return str(getattr(args, "db", None) or "the database")
    if url.get_backend_name() == "sqlite":
        return str(url.database)
    return str(url.render_as_string(hide_password=True))


def _argv_text(args: argparse.Namespace | None) -> str:
    if args is None:
        return "(arguments not parsed)"
    return " ".join(str(v) for k, v in sorted(vars(args).items()) if k.endswith("command") and v)


def _surety_report(args: argparse.Namespace) -> int:
    """`report deposits` and `report expiring`: .xlsx and/or .pdf, and a summary
    line on stdout."""
    from db import surety_queries
    from desk.clock import FixedClock, SystemClock
    from desk.money import format_money
    from desk.services import sureties

    if args.db and not Path(args.db).exists():
        raise UsageError(f"no database file at {args.db}")
    if args.report_command == "expiring" and args.days < 0:
        raise UsageError("--days must not be negative")
    today = SystemClock().today()
    as_of = today
    if args.report_command == "deposits" and args.as_of:
        as_of = _iso_date(args.as_of, "--as-of")
    database, _actor = _open_signed(args)
    try:
        with database.read() as conn:
            muni = _first_municipality(conn)
            head = surety_queries.letterhead(conn, muni[0])
            if args.report_command == "deposits":
                report = surety_queries.deposits_report(conn, muni[0], as_of)
        if args.report_command == "expiring":
            rows = sureties.expiry_watch(database.uow(), FixedClock(today), muni[0], args.days)
    finally:
        database.close()
    from reports import surety_reports

    written: list[str] = []
    if args.report_command == "deposits":
        if args.xlsx:
            surety_reports.export_deposits_xlsx(report, Path(args.xlsx))
            written.append(args.xlsx)
        if args.pdf:
            surety_reports.render_deposits_pdf(report, Path(args.pdf))
            written.append(args.pdf)
        counts = ", ".join(f"{len(lines)} {title.lower()}" for title, lines in report.sections)
        print(
            f"{as_of.isoformat()}: {report.count} street deposit(s), "
            f"{format_money(report.held)} held; {counts}"
            + (f": {', '.join(written)}" if written else "")
        )
        return 0
    expiring = sureties.ExpiringReport(head, today, args.days, tuple(rows))
    if args.xlsx:
        surety_reports.export_expiring_xlsx(expiring, Path(args.xlsx))
        written.append(args.xlsx)
    if args.pdf:
        surety_reports.render_expiring_pdf(expiring, Path(args.pdf))
        written.append(args.pdf)
    if args.letters:
        from reports.surety_letters import render_reminder_letters

        render_reminder_letters(sureties.reminder_letters(head, today, rows), Path(args.letters))
        written.append(args.letters)
    ended = sum(1 for r in rows if r.expired)
    print(
        f"{len(rows)} bond(s) and certificate(s) end within {args.days} days, {ended} already "
        "ended while a permit relies on it" + (f": {', '.join(written)}" if written else "")
    )
    return 0
