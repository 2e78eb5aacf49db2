"""A person's state credentials (a master plumber's licence, a dwelling contractor's
certification): recorded with their number and expiry; a renewal, or a correction of a number
or date typed wrong, is a new credential and the one it replaces stays as history, pointing at
it. Only current credentials count for a permit (desk.domain.credentials)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.enums import CredentialKind
from desk.domain.model import Actor, Credential
from desk.domain.permissions import Permission, require
from desk.domain.records import check_length, check_state, refuse_retired
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services.people.edit import locked_party
from desk.services.uow import UnitOfWork


@dataclass(frozen=True)
class CredentialInput:
    kind: CredentialKind
    number: str
    expires_on: date | None
    issuing_state: str = "WI"


def _checked(c: CredentialInput) -> CredentialInput:
    number = check_length("licence number", c.number, 40)
    if not number:
        raise ValidationError("licence number", "enter the licence or registration number")
    if c.expires_on is not None and c.expires_on.year < 1950:
        raise ValidationError("expires", f"{short_date(c.expires_on)} is not an expiry date")
    return CredentialInput(c.kind, number, c.expires_on, check_state(c.issuing_state) or "WI")


def record_credential(
    uow: UnitOfWork, clock: Clock, actor: Actor, party_id: int, credential: CredentialInput
) -> int:
    """A credential the person holds, new to the register. One current credential of a kind a
    person holds is renewed, not recorded twice."""
    require(actor, Permission.MANAGE_PARTIES)
    c = _checked(credential)
    with uow:
        uow.act_as(actor, clock.now())
        party = locked_party(uow, party_id)
        refuse_retired(party.retired_on, party.name, "record of")
        same = [
            x
            for x in party.credentials
            if x.superseded_by_id is None and x.kind is c.kind and x.number == c.number
        ]
        if same:
            raise RuleViolation(
                f"{party.name} already holds {c.kind.label.lower()} {c.number}; renew it instead."
            )
        added = Credential(
            kind=c.kind,
            number=c.number,
            expires_on=c.expires_on,
            issuing_state=c.issuing_state,
            recorded_on=clock.today(),
        )
        party.credentials.append(added)
        uow.commit()
        assert added.id is not None
        return added.id


def renew_credential(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    credential_id: int,
    number: str,
    expires_on: date | None,
    issuing_state: str | None = None,
) -> int:
    """The credential renewed (or corrected): a new one with the number and expiry given; the
    old one stays, pointing at it, and no longer counts. Returns the new credential's id."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        old = uow.credentials.get(credential_id)
        if old is None or old.party_id is None:
            raise NotFound(f"credential #{credential_id} does not exist")
        party = locked_party(uow, old.party_id)
        refuse_retired(party.retired_on, party.name, "record of")
        if old.superseded_by_id is not None:
            raise RuleViolation(
                f"{old.kind.label} {old.number} was renewed already; renew the current one."
            )
        c = _checked(
            CredentialInput(old.kind, number, expires_on, issuing_state or old.issuing_state)
        )
        renewed = Credential(
            kind=c.kind,
            number=c.number,
            expires_on=c.expires_on,
            issuing_state=c.issuing_state,
            recorded_on=clock.today(),
        )
        party.credentials.append(renewed)
        uow.flush()
        old.superseded_by_id = renewed.id
        uow.commit()
        assert renewed.id is not None
        return renewed.id
