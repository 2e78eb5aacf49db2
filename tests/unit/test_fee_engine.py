"""The fee engine against examples worked by hand from the ordinances.

Glendale 15.1.21: base, then minimum, then 40 % administrative cost, then up to the next dollar.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from desk.calendar import is_holiday
from desk.errors import ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest, add_business_days, price
from desk.fees.loader import shipped_schedule
from desk.fees.model import ScheduleVersion

D = Decimal
GLENDALE = shipped_schedule("glendale").version_on(date(2026, 11, 29))
NEW_LISBON = shipped_schedule("new_lisbon").version_on(date(2026, 11, 29))
assert GLENDALE is not None and NEW_LISBON is not None


def one(code: str, **kw: object) -> tuple[Decimal, Decimal, Decimal]:
    q = price(GLENDALE, QuoteRequest(items=(QuoteItem(code, **kw),)))  # type: ignore[arg-type]
    (line,) = q.lines
    return line.base, line.admin, line.amount


@pytest.mark.parametrize(
    ("code", "entered", "base", "admin", "amount"),
    [
        # (a)(1) 2,400 sq ft × $0.12 = 288.00; + 40 % = 403.20; up to 404
        ("RES-NEW", {"quantity": D(2400)}, "288.00", "115.20", "404.00"),
        # (a)(1) 500 sq ft = 60.00, below the $100 minimum
        ("RES-NEW", {"quantity": D(500)}, "100.00", "40.00", "140.00"),
        # (a)(1)a state seal: flat $35, no 40 %
        ("RES-STATE-SEAL", {}, "35.00", "0.00", "35.00"),
        # (a)(2) $14,800 ÷ 1,000 × $7 = 103.60; + 41.44 = 145.04; up to 146
        ("RES-REMODEL", {"quantity": D(14800)}, "103.60", "41.44", "146.00"),
        # (a)(2) $5,000 → 35.00, below the $60 minimum
        ("RES-REMODEL", {"quantity": D(5000)}, "60.00", "24.00", "84.00"),
        # (a)(2) valuation not rounded: $12,345.67 → 86.41969; + 34.567876 = 120.987566 → 121
        ("RES-REMODEL", {"quantity": D("12345.67")}, "86.42", "34.57", "121.00"),
        # (a)(4) 24 × 24 garage: 576 × 0.12 = 69.12; + 27.648 = 96.768 → 97
        ("RES-ACCESSORY", {"quantity": D(576)}, "69.12", "27.65", "97.00"),
        ("RES-POOL", {}, "50.00", "20.00", "70.00"),
        # (a)(6) amount entered below the $45 minimum, and none entered
        ("RES-OTHER", {"amount": D(30)}, "45.00", "18.00", "63.00"),
        ("RES-OTHER", {}, "45.00", "18.00", "63.00"),
        ("RES-OTHER", {"amount": D(200)}, "200.00", "80.00", "280.00"),
        # (a)(7) 1,200 sq ft × 0.05 = 60; 800 sq ft = 40 → $50 minimum
        ("RES-RAZE", {"quantity": D(1200)}, "60.00", "24.00", "84.00"),
        ("RES-RAZE", {"quantity": D(800)}, "50.00", "20.00", "70.00"),
        ("RES-EROSION-NEW", {}, "100.00", "40.00", "140.00"),
        ("RES-EROSION-OTHER", {}, "75.00", "30.00", "105.00"),
        ("RES-OCCUPANCY", {"quantity": D(2)}, "80.00", "32.00", "112.00"),
        ("RES-TEMP-OCCUPANCY", {"quantity": D(1)}, "50.00", "20.00", "70.00"),
        # (a)(11) no 40 %; one bracket $1.50 rounds up to $2
        ("ADDR-BRACKET", {"quantity": D(1)}, "1.50", "0.00", "2.00"),
        ("ADDR-TILE", {"quantity": D(4)}, "4.00", "0.00", "4.00"),
        ("REINSPECTION", {"quantity": D(1)}, "50.00", "20.00", "70.00"),
        # (a)(13) $50 first, $100 second, $150 third and later
        ("FAIL-TO-CALL", {"occurrence": 1}, "50.00", "20.00", "70.00"),
        ("FAIL-TO-CALL", {"occurrence": 2}, "100.00", "40.00", "140.00"),
        ("FAIL-TO-CALL", {"occurrence": 3}, "150.00", "60.00", "210.00"),
        ("FAIL-TO-CALL", {"occurrence": 7}, "150.00", "60.00", "210.00"),
        # (b)(1)b 10,000 sq ft × 0.13 = 1,300
        ("COM-NEW-MERCANTILE", {"quantity": D(10000)}, "1300.00", "520.00", "1820.00"),
        # (b)(2) $200 first acre, $100 each further acre or part: 2.3 acres = 200 + 2 × 100
        ("COM-EROSION", {"quantity": D("2.3")}, "400.00", "160.00", "560.00"),
        ("COM-EROSION", {"quantity": D("0.5")}, "200.00", "80.00", "280.00"),
        ("COM-EROSION", {"quantity": D(1)}, "200.00", "80.00", "280.00"),
        ("COM-EARLY-START", {}, "100.00", "40.00", "140.00"),
        ("COM-REMODEL", {"quantity": D(250000)}, "2000.00", "800.00", "2800.00"),
        ("COM-PLAN-REVIEW", {"amount": D("612.50")}, "612.50", "245.00", "858.00"),
        ("COM-OCCUPANCY", {}, "60.00", "24.00", "84.00"),
        ("COM-OTHER", {"amount": D(50)}, "75.00", "30.00", "105.00"),
        ("COM-RAZE", {"quantity": D(1000)}, "75.00", "30.00", "105.00"),
        ("AG-NEW", {"quantity": D(3000)}, "150.00", "60.00", "210.00"),
        ("AG-REMODEL", {"quantity": D(20000)}, "120.00", "48.00", "168.00"),
        # (d)(1)-(3): the base from the state uniform form; the engine adds 40 % and rounds
        ("PLUMBING", {"amount": D("120.00")}, "120.00", "48.00", "168.00"),
        ("ELECTRICAL", {"amount": D("87.30")}, "87.30", "34.92", "123.00"),
        ("HVAC", {"amount": D("65.00")}, "65.00", "26.00", "91.00"),
        # (d)(9) $38 per inspector-hour: 3.5 h = 133; + 53.20 = 186.20 → 187
        ("MOVE-BUILDING", {"quantity": D("3.5")}, "133.00", "53.20", "187.00"),
        # (e) at cost, to the cent
        ("OTHER-GOV", {"amount": D("123.45")}, "123.45", "0.00", "123.45"),
        ("GREASE-INTERCEPTOR", {}, "75.00", "0.00", "75.00"),
        # 15.1.44 front feet × rate, exact: 75.5 × 12.37 = 933.935 → 933.94
        (
            "SEWER-ASSESSMENT",
            {"quantity": D("75.5"), "rate": D("12.37")},
            "933.94",
            "0.00",
            "933.94",
        ),
        ("DEPOSIT-STREET", {}, "500.00", "0.00", "500.00"),
        ("DEPOSIT-STREET", {"amount": D(750)}, "750.00", "0.00", "750.00"),
    ],
)
def test_glendale_line_amounts_match_the_hand_worked_examples(
    code: str, entered: dict[str, object], base: str, admin: str, amount: str
) -> None:
    assert one(code, **entered) == (D(base), D(admin), D(amount))


def test_the_documented_quote_totals_439_dollars() -> None:
    q = price(
        GLENDALE,
        QuoteRequest(items=(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))),
    )
    assert [(line.code, line.amount) for line in q.lines] == [
        ("RES-NEW", D("404.00")),
        ("RES-STATE-SEAL", D("35.00")),
    ]
    assert q.total == D("439.00")


def test_commercial_new_lines_below_100_dollars_together_are_one_minimum_line() -> None:
    # (b)(1)i: 300 × 0.13 = 39.00 and 200 × 0.08 = 16.00 add up to 55.00 < 100.00
    q = price(
        GLENDALE,
        QuoteRequest(
            items=(
                QuoteItem("COM-NEW-MERCANTILE", quantity=D(300)),
                QuoteItem("COM-NEW-WAREHOUSE", quantity=D(200)),
                QuoteItem("RES-STATE-SEAL"),
            )
        ),
    )
    assert [(line.code, line.base, line.amount) for line in q.lines] == [
        ("COM-NEW-MINIMUM", D("100.00"), D("140.00")),
        ("RES-STATE-SEAL", D("35.00"), D("35.00")),
    ]
    assert q.lines[0].section == "15.1.21(b)(1)i"
    # Above the minimum together, each is charged on its own (no per-item minimum).
    q = price(
        GLENDALE,
        QuoteRequest(
            items=(
                QuoteItem("COM-NEW-MERCANTILE", quantity=D(600)),
                QuoteItem("COM-NEW-WAREHOUSE", quantity=D(300)),
            )
        ),
    )
    assert [(line.code, line.base) for line in q.lines] == [
        ("COM-NEW-MERCANTILE", D("78.00")),
        ("COM-NEW-WAREHOUSE", D("24.00")),
    ]


def test_work_begun_before_the_permit_doubles_the_doubling_lines_on_a_line_of_its_own() -> None:
    items = (
        QuoteItem("RES-NEW", quantity=D(2400)),
        QuoteItem("RES-STATE-SEAL"),
        QuoteItem("FAIL-TO-CALL", occurrence=1),
    )
    q = price(GLENDALE, QuoteRequest(items=items, work_began_before_permit=True))
    double = q.lines[-1]
    assert (double.code, double.description) == (
        "DOUBLE-FEE",
        "double fee — work began before permit",
    )
    # Only RES-NEW doubles: the seal and the failure-to-call penalty do not (15.1.21(f)).
    assert double.amount == D("404.00")
    assert q.total == D("404.00") * 2 + D("35.00") + D("70.00")
    emergency = price(
        GLENDALE, QuoteRequest(items=items, work_began_before_permit=True, emergency=True)
    )
    assert emergency.total == D("404.00") + D("35.00") + D("70.00")


@pytest.mark.parametrize(
    ("request_items", "field", "message"),
    [
        ((QuoteItem("NOPE"),), "NOPE.code", "not an item"),
        ((QuoteItem("RES-NEW"),), "RES-NEW.quantity", r"enter the quantity \(square feet\)"),
        ((QuoteItem("RES-NEW", quantity=D(-1)),), "RES-NEW.quantity", "must not be negative"),
        ((QuoteItem("RES-POOL", quantity=D(1)),), "RES-POOL.quantity", "takes no quantity"),
        ((QuoteItem("FAIL-TO-CALL"),), "FAIL-TO-CALL.occurrence", "which occurrence"),
        ((QuoteItem("FAIL-TO-CALL", occurrence=0),), "FAIL-TO-CALL.occurrence", "1 or more"),
        ((QuoteItem("PLUMBING"),), "PLUMBING.amount", "enter the amount"),
        ((QuoteItem("SEWER-ASSESSMENT", quantity=D(80)),), "SEWER-ASSESSMENT.rate", "rate"),
        ((QuoteItem("DEPOSIT-STREET", amount=D(400)),), "DEPOSIT-STREET.amount", "at least"),
    ],
)
def test_bad_requests_name_the_item_and_the_field(
    request_items: tuple[QuoteItem, ...], field: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message) as err:
        price(GLENDALE, QuoteRequest(items=request_items))
    assert err.value.field == field


# --- New Lisbon ------------------------------------------------------------------------------


def test_an_unset_council_fee_says_which_item_and_where_to_set_it() -> None:
    with pytest.raises(ValidationError, match="Administration → Fee schedules") as err:
        price(NEW_LISBON, QuoteRequest(items=(QuoteItem("STREET-OPENING"),)))
    assert err.value.field == "STREET-OPENING.amount"


def _nl_with_fees() -> ScheduleVersion:
    assert NEW_LISBON is not None
    items = tuple(
        replace(i, council_value=D("50.00"))
        if i.code == "STREET-OPENING"
        else replace(i, council_value=D("150.00"))
        if i.code == "STREET-OPENING-LATE"
        else i
        for i in NEW_LISBON.items
    )
    return replace(NEW_LISBON, items=items)


@pytest.mark.parametrize(
    ("age", "times"),
    [("0", 5), ("0.99", 5), ("1", 4), ("2.5", 3), ("3.2", 2), ("4.99", 1), ("5", 0), ("12", 0)],
)
def test_the_paving_surcharge_goes_by_whole_years_since_the_final_paving(
    age: str, times: int
) -> None:
    q = price(
        _nl_with_fees(),
        QuoteRequest(items=(QuoteItem("STREET-OPENING", pavement_age_years=D(age)),)),
    )
    fee, surcharge = q.lines
    assert (fee.amount, surcharge.code) == (D("50.00"), "STREET-OPENING-SURCHARGE")
    assert surcharge.amount == D("50.00") * times
    assert q.total == D("50.00") * (1 + times)


def test_new_lisbon_adds_no_administrative_cost_and_no_rounding_except_city_repair_20() -> None:
    q = price(
        _nl_with_fees(),
        QuoteRequest(
            items=(
                QuoteItem("CITY-EXPENSES", amount=D("212.37")),
                QuoteItem("CITY-REPAIR", amount=D("1000.01")),
            )
        ),
    )
    assert [(line.base, line.admin, line.amount) for line in q.lines] == [
        (D("212.37"), D("0.00"), D("212.37")),
        (D("1000.01"), D("200.00"), D("1200.01")),
    ]


def test_an_emergency_opening_filed_within_two_business_days_pays_no_permit_fee() -> None:
    v = _nl_with_fees()
    item = QuoteItem("STREET-OPENING", pavement_age_years=D(2))

    def opening(excavated: date, applied: date) -> list[tuple[str, Decimal]]:
        q = price(
            v,
            QuoteRequest(
                items=(item, QuoteItem("CITY-EXPENSES", amount=D("80.00"))),
                emergency=True,
                excavated_on=excavated,
                applied_on=applied,
            ),
            is_holiday,
        )
        return [(line.code, line.amount) for line in q.lines]

    # Friday 2026-11-20: Monday 23 and Tuesday 24 are the two business days.
    # The surcharge is a multiple of the permit fee, which is nothing here.
    assert opening(date(2026, 11, 20), date(2026, 11, 24)) == [
        ("STREET-OPENING", D("0.00")),
        ("CITY-EXPENSES", D("80.00")),
    ]
    # Filed Wednesday: late, so the late fee applies with its surcharge (2 full years: 3 ×).
    assert opening(date(2026, 11, 20), date(2026, 11, 25)) == [
        ("STREET-OPENING-LATE", D("150.00")),
        ("CITY-EXPENSES", D("80.00")),
        ("STREET-OPENING-LATE-SURCHARGE", D("450.00")),
    ]
    # Thanksgiving (Thursday 2026-11-26) is no business day: Friday 27 and Monday 30 are.
    assert opening(date(2026, 11, 25), date(2026, 11, 30))[0] == ("STREET-OPENING", D("0.00"))
    assert opening(date(2026, 11, 25), date(2026, 12, 1))[0][0] == "STREET-OPENING-LATE"


def test_business_days_skip_weekends_and_wisconsin_holidays() -> None:
    assert add_business_days(date(2026, 11, 20), 2, is_holiday) == date(2026, 11, 24)
    assert add_business_days(date(2026, 11, 25), 2, is_holiday) == date(2026, 11, 30)
    # Wisconsin keeps Christmas Eve and Christmas Day: from Wednesday 12-23, Monday and Tuesday.
    assert add_business_days(date(2026, 12, 23), 2, is_holiday) == date(2026, 12, 29)


# --- properties ------------------------------------------------------------------------------

QUANTITY_ITEMS = [
    "RES-NEW",
    "RES-ACCESSORY",
    "RES-RAZE",
    "RES-REMODEL",
    "COM-REMODEL",
    "AG-NEW",
    "AG-REMODEL",
    "COM-EROSION",
    "MOVE-BUILDING",
    "RES-OCCUPANCY",
]
quantities = st.decimals(min_value=0, max_value=10_000_000, places=2, allow_nan=False)


@given(code=st.sampled_from(QUANTITY_ITEMS), a=quantities, b=quantities)
def test_fees_are_never_negative_whole_dollars_and_monotone_in_quantity(
    code: str, a: Decimal, b: Decimal
) -> None:
    lo, hi = sorted((a, b))
    amount_lo = one(code, quantity=lo)[2]
    amount_hi = one(code, quantity=hi)[2]
    assert D(0) <= amount_lo <= amount_hi
    assert amount_lo == amount_lo.to_integral_value()
    item = GLENDALE.item(code)
    assert item is not None
    if item.minimum is not None:
        assert amount_lo >= item.minimum * D("1.4")


@given(
    codes=st.lists(
        st.sampled_from([*QUANTITY_ITEMS, "RES-STATE-SEAL", "ADDR-TILE"]),
        min_size=1,
        max_size=5,
        unique=True,
    ),
    q=quantities,
)
def test_doubling_adds_exactly_the_doubled_lines(codes: list[str], q: Decimal) -> None:
    items = tuple(
        QuoteItem(c) if c == "RES-STATE-SEAL" else QuoteItem(c, quantity=q) for c in codes
    )
    single = price(GLENDALE, QuoteRequest(items=items))
    double = price(GLENDALE, QuoteRequest(items=items, work_began_before_permit=True))
    doubling = sum(
        (line.amount for line in single.lines if GLENDALE.item(line.code).doubles),  # type: ignore[union-attr]
        D(0),
    )
    assert double.total == single.total + doubling
    assert double.lines[: len(single.lines)] == single.lines
