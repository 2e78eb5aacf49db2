"""Merging a parcel entered twice: everything on the duplicate (its permits, code enforcement
cases and complaints, condemnations, rooming-house licences, parcels merged into it earlier)
moves to the parcel kept, in one audited transaction; the duplicate is retired pointing at it.
What the office knew of the duplicate is not lost: blanks of the kept parcel are filled from
it, its notes are added, and a sewer delinquency on either stays (15.1.36)."""

from __future__ import annotations

from desk.clock import Clock
from desk.domain.model import Actor, Parcel
from desk.domain.permissions import Permission, require
from desk.domain.records import MergePreview, check_merge, refuse_retired
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services.uow import UnitOfWork

FILLED = ("house_number", "street", "unit", "city", "zip", "legal_description", "zoning_district")


def _named(parcel: Parcel) -> str:
    return f"PIN {parcel.pin}" + (f", {parcel.address}" if parcel.address else "")


def _pair(uow: UnitOfWork, kept_id: int, duplicate_id: int) -> tuple[Parcel, Parcel]:
    check_merge(kept_id, duplicate_id, "parcel")
    # Locked in the order of their ids: two merges of the same pair cannot deadlock.
    first, second = sorted((kept_id, duplicate_id))
    rows = {first: uow.parcels.get(first), second: uow.parcels.get(second)}
    kept, duplicate = rows[kept_id], rows[duplicate_id]
    if kept is None or duplicate is None:
        raise NotFound(f"parcel #{kept_id if kept is None else duplicate_id} does not exist")
    if kept.municipality_id != duplicate.municipality_id:
        raise ValidationError("parcel", "the two parcels are in different municipalities")
    refuse_retired(kept.retired_on, kept.pin, "parcel")
    if duplicate.merged_into_id is not None:
        raise RuleViolation(f"Parcel {duplicate.pin} was merged already.")
    return kept, duplicate


def _notes(kept: Parcel, duplicate: Parcel) -> tuple[str, ...]:
    out: list[str] = []
    filled = [f.replace("_", " ") for f in FILLED if not getattr(kept, f) and getattr(duplicate, f)]
    if filled:
        out.append(f"The kept parcel's blank {', '.join(filled)} taken from {duplicate.pin}.")
    if duplicate.notes.strip():
        out.append(f"The notes of {duplicate.pin} are added to the kept parcel's.")
    if duplicate.sewer_delinquent and not kept.sewer_delinquent:
        out.append("The sewer tax delinquency recorded on the duplicate stays (15.1.36).")
    out.append(f"Parcel {duplicate.pin} is retired, merged into {kept.pin}.")
    return tuple(out)


def merge_preview(uow: UnitOfWork, kept_id: int, duplicate_id: int) -> MergePreview:
    """What merge_parcels would do, listed for the person to confirm (read-only)."""
    with uow:
        kept, duplicate = _pair(uow, kept_id, duplicate_id)
        assert duplicate.id is not None
        return MergePreview(
            kept=_named(kept),
            duplicate=_named(duplicate),
            references=tuple(uow.records.references("parcel", duplicate.id)),
            notes=_notes(kept, duplicate),
        )


def merge_parcels(
    uow: UnitOfWork, clock: Clock, actor: Actor, kept_id: int, duplicate_id: int
) -> MergePreview:
    """Merge the duplicate into the kept parcel; returns what was done."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        kept, duplicate = _pair(uow, kept_id, duplicate_id)
        assert kept.id is not None and duplicate.id is not None
        done = MergePreview(
            kept=_named(kept),
            duplicate=_named(duplicate),
            references=tuple(uow.records.references("parcel", duplicate.id)),
            notes=_notes(kept, duplicate),
        )
        uow.records.move("parcel", duplicate.id, kept.id)
        for name in FILLED:
            if not getattr(kept, name) and getattr(duplicate, name):
                setattr(kept, name, getattr(duplicate, name))
        if kept.lot_area_sqft is None and duplicate.lot_area_sqft is not None:
            kept.lot_area_sqft = duplicate.lot_area_sqft
        if duplicate.notes.strip():
            joined = f"From parcel {duplicate.pin}: {duplicate.notes.strip()}"
            kept.notes = f"{kept.notes.strip()}\n{joined}".strip()
        kept.sewer_delinquent = kept.sewer_delinquent or duplicate.sewer_delinquent
        if duplicate.retired_on is None:
            duplicate.retired_on = clock.today()
            duplicate.retired_by_id = actor.user_id
        duplicate.retired_reason = f"merged into parcel {kept.pin}"
        duplicate.merged_into_id = kept.id
        uow.commit()
        return done
