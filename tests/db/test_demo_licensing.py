"""The demo's City licences and condemnations, added through the services after the bonds and
deposits: licences numbered gaplessly in the order granted, revocations whose hearing and notice
keep 15.1.78's 30 and 5 days, condemnations open, overdue, vacated, lifted, razed and removed,
and a database `db check` still finds sound."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select

from db import licence_queries as lq
from db import schema
from db.database import Database, open_database
from db.demo import DemoSpec, build_demo
from db.engine import sqlite_url
from db.migrate import check
from desk.domain.licensing import Outcome
from desk.services import users

TODAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Database, str]]:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    database = open_database(sqlite_url(path))
    with pytest.MonkeyPatch.context() as mp:  # argon2 at its lowest cost, as in conftest
        mp.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        summary = build_demo(database, DemoSpec(years=3, per_year=200, seed=1, today=TODAY))
    yield database, summary
    database.close()


def test_demo_licences_are_numbered_in_the_order_granted_and_revoked_by_the_rules(
    demo: tuple[Database, str],
) -> None:
    database, summary = demo
    with database.read() as conn:
        rows = conn.execute(select(schema.city_licence).order_by(schema.city_licence.c.id)).all()
        counters = dict(
            conn.execute(
                select(schema.number_counter.c.year, schema.number_counter.c.value).where(
                    schema.number_counter.c.series == "EL"
                )
            ).all()
        )
    assert rows, summary
    by_year: dict[int, list[int]] = {}
    for row in rows:
        year, seq = int(row.number[3:7]), int(row.number[8:])
        assert row.granted_on.year == year
        by_year.setdefault(year, []).append(seq)
    for year, seqs in by_year.items():
        assert seqs == list(range(1, len(seqs) + 1))  # gapless, in the order granted
        assert counters[year] == len(seqs)
    revoked = [r for r in rows if r.revoked_on is not None]
    assert len(revoked) == 2
    for r in revoked:
        assert r.complaint_on < r.hearing_on <= r.complaint_on + timedelta(days=30)
        assert r.notice_on <= r.hearing_on - timedelta(days=5)
        assert r.disqualified is True and r.revoked_on >= r.hearing_on
    assert any(r.disqualified is False for r in rows)  # a complaint dismissed
    assert any(r.complaint_on and r.disqualified is None for r in rows)  # one pending
    assert "City electrical licences (2 revoked after a Council hearing" in summary


def test_demo_condemnations_are_in_every_state_and_the_database_is_sound(
    demo: tuple[Database, str],
) -> None:
    database, summary = demo
    with database.read() as conn:
        counts = lq.condemnation_counts(conn, 1, TODAY)
        every = lq.condemnation_rows(conn, 1, TODAY, state="all")
    assert counts["open"] == 3 and counts["overdue"] == 1
    assert counts["lifted"] == 2
    assert {c.outcome for c in every} == set(Outcome)
    assert any(c.vacated_on is not None and c.outcome is Outcome.OPEN for c in every)
    assert all(c.condemned_on <= TODAY for c in every)
    assert "condemnations: 1 open, overdue to vacate" in summary
    assert check(database.engine) == []
