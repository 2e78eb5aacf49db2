"""Synthetic county parcel files in the Wisconsin statewide parcel schema (V10), written with
the same library the app reads them with (pyogrio/GDAL), with the quirks of real county files:
every attribute stored as text, street types spelled out, TAXPARCELID empty, several
municipalities in one file, EPSG:3071 coordinates. Used by the tests and the bench."""

from __future__ import annotations

import csv
import os
import struct
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from desk.imports.mapping import V10_COLUMNS


def _sample() -> Path:
    """The State's sample county file (wi-v10-sample, read-only): beside the checkout, as in the
    office's workspace (../shared/parcels), wherever the checkout is cloned to (CI clones it
    elsewhere on the same machine), or where PERMITDESK_PARCEL_SAMPLE says."""
    named = os.environ.get("PERMITDESK_PARCEL_SAMPLE")
    here = Path(__file__).resolve()
    places = [Path(named)] if named else []
    places += [a / "shared" / "parcels" / "wi-v10-sample" for a in here.parents]
    places.append(Path("/work/shared/parcels/wi-v10-sample"))
    for place in places:
        if (place / "TEST_DATASET_PARCELS_2023.gdb").is_dir():
            return place
    return places[-1]  # not there: the tests that read it fail naming this folder


SAMPLE = _sample()

# A corner of the City of Westby in EPSG:3071 (NAD83(HARN) / Wisconsin Transverse Mercator).
ORIGIN_X, ORIGIN_Y = 449_500.0, 354_000.0
LOT = 30.0  # metres


def v10_row(
    n: int,
    *,
    place: str = "CITY OF WESTBY",
    street: str = "ULLAND",
    street_type: str = "AVENUE",
    owner: str | None = None,
    value: int | None = None,
    **overrides: str,
) -> dict[str, str]:
    """Parcel number `n` of a V10 file: '291005800000' + n, a house on `street`."""
    number = 100 + 2 * n
    assessed = value if value is not None else 100_000 + 100 * n
    row = dict.fromkeys(V10_COLUMNS, "")
    row.update(
        STATEID=f"123{291_000_000_000 + n}",
        PARCELID=f"{291_000_000_000 + n}",
        TAXPARCELID="",
        PARCELDATE="2/28/2021",
        TAXROLLYEAR="2025",
        OWNERNME1=owner if owner is not None else f"OWNER {n} & SPOUSE {n}",
        PSTLADRESS=f"{number} {street} {street_type}, WESTBY, WI, 54667",
        SITEADRESS=f"{number} {street} {street_type[:3]}",
        ADDNUM=str(number),
        STREETNAME=street,
        STREETTYPE=street_type,
        PLACENAME=place,
        ZIPCODE="54667",
        STATE="WI",
        CNTASSDVALUE=str(assessed),
        LNDVALUE="20000",
        IMPVALUE=str(assessed - 20_000),
        ESTFMKVALUE=str(assessed + 3_000),
        PROPCLASS="1",
        ASSDACRES="0.25",
        DEEDACRES="0.25",
        GISACRES="0.26",
        CONAME="VERNON",
        PARCELFIPS="123",
        PARCELSRC="VERNON",
    )
    row.update(overrides)
    return row


def square(n: int) -> bytes:
    """A MultiPolygon (WKB) of lot `n`, in a row of lots."""
    x0 = ORIGIN_X + (n % 200) * LOT
    y0 = ORIGIN_Y + (n // 200) * LOT
    ring = [(x0, y0), (x0 + LOT, y0), (x0 + LOT, y0 + LOT), (x0, y0 + LOT), (x0, y0)]
    polygon = struct.pack("<BII", 1, 3, 1) + struct.pack("<I", len(ring))
    polygon += b"".join(struct.pack("<dd", x, y) for x, y in ring)
    return struct.pack("<BII", 1, 6, 1) + polygon


def write_gis(
    path: Path,
    rows: Sequence[dict[str, str]],
    driver: str,
    *,
    layer: str = "PARCELS",
    columns: Sequence[str] = V10_COLUMNS,
) -> Path:
    """A file geodatabase ("OpenFileGDB"), a shapefile ("ESRI Shapefile") or a GeoPackage
    ("GPKG") of these rows, every attribute as text, shapes in EPSG:3071."""
    import numpy as np

    geometry = np.array([square(i) for i in range(len(rows))], dtype=object)
    data = [np.array([r.get(c, "") for r in rows], dtype=object) for c in columns]
    with warnings.catch_warnings():  # a shapefile cuts names to ten characters, as counties' do
        warnings.simplefilter("ignore", RuntimeWarning)
        _write(path, geometry, data, columns, layer, driver)
    return path


def _write(
    path: Path, geometry: Any, data: Any, columns: Sequence[str], layer: str, driver: str
) -> None:
    import pyogrio.raw

    pyogrio.raw.write(
        str(path),
        geometry,
        data,
        list(columns),
        layer=layer,
        driver=driver,
        geometry_type="MultiPolygon",
        crs="EPSG:3071",
        encoding="UTF-8",
    )


def write_csv(
    path: Path,
    rows: Iterable[dict[str, str]],
    *,
    encoding: str = "utf-8",
    delimiter: str = ",",
    columns: Sequence[str] = V10_COLUMNS,
) -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), delimiter=delimiter)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})
    return path


def write_xlsx(
    path: Path, rows: Iterable[dict[str, Any]], *, columns: Sequence[str] = V10_COLUMNS
) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Parcels"
    sheet.append(list(columns))
    for row in rows:
        sheet.append([row.get(c, "") for c in columns])
    book.save(path)
    return path
