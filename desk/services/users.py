"""Users, roles, sign-in and passwords. Passwords are hashed with argon2; nobody is ever deleted
(the audit trail names them): a user who left is disabled."""

from __future__ import annotations

from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from desk.clock import Clock
from desk.domain import passwords, sign_ins
from desk.domain.duplicates import username_taken
from desk.domain.enums import Role
from desk.domain.model import Actor, User
from desk.domain.permissions import Permission, require
from desk.errors import AuthenticationFailed, NotFound, ValidationError
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version

_hasher = PasswordHasher()
PASSWORD_RULE = passwords.RULE
# The built-in actor of `permitdesk users ...`: a space keeps it apart from every user name a
# person can be given, and the audit trail shows it as it is.
COMMAND_LINE = "command line"
WRONG = "Unknown user name or wrong password."


@dataclass(frozen=True)
class SignIn:
    actor: Actor
    full_name: str
    must_change_password: bool  # a first or reset password: change it before working


def actor_of(user: User) -> Actor:
    assert user.id is not None
    return Actor(user_id=user.id, username=user.username, roles=user.roles)


def check_password(password: str, username: str, field: str = "password") -> None:
    problem = passwords.password_problem(password, username)
    if problem is not None:
        raise ValidationError(field, problem)


def _check_username(username: str) -> str:
    name = username.strip()
    if not name:
        raise ValidationError("user name", "enter a user name")
    if any(c.isspace() for c in name):
        raise ValidationError("user name", "enter a user name without spaces")
    if len(name) > 80:
        raise ValidationError("user name", "use at most 80 characters")
    return name


def _check_person(full_name: str, title: str) -> tuple[str, str]:
    if not full_name.strip():
        raise ValidationError("full name", "enter the person's name")
    if len(full_name.strip()) > 200:
        raise ValidationError("full name", "use at most 200 characters")
    if len(title.strip()) > 200:
        raise ValidationError("title", "use at most 200 characters")
    return full_name.strip(), title.strip()


def _check_roles(roles: set[Role] | frozenset[Role]) -> None:
    if not roles:
        raise ValidationError("roles", "choose at least one role")


def _person(uow: UnitOfWork, user_id: int) -> User:
    """The user's row, locked for the rest of the transaction; never the command-line actor."""
    user = uow.users.get_for_update(user_id)
    if user is None or user.system:
        raise NotFound(f"user #{user_id} does not exist")
    return user


def _keep_an_administrator(
    uow: UnitOfWork, user: User, roles: frozenset[Role], active: bool
) -> None:
    """The last active administrator can be neither disabled nor demoted: nobody could then add
    users or change the office's settings. The administrators are locked, so two
    administrators demoting each other at once cannot both succeed."""
    if Role.ADMINISTRATOR in roles and active:
        return
    others = [u for u in uow.users.administrators_for_update() if u.id != user.id and u.active]
    if Role.ADMINISTRATOR in user.roles and user.active and not others:
        raise ValidationError(
            "roles" if active else "user",
            f"{user.full_name} is the last active administrator; make another user an "
            "administrator first",
        )


def create_first_administrator(
    uow: UnitOfWork, clock: Clock, username: str, full_name: str, password: str, title: str = ""
) -> Actor:
    """First start: the only time a user is created without an acting administrator."""
    name = _check_username(username)
    full, title = _check_person(full_name, title)
    check_password(password, name)
    with uow:
        if uow.users.count() > 0:
            raise ValidationError("user name", "the database already has users; sign in instead")
        uow.act_as(None, clock.now())
        user = User(
            username=name,
            full_name=full,
            title=title,
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
    roles: set[Role] | frozenset[Role],
    title: str = "",
    must_change_password: bool = True,
) -> int:
    """A new user with a first password, which they change at their first sign-in."""
    require(actor, Permission.MANAGE_USERS)
    name = _check_username(username)
    full, title = _check_person(full_name, title)
    _check_roles(roles)
    check_password(password, name)
    with uow:
        uow.act_as(actor, clock.now())
        existing = uow.users.by_username(name)
        if existing is not None:
            raise username_taken(existing)
        user = User(
            username=name,
            full_name=full,
            title=title,
            password_hash=_hasher.hash(password),
            created_at=clock.now(),
            must_change_password=must_change_password,
        )
        user.roles = set(roles)
        uow.users.add(user)
        uow.commit()
        assert user.id is not None
        return user.id


def update_person(
    uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, full_name: str, title: str
) -> None:
    """The name and title printed on what the user issues (documents printed earlier keep
    theirs only as far as they were printed: the register names the user)."""
    require(actor, Permission.MANAGE_USERS)
    full, title = _check_person(full_name, title)
    with uow:
        uow.act_as(actor, clock.now())
        _set_person(_person(uow, user_id), full, title)
        uow.commit()


def set_roles(
    uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, roles: set[Role] | frozenset[Role]
) -> None:
    require(actor, Permission.MANAGE_USERS)
    _check_roles(roles)
    with uow:
        uow.act_as(actor, clock.now())
        uow.users.administrators_for_update()  # first, in one order: no deadlock between two
        _set_roles(uow, actor, _person(uow, user_id), frozenset(roles))
        uow.commit()


def edit_user(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    user_id: int,
    full_name: str,
    title: str,
    roles: set[Role] | frozenset[Role],
    version: int | None = None,
) -> None:
    """The Users form's save, in one transaction: the name, title and roles as the form shows
    them; `version` is the one the form was opened on (a newer one is refused: StaleEdit)."""
    require(actor, Permission.MANAGE_USERS)
    full, title = _check_person(full_name, title)
    _check_roles(roles)
    with uow:
        uow.act_as(actor, clock.now())
        uow.users.administrators_for_update()  # first, in one order: no deadlock between two
        user = _person(uow, user_id)
        check_version(uow, user, version, f"The user {user.username}")
        _set_roles(uow, actor, user, frozenset(roles))
        _set_person(user, full, title)
        uow.commit()


def _edited(user: User) -> None:
    """An administrator changed what the Users form shows: forms opened before are stale."""
    user.version += 1


def _set_person(user: User, full: str, title: str) -> None:
    if (user.full_name, user.title) != (full, title):
        if user.full_name != full:
            user.full_name = full
        if user.title != title:
            user.title = title
        _edited(user)


def _set_roles(uow: UnitOfWork, actor: Actor, user: User, roles: frozenset[Role]) -> None:
    if user.id == actor.user_id and Role.ADMINISTRATOR not in roles:
        raise ValidationError("roles", "you cannot take the administrator role from yourself")
    _keep_an_administrator(uow, user, roles, user.active)
    if user.roles != roles:
        user.roles = set(roles)
        _edited(user)


def set_active(uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, active: bool) -> None:
    """Disable a user who left (never delete: the audit trail names them), or enable again. A
    disabled user still signed in somewhere is signed out at their next action."""
    require(actor, Permission.MANAGE_USERS)
    with uow:
        uow.act_as(actor, clock.now())
        uow.users.administrators_for_update()  # first, in one order: no deadlock between two
        user = _person(uow, user_id)
        if user.id == actor.user_id and not active:
            raise ValidationError("user", "you cannot disable your own account")
        _keep_an_administrator(uow, user, user.roles, active)
        if user.active != active:
            user.active = active
            _edited(user)
        uow.commit()


def reset_password(
    uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int, new_password: str
) -> None:
    """An administrator sets a new password, which the user must change at the next sign-in."""
    require(actor, Permission.MANAGE_USERS)
    with uow:
        uow.act_as(actor, clock.now())
        user = _person(uow, user_id)
        check_password(new_password, user.username)
        user.password_hash = _hasher.hash(new_password)
        user.must_change_password = user.id != actor.user_id
        if user.locked_at is not None or user.failed_sign_ins:  # a new password unlocks
            user.locked_at = None
            user.failed_sign_ins = 0
        uow.commit()


def change_own_password(
    uow: UnitOfWork, clock: Clock, actor: Actor, current_password: str, new_password: str
) -> None:
    """File → Change my password, and the change a first or reset password requires."""
    with uow:
        uow.act_as(actor, clock.now())
        user = _person(uow, actor.user_id)
        if not _verifies(user, current_password):
            raise ValidationError("current password", "this is not your current password")
        check_password(new_password, user.username, "new password")
        if new_password == current_password:
            raise ValidationError(
                "new password", "choose a password different from the current one"
            )
        user.password_hash = _hasher.hash(new_password)
        user.must_change_password = False
        uow.commit()


def _verifies(user: User, password: str) -> bool:
    return _verifies_hash(user.password_hash, password)


def _verifies_hash(password_hash: str, password: str) -> bool:
    try:
        return bool(_hasher.verify(password_hash, password))
    except (VerificationError, InvalidHashError):
        return False


def authenticate(uow: UnitOfWork, username: str, password: str) -> Actor:
    """The actor for a user name and password, writing nothing (scripts and tests); a person
    at a workstation signs in with sign_in, which counts wrong passwords."""
    with uow:
        return actor_of(_checked_user(uow, username, password))


def _checked_user(uow: UnitOfWork, username: str, password: str) -> User:
    """The user a name and password stand for, inside an open unit of work; nothing written."""
    user = uow.users.by_username(username.strip())
    if user is None or not user.active or user.system or user.locked_at is not None:
        raise AuthenticationFailed(WRONG)
    if not _verifies(user, password):
        raise AuthenticationFailed(WRONG)
    return user


# Verified against when the user name is unknown, so that an unknown name takes as long to
# refuse as a wrong password (the time would otherwise tell which names exist).
_NOBODY = _hasher.hash("no such user: the same work as a wrong password")


def sign_in(uow: UnitOfWork, clock: Clock, username: str, password: str) -> SignIn:
    """Sign in at a workstation: checks the password and records the time (the Users screen's
    "last sign-in"). Wrong passwords in a row are counted on the user (the audit trail shows
    each): after a few each try waits longer, then the account is locked (desk.domain.sign_ins).
    A read-only register (a copy on a CD) only checks the password: nothing can be recorded
    there, and a first password is changed in the working register, not in its copy."""
    now = clock.now()
    if uow.read_only:
        with uow:
            found = _checked_user(uow, username, password)
            return SignIn(actor_of(found), found.full_name, False)
    with uow:
        user = uow.users.by_username(username.strip(), lock=True)
        if user is None or user.system or not user.active:
            # The same work as a wrong password, audit row and commit included.
            _verifies_hash(_NOBODY, password)
            uow.act_as(None, now)
            uow.record_event(
                "sign_in", user.id if user is not None and user.id else 0, "failed",
                [{"field": "user name", "old": None, "new": username.strip()[:100]}],
            )  # fmt: skip
            uow.commit()
            raise AuthenticationFailed(WRONG)
        if user.locked_at is not None:
            raise AuthenticationFailed(sign_ins.LOCKED.format(n=user.failed_sign_ins))
        wait = sign_ins.wait_before_next_try(user.failed_sign_ins, user.last_failed_at, now)
        if wait:
            raise AuthenticationFailed(sign_ins.too_soon(wait))
        if not _verifies(user, password):
            uow.act_as(None, now)  # nobody is signed in: the audit row shows whose count it is
            user.failed_sign_ins += 1
            user.last_failed_at = now
            if user.failed_sign_ins >= sign_ins.LOCK_AFTER:
                user.locked_at = now
            uow.commit()
            if user.locked_at is not None:
                raise AuthenticationFailed(sign_ins.LOCKED.format(n=user.failed_sign_ins))
            raise AuthenticationFailed(WRONG)
        uow.act_as(actor_of(user), now)
        if user.failed_sign_ins:
            user.failed_sign_ins = 0
        user.last_sign_in_at = now
        uow.commit()
        return SignIn(actor_of(user), user.full_name, user.must_change_password)


def unlock(uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int) -> None:
    """An administrator lifts the lock that wrong passwords put on an account."""
    require(actor, Permission.MANAGE_USERS)
    with uow:
        uow.act_as(actor, clock.now())
        user = _person(uow, user_id)
        if user.locked_at is not None:
            user.locked_at = None
        if user.failed_sign_ins:
            user.failed_sign_ins = 0
        uow.commit()


def actor_for_username(uow: UnitOfWork, username: str) -> Actor:
    """For the CLI's --user and the screenshot mode: an existing, active user, no password."""
    with uow:
        user = uow.users.by_username(username)
        if user is None or not user.active or user.system:
            raise NotFound(f"no active user named '{username}'")
        return actor_of(user)


def user_id_for(uow: UnitOfWork, username: str) -> int:
    with uow:
        user = uow.users.by_username(username.strip())
        if user is None or user.system:
            raise NotFound(f"no user named '{username.strip()}'")
        assert user.id is not None
        return user.id


def command_line_actor(uow: UnitOfWork, clock: Clock) -> Actor:
    """The built-in actor of `permitdesk users ...` (scripted set-ups and support): an
    administrator recorded in the audit trail as "command line"; it cannot sign in."""
    with uow:
        user = uow.users.by_username(COMMAND_LINE)
        if user is None:
            uow.act_as(None, clock.now())
            user = User(
                username=COMMAND_LINE,
                full_name=COMMAND_LINE,
                password_hash="!",  # no argon2 hash: nothing verifies against it
                created_at=clock.now(),
                system=True,
            )
            user.roles = {Role.ADMINISTRATOR}
            uow.users.add(user)
            uow.commit()
        return actor_of(user)
