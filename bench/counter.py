"""The counter flow under load on PostgreSQL: N processes (workstations) released together, each
taking M permits through application, fees, checklist, payment and issue, every step through the
services as the desk does it. Then the register is checked: permit numbers issued, duplicates,
gaps in each year's series, the errors the workers met, and db.migrate.check's problems.

Each run gets a fresh database (permitdesk_bench_<pid>_<n>x<m>) on the server named by
PERMITDESK_BENCH_POSTGRES_URL (default postgresql+psycopg://postgres@127.0.0.1:5432/postgres),
owned by a role made for it (..._owner) that creates the register; the seed and the workers
connect as its application role (..._app), as an office's workstations do. All dropped
afterwards. `python -m bench.counter` runs it alone; `python -m bench.run` includes it.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import re
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.synchronize import Barrier

    from db.database import Database
    from desk.clock import Clock
    from desk.domain.model import Actor

PG_ENV = "PERMITDESK_BENCH_POSTGRES_URL"
DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
PASSWORD = "bench-counter-flow-1"
PROCESSES, PERMITS = 8, 250  # the load
SINGLE = 250  # the same flow from one process, beside it
START_TIMEOUT = 180.0  # seconds for the processes to start and open their database
RUN_TIMEOUT = 900.0  # seconds for one run, after the barrier
KEEP_MESSAGES = 5  # error messages kept per worker (all are counted)


@dataclass(frozen=True)
class Seed:
    """What the workers share: made once, before the timed part (passwords hashed here)."""

    municipality_id: int
    clerk: Actor
    inspector: Actor
    parcel_id: int
    owner_id: int


@dataclass
class WorkerResult:
    worker: int
    done: int = 0
    errors: int = 0
    messages: list[str] = field(default_factory=list)
    fatal: str = ""  # the worker could not start (or crashed outside a permit)


@dataclass
class CounterRun:
    processes: int
    permits: int  # per process
    seconds: float | None = None
    issued: int = 0
    duplicates: int = 0
    gaps: int = 0
    errors: int = 0
    first_error: str = ""
    check_problems: int = 0
    first_problem: str = ""
    receipts: int = 0
    receipt_duplicates: int = 0
    receipt_gaps: int = 0
    not_measured: str = ""  # why there are no figures

    @property
    def label(self) -> str:
        return f"{self.processes} × {self.permits}"

    @property
    def per_second(self) -> float | None:
        if self.seconds is None or self.seconds <= 0:
            return None
        return self.processes * self.permits / self.seconds


# --- the server and the database ------------------------------------------------------------


def server_url() -> str:
    from sqlalchemy.engine import make_url

    url = make_url(os.environ.get(PG_ENV) or DEFAULT_URL)
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


def shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def reachable(url: str) -> str | None:
    """None when the server answers; otherwise why not, in one line."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as e:
        return str(getattr(e, "orig", None) or e).strip().splitlines()[0]
    finally:
        engine.dispose()
    return None


def create_database(url: str, name: str) -> str:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def create_office_database(url: str, name: str) -> tuple[str, str]:
    """A fresh database as an office sets one up (README: Sharing the register on PostgreSQL):
    an owner role owns it and makes the register; the workstations connect as the application
    role. Returns (the owner's URL, the workstations' URL)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from db.database import open_database
    from db.roles import provision_app_role

    owner, app = f"{name}_owner", f"{name}_app"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            for role in (app, owner):
                conn.execute(text(f'DROP ROLE IF EXISTS "{role}"'))
            conn.execute(text(f"CREATE ROLE \"{owner}\" LOGIN CREATEROLE PASSWORD '{PASSWORD}'"))
            conn.execute(text(f'CREATE DATABASE "{name}" OWNER "{owner}"'))
    finally:
        admin.dispose()
    at = make_url(url).set(database=name)
    owner_url = at.set(username=owner, password=PASSWORD).render_as_string(hide_password=False)
    database = open_database(owner_url)
    try:
        with database.engine.begin() as conn:
            provision_app_role(conn, app, PASSWORD)
    finally:
        database.close()
    return owner_url, at.set(username=app, password=PASSWORD).render_as_string(hide_password=False)


def drop_office_database(url: str, name: str) -> None:
    drop_database(url, name)
    from sqlalchemy import create_engine, text

    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            for role in (f"{name}_app", f"{name}_owner"):
                conn.execute(text(f'DROP ROLE IF EXISTS "{role}"'))
    finally:
        admin.dispose()


def drop_database(url: str, name: str) -> None:
    from sqlalchemy import create_engine, text

    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


# --- seeding (as tests/factories.py's seed_register, without importing the tests) -------------


def seed(database: Database, clock: Clock) -> Seed:
    from desk.domain.enums import PartyKind, Role
    from desk.domain.model import Actor, Parcel, Party
    from desk.services import permits, setup, users

    uow = database.uow()
    admin = users.create_first_administrator(uow, clock, "admin", "Alex Administrator", PASSWORD)
    mid = setup.ensure_municipality(uow, clock, admin, "glendale")
    actors: dict[Role, Actor] = {}
    for name, full, role in (
        ("carol", "Carol Clerk", Role.CLERK),
        ("ivan", "Ivan Inspector", Role.INSPECTOR),
    ):
        user_id = users.create_user(
            uow, clock, admin, username=name, full_name=full, password=PASSWORD, roles={role}
        )
        actors[role] = Actor(user_id=user_id, username=name, roles=frozenset({role}))
    clerk = actors[Role.CLERK]
    parcel_id = permits.add_parcel(
        uow,
        clock,
        clerk,
        Parcel(
            municipality_id=mid,
            pin="047-9991-002",
            house_number="6120",
            street="N Port Washington Rd",
            city="Glendale",
            zip="53217",
        ),
    )
    owner_id = permits.add_party(
        uow,
        clock,
        clerk,
        Party(kind=PartyKind.PERSON, name="", first_name="Anna", last_name="Schmidt"),
    )
    return Seed(mid, clerk, actors[Role.INSPECTOR], parcel_id, owner_id)


# --- one permit through the counter ----------------------------------------------------------


def counter_flow(database: Database, clock: Clock, s: Seed, label: str) -> str:
    """Application (clerk), fees (clerk), checklist (inspector: licences on record, every item
    received), payment in cash (clerk), issue (inspector). Returns the permit number."""
    from desk.domain.cashiering import Allocation, PaymentMethod, Tender
    from desk.domain.checklists import ItemKind, ItemState
    from desk.domain.credentials import requirement
    from desk.domain.enums import PartyRole
    from desk.domain.kinds import kind_by_code
    from desk.domain.model import Credential
    from desk.fees.engine import QuoteItem, QuoteRequest
    from desk.services import cashiering, checklists, fees, permits

    permit_id = permits.take_application(
        database.uow(),
        clock,
        s.clerk,
        permits.ApplicationInput(
            municipality_id=s.municipality_id,
            kind="RES-OTHER",
            parcel_id=s.parcel_id,
            description=f"Tear-off and reroof, {label}",
            valuation=Decimal("14800.00"),
            parties=((PartyRole.BUILDING_OWNER, s.owner_id),),
        ),
    )
    reroof = QuoteRequest(items=(QuoteItem("RES-OTHER", amount=Decimal("100.00")),))
    fees.assess_fees(database.uow(), clock, s.clerk, permit_id, reroof)

    checklists.open_checklist(database.uow(), clock, s.inspector, permit_id)
    uow = database.uow()
    with uow:  # licences the permit's parties need (none for an owner's reroof, as a rule)
        permit = uow.permits.get(permit_id)
        assert permit is not None
        muni = uow.municipalities.get(permit.municipality_id)
        assert muni is not None
        kind = kind_by_code(muni.key, permit.kind)
        needed = []
        for link in permit.parties:
            need = requirement(link.role, kind)
            held = {c.kind for c in link.party.credentials if c.valid_on(clock.today())}
            if need is not None and not held & set(need.kinds):
                needed.append((link.party.id, need.kinds[0]))
    for party_id, credential_kind in needed:
        assert party_id is not None
        credential = Credential(kind=credential_kind, number=f"B-{party_id}")
        permits.add_credential(database.uow(), clock, s.inspector, party_id, credential)
    _, lines = checklists.checklist_lines(database.uow(), permit_id)
    for line in lines:
        if line.state is not ItemState.OPEN:
            continue
        checklists.mark_item(
            database.uow(),
            clock,
            s.inspector,
            permit_id,
            line.code,
            ItemState.RECEIVED,
            value_date=clock.today() if line.kind is ItemKind.DATE else None,
            value_text="on file" if line.kind is ItemKind.TEXT else None,
        )

    balance = cashiering.permit_balance(database.uow(), clock, permit_id)
    if balance.due > 0:
        cashiering.take_payment(
            database.uow(),
            clock,
            s.clerk,
            cashiering.PaymentInput(
                municipality_id=s.municipality_id,
                tender=Tender(PaymentMethod.CASH, balance.due),
                allocations=(Allocation(permit_id, balance.due),),
                payer_name="Paid at the counter",
            ),
        )
    return permits.issue_permit(database.uow(), clock, s.inspector, permit_id)


def _message(e: BaseException) -> str:
    return f"{type(e).__name__}: {' '.join(str(e).split())}"[:400]


def worker(
    index: int, url: str, s: Seed, count: int, barrier: Barrier, results: mp.Queue[WorkerResult]
) -> None:
    """One workstation: its own Database, waits at the barrier, then `count` permits."""
    result = WorkerResult(index)
    try:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from db.database import open_database
        from desk.clock import SystemClock

        database = open_database(url)
        clock = SystemClock()
    except BaseException as e:
        result.fatal = f"could not start: {_message(e)}"
        barrier.abort()
        results.put(result)
        return
    try:
        barrier.wait(START_TIMEOUT)
        for n in range(count):
            try:
                counter_flow(database, clock, s, f"workstation {index + 1}, no. {n + 1}")
                result.done += 1
            except Exception as e:
                result.errors += 1
                if len(result.messages) < KEEP_MESSAGES:
                    result.messages.append(_message(e))
    except BaseException as e:
        result.fatal = _message(e)
        tail = traceback.format_exc().strip().splitlines()[-1]
        if tail not in result.fatal:
            result.fatal += f" ({tail})"
    finally:
        database.close()
        results.put(result)


# --- one run -----------------------------------------------------------------------------------

_NUMBER = re.compile(r"^(\d{4})-(\d+)$")


def series_faults(numbers: list[str]) -> tuple[int, int]:
    """(duplicates, gaps): numbers held by more than one row; numbers missing between 1 and the
    highest of each year's series 'YYYY-NNNN' (a malformed number counts as a gap of its own)."""
    seen: dict[str, int] = {}
    for n in numbers:
        seen[n] = seen.get(n, 0) + 1
    duplicates = sum(1 for c in seen.values() if c > 1)
    by_year: dict[str, set[int]] = {}
    malformed = 0
    for n in seen:
        m = _NUMBER.match(n)
        if m is None:
            malformed += 1
            continue
        by_year.setdefault(m.group(1), set()).add(int(m.group(2)))
    gaps = sum(max(seqs) - len({q for q in seqs if q >= 1}) for seqs in by_year.values())
    return duplicates, gaps + malformed


def inspect_register(database: Database, run: CounterRun, anchor: Any = None) -> None:
    """`anchor`: the audit trail's head taken after the seed; the trail must still hold it."""
    from sqlalchemy import select

    from db import schema
    from db.audit_anchors import anchor_problems
    from db.migrate import check

    p = schema.permit
    with database.read() as conn:
        numbers = list(conn.execute(select(p.c.number).where(p.c.number.is_not(None))).scalars())
        receipts = list(conn.execute(select(schema.payment.c.receipt_number)).scalars())
    run.issued = len(numbers)
    run.duplicates, run.gaps = series_faults([str(n) for n in numbers])
    run.receipts = len(receipts)
    run.receipt_duplicates, run.receipt_gaps = series_faults([str(r) for r in receipts if r])
    problems = check(database.engine)  # the journal and the roles' rights included
    if anchor is not None:
        with database.engine.connect() as conn:
            problems += anchor_problems(conn, [anchor])
    run.check_problems = len(problems)
    run.first_problem = problems[0] if problems else ""


def run_flow(url: str, processes: int, permits: int) -> CounterRun:
    """A fresh database, seeded; `processes` workers released together by a barrier; the
    register inspected; the database dropped. Seed and workers connect as the application
    role, as the office's workstations do."""
    from db import audit_anchors
    from db.database import open_database
    from desk.clock import SystemClock

    run = CounterRun(processes, permits)
    name = f"permitdesk_bench_{os.getpid()}_{processes}x{permits}"
    db_url = create_office_database(url, name)[1]
    try:
        database = open_database(db_url)
        try:
            s = seed(database, SystemClock())
            with database.read() as conn:
                anchor = audit_anchors.head(conn)  # as a daily close prints it
            ctx = mp.get_context("spawn")
            barrier = ctx.Barrier(processes + 1)
            results: mp.Queue[WorkerResult] = ctx.Queue()
            workers = [
                ctx.Process(
                    target=worker,
                    args=(i, db_url, s, permits, barrier, results),
                    name=f"bench-counter-{i + 1}",
                )
                for i in range(processes)
            ]
            for w in workers:
                w.start()
            got: list[WorkerResult] = []
            try:
                barrier.wait(START_TIMEOUT)
                started = time.perf_counter()
                deadline = started + RUN_TIMEOUT
                while len(got) < processes:
                    try:
                        got.append(results.get(timeout=max(0.1, deadline - time.perf_counter())))
                    except queue.Empty:
                        break
                run.seconds = time.perf_counter() - started
            except threading.BrokenBarrierError:
                while True:  # the worker that broke it says why
                    try:
                        got.append(results.get(timeout=5))
                    except queue.Empty:
                        break
            finally:
                for w in workers:
                    w.join(10)
                    if w.is_alive():
                        w.terminate()
                        w.join(5)
            fatal = [f"process {r.worker + 1}: {r.fatal}" for r in got if r.fatal]
            missing = processes - len(got)
            run.errors = sum(r.errors for r in got)
            messages = [m for r in sorted(got, key=lambda r: r.worker) for m in r.messages]
            run.first_error = messages[0] if messages else ""
            if fatal or missing:
                why = fatal[0] if fatal else f"{missing} process(es) did not report in time"
                run.not_measured = f"error: {why}"
                run.seconds = None
            inspect_register(database, run, anchor)
        finally:
            database.close()
    finally:
        drop_office_database(url, name)
    return run


def measure(
    processes: int = PROCESSES, permits: int = PERMITS, single: int = SINGLE
) -> list[CounterRun]:
    """The load and the single process beside it; a row saying why when not measured."""
    url = server_url()
    why = reachable(url)
    if why is not None:
        note = f"not measured: PostgreSQL unreachable at {shown(url)} ({why})"
        return [CounterRun(processes, permits, not_measured=note)]
    runs: list[CounterRun] = []
    for n, m in ((processes, permits), (1, single)):
        print(f"Counter flow on PostgreSQL: {n} × {m} permits…", file=sys.stderr, flush=True)
        try:
            runs.append(run_flow(url, n, m))
        except Exception as e:
            runs.append(CounterRun(n, m, not_measured=f"error: {_message(e)}"))
    return runs


def failed(runs: list[CounterRun]) -> bool:
    """Something could not be measured (bench.run's exit 1)."""
    return any(r.not_measured for r in runs)


def print_counter_table(runs: list[CounterRun]) -> None:
    header = (
        "counter flow, PostgreSQL",
        "permits/s",
        "elapsed",
        "issued",
        "duplicates",
        "gaps",
        "errors",
        "check",
    )
    lines: list[tuple[str, ...]] = []
    unmeasured: dict[int, str] = {}  # line index -> why, printed across the columns
    for r in runs:
        name = f"{r.label} (processes × permits)"
        if r.not_measured and r.seconds is None and not r.issued:
            unmeasured[len(lines)] = r.not_measured
            lines.append((name,))
            continue
        rate = f"{r.per_second:.1f}" if r.per_second is not None else "—"
        elapsed = f"{r.seconds:.1f} s" if r.seconds is not None else "—"
        lines.append(
            (
                name,
                rate,
                elapsed,
                f"{r.issued:,} / {r.processes * r.permits:,}",
                str(r.duplicates),
                str(r.gaps),
                str(r.errors),
                str(r.check_problems),
            )
        )
    widths = [max(len(x[i]) for x in [header, *lines] if len(x) > i) for i in range(len(header))]
    rule = "  ".join("-" * w for w in widths)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(rule)
    for i, line in enumerate(lines):
        if i in unmeasured:
            print(f"{line[0].ljust(widths[0])}  {unmeasured[i]}")
        else:
            print("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
    print(rule)
    print(
        "Each permit: application, fees, checklist, cash payment, issue, through the services.\n"
        "Processes started together (spawn context, a barrier), each with its own Database;\n"
        "elapsed = barrier released to the last process done. gaps = numbers missing between 1\n"
        "and the highest of each year's series; check = db.migrate.check problems."
    )
    for i, r in enumerate(runs):
        if r.not_measured and i not in unmeasured:
            print(f"{r.label}: {r.not_measured}")
        if r.first_error:
            print(f"{r.label}: {r.errors} error(s); first: {r.first_error}")
        if r.first_problem:
            print(f"{r.label}: check: {r.first_problem}")
        if r.receipt_duplicates or r.receipt_gaps:
            print(
                f"{r.label}: receipts {r.receipts}: {r.receipt_duplicates} duplicate(s), "
                f"{r.receipt_gaps} gap(s)"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.counter", description=__doc__)
    parser.add_argument("--processes", type=int, default=PROCESSES, help="workstations at once")
    parser.add_argument("--permits", type=int, default=PERMITS, help="permits per process")
    parser.add_argument("--single", type=int, default=SINGLE, help="permits of the 1-process run")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    runs = measure(args.processes, args.permits, args.single)
    print()
    print_counter_table(runs)
    return 1 if failed(runs) else 0


if __name__ == "__main__":
    sys.exit(main())
