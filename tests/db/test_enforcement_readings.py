"""Code enforcement read as Hudson 140-3 and Wis. Stat. 990.001(4) say, on SQLite and PostgreSQL:
a petition judged by the day it was filed sets aside the automatic order the sweep made before it
was typed in (140-3B, 140-3D), also when both happen at once; a correction date inside the
petition window is refused, and an order's own correction date comes after the order; a last day
on a Saturday (the office closed) or a legal holiday moves to the next day the office is open."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from db import enforcement_queries as q
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.model import ServiceMethod
from desk.enforcement.readmodels import CaseFilter
from desk.errors import ValidationError
from desk.services import municipality as muni_svc
from desk.services.enforcement import inspections, notices, petitions, sweep
from tests.db.enforcement_setup import OWNER, Office, case_with_notice, office
from tests.racing import OK, errors, race

MAILED = date(2026, 3, 2)  # a Monday: the window runs through Thursday 03/12


def _served(o: Office, addressee_id: int, on: date = MAILED) -> None:
    notices.record_service(
        o.db.uow(), o.clock, o.clerk, addressee_id, ServiceMethod.REGISTERED_MAIL, on, "Carol"
    )


def _orders(o: Office) -> list[tuple[date, date | None, str]]:
    od = schema.enforcement_order
    with o.db.read() as conn:
        rows = conn.execute(
            select(od.c.effective_on, od.c.set_aside_on, od.c.set_aside_reason).order_by(od.c.id)
        ).all()
    return [(r.effective_on, r.set_aside_on, r.set_aside_reason) for r in rows]


def _cases(o: Office, which: CaseFilter) -> list[str]:
    with o.db.read() as conn:
        return [c.number for c in q.case_rows(conn, o.mid, o.clock.today(), which)]


@pytest.mark.parametrize("typed_on", [date(2026, 3, 13), date(2026, 3, 14)])
def test_a_petition_filed_on_the_last_day_and_typed_in_after_the_sweep_sets_the_order_aside(
    database: Database, clock: FixedClock, typed_on: date
) -> None:
    clock.set(MAILED)
    o = office(database, clock)
    case_id, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    _served(o, owner)
    # Day 11: the sweep at start-up makes the order before the clerk types the petition in.
    clock.set(typed_on)
    made = sweep.sweep_notices(database.uow(), clock, o.mid)
    assert [m.effective_on for m in made] == [date(2026, 3, 13)]
    filed = petitions.record_petition(
        database.uow(), clock, o.clerk, owner, date(2026, 3, 12), "Otto Owner", "Stairs fixed"
    )
    assert filed.timely and filed.last_day == date(2026, 3, 12)
    typed = f"{typed_on:%m/%d/%Y}"
    assert _orders(o) == [
        (
            date(2026, 3, 13),
            typed_on,
            f"petition filed 03/12/2026, within the 10 days (through 03/12/2026), recorded {typed}",
        )
    ]
    # The hearing can be scheduled; the sweep does not make the order again; the case is not
    # on the list of orders.
    petitions.schedule_hearing(
        database.uow(),
        clock,
        o.inspector,
        issued.notice_id,
        date(2026, 4, 6),
        "City Hall",
        typed_on,
    )
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    assert _cases(o, CaseFilter.HEARING_SCHEDULED) == ["CE-2026-0001"]
    with database.read() as conn:
        lines = [t.text for t in q.timeline(conn, case_id)]
        audited = conn.execute(
            select(schema.audit_event.c.entity).where(
                schema.audit_event.c.entity == "enforcement_order"
            )
        ).all()
    assert any(t.startswith("Order of 03/13/2026 set aside: petition filed 03/12") for t in lines)
    assert len(audited) == 2  # made by the sweep, set aside by the clerk


def test_a_petition_and_the_sweep_at_once_leave_the_petition_heard_and_no_order(
    database: Database, clock: FixedClock
) -> None:
    if database.engine.dialect.name != "postgresql":
        pytest.skip("two writers at once: PostgreSQL")
    clock.set(MAILED)
    o = office(database, clock)
    for k in range(5):
        o.parcel_id = o.parcel(f"047-0009-{k:03d}", str(300 + k))
        clock.set(MAILED)
        _case, _v, issued = case_with_notice(o, (OWNER,))
        (owner,) = issued.addressee_ids
        _served(o, owner)
        clock.set(date(2026, 3, 13))
        outcomes = race(
            lambda: sweep.sweep_notices(database.uow(), clock, o.mid),
            lambda a=owner: petitions.record_petition(  # type: ignore[misc]
                database.uow(), clock, o.clerk, a, date(2026, 3, 12), "Otto Owner", "Fixed"
            ),
        )
        assert outcomes == [OK, OK], errors(outcomes)
        in_effect = [x for x in _orders(o) if x[1] is None]
        assert in_effect == [], f"trial {k}: an order stands against a timely petition"


def test_a_correction_date_inside_the_petition_window_is_refused(
    database: Database, clock: FixedClock
) -> None:
    clock.set(MAILED)
    o = office(database, clock)
    case_id, _v, _issued = case_with_notice(o)
    found = inspections.record_inspection(
        database.uow(),
        clock,
        o.inspector,
        case_id,
        MAILED,
        found=[inspections.FoundViolation("140-5D")],  # heat: 1 day to correct
    )
    (vid,) = found.violation_ids

    def issue(correct_by: date | None) -> notices.NoticeIssued:
        return notices.issue_notice(
            database.uow(),
            clock,
            o.inspector,
            case_id,
            [OWNER],
            [notices.NoticeLine(vid, "Restore the heat", correct_by)],
            "No heat",
        )

    with pytest.raises(ValidationError, match="03/05/2026 falls inside the 10 days") as e:
        issue(date(2026, 3, 5))
    assert "may be filed (140-3B); the notice can be enforced as an order from 03/13/2026" in (
        str(e.value)
    )
    with pytest.raises(ValidationError, match="03/12/2026 falls inside"):
        issue(date(2026, 3, 12))  # the window's last day
    # Without a date the notice gives the first day it can be an order, not the 1 day.
    issued = issue(None)
    ni = schema.enforcement_notice_item
    with database.read() as conn:
        given = conn.execute(
            select(ni.c.correct_by).where(ni.c.notice_id == issued.notice_id)
        ).scalar_one()
    assert given == date(2026, 3, 13)


def test_an_order_made_after_a_late_service_carries_its_own_correction_date(
    database: Database, clock: FixedClock
) -> None:
    """Notice of 03/02 to correct the heat by 03/13 (the first day it can be an order), served
    only on 03/10: the order of 03/21 gives the notice's 11 days again, counted from the order:
    Tuesday 03/31. Not past due before."""
    clock.set(MAILED)
    o = office(database, clock)
    case_id, vid, issued = case_with_notice(o, (OWNER,), section="140-5D")
    vi = schema.enforcement_violation
    clock.set(date(2026, 3, 10))
    (owner,) = issued.addressee_ids
    notices.record_service(
        database.uow(), clock, o.inspector, owner, ServiceMethod.PERSONAL, date(2026, 3, 10), "Ivan"
    )
    clock.set(date(2026, 3, 21))
    made = sweep.sweep_notices(database.uow(), clock, o.mid)
    assert [m.effective_on for m in made] == [date(2026, 3, 21)]
    with database.read() as conn:
        now = conn.execute(select(vi.c.correct_by).where(vi.c.id == vid)).scalar_one()
    assert now == date(2026, 3, 31)
    assert _cases(o, CaseFilter.ORDER_PAST_DUE) == []
    clock.set(date(2026, 4, 1))
    assert _cases(o, CaseFilter.ORDER_PAST_DUE) == ["CE-2026-0001"]
    assert case_id


def test_a_last_day_on_a_saturday_is_the_monday_after_unless_the_office_opens_saturdays(
    database: Database, clock: FixedClock
) -> None:
    clock.set(date(2026, 7, 1))
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    served = notices.record_service(
        database.uow(), clock, o.inspector, owner, ServiceMethod.PERSONAL, date(2026, 7, 1), "Ivan"
    )
    assert served.petition_last_day == date(2026, 7, 13)  # Saturday 07/11: the office is closed
    clock.set(date(2026, 7, 13))
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    assert _cases(o, CaseFilter.WINDOW_OPEN) == ["CE-2026-0001"]
    clock.set(date(2026, 7, 14))
    assert [m.effective_on for m in sweep.sweep_notices(database.uow(), clock, o.mid)] == [
        date(2026, 7, 14)
    ]
    # An office with Saturday hours: the last day stays Saturday.
    muni_svc.update_municipality(
        database.uow(), clock, o.admin, o.mid, {"office_open_saturdays": True}
    )
    assert muni_svc.municipality_settings(database.uow(), o.mid).office_open_saturdays
    o.parcel_id = o.parcel("047-0001-002", "414")
    clock.set(date(2026, 7, 1))
    _case2, _v2, second = case_with_notice(o, (OWNER,))
    served = notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        second.addressee_ids[0],
        ServiceMethod.PERSONAL,
        date(2026, 7, 1),
        "Ivan",
    )
    assert served.petition_last_day == date(2026, 7, 11)


def test_a_last_day_on_labor_day_moves_to_tuesday(database: Database, clock: FixedClock) -> None:
    clock.set(date(2026, 8, 28))
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    clock.set(date(2026, 9, 8))
    late_typed = petitions.record_petition(
        database.uow(), clock, o.clerk, issued.addressee_ids[0], date(2026, 9, 8), "Otto", "x"
    )
    assert late_typed.timely and late_typed.last_day is None  # not served yet: timely
    _o2 = o.parcel("047-0001-003", "416")
    o.parcel_id = _o2
    clock.set(date(2026, 8, 28))
    _c, _v2, other = case_with_notice(o, (OWNER,))
    served = notices.record_service(
        database.uow(),
        clock,
        o.inspector,
        other.addressee_ids[0],
        ServiceMethod.PERSONAL,
        date(2026, 8, 28),
        "Ivan",
    )
    assert served.petition_last_day == date(2026, 9, 8)  # Monday 09/07: Labor Day
