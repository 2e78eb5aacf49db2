"""`permitdesk parcels import FILE`: the county's parcel file into the register, as File →
Import parcels… does it: the layer (the one imported last time, else the first layer of parcel
shapes in the Wisconsin statewide parcel schema), the mapping (the municipality's saved one or
the V10 preset), the rows of the municipality's place (PLACENAME), the dry run printed, then
the import in one transaction. A user allowed to import signs in (--user U with the password
on standard input, or PERMITDESK_TOKEN); the audit trail names them.

A progress bar on standard error while the file is read and the register written (redrawn on
one line when standard error is a terminal, one final line otherwise); Ctrl+C cancels, leaving
the register as it was. A file that cannot be imported is one sentence naming it, exit 2, and
nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from permitdesk import signing

MAPPINGS = ("saved", "v10")
BAR = 30  # characters of the progress bar


class StderrProgress:
    """A progress bar on standard error: '\\rReading parcels.gdb [#####-----] 1,200 of 5,000
    rows' redrawn in place on a terminal; only the final line when it is not one (a log)."""

    def __init__(self, what: str, stream: IO[str] | None = None) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.done = 0
        self.total = 0
        self._width = 0

    def __call__(self, done: int, total: int | None = None) -> None:
        self.done, self.total = done, total or 0
        if self.tty:
            self._draw(self._line())

    def _line(self) -> str:
        if self.total <= 0:
            return f"{self.what} {self.done:,} rows"
        filled = BAR * min(self.done, self.total) // self.total
        bar = "#" * filled + "-" * (BAR - filled)
        return f"{self.what} [{bar}] {self.done:,} of {self.total:,} rows"

    def _draw(self, line: str) -> None:
        pad = " " * max(self._width - len(line), 0)  # wipe a longer line drawn before
        self.stream.write(f"\r{line}{pad}")
        self.stream.flush()
        self._width = len(line)

    def finish(self, words: str) -> None:
        """The final line ('Read 153 rows of TEST.gdb.')."""
        if self.tty and self._width:
            self._draw(words)
            self.stream.write("\n")
        else:
            self.stream.write(words + "\n")
        self.stream.flush()
        self._width = 0

    def interrupted(self) -> None:
        if self.tty and self._width:
            self.stream.write("\n")
            self._width = 0


def add_commands(
    sub: argparse._SubParsersAction,
    parser_class: type[argparse.ArgumentParser],
    add_db_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    parcels = sub.add_parser("parcels", help="the parcel register: import the county's parcel file")
    parsub = parcels.add_subparsers(
        dest="parcels_command", required=True, parser_class=parser_class
    )
    text = (
        "import the county's parcel file (Wisconsin statewide parcel schema, or the mapping "
        "saved from the window): a file geodatabase (.gdb folder or .zip), a shapefile, a "
        "GeoPackage, CSV or xlsx; the dry run is printed first (a clerk or an administrator "
        "signs in: --user)"
    )
    imp = parsub.add_parser("import", help=text, description=text)
    imp.add_argument("file", type=Path, metavar="FILE", help="the parcel file or .gdb folder")
    imp.add_argument(
        "--layer",
        metavar="NAME",
        help="the layer (or sheet) to read (default: the one imported last time, else the "
        "first layer of parcel shapes with the V10 columns)",
    )
    place = imp.add_mutually_exclusive_group()
    place.add_argument(
        "--place",
        metavar='"CITY OF WESTBY"',
        help="only the rows of this PLACENAME (default: the municipality's place name)",
    )
    place.add_argument(
        "--all-places", action="store_true", help="every row, whatever its PLACENAME"
    )
    imp.add_argument(
        "--dry-run", action="store_true", help="print what the import would do; write nothing"
    )
    imp.add_argument(
        "--report", type=Path, metavar="OUT.xlsx", help="also write the dry run as a workbook"
    )
    imp.add_argument(
        "--mapping",
        choices=MAPPINGS,
        help="saved: the mapping last used for this municipality; v10: the Wisconsin V10 preset "
        "(default: the saved one when the file has its columns, else V10 or the columns' names)",
    )
    imp.add_argument(
        "--municipality", metavar="KEY", help="e.g. hudson (default: the register's first)"
    )
    add_db_options(imp)
    signing.add_sign_in_options(imp)


def run(args: argparse.Namespace, url: str, usage_error: type[Exception]) -> int:
    from db.database import open_database
    from db.queries import municipality_ids
    from db.report_queries import municipality_id_for
    from desk.clock import SystemClock
    from desk.domain.permissions import Permission
    from desk.errors import NotFound
    from desk.imports.files import SourceFile
    from desk.services.parcels import imports

    if getattr(args, "db", None) and not Path(args.db).exists():
        raise usage_error(f"no database file at {args.db}")
    if args.report is not None and args.report.suffix.lower() != ".xlsx":
        raise usage_error(f"--report {args.report}: give a workbook name ending in .xlsx")
    clock = SystemClock()
    # The file first: a file that cannot be read is refused before the register is opened.
    source = SourceFile(args.file)
    database = open_database(url, create=False)
    try:
        # Before the file is read (minutes for a county): one not allowed to import is told now.
        actor = signing.signed_in(args, database, clock, need=Permission.IMPORT_DATA)
        with database.read() as conn:
            try:
                mid = municipality_id_for(conn, args.municipality)
            except NotFound as e:
                raise usage_error(str(e)) from None
            name = dict(municipality_ids(conn))[mid]
        settings = imports.import_settings(database.uow(), mid)
        choice = _choice(source, args, settings, name, usage_error)
        return _import(database, clock, actor, mid, name, source, choice, args)
    finally:
        database.close()


def _choice(
    source: Any, args: argparse.Namespace, settings: Any, name: str, usage_error: type[Exception]
) -> Any:
    """The layer, the mapping and the place, as the window would start them."""
    from desk.imports.mapping import check_mapping, suggest, v10_mapping
    from desk.services.parcels.imports import ImportChoice
    from ui.presenters.parcel_import import default_layer

    layer = source.layer(args.layer) if args.layer else default_layer(source.layers, settings.layer)
    if args.mapping == "v10":
        mapping = v10_mapping(layer.columns)
    elif args.mapping == "saved":
        if settings.mapping is None:
            raise usage_error(
                f"{name} has no saved mapping yet; import once from File → Import parcels… or "
                "use --mapping v10"
            )
        mapping = settings.mapping
    else:
        mapping = suggest(layer.columns, settings.mapping)
    check_mapping(mapping, layer.columns, f"{source.name}, layer {layer.name}")
    place: str | None = None
    if args.place and not mapping.of("placename"):
        raise usage_error(
            f"{source.name}, layer {layer.name} has no place name column (PLACENAME) to choose "
            "rows by: leave out --place"
        )
    if args.place:
        place = " ".join(args.place.split())
    elif not args.all_places and mapping.of("placename"):
        if not settings.place:
            raise usage_error(
                f"{source.name} holds the rows of several places (PLACENAME) and {name} has no "
                'place name yet: give --place "CITY OF ..." or --all-places'
            )
        place = settings.place
    return ImportChoice(layer.name, mapping, place)


def _import(
    database: Any,
    clock: Any,
    actor: Any,
    mid: int,
    name: str,
    source: Any,
    choice: Any,
    args: argparse.Namespace,
) -> int:
    from desk.dates import short_date
    from desk.services.parcels import imports

    reading = StderrProgress(f"Reading {source.name}")
    try:  # Ctrl+C before the import: nothing was written
        found = _dry_run(database, actor, clock, mid, name, source, choice, args, reading)
    except KeyboardInterrupt:
        return _cancelled(reading)
    if found is None:
        return 0
    parsed = found
    writing = StderrProgress("Writing the parcels")
    try:  # Ctrl+C while writing: the import's transaction is rolled back
        done = imports.import_parcels(
            database.uow(),
            clock,
            actor,
            mid,
            parsed,
            file_name=source.name,
            file_sha256=source.sha256(),
            choice=choice,
            progress=writing,
        )
    except KeyboardInterrupt:
        return _cancelled(writing)
    added, changed = len(done.plan.new), len(done.plan.changed)
    writing.finish(f"Wrote {added + changed:,} parcels.")
    print(
        f"{added:,} parcel{'' if added == 1 else 's'} added, {changed:,} changed; saved as "
        f"import of {short_date(clock.today())} (#{done.import_id})"
    )
    return 0


def _cancelled(bar: StderrProgress) -> int:
    bar.interrupted()
    print("Cancelled: nothing was changed.", file=sys.stderr)
    return 130


def _dry_run(
    database: Any,
    actor: Any,
    clock: Any,
    mid: int,
    name: str,
    source: Any,
    choice: Any,
    args: argparse.Namespace,
    bar: StderrProgress,
) -> Any | None:
    """Read the file, print the dry run (and write its workbook): the parsed file to import,
    or None for --dry-run."""
    from desk.errors import ValidationError
    from desk.services.parcels import imports
    from reports.parcel_import_report import EVERY_ROW, DryRun, write_dry_run

    parsed = imports.read_parcel_file(source, choice, progress=bar)
    bar.finish(f"Read {parsed.rows_read:,} rows of {source.name}.")
    if not parsed.parcels and not parsed.rejected and parsed.places_left_out:
        places = ", ".join(f"{p} ({n:,})" for p, n in _by_count(parsed.places_left_out))
        raise ValidationError(
            source.name, f"no row is of {choice.place}; the file's places are: {places}"
        )
    plan = imports.dry_run(database.uow(), actor, mid, parsed)
    print(f"{source.name}, layer {choice.layer}, only rows of {choice.place or EVERY_ROW}:")
    print(plan.summary())
    if plan.places_left_out:
        print("Places left out:")
        width = max(len(p) for p in plan.places_left_out)
        for place, n in _by_count(plan.places_left_out):
            print(f"  {place.ljust(width)}  {n:>7,} row{'' if n == 1 else 's'}")
    if plan.rejected:
        print("Rejected rows:")
        for r in plan.rejected:
            print(f"  row {r.line}\t{r.pin or '(no PIN)'}\t{r.reason}")
    if args.report is not None:
        dry = DryRun(
            plan=plan,
            file_name=source.name,
            file_sha256=source.sha256(),
            layer=choice.layer,
            place=choice.place,
            prepared_on=clock.today(),
            municipality=name,
            file_format=source.format,
        )
        write_dry_run(dry, args.report)
        print(f"The dry run is written to {args.report}")
    if args.dry_run:
        print("Dry run: nothing was written.")
        return None
    return parsed


def _by_count(counts: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
