"""The Users screen's list and `permitdesk users list`: people only, never the built-in
command-line actor."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, func, select

from db import schema
from desk.domain.enums import Role


@dataclass(frozen=True)
class UserRow:
    id: int
    username: str
    full_name: str
    title: str
    roles: frozenset[Role]
    active: bool
    must_change_password: bool
    last_sign_in_at: datetime | None
    created_at: datetime | None
    failed_sign_ins: int = 0  # wrong passwords in a row (they delay the next try, never lock)
    locked: bool = False  # by an administrator, on purpose, until an administrator unlocks
    version: int = 1  # what the Users form sends back when it saves (a stale form is refused)
    locked_at: datetime | None = None
    locked_by: str = ""  # the administrator's full name (or user name)
    last_failed_at: datetime | None = None


def user_rows(conn: Connection) -> list[UserRow]:
    """Active users first, then by name."""
    u = schema.app_user
    by = u.alias("locked_by")
    rows = conn.execute(
        select(
            u.c.id,
            u.c.username,
            u.c.full_name,
            u.c.title,
            u.c.roles,
            u.c.active,
            u.c.must_change_password,
            u.c.last_sign_in_at,
            u.c.created_at,
            u.c.failed_sign_ins,
            u.c.last_failed_at,
            u.c.locked_at,
            func.coalesce(func.nullif(by.c.full_name, ""), by.c.username).label("locked_by"),
            u.c.version,
        )
        .select_from(u.outerjoin(by, by.c.id == u.c.locked_by_id))
        .where(u.c.system.is_(False))
        .order_by(u.c.active.desc(), u.c.full_name, u.c.username)
    )
    return [
        UserRow(
            id=r.id,
            username=r.username,
            full_name=r.full_name,
            title=r.title or "",
            roles=frozenset(Role(x) for x in str(r.roles).split(",") if x),
            active=bool(r.active),
            must_change_password=bool(r.must_change_password),
            last_sign_in_at=r.last_sign_in_at,
            created_at=r.created_at,
            failed_sign_ins=int(r.failed_sign_ins or 0),
            locked=r.locked_at is not None,
            version=int(r.version),
            locked_at=r.locked_at,
            locked_by=r.locked_by or "",
            last_failed_at=r.last_failed_at,
        )
        for r in rows
    ]


def user_access(conn: Connection, user_id: int) -> tuple[str, frozenset[Role]]:
    """(state, roles) of a user now: a window compares them with what its user signed in
    with. The state is "active", or "disabled" or "locked" (by an administrator): no work."""
    u = schema.app_user
    row = conn.execute(
        select(u.c.active, u.c.locked_at, u.c.roles).where(u.c.id == user_id)
    ).first()
    if row is None:
        return "disabled", frozenset()
    state = "disabled" if not row.active else "locked" if row.locked_at is not None else "active"
    return state, frozenset(Role(x) for x in str(row.roles).split(",") if x)
