"""How an amount reads on screen and on paper: a negative one is '−$161.00' (U+2212)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from desk.money import format_money
from reports.report_pdf import money as pdf_money
from reports.surety_reports import money as surety_money
from ui.presenters.formatting import format_amount


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        (Decimal("-161"), "\u2212$161.00"),
        (Decimal("-1234.5"), "\u2212$1,234.50"),
        (Decimal("-0.01"), "\u2212$0.01"),
        (Decimal("1234.5"), "$1,234.50"),
        (Decimal("0"), "$0.00"),
        (Decimal("-0.00"), "$0.00"),  # no minus on nothing
        (Decimal("-0.004"), "$0.00"),  # nor on less than a cent, shown as nothing
        (None, ""),
    ],
)
def test_a_negative_amount_reads_minus_dollars_never_dollars_minus(
    amount: Decimal | None, shown: str
) -> None:
    assert format_money(amount) == shown
    assert format_amount(amount) == shown
    assert "$-" not in format_money(amount)


def test_the_pdfs_write_a_refund_the_same_way_as_the_screen() -> None:
    assert pdf_money(Decimal("-161")) == surety_money(Decimal("-161")) == "−$161.00"
    assert surety_money(Decimal("2500")) == "$2,500.00"
