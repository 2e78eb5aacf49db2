"""The rooming house licence documents read back from the PDFs (Hudson 140-10): the certificate
displayed within the house (140-10A), the renewal letters, and the written notices to correct,
of suspension (with the last day to petition, 140-10D) and of denial (140-10B)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader

from db import licence_register_queries as lq
from db.database import Database, open_database
from db.engine import sqlite_url
from db.letterheads import letterhead_as_of
from desk.clock import FixedClock
from desk.enforcement.licences import LicenceNoticeKind
from desk.errors import RuleViolation
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from reports.enforcement.licence import (
    render_licence_certificate,
    render_licence_notice,
    render_renewal_letters,
)
from tests.db.enforcement_setup import Office, office
from tests.db.licence_fee import set_licence_fee
from tests.reports.test_enforcement_pdfs import text_of

TODAY = date(2026, 3, 2)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "permitdesk.db"))
    try:
        yield database
    finally:
        database.close()


def _apply(o: Office, operator: str = "Rita Roomer", unit: str = "2") -> int:
    return svc.record_application(
        o.db.uow(),
        o.clock,
        o.clerk,
        svc.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=o.parcel_id,
            operator_name=operator,
            operator_address="5 Oak St\nHudson WI 54016",
            persons=6,
            water_closets=1,
            lavatories=1,
            baths=1,
            rooms=(
                svc.RoomInput("Room 1", Decimal(80), True, 1),
                svc.RoomInput("Room 2", Decimal(130), True, 2),
                svc.RoomInput("Kitchen", Decimal(140), False),
            ),
            dwelling_unit=unit,
        ),
    )


def _issued(o: Office) -> tuple[int, int]:
    """(licence id, case id): issued 03/02/2026 with the $50.00 fee, receipt CC-2026-0031."""
    set_licence_fee(o, "50.00")
    licence_id = _apply(o)
    case_id = svc.open_licence_case(o.db.uow(), o.clock, o.inspector, licence_id)
    inspections.record_inspection(o.db.uow(), o.clock, o.inspector, case_id, o.clock.today())
    svc.issue_licence(o.db.uow(), o.clock, o.clerk, licence_id, fee_receipt="CC-2026-0031")
    return licence_id, case_id


def test_the_certificate_names_the_operator_the_dwelling_the_dates_and_the_fee(
    db: Database, tmp_path: Path
) -> None:
    o = office(db, FixedClock(TODAY))
    pending = _apply(o, unit="9")
    licence_id, _ = _issued(o)
    with db.read() as conn:
        assert lq.certificate(conn, pending) is None  # never issued
        cert = lq.certificate(conn, licence_id)
        letterhead = letterhead_as_of(conn, o.mid, TODAY)
    assert cert is not None
    out = tmp_path / "licence.pdf"
    render_licence_certificate(cert, letterhead, out)
    text = text_of(out)
    assert len(PdfReader(str(out)).pages) == 1
    for words in (
        "Rooming House Licence",
        "No. RH-2026-0001",
        "Rita Roomer",
        "412 Vine St, Unit 2",
        "for 6 persons, from 03/02/2026 through 03/02/2027 (Hudson 140-10A)",
        "NOT TRANSFERABLE",
        "conspicuous place within the rooming house",
        "Sleeping rooms 2",
        "$50.00, receipt CC-2026-0031",
        "City Clerk",
    ):
        assert words in text, words
    assert cert.issued_by and cert.issued_by in text


def test_the_renewal_letters_go_to_each_operator_at_the_address_given(
    db: Database, tmp_path: Path
) -> None:
    o = office(db, FixedClock(TODAY))
    _issued(o)
    on = date(2027, 1, 15)  # 46 days before the licence's last valid day
    with db.read() as conn:
        rows = lq.renewal_letters(conn, o.mid, on)
        letterhead = letterhead_as_of(conn, o.mid, on)
    out = tmp_path / "letters.pdf"
    render_renewal_letters(rows, letterhead, on, out)
    text = text_of(out)
    assert len(PdfReader(str(out)).pages) == 1
    assert "January 15, 2027 Rita Roomer 5 Oak St Hudson WI 54016" in text
    assert "Re: Rooming house licence RH-2026-0001 — 412 Vine St, Unit 2: renewal" in text
    assert "is valid through 03/02/2027" in text
    none = tmp_path / "none.pdf"
    render_renewal_letters([], letterhead, on, none)
    assert "No rooming house licence expires in this period" in text_of(none)


def test_the_notice_to_correct_then_the_suspension_with_the_last_day_to_petition(
    db: Database, tmp_path: Path
) -> None:
    clock = FixedClock(TODAY)
    o = office(db, clock)
    licence_id, case_id = _issued(o)
    with db.read() as conn, pytest.raises(RuleViolation, match="was not suspended"):
        lq.licence_notice(conn, licence_id, "suspension")
    found = inspections.record_inspection(
        db.uow(),
        clock,
        o.inspector,
        case_id,
        TODAY,
        found=[inspections.FoundViolation("140-10E", unit="2", room="bathroom")],
    )
    svc.give_warning(db.uow(), clock, o.inspector, licence_id, date(2026, 3, 16))
    clock.set(date(2026, 3, 16))
    inspections.record_inspection(
        db.uow(), clock, o.inspector, case_id, clock.today(), checks={found.violation_ids[0]: False}
    )
    svc.suspend_licence(db.uow(), clock, o.inspector, licence_id)
    with db.read() as conn:
        warning = lq.licence_notice(conn, licence_id, LicenceNoticeKind.WARNING)
        suspension = lq.licence_notice(conn, licence_id, "suspension")
        letterhead = letterhead_as_of(conn, o.mid, clock.today())
    out = tmp_path / "warning.pdf"
    render_licence_notice(warning, letterhead, out)
    text = text_of(out)
    assert "Notice to correct violations" in text
    assert (
        "Your licence RH-2026-0001 will be suspended unless the conditions are corrected by "
        "03/16/2026 (Hudson 140-10C)" in text
    )
    assert "1. 140-10E" in text and "Unit 2, bathroom" in text
    assert "Rita Roomer, 5 Oak St" in text

    out = tmp_path / "suspension.pdf"
    render_licence_notice(suspension, letterhead, out)
    text = text_of(out)
    assert "Notice of suspension" in text
    assert "is suspended as of 03/16/2026" in text
    assert "cease operation of the rooming house at once" in text
    assert "No person shall occupy any rooming unit for sleeping or living purposes" in text
    assert "Last day to petition 03/26/2026" in text
    assert "within 10 days following the day of suspension: on or before 03/26/2026" in text
    assert "deemed automatically revoked (140-10D)" in text


def test_the_denial_gives_its_reason_and_the_right_to_a_hearing(
    db: Database, tmp_path: Path
) -> None:
    clock = FixedClock(TODAY)
    o = office(db, clock)
    licence_id = _apply(o)
    svc.deny_application(db.uow(), clock, o.inspector, licence_id, "The rear stairway is unsafe")
    with db.read() as conn:
        doc = lq.licence_notice(conn, licence_id, "denial")
        letterhead = letterhead_as_of(conn, o.mid, TODAY)
        assert lq.certificate(conn, licence_id) is None
    out = tmp_path / "denial.pdf"
    render_licence_notice(doc, letterhead, out)
    text = text_of(out)
    assert "Denial of rooming house licence" in text
    assert "The application of 03/02/2026" in text and "is denied by the Building Inspector" in text
    assert "Reason: The rear stairway is unsafe" in text
    assert "hearing under the procedure of 140-3" in text
    assert "on or before 03/12/2026 (140-10B, 140-3B)" in text
