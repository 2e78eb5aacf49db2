"""What a data file holds and its rows as text.

Formats: an Esri file geodatabase (a `.gdb` folder, or zipped), a shapefile (`.shp` beside its
`.dbf`, or zipped), a GeoPackage, CSV and Excel workbooks (.xlsx). The GIS formats are read
through pyogrio and its bundled GDAL; CSV with the csv module, in UTF-8 with or without a BOM,
UTF-16 with a BOM or Windows-1252 (what Excel writes); workbooks with openpyxl.

Every attribute is read as text, as county files store it; the caller parses what it needs.
Refused in one sentence naming the file: a file or folder over 1 GB, a zip that expands past
1 GB or whose members are not what its directory says (a zip bomb), a file none of the readers
can open, a CSV in an encoding it cannot read.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from desk.errors import DeskError

MAX_BYTES = 1 << 30  # 1 GB: a county's parcels fit many times over; the statewide file does not
CHUNK = 2_000  # rows read at a time: the progress bar moves and Cancel is heard in between
GIS_SUFFIXES = (".gdb", ".shp", ".gpkg")
TABLE_SUFFIXES = (".csv", ".txt", ".xlsx")
SUFFIXES = (*GIS_SUFFIXES, *TABLE_SUFFIXES, ".zip")
FILE_KINDS = "a file geodatabase (.gdb), a shapefile, a GeoPackage, a CSV file or an Excel workbook"
LON, LAT = "_permitdesk_lon", "_permitdesk_lat"  # the parcel's point, when computed from shapes


class ImportFileError(DeskError):
    """The file cannot be read as a data file; the message names the file and says why."""


class ImportCancelled(DeskError):
    def __init__(self) -> None:
        super().__init__("The import was cancelled; nothing was changed.")


Progress = Callable[[int, int | None], None]  # (rows read, rows in all if known)


@dataclass(frozen=True)
class LayerInfo:
    """A layer of a GIS file, or a sheet of a workbook, or the one table of a CSV file."""

    name: str
    columns: tuple[str, ...]
    rows: int | None  # None: not known without reading it
    geometry: str = ""  # "MultiPolygon"; "" for a table without shapes
    crs: str = ""  # "EPSG:3071"


@dataclass(frozen=True)
class Row:
    """One row: `line` as a person finds it (the CSV line or the sheet's row number with the
    heading counted, the feature's number in a GIS layer) and every value as text."""

    line: int
    values: dict[str, str]


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


def _gb(n: int) -> str:
    return f"{n / (1 << 30):.1f} GB"


def _text(value: Any) -> str:
    """An attribute as text: blanks and NULL as "", whole numbers without '.0'."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace").strip()
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        if value != value:  # NaN: a NULL number
            return ""
        value = float(value)  # a numpy float64 too
        return str(int(value)) if value.is_integer() else format(Decimal(repr(value)), "f")
    if hasattr(value, "item"):  # a numpy scalar
        return _text(value.item())
    return str(value).strip()


def _check_zip(path: Path, shown: str) -> zipfile.ZipFile:
    """The zip, once every member has been expanded and counted: a member that expands past
    what the zip's directory says, or a total past MAX_BYTES, is a zip bomb."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise ImportFileError(f"{shown} is not a zip file that can be opened ({e}).") from None
    total = 0
    try:
        for info in archive.infolist():
            if info.is_dir():
                continue
            if total + info.file_size > MAX_BYTES:
                raise ImportFileError(
                    f"{shown} expands to more than 1 GB; Permit Desk reads files up to 1 GB "
                    "(export your municipality's parcels only)."
                )
            seen = 0
            with archive.open(info) as member:
                while chunk := member.read(1 << 20):
                    seen += len(chunk)
                    if seen > info.file_size or total + seen > MAX_BYTES:
                        raise ImportFileError(
                            f"{shown} expands past what its directory says (a zip bomb?); "
                            "it was not read."
                        )
            total += seen
    except ImportFileError:
        archive.close()
        raise
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as e:
        archive.close()
        raise ImportFileError(f"{shown} is a damaged zip file ({e}).") from None
    return archive


def _zip_dataset(path: Path, archive: zipfile.ZipFile, shown: str) -> tuple[str, str]:
    """(format, the GDAL path or the CSV member) of what the zip holds."""
    names = [n for n in archive.namelist() if not n.endswith("/")]
    gdbs = sorted({n.split(".gdb/")[0] + ".gdb" for n in names if ".gdb/" in n})
    if gdbs:
        return "gdb", f"/vsizip/{path}/{gdbs[0]}"
    lower = {n.lower(): n for n in names}
    for suffix, kind in ((".shp", "shp"), (".gpkg", "gpkg")):
        found = sorted(n for low, n in lower.items() if low.endswith(suffix))
        if len(found) == 1:
            return kind, f"/vsizip/{path}/{found[0]}"
        if len(found) > 1:  # several shapefiles: the folder, one layer each
            folder = found[0].rsplit("/", 1)[0] if "/" in found[0] else ""
            return kind, f"/vsizip/{path}/{folder}".rstrip("/")
    tables = sorted(n for low, n in lower.items() if low.endswith((".csv", ".txt")))
    if tables:
        return "csv-zip", tables[0]
    raise ImportFileError(f"{shown} holds none of {FILE_KINDS}.")


class SourceFile:
    """A data file opened for import: its layers, and its rows read on demand."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.name = self.path.name
        shown = self.name
        if not self.path.exists():
            raise ImportFileError(f"{shown}: there is no such file or folder.")
        size = _size(self.path)
        if size > MAX_BYTES:
            raise ImportFileError(
                f"{shown} is {_gb(size)}; Permit Desk reads files up to 1 GB "
                "(export your municipality's parcels only, e.g. filtered on PLACENAME)."
            )
        if size == 0:
            raise ImportFileError(f"{shown} is empty.")
        self._csv_rows: list[tuple[int, list[str]]] | None = None
        suffix = self.path.suffix.lower()
        if self.path.is_dir() and suffix != ".gdb":
            raise ImportFileError(f"{shown} is a folder, not a file geodatabase (.gdb).")
        if suffix == ".zip":
            with _check_zip(self.path, shown) as archive:
                kind, where = _zip_dataset(self.path, archive, shown)
                if kind == "csv-zip":
                    self._csv_rows = _csv_table(archive.read(where), f"{shown} ({where})")
                    self.kind, self._gdal = "csv", ""
                else:
                    self.kind, self._gdal = kind, where
        elif suffix in GIS_SUFFIXES:
            self.kind, self._gdal = suffix[1:], str(self.path)
        elif suffix in (".csv", ".txt"):
            self.kind, self._gdal = "csv", ""
            self._csv_rows = _csv_table(self.path.read_bytes(), shown)
        elif suffix == ".xlsx":
            _check_zip(self.path, shown).close()  # a workbook is a zip: no bomb either
            self.kind, self._gdal = "xlsx", ""
        else:
            raise ImportFileError(f"{shown} is not {FILE_KINDS}.")
        self.layers = self._layers()
        if not self.layers:
            raise ImportFileError(f"{shown} holds no table or layer with rows.")

    # --- what it holds ----------------------------------------------------------------------

    @property
    def format(self) -> str:
        return {
            "gdb": "Esri file geodatabase",
            "shp": "shapefile",
            "gpkg": "GeoPackage",
            "csv": "CSV file",
            "xlsx": "Excel workbook",
        }[self.kind]

    def layer(self, name: str | None) -> LayerInfo:
        """The layer by name; the first when `name` is None or empty."""
        if not name:
            return self.layers[0]
        for layer in self.layers:
            if layer.name == name:
                return layer
        known = ", ".join(layer.name for layer in self.layers)
        raise ImportFileError(f"{self.name} has no layer '{name}' (it has: {known}).")

    def sha256(self) -> str:
        """The file's SHA-256 (a .gdb folder: of its files' names and contents, in order)."""
        digest = hashlib.sha256()
        files = (
            sorted(p for p in self.path.rglob("*") if p.is_file())
            if self.path.is_dir()
            else [self.path]
        )
        for p in files:
            if self.path.is_dir():
                digest.update(p.relative_to(self.path).as_posix().encode() + b"\0")
            with p.open("rb") as f:
                while chunk := f.read(1 << 20):
                    digest.update(chunk)
        return digest.hexdigest()

    def _layers(self) -> tuple[LayerInfo, ...]:
        if self._csv_rows is not None:
            header = self._csv_rows[0][1] if self._csv_rows else []
            return (LayerInfo(self.path.stem, _unique(header), len(self._csv_rows) - 1),)
        if self.kind == "xlsx":
            return _xlsx_layers(self.path, self.name)
        return _gis_layers(self._gdal, self.name)

    # --- its rows ---------------------------------------------------------------------------

    def rows(
        self,
        layer: str | None = None,
        *,
        columns: Sequence[str] | None = None,
        points: bool = False,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Iterator[Row]:
        """The layer's rows (`columns` only, when given), each value as text. `points`: add
        each shape's point in WGS 84 degrees as the columns LON and LAT (a point inside the
        parcel, from the layer's own coordinate system). Raises ImportCancelled when
        `cancelled()` says so between chunks."""
        info = self.layer(layer)
        wanted = [c for c in (columns or info.columns) if c in info.columns]
        if self._csv_rows is not None:
            source: Iterator[list[Row]] = _csv_chunks(self._csv_rows, info.columns, wanted)
        elif self.kind == "xlsx":
            source = _xlsx_chunks(self.path, info, wanted)
        else:
            with_points = points and bool(info.geometry) and bool(info.crs)
            source = _gis_chunks(self._gdal, info, wanted, with_points, self.name)
        done = 0
        for chunk in source:
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            yield from chunk
            done += len(chunk)
            if progress is not None:
                progress(done, info.rows)


def _unique(header: Sequence[str]) -> tuple[str, ...]:
    """Column names as the file spells them, blanks named by position, repeats numbered."""
    out: list[str] = []
    for i, raw in enumerate(header, start=1):
        name = raw.strip() or f"Column {i}"
        base, n = name, 2
        while name in out:
            name, n = f"{base} ({n})", n + 1
        out.append(name)
    return tuple(out)


# --- CSV ------------------------------------------------------------------------------------


def _decode(raw: bytes, shown: str) -> str:
    """UTF-8 (with or without a BOM), UTF-16 with a BOM, else Windows-1252."""
    if raw.startswith(codecs.BOM_UTF8):
        return raw[len(codecs.BOM_UTF8) :].decode("utf-8", "strict")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    elif b"\0" not in raw:  # NUL bytes: UTF-16 without its BOM, or not text at all
        for encoding in ("utf-8", "cp1252"):
            try:
                return raw.decode(encoding, "strict")
            except UnicodeDecodeError:
                continue
    raise ImportFileError(
        f"{shown} is not text in an encoding Permit Desk can read (UTF-8, UTF-16 with a byte "
        "order mark, or Windows-1252); in Excel, save it as 'CSV UTF-8'."
    )


def _csv_table(raw: bytes, shown: str) -> list[tuple[int, list[str]]]:
    """(the line the row starts on, its cells) of every row that is not blank; the heading
    first."""
    text = _decode(raw, shown)
    sample = text[:65536]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows: list[tuple[int, list[str]]] = []
    try:
        reader = csv.reader(io.StringIO(text, newline=""), dialect)
        last = 0
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((last + 1, row))  # a quoted cell may run over several lines
            last = reader.line_num
    except csv.Error as e:
        raise ImportFileError(f"{shown} is not a CSV file Permit Desk can read ({e}).") from None
    if len(rows) < 2:
        raise ImportFileError(f"{shown} has no rows under its heading.")
    return rows


def _csv_chunks(
    rows: list[tuple[int, list[str]]], columns: tuple[str, ...], wanted: list[str]
) -> Iterator[list[Row]]:
    at = {name: i for i, name in enumerate(columns)}
    index = [(name, at[name]) for name in wanted]
    for start in range(1, len(rows), CHUNK):
        chunk = []
        for line, raw in rows[start : start + CHUNK]:
            values = {n: (raw[i].strip() if i < len(raw) else "") for n, i in index}
            chunk.append(Row(line, values))  # the file's own line, blank lines counted
        yield chunk


# --- workbooks ------------------------------------------------------------------------------


def _workbook(path: Path, shown: str) -> Any:
    from openpyxl import load_workbook

    try:
        return load_workbook(path, read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for a file that is not a workbook
        raise ImportFileError(f"{shown} is not an Excel workbook that can be opened ({e}).") from e


def _sheet_rows(sheet: Any) -> Iterator[tuple[int, list[str]]]:
    for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
        texts = [_text(v) for v in values]
        if any(texts):
            yield number, texts


def _xlsx_layers(path: Path, shown: str) -> tuple[LayerInfo, ...]:
    book = _workbook(path, shown)
    try:
        out = []
        for sheet in book.worksheets:
            rows = _sheet_rows(sheet)
            first = next(rows, None)
            if first is None:
                continue
            count = sum(1 for _ in rows)
            if count:
                out.append(LayerInfo(sheet.title, _unique(first[1]), count))
        return tuple(out)
    finally:
        book.close()


def _xlsx_chunks(path: Path, info: LayerInfo, wanted: list[str]) -> Iterator[list[Row]]:
    book = _workbook(path, path.name)
    try:
        rows = _sheet_rows(book[info.name])
        next(rows, None)  # the heading
        at = {name: i for i, name in enumerate(info.columns)}
        chunk: list[Row] = []
        for number, texts in rows:
            values = {n: (texts[at[n]] if at[n] < len(texts) else "") for n in wanted}
            chunk.append(Row(number, values))
            if len(chunk) == CHUNK:
                yield chunk
                chunk = []
        if chunk:
            yield chunk
    finally:
        book.close()


# --- GIS files (pyogrio, GDAL) ---------------------------------------------------------------


def _gdal_error(shown: str, e: Exception) -> ImportFileError:
    reason = " ".join(str(e).split())[:200]
    return ImportFileError(f"{shown} is not {FILE_KINDS} that can be opened ({reason}).")


def _gis_layers(where: str, shown: str) -> tuple[LayerInfo, ...]:
    import pyogrio

    try:
        listed = pyogrio.list_layers(where)
        out = []
        for name, geometry in listed:
            info = pyogrio.read_info(where, layer=str(name))
            columns = tuple(str(c) for c in info["fields"])
            count = int(info["features"]) if info["features"] >= 0 else None
            if columns and count != 0:
                crs = str(info.get("crs") or "")
                out.append(LayerInfo(str(name), columns, count, str(geometry or ""), crs))
        return tuple(out)
    except ImportFileError:
        raise
    except Exception as e:  # pyogrio's DataSourceError, DataLayerError, GDAL's own
        raise _gdal_error(shown, e) from None


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _gis_points(where: str, info: LayerInfo, shown: str) -> dict[int, tuple[str, str]]:
    """Each shape's point as (longitude, latitude) in WGS 84 degrees, by feature id: a point on
    its surface (inside the parcel, unlike a centroid), through GDAL's SQLite dialect in one
    pass over the layer."""
    import pyogrio.raw

    geometry = _quoted(_geometry_column(where, info))
    point = f"ST_Transform(ST_PointOnSurface({geometry}), 4326)"
    # rowid + 0: a GeoPackage would take a bare rowid for the feature id and leave it out.
    sql = (
        f"SELECT rowid + 0 AS feature_no, ST_X({point}) AS x, ST_Y({point}) AS y "
        f"FROM {_quoted(info.name)}"
    )
    try:
        _meta, _fids, _geom, (fids, xs, ys) = pyogrio.raw.read(
            where, sql=sql, sql_dialect="SQLITE", read_geometry=False
        )
    except Exception as e:
        raise _gdal_error(shown, e) from None
    return {int(f): (_text(x), _text(y)) for f, x, y in zip(fids, xs, ys, strict=True)}


def _gis_chunks(
    where: str, info: LayerInfo, wanted: list[str], points: bool, shown: str
) -> Iterator[list[Row]]:
    import pyogrio.raw

    located = _gis_points(where, info, shown) if points else {}
    total = info.rows
    start = 0
    while True:
        try:
            meta, fids, _geom, fields = pyogrio.raw.read(
                where,
                layer=info.name,
                columns=wanted,
                read_geometry=False,
                skip_features=start,
                max_features=CHUNK,
                return_fids=True,
            )
        except Exception as e:
            raise _gdal_error(shown, e) from None
        names = [str(c) for c in meta["fields"]]
        n = len(fids) if fids is not None else 0
        if n == 0:
            return
        columns_data = [
            [v.strip() if isinstance(v, str) else _text(v) for v in column] for column in fields
        ]
        chunk = []
        for i in range(n):
            values = {name: columns_data[j][i] for j, name in enumerate(names)}
            point = located.get(int(fids[i]))
            if point is not None:
                values[LON], values[LAT] = point
            chunk.append(Row(start + i + 1, values))
        yield chunk
        start += n
        if n < CHUNK or (total is not None and start >= total):
            return


def _geometry_column(where: str, info: LayerInfo) -> str:
    import pyogrio

    name = str(pyogrio.read_info(where, layer=info.name).get("geometry_name") or "")
    return name or "geometry"
