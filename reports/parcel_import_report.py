"""The dry run of a parcel import as a workbook the office keeps with the county's file: what
the import would add, change field by field, leave alone because the office keeps it, find on
the register but not in the file, and reject with the reason; the file named with its SHA-256,
so the workbook can be matched with the file it describes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from openpyxl.worksheet.worksheet import Worksheet

from desk.dates import short_date
from desk.imports.parcels import CountyParcel, ImportPlan
from reports.xlsx import (
    COUNT_FORMAT,
    TOTAL_FONT,
    add_sheet,
    finish_sheet,
    first_sheet,
    new_workbook,
    save,
    write_pairs,
    write_table,
    write_title,
)

TITLE = "Parcel import: dry run"
EVERY_ROW = "(every row)"
KEPT = "kept the office's"


@dataclass(frozen=True)
class DryRun:
    """A dry run as the office keeps it: the plan, and the file, layer and place it was made
    of, on the day it was made."""

    plan: ImportPlan
    file_name: str
    file_sha256: str
    layer: str
    place: str | None  # None: every row of the file was read
    prepared_on: date
    municipality: str = ""
    file_format: str = ""


def parcel_address(parcel: CountyParcel) -> str:
    """'306 Ulland Ave', '12 Main St, Unit 2' (as the register writes a parcel's address)."""
    line = " ".join(p for p in (parcel.house_number, parcel.street) if p)
    if parcel.unit:
        line += f", Unit {parcel.unit}"
    return line


def owners(parcel: CountyParcel) -> str:
    return " & ".join(n for n in (parcel.owner_name, parcel.owner_name_2) if n)


def classes_text(parcel: CountyParcel) -> str:
    return ", ".join((*parcel.property_classes, *parcel.aux_classes))


def _table(
    ws: Worksheet,
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    money_cols: Sequence[int] = (),
    number_formats: dict[int, str] | None = None,
) -> None:
    """A sheet that is one table: headings in the top row, frozen, with a filter."""
    table = write_table(
        ws, headers, rows, money_cols=set(money_cols), total_row=False, autofilter=True
    )
    for column, number_format in (number_formats or {}).items():
        for row in range(table.first_row, table.last_row + 1):
            ws.cell(row=row, column=column + 1).number_format = number_format
    if not rows:
        ws.cell(row=2, column=1, value="None.")
    finish_sheet(ws, header_text=TITLE)


def write_dry_run(dry: DryRun, out: Path) -> None:
    """The workbook: Summary, New, Changed, Conflicts, Not in the file, Retired on the
    register, Rejected and Notes."""
    plan = dry.plan
    wb = new_workbook(
        TITLE,
        subject=f"{dry.file_name}, {short_date(dry.prepared_on)}",
        author=dry.municipality,
        keywords=dry.file_sha256,
    )
    ws = first_sheet(wb, "Summary")
    lines = [line for line in (dry.municipality, f"Prepared {short_date(dry.prepared_on)}") if line]
    row = write_title(ws, TITLE, lines)
    ws.cell(row=row, column=1, value=plan.summary()).font = TOTAL_FONT
    title_rows = range(1, row + 1)  # runs across the columns: not measured
    row += 2
    file_pairs: list[tuple[str, Any]] = [
        ("File", dry.file_name),
        ("SHA-256", dry.file_sha256),
    ]
    if dry.file_format:
        file_pairs.append(("Format", dry.file_format))
    file_pairs += [("Layer", dry.layer), ("Only rows of", dry.place or EVERY_ROW)]
    row = write_pairs(ws, file_pairs, row)
    counts = [(label[:1].upper() + label[1:], n) for label, n in plan.counts.items()]
    first_count = row
    row = write_pairs(ws, counts, row)
    for r in range(first_count, first_count + len(counts)):
        ws.cell(row=r, column=2).number_format = COUNT_FORMAT
    if plan.places_left_out:
        places = sorted(plan.places_left_out.items(), key=lambda item: (-item[1], item[0]))
        table = write_table(
            ws,
            ("Places left out", "Rows"),
            places,
            total_row=True,
            start_row=row,
            freeze=False,
        )
        assert table.total_row is not None
        total = ws.cell(row=table.total_row, column=2)
        total.value = f"=SUM(B{table.first_row}:B{table.last_row})"
        for r in range(table.first_row, table.total_row + 1):
            ws.cell(row=r, column=2).number_format = COUNT_FORMAT
    finish_sheet(ws, title_rows=title_rows, header_text=TITLE)

    _table(
        add_sheet(wb, "New"),
        ("PIN", "Address", "Owner", "Classes", "Acres", "Assessed value"),
        [
            (
                n.parcel.pin,
                parcel_address(n.parcel),
                owners(n.parcel),
                classes_text(n.parcel),
                n.parcel.acres,
                n.parcel.assessed_value,
            )
            for n in plan.new
        ],
        money_cols=(5,),
        number_formats={4: "0.0000"},
    )
    _table(
        add_sheet(wb, "Changed"),
        ("PIN", "Field", "Old", "New"),
        [(c.parcel.pin, f.label, f.old, f.new) for c in plan.changed for f in c.changes],
    )
    _table(
        add_sheet(wb, "Conflicts"),
        ("PIN", "Field", "The office's value", "The file's value", "What the import does"),
        [(c.pin, c.label, c.office, c.county, KEPT) for c in plan.conflicts],
    )
    _table(
        add_sheet(wb, "Not in the file"),
        ("PIN", "Address"),
        [(m.pin, m.address) for m in plan.missing],
    )
    _table(
        add_sheet(wb, "Retired on the register"),
        ("Row", "PIN"),
        [(r.line, r.pin) for r in plan.retired],
    )
    _table(
        add_sheet(wb, "Rejected"),
        ("Row", "PIN", "Reason"),
        [(r.line, r.pin, r.reason) for r in plan.rejected],
    )
    _table(
        add_sheet(wb, "Notes"),
        ("Row", "PIN", "Note"),
        [(n.line, n.pin, n.text) for n in plan.notes],
    )
    save(wb, out)
