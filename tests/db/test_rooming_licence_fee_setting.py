"""Administration → Municipality: the rooming-house licence fee the Council sets (Hudson 140-10A),
through the service on SQLite and PostgreSQL. None is shipped; empty is "not set", 0 "no fee"."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from db.database import Database
from desk.clock import FixedClock
from desk.errors import PermissionDenied, ValidationError
from desk.services import municipality as svc
from tests.db.enforcement_setup import office

TODAY = date(2026, 3, 2)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


def test_the_fee_is_not_set_until_an_administrator_sets_it(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)

    def fee() -> Decimal | None:
        return svc.municipality_settings(database.uow(), o.mid).rooming_licence_fee

    assert fee() is None
    changed = svc.update_municipality(
        database.uow(), clock, o.admin, o.mid, {"rooming_licence_fee": "$1,050.5"}
    )
    assert changed == ("rooming_licence_fee",) and fee() == Decimal("1050.50")
    same = svc.update_municipality(
        database.uow(), clock, o.admin, o.mid, {"rooming_licence_fee": "1050.50"}
    )
    assert same == ()  # retyped, not changed
    svc.update_municipality(database.uow(), clock, o.admin, o.mid, {"rooming_licence_fee": "0"})
    assert fee() == Decimal("0.00")  # no fee
    svc.update_municipality(database.uow(), clock, o.admin, o.mid, {"rooming_licence_fee": " "})
    assert fee() is None


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("-5", "must not be negative"),
        ("ten", "'ten' is not an amount of money"),
        ("12.345", "has more than two decimals"),
    ],
)
def test_a_bad_fee_is_refused_naming_the_field(
    database: Database, clock: FixedClock, typed: str, says: str
) -> None:
    o = office(database, clock)
    with pytest.raises(ValidationError) as refused:
        svc.update_municipality(
            database.uow(), clock, o.admin, o.mid, {"rooming_licence_fee": typed}
        )
    assert str(refused.value) == f"Rooming-house licence fee: {says}"
    assert svc.municipality_settings(database.uow(), o.mid).rooming_licence_fee is None


def test_only_an_administrator_sets_the_fee(database: Database, clock: FixedClock) -> None:
    o = office(database, clock)
    with pytest.raises(PermissionDenied):
        svc.update_municipality(
            database.uow(), clock, o.clerk, o.mid, {"rooming_licence_fee": "25"}
        )
