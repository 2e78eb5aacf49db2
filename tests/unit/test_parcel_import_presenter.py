"""The Import parcels window's choices without a screen: which layer it starts from, which
place, and what a chosen path opens."""

from __future__ import annotations

from pathlib import Path

from desk.imports.files import LayerInfo
from desk.imports.mapping import V10_COLUMNS, ColumnMapping
from ui.presenters import parcel_import as p

PARCELS = LayerInfo("PARCELS_2023", V10_COLUMNS, 153, "MultiPolygon", "EPSG:3071")
ADDRESSES = LayerInfo(
    "ADDRESSES_2023", ("ADDNUM", "STREETNAME", "PARCELID", "STATEID"), 15731, "Point"
)
ROADS = LayerInfo("ROADS_2023", ("ROAD_ID", "STREETNAME"), 4791, "MultiLineString")


def test_the_layer_is_last_time_s_else_the_first_of_parcel_shapes_in_the_v10_layout() -> None:
    assert p.default_layer([ROADS, ADDRESSES, PARCELS]).name == "PARCELS_2023"
    assert p.default_layer([ROADS, ADDRESSES, PARCELS], saved="ADDRESSES_2023").name == (
        "ADDRESSES_2023"
    )
    assert p.default_layer([ROADS, ADDRESSES]).name == "ADDRESSES_2023"  # V10 columns, points
    assert p.default_layer([ROADS]).name == "ROADS_2023"
    assert p.layer_label(PARCELS) == "PARCELS_2023 — parcel shapes (polygons), 153 rows"


def test_the_place_is_the_municipality_s_when_the_file_has_it_else_the_clerk_chooses() -> None:
    counts = {"CITY OF WESTBY": 124, "TOWN OF CHRISTIANA": 21, p.NO_PLACE: 6}
    assert p.default_place(counts, "City of  Westby") == p.PlaceDefault("CITY OF WESTBY", True)
    hudson = p.default_place(counts, "CITY OF HUDSON")
    assert (hudson.place, hudson.chosen) == (None, False)
    assert hudson.note == (
        "This file has no rows of CITY OF HUDSON, the municipality's place name; choose whose "
        "rows to read."
    )
    assert p.default_place({"CITY OF WESTBY": 124}, "") == p.PlaceDefault("CITY OF WESTBY", True)
    assert p.default_place({}, "CITY OF HUDSON").place is None  # no place column: every row
    assert [o.label for o in p.place_options(counts)] == [
        "CITY OF WESTBY — 124 rows",
        "TOWN OF CHRISTIANA — 21 rows",
        "(every row) — 151 rows",
    ]


def test_a_file_inside_a_geodatabase_opens_the_geodatabase(tmp_path: Path) -> None:
    gdb = tmp_path / "PARCELS.gdb"
    gdb.mkdir()
    assert p.source_path(gdb / "a00000009.gdbtable") == gdb
    shp = tmp_path / "parcels.shp"
    shp.write_bytes(b"")
    assert p.source_path(tmp_path / "parcels.dbf") == shp
    assert p.source_path(tmp_path / "parcels.csv") == tmp_path / "parcels.csv"


def test_a_field_read_from_several_columns_is_offered_as_one_choice() -> None:
    options = p.column_options("house_number", V10_COLUMNS, ColumnMapping())
    assert [o.label for o in options[:2]] == [
        "(not in the file)",
        "ADDNUMPREFIX + ADDNUM + ADDNUMSUFFIX",
    ]
    assert options[1].value == ("ADDNUMPREFIX", "ADDNUM", "ADDNUMSUFFIX")
    assert options[2] == p.Option("STATEID", ("STATEID",))
