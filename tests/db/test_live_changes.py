"""Live refresh: a change committed on one workstation reaches the others' watchers (NOTIFY
from the writing transaction on PostgreSQL, a poll of the audit counter on SQLite), with what
changed and who changed it; a rolled-back change is never announced."""

from __future__ import annotations

import time

import pytest

from db.changes import Change, ChangeWatcher
from db.database import Database, open_database
from desk.clock import FixedClock
from desk.errors import DeskError
from desk.services import permits
from tests.factories import seed_register


def changes_within(watcher: ChangeWatcher, seconds: float) -> list[Change]:
    """What the other workstation's window would see within `seconds` (it polls every second)."""
    deadline = time.monotonic() + seconds
    seen: list[Change] = []
    while time.monotonic() < deadline:
        watcher.wait(0.2)
        seen += watcher.poll()
        if seen:
            return seen
        time.sleep(0.05)
    return seen


def test_a_change_on_one_workstation_reaches_the_others_watcher(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    other = open_database(database.engine.url.render_as_string(hide_password=False))
    watcher = other.watch_changes()
    try:
        assert watcher.listening == (database.engine.dialect.name == "postgresql")
        assert watcher.poll() == []
        permits.update_description(database.uow(), clock, reg.clerk, reg.permit_id, "Garage")
        seen = changes_within(watcher, 3)
        assert [(c.entity, c.entity_id, c.permit_id, c.action, c.by) for c in seen] == [
            ("permit", reg.permit_id, reg.permit_id, "update", "Carol Clerk")
        ]
        assert seen[0].at == clock.now()
        assert watcher.poll() == []  # each change is told once
    finally:
        watcher.close()
        other.close()


def test_a_refused_change_is_never_announced(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    watcher = database.watch_changes()
    try:
        with pytest.raises(DeskError):
            permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
        assert changes_within(watcher, 1.5) == []
    finally:
        watcher.close()
