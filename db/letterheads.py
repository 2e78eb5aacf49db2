"""The letterhead a document prints: the municipality's letterhead version in force when the
document was issued, so a reprint looks like the original (db/schema.py letterhead_version)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import ColumnElement, Connection, case, select

from db import schema
from desk.domain.documents import Letterhead
from desk.errors import NotFound


def _moment(at: datetime | date | None) -> datetime:
    if at is None:
        return datetime.now(UTC)
    if isinstance(at, datetime):
        # A naive time is taken as UTC (the register stores UTC).
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    # A document dated a day is issued some time that day: the version in force at its end.
    return datetime.combine(at, time.max, tzinfo=UTC)


def find_letterhead(
    conn: Connection, municipality_id: int, at: datetime | date | None = None
) -> Letterhead | None:
    """The latest letterhead version effective at `at` (None: now; a date: the end of that day,
    UTC), with its logo and signature images; the municipality row itself when it has no
    version then (a database not yet given its first version); None when there is no such
    municipality. One query."""
    m, v = schema.municipality, schema.letterhead_version
    logo, sig = schema.municipality_image.alias("logo"), schema.municipality_image.alias("sig")
    latest = (
        select(v.c.id)
        .where(v.c.municipality_id == m.c.id, v.c.effective_at <= _moment(at))
        .order_by(v.c.effective_at.desc(), v.c.id.desc())
        .limit(1)
        .correlate(m)
        .scalar_subquery()
    )
    versioned = v.c.id.is_not(None)

    def pick(version: ColumnElement[Any], municipality: ColumnElement[Any]) -> ColumnElement[Any]:
        return case((versioned, version), else_=municipality)

    row = conn.execute(
        select(
            pick(v.c.name, m.c.name).label("name"),
            pick(v.c.letterhead, m.c.letterhead).label("letterhead"),
            pick(v.c.address, m.c.address).label("address"),
            pick(v.c.inspector_name, m.c.inspector_name).label("inspector_name"),
            pick(v.c.inspector_title, m.c.inspector_title).label("inspector_title"),
            pick(v.c.treasurer_name, m.c.treasurer_name).label("treasurer_name"),
            logo.c.content.label("logo"),
            sig.c.content.label("signature"),
        )
        .select_from(
            m.outerjoin(v, v.c.id == latest)
            .outerjoin(logo, logo.c.id == pick(v.c.logo_image_id, m.c.logo_image_id))
            .outerjoin(sig, sig.c.id == pick(v.c.signature_image_id, m.c.signature_image_id))
        )
        .where(m.c.id == municipality_id)
    ).first()
    if row is None:
        return None
    return Letterhead(
        [str(x) for x in (row.letterhead or [])],
        name=str(row.name or ""),
        address=str(row.address or ""),
        inspector_name=str(row.inspector_name or ""),
        inspector_title=str(row.inspector_title or ""),
        treasurer_name=str(row.treasurer_name or ""),
        logo=bytes(row.logo) if row.logo else None,
        signature=bytes(row.signature) if row.signature else None,
    )


def letterhead_as_of(
    conn: Connection, municipality_id: int, at: datetime | date | None = None
) -> Letterhead:
    """find_letterhead of a municipality that exists."""
    head = find_letterhead(conn, municipality_id, at)
    if head is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return head


def signer(conn: Connection, user_id: int | None, letterhead: Letterhead) -> tuple[str, str]:
    """(name, title) of who signs a document: the user who issued it, with their title, or the
    letterhead's inspector title when they have none; the letterhead's inspector when the record
    names no issuer (documents made before issuers were recorded)."""
    u = schema.app_user
    row = None
    if user_id is not None:
        row = conn.execute(select(u.c.full_name, u.c.title).where(u.c.id == user_id)).first()
    if row is None or not str(row.full_name or "").strip():
        return letterhead.inspector_name, letterhead.inspector_title
    return str(row.full_name), str(row.title or "").strip() or letterhead.inspector_title
