"""A shared register on PostgreSQL as an office sets it up: the owner role makes and upgrades it,
the workstations connect as the application role, which may do the desk's work and nothing that
would let a clerk's login rewrite the audit trail; `db check` names a guard switched off, and a
workstation connected as the owner or a superuser (README: Sharing the register on PostgreSQL)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from db import roles
from db.database import Database, no_register, open_database
from db.engine import DatabaseError, describe, make_engine
from db.migrate import HEAD, check, upgrade
from desk.clock import FixedClock
from desk.services import permits
from permitdesk import config
from permitdesk.cli import main
from tests.cli_sign_in import signed, user_row
from tests.conftest import PgRegister, provision, reset_postgres
from tests.factories import application, make_issuable, seed_register

GUARD_REPAIR = (
    "only someone with the owner role's password (or a superuser) can do this; the owner puts "
    "it back with 'permitdesk db upgrade', and should change that password"
)
RIGHTS_REPAIR = "the owner sets the workstations' rights again with 'permitdesk db upgrade'"
ADVICE = "workstations must connect as the application role (README: Sharing the register on "


@pytest.fixture
def pg(pg_register: PgRegister) -> PgRegister:
    return pg_register


@pytest.fixture
def app_db(pg: PgRegister) -> Iterator[Database]:
    """A new register made by the owner, opened as a workstation (the application role)."""
    reset_postgres(pg.owner_url)
    open_database(pg.owner_url).close()
    provision(pg)
    database = open_database(pg.app_url)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def owner(pg: PgRegister) -> Iterator[Engine]:
    engine = make_engine(pg.owner_url)
    try:
        yield engine
    finally:
        engine.dispose()


@pytest.fixture
def no_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings and pass files of `db use` in the test's folder."""
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def _refusal(engine: Engine, sql: str) -> str:
    with pytest.raises(DBAPIError) as caught, engine.begin() as conn:
        conn.exec_driver_sql(sql)
    return str(caught.value.orig.diag.message_primary)  # type: ignore[union-attr]


def _audit_rows(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT COUNT(*) FROM audit_event")).scalar_one())


def _where(url: str) -> str:
    engine = make_engine(url)
    try:
        return describe(engine)
    finally:
        engine.dispose()


def _plain(url: str, role: str) -> str:
    return (
        make_url(url)
        ._replace(drivername="postgresql", username=role, password=None)
        .render_as_string()
    )


# --- what a workstation's login may not do -------------------------------------------------------

NEUTERED = (
    "CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger AS $$ "
    "BEGIN RETURN OLD; END; $$ LANGUAGE plpgsql"
)


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("sql", "refused"),
    [
        ("TRUNCATE audit_event", "permission denied for table audit_event"),
        ("ALTER TABLE audit_event DISABLE TRIGGER ALL", "must be owner of table audit_event"),
        (
            "ALTER TABLE audit_event DISABLE TRIGGER audit_event_append_only",
            "must be owner of table audit_event",
        ),
        (
            "DROP TRIGGER audit_event_append_only ON audit_event",
            "must be owner of relation audit_event",
        ),
        (
            "SET session_replication_role = replica",
            'permission denied to set parameter "session_replication_role"',
        ),
        (NEUTERED, "permission denied for schema public"),
        ("UPDATE audit_event SET action = 'nothing'", "permission denied for table audit_event"),
        ("DELETE FROM audit_event", "permission denied for table audit_event"),
        ("CREATE TABLE side_book (id integer)", "permission denied for schema public"),
        ("TRUNCATE permit", "permission denied for table permit"),
        (
            "CREATE TRIGGER quiet BEFORE UPDATE ON permit "
            "FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()",
            "permission denied for table permit",
        ),
        (
            "UPDATE alembic_version SET version_num = '0001'",
            "permission denied for table alembic_version",
        ),
    ],
    ids=lambda v: v.split(" ")[0] + " " + v.split(" ")[1] if " " in v else v,
)
def test_the_workstations_role_is_refused_every_way_round_the_audit_trail(
    app_db: Database, clock: FixedClock, sql: str, refused: str
) -> None:
    seed_register(app_db, clock)
    before = _audit_rows(app_db.engine)
    assert _refusal(app_db.engine, sql) == refused
    assert _audit_rows(app_db.engine) == before
    assert check(app_db.engine) == []


@pytest.mark.postgres
def test_the_workstations_role_cannot_become_the_owner(app_db: Database, pg: PgRegister) -> None:
    assert _refusal(app_db.engine, f'SET ROLE "{pg.owner}"') == (
        f'permission denied to set role "{pg.owner}"'
    )


@pytest.mark.postgres
def test_the_workstations_role_does_the_desks_work(app_db: Database, clock: FixedClock) -> None:
    """Application, checklist, fees paid in cash, issue; the audit trail appended under its
    lock; the other workstations told (LISTEN/NOTIFY)."""
    reg = seed_register(app_db, clock)
    watcher = app_db.watch_changes()
    try:
        permit_id = permits.take_application(app_db.uow(), clock, reg.clerk, application(reg))
        make_issuable(app_db, clock, reg.admin, permit_id)
        number = permits.issue_permit(app_db.uow(), clock, reg.admin, permit_id)
        assert watcher.wait(10)
        changes = watcher.poll()
    finally:
        watcher.close()
    assert number == "2026-0001"
    assert {(c.entity_id, c.action) for c in changes if c.entity == "permit"} == {
        (permit_id, "create"),
        (permit_id, "update"),
    }
    with app_db.read() as conn:
        assert (
            conn.execute(
                text("SELECT number FROM permit WHERE id = :id"), {"id": permit_id}
            ).scalar_one()
            == number
        )
    assert check(app_db.engine) == []


# --- what db check finds ---------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("damage", "line"),
    [
        (
            ["ALTER TABLE audit_event DISABLE TRIGGER audit_event_append_only"],
            "the trigger audit_event_append_only, which refuses changing or deleting audit "
            "rows, is switched off",
        ),
        (
            ["ALTER TABLE audit_event ENABLE REPLICA TRIGGER audit_event_append_only"],
            "the trigger audit_event_append_only, which refuses changing or deleting audit "
            "rows, is switched off",
        ),
        (
            ["ALTER TABLE audit_event DISABLE TRIGGER USER"],
            "the trigger audit_event_append_only, which refuses changing or deleting audit "
            "rows, is switched off",
        ),
        (
            ["DROP TRIGGER audit_event_no_truncate ON audit_event"],
            "the trigger audit_event_no_truncate, which refuses emptying the audit trail, "
            "is missing",
        ),
        (
            [
                "DROP TRIGGER audit_event_append_only ON audit_event",
                "CREATE TRIGGER audit_event_append_only BEFORE UPDATE OF action ON audit_event "
                "FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()",
            ],
            "the trigger audit_event_append_only, which refuses changing or deleting audit "
            "rows, has been changed and no longer covers every change",
        ),
        (
            [NEUTERED],
            "the function audit_event_append_only(), which the audit trail's triggers call, "
            "has been replaced and no longer refuses changes",
        ),
    ],
    ids=[
        "disabled",
        "replica-only",
        "all-user-triggers-off",
        "truncate-dropped",
        "narrowed",
        "replaced",
    ],
)
def test_db_check_names_a_guard_the_owner_switched_off_and_db_upgrade_puts_it_back(
    app_db: Database,
    owner: Engine,
    pg: PgRegister,
    damage: list[str],
    line: str,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed_register(app_db, clock)
    with owner.begin() as conn:
        for sql in damage:
            conn.exec_driver_sql(sql)
    found = check(app_db.engine)
    expected = f"audit trail protection: {line}; {GUARD_REPAIR}"
    if "DISABLE TRIGGER USER" in damage[0]:  # the TRUNCATE trigger goes off with it
        assert found[0] == expected and len(found) == 2 and "audit_event_no_truncate" in found[1]
    else:
        assert found == [expected]
    assert main(["db", "check", "--database-url", pg.app_url]) == 1
    assert expected in capsys.readouterr().out.splitlines()

    assert main(["db", "upgrade", "--database-url", pg.owner_url, *signed(monkeypatch)]) == 0
    assert f"Put back the audit trail's protection: {line}." in capsys.readouterr().out
    assert check(app_db.engine) == []
    assert _refusal(owner, "DELETE FROM audit_event") == "the audit trail is append-only"


@pytest.mark.postgres
def test_db_check_says_when_it_is_connected_as_the_owner_or_a_superuser(
    app_db: Database, pg: PgRegister, capsys: pytest.CaptureFixture[str]
) -> None:
    owner_line = (
        f"connected as the owner role {pg.owner}, which owns the register's tables and can "
        f"switch off the audit trail's protection; {ADVICE}PostgreSQL), and the owner is used "
        "only for 'permitdesk db init' and 'permitdesk db upgrade'"
    )
    assert main(["db", "check", "--database-url", pg.owner_url]) == 1
    assert capsys.readouterr().out.splitlines() == [owner_line]
    superuser = make_url(pg.superuser_url).username
    assert main(["db", "check", "--database-url", pg.superuser_url]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"connected as {superuser}, a PostgreSQL superuser, which can switch off the audit "
        f"trail's protection; {ADVICE}PostgreSQL)"
    ]
    assert main(["db", "check", "--database-url", pg.app_url]) == 0
    assert capsys.readouterr().out == "OK\n"


@pytest.mark.postgres
def test_rights_given_by_hand_are_named_by_db_check_and_taken_back_by_the_next_provisioning(
    app_db: Database, owner: Engine, pg: PgRegister
) -> None:
    app = pg.app_role
    with owner.begin() as conn:
        conn.exec_driver_sql(f'GRANT UPDATE, TRUNCATE ON audit_event TO "{app}"')
        conn.exec_driver_sql(f'GRANT TRIGGER ON permit, payment TO "{app}"')
        conn.exec_driver_sql(f'GRANT CREATE ON SCHEMA public TO "{app}"')
    assert check(app_db.engine) == [
        f"connected as {app}, which may change audit rows (UPDATE on audit_event); {RIGHTS_REPAIR}",
        f"connected as {app}, which may empty the audit trail (TRUNCATE on audit_event); "
        f"{RIGHTS_REPAIR}",
        f"connected as {app}, which may add triggers to the tables payment, permit (TRIGGER); "
        f"{RIGHTS_REPAIR}",
        f"connected as {app}, which may create tables and functions in the register's schema; "
        f"{RIGHTS_REPAIR}",
    ]
    provision(pg)  # what `db upgrade` does after every upgrade
    assert check(app_db.engine) == []


@pytest.mark.postgres
def test_provisioning_twice_gives_the_same_rights_and_only_these(
    app_db: Database, owner: Engine, pg: PgRegister
) -> None:
    def rights() -> dict[str, set[str]]:
        with owner.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT table_name, privilege_type FROM information_schema.role_table_grants "
                    "WHERE grantee = :r"
                ),
                {"r": pg.app_role},
            ).all()
        found: dict[str, set[str]] = {}
        for table, right in rows:
            found.setdefault(table, set()).add(right)
        return found

    first = rights()
    with owner.begin() as conn:
        roles.provision_app_role(conn, pg.app_role, None)
        roles.provision_app_role(conn, pg.app_role, None)
        assert roles.app_roles(conn) == [pg.app_role]
        attributes = conn.execute(
            text(
                "SELECT rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolinherit "
                "FROM pg_roles WHERE rolname = :r"
            ),
            {"r": pg.app_role},
        ).one()
    assert rights() == first
    assert first["audit_event"] == {"SELECT", "INSERT"}
    assert first["alembic_version"] == {"SELECT"}
    assert first["permit"] == first["payment"] == {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert all("TRUNCATE" not in r and "TRIGGER" not in r for r in first.values())
    assert tuple(attributes) == (True, False, False, False, False)


@pytest.mark.postgres
def test_the_owner_and_a_superuser_cannot_be_made_the_workstations_role(
    app_db: Database, owner: Engine, pg: PgRegister
) -> None:
    superuser = str(make_url(pg.superuser_url).username)
    with owner.begin() as conn:
        with pytest.raises(DatabaseError) as caught:
            roles.provision_app_role(conn, pg.owner, None)
        assert str(caught.value) == (
            f"the workstations' role must not be the owner role {pg.owner}: choose another "
            "name, e.g. permitdesk_app"
        )
        with pytest.raises(DatabaseError) as caught:
            roles.provision_app_role(conn, superuser, None)
        assert str(caught.value) == (
            f"the role {superuser} is a superuser; workstations must not connect as it: choose "
            "another name for the workstations' role"
        )
        with pytest.raises(DatabaseError, match="cannot be a role name"):
            roles.provision_app_role(conn, 'app"; DROP TABLE permit; --', None)


# --- an older register, opened by a workstation ----------------------------------------------


@pytest.mark.postgres
def test_a_workstation_opening_an_older_register_is_told_its_owner_upgrades_it(
    pg: PgRegister, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    reset_postgres(pg.owner_url)
    engine = make_engine(pg.owner_url)
    upgrade(engine, "0012")
    user_row(engine)  # its administrator, who runs `db upgrade`
    upgrade(engine, "0013")
    engine.dispose()
    provision(pg)  # the rights as the last `db upgrade` left them
    owner_command = f"permitdesk db upgrade --database-url {_plain(pg.owner_url, pg.owner)}"
    where = _where(pg.app_url)
    with pytest.raises(DatabaseError) as caught:
        open_database(pg.app_url)
    assert str(caught.value) == (
        f"the shared database {where} is at schema revision 0013, older than this Permit Desk "
        f"({HEAD}); the register must be upgraded by its owner first: an administrator runs "
        f"'permitdesk db upgrade' as the owner role {pg.owner} ({owner_command})"
    )
    assert main(["db", "upgrade", "--database-url", pg.app_url, *signed(monkeypatch)]) == 2
    assert capsys.readouterr().err == (
        f"permitdesk: error: connected as {pg.app_role}, which does not own the register, so "
        f"it cannot change its tables; the register must be upgraded by its owner: "
        f"{owner_command}\n"
    )
    # The owner upgrades; the workstations' role is found by its rights and given the new tables.
    upgrading = ["db", "upgrade", "--database-url", pg.owner_url, "--no-backup"]
    assert main([*upgrading, *signed(monkeypatch)]) == 0
    printed = capsys.readouterr().out
    assert (
        f"The workstations' role {pg.app_role} may read and write the register's records and "
        "add to the audit trail, nothing more."
    ) in printed.splitlines()
    database = open_database(pg.app_url)
    try:
        assert check(database.engine) == []
        with database.read() as conn:  # a table revision 0023 made
            assert conn.execute(text("SELECT COUNT(*) FROM user_token")).scalar_one() == 0
    finally:
        database.close()


@pytest.mark.postgres
def test_a_workstation_opening_an_empty_database_is_told_there_is_no_register(
    pg: PgRegister,
) -> None:
    reset_postgres(pg.owner_url)
    open_database(pg.owner_url).close()
    provision(pg)  # the role exists and may connect
    reset_postgres(pg.owner_url)
    with pytest.raises(DatabaseError) as caught:
        open_database(pg.app_url)  # as the window opens it: create=True
    assert str(caught.value) == no_register(_where(pg.app_url))


# --- the command line ------------------------------------------------------------------------


@pytest.fixture
def cli_role(pg: PgRegister) -> Iterator[str]:
    """A workstations' role `db init --app-role` creates; dropped afterwards."""
    name = f"{pg.app_role}_cli"
    yield name
    admin = make_engine(pg.superuser_url)
    try:
        with admin.begin() as conn:
            if roles.role_exists(conn, name):
                conn.exec_driver_sql(f'DROP OWNED BY "{name}"')
                conn.exec_driver_sql(f'DROP ROLE "{name}"')
    finally:
        admin.dispose()


@pytest.mark.postgres
def test_db_init_with_an_app_role_reads_both_passwords_from_stdin_and_saves_neither(
    pg: PgRegister,
    cli_role: str,
    no_settings: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reset_postgres(pg.owner_url)
    owner_password = make_url(pg.owner_url).password
    owner_url = _plain(pg.owner_url, pg.owner)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{owner_password}\nclerks-counter-2026\n"))
    assert main(["db", "init", "--database-url", owner_url, "--app-role", cli_role]) == 0
    workstation = _plain(pg.owner_url, cli_role)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Created a new Permit Desk register at postgresql")
    assert out[1:] == [
        f"The workstations connect as {cli_role}: it may read and write the register's records "
        "and add to the audit trail, nothing more.",
        "On each workstation run (it asks for the role's password and keeps it there):",
        f"  permitdesk db use --database-url {workstation}",
        "The owner's password was not saved on this computer; keep it for 'permitdesk db upgrade'.",
    ]
    assert not config.settings_file().exists() and not config.pass_file().exists()
    admin = make_engine(pg.superuser_url)
    try:
        with admin.connect() as conn:
            role = conn.execute(
                text(
                    "SELECT rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolinherit, "
                    "rolpassword FROM pg_authid WHERE rolname = :r"
                ),
                {"r": cli_role},
            ).one()
    finally:
        admin.dispose()
    assert tuple(role)[:5] == (True, False, False, False, False)
    assert role.rolpassword.startswith(("SCRAM-SHA-256$", "md5"))  # the hash, never the text

    # A workstation: its own role's password goes to its pass file, the owner's nowhere.
    with_password = make_url(pg.app_url)._replace(username=cli_role, password="clerks-counter-2026")
    assert main(["db", "use", "--database-url", with_password.render_as_string(False)]) == 0
    assert capsys.readouterr().err == ""
    kept = "".join(p.read_text("utf-8") for p in no_settings.rglob("*") if p.is_file())
    assert "clerks-counter-2026" in config.pass_file().read_text("utf-8")
    assert str(owner_password) not in kept
    assert main(["db", "check"]) == 0  # as the workstation now opens it
    assert capsys.readouterr().out == "OK\n"


@pytest.mark.postgres
def test_db_init_with_an_app_role_needs_a_password_for_a_new_role(
    pg: PgRegister,
    cli_role: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reset_postgres(pg.owner_url)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{make_url(pg.owner_url).password}\n\n"))
    url = _plain(pg.owner_url, pg.owner)
    assert main(["db", "init", "--database-url", url, "--app-role", cli_role]) == 2
    assert capsys.readouterr().err == (
        f"permitdesk: error: the role {cli_role} does not exist yet and needs a password: give it "
        "on its line of standard input\n"
    )
    engine = make_engine(pg.owner_url)
    try:
        with engine.connect() as conn:
            assert not roles.role_exists(conn, cli_role)
            assert conn.execute(text("SELECT to_regclass('audit_event')")).scalar() is None
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_db_use_warns_when_a_workstation_would_connect_as_the_owner(
    app_db: Database, pg: PgRegister, no_settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "use", "--database-url", pg.owner_url]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"warning: connected as the owner role {pg.owner}, which owns")


@pytest.mark.postgres
def test_db_upgrade_as_a_superuser_of_a_register_the_owner_role_owns_is_refused(
    app_db: Database,
    pg: PgRegister,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed_register(app_db, clock)  # its administrator runs `db upgrade`
    superuser = make_url(pg.superuser_url).username
    assert main(["db", "upgrade", "--database-url", pg.superuser_url, *signed(monkeypatch)]) == 2
    assert capsys.readouterr().err == (
        f"permitdesk: error: connected as {superuser}, but the register belongs to the role "
        f"{pg.owner}: upgrade it as its owner, so that new tables belong to it too: permitdesk "
        f"db upgrade --database-url {_plain(pg.superuser_url, pg.owner)}\n"
    )


def test_an_sqlite_register_has_no_roles_to_set_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "office.db"
    for command in ("init", "upgrade"):
        if command == "upgrade":
            assert main(["db", "init", "--db", str(path)]) == 0
            capsys.readouterr()
        assert main(["db", command, "--db", str(path), "--app-role", "permitdesk_app"]) == 2
        assert capsys.readouterr().err == (
            "permitdesk: error: --app-role is for a PostgreSQL register: an SQLite register is a "
            "file and has no roles; protect it with its folder's permissions (only the office's "
            "users may change the folder)\n"
        )
    assert main(["db", "check", "--db", str(path)]) == 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.postgres
def test_db_use_asks_for_the_workstations_password_when_the_server_wants_one(
    app_db: Database,
    pg: PgRegister,
    no_settings: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """This server lets the test roles in without a password, so the first refusal is made
    here, in the server's words."""
    import db.database

    opened: list[str] = []
    real_open = db.database.open_database

    def server_wanting_a_password(url: str, **options: object) -> Database:
        opened.append(url)
        if make_url(url).password is None:
            raise DatabaseError(
                f"cannot open the database {url}: connection failed: fe_sendauth: no password "
                "supplied"
            )
        return real_open(url, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(db.database, "open_database", server_wanting_a_password)
    monkeypatch.setattr("sys.stdin", _Terminal())
    prompts: list[str] = []

    def asked(prompt: str) -> str:
        prompts.append(prompt)
        return pg.app_password

    monkeypatch.setattr("getpass.getpass", asked)
    workstation = _plain(pg.app_url, pg.app_role)
    assert main(["db", "use", "--database-url", workstation]) == 0
    assert prompts == [f"Password for {pg.app_role}: "]
    assert len(opened) == 2
    assert config.pass_file().read_text("utf-8").rstrip("\n").endswith(f":{pg.app_password}")
    assert pg.app_password not in config.settings_file().read_text("utf-8")
    assert capsys.readouterr().err == ""
