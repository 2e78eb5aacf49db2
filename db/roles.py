"""Who may do what in a shared PostgreSQL register.

Two roles: the owner, which owns the tables, runs `permitdesk db init` and `db upgrade` and whose
password only the administrator knows; and the application role the workstations connect as,
which may read and write the register's records and add to the audit trail, and nothing more.
The audit trail's guards (the trigger audit_event_append_only from revision 0013, the TRUNCATE
trigger from 0023, and their function) hold only against a role that does not own the table:
the owner or a superuser could switch them off. So `db check` names a workstation connected as
either, and any guard that is missing, switched off or changed.

Which roles are the application roles is not stored: it is read from the grants themselves
(`app_roles`: the roles other than the owner that may add audit rows), so `db upgrade` sets
their rights again for the new tables without being told.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.engine import URL

from db.engine import DatabaseError

GUARD_FUNCTION = "audit_event_append_only"
ROW_TRIGGER = "audit_event_append_only"
TRUNCATE_TRIGGER = "audit_event_no_truncate"
# As revisions 0013 and 0023 create them; compared as PostgreSQL prints them back.
_FUNCTION_BODY = "BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END;"
_FUNCTION_SQL = f"""
CREATE OR REPLACE FUNCTION public.{GUARD_FUNCTION}() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit trail is append-only';
END;
$$ LANGUAGE plpgsql
"""
_TRIGGERS = {
    ROW_TRIGGER: (
        "0013",
        "which refuses changing or deleting audit rows",
        f"CREATE TRIGGER {ROW_TRIGGER} BEFORE DELETE OR UPDATE ON public.audit_event "
        f"FOR EACH ROW EXECUTE FUNCTION {GUARD_FUNCTION}()",
    ),
    TRUNCATE_TRIGGER: (
        "0023",
        "which refuses emptying the audit trail",
        f"CREATE TRIGGER {TRUNCATE_TRIGGER} BEFORE TRUNCATE ON public.audit_event "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {GUARD_FUNCTION}()",
    ),
}

GUIDE = "README: Sharing the register on PostgreSQL"
_GUARD_REPAIR = (
    "only someone with the owner role's password (or a superuser) can do this; the owner puts "
    "it back with 'permitdesk db upgrade', and should change that password"
)
_RIGHTS_REPAIR = "the owner sets the workstations' rights again with 'permitdesk db upgrade'"
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def check_role_name(name: str) -> None:
    """A role name as offices type it: lower-case letters, digits and underscores."""
    if not _NAME.fullmatch(name) or name.startswith("pg_"):
        raise DatabaseError(
            f"'{name}' cannot be a role name: use lower-case letters, digits and underscores, "
            "starting with a letter, at most 63 characters (e.g. permitdesk_app)"
        )


def _quote(conn: Connection, name: str) -> str:
    return str(conn.dialect.identifier_preparer.quote_identifier(name))


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def role_exists(conn: Connection, name: str) -> bool:
    found = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first()
    return found is not None


def register_owner(conn: Connection) -> str | None:
    """The role that owns the register's tables (the audit trail's, or the revision stamp's)."""
    for table in ("public.audit_event", "public.alembic_version"):
        owner = conn.execute(
            text("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = to_regclass(:t)"),
            {"t": table},
        ).scalar()
        if owner is not None:
            return str(owner)
    return None


def connect_as(url: URL, role: str) -> str:
    """The URL `role` connects with: the same server and database, no password (libpq's pass
    file or a prompt gives it), the plain `postgresql://` an office types."""
    return url._replace(drivername="postgresql", username=role, password=None).render_as_string(
        hide_password=False
    )


def app_roles(conn: Connection) -> list[str]:
    """The application roles set up before: the roles other than the owner granted INSERT on
    the audit trail (every workstation writes to it; nothing else is granted that)."""
    return list(
        conn.scalars(
            text(
                "SELECT DISTINCT r.rolname FROM pg_class c "
                "CROSS JOIN LATERAL aclexplode(c.relacl) a "
                "JOIN pg_roles r ON r.oid = a.grantee "
                "WHERE c.oid = to_regclass('public.audit_event') "
                "AND a.privilege_type = 'INSERT' AND a.grantee <> c.relowner "
                "AND NOT r.rolsuper ORDER BY 1"
            )
        )
    )


def _password_hash(conn: Connection, role: str, password: str) -> str:
    """The password as the server keeps it (SCRAM or md5, as it is set to), made here: the
    plain password never reaches the server, its logs or its statistics."""
    raw: Any = conn.connection.dbapi_connection
    hashed = raw.pgconn.encrypt_password(password.encode(), role.encode())
    return bytes(hashed).decode("ascii")


def provision_app_role(conn: Connection, app_role: str, password: str | None) -> None:
    """As the owner (or a superuser), inside a transaction: create `app_role` if it is missing
    (a login that may not create anything) or set its password when one is given, and give it
    exactly what a workstation needs. Run again after every upgrade: new tables get their
    grants, and any right given by hand since is taken back."""
    if conn.dialect.name != "postgresql":
        raise DatabaseError(
            "an SQLite register has no roles: protect its file with the folder's permissions"
        )
    check_role_name(app_role)
    owner = register_owner(conn)
    if owner is None:
        raise DatabaseError("the database has no Permit Desk register yet: run 'db init' first")
    me = str(conn.execute(text("SELECT current_user")).scalar_one())
    if app_role in (owner, me):
        raise DatabaseError(
            f"the workstations' role must not be the owner role {app_role}: choose another "
            "name, e.g. permitdesk_app"
        )
    q = _quote(conn, app_role)
    found = conn.execute(
        text(
            "SELECT rolsuper, rolreplication, rolbypassrls, rolcanlogin, rolinherit, "
            "rolcreatedb, rolcreaterole, pg_has_role(oid, :owner, 'MEMBER') AS acts_as_owner "
            "FROM pg_roles WHERE rolname = :n"
        ),
        {"n": app_role, "owner": owner},
    ).first()
    password_sql = (
        f" PASSWORD {_literal(_password_hash(conn, app_role, password))}" if password else ""
    )
    may_create_roles = conn.execute(
        text("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user")
    ).scalar()
    if found is None:
        if not password:
            raise DatabaseError(f"the role {app_role} does not exist yet: give it a password")
        if not may_create_roles:
            raise DatabaseError(cannot_create_roles(me, app_role))
        conn.exec_driver_sql(
            f"CREATE ROLE {q} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT "
            f"NOREPLICATION NOBYPASSRLS{password_sql}"
        )
    else:
        if found.rolsuper or found.rolreplication or found.rolbypassrls or found.acts_as_owner:
            what = "a superuser" if found.rolsuper else "allowed more than a workstation needs"
            if found.acts_as_owner and not found.rolsuper:
                what = f"a member of the owner role {owner}"
            raise DatabaseError(
                f"the role {app_role} is {what}; workstations must not connect as it: choose "
                "another name for the workstations' role"
            )
        differs = (
            not found.rolcanlogin or found.rolinherit or found.rolcreatedb or found.rolcreaterole
        )
        if differs or password_sql:
            if not may_create_roles:
                raise DatabaseError(cannot_create_roles(me, app_role))
            conn.exec_driver_sql(
                f"ALTER ROLE {q} LOGIN NOCREATEDB NOCREATEROLE NOINHERIT{password_sql}"
            )
    database = _quote(conn, str(conn.execute(text("SELECT current_database()")).scalar_one()))
    for statement in (
        f"GRANT CONNECT ON DATABASE {database} TO {q}",
        # Nobody but the owner creates anything here (PostgreSQL 15 refuses PUBLIC already).
        f"REVOKE CREATE ON SCHEMA public FROM PUBLIC, {q}",
        f"GRANT USAGE ON SCHEMA public TO {q}",
        # Start from nothing, so a right given by hand since the last run is taken back.
        f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC, {q}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {q}",
        # The audit trail is appended to and read, never changed (with the triggers besides).
        f"REVOKE UPDATE, DELETE ON public.audit_event FROM {q}",
        # The revision is read when the register opens; only `db upgrade` (the owner) moves it.
        f"REVOKE INSERT, UPDATE, DELETE ON public.alembic_version FROM {q}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC, {q}",
        # nextval needs USAGE; the demo loader's setval UPDATE (it changes no row).
        f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {q}",
    ):
        conn.exec_driver_sql(statement)
    # LISTEN/NOTIFY (db/changes.py) and pg_advisory_xact_lock (db/audit_chain.py) need no grant.


def cannot_create_roles(me: str, app_role: str) -> str:
    return (
        f"{me} may not create or change roles, so the role {app_role} cannot be set up; on the "
        f"server, as the postgres user, run: ALTER ROLE {me} CREATEROLE; and try again ({GUIDE})"
    )


# --- db check ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuardProblem:
    name: str  # the trigger's or the function's
    what: str  # "is missing", "is switched off", ...
    function: bool = False  # the trigger function (named as the row trigger is)

    def finding(self) -> str:
        if self.function:
            thing = f"the function {GUARD_FUNCTION}(), which the audit trail's triggers call,"
        else:
            thing = f"the trigger {self.name}, {_TRIGGERS[self.name][1]},"
        return f"{thing} {self.what}"

    def __str__(self) -> str:
        return f"audit trail protection: {self.finding()}; {_GUARD_REPAIR}"


def guard_problems(conn: Connection) -> list[GuardProblem]:
    """The audit trail's guards that are missing, switched off or not as the revisions made them
    (only those the register's revision has)."""
    if not (_has_table(conn, "alembic_version") and _has_table(conn, "audit_event")):
        return []
    revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    wanted = [name for name, (since, _, _) in _TRIGGERS.items() if (revision or "") >= since]
    if not wanted:
        return []
    out: list[GuardProblem] = []
    function = conn.execute(
        text(
            "SELECT p.oid, p.prosrc, l.lanname FROM pg_proc p "
            "JOIN pg_language l ON l.oid = p.prolang "
            "WHERE p.proname = :f AND p.pronamespace = 'public'::regnamespace AND p.pronargs = 0"
        ),
        {"f": GUARD_FUNCTION},
    ).first()
    if function is None:
        out.append(GuardProblem(GUARD_FUNCTION, "is missing", function=True))
    elif " ".join(function.prosrc.split()) != _FUNCTION_BODY or function.lanname != "plpgsql":
        out.append(
            GuardProblem(
                GUARD_FUNCTION, "has been replaced and no longer refuses changes", function=True
            )
        )
    triggers = {
        row.tgname: row
        for row in conn.execute(
            text(
                "SELECT tgname, tgenabled, tgfoid, pg_get_triggerdef(oid) AS definition "
                "FROM pg_trigger WHERE tgrelid = 'public.audit_event'::regclass "
                "AND tgname IN :names"
            ).bindparams(_expanding("names")),
            {"names": list(_TRIGGERS)},
        )
    }
    for name in wanted:
        trigger = triggers.get(name)
        if trigger is None:
            out.append(GuardProblem(name, "is missing"))
        elif trigger.definition != _TRIGGERS[name][2] or (
            function is not None and trigger.tgfoid != function.oid
        ):
            out.append(GuardProblem(name, "has been changed and no longer covers every change"))
        elif trigger.tgenabled not in ("O", "A"):  # D: disabled; R: fires for replicas only
            out.append(GuardProblem(name, "is switched off"))
    return out


def _expanding(name: str) -> Any:
    from sqlalchemy import bindparam

    return bindparam(name, expanding=True)


def _has_table(conn: Connection, name: str) -> bool:
    found = conn.execute(text("SELECT to_regclass(:t)"), {"t": f"public.{name}"}).scalar()
    return found is not None


def restore_guards(conn: Connection) -> list[GuardProblem]:
    """As the owner, at the newest revision: put back every guard `guard_problems` finds
    (the function as revision 0013 made it, both triggers re-made). Returns what was wrong."""
    found = guard_problems(conn)
    if not found:
        return []
    conn.exec_driver_sql(_FUNCTION_SQL)
    for name, (_, _, definition) in _TRIGGERS.items():
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name} ON public.audit_event")
        conn.exec_driver_sql(definition)
    return found


@dataclass(frozen=True)
class Connected:
    role: str
    superuser: bool
    owner: str | None
    acts_as_owner: bool  # is the owner, or a member of it (may SET ROLE to it)
    create_roles: bool


def connected(conn: Connection) -> Connected:
    row = conn.execute(
        text(
            "SELECT r.rolname, r.rolsuper, r.rolcreaterole, pg_get_userbyid(c.relowner), "
            "c.relowner IS NOT NULL AND pg_has_role(r.oid, c.relowner, 'MEMBER') "
            "FROM pg_roles r LEFT JOIN pg_class c "
            "ON c.oid = coalesce(to_regclass('public.audit_event'), "
            "to_regclass('public.alembic_version')) "
            "WHERE r.rolname = current_user"
        )
    ).one()
    return Connected(str(row[0]), bool(row[1]), row[3], bool(row[4]), bool(row[2]))


def role_problem(conn: Connection) -> str | None:
    """The words when the connected role could switch the audit trail's guards off itself."""
    me = connected(conn)
    advice = f"workstations must connect as the application role ({GUIDE})"
    if me.superuser:
        return (
            f"connected as {me.role}, a PostgreSQL superuser, which can switch off the audit "
            f"trail's protection; {advice}"
        )
    if me.owner == me.role:
        return (
            f"connected as the owner role {me.role}, which owns the register's tables and can "
            f"switch off the audit trail's protection; {advice}, and the owner is used only "
            "for 'permitdesk db init' and 'permitdesk db upgrade'"
        )
    if me.acts_as_owner:
        return (
            f"connected as {me.role}, a member of the owner role {me.owner}, which can act as "
            f"the owner and switch off the audit trail's protection; {advice}"
        )
    return None


_AUDIT_RIGHTS = (
    ("UPDATE", "change audit rows"),
    ("DELETE", "delete audit rows"),
    ("TRUNCATE", "empty the audit trail"),
)


def privilege_problems(conn: Connection) -> list[str]:
    """`db check` on PostgreSQL: the audit trail's guards, then the connected role's rights."""
    out = [str(p) for p in guard_problems(conn)]
    problem = role_problem(conn)
    if problem is not None:
        return [*out, problem]
    who = connected(conn)
    me = who.role
    if who.create_roles:
        out.append(
            f"connected as {me}, which may create and grant roles (CREATEROLE) and so make "
            f"itself the owner; {_RIGHTS_REPAIR}"
        )
    if _has_table(conn, "audit_event"):
        for right, verb in _AUDIT_RIGHTS:
            if conn.execute(
                text("SELECT has_table_privilege('public.audit_event', :p)"), {"p": right}
            ).scalar():
                out.append(
                    f"connected as {me}, which may {verb} ({right} on audit_event); "
                    f"{_RIGHTS_REPAIR}"
                )
    tables = "c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')"
    owned = list(
        conn.scalars(
            text(
                f"SELECT c.relname FROM pg_class c WHERE {tables} "
                "AND pg_has_role(c.relowner, 'MEMBER') ORDER BY 1"
            )
        )
    )
    if owned:
        out.append(
            f"connected as {me}, which owns the tables {_listed(owned)}, and so can switch off "
            "their checks; ask whoever looks after the database server to give them back to "
            "the owner role"
        )
    for right, verb in (("TRUNCATE", "empty"), ("TRIGGER", "add triggers to")):
        found = list(
            conn.scalars(
                text(
                    f"SELECT c.relname FROM pg_class c WHERE {tables} "
                    "AND has_table_privilege(c.oid, :p) ORDER BY 1"
                ),
                {"p": right},
            )
        )
        found = [t for t in found if not (t == "audit_event" and right == "TRUNCATE")]
        if found:
            out.append(
                f"connected as {me}, which may {verb} the tables {_listed(found)} ({right}); "
                f"{_RIGHTS_REPAIR}"
            )
    if conn.execute(text("SELECT has_schema_privilege('public', 'CREATE')")).scalar():
        out.append(
            f"connected as {me}, which may create tables and functions in the register's "
            f"schema; {_RIGHTS_REPAIR}"
        )
    return out


def _listed(names: list[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def upgrade_refusal(conn: Connection, url: URL) -> str | None:
    """Why the connected role must not upgrade the register, in words; None when it is the
    owner. Tables a member or a superuser made would belong to it, not to the owner, and the
    owner's next upgrade could not change them."""
    me = connected(conn)
    if me.owner is None or me.owner == me.role:
        return None
    command = f"permitdesk db upgrade --database-url {connect_as(url, me.owner)}"
    if me.superuser or me.acts_as_owner:
        return (
            f"connected as {me.role}, but the register belongs to the role {me.owner}: "
            f"upgrade it as its owner, so that new tables belong to it too: {command}"
        )
    return (
        f"connected as {me.role}, which does not own the register, so it cannot change its "
        f"tables; the register must be upgraded by its owner: {command}"
    )
