"""The printed documents of code enforcement (Hudson 140-3): the notice of violation carries every
element of 140-3A, the emergency order says it is effective at once (140-3H), a reprint is the
same document after the Council modified a date, the complainant never appears; the written
notice of hearing (140-3B), the record of hearing (140-3F) and the Council's docket."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from db import enforcement_queries as q
from db.database import Database, open_database
from db.engine import sqlite_url
from db.letterheads import letterhead_as_of
from desk.clock import FixedClock
from desk.domain.documents import Letterhead
from desk.enforcement.model import Channel, Decision, ServiceMethod
from desk.services.enforcement import complaints, inspections, notices, petitions
from reports.enforcement.hearing import (
    render_hearing_docket,
    render_hearing_notice,
    render_hearing_record,
)
from reports.enforcement.notice import office_address, render_notice
from tests.db.enforcement_setup import OCCUPANT, OWNER, Office, case_with_notice, office

COMPLAINANT = "Nellie Neighbour"
PLACE = "Council Chambers, City Hall, 7:00 p.m."
STAIRS = "Repair the stair treads and handrail so that they are safe to use"
RUBBISH = "Provide covered rubbish containers for the dwelling units"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "permitdesk.db"))
    try:
        yield database
    finally:
        database.close()


def text_of(path: Path) -> str:
    """The PDF's text, its whitespace (line breaks of wrapped paragraphs) made single spaces."""
    raw = "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)
    return re.sub(r"\s+", " ", raw)


@dataclass
class Case:
    o: Office
    case_id: int
    violation_ids: tuple[int, ...]
    issued: notices.NoticeIssued


def two_violations(o: Office) -> Case:
    """A phoned complaint, an inspection on 03/02/2026 finding two violations, and a notice of
    both to the owner and the occupant with their own correction dates."""
    taken = complaints.take_complaint(
        o.db.uow(),
        o.clock,
        o.clerk,
        o.mid,
        o.parcel_id,
        Channel.PHONE,
        "Rear porch stairs broken, rubbish piling up",
        complainant_name=COMPLAINANT,
        complainant_contact="(715) 555-0199",
    )
    case_id = taken.case.case_id
    found = inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        o.clock.today(),
        found=[
            inspections.FoundViolation("140-6C", unit="1", room="rear porch"),
            inspections.FoundViolation("140-4D", unit="1", room="back yard"),
        ],
    )
    v1, v2 = found.violation_ids
    issued = notices.issue_notice(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        (OWNER, OCCUPANT),
        [
            notices.NoticeLine(v1, STAIRS, date(2026, 3, 16)),
            notices.NoticeLine(v2, RUBBISH, date(2026, 3, 23)),
        ],
        "The rear porch stairs are unsafe to use and rubbish is stored uncovered.",
    )
    return Case(o, case_id, (v1, v2), issued)


def head(db: Database, mid: int) -> Letterhead:
    with db.read() as conn:
        return letterhead_as_of(conn, mid)


def test_the_notice_has_every_element_of_140_3a_and_no_complainant(
    db: Database, clock: FixedClock, tmp_path: Path
) -> None:
    case = two_violations(office(db, clock))
    with db.read() as conn:
        doc = q.notice_document(conn, case.issued.notice_id)
    lh = head(db, case.o.mid)
    out = tmp_path / "notice.pdf"
    render_notice(doc, lh, out)
    text = text_of(out)
    pages = PdfReader(str(out)).pages

    # (1) in writing: the title, the case, the date issued, the inspector who signs it.
    assert "Notice of violation" in text
    assert doc.case_number in text and "Date issued 03/02/2026" in text
    assert doc.issued_by and doc.issued_by in text
    # (2) the reasons: the statement and each violation's section, the code's text, where.
    assert doc.statement in text
    assert len(doc.items) == 2
    for item in doc.items:
        assert f"{item.section} — {item.title}" in text
        assert f"“{item.code_text}”" in text
        assert item.location in text
    assert "Unit 1, rear porch" in text and "Unit 1, back yard" in text
    # (3) a reasonable time for each act: its correction date.
    assert "Correct by 03/16/2026" in text and "Correct by 03/23/2026" in text
    # (4) to whom: one copy per addressee, each on its own page, and how it may be served.
    assert len(pages) >= 2
    first = re.sub(r"\s+", " ", pages[0].extract_text())
    assert "Owner Otto Owner, 9 Elm St, Hudson WI 54016" in first
    assert "The same notice is served on: Olga Occupant (occupant), 412 Vine St, Hudson WI" in (
        first
    )
    assert "Occupant Olga Occupant, 412 Vine St, Hudson WI" in text
    assert "sent by registered mail to the last known address" in text
    assert "posted in a conspicuous place in or about the dwelling affected" in text
    # (5) the outline of remedial action, per violation.
    assert f"Remedial action {STAIRS}" in text and f"Remedial action {RUBBISH}" in text
    # 140-3B: the right to petition within 10 days after service, and where to file.
    where = office_address(lh)
    assert lh.name and lh.name in where
    assert (
        "You may request a hearing on this notice before the Common Council by filing a "
        "written petition requesting the hearing, with a brief statement of the grounds for "
        f"it, in the office of the Building Inspector, {where}, within 10 days after service "
        "of this notice (140-3B)."
    ) in text
    # The complainant is confidential: never on the notice.
    assert COMPLAINANT not in text and "555-0199" not in text


def test_the_emergency_order_is_effective_at_once(
    db: Database, clock: FixedClock, tmp_path: Path
) -> None:
    o = office(db, clock)
    _case_id, _v, issued = case_with_notice(o, emergency=True, section="140-4D")
    with db.read() as conn:
        doc = q.notice_document(conn, issued.notice_id)
    out = tmp_path / "emergency.pdf"
    render_notice(doc, head(db, o.mid), out)
    text = text_of(out)
    assert text.count("Emergency order") >= 1 and "Notice of violation" not in text
    assert "Effective Immediately, 03/02/2026 (140-3H)" in text
    assert "This order is effective immediately, from 03/02/2026" in text
    assert "afforded a hearing before the Common Council as soon as possible" in text
    assert "within 10 days" not in text
    assert "Nellie Neighbour" not in text


def test_a_reprint_is_the_same_document_after_the_council_modifies_a_date_and_the_hearing_papers(
    db: Database, clock: FixedClock, tmp_path: Path
) -> None:
    case = two_violations(office(db, clock))
    o, notice_id = case.o, case.issued.notice_id
    lh = head(db, o.mid)
    with db.read() as conn:
        first_doc = q.notice_document(conn, notice_id)
    render_notice(first_doc, lh, tmp_path / "first.pdf")
    first = text_of(tmp_path / "first.pdf")

    owner = case.issued.addressee_ids[0]
    notices.record_service(
        db.uow(), clock, o.inspector, owner, ServiceMethod.PERSONAL, clock.today(), "Ivan"
    )
    clock.set(date(2026, 3, 5))
    petitions.record_petition(
        db.uow(), clock, o.clerk, owner, clock.today(), "Otto Owner", "The stairs need more time"
    )
    clock.set(date(2026, 3, 6))
    petitions.schedule_hearing(
        db.uow(), clock, o.inspector, notice_id, date(2026, 3, 17), PLACE, clock.today()
    )
    clock.set(date(2026, 3, 17))
    petitions.record_council_decision(
        db.uow(),
        clock,
        o.inspector,
        notice_id,
        Decision.MODIFY,
        clock.today(),
        "The owner showed that the stair lumber is on order; the Council gives until April.",
        {case.violation_ids[0]: date(2026, 4, 15)},
    )

    # The reprint: the frozen notice, the same text, the date as issued.
    with db.read() as conn:
        again = q.notice_document(conn, notice_id)
        hearing = q.hearing(conn, notice_id)
        docket = q.hearing_docket(conn, o.mid, date(2026, 3, 17))
        other_day = q.hearing_docket(conn, o.mid, date(2026, 3, 18))
        timeline = q.timeline(conn, case.case_id)
    assert again == first_doc
    render_notice(again, lh, tmp_path / "reprint.pdf")
    assert text_of(tmp_path / "reprint.pdf") == first
    assert "Correct by 03/16/2026" in first and "04/15/2026" not in first

    # 140-3B: the written notice of hearing to the petitioner.
    assert hearing is not None
    render_hearing_notice(hearing, lh, tmp_path / "hearing_notice.pdf")
    text = text_of(tmp_path / "hearing_notice.pdf")
    assert "Notice of hearing" in text
    assert "Date of notice 03/06/2026" in text
    assert "To Otto Owner, 9 Elm St, Hudson WI 54016" in text
    assert "Hearing date 03/17/2026" in text and f"Time and place {PLACE}" in text
    assert f"Notice heard Notice of violation of 03/02/2026, case {first_doc.case_number}" in text
    assert (
        f"The hearing before the Common Council will be held on 03/17/2026 at {PLACE} (140-3B)"
        in text
    )
    assert f"notice of violation of 03/02/2026, case {first_doc.case_number} has been" in text
    assert "opportunity to be heard and to show cause" in text
    assert COMPLAINANT not in text

    # 140-3F: the record of hearing.
    render_hearing_record(hearing, [again], timeline, lh, tmp_path / "record.pdf")
    text = text_of(tmp_path / "record.pdf")
    assert "Record of hearing" in text
    assert "the stair lumber is on order; the Council gives until April." in text
    assert "On 03/17/2026 the Common Council modified the notice (140-3C)." in text
    assert "The notice is deemed to be an order (140-3C)." in text
    assert "The stairs need more time" in text
    # The modified date beside the date as issued.
    assert "03/16/2026 04/15/2026" in text
    # Every notice and order of the matter: the timeline's lines and a copy of the notice.
    assert "Notice of violation issued to Otto Owner (owner), Olga Occupant (occupant)" in text
    assert "The notice is an order upon the Common Council's decision" in text
    assert f"“{first_doc.items[0].code_text}”" in text
    # The file copy names every addressee.
    assert "Owner Otto Owner, 9 Elm St, Hudson WI 54016 Occupant Olga Occupant" in text
    assert COMPLAINANT not in text and "555-0199" not in text

    # The Council's docket of 03/17/2026.
    assert [r.notice_id for r in docket] == [notice_id] and other_day == []
    render_hearing_docket(date(2026, 3, 17), docket, lh, tmp_path / "docket.pdf")
    text = text_of(tmp_path / "docket.pdf")
    assert "Common Council hearing docket" in text and "Hearings of 03/17/2026" in text
    assert first_doc.case_number in text
    assert "412 Vine St" in text and "Notice 03/02/2026" in text and "Otto Owner" in text
    assert "1 hearing." in text
    render_hearing_docket(date(2026, 3, 18), other_day, lh, tmp_path / "empty.pdf")
    assert "No hearing is scheduled for 03/18/2026." in text_of(tmp_path / "empty.pdf")
