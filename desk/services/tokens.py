"""Sign-in tokens for scripted set-ups: an administrator issues one for a user, and a script
gives it to the command line (PERMITDESK_TOKEN) to act as that user without a password typed.

The token's text is shown once, when it is issued; only its SHA-256 is kept, so a copy of the
register gives no token away. A token stops working when it is revoked, when it expires, and
while its user is disabled or locked; each use and each refusal is in the audit trail."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from desk.clock import Clock
from desk.domain import sign_ins
from desk.domain.model import Actor, User
from desk.domain.permissions import Permission, require
from desk.errors import AuthenticationFailed, NotFound, ValidationError
from desk.services.uow import UnitOfWork
from desk.services.users import WRONG, actor_of

MAX_DAYS = 3660  # ten years: a token meant to last longer is better issued again
ENTITY = "user_token"


@dataclass(frozen=True)
class TokenRecord:
    id: int
    user_id: int
    label: str
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None


class TokenRepository(Protocol):
    """The user_token rows (db/token_queries.py)."""

    def add(
        self,
        user_id: int,
        token_hash: str,
        label: str,
        created_at: datetime,
        created_by_id: int,
        expires_at: datetime | None,
    ) -> int: ...

    def by_hash(self, token_hash: str) -> TokenRecord | None: ...

    def live(self, user_id: int, now: datetime) -> list[TokenRecord]:
        """The user's tokens neither revoked nor expired, oldest first."""
        ...

    def revoke(self, token_id: int, at: datetime) -> None: ...


def token_hash(token: str) -> str:
    return hashlib.sha256(token.strip().encode("utf-8")).hexdigest()


def _label(label: str) -> str:
    text = " ".join(label.split())
    if len(text) > 200:
        raise ValidationError("label", "use at most 200 characters")
    return text


def issue_token(
    uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, label: str, days: int | None
) -> str:
    """A new token for the user (administrators only); its text, returned this once.
    `days`: it expires that many days from now; None: it lasts until revoked."""
    require(actor, Permission.MANAGE_USERS)
    text = _label(label)
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise ValidationError("days", f"must be between 1 and {MAX_DAYS:,}")
    now = clock.now()
    expires_at = now + timedelta(days=days) if days is not None else None
    token = secrets.token_urlsafe(32)
    with uow:
        uow.act_as(actor, now)
        user = uow.users.get(user_id)
        if user is None or user.system:
            raise NotFound(f"user #{user_id} does not exist")
        if not user.active:
            raise ValidationError("user", f"{user.username} is disabled; enable the user first")
        token_id = uow.tokens.add(user_id, token_hash(token), text, now, actor.user_id, expires_at)
        uow.record_event(
            ENTITY,
            token_id,
            "issued",
            [
                {"field": "user", "old": None, "new": user.username},
                {"field": "label", "old": None, "new": text},
                {
                    "field": "expires",
                    "old": None,
                    "new": expires_at.isoformat() if expires_at else "never",
                },
            ],
        )
        uow.commit()
    return token


def revoke_token(
    uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, label: str | None = None
) -> int:
    """Revoke the user's tokens in use (only those labelled `label` when given); how many."""
    require(actor, Permission.MANAGE_USERS)
    wanted = _label(label) if label is not None else None
    now = clock.now()
    with uow:
        uow.act_as(actor, now)
        user = uow.users.get(user_id)
        if user is None or user.system:
            raise NotFound(f"user #{user_id} does not exist")
        revoked = 0
        for record in uow.tokens.live(user_id, now):
            if wanted is not None and record.label != wanted:
                continue
            uow.tokens.revoke(record.id, now)
            uow.record_event(
                ENTITY,
                record.id,
                "revoked",
                [
                    {"field": "user", "old": None, "new": user.username},
                    {"field": "label", "old": None, "new": record.label},
                ],
            )
            revoked += 1
        uow.commit()
        return revoked


def actor_for_token(uow: UnitOfWork, clock: Clock, token: str) -> Actor:
    """The user a token signs in: refused with a wrong password's words when the token is
    unknown, revoked or expired, or its user disabled or locked. Every try is in the audit
    trail as a sign-in: "token" (with the token's label), or "failed" with the reason. A
    read-only register (a copy on a CD) only checks."""
    now = clock.now()
    with uow:
        record = uow.tokens.by_hash(token_hash(token)) if token.strip() else None
        user = uow.users.get(record.user_id) if record is not None else None
        reason = _refusal(record, user, now)
        if uow.read_only:
            if reason is not None or user is None:
                raise AuthenticationFailed(WRONG)
            return actor_of(user)
        what = (record.label or f"#{record.id}") if record is not None else "unknown"
        changes: list[dict[str, str | None]] = [{"field": "token", "old": None, "new": what}]
        if reason is not None or user is None:
            uow.act_as(None, now)
            changes.append({"field": "reason", "old": None, "new": reason})
            uow.record_event(
                "sign_in", user.id if user is not None and user.id else 0, "failed", changes
            )
            uow.commit()
            raise AuthenticationFailed(WRONG)
        actor = actor_of(user)
        uow.act_as(actor, now)
        assert user.id is not None
        uow.record_event("sign_in", user.id, "token", changes)
        uow.commit()
        return actor


def _refusal(record: TokenRecord | None, user: User | None, now: datetime) -> str | None:
    """Why a token signs nobody in (the audit trail's words); None when it works."""
    if record is None:
        return "unknown token"
    if record.revoked_at is not None:
        return "token revoked"
    if record.expires_at is not None and now >= record.expires_at:
        return "token expired"
    if user is None or user.system:
        return sign_ins.UNKNOWN
    if not user.active:
        return sign_ins.DISABLED
    if user.locked_at is not None:
        return sign_ins.LOCKED
    return None
