"""Deadlines at their edge dates, through the services on SQLite and PostgreSQL: temporary
wiring's stated period (Glendale 15.1.76(a)), a temporary certificate of occupancy's completion
date (15.1.13(d)) and street openings in the frozen-ground season (New Lisbon §435-8.A)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from itertools import count

import pytest

from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole, PermitStatus
from desk.domain.model import Actor, Parcel, Party
from desk.domain.sureties import Coverage, CoverageKind
from desk.errors import IssuanceRefused, ValidationError
from desk.services import inspections as insp
from desk.services import issuance, lifecycle, permits, setup
from desk.services import sureties as sure
from desk.services.inspections import CertificateInput
from tests.factories import Register, make_issuable, seed_register

S = PermitStatus
NO_PERIOD = (
    "Temporary wiring: the period the wiring is to remain in service is not stated "
    "(at most 90 days) (15.1.76(a))"
)


def _expires_on(database: Database, permit_id: int) -> date | None:
    with database.read() as conn:
        detail = queries.permit_detail(conn, permit_id)
    assert detail is not None
    return detail.expires_on


def _status(database: Database, permit_id: int) -> PermitStatus:
    with database.read() as conn:
        detail = queries.permit_detail(conn, permit_id)
    assert detail is not None
    return detail.status


# --- 15.1.76(a): temporary wiring ----------------------------------------------------------


def temporary_wiring(database: Database, clock: FixedClock, reg: Register) -> int:
    """A temporary-wiring application with every other condition of issue met."""
    permit_id = permits.take_application(
        database.uow(),
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="ELECTRICAL-TEMP",
            parcel_id=reg.parcel_id,
            description="Temporary service for construction",
            valuation=Decimal("1500.00"),
            parties=(
                (PartyRole.BUILDING_OWNER, reg.owner_id),
                (PartyRole.CONTRACTOR, reg.contractor_id),
            ),
        ),
    )
    make_issuable(database, clock, reg.admin, permit_id)
    return permit_id


def test_temporary_wiring_is_not_issued_until_its_period_is_stated(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    start = clock.today()
    permit_id = temporary_wiring(database, clock, reg)
    assert NO_PERIOD in issuance.issuance_shortfalls(database.uow(), permit_id, start)
    with pytest.raises(IssuanceRefused) as refused:
        permits.issue_permit(database.uow(), clock, reg.inspector, permit_id)
    assert NO_PERIOD in refused.value.shortfalls
    # At most 90 days: the 91st day is refused, the 90th is the last allowed (15.1.76(a)).
    with pytest.raises(ValidationError, match=r"at most 90 days \(15\.1\.76\(a\)\)"):
        lifecycle.set_requested_period(
            database.uow(), clock, reg.clerk, permit_id, start + timedelta(days=91)
        )
    lifecycle.set_requested_period(
        database.uow(), clock, reg.clerk, permit_id, start + timedelta(days=90)
    )
    assert issuance.issuance_shortfalls(database.uow(), permit_id, start) == []
    permits.issue_permit(database.uow(), clock, reg.inspector, permit_id)
    assert _expires_on(database, permit_id) == start + timedelta(days=90)


def test_temporary_wiring_issued_after_its_period_ended_is_refused_in_words(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    start = clock.today()
    permit_id = temporary_wiring(database, clock, reg)
    end = start + timedelta(days=10)
    lifecycle.set_requested_period(database.uow(), clock, reg.clerk, permit_id, end)
    assert issuance.issuance_shortfalls(database.uow(), permit_id, end) == []  # the day of
    assert issuance.issuance_shortfalls(database.uow(), permit_id, end + timedelta(days=1)) == [
        f"Temporary wiring: the stated period ended on {end:%m/%d/%Y}, before the issue "
        f"date {end + timedelta(days=1):%m/%d/%Y} (15.1.76(a))"
    ]


def test_temporary_wiring_lapses_the_day_after_its_period(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    start = clock.today()
    permit_id = temporary_wiring(database, clock, reg)
    end = start + timedelta(days=60)
    lifecycle.set_requested_period(database.uow(), clock, reg.clerk, permit_id, end)
    permits.issue_permit(database.uow(), clock, reg.inspector, permit_id)
    assert _expires_on(database, permit_id) == end
    muni = reg.municipality_id
    for day in (end - timedelta(days=1), end):  # the day before and the day of
        clock.set(day)
        assert lifecycle.sweep_lapsed(database.uow(), clock, muni) == []
        (due,) = lifecycle.lapsing_within(database.uow(), clock, muni, 30)
        assert (due.deadline.label, due.deadline.due, due.deadline.section) == (
            "Temporary wiring: service cut off",
            end,
            "15.1.76(a)",
        )
    clock.set(end + timedelta(days=1))  # the day after
    (gone,) = lifecycle.sweep_lapsed(database.uow(), clock, muni)
    assert (gone.deadline.section, gone.flag) == ("15.1.76(a)", "")
    assert _status(database, permit_id) is S.EXPIRED


# --- 15.1.13(d): temporary occupancy -------------------------------------------------------


def _issued_building(database: Database, clock: FixedClock) -> Register:
    reg = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    return reg


def _temporary_certificate(database: Database, clock: FixedClock, reg: Register, until: date):
    return insp.issue_certificate(
        database.uow(),
        clock,
        reg.inspector,
        CertificateInput(reg.permit_id, "Dwelling", temporary_until=until, safe_and_sanitary=True),
    )


def test_a_temporary_certificates_completion_date_is_a_deadline_flagged_when_it_passes(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued_building(database, clock)
    muni = reg.municipality_id
    until = date(2026, 7, 14)  # 120 days after 03/16 (15.1.13(d))
    _temporary_certificate(database, clock, reg, until)
    codes = [d.code for d in lifecycle.permit_deadlines(database.uow(), reg.permit_id)]
    assert "occupancy" in codes
    # The start deadline (15.1.8(b), 07/16) is pushed away so only the occupancy one is due.
    lifecycle.change_status(database.uow(), clock, reg.clerk, reg.permit_id, S.WORK_STARTED)
    with pytest.raises(ValidationError, match=r"new temporary certificate \(15\.1\.13\(d\)\)"):
        lifecycle.extend_deadline(
            database.uow(), clock, reg.inspector, reg.permit_id, "occupancy", date(2026, 8, 1), "x"
        )
    for day in (until - timedelta(days=1), until):  # the day before and the day of
        clock.set(day)
        lifecycle.record_activity(database.uow(), clock, reg.inspector, reg.permit_id, day)
        assert lifecycle.sweep_lapsed(database.uow(), clock, muni) == []
        due = lifecycle.lapsing_within(database.uow(), clock, muni, 30)
        assert [(d.deadline.code, d.deadline.due, d.flag) for d in due] == [
            ("occupancy", until, "")
        ]
    clock.set(until + timedelta(days=1))  # the day after: the certificate has ended
    (ended,) = lifecycle.sweep_lapsed(database.uow(), clock, muni)
    assert (ended.deadline.code, ended.deadline.section) == ("occupancy", "15.1.13(d)")
    assert "15.1.13(b)(1)" in ended.flag
    assert _status(database, reg.permit_id) is S.WORK_STARTED  # the permit itself runs on
    (overdue,) = lifecycle.lapsing_within(database.uow(), clock, muni, 30)
    assert (overdue.deadline.due, overdue.flag) == (until, ended.flag)


def test_a_final_certificate_clears_the_temporary_occupancy_deadline(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued_building(database, clock)
    muni = reg.municipality_id
    until = date(2026, 5, 1)
    _temporary_certificate(database, clock, reg, until)
    for code in ("BLD-LOCATION", "BLD-FOOTINGS", "BLD-FRAMING", "BLD-BASEMENT-FLOOR", "BLD-FINAL"):
        request = insp.request_inspection(
            database.uow(),
            clock,
            reg.clerk,
            insp.RequestInput(reg.permit_id, code, "Mike Kowalczyk", "(414) 555-0142"),
        )
        insp.record_result(
            database.uow(),
            clock,
            reg.inspector,
            insp.ResultInput(request.inspection_id, insp.Result.PASSED),
        )
    assert _status(database, reg.permit_id) is S.COMPLETED
    # Completed, but the temporary certificate is still the only one: watched and flagged.
    clock.set(until + timedelta(days=1))
    (ended,) = lifecycle.sweep_lapsed(database.uow(), clock, muni)
    assert ended.deadline.code == "occupancy" and ended.flag
    insp.issue_certificate(
        database.uow(), clock, reg.inspector, CertificateInput(reg.permit_id, "Dwelling")
    )
    assert lifecycle.sweep_lapsed(database.uow(), clock, muni) == []
    assert lifecycle.lapsing_within(database.uow(), clock, muni, 30) == []
    assert "occupancy" not in [
        d.code for d in lifecycle.permit_deadlines(database.uow(), reg.permit_id)
    ]


# --- §435-8.A: street openings and the frozen-ground season ----------------------------------


_PINS = count(412)


def _new_lisbon_opening(
    database: Database, clock: FixedClock, reg: Register, emergency: bool = False
) -> int:
    uow = database.uow()
    mid = setup.ensure_municipality(uow, clock, reg.admin, "new_lisbon")
    parcel_id = permits.add_parcel(
        uow,
        clock,
        reg.clerk,
        Parcel(
            municipality_id=mid,
            pin=f"291-{next(_PINS):05d}-0000",
            house_number="218",
            street="W Bridge St",
            city="New Lisbon",
            zip="53950",
        ),
    )
    contractor = permits.add_party(
        uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name="Juneau County Excavating")
    )
    # §435-7.J: the $500,000 insurance is on file, so only the season decides.
    sure.record_certificate(
        uow,
        clock,
        reg.clerk,
        sure.CertificateInput(
            municipality_id=mid,
            insured="",
            insured_party_id=contractor,
            insurer="Badger Mutual",
            policy=f"GL-{contractor}",
            effective_on=date(2026, 1, 1),
            expires_on=date(2028, 12, 31),
            coverages=tuple(Coverage(k, Decimal("500000")) for k in CoverageKind),
            holder="City of New Lisbon",
        ),
    )
    return permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=mid,
            kind="STREET-OPENING",
            parcel_id=parcel_id,
            description="Water service repair",
            valuation=Decimal("4000.00"),
            parties=((PartyRole.CONTRACTOR, contractor),),
            emergency=emergency,
        ),
    )


FROZEN = "No street openings between November 15 and May 1 except an emergency excavation"


def _issue_on(database: Database, clock: FixedClock, actor: Actor, permit_id: int, day: date):
    clock.set(day)
    return permits.issue_permit(database.uow(), clock, actor, permit_id, issued_on=day)


def _frozen(database: Database, permit_id: int, day: date) -> bool:
    return any(FROZEN in s for s in issuance.issuance_shortfalls(database.uow(), permit_id, day))


def test_a_street_opening_issued_before_the_season_is_valid_to_november_14_at_the_latest(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 10, 20))
    nov2 = _new_lisbon_opening(database, clock, reg)
    nov14 = _new_lisbon_opening(database, clock, reg)
    nov15 = _new_lisbon_opening(database, clock, reg)
    for pid in (nov2, nov14, nov15):
        make_issuable(database, clock, reg.admin, pid)
    # The season's edges (§435-8.A): November 14 open, November 15 frozen.
    assert not _frozen(database, nov14, date(2026, 11, 14))
    assert _frozen(database, nov15, date(2026, 11, 15))
    with pytest.raises(IssuanceRefused):
        _issue_on(database, clock, reg.admin, nov15, date(2026, 11, 15))
    term = lifecycle.term_if_issued(database.uow(), nov2, date(2026, 11, 2))
    assert term is not None and term.due == date(2026, 11, 14) and "§435-8.A" in term.section
    _issue_on(database, clock, reg.admin, nov2, date(2026, 11, 2))
    assert _expires_on(database, nov2) == date(2026, 11, 14)  # not 12/02
    _issue_on(database, clock, reg.admin, nov14, date(2026, 11, 14))
    assert _expires_on(database, nov14) == date(2026, 11, 14)
    # The renewal stops at November 14 too, in words.
    with pytest.raises(ValidationError, match=r"ends on 11/14/2026 at the latest \(§435-8\.A\)"):
        lifecycle.extend_deadline(
            database.uow(), clock, reg.admin, nov2, "expires", date(2026, 12, 10), "More pipe"
        )
    clock.set(date(2026, 11, 15))
    gone = lifecycle.sweep_lapsed(database.uow(), clock, _municipality_of(database, nov2))
    assert sorted(g.permit_id for g in gone) == sorted([nov2, nov14])


def _municipality_of(database: Database, permit_id: int) -> int:
    uow = database.uow()
    with uow:
        permit = uow.permits.get(permit_id)
        assert permit is not None
        return permit.municipality_id


def test_a_renewal_before_the_season_may_reach_november_14_but_not_beyond(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 9, 20))
    pid = _new_lisbon_opening(database, clock, reg)
    make_issuable(database, clock, reg.admin, pid)
    _issue_on(database, clock, reg.admin, pid, date(2026, 10, 1))
    assert _expires_on(database, pid) == date(2026, 10, 31)
    with pytest.raises(ValidationError, match="11/14/2026 at the latest"):
        lifecycle.extend_deadline(
            database.uow(), clock, reg.admin, pid, "expires", date(2026, 11, 15), "More pipe"
        )
    lifecycle.extend_deadline(
        database.uow(), clock, reg.admin, pid, "expires", date(2026, 11, 14), "More pipe"
    )
    assert _expires_on(database, pid) == date(2026, 11, 14)


def test_an_emergency_opening_is_not_held_to_the_season(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 11, 2))
    pid = _new_lisbon_opening(database, clock, reg, emergency=True)
    make_issuable(database, clock, reg.admin, pid)
    _issue_on(database, clock, reg.admin, pid, date(2026, 11, 2))
    assert _expires_on(database, pid) == date(2026, 12, 2)  # 30 days (§435-7)
    lifecycle.extend_deadline(
        database.uow(), clock, reg.admin, pid, "expires", date(2026, 12, 20), "Main break"
    )
    assert _expires_on(database, pid) == date(2026, 12, 20)


def test_in_spring_may_1_is_frozen_and_may_2_is_open(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2027, 4, 20))
    pid = _new_lisbon_opening(database, clock, reg)
    make_issuable(database, clock, reg.admin, pid)
    assert _frozen(database, pid, date(2027, 5, 1))
    assert not _frozen(database, pid, date(2027, 5, 2))
    _issue_on(database, clock, reg.admin, pid, date(2027, 5, 2))
    assert _expires_on(database, pid) == date(2027, 6, 1)
