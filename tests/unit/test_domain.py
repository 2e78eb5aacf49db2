"""Domain rules without a database: numbers, search terms, money, permissions, kinds."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desk.clock import FixedClock
from desk.domain.enums import PermitStatus, Role
from desk.domain.kinds import kind_by_code, kinds_for
from desk.domain.model import Actor, Credential
from desk.domain.numbering import format_number, parse_number
from desk.domain.permissions import Permission, allowed, require
from desk.domain.search import (
    number_sort_key,
    permit_terms,
    prefix_upper_bound,
    query_tokens,
)
from desk.errors import PermissionDenied, ValidationError
from desk.money import format_money, from_cents, parse_money, to_cents


def test_permit_numbers_are_year_dash_four_digits_and_widen_past_9999() -> None:
    assert format_number(2026, 1) == "2026-0001"
    assert format_number(2026, 9999) == "2026-9999"
    assert format_number(2026, 10000) == "2026-10000"
    assert parse_number("2026-10000") == (2026, 10000)
    assert number_sort_key("2026-9999") < number_sort_key("2026-10000")  # type: ignore[operator]
    with pytest.raises(ValueError):
        format_number(2026, 0)
    with pytest.raises(ValueError):
        parse_number("26-1")


def test_search_terms_cover_number_parcel_address_and_names() -> None:
    terms = permit_terms(
        "2025-0017", "047-9991-002", "6120 N Port Washington Rd", ["Anna Schmidt-Vang"]
    )
    assert {"2025-0017", "17", "0017", "047-9991-002", "6120", "port", "washington"} <= terms
    assert {"anna", "schmidt-vang", "schmidt", "vang"} <= terms


def test_typed_text_becomes_distinct_prefix_tokens() -> None:
    assert query_tokens("  Port  WASH port ") == ["port", "wash"]
    assert query_tokens("sch schmidt") == ["schmidt"]
    assert query_tokens("!!") == []
    assert prefix_upper_bound("main") == "maio"
    assert prefix_upper_bound("2024-0") == "2024-1"


def test_money_is_parsed_exactly_and_errors_name_the_field() -> None:
    assert parse_money("$1,250.50") == Decimal("1250.50")
    assert parse_money("300") == Decimal("300.00")
    for bad, msg in (
        ("", "enter an amount"),
        ("12.345", "more than two decimals"),
        ("-5", "negative"),
        ("abc", "not an amount"),
    ):
        with pytest.raises(ValidationError, match=msg) as err:
            parse_money(bad, "valuation")
        assert err.value.field == "valuation"
    assert to_cents(Decimal("412500.00")) == 41250000
    assert from_cents(41250000) == Decimal("412500.00")
    assert format_money(Decimal("1234.5")) == "$1,234.50"
    with pytest.raises(ValueError):
        to_cents(Decimal("0.001"))


def test_only_an_administrator_may_manage_users_and_only_an_inspector_may_issue() -> None:
    clerk = Actor(1, "carol", frozenset({Role.CLERK}))
    inspector = Actor(2, "ivan", frozenset({Role.INSPECTOR}))
    admin = Actor(3, "alex", frozenset({Role.ADMINISTRATOR}))
    both = Actor(4, "pat", frozenset({Role.CLERK, Role.TREASURER}))
    assert allowed(admin, Permission.MANAGE_USERS)
    assert not allowed(clerk, Permission.MANAGE_USERS)
    assert allowed(inspector, Permission.ISSUE_PERMIT)
    assert not allowed(clerk, Permission.ISSUE_PERMIT)
    assert allowed(both, Permission.TAKE_APPLICATION)
    with pytest.raises(PermissionDenied, match=r"carol \(clerk\).*administrator or inspector"):
        require(clerk, Permission.ISSUE_PERMIT)


def test_every_glendale_and_new_lisbon_kind_loads_with_its_section() -> None:
    glendale = kinds_for("glendale")
    assert len(glendale) >= 20
    assert kind_by_code("glendale", "PLUMBING").section == "15.1.41"
    assert kind_by_code("new_lisbon", "STREET-OPENING").trade == "other"
    with pytest.raises(ValidationError, match="not a permit kind of glendale"):
        kind_by_code("glendale", "STREET-OPENING")


def test_a_credential_is_valid_through_its_expiry_date() -> None:
    c = Credential(kind="master_plumber", number="MP-1", expires_on=date(2026, 6, 30))  # type: ignore[arg-type]
    assert c.valid_on(date(2026, 6, 30))
    assert not c.valid_on(date(2026, 7, 1))


def test_a_fixed_clock_stands_still_until_moved() -> None:
    clock = FixedClock(date(2026, 3, 2))
    assert clock.today() == date(2026, 3, 2)
    clock.set(date(2026, 12, 31))
    assert clock.today() == date(2026, 12, 31)
    assert clock.now().tzinfo is not None


def test_every_status_maps_to_a_blds_status() -> None:
    blds = {s.blds for s in PermitStatus}
    assert "Permit Issued" in blds and "Permit Finaled" in blds
    assert all(s.label for s in PermitStatus)
