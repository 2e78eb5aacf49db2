"""Who may do what. Services check these themselves; a hidden button is not a permission."""

from __future__ import annotations

from enum import StrEnum

from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.errors import PermissionDenied


class Permission(StrEnum):
    MANAGE_USERS = "manage users"
    MANAGE_MUNICIPALITY = "change municipality settings"
    TAKE_APPLICATION = "take permit applications"
    EDIT_PERMIT = "edit permits"
    ISSUE_PERMIT = "issue permits"
    VOID_PERMIT = "void permits"
    MANAGE_PARTIES = "edit parties, parcels and credentials"
    MANAGE_FEES = "change fee schedules"
    WAIVE_CHECKLIST_ITEM = "waive checklist items"  # 15.1.7(c): at the Building Inspector's option


# 15.1.6: the Building Inspector issues permits; the clerk takes applications at the counter.
ROLE_PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.CLERK: frozenset(
        {Permission.TAKE_APPLICATION, Permission.EDIT_PERMIT, Permission.MANAGE_PARTIES}
    ),
    Role.INSPECTOR: frozenset(
        {
            Permission.TAKE_APPLICATION,
            Permission.EDIT_PERMIT,
            Permission.ISSUE_PERMIT,
            Permission.VOID_PERMIT,
            Permission.WAIVE_CHECKLIST_ITEM,
            Permission.MANAGE_PARTIES,
        }
    ),
    Role.ENGINEER: frozenset({Permission.MANAGE_PARTIES}),
    Role.TREASURER: frozenset(),
    Role.ADMINISTRATOR: frozenset(Permission),
}


def allowed(actor: Actor, permission: Permission) -> bool:
    return any(permission in ROLE_PERMISSIONS[r] for r in actor.roles)


def require(actor: Actor, permission: Permission) -> None:
    if not allowed(actor, permission):
        who = ", ".join(sorted(r.label.lower() for r in actor.roles)) or "no role"
        able = sorted(r.label.lower() for r, ps in ROLE_PERMISSIONS.items() if permission in ps)
        raise PermissionDenied(
            f"You are signed in as {actor.username} ({who}); only a user with the role "
            f"{' or '.join(able)} may {permission.value}."
        )
