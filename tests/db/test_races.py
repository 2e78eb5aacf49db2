"""Two workstations acting on the same permit at the same moment (Glendale 15.1.6(c): numbers
in the order of issue; a fee is charged once): released together by a barrier, many trials,
exactly one succeeds and the other is refused in words; no gap, no double line, and the audit
trail's old value is the value actually replaced."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from decimal import Decimal

from sqlalchemy import func, select

from db import schema
from db.database import Database
from db.migrate import check
from desk.clock import FixedClock
from desk.domain.enums import PermitStatus
from desk.errors import DeskError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, lifecycle, permits
from tests.factories import Register, application, make_issuable, seed_register

TRIALS = 20
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=Decimal(2400)), QuoteItem("RES-STATE-SEAL"))
)


def race(*actions: Callable[[], object]) -> list[str]:
    """Run the actions in threads released together; each outcome: "ok" or the refusal."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[str] = ["" for _ in actions]

    def run(i: int, action: Callable[[], object]) -> None:
        barrier.wait()
        try:
            action()
            outcomes[i] = "ok"
        except DeskError as e:
            outcomes[i] = str(e)
        except Exception as e:  # a database error is a failure of the test, said plainly
            outcomes[i] = f"ERROR {type(e).__name__}: {e}"

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


def new_application(database: Database, clock: FixedClock, reg: Register, n: int) -> int:
    return permits.take_application(
        database.uow(), clock, reg.clerk, application(reg, f"Reroof, trial {n}")
    )


def test_the_same_permit_issued_by_two_inspectors_gets_one_number_and_no_gap(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    numbers: list[str] = []
    for n in range(TRIALS):
        permit_id = new_application(database, clock, reg, n)
        make_issuable(database, clock, reg.admin, permit_id)
        outcomes = race(
            lambda p=permit_id: numbers.append(  # type: ignore[misc]
                permits.issue_permit(database.uow(), clock, reg.inspector, p)
            ),
            lambda p=permit_id: numbers.append(  # type: ignore[misc]
                permits.issue_permit(database.uow(), clock, reg.admin, p)
            ),
        )
        assert sorted(outcomes)[-1] == "ok", outcomes
        refusal = sorted(outcomes)[0]
        assert refusal.startswith(f"Permit {numbers[-1]} was already issued on "), outcomes
    year = clock.today().year
    assert numbers == [f"{year}-{i:04d}" for i in range(1, TRIALS + 1)]
    with database.read() as conn:
        kept = sorted(conn.execute(select(schema.permit.c.number).where(
            schema.permit.c.number.is_not(None))).scalars())  # fmt: skip
    assert kept == numbers
    assert check(database.engine) == []


def test_the_same_permits_fees_assessed_twice_at_once_are_charged_once(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    for n in range(TRIALS):
        permit_id = new_application(database, clock, reg, n)
        outcomes = race(
            lambda p=permit_id: fees.assess_fees(  # type: ignore[misc]
                database.uow(), clock, reg.clerk, p, NEW_HOUSE
            ),
            lambda p=permit_id: fees.assess_fees(  # type: ignore[misc]
                database.uow(), clock, reg.admin, p, NEW_HOUSE
            ),
        )
        assert sorted(outcomes) == [
            "Fees are already assessed on this permit; a later change is an adjusting line.",
            "ok",
        ], outcomes
        with database.read() as conn:
            fl = schema.permit_fee_line
            total = conn.execute(
                select(func.sum(fl.c.amount)).where(fl.c.permit_id == permit_id)
            ).scalar_one()
        assert total == Decimal("439.00")


def test_issuing_while_another_withdraws_ends_with_one_told_no(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    for n in range(TRIALS):
        permit_id = new_application(database, clock, reg, n)
        make_issuable(database, clock, reg.admin, permit_id)
        outcomes = race(
            lambda p=permit_id: permits.issue_permit(  # type: ignore[misc]
                database.uow(), clock, reg.inspector, p
            ),
            lambda p=permit_id: lifecycle.change_status(  # type: ignore[misc]
                database.uow(), clock, reg.admin, p, PermitStatus.WITHDRAWN
            ),
        )
        assert outcomes.count("ok") == 1, outcomes
        assert not any(o.startswith("ERROR") for o in outcomes), outcomes
        with database.read() as conn:
            status = conn.execute(
                select(schema.permit.c.status).where(schema.permit.c.id == permit_id)
            ).scalar_one()
        assert status in (PermitStatus.ISSUED, PermitStatus.WITHDRAWN)
        assert (status is PermitStatus.ISSUED) == (outcomes[0] == "ok"), outcomes


def test_two_edits_at_once_each_record_the_value_they_replaced(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    permit_id = reg.permit_id
    for n in range(TRIALS):
        race(
            lambda n=n: permits.update_description(  # type: ignore[misc]
                database.uow(), clock, reg.clerk, permit_id, f"A {n}"
            ),
            lambda n=n: permits.update_description(  # type: ignore[misc]
                database.uow(), clock, reg.admin, permit_id, f"B {n}"
            ),
        )
    a = schema.audit_event
    with database.read() as conn:
        steps = [
            next(c for c in changes if c["field"] == "description")
            for changes in conn.execute(
                select(a.c.changes)
                .where((a.c.entity == "permit") & (a.c.entity_id == permit_id))
                .where(a.c.action == "update")
                .order_by(a.c.id)
            ).scalars()
            if any(c["field"] == "description" for c in changes)
        ]
    assert len(steps) == 2 * TRIALS
    # An unbroken chain of values: each edit's old value is the one the edit before it wrote.
    for before, after in itertools.pairwise(steps):
        assert after["old"] == before["new"]
