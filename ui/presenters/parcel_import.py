"""The Import parcels window without Qt: the file, its layer, the mapping and its preview, the
place whose rows are read, the dry run and the import. The work that reads the whole file or
writes the register is a job (a function of a progress callback) the view runs off the UI
thread; the job checks `cancel` between chunks. `permitdesk parcels import` uses the same
choices (default_layer, default_place).

Nothing is written before the dry run has been shown; the import is then one transaction
(desk.services.parcels.imports), so a cancelled or failed one leaves the register as it was."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.errors import ValidationError
from desk.imports.files import ImportCancelled, LayerInfo, Row, SourceFile
from desk.imports.mapping import (
    CUSTOM,
    JOINED,
    LABELS,
    TARGETS,
    V10,
    ColumnMapping,
    check_mapping,
    looks_like_v10,
    suggest,
    v10_mapping,
)
from desk.imports.parcels import ImportPlan, ParsedFile, RowReader, parse_rows, place_key
from desk.money import format_money
from desk.services.parcels import imports as parcel_imports
from desk.services.parcels.imports import ImportChoice, Imported, ImportSettings
from reports.parcel_import_report import DryRun, classes_text, owners, parcel_address
from ui.presenters.import_jobs import CANCELLED, Job, JobProgress, Jobs, UowFactory
from ui.presenters.registers import Line

STEPS = ("File", "Layer", "Mapping", "Place", "Dry run", "Import")
FILE, LAYER, MAPPING, PLACE, DRY_RUN, DONE = range(len(STEPS))
STEP_TITLES = (
    "Choose the county's parcel file",
    "Choose the layer of parcels",
    "Which column fills which field",
    "Whose rows to read",
    "The dry run: what the import would do",
    "The import",
)
NOT_IN_FILE = "(not in the file)"
EVERY_ROW = "(every row)"
NO_PLACE = "(no place name)"  # parse_rows's name for rows with a blank PLACENAME
PREVIEW_ROWS = 20
FILE_FILTER = (
    "Parcel files (*.zip *.shp *.gpkg *.csv *.txt *.xlsx);;"
    "Zipped file geodatabase or shapefile (*.zip);;Shapefile (*.shp);;GeoPackage (*.gpkg);;"
    "CSV file (*.csv *.txt);;Excel workbook (*.xlsx)"
)


# --- the file -------------------------------------------------------------------------------


def source_path(chosen: str | Path) -> Path:
    """The path to open for what was chosen: a file inside a file geodatabase opens the
    geodatabase (a .gdb is a folder), a shapefile's .dbf, .shx or .prj its .shp."""
    path = Path(chosen)
    for parent in (path, *path.parents):
        if parent.suffix.lower() == ".gdb":
            return parent
    if path.suffix.lower() in (".dbf", ".shx", ".prj", ".cpg"):
        for suffix in (".shp", ".SHP"):
            if path.with_suffix(suffix).exists():
                return path.with_suffix(suffix)
    return path


def open_source(path: str | Path) -> SourceFile:
    """The file opened and checked (ImportFileError naming it); slow for a large zip or
    workbook, so the window opens it off the UI thread."""
    return SourceFile(source_path(path))


def size_text(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def file_size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


# --- the layer ------------------------------------------------------------------------------


def geometry_words(geometry: str) -> str:
    kind = geometry.lower()
    if "polygon" in kind:
        return "parcel shapes (polygons)"
    if "point" in kind:
        return "points"
    if "line" in kind:
        return "lines"
    return kind or "a table"


def rows_words(n: int | None) -> str:
    if n is None:
        return "rows not counted"
    return f"{n:,} row" + ("" if n == 1 else "s")


def layer_label(layer: LayerInfo) -> str:
    """'PARCELS_2023 — parcel shapes (polygons), 153 rows'."""
    return f"{layer.name} — {geometry_words(layer.geometry)}, {rows_words(layer.rows)}"


def default_layer(layers: Sequence[LayerInfo], saved: str = "") -> LayerInfo:
    """The layer to start from: the one imported last time, else the first layer of parcel
    shapes with the V10 columns, else the first with them, else the first."""
    for layer in layers:
        if saved and layer.name == saved:
            return layer
    v10 = [layer for layer in layers if looks_like_v10(layer.columns)]
    polygons = [layer for layer in v10 if "polygon" in layer.geometry.lower()]
    return (polygons or v10 or list(layers))[0]


def read_preview(source: SourceFile, layer: str) -> list[Row]:
    """The layer's first rows, every column (the mapping reads them again as it changes)."""
    out: list[Row] = []
    for row in source.rows(layer):
        out.append(row)
        if len(out) >= PREVIEW_ROWS:
            break
    return out


# --- the mapping ----------------------------------------------------------------------------


def columns_label(columns: Sequence[str], key: str = "") -> str:
    """'ADDNUMPREFIX + ADDNUM + ADDNUMSUFFIX' (joined); a field that takes the first of its
    columns with a value: 'ASSDACRES, else DEEDACRES, else GISACRES'; '(not in the file)' for
    none."""
    if key and key not in JOINED:
        return ", else ".join(columns) or NOT_IN_FILE
    return " + ".join(columns) or NOT_IN_FILE


@dataclass(frozen=True)
class Option:
    """An item of a choice: the words shown and the value behind them."""

    label: str
    value: Any


def column_options(key: str, columns: Sequence[str], mapping: ColumnMapping) -> list[Option]:
    """The choices of a field: none, the V10 preset's columns joined when it reads several
    (the house number from ADDNUMPREFIX + ADDNUM + ADDNUMSUFFIX), the mapping's own when it
    joins several, then each column of the file."""
    out = [Option(NOT_IN_FILE, ())]
    for cols in (v10_mapping(columns).of(key), mapping.of(key)):
        if len(cols) > 1 and all(o.value != cols for o in out):
            out.append(Option(columns_label(cols, key), cols))
    out.extend(Option(c, (c,)) for c in columns)
    return out


PREVIEW_NUMBERS = (0, 6, 7)  # Row, Acres, Assessed value: aligned right
PREVIEW_COLUMNS = (
    "Row",
    "PIN",
    "Address",
    "Owner",
    "Mailing address",
    "Classes",
    "Acres",
    "Assessed value",
    "Place",
    "Problem",
)


# --- the place ------------------------------------------------------------------------------


def count_places(
    source: SourceFile,
    layer: str,
    mapping: ColumnMapping,
    progress: JobProgress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict[str, int]:
    """How many rows each PLACENAME has (NO_PLACE for the blank), as the import reads it;
    empty when the mapping reads no place."""
    columns = mapping.of("placename")
    if not columns:
        return {}
    reader = RowReader(mapping, None)
    counts: dict[str, int] = {}

    def report(done: int, total: int | None) -> None:
        if progress is not None:
            progress(done, total or 0)

    for row in source.rows(layer, columns=columns, progress=report, cancelled=cancelled):
        name = " ".join(reader.place_of(row.values).split()) or NO_PLACE
        counts[name] = counts.get(name, 0) + 1
    return counts


@dataclass(frozen=True)
class PlaceDefault:
    """The place the window starts from, and why when it cannot choose one."""

    place: str | None  # None: every row
    chosen: bool  # False: the clerk must choose (the file holds several places)
    note: str = ""


def default_place(counts: Mapping[str, int], saved: str) -> PlaceDefault:
    """The municipality's place name when the file has it; the one place of a file of one
    place; every row of a file without place names; else nothing chosen, saying why."""
    names = [n for n in counts if n != NO_PLACE]
    if not counts:
        return PlaceDefault(None, True, "The mapping reads no place name: every row is read.")
    by_key = {place_key(n): n for n in names}
    if saved and place_key(saved) in by_key:
        return PlaceDefault(by_key[place_key(saved)], True)
    if len(names) == 1 and not saved:
        return PlaceDefault(names[0], True)
    if not names:
        return PlaceDefault(None, True, "No row has a place name: every row is read.")
    if saved:
        note = f"This file has no rows of {saved}, the municipality's place name; "
    else:
        note = "The municipality has no place name yet; "
    return PlaceDefault(None, False, note + "choose whose rows to read.")


def place_options(counts: Mapping[str, int]) -> list[Option]:
    """Each place with its rows, most first, then every row."""
    named = sorted(
        ((n, c) for n, c in counts.items() if n != NO_PLACE), key=lambda item: (-item[1], item[0])
    )
    out = [Option(f"{name} — {rows_words(n)}", name) for name, n in named]
    total = sum(counts.values())
    out.append(Option(f"{EVERY_ROW} — {rows_words(total)}" if counts else EVERY_ROW, None))
    return out


# --- the dry run and the import -------------------------------------------------------------


@dataclass(frozen=True)
class DryRunResult:
    parsed: ParsedFile
    plan: ImportPlan
    sha256: str


@dataclass
class Table:
    """A tab of the dry run: its title, columns and rows."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: list[Line] = field(default_factory=list)
    stretch: int = -1  # the column that takes the width left (-1: the last)
    numbers: tuple[int, ...] = ()  # columns of figures, aligned right

    @property
    def tab_title(self) -> str:
        return f"{self.title} ({len(self.rows):,})"


def plan_tables(plan: ImportPlan) -> list[Table]:
    """The dry run's lists, as the window's tabs show them."""

    def table(
        key: str,
        title: str,
        columns: tuple[str, ...],
        rows: list[tuple[Any, ...]],
        stretch: int = -1,
        numbers: tuple[int, ...] = (),
    ) -> Table:
        lines = [Line(row, tuple(str(c) for c in row)) for row in rows]
        return Table(key, title, columns, lines, stretch, numbers)

    places = sorted(plan.places_left_out.items(), key=lambda item: (-item[1], item[0]))
    return [
        table(
            "new",
            "New",
            ("PIN", "Address", "Owner", "Classes", "Acres", "Assessed value"),
            [
                (
                    n.parcel.pin,
                    parcel_address(n.parcel),
                    owners(n.parcel),
                    classes_text(n.parcel),
                    "" if n.parcel.acres is None else f"{n.parcel.acres}",
                    format_money(n.parcel.assessed_value),
                )
                for n in plan.new
            ],
            stretch=2,
            numbers=(4, 5),
        ),
        table(
            "changed",
            "Changed",
            ("PIN", "Field", "Old → new"),
            [
                (c.parcel.pin, f.label, f"{f.old} → {f.new}")
                for c in plan.changed
                for f in c.changes
            ],
        ),
        table(
            "conflicts",
            "Conflicts",
            ("PIN", "Field", "The office's (kept)", "The file's"),
            [(c.pin, c.label, c.office, c.county) for c in plan.conflicts],
        ),
        table(
            "missing",
            "Not in the file",
            ("PIN", "Address"),
            [(m.pin, m.address) for m in plan.missing],
        ),
        table(
            "retired",
            "Retired on the register",
            ("Row", "PIN"),
            [(r.line, r.pin) for r in plan.retired],
            numbers=(0,),
        ),
        table(
            "rejected",
            "Rejected",
            ("Row", "PIN", "Reason"),
            [(r.line, r.pin, r.reason) for r in plan.rejected],
            numbers=(0,),
        ),
        table(
            "places",
            "Places left out",
            ("Place", "Rows"),
            [(name, f"{n:,}") for name, n in places],
            stretch=0,
            numbers=(1,),
        ),
        table(
            "notes",
            "Notes",
            ("Row", "PIN", "Note"),
            [(n.line, n.pin, n.text) for n in plan.notes],
            numbers=(0,),
        ),
    ]


def result_line(imported: Imported, today: date) -> str:
    """'124 parcels added, 3 changed; saved as import of 03/02/2026'."""
    plan = imported.plan
    added = len(plan.new)
    words = f"{added:,} parcel{'' if added == 1 else 's'} added, {len(plan.changed):,} changed"
    return f"{words}; saved as import of {short_date(today)}"


class ParcelImportPresenter(Jobs):
    """The window's state: each step's choices and what the jobs found."""

    def __init__(
        self,
        settings: ImportSettings,
        *,
        municipality_name: str = "",
        today: date,
    ) -> None:
        self.settings = settings
        self.municipality_name = municipality_name
        self.today = today
        super().__init__()
        self.step = FILE
        self.source: SourceFile | None = None
        self.layer_name = ""
        self.mapping = ColumnMapping()
        self.preview: list[Row] = []
        self.places: dict[str, int] = {}
        self.place: str | None = None
        self.place_chosen = False
        self.place_note = ""
        self.result: DryRunResult | None = None
        self.dry_run_choice: ImportChoice | None = None
        self.imported: Imported | None = None

    # --- the file ---------------------------------------------------------------------------

    def file_opened(self, source: SourceFile) -> None:
        """A file read: its layer preselected, everything chosen after the file forgotten."""
        self.source = source
        self.layer_name = ""
        self.result = None
        self.imported = None
        self.choose_layer(default_layer(source.layers, self.settings.layer).name)

    @property
    def file_text(self) -> str:
        """'TEST.gdb — Esri file geodatabase, 4 layers, 12.3 MB'."""
        s = self.source
        if s is None:
            return "No file chosen yet."
        n = len(s.layers)
        what = "layer" if s.kind in ("gdb", "shp", "gpkg") else "sheet"
        if s.kind == "csv":
            return f"{s.name} — {s.format}, {rows_words(s.layers[0].rows)}"
        size = size_text(file_size(s.path))
        return f"{s.name} — {s.format}, {n} {what}{'' if n == 1 else 's'}, {size}"

    # --- the layer --------------------------------------------------------------------------

    @property
    def layers(self) -> tuple[LayerInfo, ...]:
        return self.source.layers if self.source is not None else ()

    @property
    def layer(self) -> LayerInfo | None:
        for layer in self.layers:
            if layer.name == self.layer_name:
                return layer
        return None

    @property
    def columns(self) -> tuple[str, ...]:
        layer = self.layer
        return layer.columns if layer is not None else ()

    def choose_layer(self, name: str) -> None:
        """Another layer: the mapping started again from the saved one or the suggestion."""
        if name == self.layer_name or self.source is None:
            return
        self.layer_name = name
        self.mapping = suggest(self.columns, self.settings.mapping)
        self.preview = read_preview(self.source, name)
        self.places = {}
        self.result = None

    @property
    def layer_text(self) -> str:
        """What the layer holds, under its choice."""
        layer = self.layer
        if layer is None:
            return ""
        crs = f" in {layer.crs}" if layer.crs else ""
        kind = (
            "It has the columns of the Wisconsin statewide parcel schema (V10)."
            if looks_like_v10(layer.columns)
            else "Its columns are not the Wisconsin statewide parcel schema's (V10): map them "
            "on the next step."
        )
        return (
            f"{geometry_words(layer.geometry).capitalize()}{crs}, {rows_words(layer.rows)}, "
            f"{len(layer.columns)} columns. {kind}\n\nColumns: {', '.join(layer.columns)}."
        )

    # --- the mapping ------------------------------------------------------------------------

    def options(self, key: str) -> list[Option]:
        return column_options(key, self.columns, self.mapping)

    def set_columns(self, key: str, columns: tuple[str, ...]) -> None:
        cols = dict(self.mapping.columns)
        if columns:
            cols[key] = tuple(columns)
        else:
            cols.pop(key, None)
        preset = V10 if cols == v10_mapping(self.columns).columns else CUSTOM
        self.mapping = ColumnMapping(cols, preset)
        self.places = {}
        self.result = None

    def use_v10(self) -> None:
        self.mapping = v10_mapping(self.columns)
        self.places = {}
        self.result = None

    @property
    def where(self) -> str:
        name = self.source.name if self.source is not None else ""
        return f"{name}, layer {self.layer_name}"

    def mapping_problem(self) -> ValidationError | None:
        """Why the mapping cannot be read (naming the field), or None."""
        try:
            check_mapping(self.mapping, self.columns, self.where)
        except ValidationError as e:
            return e
        return None

    def problem_target(self, problem: ValidationError) -> str:
        """The field a mapping error is about ('pin')."""
        for target in TARGETS:
            if problem.field.endswith(LABELS[target.key]):
                return target.key
        return "pin"

    def preview_lines(self) -> list[Line]:
        """The first rows as the mapping reads them; a row that cannot be read says why."""
        parsed = parse_rows(self.preview, self.mapping, None)
        read = dict(parsed.parcels)
        rejected = {r.line: r for r in parsed.rejected}
        reader = RowReader(self.mapping, None)
        out = []
        for row in self.preview:
            place = reader.place_of(row.values)
            p = read.get(row.line)
            if p is not None:
                cells = (
                    str(row.line),
                    p.pin,
                    parcel_address(p),
                    owners(p),
                    p.owner_address,
                    classes_text(p),
                    "" if p.acres is None else str(p.acres),
                    format_money(p.assessed_value),
                    place,
                    "",
                )
                out.append(Line(p, cells))
            else:
                bad = rejected.get(row.line)
                pin = bad.pin if bad is not None else ""
                reason = bad.reason if bad is not None else ""
                cells = (str(row.line), pin, "", "", "", "", "", "", place, reason)
                out.append(Line(bad, cells, warn=True))
        return out

    # --- the place --------------------------------------------------------------------------

    def places_counted(self, counts: dict[str, int]) -> None:
        self.places = counts
        chosen = default_place(counts, self.settings.place)
        self.place, self.place_chosen, self.place_note = chosen.place, chosen.chosen, chosen.note
        self.result = None

    def place_options(self) -> list[Option]:
        return place_options(self.places)

    def choose_place(self, place: str | None) -> None:
        self.place = place
        self.place_chosen = True
        self.result = None

    @property
    def place_text(self) -> str:
        """What the place step says under the choice."""
        blank = self.places.get(NO_PLACE, 0)
        words = [self.place_note] if self.place_note else []
        if blank:
            words.append(f"{rows_words(blank).capitalize()} of the file have no place name.")
        if self.settings.place and self.settings.place not in self.place_note:
            words.append(f"The municipality's place name: {self.settings.place}.")
        return " ".join(words)

    def choice(self) -> ImportChoice:
        return ImportChoice(self.layer_name, self.mapping, self.place)

    def check_place(self) -> ValidationError | None:
        if not self.place_chosen:
            return ValidationError(
                "Only rows of", "choose the place whose parcels to import, or (every row)"
            )
        return None

    # --- jobs ------------------------------------------------------------------------------

    def places_job(self) -> Job:
        source, layer, mapping, cancel = self.source, self.layer_name, self.mapping, self.cancel
        assert source is not None

        def job(progress: JobProgress) -> Any:
            try:
                return count_places(source, layer, mapping, progress, cancel.is_set)
            except ImportCancelled:
                return CANCELLED

        return job

    def dry_run_job(self, uow: UowFactory, actor: Actor, municipality_id: int) -> Job:
        """Read the file under the choices and compare it with the register."""
        source, choice, cancel = self.source, self.choice(), self.cancel
        assert source is not None
        self.dry_run_choice = choice

        def job(progress: JobProgress) -> Any:
            def read(done: int, total: int | None) -> None:
                progress(done, total or 0)

            try:
                parsed = parcel_imports.read_parcel_file(
                    source, choice, progress=read, cancelled=cancel.is_set
                )
                if cancel.is_set():
                    return CANCELLED
                sha = source.sha256()
                plan = parcel_imports.dry_run(uow(), actor, municipality_id, parsed)
            except ImportCancelled:
                return CANCELLED
            return DryRunResult(parsed, plan, sha)

        return job

    def dry_run_done(self, result: DryRunResult) -> None:
        self.result = result

    @property
    def summary(self) -> str:
        """'124 new, 0 changed, 0 unchanged, 29 of other places left out'."""
        if self.result is None:
            return ""
        return self.result.plan.summary()

    def tables(self) -> list[Table]:
        return plan_tables(self.result.plan) if self.result is not None else []

    def may_import(self) -> tuple[bool, str]:
        if self.result is None:
            return False, "Make the dry run first."
        if not self.result.parsed.parcels:
            return False, "The file has no parcels to import under these choices."
        return True, ""

    @property
    def import_label(self) -> str:
        """The button's words: '&Import 124 new, 3 changed'."""
        if self.result is None:
            return "&Import"
        plan = self.result.plan
        return f"&Import ({len(plan.new):,} new, {len(plan.changed):,} changed)"

    def dry_run(self) -> DryRun:
        """The dry run as the workbook keeps it."""
        assert self.result is not None and self.source is not None
        choice = self.dry_run_choice or self.choice()
        return DryRun(
            plan=self.result.plan,
            file_name=self.source.name,
            file_sha256=self.result.sha256,
            layer=choice.layer,
            place=choice.place,
            prepared_on=self.today,
            municipality=self.municipality_name,
            file_format=self.source.format,
        )

    @property
    def report_name(self) -> str:
        stem = Path(self.source.name).stem if self.source is not None else "parcels"
        return f"Dry run {stem} {self.today.isoformat()}.xlsx"

    def import_job(self, uow: UowFactory, clock: Clock, actor: Actor, municipality_id: int) -> Job:
        """Apply the dry run's reading of the file in one transaction."""
        assert self.result is not None and self.source is not None
        parsed, sha, name = self.result.parsed, self.result.sha256, self.source.name
        choice, cancel = self.dry_run_choice or self.choice(), self.cancel

        def job(progress: JobProgress) -> Any:
            try:
                return parcel_imports.import_parcels(
                    uow(),
                    clock,
                    actor,
                    municipality_id,
                    parsed,
                    file_name=name,
                    file_sha256=sha,
                    choice=choice,
                    progress=progress,
                    cancelled=cancel.is_set,
                )
            except ImportCancelled:
                return CANCELLED

        return job

    def import_done(self, imported: Imported) -> None:
        self.imported = imported

    @property
    def result_text(self) -> str:
        return result_line(self.imported, self.today) if self.imported is not None else ""
