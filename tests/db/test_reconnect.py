"""PostgreSQL restarted or a cable pulled: the connections the server dropped are replaced on
their next use, a connection that cannot be made is tried once more after a pause, and a
transaction cut off is rolled back and reported as not saved."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from db.database import Database, open_database
from db.uow import NOT_SAVED, outcome
from desk.clock import FixedClock
from desk.services import permits
from tests.conftest import reset_postgres
from tests.factories import application, seed_register


@pytest.fixture
def pg(pg_server_url: str) -> Iterator[Database]:
    reset_postgres(pg_server_url)
    database = open_database(pg_server_url, reconnect_pause=0.1)
    try:
        yield database
    finally:
        database.close()


def _drop_connections(url: str) -> int:
    """What a server restart does to this database's connections."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            return len(
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                ).all()
            )
    finally:
        admin.dispose()


def _count(database: Database) -> int:
    with database.read() as conn:
        return int(conn.execute(text("SELECT count(*) FROM permit")).scalar_one())


def test_after_a_restart_the_next_action_works(
    pg: Database, pg_server_url: str, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = seed_register(pg, clock)
    assert _drop_connections(pg_server_url) >= 1
    # The server is still coming up: the first connection fails, the one after the pause works.
    attempts: list[int] = []
    real_connect = pg.engine.dialect.connect

    def coming_up(*cargs: Any, **cparams: Any) -> Any:
        attempts.append(1)
        if len(attempts) == 1:
            raise pg.engine.dialect.loaded_dbapi.OperationalError(
                "the database system is starting up"
            )
        return real_connect(*cargs, **cparams)

    monkeypatch.setattr(pg.engine.dialect, "connect", coming_up)
    permits.take_application(pg.uow(), clock, reg.clerk, application(reg))
    assert len(attempts) == 2
    assert _count(pg) == 2


def test_a_transaction_cut_off_is_rolled_back_and_said_not_saved(
    pg: Database, pg_server_url: str, clock: FixedClock
) -> None:
    reg = seed_register(pg, clock)
    uow = pg.uow()
    with pytest.raises(OperationalError) as cut, uow:
        uow.act_as(reg.clerk, clock.now())
        permit = uow.permits.get(reg.permit_id)
        assert permit is not None
        permit.description = "Changed as the cable was pulled"
        _drop_connections(pg_server_url)
        uow.commit()
    assert cut.value.connection_invalidated
    assert outcome(cut.value) == NOT_SAVED
    with pg.read() as conn:  # the window goes on once the server is back
        described = conn.execute(
            text("SELECT description FROM permit WHERE id = :i"), {"i": reg.permit_id}
        ).scalar_one()
    assert described == "New 2-story single-family dwelling"
