"""The City of Hudson's monthly and annual reports on both backends: Hudson has no permit kinds
(its housing code, ch. 140, only), so its reports are the code-enforcement report alone. Cases
are built through the services over March and April 2026; each figure printed in the PDF and
written in the workbook is checked against a count made from the registers' own reads, and no
page or cell carries a permit table or a Glendale citation (15.1.x). A Ch. 512 municipality's
part cites Ch. 512; Glendale keeps both parts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from pypdf import PdfReader

from db import report_queries as q
from db.database import Database
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.enforcement.model import Channel, ClosureReason, Decision, ServiceMethod
from desk.errors import RuleViolation, ValidationError
from desk.services import licensing
from desk.services.enforcement import cases, complaints, inspections, notices, petitions
from reports.council import export_annual_xlsx, render_annual_pdf
from reports.monthly import export_monthly_xlsx, render_monthly_pdf
from tests.db.enforcement_setup import OCCUPANT, OWNER, Office, case_with_notice, office
from tests.db.test_enforcement_reports import _check, _from_registers, _licence
from tests.factories import open_office

MARCH = r.month_period(2026, 3)
APRIL = r.month_period(2026, 4)
TITLE_APRIL = (
    "Monthly report on code enforcement in the City of Hudson (Hudson ch. 140) — April 2026"
)
# What only a permit report prints: its tables' headings and its Glendale citations.
PERMIT_WORDS = (
    "15.1.",
    "Monthly permit activity",
    "Permits granted",
    "Applications",
    "Fees received",
    "Delivered to the City Treasurer",
    "City licences",
    "Headline figures",
    "Permits issued by class",
    "Fees collected",
    "register of permits",
    "Trade",
    "Valuation",
)


def hudson_office(database: Database, clock: FixedClock) -> Office:
    admin, mid, (clerk, inspector) = open_office(database, clock, "hudson", ("carol", "ivan"))
    o = Office(database, clock, admin, clerk, inspector, mid, 0)
    o.parcel_id = o.parcel("047-0001-001", "412")
    return o


def _build(o: Office) -> list[str]:
    """March: case A (a notice to the owner and the occupant, one served personally, one by
    mail), an e-mailed complaint (case C), a rooming-house licence issued; April: A petitioned
    and sustained by the Council, a second complaint, 412 Vine St condemned (140-11B(1)).
    Returns the case numbers of the hearings decided."""
    clock, uow = o.clock, o.db.uow
    clock.set(date(2026, 3, 2))
    _a_case, _v, a = case_with_notice(o, (OWNER, OCCUPANT))
    notices.record_service(
        uow(), clock, o.inspector, a.addressee_ids[0], ServiceMethod.PERSONAL, clock.today(), "Ivan"
    )
    notices.record_service(
        uow(),
        clock,
        o.inspector,
        a.addressee_ids[1],
        ServiceMethod.REGISTERED_MAIL,
        clock.today(),
        "Carol",
    )
    _licence(o, "047-0001-006", "422")
    clock.set(date(2026, 3, 12))
    c_parcel = o.parcel("047-0001-003", "416")
    c = complaints.take_complaint(
        uow(), clock, o.clerk, o.mid, c_parcel, Channel.EMAIL, "Tall grass", complainant_name="N"
    )
    inspections.record_inspection(uow(), clock, o.inspector, c.case.case_id, clock.today())
    clock.set(date(2026, 3, 25))
    cases.close_case(uow(), clock, o.inspector, c.case.case_id, ClosureReason.UNFOUNDED)
    clock.set(date(2026, 3, 10))
    petitions.record_petition(
        uow(), clock, o.clerk, a.addressee_ids[0], clock.today(), "Otto Owner", "Repaired"
    )
    clock.set(date(2026, 4, 3))
    petitions.schedule_hearing(
        uow(), clock, o.inspector, a.notice_id, date(2026, 4, 6), "City Hall", clock.today()
    )
    clock.set(date(2026, 4, 6))
    petitions.record_council_decision(
        uow(), clock, o.inspector, a.notice_id, Decision.SUSTAIN, clock.today(), "Not repaired"
    )
    clock.set(date(2026, 4, 20))
    d_parcel = o.parcel("047-0001-004", "418")
    complaints.take_complaint(
        uow(), clock, o.clerk, o.mid, d_parcel, Channel.COUNTER, "No heat", complainant_name="M"
    )
    licensing.record_condemnation(
        uow(),
        clock,
        o.inspector,
        licensing.CondemnationInput(
            municipality_id=o.mid,
            address="412 Vine St",
            grounds=("B(1)",),
            reasons="Unsafe stairs",
            condemned_on=clock.today(),
            parcel_id=o.parcel_id,
        ),
    )
    clock.set(date(2026, 5, 4))
    with o.db.read() as conn:
        rows = q.enforcement_hearings(conn, o.mid, r.year_period(2026))
    return [h.case_number for h in rows]


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def _printed_figures(text: str, lines: list[r.FigureLine], columns: int) -> list[list[str]]:
    """The values printed after each figure's label, in the order of the lines (a label such
    as "withdrawn" is in two groups, so each is looked for after the one before)."""
    rows = [x.strip() for x in text.splitlines()]
    at, out = 0, []
    for line in lines:
        at = rows.index(line.label, at)
        out.append(rows[at + 1 : at + 1 + columns])
        at += 1
    return out


def _shown(value: int | Decimal) -> str:
    return f"${value:,.2f}" if isinstance(value, Decimal) else f"{value:,}"


def _cells(path: Path) -> list[str]:
    wb = openpyxl.load_workbook(path)
    return [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value]


# --- the tests ------------------------------------------------------------------------------------


def test_hudson_monthly_pdf_is_the_code_enforcement_report_and_agrees_with_the_registers(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    o = hudson_office(database, clock)
    _build(o)
    with database.read() as conn:
        april = q.monthly_report(conn, o.mid, 2026, 4)
    section = april.enforcement
    assert april.enforcement_only and section is not None and section.ytd is not None
    assert april.title == TITLE_APRIL
    _check(section.figures, _from_registers(database, o.mid, APRIL))
    _check(section.ytd, _from_registers(database, o.mid, r.year_to_date(2026, 4)))
    # A clerk's count: April's one complaint (418 Vine St); A's and C's in March.
    assert (section.figures.figure("complaints"), section.ytd.figure("complaints")) == (1, 3)
    assert section.figures.figure("hearings.sustain") == 1
    assert section.figures.figure("condemnations") == 1
    assert section.ytd.figure("licences.issued") == 1

    out = tmp_path / "hudson-monthly.pdf"
    render_monthly_pdf(april, out)
    text = _pdf_text(out)
    assert "City of Hudson" in text and "(Hudson ch. 140)" in text
    assert "Code enforcement (Hudson 140-3)" in text
    assert "housing code: City of Hudson, Ch. 140 Minimum Housing" in text
    for word in PERMIT_WORDS:
        assert word not in text, word
    lines = list(zip(section.figures.lines(), section.ytd.lines(), strict=True))
    printed = _printed_figures(text, [m for m, _ in lines], 2)
    assert printed == [[_shown(m.value), _shown(y.value)] for m, y in lines]
    # The month's condemnation, its grounds cited in full (140-11B(1)), vacate in 60 days.
    assert "Dwellings condemned as unfit for human habitation (140-11)" in text
    assert "412 Vine St" in text and "140-11B(1)" in text and "06/19/2026" in text
    assert "Dwellings condemned (140-11)" in text
    assert "Rooming-house licences issued (140-10A)" in text


def test_hudson_monthly_workbook_has_the_figures_and_no_permit_sheet(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    o = hudson_office(database, clock)
    _build(o)
    with database.read() as conn:
        april = q.monthly_report(conn, o.mid, 2026, 4)
    out = tmp_path / "hudson-monthly.xlsx"
    export_monthly_xlsx(april, out)
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["Code enforcement", "Condemnations"]
    assert wb.properties.title == TITLE_APRIL
    ws = wb["Code enforcement"]
    values = list(ws.iter_rows(values_only=True))
    assert values[0][0] == TITLE_APRIL
    header = next(k for k, row in enumerate(values) if row[0] == "Figure")
    assert values[header][:3] == ("Figure", "April 2026", "Year to date 2026")
    section = april.enforcement
    assert section is not None and section.ytd is not None
    lines = list(zip(section.figures.lines(), section.ytd.lines(), strict=True))
    shown = [
        tuple(Decimal(str(v)).quantize(Decimal("0.01")) if isinstance(v, float) else v for v in row)
        for row in (row[:3] for row in values[header + 1 : header + 1 + len(lines)])
    ]
    assert shown == [(m.label, m.value, y.value) for m, y in lines]
    assert ("Complaints received", 1, 3) in shown
    cond = [row for row in wb["Condemnations"].iter_rows(values_only=True) if row[0]]
    assert any(row[0] == "412 Vine St" and row[3] == "140-11B(1)" for row in cond)
    cells = _cells(out)
    for word in PERMIT_WORDS:
        assert not [c for c in cells if word in c], word


def test_hudson_annual_report_lists_the_hearings_and_the_condemnations(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    o = hudson_office(database, clock)
    heard = _build(o)
    with database.read() as conn:
        annual = q.annual_report(conn, o.mid, 2026)
    section = annual.enforcement
    assert annual.enforcement_only and section is not None
    assert annual.title == (
        "Annual report on code enforcement in the City of Hudson (Hudson ch. 140) — 2026"
    )
    _check(section.figures, _from_registers(database, o.mid, r.year_period(2026)))
    assert [h.case_number for h in section.hearings] == heard and len(heard) == 1
    pdf, book = tmp_path / "annual.pdf", tmp_path / "annual.xlsx"
    render_annual_pdf(annual, pdf, prepared_on=date(2026, 5, 4))
    export_annual_xlsx(annual, book)
    text = _pdf_text(pdf)
    assert "Code enforcement report — 2026" in text  # the cover
    assert "Annual report to the Common Council of the City of Hudson (Hudson ch. 140)" in text
    assert "Hearings before the Common Council (140-3B, 140-3C)" in text
    assert heard[0] in text and "Notice sustained" in text
    assert "412 Vine St" in text and "140-11B(1)" in text
    printed = _printed_figures(text, section.figures.lines(), 1)
    assert printed == [[_shown(x.value)] for x in section.figures.lines()]
    for word in PERMIT_WORDS:
        assert word not in text, word
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames == ["Code enforcement", "Condemnations"]
    listed = [
        row[2]
        for row in wb["Code enforcement"].iter_rows(values_only=True)
        if isinstance(row[2], str) and row[2].startswith("CE-")
    ]
    assert listed == heard
    cells = _cells(book)
    for word in PERMIT_WORDS:
        assert not [c for c in cells if word in c], word


def test_hudson_gets_its_report_with_no_case_yet_and_no_permit_only_report(
    database: Database, clock: FixedClock
) -> None:
    o = hudson_office(database, clock)
    with database.read() as conn:
        monthly = q.monthly_report(conn, o.mid, 2026, 3)
        assert monthly.enforcement is not None  # every figure 0, not a missing part
        assert monthly.enforcement.figures.figure("complaints") == 0
        with pytest.raises(ValidationError, match="trade: the City of Hudson has no permit"):
            q.monthly_report(conn, o.mid, 2026, 3, "plumbing")
        with pytest.raises(ValidationError, match="trade"):
            q.annual_report(conn, o.mid, 2026, "electrical")
        with pytest.raises(RuleViolation, match="Census Form C-404 lists permits"):
            q.c404_report(conn, o.mid, MARCH)
        with pytest.raises(RuleViolation, match="Act 211 filings with the state lists permits"):
            q.check_report_offered(conn, o.mid, r.ReportKind.ACT211)
        q.check_report_offered(conn, o.mid, r.ReportKind.ANNUAL)
        # Needs attention reads every municipality's Act 211 filings: Hudson's are none.
        assert q.act211_report(conn, o.mid, 2026, 3, date(2026, 4, 1)).lines == ()


def test_a_ch_512_municipality_cites_ch_512_and_glendale_keeps_both_parts(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    o = office(database, clock)  # Glendale: permit kinds and, unless set, Hudson ch. 140
    clock.set(date(2026, 3, 2))
    case_with_notice(o)
    with database.read() as conn:
        glendale = q.monthly_report(conn, o.mid, 2026, 3)
    assert (
        not glendale.enforcement_only and glendale.title == "Monthly permit activity — March 2026"
    )
    render_monthly_pdf(glendale, tmp_path / "glendale.pdf")
    text = _pdf_text(tmp_path / "glendale.pdf")
    assert "Monthly permit activity" in text and "Permits granted in March 2026" in text
    assert "Code enforcement (Hudson 140-3)" in text and "15.1.74(b)" in text

    cases.set_housing_code(database.uow(), clock, o.admin, o.mid, "ch-512")
    with database.read() as conn:
        ch512 = q.monthly_report(conn, o.mid, 2026, 3)
    assert ch512.enforcement is not None
    assert ch512.enforcement.title == "Code enforcement (Ch. 512)"
    render_monthly_pdf(ch512, tmp_path / "ch512.pdf")
    export_monthly_xlsx(ch512, tmp_path / "ch512.xlsx")
    text = _pdf_text(tmp_path / "ch512.pdf")
    assert "Code enforcement (Ch. 512)" in text and "Notices issued" in text
    assert "140-" not in text  # the Ch. 512 text on file numbers no procedure section
    assert not [c for c in _cells(tmp_path / "ch512.xlsx") if "140-" in c]


def test_the_cli_refuses_the_permit_only_reports_for_hudson(
    tmp_path: Path,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hudson has no permits: the Act 211 filing and the BLDS export are refused with the
    reason, not written empty."""
    from db.database import open_database
    from db.engine import sqlite_url
    from permitdesk.cli import main
    from tests.cli_sign_in import signed

    path = tmp_path / "hudson.db"
    database = open_database(sqlite_url(path))
    try:
        hudson_office(database, clock)
    finally:
        database.close()
    act211 = tmp_path / "act211.xlsx"
    args = ["report", "act211", "--month", "2026-03", "--xlsx", str(act211), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)]) == 2
    assert "no permit kinds" in capsys.readouterr().err
    assert not act211.exists()
    blds = ["export", "blds", "--out", str(tmp_path / "blds"), "--db", str(path)]
    assert main([*blds, *signed(monkeypatch)]) == 2
    assert "no permit kinds" in capsys.readouterr().err
    assert not (tmp_path / "blds" / "permits.csv").exists()
    monthly = tmp_path / "monthly.pdf"
    args = ["report", "monthly", "--month", "2026-03", "--pdf", str(monthly), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)]) == 0
    assert "code enforcement" in capsys.readouterr().out.lower()
