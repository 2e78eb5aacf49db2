"""Stop-work order and revocation notice PDFs: the text an owner is served and the placard."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from db import queries
from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.services import lifecycle, permits
from reports.notices import render_order_notice
from tests.factories import make_issuable, seed_register


def _text(path: Path) -> list[str]:
    # Lines wrap anywhere: compare with single spaces.
    return [" ".join(page.extract_text().split()) for page in PdfReader(str(path)).pages]


def test_a_stop_work_order_prints_the_notice_and_the_placard(
    tmp_path: Path, clock: FixedClock
) -> None:
    database = open_database(sqlite_url(tmp_path / "n.db"))
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    number = permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    order_id = lifecycle.issue_stop_work_order(
        uow, clock, reg.inspector, reg.permit_id, "Framing without approved plans", "15.1.12"
    )
    with database.read() as conn:
        notice = queries.order_notice(conn, order_id)
    assert notice is not None
    out = tmp_path / "stop.pdf"
    render_order_notice(notice, out)
    notice_page, placard = _text(out)
    assert "Stop-Work Order" in notice_page and number in notice_page
    assert "6120 N Port Washington Rd" in notice_page
    assert "Framing without approved plans" in notice_page
    assert "15.1.12" in notice_page and "Anna Schmidt" in notice_page
    assert "STOP WORK" in placard and "6120 N Port Washington Rd" in placard
    # The lift notice names the correction and takes the placard down: one page, no placard.
    lifecycle.lift_stop_work_order(
        uow, clock, reg.inspector, reg.permit_id, "Revised plans approved; work may resume."
    )
    with database.read() as conn:
        lifted = queries.order_notice(conn, order_id)
    assert lifted is not None
    render_order_notice(lifted, tmp_path / "lifted.pdf")
    (page,) = _text(tmp_path / "lifted.pdf")
    assert "Notice Lifting Stop-Work Order" in page and number in page
    assert "Revised plans approved; work may resume." in page and "STOP WORK" not in page
    database.close()


def test_an_order_under_another_section_names_it(tmp_path: Path, clock: FixedClock) -> None:
    database = open_database(sqlite_url(tmp_path / "n.db"))
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    order_id = lifecycle.issue_stop_work_order(
        uow, clock, reg.inspector, reg.permit_id, "Correction order not met", "15.1.90(b)(2)"
    )
    with database.read() as conn:
        notice = queries.order_notice(conn, order_id)
    assert notice is not None
    render_order_notice(notice, tmp_path / "stop.pdf")
    assert "This order is issued under 15.1.90(b)(2)." in _text(tmp_path / "stop.pdf")[0]
    database.close()


def test_a_revocation_notice_states_the_reasons_and_that_a_new_permit_is_needed(
    tmp_path: Path, clock: FixedClock
) -> None:
    database = open_database(sqlite_url(tmp_path / "n.db"))
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    order_id = lifecycle.revoke_permit(uow, clock, reg.inspector, reg.permit_id, ["d"])
    with database.read() as conn:
        notice = queries.order_notice(conn, order_id)
    assert notice is not None
    out = tmp_path / "revoked.pdf"
    render_order_notice(notice, out)
    page, placard = _text(out)
    assert "Notice of Revocation of Permit" in page
    assert "(d) inadequate supervision on the job site" in page
    assert "15.1.7(g)(4)" in page and "new permit" in page
    assert "PERMIT REVOKED" in placard
    database.close()
