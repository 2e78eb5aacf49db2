"""Case inspections on the inspector's day (Hudson 140-2, 140-3, 140-10A) on both backends: the
first visit inspects the complaint, later ones re-inspect on the earliest open correction date;
recording the inspection makes the visit done; closing the case cancels it; one visit of a case
at a time, even when two workstations schedule it together (the case row is locked)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from sqlalchemy import select

from db import inspection_queries as iq
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.model import Actor
from desk.enforcement.model import Channel, ClosureReason, VisitPurpose, VisitStatus
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services.enforcement import cases, complaints, inspections
from desk.services.enforcement import visits as svc
from tests.db.enforcement_setup import Office, office
from tests.racing import OK, errors, race

TODAY = date(2026, 3, 2)


def _complaint(o: Office, parcel_id: int | None = None) -> int:
    taken = complaints.take_complaint(
        o.db.uow(),
        o.clock,
        o.clerk,
        o.mid,
        parcel_id or o.parcel_id,
        Channel.PHONE,
        "Rear porch stairs broken",
        complainant_name="Nellie Neighbour",
        complainant_contact="(715) 555-0199",
    )
    return taken.case.case_id


def _visit(database: Database, visit_id: int) -> dict[str, object]:
    v = schema.enforcement_visit
    with database.read() as conn:
        return dict(conn.execute(select(v).where(v.c.id == visit_id)).one()._mapping)


def test_the_first_visit_inspects_and_the_next_reinspects_on_the_earliest_correction_date(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id = _complaint(o)
    with pytest.raises(ValidationError, match="inspector: choose the inspector"):
        svc.schedule_visit(database.uow(), clock, o.clerk, case_id)
    with pytest.raises(ValidationError, match=r"date: 03/01/2026 is in the past"):
        svc.schedule_visit(
            database.uow(),
            clock,
            o.clerk,
            case_id,
            date(2026, 3, 1),
            inspector_id=o.inspector.user_id,
        )
    with pytest.raises(ValidationError, match="time: “25:00” is not a time of day"):
        svc.schedule_visit(
            database.uow(), clock, o.clerk, case_id, inspector_id=o.inspector.user_id, time="25:00"
        )
    first = svc.schedule_visit(
        database.uow(), clock, o.clerk, case_id, inspector_id=o.inspector.user_id, time="2 PM"
    )
    assert (first.purpose, first.scheduled_on, first.position) == (
        VisitPurpose.INSPECTION,
        TODAY,
        1,
    )
    assert _visit(database, first.visit_id)["scheduled_time"] == "14:00"
    with pytest.raises(RuleViolation, match="has an inspection scheduled on 03/02/2026"):
        svc.schedule_visit(database.uow(), clock, o.inspector, case_id, date(2026, 3, 4))

    # The inspection of the day makes the visit done, with the inspection's id.
    rec = inspections.record_inspection(
        database.uow(),
        clock,
        o.inspector,
        case_id,
        TODAY,
        found=[
            inspections.FoundViolation(
                "140-6C", unit="1", room="rear porch", correct_by=date(2026, 3, 20)
            ),
            inspections.FoundViolation(
                "140-5A", unit="2", room="bedroom", correct_by=date(2026, 3, 16)
            ),
        ],
    )
    done = _visit(database, first.visit_id)
    assert (done["status"], done["inspection_id"]) == (VisitStatus.DONE, rec.inspection_id)

    # A re-inspection by default, on 03/16: the earliest open correction date (140-3A(3)).
    again = svc.schedule_visit(database.uow(), clock, o.inspector, case_id)
    assert (again.purpose, again.scheduled_on, again.position) == (
        VisitPurpose.REINSPECTION,
        date(2026, 3, 16),
        1,
    )
    with database.read() as conn:
        stops = iq.inspector_day(conn, o.inspector.user_id, date(2026, 3, 16), cases=True)
        permit_only = iq.inspector_day(conn, o.inspector.user_id, date(2026, 3, 16))
        audited = set(conn.execute(select(schema.audit_event.c.entity)).scalars())
    assert permit_only == []
    [stop] = stops
    assert stop.kind == "case" and stop.case_id == case_id and stop.visit_id == again.visit_id
    assert stop.permit_number == "CE-2026-0001"
    assert stop.address == "412 Vine St"
    assert stop.type_label == "Code enforcement: re-inspection (140-3)"
    assert (stop.contact, stop.phone) == ("", "")
    assert stop.items == (
        "140-5A Window area (Unit 2, bedroom), correct by 03/16/2026",
        "140-6C Stairs, porches and appurtenances (Unit 1, rear porch), correct by 03/20/2026",
    )
    assert "Nellie" not in stop.notes
    assert "enforcement_visit" in audited


def test_a_reinspection_needs_an_open_violation_and_the_treasurer_schedules_nothing(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id = _complaint(o)
    with pytest.raises(RuleViolation, match="has no open violation to re-inspect"):
        svc.schedule_visit(
            database.uow(), clock, o.inspector, case_id, purpose=VisitPurpose.REINSPECTION
        )
    from desk.domain.enums import Role
    from desk.domain.model import Actor

    treasurer = Actor(o.admin.user_id + 99, "terry", frozenset({Role.TREASURER}))
    with pytest.raises(PermissionDenied):
        svc.schedule_visit(database.uow(), clock, treasurer, case_id)


def test_reschedule_cancel_and_a_visit_later_than_the_inspection(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id = _complaint(o)
    other = _complaint(o, o.parcel("047-0001-002", "414"))
    a = svc.schedule_visit(database.uow(), clock, o.inspector, case_id, date(2026, 3, 5))
    b = svc.schedule_visit(database.uow(), clock, o.inspector, other, date(2026, 3, 5))
    assert (a.position, b.position) == (1, 2)
    moved = svc.reschedule_visit(
        database.uow(), clock, o.clerk, a.visit_id, date(2026, 3, 6), time="9:30 am"
    )
    assert (moved.scheduled_on, moved.position) == (date(2026, 3, 6), 1)
    assert _visit(database, a.visit_id)["scheduled_time"] == "09:30"
    assert _visit(database, b.visit_id)["route_position"] == 1  # the 03/05 route closed up
    # Inspected on 03/02, before the visit of 03/06: the visit stays on the day ...
    inspections.record_inspection(database.uow(), clock, o.inspector, case_id, TODAY)
    assert _visit(database, a.visit_id)["status"] == VisitStatus.SCHEDULED
    # ... unless the inspection names it.
    rec = inspections.record_inspection(
        database.uow(), clock, o.inspector, other, TODAY, visit_id=b.visit_id
    )
    assert _visit(database, b.visit_id)["inspection_id"] == rec.inspection_id
    with pytest.raises(ValidationError, match="reason: is required"):
        svc.cancel_visit(database.uow(), clock, o.clerk, a.visit_id, "  ")
    svc.cancel_visit(database.uow(), clock, o.clerk, a.visit_id, "The owner asked for next week")
    gone = _visit(database, a.visit_id)
    assert gone["status"] == VisitStatus.CANCELLED and gone["route_position"] is None
    assert gone["notes"] == "Cancelled: The owner asked for next week"
    with pytest.raises(RuleViolation, match="is cancelled already"):
        svc.cancel_visit(database.uow(), clock, o.clerk, a.visit_id, "again")
    with database.read() as conn:
        assert iq.inspector_day(conn, o.inspector.user_id, date(2026, 3, 6), cases=True) == []


def test_closing_the_case_cancels_its_scheduled_visit(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id = _complaint(o)
    inspections.record_inspection(database.uow(), clock, o.inspector, case_id, TODAY)
    later = svc.schedule_visit(
        database.uow(),
        clock,
        o.inspector,
        case_id,
        date(2026, 3, 9),
        purpose=VisitPurpose.INSPECTION,
    )
    cases.close_case(database.uow(), clock, o.inspector, case_id, ClosureReason.UNFOUNDED)
    row = _visit(database, later.visit_id)
    assert row["status"] == VisitStatus.CANCELLED
    assert row["notes"] == "Cancelled: case CE-2026-0001 closed"
    with pytest.raises(RuleViolation, match="Case CE-2026-0001 was closed on 03/02/2026"):
        svc.schedule_visit(database.uow(), clock, o.inspector, case_id, date(2026, 3, 9))


def _scheduling(
    o: Office, actor: Actor, case_id: int, inspector_id: int | None
) -> Callable[[], object]:
    """A workstation scheduling the case: its own unit of work, made in its own thread."""
    return lambda: svc.schedule_visit(
        o.db.uow(), o.clock, actor, case_id, inspector_id=inspector_id
    )


def test_two_workstations_scheduling_one_case_together_make_one_visit(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    for k in range(4):
        case_id = _complaint(o, o.parcel(f"047-0002-{k:03d}", str(500 + k)))
        outcomes = race(
            _scheduling(o, o.clerk, case_id, o.inspector.user_id),
            _scheduling(o, o.inspector, case_id, None),
        )
        assert not errors(outcomes), outcomes
        assert sorted(outcomes)[1] == OK
        assert "has an inspection scheduled on 03/02/2026" in sorted(outcomes)[0]
    v = schema.enforcement_visit
    with database.read() as conn:
        positions = sorted(conn.execute(select(v.c.route_position)).scalars())
    assert positions == [1, 2, 3, 4]
