"""The Parties tab, Qt-free: each party of the permit with its role, address and phone, and the
credentials on record, each marked ✓ when it fits the role on this kind of permit on the day
(desk.domain.credentials: 15.1.41 plumbers, 15.1.75 electricians, Wis. Stat. 101.654 dwelling
contractors, SPS 305 HVAC) and ✗ when it does not or has expired."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from desk.domain.credentials import HeldCredential, check_credentials, requirement
from desk.domain.enums import CredentialKind
from desk.domain.kinds import PermitKind
from desk.domain.readmodels import PartyLine
from ui.presenters.formatting import EMPTY, format_date

FITS = "✓"
DOES_NOT_FIT = "✗"
NO_PARTIES = "No owner, applicant or contractor is recorded on this permit."
NOT_NEEDED = "No licence is needed for this role."


@dataclass(frozen=True)
class CredentialRow:
    mark: str  # ✓, ✗ or "" where the role needs no credential
    kind: str  # "Dwelling contractor"
    number: str
    expires: str  # "expires 03/02/2026" or "no expiry date"
    note: str  # why it does or does not fit

    @property
    def fits(self) -> bool:
        return self.mark == FITS


@dataclass(frozen=True)
class PartyCard:
    role: str
    name: str
    address: str
    phone: str
    needs: str  # "Needs a dwelling contractor certification (Wis. Stat. 101.654)." or NOT_NEEDED
    ok: bool  # the role's credential requirement is met (True when there is none)
    verdict: str  # the check's words when a credential is needed, else ""
    credentials: tuple[CredentialRow, ...]


def _credential_row(
    c: HeldCredential, kinds: tuple[CredentialKind, ...] | None, on: date
) -> CredentialRow:
    expires = f"expires {format_date(c.expires_on)}" if c.expires_on else "no expiry date"
    if kinds is None:
        return CredentialRow("", c.kind.label, c.number, expires, "")
    if c.kind not in kinds:
        return CredentialRow(DOES_NOT_FIT, c.kind.label, c.number, expires, "not for this role")
    if not c.valid_on(on):
        return CredentialRow(DOES_NOT_FIT, c.kind.label, c.number, expires, "expired")
    return CredentialRow(FITS, c.kind.label, c.number, expires, "fits this role")


class PermitPartiesPresenter:
    def __init__(
        self,
        parties: Sequence[PartyLine],
        credentials: Mapping[int, Sequence[HeldCredential]],
        kind: PermitKind | None,
        on: date,
    ) -> None:
        self.on = on
        self.cards: tuple[PartyCard, ...] = tuple(
            self._card(p, credentials.get(p.party_id, ()), kind) for p in parties
        )

    def _card(
        self, p: PartyLine, held: Sequence[HeldCredential], kind: PermitKind | None
    ) -> PartyCard:
        need = requirement(p.role, kind) if kind is not None else None
        needs, ok, verdict = NOT_NEEDED, True, ""
        if need is not None and kind is not None:
            check = check_credentials(p.name, p.role, kind, held, self.on)
            article = "an" if need.words[:1].lower() in "aeiouh" else "a"  # an HVAC registration
            needs = f"Needs {article} {need.words} ({need.section})."
            ok, verdict = check.ok, check.message
        kinds = need.kinds if need is not None else None
        return PartyCard(
            role=p.role.label,
            name=p.name,
            address=p.mailing_address or EMPTY,
            phone=p.phone or EMPTY,
            needs=needs,
            ok=ok,
            verdict=verdict,
            credentials=tuple(_credential_row(c, kinds, self.on) for c in held),
        )

    @property
    def empty(self) -> bool:
        return not self.cards

    @property
    def summary(self) -> str:
        """One line over the list: whose credentials are missing, on which day."""
        if not self.cards:
            return NO_PARTIES
        day = format_date(self.on)
        short = [c for c in self.cards if not c.ok]
        if not short:
            return f"Credentials checked on {day}: every party may take its role."
        names = ", ".join(c.name for c in short)
        return f"Credentials checked on {day}: not in order for {names}."
