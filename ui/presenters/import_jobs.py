"""What the import windows (the county's parcel file, the contractors' spreadsheet) share: the
work they run off the UI thread, told by their presenters as jobs, and who may run them.
Qt-free: the windows run the jobs (ui/views/import_work.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from desk.domain.permissions import ROLE_PERMISSIONS, Permission
from desk.services.uow import UnitOfWork

CANCELLED = "cancelled"  # what a job returns when Cancel was pressed

JobProgress = Callable[[int, int], None]  # (done, total) as the job goes
Job = Callable[[JobProgress], Any]
UowFactory = Callable[[], UnitOfWork]


def who_may(permission: Permission) -> str:
    """'Only an administrator or a clerk may import parcels and contractors from files.'"""
    able = sorted(r.label.lower() for r, ps in ROLE_PERMISSIONS.items() if permission in ps)
    named = " or ".join(f"{'an' if r[:1] in 'aeiou' else 'a'} {r}" for r in able)
    return f"Only {named} may {permission.value}."


class Jobs:
    """A presenter's work under way: what it is doing ("" when none) and its Cancel, which a job
    reads between chunks (a cancelled job writes nothing)."""

    def __init__(self) -> None:
        self.cancel = threading.Event()
        self.running = ""  # what a job is doing ("Reading the file…"), "" when none runs

    def start(self, doing: str) -> None:
        self.cancel.clear()
        self.running = doing

    def stopped(self) -> None:
        self.running = ""
