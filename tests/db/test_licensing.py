"""City electrical licences and condemnations through the services, on SQLite and PostgreSQL:
the numbered grant, the refusal without a state licence in force, 15.1.78's complaint, hearing,
finding and revocation in order, and a condemnation from the placard to its lifting or razing,
with the registers and the report helpers reading them back."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from db import licence_queries as lq
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind, PartyKind
from desk.domain.licensing import LicenceStatus, Outcome
from desk.domain.model import Credential, Party
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import licensing as svc
from desk.services import permits
from tests.factories import Register, seed_register

TODAY = date(2026, 3, 2)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


@pytest.fixture
def reg(database: Database, clock: FixedClock) -> Register:
    return seed_register(database, clock)


def _electrician(
    database: Database,
    clock: FixedClock,
    reg: Register,
    name: str = "Sparks Electric LLC",
    kind: CredentialKind = CredentialKind.ELECTRICAL_CONTRACTOR,
    expires: date | None = date(2027, 6, 30),
) -> int:
    uow = database.uow()
    party_id = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(kind=PartyKind.ORGANIZATION, name=name, address_line1="4100 W Bradley Rd"),
    )
    permits.add_credential(
        uow, clock, reg.clerk, party_id, Credential(kind=kind, number="EC-1208", expires_on=expires)
    )
    return party_id


def _grant(database: Database, clock: FixedClock, reg: Register, party_id: int) -> int:
    granted = svc.grant_city_licence(
        database.uow(), clock, reg.inspector, reg.municipality_id, party_id
    )
    return granted.licence_id


# --- licences -------------------------------------------------------------------------------------


def test_licences_are_numbered_gaplessly_per_year_and_run_to_december_31(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    first = _electrician(database, clock, reg)
    second = _electrician(database, clock, reg, "Glendale Power & Light Co", expires=None)
    third = _electrician(
        database,
        clock,
        reg,
        "Bay Electric",
        CredentialKind.MASTER_ELECTRICIAN,
        expires=date(2026, 8, 31),
    )
    uow = database.uow()
    a = svc.grant_city_licence(uow, clock, reg.inspector, reg.municipality_id, first)
    b = svc.grant_city_licence(uow, clock, reg.admin, reg.municipality_id, second, fee_note="$25")
    c = svc.grant_city_licence(uow, clock, reg.inspector, reg.municipality_id, third)
    assert [a.number, b.number, c.number] == ["EL-2026-0001", "EL-2026-0002", "EL-2026-0003"]
    assert a.expires_on == date(2026, 12, 31)
    assert c.expires_on == date(2026, 8, 31)  # the state licence ends first
    assert c.credential == "Master electrician licence EC-1208, until 08/31/2026"
    clock.set(date(2027, 1, 4))
    d = svc.grant_city_licence(uow, clock, reg.inspector, reg.municipality_id, first)
    assert d.number == "EL-2027-0001"
    with database.read() as conn:
        rows = lq.licence_rows(conn, reg.municipality_id, date(2027, 1, 4))
        counters = conn.execute(
            select(schema.number_counter.c.year, schema.number_counter.c.value).where(
                schema.number_counter.c.series == "EL"
            )
        ).all()
    assert [r.number for r in rows] == ["EL-2027-0001", *(f"EL-2026-000{n}" for n in (3, 2, 1))]
    assert sorted(tuple(x) for x in counters) == [(2026, 3), (2027, 1)]


def test_a_licence_is_refused_without_a_state_electrical_licence_in_force(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    uow = database.uow()
    with pytest.raises(ValidationError) as e:
        svc.grant_city_licence(uow, clock, reg.inspector, reg.municipality_id, reg.contractor_id)
    assert e.value.field == "licensee"
    assert "Badger State Builders LLC holds no state electrical contractor licence" in str(e.value)
    lapsed = _electrician(database, clock, reg, expires=date(2026, 3, 1))
    with pytest.raises(ValidationError, match="expired 03/01/2026"):
        svc.grant_city_licence(uow, clock, reg.inspector, reg.municipality_id, lapsed)
    with database.read() as conn:  # no number was burnt by the refusals
        assert lq.licence_rows(conn, reg.municipality_id, TODAY) == []
        assert conn.execute(select(schema.city_licence.c.id)).first() is None


def test_a_second_licence_while_one_is_in_force_is_refused_and_a_clerk_cannot_grant(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    party = _electrician(database, clock, reg)
    _grant(database, clock, reg, party)
    with pytest.raises(RuleViolation, match="already holds City licence EL-2026-0001"):
        _grant(database, clock, reg, party)
    with pytest.raises(PermissionDenied):
        svc.grant_city_licence(database.uow(), clock, reg.clerk, reg.municipality_id, party)


def test_a_licence_is_revoked_after_complaint_hearing_and_finding_in_that_order(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    licence = _grant(database, clock, reg, _electrician(database, clock, reg))
    uow = database.uow()
    with pytest.raises(RuleViolation, match="upon a complaint"):
        svc.revoke_city_licence(uow, clock, reg.inspector, licence)
    clock.set(date(2026, 4, 6))
    last = svc.file_licence_complaint(
        uow, clock, reg.inspector, licence, date(2026, 4, 6), "Wiring concealed before inspection"
    )
    assert last == date(2026, 5, 6)
    with pytest.raises(PermissionDenied):  # the City Clerk schedules (15.1.78(b))
        svc.schedule_revocation_hearing(
            uow, clock, reg.inspector, licence, date(2026, 4, 21), date(2026, 4, 10), "x"
        )
    with pytest.raises(ValidationError) as e:
        svc.schedule_revocation_hearing(
            uow, clock, reg.clerk, licence, date(2026, 5, 7), date(2026, 4, 10), "licensee"
        )
    assert e.value.field == "hearing date"
    with pytest.raises(ValidationError) as e:
        svc.schedule_revocation_hearing(
            uow, clock, reg.clerk, licence, date(2026, 4, 21), date(2026, 4, 17), "licensee"
        )
    assert e.value.field == "notice date"
    svc.schedule_revocation_hearing(
        uow,
        clock,
        reg.clerk,
        licence,
        date(2026, 4, 21),
        date(2026, 4, 10),
        "Sparks Electric LLC (licensee) and its employer, by certified mail",
    )
    clock.set(date(2026, 4, 20))
    with pytest.raises(RuleViolation, match="has not been held yet"):
        svc.revoke_city_licence(uow, clock, reg.inspector, licence)
    clock.set(date(2026, 4, 22))
    with pytest.raises(RuleViolation, match="Record the Council's finding first"):
        svc.revoke_city_licence(uow, clock, reg.inspector, licence)
    svc.record_council_finding(
        uow, clock, reg.clerk, licence, date(2026, 4, 21), True, "Disqualified, 6–1 (Res. 26-14)"
    )
    with pytest.raises(PermissionDenied):
        svc.revoke_city_licence(uow, clock, reg.clerk, licence)
    assert svc.revoke_city_licence(uow, clock, reg.inspector, licence) == date(2026, 4, 22)
    with database.read() as conn:
        line = lq.licence_line(conn, licence)
        revoked = lq.licences_revoked(
            conn, reg.municipality_id, date(2026, 1, 1), date(2026, 12, 31)
        )
        counts = lq.licence_counts(conn, reg.municipality_id, date(2026, 4, 22))
        audit = conn.execute(
            select(schema.audit_event.c.action)
            .where(
                schema.audit_event.c.entity == "city_licence",
                schema.audit_event.c.entity_id == licence,
            )
            .order_by(schema.audit_event.c.id)
        ).all()
    assert line.status_on(date(2026, 4, 22)) is LicenceStatus.REVOKED
    assert (line.complaint_on, line.hearing_on, line.revoked_on) == (
        date(2026, 4, 6),
        date(2026, 4, 21),
        date(2026, 4, 22),
    )
    assert [x.number for x in revoked] == ["EL-2026-0001"]
    assert counts[LicenceStatus.REVOKED] == 1 and counts[LicenceStatus.IN_FORCE] == 0
    assert [a for (a,) in audit] == ["create", "update", "update", "update", "update"]


def test_a_dismissed_complaint_leaves_the_licence_in_force_and_a_new_one_may_be_filed(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    licence = _grant(database, clock, reg, _electrician(database, clock, reg))
    uow = database.uow()
    svc.file_licence_complaint(uow, clock, reg.clerk, licence, TODAY, "Late reports")
    with pytest.raises(RuleViolation, match="still open"):
        svc.file_licence_complaint(uow, clock, reg.inspector, licence, TODAY, "Another")
    svc.schedule_revocation_hearing(
        uow, clock, reg.clerk, licence, date(2026, 3, 16), date(2026, 3, 9), "licensee"
    )
    clock.set(date(2026, 3, 17))
    svc.record_council_finding(uow, clock, reg.clerk, licence, date(2026, 3, 16), False, "Cleared")
    with pytest.raises(RuleViolation, match="stays in force"):
        svc.revoke_city_licence(uow, clock, reg.inspector, licence)
    svc.file_licence_complaint(uow, clock, reg.inspector, licence, date(2026, 3, 17), "New basis")
    with database.read() as conn:
        line = lq.licence_line(conn, licence)
    assert line.complaint_on == date(2026, 3, 17) and line.disqualified is None
    assert line.status_on(date(2026, 3, 17)) is LicenceStatus.IN_FORCE


def test_the_register_filters_by_status_and_finds_by_name_or_number(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    a = _grant(database, clock, reg, _electrician(database, clock, reg, "Sparks Electric LLC"))
    _grant(database, clock, reg, _electrician(database, clock, reg, "Bay Electric"))
    with database.read() as conn:
        mid = reg.municipality_id
        assert [x.licensee for x in lq.licence_rows(conn, mid, TODAY, "spark")] == [
            "Sparks Electric LLC"
        ]
        assert [x.id for x in lq.licence_rows(conn, mid, TODAY, "el-2026-0001")] == [a]
        assert len(lq.licence_rows(conn, mid, TODAY, status=LicenceStatus.IN_FORCE)) == 2
        later = date(2027, 1, 1)
        assert len(lq.licence_rows(conn, mid, later, status=LicenceStatus.EXPIRED)) == 2
        assert lq.licence_rows(conn, mid, later, status=LicenceStatus.IN_FORCE) == []
        candidates = lq.licence_candidates(conn, "", TODAY)
        assert {c.name for c in candidates} == {"Sparks Electric LLC", "Bay Electric"}
        assert lq.licences_granted_by_trade(conn, mid, TODAY, TODAY) == {"electrical": 2}


# --- condemnations --------------------------------------------------------------------------------


def _condemn(database: Database, clock: FixedClock, reg: Register, **changes: object) -> int:
    values: dict[str, object] = {
        "municipality_id": reg.municipality_id,
        "address": "5820 N Lake Dr",
        "grounds": ("B1", "B(3)"),
        "reasons": "Fire damage: roof open, stairs unsafe",
        "condemned_on": TODAY,
        "dwelling_unit": "Upper",
        "notified": "Owner by certified mail; occupants in person",
    }
    values.update(changes)
    return svc.record_condemnation(
        database.uow(),
        clock,
        reg.inspector,
        svc.CondemnationInput(**values),  # type: ignore[arg-type]
    )


def test_a_condemnation_is_to_be_vacated_in_sixty_days_and_is_overdue_the_day_after(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    cid = _condemn(database, clock, reg)
    with database.read() as conn:
        line = lq.condemnation_line(conn, cid)
        assert line.vacate_by == date(2026, 5, 1)
        assert line.placarded_on == TODAY
        assert line.grounds == ("B1", "B3") and line.grounds_text == "B(1), B(3)"
        mid = reg.municipality_id
        assert [
            x.id for x in lq.condemnation_rows(conn, mid, date(2026, 5, 1), state="overdue")
        ] == []
        assert [
            x.id for x in lq.condemnation_rows(conn, mid, date(2026, 5, 2), state="overdue")
        ] == [cid]
    clock.set(date(2026, 4, 30))
    svc.record_vacated(database.uow(), clock, reg.inspector, cid, date(2026, 4, 28))
    with database.read() as conn:
        assert (
            lq.condemnation_rows(conn, reg.municipality_id, date(2026, 5, 2), state="overdue") == []
        )


def test_the_vacate_period_is_a_profile_setting(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    uow = database.uow()
    assert svc.vacate_days(uow, reg.municipality_id) == 60
    with pytest.raises(PermissionDenied):
        svc.set_vacate_days(uow, clock, reg.inspector, reg.municipality_id, 30)
    svc.set_vacate_days(uow, clock, reg.admin, reg.municipality_id, 30)
    assert svc.vacate_days(uow, reg.municipality_id) == 30
    cid = _condemn(database, clock, reg)
    with database.read() as conn:
        assert lq.condemnation_line(conn, cid).vacate_by == TODAY + timedelta(days=30)
    with pytest.raises(ValidationError) as e:
        _condemn(database, clock, reg, vacate_by=TODAY + timedelta(days=31))
    assert e.value.field == "vacate by"


def test_a_condemnation_on_a_permit_takes_its_parcel_and_shows_in_the_permits_history(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    cid = _condemn(
        database, clock, reg, permit_id=reg.permit_id, address="6120 N Port Washington Rd"
    )
    with database.read() as conn:
        parcel = conn.execute(
            select(schema.condemnation.c.parcel_id).where(schema.condemnation.c.id == cid)
        ).scalar_one()
        history = conn.execute(
            select(schema.audit_event.c.entity).where(
                schema.audit_event.c.permit_id == reg.permit_id
            )
        ).all()
    assert parcel == reg.parcel_id
    assert ("condemnation",) in [tuple(h) for h in history]


def test_lifting_needs_written_approval_and_closes_the_condemnation(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    cid = _condemn(database, clock, reg)
    uow = database.uow()
    clock.set(date(2026, 6, 15))
    with pytest.raises(ValidationError) as e:
        svc.lift_condemnation(uow, clock, reg.inspector, cid, date(2026, 6, 15), " ")
    assert e.value.field == "approval"
    with pytest.raises(PermissionDenied):
        svc.lift_condemnation(uow, clock, reg.clerk, cid, date(2026, 6, 15), "Letter")
    svc.lift_condemnation(
        uow, clock, reg.inspector, cid, date(2026, 6, 15), "Letter of 06/15/2026: repairs passed"
    )
    with pytest.raises(RuleViolation, match="closed: defects eliminated 06/15/2026"):
        svc.record_razed(uow, clock, reg.inspector, cid, date(2026, 6, 15))
    with database.read() as conn:
        line = lq.condemnation_line(conn, cid)
        lifted = lq.condemnation_rows(conn, reg.municipality_id, date(2026, 6, 15), state="lifted")
        still_open = lq.condemnation_rows(conn, reg.municipality_id, date(2026, 6, 15))
    assert line.outcome is Outcome.DEFECTS_ELIMINATED and line.outcome_on == date(2026, 6, 15)
    assert [x.id for x in lifted] == [cid] and still_open == []


def test_a_razed_building_and_the_annual_helper_of_the_year(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    first = _condemn(database, clock, reg)
    clock.set(date(2026, 9, 1))
    second = _condemn(database, clock, reg, address="1200 W Silver Spring Dr", grounds=("B2",),
                      condemned_on=date(2026, 9, 1))  # fmt: skip
    svc.record_razed(
        database.uow(), clock, reg.inspector, first, date(2026, 8, 31), Outcome.RAZED, "P 2026-0101"
    )
    with pytest.raises(ValidationError) as e:
        svc.record_razed(database.uow(), clock, reg.inspector, second, date(2026, 8, 31))
    assert e.value.field == "date"  # before the condemnation
    with database.read() as conn:
        year = lq.condemnations_in(conn, reg.municipality_id, date(2026, 1, 1), date(2026, 12, 31))
        earlier = lq.condemnations_in(
            conn, reg.municipality_id, date(2025, 1, 1), date(2025, 12, 31)
        )
        closed = lq.condemnation_rows(conn, reg.municipality_id, date(2026, 9, 1), state="closed")
    assert [(x.address, x.grounds_text, x.outcome) for x in year] == [
        ("5820 N Lake Dr", "B(1), B(3)", Outcome.RAZED),
        ("1200 W Silver Spring Dr", "B(2)", Outcome.OPEN),
    ]
    assert earlier == [] and [x.id for x in closed] == [first]


def test_condemnation_errors_name_the_field(
    database: Database, clock: FixedClock, reg: Register
) -> None:
    for changes, field in (
        ({"grounds": ()}, "grounds"),
        ({"reasons": " "}, "reasons"),
        ({"address": ""}, "address"),
        ({"condemned_on": TODAY + timedelta(days=1)}, "condemned on"),
        ({"placarded_on": TODAY - timedelta(days=1)}, "placarded on"),
        ({"permit_id": 999_999}, "permit"),
    ):
        with pytest.raises(ValidationError) as e:
            _condemn(database, clock, reg, **changes)
        assert e.value.field == field
    with pytest.raises(PermissionDenied):
        svc.record_condemnation(
            database.uow(),
            clock,
            reg.clerk,
            svc.CondemnationInput(reg.municipality_id, "x", ("B1",), "y", TODAY),
        )
