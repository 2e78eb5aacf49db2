"""Rooming house licences end to end on both backends (Hudson 140-10): application, the Building
Inspector's inspection, the City Clerk's numbered licence, the register, the change of owner,
the suspension and its automatic revocation (140-10C, D), denial and hearing (140-10B)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from db import licence_register_queries as lq
from db import schema
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.enforcement.licences import HearingDecision, LicenceState, RegisterFilter
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from permitdesk.cli import main
from tests.cli_sign_in import signed
from tests.db.enforcement_setup import Office, office
from tests.db.licence_fee import RECEIPT, set_licence_fee
from tests.racing import OK, errors, race

TODAY = date(2026, 3, 2)
ROOMS = (
    svc.RoomInput("Room 1", Decimal(80), True, 1),
    svc.RoomInput("Room 2", Decimal("120.5"), True, 2),
    svc.RoomInput("Room 3", Decimal(90), True, 2),
    svc.RoomInput("Kitchen", Decimal(140), False),
)


def _office(database: Database, clock: FixedClock) -> Office:
    """The office, with the Council's licence fee set (140-10A)."""
    o = office(database, clock)
    set_licence_fee(o)
    return o


def _apply(
    o: Office,
    *,
    persons: int = 5,
    fixtures: tuple[int, int, int] = (1, 1, 1),
    unit: str = "",
    parcel_id: int | None = None,
    operator: str = "Rita Roomer",
) -> int:
    wc, lav, baths = fixtures
    return svc.record_application(
        o.db.uow(),
        o.clock,
        o.clerk,
        svc.ApplicationInput(
            municipality_id=o.mid,
            parcel_id=parcel_id or o.parcel_id,
            operator_name=operator,
            operator_address="5 Oak St, Hudson WI 54016",
            persons=persons,
            water_closets=wc,
            lavatories=lav,
            baths=baths,
            rooms=ROOMS,
            dwelling_unit=unit,
        ),
    )


def _inspect(
    o: Office, licence_id: int, found: tuple[str, ...] = ()
) -> tuple[int, tuple[int, ...]]:
    case_id = svc.open_licence_case(o.db.uow(), o.clock, o.inspector, licence_id)
    rec = inspections.record_inspection(
        o.db.uow(),
        o.clock,
        o.inspector,
        case_id,
        o.clock.today(),
        found=[inspections.FoundViolation(s) for s in found],
    )
    return case_id, rec.violation_ids


def _issued(o: Office, **kw: object) -> svc.LicenceIssued:
    licence_id = _apply(o, **kw)  # type: ignore[arg-type]
    _inspect(o, licence_id)
    return svc.issue_licence(o.db.uow(), o.clock, o.clerk, licence_id, fee_receipt=RECEIPT)


def _numbers(database: Database, mid: int, today: date, which: RegisterFilter) -> list[str]:
    with database.read() as conn:
        return [r.number for r in lq.register(conn, mid, today, which)]


def test_an_inspected_application_is_issued_rh_2026_0001_and_is_in_force_for_a_year(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    licence_id = _apply(o)
    assert _numbers(database, o.mid, TODAY, RegisterFilter.PENDING) == [""]
    with pytest.raises(RuleViolation, match="has not inspected"):
        svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    _inspect(o, licence_id)
    issued = svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    assert (issued.number, issued.expires_on) == ("RH-2026-0001", date(2027, 3, 2))

    assert _numbers(database, o.mid, TODAY, RegisterFilter.IN_FORCE) == ["RH-2026-0001"]
    # expiring within 60 days: 2027-01-01 is 60 days before 2027-03-02, 2026-12-31 is 61
    assert _numbers(database, o.mid, date(2026, 12, 31), RegisterFilter.EXPIRING) == []
    assert _numbers(database, o.mid, date(2027, 1, 1), RegisterFilter.EXPIRING) == ["RH-2026-0001"]
    with database.read() as conn:
        letters = lq.renewal_letters(conn, o.mid, date(2027, 1, 1))
        rows = lq.register(conn, o.mid, date(2027, 3, 3))
        audited = set(conn.execute(select(schema.audit_event.c.entity)).scalars())
    assert [(x.number, x.operator, x.dwelling) for x in letters] == [
        ("RH-2026-0001", "Rita Roomer", "412 Vine St")
    ]
    assert "expires at the end of 03/02/2027 (Hudson 140-10A)" in letters[0].text
    assert _numbers(database, o.mid, date(2027, 3, 2), RegisterFilter.IN_FORCE) == ["RH-2026-0001"]
    assert _numbers(database, o.mid, date(2027, 3, 3), RegisterFilter.EXPIRED) == ["RH-2026-0001"]
    assert [r.status for r in rows] == ["expired"]
    assert {"rooming_licence", "rooming_licence_room"} <= audited


def test_a_change_of_owner_ends_the_licence_and_a_late_notice_is_recorded_late(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    issued = _issued(o)
    changed = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    clock.set(datetime(2026, 3, 3, 10, 30, tzinfo=UTC))  # 24 hours 30 minutes later
    done = svc.record_change(
        database.uow(), clock, o.clerk, issued.licence_id, changed, "Sam Successor", "7 Ash St"
    )
    assert done.late and done.ended_on == date(2026, 3, 2)
    assert _numbers(database, o.mid, clock.today(), RegisterFilter.IN_FORCE) == []
    with pytest.raises(RuleViolation, match="ended, not in force"):
        svc.suspend_licence(database.uow(), clock, o.inspector, issued.licence_id)
    # the successor applies anew
    assert _apply(o, operator="Sam Successor") > issued.licence_id


def test_a_change_noticed_within_24_hours_is_timely(database: Database, clock: FixedClock) -> None:
    o = _office(database, clock)
    issued = _issued(o)
    changed = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    clock.set(datetime(2026, 3, 3, 10, 0, tzinfo=UTC))
    done = svc.record_change(
        database.uow(), clock, o.clerk, issued.licence_id, changed, "Sam Successor", "7 Ash St"
    )
    assert not done.late


def _suspended(o: Office, database: Database, clock: FixedClock) -> int:
    """Issued 03/02; 140-10E found 03/02, notice to correct by 03/16; re-inspected 03/16, not
    corrected; suspended 03/16."""
    issued = _issued(o)
    case_id, (violation_id,) = _inspect(o, issued.licence_id, ("140-10E",))
    svc.give_warning(database.uow(), clock, o.inspector, issued.licence_id, date(2026, 3, 16))
    clock.set(date(2026, 3, 15))
    with pytest.raises(RuleViolation, match="runs to 03/16/2026"):
        svc.suspend_licence(database.uow(), clock, o.inspector, issued.licence_id)
    clock.set(date(2026, 3, 16))
    with pytest.raises(RuleViolation, match="Re-inspect"):
        svc.suspend_licence(database.uow(), clock, o.inspector, issued.licence_id)
    inspections.record_inspection(
        database.uow(), clock, o.inspector, case_id, clock.today(), checks={violation_id: False}
    )
    s = svc.suspend_licence(database.uow(), clock, o.inspector, issued.licence_id)
    assert (s.petition_last_day, s.revoked_on_if_no_petition) == (
        date(2026, 3, 26),
        date(2026, 3, 27),
    )
    return issued.licence_id


def test_a_suspension_not_petitioned_is_revoked_by_the_sweep_on_the_eleventh_day(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    licence_id = _suspended(o, database, clock)
    assert _numbers(database, o.mid, clock.today(), RegisterFilter.SUSPENDED) == ["RH-2026-0001"]
    clock.set(date(2026, 3, 26))  # the 10th day following: still open
    assert svc.sweep_licences(database.uow(), clock, o.mid) == []
    clock.set(date(2026, 3, 27))
    revoked = svc.sweep_licences(database.uow(), clock, o.mid)
    assert [(r.number, r.revoked_on) for r in revoked] == [("RH-2026-0001", date(2026, 3, 27))]
    assert svc.sweep_licences(database.uow(), clock, o.mid) == []  # idempotent
    assert _numbers(database, o.mid, clock.today(), RegisterFilter.REVOKED) == ["RH-2026-0001"]
    # revoked: a petition filed after the last day is not taken
    with pytest.raises(RuleViolation, match=r"after the last day \(03/26/2026\), comes too late"):
        svc.record_petition(database.uow(), clock, o.clerk, licence_id, clock.today(), "Rita")


def test_a_timely_petition_typed_in_after_the_sweep_sets_the_revocation_aside(
    database: Database, clock: FixedClock
) -> None:
    """140-10D: deemed revoked only with no timely petition. Filed 03/26, the 10th day, and
    typed in 03/27 after the start-up sweep revoked the licence: it is suspended again, awaiting
    the hearing, and the sweep leaves it alone."""
    o = _office(database, clock)
    licence_id = _suspended(o, database, clock)
    clock.set(date(2026, 3, 27))
    assert len(svc.sweep_licences(database.uow(), clock, o.mid)) == 1
    assert svc.record_petition(
        database.uow(), clock, o.clerk, licence_id, date(2026, 3, 26), "Rita"
    )
    assert svc.sweep_licences(database.uow(), clock, o.mid) == []
    assert _numbers(database, o.mid, clock.today(), RegisterFilter.SUSPENDED) == ["RH-2026-0001"]
    lic = schema.rooming_licence.c
    with database.read() as conn:
        row = conn.execute(
            select(lic.revoked_on, lic.revocation_set_aside_on, lic.revocation_set_aside_reason)
        ).one()
    assert row == (
        None,
        date(2026, 3, 27),
        "petition filed 03/26/2026, within the 10 days following the suspension, recorded "
        "03/27/2026",
    )


def test_a_timely_petition_stops_the_revocation_and_the_council_decides(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    licence_id = _suspended(o, database, clock)
    clock.set(date(2026, 3, 26))
    assert svc.record_petition(database.uow(), clock, o.clerk, licence_id, clock.today(), "Rita")
    clock.set(date(2026, 4, 30))
    assert svc.sweep_licences(database.uow(), clock, o.mid) == []
    assert _numbers(database, o.mid, clock.today(), RegisterFilter.SUSPENDED) == ["RH-2026-0001"]
    state = svc.record_hearing_decision(
        database.uow(),
        clock,
        o.inspector,
        licence_id,
        HearingDecision.SUSTAIN,
        clock.today(),
        "Fixtures still lacking; suspension sustained.",
    )
    assert state is LicenceState.REVOKED  # 140-3E


def test_issuing_is_refused_while_the_fixtures_fall_short(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    licence_id = _apply(o, persons=11, fixtures=(1, 2, 2))
    _inspect(o, licence_id)
    with pytest.raises(RuleViolation, match="140-10E: 11 persons need 2 flush water closet"):
        svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    assert svc.check_licence(database.uow(), licence_id)[0].section == "140-10E"
    assert _numbers(database, o.mid, TODAY, RegisterFilter.IN_FORCE) == []


def test_issuing_is_refused_while_a_violation_is_open(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    licence_id = _apply(o)
    _inspect(o, licence_id, ("140-10I",))
    with pytest.raises(RuleViolation, match=r"not satisfied: 1 violation\(s\) open \(140-10I\)"):
        svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt=RECEIPT)


def test_a_denied_application_may_be_heard_and_withdrawn_the_denial_it_is_pending_again(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    licence_id = _apply(o)
    last = svc.deny_application(database.uow(), clock, o.inspector, licence_id, "Unsafe stairs")
    assert last == date(2026, 3, 12)
    clock.set(date(2026, 3, 12))
    assert svc.record_petition(database.uow(), clock, o.clerk, licence_id, clock.today(), "Rita")
    state = svc.record_hearing_decision(
        database.uow(),
        clock,
        o.inspector,
        licence_id,
        HearingDecision.WITHDRAW,
        clock.today(),
        "Stairs fixed",
    )
    assert state is LicenceState.APPLIED


def test_each_role_is_held_to_its_own_steps(database: Database, clock: FixedClock) -> None:
    o = _office(database, clock)
    licence_id = _apply(o)
    with pytest.raises(PermissionDenied):
        svc.open_licence_case(database.uow(), clock, o.clerk, licence_id)
    _inspect(o, licence_id)
    with pytest.raises(PermissionDenied, match="issue rooming house licences"):
        svc.issue_licence(database.uow(), clock, o.inspector, licence_id, fee_receipt=RECEIPT)
    with pytest.raises(PermissionDenied):
        svc.deny_application(database.uow(), clock, o.clerk, licence_id, "no")
    with pytest.raises(PermissionDenied):
        svc.give_warning(database.uow(), clock, o.clerk, licence_id, TODAY)
    issued = svc.issue_licence(database.uow(), clock, o.admin, licence_id, fee_receipt=RECEIPT)
    assert issued.number == "RH-2026-0001"


def test_licence_numbers_issued_at_once_on_two_workstations_are_gapless(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    trials = 5
    ids = []
    for k in range(2 * trials):
        parcel_id = o.parcel(f"047-0009-{k:03d}", str(300 + k))
        licence_id = _apply(o, parcel_id=parcel_id)
        _inspect(o, licence_id)
        ids.append(licence_id)
    for k in range(trials):
        outcomes = race(
            *(
                (
                    lambda i=i: svc.issue_licence(
                        database.uow(), clock, o.clerk, i, fee_receipt=RECEIPT
                    )
                )
                for i in ids[2 * k : 2 * k + 2]
            )
        )
        assert outcomes == [OK, OK], errors(outcomes)
    with database.read() as conn:
        numbers = sorted(
            n for n in conn.execute(select(schema.rooming_licence.c.number)).scalars() if n
        )
    assert numbers == [f"RH-2026-{i:04d}" for i in range(1, 2 * trials + 1)]


def test_the_licences_command_lists_the_register_and_the_renewal_letters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "register.db"
    today = date.today()  # the command reads the system clock
    clock = FixedClock(today)
    database = open_database(sqlite_url(path))
    try:
        o = _office(database, clock)
        issued = _issued(o)
    finally:
        database.close()
    assert main(["enforcement", "licences", "--db", str(path), *signed(monkeypatch)]) == 0
    out = capsys.readouterr().out
    assert issued.number in out and "in force" in out and "1 rooming house licence(s)" in out
    days = (issued.expires_on - today).days
    args = ["enforcement", "licences", "--db", str(path), *signed(monkeypatch)]
    assert main([*args, "--expiring", str(days - 1)]) == 0
    assert "0 rooming house licence(s)" in capsys.readouterr().out
    args = ["enforcement", "licences", "--db", str(path), *signed(monkeypatch)]
    assert main([*args, "--expiring", str(days)]) == 0
    out = capsys.readouterr().out
    assert "letter to Rita Roomer, 5 Oak St, Hudson WI 54016" in out
    assert main(["enforcement", "sweep", "--db", str(path), *signed(monkeypatch)]) == 0
    assert "0 rooming house licence(s) revoked (140-10D)" in capsys.readouterr().out
    assert issued.expires_on - timedelta(days=days) == today


def _fee_and_receipt(database: Database, licence_id: int) -> tuple[Decimal | None, str]:
    lic = schema.rooming_licence.c
    with database.read() as conn:
        row = conn.execute(select(lic.fee, lic.fee_receipt).where(lic.id == licence_id)).one()
    return row.fee, row.fee_receipt


def test_no_licence_is_issued_while_the_council_has_not_set_the_fee(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)  # no fee set: none is shipped
    licence_id = _apply(o)
    _inspect(o, licence_id)
    with pytest.raises(RuleViolation) as refused:
        svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt=RECEIPT)
    assert str(refused.value) == (
        "Rooming-house licence fee: the council has not set this fee yet; an administrator "
        "sets it in Administration → Municipality (Rooming-house licence fee)."
    )
    assert _numbers(database, o.mid, TODAY, RegisterFilter.PENDING) == [""]
    set_licence_fee(o, "0")  # the Council may set no fee: no receipt then
    svc.issue_licence(database.uow(), clock, o.clerk, licence_id)
    assert _fee_and_receipt(database, licence_id) == (Decimal("0.00"), "")


def test_the_fee_of_the_day_and_its_receipt_are_kept_on_the_licence(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)  # $25.00
    licence_id = _apply(o)
    _inspect(o, licence_id)
    with pytest.raises(ValidationError) as refused:
        svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt="  ")
    assert str(refused.value) == (
        "Receipt: enter the City Clerk's receipt number for the $25.00 licence fee"
    )
    svc.issue_licence(database.uow(), clock, o.clerk, licence_id, fee_receipt=" CC-77 ")
    assert _fee_and_receipt(database, licence_id) == (Decimal("25.00"), "CC-77")
    # the Council raises the fee: the licence issued keeps the fee it was issued for
    set_licence_fee(o, "40.00")
    assert _fee_and_receipt(database, licence_id) == (Decimal("25.00"), "CC-77")
    second = _apply(o, unit="2")
    _inspect(o, second)
    svc.issue_licence(database.uow(), clock, o.clerk, second, fee_receipt="CC-78")
    assert _fee_and_receipt(database, second) == (Decimal("40.00"), "CC-78")
