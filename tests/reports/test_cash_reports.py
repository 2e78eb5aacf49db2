"""The receipt, the daily cash report, the transmittal and the reconciliation: the PDFs read back
with pypdf, the spreadsheets reopened with openpyxl (totals as formulas that add up)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from db import cash_queries
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.services import cashiering as cash
from reports.cash_reports import (
    export_daily_cash_xlsx,
    export_reconciliation_xlsx,
    export_transmittal_xlsx,
    render_daily_cash_pdf,
    render_reconciliation_pdf,
    render_transmittal_pdf,
)
from reports.receipt import render_receipt
from reports.xlsx import new_workbook, write_table
from tests.cashbook import DAY, CashDay, open_day, turned_over

D = Decimal


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "cash.db"))
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def day(db: Database) -> CashDay:
    return turned_over(db, FixedClock(DAY))


def pdf_text(path: Path) -> str:
    return "\n".join(" ".join(p.extract_text().split()) for p in PdfReader(str(path)).pages)


def sheet_values(ws: Any) -> list[list[Any]]:
    return [list(r) for r in ws.iter_rows(values_only=True)]


def row_with(ws: Any, first: str) -> list[Any]:
    return next(r for r in sheet_values(ws) if r and r[0] == first)


def sum_formula(formula: str, ws: Any) -> Decimal:
    """What Excel shows for '=SUM(E5:E9)' in a file openpyxl wrote (no cached values)."""
    assert formula.startswith("=SUM(") and formula.endswith(")")
    first, last = formula[5:-1].split(":")
    column = "".join(c for c in first if c.isalpha())
    lo, hi = int(first[len(column) :]), int(last[len(column) :])
    return sum((D(str(ws[f"{column}{r}"].value or 0)) for r in range(lo, hi + 1)), D(0))


# --- the receipt -------------------------------------------------------------------------------


def test_a_receipt_holds_its_number_both_permits_the_check_and_says_copy_when_reprinted(
    day: CashDay, tmp_path: Path
) -> None:
    uow, clock, clerk = day.database.uow(), day.clock, day.reg.clerk
    first = cash.print_receipt(uow, clock, clerk, day.check_receipt)
    render_receipt(first, tmp_path / "r1.pdf")
    text = pdf_text(tmp_path / "r1.pdf")
    assert "2026-0001" in text
    assert f"Application #{day.house}" in text and f"Application #{day.reroof}" in text
    assert "6120 N Port Washington Rd" in text
    assert "Check no. 1042, Associated Bank (Badger State Builders LLC)" in text
    assert "100-44300 Building permits $544.00" in text
    assert "100-24210 State seal payable $35.00" in text
    assert "Amount received $579.00" in text
    assert "Carol Clerk" in text
    assert "COPY" not in text
    again = cash.print_receipt(uow, clock, clerk, day.check_receipt)
    render_receipt(again, tmp_path / "r2.pdf")
    copy = pdf_text(tmp_path / "r2.pdf")
    assert "COPY" in copy and "2026-0001" in copy
    assert len(PdfReader(str(tmp_path / "r2.pdf")).pages) == 1


def test_a_voided_receipt_says_void_with_its_reason(day: CashDay, tmp_path: Path) -> None:
    view = cash.receipt(day.database.uow(), day.voided_receipt)
    render_receipt(view, tmp_path / "void.pdf")
    text = pdf_text(tmp_path / "void.pdf")
    assert "2026-0002" in text
    assert "VOID — voided 03/02/2026: typed on the wrong permit" in text


# --- the daily cash report --------------------------------------------------------------------


def test_the_daily_cash_report_shows_receipts_voids_expected_counted_and_the_short(
    day: CashDay, tmp_path: Path
) -> None:
    with day.database.read() as conn:
        report = cash_queries.daily_cash(conn, day.reg.municipality_id, DAY)
    (main,) = report.drawers
    assert (main.gross.cash, main.voids.cash, main.expected.cash) == (
        D("268.00"),
        D("100.00"),
        D("168.00"),
    )
    assert main.expected.total == D("747.00")  # the services' own figure (drawer_day)
    assert main.counted is not None and main.counted.total == D("742.00")
    assert main.over_short == D("-5.00")
    render_daily_cash_pdf(report, tmp_path / "daily.pdf")
    text = pdf_text(tmp_path / "daily.pdf")
    assert "Daily cash report — Monday 03/02/2026" in text
    assert "2026-0002" in text and "VOID" in text
    assert "The drawer was $5.00 short: change given twice" in text
    assert "Cash $268.00 $100.00 $168.00 $163.00 −$5.00" in text
    assert "Page 1 of 1" in text

    export_daily_cash_xlsx(report, tmp_path / "daily.xlsx")
    wb = load_workbook(tmp_path / "daily.xlsx")
    assert wb.sheetnames == ["Drawers", "Receipts"]
    assert wb.properties.title == "Daily cash report — Monday 03/02/2026"
    ws = wb["Drawers"]
    total = row_with(ws, "Total")
    # Receipts, voids, expected, counted, over/short: each a SUM over the rows above.
    assert all(str(v).startswith("=SUM(") for v in total[3:8])
    assert [sum_formula(str(v), ws) for v in total[3:8]] == [
        D("847.00"),
        D("100.00"),
        D("747.00"),
        D("742.00"),
        D("-5.00"),
    ]
    assert ws.freeze_panes == "A5"
    assert ws["D5"].number_format.startswith('"$"#,##0.00')
    assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToWidth == 1
    receipts = wb["Receipts"]
    numbers = [r[1] for r in sheet_values(receipts)[4:] if r[1]]
    assert numbers == ["2026-0001", "2026-0002", "2026-0003"]
    assert sum_formula(str(row_with(receipts, "Total")[8]), receipts) == D("847.00")


def test_an_open_drawer_expects_the_days_money_and_has_counted_nothing(
    db: Database, tmp_path: Path
) -> None:
    day = open_day(db, FixedClock(DAY))
    with db.read() as conn:
        report = cash_queries.daily_cash(conn, day.reg.municipality_id, DAY)
    (main,) = report.drawers
    served = cash.drawer_day(db.uow(), day.reg.municipality_id, "Main", DAY)
    assert main.expected == served.expected
    assert main.counted is None and not main.closed
    render_daily_cash_pdf(report, tmp_path / "open.pdf")
    assert "Drawer Main — open: not yet closed" in pdf_text(tmp_path / "open.pdf")


# --- the transmittal ------------------------------------------------------------------------


def test_the_transmittal_totals_by_account_and_method_and_lists_the_check(
    day: CashDay, tmp_path: Path
) -> None:
    assert day.turnover_id is not None
    t = cash.transmittal(day.database.uow(), day.turnover_id)
    render_transmittal_pdf(t, "City of Glendale", tmp_path / "t.pdf")
    text = pdf_text(tmp_path / "t.pdf")
    assert f"Turnover #{day.turnover_id} to the City Treasurer — transmittal" in text
    assert "Book amount $747.00" in text
    assert "Money delivered (counted) $742.00" in text
    assert "bank deposit DEP-0302" in text
    assert "100-44300 Building permits $544.00" in text
    assert "100-44320 Electrical permits $168.00" in text
    assert "1042 Associated Bank $579.00" in text
    assert "Page 1 of" in text

    export_transmittal_xlsx(t, "City of Glendale", tmp_path / "t.xlsx")
    wb = load_workbook(tmp_path / "t.xlsx")
    ws = wb["By account"]
    assert sum_formula(str(row_with(ws, "Total")[2]), ws) == D("747.00")
    checks = wb["Checks"]
    assert [r[3] for r in sheet_values(checks) if r[1] == "2026-0001"] == ["1042"]
    assert sum_formula(str(row_with(checks, "Total")[5]), checks) == D("579.00")
    methods = wb["By method"]
    assert sum_formula(str(row_with(methods, "Total")[1]), methods) == D("747.00")


# --- the reconciliation -----------------------------------------------------------------------


def test_the_reconciliation_proves_the_money_turned_over_in_pdf_and_xlsx(
    day: CashDay, tmp_path: Path
) -> None:
    r = cash.reconciliation(day.database.uow(), day.clock, day.reg.municipality_id, DAY, DAY)
    assert (r.receipts, r.voids, r.net, r.acknowledged, r.undeposited) == (
        D("847.00"),
        D("100.00"),
        D("747.00"),
        D("747.00"),
        D("0.00"),
    )
    render_reconciliation_pdf(r, "City of Glendale", ["City of Glendale"], tmp_path / "r.pdf")
    text = pdf_text(tmp_path / "r.pdf")
    assert "Treasurer's reconciliation, 03/02/2026 – 03/02/2026" in text
    assert "Net collections $747.00" in text
    assert "Turnovers acknowledged by the treasurer $747.00" in text
    assert "Balanced" in text
    assert "100-24210 State seal payable Liability" in text
    assert "DEP-0302" in text

    export_reconciliation_xlsx(r, "City of Glendale", tmp_path / "r.xlsx")
    wb = load_workbook(tmp_path / "r.xlsx")
    proof = wb["Proof"]
    values = {row[0]: row[1] for row in sheet_values(proof) if row and row[0]}
    assert values["Receipts"] == 847 and values["Voids"] == 100
    net = str(values["Net collections"])
    assert net.startswith("=B") and net.count("-B") == 3
    assert str(values["Accounted for"]).startswith("=SUM(B")
    accounts = wb["GL accounts"]
    state_seal = row_with(accounts, "100-24210")
    assert state_seal[1] == "State seal payable" and state_seal[4] == 35
    assert str(state_seal[9]).startswith("=SUM(D")
    assert sum_formula(str(row_with(accounts, "Total")[4]), accounts) == D("847.00")


def test_write_table_freezes_its_header_and_totals_each_money_column() -> None:
    wb = new_workbook("Test", subject="s", author="a")
    ws = wb.active
    table = write_table(
        ws, ["Item", "Amount"], [["a", D("1.50")], ["b", D("2.25")]], money_cols={1}, start_row=3
    )
    assert (table.header_row, table.first_row, table.last_row, table.total_row) == (3, 4, 5, 6)
    assert ws.freeze_panes == "A4"
    assert ws["B6"].value == "=SUM(B4:B5)"
    assert ws["A6"].value == "Total"
    assert wb.properties.creator == "a"
