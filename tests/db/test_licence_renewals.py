"""Renewing a rooming house licence without a gap (Hudson 140-10A), on both backends: the holder
applies within the licence's last 60 days, the Building Inspector inspects as for a new
application, and the City Clerk issues the renewal, which runs from the day after the old licence
ends; the register, the expiry watch and the renewal letters read it so.

RH-2026-0001 is issued on 03/02/2026 and is valid through 03/02/2027: a renewal may be applied for
from 01/01/2027 (60 days before), not on 12/31/2026."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select

from db import licence_register_queries as lq
from db import schema
from db.database import Database
from db.licence_view import LicenceFacts, licence_facts, licence_id_by_number
from desk.clock import FixedClock
from desk.enforcement.licences import RegisterFilter
from desk.errors import RuleViolation
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from desk.services.enforcement.renewals import apply_for_renewal
from tests.db.enforcement_setup import Office, office
from tests.db.licence_fee import RECEIPT, set_licence_fee
from tests.racing import OK, errors, race

ISSUED = date(2026, 3, 2)
LAST_DAY = date(2027, 3, 2)  # the old licence's last valid day
DAY_MINUS_60 = date(2027, 1, 1)
DAY_MINUS_61 = date(2026, 12, 31)
ROOMS = (
    svc.RoomInput("Room 1", Decimal(80), True, 1),
    svc.RoomInput("Room 2", Decimal("120.5"), True, 2),
    svc.RoomInput("Kitchen", Decimal(140), False),
)


def _application(
    o: Office, operator: str = "Rita Roomer", applied_on: date | None = None
) -> svc.ApplicationInput:
    return svc.ApplicationInput(
        municipality_id=o.mid,
        parcel_id=o.parcel_id,
        operator_name=operator,
        operator_address="5 Oak St, Hudson WI 54016",
        persons=3,
        water_closets=1,
        lavatories=1,
        baths=1,
        rooms=ROOMS,
        applied_on=applied_on,
    )


def _apply(o: Office, operator: str = "Rita Roomer") -> int:
    """The operator's application at the counter (New application…), on the clock's day."""
    return svc.record_application(o.db.uow(), o.clock, o.clerk, _application(o, operator))


def _inspect(o: Office, licence_id: int, found: tuple[str, ...] = ()) -> tuple[int, ...]:
    case_id = svc.open_licence_case(o.db.uow(), o.clock, o.inspector, licence_id)
    return inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        o.clock.today(),
        found=[inspections.FoundViolation(s) for s in found],
    ).violation_ids


def _issue(o: Office, licence_id: int) -> svc.LicenceIssued:
    return svc.issue_licence(o.db.uow(), o.clock, o.clerk, licence_id, fee_receipt=RECEIPT)


@pytest.fixture
def o(database: Database, clock: FixedClock) -> Office:
    """The office with RH-2026-0001 issued on 03/02/2026, valid through 03/02/2027."""
    o = office(database, clock)
    set_licence_fee(o)
    licence_id = _apply(o)
    _inspect(o, licence_id)
    issued = _issue(o, licence_id)
    assert (issued.number, issued.issued_on, issued.expires_on) == (
        "RH-2026-0001",
        ISSUED,
        LAST_DAY,
    )
    return o


def _old_id(o: Office) -> int:
    with o.db.read() as conn:
        found = licence_id_by_number(conn, o.mid, "RH-2026-0001")
    assert found is not None
    return found


def _facts(o: Office, licence_id: int) -> LicenceFacts:
    with o.db.read() as conn:
        facts = licence_facts(conn, licence_id)
    assert facts is not None
    return facts


def _statuses(o: Office, on: date, which: RegisterFilter = RegisterFilter.ALL) -> dict[str, str]:
    with o.db.read() as conn:
        return {r.number or "application": r.status for r in lq.register(conn, o.mid, on, which)}


def _row(o: Office, licence_id: int) -> dict[str, object]:
    lic = schema.rooming_licence.c
    with o.db.read() as conn:
        r = conn.execute(
            select(
                lic.number,
                lic.state,
                lic.renews_id,
                lic.issued_on,
                lic.valid_from,
                lic.expires_on,
            ).where(lic.id == licence_id)
        ).one()
    return dict(r._mapping)


def _letters(o: Office, on: date) -> list[str]:
    with o.db.read() as conn:
        return [x.number for x in lq.renewal_letters(conn, o.mid, on)]


# --- applying ------------------------------------------------------------------------------------


def test_a_renewal_is_accepted_on_day_minus_60_and_refused_on_day_minus_61_saying_from_when(
    o: Office,
) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_61)
    words = (
        "Licence RH-2026-0001 for this dwelling is in force until 03/02/2027: its renewal may be "
        "applied for from 01/01/2027 (60 days before it ends, 140-10A)"
    )
    with pytest.raises(RuleViolation) as refused:
        apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    assert str(refused.value) == words
    with pytest.raises(RuleViolation) as refused_at_counter:
        _apply(o)
    assert str(refused_at_counter.value) == words

    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    row = _row(o, renewal_id)
    assert (row["state"], row["renews_id"], row["number"]) == ("applied", old_id, None)
    # the same rooms, persons and fixtures as the licence
    facts = _facts(o, renewal_id)
    assert [r.name for r in facts.rooms] == ["Room 1", "Room 2", "Kitchen"]
    assert facts.renews is not None and facts.renews.number == "RH-2026-0001"
    assert _statuses(o, DAY_MINUS_60) == {
        "RH-2026-0001": "in force — expires 03/02/2027; renewal applied on 01/01/2027",
        "application": "applied",
    }


def test_an_application_at_the_counter_on_day_minus_1_is_the_renewal_of_the_licence(
    o: Office,
) -> None:
    o.clock.set(date(2027, 3, 1))
    renewal_id = _apply(o)
    assert _row(o, renewal_id)["renews_id"] == _old_id(o)


def test_a_second_renewal_is_refused_while_one_is_pending(o: Office) -> None:
    o.clock.set(DAY_MINUS_60)
    apply_for_renewal(o.db.uow(), o.clock, o.clerk, _old_id(o))
    o.clock.set(date(2027, 1, 2))
    pending = (
        "A renewal of licence RH-2026-0001 for this dwelling was applied for on 01/01/2027 and "
        "is pending: one renewal at a time"
    )
    with pytest.raises(RuleViolation) as refused:
        apply_for_renewal(o.db.uow(), o.clock, o.clerk, _old_id(o))
    assert str(refused.value) == pending
    with pytest.raises(RuleViolation, match="is pending: one renewal at a time"):
        _apply(o)


def test_only_the_holder_renews_another_operator_is_told_to_apply_anew(o: Office) -> None:
    o.clock.set(DAY_MINUS_60)
    with pytest.raises(RuleViolation, match="in the name of Rita Roomer: a licence is not"):
        _apply(o, operator="Sam Successor")


def test_a_suspended_licence_cannot_be_renewed(o: Office) -> None:
    """Found 12/20/2026, to correct by 01/02/2027, not corrected: suspended 01/02/2027."""
    old_id = _old_id(o)
    o.clock.set(date(2026, 12, 20))
    (violation_id,) = _inspect(o, old_id, ("140-10E",))
    svc.give_warning(o.db.uow(), o.clock, o.inspector, old_id, date(2027, 1, 2))
    o.clock.set(date(2027, 1, 2))
    case_id = _facts(o, old_id).case_id
    assert case_id is not None
    inspections.record_inspection(
        o.db.uow(), o.clock, o.inspector, case_id, o.clock.today(), checks={violation_id: False}
    )
    svc.suspend_licence(o.db.uow(), o.clock, o.inspector, old_id)
    o.clock.set(date(2027, 1, 3))
    words = (
        "Licence RH-2026-0001 is suspended since 01/02/2027: a suspended licence cannot be "
        "renewed (140-10C, D)"
    )
    with pytest.raises(RuleViolation) as refused:
        apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    assert str(refused.value) == words
    with pytest.raises(RuleViolation) as refused_at_counter:
        _apply(o)
    assert str(refused_at_counter.value) == words


def test_a_renewal_applied_for_is_not_issued_once_the_licence_is_suspended(o: Office) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    (violation_id,) = _inspect(o, old_id, ("140-10E",))
    svc.give_warning(o.db.uow(), o.clock, o.inspector, old_id, date(2027, 1, 10))
    o.clock.set(date(2027, 1, 10))
    case_id = _facts(o, old_id).case_id
    assert case_id is not None
    inspections.record_inspection(
        o.db.uow(), o.clock, o.inspector, case_id, o.clock.today(), checks={violation_id: False}
    )
    svc.suspend_licence(o.db.uow(), o.clock, o.inspector, old_id)
    with pytest.raises(RuleViolation, match="suspended since 01/10/2027: a suspended licence"):
        _issue(o, renewal_id)
    assert _row(o, renewal_id)["state"] == "applied"


def test_a_change_of_owner_ends_the_licence_and_its_pending_renewal_the_successor_applies_anew(
    o: Office,
) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    changed = datetime(2027, 1, 5, 10, 0, tzinfo=UTC)
    o.clock.set(datetime(2027, 1, 5, 15, 0, tzinfo=UTC))
    svc.record_change(
        o.db.uow(), o.clock, o.clerk, old_id, changed, "Sam Successor", "7 Ash St, Hudson WI"
    )
    assert _row(o, renewal_id)["state"] == "ended"
    with pytest.raises(RuleViolation, match="ended on 01/05/2027 with the change of owner"):
        apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    successor = _apply(o, operator="Sam Successor")
    assert _row(o, successor)["renews_id"] is None


# --- issuing -------------------------------------------------------------------------------------


def test_a_renewal_issued_before_expiry_runs_from_the_day_after_for_a_year_with_its_own_number(
    o: Office,
) -> None:
    old_id = _old_id(o)
    before = _row(o, old_id)
    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    o.clock.set(date(2027, 1, 20))
    # the parcel's case, inspected for the old licence on 03/02/2026: not since this application
    svc.open_licence_case(o.db.uow(), o.clock, o.inspector, renewal_id)
    with pytest.raises(RuleViolation, match="since the application of 01/01/2027"):
        _issue(o, renewal_id)
    _inspect(o, renewal_id)
    o.clock.set(date(2027, 2, 1))
    issued = _issue(o, renewal_id)
    assert (issued.number, issued.issued_on, issued.valid_from, issued.expires_on) == (
        "RH-2027-0001",
        date(2027, 2, 1),
        date(2027, 3, 3),  # the day after the old licence's last day: no gap, no overlap
        date(2028, 3, 2),  # one year: through the anniversary of the old last day, no drift
    )
    assert _row(o, old_id) == before  # the old licence simply ends on its last day

    # the old licence is in force through 03/02/2027; the renewal from 03/03/2027
    assert _statuses(o, date(2027, 2, 1)) == {
        "RH-2026-0001": "in force — renewal issued — RH-2027-0001, from 03/03/2027",
        "RH-2027-0001": "renewal — in force from 03/03/2027",
    }
    assert _statuses(o, LAST_DAY, RegisterFilter.IN_FORCE) == {
        "RH-2026-0001": "in force — renewal issued — RH-2027-0001, from 03/03/2027"
    }
    assert _statuses(o, date(2027, 3, 3)) == {
        "RH-2026-0001": "expired",
        "RH-2027-0001": "in force",
    }
    assert _statuses(o, date(2027, 3, 3), RegisterFilter.IN_FORCE) == {"RH-2027-0001": "in force"}
    assert _statuses(o, date(2028, 3, 2), RegisterFilter.IN_FORCE) == {
        "RH-2027-0001": "in force — expires 03/02/2028"
    }
    # a renewal is not in force before its first day: no warning on it yet (140-10C)
    with pytest.raises(RuleViolation, match="is in force from 03/03/2027"):
        svc.give_warning(o.db.uow(), o.clock, o.inspector, renewal_id, date(2027, 2, 15))
    # its certificate reads from its first day
    with o.db.read() as conn:
        cert = lq.certificate(conn, renewal_id, date(2027, 2, 1))
    assert cert is not None
    assert (cert.status, cert.valid_from, cert.renews) == (
        "in force",
        date(2027, 3, 3),
        "RH-2026-0001",
    )


def test_a_renewal_issued_after_the_licence_ended_runs_from_its_day_of_issue(o: Office) -> None:
    o.clock.set(date(2027, 3, 1))
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, _old_id(o))
    _inspect(o, renewal_id)
    o.clock.set(date(2027, 3, 5))
    assert _statuses(o, o.clock.today()) == {"RH-2026-0001": "expired", "application": "applied"}
    issued = _issue(o, renewal_id)
    assert (issued.number, issued.valid_from, issued.expires_on) == (
        "RH-2027-0001",
        date(2027, 3, 5),
        date(2028, 3, 5),
    )
    assert _statuses(o, o.clock.today(), RegisterFilter.IN_FORCE) == {"RH-2027-0001": "in force"}


# --- the expiry watch and the renewal letters ----------------------------------------------------


def test_the_expiring_list_shows_a_renewal_applied_for_and_skips_a_renewed_licence(
    o: Office,
) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    assert _statuses(o, DAY_MINUS_60, RegisterFilter.EXPIRING) == {
        "RH-2026-0001": "in force — expires 03/02/2027"
    }
    assert _letters(o, DAY_MINUS_60) == ["RH-2026-0001"]
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    assert _statuses(o, DAY_MINUS_60, RegisterFilter.EXPIRING) == {
        "RH-2026-0001": "in force — expires 03/02/2027; renewal applied on 01/01/2027"
    }
    assert _letters(o, DAY_MINUS_60) == []  # applied for: no letter asking to apply
    _inspect(o, renewal_id)
    _issue(o, renewal_id)
    assert _statuses(o, date(2027, 2, 1), RegisterFilter.EXPIRING) == {}
    assert _letters(o, date(2027, 2, 1)) == []


def test_a_denied_renewal_puts_the_licence_back_on_the_letters(o: Office) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    svc.deny_application(o.db.uow(), o.clock, o.inspector, renewal_id, "Rooms not as applied for")
    assert _letters(o, DAY_MINUS_60) == ["RH-2026-0001"]
    assert _statuses(o, DAY_MINUS_60, RegisterFilter.EXPIRING) == {
        "RH-2026-0001": "in force — expires 03/02/2027"
    }
    # and a new renewal may be applied for
    assert _row(o, apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id))["renews_id"] == old_id


def test_the_letter_says_from_when_to_apply_and_from_when_the_renewal_runs(o: Office) -> None:
    with o.db.read() as conn:
        (letter,) = lq.renewal_letters(conn, o.mid, DAY_MINUS_60)
    assert letter.text == (
        "Rooming house licence RH-2026-0001 for 412 Vine St expires at the end of 03/02/2027 "
        "(Hudson 140-10A). Apply to the office of the Building Inspector to renew it, on or "
        "after 01/01/2027; a renewal issued by 03/02/2027 runs from 03/03/2027."
    )


# --- two workstations at once --------------------------------------------------------------------


def test_two_clerks_recording_the_renewal_together_record_it_once(o: Office) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    for trial in range(3):
        outcomes = race(
            lambda: apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id),
            lambda: apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id),
        )
        assert not errors(outcomes), outcomes
        assert sorted(outcomes)[1:] == [OK] and sorted(outcomes)[0].endswith(
            "is pending: one renewal at a time"
        ), (trial, outcomes)
        pending = _facts(o, old_id).renewal
        assert pending is not None
        svc.deny_application(o.db.uow(), o.clock, o.inspector, pending.id, "Trial over")


def test_issuing_the_renewal_while_the_change_of_owner_is_recorded_ends_both(
    o: Office,
) -> None:
    """Locks are taken in one order (the licence, then its renewal): no deadlock, and however
    the two fall, the renewal ends with the licence (140-10A: not transferable)."""
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    _inspect(o, renewal_id)
    o.clock.set(datetime(2027, 1, 5, 15, 0, tzinfo=UTC))
    outcomes = race(
        lambda: _issue(o, renewal_id),
        lambda: svc.record_change(
            o.db.uow(),
            o.clock,
            o.clerk,
            old_id,
            datetime(2027, 1, 5, 10, 0, tzinfo=UTC),
            "Sam Successor",
            "7 Ash St",
        ),
    )
    assert not errors(outcomes), outcomes
    assert outcomes[1] == OK
    assert outcomes[0] in (OK, "The application #2 is ended, not pending"), outcomes
    assert (_row(o, old_id)["state"], _row(o, renewal_id)["state"]) == ("ended", "ended")


def test_once_renewed_the_next_renewal_opens_60_days_before_the_renewal_ends(o: Office) -> None:
    old_id = _old_id(o)
    o.clock.set(DAY_MINUS_60)
    renewal_id = apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
    _inspect(o, renewal_id)
    _issue(o, renewal_id)
    o.clock.set(date(2027, 2, 1))
    with pytest.raises(RuleViolation) as refused:
        _apply(o)
    assert str(refused.value) == (
        "Licence RH-2027-0001 for this dwelling is issued to be in force from 03/03/2027 until "
        "03/02/2028: its renewal may be applied for from 01/02/2028 (60 days before it ends, "
        "140-10A)"
    )
    with pytest.raises(RuleViolation, match="is renewed already: RH-2027-0001, from 03/03/2027"):
        apply_for_renewal(o.db.uow(), o.clock, o.clerk, old_id)
