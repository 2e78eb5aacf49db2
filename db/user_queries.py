"""The Users screen's list and `permitdesk users list`: people only, never the built-in
command-line actor."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, select

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
    failed_sign_ins: int = 0  # wrong passwords in a row
    locked: bool = False  # by too many of them, until an administrator unlocks
    version: int = 1  # what the Users form sends back when it saves (a stale form is refused)


def user_rows(conn: Connection) -> list[UserRow]:
    """Active users first, then by name."""
    u = schema.app_user
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
            u.c.locked_at,
            u.c.version,
        )
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
        )
        for r in rows
    ]


def user_access(conn: Connection, user_id: int) -> tuple[bool, frozenset[Role]]:
    """(active, roles) of a user now: a window compares them with what its user signed in
    with."""
    u = schema.app_user
    row = conn.execute(select(u.c.active, u.c.roles).where(u.c.id == user_id)).first()
    if row is None:
        return False, frozenset()
    return bool(row.active), frozenset(Role(x) for x in str(row.roles).split(",") if x)
