"""People → Import contractors… without Qt: the file and its sheet, a preview of its first rows,
the dry run in words and lists, and the import. Reading the file and writing the register are
jobs (functions of a progress callback) the view runs off the UI thread; a job checks `cancel`.

Nothing is written before the dry run has been shown; the import is one transaction
(desk.services.people.contractors), so a cancelled or failed one leaves the register as it
was."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.imports.contractors import HEADINGS, ContractorPlan, ParsedContractors, expiry_text
from desk.imports.files import ImportCancelled, Row, SourceFile
from desk.services.people import contractors as service
from desk.services.people.contractors import ContractorsImported
from reports.contractor_import_report import export_contractor_dry_run_xlsx
from reports.contractor_template import write_contractor_template
from ui.presenters.import_jobs import CANCELLED, Job, JobProgress, Jobs, UowFactory, who_may
from ui.presenters.registers import Line

PREVIEW_ROWS = 20
FILE_FILTER = "Contractors (*.csv *.txt *.xlsx);;CSV file (*.csv *.txt);;Excel workbook (*.xlsx)"
TEMPLATE_NAME = "Contractors template.xlsx"


@dataclass(frozen=True)
class Loaded:
    """What reading a file (or another sheet of it) found."""

    source: SourceFile
    sheet: str
    columns: tuple[str, ...]
    preview: tuple[Row, ...]
    parsed: ParsedContractors
    plan: ContractorPlan
    sha256: str


@dataclass
class Table:
    """A tab of the window: its title, columns and rows."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: list[Line] = field(default_factory=list)
    stretch: int = -1  # the column that takes the width left (-1: the last)
    count: int | None = None  # what the tab counts, when not its rows (people, not fields)

    @property
    def tab_title(self) -> str:
        return f"{self.title} ({len(self.rows) if self.count is None else self.count:,})"


def _table(
    key: str,
    title: str,
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
    stretch: int = -1,
    count: int | None = None,
) -> Table:
    lines = [Line(row, tuple("" if c is None else str(c) for c in row)) for row in rows]
    return Table(key, title, columns, lines, stretch, count)


def _lines(lines: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in lines)


def plan_tables(plan: ContractorPlan) -> list[Table]:
    """The dry run's lists, as the window's tabs show them."""
    credentials: list[tuple[Any, ...]] = [
        (
            a.line,
            a.name,
            a.kind.label,
            a.number,
            expiry_text(a.expires_on),
            "added" + (" with the new person" if a.party_id is None else ""),
        )
        for a in plan.added
    ]
    credentials += [
        (
            r.line,
            r.name,
            r.kind.label,
            r.number,
            expiry_text(r.expires_on),
            f"renews {r.old_number} ({expiry_text(r.old_expires_on)}), kept as history",
        )
        for r in plan.renewed
    ]
    credentials.sort(key=lambda c: int(c[0]))
    return [
        _table(
            "new",
            "New",
            ("Row", "Name", "Kind", "Address", "City", "ZIP", "Phone", "Email"),
            [
                (
                    _lines(n.lines),
                    n.person.name,
                    n.person.kind.value,
                    ", ".join(x for x in (n.person.address_line1, n.person.address_line2) if x),
                    n.person.city,
                    n.person.zip,
                    n.person.phone,
                    n.person.email,
                )
                for n in plan.new
            ],
        ),
        _table(
            "changed",
            "Changed",
            ("Row", "Name", "Field", "Old → new"),
            [
                (_lines(c.lines), c.name, f.label, f"{f.old} → {f.new}")
                for c in plan.changed
                for f in c.changes
            ],
            count=len(plan.changed),
        ),
        _table(
            "credentials",
            "Credentials",
            ("Row", "Name", "Credential", "Number", "Expires", "What"),
            credentials,
        ),
        _table(
            "rejected",
            "Rejected",
            ("Row", "Name", "Reason"),
            [(r.line, r.name, r.reason) for r in plan.rejected],
        ),
        _table("notes", "Notes", ("Row", "Note"), [(n.line, n.text) for n in plan.notes]),
    ]


def dry_run_words(plan: ContractorPlan) -> str:
    """The dry run in a few sentences, under its one-line summary."""
    people = len(plan.new)
    parts = [
        f"{plan.rows_read:,} row{'' if plan.rows_read == 1 else 's'} read.",
        f"{people:,} {'person or organization' if people == 1 else 'people and organizations'} "
        "would be added"
        + (f", {len(plan.changed):,} changed (a blank cell erases nothing)" if plan.changed else "")
        + ".",
    ]
    if plan.added or plan.renewed:
        parts.append(
            f"{len(plan.added):,} credential{'' if len(plan.added) == 1 else 's'} added, "
            f"{len(plan.renewed):,} renewed (the old one is kept as history)."
        )
    if plan.rejected:
        n = len(plan.rejected)
        parts.append(f"{n:,} row{' is' if n == 1 else 's are'} rejected and not imported.")
    if plan.columns_left_out:
        parts.append(f"Columns not read: {', '.join(plan.columns_left_out)}.")
    parts.append("Nothing has been written yet.")
    return " ".join(parts)


def result_line(imported: ContractorsImported, today: date) -> str:
    """'2 people added, 1 changed; 3 credentials added, 1 renewed: import of 03/02/2026'."""
    plan = imported.plan
    added = len(plan.new)
    people = (
        f"{added:,} {'person' if added == 1 else 'people'} added, {len(plan.changed):,} changed"
    )
    credentials = (
        f"{len(plan.added):,} credential{'' if len(plan.added) == 1 else 's'} added, "
        f"{len(plan.renewed):,} renewed"
    )
    rejected = f"; {len(plan.rejected):,} rows rejected" if plan.rejected else ""
    return f"Imported: {people}; {credentials}{rejected} (import of {short_date(today)})."


class ContractorImportPresenter(Jobs):
    """The window's state: the file, its sheet, what the dry run found and what was imported."""

    def __init__(
        self,
        uow: UowFactory,
        actor: Actor,
        municipality_id: int,
        clock: Clock,
        *,
        municipality_name: str = "",
    ) -> None:
        super().__init__()
        self.uow = uow
        self.actor = actor
        self.municipality_id = municipality_id
        self.clock = clock
        self.municipality_name = municipality_name
        self.today = clock.today()
        self.loaded: Loaded | None = None
        self.imported: ContractorsImported | None = None

    # --- who may -----------------------------------------------------------------------------

    def may_open(self) -> tuple[bool, str]:
        if not allowed(self.actor, Permission.IMPORT_DATA):
            return False, who_may(Permission.IMPORT_DATA)
        return True, ""

    # --- jobs --------------------------------------------------------------------------------

    def load_job(self, path: str | Path, sheet: str | None = None) -> Job:
        """Open the file, read its sheet (the contractors' by default) and make the dry run."""
        uow, actor, cancel = self.uow, self.actor, self.cancel

        def job(progress: JobProgress) -> Any:
            source = SourceFile(path)
            parsed = service.read_contractor_file(source, sheet)
            if cancel.is_set():
                return CANCELLED
            chosen = parsed.sheet or source.layers[0].name
            layer = source.layer(chosen)
            preview: list[Row] = []
            for row in source.rows(layer.name):
                preview.append(row)
                if len(preview) >= PREVIEW_ROWS:
                    break
            plan = service.dry_run_contractors(uow(), actor, parsed)
            return Loaded(
                source, chosen, layer.columns, tuple(preview), parsed, plan, source.sha256()
            )

        return job

    def sheet_job(self, sheet: str) -> Job:
        assert self.loaded is not None
        return self.load_job(self.loaded.source.path, sheet)

    def load_done(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.imported = None

    def load_failed(self) -> None:
        """Another file could not be read: the dry run of the one before is not shown for it."""
        self.loaded = None
        self.imported = None

    def import_job(self) -> Job:
        """Apply the file as the dry run read it, in one transaction."""
        loaded = self.loaded
        assert loaded is not None
        uow, clock, actor, mid, cancel = (
            self.uow,
            self.clock,
            self.actor,
            self.municipality_id,
            self.cancel,
        )

        def job(progress: JobProgress) -> Any:
            try:
                return service.import_contractors(
                    uow(),
                    clock,
                    actor,
                    mid,
                    loaded.parsed,
                    file_name=loaded.source.name,
                    file_sha256=loaded.sha256,
                    progress=progress,
                    cancelled=cancel.is_set,
                )
            except ImportCancelled:
                return CANCELLED

        return job

    def import_done(self, imported: ContractorsImported) -> None:
        self.imported = imported

    # --- what the window shows ---------------------------------------------------------------

    @property
    def file_text(self) -> str:
        if self.loaded is None:
            return "No file chosen."
        s = self.loaded.source
        rows = self.loaded.parsed.rows_read
        where = f", sheet {self.loaded.sheet}" if s.kind == "xlsx" else ""
        return f"{s.name} ({s.format}{where}): {rows:,} row{'' if rows == 1 else 's'}"

    @property
    def sheets(self) -> list[str]:
        """The workbook's sheets with rows (none to choose from for a CSV file or one sheet)."""
        if self.loaded is None or self.loaded.source.kind != "xlsx":
            return []
        names = [layer.name for layer in self.loaded.source.layers]
        return names if len(names) > 1 else []

    @property
    def summary(self) -> str:
        """'2 new, 1 changed, 5 unchanged; 3 credentials added, 1 renewed; 2 rejected'."""
        return self.loaded.plan.summary() if self.loaded is not None else ""

    @property
    def words(self) -> str:
        if self.loaded is None:
            return ""
        if self.imported is not None:
            return (
                "Imported as the lists below show; each person's history shows what changed. "
                "Choose the file again to see what is left to do."
            )
        return dry_run_words(self.loaded.plan)

    def preview_table(self) -> Table:
        """The first rows of the sheet as the file has them, the template's columns first."""
        if self.loaded is None:
            return Table("preview", "Preview", ("Row", *HEADINGS))
        columns = self.loaded.columns
        known = {h.casefold(): h for h in HEADINGS}
        ordered = sorted(columns, key=lambda c: (c.casefold() not in known, columns.index(c)))
        rows = [(r.line, *(r.values.get(c, "") for c in ordered)) for r in self.loaded.preview]
        return _table("preview", "Preview", ("Row", *ordered), rows)

    def tables(self) -> list[Table]:
        plan = self.loaded.plan if self.loaded is not None else ContractorPlan()
        return [self.preview_table(), *plan_tables(plan)]

    def may_import(self) -> tuple[bool, str]:
        ok, why = self.may_open()
        if not ok:
            return ok, why
        if self.loaded is None:
            return False, "Choose the contractors' file first."
        if self.imported is not None:
            return False, "This file is imported; choose it again to see what is left to do."
        if not self.loaded.plan.writes:
            return False, "The dry run finds nothing to add or change."
        return True, ""

    @property
    def import_label(self) -> str:
        """'&Import (2 new, 1 changed, 4 credentials)'."""
        if self.loaded is None or self.imported is not None:
            return "&Import"
        plan = self.loaded.plan
        credentials = len(plan.added) + len(plan.renewed)
        return (
            f"&Import ({len(plan.new):,} new, {len(plan.changed):,} changed, "
            f"{credentials:,} credential{'' if credentials == 1 else 's'})"
        )

    @property
    def result_text(self) -> str:
        return result_line(self.imported, self.today) if self.imported is not None else ""

    # --- files written -----------------------------------------------------------------------

    @property
    def report_name(self) -> str:
        stem = Path(self.loaded.source.name).stem if self.loaded is not None else "contractors"
        return f"Dry run {stem} {self.today.isoformat()}.xlsx"

    def write_dry_run(self, path: Path) -> None:
        assert self.loaded is not None
        export_contractor_dry_run_xlsx(
            self.loaded.plan,
            path,
            file_name=self.loaded.source.name,
            municipality=self.municipality_name,
            made_on=self.today,
        )

    @staticmethod
    def write_template(path: Path) -> None:
        write_contractor_template(path)
