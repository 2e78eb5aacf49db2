"""Cashiering on SQLite and PostgreSQL (issue 5): receipts numbered and split by GL account,
voids, returned checks, fees added later, refunds by the ordinances' rules and their roles, the
daily close, turnovers, and the treasurer's reconciliation, which must balance whatever the clerks
and the treasurer do (a property test)."""

from __future__ import annotations

import itertools
import multiprocessing as mp
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from db import schema
from db.database import Database, open_database
from db.migrate import check
from desk.clock import FixedClock
from desk.domain.cashiering import (
    AccountKind,
    AccountPurpose,
    Allocation,
    MethodTotals,
    PaymentMethod,
    Portion,
    RefundGround,
    Tender,
)
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.inspections import Result
from desk.domain.model import Party
from desk.errors import DuplicateRecord, PermissionDenied, RuleViolation, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering as cash
from desk.services import fees, permits
from desk.services.municipality import update_municipality
from tests.conftest import PgRegister, reset_postgres, workstation_check
from tests.factories import Register, application, seed_register

D = Decimal
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
)  # RES-NEW $404.00 (2,400 × 0.12 + 40%, rounded up) + state seal $35.00 = $439.00
REROOF = QuoteRequest(items=(QuoteItem("RES-OTHER", amount=D("100.00")),))  # $140.00


@dataclass
class Office:
    db: Database
    clock: FixedClock
    reg: Register
    house: int  # the new dwelling, $439.00
    reroof: int  # a reroof, $140.00
    checks: int = 1042  # the payer's checkbook: each check receipted once

    @property
    def uow(self) -> Any:
        return self.db.uow()

    def pay(
        self,
        *allocations: tuple[int, str],
        amount: str | None = None,
        method: PaymentMethod = PaymentMethod.CHECK,
        actor: Any = None,
        payer: str = "Badger State Builders LLC",
        drawer: str = cash.DEFAULT_DRAWER,
        **tender: str,
    ) -> cash.PaymentResult:
        total = D(amount) if amount else sum((D(a) for _, a in allocations), D(0))
        if method is PaymentMethod.CHECK:
            self.checks += 1
            tender = {
                "check_number": str(self.checks - 1),
                "check_drawer": payer,
                "check_bank": "Associated Bank",
            } | tender
        if method is PaymentMethod.CARD:
            tender = {"card_reference": "AUTH 55120"} | tender
        return cash.take_payment(
            self.uow,
            self.clock,
            actor or self.reg.clerk,
            cash.PaymentInput(
                municipality_id=self.reg.municipality_id,
                tender=Tender(method, total, **tender),
                allocations=tuple(Allocation(p, D(a)) for p, a in allocations),
                payer_name=payer,
                drawer=drawer,
            ),
        )

    def due(self, permit_id: int) -> Decimal:
        return cash.permit_balance(self.uow, self.clock, permit_id).due

    def close(self, drawer: str = cash.DEFAULT_DRAWER, **counted: str) -> int:
        """Close today's drawer; counted as expected unless amounts are given."""
        day = self.clock.today()
        expected = cash.drawer_day(self.uow, self.reg.municipality_id, drawer, day).expected
        figures = MethodTotals(**{k: D(v) for k, v in counted.items()}) if counted else expected
        return cash.close_day(
            self.uow, self.clock, self.reg.clerk, self.reg.municipality_id, drawer, day, figures
        )


def _office(database: Database, clock: FixedClock) -> Office:
    reg = seed_register(database, clock)
    uow = database.uow()
    fees.assess_fees(uow, clock, reg.clerk, reg.permit_id, NEW_HOUSE)
    reroof = permits.take_application(uow, clock, reg.clerk, application(reg))
    fees.assess_fees(uow, clock, reg.clerk, reroof, REROOF)
    return Office(database, clock, reg, reg.permit_id, reroof)


@pytest.fixture
def office(database: Database, clock: FixedClock) -> Office:
    return _office(database, clock)


def _rows(db: Database, table: Any, **where: Any) -> list[Any]:
    with db.engine.connect() as conn:
        stmt = select(table)
        for k, v in where.items():
            stmt = stmt.where(table.c[k] == v)
        return list(conn.execute(stmt.order_by(table.c.id)))


# --- payments and receipts -----------------------------------------------------------------------


def test_one_check_pays_two_permits_with_one_receipt_split_by_gl_account(office: Office) -> None:
    paid = office.pay((office.house, "439.00"), (office.reroof, "140.00"))
    assert (paid.receipt_number, paid.credited) == ("2026-0001", D("0.00"))
    assert office.due(office.house) == 0 and office.due(office.reroof) == 0
    first = cash.print_receipt(office.uow, office.clock, office.reg.clerk, paid.payment_id)
    assert not first.copy
    assert first.letterhead[0] == "City of Glendale"
    assert (first.receipt_number, first.amount, first.method_label) == (
        "2026-0001",
        D("579.00"),
        "Check",
    )
    assert (first.check_number, first.check_bank, first.clerk) == (
        "1042",
        "Associated Bank",
        "Carol Clerk",
    )
    assert [(p.number, p.address, p.amount) for p in first.permits] == [
        (f"Application #{office.house}", "6120 N Port Washington Rd", D("439.00")),
        (f"Application #{office.reroof}", "6120 N Port Washington Rd", D("140.00")),
    ]
    assert [(a.number, a.name, a.amount) for a in first.accounts] == [
        ("100-44300", "Building permits", D("544.00")),
        ("100-24210", "State seal payable", D("35.00")),
    ]
    again = cash.print_receipt(office.uow, office.clock, office.reg.clerk, paid.payment_id)
    assert again.copy  # a reprint says COPY
    # Every write is in the audit trail, with the permit where there is one.
    audit = _rows(office.db, schema.audit_event, entity="gl_entry")
    assert {r.permit_id for r in audit} == {office.house, office.reroof}
    assert (
        _rows(office.db, schema.audit_event, entity="payment")[0].user_id
        == office.reg.clerk.user_id
    )


def test_a_partial_payment_leaves_the_rest_due_and_issuance_says_how_much(office: Office) -> None:
    office.pay((office.house, "200.00"), method=PaymentMethod.CASH)
    with office.uow as uow:
        assert cash.unpaid_shortfall(uow, office.house) == (
            "Fees of $439.00 are assessed; $200.00 is paid; $239.00 is due (15.1.21)."
        )
    balance = cash.permit_balance(office.uow, office.clock, office.house)
    # Oldest line first: the permit fee is partly paid, the state seal not yet.
    assert [(x.code, x.account, x.due, x.paid) for x in balance.lines] == [
        ("RES-NEW", "100-44300", D("404.00"), D("200.00")),
        ("RES-STATE-SEAL", "100-24210", D("35.00"), D("0.00")),
    ]
    office.pay((office.house, "239.00"), method=PaymentMethod.CARD)
    with office.uow as uow:
        assert cash.unpaid_shortfall(uow, office.house) is None


def test_a_permit_with_no_fees_assessed_has_nothing_due(office: Office) -> None:
    bare = permits.take_application(
        office.uow, office.clock, office.reg.clerk, application(office.reg)
    )
    with office.uow as uow:
        assert cash.unpaid_shortfall(uow, bare) is None


def test_paying_more_than_is_due_is_refused_or_kept_as_credit(office: Office) -> None:
    with pytest.raises(ValidationError) as e:
        office.pay((office.reroof, "150.00"))
    assert "only $140.00 is due" in e.value.message
    assert (
        cash.drawer_day(
            office.uow, office.reg.municipality_id, "Main", office.clock.today()
        ).receipts
        == ()
    )
    paid = office.pay((office.reroof, "140.00"), amount="200.00")
    assert paid.credited == D("60.00")
    credit = cash.credit_balance(
        office.uow, office.reg.municipality_id, None, "badger state  builders llc"
    )
    assert credit == D("60.00")
    # The credit pays part of the house; it is a receipt too, but no money changes hands.
    used = office.pay((office.house, "60.00"), method=PaymentMethod.CREDIT)
    assert used.receipt_number == "2026-0002"
    assert (
        cash.credit_balance(
            office.uow, office.reg.municipality_id, None, "Badger State Builders LLC"
        )
        == 0
    )
    assert office.due(office.house) == D("379.00")
    with pytest.raises(ValidationError, match=r"has \$0.00 of credit"):
        office.pay((office.house, "10.00"), method=PaymentMethod.CREDIT)
    day = cash.drawer_day(office.uow, office.reg.municipality_id, "Main", office.clock.today())
    assert day.expected.total == D("200.00")


def test_receipt_numbers_run_on_without_gaps_when_a_payment_is_refused(office: Office) -> None:
    office.pay((office.reroof, "40.00"))
    with pytest.raises(ValidationError):
        office.pay((office.reroof, "500.00"))
    assert office.pay((office.reroof, "100.00")).receipt_number == "2026-0002"


# --- voids ---------------------------------------------------------------------------------------


def test_a_receipt_is_voided_the_same_day_with_a_reason_and_both_stay_visible(
    office: Office,
) -> None:
    paid = office.pay((office.house, "439.00"))
    with pytest.raises(ValidationError) as e:
        cash.void_payment(office.uow, office.clock, office.reg.clerk, paid.payment_id, " ")
    assert e.value.field == "reason"
    cash.void_payment(office.uow, office.clock, office.reg.clerk, paid.payment_id, "wrong permit")
    assert office.due(office.house) == D("439.00")
    view = cash.receipt(office.uow, paid.payment_id)
    assert view.status == "VOID — voided 03/02/2026: wrong permit"
    assert view.amount == D("439.00")  # the receipt is still there, as it was
    entries = _rows(office.db, schema.gl_entry, payment_id=paid.payment_id)
    assert sorted(e.source for e in entries) == ["receipt", "receipt", "void", "void"]
    with pytest.raises(RuleViolation, match="already voided"):
        cash.void_payment(office.uow, office.clock, office.reg.clerk, paid.payment_id, "again")


def test_a_receipt_cannot_be_voided_the_next_day_or_after_the_close(office: Office) -> None:
    yesterday = office.pay((office.house, "100.00"))
    office.clock.advance(timedelta(days=1))
    with pytest.raises(RuleViolation) as e:
        cash.void_payment(office.uow, office.clock, office.reg.clerk, yesterday.payment_id, "typo")
    assert "was taken on 03/02/2026; a receipt can be voided only on the day" in str(e.value)
    today = office.pay((office.house, "50.00"), method=PaymentMethod.CASH)
    office.close()
    with pytest.raises(RuleViolation, match="The drawer Main is closed for 03/03/2026"):
        cash.void_payment(office.uow, office.clock, office.reg.clerk, today.payment_id, "typo")
    with pytest.raises(RuleViolation, match="already closed"):
        office.pay((office.house, "10.00"), method=PaymentMethod.CASH)
    office.pay((office.house, "10.00"), method=PaymentMethod.CASH, drawer="Permits window")


# --- returned checks -----------------------------------------------------------------------------


def _deposit(office: Office) -> int:
    close = office.close()
    return cash.create_turnover(
        office.uow, office.clock, office.reg.clerk, office.reg.municipality_id, [close]
    )


def test_a_returned_check_puts_the_permit_back_to_unpaid_with_the_nsf_charge(
    office: Office,
) -> None:
    update_municipality(  # Administration → Municipality
        office.uow,
        office.clock,
        office.reg.admin,
        office.reg.municipality_id,
        {"nsf_charge": "30.00"},
    )
    paid = office.pay((office.house, "439.00"))
    with pytest.raises(RuleViolation, match="not been turned over"):
        cash.return_nsf(office.uow, office.clock, office.reg.treasurer, paid.payment_id, "notice")
    _deposit(office)
    office.clock.advance(timedelta(days=6))
    with pytest.raises(PermissionDenied):
        cash.return_nsf(office.uow, office.clock, office.reg.clerk, paid.payment_id, "notice")
    cash.return_nsf(
        office.uow,
        office.clock,
        office.reg.treasurer,
        paid.payment_id,
        "Associated Bank NSF 3/6 #88121",
    )
    assert office.due(office.house) == D("469.00")  # $439.00 again plus the $30.00 charge
    nsf = _rows(office.db, schema.payment_reversal, payment_id=paid.payment_id)[0]
    assert (nsf.kind, nsf.bank_notice) == ("nsf", "Associated Bank NSF 3/6 #88121")
    assert cash.receipt(office.uow, paid.payment_id).status == "CHECK RETURNED UNPAID — 03/08/2026"
    charge = _rows(office.db, schema.fee_adjustment, permit_id=office.house)[0]
    assert (charge.code, charge.amount) == ("NSF-CHARGE", D("30.00"))


def test_only_a_check_comes_back_unpaid(office: Office) -> None:
    paid = office.pay((office.house, "439.00"), method=PaymentMethod.CASH)
    with pytest.raises(RuleViolation, match="paid by cash, not check"):
        cash.return_nsf(office.uow, office.clock, office.reg.treasurer, paid.payment_id, "notice")


# --- fees after assessment -----------------------------------------------------------------------


def test_reinspection_and_failure_to_call_fees_are_added_lines_with_reason_and_user(
    office: Office,
) -> None:
    uow, clock, inspector = office.uow, office.clock, office.reg.inspector
    office.pay((office.house, "439.00"))
    assert cash.add_fee_line(
        uow,
        clock,
        inspector,
        office.house,
        QuoteItem("REINSPECTION", quantity=D(1)),
        "failed framing",
    ) == D("70.00")
    # 15.1.21(a)(13): the contractor's first failure to call, then the second ($50, $100 + 40%).
    assert cash.add_fee_line(
        uow, clock, inspector, office.house, QuoteItem("FAIL-TO-CALL"), "no call for footing"
    ) == D("70.00")
    assert fees.failure_to_call_occurrence(uow, office.house) == 2
    assert cash.add_fee_line(
        uow, clock, inspector, office.house, QuoteItem("FAIL-TO-CALL"), "no call for rough-in"
    ) == D("140.00")
    assert office.due(office.house) == D("280.00")
    lines = _rows(office.db, schema.fee_adjustment, permit_id=office.house)
    assert (lines[0].code, lines[0].reason, lines[0].by_user_id) == (
        "REINSPECTION",
        "failed framing",
        inspector.user_id,
    )
    with pytest.raises(PermissionDenied):
        cash.add_fee_line(
            uow,
            clock,
            office.reg.treasurer,
            office.house,
            QuoteItem("REINSPECTION", quantity=D(1)),
            "x",
        )
    # The assessed lines themselves are never edited.
    assessed = _rows(office.db, schema.permit_fee_line, permit_id=office.house)
    assert [x.amount for x in assessed] == [D("404.00"), D("35.00")]


def test_a_fee_lowered_after_payment_is_an_overpayment_the_treasurer_refunds(
    office: Office,
) -> None:
    office.pay((office.reroof, "140.00"))
    with pytest.raises(ValidationError, match="cannot go below"):
        cash.adjust_fee(
            office.uow,
            office.clock,
            office.reg.inspector,
            office.reroof,
            "RES-OTHER",
            D("-150.00"),
            "x",
        )
    cash.adjust_fee(
        office.uow,
        office.clock,
        office.reg.inspector,
        office.reroof,
        "RES-OTHER",
        D("-70.00"),
        "entered twice the contract amount",
    )
    assert office.due(office.reroof) == D("-70.00")
    r = cash.refund(
        office.uow,
        office.clock,
        office.reg.treasurer,
        cash.RefundInput(office.reroof, RefundGround.OVERPAYMENT, "20455", office.clock.today()),
    )
    assert (r.amount, r.reason) == (D("70.00"), "$70.00 was paid beyond the fees charged.")
    assert office.due(office.reroof) == 0


def test_the_same_check_receipted_twice_is_refused_naming_its_receipt_until_voided(
    office: Office,
) -> None:
    first = office.pay((office.reroof, "40.00"), check_number="2210")
    same = {"check_number": "2210", "check_bank": " associated  BANK "}
    with pytest.raises(DuplicateRecord) as e:
        office.pay((office.reroof, "40.00"), **same)
    assert e.value.field == "check number"
    assert e.value.existing_id == first.payment_id
    assert str(e.value) == (
        "check number: Check 2210 from Badger State Builders LLC is already on receipt "
        f"{first.receipt_number} of 03/02/2026."
    )
    # Another payer's checkbook may have the same number.
    office.pay((office.reroof, "40.00"), check_number="2210", payer="Anna Schmidt")
    # A voided receipt's check may be receipted again (typed on the wrong permit).
    cash.void_payment(office.uow, office.clock, office.reg.clerk, first.payment_id, "wrong permit")
    office.pay((office.house, "40.00"), **same)
    assert office.due(office.reroof) == D("100.00")  # $140.00 less Anna Schmidt's $40.00


def test_a_refund_check_number_already_written_is_refused(office: Office) -> None:
    office.pay((office.reroof, "140.00"))
    office.pay((office.house, "439.00"))
    for pid in (office.reroof, office.house):
        cash.adjust_fee(
            office.uow,
            office.clock,
            office.reg.inspector,
            pid,
            "RES-OTHER" if pid == office.reroof else "RES-NEW",
            D("-10.00"),
            "typo",
        )
    cash.refund(
        office.uow,
        office.clock,
        office.reg.treasurer,
        cash.RefundInput(office.reroof, RefundGround.OVERPAYMENT, "20455", office.clock.today()),
    )
    with pytest.raises(DuplicateRecord) as e:
        cash.refund(
            office.uow,
            office.clock,
            office.reg.treasurer,
            cash.RefundInput(office.house, RefundGround.OVERPAYMENT, "20455", office.clock.today()),
        )
    assert str(e.value) == (
        "check number: Refund check 20455 was already written on 03/02/2026 "
        "(to Badger State Builders LLC)."
    )
    assert office.due(office.house) == D("-10.00")  # nothing was refunded


def _issue(office: Office, permit_id: int) -> None:
    """Meet the issuance conditions as the office would (licences on file, every checklist item
    received) and issue the permit."""
    from desk.domain.checklists import ItemKind, ItemState
    from desk.domain.credentials import requirement
    from desk.domain.kinds import kind_by_code
    from desk.domain.model import Credential
    from desk.services import checklists

    uow, clock, inspector = office.uow, office.clock, office.reg.inspector
    with uow:
        permit = uow.permits.get(permit_id)
        muni = uow.municipalities.get(permit.municipality_id)
        kind = kind_by_code(muni.key, permit.kind)
        needed = [
            (link.party.id, need.kinds[0])
            for link in permit.parties
            if (need := requirement(link.role, kind)) is not None and not link.party.credentials
        ]
    for party_id, credential_kind in needed:
        permits.add_credential(
            uow,
            clock,
            inspector,
            party_id,
            Credential(kind=credential_kind, number=f"L-{party_id}"),
        )
    _, lines = checklists.checklist_lines(uow, permit_id)
    for line in lines:
        if line.state is ItemState.OPEN:
            checklists.mark_item(
                uow,
                clock,
                inspector,
                permit_id,
                line.code,
                ItemState.RECEIVED,
                value_date=clock.today() if line.kind is ItemKind.DATE else None,
                value_text="on file" if line.kind is ItemKind.TEXT else None,
            )
    permits.issue_permit(uow, clock, inspector, permit_id)


# --- refunds by the ordinances' rules ------------------------------------------------------------


def _plumbing_permit(office: Office) -> int:
    uow, clock, reg = office.uow, office.clock, office.reg
    plumber = permits.add_party(
        uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name="Milwaukee Plumbing Co")
    )
    pid = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="PLUMBING",
            parcel_id=reg.parcel_id,
            description="Replace water heater and laundry tub",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id), (PartyRole.PLUMBER, plumber)),
        ),
    )
    # $60.00 on the Uniform Plumbing Permit Application + 40% = $84.00.
    fees.assess_fees(
        uow, clock, reg.clerk, pid, QuoteRequest(items=(QuoteItem("PLUMBING", amount=D("60.00")),))
    )
    office.pay((pid, "84.00"), payer="Milwaukee Plumbing Co")
    _issue(office, pid)
    return pid


def test_a_plumbing_permit_voided_before_any_inspection_refunds_all_but_ten_dollars(
    office: Office,
) -> None:
    pid = _plumbing_permit(office)
    uow, clock = office.uow, office.clock
    permits.void_permit(uow, clock, office.reg.inspector, pid, "voided at the plumber's request")
    with pytest.raises(PermissionDenied):
        cash.refund(
            uow,
            clock,
            office.reg.clerk,
            cash.RefundInput(pid, RefundGround.PLUMBING_VOID, "20456", clock.today()),
        )
    with pytest.raises(ValidationError) as e:
        cash.refund(
            uow,
            clock,
            office.reg.treasurer,
            cash.RefundInput(pid, RefundGround.PLUMBING_VOID, "", clock.today()),
        )
    assert e.value.field == "check number"
    r = cash.refund(
        uow,
        clock,
        office.reg.treasurer,
        cash.RefundInput(pid, RefundGround.PLUMBING_VOID, "20456", date(2026, 3, 4)),
    )
    assert (r.amount, r.kept) == (D("74.00"), D("10.00"))
    row = _rows(office.db, schema.refund, id=r.refund_id)[0]
    assert (row.check_number, row.check_date, row.payer_name) == (
        "20456",
        date(2026, 3, 4),
        "Milwaukee Plumbing Co",
    )
    assert office.due(pid) == 0
    rec = cash.reconciliation(uow, clock, office.reg.municipality_id, clock.today(), clock.today())
    assert rec.account("100-44310").closing == D("10.00")  # the clerical expense stays revenue
    assert rec.refunds == D("74.00") and rec.balanced and rec.gl_balanced


def _inspection(office: Office, pid: int, result: Result | None, on: date) -> None:
    """The plumber calls for the rough-in; the inspector records `result` on `on` (None: the
    request stays open, the inspection is not made)."""
    from desk.services import inspections as insp

    office.clock.set(on)
    r = insp.request_inspection(
        office.uow,
        office.clock,
        office.reg.clerk,
        insp.RequestInput(pid, "PLB-ROUGH-IN", "Milwaukee Plumbing Co", "(414) 555-0142"),
    )
    if result is not None:
        items = "Cleanout missing" if result is Result.REJECTED else ""
        insp.record_result(
            office.uow,
            office.clock,
            office.reg.inspector,
            insp.ResultInput(r.inspection_id, result, correction_items=items),
        )


@pytest.mark.parametrize(
    ("result", "made"),
    [
        (Result.PASSED, "Plumbing rough-in passed 03/04/2026"),
        (Result.REJECTED, "Plumbing rough-in rejected 03/04/2026"),
    ],
)
def test_a_plumbing_permit_voided_after_an_inspection_was_made_refunds_nothing(
    office: Office, result: Result, made: str
) -> None:
    # 15.1.42: "In the event partial inspections have been made, the entire permit fee shall be
    # retained." The inspections made are read from the register, not typed by the treasurer.
    pid = _plumbing_permit(office)
    _inspection(office, pid, result, date(2026, 3, 4))
    uow, clock = office.uow, office.clock
    permits.void_permit(uow, clock, office.reg.inspector, pid, "voided at the plumber's request")
    assert [str(m) for m in cash.inspections_made(uow, pid)] == [made]
    quote = cash.refund_quote(uow, clock, pid, RefundGround.PLUMBING_VOID)
    assert (quote.amount, quote.kept) == (D("0.00"), D("84.00"))
    assert quote.reason == (
        f"1 inspection was made before the permit was voided ({made}): the entire permit fee is "
        "retained (15.1.42)."
    )
    with pytest.raises(RuleViolation, match="entire permit fee is retained"):
        cash.refund(
            uow,
            clock,
            office.reg.treasurer,
            cash.RefundInput(pid, RefundGround.PLUMBING_VOID, "20456", clock.today()),
        )
    assert _rows(office.db, schema.refund, permit_id=pid) == []


@pytest.mark.parametrize("result", [None, Result.CANCELLED])
def test_a_plumbing_inspection_requested_or_cancelled_was_not_made_and_ten_dollars_are_kept(
    office: Office, result: Result | None
) -> None:
    # 15.1.42 "before any inspections are made": a request without a result is not an inspection.
    pid = _plumbing_permit(office)
    _inspection(office, pid, result, date(2026, 3, 4))
    uow, clock = office.uow, office.clock
    permits.void_permit(uow, clock, office.reg.inspector, pid, "voided at the plumber's request")
    assert cash.inspections_made(uow, pid) == ()
    r = cash.refund(
        uow,
        clock,
        office.reg.treasurer,
        cash.RefundInput(pid, RefundGround.PLUMBING_VOID, "20456", clock.today()),
    )
    assert (r.amount, r.kept) == (D("74.00"), D("10.00"))


def test_no_refund_once_a_glendale_permit_is_issued(office: Office) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    office.pay((office.house, "439.00"))
    _issue(office, office.house)
    with pytest.raises(RuleViolation) as e:
        cash.refund(
            uow,
            clock,
            reg.treasurer,
            cash.RefundInput(office.house, RefundGround.WITHDRAWN, "20457", clock.today()),
        )
    assert str(e.value) == "No refund once a permit has been issued (15.1.21 NOTE)."


def test_an_act_211_refund_keeps_the_state_seal(office: Office) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    clock.set(date(2026, 3, 2))
    office.pay((office.house, "439.00"))
    _issue(office, office.house)
    early = cash.refund_quote(uow, clock, office.house, RefundGround.ACT_211)
    assert early.amount == 0
    assert "The filing deadline, 04/15/2026, has not passed yet" in early.reason
    clock.set(date(2026, 4, 16))
    r = cash.refund(
        uow,
        clock,
        reg.treasurer,
        cash.RefundInput(office.house, RefundGround.ACT_211, "20458", clock.today()),
    )
    assert (r.amount, r.kept) == (D("404.00"), D("35.00"))
    assert office.due(office.house) == 0
    rec = cash.reconciliation(uow, clock, reg.municipality_id, date(2026, 1, 1), date(2026, 12, 31))
    assert rec.account("100-24210").closing == D("35.00")  # still owed to the state
    assert rec.account("100-44300").closing == D("0.00")


def test_a_withdrawn_application_is_refunded_in_full_by_glendales_setting(office: Office) -> None:
    from desk.domain.enums import PermitStatus
    from desk.services import lifecycle

    uow, clock, reg = office.uow, office.clock, office.reg
    office.pay((office.reroof, "140.00"))
    lifecycle.change_status(uow, clock, reg.clerk, office.reroof, PermitStatus.WITHDRAWN)
    r = cash.refund(
        uow,
        clock,
        reg.treasurer,
        cash.RefundInput(office.reroof, RefundGround.WITHDRAWN, "20459", clock.today()),
    )
    assert r.amount == D("140.00") and "refunded in full" in r.reason


def test_a_treasurer_cannot_take_an_application(office: Office) -> None:
    with pytest.raises(PermissionDenied, match="only a user with the role"):
        permits.take_application(
            office.uow, office.clock, office.reg.treasurer, application(office.reg)
        )


# --- GL accounts ---------------------------------------------------------------------------------


def test_an_administrator_maps_a_fee_to_another_account_and_receipts_follow(office: Office) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    rows = cash.gl_accounts(uow, clock, reg.municipality_id)
    seal = next(r for r in rows if r.number == "100-24210")
    assert (seal.kind, seal.codes) == (AccountKind.LIABILITY, ("RES-STATE-SEAL",))
    with pytest.raises(PermissionDenied):
        cash.map_fee_code(uow, clock, reg.clerk, reg.municipality_id, "RES-OTHER", "100-44370")
    cash.add_gl_account(
        uow,
        clock,
        reg.admin,
        reg.municipality_id,
        "100-44301",
        "Roofing permits",
        AccountKind.REVENUE,
    )
    cash.map_fee_code(uow, clock, reg.admin, reg.municipality_id, "RES-OTHER", "100-44301")
    paid = office.pay((office.reroof, "140.00"))
    view = cash.receipt(uow, paid.payment_id)
    assert [(a.number, a.amount) for a in view.accounts] == [("100-44301", D("140.00"))]


def test_the_administrative_cost_booked_apart_goes_to_its_own_account(office: Office) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    cash.add_gl_account(
        uow,
        clock,
        reg.admin,
        reg.municipality_id,
        "100-44390",
        "Administrative cost (15.1.21)",
        AccountKind.REVENUE,
        AccountPurpose.ADMIN_COST,
    )
    update_municipality(
        uow, clock, reg.admin, reg.municipality_id, {"admin_cost_account": "100-44390"}
    )
    balance = cash.permit_balance(uow, clock, office.house)
    assert [(x.code, x.portion, x.due) for x in balance.lines] == [
        ("RES-NEW", Portion.FEE, D("288.80")),
        ("RES-NEW", Portion.ADMIN, D("115.20")),
        ("RES-STATE-SEAL", Portion.FEE, D("35.00")),
    ]
    paid = office.pay((office.house, "439.00"))
    assert [(a.number, a.amount) for a in cash.receipt(uow, paid.payment_id).accounts] == [
        ("100-44300", D("288.80")),
        ("100-44390", D("115.20")),
        ("100-24210", D("35.00")),
    ]


# --- close, turnover, reconciliation -------------------------------------------------------------


def test_a_day_is_closed_turned_over_and_acknowledged_and_the_reconciliation_shows_it(
    office: Office,
) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    office.pay((office.house, "439.00"))
    office.pay((office.reroof, "140.00"), method=PaymentMethod.CASH, payer="Anna Schmidt")
    with pytest.raises(ValidationError, match=r"\$5.00 short"):
        office.close(cash="135.00", check="439.00")
    close = cash.close_day(
        uow,
        clock,
        reg.clerk,
        reg.municipality_id,
        "Main",
        clock.today(),
        MethodTotals(cash=D("135.00"), check=D("439.00")),
        "a five-dollar bill missing; reported",
    )
    row = _rows(office.db, schema.daily_close, id=close)[0]
    assert (row.expected_cash, row.counted_cash, row.over_short) == (
        D("140.00"),
        D("135.00"),
        D("-5.00"),
    )
    turnover = cash.create_turnover(uow, clock, reg.clerk, reg.municipality_id, [close])
    with pytest.raises(RuleViolation, match="already in turnover"):
        cash.create_turnover(uow, clock, reg.clerk, reg.municipality_id, [close])
    with pytest.raises(PermissionDenied):
        cash.acknowledge_turnover(
            uow, clock, reg.clerk, turnover, clock.today(), "DEP-1", D("574.00")
        )
    pending = cash.reconciliation(uow, clock, reg.municipality_id, clock.today(), clock.today())
    assert (pending.receipts, pending.pending, pending.acknowledged, pending.undeposited) == (
        D("579.00"),
        D("579.00"),
        D("0.00"),
        D("0.00"),
    )
    clock.advance(timedelta(days=1))
    diff = cash.acknowledge_turnover(
        uow, clock, reg.treasurer, turnover, clock.today(), "Assoc. Bank dep. 7781", D("570.00")
    )
    assert diff == D("-4.00")  # the bank counted $570.00 of the $574.00 delivered
    rec = cash.reconciliation(uow, clock, reg.municipality_id, date(2026, 3, 1), date(2026, 3, 31))
    assert (rec.receipts, rec.acknowledged, rec.pending, rec.undeposited) == (
        D("579.00"),
        D("579.00"),
        D("0.00"),
        D("0.00"),
    )
    assert rec.over_short == D("-5.00") and rec.balanced and rec.gl_balanced
    (t,) = rec.turnovers
    assert t.flagged and t.deposit_ref == "Assoc. Bank dep. 7781"
    sheet = cash.transmittal(uow, turnover)
    assert sheet.by_account == (
        ("100-24210", "State seal payable", D("35.00")),
        ("100-44300", "Building permits", D("544.00")),
    )
    assert (sheet.by_method.cash, sheet.by_method.check, sheet.cash_delivered) == (
        D("140.00"),
        D("439.00"),
        D("574.00"),
    )
    assert [(c.reference, c.name, c.number, c.amount) for c in sheet.checks] == [
        ("2026-0001", "Badger State Builders LLC", "1042", D("439.00"))
    ]
    assert (sheet.delivered_by, sheet.acknowledged_by) == ("Carol Clerk", "Terry Treasurer")
    cash.resolve_turnover_difference(
        uow, clock, reg.treasurer, turnover, "bank miscount, corrected on 3/5 statement"
    )
    rec = cash.reconciliation(uow, clock, reg.municipality_id, date(2026, 3, 1), date(2026, 3, 31))
    assert not rec.turnovers[0].flagged
    assert check(office.db.engine) == []


def test_whoever_delivers_a_turnover_cannot_acknowledge_it(office: Office) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    office.pay((office.reroof, "140.00"), method=PaymentMethod.CASH, actor=reg.treasurer)
    close = office.close()
    t = cash.create_turnover(uow, clock, reg.treasurer, reg.municipality_id, [close])
    with pytest.raises(RuleViolation, match="another treasurer acknowledges it"):
        cash.acknowledge_turnover(uow, clock, reg.treasurer, t, clock.today(), "DEP-2", D("140.00"))


def test_the_treasurers_own_drawer_is_in_her_custody_when_she_closes_it(office: Office) -> None:
    """15.1.34(b)(4): the office turns its fees over to the City Treasurer; what she took and
    counted herself needs no second person's acknowledgment, and is counted once."""
    from db import cash_queries
    from db.attention import treasury

    uow, clock, reg = office.uow, office.clock, office.reg
    office.pay((office.house, "439.00"), actor=reg.treasurer)
    office.pay((office.reroof, "140.00"), method=PaymentMethod.CASH, actor=reg.treasurer)
    close = cash.close_day(
        uow,
        clock,
        reg.treasurer,
        reg.municipality_id,
        cash.DEFAULT_DRAWER,
        clock.today(),
        MethodTotals(cash=D("139.75"), check=D("439.00")),
        "a quarter short",
    )
    with office.db.engine.connect() as conn:
        assert cash_queries.closes_not_turned_over(conn, reg.municipality_id) == []
        (t,) = cash_queries.turnovers(conn, reg.municipality_id)
        assert treasury.turnovers_to_acknowledge(conn, reg.municipality_id) == []
    assert (t.state, t.delivered_by, t.acknowledged_by, t.acknowledged_on) == (
        "acknowledged",
        "Terry Treasurer",
        "Terry Treasurer",
        clock.today(),
    )
    assert (t.amount, t.cash_delivered, t.deposited, t.difference, t.deposit_ref) == (
        D("579.00"),
        D("578.75"),
        D("578.75"),
        D("0.00"),
        cash.OWN_DRAWER,
    )
    with pytest.raises(RuleViolation, match="already acknowledged"):
        cash.acknowledge_turnover(
            uow, clock, reg.treasurer, t.turnover_id, clock.today(), "DEP-3", D("578.75")
        )
    rec = cash.reconciliation(uow, clock, reg.municipality_id, date(2026, 3, 1), date(2026, 3, 31))
    assert (rec.receipts, rec.acknowledged, rec.pending, rec.undeposited, rec.over_short) == (
        D("579.00"),
        D("579.00"),
        D("0.00"),
        D("0.00"),
        D("-0.25"),
    )
    assert rec.balanced and rec.gl_balanced and not rec.turnovers[0].flagged
    sheet = cash.transmittal(uow, t.turnover_id)
    assert [c.day for c in sheet.closes] == [clock.today()]
    assert sum((v for _, _, v in sheet.by_account), D(0)) == D("579.00")
    assert (sheet.by_method.cash, sheet.by_method.check) == (D("140.00"), D("439.00"))
    assert _rows(office.db, schema.daily_close, id=close)[0].turnover_id == t.turnover_id


def test_a_clerks_close_still_waits_for_the_treasurer(office: Office) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    office.pay((office.reroof, "140.00"), method=PaymentMethod.CASH)
    close = office.close()
    assert _rows(office.db, schema.daily_close, id=close)[0].turnover_id is None
    t = cash.create_turnover(uow, clock, reg.clerk, reg.municipality_id, [close])
    assert not cash.delivered_by(uow, reg.treasurer, t)
    assert cash.delivered_by(uow, reg.clerk, t)


# --- the property: every dollar is somewhere, every account balances -----------------------------

PAY = st.tuples(
    st.just("pay"),
    st.integers(0, 2),  # which permit
    st.integers(1, 150),  # dollars allocated to each permit (at most what it owes)
    st.sampled_from(list(PaymentMethod)),
    st.integers(0, 40),  # dollars paid beyond the fees: the payer's credit
    st.booleans(),  # one payment for two permits
)
REFUND = st.tuples(st.just("refund"), st.integers(0, 2))
OPS = st.lists(
    st.one_of(
        # Copies weigh the choice: payments and refunds come up more often.
        PAY,
        PAY.map(tuple),
        PAY.map(lambda op: op),
        REFUND,
        REFUND.map(tuple),
        st.tuples(st.just("void"), st.integers(0, 50)),
        st.tuples(st.just("nsf"), st.integers(0, 50)),
        st.tuples(st.just("lower_fee"), st.integers(0, 2), st.integers(1, 60)),
        st.tuples(st.just("withdraw"), st.integers(0, 2)),
        st.tuples(st.just("credit_refund"), st.integers(1, 3000)),
        st.tuples(st.just("close")),
        st.tuples(st.just("turnover")),
        st.tuples(st.just("acknowledge"), st.integers(-3, 3)),
        st.tuples(st.just("next_day")),
        # The usual end of a day: close the drawer, turn it over, open the next day.
        st.tuples(st.just("day_end")),
        st.tuples(st.just("day_end")).map(tuple),
    ),
    min_size=5,
    max_size=30,
)
_window = itertools.count()


@settings(
    max_examples=25,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=OPS)
def test_the_reconciliation_balances_after_any_sequence_of_money_events(
    office: Office, ops: list[tuple[Any, ...]]
) -> None:
    """Payments (every method, several permits, overpayments, payments from credit), voids,
    returned checks, fee reductions, refunds, closes, turnovers and acknowledgments in any order:
    for every period, receipts − voids − NSF − refunds = turnovers acknowledged + pending +
    undeposited; each GL account balances and the accounts moved exactly the money; the
    example's receipts are numbered without gaps."""
    from desk.domain.enums import PermitStatus
    from desk.services import lifecycle

    uow, clock, reg = office.uow, office.clock, office.reg
    mid = reg.municipality_id
    # Each example works in its own year (receipt numbers start again each year) with its own
    # drawer and permits, so its periods hold only its own events (the database is shared by the
    # examples).
    start = date(2027 + next(_window), 1, 4)
    clock.set(start)
    drawer = f"D{start.isoformat()}"
    permit_ids = []
    for desc in ("reroof A", "reroof B", "reroof C"):
        pid = permits.take_application(uow, clock, reg.clerk, application(reg, desc))
        fees.assess_fees(uow, clock, reg.clerk, pid, REROOF)
        permit_ids.append(pid)
    # Two permits start paid, in full and in part, and the first is withdrawn, so that refunds
    # have something to give back.
    first = office.pay((permit_ids[0], "140.00"), drawer=drawer, payer="Prop Tester")
    second = office.pay(
        (permit_ids[1], "100.00"), method=PaymentMethod.CASH, drawer=drawer, payer="Prop Tester"
    )
    lifecycle.change_status(uow, clock, reg.clerk, permit_ids[0], PermitStatus.WITHDRAWN)
    payments: list[tuple[int, PaymentMethod]] = [
        (first.payment_id, PaymentMethod.CHECK),
        (second.payment_id, PaymentMethod.CASH),
    ]
    numbers = [first.receipt_number, second.receipt_number]
    model = {"receipts": D("240.00"), "voids": D(0), "nsf": D(0), "refunds": D(0)}
    amount_of = {first.payment_id: D("140.00"), second.payment_id: D("100.00")}
    turnovers: list[int] = []
    checks = 9000  # the treasurer's refund checks, each number written once
    for op in ops:
        try:
            if op[0] == "pay":
                _, i, dollars, method, extra, two = op
                targets = [permit_ids[i], permit_ids[(i + 1) % 3]] if two else [permit_ids[i]]
                allocations = []
                for pid in targets:
                    share = min(D(dollars), office.due(pid))
                    if share > 0:
                        allocations.append((pid, str(share)))
                total = sum((D(a) for _, a in allocations), D(0))
                if method is not PaymentMethod.CREDIT:
                    total += extra
                if total <= 0:
                    continue
                kw = {}
                if method is PaymentMethod.MONEY_ORDER:
                    kw = {"check_number": f"MO-{len(payments)}"}
                res = office.pay(
                    *allocations,
                    amount=str(total),
                    method=method,
                    drawer=drawer,
                    payer="Prop Tester",
                    **kw,
                )
                payments.append((res.payment_id, method))
                numbers.append(res.receipt_number)
                amount_of[res.payment_id] = total
                if method.is_money:
                    model["receipts"] += total
            elif op[0] == "void":
                paid_id, method = payments[op[1] % len(payments)]
                cash.void_payment(uow, clock, reg.clerk, paid_id, "property test")
                if method.is_money:
                    model["voids"] += amount_of[paid_id]
            elif op[0] == "nsf":
                paid_id, method = payments[op[1] % len(payments)]
                cash.return_nsf(uow, clock, reg.treasurer, paid_id, "bank notice")
                model["nsf"] += amount_of[paid_id]
            elif op[0] == "lower_fee":
                cash.adjust_fee(
                    uow, clock, reg.inspector, permit_ids[op[1]], "RES-OTHER", -D(op[2]), "typo"
                )
            elif op[0] == "withdraw":
                lifecycle.change_status(
                    uow, clock, reg.clerk, permit_ids[op[1]], PermitStatus.WITHDRAWN
                )
            elif op[0] == "refund":
                pid = permit_ids[op[1]]
                ground = RefundGround.OVERPAYMENT
                if cash.permit_balance(uow, clock, pid).due >= 0:
                    ground = RefundGround.WITHDRAWN
                checks += 1
                r = cash.refund(
                    uow,
                    clock,
                    reg.treasurer,
                    cash.RefundInput(pid, ground, str(checks), clock.today()),
                )
                model["refunds"] += r.amount
            elif op[0] == "credit_refund":
                held = cash.credit_balance(uow, mid, None, "Prop Tester")
                amount = min(held, D(op[1]) / 100)
                cash.refund_credit(
                    uow,
                    clock,
                    reg.treasurer,
                    mid,
                    None,
                    "Prop Tester",
                    amount,
                    str(checks := checks + 1),
                    clock.today(),
                )
                model["refunds"] += amount
            elif op[0] == "close":
                office.close(drawer=drawer)
            elif op[0] == "turnover":
                open_closes = [
                    c.id
                    for c in _rows(office.db, schema.daily_close, drawer=drawer)
                    if c.turnover_id is None
                ]
                turnovers.append(cash.create_turnover(uow, clock, reg.clerk, mid, open_closes))
            elif op[0] == "acknowledge":
                if not turnovers:
                    continue
                t = turnovers[0]
                row = _rows(office.db, schema.turnover, id=t)[0]
                deposited = max(D(0), row.cash_delivered + op[1])
                cash.acknowledge_turnover(
                    uow, clock, reg.treasurer, t, clock.today(), "DEP", deposited
                )
                turnovers.pop(0)
            elif op[0] == "next_day":
                clock.advance(timedelta(days=1))
            elif op[0] == "day_end":
                close = office.close(drawer=drawer)
                turnovers.append(cash.create_turnover(uow, clock, reg.clerk, mid, [close]))
                clock.advance(timedelta(days=1))
            event(f"done {op[0]}")
        except (RuleViolation, ValidationError) as refused:
            event(f"refused {op[0]}: {str(refused)[:50]}")
    end = clock.today()
    seqs = [int(n.split("-")[1]) for n in numbers]
    if seqs:
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    whole = cash.reconciliation(uow, clock, mid, start, end)
    assert (whole.receipts, whole.voids, whole.nsf, whole.refunds) == (
        model["receipts"],
        model["voids"],
        model["nsf"],
        model["refunds"],
    )
    days = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    for a, b in [*((d, d) for d in days), *((start, d) for d in days), *((d, end) for d in days)]:
        rec = cash.reconciliation(uow, clock, mid, a, b)
        assert rec.balanced, (a, b, rec)
        assert rec.gl_balanced, (a, b, rec)
    # All time: the accounts hold exactly the money received and not given back.
    all_time = cash.reconciliation(uow, clock, mid, date(2000, 1, 1), end)
    assert sum((x.closing for x in all_time.accounts), D(0)) == all_time.net
    # Every turnover's book amount is what its transmittal books to the accounts, and together
    # they are all the money turned over.
    delivered = _rows(office.db, schema.turnover)
    assert sum((t.amount for t in delivered), D(0)) == all_time.acknowledged + all_time.pending
    for t in delivered:
        sheet = cash.transmittal(uow, t.id)
        assert sum((v for *_, v in sheet.by_account), D(0)) == sheet.amount == t.amount
    # Each permit's balance is its charges less what the ledger holds for it.
    for pid in permit_ids:
        balance = cash.permit_balance(uow, clock, pid)
        assert balance.paid == sum(
            (e.amount for e in _rows(office.db, schema.gl_entry, permit_id=pid)), D(0)
        )
    assert check(office.db.engine) == []


# --- receipt numbers under concurrent clerks -----------------------------------------------------

PER_CLERK = 50


def _clerk(url: str, worker: int, office: tuple[int, int, int, Any], out: Any, start: Any) -> None:
    """Fifty $1.00 cash payments, alternately to the house and to the reroof; the reroof owes
    less than the clerks together try to pay, so some of those are refused."""
    municipality_id, house, reroof, clerk = office
    db = open_database(url, migrate=False)
    clock = FixedClock(date(2026, 3, 2))
    numbers: list[str] = []
    refused = 0
    try:
        start.wait(timeout=120)
        for i in range(PER_CLERK):
            try:
                res = cash.take_payment(
                    db.uow(),
                    clock,
                    clerk,
                    cash.PaymentInput(
                        municipality_id=municipality_id,
                        tender=Tender(PaymentMethod.CASH, D("1.00")),
                        allocations=(Allocation(reroof if i % 2 else house, D("1.00")),),
                        payer_name=f"Walk-in {worker}",
                        drawer=f"Drawer {worker}",
                    ),
                )
                numbers.append(res.receipt_number)
            except ValidationError:
                refused += 1  # nothing left due on the reroof
        out.put((worker, numbers, refused, None))
    except Exception as e:
        out.put((worker, numbers, refused, repr(e)))
    finally:
        db.close()


@pytest.mark.postgres
def test_four_clerks_at_once_get_gapless_receipt_numbers_and_never_overpay_on_postgresql(
    pg_server_url: str, pg_register: PgRegister
) -> None:
    reset_postgres(pg_server_url)
    db = open_database(pg_server_url)
    clock = FixedClock(date(2026, 3, 2))
    office = _office(db, clock)
    office.pay((office.reroof, "50.00"))  # receipt 2026-0001; $90.00 left due on the reroof
    db.close()
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start = ctx.Barrier(4)
    args = (office.reg.municipality_id, office.house, office.reroof, office.reg.clerk)
    procs = [
        ctx.Process(target=_clerk, args=(pg_server_url, w, args, queue, start)) for w in range(4)
    ]
    for p in procs:
        p.start()
    results = [queue.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert [err for *_, err in results if err] == []
    # 100 payments to the house, 90 of the 100 to the reroof: 190 receipts after the first.
    assert sum(refused for _, _, refused, _ in results) == 10
    seqs = sorted(int(n.split("-")[1]) for _, numbers, _, _ in results for n in numbers)
    assert seqs == list(range(2, 192))
    spans = sorted((min(ns), max(ns)) for _, ns, _, _ in results)
    assert any(a[1] > b[0] for a, b in itertools.pairwise(spans))  # they really interleaved
    db = open_database(pg_server_url)
    assert cash.permit_balance(db.uow(), clock, office.reroof).due == D("0.00")
    assert cash.permit_balance(db.uow(), clock, office.house).paid == D("100.00")
    with db.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(schema.payment)).scalar() == 191
    db.close()
    assert workstation_check(pg_register) == []


def test_the_fees_and_payments_of_a_permit_list_every_line_receipt_and_refund(
    office: Office,
) -> None:
    uow, clock, reg = office.uow, office.clock, office.reg
    paid = office.pay((office.reroof, "140.00"))
    cash.add_fee_line(
        uow, clock, reg.inspector, office.reroof, QuoteItem("REINSPECTION", quantity=D(1)), "failed"
    )
    cash.void_payment(uow, clock, reg.clerk, paid.payment_id, "wrong payer")
    account = cash.permit_account(uow, clock, office.reroof)
    assert account.balance.due == D("210.00")
    assert [(c.code, c.amount, c.kind, c.by, c.reason) for c in account.charges] == [
        ("RES-OTHER", D("140.00"), "assessed", "", ""),
        ("REINSPECTION", D("70.00"), "added", "Ivan Inspector", "failed"),
    ]
    assert [(p.receipt_number, p.amount, p.status) for p in account.payments] == [
        ("2026-0001", D("140.00"), "void")
    ]
