"""Releasing workstations together: threads of one process (each with its own unit of work and
connection) or separate processes (each opening its own Database, as separate PCs do)."""

from __future__ import annotations

import multiprocessing as mp
import threading
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from desk.domain.model import Actor
from desk.errors import DeskError

OK = "ok"
ERROR = "ERROR"


def race(*actions: Callable[[], object]) -> list[str]:
    """Run the actions in threads released together by a barrier; each outcome is "ok", the
    refusal's words (a DeskError), or "ERROR <type>: <message>" for anything else (a database
    error reaching the user is a failure of the test, said plainly)."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[str] = ["" for _ in actions]

    def run(i: int, action: Callable[[], object]) -> None:
        try:
            barrier.wait(30)
            action()
            outcomes[i] = OK
        except DeskError as e:
            outcomes[i] = str(e) or f"{ERROR} {type(e).__name__} with no words"
        except Exception as e:
            outcomes[i] = f"{ERROR} {type(e).__name__}: {e}"

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return [o or f"{ERROR}: the thread did not finish" for o in outcomes]


def errors(outcomes: Sequence[str]) -> list[str]:
    return [o for o in outcomes if o.startswith(ERROR)]


# --- separate processes ----------------------------------------------------------------------


def issue_in_process(
    url: str,
    worker: int,
    actor: Actor,
    permit_ids: Sequence[int],
    today: date,
    out: Any,  # multiprocessing Queue
    start: Any,  # multiprocessing Barrier
) -> None:
    """A workstation: open the register, wait for the others, issue each permit in turn.
    Reports (worker, [(permit id, number)], [errors in words]) on `out`."""
    from db.database import open_database
    from desk.clock import FixedClock
    from desk.services import permits

    issued: list[tuple[int, str]] = []
    problems: list[str] = []
    try:
        clock = FixedClock(today)
        database = open_database(url)
        try:
            start.wait(timeout=120)
            for permit_id in permit_ids:
                try:
                    issued.append(
                        (permit_id, permits.issue_permit(database.uow(), clock, actor, permit_id))
                    )
                except Exception as e:  # every failure is reported, the others go on
                    problems.append(f"permit #{permit_id}: {type(e).__name__}: {e}")
        finally:
            database.close()
    except Exception as e:  # reported to the parent instead of hanging it
        problems.append(f"{type(e).__name__}: {e}")
    out.put((worker, issued, problems))


def run_processes(
    url: str, actors: Sequence[Actor], lists: Sequence[Sequence[int]], today: date
) -> list[tuple[int, list[tuple[int, str]], list[str]]]:
    """One spawned process per list, released together; their reports in worker order."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start = ctx.Barrier(len(lists))
    procs = [
        ctx.Process(
            target=issue_in_process,
            args=(url, w, actors[w % len(actors)], list(ids), today, queue, start),
        )
        for w, ids in enumerate(lists)
    ]
    for p in procs:
        p.start()
    try:
        reports = [queue.get(timeout=240) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=60)
            if p.is_alive():
                p.kill()
    return sorted(reports, key=lambda r: r[0])
