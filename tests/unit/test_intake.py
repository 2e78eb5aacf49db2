"""Intake without Qt: fee items from the form, the counted floor area, credentials at the edge."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desk.domain.credentials import HeldCredential, check_credentials
from desk.domain.documents import ParcelChoice, PartyChoice
from desk.domain.enums import CredentialKind, PartyRole
from desk.domain.kinds import kind_by_code, kinds_for
from desk.errors import ValidationError
from desk.fees.engine import QuoteItem
from desk.fees.loader import shipped_schedule
from desk.services.intake import (
    WorkValues,
    derived_items,
    fee_request,
    floor_area_counted,
    kind_form,
    roles_for,
)
from ui.presenters.intake import IntakePresenter, field_of

D = Decimal
DAY = date(2026, 3, 2)
PLUMBING = kind_by_code("glendale", "PLUMBING")
DWELLING = kind_by_code("glendale", "RES-NEW-DWELLING")
KOWALSKI = "Kowalski Plumbing Inc"


# --- floor area (15.1.21 NOTE) -------------------------------------------------------------


def test_the_floor_area_counts_garage_and_finished_levels_but_not_an_unfinished_basement() -> None:
    areas = {
        "basement_finished": 600,
        "basement_unfinished": 800,
        "first": 1400,
        "second": 1000,
        "garage": 480,
    }
    assert floor_area_counted(areas) == 600 + 1400 + 1000 + 480


def test_an_unfinished_basement_alone_counts_nothing() -> None:
    assert floor_area_counted({"basement_unfinished": 1400}) == 0


# --- fee items from the form ---------------------------------------------------------------


def test_a_new_dwelling_is_priced_on_its_floor_area_with_the_seal_and_erosion_control() -> None:
    form = kind_form("glendale", "RES-NEW-DWELLING")
    work = WorkValues(areas={"basement_unfinished": 1400, "first": 1400, "second": 1000})
    assert derived_items(form, work) == (
        QuoteItem("RES-NEW", quantity=D(2400)),
        QuoteItem("RES-STATE-SEAL"),
        QuoteItem("RES-EROSION-NEW"),
    )


def test_a_remodel_is_priced_on_its_valuation() -> None:
    form = kind_form("glendale", "RES-REMODEL")
    items = derived_items(form, WorkValues(valuation=D("14800.00")))
    assert items == (QuoteItem("RES-REMODEL", quantity=D("14800.00")),)


def test_trade_permits_take_the_amount_of_the_state_uniform_form() -> None:
    for code in ("PLUMBING", "ELECTRICAL", "HVAC"):
        items = derived_items(kind_form("glendale", code), WorkValues(fee_amount=D("120.00")))
        assert items == (QuoteItem(code, amount=D("120.00")),)
    other = derived_items(kind_form("glendale", "RES-OTHER"), WorkValues(fee_amount=D("90.00")))
    assert other == (QuoteItem("RES-OTHER", amount=D("90.00")),)


def test_a_commercial_building_is_priced_by_its_occupancy_class() -> None:
    form = kind_form("glendale", "COM-NEW")
    work = WorkValues(areas={"first": 10000}, occupancy="warehouse")
    assert derived_items(form, work) == (QuoteItem("COM-NEW-WAREHOUSE", quantity=D(10000)),)
    with pytest.raises(ValidationError) as e:
        derived_items(form, WorkValues(areas={"first": 10000}))
    assert e.value.field == "occupancy"


def test_every_kind_of_both_municipalities_has_a_form_whose_items_are_in_the_schedule() -> None:
    for muni in ("glendale", "new_lisbon"):
        version = shipped_schedule(muni).versions[-1]
        codes = {it.code for it in version.items}
        for kind in kinds_for(muni):
            form = kind_form(muni, kind.code)
            fees = {r.code for r in form.fees if r.code}
            fees |= {c.fee for c in form.occupancy_classes if any(r.by for r in form.fees)}
            assert fees <= codes, (muni, kind.code, fees - codes)


def test_the_flags_double_the_fees_in_the_request() -> None:
    form = kind_form("glendale", "RES-POOL")
    request = fee_request(form, WorkValues(), (), work_began_before_permit=True)
    assert request.work_began_before_permit and not request.emergency


def test_the_roles_follow_the_trade_of_the_kind() -> None:
    assert PartyRole.PLUMBER in roles_for(PLUMBING)
    assert PartyRole.CONTRACTOR not in roles_for(PLUMBING)
    assert PartyRole.DESIGNER in roles_for(DWELLING)


# --- credentials at the expiry edge ----------------------------------------------------------

LICENCE = HeldCredential(CredentialKind.MASTER_PLUMBER, "MP-10234", date(2026, 6, 30))


def test_a_licence_is_valid_on_its_expiry_date() -> None:
    check = check_credentials(KOWALSKI, PartyRole.PLUMBER, PLUMBING, [LICENCE], date(2026, 6, 30))
    assert check.ok
    assert check.message == "Master plumber licence MP-10234, valid until 06/30/2026"


def test_a_licence_has_expired_the_day_after() -> None:
    check = check_credentials(KOWALSKI, PartyRole.PLUMBER, PLUMBING, [LICENCE], date(2026, 7, 1))
    assert not check.ok
    assert check.message == (
        "Kowalski Plumbing Inc: master plumber licence MP-10234 expired 06/30/2026 (15.1.41)"
    )


def test_a_licence_of_the_wrong_kind_does_not_fit_the_work() -> None:
    electrician = HeldCredential(CredentialKind.MASTER_ELECTRICIAN, "ME-1", None)
    check = check_credentials(KOWALSKI, PartyRole.PLUMBER, PLUMBING, [electrician], DAY)
    assert not check.ok
    assert "no master plumber licence on record" in check.message
    assert "master electrician" in check.message


def test_a_dwelling_contractor_needs_the_dwelling_contractor_certification() -> None:
    held = [HeldCredential(CredentialKind.DWELLING_CONTRACTOR, "DC-1", date(2027, 1, 1))]
    assert check_credentials("B", PartyRole.CONTRACTOR, DWELLING, held, DAY).ok
    assert not check_credentials("B", PartyRole.CONTRACTOR, DWELLING, [], DAY).ok
    assert check_credentials("Owner", PartyRole.BUILDING_OWNER, DWELLING, [], DAY).ok


# --- the presenter with a fake source -----------------------------------------------------------


class FakeSource:
    def __init__(self) -> None:
        self.parcel_rows = [
            ParcelChoice(1, "047-9991-002", "6120", "N Port Washington Rd"),
            ParcelChoice(2, "047-5000-001", "", "W Bender Rd"),
        ]
        self.party_rows = [PartyChoice(10, KOWALSKI), PartyChoice(11, "Anna Schmidt")]
        self.held = {10: [LICENCE]}

    def parcels(self, text: str) -> list[ParcelChoice]:
        t = text.lower()
        return [p for p in self.parcel_rows if p.text.lower().startswith(t) or p.pin.startswith(t)]

    def parcel(self, parcel_id: int) -> ParcelChoice | None:
        return next((p for p in self.parcel_rows if p.id == parcel_id), None)

    def parties(self, text: str) -> list[PartyChoice]:
        return [p for p in self.party_rows if p.name.lower().startswith(text.lower())]

    def credentials(self, party_id: int) -> list[HeldCredential]:
        return self.held.get(party_id, [])


def presenter() -> IntakePresenter:
    return IntakePresenter(1, "glendale", shipped_schedule("glendale"), FakeSource(), DAY)


def test_the_presenter_prices_a_new_dwelling_from_what_was_typed() -> None:
    p = presenter()
    p.set_kind("RES-NEW-DWELLING")
    for key, text in {
        "area_basement_unfinished": "1,400",
        "area_first": "1,400",
        "area_second": "1000",
    }.items():
        p.set_value(key, text)
    assert p.floor_area_text == "2,400 sq ft"
    p.recalculate()
    assert p.quote is not None
    assert [(line.code, line.amount) for line in p.quote.lines] == [
        ("RES-NEW", D("404.00")),
        ("RES-STATE-SEAL", D("35.00")),
        ("RES-EROSION-NEW", D("140.00")),
    ]
    assert p.total_text == "$579.00"


def test_an_extra_item_is_priced_with_the_derived_ones_and_a_mistake_is_named() -> None:
    p = presenter()
    p.set_kind("RES-POOL")
    p.fees.add_line("ADDR-TILE", {"quantity": "4"})
    p.recalculate()
    assert p.total_text == "$74.00"  # $50 + 40 % = $70 pool, 4 tiles at $1
    p.set_value("valuation", "12,5x0")
    p.recalculate()
    assert p.quote is None and p.fee_error == "valuation: '12,5x0' is not an amount of money"


def test_the_parcel_is_chosen_by_a_unique_prefix_and_a_missing_house_number_is_said() -> None:
    p = presenter()
    p.set_kind("RES-NEW-DWELLING")
    assert p.choose_parcel("6120 N Port")
    assert p.parcel is not None and p.parcel.id == 1
    assert not p.needs_house_number
    assert p.choose_parcel("047-5000")
    assert p.needs_house_number
    assert "(15.1.7(b)(1))" in p.parcel_note and "435-15" not in p.parcel_note  # Glendale's
    p.set_value("description", "New house")
    with pytest.raises(ValidationError) as e:
        p.application()
    assert e.value.field == "parcel"


def test_the_application_refuses_a_party_whose_licence_expired_before_the_date() -> None:
    p = presenter()
    p.set_kind("PLUMBING")
    p.choose_parcel("6120")
    p.set_value("description", "Replace water heater")
    p.set_value("fee_amount", "120")
    assert p.choose_party(PartyRole.PLUMBER, "Kowalski")
    p.set_applied_on(date(2026, 6, 30))
    p.confirm_date()  # after the test's today: the clerk said yes to the date
    application = p.application()
    assert application.parties == ((PartyRole.PLUMBER, 10),)
    p.set_applied_on(date(2026, 7, 1))
    with pytest.raises(ValidationError) as e:
        p.application()
    assert e.value.field == "Master plumber"
    assert "expired 06/30/2026" in e.value.message


def test_the_application_stores_the_counted_floor_area_and_the_levels() -> None:
    p = presenter()
    p.set_kind("RES-NEW-DWELLING")
    p.choose_parcel("6120")
    p.set_value("description", "New house")
    p.set_value("valuation", "412,500")
    p.set_value("area_basement_unfinished", "1400")
    p.set_value("area_first", "1400")
    p.set_value("area_second", "1000")
    p.set_value("dwelling_units", "1")
    a = p.application()
    assert a.floor_area_sqft == 2400
    assert a.areas == {"basement_unfinished": 1400, "first": 1400, "second": 1000}
    assert a.valuation == D("412500.00") and a.dwelling_units == 1
    assert a.applied_on == DAY


def test_a_new_lisbon_street_opening_lists_its_435_7_fee_up_front_and_says_where_it_is_set() -> (
    None
):
    p = IntakePresenter(1, "new_lisbon", shipped_schedule("new_lisbon"), FakeSource(), DAY)
    p.set_kind("STREET-OPENING")
    assert p.shows("pavement_age")
    p.set_value("pavement_age", "3")
    p.recalculate()
    # The council has set no fee yet (§435-7 "as set by the Common Council").
    assert p.empty_fees_text == ""
    assert p.fee_error.startswith("Street opening permit: the council has not set this fee yet")
    assert "Administration → Fee schedules" in p.fee_error
    assert "15.1.21" not in p.fee_error


def test_the_paving_age_prices_the_435_7_surcharge_and_a_missing_age_is_asked_for() -> None:
    from dataclasses import replace

    schedule = shipped_schedule("new_lisbon")
    version = schedule.versions[0]
    items = tuple(
        replace(i, council_value=D("50.00")) if i.code == "STREET-OPENING" else i
        for i in version.items
    )
    set_schedule = replace(schedule, versions=(replace(version, items=items),))
    p = IntakePresenter(1, "new_lisbon", set_schedule, FakeSource(), DAY)
    p.set_kind("STREET-OPENING")
    p.recalculate()
    assert "enter the age of the final paving" in p.fee_error
    assert field_of(ValidationError("STREET-OPENING.pavement_age_years", "x")) == "pavement_age"
    p.set_value("pavement_age", "2")  # 2 full years: 3 × the fee
    p.recalculate()
    assert p.quote is not None
    assert [(line.code, line.amount) for line in p.quote.lines] == [
        ("STREET-OPENING", D("50.00")),
        ("STREET-OPENING-SURCHARGE", D("150.00")),
    ]
    p.set_value("pavement_age", "two")
    with pytest.raises(ValidationError) as e:
        p.work()
    assert field_of(e.value) == "pavement_age"


def test_only_glendale_s_form_cites_15_1_21_for_the_valuation() -> None:
    from ui.presenters.intake import valuation_note

    assert valuation_note("glendale") == (
        "excluding HVAC, plumbing and electrical work (15.1.21 NOTE)"
    )
    assert valuation_note("glendale", "electrical") == "the cost of the electrical work alone"
    assert valuation_note("glendale", "erosion") == (
        "excluding HVAC, plumbing and electrical work (15.1.21 NOTE)"
    )
    assert valuation_note("new_lisbon") == ""
    assert valuation_note("hudson") == ""
