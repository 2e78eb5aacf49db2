"""Lifecycle services on SQLite and PostgreSQL: roles, transitions, extensions, the sweep,
stop-work orders and revocations."""

from __future__ import annotations

from datetime import date

import pytest

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PermitStatus
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import lifecycle, permits
from tests.factories import application, make_issuable, seed_register

S = PermitStatus


def _status(database: Database, permit_id: int) -> PermitStatus:
    with database.read() as conn:
        detail = queries.permit_detail(conn, permit_id)
    assert detail is not None
    return detail.status


def test_issuing_a_building_permit_sets_its_eighteen_month_term(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    with database.read() as conn:
        detail = queries.permit_detail(conn, reg.permit_id)
    assert detail is not None and detail.expires_on == date(2027, 9, 16)  # 15.1.8(c)


def test_the_sweep_expires_a_permit_the_day_after_its_start_deadline(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    clock.set(date(2026, 7, 16))  # the last day to start work (15.1.8(b))
    assert lifecycle.sweep_lapsed(database.uow(), clock, reg.municipality_id) == []
    due = lifecycle.lapsing_within(database.uow(), clock, reg.municipality_id, 30)
    assert [(d.number, d.deadline.code, d.deadline.due) for d in due] == [
        ("2026-0001", "start", date(2026, 7, 16))
    ]
    clock.set(date(2026, 7, 17))
    (gone,) = lifecycle.sweep_lapsed(database.uow(), clock, reg.municipality_id)
    assert (gone.number, gone.deadline.section) == ("2026-0001", "15.1.8(b)")
    assert _status(database, reg.permit_id) is S.EXPIRED
    with database.read() as conn:
        history = queries.permit_history(conn, reg.permit_id)
    assert history[0].username == "(system)"
    assert {c.field: c.new for c in history[0].changes}["status"] == "expired"


def test_work_started_and_an_extension_keep_the_permit_alive(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    with pytest.raises(PermissionDenied):
        lifecycle.extend_deadline(
            uow, clock, reg.clerk, reg.permit_id, "start", date(2026, 8, 15), "frost"
        )
    with pytest.raises(ValidationError, match="reason"):
        lifecycle.extend_deadline(
            uow, clock, reg.inspector, reg.permit_id, "start", date(2026, 8, 15), " "
        )
    lifecycle.extend_deadline(
        uow,
        clock,
        reg.inspector,
        reg.permit_id,
        "start",
        date(2026, 8, 15),
        "Frost: footings could not be poured",
    )
    clock.set(date(2026, 8, 1))
    assert lifecycle.sweep_lapsed(uow, clock, reg.municipality_id) == []
    lifecycle.change_status(uow, clock, reg.clerk, reg.permit_id, S.WORK_STARTED)
    clock.set(date(2026, 9, 30))  # 60 days after work started on 08-01
    assert lifecycle.sweep_lapsed(uow, clock, reg.municipality_id) == []
    clock.set(date(2026, 10, 1))
    assert [g.deadline.code for g in lifecycle.sweep_lapsed(uow, clock, reg.municipality_id)] == [
        "resume"
    ]


def test_status_changes_follow_the_lifecycle_and_its_roles(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    with pytest.raises(PermissionDenied):
        lifecycle.change_status(uow, clock, reg.clerk, reg.permit_id, S.APPROVED)
    lifecycle.change_status(uow, clock, reg.inspector, reg.permit_id, S.APPROVED)
    with pytest.raises(RuleViolation, match="approved cannot become completed"):
        lifecycle.change_status(uow, clock, reg.inspector, reg.permit_id, S.COMPLETED)
    other = permits.take_application(uow, clock, reg.clerk, application(reg))
    lifecycle.change_status(uow, clock, reg.clerk, other, S.WITHDRAWN)
    assert _status(database, other) is S.WITHDRAWN
    with pytest.raises(RuleViolation, match="withdrawn cannot become"):
        lifecycle.change_status(uow, clock, reg.clerk, other, S.APPLIED)


def test_a_stop_work_order_holds_the_permit_until_a_written_notice_lifts_it(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    lifecycle.change_status(uow, clock, reg.clerk, reg.permit_id, S.WORK_STARTED)
    with pytest.raises(PermissionDenied):
        lifecycle.issue_stop_work_order(uow, clock, reg.clerk, reg.permit_id, "x", "15.1.12")
    lifecycle.issue_stop_work_order(
        uow, clock, reg.inspector, reg.permit_id, "Framing without approved plans", "15.1.12"
    )
    assert _status(database, reg.permit_id) is S.ON_HOLD
    # A status change cannot take the place of the written notice (15.1.12).
    with pytest.raises(RuleViolation, match="Lift the stop-work order"):
        lifecycle.change_status(uow, clock, reg.inspector, reg.permit_id, S.WORK_STARTED)
    assert _status(database, reg.permit_id) is S.ON_HOLD
    lifecycle.lift_stop_work_order(
        uow, clock, reg.inspector, reg.permit_id, "Revised plans approved; work may resume."
    )
    assert _status(database, reg.permit_id) is S.WORK_STARTED
    with pytest.raises(RuleViolation, match="no stop-work order"):
        lifecycle.lift_stop_work_order(uow, clock, reg.inspector, reg.permit_id, "again")


def test_revocation_names_its_reasons_and_is_final(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    with pytest.raises(ValidationError, match="reasons a–f"):
        lifecycle.revoke_permit(uow, clock, reg.inspector, reg.permit_id, ["z"])
    lifecycle.revoke_permit(uow, clock, reg.inspector, reg.permit_id, ["b", "f"], "See notice.")
    assert _status(database, reg.permit_id) is S.REVOKED
    with pytest.raises(RuleViolation, match="revoked cannot become"):
        lifecycle.change_status(uow, clock, reg.clerk, reg.permit_id, S.WORK_STARTED)
