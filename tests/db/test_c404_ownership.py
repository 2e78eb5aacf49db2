"""Census Form C-404 counts new privately owned housing only. Who owns a building is answered at
intake (work_details["ownership"]: "public" or "private"); that answer wins over what the owner's
name suggests, both ways, and the name decides only where the permit says nothing. The office
may correct the answer later; the correction is audited."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from db import queries
from db import report_queries as q
from db.database import Database
from db.demo import _ownership_marks, _Town
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.domain.enums import PartyKind, PartyRole
from desk.domain.kinds import kind_by_code
from desk.domain.model import Party
from desk.errors import PermissionDenied, ValidationError
from desk.services import permits
from desk.services.intake import record_ownership
from tests.factories import Register, make_issuable, seed_register

MARCH = r.month_period(2026, 3)


@dataclass
class Housing:
    db: Database
    clock: FixedClock
    reg: Register
    marked_public: int  # owner "Riverside Commons LP", answered public
    marked_private: int  # owner "Housing Authority of the City of Glendale", answered private
    unanswered_city: int  # owner "City of Glendale", no answer


def _house(
    db: Database, clock: FixedClock, reg: Register, owner: str, value: str, details: dict[str, str]
) -> int:
    uow = db.uow()
    owner_id = permits.add_party(
        uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name=owner)
    )
    return permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="RES-NEW-DWELLING",
            parcel_id=reg.parcel_id,
            description=f"New single-family dwelling for {owner}",
            valuation=Decimal(value),
            dwelling_units=1,
            parties=((PartyRole.BUILDING_OWNER, owner_id),),
            work_details=details,
        ),
    )


@pytest.fixture
def housing(database: Database) -> Housing:
    clock = FixedClock(date(2026, 3, 2))
    reg = seed_register(database, clock)  # Anna Schmidt's house, $412,500, no answer
    public = _house(
        database, clock, reg, "Riverside Commons LP", "250000.00", {"ownership": "public"}
    )
    private = _house(
        database,
        clock,
        reg,
        "Housing Authority of the City of Glendale",
        "310000.00",
        {"ownership": "private"},
    )
    city = _house(database, clock, reg, "City of Glendale", "275000.00", {})
    for n, permit_id in enumerate((reg.permit_id, public, private, city)):
        clock.set(date(2026, 3, 9 + n))
        make_issuable(database, clock, reg.admin, permit_id)
        permits.issue_permit(database.uow(), clock, reg.inspector, permit_id)
    return Housing(database, clock, reg, public, private, city)


def _c404(h: Housing) -> Any:
    with h.db.read() as conn:
        return q.c404_report(conn, h.reg.municipality_id, MARCH)


def test_c404_leaves_out_a_permit_marked_public_and_keeps_one_marked_private_whatever_the_names(
    housing: Housing,
) -> None:
    rep = _c404(housing)
    counted = {p.permit_id for p in rep.permits}
    # Marked private, though the owner is named "Housing Authority ...": counted.
    assert housing.marked_private in counted
    # Marked public, though the owner is named like a private partnership: left off.
    assert housing.marked_public not in counted
    # No answer: the owner's name decides (the City's house is left off, Anna Schmidt's counted).
    assert housing.unanswered_city not in counted
    assert counted == {housing.reg.permit_id, housing.marked_private}
    single = next(line for line in rep.lines if line.row is r.C404Row.SINGLE)
    assert (single.buildings, single.units, single.valuation) == (2, 2, Decimal("722500"))
    assert rep.excluded == 2


def test_a_corrected_answer_moves_the_permit_on_or_off_the_census_and_is_audited(
    housing: Housing,
) -> None:
    h = housing
    record_ownership(h.db.uow(), h.clock, h.reg.clerk, h.marked_public, "private")
    record_ownership(h.db.uow(), h.clock, h.reg.inspector, h.marked_private, "public")
    counted = {p.permit_id for p in _c404(h).permits}
    assert counted == {h.reg.permit_id, h.marked_public}
    with h.db.read() as conn:
        detail = queries.permit_detail(conn, h.marked_public)
        history = queries.permit_history(conn, h.marked_public)
    assert detail is not None and dict(detail.work_details) == {"ownership": "private"}
    changes = [
        (c.field, c.old, c.new) for e in history for c in e.changes if c.field == "work_details"
    ]
    assert ("work_details", '{"ownership": "public"}', '{"ownership": "private"}') in changes


def test_only_the_office_records_ownership_and_only_public_or_private(housing: Housing) -> None:
    h = housing
    with pytest.raises(PermissionDenied):
        record_ownership(h.db.uow(), h.clock, h.reg.treasurer, h.marked_public, "private")
    with pytest.raises(ValidationError) as e:
        record_ownership(h.db.uow(), h.clock, h.reg.clerk, h.marked_public, "county")
    assert e.value.field == "ownership"
    with h.db.read() as conn:
        detail = queries.permit_detail(conn, h.marked_public)
    assert detail is not None and dict(detail.work_details) == {"ownership": "public"}


def test_the_demo_marks_new_housing_of_a_government_owner_as_publicly_owned() -> None:
    town = _Town(parties=[{"name": "City of Glendale"}, {"name": "Good Hope Rentals LLC"}])
    ids: Any = SimpleNamespace(party=40)
    apartments = kind_by_code("glendale", "COM-NEW")
    house = kind_by_code("glendale", "RES-NEW-DWELLING")
    addition = kind_by_code("glendale", "RES-ADDITION")
    assert _ownership_marks(apartments, 24, town, ids, 41) == {"ownership": "public"}
    assert _ownership_marks(house, 1, town, ids, 41) == {"ownership": "public"}
    assert _ownership_marks(apartments, 24, town, ids, 42) == {}  # private: nothing said
    assert _ownership_marks(apartments, 0, town, ids, 41) == {}  # no housing: not asked
    assert _ownership_marks(addition, 1, town, ids, 41) == {}  # not a new building
