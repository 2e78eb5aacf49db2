"""The audit trail of a period, for the administrators' export (`permitdesk audit export`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import Connection, select

from db import schema


@dataclass(frozen=True)
class AuditExportRow:
    id: int
    at: datetime  # UTC
    username: str
    entity: str
    entity_id: int
    permit_number: str | None
    action: str
    changes: tuple[tuple[str, str | None, str | None], ...]  # field, old, new
    row_hash: str | None


def audit_rows(conn: Connection, start: date, end: date) -> list[AuditExportRow]:
    """The rows written from `start` to `end` (UTC days, both included), in the order written."""
    a, u, p = schema.audit_event, schema.app_user, schema.permit
    since = datetime.combine(start, time(), tzinfo=UTC)
    until = datetime.combine(end + timedelta(days=1), time(), tzinfo=UTC)
    rows = conn.execute(
        select(a, u.c.username, p.c.number.label("permit_number"))
        .select_from(a.outerjoin(u, u.c.id == a.c.user_id).outerjoin(p, p.c.id == a.c.permit_id))
        .where(a.c.at >= since, a.c.at < until)
        .order_by(a.c.id)
    )
    return [
        AuditExportRow(
            id=r.id,
            at=r.at,
            username=r.username or "(system)",
            entity=r.entity,
            entity_id=r.entity_id,
            permit_number=r.permit_number,
            action=r.action,
            changes=tuple((c["field"], c["old"], c["new"]) for c in r.changes),
            row_hash=r.row_hash,
        )
        for r in rows
    ]
