"""Printouts as the Council reads them: the notice of violation fits its page (no page holding
only the signature), the permit register wraps a long owner's name instead of cutting it, the
trend is named by the years it holds."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from db import enforcement_queries as q
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from reports.enforcement.notice import render_notice
from tests.db.enforcement_setup import office
from tests.reports.test_enforcement_pdfs import head, two_violations


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "permitdesk.db"))
    try:
        yield database
    finally:
        database.close()


def pdf_pages(path: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True)
    return [" ".join(page.split()) for page in out.stdout.split("\f") if page.strip()]


def test_each_copy_of_a_typical_notice_of_violation_is_one_page(
    db: Database,
    clock: FixedClock,
    tmp_path: Path,
) -> None:
    case = two_violations(office(db, clock))
    with db.read() as conn:
        doc = q.notice_document(conn, case.issued.notice_id)
    out = tmp_path / "notice.pdf"
    render_notice(doc, head(db, case.o.mid), out)
    pages = pdf_pages(out)
    # Two addressees (the owner and the occupant): one copy each, each on one page.
    assert len(pages) == len(doc.addressees) == 2
    for page in pages:
        assert "Notice of violation" in page and doc.issued_by in page
        assert "Correct by 03/16/2026" in page and "Correct by 03/23/2026" in page


# --- the workbooks: filters, widths, formulas with their values ------------------------------


def check_workbook(path: Path) -> list[str]:
    """Each sheet with a table (a header row styled as one) has a filter; no column is wider
    than 45; every formula keeps its formula and has its value saved beside it, the value Excel
    shows (tests.reports.test_issue8_reports.value works it out from the cells)."""
    from openpyxl import load_workbook

    from reports import xlsx
    from tests.reports.test_issue8_reports import value

    formulas, values = load_workbook(path), load_workbook(path, data_only=True)
    checked = []
    for ws in formulas.worksheets:
        tables = any(
            c.fill == xlsx.HEADER_FILL or (c.font is not None and c.font.bold and c.row > 1)
            for row in ws.iter_rows()
            for c in row
            if c.value is not None and c.fill is not None
        )
        if tables and any(c.fill == xlsx.HEADER_FILL for row in ws.iter_rows() for c in row):
            assert ws.auto_filter.ref, f"{path.name}: {ws.title} has no filter"
        for letter, dim in ws.column_dimensions.items():
            assert (dim.width or 0) <= 45, f"{path.name}: {ws.title}!{letter} is {dim.width} wide"
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    saved = values[ws.title][c.coordinate].value
                    assert saved is not None, f"{ws.title}!{c.coordinate} {c.value}: no value"
                    expected = value(formulas, ws.title, c.coordinate)
                    if isinstance(expected, str):
                        assert saved == expected
                    else:
                        assert abs(float(saved) - float(expected)) < 0.005, c.coordinate
                    checked.append(f"{ws.title}!{c.coordinate}")
    return checked


def test_the_report_workbooks_have_filters_narrow_columns_and_saved_values(
    tmp_path: Path,
) -> None:
    from datetime import date as day_

    from db import report_queries as rq
    from db.database import open_database
    from db.engine import sqlite_url
    from desk.domain import reports as r
    from reports.act211 import export_act211_xlsx
    from reports.census import export_c404_xlsx
    from reports.council import export_annual_xlsx
    from reports.monthly import export_monthly_xlsx
    from tests.db.test_reports import _office

    database = open_database(sqlite_url(tmp_path / "office.db"))
    try:
        o = _office(database)
        with database.read() as conn:
            annual = rq.annual_report(conn, o.mid, 2025)
            monthly = rq.monthly_report(conn, o.mid, 2025, 3)
            c404 = rq.c404_report(conn, o.mid, r.year_period(2025))
            act211 = rq.act211_report(conn, o.mid, 2025, 2, day_(2025, 4, 1))
    finally:
        database.close()
    checked: list[str] = []
    for name, export, rep in (
        ("annual", export_annual_xlsx, annual),
        ("monthly", export_monthly_xlsx, monthly),
        ("c404", export_c404_xlsx, c404),
        ("act211", export_act211_xlsx, act211),
    ):
        out = tmp_path / f"{name}.xlsx"
        export(rep, out)
        checked += check_workbook(out)
    assert len(checked) > 20  # totals, changes, cross-sheet figures: all with their values


def test_the_contractors_template_has_a_filter_and_its_help_column_wraps(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from reports.contractor_template import HELP_SHEET, write_contractor_template

    out = tmp_path / "contractors.xlsx"
    write_contractor_template(out)
    check_workbook(out)
    wb = load_workbook(out)
    assert wb.worksheets[0].auto_filter.ref.startswith("A1:")
    help_ws = wb[HELP_SHEET]
    assert help_ws.column_dimensions["B"].width == 40
    long = [c for c in help_ws["B"] if isinstance(c.value, str) and len(c.value) > 40]
    assert long and all(c.alignment.wrap_text for c in long)


def test_the_annual_register_wraps_a_long_owner_and_the_trend_names_its_years(
    tmp_path: Path,
) -> None:
    from dataclasses import replace

    from db import report_queries as rq
    from db.database import open_database
    from db.engine import sqlite_url
    from reports.council import render_annual_pdf
    from tests.db.test_reports import _office

    database = open_database(sqlite_url(tmp_path / "office.db"))
    try:
        o = _office(database)
        with database.read() as conn:
            rep = rq.annual_report(conn, o.mid, 2025)
    finally:
        database.close()
    owner = (
        "The Estate of Margaret Elizabeth Kowalczyk-Vandermeulen, by its Personal Representative"
    )
    kind = rep.register[0].kind_label + " with an accessory structure and a detached garage"
    first = replace(rep.register[0], owner=owner, kind_label=kind)
    rep = replace(rep, register=(first, *rep.register[1:]))
    out = tmp_path / "annual.pdf"
    render_annual_pdf(rep, out)
    pages = pdf_pages(out)
    text = " ".join(pages)
    appendix = " ".join(p for p in pages if "register of permits issued in 2025" in p)
    # Wrapped in its cell, over several lines: every letter there, none cut with "…".
    cell_text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True)
    flowing = "".join(cell_text.stdout.split())
    assert "".join(owner.split()) in flowing
    assert all(word in appendix.split() for word in kind.split())
    assert "…" not in appendix
    years = [h.year for h in rep.full_trend]
    assert f"Trend, {min(years)}–{max(years)}" in text
    assert "Five-year trend" not in text
