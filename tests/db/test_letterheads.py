"""Documents print the letterhead in force when they were issued, with its logo, and sign with
the person who issued them."""

from __future__ import annotations

import struct
import zlib
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pypdf
from sqlalchemy import func, insert, select, update

from db import cash_queries, queries, schema
from db import report_queries as rq
from db.database import Database
from db.letterheads import letterhead_as_of
from desk.clock import FixedClock
from desk.domain.documents import Letterhead
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering, fees, permits
from reports.cash_reports import render_daily_cash_pdf
from reports.common import signature_image
from reports.council import render_annual_pdf
from reports.permit_card import render_permit_card
from reports.receipt import render_receipt
from tests.factories import Register, application, make_issuable, pay_in_full, seed_register

OLD_LINE = "City of Glendale (letterhead of 1900)"
NEW_LINE = "City of Glendale — Community Development"
NEWER_AT = datetime(2026, 3, 3, 12, 0, tzinfo=UTC)  # the day after the permit is issued


def png(width: int, height: int) -> bytes:
    """A small PNG: a blue disc on white (a stand-in seal)."""
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            dx, dy = (x - width / 2) / (width / 2), (y - height / 2) / (height / 2)
            row += bytes((30, 80, 160) if dx * dx + dy * dy <= 1 else (255, 255, 255))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def image_count(path: Path) -> int:
    return sum(len(page.images) for page in pypdf.PdfReader(path).pages)


def add_image(database: Database, mid: int, content: bytes, kind: str = "logo") -> int:
    with database.engine.begin() as conn:
        return int(
            conn.execute(
                insert(schema.municipality_image)
                .values(
                    municipality_id=mid,
                    kind=kind,
                    media_type="image/png",
                    content=content,
                    added_at=datetime(2026, 3, 1, tzinfo=UTC),
                )
                .returning(schema.municipality_image.c.id)
            ).scalar_one()
        )


def add_version(
    database: Database,
    mid: int,
    at: datetime,
    first_line: str,
    *,
    logo_id: int | None = None,
    inspector: str = "Marta Municipal",
) -> None:
    with database.engine.begin() as conn:
        conn.execute(
            insert(schema.letterhead_version).values(
                municipality_id=mid,
                effective_at=at,
                name="City of Glendale",
                letterhead=[first_line, "5909 N Milwaukee River Pkwy"],
                address="Glendale, WI 53209",
                inspector_name=inspector,
                inspector_title="Chief Building Official",
                treasurer_name="Terry Treasurer",
                logo_image_id=logo_id,
            )
        )


def assess(database: Database, clock: FixedClock, reg: Register, permit_id: int) -> None:
    request = QuoteRequest(items=(QuoteItem("RES-NEW", quantity=Decimal(2450)),))
    fees.assess_fees(database.uow(), clock, reg.clerk, permit_id, request)


def issued(database: Database, clock: FixedClock) -> Register:
    """The register with its permit issued on 03/02/2026 by Ivan Inspector ("Plumbing
    Inspector"), under the 1900 letterhead whose inspector is someone else."""
    reg = seed_register(database, clock)
    with database.engine.begin() as conn:
        conn.execute(
            update(schema.app_user)
            .where(schema.app_user.c.id == reg.inspector.user_id)
            .values(title="Plumbing Inspector")
        )
        conn.execute(
            update(schema.municipality)
            .where(schema.municipality.c.id == reg.municipality_id)
            .values(inspector_name="Marta Municipal", inspector_title="Chief Building Official")
        )
    add_version(database, reg.municipality_id, datetime(1900, 1, 1, tzinfo=UTC), OLD_LINE)
    assess(database, clock, reg, reg.permit_id)
    make_issuable(database, clock, reg.admin, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    return reg


def test_the_letterhead_of_a_date_is_the_latest_version_effective_by_then(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    mid = reg.municipality_id
    add_version(database, mid, datetime(1900, 1, 1, tzinfo=UTC), OLD_LINE)
    add_version(database, mid, NEWER_AT, NEW_LINE, inspector="Nora Newcomer")
    with database.read() as conn:
        old = letterhead_as_of(conn, mid, date(2000, 1, 1))
        same_day = letterhead_as_of(conn, mid, date(2026, 3, 3))  # the end of that day
        before = letterhead_as_of(conn, mid, datetime(2026, 3, 3, 11, 59, tzinfo=UTC))
        now = letterhead_as_of(conn, mid, None)
    assert isinstance(old, Letterhead)
    assert old[0] == OLD_LINE and old.inspector_name == "Marta Municipal"
    assert old.address == "Glendale, WI 53209" and old.logo is None
    assert same_day[0] == NEW_LINE and same_day.inspector_name == "Nora Newcomer"
    assert before[0] == OLD_LINE
    assert now[0] == NEW_LINE


def test_the_permit_card_names_the_inspector_who_issued_it_not_the_letterheads(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = issued(database, clock)
    with database.read() as conn:
        card = queries.permit_card_data(conn, reg.permit_id)
    assert card is not None
    out = tmp_path / "card.pdf"
    render_permit_card(card, out)
    text = pdf_text(out)
    assert "Ivan Inspector" in text
    assert "Plumbing Inspector" in text
    assert "Marta Municipal" not in text


def test_a_reprinted_card_keeps_its_letterhead_and_a_later_receipt_prints_the_new_one(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = issued(database, clock)
    mid = reg.municipality_id
    logo_id = add_image(database, mid, png(160, 120))
    add_version(database, mid, NEWER_AT, NEW_LINE, logo_id=logo_id)

    with database.read() as conn:
        card = queries.permit_card_data(conn, reg.permit_id)
    assert card is not None
    render_permit_card(card, tmp_path / "card.pdf")
    card_text = pdf_text(tmp_path / "card.pdf")
    assert OLD_LINE in card_text and NEW_LINE not in card_text
    assert image_count(tmp_path / "card.pdf") == 0  # the 1900 letterhead had no logo

    # The issue-day payment reprints as it was; one taken after the change prints the new one.
    with database.read() as conn:
        first_id = conn.execute(select(schema.payment.c.id).order_by(schema.payment.c.id)).scalar()
    assert first_id is not None
    render_receipt(cashiering.receipt(database.uow(), first_id), tmp_path / "first.pdf")
    assert OLD_LINE in pdf_text(tmp_path / "first.pdf")

    later = FixedClock(date(2026, 3, 10))
    second = permits.take_application(database.uow(), later, reg.clerk, application(reg))
    assess(database, later, reg, second)
    pay_in_full(database, later, reg.admin, second)
    with database.read() as conn:
        paid_id = conn.execute(select(func.max(schema.payment.c.id))).scalar_one()
    assert paid_id != first_id
    view = cashiering.receipt(database.uow(), paid_id)
    render_receipt(view, tmp_path / "receipt.pdf")
    receipt_text = pdf_text(tmp_path / "receipt.pdf")
    assert NEW_LINE in receipt_text and OLD_LINE not in receipt_text
    assert image_count(tmp_path / "receipt.pdf") == 1

    with database.read() as conn:
        annual = rq.annual_report(conn, mid, 2026)
    render_annual_pdf(annual, tmp_path / "annual.pdf")
    assert NEW_LINE in pdf_text(tmp_path / "annual.pdf")
    assert image_count(tmp_path / "annual.pdf") >= 1

    # The treasurer's landscape reports widen the header to their page, logo and all.
    with database.read() as conn:
        cash_day = cash_queries.daily_cash(conn, mid, date(2026, 3, 10))
    export = tmp_path / "daily-cash.pdf"
    render_daily_cash_pdf(cash_day, export)
    assert NEW_LINE in pdf_text(export)
    assert image_count(export) == 1


def test_a_corrupt_logo_is_left_out_and_the_document_still_prints(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = issued(database, clock)
    mid = reg.municipality_id
    broken = png(160, 120)[:90]  # a PNG cut short: the header promises more than is there
    add_version(database, mid, NEWER_AT, NEW_LINE, logo_id=add_image(database, mid, broken))
    with database.read() as conn:
        annual = rq.annual_report(conn, mid, 2026)
        assert letterhead_as_of(conn, mid, None).logo == broken
    out = tmp_path / "annual.pdf"
    render_annual_pdf(annual, out)
    assert NEW_LINE in pdf_text(out)
    assert image_count(out) == 0


def test_a_signature_image_is_only_printed_over_its_own_name() -> None:
    head = Letterhead(["City of Glendale"], inspector_name="Marta Municipal", signature=b"sig")
    assert signature_image(head, "Marta  Municipal") == b"sig"
    assert signature_image(head, "Ivan Inspector") is None
    assert signature_image(("City of Glendale",), "Marta Municipal") is None
