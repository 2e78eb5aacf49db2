"""The user_token rows (revision 0023) behind desk.services.tokens: written with SQLAlchemy
Core in the unit of work's transaction, so the audit rows the service writes commit with them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from db import schema
from desk.services.tokens import TokenRecord

_t = schema.user_token.c


def _record(row: Any) -> TokenRecord:
    return TokenRecord(
        id=row.id,
        user_id=row.user_id,
        label=row.label,
        created_at=row.created_at,
        expires_at=row.expires_at,
        revoked_at=row.revoked_at,
    )


_COLUMNS = (_t.id, _t.user_id, _t.label, _t.created_at, _t.expires_at, _t.revoked_at)


class TokenRepo:
    """Implements desk.services.tokens.TokenRepository."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def add(
        self,
        user_id: int,
        token_hash: str,
        label: str,
        created_at: datetime,
        created_by_id: int,
        expires_at: datetime | None,
    ) -> int:
        new_id = self.session.execute(
            insert(schema.user_token)
            .values(
                user_id=user_id,
                token_hash=token_hash,
                label=label,
                created_at=created_at,
                created_by_id=created_by_id,
                expires_at=expires_at,
            )
            .returning(_t.id)
        ).scalar_one()
        return int(new_id)

    def by_hash(self, token_hash: str) -> TokenRecord | None:
        row = self.session.execute(select(*_COLUMNS).where(_t.token_hash == token_hash)).first()
        return _record(row) if row is not None else None

    def live(self, user_id: int, now: datetime) -> list[TokenRecord]:
        rows = self.session.execute(
            select(*_COLUMNS)
            .where(
                (_t.user_id == user_id)
                & _t.revoked_at.is_(None)
                & (_t.expires_at.is_(None) | (_t.expires_at > now))
            )
            .order_by(_t.id)
            .with_for_update()
        )
        return [_record(r) for r in rows]

    def revoke(self, token_id: int, at: datetime) -> None:
        self.session.execute(
            update(schema.user_token)
            .where((_t.id == token_id) & _t.revoked_at.is_(None))
            .values(revoked_at=at)
        )
