"""The dry run of a parcel import as the workbook the office keeps with the county's file:
reopened with openpyxl, each sheet holds what a clerk checks — the counts and the file's
SHA-256, every new parcel with its value as a number, one row per changed field, the office's
value kept in a conflict, the rows rejected with why."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import openpyxl
from openpyxl.worksheet.worksheet import Worksheet

from desk.imports.parcels import (
    ChangedParcel,
    Conflict,
    CountyParcel,
    FieldChange,
    ImportPlan,
    Missing,
    NewParcel,
    Note,
    Rejected,
    RetiredInFile,
)
from reports.parcel_import_report import DryRun, write_dry_run
from reports.xlsx import MONEY_FORMAT

SHA = "9f2c" * 16


def _plan() -> ImportPlan:
    ulland = CountyParcel(
        pin="291005820000",
        owner_name="MICHAEL H & REBECCA L SOLBERG",
        owner_name_2="JANE DOE",
        house_number="306",
        street="Ulland Ave",
        city="Westby",
        property_classes=("1",),
        aux_classes=("X4",),
        acres=Decimal("0.3957"),
        assessed_value=Decimal("135900.00"),
    )
    vacant = CountyParcel(
        pin="291006460000", owner_name="CITY OF WESTBY", property_classes=("4", "5M")
    )
    melby = CountyParcel(pin="291002050000", house_number="503", street="Melby St")
    return ImportPlan(
        new=[NewParcel(2, ulland), NewParcel(3, vacant)],
        changed=[
            ChangedParcel(
                7,
                11,
                melby,
                (
                    FieldChange("owner_name", "Owner of record", "JEAN E GILKES", "SHAYNN DAVEY"),
                    FieldChange("assessed_value", "Assessed value", "72200.00", "91300.00"),
                ),
            )
        ],
        unchanged=118,
        conflicts=[Conflict(7, 11, "291002050000", "house_number", "House number", "503A", "503")],
        missing=[Missing(12, "291009990000", "9 Elm St")],
        retired=[RetiredInFile(9, 13, "291002060000")],
        rejected=[Rejected(14, "ROW", "the parcel number ROW is also on row 15")],
        notes=[
            Note(120, "291006410000", "class S1 is not one of the State's; kept as the file has it")
        ],
        places_left_out={"TOWN OF CHRISTIANA": 21, "(no place name)": 6, "WESTBY": 1},
        rows_read=153,
    )


def _write(
    tmp_path: Path, plan: ImportPlan | None = None, place: str | None = "CITY OF WESTBY"
) -> Path:
    out = tmp_path / "dry run.xlsx"
    write_dry_run(
        DryRun(
            plan=plan if plan is not None else _plan(),
            file_name="TEST_DATASET_PARCELS_2023.gdb",
            file_sha256=SHA,
            layer="PARCELS_TEST_DATASET_2023",
            place=place,
            prepared_on=date(2026, 3, 2),
            municipality="City of Westby",
            file_format="Esri file geodatabase",
        ),
        out,
    )
    return out


def _rows(ws: Worksheet) -> list[tuple[object, ...]]:
    return [tuple(row) for row in ws.iter_rows(values_only=True)]


def _pairs(ws: Worksheet) -> dict[str, object]:
    return {str(a): b for a, b, *_ in ws.iter_rows(values_only=True) if a is not None}


def test_the_summary_names_the_file_its_sha256_the_layer_the_place_and_the_counts(
    tmp_path: Path,
) -> None:
    book = openpyxl.load_workbook(_write(tmp_path))
    assert book.sheetnames == [
        "Summary",
        "New",
        "Changed",
        "Conflicts",
        "Not in the file",
        "Retired on the register",
        "Rejected",
        "Notes",
    ]
    ws = book["Summary"]
    assert ws["A1"].value == "Parcel import: dry run"
    assert ws["A1"].font.bold
    pairs = _pairs(ws)
    assert pairs["City of Westby"] is None and "Prepared 03/02/2026" in pairs
    assert pairs["File"] == "TEST_DATASET_PARCELS_2023.gdb"
    assert pairs["SHA-256"] == SHA
    assert pairs["Layer"] == "PARCELS_TEST_DATASET_2023"
    assert pairs["Only rows of"] == "CITY OF WESTBY"
    assert pairs["Rows read"] == 153
    assert (pairs["New"], pairs["Changed"], pairs["Unchanged"]) == (2, 1, 118)
    assert (pairs["Conflicts"], pairs["Not in the file"], pairs["Rejected"]) == (1, 1, 1)
    assert pairs["Left out (other places)"] == 28
    summary = "2 new, 1 changed, 118 unchanged, 1 conflicts with the office's records"
    assert any(str(k).startswith(summary) for k in pairs)
    # The places left out, most rows first, with their total.
    rows = _rows(ws)
    at = rows.index(("Places left out", "Rows"))
    assert rows[at + 1 : at + 4] == [
        ("TOWN OF CHRISTIANA", 21),
        ("(no place name)", 6),
        ("WESTBY", 1),
    ]
    assert rows[at + 4][1] == f"=SUM(B{at + 2}:B{at + 4})"


def test_every_new_parcel_is_a_row_with_its_assessed_value_a_number_in_dollars(
    tmp_path: Path,
) -> None:
    ws = openpyxl.load_workbook(_write(tmp_path))["New"]
    assert _rows(ws) == [
        ("PIN", "Address", "Owner", "Classes", "Acres", "Assessed value"),
        (
            "291005820000",
            "306 Ulland Ave",
            "MICHAEL H & REBECCA L SOLBERG & JANE DOE",
            "1, X4",
            0.3957,
            135900,
        ),
        ("291006460000", None, "CITY OF WESTBY", "4, 5M", None, None),
    ]
    assert ws["F2"].number_format == MONEY_FORMAT
    assert ws["E2"].number_format == "0.0000"
    # Headings bold, the top row frozen, a filter on the table, columns wide enough.
    assert all(cell.font.bold for cell in ws[1])
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == "A1:F3"
    owner_width = ws.column_dimensions["C"].width
    assert owner_width is not None and owner_width >= len(
        "MICHAEL H & REBECCA L SOLBERG & JANE DOE"
    )


def test_a_changed_parcel_is_one_row_per_field_and_a_conflict_keeps_the_office_s_value(
    tmp_path: Path,
) -> None:
    book = openpyxl.load_workbook(_write(tmp_path))
    assert _rows(book["Changed"]) == [
        ("PIN", "Field", "Old", "New"),
        ("291002050000", "Owner of record", "JEAN E GILKES", "SHAYNN DAVEY"),
        ("291002050000", "Assessed value", "72200.00", "91300.00"),
    ]
    assert _rows(book["Conflicts"]) == [
        ("PIN", "Field", "The office's value", "The file's value", "What the import does"),
        ("291002050000", "House number", "503A", "503", "kept the office's"),
    ]
    assert _rows(book["Not in the file"]) == [("PIN", "Address"), ("291009990000", "9 Elm St")]
    assert _rows(book["Retired on the register"]) == [("Row", "PIN"), (9, "291002060000")]
    assert _rows(book["Rejected"]) == [
        ("Row", "PIN", "Reason"),
        (14, "ROW", "the parcel number ROW is also on row 15"),
    ]
    assert _rows(book["Notes"])[1] == (
        120,
        "291006410000",
        "class S1 is not one of the State's; kept as the file has it",
    )


def test_a_dry_run_with_nothing_to_list_says_none_and_every_row_when_no_place_was_chosen(
    tmp_path: Path,
) -> None:
    book = openpyxl.load_workbook(_write(tmp_path, ImportPlan(unchanged=124, rows_read=124), None))
    pairs = _pairs(book["Summary"])
    assert pairs["Only rows of"] == "(every row)"
    assert "0 new, 0 changed, 124 unchanged" in pairs
    assert ("Places left out", "Rows") not in _rows(book["Summary"])
    assert _rows(book["Rejected"]) == [("Row", "PIN", "Reason"), ("None.", None, None)]
