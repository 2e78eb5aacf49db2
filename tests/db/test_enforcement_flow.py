"""Code enforcement end to end on both backends (Hudson 140-3): complaint, case, inspection,
notice, service, petition or none, orders, re-inspection, escalation and closure."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from db import enforcement_queries as q
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import (
    Channel,
    ClosureReason,
    Decision,
    EscalationKind,
    OrderKind,
    ServiceMethod,
    ViolationState,
)
from desk.enforcement.readmodels import CaseFilter
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import licensing
from desk.services.enforcement import (
    cases,
    complaints,
    inspections,
    notices,
    orders,
    petitions,
    sweep,
)
from tests.db.enforcement_setup import AGENT, OCCUPANT, OWNER, Office, case_with_notice, office

TODAY = date(2026, 3, 2)


def _rows(database: Database, mid: int, today: date, which: CaseFilter) -> list[str]:
    with database.read() as conn:
        return [r.number for r in q.case_rows(conn, mid, today, which)]


def test_a_notice_not_petitioned_becomes_an_order_and_the_case_closes_once_corrected(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, violation_id, issued = case_with_notice(o)
    with database.read() as conn:
        number = conn.execute(
            select(schema.enforcement_case.c.number).where(schema.enforcement_case.c.id == case_id)
        ).scalar_one()
    assert number == "CE-2026-0001"
    # 140-6C: 30 days to correct from the inspection.
    assert _rows(database, o.mid, TODAY, CaseFilter.NOT_SERVED) == [number]

    served = notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        issued.addressee_ids[0],
        ServiceMethod.PERSONAL,
        TODAY,
        "Ivan Inspector",
    )
    assert served.petition_last_day == date(2026, 3, 12)
    assert _rows(database, o.mid, TODAY, CaseFilter.NOT_SERVED) == []
    assert _rows(database, o.mid, date(2026, 3, 12), CaseFilter.WINDOW_OPEN) == [number]
    assert _rows(database, o.mid, date(2026, 3, 13), CaseFilter.WINDOW_OPEN) == []

    clock.set(date(2026, 3, 12))  # the last day of the window: no order yet
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    clock.set(date(2026, 3, 13))
    made = sweep.sweep_notices(database.uow(), clock, o.mid)
    assert [(m.case_number, m.effective_on) for m in made] == [(number, date(2026, 3, 13))]
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []  # idempotent

    # Past the correction date (inspection 03/02 + 30 days = 04/01), not corrected.
    clock.set(date(2026, 4, 2))
    assert _rows(database, o.mid, clock.today(), CaseFilter.ORDER_PAST_DUE) == [number]
    inspections.record_inspection(
        database.uow(),
        clock,
        o.inspector,
        case_id,
        date(2026, 4, 2),
        checks={violation_id: False},
    )
    clock.set(date(2026, 4, 20))
    inspections.record_inspection(
        database.uow(),
        clock,
        o.inspector,
        case_id,
        date(2026, 4, 20),
        checks={violation_id: True},
    )
    assert _rows(database, o.mid, clock.today(), CaseFilter.ORDER_PAST_DUE) == []
    cases.close_case(database.uow(), clock, o.inspector, case_id, ClosureReason.CORRECTED)
    assert _rows(database, o.mid, clock.today(), CaseFilter.CLOSED_THIS_YEAR) == [number]
    assert _rows(database, o.mid, clock.today(), CaseFilter.OPEN) == []

    with database.read() as conn:
        kinds = [e.kind for e in q.timeline(conn, case_id)]
        audited = set(
            conn.execute(
                select(schema.audit_event.c.entity).where(
                    schema.audit_event.c.entity.like("enforcement_%")
                )
            ).scalars()
        )
    assert kinds == [
        "complaint",
        "inspection",
        "notice",
        "service",
        "order",
        "inspection",
        "inspection",
        "closure",
    ]
    assert {"enforcement_case", "enforcement_order", "enforcement_service"} <= audited


def test_a_case_with_a_violation_open_cannot_be_closed_as_corrected(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _v, _n = case_with_notice(o)
    with pytest.raises(RuleViolation, match="still has 1 open violation"):
        cases.close_case(database.uow(), clock, o.inspector, case_id, ClosureReason.CORRECTED)


def test_a_second_complaint_on_the_parcel_joins_its_open_case(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    first = complaints.take_complaint(
        database.uow(), clock, o.clerk, o.mid, o.parcel_id, Channel.COUNTER, "No heat"
    )
    second = complaints.take_complaint(
        database.uow(), clock, o.clerk, o.mid, o.parcel_id, Channel.EMAIL, "Still no heat"
    )
    assert first.case.opened and not second.case.opened
    assert first.case.case_id == second.case.case_id
    with pytest.raises(RuleViolation, match="CE-2026-0001 is open"):
        cases.open_case(database.uow(), clock, o.inspector, o.mid, o.parcel_id, "Porch")
    other = cases.open_case(
        database.uow(), clock, o.inspector, o.mid, o.parcel("047-0001-002", "414"), "Porch sags"
    )
    assert other.number == "CE-2026-0002"


def test_a_timely_petition_stops_the_order_until_the_council_sustains_the_notice(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _v, issued = case_with_notice(o, (OWNER, OCCUPANT))
    owner_id, occupant_id = issued.addressee_ids
    notices.record_service(
        database.uow(), clock, o.clerk, owner_id, ServiceMethod.REGISTERED_MAIL, TODAY, "Carol"
    )
    clock.set(date(2026, 3, 5))
    notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        occupant_id,
        ServiceMethod.POSTING,
        date(2026, 3, 5),
        "Ivan",
    )
    # The occupant's window runs from 03/05: 03/15 is a Sunday, so through Monday 03/16.
    clock.set(date(2026, 3, 15))
    filed = petitions.record_petition(
        database.uow(),
        clock,
        o.clerk,
        occupant_id,
        date(2026, 3, 15),
        "Olga Occupant",
        "The stairs were repaired last week",
    )
    assert filed.timely and filed.last_day == date(2026, 3, 16)
    clock.set(date(2026, 3, 20))
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    petitions.schedule_hearing(
        database.uow(),
        clock,
        o.inspector,
        issued.notice_id,
        date(2026, 4, 6),
        "Council Chambers, City Hall",
        date(2026, 3, 20),
    )
    assert _rows(database, o.mid, clock.today(), CaseFilter.HEARING_SCHEDULED) != []
    clock.set(date(2026, 4, 6))
    decided = petitions.record_council_decision(
        database.uow(),
        clock,
        o.inspector,
        issued.notice_id,
        Decision.SUSTAIN,
        date(2026, 4, 6),
        "Stairs not repaired; notice sustained",
    )
    with database.read() as conn:
        order = conn.execute(
            select(schema.enforcement_order).where(
                schema.enforcement_order.c.id == decided.order_id
            )
        ).one()
        kinds = [e.kind for e in q.timeline(conn, case_id)]
    assert order.kind is OrderKind.COUNCIL and order.effective_on == date(2026, 4, 6)
    assert kinds[-3:] == ["hearing", "decision", "order"]
    assert _rows(database, o.mid, clock.today(), CaseFilter.HEARING_SCHEDULED) == []


def test_a_petition_on_the_eleventh_day_is_late_and_the_notice_becomes_an_order(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o)
    notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        issued.addressee_ids[0],
        ServiceMethod.PERSONAL,
        TODAY,
        "Ivan",
    )
    clock.set(TODAY + timedelta(days=11))
    late = petitions.record_petition(
        database.uow(), clock, o.clerk, issued.addressee_ids[0], clock.today(), "Otto", "Unfair"
    )
    assert not late.timely
    made = sweep.sweep_notices(database.uow(), clock, o.mid)
    assert [m.effective_on for m in made] == [TODAY + timedelta(days=11)]
    with pytest.raises(RuleViolation, match="No timely petition"):
        petitions.schedule_hearing(
            database.uow(),
            clock,
            o.inspector,
            issued.notice_id,
            date(2026, 4, 1),
            "City Hall",
            clock.today(),
        )


def _to_hearing(database: Database, clock: FixedClock) -> tuple[Office, int, int, int]:
    o = office(database, clock)
    case_id, violation_id, issued = case_with_notice(o)
    notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        issued.addressee_ids[0],
        ServiceMethod.PERSONAL,
        TODAY,
        "Ivan",
    )
    petitions.record_petition(
        database.uow(), clock, o.clerk, issued.addressee_ids[0], TODAY, "Otto Owner", "Too soon"
    )
    petitions.schedule_hearing(
        database.uow(),
        clock,
        o.inspector,
        issued.notice_id,
        date(2026, 3, 16),
        "City Hall",
        TODAY,
    )
    clock.set(date(2026, 3, 16))
    return o, case_id, violation_id, issued.notice_id


def test_the_council_modifies_the_notice_with_new_correction_dates(
    database: Database, clock: FixedClock
) -> None:
    o, _case_id, violation_id, notice_id = _to_hearing(database, clock)
    decided = petitions.record_council_decision(
        database.uow(),
        clock,
        o.inspector,
        notice_id,
        Decision.MODIFY,
        date(2026, 3, 16),
        "More time for the stairs",
        {violation_id: date(2026, 6, 1)},
    )
    assert decided.order_id is not None
    with database.read() as conn:
        v = conn.execute(
            select(schema.enforcement_violation).where(
                schema.enforcement_violation.c.id == violation_id
            )
        ).one()
        item = conn.execute(
            select(schema.enforcement_notice_item.c.correct_by).where(
                schema.enforcement_notice_item.c.notice_id == notice_id
            )
        ).scalar_one()
    assert v.correct_by == date(2026, 6, 1)
    assert item == date(2026, 4, 1)  # the notice as issued is unchanged


def test_the_council_withdraws_the_notice_and_its_violations(
    database: Database, clock: FixedClock
) -> None:
    o, case_id, violation_id, notice_id = _to_hearing(database, clock)
    decided = petitions.record_council_decision(
        database.uow(),
        clock,
        o.inspector,
        notice_id,
        Decision.WITHDRAW,
        date(2026, 3, 16),
        "The stairs meet the code",
    )
    assert decided.order_id is None
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    with database.read() as conn:
        state = conn.execute(
            select(schema.enforcement_violation.c.state).where(
                schema.enforcement_violation.c.id == violation_id
            )
        ).scalar_one()
    assert state is ViolationState.WITHDRAWN
    cases.close_case(database.uow(), clock, o.inspector, case_id, ClosureReason.CORRECTED)


def test_registered_mail_returned_unclaimed_served_the_notice_the_day_it_was_mailed(
    database: Database, clock: FixedClock
) -> None:
    """140-3A(4): "deemed to be properly served ... if a copy thereof is sent by registered mail
    to his last known address". Mailed Monday 03/02, returned unclaimed 03/09: served 03/02, an
    order on 03/13 without a petition, and a petition filed 03/20 is late. The return puts the
    owner on the serve-again list; serving again later does not move the window."""
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    (owner_id,) = issued.addressee_ids
    mailed = notices.record_service(
        database.uow(), clock, o.clerk, owner_id, ServiceMethod.REGISTERED_MAIL, TODAY, "Carol"
    )
    assert mailed.petition_last_day == date(2026, 3, 12)
    clock.set(date(2026, 3, 9))
    notices.record_returned_unclaimed(
        database.uow(), clock, o.clerk, mailed.service_id, date(2026, 3, 9)
    )
    with database.read() as conn:
        again = q.serve_again(conn, o.mid)
    assert [(r.name, r.returned_on) for r in again] == [("Otto Owner", date(2026, 3, 9))]
    assert _rows(database, o.mid, clock.today(), CaseFilter.WINDOW_OPEN) != []
    assert _rows(database, o.mid, clock.today(), CaseFilter.NOT_SERVED) == []
    # Served again personally on 03/10: the earliest service, 03/02, still governs.
    again_served = notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        owner_id,
        ServiceMethod.PERSONAL,
        date(2026, 3, 9),
        "Ivan",
    )
    assert again_served.petition_last_day == date(2026, 3, 12)
    with database.read() as conn:
        assert q.serve_again(conn, o.mid) == []
        lines = [t.text for t in q.timeline(conn, _case)]
    assert any("returned unclaimed: the service of 03/02/2026 stands" in t for t in lines)
    assert any("the earliest service, of 03/02/2026, governs" in t for t in lines)
    clock.set(date(2026, 3, 13))
    assert [m.effective_on for m in sweep.sweep_notices(database.uow(), clock, o.mid)] == [
        date(2026, 3, 13)
    ]
    clock.set(date(2026, 3, 20))
    late = petitions.record_petition(
        database.uow(), clock, o.clerk, owner_id, date(2026, 3, 20), "Otto Owner", "Never got it"
    )
    assert not late.timely and late.last_day == date(2026, 3, 12)


def test_a_notice_to_the_owner_and_the_agent_is_an_order_when_only_the_agent_is_served(
    database: Database, clock: FixedClock
) -> None:
    """140-3A(4) serves "the owner or his agent": the agent served on 03/02 serves the owner."""
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER, AGENT))
    _owner_id, agent_id = issued.addressee_ids
    served = notices.record_service(
        database.uow(), clock, o.inspector, agent_id, ServiceMethod.PERSONAL, TODAY, "Ivan"
    )
    assert served.agent_must_notify_owner
    with database.read() as conn:
        duties = q.agent_duties(conn, o.mid)
    assert [d.agent for d in duties] == ["Acme Property Mgmt"]
    assert _rows(database, o.mid, TODAY, CaseFilter.NOT_SERVED) == []
    clock.set(date(2026, 3, 13))
    assert [m.effective_on for m in sweep.sweep_notices(database.uow(), clock, o.mid)] == [
        date(2026, 3, 13)
    ]


def test_an_emergency_order_is_effective_at_once_and_its_petition_is_heard(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, emergency=True, section="140-5D")
    assert issued.order_id is not None
    clock.set(date(2026, 4, 15))
    filed = petitions.record_petition(
        database.uow(), clock, o.clerk, issued.addressee_ids[0], clock.today(), "Otto", "Fixed"
    )
    assert filed.timely  # 140-3H: heard whenever petitioned
    petitions.schedule_hearing(
        database.uow(),
        clock,
        o.inspector,
        issued.notice_id,
        date(2026, 4, 16),
        "City Hall",
        date(2026, 4, 15),
    )
    clock.set(date(2026, 4, 16))
    petitions.record_council_decision(
        database.uow(),
        clock,
        o.inspector,
        issued.notice_id,
        Decision.WITHDRAW,
        date(2026, 4, 16),
        "Heat restored; order revoked",
    )
    with database.read() as conn:
        revoked = conn.execute(
            select(schema.enforcement_order.c.revoked_on).where(
                schema.enforcement_order.c.id == issued.order_id
            )
        ).scalar_one()
    assert revoked == date(2026, 4, 16)


def test_an_order_past_due_is_abated_by_the_city_and_charged_to_the_tax_roll(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _v, issued = case_with_notice(o)
    notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        issued.addressee_ids[0],
        ServiceMethod.PERSONAL,
        TODAY,
        "Ivan",
    )
    clock.set(date(2026, 3, 13))
    (made,) = sweep.sweep_notices(database.uow(), clock, o.mid)
    with pytest.raises(RuleViolation, match="not yet due"):
        orders.record_escalation(
            database.uow(),
            clock,
            o.inspector,
            orders.EscalationInput(
                made.order_id, EscalationKind.ABATEMENT, clock.today(), cost=Decimal("100.00")
            ),
        )
    clock.set(date(2026, 4, 10))
    orders.record_escalation(
        database.uow(),
        clock,
        o.inspector,
        orders.EscalationInput(
            made.order_id,
            EscalationKind.ABATEMENT,
            clock.today(),
            cost=Decimal("1875.40"),
            notes="Stairs rebuilt by contractor",
        ),
    )
    condemnation_id = licensing.record_condemnation(
        database.uow(),
        clock,
        o.inspector,
        licensing.CondemnationInput(
            municipality_id=o.mid,
            address="412 Vine St",
            grounds=("B(1)",),
            reasons="Unsafe stairs",
            condemned_on=clock.today(),
            parcel_id=o.parcel_id,
        ),
    )
    orders.record_escalation(
        database.uow(),
        clock,
        o.inspector,
        orders.EscalationInput(
            made.order_id,
            EscalationKind.CONDEMNATION,
            clock.today(),
            condemnation_id=condemnation_id,
        ),
    )
    with database.read() as conn:
        charges = q.special_charges(conn, o.mid, 2026)
        timeline = q.timeline(conn, case_id)
    assert [(c.pin, c.cost) for c in charges] == [("047-0001-001", Decimal("1875.40"))]
    assert any("abatement by the city, cost $1,875.40" in e.text for e in timeline)


def test_the_clerk_may_not_inspect_issue_notices_or_see_who_complained(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _v, issued = case_with_notice(o)
    with pytest.raises(PermissionDenied):
        inspections.record_inspection(database.uow(), clock, o.clerk, case_id, TODAY)
    with pytest.raises(PermissionDenied):
        notices.issue_notice(database.uow(), clock, o.clerk, case_id, [OWNER], [], "x")
    with pytest.raises(PermissionDenied):
        cases.open_case(database.uow(), clock, o.clerk, o.mid, o.parcel_id, "x")
    with pytest.raises(PermissionDenied):
        petitions.schedule_hearing(
            database.uow(), clock, o.clerk, issued.notice_id, TODAY, "City Hall", TODAY
        )
    with pytest.raises(PermissionDenied):
        petitions.record_petition(
            database.uow(), clock, o.inspector, issued.addressee_ids[0], TODAY, "Otto", "x"
        )
    with database.read() as conn:
        complaint_id = conn.execute(select(schema.enforcement_complaint.c.id)).scalar_one()
    with pytest.raises(PermissionDenied):
        complaints.complainant(database.uow(), o.clerk, complaint_id)
    who = complaints.complainant(database.uow(), o.inspector, complaint_id)
    assert who.name == "Nellie Neighbour"


def test_the_complainant_is_in_no_list_timeline_or_audit_row(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _v, _n = case_with_notice(o)
    with database.read() as conn:
        rows = q.case_rows(conn, o.mid, TODAY, CaseFilter.ALL, "")
        timeline = q.timeline(conn, case_id)
        audit = conn.execute(select(schema.audit_event.c.changes)).scalars().all()
    said = repr(rows) + repr(timeline) + repr(audit)
    assert "Nellie" not in said and "555-0199" not in said
    assert any("Rear porch stairs broken" in e.text for e in timeline)


def test_the_case_list_finds_a_case_by_number_address_or_owner(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_with_notice(o)
    with database.read() as conn:
        for text in ("CE-2026-0001", "412 vine", "otto", "047-0001"):
            assert [r.number for r in q.case_rows(conn, o.mid, TODAY, text=text)] == [
                "CE-2026-0001"
            ], text
        assert q.case_rows(conn, o.mid, TODAY, text="nellie") == []


def test_a_municipality_on_chapter_512_cites_its_items_and_not_hudsons(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    with pytest.raises(PermissionDenied):
        cases.set_housing_code(database.uow(), clock, o.inspector, o.mid, "ch-512")
    cases.set_housing_code(database.uow(), clock, o.admin, o.mid, "ch-512")
    opened = cases.open_case(database.uow(), clock, o.inspector, o.mid, o.parcel_id, "No heat")
    with pytest.raises(ValidationError, match="no item 140-5D"):
        inspections.record_inspection(
            database.uow(),
            clock,
            o.inspector,
            opened.case_id,
            TODAY,
            found=[inspections.FoundViolation("140-5D")],
        )
    found = inspections.record_inspection(
        database.uow(),
        clock,
        o.inspector,
        opened.case_id,
        TODAY,
        found=[inspections.FoundViolation("512-9D")],
    )
    assert len(found.violation_ids) == 1


def test_a_case_found_clean_closes_unfounded_and_a_withdrawn_one_needs_a_reason(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    opened = cases.open_case(database.uow(), clock, o.inspector, o.mid, o.parcel_id, "Trash")
    with pytest.raises(RuleViolation, match="has not been inspected"):
        cases.close_case(
            database.uow(), clock, o.inspector, opened.case_id, ClosureReason.UNFOUNDED
        )
    with pytest.raises(ValidationError):
        cases.close_case(
            database.uow(), clock, o.inspector, opened.case_id, ClosureReason.WITHDRAWN
        )
    inspections.record_inspection(database.uow(), clock, o.inspector, opened.case_id, TODAY)
    cases.close_case(database.uow(), clock, o.inspector, opened.case_id, ClosureReason.UNFOUNDED)
    with pytest.raises(RuleViolation, match="was closed"):
        inspections.record_inspection(database.uow(), clock, o.inspector, opened.case_id, TODAY)


def test_a_reprinted_notice_is_the_notice_as_issued_after_the_council_modifies_it(
    database: Database, clock: FixedClock
) -> None:
    o, _case_id, violation_id, notice_id = _to_hearing(database, clock)
    with database.read() as conn:
        before = q.notice_document(conn, notice_id)
    petitions.record_council_decision(
        database.uow(),
        clock,
        o.inspector,
        notice_id,
        Decision.MODIFY,
        date(2026, 3, 16),
        "More time",
        {violation_id: date(2026, 6, 1)},
    )
    with database.read() as conn:
        after = q.notice_document(conn, notice_id)
    assert after == before
    assert before.items[0].correct_by == date(2026, 4, 1)
    assert before.items[0].code_text.startswith("Every inside and outside stair")
    assert before.addressees == (("owner", "Otto Owner", "9 Elm St, Hudson WI 54016"),)
