"""On start the app makes the orders the ordinance makes by itself (Hudson 140-3D), as it
expires lapsed permits, and says so in the status bar."""

from __future__ import annotations

from datetime import date

from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import ServiceMethod
from desk.services.enforcement import notices
from tests.db.enforcement_setup import case_with_notice, office
from ui.app import _sweep_lapsed


def test_a_notice_served_long_ago_and_not_petitioned_is_an_order_after_the_start(
    empty_database: Database,
) -> None:
    clock = FixedClock(date(2026, 3, 2))
    o = office(empty_database, clock)
    _case_id, _violation_id, issued = case_with_notice(o)
    notices.record_service(
        empty_database.uow(),
        clock,
        o.inspector,
        issued.addressee_ids[0],
        ServiceMethod.PERSONAL,
        date(2026, 3, 2),
        "Ivan Inspector",
    )
    line = _sweep_lapsed(empty_database, o.mid)  # today is long past 03/12/2026
    assert line == (
        "1 notice(s) of violation became orders, no petition having been filed within 10 days "
        "after service (140-3D): CE-2026-0001."
    )
    assert _sweep_lapsed(empty_database, o.mid) == ""  # made once
