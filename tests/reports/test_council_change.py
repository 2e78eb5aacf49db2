"""The annual report's Change column: in the workbook a number Excel can compute with -- a formula
over the year's and the previous year's cells, formatted as a signed percent -- and "n/a" where
the previous year's figure is 0; in the PDF the same change in words, "n/a" in the same places.
A previous year the register holds only part of (it starts after January 1) is not compared:
"n/a (no data before MM/DD/YYYY)", and the five-year trend leaves out the years before it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from db import report_queries as q
from db.database import open_database
from db.engine import sqlite_url
from desk.domain.reports import HEADLINE_FIELDS
from reports.council import (
    CHANGE_FORMAT,
    change_text,
    export_annual_xlsx,
    render_annual_pdf,
)
from tests.db.test_reports import Office, _apply, _office
from tests.reports.test_issue8_reports import _pdf_text, _read, office, value

__all__ = ["office"]  # the module-scoped hand-built office year (tests/db/test_reports.py)

D = Decimal


@pytest.fixture(scope="module")
def full_office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """The office year, with an application taken on June 1, 2023: the register starts then,
    so 2024 is a full year in it and 2025 is compared with it."""
    path = tmp_path_factory.mktemp("full_office") / "office.db"
    db = open_database(sqlite_url(path))
    try:
        o = _office(db)
        today = o.clock.today()
        o.clock.set(date(2023, 6, 1))
        _apply(o.reg, db, o.clock, kind="RES-REMODEL", description="Kitchen remodel")
        o.clock.set(today)
        yield o
    finally:
        db.close()


def _excel_change(wb: object, row: int) -> object:
    """What Excel shows for the Change cell: the formula computed from the two cells."""
    now = D(str(value(wb, "Summary", f"B{row}")))
    before = D(str(value(wb, "Summary", f"C{row}")))
    return "n/a" if before == 0 else (now - before) / before


def test_the_workbook_change_is_a_percent_formula_over_the_two_years(
    full_office: Office, tmp_path: Path
) -> None:
    rep = _read(full_office.db, q.annual_report, full_office.mid, 2025)
    assert rep.register_starts == date(2023, 6, 1) and not rep.partial(2024)
    out = tmp_path / "annual.xlsx"
    export_annual_xlsx(rep, out)
    wb = load_workbook(out)
    ws = wb["Summary"]
    header = next(n for n in range(1, ws.max_row + 1) if ws.cell(row=n, column=1).value == "Figure")
    assert ws.cell(row=header, column=4).value == "Change"
    rows = {ws.cell(row=n, column=1).value: n for n in range(header + 1, header + 8)}

    permits = rows["Permits issued"]
    cell = ws.cell(row=permits, column=4)
    assert cell.value == f'=IF(C{permits}=0,"n/a",(B{permits}-C{permits})/C{permits})'
    assert cell.number_format == CHANGE_FORMAT == "+0.0%;-0.0%;0.0%"
    assert cell.data_type == "f"
    # 5 permits in 2025 against 1 in 2024: +400.0%.
    assert _excel_change(wb, permits) == D(4)

    # Fees: $544.00 (the city's, without the two $35 state seals) against $140.00 in 2024.
    fees = rows["Fees collected"]
    assert ws.cell(row=fees, column=4).value == f'=IF(C{fees}=0,"n/a",(B{fees}-C{fees})/C{fees})'
    assert _excel_change(wb, fees) == (D("544.00") - D("140.00")) / D("140.00")

    # No new buildings in 2024: no percent, "n/a".
    buildings = rows["New buildings"]
    assert ws.cell(row=buildings, column=3).value == 0
    assert _excel_change(wb, buildings) == "n/a"
    for name, label in HEADLINE_FIELDS:
        if label in rows:
            assert ws.cell(row=rows[label], column=4).number_format == CHANGE_FORMAT, name


def test_the_pdf_says_the_same_change_in_words_and_n_a_where_the_workbook_does(
    full_office: Office, tmp_path: Path
) -> None:
    rep = _read(full_office.db, q.annual_report, full_office.mid, 2025)
    assert change_text(5, 1) == "+400.0 %"
    assert change_text(3, 0) == "n/a" and change_text(0, 0) == "n/a"
    assert change_text(D("100"), D("200")) == "−50.0 %"
    out = tmp_path / "annual.pdf"
    render_annual_pdf(rep, out)
    _, pages = _pdf_text(out)
    summary = next(p for p in pages if "Headline figures" in p)
    assert "Permits issued 5 1 +400.0 %" in summary
    fees = ((D("544.00") - D("140.00")) * 100 / D("140.00")).quantize(D("0.1"), ROUND_HALF_UP)
    assert f"Fees collected $544.00 $140.00 +{fees} %" in summary  # +288.6 %
    assert "New buildings 3 0 n/a" in summary
    table = summary.split("Headline figures")[1].split("Trend, ")[0]
    assert "Inspections made 0 0 n/a" in table and "New dwelling units 9 0 n/a" in table
    assert table.count("n/a") == 3  # where 2024's figure is 0, and nowhere else


def test_a_previous_year_partial_in_the_register_is_not_compared(
    office: Office, tmp_path: Path
) -> None:
    """The register starts on November 1, 2024 (the first applications): 2024 is partial, so
    2025's change reads "n/a (no data before 11/01/2024)" in both files, not "+288.6 %", and the
    five-year trend starts with 2024."""
    rep = _read(office.db, q.annual_report, office.mid, 2025)
    assert rep.register_starts == date(2024, 11, 1)
    assert rep.partial(2024) and not rep.partial(2025)
    assert [h.year for h in rep.trend] == [2021, 2022, 2023, 2024, 2025]
    assert [h.year for h in rep.full_trend] == [2024, 2025]
    words = "n/a (no data before 11/01/2024)"
    out = tmp_path / "annual.xlsx"
    export_annual_xlsx(rep, out)
    ws = load_workbook(out)["Summary"]
    header = next(n for n in range(1, ws.max_row + 1) if ws.cell(row=n, column=1).value == "Figure")
    rows = {ws.cell(row=n, column=1).value: n for n in range(header + 1, header + 8)}
    assert ws.cell(row=rows["Fees collected"], column=4).value == words
    assert ws.cell(row=rows["Permits issued"], column=4).value == words
    trend = next(
        n for n in range(1, ws.max_row + 1) if ws.cell(row=n, column=1).value == "Trend, 2024–2025"
    )
    years = [ws.cell(row=n, column=1).value for n in range(trend + 2, ws.max_row + 1)]
    assert [y for y in years if y is not None] == [2024, 2025]
    pdf = tmp_path / "annual.pdf"
    render_annual_pdf(rep, pdf)
    _, pages = _pdf_text(pdf)
    summary = next(p for p in pages if "Headline figures" in p)
    assert f"Fees collected $544.00 $140.00 {words}" in summary
    assert "+288.6 %" not in summary
    assert "Five-year trend" not in summary  # two years held: named by them
    trend_text = summary.split("Trend, 2024–2025")[1].split("By month")[0]
    assert "2024" in trend_text and "2023" not in trend_text and "2021" not in trend_text
