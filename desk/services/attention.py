"""The home screen's lists that need the rules, not just the registers: which applications
issue_permit would accept today, and what each other one still lacks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from desk.clock import Clock
from desk.services.checklists import shortfalls_in
from desk.services.issuance import shortfalls_within
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
