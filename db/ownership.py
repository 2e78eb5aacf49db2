"""Whether the one running the command line owns the register: the owner may recover an
administrator's account without signing in (`permitdesk users recover`), since the owner could
replace the register's users anyway. Anyone else is refused in words.

- SQLite: the operating-system account that owns the database file (POSIX). Windows has no
  owner id to compare here: the file's folder being writable stands for it, which every user
  allowed to change the folder passes (a limit of the check, documented in the user guide).
- PostgreSQL: the connected role owns the register's tables (or is a member of the role that
  does, which may act as it), or is a superuser.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, text

from db.engine import describe, sqlite_file


def owner_refusal(engine: Engine) -> str | None:
    """None when the caller owns the register; otherwise the words saying why not."""
    path = sqlite_file(engine)
    if path is not None:
        return _file_refusal(path)
    return _server_refusal(engine)


def _file_refusal(path: Path) -> str | None:
    geteuid = getattr(os, "geteuid", None)
    if geteuid is not None:
        me = geteuid()
        if me == 0 or os.stat(path).st_uid == me:  # root could take the file over anyway
            return None
        return (
            f"only the account that owns the database file {path} can recover an "
            "administrator's account without signing in; ask an administrator to reset the "
            "password, or run this as the file's owner"
        )
    if os.access(path.resolve().parent, os.W_OK):
        return None
    return (
        f"only a user who may change the folder of {path} can recover an administrator's "
        "account without signing in; ask an administrator to reset the password"
    )


def _server_refusal(engine: Engine) -> str | None:
    with engine.connect() as conn:
        row = conn.execute(
            text(
                "SELECT pg_has_role(current_user, c.relowner, 'MEMBER') OR r.rolsuper, "
                "pg_get_userbyid(c.relowner), current_user "
                "FROM pg_class c CROSS JOIN pg_roles r "
                "WHERE c.oid = to_regclass('app_user') AND r.rolname = current_user"
            )
        ).first()
    if row is not None and row[0]:
        return None
    owner = f" ({row[1]})" if row is not None else ""
    me = row[2] if row is not None else "this role"
    return (
        f"only the role that owns the register's tables{owner} can recover an administrator's "
        f"account without signing in, and {describe(engine)} is connected as {me}; ask an "
        "administrator to reset the password, or connect as the owner"
    )
