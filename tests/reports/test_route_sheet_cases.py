"""The route sheet with case inspections beside the permit stops (Hudson 140-3): one route
order, moved up and down together; the case number and the open violations' sections with
unit and room on the PDF and the workbook; never the complainant's name (140-2)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openpyxl import load_workbook
from pypdf import PdfReader

from db import inspection_queries as iq
from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.enforcement.model import Channel
from desk.services import inspections as permit_svc
from desk.services import permits
from desk.services.enforcement import complaints, inspections
from desk.services.enforcement import visits as svc
from desk.services.inspections import RequestInput
from reports.route_sheet import export_route_xlsx, render_route_sheet
from tests.factories import make_issuable, seed_register

DAY = date(2026, 3, 17)


def _text(path: Path) -> str:
    return " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(path).pages)


def test_case_stops_print_with_the_case_number_and_the_violations_never_the_complainant(
    tmp_path: Path,
) -> None:
    clock = FixedClock(date(2026, 3, 2))
    database = open_database(sqlite_url(tmp_path / "r.db"))
    reg = seed_register(database, clock)
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    ivan = reg.inspector.user_id
    loc = permit_svc.request_inspection(
        database.uow(),
        clock,
        reg.clerk,
        RequestInput(reg.permit_id, "BLD-LOCATION", "Mike Kowalczyk", "(414) 555-0142"),
    ).inspection_id
    permit_svc.schedule_inspection(database.uow(), clock, reg.clerk, loc, ivan, DAY)
    case_id = complaints.take_complaint(
        database.uow(),
        clock,
        reg.clerk,
        reg.municipality_id,
        reg.parcel_id,
        Channel.PHONE,
        "No heat in the upstairs flat",
        complainant_name="Nellie Neighbour",
        complainant_contact="(715) 555-0199",
    ).case.case_id
    inspections.record_inspection(
        database.uow(),
        clock,
        reg.inspector,
        case_id,
        clock.today(),
        found=[
            inspections.FoundViolation(
                "140-6C", unit="1", room="rear porch", correct_by=date(2026, 3, 17)
            ),
            inspections.FoundViolation(
                "140-5A", unit="2", room="bedroom", correct_by=date(2026, 3, 30)
            ),
        ],
    )
    # The re-inspection on the earliest correction date, after the permit stop ...
    visit = svc.schedule_visit(database.uow(), clock, reg.clerk, case_id, inspector_id=ivan)
    assert (visit.scheduled_on, visit.position) == (DAY, 2)
    # ... moved up before it: both numbered again, in one order.
    assert (
        svc.move_on_route(database.uow(), clock, reg.clerk, ivan, DAY, "case", visit.visit_id, -1)
        == 1
    )
    with database.read() as conn:
        sheet = iq.route_sheet(conn, reg.municipality_id, ivan, DAY)
    assert [(s.kind, s.position) for s in sheet.stops] == [("case", 1), ("permit", 2)]
    # The permit stop still moves with the permit service when asked to (no case on its day).
    pdf, xlsx = tmp_path / "route.pdf", tmp_path / "route.xlsx"
    render_route_sheet(sheet, pdf)
    export_route_xlsx(sheet, xlsx)
    text = _text(pdf)
    for expected in (
        "2 stops in route order, 1 of them code enforcement case inspection",
        "CE-2026-0001",
        "Code enforcement: re-inspection (140-3)",
        "140-6C Stairs, porches and appurtenances (Unit 1, rear porch), correct by 03/17/2026",
        "140-5A Window area (Unit 2, bedroom), correct by 03/30/2026",
        "2026-0001",
        "Mike Kowalczyk",
    ):
        assert expected in text, expected
    assert "Nellie" not in text and "555-0199" not in text
    ws = load_workbook(xlsx).active
    assert ws is not None
    first = [c.value for c in ws[4]]
    assert first[:7] == [
        1,
        None,
        "6120 N Port Washington Rd",
        "CE-2026-0001",
        "Code enforcement: re-inspection (140-3)",
        None,
        None,
    ]
    assert first[7] == (
        "To inspect:\n"
        "140-6C Stairs, porches and appurtenances (Unit 1, rear porch), correct by 03/17/2026\n"
        "140-5A Window area (Unit 2, bedroom), correct by 03/30/2026"
    )
    assert [c.value for c in ws[5]][:4] == [2, None, "6120 N Port Washington Rd", "2026-0001"]
    cells = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert "Nellie" not in cells
    database.close()
