"""Users, roles, sign-in and passwords. Passwords are hashed with argon2; nobody is ever deleted
(the audit trail names them): a user who left is disabled."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from desk.clock import Clock
from desk.domain import passwords, sign_ins
from desk.domain.duplicates import username_taken
from desk.domain.enums import Role
from desk.domain.model import Actor, User
from desk.domain.permissions import Permission, require
from desk.errors import AuthenticationFailed, NotFound, SignedOut, ValidationError
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version

_hasher = PasswordHasher()
PASSWORD_RULE = passwords.RULE
# The built-in actor of `permitdesk users ...`: a space keeps it apart from every user name a
# person can be given, and the audit trail shows it as it is.
COMMAND_LINE = "command line"
WRONG = sign_ins.REFUSED  # every refusal of a sign-in, whatever the reason


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


def _signs_in(user: User) -> bool:
    return user.active and user.locked_at is None


def _keep_an_administrator(
    uow: UnitOfWork,
    user: User,
    roles: frozenset[Role],
    active: bool,
    *,
    locked: bool | None = None,
) -> None:
    """The last active administrator who can sign in can be neither disabled, demoted nor
    locked: nobody could then add users or change the office's settings. The administrators
    are locked, so two administrators demoting each other at once cannot both succeed.
    `locked`: the lock the user is about to have (None: as now)."""
    stays_locked = user.locked_at is not None if locked is None else locked
    if Role.ADMINISTRATOR in roles and active and not stays_locked:
        return
    admins = [u for u in uow.users.administrators_for_update() if u.id != user.id]
    if Role.ADMINISTRATOR in user.roles and _signs_in(user) and not any(map(_signs_in, admins)):
        locked_out = any(u.active for u in admins)  # there are others, but locked
        raise ValidationError(
            "roles" if active and not stays_locked else "user",
            f"{user.full_name} is the last active administrator who can sign in; "
            + ("unlock another administrator or " if locked_out else "")
            + "make another user an administrator first",
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
    """An administrator sets a new password, which the user must change at the next sign-in
    (any user's, another administrator's too). The count of wrong passwords starts over; a lock
    stays until an administrator lifts it (unlock): it was put there on purpose."""
    require(actor, Permission.MANAGE_USERS)
    with uow:
        uow.act_as(actor, clock.now())
        user = _person(uow, user_id)
        check_password(new_password, user.username)
        user.password_hash = _hasher.hash(new_password)
        user.must_change_password = user.id != actor.user_id
        if user.failed_sign_ins:
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


def lock(uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int) -> None:
    """An administrator locks an account on purpose (a password someone else may know, a
    person away for a while): it cannot sign in until an administrator unlocks it. Not one's
    own account, and not the last administrator who can still sign in."""
    require(actor, Permission.MANAGE_USERS)
    now = clock.now()
    with uow:
        uow.act_as(actor, now)
        uow.users.administrators_for_update()  # first, in one order: no deadlock between two
        user = _person(uow, user_id)
        if user.id == actor.user_id:
            raise ValidationError("user", "you cannot lock your own account")
        if user.locked_at is None:
            _keep_an_administrator(uow, user, user.roles, user.active, locked=True)
            user.locked_at = now
            user.locked_by_id = actor.user_id
            _edited(user)
        uow.commit()


def unlock(uow: UnitOfWork, clock: Clock, actor: Actor, user_id: int) -> None:
    """An administrator lifts the lock on an account (another administrator's too; never their
    own); the count of wrong passwords starts over too."""
    require(actor, Permission.MANAGE_USERS)
    with uow:
        uow.act_as(actor, clock.now())
        user = _person(uow, user_id)
        if user.locked_at is not None:
            if user.id == actor.user_id:  # still signed in somewhere when it was locked
                raise ValidationError(
                    "user", "you cannot unlock your own account; another administrator does"
                )
            user.locked_at = None
            user.locked_by_id = None
            _edited(user)
        if user.failed_sign_ins:
            user.failed_sign_ins = 0
        uow.commit()


def recover_administrator(uow: UnitOfWork, clock: Clock, username: str, new_password: str) -> None:
    """The database owner's way back in when no administrator can sign in (`permitdesk users
    recover`, whose caller decides who the owner is): the administrator's account is enabled
    and unlocked and gets a new password, to be changed at the next sign-in. Recorded in the
    audit trail as done by the "command line"."""
    name = username.strip()
    actor = command_line_actor(uow, clock)
    now = clock.now()
    with uow:
        uow.act_as(actor, now)
        uow.users.administrators_for_update()  # first, in one order: no deadlock between two
        user = uow.users.by_username(name, lock=True)
        if user is None or user.system:
            raise NotFound(f"no user named '{name}'")
        if Role.ADMINISTRATOR not in user.roles:
            raise ValidationError(
                "user name",
                f"{name} is not an administrator; recover an administrator's account, then "
                "manage the others under Administration → Users",
            )
        check_password(new_password, user.username)
        if not user.active or user.locked_at is not None:
            user.active = True
            user.locked_at = None
            user.locked_by_id = None
            _edited(user)
        user.failed_sign_ins = 0
        user.password_hash = _hasher.hash(new_password)
        user.must_change_password = True
        assert user.id is not None
        uow.record_event(
            "user", user.id, "recovered",
            [{"field": "account", "old": None,
              "new": "enabled, unlocked and given a new password from the command line"}],
        )  # fmt: skip
        uow.commit()


# --- signing in -----------------------------------------------------------------------------

# Hashed (lazily: not at import, which every start pays) when a refusal has no password of
# its own to check; see _same_work.
_NOBODY_TEXT = "no such user: the same work as a wrong password"
_NOBODY: tuple[PasswordHasher, str] | None = None  # (the hasher it was made with, the hash)


def _same_work(password: str) -> None:
    """One argon2 computation with the hasher's parameters, as checking a wrong password
    costs, when there is no password to check (an unknown name; a disabled, locked or throttled
    account): the time taken would otherwise tell which user names exist. The first time,
    making the hash to check against is that one computation, so the first unknown name takes
    as long as the next."""
    global _NOBODY
    if _NOBODY is None or _NOBODY[0] is not _hasher:
        _NOBODY = (_hasher, _hasher.hash(_NOBODY_TEXT))
        return
    _verifies_hash(_NOBODY[1], password)


def _verifies(user: User, password: str) -> bool:
    return _verifies_hash(user.password_hash, password)


def password_matches(password_hash: str | None, password: str) -> bool:
    """For a check that reads the hash itself (a register whose schema is being upgraded or
    replaced, which cannot take a sign-in's record): None (no such user) costs as much."""
    if password_hash is None:
        _same_work(password)
        return False
    return _verifies_hash(password_hash, password)


def _verifies_hash(password_hash: str, password: str) -> bool:
    try:
        return bool(_hasher.verify(password_hash, password))
    except (VerificationError, InvalidHashError):
        return False


def _outdated(password_hash: str) -> bool:
    """Hashed with other argon2 parameters than today's (an older release): hashed again at the
    next sign-in, so that every wrong password costs what an unknown name costs."""
    try:
        return bool(_hasher.check_needs_rehash(password_hash))
    except (InvalidHashError, ValueError):
        return False


def _refusal(user: User | None, now: datetime | None) -> str | None:
    """Why a sign-in is refused before its password is checked (the audit trail's words);
    None: check the password. `now` None: no waiting is asked (nothing is counted there)."""
    if user is None:
        return sign_ins.UNKNOWN
    if user.system:
        return sign_ins.SYSTEM
    if not user.active:
        return sign_ins.DISABLED
    if user.locked_at is not None:
        return sign_ins.LOCKED
    if now is not None and sign_ins.wait_before_next_try(
        user.failed_sign_ins, user.last_failed_at, now
    ):
        return sign_ins.THROTTLED  # not checked: a try in the wait would be a free guess
    return None


@dataclass(frozen=True)
class _Checked:
    actor: Actor | None  # the account the name stands for (a person's), as read
    full_name: str
    reason: str | None  # refused before the password was checked
    matched: str = ""  # the stored hash the password matched; "" when it did not
    fresh: str = ""  # the password hashed with today's parameters, when the stored one is old


def _check(uow: UnitOfWork, name: str, password: str, now: datetime | None) -> _Checked:
    """Read the account, then spend one argon2 computation on the password, whatever the
    account is, after the transaction: nobody waits for argon2 (SQLite's write lock, the
    audit trail's lock)."""
    with uow:
        user = uow.users.by_username(name)
        reason = _refusal(user, now)
        if reason is not None or user is None:
            actor, full_name, stored = None, "", ""
        else:
            actor, full_name, stored = actor_of(user), user.full_name, user.password_hash
    if not stored:
        _same_work(password)
        return _Checked(actor, full_name, reason)
    if not _verifies_hash(stored, password):
        return _Checked(actor, full_name, None)
    fresh = _hasher.hash(password) if _outdated(stored) else ""
    return _Checked(actor, full_name, None, stored, fresh)


def _record_attempt(
    uow: UnitOfWork, user: User | None, name: str, action: str, reason: str | None
) -> None:
    """Every sign-in in the audit trail, refused ones with why (the trail is for administrators:
    the words on the screen never say)."""
    changes: list[dict[str, str | None]] = [{"field": "user name", "old": None, "new": name[:100]}]
    if reason is not None:
        changes.append({"field": "reason", "old": None, "new": reason})
    uow.record_event("sign_in", user.id if user is not None and user.id else 0, action, changes)


def authenticate(
    uow: UnitOfWork, username: str, password: str, clock: Clock | None = None
) -> Actor:
    """The actor for a user name and password, writing nothing (scripts and tests); a person
    at a workstation signs in with sign_in, which counts wrong passwords. With `clock`, an
    account in its wait after wrong passwords is refused as sign_in refuses it."""
    checked = _check(uow, username.strip(), password, clock.now() if clock else None)
    if not checked.matched or checked.actor is None:
        raise AuthenticationFailed(WRONG)
    return checked.actor


def sign_in(uow: UnitOfWork, clock: Clock, username: str, password: str) -> SignIn:
    """Sign in at a workstation: checks the password and records the time (the Users screen's
    "last sign-in"). Every refusal reads the same and costs the same (one argon2 computation,
    one audit row with the reason, one commit): an unknown name, a disabled, locked or
    system account, a try made too soon after wrong passwords, and a wrong password. Wrong
    passwords in a row make the next try wait (desk.domain.sign_ins), never lock.
    A read-only register (a copy on a CD) only checks the password: nothing can be recorded
    there, and a first password is changed in the working register, not in its copy."""
    now = clock.now()
    name = username.strip()
    checked = _check(uow, name, password, now)
    if uow.read_only:
        if not checked.matched or checked.actor is None:
            raise AuthenticationFailed(WRONG)
        return SignIn(checked.actor, checked.full_name, False)
    with uow:
        uow.act_as(None, now)  # the audit trail's lock before the user's row
        user = uow.users.by_username(name, lock=True)
        # The row as it is now decides (another workstation's try, an administrator's lock);
        # a try refused before its password was checked stays refused.
        reason = _refusal(user, now) or checked.reason
        if reason is None and user is not None:
            if checked.matched and checked.matched == user.password_hash:
                uow.act_as(actor_of(user), now)
                if user.failed_sign_ins:
                    user.failed_sign_ins = 0
                if checked.fresh:
                    user.password_hash = checked.fresh
                user.last_sign_in_at = now
                _record_attempt(uow, user, name, "signed in", None)
                uow.commit()
                return SignIn(actor_of(user), user.full_name, user.must_change_password)
            reason = sign_ins.WRONG_PASSWORD
            failures = sign_ins.failures_in_a_row(user.failed_sign_ins, user.last_failed_at, now)
            user.failed_sign_ins = failures + 1
            user.last_failed_at = now
        _record_attempt(uow, user, name, "failed", reason)
        uow.commit()
    raise AuthenticationFailed(WRONG)


# --- reads of what only some may see ------------------------------------------------------

LOCKED_OUT = SignedOut.LOCKED


def current_actor(uow: UnitOfWork, actor: Actor, permission: Permission | None = None) -> Actor:
    """Inside an open unit of work that reads what only some may see (who complained, the
    audit trail): the actor as the register has them now, read by its key. A user disabled,
    locked or given other roles since signing in is refused (SignedOut), and their window
    signs them out, as a write is refused (the unit of work's act_as); then `permission` is
    checked. Not for writing transactions: act_as checks those, and a read there locks."""
    user = uow.users.get(actor.user_id)
    reason = ""
    if user is None or not user.active:
        reason = SignedOut.MESSAGE
    elif user.locked_at is not None:
        reason = LOCKED_OUT
    elif user.roles != actor.roles:
        reason = SignedOut.ROLES_CHANGED
    if reason:
        # The workstation's listener (db.database.Database) closes the user's windows.
        signed_out = getattr(uow, "on_signed_out", None)
        if signed_out is not None:
            signed_out(reason)
        raise SignedOut(reason)
    if permission is not None:
        require(actor, permission)
    return actor


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
