"""The issue-8 reports as files: each .xlsx reopened with openpyxl (figures, formulas that add up
to the same figures, frozen and printable headers, properties), each .pdf read with pypdf
(headline figures, "Page X of Y", embedded fonts), the BLDS files' fields and vocabularies, and
the command line's contract."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.utils import range_boundaries
from pypdf import PdfReader

from db import report_queries as q
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.domain import reports as r
from desk.domain.enums import PermitStatus, WorkClass
from desk.domain.inspections import BLDS_INSP_TYPES
from permitdesk.cli import main
from reports.act211 import export_act211_xlsx, render_act211_pdf
from reports.census import export_c404_xlsx, render_c404_pdf
from reports.council import export_annual_xlsx, render_annual_pdf
from reports.monthly import export_monthly_xlsx, render_monthly_pdf
from tests.cli_sign_in import signed
from tests.db.test_reports import Office, _office

D = Decimal


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    path = tmp_path_factory.mktemp("office") / "office.db"
    db = open_database(sqlite_url(path))
    try:
        yield _office(db)
    finally:
        db.close()


def _read(db: Database, fn: Any, *args: Any) -> Any:
    with db.read() as conn:
        return fn(conn, *args)


# --------------------------------------------------------------------------- a formula reader


def value(wb: Any, sheet: str, ref: str) -> Any:
    """What Excel shows in a cell: SUM, COUNTA and references to cells of other sheets are
    computed (the formulas the reports write)."""
    cell = wb[sheet][ref]
    v = cell.value
    if not (isinstance(v, str) and v.startswith("=")):
        return v
    return _eval(wb, sheet, v[1:])


def _split(sheet: str, ref: str) -> tuple[str, str]:
    if "!" in ref:
        name, ref = ref.rsplit("!", 1)
        return name.strip("'"), ref
    return sheet, ref


def _cells(wb: Any, sheet: str, ref: str) -> list[Any]:
    sheet, ref = _split(sheet, ref)
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    return [
        value(wb, sheet, f"{wb[sheet].cell(row=row, column=col).coordinate}")
        for row in range(min_row, max_row + 1)
        for col in range(min_col, max_col + 1)
    ]


def _eval(wb: Any, sheet: str, expr: str) -> Any:
    m = re.fullmatch(r"(SUM|COUNTA)\((.+)\)", expr)
    if m:
        values = _cells(wb, sheet, m.group(2))
        if m.group(1) == "COUNTA":
            return sum(1 for x in values if x not in (None, ""))
        return sum(D(str(x)) for x in values if isinstance(x, int | float | Decimal))
    name, ref = _split(sheet, expr)
    return value(wb, name, ref)


def _money(x: Any) -> Decimal:
    return D(str(x)).quantize(D("0.01"))


def _pdf_text(path: Path) -> tuple[int, list[str]]:
    """The page count and each page's text with runs of white space as one space (a title
    that wraps still reads as one line)."""
    reader = PdfReader(str(path))
    return len(reader.pages), [" ".join(p.extract_text().split()) for p in reader.pages]


def _fonts(path: Path) -> set[str]:
    reader = PdfReader(str(path))
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            for desc in font.get("/DescendantFonts", [font]):
                d = desc.get_object().get("/FontDescriptor")
                if d is not None and "/FontFile2" in d.get_object():
                    names.add(str(font["/BaseFont"]))
    return names


# --------------------------------------------------------------------------- annual report


def test_the_annual_workbook_totals_are_formulas_that_equal_the_report(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.annual_report, office.mid, 2025)
    out = tmp_path / "annual.xlsx"
    export_annual_xlsx(rep, out)
    wb = load_workbook(out)
    assert wb.sheetnames[:3] == ["Summary", "By month", "By class and kind"]
    assert "Buildings erected" in wb.sheetnames and "Permit register" in wb.sheetnames
    assert wb.properties.title == "Annual report to the Common Council — 2025"
    assert wb.properties.creator == "City of Glendale"
    summary = wb["Summary"]
    rows = {summary.cell(row=n, column=1).value: n for n in range(1, summary.max_row + 1)}
    permits_row = rows["Permits issued"]
    assert str(summary.cell(row=permits_row, column=2).value).startswith("='By month'!B")
    assert value(wb, "Summary", f"B{permits_row}") == 5
    assert _money(value(wb, "Summary", f"B{rows['Valuation of permitted work']}")) == D(
        "2277300.00"
    )
    # The city's fees only: the two $35 state seals are collected for the state.
    assert _money(value(wb, "Summary", f"B{rows['Fees collected']}")) == D("544.00")
    assert value(wb, "Summary", f"B{rows['New buildings']}") == 3
    assert summary.cell(row=permits_row, column=3).value == 1  # 2024
    by_month = wb["By month"]
    total_row = next(
        n for n in range(1, by_month.max_row + 1) if by_month.cell(row=n, column=1).value == "Total"
    )
    assert by_month.cell(row=total_row, column=4).value.startswith("=SUM(D")
    assert by_month.cell(row=total_row, column=4).number_format == '"$"#,##0.00;[Red]-"$"#,##0.00'
    # The freeze and the printed header row.
    assert by_month.freeze_panes == f"A{total_row - 12}"
    assert by_month.print_title_rows == f"${total_row - 13}:${total_row - 13}"
    assert by_month.page_setup.orientation == "landscape"
    assert by_month.page_setup.fitToWidth == 1
    fees = wb["Fees by account"]
    net = {fees.cell(row=n, column=1).value: n for n in range(1, fees.max_row + 1)}
    # The city's revenue accounts, then the state seal payable apart (15.1.21(a)(1)a).
    assert _money(value(wb, "Fees by account", f"G{net['Total fees']}")) == D("544.00")
    assert net["100-24210"] > net["Total fees"]
    assert _money(value(wb, "Fees by account", f"G{net['100-24210']}")) == D("70.00")
    assert _money(value(wb, "Fees by account", f"G{net['Total']}")) == D("70.00")
    split = "Fees collected (city revenue accounts)"
    assert _money(value(wb, "Fees by account", f"B{net[split]}")) == D("544.00")
    assert _money(value(wb, "Fees by account", f"B{net['Net money received']}")) == D("614.00")
    register = wb["Permit register"]
    reg_total = next(
        n for n in range(1, register.max_row + 1) if register.cell(row=n, column=1).value == "Total"
    )
    assert value(wb, "Permit register", f"B{reg_total}") == 5
    assert _money(value(wb, "Permit register", f"I{reg_total}")) == D("2277300.00")


def test_the_annual_pdf_has_a_cover_a_summary_charts_and_numbered_pages(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.annual_report, office.mid, 2025)
    out = tmp_path / "annual.pdf"
    render_annual_pdf(rep, out, prepared_on=date(2026, 1, 12))
    pages, text = _pdf_text(out)
    assert pages >= 4
    cover = text[0]
    assert "Annual report of the Building Inspector — 2025" in cover
    assert "to the Common Council of the City of Glendale (15.1.6(c))" in cover
    assert "Submitted by Building Inspector" in cover and "Prepared 01/12/2026" in cover
    assert "Page 1 of" not in cover  # the cover carries no footer
    body = "\n".join(text[1:])
    assert "Headline figures" in body and "Trend, 2024–2025" in body  # the years it holds
    assert "$2,277,300.00" in body and "$614.00" in body
    assert "Register of buildings erected (15.1.6(c))" in body
    assert "Six-unit apartment building" in body
    assert "Aggregate cost by class" in body
    assert "Fees collected, by GL account" in body and "−$404.00" in body
    assert "Deposits held and refunded; bonds on file" in body
    assert "Appendix: register of permits issued in 2025" in body
    for n, page in enumerate(text[1:], start=2):
        assert f"Page {n} of {pages}" in page
    assert {"/AAAAAA+DejaVuSans", "/AAAAAA+DejaVuSans-Bold"} <= {
        re.sub(r"^/[A-Z]{6}\+", "/AAAAAA+", f) for f in _fonts(out)
    }


def test_the_electrical_annual_report_is_due_before_march_first(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, lambda c, m: q.annual_report(c, m, 2025, "electrical"), office.mid)
    assert rep.due.due == date(2026, 2, 28) and rep.buildings == ()
    out = tmp_path / "electrical.pdf"
    render_annual_pdf(rep, out)
    _, text = _pdf_text(out)
    assert "Annual report of the Electrical Inspector — 2025" in text[0]
    assert "Due by 02/28/2026 (15.1.74(b))" in text[0]


# --------------------------------------------------------------------------- monthly report


def test_the_monthly_report_compares_the_month_last_year_and_the_year_to_date(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.monthly_report, office.mid, 2025, 3)
    xlsx, pdf = tmp_path / "m.xlsx", tmp_path / "m.pdf"
    export_monthly_xlsx(rep, xlsx)
    render_monthly_pdf(rep, pdf)
    wb = load_workbook(xlsx)
    ws = wb["Activity"]
    totals = [n for n in range(1, ws.max_row + 1) if ws.cell(row=n, column=1).value == "Total"]
    assert len(totals) == 4  # March, March 2024, the year to date, the year before's
    assert ws.cell(row=totals[0], column=3).value.startswith("=SUM(C")
    assert value(wb, "Activity", f"C{totals[0]}") == 2  # permits granted in March
    # $439 received ($404 + the $35 state seal), $404 refunded: no city fees net; the seal is
    # collected for the state (15.1.21(a)(1)a). Delivered: February's $404 of fees.
    assert _money(value(wb, "Activity", f"F{totals[0]}")) == D("0.00")  # fees received
    assert _money(value(wb, "Activity", f"G{totals[0]}")) == D("404.00")  # delivered
    labels = {ws.cell(row=n, column=1).value: n for n in range(1, ws.max_row + 1)}
    others = labels["Collected for others (state seal, other governments)"]
    assert _money(value(wb, "Activity", f"B{others}")) == D("35.00")
    assert _money(value(wb, "Activity", f"B{labels['Net money received']}")) == D("35.00")
    assert value(wb, "Activity", f"C{totals[2]}") == 3  # granted, year to date
    pages, text = _pdf_text(pdf)
    assert "Monthly permit activity — March 2025" in text[0]
    assert "due by 04/10/2025" in text[0]
    assert "Year to date: January–March 2025" in "\n".join(text)
    assert f"Page 1 of {pages}" in text[0]


# --------------------------------------------------------------------------- C-404


def test_the_c404_rows_and_detail_lines_in_the_workbook_and_the_pdf(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.c404_report, office.mid, r.year_period(2025))
    xlsx, pdf = tmp_path / "c404.xlsx", tmp_path / "c404.pdf"
    export_c404_xlsx(rep, xlsx)
    render_c404_pdf(rep, pdf)
    wb = load_workbook(xlsx)
    ws = wb["C-404"]
    items = {ws.cell(row=n, column=1).value: n for n in range(1, ws.max_row + 1)}
    assert [ws.cell(row=items[k], column=c).value for k in (101, 103, 105) for c in (3, 4, 5)] == [
        1,
        1,
        412500,
        1,
        2,
        520000,
        1,
        6,
        1250000,
    ]
    total = items["109 Total"]
    assert ws.cell(row=total, column=4).value.startswith("=SUM(D")
    assert value(wb, "C-404", f"D{total}") == 9
    assert value(wb, "C-404", f"E{total}") == 2182500
    assert ws.cell(row=total, column=5).number_format == '"$"#,##0'
    high = wb["High-value permits"]
    assert [c.value for c in high[high.max_row]][:5] == [
        "2025-0003",
        high[high.max_row][1].value,
        "6120 N Port Washington Rd",
        "Five-or-more-unit buildings",
        6,
    ]
    _, text = _pdf_text(pdf)
    assert "Census Bureau Form C-404 — 2025" in text[0]
    assert "$2,182,500" in text[0] and "Five-or-more-unit buildings" in text[0]
    assert "Permits valued at $1,000,000 or more" in text[0]


def test_the_c404_for_a_month_without_permits_says_so(office: Office, tmp_path: Path) -> None:
    rep = _read(office.db, q.c404_report, office.mid, r.month_period(2025, 5))
    xlsx, pdf = tmp_path / "may.xlsx", tmp_path / "may.pdf"
    export_c404_xlsx(rep, xlsx)
    render_c404_pdf(rep, pdf)
    words = "No permits for new privately owned housing units were issued in May 2025."
    assert words in _pdf_text(pdf)[1][0]
    ws = load_workbook(xlsx)["C-404"]
    assert any(c.value == words for row in ws.iter_rows() for c in row)


# --------------------------------------------------------------------------- Act 211


def test_the_act_211_report_shows_the_late_filing_and_its_refund(
    office: Office, tmp_path: Path
) -> None:
    rep = _read(office.db, q.act211_report, office.mid, 2025, 2, date(2025, 4, 1))
    xlsx, pdf = tmp_path / "a.xlsx", tmp_path / "a.pdf"
    export_act211_xlsx(rep, xlsx)
    render_act211_pdf(rep, pdf)
    _, text = _pdf_text(pdf)
    assert "Act 211 filings with the state — February 2025" in text[0]
    assert "due 03/15/2025" in text[0]
    assert "Filed late" in text[0] and "Refunded" in text[0]
    ws = load_workbook(xlsx)["Filings"]
    header = next(n for n in range(1, ws.max_row + 1) if ws.cell(row=n, column=1).value == "Permit")
    line = [c.value for c in ws[header + 1]]
    assert line[0] == "2025-0001" and line[8] == "Filed late" and line[7] == "UDC 1120-55"
    assert (_money(line[10]), _money(line[11]), _money(line[12])) == (
        D("439.00"),
        D("35.00"),
        D("404.00"),
    )


# --------------------------------------------------------------------------- BLDS

STATUS_MAPPED = {s.blds for s in PermitStatus}
WORK_MAPPED = {w.blds for w in WorkClass}
ISO = re.compile(r"^(\d{4}-\d{2}-\d{2})?$")


def test_the_blds_files_use_the_specification_names_dates_and_vocabularies(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db_file = office.db.engine.url.database
    argv = ["export", "blds", "--db", str(db_file), "--out", str(tmp_path / "blds")]
    assert main([*argv, *signed(monkeypatch)]) == 0
    assert "6 permits" in capsys.readouterr().out
    with (tmp_path / "blds" / "permits.csv").open(encoding="utf-8", newline="") as f:
        permits = list(csv.DictReader(f))
    assert list(permits[0]) == list(q.BLDS_PERMIT_FIELDS)
    for name in (
        "PermitNum",
        "Description",
        "AppliedDate",
        "IssuedDate",
        "CompletedDate",
        "StatusCurrent",
        "OriginalAddress1",
        "OriginalAddress2",
        "OriginalCity",
        "OriginalState",
        "OriginalZip",
        "PermitClassMapped",
        "StatusCurrentMapped",
        "WorkClassMapped",
        "PermitTypeMapped",
        "ContractorTradeMapped",
        "HousingUnits",
        "EstProjectCost",
        "PIN",
        "COIssuedDate",
        "VoidDate",
        "Fee",
    ):
        assert name in permits[0]
    by_number = {p["PermitNum"]: p for p in permits}
    house = by_number["2025-0001"]
    assert house["IssuedDate"] == "2025-02-10" and house["AppliedDate"] == "2024-11-01"
    assert (house["OriginalAddress1"], house["OriginalCity"], house["OriginalState"]) == (
        "6120 N Port Washington Rd",
        "Glendale",
        "WI",
    )
    assert (house["PermitClassMapped"], house["WorkClassMapped"], house["PermitTypeMapped"]) == (
        "Residential",
        "New",
        "Building",
    )
    assert (house["HousingUnits"], house["EstProjectCost"], house["Fee"]) == (
        "1",
        "412500.00",
        "35.00",  # $439.00 assessed, $404.00 refunded under Act 211
    )
    assert house["ContractorCompanyName"] == "Badger State Builders LLC"
    assert house["ContractorTradeMapped"] == "General"
    assert by_number["2025-0003"]["PermitClassMapped"] == "Non-Residential"
    for p in permits:
        assert p["StatusCurrentMapped"] in STATUS_MAPPED
        assert p["WorkClassMapped"] in WORK_MAPPED
        for field in ("AppliedDate", "IssuedDate", "CompletedDate", "StatusDate", "ExpiresDate"):
            assert ISO.match(p[field]), (field, p[field])
    with (tmp_path / "blds" / "inspections.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        assert next(reader) == list(q.BLDS_INSPECTION_FIELDS)
        for row in reader:
            assert row[2] in BLDS_INSP_TYPES
    with (tmp_path / "blds" / "contractors.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        assert next(reader) == list(q.BLDS_CONTRACTOR_FIELDS)
        # Each permit has one contractor, the primary one permits.csv carries: no others.
        assert list(reader) == []


# --------------------------------------------------------------------------- the command line


def test_the_report_commands_write_the_files_asked_for(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db_file = str(office.db.engine.url.database)
    cases = [
        (
            [
                "report",
                "monthly",
                "--db",
                db_file,
                "--municipality",
                "glendale",
                "--month",
                "2025-03",
            ],
            "Monthly permit activity — March 2025",
        ),
        (
            ["report", "annual", "--db", db_file, "--year", "2025"],
            "Annual report to the Common Council — 2025",
        ),
        (
            ["report", "c404", "--db", db_file, "--month", "2025-03"],
            "Census Bureau Form C-404 — March 2025",
        ),
        (["report", "c404", "--db", db_file, "--year", "2025"], "Census Bureau Form C-404 — 2025"),
        (
            ["report", "act211", "--db", db_file, "--month", "2025-02"],
            "Act 211 filings with the state — February 2025",
        ),
    ]
    for n, (args, title) in enumerate(cases):
        xlsx, pdf = tmp_path / f"{n}.xlsx", tmp_path / f"{n}.pdf"
        assert main([*args, "--xlsx", str(xlsx), "--pdf", str(pdf), *signed(monkeypatch)]) == 0
        assert capsys.readouterr().out.startswith(f"{title}: ")
        assert load_workbook(xlsx).properties.title == title
        assert title in " ".join(_pdf_text(pdf)[1])
    only_pdf = tmp_path / "only.pdf"
    args = ["report", "monthly", "--db", db_file, "--month", "2025-03", "--pdf", str(only_pdf)]
    assert main([*args, *signed(monkeypatch)]) == 0
    assert only_pdf.exists() and not (tmp_path / "only.xlsx").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["report", "monthly", "--month", "2025-13", "--pdf", "x.pdf"],
            "--month: '2025-13' is not a month YYYY-MM",
        ),
        (["report", "monthly", "--month", "2025-03"], "nothing to write: give --xlsx F"),
        (["report", "annual", "--year", "twenty", "--pdf", "x.pdf"], "--year: 'twenty'"),
        (["report", "annual", "--pdf", "x.pdf"], "the following arguments are required: --year"),
        (
            ["report", "c404", "--month", "2025-03", "--year", "2025", "--pdf", "x.pdf"],
            "not allowed with argument",
        ),
        (["report", "c404", "--pdf", "x.pdf"], "one of the arguments --month --year is required"),
        (
            ["report", "monthly", "--month", "2025-03", "--trade", "masonry", "--pdf", "x.pdf"],
            "--trade: 'masonry' is not one of",
        ),
        (
            [
                "report",
                "monthly",
                "--month",
                "2025-03",
                "--municipality",
                "nowhere",
                "--pdf",
                "x.pdf",
            ],
            "the database has no municipality 'nowhere'",
        ),
        (["export", "blds"], "the following arguments are required: --out"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    office: Office,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    db_file = str(office.db.engine.url.database)
    assert main([*args, "--db", db_file, *signed(monkeypatch)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_database_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nope.db"
    args = ["report", "annual", "--db", str(missing), "--year", "2025", "--pdf", "a.pdf"]
    assert main([*args, *signed(monkeypatch)]) == 2
    assert f"no database file at {missing}" in capsys.readouterr().err
