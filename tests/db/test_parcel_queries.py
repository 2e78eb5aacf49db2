"""The Parcels section's list and a parcel window's facts, read from the register (SQLite and
PostgreSQL): a search by PIN, address, owner of record or state parcel id, a page at a time
over the whole list in street or PIN order, the retired and merged parcels apart, and all that
points at a parcel with its history."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import update

from db import parcel_queries as q
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Parcel
from desk.enforcement.model import Channel
from desk.services import permits, street_register
from desk.services.enforcement import complaints
from desk.services.parcels import edit, merge, retire
from tests.factories import Register, application, seed_register


def _add(database: Database, clock: FixedClock, reg: Register, pin: str, **kw: object) -> int:
    return permits.add_parcel(
        database.uow(),
        clock,
        reg.clerk,
        Parcel(municipality_id=reg.municipality_id, pin=pin, **kw),  # type: ignore[arg-type]
    )


def _county(database: Database, parcel_id: int, **values: object) -> None:
    """What the county's file would have set (the import itself is tested on its own)."""
    with database.engine.begin() as conn:
        conn.execute(update(schema.parcel).where(schema.parcel.c.id == parcel_id).values(**values))


def _pins(database: Database, mid: int, text: str = "", **kw: object) -> list[str]:
    with database.read() as conn:
        return [r.pin for r in q.parcel_rows(conn, mid, text=text, **kw)]  # type: ignore[arg-type]


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def test_a_search_finds_a_parcel_by_pin_address_owner_or_state_id_in_any_case(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    mid = reg.municipality_id
    lake = _add(database, clock, reg, "048-1007-017", house_number="5800", street="N Lake Dr")
    _county(
        database,
        lake,
        owner_name="JOSEPH C RATH",
        owner_name_2="ROBBIN M DUUCK",
        state_id="1232910064500",
        property_classes=["4", "5M"],
        acres=Decimal("0.2500"),
        assessed_value=Decimal("186700.00"),
    )

    assert _pins(database, mid, "048-1007") == ["048-1007-017"]
    assert _pins(database, mid, "5800 n lake") == ["048-1007-017"]
    assert _pins(database, mid, "duuck") == ["048-1007-017"]  # the second owner
    assert _pins(database, mid, "rath lake") == ["048-1007-017"]  # every word, any field
    assert _pins(database, mid, "rath port") == []
    assert _pins(database, mid, "12329100645") == ["048-1007-017"]
    assert _pins(database, mid, "port washington") == ["047-9991-002"]
    assert _pins(database, mid, "lake drive") == ["048-1007-017"]  # "drive" finds "Dr"
    assert _pins(database, mid, "north lake") == ["048-1007-017"]
    assert _pins(database, mid, "50%") == []  # a wildcard typed is a character
    with database.read() as conn:
        assert q.parcel_count(conn, mid, text="RATH") == 1
        (row,) = q.parcel_rows(conn, mid, text="rath")
    assert (row.address, row.owners) == ("5800 N Lake Dr", "JOSEPH C RATH & ROBBIN M DUUCK")
    assert (row.property_classes, row.acres, row.assessed_value) == (
        ("4", "5M"),
        Decimal("0.2500"),
        Decimal("186700.00"),
    )


def test_the_pages_cover_the_whole_list_once_in_street_and_house_number_order(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    mid = reg.municipality_id
    added = []
    for n in range(24):
        street = ("W Bender Rd", "N Port Washington Rd", "E Daphne Rd")[n % 3]
        pin = f"050-{n:04d}-001"
        added.append(_add(database, clock, reg, pin, house_number=str(96 + n), street=street))
    for parcel_id in added[:2]:  # a county file leaves some site addresses blank
        with database.read() as conn:
            shown = q.parcel_facts(conn, parcel_id)
        assert shown is not None
        form = edit.ParcelEdit(**{k: getattr(shown, k) for k in edit.EDITED})
        edit.update_parcel(database.uow(), clock, reg.clerk, parcel_id, replace(form, street=""))
    with database.read() as conn:
        count = q.parcel_count(conn, mid)
        pages = [q.parcel_rows(conn, mid, limit=10, offset=at) for at in (0, 10, 20)]
        last = q.parcel_rows(conn, mid, limit=4, offset=24)
        by_pin = [
            r.pin
            for at in (0, 10, 20)
            for r in q.parcel_rows(conn, mid, sort=q.ParcelSort.PIN, limit=10, offset=at)
        ]
    rows = [r for page in pages for r in page]
    assert count == 25 == len(rows) == len({r.id for r in rows})
    assert [len(page) for page in pages] == [10, 10, 5]
    bender = [r.house_number for r in rows if r.street == "W Bender Rd"]
    assert bender == sorted(bender, key=int)  # 99, 102, 105 …: "99" before "102"
    assert [r.street for r in rows[:3]] == ["E Daphne Rd"] * 3
    # No street yet: after every parcel with one, a page beginning among them too.
    assert [r.pin for r in rows[-2:]] == ["050-0000-001", "050-0001-001"]
    assert [r.pin for r in last] == ["050-0001-001"]
    assert by_pin == sorted(r.pin for r in rows)


def test_a_retired_or_merged_parcel_leaves_the_active_list_and_says_so_in_the_retired_one(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    mid = reg.municipality_id
    wrong = _add(database, clock, reg, "N Santa Monica Blvd", street="Glendale", unit="53217")
    split = _add(database, clock, reg, "048-0001-001", house_number="100", street="W Bender Rd")
    retire.retire_parcel(database.uow(), clock, reg.clerk, split, "Split into two lots in 2026")
    merge.merge_parcels(database.uow(), clock, reg.clerk, reg.parcel_id, wrong)

    assert _pins(database, mid) == ["047-9991-002"]
    with database.read() as conn:
        retired = {r.pin: r for r in q.parcel_rows(conn, mid, q.ParcelFilter.RETIRED)}
        assert q.parcel_count(conn, mid, q.ParcelFilter.ALL) == 3
    assert retired["048-0001-001"].retired_on == date(2026, 3, 2)
    assert retired["048-0001-001"].merged_into_pin == ""
    assert retired["N Santa Monica Blvd"].merged_into_pin == "047-9991-002"
    assert _pins(database, mid, "santa monica", which=q.ParcelFilter.ACTIVE) == []


def test_the_window_lists_the_parcel_s_permit_case_and_street_register_entry(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    mid = reg.municipality_id
    complaints.take_complaint(
        database.uow(), clock, reg.clerk, mid, reg.parcel_id, Channel.PHONE, "No heat upstairs"
    )
    street_register.record_repaving(
        database.uow(),
        clock,
        reg.inspector,
        mid,
        "n port washington rd",  # as typed: the register's street matches in any case
        date(2024, 6, 1),
        from_number=6000,
        to_number=6300,
    )
    street_register.record_repaving(
        database.uow(), clock, reg.inspector, mid, "W Bender Rd", date(2023, 5, 1)
    )
    with database.read() as conn:
        f = q.parcel_facts(conn, reg.parcel_id)
        assert q.parcel_id_by_pin(conn, mid, "047-9991-002") == reg.parcel_id
    assert f is not None
    assert (f.pin, f.address, f.city, f.zip) == (
        "047-9991-002",
        "6120 N Port Washington Rd",
        "Glendale",
        "53217",
    )
    (permit,) = f.permits
    assert (permit.id, permit.number, permit.applied_on) == (reg.permit_id, None, date(2026, 3, 2))
    (case,) = f.cases
    assert (case.number, case.opened_on, case.closed_on, case.complaints) == (
        "CE-2026-0001",
        date(2026, 3, 2),
        None,
        1,
    )
    assert f.complaints == 1
    (entry,) = f.street_entries
    assert (entry.from_number, entry.to_number, entry.repaved_on) == (6000, 6300, date(2024, 6, 1))
    assert f.source is None and f.retired_on is None
    with database.read() as conn:
        (row,) = q.parcel_rows(conn, mid)
    assert (row.permits, row.open_cases) == (1, 1)


def test_the_window_shows_the_history_newest_first_with_who_by_full_name(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    with database.read() as conn:
        shown = q.parcel_facts(conn, reg.parcel_id)
    assert shown is not None
    form = edit.ParcelEdit(**{k: getattr(shown, k) for k in edit.EDITED})
    clock.set(date(2026, 3, 5))
    edit.update_parcel(
        database.uow(),
        clock,
        reg.clerk,
        reg.parcel_id,
        replace(form, zoning_district="R-4"),
        shown.version,
    )
    with database.read() as conn:
        f = q.parcel_facts(conn, reg.parcel_id)
    assert f is not None
    assert f.version == shown.version + 1
    assert [e.action for e in f.history] == ["update", "create"]
    newest = f.history[0]
    assert newest.at.date() == date(2026, 3, 5)
    assert [(c.field, c.old, c.new) for c in newest.changes] == [("zoning_district", "", "R-4")]
    assert f.lookup.full_names[newest.username] == "Carol Clerk"


def test_a_permit_moved_by_a_merge_is_listed_on_the_parcel_kept(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    twice = _add(database, clock, reg, "0479991002", house_number="6120", street="N Port Wash")
    moved = permits.take_application(
        database.uow(), clock, reg.clerk, replace(application(reg), parcel_id=twice)
    )
    merge.merge_parcels(database.uow(), clock, reg.clerk, reg.parcel_id, twice)
    with database.read() as conn:
        kept = q.parcel_facts(conn, reg.parcel_id)
        gone = q.parcel_facts(conn, twice)
    assert kept is not None and gone is not None
    assert sorted(p.id for p in kept.permits) == sorted([reg.permit_id, moved])
    assert kept.merged_from == ("0479991002",)
    assert (gone.permits, gone.merged_into_pin, gone.retired_by) == (
        (),
        "047-9991-002",
        "Carol Clerk",
    )
