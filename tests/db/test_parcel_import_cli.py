"""`permitdesk parcels import`: the State's own sample file (a file geodatabase of the City of
Westby, four layers) imported from the command line on SQLite and PostgreSQL — the parcel
layer chosen, Westby's rows read, the places left out listed, a re-run finding nothing new —
and every kind of bad input refused in one sentence naming the file, exit 2, nothing written."""

from __future__ import annotations

import io
import shutil
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from sqlalchemy import func, select

from db import parcel_import, schema
from db.database import Database
from desk.clock import FixedClock
from desk.services import users
from desk.services.setup import NewMunicipality, create_municipality
from permitdesk import parcel_commands
from permitdesk.cli import main
from tests.cli_sign_in import always_signed
from tests.factories import PASSWORD, open_office
from tests.parcel_files import SAMPLE

GDB = "TEST_DATASET_PARCELS_2023.gdb"


def _url(database: Database) -> list[str]:
    """The register, and its administrator's sign-in (the password: standard input)."""
    url = database.engine.url.render_as_string(hide_password=False)
    return ["--database-url", url, "--user", "admin"]


@pytest.fixture(autouse=True)
def administrator_password(monkeypatch: pytest.MonkeyPatch) -> None:
    always_signed(monkeypatch)


def _westby(database: Database, clock: FixedClock) -> None:
    """A new register of the City of Westby: its place name in the county's file is the
    default one, 'CITY OF WESTBY'."""
    uow = database.uow()
    admin = users.create_first_administrator(uow, clock, "admin", "Alex Administrator", PASSWORD)
    create_municipality(
        uow, clock, admin, NewMunicipality(name="Westby", kind="city", county="Vernon")
    )


def _sample(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SAMPLE / GDB, tmp_path / GDB))


def _count(database: Database, table: object) -> int:
    with database.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]


def _nothing_written(database: Database) -> None:
    assert _count(database, schema.parcel) == 0
    assert _count(database, schema.data_import) == 0


def test_the_states_sample_imports_westbys_124_parcels_and_a_rerun_finds_them_unchanged(
    database: Database, clock: FixedClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _westby(database, clock)
    gdb = _sample(tmp_path)

    assert main(["parcels", "import", str(gdb), *_url(database)]) == 0
    out, err = capsys.readouterr()
    # The parcel layer of the four, the municipality's place, the others listed.
    assert f"{GDB}, layer PARCELS_TEST_DATASET_2023, only rows of CITY OF WESTBY:" in out
    assert "124 new, 0 changed, 0 unchanged, 29 of other places left out" in out
    lines = out.splitlines()
    left_out = lines[lines.index("Places left out:") + 1 :][:4]
    assert [" ".join(line.split()) for line in left_out] == [
        "TOWN OF CHRISTIANA 21 rows",
        "(no place name) 6 rows",
        "CHRISTIANA 1 row",
        "WESTBY 1 row",
    ]
    assert "124 parcels added, 0 changed; saved as import of" in out
    # Standard error is not a terminal here: the progress bar's final lines only.
    assert err.splitlines() == [f"Read 153 rows of {GDB}.", "Wrote 124 parcels."]

    pc = schema.parcel
    with database.read() as conn:
        ulland = conn.execute(select(pc).where(pc.c.pin == "291005820000")).one()
        imported = conn.execute(select(schema.data_import)).one()
    assert (ulland.house_number, ulland.street, ulland.city) == ("306", "Ulland Ave", "Westby")
    assert ulland.owner_name == "MICHAEL H & REBECCA L SOLBERG"
    assert (imported.file_name, imported.layer) == (GDB, "PARCELS_TEST_DATASET_2023")
    assert _count(database, pc) == 124

    # Next month's run of the same file: nothing new, nothing changed.
    assert main(["parcels", "import", str(gdb), *_url(database)]) == 0
    out, _err = capsys.readouterr()
    assert "0 new, 0 changed, 124 unchanged, 29 of other places left out" in out
    assert "0 parcels added, 0 changed" in out
    assert _count(database, pc) == 124


def test_a_dry_run_writes_nothing_but_its_workbook(
    database: Database, clock: FixedClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _westby(database, clock)
    report = tmp_path / "dry run.xlsx"
    argv = ["parcels", "import", str(_sample(tmp_path)), "--dry-run", "--report", str(report)]
    assert main([*argv, *_url(database)]) == 0
    out, _err = capsys.readouterr()
    assert "124 new, 0 changed, 0 unchanged" in out
    assert out.rstrip().endswith("Dry run: nothing was written.")
    _nothing_written(database)
    book = openpyxl.load_workbook(report)
    new = book["New"]
    assert new.max_row == 125  # the headings and 124 parcels
    assert new["A1"].value == "PIN"


def test_the_place_option_reads_another_municipalitys_rows_and_every_row_reads_all(
    database: Database, clock: FixedClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _admin, _mid, _people = open_office(database, clock, "hudson", ())
    gdb = _sample(tmp_path)
    argv = ["parcels", "import", str(gdb), "--dry-run", *_url(database)]
    assert main([*argv, "--place", "Town of  Christiana"]) == 0
    assert "21 new, 0 changed, 0 unchanged" in capsys.readouterr().out
    assert main([*argv, "--all-places"]) == 0
    out = capsys.readouterr().out
    assert "only rows of (every row):" in out
    assert "Places left out" not in out
    _nothing_written(database)


def test_hudson_s_own_place_is_not_in_westby_s_file_so_nothing_is_imported(
    database: Database, clock: FixedClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    open_office(database, clock, "hudson", ())  # its place name: CITY OF HUDSON
    assert main(["parcels", "import", str(_sample(tmp_path)), *_url(database)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1] == (
        f"permitdesk: error: {GDB}: no row is of CITY OF HUDSON; the file's places are: "
        "CITY OF WESTBY (124), TOWN OF CHRISTIANA (21), (no place name) (6), CHRISTIANA (1), "
        "WESTBY (1)"
    )
    _nothing_written(database)


def _zip_bomb(folder: Path) -> Path:
    """A zip whose member expands past the size its headers say (5 MB said to be 1,000 bytes)."""
    bomb = folder / "parcels.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("parcels.csv", b"0" * 5_000_000)
    data = bytearray(bomb.read_bytes())
    struct.pack_into("<I", data, data.find(b"PK\x03\x04") + 22, 1000)
    struct.pack_into("<I", data, data.rfind(b"PK\x01\x02") + 24, 1000)
    bomb.write_bytes(bytes(data))
    return bomb


def _two_gigabytes(folder: Path) -> Path:
    big = folder / "statewide.zip"
    with big.open("wb") as f:
        f.truncate(2 * 1024**3)  # sparse: nothing is written to the disk
    return big


def _not_parcels(folder: Path) -> Path:
    junk = folder / "minutes.gpkg"
    junk.write_bytes(b"%PDF-1.7 council minutes, not a geopackage " * 40)
    return junk


def _utf16_without_bom(folder: Path) -> Path:
    path = folder / "owners.csv"
    path.write_bytes("PARCELID,OWNERNME1\n1,ØYVIND\n".encode("utf-16-le"))
    return path


BAD_FILES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "not a parcel file": (_not_parcels, "minutes.gpkg is not a file geodatabase (.gdb)"),
    "a zip bomb": (_zip_bomb, "parcels.zip "),
    "a 2 GB file": (_two_gigabytes, "statewide.zip is 2.0 GB; Permit Desk reads files up to 1 GB"),
    "an unreadable encoding": (
        _utf16_without_bom,
        "owners.csv is not text in an encoding Permit Desk can read",
    ),
}


@pytest.mark.parametrize("bad", list(BAD_FILES))
def test_a_file_that_cannot_be_imported_is_one_sentence_naming_it_and_exit_2(
    database: Database,
    clock: FixedClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    bad: str,
) -> None:
    _westby(database, clock)
    make, words = BAD_FILES[bad]
    path = make(tmp_path)
    assert main(["parcels", "import", str(path), *_url(database)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"permitdesk: error: {words}")
    if bad == "a zip bomb":
        assert "zip bomb" in line or "damaged zip" in line
    _nothing_written(database)


def test_a_layer_without_a_key_column_is_named_with_the_field_it_lacks(
    database: Database, clock: FixedClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _westby(database, clock)
    argv = ["parcels", "import", str(_sample(tmp_path)), "--layer", "ROADS_2023"]
    assert main([*argv, *_url(database)]) == 2
    _out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"permitdesk: error: {GDB}, layer ROADS_2023: Parcel number (PIN): choose the column "
        "that holds the parcel number (the key; V10: PARCELID)"
    ]
    assert (
        main(["parcels", "import", str(tmp_path / GDB), "--layer", "PARCELS", *_url(database)]) == 2
    )
    assert "has no layer 'PARCELS' (it has: PARCELS_TEST_DATASET_2023, " in capsys.readouterr().err
    _nothing_written(database)


def test_the_saved_mapping_to_a_column_the_new_file_lacks_is_refused_naming_the_field(
    database: Database, clock: FixedClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _westby(database, clock)
    first = tmp_path / "assessor.csv"
    first.write_text("Parcel,Address,Owner\n101,12 Main St,ANNA SCHMIDT\n102,14 Main St,BO LEE\n")
    # The office's own layout: mapped by the columns' names, and kept for the next import.
    assert main(["parcels", "import", str(first), *_url(database)]) == 0
    assert "2 parcels added, 0 changed" in capsys.readouterr().out
    second = tmp_path / "assessor-march.csv"
    second.write_text("Parcel,Address\n101,12 Main St\n103,16 Main St\n")
    argv = ["parcels", "import", str(second), "--mapping", "saved", *_url(database)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "permitdesk: error: assessor-march.csv, layer assessor-march: Owner of record: the "
        "file has no column Owner"
    ]
    assert _count(database, schema.parcel) == 2
    assert _count(database, schema.data_import) == 1


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_progress_bar_is_redrawn_on_one_line(
    database: Database,
    clock: FixedClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _westby(database, clock)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["parcels", "import", str(_sample(tmp_path)), "--dry-run", *_url(database)]) == 0
    drawn = terminal.getvalue()
    assert f"\rReading {GDB} [{'#' * 30}] 153 of 153 rows" in drawn
    assert drawn.endswith("\n") and drawn.count("\n") == 1  # one line, redrawn
    assert drawn.rsplit("\r", 1)[1].strip() == f"Read 153 rows of {GDB}."


def test_ctrl_c_while_the_parcels_are_written_leaves_the_register_as_it_was(
    database: Database,
    clock: FixedClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _westby(database, clock)
    monkeypatch.setattr(parcel_import, "CHUNK", 50)  # three chunks of new parcels
    real = parcel_commands.StderrProgress.__call__
    written: list[int] = []

    def interrupted(
        self: parcel_commands.StderrProgress, done: int, total: int | None = None
    ) -> None:
        real(self, done, total)
        if self.what.startswith("Writing"):
            written.append(done)
            with database.read() as conn:  # another connection: nothing committed yet
                written.append(
                    int(conn.execute(select(func.count()).select_from(schema.parcel)).scalar_one())
                )
            raise KeyboardInterrupt  # Ctrl+C after the first 50 parcels are written

    monkeypatch.setattr(parcel_commands.StderrProgress, "__call__", interrupted)
    assert main(["parcels", "import", str(_sample(tmp_path)), *_url(database)]) == 130
    out, err = capsys.readouterr()
    assert written == [50, 0]
    assert "124 new" in out and "parcels added" not in out
    assert err.splitlines()[-1] == "Cancelled: nothing was changed."
    _nothing_written(database)


def test_ctrl_c_while_the_file_is_read_writes_nothing_and_says_so(
    database: Database,
    clock: FixedClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _westby(database, clock)

    def interrupted(
        self: parcel_commands.StderrProgress, done: int, total: int | None = None
    ) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(parcel_commands.StderrProgress, "__call__", interrupted)
    assert main(["parcels", "import", str(_sample(tmp_path)), *_url(database)]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["Cancelled: nothing was changed."]
    _nothing_written(database)
