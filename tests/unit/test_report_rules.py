"""Report rules (issue 8) as a clerk reads them: periods, due dates, Census C-404 rows on a
hand-built set, the Act 211 filing states with a fixed clock, the register of buildings."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desk.clock import FixedClock
from desk.domain import reports as r
from desk.domain.enums import PermitClass, PermitStatus, WorkClass
from desk.domain.kinds import kind_by_code
from desk.errors import ValidationError

D = Decimal
HEAD = r.Heading(1, "glendale", "City of Glendale", ("City of Glendale",), "Dale Kowalski", "BI")


# --------------------------------------------------------------------------- periods


def test_a_month_a_year_and_the_year_to_date_cover_the_right_days() -> None:
    feb = r.month_period(2024, 2)
    assert (feb.start, feb.end, feb.label) == (date(2024, 2, 1), date(2024, 2, 29), "February 2024")
    assert feb.is_month and date(2024, 2, 29) in feb and date(2024, 3, 1) not in feb
    assert r.year_period(2025) == r.Period(date(2025, 1, 1), date(2025, 12, 31))
    ytd = r.year_to_date(2025, 6)
    assert (ytd.start, ytd.end, ytd.label) == (
        date(2025, 1, 1),
        date(2025, 6, 30),
        "January–June 2025",
    )
    assert r.same_month_last_year(2025, 3).label == "March 2024"
    assert r.trend_years(2025) == (2021, 2022, 2023, 2024, 2025)
    assert len(r.months_of(2025)) == 12


@pytest.mark.parametrize("text", ["2025-13", "2025-00", "25-01", "2025/01", "", "March"])
def test_a_month_that_is_not_yyyy_mm_is_refused_naming_the_field(text: str) -> None:
    with pytest.raises(ValidationError, match=r"--month: .* is not a month YYYY-MM"):
        r.parse_month(text, "--month")


def test_months_and_years_are_read_from_what_the_clerk_typed() -> None:
    assert r.parse_month("2026-03") == (2026, 3)
    assert r.parse_year("2025") == 2025
    with pytest.raises(ValidationError, match="year: '25' is not a year"):
        r.parse_year("25")


# --------------------------------------------------------------------------- due dates


def test_monthly_reports_are_due_the_tenth_of_the_next_month() -> None:
    # 15.1.74(b): "on or before the tenth (10th) day of each month"
    assert r.monthly_report_due(2025, 6).due == date(2025, 7, 10)
    assert r.monthly_report_due(2025, 12, "electrical").due == date(2026, 1, 10)
    assert "Electrical" in r.monthly_report_due(2025, 12, "electrical").what


def test_act_211_filings_are_due_the_fifteenth_of_the_next_month() -> None:
    assert r.act211_due(2025, 12).due == date(2026, 1, 15)
    assert r.act211_due(2025, 6).due == date(2025, 7, 15)


def test_the_electrical_annual_report_is_due_before_march_first() -> None:
    assert r.electrical_annual_due(2023).due == date(2024, 2, 29)  # a leap year
    assert r.electrical_annual_due(2024).due == date(2025, 2, 28)


def test_due_dates_read_as_days_left_or_days_late() -> None:
    due = r.monthly_report_due(2025, 6)
    assert due.words(date(2025, 7, 2)) == "due Thursday 07/10/2025 (in 8 days)"
    assert due.words(date(2025, 7, 10)) == "due today, Thursday 07/10/2025"
    assert due.words(date(2025, 7, 11)) == "was due Thursday 07/10/2025 (1 day ago)"


def test_a_trade_that_is_not_one_of_the_six_is_refused() -> None:
    assert r.check_trade("electrical") == "electrical"
    assert r.check_trade(None) is None
    with pytest.raises(ValidationError, match="--trade: 'carpentry' is not one of building"):
        r.check_trade("carpentry", "--trade")


def test_changes_from_the_year_before_read_as_percentages() -> None:
    assert r.change_words(298, 270) == "+10.4 %"
    assert r.change_words(D("100"), D("200")) == "−50.0 %"
    assert r.change_words(5, 0) == "new"
    assert r.change_words(0, 0) == "—"


# --------------------------------------------------------------------------- C-404


def _housing(
    number: str,
    units: int,
    valuation: str,
    *,
    work: WorkClass = WorkClass.NEW,
    issued: date = date(2025, 3, 10),
    public: bool = False,
    status: PermitStatus = PermitStatus.ISSUED,
    kind: str = "RES-NEW-DWELLING",
) -> r.HousingPermit:
    return r.HousingPermit(
        permit_id=int(number[-3:]),
        number=number,
        issued_on=issued,
        kind=kind,
        permit_class=PermitClass.RESIDENTIAL if units <= 2 else PermitClass.COMMERCIAL,
        work_class=work,
        status=status,
        units=units,
        valuation=D(valuation),
        address=f"{number[-3:]} N Main St",
        publicly_owned=public,
    )


def test_c404_rows_count_buildings_units_and_whole_dollars_by_building_size() -> None:
    permits = [
        _housing("2025-101", 1, "412500.49"),
        _housing("2025-102", 1, "298000.50"),  # rounds half up to $298,001
        _housing("2025-103", 2, "520000.00"),
        _housing("2025-104", 4, "900000.00", kind="COM-NEW"),
        _housing("2025-105", 12, "2400000.00", kind="COM-NEW"),
        _housing("2025-106", 1, "80000.00", work=WorkClass.ADDITION),  # not a new building
        _housing("2025-107", 24, "3100000.00", public=True, kind="COM-NEW"),  # housing authority
        _housing("2025-108", 1, "350000.00", status=PermitStatus.VOID),
        _housing("2025-109", 1, "350000.00", issued=date(2025, 4, 1)),  # another month
    ]
    rep = r.classify_c404(HEAD, r.month_period(2025, 3), permits, D("1000000"))
    rows = {line.row.value: (line.buildings, line.units, line.valuation) for line in rep.lines}
    assert rows == {
        "101": (2, 2, D("710501")),
        "103": (1, 2, D("520000")),
        "104": (1, 4, D("900000")),
        "105": (1, 12, D("2400000")),
        "109": (5, 20, D("4530501")),
    }
    assert [(d.number, d.building_type, d.units, d.valuation) for d in rep.details] == [
        ("2025-105", "Five-or-more-unit buildings", 12, D("2400000"))
    ]
    assert rep.excluded == 2  # the public housing and the voided permit
    assert not rep.no_permits


def test_c404_says_no_permits_were_issued_when_there_were_none() -> None:
    rep = r.classify_c404(HEAD, r.month_period(2025, 5), [_housing("2025-101", 1, "1.00")])
    assert rep.no_permits
    assert [line.row.value for line in rep.lines] == ["101", "103", "104", "105", "109"]
    assert all(line.buildings == 0 and line.valuation == 0 for line in rep.lines)
    assert rep.details == ()


def test_the_high_value_threshold_is_inclusive_and_configurable() -> None:
    permits = [_housing("2025-101", 1, "499999.50"), _housing("2025-102", 1, "499999.49")]
    rep = r.classify_c404(HEAD, r.month_period(2025, 3), permits, D("500000"))
    assert [d.number for d in rep.details] == ["2025-101"]  # $500,000 after rounding


def test_owners_named_as_governments_make_the_housing_publicly_owned() -> None:
    assert r.publicly_owned(["Housing Authority of the City of Glendale"], {})
    assert r.publicly_owned(["City of Glendale"], None)
    assert r.publicly_owned(["Anna Schmidt"], {"ownership": "public"})
    assert not r.publicly_owned(["Cityview Partners LLC", "Anna Schmidt"], {})


def test_the_answer_recorded_at_intake_wins_over_the_owners_name_both_ways() -> None:
    # A private developer named like a town, recorded as private: counted on C-404.
    assert not r.publicly_owned(["Town of Pines Apartments LLC"], {"ownership": "private"})
    assert not r.publicly_owned(
        ["Housing Authority of the City of Glendale"], {"ownership": "Private "}
    )
    # A housing authority's project held by a private-sounding partnership, recorded as public.
    assert r.publicly_owned(["Riverside Commons LP"], {"ownership": "public"})
    # Anything else is no answer: the name decides.
    assert r.publicly_owned(["City of Glendale"], {"ownership": "maybe"})
    assert r.ownership_answer({"ownership": " PUBLIC"}) == "public"
    assert r.ownership_answer({}) == ""


# --------------------------------------------------------------------------- Act 211


def test_a_filing_is_due_until_the_fifteenth_then_overdue_and_the_fees_go_back() -> None:
    clock = FixedClock(date(2025, 7, 15))
    issued = date(2025, 6, 10)
    assert r.filing_state(issued, None, clock.today()) is r.FilingState.DUE
    clock.set(date(2025, 7, 16))
    state = r.filing_state(issued, None, clock.today())
    assert state is r.FilingState.OVERDUE and r.refund_required(state)
    assert r.filing_state(issued, date(2025, 7, 15), clock.today()) is r.FilingState.FILED
    late = r.filing_state(issued, date(2025, 7, 16), clock.today())
    assert late is r.FilingState.FILED_LATE and r.refund_required(late)


def test_the_refund_flag_names_what_is_owed_except_the_state_seal() -> None:
    line = r.act211_line(
        permit_id=1,
        number="2025-0119",
        issued_on=date(2025, 6, 10),
        address="7454 N Green Bay Ave",
        owner="Daniel Stankiewicz",
        units=1,
        filed_on=None,
        reference="",
        fees_paid=D("439.00"),
        seal_paid=D("35.00"),
        refunded=D("0.00"),
        today=date(2025, 8, 1),
    )
    assert line.due_on == date(2025, 7, 15)
    assert line.state is r.FilingState.OVERDUE
    assert line.refund_due == D("404.00")
    assert line.flag == "Refund fees (except the state seal)"
    paid_back = r.act211_line(**{**_kw(line), "refunded": D("404.00")})
    assert (paid_back.refund_due, paid_back.flag) == (D("0.00"), "Refunded")


def _kw(line: r.Act211Line) -> dict[str, object]:
    return {
        "permit_id": line.permit_id,
        "number": line.number,
        "issued_on": line.issued_on,
        "address": line.address,
        "owner": line.owner,
        "units": line.units,
        "filed_on": line.filed_on,
        "reference": line.reference,
        "fees_paid": line.fees_paid,
        "seal_paid": line.seal_paid,
        "refunded": line.refunded,
        "today": date(2025, 8, 1),
    }


def test_a_filing_date_before_issuance_or_in_the_future_is_refused() -> None:
    today = date(2025, 7, 1)
    with pytest.raises(ValidationError, match="filed on: 06/01/2025 is before the permit"):
        r.check_filed_on(date(2025, 6, 10), date(2025, 6, 1), today)
    with pytest.raises(ValidationError, match="must not be in the future"):
        r.check_filed_on(date(2025, 6, 10), date(2025, 7, 2), today)
    with pytest.raises(ValidationError, match="has not been issued"):
        r.check_filed_on(None, date(2025, 6, 20), today)


def test_only_new_one_and_two_family_dwellings_are_filed_with_the_state() -> None:
    res, new = PermitClass.RESIDENTIAL, WorkClass.NEW
    assert r.is_new_one_two_family("RES-NEW-DWELLING", res, new, 1)
    assert r.is_new_one_two_family("MOVE", res, new, 2)
    assert not r.is_new_one_two_family("COM-NEW", PermitClass.COMMERCIAL, new, 6)
    assert not r.is_new_one_two_family("RES-ADDITION", res, WorkClass.ADDITION, 1)
    assert not r.is_new_one_two_family("RES-EARLY-START", res, new, 1)


# --------------------------------------------------------------------------- buildings erected


def test_buildings_erected_are_new_structures_under_a_building_permit() -> None:
    assert r.is_building_erected(kind_by_code("glendale", "RES-NEW-DWELLING"))
    assert r.is_building_erected(kind_by_code("glendale", "AG-BUILDING"))
    assert not r.is_building_erected(kind_by_code("glendale", "RES-EARLY-START"))
    assert not r.is_building_erected(kind_by_code("glendale", "RES-POOL"))
    assert not r.is_building_erected(kind_by_code("glendale", "COM-SPECIAL"))  # a tower, a tent
    assert r.is_building_erected(kind_by_code("glendale", "RES-ACCESSORY"))  # a garage, a shed
    assert not r.is_building_erected(kind_by_code("glendale", "RES-REMODEL"))
    assert not r.is_building_erected(kind_by_code("glendale", "SEWER-WATER"))  # plumbing


def test_the_kind_of_materials_comes_from_the_construction_type_and_the_sbd_answers() -> None:
    assert r.materials("V-B", {"sbd_walls": "Wood frame", "sbd_construction": "Site-built"}) == (
        "Type V-B, Wood frame, Site-built"
    )
    assert r.materials("", None) == ""
    assert r.materials("V-B", {}) == "Type V-B (wood frame)"
    assert r.materials("II-B", None) == "Type II-B (noncombustible)"
    assert r.materials("IV", None) == "Type IV (heavy timber)"


def test_the_aggregate_cost_is_summed_per_class() -> None:
    lines = r.classes_of(
        [
            (PermitClass.RESIDENTIAL, 1, D("100.00")),
            (PermitClass.AGRICULTURAL, 1, D("50.00")),
            (PermitClass.RESIDENTIAL, 1, D("25.50")),
        ]
    )
    assert [(c.permit_class, c.count, c.valuation) for c in lines] == [
        (PermitClass.RESIDENTIAL, 2, D("125.50")),
        (PermitClass.AGRICULTURAL, 1, D("50.00")),
    ]


def test_blds_permit_types_follow_the_kind_then_the_trade() -> None:
    assert r.blds_permit_type("RAZE", "building") == "Demolition"
    assert r.blds_permit_type("HVAC", "hvac") == "Mechanical"
    assert r.blds_permit_type("RES-POOL", "building") == "Pool/Spa"
    assert r.blds_permit_type("ADDRESS-NUMBERS", "other") == ""
