"""The Qt-free presenters of issue 6: money and dates typed in the forms, the refund queue's
lists and counts, and which action each role may take on a deposit, and why not."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest

from desk.domain.enums import Role
from desk.domain.sureties import DepositStatus
from desk.errors import ValidationError
from desk.services.sureties import DepositLine, ExpiryRow
from ui.presenters.sureties import (
    DepositsPresenter,
    ExpiryPresenter,
    names_list,
    parse_day,
    parse_money,
)

ON = date(2026, 10, 1)


@pytest.mark.parametrize(
    ("text", "amount"),
    [("500", "500.00"), ("$1,250.5", "1250.50"), (" 1000.00 ", "1000.00")],
)
def test_money_is_read_as_the_clerk_types_it(text: str, amount: str) -> None:
    assert parse_money(text, "amount") == Decimal(amount)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "amount: enter an amount in dollars and cents, e.g. 500.00"),
        ("five hundred", "amount: 'five hundred' is not an amount of money"),
        ("10.005", "amount: has more than two decimals"),
    ],
)
def test_a_wrong_amount_names_the_field(text: str, message: str) -> None:
    with pytest.raises(ValidationError) as e:
        parse_money(text, "amount")
    assert str(e.value) == message


def test_dates_are_read_the_office_way_or_refused_in_words() -> None:
    assert parse_day("4/15/2026", "completed on") == date(2026, 4, 15)
    assert parse_day("2026-04-15", "completed on") == date(2026, 4, 15)
    assert parse_day("", "expires on", required=False) is None
    with pytest.raises(ValidationError) as e:
        parse_day("13/45/2026", "check date")
    assert str(e.value) == "check date: '13/45/2026' is not a date; write it as 03/01/2026"
    assert names_list("Robert Kaminski; Helen Nowak\n") == ("Robert Kaminski", "Helen Nowak")


def line(n: int, status: DepositStatus | None, **kw: object) -> DepositLine:
    base = DepositLine(
        deposit_id=n,
        permit_id=100 + n,
        permit_number=f"2026-{n:04d}",
        address=f"{n} N Main St",
        depositor="North Shore Plumbing Co",
        payee="North Shore Plumbing Co",
        payee_address="5800 N Bayshore Dr",
        amount=Decimal("500.00"),
        received_on=date(2026, 1, 5),
        receipt_number=f"2026-{n:04d}",
        completed_on=None,
        eligible_from=None,
        status=status,
        status_text=status.label if status else "Awaiting payment",
        ordered_on=None,
        ordered_by="",
        check_number="",
        check_date=None,
        refund_amount=Decimal("500.00"),
        retained=Decimal("0.00"),
        resolution="",
        resolved_on=None,
        retention_reason="",
    )
    return replace(base, **kw)  # type: ignore[arg-type]


LINES = [
    line(1, DepositStatus.ELIGIBLE, completed_on=ON - timedelta(days=200),
         eligible_from=ON - timedelta(days=20)),
    line(2, DepositStatus.HELD, completed_on=ON - timedelta(days=170),
         eligible_from=ON + timedelta(days=10)),
    line(3, DepositStatus.HELD, completed_on=ON - timedelta(days=100),
         eligible_from=ON + timedelta(days=80)),
    line(4, DepositStatus.ORDERED, ordered_on=ON - timedelta(days=2), ordered_by="Erin Engineer"),
    line(5, DepositStatus.REFUNDED, retained=Decimal("125.00"), refund_amount=Decimal("375.00"),
         resolution="R-12", resolved_on=ON - timedelta(days=60), retention_reason="patch"),
    line(6, None, received_on=None, receipt_number=""),
]  # fmt: skip


def presenter(*roles: Role) -> DepositsPresenter:
    p = DepositsPresenter(lambda _on: list(LINES), lambda: ON, frozenset(roles))
    p.load()
    return p


def test_the_refund_queue_counts_each_list() -> None:
    p = presenter(Role.CLERK)
    assert [p.tab_title(q) for q in ("eligible", "soon", "ordered", "retained", "all")] == [
        "Eligible now (1)",
        "Eligible in the next 30 days (1)",
        "Ordered, awaiting the check (1)",
        "Retained by the Council (1)",
        "All deposits (6)",
    ]
    p.set_queue("soon")
    assert [r.cells[0] for r in p.rows] == ["2026-0002"]
    assert p.summary == "1 deposit, $500.00"


def test_each_role_takes_its_own_step_and_is_told_why_not() -> None:
    engineer, clerk, inspector = (
        presenter(Role.ENGINEER),
        presenter(Role.CLERK),
        presenter(Role.INSPECTOR),
    )
    assert engineer.can_order(0) == (True, "")  # the eligible one
    assert clerk.can_order(0) == (
        False,
        "The City Engineer orders a deposit refund (15.1.43); your roles: clerk.",
    )
    acting = DepositsPresenter(
        lambda _on: list(LINES), lambda: ON, frozenset({Role.TREASURER}), Role.TREASURER
    )
    acting.load()
    assert acting.can_order(0) == (True, "")  # an office without an engineer (15.1.43)
    assert engineer.can_order(1) == (False, "Eligible from 10/11/2026 (15.1.43).")
    assert engineer.can_order(3)[0] is False
    assert clerk.can_refund(3) == (True, "")
    assert clerk.can_refund(0) == (
        False,
        "A deposit is refunded on the City Engineer's order (15.1.43).",
    )
    assert engineer.can_refund(3) == (
        False,
        "The City Clerk issues the refund check (15.1.43); your roles: engineer.",
    )
    assert inspector.can_complete(1) == (True, "")
    assert clerk.can_complete(1) == (False, "The inspector records when the work was completed.")
    assert clerk.can_pay(5) == (True, "")
    assert clerk.can_retain(4) == (False, "The deposit is refunded.")
    assert "The Council retained $125.00 by resolution R-12 of 08/02/2026: patch." in (
        clerk.detail(4)
    )


def expiry(days_left: int, reference: str) -> ExpiryRow:
    return ExpiryRow(
        what="Bond",
        item_id=1,
        reference=reference,
        holder="Lakeshore House Movers Inc",
        holder_address="400 W Silver Spring Dr",
        issuer="Western Surety Company",
        ends_on=ON + timedelta(days=days_left),
        days_left=days_left,
        permits=("2026-0101",),
        message="",
        title=f"Bond {reference}",
        covers="Moving a building",
    )


def test_the_expiry_watch_says_when_and_letters_go_to_the_chosen_lines_or_all() -> None:
    rows = [expiry(-3, "SB-1"), expiry(0, "SB-2"), expiry(45, "SB-3")]
    p = ExpiryPresenter(lambda _days: rows)
    p.load()
    assert [r.cells[1] for r in p.rows] == ["ended 3 days ago", "today", "45 days"]
    assert p.summary == "3 bonds and certificates to watch; 1 ended while a permit relies on it"
    assert [r.reference for r in p.chosen([2])] == ["SB-3"]
    assert [r.reference for r in p.chosen([])] == ["SB-1", "SB-2", "SB-3"]
