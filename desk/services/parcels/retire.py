"""Retiring a parcel that should no longer be chosen (a split, a combination, a mistake), and
restoring one retired by mistake. Never deleted: its permits, cases, licences and deposits stay
with it and readable; the pickers no longer offer it."""

from __future__ import annotations

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.domain.records import check_reason
from desk.errors import RuleViolation
from desk.services.parcels.edit import locked_parcel
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version


def retire_parcel(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    parcel_id: int,
    reason: str,
    version: int | None = None,
) -> None:
    require(actor, Permission.MANAGE_PARTIES)
    reason = check_reason(reason, "parcel")
    with uow:
        uow.act_as(actor, clock.now())
        parcel = locked_parcel(uow, parcel_id)
        check_version(uow, parcel, version, f"Parcel {parcel.pin}")
        if parcel.retired_on is not None:
            raise RuleViolation(
                f"Parcel {parcel.pin} was retired already on {short_date(parcel.retired_on)}."
            )
        parcel.retired_on = clock.today()
        parcel.retired_reason = reason
        parcel.retired_by_id = actor.user_id
        uow.commit()


def restore_parcel(
    uow: UnitOfWork, clock: Clock, actor: Actor, parcel_id: int, version: int | None = None
) -> None:
    """A parcel retired by mistake is offered again; one merged into another stays merged (what
    pointed at it has moved)."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        parcel = locked_parcel(uow, parcel_id)
        check_version(uow, parcel, version, f"Parcel {parcel.pin}")
        if parcel.retired_on is None:
            raise RuleViolation(f"Parcel {parcel.pin} is not retired.")
        if parcel.merged_into_id is not None:
            kept = uow.parcels.get(parcel.merged_into_id)
            into = f" into parcel {kept.pin}" if kept is not None else ""
            raise RuleViolation(
                f"Parcel {parcel.pin} was merged{into}; everything on it moved there, so it "
                "stays retired."
            )
        parcel.retired_on = None
        parcel.retired_reason = ""
        parcel.retired_by_id = None
        uow.commit()
