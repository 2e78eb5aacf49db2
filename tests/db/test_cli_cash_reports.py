"""`permitdesk report daily-cash` and `permitdesk report reconciliation`: the screens' figures in
.xlsx and .pdf, either output optional, one line and exit 2 on bad input. The treasurer signs
in (--user, the password on standard input)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from permitdesk.cli import main
from tests.cashbook import DAY, turned_over
from tests.cli_sign_in import ready, signed


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    path = tmp_path / "cash.db"
    database = open_database(sqlite_url(path))
    try:
        turned_over(database, FixedClock(DAY))
        ready(database, "terry")
    finally:
        database.close()
    return path


def test_daily_cash_writes_both_files_with_the_days_figures(
    db_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    xlsx, pdf = tmp_path / "out" / "daily.xlsx", tmp_path / "out" / "daily.pdf"
    argv = ["report", "daily-cash", "--db", str(db_file), "--date", "2026-03-02"]
    assert main([*argv, "--xlsx", str(xlsx), "--pdf", str(pdf), *signed(monkeypatch, "terry")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "2026-03-02: 3 receipt(s), expected $747.00, counted $742.00 in 1 of 1 drawer(s) "
        "closed, $5.00 short"
    )
    assert str(xlsx) in out and str(pdf) in out
    ws = load_workbook(xlsx)["Drawers"]
    assert [r[0:3] for r in ws.iter_rows(min_row=5, max_row=5, values_only=True)] == [
        ("Main", "closed", "Cash")
    ]
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(pdf)).pages)
    assert "Daily cash report — Monday 03/02/2026" in text


def test_either_output_may_be_omitted(
    db_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = tmp_path / "only.pdf"
    argv = ["report", "daily-cash", "--db", str(db_file), "--date", "2026-03-02"]
    assert main([*argv, "--pdf", str(pdf), *signed(monkeypatch, "terry")]) == 0
    assert pdf.exists() and not list(tmp_path.glob("*.xlsx"))
    assert main([*argv, *signed(monkeypatch, "terry")]) == 0  # the summary line only


def test_reconciliation_prints_the_identity_and_writes_the_files(
    db_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    xlsx, pdf = tmp_path / "r.xlsx", tmp_path / "r.pdf"
    argv = ["report", "reconciliation", "--db", str(db_file), "--from", "2026-03-01", "--to"]
    files = ["2026-03-31", "--xlsx", str(xlsx), "--pdf", str(pdf)]
    assert main([*argv, *files, *signed(monkeypatch, "terry")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "2026-03-01 to 2026-03-31: net collections $747.00 = acknowledged $747.00 + pending "
        "$0.00 + undeposited $0.00; balanced"
    )
    proof = load_workbook(xlsx)["Proof"]
    values = {r[0]: r[1] for r in proof.iter_rows(values_only=True) if r and r[0]}
    assert values["Turnovers acknowledged"] == 747
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(pdf)).pages)
    assert "Treasurer's reconciliation, 03/01/2026 – 03/31/2026" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["daily-cash", "--date", "March 2"], "--date 'March 2' is not a date YYYY-MM-DD"),
        (
            ["reconciliation", "--from", "2026-03-31", "--to", "2026-03-01"],
            "--to 2026-03-01 is before --from 2026-03-31",
        ),
        (["reconciliation", "--from", "2026-13-01", "--to", "2026-03-01"], "--from '2026-13-01'"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    db_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    argv = ["report", args[0], "--db", str(db_file), *args[1:]]
    assert main([*argv, *signed(monkeypatch, "terry")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("permitdesk: error: ")


def test_a_missing_database_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["report", "daily-cash", "--db", str(tmp_path / "none.db"), "--date", "2026-03-02"]
    assert main([*argv, *signed(monkeypatch, "terry")]) == 2
    assert "no database file at" in capsys.readouterr().err
