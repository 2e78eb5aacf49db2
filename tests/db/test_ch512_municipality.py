"""The City of Westby, set up from the New municipality form under Ch. 512 Property Maintenance
with no permit kinds, works a case end to end on SQLite and PostgreSQL: a complaint, an
inspection finding Ch. 512 items, an over-occupied unit under 512-11, a notice of violation
served, review requested and decided under Wis. Stat. ch. 68 (Ch. 512 has no procedure of its
own), and the month's and the year's reports. Every printout cites Ch. 512 and Wis. Stat. ch. 68
and nothing of Hudson's ch. 140."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import openpyxl
import pytest
from pypdf import PdfReader

from db import enforcement_queries as eq
from db import report_queries as rq
from db.database import Database
from db.enforcement_case_view import case_facts
from db.letterheads import letterhead_as_of
from desk.clock import FixedClock
from desk.domain.enums import Role
from desk.domain.model import Actor, Parcel
from desk.enforcement.model import AddresseeRole, Channel, Decision, ServiceMethod
from desk.errors import ValidationError
from desk.services import permits, setup, users
from desk.services.enforcement import complaints, inspections, notices, petitions, review
from desk.services.enforcement.occupancy import attach_occupancy
from reports.council import export_annual_xlsx, render_annual_pdf
from reports.enforcement.notice import render_notice
from reports.monthly import export_monthly_xlsx, render_monthly_pdf
from tests.factories import PASSWORD

WESTBY = setup.NewMunicipality(
    name="Westby",
    kind="city",
    county="Vernon",
    address="206 N Main St\nWestby, WI 54667",
    inspector_name="Dana Olson",
    inspector_title="Code Enforcement Officer",
    zip="54667",
    placename="CITY OF WESTBY",
    housing_code="ch-512",
    ordinance="",
)
OWNER = notices.Addressee(AddresseeRole.OWNER, "Ole Hanson", "PO Box 12, Westby WI 54667")
# Ch. 512-11B: 150 sq ft for the first occupant, 100 for each after: 140 + 90 = 230 sq ft holds
# one; three need 350. 512-11C: two sleeping in the bedroom need 2 x 50 = 100 sq ft; it has 90.
OVER_OCCUPIED = """{
  "occupants_over_12": 3,
  "rooms": [
    {"name": "Living room", "use": "living", "floor_area": "140"},
    {"name": "Bedroom", "use": "sleeping", "floor_area": "90", "occupants_over_12": 2}
  ]
}"""
HUDSON = ("Hudson", "140-", "ch. 140")


@dataclass
class Westby:
    db: Database
    clock: FixedClock
    admin: Actor
    clerk: Actor
    inspector: Actor
    mid: int
    parcel_id: int


def westby(database: Database, clock: FixedClock) -> Westby:
    uow = database.uow
    admin = users.create_first_administrator(uow(), clock, "admin", "Alex Admin", PASSWORD)
    mid = setup.create_municipality(uow(), clock, admin, WESTBY)
    for username, name, role in (
        ("carol", "Carol Clerk", Role.CLERK),
        ("dana", "Dana Olson", Role.INSPECTOR),
    ):
        users.create_user(
            uow(), clock, admin, username=username, full_name=name, password=PASSWORD, roles={role}
        )
    clerk = users.authenticate(uow(), "carol", PASSWORD)
    inspector = users.authenticate(uow(), "dana", PASSWORD)
    parcel_id = permits.add_parcel(
        uow(),
        clock,
        clerk,
        Parcel(
            municipality_id=mid,
            pin="286-0040-010",
            house_number="105",
            street="N Main St",
            unit="2",
            city="Westby",
            zip="54667",
        ),
    )
    return Westby(database, clock, admin, clerk, inspector, mid, parcel_id)


@dataclass
class Worked:
    case_id: int
    notice_id: int
    addressee_id: int


def work_a_case(w: Westby) -> Worked:
    """March 2: a phoned complaint, the inspection finding no heat and a broken window, the
    unit's occupancy calculated, the notice issued and mailed; March 9: the owner requests
    review (Wis. Stat. 68.08); March 24: the Code Enforcement Officer affirms it on review
    (68.09), with no hearing."""
    uow, clock = w.db.uow, w.clock
    clock.set(date(2026, 3, 2))
    taken = complaints.take_complaint(
        uow(),
        clock,
        w.clerk,
        w.mid,
        w.parcel_id,
        Channel.PHONE,
        "No heat upstairs; five people living in the unit",
        complainant_name="Nora Neighbour",
    )
    case_id = taken.case.case_id
    found = inspections.record_inspection(
        uow(),
        clock,
        w.inspector,
        case_id,
        clock.today(),
        found=[
            inspections.FoundViolation("512-9D", unit="2", room="whole unit"),
            inspections.FoundViolation("512-11K", unit="2", room="bedroom"),
        ],
    )
    occupancy = attach_occupancy(
        uow(), clock, w.inspector, case_id=case_id, unit_label="2", rooms_json=OVER_OCCUPIED
    )
    assert occupancy.sections == ("512-11B", "512-11C")
    assert occupancy.max_occupants == 1
    lines = [
        notices.NoticeLine(found.violation_ids[0], "Repair the furnace and heat every room"),
        notices.NoticeLine(found.violation_ids[1], "Replace the broken bedroom window pane"),
        *(
            notices.NoticeLine(v, "Reduce the occupants to the number the floor area allows")
            for v in occupancy.violation_ids
        ),
    ]
    issued = notices.issue_notice(
        uow(),
        clock,
        w.inspector,
        case_id,
        (OWNER,),
        lines,
        "The upstairs unit has no working heat and more occupants than its floor area allows.",
    )
    (addressee_id,) = issued.addressee_ids
    notices.record_service(
        uow(),
        clock,
        w.clerk,
        addressee_id,
        ServiceMethod.REGISTERED_MAIL,
        clock.today(),
        "Carol Clerk",
    )
    clock.set(date(2026, 3, 9))
    petitions.record_petition(
        uow(), clock, w.clerk, addressee_id, clock.today(), "Ole Hanson", "The furnace works."
    )
    clock.set(date(2026, 3, 24))
    review.record_review_decision(
        uow(),
        clock,
        w.inspector,
        issued.notice_id,
        Decision.SUSTAIN,
        clock.today(),
        "The furnace does not heat the rear rooms; the notice stands.",
    )
    return Worked(case_id, issued.notice_id, addressee_id)


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def cells(path: Path) -> list[str]:
    book = openpyxl.load_workbook(path)
    return [
        str(c.value) for ws in book.worksheets for row in ws.iter_rows() for c in row if c.value
    ]


def assert_no_hudson(text: str) -> None:
    found = [word for word in HUDSON if word.lower() in text.lower()]
    assert found == [], f"{found} printed for a Ch. 512 municipality"


def test_a_case_is_opened_under_ch_512_and_takes_its_items_only(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    taken = complaints.take_complaint(
        database.uow(), clock, w.clerk, w.mid, w.parcel_id, Channel.COUNTER, "Garbage in the yard"
    )
    assert taken.case.number == "CE-2026-0001"
    with pytest.raises(ValidationError, match="no item 140-5D"):
        inspections.record_inspection(
            database.uow(),
            clock,
            w.inspector,
            taken.case.case_id,
            clock.today(),
            found=[inspections.FoundViolation("140-5D")],
        )
    found = inspections.record_inspection(
        database.uow(),
        clock,
        w.inspector,
        taken.case.case_id,
        clock.today(),
        found=[inspections.FoundViolation("512-9D")],
    )
    with database.read() as conn:
        facts = case_facts(conn, [taken.case.case_id])[taken.case.case_id]
    (violation,) = facts.violations
    assert facts.housing_code == "ch-512"
    assert violation.id == found.violation_ids[0]
    assert (violation.section, violation.title) == ("512-9D", "Heating facilities")
    assert violation.correct_by == clock.today() + timedelta(days=1)  # no heat: one day


def test_the_notice_of_violation_cites_ch_512_sections_and_nothing_of_hudson(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    w = westby(database, clock)
    worked = work_a_case(w)
    with database.read() as conn:
        doc = eq.notice_document(conn, worked.notice_id)
        head = letterhead_as_of(conn, w.mid, doc.issued_on)
    render_notice(doc, head, tmp_path / "notice.pdf")
    text = pdf_text(tmp_path / "notice.pdf")
    assert "City of Westby" in text and "Code Enforcement Officer" in text
    assert "Ch. 512 Property Maintenance" in text
    for item in (
        "512-9D — Heating facilities",
        "512-11K — Windows",
        "512-11B — Required space in dwelling units",
        "512-11C — Required space in sleeping rooms",
    ):
        assert item in text
    # Ch. 512 has no procedure of its own: the notice states the right to request review
    # under Wis. Stat. ch. 68, within 30 days of service, and to whom.
    words = " ".join(text.split())
    assert "Your right to request review (Wis. Stat. 68.08)" in words
    assert (
        "mailed or delivered to the municipal authority (the Building Inspector), City of "
        "Westby" in words
    )
    assert "within 30 days of service of this notice on you (Wis. Stat. 68.08)" in words
    assert "becomes an order (Wis. Stat. 68.08)" in words
    assert "Common Council" not in words
    assert "Written notice of violation under Ch. 512" in text
    assert_no_hudson(text)


def test_the_timeline_cites_ch_512_and_wis_stat_ch_68_and_no_council_hearing(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    worked = work_a_case(w)
    with database.read() as conn:
        assert eq.hearing(conn, worked.notice_id) is None  # no hearing before the Council
        entries = eq.timeline(conn, worked.case_id)
    sections = {e.section for e in entries if e.section}
    assert sections <= {
        "Ch. 512",
        "512-11B",
        "Wis. Stat. 68.08",
        "Wis. Stat. 68.09(4)",
    }, sections
    texts = [e.text for e in entries]
    assert "Occupancy calculated: 1 may live here (512-11B); does not comply (Unit 2)" in texts
    assert any("a request for review may be filed through 04/01/2026" in t for t in texts)
    assert "Request for review filed by Ole Hanson (timely): The furnace works." in texts
    assert (
        "Decision on review by the municipal authority (the Building Inspector): determination "
        "affirmed: The furnace does not heat the rear rooms; the notice stands." in texts
    )
    assert "The determination is an order upon the decision on review" in texts
    for text in texts:
        assert_no_hudson(text)


def test_the_months_and_the_years_reports_are_the_code_enforcement_report_under_ch_512(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    w = westby(database, clock)
    work_a_case(w)
    clock.set(date(2026, 4, 6))
    with database.read() as conn:
        monthly = rq.monthly_report(conn, w.mid, 2026, 3)
        annual = rq.annual_report(conn, w.mid, 2026)
    assert monthly.enforcement_only and monthly.enforcement is not None
    assert monthly.enforcement.title == "Code enforcement (Ch. 512)"
    render_monthly_pdf(monthly, tmp_path / "monthly.pdf")
    export_monthly_xlsx(monthly, tmp_path / "monthly.xlsx")
    render_annual_pdf(annual, tmp_path / "annual.pdf", prepared_on=clock.today())
    export_annual_xlsx(annual, tmp_path / "annual.xlsx")
    month = " ".join(pdf_text(tmp_path / "monthly.pdf").split())
    year = " ".join(pdf_text(tmp_path / "annual.pdf").split())
    assert "City of Westby" in month and "(Ch. 512)" in month
    assert "Complaints received" in month and "Notices issued" in month
    assert "City of Westby" in year and "(Ch. 512)" in year
    for text in (month, year):
        assert "15.1." not in text  # no permit table, no Glendale citation
        assert_no_hudson(text)
    for book in ("monthly.xlsx", "annual.xlsx"):
        written = cells(tmp_path / book)
        assert any("Ch. 512" in c for c in written), book
        assert [c for c in written if any(h in c for h in HUDSON)] == [], book
