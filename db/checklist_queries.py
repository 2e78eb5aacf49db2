"""Read side of checklists: a permit's checklist lines on a read connection (for the Checklist
tab), as frozen desk.domain.checklists.Line rows, with the names of the users who marked them."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import Connection, select

from db import schema
from desk.domain.checklists import (
    ChecklistItem,
    ChecklistTemplate,
    Line,
    lines,
    permit_facts,
    template_for,
)


@dataclass(frozen=True)
class PermitChecklist:
    template: ChecklistTemplate | None
    lines: tuple[Line, ...]
    names: dict[int, str]  # user id -> full name


def permit_checklist(conn: Connection, permit_id: int) -> PermitChecklist | None:
    p, m, c, u = schema.permit, schema.municipality, schema.permit_checklist_item, schema.app_user
    permit = conn.execute(
        select(p, m.c.key.label("municipality_key"))
        .join(m, m.c.id == p.c.municipality_id)
        .where(p.c.id == permit_id)
    ).first()
    if permit is None:
        return None
    template = template_for(permit.municipality_key, permit.kind)
    # Every column of the permit is a candidate fact (volume, acreage... as later issues add them).
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
    user_ids = {r.by_user_id for r in rows if r.by_user_id is not None}
    names = (
        dict(conn.execute(select(u.c.id, u.c.full_name).where(u.c.id.in_(user_ids))).tuples().all())
        if user_ids
        else {}
    )
    return PermitChecklist(template, tuple(lines(template, rows, facts)), names)
