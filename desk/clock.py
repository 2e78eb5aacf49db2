"""Clocks. Deadline logic never calls date.today(); it takes a Clock (ARCHITECTURE.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """Current time, timezone-aware UTC."""
        ...

    def today(self) -> date:
        """The office's current calendar date."""
        ...


class SystemClock:
    """The real clock. `today()` is the local calendar date of the workstation."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def today(self) -> date:
        return datetime.now().astimezone().date()


class FixedClock:
    """A clock that stands still unless advanced; for tests and demo generation."""

    def __init__(self, at: datetime | date) -> None:
        self._now = self._as_utc(at)

    @staticmethod
    def _as_utc(at: datetime | date) -> datetime:
        if isinstance(at, datetime):
            return at if at.tzinfo else at.replace(tzinfo=UTC)
        # A plain date stands for the office morning (15:00 UTC is 9 or 10 a.m. Central).
        return datetime(at.year, at.month, at.day, 15, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def today(self) -> date:
        return self._now.date()

    def set(self, at: datetime | date) -> None:
        self._now = self._as_utc(at)

    def advance(self, delta: timedelta) -> None:
        self._now = self._now + delta
