"""The home screen's lists that need the rules, not just the registers: which applications
issue_permit would accept today, and what each other one still lacks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from desk.clock import Clock
from desk.domain.backups import LastBackup, overdue
from desk.services.checklists import shortfalls_in
from desk.services.issuance import shortfalls_within
from desk.services.municipality import backup_state
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class ApplicationCheck:
    permit_id: int
    shortfalls: tuple[str, ...]  # everything that stops issuance today; empty: ready
    checklist: tuple[str, ...]  # of which the checklist's


def check_applications(
    uow: UnitOfWork, clock: Clock, permit_ids: Iterable[int]
) -> list[ApplicationCheck]:
    """Each application as issue_permit would judge it today (the same function, so "ready"
    here is exactly what the Issue button accepts)."""
    today = clock.today()
    with uow:
        return [
            ApplicationCheck(
                pid,
                tuple(shortfalls_within(uow, pid, today)),
                tuple(shortfalls_in(uow, pid, today)),
            )
            for pid in permit_ids
        ]


@dataclass(frozen=True)
class BackupDue:
    last: LastBackup | None  # None: the register was never backed up from Permit Desk
    overdue_days: int


def backup_due(uow: UnitOfWork, clock: Clock, municipality_id: int) -> BackupDue | None:
    """The register's last backup when it is older than the municipality's overdue days (or
    failed its check, or there is none); None when a recent one checked out."""
    settings, last = backup_state(uow, municipality_id)
    if not overdue(last, clock.today(), settings.overdue_days):
        return None
    return BackupDue(last, settings.overdue_days)
