"""A service or petition entered by mistake, withdrawn (never deleted) on both backends: the
notice does not become an order 10 days after the mistaken day (Hudson 140-3D), the petition
window runs from the true service (140-3B), the lists, timeline and counts ignore the mistake;
refused once an order or a hearing rests on it. Registered mail returned unclaimed (140-3A(4))
and the "serve again" filter. Two workstations on one notice take their turn (the case lock)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from sqlalchemy import func, select

from db import enforcement_queries as q
from db import report_queries as rq
from db import schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.domain.model import Actor
from desk.enforcement.model import Decision, ServiceMethod
from desk.enforcement.readmodels import CaseFilter
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services.enforcement import corrections, notices, petitions, sweep
from tests.db.enforcement_setup import OCCUPANT, OWNER, Office, case_with_notice, office
from tests.racing import OK, errors, race

TODAY = date(2026, 3, 2)
MISTAKE = "Recorded on the wrong case: Otto was served on 03/05"


def _cases(o: Office, today: date, which: CaseFilter) -> list[str]:
    with o.db.read() as conn:
        return [c.number for c in q.case_rows(conn, o.mid, today, which)]


def _service_id(o: Office, addressee_id: int, on: date, how: ServiceMethod) -> int:
    return notices.record_service(
        o.db.uow(), o.clock, o.clerk, addressee_id, how, on, "Carol"
    ).service_id


def test_a_service_withdrawn_as_a_mistake_makes_no_order_ten_days_after_the_wrong_day(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_id, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    wrong = _service_id(o, owner, TODAY, ServiceMethod.PERSONAL)  # D = 03/02, by mistake
    clock.set(date(2026, 3, 5))
    corrections.withdraw_service(database.uow(), clock, o.inspector, wrong, MISTAKE)
    assert _cases(o, clock.today(), CaseFilter.NOT_SERVED) == ["CE-2026-0001"]
    _service_id(o, owner, date(2026, 3, 5), ServiceMethod.PERSONAL)  # the true service

    # D+11 (03/13) would have been the order's day: the window is open through Sunday 03/15,
    # extended to Monday 03/16 (Wis. Stat. 990.001(4)(b)).
    clock.set(date(2026, 3, 13))
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    assert _cases(o, clock.today(), CaseFilter.WINDOW_OPEN) == ["CE-2026-0001"]
    clock.set(date(2026, 3, 16))
    assert sweep.sweep_notices(database.uow(), clock, o.mid) == []
    assert _cases(o, clock.today(), CaseFilter.WINDOW_OPEN) == ["CE-2026-0001"]
    clock.set(date(2026, 3, 17))
    made = sweep.sweep_notices(database.uow(), clock, o.mid)
    assert [(m.notice_id, m.effective_on) for m in made] == [(issued.notice_id, date(2026, 3, 17))]

    # Never deleted: the row keeps when, why and who; the timeline says so with the reason.
    sv = schema.enforcement_service
    with database.read() as conn:
        rows = conn.execute(
            select(sv.c.served_on, sv.c.withdrawn_on, sv.c.withdrawn_reason, sv.c.withdrawn_by_id)
            .where(sv.c.addressee_id == owner)
            .order_by(sv.c.id)
        ).all()
        texts = [(e.on, e.kind, e.text) for e in q.timeline(conn, case_id)]
        figures = rq.enforcement_figures(conn, o.mid, r.month_period(2026, 3))
    assert [tuple(x) for x in rows] == [
        (TODAY, date(2026, 3, 5), MISTAKE, o.inspector.user_id),
        (date(2026, 3, 5), None, "", None),
    ]
    assert (
        date(2026, 3, 5),
        "correction",
        f"Service on Otto Owner of 03/02/2026 withdrawn, entered by mistake: {MISTAKE}",
    ) in texts
    assert any(
        t.startswith("Served on Otto Owner (owner) personally")
        and t.endswith("(withdrawn 03/05/2026)")
        for _d, _k, t in texts
    )
    # The monthly count: one notice served, not two.
    assert figures.served == {ServiceMethod.PERSONAL: 1}


def test_the_petition_window_counts_from_the_true_service_and_a_withdrawn_petition_stops_nothing(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    wrong = _service_id(o, owner, TODAY, ServiceMethod.PERSONAL)
    clock.set(date(2026, 3, 5))
    corrections.withdraw_service(database.uow(), clock, o.admin, wrong, MISTAKE)
    _service_id(o, owner, date(2026, 3, 5), ServiceMethod.PERSONAL)
    # Filed 03/15: the 13th day after the wrong service, the 10th after the true one (a
    # Sunday: the last day is Monday 03/16).
    clock.set(date(2026, 3, 15))
    filed = petitions.record_petition(
        database.uow(), clock, o.clerk, owner, date(2026, 3, 15), "Otto Owner", "Stairs fixed"
    )
    assert filed.timely and filed.last_day == date(2026, 3, 16)
    # A petition filed by mistake (wrong notice) is withdrawn before a hearing is scheduled:
    # the notice becomes an order as if it had not been filed (140-3D).
    corrections.withdraw_petition(database.uow(), clock, o.inspector, filed.petition_id, "Wrong")
    with pytest.raises(RuleViolation, match="No timely petition"):
        petitions.schedule_hearing(
            database.uow(),
            clock,
            o.inspector,
            issued.notice_id,
            date(2026, 3, 20),
            "City Hall",
            date(2026, 3, 15),
        )
    clock.set(date(2026, 3, 17))
    made = sweep.sweep_notices(database.uow(), clock, o.mid)
    assert [m.effective_on for m in made] == [date(2026, 3, 17)]
    with database.read() as conn:
        figures = rq.enforcement_figures(conn, o.mid, r.month_period(2026, 3))
        texts = [e.text for e in q.timeline(conn, q.case_rows(conn, o.mid, TODAY)[0].case_id)]
    assert (figures.petitions_timely, figures.petitions_late) == (0, 0)
    assert "Petition by Otto Owner of 03/15/2026 withdrawn, entered by mistake: Wrong" in texts


def test_a_withdrawal_is_refused_once_something_rests_on_it(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER, OCCUPANT))
    owner, occupant = issued.addressee_ids
    s_owner = _service_id(o, owner, TODAY, ServiceMethod.PERSONAL)
    s_occupant = _service_id(o, occupant, TODAY, ServiceMethod.POSTING)
    uow = database.uow

    with pytest.raises(ValidationError) as e:
        corrections.withdraw_service(uow(), clock, o.inspector, s_owner, "  ")
    assert e.value.field == "reason"
    with pytest.raises(PermissionDenied, match="administrator or inspector"):
        corrections.withdraw_service(uow(), clock, o.clerk, s_owner, MISTAKE)

    # A petition filed on the owner's service: withdraw the petition first.
    clock.set(date(2026, 3, 4))
    filed = petitions.record_petition(
        uow(), clock, o.clerk, owner, clock.today(), "Otto Owner", "More time"
    )
    with pytest.raises(RuleViolation, match="withdraw the petition first"):
        corrections.withdraw_service(uow(), clock, o.inspector, s_owner, MISTAKE)
    # The occupant's service has no petition on it.
    corrections.withdraw_service(uow(), clock, o.inspector, s_occupant, "Wrong unit")
    with pytest.raises(RuleViolation, match="withdrawn on 03/04/2026"):
        corrections.withdraw_service(uow(), clock, o.inspector, s_occupant, "Again")

    # Once the hearing is scheduled the petition stays (the petitioner withdraws before the
    # Council); once the Council decides, the notice's services stay too.
    petitions.schedule_hearing(
        uow(), clock, o.inspector, issued.notice_id, date(2026, 3, 17), "City Hall", clock.today()
    )
    with pytest.raises(RuleViolation, match="hearing of 03/17/2026 is scheduled"):
        corrections.withdraw_petition(uow(), clock, o.inspector, filed.petition_id, MISTAKE)
    clock.set(date(2026, 3, 17))
    petitions.record_council_decision(
        uow(), clock, o.inspector, issued.notice_id, Decision.SUSTAIN, clock.today(), "Upheld"
    )
    with pytest.raises(RuleViolation, match="Common Council has decided"):
        corrections.withdraw_petition(uow(), clock, o.inspector, filed.petition_id, MISTAKE)
    pe = schema.enforcement_petition
    with database.read() as conn:
        assert conn.execute(select(func.count()).select_from(pe)).scalar_one() == 1


def test_a_service_the_order_rests_on_stays(database: Database, clock: FixedClock) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    s = _service_id(o, owner, TODAY, ServiceMethod.PERSONAL)
    clock.set(date(2026, 3, 13))
    assert len(sweep.sweep_notices(database.uow(), clock, o.mid)) == 1
    with pytest.raises(RuleViolation, match="became an order effective 03/13/2026"):
        corrections.withdraw_service(database.uow(), clock, o.inspector, s, MISTAKE)


def test_registered_mail_returned_is_on_the_serve_again_filter_until_served_again(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    mailed = _service_id(o, owner, TODAY, ServiceMethod.REGISTERED_MAIL)
    assert _cases(o, TODAY, CaseFilter.SERVE_AGAIN) == []
    clock.set(date(2026, 3, 9))
    with pytest.raises(ValidationError) as e:
        notices.record_returned_unclaimed(database.uow(), clock, o.clerk, mailed, date(2026, 3, 1))
    assert e.value.field == "returned on"
    with pytest.raises(ValidationError) as e:
        notices.record_returned_unclaimed(database.uow(), clock, o.clerk, mailed, date(2026, 3, 10))
    assert e.value.field == "returned on"
    notices.record_returned_unclaimed(database.uow(), clock, o.clerk, mailed, date(2026, 3, 9))
    assert _cases(o, clock.today(), CaseFilter.SERVE_AGAIN) == ["CE-2026-0001"]
    with database.read() as conn:
        assert [x.name for x in q.serve_again(conn, o.mid)] == ["Otto Owner"]
    _service_id(o, owner, date(2026, 3, 9), ServiceMethod.POSTING)
    assert _cases(o, clock.today(), CaseFilter.SERVE_AGAIN) == []


def test_a_withdrawn_letter_is_not_returned_and_not_on_the_serve_again_list(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    _case, _v, issued = case_with_notice(o, (OWNER,))
    (owner,) = issued.addressee_ids
    mailed = _service_id(o, owner, TODAY, ServiceMethod.REGISTERED_MAIL)
    clock.set(date(2026, 3, 9))
    notices.record_returned_unclaimed(database.uow(), clock, o.clerk, mailed, date(2026, 3, 9))
    corrections.withdraw_service(database.uow(), clock, o.inspector, mailed, "Never mailed")
    assert _cases(o, clock.today(), CaseFilter.SERVE_AGAIN) == []
    assert _cases(o, clock.today(), CaseFilter.NOT_SERVED) == ["CE-2026-0001"]
    with database.read() as conn:
        assert q.serve_again(conn, o.mid) == []
        figures = rq.enforcement_figures(conn, o.mid, r.month_period(2026, 3))
    assert figures.served == {} and figures.returned_unclaimed == 0
    with pytest.raises(RuleViolation, match="withdrawn on 03/09/2026"):
        notices.record_returned_unclaimed(database.uow(), clock, o.clerk, mailed, clock.today())


TRIALS = 5


def _withdraw(db: Database, clock: FixedClock, actor: Actor, sid: int) -> Callable[[], object]:
    return lambda: corrections.withdraw_service(db.uow(), clock, actor, sid, "Wrong")


def _returned(db: Database, clock: FixedClock, actor: Actor, sid: int) -> Callable[[], object]:
    return lambda: notices.record_returned_unclaimed(db.uow(), clock, actor, sid, clock.today())


def test_two_workstations_on_one_letter_take_their_turn(
    database: Database, clock: FixedClock
) -> None:
    """The inspector withdraws a service while the clerk records the letter returned, and two
    withdraw it at once: each waits for the case's lock, one withdrawal stands, no error."""
    o = office(database, clock)
    sv = schema.enforcement_service
    for k in range(TRIALS):
        clock.set(TODAY)
        o.parcel_id = o.parcel(f"047-0009-{k:03d}", str(500 + k))
        _case, _v, issued = case_with_notice(o, (OWNER,))
        (owner,) = issued.addressee_ids
        mailed = _service_id(o, owner, TODAY, ServiceMethod.REGISTERED_MAIL)
        clock.set(date(2026, 3, 6))
        outcomes = race(
            _withdraw(database, clock, o.inspector, mailed),
            _withdraw(database, clock, o.admin, mailed),
            _returned(database, clock, o.clerk, mailed),
        )
        assert errors(outcomes) == []
        withdrawals = outcomes[:2]
        assert sorted(withdrawals) == sorted([OK, "That service was withdrawn on 03/06/2026"])
        returned = outcomes[2]
        assert returned in (OK, "That service was withdrawn on 03/06/2026")
        with database.read() as conn:
            row = conn.execute(
                select(sv.c.withdrawn_on, sv.c.returned_on).where(sv.c.id == mailed)
            ).one()
        assert row.withdrawn_on == date(2026, 3, 6)
        assert (row.returned_on is not None) == (returned == OK)
