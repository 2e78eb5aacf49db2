"""Live refresh: what other workstations commit reaches this one's lists and windows within a
second or two, without anyone pressing F5 (db/changes.py: NOTIFY on PostgreSQL, a poll of the
audit counter on SQLite). A form whose record changed says so before the user types over it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QTimer, Signal

from db.changes import Change
from db.database import Database

log = logging.getLogger(__name__)
INTERVAL_MS = 1000
_live: dict[int, LiveChanges] = {}  # by id() of the Database: one per open register


class LiveChanges(QObject):
    """Asks the watcher each second, on the GUI thread, and tells the listeners what changed."""

    changed = Signal(object)  # list[Change]

    def __init__(self, database: Database, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.database = database
        self.watcher = database.watch_changes()
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.poll)
        self.timer.start()
        _live[id(database)] = self

    def poll(self) -> list[Change]:
        try:
            changes = self.watcher.poll()
        except Exception as e:  # the server is away for a moment: the next second asks again
            log.warning("live refresh: %s", e)
            return []
        if changes:
            self.changed.emit(changes)
        return changes

    def stop(self) -> None:
        self.timer.stop()
        self.watcher.close()
        if _live.get(id(self.database)) is self:
            del _live[id(self.database)]


def live_changes(database: Database) -> LiveChanges | None:
    """The main window's watcher of this register (None without a main window: tests, tools)."""
    return _live.get(id(database))


def changed_text(change: Change, noun: str) -> str:
    """'Carol Clerk changed this bond at 3:07 PM, after you opened it. …'"""
    who = change.by or "Someone"
    at = f"{change.at.astimezone():%I:%M %p}".lstrip("0")
    return (
        f"{who} changed this {noun} at {at}, after you opened it. Saving now would be refused: "
        "reload to see the change first."
    )


class _RecordWatch(QObject):
    """A child of the form: destroyed with it, which ends the connection (Qt's own rule)."""

    def __init__(
        self, receiver: QObject, entity: str, entity_id: int, told: Callable[[Change], None]
    ) -> None:
        super().__init__(receiver)
        self.key = (entity, entity_id)
        self.told = told

    def check(self, changes: Sequence[Change]) -> None:
        mine = [c for c in changes if (c.entity, c.entity_id) == self.key]
        if mine:
            self.told(mine[-1])


def watch_record(
    database: Database,
    receiver: QObject,
    entity: str,
    entity_id: int,
    told: Callable[[Change], None],
) -> None:
    """Call `told` with the latest change of the record (db.tracking.ENTITY_NAMES) committed
    while `receiver` (a form) lives."""
    live = live_changes(database)
    if live is not None:
        live.changed.connect(_RecordWatch(receiver, entity, entity_id, told).check)
