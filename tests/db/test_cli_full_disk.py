"""A full disk is exit 3 (the computer, not the user: README, "Command line") for every command
that writes a file, in one line naming the file, and no half-written file is left. The disk
is /dev/full, which fails every write with ENOSPC, behind the name the command is given.
(`db backup` and `db restore`: tests/db/test_backup_failures.py, tests/db/test_cli_restore.py.)"""

from __future__ import annotations

import errno
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph

import reports.common
from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from permitdesk.cli import main
from reports.common import build_pdf
from tests.cli_sign_in import signed
from tests.factories import seed_register
from tests.parcel_files import v10_row, write_csv

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("full")
    real = root / "office.db"
    database = open_database(sqlite_url(real))
    seed_register(database, FixedClock(date(2026, 3, 2)))
    database.close()
    people = root / "contractors.csv"
    people.write_text("Name,Kind\nAcme Roofing,organization\n", "utf-8")
    parcels = write_csv(root / "parcels.csv", [v10_row(1), v10_row(2)])
    return {"root": root, "db": real, "people": people, "parcels": parcels}


def _full(folder: Path, name: str) -> Path:
    """`name` in `folder`, on a full disk."""
    path = folder / name
    path.symlink_to("/dev/full")
    return path


def _run(argv: list[str], capsys: Any) -> tuple[int, str]:
    capsys.readouterr()
    code = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.splitlines()[-1]  # after what a command tells as it goes (rows read)
    assert last.startswith("permitdesk: error: "), err
    return code, last.removeprefix("permitdesk: error: ")


COMMANDS = {
    "report xlsx": "report monthly --month 2026-03 --xlsx {file}.xlsx",
    "report pdf": "report deposits --pdf {file}.pdf",
    "audit export": "audit export --from 2026-03-01 --to 2026-03-31 --xlsx {file}.xlsx",
    "enforcement charges": "enforcement charges --year 2026 --xlsx {file}.xlsx",
    "people import report": "people import {people} --dry-run --report {file}.xlsx",
    "parcels import report": "parcels import {parcels} --all-places --dry-run --report {file}.xlsx",
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_writing_to_a_full_disk_is_exit_3_naming_the_file(
    command: str,
    office: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = COMMANDS[command].split()
    suffix = next(a for a in argv if a.startswith("{file}")).removeprefix("{file}")
    full = _full(tmp_path, f"out{suffix}")
    values = {"file": str(tmp_path / "out"), "people": office["people"]}
    values["parcels"] = office["parcels"]
    argv = [a.format(**values) for a in argv]
    code, err = _run([*argv, "--db", str(office["db"]), *signed(monkeypatch)], capsys)
    assert (code, err) == (3, f"No space left on device: {full}")


def test_the_contractors_template_on_a_full_disk_is_exit_3_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = _full(tmp_path, "template.xlsx")
    assert _run(["people", "template", str(full)], capsys) == (
        3,
        f"No space left on device: {full}",
    )


def test_the_blds_export_on_a_full_disk_is_exit_3_naming_its_folder_and_leaves_no_file(
    office: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "blds"
    folder.mkdir()
    _full(folder, "permits.csv.part")  # each file is written beside its name, then renamed
    argv = ["export", "blds", "--out", str(folder), "--db", str(office["db"])]
    assert _run([*argv, *signed(monkeypatch)], capsys) == (
        3,
        f"No space left on device: {folder}",
    )
    assert sorted(p.name for p in folder.iterdir()) == ["permits.csv.part"]


def test_a_pdf_that_fills_the_disk_is_named_and_not_left_half_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --letters and the other PDFs whose option the command line cannot name itself.
    story = [Paragraph("Renewal of your rooming house licence", getSampleStyleSheet()["Normal"])]
    full = _full(tmp_path, "letters.pdf")
    with pytest.raises(OSError) as e:
        build_pdf(full, story, font="Helvetica", title="Letters", author="Hudson", footer="")
    assert (e.value.errno, e.value.filename) == (errno.ENOSPC, str(full))

    class HalfWritten(reports.common.SimpleDocTemplate):
        def build(self, *args: Any, **kw: Any) -> None:
            Path(self.filename).write_bytes(b"%PDF-1.4\n")
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(reports.common, "SimpleDocTemplate", HalfWritten)
    out = tmp_path / "new" / "letters.pdf"
    with pytest.raises(OSError) as e:
        build_pdf(out, story, font="Helvetica", title="Letters", author="Hudson", footer="")
    assert (e.value.errno, e.value.filename) == (errno.ENOSPC, str(out))
    assert list(out.parent.iterdir()) == []
