"""Read side of checklists: a permit's checklist lines on a read connection (for the Checklist
tab), as frozen desk.domain.checklists.Line rows, with the names of the users who marked them,
and whether the issued permit's checklist is locked or reopened."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace

from sqlalchemy import Connection, select

from db import schema
from desk.domain.checklists import (
    ChecklistItem,
    ChecklistReopening,
    ChecklistTemplate,
    Line,
    is_locked,
    lines,
    open_reopening,
    permit_facts,
    template_for,
)


@dataclass(frozen=True)
class PermitChecklist:
    template: ChecklistTemplate | None
    lines: tuple[Line, ...]
    names: dict[int, str]  # user id -> full name
    issued_on: date | None = None
    reopened: ChecklistReopening | None = None  # the reopening not locked again yet

    @property
    def locked(self) -> bool:
        return is_locked(self.issued_on, self.reopened)


def permit_checklist(conn: Connection, permit_id: int) -> PermitChecklist | None:
    p, m, c, u = schema.permit, schema.municipality, schema.permit_checklist_item, schema.app_user
    permit = conn.execute(
        select(p, m.c.ordinance.label("municipality_key"))
        .join(m, m.c.id == p.c.municipality_id)
        .where(p.c.id == permit_id)
    ).first()
    if permit is None:
        return None
    template = template_for(permit.municipality_key, permit.kind)
    # Every column of the permit is a candidate fact (volume, acreage...: a new column is one too).
    facts = permit_facts(SimpleNamespace(**permit._mapping))
    rows = [
        ChecklistItem(
            permit_id=r.permit_id,
            code=r.code,
            text=r.text,
            section=r.section,
            state=r.state,
            value_date=r.value_date,
            value_text=r.value_text,
            reason=r.reason,
            by_user_id=r.by_user_id,
            at=r.at,
            id=r.id,
        )
        for r in conn.execute(select(c).where(c.c.permit_id == permit_id).order_by(c.c.id))
    ]
    r = schema.permit_checklist_reopening
    reopened = open_reopening(
        ChecklistReopening(
            permit_id=x.permit_id,
            reason=x.reason,
            by_user_id=x.by_user_id,
            at=x.at,
            locked_by_id=x.locked_by_id,
            locked_at=x.locked_at,
            id=x.id,
        )
        for x in conn.execute(select(r).where(r.c.permit_id == permit_id).order_by(r.c.id))
    )
    user_ids = {r.by_user_id for r in rows if r.by_user_id is not None}
    if reopened is not None and reopened.by_user_id is not None:
        user_ids.add(reopened.by_user_id)
    names = (
        dict(conn.execute(select(u.c.id, u.c.full_name).where(u.c.id.in_(user_ids))).tuples().all())
        if user_ids
        else {}
    )
    return PermitChecklist(
        template,
        tuple(lines(template, rows, facts)),
        names,
        issued_on=permit.issued_on,
        reopened=reopened,
    )
