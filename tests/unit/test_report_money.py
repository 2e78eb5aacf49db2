"""Whose money a GL account holds (desk.domain.reports.money_class): only revenue accounts are
the city's fees (15.1.6(c)); the state seal (15.1.21(a)(1)a) and other governments' fees
(15.1.21(e)) are collected for others; street deposits are held (15.1.43); and the split adds up
to the net money received. A register that starts mid-year makes that year partial."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from desk.domain.cashiering import AccountKind, AccountPurpose
from desk.domain.reports import (
    AccountFees,
    MoneyClass,
    is_partial_year,
    money_class,
    money_split,
    no_data_words,
)

D = Decimal


def test_the_account_kind_and_purpose_decide_whose_money_it_is() -> None:
    assert money_class(AccountKind.REVENUE, AccountPurpose.NONE) is MoneyClass.CITY_FEES
    assert money_class("revenue", "nsf_charge") is MoneyClass.CITY_FEES
    assert money_class("liability", "state_seal") is MoneyClass.FOR_OTHERS
    assert money_class("liability", "pass_through") is MoneyClass.FOR_OTHERS
    assert money_class("liability", "") is MoneyClass.FOR_OTHERS  # held for someone else
    assert money_class("liability", "deposits_held") is MoneyClass.DEPOSITS
    assert money_class("liability", "credits_held") is MoneyClass.CREDITS


def test_the_split_adds_up_to_the_net_money_received() -> None:
    def line(number: str, whose: MoneyClass, *amounts: str) -> AccountFees:
        receipts, reversals, refunds, transfers = (D(a) for a in amounts)
        return AccountFees(number, number, receipts, reversals, refunds, transfers, whose)

    split = money_split(
        [
            line("100-44300", MoneyClass.CITY_FEES, "808.00", "-140.00", "-404.00", "0"),
            line("100-46710", MoneyClass.CITY_FEES, "0", "0", "0", "200.00"),
            line("100-24210", MoneyClass.FOR_OTHERS, "70.00", "0", "0", "0"),
            line("100-23100", MoneyClass.DEPOSITS, "1000.00", "0", "-500.00", "-200.00"),
        ]
    )
    assert (split.fees_collected, split.for_others) == (D("464.00"), D("70.00"))
    assert (split.deposits_received, split.deposits_returned, split.deposits_retained) == (
        D("1000.00"),
        D("-500.00"),
        D("-200.00"),
    )
    assert split.deposits_net == D("300.00")
    assert split.total == D("834.00")  # 1,878 received − 140 returned check − 904 refunded


def test_a_year_is_partial_when_the_register_starts_after_its_first_day() -> None:
    starts = date(2024, 11, 1)
    assert is_partial_year(2024, starts) and is_partial_year(2023, starts)
    assert not is_partial_year(2025, starts)
    assert not is_partial_year(2024, date(2024, 1, 1))
    assert not is_partial_year(2024, None)
    assert no_data_words(starts) == "n/a (no data before 11/01/2024)"
