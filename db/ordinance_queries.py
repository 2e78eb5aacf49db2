"""What a municipality of the register provides (desk.domain.ordinances), read from its row."""

from __future__ import annotations

from sqlalchemy import Connection, select

from db import schema
from desk.domain.ordinances import Provides, provides


def municipality_provides(conn: Connection, municipality_id: int) -> Provides:
    """Its permit ordinance and its housing code's sections, settings and citations; a
    municipality not in the register provides nothing."""
    m = schema.municipality
    row = conn.execute(select(m.c.ordinance, m.c.settings).where(m.c.id == municipality_id)).first()
    if row is None:
        return Provides(())
    return provides(str(row.ordinance or ""), row.settings or {})
