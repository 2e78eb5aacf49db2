"""Workstations that open a new register together load the shipped data once: the municipality,
its fee schedule, its GL accounts and the fee-to-account map, with no error on any of them."""

from __future__ import annotations

import multiprocessing as mp
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from db import schema
from db.engine import make_engine, sqlite_url
from desk.domain.cashiering import shipped_ledger
from desk.fees.loader import shipped_schedule
from tests.conftest import reset_postgres


def _first_operations(url: str, worker: int, out: mp.Queue, start: Any) -> None:  # type: ignore[type-arg]
    """Open the register (creating it if no one has yet) and run the first operations."""
    from db.database import open_database
    from desk.clock import FixedClock
    from desk.services.cashiering import gl_accounts
    from desk.services.fees import fee_schedule
    from desk.services.setup import ensure_municipality

    clock = FixedClock(date(2026, 3, 2))
    try:
        start.wait(timeout=120)
        database = open_database(url)
        try:
            muni_id = ensure_municipality(database.uow(), clock, None, "glendale")
            fee_schedule(database.uow(), clock, muni_id)
            gl_accounts(database.uow(), clock, muni_id)
        finally:
            database.close()
        out.put((worker, None))
    except Exception as e:  # reported to the parent instead of hanging it
        out.put((worker, repr(e)))


def _race(url: str, workers: int) -> dict[str, int]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start = ctx.Barrier(workers)  # every workstation opens the new database at the same moment
    procs = [
        ctx.Process(target=_first_operations, args=(url, w, queue, start)) for w in range(workers)
    ]
    for p in procs:
        p.start()
    results = [queue.get(timeout=240) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    errors = [err for _, err in results if err]
    assert errors == []
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {
                t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in (
                    schema.municipality,
                    schema.fee_schedule_version,
                    schema.gl_account,
                    schema.fee_account_map,
                )
            }
    finally:
        engine.dispose()


def _one_copy() -> dict[str, int]:
    ledger = shipped_ledger("glendale")
    return {
        "municipality": 1,
        "fee_schedule_version": len(shipped_schedule("glendale").versions),
        "gl_account": len(ledger.accounts),
        "fee_account_map": len(ledger.fee_map),
    }


def test_four_processes_opening_a_new_sqlite_file_load_the_shipped_data_once(
    tmp_path: Path,
) -> None:
    assert _race(sqlite_url(tmp_path / "new.db"), workers=4) == _one_copy()


@pytest.mark.postgres
def test_eight_processes_opening_a_new_postgresql_database_load_the_shipped_data_once(
    pg_server_url: str,
) -> None:
    reset_postgres(pg_server_url)
    assert _race(pg_server_url, workers=8) == _one_copy()
