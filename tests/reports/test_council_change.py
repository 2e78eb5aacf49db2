"""The annual report's Change column: in the workbook a number Excel can compute with -- a formula
over the year's and the previous year's cells, formatted as a signed percent -- and "n/a" where
the previous year's figure is 0; in the PDF the same change in words, "n/a" in the same places."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from openpyxl import load_workbook

from db import report_queries as q
from desk.domain.reports import HEADLINE_FIELDS
from reports.council import (
    CHANGE_FORMAT,
    change_text,
    export_annual_xlsx,
    render_annual_pdf,
)
from tests.db.test_reports import Office
from tests.reports.test_issue8_reports import _pdf_text, _read, office, value

__all__ = ["office"]  # the module-scoped hand-built office year (tests/db/test_reports.py)

D = Decimal


def _excel_change(wb: object, row: int) -> object:
    """What Excel shows for the Change cell: the formula computed from the two cells."""
    now = D(str(value(wb, "Summary", f"B{row}")))
    before = D(str(value(wb, "Summary", f"C{row}")))
    return "n/a" if before == 0 else (now - before) / before


def test_the_workbook_change_is_a_percent_formula_over_the_two_years(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.annual_report, office.mid, 2025)
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

    # Fees: $614.00 against $140.00 in 2024.
    fees = rows["Fees collected"]
    assert ws.cell(row=fees, column=4).value == f'=IF(C{fees}=0,"n/a",(B{fees}-C{fees})/C{fees})'
    assert _excel_change(wb, fees) == (D("614.00") - D("140.00")) / D("140.00")

    # No new buildings in 2024: no percent, "n/a".
    buildings = rows["New buildings"]
    assert ws.cell(row=buildings, column=3).value == 0
    assert _excel_change(wb, buildings) == "n/a"
    for name, label in HEADLINE_FIELDS:
        if label in rows:
            assert ws.cell(row=rows[label], column=4).number_format == CHANGE_FORMAT, name


def test_the_pdf_says_the_same_change_in_words_and_n_a_where_the_workbook_does(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.annual_report, office.mid, 2025)
    assert change_text(5, 1) == "+400.0 %"
    assert change_text(3, 0) == "n/a" and change_text(0, 0) == "n/a"
    assert change_text(D("100"), D("200")) == "−50.0 %"
    out = tmp_path / "annual.pdf"
    render_annual_pdf(rep, out)
    _, pages = _pdf_text(out)
    summary = next(p for p in pages if "Headline figures" in p)
    assert "Permits issued 5 1 +400.0 %" in summary
    fees = ((D("614.00") - D("140.00")) * 100 / D("140.00")).quantize(D("0.1"), ROUND_HALF_UP)
    assert f"Fees collected $614.00 $140.00 +{fees} %" in summary
    assert "New buildings 3 0 n/a" in summary
    table = summary.split("Headline figures")[1].split("Five-year trend")[0]
    assert "Inspections made 0 0 n/a" in table and "New dwelling units 9 0 n/a" in table
    assert table.count("n/a") == 3  # where 2024's figure is 0, and nowhere else
