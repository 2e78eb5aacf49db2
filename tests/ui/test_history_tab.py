"""The History tab reads like a clerk's log (issue: full names, the office's dates, one row per
money move, no internal ids), and the treasurer can show the accounting rows under it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from db import queries
from db.audit_queries import history_lookup
from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.cashiering import RefundGround
from desk.domain.model import Actor
from desk.services import cashiering as cash
from tests.cashbook import CashDay, open_day
from tests.ui.sample import NOW
from ui.app import make_session
from ui.permit.base import PermitContext
from ui.permit.history import HistoryTab
from ui.presenters.history import ACCOUNTING_TOGGLE, HistoryPresenter

CENTRAL = timezone(timedelta(hours=-6), "CST")
WHEN = "03/02/2026 9:00 AM"  # NOW (15:00 UTC) in Glendale


@pytest.fixture
def day(tmp_path: Path) -> Iterator[CashDay]:
    """The cashbook's Monday: receipt 2026-0001 (one check for the house and the reroof),
    2026-0002 voided, 2026-0003; then the reroof's fee corrected and its overpayment refunded."""
    database = open_database(sqlite_url(tmp_path / "history.db"))
    try:
        day = open_day(database, FixedClock(NOW))
        uow = database.uow()
        cash.adjust_fee(
            uow, day.clock, day.reg.inspector, day.reroof, "RES-OTHER", Decimal("-70.00"), "typo"
        )
        cash.refund(
            uow,
            day.clock,
            day.reg.treasurer,
            cash.RefundInput(day.reroof, RefundGround.OVERPAYMENT, "20455", day.clock.today()),
        )
        yield day
    finally:
        database.close()


def history(day: CashDay, permit_id: int, actor: Actor, accounting: bool) -> HistoryPresenter:
    with day.database.read() as conn:
        entries = queries.permit_history(conn, permit_id)
        return HistoryPresenter(
            entries,
            "glendale",
            lookup=history_lookup(conn, entries),
            tz=CENTRAL,
            can_show_accounting=HistoryPresenter.accounting_allowed(actor),
            show_accounting=accounting,
        )


def cells(h: HistoryPresenter) -> list[tuple[str, ...]]:
    return [r.cells() for r in h.rows]


def test_a_payment_is_one_row_with_its_receipt_amount_and_payer(day: CashDay) -> None:
    h = history(day, day.house, day.reg.clerk, accounting=False)
    assert cells(h)[0] == (
        WHEN,
        "Carol Clerk",
        "Payment, receipt 2026-0001, $439.00",
        "Paid by",
        "",
        "Badger State Builders LLC, check 1042 (receipt total $579.00)",
    )
    # The receipt's allocation and its two ledger postings are not rows of their own.
    assert [r.what for r in h.rows if "receipt" in r.what.lower()] == [
        "Payment, receipt 2026-0001, $439.00"
    ]


def test_a_void_a_refund_and_a_correction_read_in_words(day: CashDay) -> None:
    wiring = cells(history(day, day.wiring, day.reg.clerk, accounting=False))
    assert wiring[:3] == [
        (
            WHEN,
            "Carol Clerk",
            "Payment, receipt 2026-0003, $168.00",
            "Paid by",
            "",
            "Anna Schmidt, cash",
        ),
        (
            WHEN,
            "Carol Clerk",
            "Receipt 2026-0002 voided: typed on the wrong permit",
            "Amount",
            "",
            "−$100.00",
        ),
        (
            WHEN,
            "Carol Clerk",
            "Payment, receipt 2026-0002, $100.00",
            "Paid by",
            "",
            "Anna Schmidt, cash",
        ),
    ]
    reroof = cells(history(day, day.reroof, day.reg.clerk, accounting=False))
    assert reroof[0] == (
        WHEN,
        "Terry Treasurer",
        "Refund, check 20455, $70.00",
        "Paid to",
        "",
        "Badger State Builders LLC",
    )
    assert reroof[1:3] == [
        (
            WHEN,
            "Ivan Inspector",
            "Fee corrected: Other: roofing, siding, fencing",
            "Amount",
            "",
            "−$70.00",
        ),
        ("", "", "", "Reason", "", "typo"),
    ]


# An ISO date or time, a UTC offset, microseconds, '#17', a raw column name, a bare number.
_NOT_FOR_A_CLERK = re.compile(r"\d{4}-\d{2}-\d{2}\b|T\d\d:|[+-]\d\d:\d\d|\.\d{6}|#\d|_id\b|_")


_COUNTS = ("Dwelling units", "Floor area (sq ft)", "Items")


@pytest.mark.parametrize("accounting", [False, True])
def test_no_internal_id_iso_time_or_column_name_is_shown(day: CashDay, accounting: bool) -> None:
    for permit_id in (day.house, day.reroof, day.wiring):
        for row in history(day, permit_id, day.reg.treasurer, accounting).rows:
            for text in (row.when, row.who, row.what, row.field, row.old, row.new):
                assert not _NOT_FOR_A_CLERK.search(text), (text, row)
                # A bare number is a count the field names, never an id column.
                assert not text.isdigit() or row.field in _COUNTS, (text, row)
            assert re.fullmatch(r"\d\d/\d\d/\d{4} \d{1,2}:\d\d [AP]M", row.when)
            assert row.who in ("Carol Clerk", "Ivan Inspector", "Terry Treasurer")


def test_only_the_treasurer_can_show_the_accounting_rows(day: CashDay) -> None:
    clerk = history(day, day.house, day.reg.clerk, accounting=True)
    assert not clerk.can_show_accounting and not clerk.show_accounting
    assert not any(r.accounting for r in clerk.rows)

    treasurer = history(day, day.house, day.reg.treasurer, accounting=False)
    assert treasurer.can_show_accounting
    summary = cells(treasurer)[0]
    treasurer.set_show_accounting(True)
    assert cells(treasurer)[:4] == [
        summary,
        ("", "", "Allocated to this permit", "Receipt 2026-0001", "", "$439.00"),
        ("", "", "Ledger entry, receipt", "100-24210 State seal payable", "", "$35.00"),
        ("", "", "Ledger entry, receipt", "100-44300 Building permits", "", "$404.00"),
    ]
    reroof = history(day, day.reroof, day.reg.treasurer, accounting=True)
    assert cells(reroof)[:3] == [
        (
            WHEN,
            "Terry Treasurer",
            "Refund, check 20455, $70.00",
            "Paid to",
            "",
            "Badger State Builders LLC",
        ),
        ("", "", "Refund", "Reason", "", "$70.00 was paid beyond the fees charged."),
        ("", "", "Ledger entry, refund", "100-44300 Building permits", "", "−$70.00"),
    ]
    treasurer.set_show_accounting(False)
    assert cells(treasurer)[0] == summary and not any(r.accounting for r in treasurer.rows)


def test_the_tab_offers_the_toggle_to_the_treasurer_only(qtbot: QtBot, day: CashDay) -> None:
    for actor, offered in ((day.reg.clerk, False), (day.reg.treasurer, True)):
        context = PermitContext(day.database, make_session(day.database, actor), day.house)
        tab = HistoryTab(context)
        qtbot.addWidget(tab)
        with day.database.read() as conn:
            detail = queries.permit_detail(conn, day.house)
            assert detail is not None
            tab.load(conn, detail)
        assert tab.accounting.text() == ACCOUNTING_TOGGLE
        assert tab.accounting.isVisibleTo(tab) is offered
        rows = tab.model.rowCount()
        if offered:
            tab.accounting.setChecked(True)
            assert tab.model.rowCount() == rows + 3  # the allocation and two ledger postings
            assert tab.model.index(1, 2).data() == "Allocated to this permit"
