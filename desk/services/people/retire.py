"""Retiring a person or organization that should no longer be chosen, and restoring one retired
by mistake. Never deleted: the permits, payments and notices that name them stay as they were."""

from __future__ import annotations

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.domain.records import check_reason
from desk.errors import RuleViolation
from desk.services.people.edit import locked_party
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version


def retire_party(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    party_id: int,
    reason: str,
    version: int | None = None,
) -> None:
    require(actor, Permission.MANAGE_PARTIES)
    reason = check_reason(reason, "record")
    with uow:
        uow.act_as(actor, clock.now())
        party = locked_party(uow, party_id)
        check_version(uow, party, version, party.name)
        if party.retired_on is not None:
            raise RuleViolation(
                f"{party.name} was retired already on {short_date(party.retired_on)}."
            )
        party.retired_on = clock.today()
        party.retired_reason = reason
        party.retired_by_id = actor.user_id
        uow.commit()


def restore_party(
    uow: UnitOfWork, clock: Clock, actor: Actor, party_id: int, version: int | None = None
) -> None:
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        party = locked_party(uow, party_id)
        check_version(uow, party, version, party.name)
        if party.retired_on is None:
            raise RuleViolation(f"{party.name} is not retired.")
        if party.merged_into_id is not None:
            kept = uow.parties.get(party.merged_into_id)
            into = f" into {kept.name}" if kept is not None else ""
            raise RuleViolation(
                f"{party.name} was merged{into}; everything on the record moved there, so it "
                "stays retired."
            )
        party.retired_on = None
        party.retired_reason = ""
        party.retired_by_id = None
        uow.commit()
