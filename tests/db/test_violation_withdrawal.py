"""A violation recorded by mistake, withdrawn with its reason (never deleted), on both backends:
its state, day, reason and who stay on the row, the audit trail and the case's timeline say so;
refused while an issued notice names it (only the Common Council withdraws or modifies a
notice, Hudson 140-3C), without a reason, once corrected, or on a closed case. An order counts
only the violations it covers (the items of its notice, 140-3C, D): one found after the notice
is not "not corrected by the order's date", in Needs attention nor in the list's filter, and
an order set aside is no order in effect."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from sqlalchemy import select, update

from db import enforcement_queries as q
from db import schema
from db.attention.field import enforcement_past_due
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import ClosureReason, ServiceMethod
from desk.enforcement.readmodels import CaseFilter
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services.enforcement import cases, corrections, inspections, notices, sweep
from tests.db.enforcement_setup import OWNER, Office, case_with_notice, office
from tests.racing import OK, errors, race

TODAY = date(2026, 3, 2)
MISTAKE = "Recorded on the wrong case: the sink is at 414 Vine St"


def _found(o: Office, case_id: int, on: date, section: str, correct_by: date | None = None) -> int:
    recorded = inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        on,
        found=[
            inspections.FoundViolation(section, unit="1", room="kitchen", correct_by=correct_by)
        ],
    )
    return recorded.violation_ids[0]


def _violation(o: Office, violation_id: int) -> Any:
    vi = schema.enforcement_violation
    with o.db.read() as conn:
        return conn.execute(select(vi).where(vi.c.id == violation_id)).one()


def _timeline(o: Office, case_id: int) -> list[tuple[date, str, str]]:
    with o.db.read() as conn:
        return [(e.on, e.kind, e.text) for e in q.timeline(conn, case_id)]


def _past_due(o: Office, today: date) -> tuple[list[str], list[str]]:
    """(the cases of the "order past its correction date" filter, Needs attention's lines)."""
    with o.db.read() as conn:
        listed = [r.number for r in q.case_rows(conn, o.mid, today, CaseFilter.ORDER_PAST_DUE)]
        said = [f"{i.what}: {i.why}" for i in enforcement_past_due(conn, o.mid, today)]
    return listed, said


def test_a_violation_recorded_by_mistake_is_withdrawn_with_its_reason(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _on_notice, _issued = case_with_notice(o, (OWNER,))
    clock.set(date(2026, 3, 4))
    wrong = _found(o, case_id, date(2026, 3, 4), "140-4A")
    clock.set(date(2026, 3, 5))
    corrections.withdraw_violation(database.uow(), clock, o.inspector, wrong, f"  {MISTAKE} ")

    row = _violation(o, wrong)
    assert (row.state.value, row.closed_on, row.withdrawn_reason, row.withdrawn_by_id) == (
        "withdrawn",
        date(2026, 3, 5),
        MISTAKE,
        o.inspector.user_id,
    )
    au = schema.audit_event
    with database.read() as conn:
        audited = conn.execute(
            select(au.c.user_id, au.c.action, au.c.changes).where(
                (au.c.entity == "enforcement_violation")
                & (au.c.entity_id == wrong)
                & (au.c.action == "update")
            )
        ).all()
    assert len(audited) == 1
    user_id, _action, changes = audited[0]
    assert user_id == o.inspector.user_id
    new = {c["field"]: c["new"] for c in changes}
    assert (new["state"], new["withdrawn_reason"]) == ("withdrawn", MISTAKE)
    assert new["closed_on"] is not None and new["withdrawn_by_id"] is not None

    texts = _timeline(o, case_id)
    assert (
        date(2026, 3, 5),
        "correction",
        f"Violation 140-4A withdrawn: entered by mistake — {MISTAKE}",
    ) in texts
    # The inspection's own line keeps what was found, marked withdrawn.
    assert any(
        d == date(2026, 3, 4) and "140-4A Kitchen sink" in t and "(withdrawn 03/05/2026)" in t
        for d, _k, t in texts
    )
    # Withdrawn, it is no open violation of the case.
    with database.read() as conn:
        (listed,) = q.case_rows(conn, o.mid, clock.today(), CaseFilter.OPEN)
    assert listed.open_violations == 1

    with pytest.raises(RuleViolation, match="140-4A was withdrawn on 03/05/2026"):
        corrections.withdraw_violation(database.uow(), clock, o.inspector, wrong, "Again")


def test_a_violation_on_an_issued_notice_stays(database: Database, clock: FixedClock) -> None:
    o = office(database, clock)
    _case, on_notice, issued = case_with_notice(o, (OWNER,))
    with pytest.raises(RuleViolation) as e:
        corrections.withdraw_violation(database.uow(), clock, o.inspector, on_notice, MISTAKE)
    assert str(e.value) == (
        f"140-6C is on the notice of violation issued 03/02/2026 (notice #{issued.notice_id}): "
        "an issued notice is not changed; the Common Council sustains, modifies or withdraws "
        "it (140-3C)"
    )
    assert _violation(o, on_notice).state.value == "open"


def test_a_withdrawal_needs_a_reason_the_inspector_and_an_open_case(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _on_notice, _issued = case_with_notice(o, (OWNER,))
    wrong = _found(o, case_id, TODAY, "140-4A")
    with pytest.raises(ValidationError) as e:
        corrections.withdraw_violation(database.uow(), clock, o.inspector, wrong, "   ")
    assert e.value.field == "reason"
    with pytest.raises(PermissionDenied, match="administrator or inspector"):
        corrections.withdraw_violation(database.uow(), clock, o.clerk, wrong, MISTAKE)
    assert _violation(o, wrong).state.value == "open"

    # Found corrected at a re-inspection: a fact, not a mistake.
    fixed = _found(o, case_id, TODAY, "140-8B")
    clock.set(date(2026, 3, 9))
    inspections.record_inspection(
        database.uow(), clock, o.inspector, case_id, clock.today(), checks={fixed: True}
    )
    with pytest.raises(RuleViolation, match="140-8B was found corrected on 03/09/2026"):
        corrections.withdraw_violation(database.uow(), clock, o.inspector, fixed, MISTAKE)

    cases.close_case(
        database.uow(), clock, o.inspector, case_id, ClosureReason.WITHDRAWN, "Moved away"
    )
    with pytest.raises(RuleViolation, match="was closed on 03/09/2026"):
        corrections.withdraw_violation(database.uow(), clock, o.admin, wrong, MISTAKE)


def test_an_order_counts_only_the_violations_its_notice_names(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _on_notice, issued = case_with_notice(o, (OWNER,))  # 140-6C, correct by 04/01
    (owner,) = issued.addressee_ids
    notices.record_service(
        database.uow(), clock, o.clerk, owner, ServiceMethod.PERSONAL, TODAY, "Carol"
    )
    clock.set(date(2026, 3, 13))
    assert len(sweep.sweep_notices(database.uow(), clock, o.mid)) == 1  # 140-3D
    # Found after the notice: on no notice, so under no order.
    _found(o, case_id, date(2026, 3, 13), "140-4A", correct_by=date(2026, 3, 20))

    # 03/25: the later violation is past its date, the order's is not.
    assert _past_due(o, date(2026, 3, 25)) == ([], [])

    # 04/02: the order's violation is past due too; the order counts its own only.
    assert _past_due(o, date(2026, 4, 2)) == (
        ["CE-2026-0001"],
        [
            "CE-2026-0001 · 412 Vine St: 1 violation(s) not corrected by the order's date; "
            "re-inspect, cite, condemn or abate"
        ],
    )

    # An order set aside (a timely petition recorded after it was made, 140-3B) is no order.
    od = schema.enforcement_order
    with database.engine.begin() as conn:
        conn.execute(update(od).where(od.c.case_id == case_id).values(set_aside_on=TODAY))
    assert _past_due(o, date(2026, 4, 2)) == ([], [])


TRIALS = 5


def test_a_notice_and_a_withdrawal_of_its_violation_at_once_take_their_turn(
    database: Database, clock: FixedClock
) -> None:
    """The inspector issues a notice of a violation while another workstation withdraws it as a
    mistake: both take the case's lock first, so one of them stands and the other is refused in
    words; never a notice of a withdrawn violation, never a noticed violation withdrawn."""
    o = office(database, clock)
    for k in range(TRIALS):
        o.parcel_id = o.parcel(f"047-0009-{k:03d}", str(500 + k))
        case_id, _v, _issued = case_with_notice(o, (OWNER,))
        wrong = _found(o, case_id, TODAY, "140-4A")

        def issue(violation_id: int = wrong, case: int = case_id) -> None:
            notices.issue_notice(
                database.uow(),
                clock,
                o.inspector,
                case,
                (OWNER,),
                [notices.NoticeLine(violation_id, "Repair the sink")],
                "The kitchen sink leaks.",
            )

        def withdraw(violation_id: int = wrong) -> None:
            corrections.withdraw_violation(database.uow(), clock, o.admin, violation_id, MISTAKE)

        outcomes = race(issue, withdraw)
        assert errors(outcomes) == []
        assert outcomes.count(OK) == 1, outcomes
        state = _violation(o, wrong).state.value
        if outcomes[0] == OK:
            assert state == "open"
            assert outcomes[1].startswith("140-4A is on the notice of violation issued 03/02/2026")
        else:
            assert state == "withdrawn"
            assert outcomes[0] == "140-4A is withdrawn: no notice is given for it"
