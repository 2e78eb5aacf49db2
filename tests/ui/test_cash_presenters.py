"""The Cashier and Treasurer presenters (no Qt) over a register made through the services:
what the clerk and the treasurer read and are told, in their words and figures."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.cashiering import PaymentMethod, RefundGround
from desk.errors import RuleViolation, ValidationError
from desk.services import cashiering as cash
from tests.cashbook import DAY, CashDay, open_day, turned_over
from ui.app import make_session
from ui.presenters.cashier import CashierPresenter, SqlCashier
from ui.presenters.session import Session
from ui.presenters.treasurer import (
    GROUNDS,
    DailyClosePresenter,
    ReconciliationPresenter,
    RefundPresenter,
    ReturnedCheckPresenter,
    SqlTreasury,
    TurnoversPresenter,
)

D = Decimal


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(sqlite_url(tmp_path / "p.db"))
    try:
        yield database
    finally:
        database.close()


def session_of(day: CashDay, who: str = "clerk") -> Session:
    actor = getattr(day.reg, who)
    return make_session(day.database, actor)


def cashier(day: CashDay, who: str = "clerk") -> CashierPresenter:
    backend = SqlCashier(day.database, day.clock, session_of(day, who))
    return CashierPresenter(backend, day.reg.municipality_id, "glendale", day.clock.today())


def treasury(day: CashDay, who: str = "treasurer") -> SqlTreasury:
    return SqlTreasury(day.database, day.clock, session_of(day, who))


def owing_day(db: Database) -> CashDay:
    """The cashbook's day, plus a re-inspection fee ($70.00) on the new dwelling and on the
    reroof (Anna Schmidt owns both; Badger State Builders builds the dwelling)."""
    from desk.fees.engine import QuoteItem

    day = open_day(db, FixedClock(DAY))
    for permit_id in (day.house, day.reroof):
        cash.add_fee_line(
            db.uow(), day.clock, day.reg.inspector, permit_id, QuoteItem("REINSPECTION", D(1)), "x"
        )
    return day


# --- the cashier ---------------------------------------------------------------------------


def test_the_search_lists_what_each_permit_owes_and_owing_only_keeps_those_due(
    db: Database,
) -> None:
    day = owing_day(db)
    p = cashier(day)
    assert p.search_summary.startswith("Type a permit number")
    p.search("schmidt")
    cells = {r.permit.permit_id: r.cells() for r in p.results}
    assert cells[day.house][5:] == ("$439.00", "$70.00")
    assert cells[day.wiring][5:] == ("$168.00", "$0.00")
    house = next(r for r in p.results if r.permit.permit_id == day.house)
    assert house.tooltip == (
        f"Application #{day.house}: New one- or two-family dwelling\n"
        "Charged $509.00, paid $439.00, due $70.00"
    )
    assert p.search_summary == "3 permits found, 2 with money due. Enter adds one."
    p.owing_only = True
    p.search()
    assert {r.permit.permit_id for r in p.results} == {day.house, day.reroof}


def test_a_check_for_two_permits_says_the_split_then_takes_a_numbered_receipt(
    db: Database,
) -> None:
    day = owing_day(db)
    p = cashier(day)
    p.owing_only = True
    p.search("")
    for row in range(len(p.results)):
        p.add_result(row)
    assert p.payer_name == "Anna Schmidt"  # the reroof's owner (it has no contractor)
    assert [line.cells()[2:] for line in p.lines] == [("$70.00", "70.00"), ("$70.00", "70.00")]
    assert p.allocation_summary == "$140.00 to 2 permits."
    p.tender.amount_text = "150.00"
    assert p.allocation_summary == (
        "$140.00 to 2 permits; $10.00 more than the permits owe is kept as credit for Anna Schmidt."
    )
    p.tender.amount_text = "100"
    assert p.allocation_summary == (
        "The shares add up to $140.00, more than the payment of $100.00."
    )
    p.tender.amount_text = ""
    p.set_line_amount(1, "seventy")
    with pytest.raises(ValidationError) as e:
        p.payment_input()
    assert e.value.field.startswith("amount for Application #")
    p.set_line_amount(1, "70.00")
    with pytest.raises(ValidationError) as e:
        p.take()  # a check without its number
    assert e.value.field == "check number"
    p.tender.check_number, p.tender.check_bank = "2210", "Associated Bank"
    result = p.take()
    assert result.receipt_number == "2026-0004"
    assert p.last_text == ("Receipt 2026-0004: $140.00 by check from Anna Schmidt for 2 permits.")
    assert p.lines == [] and p.payer_name == ""
    view = p.print_last()
    assert view is not None and not view.copy
    assert view.check_drawer == "Anna Schmidt"  # the payer, as the clerk left it blank


def test_the_days_receipts_say_which_may_be_voided_and_a_void_keeps_the_receipt(
    db: Database,
) -> None:
    day = open_day(db, FixedClock(DAY))
    p = cashier(day)
    p.load_receipts(DAY)
    assert [p.receipt_cells(r)[0::6] for r in p.receipts] == [
        ("2026-0001", "$579.00"),
        ("2026-0002", "$100.00"),
        ("2026-0003", "$168.00"),
    ]
    assert p.receipt_cells(p.receipts[1])[7] == "Void"
    assert p.receipts_summary == "3 receipts, $747.00 taken, 1 voided"
    assert p.can_void(1) == "Receipt 2026-0002 is already voided."
    assert p.can_void(2) == ""
    assert p.void(2, "paid twice") == "Receipt 2026-0003 is void."
    assert p.receipts_summary == "3 receipts, $579.00 taken, 2 voided"
    reprint = p.reprint(0)
    assert reprint.receipt_number == "2026-0001"
    day.clock.set(date(2026, 3, 3))
    p.today = date(2026, 3, 3)
    assert p.can_void(0) == "A receipt can be voided only on the day it was taken."


# --- the daily close -----------------------------------------------------------------------


def test_the_daily_close_shows_expected_against_counted_and_wants_an_explanation(
    db: Database,
) -> None:
    day = open_day(db, FixedClock(DAY))
    p = DailyClosePresenter(treasury(day, "clerk"), DAY, DAY)
    p.load()
    assert p.state == "Drawer Main, 03/02/2026: open, 3 receipts (1 voided)."
    assert p.rows()[0][:4] == ("Cash", "$268.00", "$100.00", "$168.00")
    p.counted_text = {PaymentMethod.CASH: "163", PaymentMethod.CHECK: "579.00"}
    assert p.rows()[0][4:] == ("$163.00", "−$5.00")
    assert p.totals()[3:] == ("$747.00", "$742.00", "−$5.00")
    assert p.preview == (
        "Counted $742.00 of $747.00 expected: $5.00 short — explain the difference."
    )
    with pytest.raises(ValidationError) as e:
        p.close()
    assert e.value.field == "explanation"
    p.counted_text[PaymentMethod.CARD] = "12.345"
    assert p.preview == "counted card: has more than two decimals"
    del p.counted_text[PaymentMethod.CARD]
    p.explanation = "change given twice"
    p.close()
    assert p.closed
    assert p.state.startswith("Drawer Main, 03/02/2026: closed ")
    assert p.state.endswith("by Carol Clerk, 3 receipts (1 voided); not yet turned over.")
    assert p.preview == "$5.00 short: change given twice"


# --- turnovers and the reconciliation -------------------------------------------------------


def test_a_turnover_is_delivered_and_a_difference_stays_flagged_until_resolved(
    db: Database,
) -> None:
    from tests.cashbook import close_the_day

    day = open_day(db, FixedClock(DAY))
    close_the_day(day)
    clerk = TurnoversPresenter(treasury(day, "clerk"), DAY)
    clerk.load()
    assert [clerk.close_cells(c) for c in clerk.open_closes] == [
        ("03/02/2026", "Main", "$747.00", "$742.00", "−$5.00", "change given twice")
    ]
    assert clerk.summary == "1 closed day chosen: $747.00 collected, $742.00 counted."
    turnover = clerk.create()
    assert clerk.open_closes == []
    (row,) = clerk.turnovers
    assert clerk.turnover_cells(row)[0:6] == (
        str(turnover),
        "03/02/2026",
        "Carol Clerk",
        "1",
        "$747.00",
        "$742.00",
    )
    assert clerk.turnover_cells(row)[10] == "Awaiting the treasurer"
    with pytest.raises(Exception, match="only a user with the role"):
        clerk.acknowledge(turnover, DAY, "DEP-1", "742.00")
    desk = TurnoversPresenter(treasury(day), DAY)
    desk.load()
    assert desk.acknowledge(turnover, DAY, "DEP-1", "740.00") == (
        f"Turnover #{turnover} is acknowledged with a difference of −$2.00; it stays flagged "
        "until the difference is resolved."
    )
    assert desk.turnover_cells(desk.turnovers[0])[9:] == ("−$2.00", "Difference flagged")
    recon = ReconciliationPresenter(treasury(day), DAY, DAY)
    recon.load()
    assert "1 turnover with a difference flagged" in recon.notes
    desk.resolve(turnover, "bank miscount, corrected on the statement")
    assert desk.turnover_cells(desk.turnovers[0])[10] == "Acknowledged (difference resolved)"


def test_the_treasurer_closing_a_drawer_takes_the_money_into_her_custody(db: Database) -> None:
    """15.1.34(b)(4): the money she counts herself needs no turnover waiting for a second
    person; Acknowledge and Resolve say why they are greyed."""
    from desk.domain.cashiering import DRAWER_METHODS

    day = open_day(db, FixedClock(DAY))
    close = DailyClosePresenter(treasury(day), DAY, DAY)
    close.load()
    assert close.close_refusal is None
    expected = close.drawer_cash.expected
    close.counted_text = {m: f"{expected.get(m):.2f}" for m in DRAWER_METHODS}
    close.close()
    assert close.closed_message(treasurer=True) == (
        "The drawer Main is closed for 03/02/2026. The money is in your custody: turnover #1 "
        "is delivered and acknowledged by you; nothing waits for acknowledgment."
    )
    assert close.close_refusal == "The drawer Main is already closed for 03/02/2026."
    desk = TurnoversPresenter(treasury(day), DAY)
    desk.load()
    assert desk.open_closes == []
    (row,) = desk.turnovers
    assert desk.turnover_cells(row)[2] == "Terry Treasurer"
    assert desk.turnover_cells(row)[4] == desk.turnover_cells(row)[5] == "$747.00"
    assert desk.turnover_cells(row)[10] == "Acknowledged"
    assert desk.acknowledge_refusal(1) == ""
    assert desk.acknowledge_reason(1) == (
        "Turnover #1 was acknowledged on 03/02/2026 by Terry Treasurer."
    )
    assert desk.acknowledge_reason(None) == desk.resolve_reason(None) == "Choose a turnover."
    assert desk.resolve_reason(1) == "Turnover #1 has no open difference to resolve."
    recon = ReconciliationPresenter(treasury(day), DAY, DAY)
    recon.load()
    figures = {label: amount for label, amount, _ in recon.proof()}
    assert (figures["Receipts"], figures["− Voids"]) == ("$847.00", "$100.00")
    assert figures["= Net collections"] == figures["Turnovers acknowledged"] == "$747.00"
    assert figures["= Accounted for"] == "$747.00"
    assert (figures["+ Turnovers pending"], figures["+ Undeposited"]) == ("$0.00", "$0.00")


def test_a_clerks_turnover_waits_for_the_treasurer_and_says_so(db: Database) -> None:
    from tests.cashbook import close_the_day

    day = open_day(db, FixedClock(DAY))
    close_the_day(day)
    clerk = TurnoversPresenter(treasury(day, "clerk"), DAY)
    clerk.load()
    turnover = clerk.create()
    desk = TurnoversPresenter(treasury(day), DAY)
    desk.load()
    assert desk.acknowledge_reason(turnover) is None
    assert clerk.acknowledge_reason(turnover) == (
        "You delivered this turnover; another person (the treasurer) acknowledges it."
    )


def test_the_reconciliation_proves_the_money_line_by_line(db: Database) -> None:
    day = turned_over(db, FixedClock(DAY))
    p = ReconciliationPresenter(treasury(day), DAY, DAY)
    p.load()
    assert p.proof() == [
        ("Receipts", "$847.00", False),
        ("− Voids", "$100.00", False),
        ("− Returned checks (NSF)", "$0.00", False),
        ("− Refunds", "$0.00", False),
        ("= Net collections", "$747.00", True),
        ("Turnovers acknowledged", "$747.00", False),
        ("+ Turnovers pending", "$0.00", False),
        ("+ Undeposited", "$0.00", False),
        ("= Accounted for", "$747.00", True),
    ]
    assert p.verdict.startswith("Balanced")
    assert p.notes == "Over/short at the daily closes −$5.00; payers' credits $0.00 → $0.00."
    seal = next(r for r in p.account_rows() if r[0] == "100-24210")
    assert seal == (
        "100-24210",
        "State seal payable",
        "Liability",
        "$0.00",
        "$35.00",
        "$0.00",
        "$0.00",
        "$0.00",
        "$0.00",
        "$35.00",
    )


# --- returned checks, refunds, credits ------------------------------------------------------


def test_a_returned_check_is_found_by_its_receipt_and_puts_the_permits_back_to_owing(
    db: Database,
) -> None:
    day = turned_over(db, FixedClock(DAY))
    p = ReturnedCheckPresenter(treasury(day))
    assert not p.find("2026-0099") and p.message == "No receipt numbered '2026-0099'."
    assert p.find("2026-0003") and not p.can_record
    assert p.message.endswith("Only a check can come back unpaid.")
    assert p.find("2026-0001") and p.can_record
    assert p.message.startswith(
        "Receipt 2026-0001 of 03/02/2026: $579.00 by check no. 1042, Associated Bank from "
        "Badger State Builders LLC for Application #"
    )
    day.clock.set(date(2026, 3, 9))
    assert p.record("Associated Bank notice 3/9: NSF") == (
        f"The check of receipt 2026-0001 is recorded as returned unpaid; Application "
        f"#{day.house}, Application #{day.reroof} owe $579.00 again."
    )
    assert cash.permit_balance(db.uow(), day.clock, day.house).due == D("439.00")
    assert p.message.endswith("It is already returned.")


def test_a_refund_is_quoted_in_the_ordinances_words_before_the_check_is_written(
    db: Database,
) -> None:
    day = open_day(db, FixedClock(DAY))
    cash.adjust_fee(db.uow(), day.clock, day.reg.inspector, day.house, "RES-NEW", D("-35"), "area")
    p = RefundPresenter(treasury(day), DAY)
    assert not p.find("2026-0001")
    assert p.find(f"#{day.house}")
    assert p.message == (
        f"Application #{day.house}, 6120 N Port Washington Rd (applied): $404.00 charged, "
        "$439.00 paid."
    )
    p.ground = RefundGround.WITHDRAWN
    p.quote()
    assert p.quote_text == (
        "No refund. The application is applied, not withdrawn; change its status first."
    )
    p.ground = RefundGround.OVERPAYMENT
    p.quote()
    assert p.quote_text == "Refund $35.00. $35.00 was paid beyond the fees charged."
    clerk = RefundPresenter(treasury(day, "clerk"), DAY)
    clerk.find(f"#{day.house}")
    clerk.ground = RefundGround.OVERPAYMENT
    with pytest.raises(Exception, match="only a user with the role"):
        clerk.refund("5001", DAY)
    result = p.refund("5001", DAY)
    assert result.amount == D("35.00")
    assert p.message == "Refunded $35.00 by check 5001."
    with pytest.raises(RuleViolation):
        p.refund("5002", DAY)  # nothing is paid beyond the fees any more


def test_the_refund_dialog_offers_the_fee_grounds_and_not_a_street_deposit() -> None:
    # A street deposit goes back from the Deposits section on the engineer's order (15.1.43).
    assert [g.label for g in GROUNDS] == [
        "Plumbing permit voided at the plumber's request (15.1.42)",
        "Not filed with the state in time (Wisconsin Act 211, SPS 320.09)",
        "Application withdrawn before issuance",
        "Application denied",
        "Overpayment",
    ]


def test_an_overpayment_kept_as_credit_is_listed_and_refunded_by_check(db: Database) -> None:
    day = owing_day(db)
    p = cashier(day)
    p.search("schmidt")
    p.add(next(r.permit for r in p.results if r.permit.permit_id == day.house))
    p.tender.method = PaymentMethod.CASH
    p.tender.amount_text = "100.00"
    assert p.take().credited == D("30.00")
    assert p.last_text.endswith("; $30.00 kept as credit.")
    r = RefundPresenter(treasury(day), DAY)
    r.load_credits()
    assert [r.credit_cells(c) for c in r.credits] == [("Badger State Builders LLC", "$30.00")]
    assert r.refund_credit(0, "", "5003", DAY) == (
        "Refunded $30.00 of Badger State Builders LLC's credit by check 5003."
    )
    assert r.credits == []


# --- the permit window's Fees & Payments tab ---------------------------------------------------


def test_the_fees_tab_lists_added_lines_receipts_refunds_and_the_balance(db: Database) -> None:
    from db.permit_queries import permit_fee_lines
    from desk.fees.engine import QuoteItem
    from ui.presenters.permit_fees import PermitFeesPresenter

    day = turned_over(db, FixedClock(DAY))
    cash.add_fee_line(
        db.uow(), day.clock, day.reg.inspector, day.house, QuoteItem("REINSPECTION", D(1)), "late"
    )
    with db.read() as conn:
        lines = permit_fee_lines(conn, day.house)
    p = PermitFeesPresenter(lines, cash.permit_account(db.uow(), day.clock, day.house))
    assert [r.cells()[0] for r in p.rows] == ["RES-NEW", "RES-STATE-SEAL", "REINSPECTION"]
    assert p.rows[2].cells()[1] == "Re-inspection — added 03/02/2026 by Ivan Inspector: late"
    assert [(t.label, t.amount, t.grand) for t in p.totals()] == [
        ("Total fees", "$439.00", False),
        ("Added or corrected since", "$70.00", False),
        ("Charged", "$509.00", False),
        ("Paid", "$439.00", False),
        ("Balance due", "$70.00", True),
    ]
    assert p.balance_text == "$70.00 is due of $509.00 charged."
    assert p.payments == (("2026-0001", "03/02/2026", "Badger State Builders LLC", "Check",
                           "$439.00", ""),)  # fmt: skip
    # The count over the table adds up to its three rows.
    assert p.source.startswith(
        "2 lines assessed 03/02/2026, 1 line added or corrected 03/02/2026, priced with the fee "
        "schedule"
    )


def test_a_fee_added_after_assessment_needs_what_its_item_is_priced_by() -> None:
    from desk.fees.loader import shipped_schedule
    from ui.presenters.permit_fees import fee_item_choices, fee_quote_item

    version = shipped_schedule("glendale").versions[0]
    assert ("REINSPECTION", "REINSPECTION — Re-inspection") in fee_item_choices(version)
    assert fee_quote_item(version, "REINSPECTION", "1", "").quantity == D(1)
    with pytest.raises(ValidationError) as e:
        fee_quote_item(version, "REINSPECTION", "", "")
    assert str(e.value) == "quantity: enter the count for REINSPECTION"
    with pytest.raises(ValidationError) as e:
        fee_quote_item(version, "REINSPECTION", "1", "50")
    assert e.value.field == "amount"
    assert fee_quote_item(version, "PLUMBING", "", "120").amount == D(120)
