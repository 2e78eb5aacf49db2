"""Cashiering rules (issue 5) without a database: tenders, allocation, the oldest-first GL split,
refunds by the ordinances (15.1.42, 15.1.21 NOTE, Act 211), the daily close, the treasurer's
reconciliation, and the shipped GL accounts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from desk.domain.cashiering import (
    AccountInfo,
    AccountKind,
    AccountPurpose,
    Allocation,
    Bucket,
    Charge,
    EntrySource,
    InspectionMade,
    LedgerEntry,
    MethodTotals,
    MoneyEvent,
    MoneyKind,
    PaymentMethod,
    PermitBalance,
    Portion,
    RefundCase,
    RefundGround,
    RefundRules,
    Tender,
    TurnoverState,
    WithdrawalPolicy,
    act_211_deadline,
    act_211_refund,
    check_allocations,
    check_tender,
    close_figures,
    inspections_made_text,
    make_buckets,
    parse_settings,
    plumbing_void_refund,
    reconcile,
    refund_decision,
    shipped_ledger,
    split_newest_first,
    split_oldest_first,
    totals_by_account,
    unpaid_message,
)
from desk.domain.enums import PermitStatus
from desk.domain.inspections import Result as InspectionResult
from desk.errors import RuleViolation, ValidationError
from desk.fees.engine import DOUBLE_FEE_CODE, SURCHARGE_SUFFIX
from desk.fees.loader import shipped_schedule

D = Decimal
FEE, ADMIN = Portion.FEE, Portion.ADMIN


def _bucket(
    code: str, due: str, paid: str = "0", account: str = "100-44300", **kw: object
) -> Bucket:
    return Bucket(code, kw.pop("portion", FEE), code, account, D(due), D(paid), **kw)  # type: ignore[arg-type]


NEW_HOUSE = [
    _bucket("RES-NEW", "404.00"),
    _bucket("RES-STATE-SEAL", "35.00", account="100-24210", purpose=AccountPurpose.STATE_SEAL),
]


# --- tender and allocation -----------------------------------------------------------------------


def test_a_check_needs_its_number_the_name_on_it_and_the_bank() -> None:
    with pytest.raises(ValidationError) as e:
        check_tender(Tender(PaymentMethod.CHECK, D("120.00"), check_drawer="A. Schmidt"))
    assert e.value.field == "check number"
    with pytest.raises(ValidationError) as e:
        check_tender(Tender(PaymentMethod.CHECK, D("120.00"), check_number="1042"))
    assert e.value.field == "name on check"
    ok = check_tender(
        Tender(PaymentMethod.CHECK, D("120.00"), " 1042 ", "Anna Schmidt", "Associated Bank")
    )
    assert (ok.check_number, ok.check_bank) == ("1042", "Associated Bank")


def test_a_card_needs_the_terminal_reference_and_cash_keeps_no_check_details() -> None:
    with pytest.raises(ValidationError) as e:
        check_tender(Tender(PaymentMethod.CARD, D("50.00")))
    assert e.value.field == "card reference"
    cash = check_tender(Tender(PaymentMethod.CASH, D("50.00"), check_number="99"))
    assert cash.check_number == ""


def test_amounts_must_be_positive_and_to_the_cent() -> None:
    for bad in ("0", "-5", "10.005"):
        with pytest.raises(ValidationError) as e:
            check_tender(Tender(PaymentMethod.CASH, D(bad)))
        assert e.value.field == "amount"


def test_one_check_pays_three_permits_and_the_rest_is_the_payers_credit() -> None:
    due = {1: D("439.00"), 2: D("140.00"), 3: D("60.00")}
    labels = {1: "permit 2026-0001", 2: "permit 2026-0002", 3: "application #3"}
    credit = check_allocations(
        D("700.00"),
        [Allocation(1, D("439.00")), Allocation(2, D("140.00")), Allocation(3, D("60.00"))],
        due,
        labels,
    )
    assert credit == D("61.00")


def test_allocating_more_than_the_payment_is_refused() -> None:
    with pytest.raises(ValidationError) as e:
        check_allocations(
            D("400.00"),
            [Allocation(1, D("300.00")), Allocation(2, D("140.00"))],
            {1: D("439.00"), 2: D("140.00")},
            {1: "permit 2026-0001", 2: "permit 2026-0002"},
        )
    assert e.value.field == "allocation"
    assert "$440.00, more than the payment of $400.00" in e.value.message


def test_allocating_more_than_a_permit_owes_names_the_permit() -> None:
    with pytest.raises(ValidationError) as e:
        check_allocations(
            D("500.00"), [Allocation(1, D("500.00"))], {1: D("439.00")}, {1: "permit 2026-0001"}
        )
    assert e.value.field == "permit 2026-0001"
    assert "only $439.00 is due" in e.value.message


# --- the GL split --------------------------------------------------------------------------------


def test_a_partial_payment_pays_the_oldest_line_first() -> None:
    lines = split_oldest_first(D("200.00"), NEW_HOUSE)
    assert [(s.code, s.amount) for s in lines] == [("RES-NEW", D("200.00"))]
    lines = split_oldest_first(D("420.00"), NEW_HOUSE)
    assert [(s.code, s.account, s.amount) for s in lines] == [
        ("RES-NEW", "100-44300", D("404.00")),
        ("RES-STATE-SEAL", "100-24210", D("16.00")),
    ]
    assert totals_by_account(lines) == [("100-44300", D("404.00")), ("100-24210", D("16.00"))]


def test_a_line_already_paid_is_skipped() -> None:
    buckets = [_bucket("RES-NEW", "404.00", "404.00"), NEW_HOUSE[1]]
    assert [(s.code, s.amount) for s in split_oldest_first(D("35.00"), buckets)] == [
        ("RES-STATE-SEAL", D("35.00"))
    ]


def test_paying_a_line_without_a_gl_account_is_refused_in_words() -> None:
    with pytest.raises(RuleViolation, match="MYSTERY has no GL account"):
        split_oldest_first(D("10.00"), [_bucket("MYSTERY", "10.00", account="")])


def test_the_administrative_cost_can_be_booked_apart() -> None:
    charges = [
        Charge("RES-NEW", FEE, D("288.00"), "Residential new construction"),
        Charge("RES-NEW", ADMIN, D("116.00"), "Residential new construction"),
        Charge("RES-STATE-SEAL", FEE, D("35.00"), "State seal"),
    ]

    def account(code: str, portion: Portion) -> tuple[str, AccountPurpose]:
        if portion is ADMIN:
            return "100-44390", AccountPurpose.ADMIN_COST
        return (
            ("100-24210", AccountPurpose.STATE_SEAL)
            if "SEAL" in code
            else ("100-44300", AccountPurpose.NONE)
        )

    buckets = make_buckets(charges, {}, account)
    lines = split_oldest_first(D("439.00"), buckets)
    assert totals_by_account(lines) == [
        ("100-44300", D("288.00")),
        ("100-44390", D("116.00")),
        ("100-24210", D("35.00")),
    ]
    assert buckets[1].description == "Residential new construction — administrative cost"


def test_lines_of_one_code_share_a_bucket_and_a_reduction_lowers_it() -> None:
    charges = [
        Charge("REINSPECTION", FEE, D("70.00"), "Re-inspection"),
        Charge("RES-NEW", FEE, D("404.00"), "New"),
        Charge("REINSPECTION", FEE, D("70.00"), "Re-inspection"),
        Charge("REINSPECTION", FEE, D("-70.00"), "Re-inspection"),
    ]
    buckets = make_buckets(
        charges, {("RES-NEW", FEE): D("100.00")}, lambda c, p: ("1", AccountPurpose.NONE)
    )
    assert [(b.code, b.due, b.remaining) for b in buckets] == [
        ("REINSPECTION", D("70.00"), D("70.00")),
        ("RES-NEW", D("404.00"), D("304.00")),
    ]


@given(
    dues=st.lists(st.integers(min_value=1, max_value=100_000), min_size=1, max_size=8),
    paid_share=st.lists(st.integers(min_value=0, max_value=100), min_size=8, max_size=8),
    pay=st.integers(min_value=1, max_value=800_000),
)
def test_the_oldest_first_split_is_exact_and_leaves_at_most_one_line_part_paid(
    dues: list[int], paid_share: list[int], pay: int
) -> None:
    buckets = [
        _bucket(f"C{i}", str(D(d) / 100), str((D(d) * paid_share[i] // 100) / 100))
        for i, d in enumerate(dues)
    ]
    owed = sum((b.remaining for b in buckets), D(0))
    amount = min(D(pay) / 100, owed)
    if amount <= 0:
        return
    lines = split_oldest_first(amount, buckets)
    assert sum((s.amount for s in lines), D(0)) == amount
    by_code = {b.code: b for b in buckets}
    assert all(0 < s.amount <= by_code[s.code].remaining for s in lines)
    # Every line it touched but the last is now paid in full.
    assert all(s.amount == by_code[s.code].remaining for s in lines[:-1])
    # And no line was skipped that still owed something before the last one touched.
    touched = [s.code for s in lines]
    order = [b.code for b in buckets if b.remaining > 0]
    assert touched == order[: len(touched)]


def test_a_refund_takes_money_back_newest_line_first() -> None:
    paid = [_bucket("PLUMBING", "85.00", "85.00"), _bucket("REINSPECTION", "70.00", "70.00")]
    lines = split_newest_first(D("145.00"), paid, lambda b: b.paid)
    assert [(s.code, s.amount) for s in lines] == [
        ("REINSPECTION", D("70.00")),
        ("PLUMBING", D("75.00")),
    ]


# --- refunds -------------------------------------------------------------------------------------


def test_a_plumbing_permit_voided_before_any_inspection_keeps_ten_dollars() -> None:
    d = plumbing_void_refund(D("85.00"), ())
    assert (d.amount, d.kept) == (D("75.00"), D("10.00"))
    assert "except $10.00 kept for clerical expense (15.1.42)" in d.reason


def test_a_plumbing_permit_voided_after_an_inspection_refunds_nothing() -> None:
    # 15.1.42: "In the event partial inspections have been made, the entire permit fee shall be
    # retained."
    made = (InspectionMade("Plumbing rough-in", "passed", date(2026, 3, 4)),)
    d = plumbing_void_refund(D("85.00"), made)
    assert (d.amount, d.kept) == (D("0.00"), D("85.00"))
    assert d.reason == (
        "1 inspection was made before the permit was voided (Plumbing rough-in passed "
        "03/04/2026): the entire permit fee is retained (15.1.42)."
    )
    assert inspections_made_text(made) == "1 inspection made: Plumbing rough-in passed 03/04/2026"
    assert inspections_made_text(()) == "No inspection made"


def test_a_cancelled_inspection_was_not_made() -> None:
    # 15.1.42 "before any inspections are made": a result recorded is a visit made.
    assert [r.value for r in InspectionResult if not r.made] == ["cancelled"]


def test_a_plumbing_fee_under_ten_dollars_is_kept_whole() -> None:
    d = plumbing_void_refund(D("8.00"), ())
    assert (d.amount, d.kept) == (D("0.00"), D("8.00"))


GLENDALE = RefundRules(
    no_refund_once_issued=True,
    plumbing_clerical=D("10.00"),
    withdrawn=WithdrawalPolicy(True),
    denied=WithdrawalPolicy(True),
)


def _case(ground: RefundGround, **kw: object) -> RefundCase:
    values: dict[str, object] = {
        "ground": ground,
        "trade": "building",
        "status": PermitStatus.ISSUED,
        "issued_on": date(2026, 1, 20),
        "new_dwelling": True,
        "fees_paid": D("439.00"),
        "seal_paid": D("35.00"),
        "excess_paid": D("0.00"),
        "today": date(2026, 3, 2),
    }
    values.update(kw)
    return RefundCase(**values)  # type: ignore[arg-type]


def test_glendale_refunds_nothing_once_a_permit_is_issued() -> None:
    d = refund_decision(_case(RefundGround.WITHDRAWN, status=PermitStatus.ISSUED), GLENDALE)
    assert d.amount == 0 and d.reason == "No refund once a permit has been issued (15.1.21 NOTE)."
    d = refund_decision(
        _case(RefundGround.WITHDRAWN, trade="electrical", fees_paid=D("98.00")), GLENDALE
    )
    assert d.section == "15.1.80(a)(5)"


def test_the_plumbers_request_refund_needs_a_voided_plumbing_permit() -> None:
    plumbing = {"trade": "plumbing", "fees_paid": D("85.00"), "seal_paid": D("0")}
    d = refund_decision(_case(RefundGround.PLUMBING_VOID, **plumbing), GLENDALE)
    assert d.amount == 0 and "Void the permit" in d.reason
    d = refund_decision(
        _case(RefundGround.PLUMBING_VOID, status=PermitStatus.VOID, **plumbing), GLENDALE
    )
    assert d.amount == D("75.00")
    d = refund_decision(_case(RefundGround.PLUMBING_VOID, status=PermitStatus.VOID), GLENDALE)
    assert d.amount == 0 and "plumbing permits only" in d.reason
    d = refund_decision(
        _case(RefundGround.PLUMBING_VOID, status=PermitStatus.VOID, **plumbing), RefundRules()
    )
    assert d.amount == 0 and "no such refund" in d.reason


def test_act_211_refunds_everything_but_the_state_seal_after_the_15th_of_the_next_month() -> None:
    assert act_211_deadline(date(2026, 1, 20)) == date(2026, 2, 15)
    assert act_211_deadline(date(2026, 12, 3)) == date(2027, 1, 15)
    d = act_211_refund(D("439.00"), D("35.00"), date(2026, 1, 20), None, date(2026, 2, 16))
    assert (d.amount, d.kept) == (D("404.00"), D("35.00"))
    assert AccountPurpose.STATE_SEAL in d.keep_purposes
    assert "except the state seal of $35.00 (Wisconsin Act 211, SPS 320.09)" in d.reason
    # Glendale's no-refund rule does not stop the state's.
    assert refund_decision(_case(RefundGround.ACT_211), GLENDALE).amount == D("404.00")


def test_act_211_refunds_nothing_when_filed_in_time_or_before_the_deadline() -> None:
    filed = act_211_refund(
        D("439.00"), D("35.00"), date(2026, 1, 20), date(2026, 2, 15), date(2026, 3, 2)
    )
    assert filed.amount == 0
    assert "filed with the state on 02/15/2026, by the 02/15/2026 deadline" in filed.reason
    early = act_211_refund(D("439.00"), D("35.00"), date(2026, 1, 20), None, date(2026, 2, 15))
    assert early.amount == 0
    assert "The filing deadline, 02/15/2026, has not passed yet" in early.reason
    late = act_211_refund(
        D("439.00"), D("35.00"), date(2026, 1, 20), date(2026, 2, 16), date(2026, 3, 2)
    )
    assert late.amount == D("404.00")
    remodel = refund_decision(_case(RefundGround.ACT_211, new_dwelling=False), GLENDALE)
    assert remodel.amount == 0 and "new one- and two-family dwellings only" in remodel.reason


def test_a_withdrawn_application_is_refunded_by_the_municipalitys_setting() -> None:
    case = _case(RefundGround.WITHDRAWN, status=PermitStatus.WITHDRAWN, issued_on=None)
    assert refund_decision(case, GLENDALE).amount == D("439.00")
    less = RefundRules(withdrawn=WithdrawalPolicy.parse("less 25"))
    d = refund_decision(case, less)
    assert (d.amount, d.kept) == (D("414.00"), D("25.00"))
    assert "less $25.00 kept (municipal setting withdrawn_refund = less 25.00)" in d.reason
    none = RefundRules(withdrawn=WithdrawalPolicy.parse("none"))
    assert refund_decision(case, none).amount == 0
    applied = _case(RefundGround.WITHDRAWN, status=PermitStatus.APPLIED, issued_on=None)
    assert "change its status first" in refund_decision(applied, GLENDALE).reason


def test_withdrawal_settings_are_read_in_words() -> None:
    assert WithdrawalPolicy.parse("Full") == WithdrawalPolicy(True)
    assert WithdrawalPolicy.parse("less $10") == WithdrawalPolicy(True, D("10.00"))
    with pytest.raises(ValidationError) as e:
        WithdrawalPolicy.parse("less ten")
    assert e.value.field == "withdrawn_refund"
    with pytest.raises(ValidationError) as e:
        parse_settings({"nsf_charge": "twenty"})
    assert e.value.field == "nsf_charge"


def test_an_overpayment_refund_is_what_was_paid_beyond_the_fees() -> None:
    d = refund_decision(_case(RefundGround.OVERPAYMENT, excess_paid=D("50.00")), GLENDALE)
    assert d.amount == D("50.00")


def test_a_street_deposit_is_not_refunded_with_the_fees_but_on_the_engineers_order() -> None:
    # 15.1.43: the Deposits section returns it out of the liability account; the fee refund
    # rule gives nothing back, whatever was paid.
    case = _case(RefundGround.STREET_DEPOSIT, status=PermitStatus.WITHDRAWN, issued_on=None)
    d = refund_decision(case, GLENDALE)
    assert (d.amount, d.kept, d.section) == (D("0.00"), D("0.00"), "15.1.43")
    assert "on the City Engineer's order from the Deposits section" in d.reason


# --- daily close ---------------------------------------------------------------------------------


def test_a_short_drawer_needs_an_explanation() -> None:
    expected = MethodTotals(cash=D("120.00"), check=D("579.00"))
    counted = MethodTotals(cash=D("115.00"), check=D("579.00"))
    with pytest.raises(ValidationError) as e:
        close_figures(expected, counted, "")
    assert e.value.field == "explanation"
    assert "the drawer is $5.00 short" in e.value.message
    figures = close_figures(expected, counted, "change given twice")
    assert figures.over_short == D("-5.00")
    assert figures.difference.cash == D("-5.00") and figures.difference.check == 0


# --- reconciliation ------------------------------------------------------------------------------


def test_the_reconciliation_places_every_dollar_in_a_turnover_or_the_drawer() -> None:
    m1, m2, m3, m31 = date(2026, 3, 1), date(2026, 3, 2), date(2026, 3, 3), date(2026, 3, 31)
    events = [
        MoneyEvent(MoneyKind.RECEIPT, m1, D("439.00"), 1, PaymentMethod.CHECK),
        MoneyEvent(MoneyKind.RECEIPT, m1, D("60.00"), 1, PaymentMethod.CASH),
        MoneyEvent(MoneyKind.VOID, m1, D("60.00"), 1, PaymentMethod.CASH),
        MoneyEvent(MoneyKind.RECEIPT, m2, D("140.00"), 2, PaymentMethod.CASH),
        MoneyEvent(MoneyKind.NSF, m2, D("439.00"), 2, PaymentMethod.CHECK),
        MoneyEvent(MoneyKind.RECEIPT, m3, D("85.00"), None, PaymentMethod.CARD),
        MoneyEvent(MoneyKind.REFUND, m3, D("75.00"), None),
    ]
    turnovers = [
        TurnoverState(1, m1, m2, D("439.00"), D("439.00"), D("439.00"), D("0"), False),
        TurnoverState(2, m2, None, D("-299.00"), D("140.00"), None, None, False),
    ]
    accounts = [
        AccountInfo("100-44300", "Building permits", AccountKind.REVENUE),
        AccountInfo("100-44310", "Plumbing permits", AccountKind.REVENUE),
    ]
    entries = [
        LedgerEntry("100-44300", m1, EntrySource.RECEIPT, D("639.00")),
        LedgerEntry("100-44300", m1, EntrySource.VOID, D("-60.00")),
        LedgerEntry("100-44300", m2, EntrySource.NSF, D("-439.00")),
        LedgerEntry("100-44310", m3, EntrySource.RECEIPT, D("85.00")),
        LedgerEntry("100-44310", m3, EntrySource.REFUND, D("-75.00")),
    ]
    r = reconcile(m1, m31, events, turnovers, accounts, {}, entries)
    assert (r.receipts, r.voids, r.nsf, r.refunds) == (
        D("724.00"),
        D("60.00"),
        D("439.00"),
        D("75.00"),
    )
    assert (r.acknowledged, r.pending, r.undeposited) == (D("439.00"), D("-299.00"), D("10.00"))
    assert r.net == D("150.00") and r.balanced and r.gl_balanced
    assert r.account("100-44310").closing == D("10.00")
    # As of March 1 turnover 1 was delivered but not yet acknowledged.
    first = reconcile(m1, m1, events, turnovers, accounts, {}, entries)
    assert (first.acknowledged, first.pending, first.undeposited) == (D("0"), D("439.00"), D("0"))
    # March 3 alone: opens with the earlier days' entries (or the balances given for them).
    third = reconcile(m3, m3, events, turnovers, accounts, {}, entries)
    assert third.account("100-44300").opening == D("140.00") and third.balanced
    later = [x for x in entries if x.day >= m3]
    given = reconcile(m3, m3, events, turnovers, accounts, {"100-44300": D("140.00")}, later)
    assert given.account("100-44300") == third.account("100-44300")


def test_unpaid_fees_are_a_shortfall_in_words() -> None:
    balance = PermitBalance(1, None, D("579.00"), D("0.00"), D("200.00"), ())
    assert unpaid_message(balance, "15.1.21") == (
        "Fees of $579.00 are assessed; $200.00 is paid; $379.00 is due (15.1.21)."
    )
    paid = PermitBalance(1, None, D("579.00"), D("0.00"), D("579.00"), ())
    assert unpaid_message(paid, "15.1.21") is None


# --- the shipped GL accounts ---------------------------------------------------------------------


@pytest.mark.parametrize("key", ["glendale", "new_lisbon"])
def test_every_fee_item_of_the_shipped_schedules_books_to_an_account(key: str) -> None:
    ledger = shipped_ledger(key)
    mapped = dict(ledger.fee_map)
    codes = {"NSF-CHARGE"}
    for version in shipped_schedule(key).versions:
        for item in version.items:
            codes.add(item.code)
            if item.surcharge:
                codes.add(item.code + SURCHARGE_SUFFIX)
            if item.doubles:
                codes.add(DOUBLE_FEE_CODE)
        codes.update(g.code for g in version.groups)
    assert sorted(codes - set(mapped)) == []
    numbers = {a.number: a for a in ledger.accounts}
    assert all(n in numbers for n in mapped.values())


def test_glendales_state_seal_deposits_and_pass_through_are_liabilities() -> None:
    ledger = shipped_ledger("glendale")
    by_number = {a.number: a for a in ledger.accounts}
    mapped = dict(ledger.fee_map)
    seal = by_number[mapped["RES-STATE-SEAL"]]
    assert (seal.name, seal.kind, seal.purpose) == (
        "State seal payable",
        AccountKind.LIABILITY,
        AccountPurpose.STATE_SEAL,
    )
    assert by_number[mapped["DEPOSIT-STREET"]].purpose is AccountPurpose.DEPOSITS_HELD
    assert by_number[mapped["OTHER-GOV"]].kind is AccountKind.LIABILITY
    assert by_number[mapped["REINSPECTION"]].kind is AccountKind.REVENUE
    settings = parse_settings(ledger.settings)
    assert settings.rules.plumbing_clerical == D("10.00")
    assert settings.rules.no_refund_once_issued
