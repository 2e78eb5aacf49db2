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
        if isinstance(at, datetime):
            self._now = at if at.tzinfo else at.replace(tzinfo=UTC)
        else:
            self._now = datetime(at.year, at.month, at.day, 15, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def today(self) -> date:
        return self._now.date()

    def set(self, at: datetime | date) -> None:
        self.__init__(at)  # type: ignore[misc]

    def advance(self, delta: timedelta) -> None:
        self._now = self._now + delta
