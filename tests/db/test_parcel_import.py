"""Importing the county's parcel file (Wisconsin statewide parcel schema, V10): every format a
county publishes, its quirks, the dry run, the sync rules of a re-import and the audit rows,
and bad files refused in one sentence naming them with nothing written."""

from __future__ import annotations

import shutil
import struct
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from db import audit_chain, schema
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.model import Actor, Parcel
from desk.errors import ValidationError
from desk.imports.files import ImportCancelled, ImportFileError, SourceFile
from desk.imports.mapping import ColumnMapping, suggest
from desk.imports.parcels import ParsedFile
from desk.services import permits
from desk.services.parcels import edit, imports
from tests.factories import open_office
from tests.parcel_files import SAMPLE, v10_row, write_csv, write_gis, write_xlsx

WESTBY = "CITY OF WESTBY"


def _office(
    database: Database, clock: FixedClock, municipality: str = "hudson"
) -> tuple[Actor, int]:
    _admin, mid, (clerk,) = open_office(database, clock, municipality, ("carol",))
    return clerk, mid


def _read(path: Path, place: str | None = WESTBY, layer: str = "") -> tuple[SourceFile, Any]:
    source = SourceFile(path)
    info = source.layer(layer or None)
    choice = imports.ImportChoice(info.name, suggest(info.columns), place)
    return source, choice


def _import(
    database: Database, clock: FixedClock, clerk: Actor, mid: int, path: Path, **kw: Any
) -> imports.Imported:
    source, choice = _read(path, **kw)
    parsed = imports.read_parcel_file(source, choice)
    return imports.import_parcels(
        database.uow(),
        clock,
        clerk,
        mid,
        parsed,
        file_name=source.name,
        file_sha256=source.sha256(),
        choice=choice,
    )


def _parcels(database: Database) -> dict[str, Any]:
    pc = schema.parcel
    with database.read() as conn:
        return {r.pin: r for r in conn.execute(select(pc))}


def _rows() -> list[dict[str, str]]:
    """Five Westby parcels with the quirks of county files, a Town of Christiana one, a
    parcel number twice and an unreadable value."""
    return [
        v10_row(1, PROPCLASS="4, 5M", AUXCLASS="X4,S1"),
        v10_row(2, street="PRAIRIE", street_type="STREET", PREFIX="S"),
        v10_row(3, owner="TRAASTAD SPECIAL TRUST", OWNERNME2="JANE DOE"),
        v10_row(4, place="TOWN OF CHRISTIANA"),
        v10_row(5, ASSDACRES="0", DEEDACRES="0", GISACRES="0.82791078"),
        v10_row(6, CNTASSDVALUE="N/A"),
        v10_row(7, PARCELID="ROW", STATEID="123ROW"),
        v10_row(8, PARCELID="ROW", STATEID="123ROW"),
    ]


FORMATS = (
    "gdb",
    "gdb.zip",
    "shp",
    "shp.zip",
    "gpkg",
    "csv",
    "csv-bom",
    "csv-1252",
    "csv-utf16",
    "xlsx",
)


def _write(folder: Path, kind: str, rows: list[dict[str, str]]) -> Path:
    if kind in ("gdb", "gdb.zip"):
        path = write_gis(folder / "parcels.gdb", rows, "OpenFileGDB")
    elif kind in ("shp", "shp.zip"):
        shp = folder / "shp"
        shp.mkdir()
        path = write_gis(shp / "parcels.shp", rows, "ESRI Shapefile")
    elif kind == "gpkg":
        return write_gis(folder / "parcels.gpkg", rows, "GPKG")
    elif kind == "xlsx":
        return write_xlsx(folder / "parcels.xlsx", rows)
    else:
        encoding = {"csv": "utf-8", "csv-bom": "utf-8-sig", "csv-1252": "cp1252"}.get(
            kind, "utf-16"
        )
        return write_csv(folder / "parcels.csv", rows, encoding=encoding)
    if not kind.endswith(".zip"):
        return path
    archive = folder / "parcels.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        base = path if path.is_dir() else path.parent
        for f in sorted(base.rglob("*") if path.is_dir() else base.iterdir()):
            z.write(f, (Path(path.name) / f.relative_to(path)) if path.is_dir() else f.name)
    return archive


@pytest.mark.parametrize("kind", FORMATS)
def test_every_format_a_county_publishes_imports_the_same_parcels(
    tmp_path: Path, clock: FixedClock, kind: str
) -> None:
    database = open_database(sqlite_url(tmp_path / "register.db"))
    try:
        clerk, mid = _office(database, clock)
        folder = tmp_path / "files"
        folder.mkdir()
        done = _import(database, clock, clerk, mid, _write(folder, kind, _rows()))
        plan = done.plan
        assert len(plan.new) == 4  # 1, 2, 3 and 5; 4 is of another place
        assert plan.places_left_out == {"TOWN OF CHRISTIANA": 1}
        # Rows as a person finds them: a sheet's and a CSV's count the heading, a layer's not.
        at = 1 if kind.startswith(("csv", "xlsx")) else 0
        assert [(r.line, r.pin, r.reason) for r in plan.rejected] == [
            (6 + at, "291000000006", "Assessed value: 'N/A' is not a number"),
            (7 + at, "ROW", f"the parcel number ROW is also on row {8 + at}"),
            (8 + at, "ROW", f"the parcel number ROW is also on row {7 + at}"),
        ]
        parcels = _parcels(database)
        one, two, three = parcels["291000000001"], parcels["291000000002"], parcels["291000000003"]
        assert (one.house_number, one.street, one.city, one.zip) == (
            "102",
            "Ulland Ave",
            "Westby",
            "54667",
        )
        assert one.property_classes == ["4", "5M"] and one.aux_classes == ["X4", "S1"]
        assert (one.assessed_value, one.fair_market_value) == (
            Decimal("100100.00"),
            Decimal("103100.00"),
        )
        assert one.acres == Decimal("0.2500")
        assert two.street == "S Prairie St"
        assert (three.owner_name, three.owner_name_2) == ("TRAASTAD SPECIAL TRUST", "JANE DOE")
        assert parcels["291000000005"].acres == Decimal("0.8279")  # GIS acres when the others are 0
        assert one.owner_address == "102 ULLAND AVENUE, WESTBY, WI, 54667"
        assert one.tax_roll_year == 2025 and one.tax_parcel_id == ""
        if kind.startswith(("gdb", "shp", "gpkg")):  # the parcel's point, from EPSG:3071
            assert Decimal("43.6") < one.latitude < Decimal("43.7")
            assert Decimal("-90.9") < one.longitude < Decimal("-90.8")
    finally:
        database.close()


def test_the_states_own_sample_imports_its_westby_parcels_and_reports_its_bad_rows(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    gdb = tmp_path / SAMPLE.name
    shutil.copytree(SAMPLE, gdb)
    path = gdb / "TEST_DATASET_PARCELS_2023.gdb"
    for f in path.rglob("*"):
        f.chmod(0o644)
    source = SourceFile(path)
    assert [layer.name for layer in source.layers] == [
        "PARCELS_TEST_DATASET_2023",
        "ADDRESSES_2023",
        "ROADS_2023",
        "PARCELS_TEST_FINAL_DATASET_2023",
    ]
    clerk, mid = _office(database, clock)
    every = imports.read_parcel_file(
        source,
        imports.ImportChoice("PARCELS_TEST_DATASET_2023", suggest(source.layers[0].columns), None),
    )
    # The six right-of-way rows share the parcel number ROW: rejected, each naming the others.
    assert [r.pin for r in every.rejected] == ["ROW"] * 6
    done = _import(database, clock, clerk, mid, path, layer="PARCELS_TEST_DATASET_2023")
    assert len(done.plan.new) == 124
    assert done.plan.places_left_out == {
        "TOWN OF CHRISTIANA": 21,
        "(no place name)": 6,
        "WESTBY": 1,
        "CHRISTIANA": 1,
    }
    # Classes S1 and W10 are not the State's; one owner has no mailing address.
    assert {n.pin for n in done.plan.notes} == {"291006410000", "291006620001", "291005770000"}
    ulland = _parcels(database)["291005820000"]
    assert (ulland.house_number, ulland.street, ulland.owner_name) == (
        "306",
        "Ulland Ave",
        "MICHAEL H & REBECCA L SOLBERG",
    )
    with database.read() as conn:
        di = schema.data_import
        record = conn.execute(select(di)).one()
    assert (record.file_name, record.layer, record.kind) == (
        "TEST_DATASET_PARCELS_2023.gdb",
        "PARCELS_TEST_DATASET_2023",
        "parcels",
    )
    assert len(record.file_sha256) == 64 and record.counts["new"] == 124


def test_a_reimport_updates_the_countys_fields_lists_conflicts_and_missing_and_audits_each_change(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    clerk, mid = _office(database, clock, "glendale")
    rows = [v10_row(n) for n in range(1, 6)]
    first = write_gis(tmp_path / "2025.gpkg", rows, "GPKG")
    _import(database, clock, clerk, mid, first)
    parcels = _parcels(database)
    # The office's own facts on parcel 1: the house number it assigned, zoning and a note.
    p1 = parcels["291000000001"]
    with database.uow() as uow:
        parcel = uow.parcels.get(p1.id)
        assert isinstance(parcel, Parcel)
        form = edit.parcel_edit_of(parcel)
    edit.update_parcel(
        database.uow(),
        clock,
        clerk,
        p1.id,
        edit.ParcelEdit(
            **{
                **form.__dict__,
                "house_number": "104A",
                "zoning_district": "R-2",
                "notes": "Gate code 1234",
            }
        ),
    )
    changed = [dict(r) for r in rows[:4]]  # parcel 5 is gone from the county's file
    changed[1]["OWNERNME1"] = "NEW OWNER LLC"  # parcel 2 sold
    changed[1]["PSTLADRESS"] = "PO BOX 9, LA CROSSE, WI, 54601"
    changed[2]["CNTASSDVALUE"] = "150000"  # parcel 3 reassessed
    second = write_gis(tmp_path / "2026.gpkg", changed, "GPKG")

    source, choice = _read(second)
    parsed = imports.read_parcel_file(source, choice)
    dry = imports.dry_run(database.uow(), clerk, mid, parsed)
    assert (len(dry.new), len(dry.changed), dry.unchanged) == (0, 2, 2)
    owner_change = {c.field: (c.old, c.new) for c in dry.changed[0].changes}
    assert owner_change["owner_name"] == ("OWNER 2 & SPOUSE 2", "NEW OWNER LLC")
    assert {c.field: (c.old, c.new) for c in dry.changed[1].changes} == {
        "assessed_value": ("100300.00", "150000.00")
    }
    assert [(c.pin, c.field, c.office, c.county) for c in dry.conflicts] == [
        ("291000000001", "house_number", "104A", "102")
    ]
    assert [m.pin for m in dry.missing] == ["291000000005"]
    assert _parcels(database)["291000000002"].owner_name == "OWNER 2 & SPOUSE 2"  # dry: unchanged

    done = imports.import_parcels(
        database.uow(),
        clock,
        clerk,
        mid,
        parsed,
        file_name=source.name,
        file_sha256=source.sha256(),
        choice=choice,
    )
    after = _parcels(database)
    assert after["291000000002"].owner_name == "NEW OWNER LLC"
    assert after["291000000002"].version == parcels["291000000002"].version + 1
    assert after["291000000003"].assessed_value == Decimal("150000.00")
    kept = after["291000000001"]
    assert (kept.house_number, kept.zoning_district, kept.notes) == (
        "104A",
        "R-2",
        "Gate code 1234",
    )
    assert after["291000000005"].retired_on is None  # missing: listed, never retired
    assert after["291000000002"].import_id == done.import_id
    a = schema.audit_event
    with database.read() as conn:
        rows_ = (
            conn.execute(
                select(a.c.changes).where(
                    (a.c.entity == "parcel")
                    & (a.c.entity_id == after["291000000002"].id)
                    & (a.c.action == "update")
                )
            )
            .scalars()
            .all()
        )
        assert list(audit_chain.breaks(conn)) == []  # every row written in bulk chains
    owner_rows = [c for changes in rows_ for c in changes if c["field"] == "owner_name"]
    assert owner_rows == [
        {"field": "owner_name", "old": "OWNER 2 & SPOUSE 2", "new": "NEW OWNER LLC"}
    ]


def test_a_reimport_keeps_the_register_spelling_of_a_street_typed_the_same(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    clerk, mid = _office(database, clock, "glendale")
    permits.add_parcel(
        database.uow(),
        clock,
        clerk,
        Parcel(
            municipality_id=mid,
            pin="291000000001",
            house_number="102",
            street="Ulland Ave",
            city="Westby",
            zip="54667",
        ),
    )
    dry = imports.dry_run(
        database.uow(),
        clerk,
        mid,
        imports.read_parcel_file(*_read(write_csv(tmp_path / "p.csv", [v10_row(1)]))),
    )
    assert [c.field for c in dry.changed[0].changes if c.field in ("street", "house_number")] == []


def test_a_cancelled_import_leaves_the_register_as_it_was(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    clerk, mid = _office(database, clock)
    rows = [v10_row(n) for n in range(1, 3000)]
    source, choice = _read(write_csv(tmp_path / "p.csv", rows))
    parsed = imports.read_parcel_file(source, choice)
    seen: list[int] = []
    with pytest.raises(ImportCancelled, match="nothing was changed"):
        imports.import_parcels(
            database.uow(),
            clock,
            clerk,
            mid,
            parsed,
            file_name=source.name,
            file_sha256=source.sha256(),
            choice=choice,
            progress=lambda done, total: seen.append(done),
            cancelled=lambda: bool(seen),
        )
    with database.read() as conn:
        assert conn.execute(select(func.count()).select_from(schema.parcel)).scalar() == 0
        assert conn.execute(select(func.count()).select_from(schema.data_import)).scalar() == 0


def test_reading_can_be_cancelled_between_chunks(tmp_path: Path) -> None:
    source, choice = _read(write_csv(tmp_path / "p.csv", [v10_row(n) for n in range(1, 5000)]))
    with pytest.raises(ImportCancelled):
        imports.read_parcel_file(source, choice, cancelled=lambda: True)


def test_only_the_clerk_and_the_administrator_import(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    _admin, mid, (inspector,) = open_office(database, clock, "hudson", ("ivan",))
    parsed = imports.read_parcel_file(*_read(write_csv(tmp_path / "p.csv", [v10_row(1)])))
    with pytest.raises(Exception, match="import parcels and contractors"):
        imports.dry_run(database.uow(), inspector, mid, parsed)


# --- bad files: one sentence naming the file, nothing written -----------------------------


def _refused(path: Path) -> str:
    with pytest.raises(ImportFileError) as e:
        SourceFile(path)
    assert path.name in str(e.value)
    return str(e.value)


def test_a_file_that_is_not_a_parcel_file_is_refused_naming_it(tmp_path: Path) -> None:
    junk = tmp_path / "minutes.gpkg"
    junk.write_bytes(b"%PDF-1.7 not a geopackage at all" * 40)
    assert "is not a file geodatabase (.gdb), a shapefile" in _refused(junk)
    letter = tmp_path / "letter.docx"
    letter.write_bytes(b"PK\x03\x04")
    assert "is not a file geodatabase" in _refused(letter)


def test_a_two_gigabyte_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "statewide.gpkg"
    with big.open("wb") as f:
        f.truncate(2 * 1024**3)  # sparse: nothing is written to the disk
    assert "is 2.0 GB; Permit Desk reads files up to 1 GB" in _refused(big)


def test_a_zip_that_says_it_expands_past_a_gigabyte_is_refused_unread(tmp_path: Path) -> None:
    bomb = tmp_path / "parcels.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("parcels.csv", b"0" * 1000)
    data = bytearray(bomb.read_bytes())
    central = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 0xFFFFFFF0)  # uncompressed size: 4 GB
    bomb.write_bytes(bytes(data))
    assert "expands to more than 1 GB" in _refused(bomb)


def test_a_zip_whose_member_expands_past_what_it_says_is_a_zip_bomb(tmp_path: Path) -> None:
    bomb = tmp_path / "parcels.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("parcels.csv", b"0" * 5_000_000)
    data = bytearray(bomb.read_bytes())
    for header, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(header) if header == b"PK\x03\x04" else data.rfind(header)
        struct.pack_into("<I", data, at + offset, 1000)  # it says 1,000 bytes
    bomb.write_bytes(bytes(data))
    message = _refused(bomb)
    assert "zip bomb" in message or "damaged zip" in message


@pytest.mark.parametrize(
    ("raw", "readable"),
    [
        ("PARCELID,OWNERNME1\n1,ØYVIND\n".encode(), "ØYVIND"),
        ("PARCELID,OWNERNME1\n1,ØYVIND\n".encode("utf-8-sig"), "ØYVIND"),
        ("PARCELID,OWNERNME1\n1,ØYVIND\n".encode("utf-16"), "ØYVIND"),
        ("PARCELID,OWNERNME1\n1,ØYVIND\n".encode("cp1252"), "ØYVIND"),
    ],
)
def test_csv_in_the_encodings_excel_writes_is_read(
    tmp_path: Path, raw: bytes, readable: str
) -> None:
    path = tmp_path / "owners.csv"
    path.write_bytes(raw)
    rows = list(SourceFile(path).rows())
    assert rows[0].values == {"PARCELID": "1", "OWNERNME1": readable}
    assert rows[0].line == 2


def test_csv_in_an_encoding_it_cannot_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "owners.csv"
    path.write_bytes("PARCELID,OWNERNME1\n1,ØYVIND\n".encode("utf-16-le"))  # no byte order mark
    assert "is not text in an encoding Permit Desk can read" in _refused(path)
    path.write_bytes(b"PARCELID,OWNER\n1,\x81\x8d\x8f\n")  # undefined in Windows-1252
    assert "save it as 'CSV UTF-8'" in _refused(path)


def test_a_layer_without_a_key_column_and_a_mapping_to_a_missing_field_are_named(
    tmp_path: Path,
) -> None:
    path = write_csv(tmp_path / "roads.csv", [{"ROADNAME": "MAIN"}], columns=("ROADNAME", "LANES"))
    source = SourceFile(path)
    layer = source.layers[0]
    with pytest.raises(ValidationError) as e:
        imports.read_parcel_file(
            source, imports.ImportChoice(layer.name, suggest(layer.columns), None)
        )
    assert str(e.value).startswith("roads.csv, layer roads: Parcel number (PIN): choose the column")
    wrong = ColumnMapping({"pin": ("ROADNAME",), "owner_name": ("OWNER",)})
    with pytest.raises(ValidationError, match="Owner of record: the file has no column OWNER"):
        imports.read_parcel_file(source, imports.ImportChoice(layer.name, wrong, None))


def test_a_file_with_no_parcels_of_the_place_writes_nothing(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    clerk, mid = _office(database, clock)
    source, choice = _read(write_csv(tmp_path / "p.csv", [v10_row(1, place="TOWN OF CHRISTIANA")]))
    parsed = imports.read_parcel_file(source, choice)
    assert isinstance(parsed, ParsedFile) and parsed.parcels == []
    with pytest.raises(ValidationError, match=r"p\.csv has no rows of parcels to import"):
        imports.import_parcels(
            database.uow(),
            clock,
            clerk,
            mid,
            parsed,
            file_name=source.name,
            file_sha256=source.sha256(),
            choice=choice,
        )


def test_a_rows_line_is_the_csv_files_own_with_blank_lines_counted(tmp_path: Path) -> None:
    path = tmp_path / "owners.csv"
    path.write_text('PARCELID,OWNERNME1\n\n1,"ANNA\nSCHMIDT"\n,\n2,BOB\n', encoding="utf-8")
    rows = list(SourceFile(path).rows())
    assert [(r.line, r.values["PARCELID"]) for r in rows] == [(3, "1"), (6, "2")]
