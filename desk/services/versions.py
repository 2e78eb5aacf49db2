"""Stale forms: a form saves with the version of the record it showed; a save over a newer
version is refused with who changed the record and when, so nothing is overwritten unseen."""

from __future__ import annotations

from typing import Protocol

from desk.dates import short_timestamp
from desk.errors import StaleEdit
from desk.services.uow import UnitOfWork


class Versioned(Protocol):
    id: int | None
    version: int


def check_version(uow: UnitOfWork, record: Versioned, shown: int | None, what: str) -> None:
    """After the record is locked (a writing unit of work locks what it reads). `shown` None: a
    caller with no form (a script, the command line) saves over whatever is there."""
    if shown is None or shown == record.version:
        return
    last = uow.last_change(record)
    if last is None:
        raise StaleEdit(what, "another user", "a moment ago")
    by, at = last
    # Shown in the workstation's time zone, as the clerk reads the clock on the wall.
    raise StaleEdit(what, by, short_timestamp(at.astimezone()))
