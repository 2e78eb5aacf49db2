"""Which state credential a party needs for the role it takes on a permit, and whether the one on
record is good on the application date. Pure: no I/O, no clock (the date is passed in).

- Dwelling contractor: a contractor on a one- or two-family dwelling holds the state's dwelling
  contractor certification (Wis. Stat. 101.654; the UDC permit, SBD-5823).
- Plumbing permits are issued only to licensed master plumbers (15.1.41).
- Electrical permits only to state-licensed electrical contractors or master electricians
  (15.1.75).
- HVAC work by a state-registered HVAC contractor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from desk.dates import short_date
from desk.domain.enums import CredentialKind, PartyRole, PermitClass
from desk.domain.kinds import PermitKind


@dataclass(frozen=True)
class HeldCredential:
    """A credential on record for a party (a read row; see db.queries.party_credentials)."""

    kind: CredentialKind
    number: str
    expires_on: date | None = None

    def valid_on(self, day: date) -> bool:
        """Good through its expiry date inclusive."""
        return self.expires_on is None or day <= self.expires_on


@dataclass(frozen=True)
class Requirement:
    kinds: tuple[CredentialKind, ...]
    section: str
    words: str  # "master plumber licence"


@dataclass(frozen=True)
class CredentialCheck:
    ok: bool
    message: str  # "" when nothing needs saying


_NOUNS = {
    CredentialKind.DWELLING_CONTRACTOR: "dwelling contractor certification",
    CredentialKind.DWELLING_CONTRACTOR_QUALIFIER: "dwelling contractor qualifier certification",
    CredentialKind.MASTER_PLUMBER: "master plumber licence",
    CredentialKind.ELECTRICAL_CONTRACTOR: "electrical contractor licence",
    CredentialKind.MASTER_ELECTRICIAN: "master electrician licence",
    CredentialKind.HVAC_CONTRACTOR: "HVAC contractor registration",
}


def noun(kind: CredentialKind) -> str:
    """'master plumber licence': the credential as a clerk names it."""
    return _NOUNS.get(kind, kind.label.lower())


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def requirement(role: PartyRole, kind: PermitKind) -> Requirement | None:
    """The credential a party in `role` needs on a permit of `kind`; None when none is required."""
    if role is PartyRole.PLUMBER or (role is PartyRole.CONTRACTOR and kind.trade == "plumbing"):
        return Requirement((CredentialKind.MASTER_PLUMBER,), "15.1.41", "master plumber licence")
    if role is PartyRole.ELECTRICIAN or (
        role is PartyRole.CONTRACTOR and kind.trade == "electrical"
    ):
        return Requirement(
            (CredentialKind.ELECTRICAL_CONTRACTOR, CredentialKind.MASTER_ELECTRICIAN),
            "15.1.75",
            "electrical contractor or master electrician licence",
        )
    if role is PartyRole.HVAC_CONTRACTOR or (role is PartyRole.CONTRACTOR and kind.trade == "hvac"):
        return Requirement(
            (CredentialKind.HVAC_CONTRACTOR,), "SPS 305", "HVAC contractor registration"
        )
    if (
        role is PartyRole.CONTRACTOR
        and kind.trade == "building"
        and kind.permit_class is PermitClass.RESIDENTIAL
    ):
        return Requirement(
            (CredentialKind.DWELLING_CONTRACTOR,),
            "Wis. Stat. 101.654",
            "dwelling contractor certification",
        )
    return None


def check_credentials(
    party_name: str,
    role: PartyRole,
    kind: PermitKind,
    held: Sequence[HeldCredential],
    on: date,
) -> CredentialCheck:
    """Whether the party may take `role` on a permit of `kind` applied for `on`, in plain words:
    'Kowalski Plumbing Inc: master plumber licence MP-10234 expired 2026-06-30 (15.1.41)'."""
    need = requirement(role, kind)
    if need is None:
        return CredentialCheck(True, "")
    fitting = [c for c in held if c.kind in need.kinds]
    if not fitting:
        others = ", ".join(sorted({c.kind.label.lower() for c in held}))
        also = f" (on record: {others})" if others else ""
        return CredentialCheck(
            False, f"{party_name}: no {need.words} on record{also} ({need.section})"
        )
    valid = [c for c in fitting if c.valid_on(on)]
    if valid:
        best = max(valid, key=lambda c: c.expires_on or date.max)
        until = f", valid until {short_date(best.expires_on)}" if best.expires_on else ""
        return CredentialCheck(True, f"{_first_upper(noun(best.kind))} {best.number}{until}")
    latest = max(fitting, key=lambda c: c.expires_on or date.min)
    assert latest.expires_on is not None
    return CredentialCheck(
        False,
        f"{party_name}: {noun(latest.kind)} {latest.number} expired "
        f"{short_date(latest.expires_on)} ({need.section})",
    )
