"""Users, roles, sign-in. Passwords are hashed with argon2 (issue 2, item 6)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from desk.clock import Clock
from desk.domain.enums import Role
from desk.domain.model import Actor, User
from desk.domain.permissions import Permission, require
from desk.errors import AuthenticationFailed, NotFound, ValidationError
from desk.services.uow import UnitOfWork

_hasher = PasswordHasher()
MIN_PASSWORD_LENGTH = 8


def actor_of(user: User) -> Actor:
    assert user.id is not None
    return Actor(user_id=user.id, username=user.username, roles=user.roles)


def _validate(username: str, full_name: str, password: str, roles: set[Role]) -> None:
    if not username.strip() or any(c.isspace() for c in username):
        raise ValidationError("user name", "enter a user name without spaces")
    if not full_name.strip():
        raise ValidationError("full name", "enter the person's name")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ValidationError("password", f"use at least {MIN_PASSWORD_LENGTH} characters")
    if not roles:
        raise ValidationError("roles", "choose at least one role")


def create_first_administrator(
    uow: UnitOfWork, clock: Clock, username: str, full_name: str, password: str
) -> Actor:
    """First start: the only time a user is created without an acting administrator."""
    _validate(username, full_name, password, {Role.ADMINISTRATOR})
    with uow:
        if uow.users.count() > 0:
            raise ValidationError("user name", "the database already has users; sign in instead")
        uow.act_as(None, clock.now())
        user = User(
            username=username.strip(),
            full_name=full_name.strip(),
            password_hash=_hasher.hash(password),
            created_at=clock.now(),
        )
        user.roles = {Role.ADMINISTRATOR}
        uow.users.add(user)
        uow.commit()
        return actor_of(user)


def create_user(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    *,
    username: str,
    full_name: str,
    password: str,
    roles: set[Role],
) -> int:
    require(actor, Permission.MANAGE_USERS)
    _validate(username, full_name, password, roles)
    with uow:
        uow.act_as(actor.user_id, clock.now())
        if uow.users.by_username(username.strip()) is not None:
            raise ValidationError("user name", f"'{username}' is already taken")
        user = User(
            username=username.strip(),
            full_name=full_name.strip(),
            password_hash=_hasher.hash(password),
            created_at=clock.now(),
        )
        user.roles = roles
        uow.users.add(user)
        uow.commit()
        assert user.id is not None
        return user.id


def set_roles(uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, roles: set[Role]) -> None:
    require(actor, Permission.MANAGE_USERS)
    if not roles:
        raise ValidationError("roles", "choose at least one role")
    with uow:
        uow.act_as(actor.user_id, clock.now())
        user = uow.users.get(user_id)
        if user is None:
            raise NotFound(f"user #{user_id} does not exist")
        if user.id == actor.user_id and Role.ADMINISTRATOR not in roles:
            raise ValidationError("roles", "you cannot take the administrator role from yourself")
        user.roles = roles
        uow.commit()


def set_active(uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, active: bool) -> None:
    require(actor, Permission.MANAGE_USERS)
    with uow:
        uow.act_as(actor.user_id, clock.now())
        user = uow.users.get(user_id)
        if user is None:
            raise NotFound(f"user #{user_id} does not exist")
        if user.id == actor.user_id and not active:
            raise ValidationError("active", "you cannot disable your own account")
        user.active = active
        uow.commit()


def change_password(
    uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, new_password: str
) -> None:
    """Users change their own password; an administrator may reset anyone's."""
    if user_id != actor.user_id:
        require(actor, Permission.MANAGE_USERS)
    if len(new_password) < MIN_PASSWORD_LENGTH:
        raise ValidationError("password", f"use at least {MIN_PASSWORD_LENGTH} characters")
    with uow:
        uow.act_as(actor.user_id, clock.now())
        user = uow.users.get(user_id)
        if user is None:
            raise NotFound(f"user #{user_id} does not exist")
        user.password_hash = _hasher.hash(new_password)
        uow.commit()


def authenticate(uow: UnitOfWork, username: str, password: str) -> Actor:
    with uow:
        user = uow.users.by_username(username.strip())
        if user is None or not user.active:
            raise AuthenticationFailed("Unknown user name or wrong password.")
        try:
            _hasher.verify(user.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise AuthenticationFailed("Unknown user name or wrong password.") from None
        return actor_of(user)


def actor_for_username(uow: UnitOfWork, username: str) -> Actor:
    """For the CLI's --user and the screenshot mode: an existing, active user, no password."""
    with uow:
        user = uow.users.by_username(username)
        if user is None or not user.active:
            raise NotFound(f"no active user named '{username}'")
        return actor_of(user)
