"""The route sheet (PDF and .xlsx), the correction order's written notice and the certificate of
occupancy, rendered from a register and read back as the office would check them."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openpyxl import load_workbook
from pypdf import PdfReader

from db import inspection_queries as iq
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.inspections import Result
from desk.services import inspections as svc
from desk.services import permits
from desk.services.inspections import CertificateInput, RequestInput, ResultInput
from reports.correction_notice import render_correction_notice
from reports.occupancy_certificate import render_occupancy_certificate
from reports.route_sheet import export_route_xlsx, render_route_sheet
from tests.factories import Register, make_issuable, seed_register

DAY = date(2026, 3, 17)


def _text(path: Path) -> str:
    return " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(path).pages)


def _register(tmp_path: Path) -> tuple[Database, FixedClock, Register, int]:
    clock = FixedClock(date(2026, 3, 16))
    database = open_database(sqlite_url(tmp_path / "r.db"))
    reg = seed_register(database, clock)
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    with database.read() as conn:
        ivan = iq.user_by_name(conn, "ivan")
    assert ivan is not None
    return database, clock, reg, ivan[0]


def _request(database: Database, clock: FixedClock, reg: Register, code: str) -> int:
    return svc.request_inspection(
        database.uow(),
        clock,
        reg.clerk,
        RequestInput(
            reg.permit_id, code, "Mike Kowalczyk", "(414) 555-0142", notes="Gate code 4411"
        ),
    ).inspection_id


def test_the_route_sheet_lists_the_stops_in_route_order_as_pdf_and_spreadsheet(
    tmp_path: Path,
) -> None:
    database, clock, reg, ivan = _register(tmp_path)
    loc = _request(database, clock, reg, "BLD-LOCATION")
    svc.schedule_inspection(database.uow(), clock, reg.clerk, loc, ivan, DAY)
    with database.read() as conn:
        sheet = iq.route_sheet(conn, reg.municipality_id, ivan, DAY)
    pdf, xlsx = tmp_path / "route.pdf", tmp_path / "route.xlsx"
    render_route_sheet(sheet, pdf)
    export_route_xlsx(sheet, xlsx)
    text = _text(pdf)
    for expected in (
        "Route sheet — Ivan Inspector, Tuesday 03/17/2026",
        "6120 N Port Washington Rd",
        "2026-0001",
        "Location",
        "Mike Kowalczyk",
        "(414) 555-0142",
        "Gate code 4411",
    ):
        assert expected in text
    ws = load_workbook(xlsx).active
    assert ws is not None
    assert [c.value for c in ws[4]][:7] == [
        1,
        None,
        "6120 N Port Washington Rd",
        "2026-0001",
        "Location",
        "Mike Kowalczyk",
        "(414) 555-0142",
    ]
    database.close()


def test_the_correction_notice_states_the_items_the_deadline_and_the_section(
    tmp_path: Path,
) -> None:
    database, clock, reg, _ = _register(tmp_path)
    loc = _request(database, clock, reg, "BLD-LOCATION")
    out = svc.record_result(
        database.uow(),
        clock,
        reg.inspector,
        ResultInput(
            loc,
            Result.REJECTED,
            correction_items="Garage 2 ft into the side setback\nSurvey stakes missing",
        ),
    )
    assert out.correction_order_id is not None
    with database.read() as conn:
        data = iq.correction_notice(conn, out.correction_order_id)
    assert data is not None
    pdf = tmp_path / "notice.pdf"
    render_correction_notice(data, pdf)
    text = _text(pdf)
    for expected in (
        "Correction Order",
        "Written notice under 15.1.90(b)(1)",
        "2026-0001",
        "1. Garage 2 ft into the side setback",
        "2. Survey stakes missing",
        "Correct by 04/15/2026",
        "Anna Schmidt",
        "Ivan Inspector",
    ):
        assert expected in text
    database.close()


def test_the_certificate_states_its_number_the_premises_the_use_and_temporary_limit(
    tmp_path: Path,
) -> None:
    database, clock, reg, _ = _register(tmp_path)
    cert = svc.issue_certificate(
        database.uow(),
        clock,
        reg.inspector,
        CertificateInput(
            reg.permit_id,
            "Single-family dwelling",
            conditions="Final grading by June 1",
            temporary_until=date(2026, 6, 30),
            safe_and_sanitary=True,
        ),
    )
    with database.read() as conn:
        data = iq.certificate_data(conn, cert.certificate_id)
    assert data is not None
    pdf = tmp_path / "co.pdf"
    render_occupancy_certificate(data, pdf)
    text = _text(pdf)
    for expected in (
        "Temporary Certificate of Occupancy",
        "No. 2026-0001",
        "TEMPORARY — valid until 06/30/2026",
        "6120 N Port Washington Rd",
        "Single-family dwelling",
        "Final grading by June 1",
        "Ivan Inspector",
    ):
        assert expected in text
    database.close()
