"""`permitdesk people ...`: the register's people from the command line.

- `import FILE [--sheet NAME] [--dry-run] [--report OUT.xlsx]`: contractors from a CSV file or
  an Excel workbook, as People → Import contractors… does it: the dry run printed (and written
  as a workbook with --report), then the import in one transaction. A user allowed to import
  signs in (--user U with the password on standard input, or PERMITDESK_TOKEN); the audit
  trail names them. A file that cannot be imported is one sentence naming it, exit 2, and
  nothing is written.
- `template OUT.xlsx`: the contractors' template workbook, to fill in and import.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from permitdesk import signing


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    people = sub.add_parser("people", help="the register's people: import contractors")
    peoplesub = people.add_subparsers(
        dest="people_command", required=True, parser_class=parser_class
    )
    text = (
        "import contractors and their state credentials from a CSV file or an Excel workbook "
        "with the template's headings; the dry run is printed first (a clerk or an administrator "
        "signs in: --user)"
    )
    imp = peoplesub.add_parser("import", help=text, description=text)
    imp.add_argument("file", type=Path, metavar="FILE", help="the .csv or .xlsx file")
    imp.add_argument(
        "--sheet",
        metavar="NAME",
        help="the workbook's sheet (default: Contractors, else the first with a Name column)",
    )
    imp.add_argument(
        "--dry-run", action="store_true", help="print what the import would do; write nothing"
    )
    imp.add_argument(
        "--report", type=Path, metavar="OUT.xlsx", help="also write the dry run as a workbook"
    )
    imp.add_argument(
        "--municipality",
        metavar="KEY",
        help="the municipality the import is recorded under (default: the register's first)",
    )
    add_db_options(imp)
    signing.add_sign_in_options(imp)
    text = "write the contractors' template workbook (the headings and how to fill it in)"
    template = peoplesub.add_parser("template", help=text, description=text)
    template.add_argument("out", type=Path, metavar="OUT.xlsx", help="the workbook to write")


def run(
    args: argparse.Namespace,
    url: Callable[[argparse.Namespace], str],
    usage_error: type[Exception],
) -> int:
    if args.people_command == "template":
        return _template(args.out, usage_error)
    return _import(args, url, usage_error)


def _template(out: Path, usage_error: type[Exception]) -> int:
    from reports.contractor_template import write_contractor_template

    if out.suffix.lower() != ".xlsx":
        raise usage_error(f"{out}: give a workbook name ending in .xlsx")
    if out.is_dir():
        raise usage_error(f"{out} is a folder; give the workbook's name")
    write_contractor_template(out)
    print(f"The contractors' template is written to {out}")
    return 0


def _import(
    args: argparse.Namespace,
    url: Callable[[argparse.Namespace], str],
    usage_error: type[Exception],
) -> int:
    from db.database import open_database
    from db.queries import municipality_ids
    from db.report_queries import municipality_id_for
    from desk.clock import SystemClock
    from desk.dates import short_date
    from desk.domain.permissions import Permission
    from desk.errors import NotFound
    from desk.imports.contractors import expiry_text
    from desk.imports.files import SourceFile
    from desk.services.people import contractors
    from reports.contractor_import_report import export_contractor_dry_run_xlsx

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    if args.report is not None and args.report.suffix.lower() != ".xlsx":
        raise usage_error(f"--report {args.report}: give a workbook name ending in .xlsx")
    clock = SystemClock()
    # The file first: a file that cannot be read is refused before the register is opened.
    source = SourceFile(args.file)
    parsed = contractors.read_contractor_file(source, args.sheet)
    database = open_database(url(args), create=False)
    try:
        actor = signing.signed_in(args, database, clock, need=Permission.IMPORT_DATA)
        with database.read() as conn:
            try:
                mid = municipality_id_for(conn, args.municipality)
            except NotFound as e:
                raise usage_error(str(e)) from None
            name = dict(municipality_ids(conn))[mid]
        plan = contractors.dry_run_contractors(database.uow(), actor, parsed)
        print(f"{parsed.file_name}: {plan.rows_read:,} rows read")
        print(plan.summary())
        for c in plan.changed:
            for f in c.changes:
                print(f"  changed\t{c.name}\t{f.label}: {f.old} → {f.new}")
        for r in plan.renewed:
            print(
                f"  renewed\t{r.name}\t{r.kind.label} {r.old_number} "
                f"({expiry_text(r.old_expires_on)}) → {r.number} ({expiry_text(r.expires_on)})"
            )
        if plan.rejected:
            print("Rejected rows:")
            for x in plan.rejected:
                print(f"  row {x.line}\t{x.name or '(no name)'}\t{x.reason}")
        for note in plan.notes:
            print(f"  note: row {note.line}\t{note.text}")
        if args.report is not None:
            export_contractor_dry_run_xlsx(
                plan, args.report, file_name=source.name, municipality=name, made_on=clock.today()
            )
            print(f"The dry run is written to {args.report}")
        if args.dry_run:
            print("Dry run: nothing was written.")
            return 0
        if not plan.writes:
            print("Nothing to import: the register has all of it already.")
            return 0
        try:
            done = contractors.import_contractors(
                database.uow(),
                clock,
                actor,
                mid,
                parsed,
                file_name=source.name,
                file_sha256=source.sha256(),
            )
        except KeyboardInterrupt:
            print("Cancelled: nothing was changed.", file=sys.stderr)
            return 130
        p = done.plan
        print(
            f"Imported: {len(p.new):,} new, {len(p.changed):,} changed; {len(p.added):,} "
            f"credential{'' if len(p.added) == 1 else 's'} added, {len(p.renewed):,} renewed; "
            f"saved as import of {short_date(clock.today())} (#{done.import_id})"
        )
        return 0
    finally:
        database.close()
