"""A parcel typed wrong is corrected, retired or merged, never deleted; every change is audited
and a save over a newer version is refused (SQLite and PostgreSQL)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import select

from db import records, schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.model import Parcel
from desk.enforcement.model import Channel
from desk.errors import DuplicateRecord, RuleViolation, StaleEdit, ValidationError
from desk.services import permits
from desk.services.enforcement import complaints
from desk.services.parcels import edit, merge, owner, retire
from tests.factories import seed_register


def _parcel(database: Database, parcel_id: int) -> Any:
    """The parcel's row as the register holds it (read, not a live record)."""
    pc = schema.parcel
    with database.read() as conn:
        row = conn.execute(select(pc).where(pc.c.id == parcel_id)).one()
    return SimpleNamespace(
        **row._mapping,
        address=Parcel(
            **{
                k: row._mapping[k]
                for k in ("municipality_id", "pin", "house_number", "street", "unit")
            }
        ).address,
    )


def _audit(database: Database, entity: str, entity_id: int) -> list[dict[str, str | None]]:
    a = schema.audit_event
    with database.read() as conn:
        rows = conn.execute(
            select(a.c.changes).where((a.c.entity == entity) & (a.c.entity_id == entity_id))
        ).all()
    return [change for (changes,) in rows for change in changes]


def test_a_mistyped_parcel_is_corrected_and_each_field_is_audited_old_to_new(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    wrong = permits.add_parcel(
        database.uow(),
        clock,
        reg.clerk,
        Parcel(municipality_id=reg.municipality_id, pin="5321-7", street="Glendale", unit="53217"),
    )
    shown = _parcel(database, wrong)
    fixed = replace(
        edit.parcel_edit_of(shown),
        pin="048-1007-017",
        house_number="5800",
        street="N Santa Monica Blvd",
        unit="",
        city="Glendale",
        zip="53217",
    )
    edit.update_parcel(database.uow(), clock, reg.clerk, wrong, fixed, shown.version)

    after = _parcel(database, wrong)
    assert (after.pin, after.address, after.zip) == (
        "048-1007-017",
        "5800 N Santa Monica Blvd",
        "53217",
    )
    changes = {c["field"]: (c["old"], c["new"]) for c in _audit(database, "parcel", wrong)}
    assert changes["pin"] == ("5321-7", "048-1007-017")
    assert changes["street"] == ("Glendale", "N Santa Monica Blvd")
    assert changes["unit"] == ("53217", "")


def test_a_save_over_a_newer_version_is_refused_naming_who_changed_it(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    shown = _parcel(database, reg.parcel_id)
    form = edit.parcel_edit_of(shown)
    edit.update_parcel(
        database.uow(), clock, reg.admin, reg.parcel_id, replace(form, notes="x"), shown.version
    )
    with pytest.raises(StaleEdit, match="Alex Administrator"):
        edit.update_parcel(
            database.uow(),
            clock,
            reg.clerk,
            reg.parcel_id,
            replace(form, zoning_district="R-3"),
            shown.version,
        )
    assert _parcel(database, reg.parcel_id).zoning_district == ""


def test_a_pin_another_parcel_has_is_refused_naming_it(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    other = permits.add_parcel(
        database.uow(),
        clock,
        reg.clerk,
        Parcel(municipality_id=reg.municipality_id, pin="048-0001-001", street="W Good Hope Rd"),
    )
    form = replace(edit.parcel_edit_of(_parcel(database, other)), pin="047-9991-002")
    with pytest.raises(DuplicateRecord, match="Parcel 047-9991-002 already exists") as e:
        edit.update_parcel(database.uow(), clock, reg.clerk, other, form)
    assert e.value.existing_id == reg.parcel_id


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        (
            "pin",
            "N Santa Monica Blvd",
            "parcel number: 'N Santa Monica Blvd' looks like an address",
        ),
        ("pin", "  ", "parcel number: enter the parcel number"),
        ("zip", "5321", "ZIP: '5321' is not a ZIP code"),
        ("lot_area_sqft", -5, "lot area: a number of square feet"),
        ("street", "x" * 121, "street: at most 120 characters"),
    ],
)
def test_bad_input_is_refused_naming_the_field(
    database: Database, clock: FixedClock, field: str, value: object, words: str
) -> None:
    reg = seed_register(database, clock)
    form = replace(edit.parcel_edit_of(_parcel(database, reg.parcel_id)), **{field: value})
    with pytest.raises(ValidationError) as e:
        edit.update_parcel(database.uow(), clock, reg.clerk, reg.parcel_id, form)
    assert str(e.value).startswith(words)


def test_a_retired_parcel_keeps_its_permit_leaves_the_pickers_and_can_be_restored(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    retire.retire_parcel(database.uow(), clock, reg.clerk, reg.parcel_id, "split by CSM 4412")
    parcel = _parcel(database, reg.parcel_id)
    assert (parcel.retired_on, parcel.retired_reason) == (date(2026, 3, 2), "split by CSM 4412")
    from db import queries

    with database.read() as conn:
        p = schema.permit
        assert conn.execute(select(p.c.parcel_id).where(p.c.id == reg.permit_id)).scalar_one() == (
            reg.parcel_id
        )
        assert queries.parcel_matches(conn, reg.municipality_id, "047-9991") == []
    with pytest.raises(RuleViolation, match="retired on 03/02/2026; restore it first"):
        edit.update_parcel(
            database.uow(), clock, reg.clerk, reg.parcel_id, edit.parcel_edit_of(parcel)
        )
    with pytest.raises(ValidationError, match="reason: say why"):
        retire.retire_parcel(database.uow(), clock, reg.clerk, reg.parcel_id, " ")
    retire.restore_parcel(database.uow(), clock, reg.clerk, reg.parcel_id)
    assert _parcel(database, reg.parcel_id).retired_on is None


def test_merging_moves_permits_and_cases_to_the_parcel_kept_and_retires_the_duplicate(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    duplicate = permits.add_parcel(
        uow,
        clock,
        reg.clerk,
        Parcel(
            municipality_id=reg.municipality_id,
            pin="0479991002",
            street="N Port Washington Road",
            house_number="6120",
            zoning_district="R-4",
            notes="Side door faces the alley.",
        ),
    )
    second = permits.take_application(
        uow, clock, reg.clerk, replace(_reroof(reg), parcel_id=duplicate)
    )
    complaints.take_complaint(
        uow,
        clock,
        reg.clerk,
        reg.municipality_id,
        duplicate,
        Channel.PHONE,
        "No heat in the rear unit",
    )
    preview = merge.merge_preview(database.uow(), reg.parcel_id, duplicate)
    kinds = sorted(r.kind for r in preview.references)
    assert kinds == ["Code enforcement case", "Complaint", "Permit"]

    merge.merge_parcels(database.uow(), clock, reg.clerk, reg.parcel_id, duplicate)

    with database.read() as conn:
        p = schema.permit
        assert conn.execute(select(p.c.parcel_id).where(p.c.id == second)).scalar_one() == (
            reg.parcel_id
        )
        c = schema.enforcement_case
        assert conn.execute(select(c.c.parcel_id)).scalars().all() == [reg.parcel_id]
        listing = schema.permit_listing
        address = conn.execute(
            select(listing.c.address).where(listing.c.permit_id == second)
        ).scalar_one()
    assert address == "6120 N Port Washington Rd"  # the kept parcel's, on the permits list
    kept, dup = _parcel(database, reg.parcel_id), _parcel(database, duplicate)
    assert kept.zoning_district == "R-4"  # a blank of the kept parcel filled
    assert "Side door faces the alley." in kept.notes
    assert (dup.retired_on, dup.merged_into_id) == (date(2026, 3, 2), reg.parcel_id)
    assert dup.retired_reason == "merged into parcel 047-9991-002"
    permit_moves = [c for c in _audit(database, "permit", second) if c["field"] == "parcel_id"]
    assert permit_moves[-1] == {
        "field": "parcel_id",
        "old": str(duplicate),
        "new": str(reg.parcel_id),
    }
    with pytest.raises(RuleViolation, match="was merged already"):
        merge.merge_parcels(database.uow(), clock, reg.clerk, reg.parcel_id, duplicate)
    with pytest.raises(RuleViolation, match="stays retired"):
        retire.restore_parcel(database.uow(), clock, reg.clerk, duplicate)


def _reroof(reg: object) -> permits.ApplicationInput:
    from tests.factories import application

    return application(reg)  # type: ignore[arg-type]


def test_every_column_that_points_at_a_parcel_or_a_person_is_moved_by_a_merge() -> None:
    covered = {
        (cls.__mapper__.local_table.name, attr if attr.endswith("_id") else f"{attr}_id")  # type: ignore[attr-defined]
        for references in (records.PARCEL_REFERENCES, records.PARTY_REFERENCES)
        for cls, attr, _kind, _label in references
    }
    covered |= set(records.PARTY_OWNED)
    pointing = {
        (t.name, fk.parent.name)
        for t in schema.metadata.sorted_tables
        for fk in t.foreign_keys
        if fk.column.table.name in ("parcel", "party")
    }
    assert pointing - covered == set()


def test_the_owner_of_record_becomes_a_person_once_with_the_mailing_address_split(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    parcel = _parcel(database, reg.parcel_id)
    form = replace(
        edit.parcel_edit_of(parcel),
        owner_name="TRAASTAD SPECIAL TRUST",
        owner_address="PO BOX 7, WESTBY, WI, 54667",
    )
    edit.update_parcel(database.uow(), clock, reg.clerk, reg.parcel_id, form)
    first = owner.owner_as_party(database.uow(), clock, reg.clerk, reg.parcel_id)
    again = owner.owner_as_party(database.uow(), clock, reg.clerk, reg.parcel_id)
    assert first == again
    pa = schema.party
    with database.read() as conn:
        party = conn.execute(select(pa).where(pa.c.id == first)).one()
    assert (party.kind, party.name) == (PartyKind.ORGANIZATION, "TRAASTAD SPECIAL TRUST")
    assert (party.address_line1, party.city, party.state, party.zip) == (
        "PO BOX 7",
        "WESTBY",
        "WI",
        "54667",
    )
    assert PartyRole.BUILDING_OWNER  # the role the application offers it for
