"""An issued permit's checklist is locked (15.1.7(b): it records what was filed before issuance):
marking is refused until the inspector reopens it with a reason; the reopening is in the
permit's history; the inspector locks it again. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.checklists import LOCKED, ItemState
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import checklists, permits
from tests.factories import Register, make_issuable, seed_register
from tests.racing import OK, errors, race
from ui.presenters.history import HistoryPresenter

ITEM = "plans_residential.fireplace"


def issued(database: Database, clock: FixedClock) -> Register:
    reg = seed_register(database, clock)
    make_issuable(database, clock, reg.admin, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    return reg


def mark(database: Database, clock: FixedClock, reg: Register, state: ItemState) -> None:
    checklists.mark_item(database.uow(), clock, reg.clerk, reg.permit_id, ITEM, state)


def state(database: Database, reg: Register) -> ItemState:
    _, lines = checklists.checklist_lines(database.uow(), reg.permit_id)
    return next(line.state for line in lines if line.code == ITEM)


def test_marking_an_item_of_an_issued_permit_is_refused(
    database: Database, clock: FixedClock
) -> None:
    reg = issued(database, clock)
    for actor in (reg.clerk, reg.inspector, reg.admin):
        with pytest.raises(RuleViolation) as e:
            checklists.mark_item(database.uow(), clock, actor, reg.permit_id, ITEM, ItemState.OPEN)
        assert str(e.value) == LOCKED
    with pytest.raises(RuleViolation, match="locked"):
        checklists.open_checklist(database.uow(), clock, reg.clerk, reg.permit_id)
    assert state(database, reg) is ItemState.RECEIVED


def test_reopening_without_a_reason_is_refused_naming_the_reason_field(
    database: Database, clock: FixedClock
) -> None:
    reg = issued(database, clock)
    for reason in ("", "   "):
        with pytest.raises(ValidationError) as e:
            checklists.reopen_checklist(database.uow(), clock, reg.inspector, reg.permit_id, reason)
        assert e.value.field == "reason"
    with pytest.raises(RuleViolation):
        mark(database, clock, reg, ItemState.OPEN)


def test_a_clerk_cannot_reopen_the_checklist(database: Database, clock: FixedClock) -> None:
    reg = issued(database, clock)
    with pytest.raises(PermissionDenied, match="inspector"):
        checklists.reopen_checklist(
            database.uow(), clock, reg.clerk, reg.permit_id, "Survey copy replaced"
        )


def test_after_the_inspector_reopens_it_items_can_be_marked_until_it_is_locked_again(
    database: Database, clock: FixedClock
) -> None:
    reg = issued(database, clock)
    checklists.reopen_checklist(
        database.uow(), clock, reg.inspector, reg.permit_id, "  Fireplace plans replaced  "
    )
    mark(database, clock, reg, ItemState.OPEN)  # the clerk records the change
    assert state(database, reg) is ItemState.OPEN
    mark(database, clock, reg, ItemState.RECEIVED)
    with pytest.raises(RuleViolation, match="reopened already by Ivan Inspector"):
        checklists.reopen_checklist(database.uow(), clock, reg.inspector, reg.permit_id, "again")
    with pytest.raises(PermissionDenied):
        checklists.lock_checklist(database.uow(), clock, reg.clerk, reg.permit_id)
    checklists.lock_checklist(database.uow(), clock, reg.inspector, reg.permit_id)
    with pytest.raises(RuleViolation, match="locked"):
        mark(database, clock, reg, ItemState.OPEN)
    with pytest.raises(RuleViolation, match="locked already"):
        checklists.lock_checklist(database.uow(), clock, reg.inspector, reg.permit_id)
    assert state(database, reg) is ItemState.RECEIVED


def test_a_permit_not_issued_has_nothing_to_reopen(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(RuleViolation, match="not issued"):
        checklists.reopen_checklist(database.uow(), clock, reg.inspector, reg.permit_id, "x")
    mark(database, clock, reg, ItemState.RECEIVED)  # not issued: open as ever


def test_the_reopening_is_audited_with_its_reason_and_shows_in_the_history(
    database: Database, clock: FixedClock
) -> None:
    reg = issued(database, clock)
    checklists.reopen_checklist(
        database.uow(), clock, reg.inspector, reg.permit_id, "Fireplace plans replaced"
    )
    checklists.lock_checklist(database.uow(), clock, reg.inspector, reg.permit_id)
    with database.read() as conn:
        entries = queries.permit_history(conn, reg.permit_id)
    reopenings = [e for e in entries if e.entity == "permit_checklist_reopening"]
    assert [e.action for e in reopenings] == ["update", "create"]  # newest first
    created = reopenings[1]
    assert created.username == "ivan" and created.at == clock.now()
    changes = {c.field: c.new for c in created.changes}
    assert changes["reason"] == "Fireplace plans replaced"
    assert changes["by_user_id"] == str(reg.inspector.user_id)
    rows = [r.cells()[2:] for r in HistoryPresenter(entries, "glendale").rows]
    assert ("Checklist reopened", "Reason", "", "Fireplace plans replaced") in rows
    assert ("Checklist locked", "", "", "") in rows


def test_two_inspectors_reopening_at_once_one_reopens_the_other_is_told(
    database: Database, clock: FixedClock
) -> None:
    """Two sessions released together (PostgreSQL: the permit row locked first)."""
    reg = issued(database, clock)
    for trial in range(5):
        first, second = f"first {trial}", f"second {trial}"

        def reopen(reason: str) -> None:
            checklists.reopen_checklist(database.uow(), clock, reg.inspector, reg.permit_id, reason)

        outcomes = race(lambda: reopen(first), lambda: reopen(second))  # noqa: B023 (joined)
        assert not errors(outcomes), outcomes
        assert sorted(o == OK for o in outcomes) == [False, True], outcomes
        refusal = next(o for o in outcomes if o != OK)
        assert refusal.startswith("The checklist was reopened already by Ivan Inspector")
        checklists.lock_checklist(database.uow(), clock, reg.inspector, reg.permit_id)
    uow = database.uow()
    with uow:
        assert len(uow.checklists.reopenings(reg.permit_id)) == 5
