"""Two workstations at once (PostgreSQL and SQLite): case numbers stay gapless, two complaints
about one property make one case, and two sweeps make one order of each notice (140-3D)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from sqlalchemy import func, select

from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import Channel, ServiceMethod
from desk.services.enforcement import complaints, notices, sweep
from tests.db.enforcement_setup import OWNER, Office, case_with_notice, office
from tests.racing import OK, errors, race

TRIALS = 10


def _complain(
    o: Office, database: Database, clock: FixedClock, parcel_id: int
) -> Callable[[], object]:
    return lambda: complaints.take_complaint(
        database.uow(),
        clock,
        o.clerk,
        o.mid,
        parcel_id,
        Channel.PHONE,
        "No heat",
    )


def test_case_numbers_taken_at_once_on_two_workstations_are_gapless(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    parcels = [o.parcel(f"047-0002-{i:03d}", str(100 + i)) for i in range(2 * TRIALS)]
    for k in range(TRIALS):
        outcomes = race(
            _complain(o, database, clock, parcels[2 * k]),
            _complain(o, database, clock, parcels[2 * k + 1]),
        )
        assert outcomes == [OK, OK], errors(outcomes)
    with database.read() as conn:
        numbers = sorted(conn.execute(select(schema.enforcement_case.c.number)).scalars())
    assert numbers == [f"CE-2026-{i:04d}" for i in range(1, 2 * TRIALS + 1)]


def test_two_complaints_about_one_property_at_once_make_one_case(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    for k in range(TRIALS):
        parcel_id = o.parcel(f"047-0003-{k:03d}", str(200 + k))
        outcomes = race(
            _complain(o, database, clock, parcel_id),
            _complain(o, database, clock, parcel_id),
        )
        assert outcomes == [OK, OK], errors(outcomes)
        with database.read() as conn:
            c = schema.enforcement_case
            cases = conn.execute(
                select(func.count()).select_from(c).where(c.c.parcel_id == parcel_id)
            ).scalar_one()
        assert cases == 1


def test_two_sweeps_at_once_make_one_order_of_each_notice(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    for k in range(3):
        clock.set(date(2026, 3, 2))
        o.parcel_id = o.parcel(f"047-0004-{k:03d}", str(300 + k))
        _case, _v, issued = case_with_notice(o, (OWNER,))
        notices.record_service(
            database.uow(),
            clock,
            o.inspector,
            issued.addressee_ids[0],
            ServiceMethod.PERSONAL,
            clock.today(),
            "Ivan",
        )
        clock.set(date(2026, 3, 13))
        outcomes = race(
            lambda: sweep.sweep_notices(database.uow(), clock, o.mid),
            lambda: sweep.sweep_notices(database.uow(), clock, o.mid),
        )
        assert outcomes == [OK, OK], errors(outcomes)
    with database.read() as conn:
        od = schema.enforcement_order
        orders = conn.execute(select(od.c.notice_id)).scalars().all()
    assert len(orders) == 3 and len(set(orders)) == 3
