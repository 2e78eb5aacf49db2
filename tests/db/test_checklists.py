"""Checklists in the database (SQLite and PostgreSQL): opened once per permit from its kind's
template, marked by clerk and inspector, waivers only by the inspector with a reason, every
change in the permit's history, and the shortfalls issue_permit will list."""

from __future__ import annotations

from datetime import date

import pytest

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.checklists import ItemState
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import checklists
from tests.factories import seed_register


def test_opening_a_checklist_twice_creates_each_item_once(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    added = checklists.open_checklist(uow, clock, reg.clerk, reg.permit_id)
    assert added > 20  # application, survey a-i, plans, residential plans, drainage, disposer
    assert checklists.open_checklist(uow, clock, reg.clerk, reg.permit_id) == 0
    _, lines = checklists.checklist_lines(uow, reg.permit_id)
    assert len(lines) == added
    assert {line.state for line in lines} == {ItemState.OPEN}


def test_a_clerk_marks_the_survey_received_with_its_date_and_the_row_keeps_who_and_when(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    checklists.mark_item(
        uow,
        clock,
        reg.clerk,
        reg.permit_id,
        "survey.date",
        ItemState.RECEIVED,
        value_date=date(2026, 2, 20),
    )
    with uow:
        (row,) = [r for r in uow.checklists.for_permit(reg.permit_id) if r.code == "survey.date"]
        assert row.state is ItemState.RECEIVED
        assert row.value_date == date(2026, 2, 20)
        assert (row.by_user_id, row.at) == (reg.clerk.user_id, clock.now())


def test_a_clerk_cannot_waive_an_item(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(PermissionDenied, match=r"only a user with the role .*inspector"):
        checklists.mark_item(
            database.uow(),
            clock,
            reg.clerk,
            reg.permit_id,
            "plans.scale",
            ItemState.WAIVED,
            reason="minor work",
        )
    _, lines = checklists.checklist_lines(database.uow(), reg.permit_id)
    assert all(line.state is ItemState.OPEN for line in lines)


def test_waiving_without_a_reason_fails_naming_the_reason_field(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(ValidationError) as e:
        checklists.mark_item(
            database.uow(),
            clock,
            reg.inspector,
            reg.permit_id,
            "plans_residential.fireplace",
            ItemState.WAIVED,
            reason="",
        )
    assert e.value.field == "reason"


def test_a_clerk_cannot_undo_the_inspectors_waiver(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    checklists.mark_item(
        uow,
        clock,
        reg.inspector,
        reg.permit_id,
        "plans_residential.fireplace",
        ItemState.WAIVED,
        reason="No fireplace: direct-vent gas insert only",
    )
    with pytest.raises(PermissionDenied):
        checklists.mark_item(
            uow, clock, reg.clerk, reg.permit_id, "plans_residential.fireplace", ItemState.OPEN
        )


def test_every_mark_is_in_the_permit_history_with_who_old_and_new(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    checklists.open_checklist(uow, clock, reg.clerk, reg.permit_id)
    clock.set(date(2026, 3, 5))
    checklists.mark_item(
        uow,
        clock,
        reg.inspector,
        reg.permit_id,
        "plans_residential.fireplace",
        ItemState.WAIVED,
        reason="No fireplace",
    )
    with database.read() as conn:
        history = queries.permit_history(conn, reg.permit_id)
    items = [e for e in history if e.entity == "permit_checklist_item"]
    assert items[0].action == "update" and items[0].username == "ivan"
    changes = {c.field: (c.old, c.new) for c in items[0].changes}
    assert changes["state"] == ("open", "waived")
    assert changes["reason"] == ("", "No fireplace")
    created = [e for e in items if e.action == "create"]
    assert len(created) == len(items) - 1 and {e.username for e in created} == {"carol"}


def test_shortfalls_list_the_old_survey_and_what_is_still_open(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    checklists.mark_item(
        uow,
        clock,
        reg.clerk,
        reg.permit_id,
        "survey.date",
        ItemState.RECEIVED,
        value_date=date(2025, 3, 1),
    )
    short = checklists.checklist_shortfalls(uow, reg.permit_id, date(2026, 3, 2))
    assert "Survey dated 03/01/2025 is more than one year old (15.1.7(b)(2))" in short
    assert (
        "Plans: three complete sets of plans and specifications not received (15.1.7(b)(1))"
        in short
    )
    # Everything received, the fireplace waived: nothing is missing.
    _, lines = checklists.checklist_lines(uow, reg.permit_id)
    for line in lines:
        if line.code == "survey.date":
            continue
        if line.code == "plans_residential.fireplace":
            checklists.mark_item(
                uow, clock, reg.inspector, reg.permit_id, line.code, ItemState.WAIVED,
                reason="No fireplace",
            )  # fmt: skip
        else:
            checklists.mark_item(
                uow, clock, reg.clerk, reg.permit_id, line.code, ItemState.RECEIVED
            )
    assert checklists.checklist_shortfalls(uow, reg.permit_id, date(2026, 3, 1)) == []
    assert checklists.checklist_shortfalls(uow, reg.permit_id, date(2026, 3, 2)) == [
        "Survey dated 03/01/2025 is more than one year old (15.1.7(b)(2))"
    ]


def test_an_item_not_in_the_checklist_is_refused_naming_it(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(ValidationError, match=r"'moving\.route' is not an item"):
        checklists.mark_item(
            database.uow(), clock, reg.clerk, reg.permit_id, "moving.route", ItemState.RECEIVED
        )


def test_an_item_the_ordinance_requires_cannot_be_marked_not_applicable(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    # A new dwelling unit: the garbage disposer of 15.1.52(d) is required.
    with pytest.raises(RuleViolation, match=r"15\.1\.52\(d\)"):
        checklists.mark_item(
            database.uow(),
            clock,
            reg.clerk,
            reg.permit_id,
            "disposer.disposer",
            ItemState.NOT_APPLICABLE,
        )
