"""Wrong passwords in a row: a few are forgiven, then each further try waits longer, up to a
few minutes; after a quiet spell the count starts over. Wrong passwords never lock an account:
a lock anyone could set by typing a user name ten times would let an outsider lock every
administrator out. Only an administrator locks an account, on purpose.

At one try per LONGEST_WAIT a guesser gets a few hundred tries a day on one account, which the
password rule (desk.domain.passwords: no common passwords) is there to make useless."""

from __future__ import annotations

from datetime import datetime, timedelta

FREE_TRIES = 5  # typing mistakes: no delay
FIRST_WAIT = timedelta(seconds=15)  # after the 6th failure; doubled after each further one
LONGEST_WAIT = timedelta(minutes=5)
QUIET = timedelta(minutes=15)  # this long after the last failure, the count starts over

# Every refusal reads the same, whatever the reason (an unknown name, a disabled, locked or
# throttled account, a wrong password): different words would tell an outsider which user
# names exist. The hint is true for everyone, so it tells nothing either.
REFUSED = (
    "Unknown user name or wrong password. After several wrong tries in a row, wait "
    f"{int(LONGEST_WAIT.total_seconds() // 60)} minutes before you try again."
)

# Why a sign-in was refused, as the audit trail records it (administrators only).
UNKNOWN = "unknown user name"
DISABLED = "disabled"
SYSTEM = "built-in account"
LOCKED = "locked by an administrator"
THROTTLED = "too soon after wrong passwords"
WRONG_PASSWORD = "wrong password"


def failures_in_a_row(failures: int, last_failed_at: datetime | None, now: datetime) -> int:
    """The wrong passwords that still count: none once QUIET has passed since the last."""
    if last_failed_at is None or now - last_failed_at >= QUIET:
        return 0
    return failures


def wait_after(failures: int) -> timedelta:
    """How long after the last of `failures` wrong passwords in a row the next is checked."""
    if failures <= FREE_TRIES:
        return timedelta(0)
    doublings = min(failures - FREE_TRIES - 1, 20)  # 15 s · 2**20 is far past the cap
    return min(FIRST_WAIT * 2**doublings, LONGEST_WAIT)


def wait_before_next_try(failures: int, last_failed_at: datetime | None, now: datetime) -> int:
    """Whole seconds the user must still wait before a password is checked again; 0 when it
    may be tried now."""
    count = failures_in_a_row(failures, last_failed_at, now)
    if count <= FREE_TRIES or last_failed_at is None:
        return 0
    left = last_failed_at + wait_after(count) - now
    return max(0, int(left.total_seconds() + 0.999))
