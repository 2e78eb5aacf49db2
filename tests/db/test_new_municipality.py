"""Any Wisconsin city, village or town set up from the New municipality form
(desk.services.setup.create_municipality), on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select

from db import schema
from db.database import Database
from db.letterheads import letterhead_as_of
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.kinds import kinds_for
from desk.domain.model import Actor, Parcel, Party
from desk.enforcement.model import Channel
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, permits, setup, users
from desk.services.enforcement import complaints
from tests.factories import PASSWORD

WESTBY = setup.NewMunicipality(
    name="Westby",
    kind="city",
    county="Vernon",
    address="206 N Main St\nWestby, WI 54667",
    inspector_name="Dana Olson",
    inspector_title="Building Inspector",
    zip="54667",
    housing_code="ch-512",
)


def first_admin(database: Database, clock: FixedClock) -> Actor:
    return users.create_first_administrator(
        database.uow(), clock, "admin", "Alex Administrator", PASSWORD
    )


def create(database: Database, clock: FixedClock, actor: Actor, spec: setup.NewMunicipality) -> int:
    return setup.create_municipality(database.uow(), clock, actor, spec)


def municipality(database: Database, mid: int) -> Any:
    """The municipality's row as the register keeps it."""
    m = schema.municipality
    with database.read() as conn:
        row = conn.execute(select(m).where(m.c.id == mid)).first()
    assert row is not None
    return row


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"kind": "hamlet"}, "kind", "choose city, village or town"),
        ({"name": "  "}, "name", "enter the municipality's name"),
        ({"name": "City of "}, "name", "enter the municipality's name"),
        ({"name": "W" * 151}, "name", "at most 150 characters"),
        ({"county": "Vernon Parish"}, "county", "'Vernon Parish' is not a Wisconsin county"),
        ({"county": " "}, "county", "choose the county the municipality is in"),
        ({"housing_code": "hudson-141"}, "housing code", "no housing code 'hudson-141'"),
        ({"ordinance": "milwaukee"}, "permit kinds", "no ordinance 'milwaukee'"),
        ({"zip": "5466"}, "ZIP", "'5466' is not a ZIP code"),
        ({"letterhead": [f"Line {n}" for n in range(7)]}, "letterhead", "at most 6 lines"),
    ],
)
def test_each_field_of_the_form_is_refused_naming_the_field(
    database: Database, clock: FixedClock, changes: dict[str, object], field: str, words: str
) -> None:
    admin = first_admin(database, clock)
    with pytest.raises(ValidationError) as refused:
        create(database, clock, admin, replace(WESTBY, **changes))  # type: ignore[arg-type]
    assert refused.value.field == field
    assert words in refused.value.message
    with database.read() as conn:
        assert conn.execute(select(schema.municipality.c.id)).all() == []


def test_westby_is_set_up_as_typed_with_what_it_administers(
    database: Database, clock: FixedClock
) -> None:
    admin = first_admin(database, clock)
    mid = create(database, clock, admin, replace(WESTBY, name="  Westby ", county="vernon"))
    m = municipality(database, mid)
    assert (m.key, m.name, m.ordinance) == ("city_westby", "City of Westby", "")
    assert m.letterhead == ["City of Westby", "Building Inspection Department"]
    assert (m.inspector_name, m.inspector_title) == ("Dana Olson", "Building Inspector")
    assert m.settings["kind"] == "city"
    assert m.settings["county"] == "Vernon"
    assert m.settings["placename"] == "CITY OF WESTBY"  # as the county's parcel file names it
    assert (m.settings["city"], m.settings["zip"]) == ("Westby", "54667")
    assert m.settings["housing_code"] == "ch-512"


def test_a_name_the_register_has_already_is_refused(database: Database, clock: FixedClock) -> None:
    admin = first_admin(database, clock)
    setup.ensure_municipality(database.uow(), clock, admin, "glendale")
    create(database, clock, admin, WESTBY)
    for name in ("City of Westby", "CITY OF WESTBY"):
        with pytest.raises(ValidationError, match="the register has the City of Westby already"):
            create(database, clock, admin, replace(WESTBY, name=name))
    with pytest.raises(ValidationError) as refused:
        create(database, clock, admin, replace(WESTBY, name="Glendale"))
    assert refused.value.field == "name"
    assert "City of Glendale already" in refused.value.message
    # The same place as a village is another municipality.
    village = create(database, clock, admin, replace(WESTBY, kind="village"))
    assert municipality(database, village).name == "Village of Westby"


def test_two_names_that_make_the_same_key_get_keys_of_their_own(
    database: Database, clock: FixedClock
) -> None:
    admin = first_admin(database, clock)
    spec = replace(WESTBY, kind="village", county="Polk", name="St. Croix Falls")
    first = create(database, clock, admin, spec)
    second = create(database, clock, admin, replace(spec, name="St Croix Falls"))
    third = create(database, clock, admin, replace(spec, name="St-Croix-Falls"))
    keys = [municipality(database, mid).key for mid in (first, second, third)]
    assert keys == [
        "village_st_croix_falls",
        "village_st_croix_falls_2",
        "village_st_croix_falls_3",
    ]


def test_the_letterhead_typed_is_in_force_for_documents_of_any_date(
    database: Database, clock: FixedClock
) -> None:
    admin = first_admin(database, clock)
    lines = ["City of Westby", "Office of the Code Enforcement Officer", "  206  N Main St "]
    mid = create(database, clock, admin, replace(WESTBY, letterhead=[*lines, "", "   "]))
    with database.read() as conn:
        for on in (date(1998, 5, 4), clock.today()):
            head = letterhead_as_of(conn, mid, on)
            assert list(head) == [
                "City of Westby",
                "Office of the Code Enforcement Officer",
                "206 N Main St",
            ]
            assert head.name == "City of Westby"
            assert head.inspector_name == "Dana Olson"
            assert head.address == "206 N Main St\nWestby, WI 54667"


def _parcel(database: Database, clock: FixedClock, actor: Actor, mid: int) -> int:
    return permits.add_parcel(
        database.uow(),
        clock,
        actor,
        Parcel(
            municipality_id=mid,
            pin="286-0040-010",
            house_number="105",
            street="N Main St",
            city="Westby",
            zip="54667",
        ),
    )


def test_glendales_permit_kinds_take_and_price_a_new_house_with_glendales_fees(
    database: Database, clock: FixedClock
) -> None:
    admin = first_admin(database, clock)
    mid = create(database, clock, admin, replace(WESTBY, ordinance="glendale"))
    assert municipality(database, mid).ordinance == "glendale"
    parcel_id = _parcel(database, clock, admin, mid)
    owner = permits.add_party(
        database.uow(),
        clock,
        admin,
        Party(kind=PartyKind.PERSON, name="", first_name="Ole", last_name="Hanson"),
    )
    permit_id = permits.take_application(
        database.uow(),
        clock,
        admin,
        permits.ApplicationInput(
            municipality_id=mid,
            kind="RES-NEW-DWELLING",
            parcel_id=parcel_id,
            description="New single-family dwelling",
            valuation=Decimal("310000.00"),
            floor_area_sqft=2400,
            dwelling_units=1,
            parties=((PartyRole.BUILDING_OWNER, owner),),
        ),
    )
    request = QuoteRequest(
        items=(QuoteItem("RES-NEW", quantity=Decimal(2400)), QuoteItem("RES-STATE-SEAL"))
    )
    quote = fees.assess_fees(database.uow(), clock, admin, permit_id, request)
    # Glendale 15.1.21: 2,400 sq ft × $0.12 + 40 %, rounded up, $404.00; the state seal $35.00.
    assert [(line.code, line.amount) for line in quote.lines] == [
        ("RES-NEW", Decimal("404.00")),
        ("RES-STATE-SEAL", Decimal("35.00")),
    ]
    assert quote.total == Decimal("439.00")
    # The schedule was started from Glendale's file; Fee schedules edits it from there.
    shipped = fees.shipped_schedule("glendale")
    schedule = fees.fee_schedule(database.uow(), clock, mid)
    assert [v.label for v in schedule.versions] == [v.label for v in shipped.versions]


def test_a_municipality_with_no_permit_kinds_has_none_to_take_or_price(
    database: Database, clock: FixedClock
) -> None:
    admin = first_admin(database, clock)
    mid = create(database, clock, admin, WESTBY)
    assert kinds_for(municipality(database, mid).ordinance) == ()
    with pytest.raises(RuleViolation, match="City of Westby"):
        fees.fee_schedule(database.uow(), clock, mid)


def test_housing_code_none_refuses_a_complaint_in_words(
    database: Database, clock: FixedClock
) -> None:
    admin = first_admin(database, clock)
    mid = create(database, clock, admin, replace(WESTBY, housing_code=""))
    assert municipality(database, mid).settings["housing_code"] == "none"
    parcel_id = _parcel(database, clock, admin, mid)
    with pytest.raises(RuleViolation) as refused:
        complaints.take_complaint(
            database.uow(), clock, admin, mid, parcel_id, Channel.PHONE, "No heat since Friday"
        )
    assert str(refused.value) == (
        "The City of Westby enforces no housing code in Permit Desk; an administrator sets one "
        "in Administration → Municipality."
    )


def test_only_an_administrator_sets_up_a_municipality(
    database: Database, clock: FixedClock
) -> None:
    from desk.domain.enums import Role

    admin = first_admin(database, clock)
    clerk_id = users.create_user(
        database.uow(),
        clock,
        admin,
        username="carol",
        full_name="Carol Clerk",
        password=PASSWORD,
        roles={Role.CLERK},
    )
    assert clerk_id
    clerk = users.authenticate(database.uow(), "carol", PASSWORD)
    with pytest.raises(PermissionDenied):
        create(database, clock, clerk, WESTBY)
    with database.read() as conn:
        assert conn.execute(select(schema.municipality.c.id)).all() == []


def test_the_municipality_screen_changes_what_it_is_and_the_code_it_enforces(
    database: Database, clock: FixedClock
) -> None:
    from desk.services import municipality as screen

    admin = first_admin(database, clock)
    mid = create(database, clock, admin, replace(WESTBY, ordinance="new_lisbon"))
    shown = screen.municipality_settings(database.uow(), mid)
    assert (shown.kind, shown.county, shown.placename) == ("city", "Vernon", "CITY OF WESTBY")
    assert (shown.housing_code, shown.ordinance) == ("ch-512", "new_lisbon")
    for field, value, label, words in (
        ("kind", "borough", "Kind", "choose city, village or town"),
        ("county", "Vernon Parish", "County", "'Vernon Parish' is not a Wisconsin county"),
        ("housing_code", "hudson-141", "Housing code", "no housing code 'hudson-141' is shipped"),
    ):
        with pytest.raises(ValidationError) as refused:
            screen.update_municipality(database.uow(), clock, admin, mid, {field: value})
        assert (refused.value.field, refused.value.message) == (label, words)
    changed = screen.update_municipality(
        database.uow(),
        clock,
        admin,
        mid,
        {
            "kind": "village",
            "county": "monroe",
            "placename": "Village of Westby ",
            "housing_code": "none",
        },
        shown.record_version,
    )
    assert changed == ("kind", "county", "placename", "housing_code")
    again = screen.municipality_settings(database.uow(), mid)
    assert (again.kind, again.county, again.placename) == ("village", "Monroe", "VILLAGE OF WESTBY")
    assert again.housing_code == "none"
    # No code enforced: a complaint is refused in words, until a code is set again.
    parcel_id = _parcel(database, clock, admin, mid)
    with pytest.raises(RuleViolation, match="enforces no housing code"):
        complaints.take_complaint(
            database.uow(), clock, admin, mid, parcel_id, Channel.COUNTER, "Broken stairs"
        )
    assert screen.update_municipality(
        database.uow(), clock, admin, mid, {"housing_code": "hudson-140"}
    ) == ("housing_code",)
    taken = complaints.take_complaint(
        database.uow(), clock, admin, mid, parcel_id, Channel.COUNTER, "Broken stairs"
    )
    assert taken.case.number == "CE-2026-0001"
    # Saving the same values again changes nothing.
    assert (
        screen.update_municipality(
            database.uow(), clock, admin, mid, {"kind": "village", "housing_code": "hudson-140"}
        )
        == ()
    )
