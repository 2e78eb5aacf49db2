"""Renewing a rooming house licence (Hudson 140-10A), the pure rules: whether the operator may
apply to renew a licence on a day, and whether a renewal applied for may still be issued. The
dates (renewal_opens, renewal_term) are desk/enforcement/licences.py's; the use cases are
desk/services/enforcement/renewals.py and issue_licence.

140-10A: the licence is in the operator's name and not transferable, and expires at the end of
one year following its issuance. So only the holder renews, a licence that is still valid, from
RENEWAL_DAYS before its last valid day; a suspended licence is not renewed (140-10C, D: the
operator must cease operating), nor a revoked one, nor one ended by a change of owner or
control (the successor applies anew).
"""

from __future__ import annotations

from datetime import date

from desk.dates import short_date
from desk.enforcement.licences import (
    RENEWAL_DAYS,
    LicenceState,
    RoomingLicence,
    expired,
    not_yet_in_force,
    renewal_opens,
)


def _day(d: date | None) -> str:
    return short_date(d) if d is not None else "a day not recorded"


def _name(lic: RoomingLicence) -> str:
    return f"Licence {lic.number}" if lic.number else f"The application #{lic.id}"


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _not_renewable(lic: RoomingLicence) -> str | None:
    """Why a licence in this state is never renewed; None for one issued."""
    name = _name(lic)
    if lic.state is LicenceState.SUSPENDED:
        return (
            f"{name} is suspended since {_day(lic.suspended_on)}: a suspended licence "
            "cannot be renewed (140-10C, D)"
        )
    if lic.state is LicenceState.REVOKED:
        return (
            f"{name} was revoked on {_day(lic.revoked_on)}: a revoked licence cannot be "
            "renewed; the operator applies anew (140-10D)"
        )
    if lic.state is LicenceState.ENDED:
        return (
            f"{name} ended on {_day(lic.ended_on)} with the change of owner or control: a "
            "licence is not transferable and cannot be renewed; the successor applies anew "
            "(140-10A)"
        )
    if lic.state is not LicenceState.ISSUED:
        return f"{name} was never issued: there is no licence to renew"
    return None


def application_refusal(
    lic: RoomingLicence,
    on: date,
    operator: str,
    renewal: RoomingLicence | None = None,
) -> str | None:
    """Why the operator may not apply on `on` to renew `lic` (140-10A), or None. `renewal` is
    its renewal already applied for or issued, if any: one renewal at a time."""
    why = _not_renewable(lic)
    if why is not None:
        return why
    assert lic.expires_on is not None
    name = _name(lic)
    if expired(lic.expires_on, on):
        return (
            f"{name} expired after {short_date(lic.expires_on)}: there is no licence to renew; "
            "the operator applies anew (140-10A)"
        )
    if renewal is not None and renewal.number is not None:
        start = renewal.valid_from or renewal.issued_on
        return f"{name} is renewed already: {renewal.number}, from {_day(start)}"
    if renewal is not None:
        return (
            f"A renewal of licence {lic.number} was applied for on "
            f"{short_date(renewal.applied_on)} and is pending: one renewal at a time"
        )
    opens = renewal_opens(lic.expires_on)
    if on < opens:
        held = "in force"
        if lic.valid_from is not None and not_yet_in_force(lic.valid_from, on):
            held = f"issued to be in force from {short_date(lic.valid_from)}"
        return (
            f"{name} for this dwelling is {held} until {short_date(lic.expires_on)}: its "
            f"renewal may be applied for from {short_date(opens)} ({RENEWAL_DAYS} days before it "
            "ends, 140-10A)"
        )
    if not _same_name(operator, lic.operator_name):
        return (
            f"{name} is in the name of {lic.operator_name}: a licence is not transferable, so "
            "only its holder renews it; another operator applies anew once the change of owner "
            "or control is recorded (140-10A)"
        )
    return None


def issue_refusal(old: RoomingLicence) -> str | None:
    """Why a renewal of `old` applied for in time may not be issued now: the old licence was
    suspended, revoked or ended by a change of owner since (140-10A, C, D). An old licence that
    simply expired meanwhile does not stop it: the renewal then runs from its day of issue."""
    why = _not_renewable(old)
    return f"{why}: deny the renewal application (140-10B)" if why else None
