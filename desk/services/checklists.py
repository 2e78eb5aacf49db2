"""Checklist use cases: open a permit's checklist, mark its items, list what is still missing;
reopen an issued permit's (locked) checklist with a reason, and lock it again.

Every change goes through the unit of work, so the audit trail records it (with the permit id)
in the same transaction; the row itself also keeps who marked it and when.
"""

from __future__ import annotations

from datetime import date

from desk.clock import Clock
from desk.domain.checklists import (
    ChecklistItem,
    ChecklistReopening,
    ChecklistTemplate,
    ItemState,
    Line,
    check_mark,
    check_unlocked,
    lines,
    open_reopening,
    permit_facts,
    template_for,
    unmet,
)
from desk.domain.model import Actor, Permit
from desk.domain.permissions import Permission, allowed, require
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.services.uow import UnitOfWork


def _permit(uow: UnitOfWork, permit_id: int) -> Permit:
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def _locked_permit(uow: UnitOfWork, permit_id: int) -> Permit:
    """The permit, its row locked first: marking, reopening and locking the checklist of one
    permit wait for each other, and each decides on what the one before it left."""
    permit = uow.permits.get_for_update(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def _check_unlocked(uow: UnitOfWork, permit: Permit) -> None:
    assert permit.id is not None
    reopened = open_reopening(uow.checklists.reopenings(permit.id)) if permit.issued_on else None
    check_unlocked(permit.issued_on, reopened)


def _template(uow: UnitOfWork, permit: Permit) -> ChecklistTemplate | None:
    muni = uow.municipalities.get(permit.municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{permit.municipality_id} does not exist")
    return template_for(muni.ordinance, permit.kind)


def _open(uow: UnitOfWork, permit: Permit, template: ChecklistTemplate | None) -> int:
    """Add the template's items the permit does not have yet; return how many were added."""
    assert permit.id is not None
    have = {row.code for row in uow.checklists.for_permit(permit.id)}
    added = 0
    for item in template.items if template else ():
        if item.code in have:
            continue
        uow.checklists.add(
            ChecklistItem(
                permit_id=permit.id,
                code=item.code,
                text=item.text,
                section=item.section,
                state=ItemState.OPEN,
            )
        )
        added += 1
    return added


def open_checklist(uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int) -> int:
    """Instantiate the checklist of the permit's kind. Idempotent: a second call adds only
    items that the template gained since; returns the number of items added."""
    require(actor, Permission.EDIT_PERMIT)
    with uow:
        uow.act_as(actor, clock.now())
        permit = _locked_permit(uow, permit_id)
        _check_unlocked(uow, permit)
        added = _open(uow, permit, _template(uow, permit))
        uow.commit()
        return added


def mark_item(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    code: str,
    state: ItemState,
    *,
    value_date: date | None = None,
    value_text: str | None = None,
    reason: str | None = None,
) -> None:
    """Mark one item received, not applicable, waived (the inspector, with a reason: 15.1.7(c))
    or open again. Opens the checklist first if needed. Refused once the permit is issued,
    unless the inspector has reopened its checklist (reopen_checklist)."""
    require(actor, Permission.EDIT_PERMIT)
    state = ItemState(state)
    with uow:
        uow.act_as(actor, clock.now())
        permit = _locked_permit(uow, permit_id)
        _check_unlocked(uow, permit)
        template = _template(uow, permit)
        _open(uow, permit, template)
        uow.flush()
        rows = {r.code: r for r in uow.checklists.for_permit(permit_id)}
        row = rows.get(code)
        if row is None:
            raise ValidationError("item", f"'{code}' is not an item of this permit's checklist")
        line = next(x for x in lines(template, [row], permit_facts(permit)) if x.code == code)
        if state is ItemState.WAIVED or row.state is ItemState.WAIVED:
            require(actor, Permission.WAIVE_CHECKLIST_ITEM)
        check_mark(
            line,
            state,
            value_date=value_date,
            value_text=value_text or "",
            reason=reason or "",
            today=clock.today(),
            may_waive=allowed(actor, Permission.WAIVE_CHECKLIST_ITEM),
        )
        row.state = state
        # What was received is kept with the item; a reason belongs to a waiver only.
        if value_date is not None or state is ItemState.OPEN:
            row.value_date = value_date
        if value_text is not None or state is ItemState.OPEN:
            row.value_text = (value_text or "").strip()
        row.reason = (reason or "").strip() if state is ItemState.WAIVED else ""
        row.by_user_id = actor.user_id
        row.at = clock.now()
        uow.commit()


def _who(uow: UnitOfWork, user_id: int | None) -> str:
    user = uow.users.get(user_id) if user_id is not None else None
    return user.full_name if user is not None else "another user"


def reopen_checklist(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, reason: str
) -> None:
    """Reopen the locked checklist of an issued permit, with the reason (the Building
    Inspector's decision, as issuing is: 15.1.6). Items can then be marked again, by anyone who
    may edit the permit, until the inspector locks it again (lock_checklist)."""
    require(actor, Permission.REOPEN_CHECKLIST)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("reason", "say why the checklist of the issued permit is reopened")
    with uow:
        uow.act_as(actor, clock.now())
        permit = _locked_permit(uow, permit_id)
        if permit.issued_on is None:
            raise RuleViolation("The permit is not issued yet: its checklist is open already.")
        reopened = open_reopening(uow.checklists.reopenings(permit_id))
        if reopened is not None:
            raise RuleViolation(
                f"The checklist was reopened already by {_who(uow, reopened.by_user_id)}: "
                f"{reopened.reason}"
            )
        uow.checklists.add_reopening(
            ChecklistReopening(
                permit_id=permit_id, reason=reason, by_user_id=actor.user_id, at=clock.now()
            )
        )
        uow.commit()


def lock_checklist(uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int) -> None:
    """Lock a reopened checklist again (the inspector, who reopened it)."""
    require(actor, Permission.REOPEN_CHECKLIST)
    with uow:
        uow.act_as(actor, clock.now())
        _locked_permit(uow, permit_id)
        reopened = open_reopening(uow.checklists.reopenings(permit_id))
        if reopened is None:
            raise RuleViolation("The checklist is locked already.")
        reopened.locked_by_id = actor.user_id
        reopened.locked_at = clock.now()
        uow.commit()


def lines_in(uow: UnitOfWork, permit_id: int) -> tuple[ChecklistTemplate | None, list[Line]]:
    """The permit's checklist as shown, read inside a unit of work that is already open."""
    permit = _permit(uow, permit_id)
    template = _template(uow, permit)
    rows = uow.checklists.for_permit(permit_id)
    return template, lines(template, rows, permit_facts(permit))


def shortfalls_in(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """`checklist_shortfalls` inside a unit of work that is already open (issue_permit's)."""
    template, checklist = lines_in(uow, permit_id)
    titles = {g.key: g.title for g in template.groups} if template else {}
    return unmet(checklist, titles, on)


def checklist_lines(uow: UnitOfWork, permit_id: int) -> tuple[ChecklistTemplate | None, list[Line]]:
    """The permit's checklist as shown: the template's items with their states."""
    with uow:
        return lines_in(uow, permit_id)


def checklist_shortfalls(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """What the checklist still lacks for issuance on `on`, in plain words with sections, e.g.
    "Survey dated 2025-03-02 is more than one year old (15.1.7(b)(2))". Items of a checklist
    not opened yet count as open. Inside issue_permit's transaction use `shortfalls_in`."""
    with uow:
        return shortfalls_in(uow, permit_id, on)
