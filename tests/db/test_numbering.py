"""Gapless numbering under concurrent issuers (Glendale 15.1.6(c): "regularly numbered in the
order of their issue"): no gap, no duplicate, and a rolled-back allocation burns no number."""

from __future__ import annotations

import itertools
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from db.database import open_database
from db.engine import make_engine, sqlite_url
from db.numbering import current_number, next_number
from db.schema import municipality
from tests.conftest import reset_postgres

PER_WORKER = 250


def _allocate(url: str, worker: int, out: mp.Queue, start: Any) -> None:  # type: ignore[type-arg]
    """Allocate PER_WORKER numbers, one transaction each; every 7th is rolled back after the
    allocation (as when issuing fails late), so it must not consume a number."""
    engine = make_engine(url)
    kept: list[int] = []
    try:
        with engine.connect():
            pass  # connected and ready before the race starts
        start.wait(timeout=120)
        i = 0
        while len(kept) < PER_WORKER:
            i += 1
            with engine.connect() as conn:
                trans = conn.begin()
                n = next_number(conn, 1, "P", 2026)
                if (i + worker) % 7 == 3:
                    trans.rollback()
                else:
                    trans.commit()
                    kept.append(n)
            # A breath between issues, as between two clerks' permits: SQLite's busy handler
            # lets waiting writers retry only every few milliseconds, so a worker allocating
            # back to back could otherwise finish all its numbers before the others get in.
            time.sleep(0.002)
        out.put((worker, kept, None))
    except Exception as e:  # report to the parent instead of hanging it
        out.put((worker, kept, repr(e)))
    finally:
        engine.dispose()


def _run(url: str, workers: int) -> list[int]:
    db = open_database(url)
    with db.engine.begin() as conn:
        conn.execute(
            insert(municipality).values(
                id=1,
                key="glendale",
                name="City of Glendale",
                letterhead=[],
                inspector_name="",
                inspector_title="",
                state="WI",
                settings={},
            )
        )
    db.close()
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start = ctx.Barrier(workers)  # all workers start allocating at the same moment
    procs = [ctx.Process(target=_allocate, args=(url, w, queue, start)) for w in range(workers)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=240) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    errors = [err for _, _, err in results if err]
    assert not errors, errors
    numbers = [n for _, kept, _ in results for n in kept]
    # The workers really ran at the same time: their numbers interleave.
    spans = sorted((min(kept), max(kept)) for _, kept, _ in results)
    assert any(a[1] > b[0] for a, b in itertools.pairwise(spans))
    engine = make_engine(url)
    with engine.connect() as conn:
        assert current_number(conn, 1, "P", 2026) == len(numbers)
    engine.dispose()
    return numbers


def test_four_processes_on_sqlite_get_1000_distinct_gapless_numbers(tmp_path: Path) -> None:
    numbers = _run(sqlite_url(tmp_path / "n.db"), workers=4)
    assert len(numbers) == 4 * PER_WORKER
    assert sorted(numbers) == list(range(1, 4 * PER_WORKER + 1))


@pytest.mark.postgres
def test_eight_processes_on_postgresql_get_2000_distinct_gapless_numbers(
    pg_server_url: str,
) -> None:
    reset_postgres(pg_server_url)
    numbers = _run(pg_server_url, workers=8)
    assert len(numbers) == 8 * PER_WORKER
    assert sorted(numbers) == list(range(1, 8 * PER_WORKER + 1))


def test_numbers_are_per_municipality_series_and_year(tmp_path: Path) -> None:
    db = open_database(sqlite_url(tmp_path / "n.db"))
    with db.engine.begin() as conn:
        for mid, key in ((1, "glendale"), (2, "new_lisbon")):
            conn.execute(
                insert(municipality).values(
                    id=mid,
                    key=key,
                    name=key,
                    letterhead=[],
                    inspector_name="",
                    inspector_title="",
                    state="WI",
                    settings={},
                )
            )
        got = [
            next_number(conn, 1, "P", 2026),
            next_number(conn, 1, "P", 2026),
            next_number(conn, 2, "P", 2026),
            next_number(conn, 1, "R", 2026),
            next_number(conn, 1, "P", 2027),
            next_number(conn, 1, "P", 2026),
        ]
    assert got == [1, 2, 1, 1, 1, 3]
    db.close()


def test_a_bulk_load_moves_the_counter_past_the_numbers_it_assigned(tmp_path: Path) -> None:
    from db.numbering import set_at_least

    db = open_database(sqlite_url(tmp_path / "n.db"))
    with db.engine.begin() as conn:
        conn.execute(
            insert(municipality).values(
                id=1,
                key="glendale",
                name="G",
                letterhead=[],
                inspector_name="",
                inspector_title="",
                state="WI",
                settings={},
            )
        )
        set_at_least(conn, 1, "P", 2026, 412)
        set_at_least(conn, 1, "P", 2026, 17)  # never moves it back
        assert next_number(conn, 1, "P", 2026) == 413
    db.close()
