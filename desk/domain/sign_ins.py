"""Wrong passwords in a row: a few are forgiven, then each further try waits longer, then the
account is locked until an administrator unlocks it (or resets its password). Guessing a
password at the counter PC or over the network then takes years, not minutes."""

from __future__ import annotations

from datetime import datetime, timedelta

FREE_TRIES = 5  # typing mistakes: no delay
LOCK_AFTER = 10  # failures in a row that lock the account
FIRST_WAIT = timedelta(seconds=15)  # after the 6th failure; doubled after each further one

LOCKED = (
    "This account is locked after {n} wrong passwords in a row; an administrator unlocks it "
    "under Administration → Users."
)


def wait_before_next_try(failures: int, last_failed_at: datetime | None, now: datetime) -> int:
    """Whole seconds the user must still wait before a password is checked again; 0 when it
    may be tried now."""
    if failures <= FREE_TRIES or last_failed_at is None:
        return 0
    wait = FIRST_WAIT * 2 ** (failures - FREE_TRIES - 1)
    left = last_failed_at + wait - now
    return max(0, int(left.total_seconds() + 0.999))


def too_soon(seconds: int) -> str:
    return f"Too many wrong passwords: wait {seconds} seconds before you try again."
