"""Merging a person or organization entered twice: their roles on permits, bonds, insurance
certificates, city and rooming-house licences, payments, refunds, street deposits and notices
of violation, their state credentials and the records merged into them earlier move to the one
kept, in one audited transaction; the duplicate is retired pointing at it.

A payer's credit (overpayments kept, desk.services.cashiering) is money: its rows are never
rewritten. The duplicate's balance in each municipality is transferred with two new rows, one
taking it off the duplicate and one putting it on the record kept."""

from __future__ import annotations

from decimal import Decimal

from desk.clock import Clock
from desk.domain.model import Actor, Party, PayerCredit
from desk.domain.permissions import Permission, require
from desk.domain.records import MergePreview, check_merge, refuse_retired
from desk.errors import NotFound, RuleViolation
from desk.money import format_money
from desk.services.cashiering import payer_key
from desk.services.uow import UnitOfWork

FILLED = ("address_line1", "address_line2", "city", "zip", "phone", "email")


def _pair(uow: UnitOfWork, kept_id: int, duplicate_id: int) -> tuple[Party, Party]:
    check_merge(kept_id, duplicate_id, "record")
    first, second = sorted((kept_id, duplicate_id))  # locked in id order: no deadlock
    rows = {first: uow.parties.get(first), second: uow.parties.get(second)}
    kept, duplicate = rows[kept_id], rows[duplicate_id]
    if kept is None or duplicate is None:
        missing = kept_id if kept is None else duplicate_id
        raise NotFound(f"person or organization #{missing} does not exist")
    refuse_retired(kept.retired_on, kept.name, "record of")
    if duplicate.merged_into_id is not None:
        raise RuleViolation(f"{duplicate.name} was merged already.")
    return kept, duplicate


def _credits(uow: UnitOfWork, duplicate: Party) -> list[tuple[int, Decimal]]:
    """(municipality id, balance) of the duplicate's credit where it holds any."""
    out = []
    for muni in uow.municipalities.all():
        assert muni.id is not None
        held = uow.cash.credit_balance(muni.id, payer_key(duplicate.id, duplicate.name))
        if held:
            out.append((muni.id, held))
    return out


def _notes(kept: Party, duplicate: Party, credits: list[tuple[int, Decimal]]) -> tuple[str, ...]:
    out: list[str] = []
    filled = [f.replace("_", " ") for f in FILLED if not getattr(kept, f) and getattr(duplicate, f)]
    if filled:
        out.append(f"The kept record's blank {', '.join(filled)} taken from the duplicate.")
    for _mid, amount in credits:
        out.append(f"Credit of {format_money(amount)} moves to {kept.name}.")
    out.append(f"{duplicate.name} is retired, merged into {kept.name}.")
    return tuple(out)


def _preview(uow: UnitOfWork, kept: Party, duplicate: Party) -> MergePreview:
    assert duplicate.id is not None
    return MergePreview(
        kept=f"{kept.name}" + (f", {kept.address_line1}" if kept.address_line1 else ""),
        duplicate=f"{duplicate.name}"
        + (f", {duplicate.address_line1}" if duplicate.address_line1 else ""),
        references=tuple(uow.records.references("party", duplicate.id)),
        notes=_notes(kept, duplicate, _credits(uow, duplicate)),
    )


def merge_preview(uow: UnitOfWork, kept_id: int, duplicate_id: int) -> MergePreview:
    with uow:
        kept, duplicate = _pair(uow, kept_id, duplicate_id)
        return _preview(uow, kept, duplicate)


def merge_parties(
    uow: UnitOfWork, clock: Clock, actor: Actor, kept_id: int, duplicate_id: int
) -> MergePreview:
    """Merge the duplicate into the record kept; returns what was done."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        kept, duplicate = _pair(uow, kept_id, duplicate_id)
        assert kept.id is not None and duplicate.id is not None
        done = _preview(uow, kept, duplicate)
        for mid, amount in _credits(uow, duplicate):
            uow.cash.lock(mid)
            for party, sign, memo in (
                (duplicate, -1, f"moved to {kept.name}: records merged"),
                (kept, 1, f"from {duplicate.name}: records merged"),
            ):
                uow.cash.add(
                    PayerCredit(
                        municipality_id=mid,
                        payer_key=payer_key(party.id, party.name),
                        payer_name=party.name,
                        party_id=party.id,
                        amount=sign * amount,
                        day=clock.today(),
                        at=clock.now(),
                        memo=memo,
                    )
                )
        uow.records.move("party", duplicate.id, kept.id)
        for name in FILLED:
            if not getattr(kept, name) and getattr(duplicate, name):
                setattr(kept, name, getattr(duplicate, name))
        if duplicate.notes.strip():
            joined = f"From {duplicate.name}: {duplicate.notes.strip()}"
            kept.notes = f"{kept.notes.strip()}\n{joined}".strip()
        if duplicate.retired_on is None:
            duplicate.retired_on = clock.today()
            duplicate.retired_by_id = actor.user_id
        duplicate.retired_reason = f"merged into {kept.name}"
        duplicate.merged_into_id = kept.id
        uow.commit()
        return done
