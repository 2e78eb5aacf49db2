"""Two holds on issuance the service applies itself: the lot's official house number (Glendale
15.1.7(b)(1), New Lisbon §435-15.E) and the five years after a street's repaving (New Lisbon
§435-8.I), with the street register and the Council's approval that feed them (SQLite and
PostgreSQL)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import text

from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.model import Actor, Parcel, Party
from desk.errors import IssuanceRefused, PermissionDenied, ValidationError
from desk.services import intake, permits, street_register
from desk.services.issuance import issuance_shortfalls
from tests.factories import Register, make_issuable, open_office, seed_register

PAVED = date(2021, 6, 1)  # the fifth anniversary: 2026-06-01


def _number_of(database: Database, permit_id: int) -> str | None:
    with database.read() as conn:
        value = conn.execute(
            text("SELECT number FROM permit WHERE id = :id"), {"id": permit_id}
        ).scalar_one()
    return None if value is None else str(value)


def _counters(database: Database) -> int:
    with database.read() as conn:
        return int(conn.execute(text("SELECT COUNT(*) FROM number_counter")).scalar_one())


# --- the house number (Glendale 15.1.7(b)(1), New Lisbon §435-15.E) ---------------------------


def test_each_municipality_cites_its_own_house_number_section() -> None:
    assert intake.kind_form("glendale", "RES-NEW-DWELLING").house_number_section == ("15.1.7(b)(1)")
    assert intake.house_number_section("new_lisbon") == "§435-15.E"
    assert intake.needs_house_number("glendale", "RES-NEW-DWELLING")
    assert intake.needs_house_number("glendale", "COM-NEW")
    assert not intake.needs_house_number("glendale", "RES-OTHER")


def dwelling_on_a_lot_without_a_number(
    database: Database, clock: FixedClock, reg: Register
) -> tuple[int, int]:
    """(parcel id, permit id): a new dwelling applied for on a vacant lot with no house number,
    every other condition of issue met."""
    uow = database.uow()
    lot = permits.add_parcel(
        uow,
        clock,
        reg.clerk,
        Parcel(municipality_id=reg.municipality_id, pin="047-9991-099", street="W Bender Rd"),
    )
    permit_id = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="RES-NEW-DWELLING",
            parcel_id=lot,
            description="New single-family dwelling on a vacant lot",
            valuation=Decimal("380000.00"),
            floor_area_sqft=2100,
            dwelling_units=1,
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id),),
        ),
    )
    make_issuable(database, clock, reg.admin, permit_id)
    return lot, permit_id


def test_a_new_dwelling_on_a_lot_without_a_house_number_is_held_until_the_number_is_recorded(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    lot, permit_id = dwelling_on_a_lot_without_a_number(database, clock, reg)
    uow = database.uow()
    hold = (
        "No official house number is on record for parcel 047-9991-099; a building permit for "
        "a new structure is not issued until it is recorded (15.1.7(b)(1))"
    )
    short = issuance_shortfalls(uow, permit_id, clock.today())
    assert short == [hold]  # Glendale's own section, not New Lisbon's
    with pytest.raises(IssuanceRefused) as refused:
        permits.issue_permit(uow, clock, reg.inspector, permit_id)
    assert refused.value.shortfalls == [hold]
    assert _number_of(database, permit_id) is None  # no number taken by a refused issue
    assert _counters(database) == 0

    # A reroofing permit on the same lot is not a new structure: no hold.
    reroof = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="RES-OTHER",
            parcel_id=lot,
            description="Reroof the garage",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id),),
        ),
    )
    assert hold not in issuance_shortfalls(uow, reroof, clock.today())

    intake.record_house_number(uow, clock, reg.clerk, lot, "5910")
    assert issuance_shortfalls(uow, permit_id, clock.today()) == []
    number = permits.issue_permit(uow, clock, reg.inspector, permit_id)
    assert number == "2026-0001"  # the first number of the year: none was used by the refusal


# --- the street register and the five years after repaving (§435-8.I) ------------------------


@dataclass
class Lisbon:
    admin: Actor
    clerk: Actor
    inspector: Actor
    engineer: Actor
    treasurer: Actor
    municipality_id: int
    parcel_id: int
    permit_id: int


def _new_lisbon(database: Database, clock: FixedClock) -> Lisbon:
    uow = database.uow()
    admin, mid, (clerk, inspector, engineer, treasurer) = open_office(
        database, clock, "new_lisbon", ("carol", "ivan", "erin", "terry")
    )
    parcel_id = permits.add_parcel(
        uow,
        clock,
        clerk,
        Parcel(municipality_id=mid, pin="251-00412-0000", house_number="218", street="E Bridge St"),
    )
    utility = permits.add_party(
        uow, clock, clerk, Party(kind=PartyKind.ORGANIZATION, name="Juneau County Gas Co.")
    )
    permit_id = permits.take_application(
        uow,
        clock,
        clerk,
        permits.ApplicationInput(
            municipality_id=mid,
            kind="STREET-OPENING",
            parcel_id=parcel_id,
            description="Gas service lateral across E Bridge St",
            parties=((PartyRole.APPLICANT, utility),),
        ),
    )
    return Lisbon(admin, clerk, inspector, engineer, treasurer, mid, parcel_id, permit_id)


def _moratorium(lines: list[str]) -> list[str]:
    return [s for s in lines if "§435-8.I" in s]


def test_an_opening_within_five_years_of_the_repaving_is_held_to_the_day_before_the_anniversary(
    database: Database, clock: FixedClock
) -> None:
    nl = _new_lisbon(database, clock)
    uow = database.uow()
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 5, 31))) == []
    street_register.record_repaving(
        uow,
        clock,
        nl.engineer,
        nl.municipality_id,
        "e bridge st.",  # the register matches the parcels' spelling loosely
        PAVED,
        from_number=100,
        to_number=400,
        notes="Mill and overlay, Council res. 2021-07",
    )
    held = issuance_shortfalls(uow, nl.permit_id, date(2026, 5, 31))  # the day before
    assert _moratorium(held) == [
        "e bridge st. was repaved on 06/01/2021; it may not be opened before 06/01/2026 (five "
        "years) unless the Common Council approves the opening as absolutely essential, and no "
        "approval is on record (§435-8.I, Excavation in new streets limited)."
    ]
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 6, 1))) == []  # the day
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 6, 2))) == []  # after

    with pytest.raises(IssuanceRefused) as refused:
        permits.issue_permit(uow, clock, nl.inspector, nl.permit_id, issued_on=date(2026, 5, 31))
    assert _moratorium(refused.value.shortfalls)
    assert _number_of(database, nl.permit_id) is None
    assert _counters(database) == 0


def test_the_latest_repaving_of_the_parcels_segment_counts_and_other_segments_do_not(
    database: Database, clock: FixedClock
) -> None:
    nl = _new_lisbon(database, clock)
    uow = database.uow()
    street_register.record_repaving(
        uow, clock, nl.inspector, nl.municipality_id, "E Bridge St", PAVED,
        from_number=500, to_number=900,
    )  # fmt: skip
    street_register.record_repaving(
        uow, clock, nl.inspector, nl.municipality_id, "W Bridge St", date(2025, 8, 1)
    )
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 5, 31))) == []
    # The whole street repaved again later: a new five years for every opening on it.
    street_register.record_repaving(
        uow, clock, nl.engineer, nl.municipality_id, "E Bridge St", date(2022, 9, 15)
    )
    street_register.record_repaving(uow, clock, nl.admin, nl.municipality_id, "E Bridge St", PAVED)
    (hold,) = _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2027, 9, 14)))
    assert "repaved on 09/15/2022" in hold and "before 09/15/2027" in hold
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2027, 9, 15))) == []
    rows = street_register.repavings(uow, nl.municipality_id)
    assert [(r.segment, r.repaved_on, r.moratorium_ends) for r in rows][:2] == [
        ("W Bridge St", date(2025, 8, 1), date(2030, 8, 1)),
        ("E Bridge St", date(2022, 9, 15), date(2027, 9, 15)),
    ]


def test_the_councils_approval_lifts_the_hold_from_the_day_it_was_given(
    database: Database,
) -> None:
    clock = FixedClock(date(2026, 5, 25))
    nl = _new_lisbon(database, clock)
    uow = database.uow()
    street_register.record_repaving(
        uow, clock, nl.engineer, nl.municipality_id, "E Bridge St", PAVED
    )
    street_register.record_council_approval(
        uow, clock, nl.clerk, nl.permit_id, date(2026, 5, 20), "Res. 2026-14"
    )
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 5, 19)))  # day before
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 5, 20))) == []  # day of
    assert _moratorium(issuance_shortfalls(uow, nl.permit_id, date(2026, 5, 21))) == []  # after
    with uow:
        permit = uow.permits.get(nl.permit_id)
        assert permit is not None
        assert permit.council_opening_approved_on == date(2026, 5, 20)
        assert permit.council_opening_recorded_by_id == nl.clerk.user_id
        assert permit.council_approval == "Res. 2026-14"
    with database.read() as conn:
        audited = conn.execute(
            text(
                "SELECT entity, user_id FROM audit_event WHERE entity IN "
                "('street_repaving', 'permit') AND action <> 'insert' OR entity = "
                "'street_repaving' ORDER BY id"
            )
        ).all()
    assert ("street_repaving", nl.engineer.user_id) in [tuple(r) for r in audited]
    assert ("permit", nl.clerk.user_id) in [tuple(r) for r in audited]


def test_only_the_engineer_inspector_or_admin_record_a_repaving_and_no_treasurer_an_approval(
    database: Database, clock: FixedClock
) -> None:
    nl = _new_lisbon(database, clock)
    uow = database.uow()
    with pytest.raises(PermissionDenied):
        street_register.record_repaving(
            uow, clock, nl.clerk, nl.municipality_id, "E Bridge St", PAVED
        )
    with pytest.raises(PermissionDenied):
        street_register.record_council_approval(
            uow, clock, nl.treasurer, nl.permit_id, date(2026, 3, 1)
        )
    with pytest.raises(PermissionDenied):
        street_register.record_council_approval(
            uow, clock, nl.engineer, nl.permit_id, date(2026, 3, 1)
        )
    with pytest.raises(ValidationError):
        street_register.record_repaving(
            uow, clock, nl.engineer, nl.municipality_id, "E Bridge St", date(2026, 3, 3)
        )  # tomorrow: not yet done
    with pytest.raises(ValidationError):
        street_register.record_repaving(
            uow, clock, nl.engineer, nl.municipality_id, "E Bridge St", PAVED,
            from_number=400, to_number=100,
        )  # fmt: skip
    street_register.record_council_approval(
        uow, clock, nl.inspector, nl.permit_id, date(2026, 3, 1)
    )
    assert street_register.repavings(uow, nl.municipality_id) == []
