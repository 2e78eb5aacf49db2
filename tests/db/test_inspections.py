"""Inspection services on SQLite and PostgreSQL: requests and the route, the order of
15.1.11(a), exceptions, correction orders at their deadlines, the re-inspection and
failure-to-call fees as the fee engine prices them, completion, and certificates of occupancy."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from db import inspection_queries as iq
from db import queries
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PartyKind, PartyRole, PermitStatus
from desk.domain.inspections import Result
from desk.domain.model import Party
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import cashiering, permits
from desk.services import inspections as svc
from desk.services.inspections import CertificateInput, RequestInput, ResultInput
from tests.factories import Register, make_issuable, seed_register

ISSUED = date(2026, 3, 16)


def _issued(database: Database, clock: FixedClock) -> Register:
    reg = seed_register(database, clock)
    clock.set(ISSUED)
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    return reg


def _request(database: Database, clock: FixedClock, reg: Register, code: str, **kw: object) -> int:
    r = svc.request_inspection(
        database.uow(),
        clock,
        reg.clerk,
        RequestInput(reg.permit_id, code, "Mike Kowalczyk", "(414) 555-0142", **kw),  # type: ignore[arg-type]
    )
    return r.inspection_id


def _record(
    database: Database,
    clock: FixedClock,
    reg: Register,
    inspection_id: int,
    result: Result,
    **kw: object,
) -> svc.ResultOutcome:
    return svc.record_result(
        database.uow(),
        clock,
        reg.inspector,
        ResultInput(inspection_id, result, **kw),  # type: ignore[arg-type]
    )


def _pass(database: Database, clock: FixedClock, reg: Register, code: str) -> svc.ResultOutcome:
    return _record(database, clock, reg, _request(database, clock, reg, code), Result.PASSED)


def _added(
    database: Database, reg: Register, permit_id: int | None = None
) -> list[tuple[str, Decimal]]:
    from desk.domain.model import FeeAdjustment

    uow = database.uow()
    with uow:
        rows = uow.cash.find(FeeAdjustment, permit_id=permit_id or reg.permit_id)
        return [(r.code, r.amount) for r in rows]


def test_a_later_stage_is_refused_until_the_earlier_one_passed_and_the_message_names_it(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    r = svc.request_inspection(
        database.uow(),
        clock,
        reg.clerk,
        RequestInput(reg.permit_id, "BLD-FOOTINGS", "Mike Kowalczyk", "(414) 555-0142"),
    )
    # The clerk can tell the caller at once what is still missing.
    assert r.waiting_for == ("Location has not passed yet (15.1.11(a)(1))",)
    with pytest.raises(RuleViolation, match=r"Location has not passed yet \(15\.1\.11\(a\)\(1\)\)"):
        _record(database, clock, reg, r.inspection_id, Result.PASSED)
    with pytest.raises(PermissionDenied, match="only an inspector"):
        svc.record_result(
            database.uow(), clock, reg.clerk, ResultInput(r.inspection_id, Result.PASSED)
        )
    _pass(database, clock, reg, "BLD-LOCATION")
    out = _record(database, clock, reg, r.inspection_id, Result.PASSED)
    assert out.type_label == "Footings and foundation"
    with database.read() as conn:
        tab = iq.permit_inspections(conn, reg.permit_id)
    assert tab is not None
    assert [t.code for t in tab.next_types] == ["BLD-FRAMING", "BLD-BASEMENT-FLOOR"]


def test_an_exception_needs_the_inspector_and_a_reason_and_clears_the_stage(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    for code in ("BLD-LOCATION", "BLD-FOOTINGS", "BLD-FRAMING"):
        _pass(database, clock, reg, code)
    final = _request(database, clock, reg, "BLD-FINAL")
    with pytest.raises(RuleViolation, match="Basement floor has not passed yet"):
        _record(database, clock, reg, final, Result.PASSED)
    with pytest.raises(PermissionDenied):
        svc.record_exception(
            database.uow(), clock, reg.clerk, reg.permit_id, "BLD-BASEMENT-FLOOR", "slab"
        )
    with pytest.raises(ValidationError, match="reason"):
        svc.record_exception(
            database.uow(), clock, reg.inspector, reg.permit_id, "BLD-BASEMENT-FLOOR", "  "
        )
    svc.record_exception(
        database.uow(),
        clock,
        reg.inspector,
        reg.permit_id,
        "BLD-BASEMENT-FLOOR",
        "Slab on grade, no basement",
    )
    clock.set(date(2026, 9, 1))
    out = _record(database, clock, reg, final, Result.PASSED)
    # The final passed: the permit is completed that day and a certificate is offered.
    assert out.completed_on == date(2026, 9, 1) and out.offer_certificate
    with database.read() as conn:
        detail = queries.permit_detail(conn, reg.permit_id)
        tab = iq.permit_inspections(conn, reg.permit_id)
    assert detail is not None
    assert detail.status is PermitStatus.COMPLETED and detail.completed_on == date(2026, 9, 1)
    assert tab is not None and tab.final_passed
    assert [(e.type_label, e.reason, e.by) for e in tab.exceptions] == [
        ("Basement floor", "Slab on grade, no basement", "Ivan Inspector")
    ]


def _electrical_permit(database: Database, clock: FixedClock, reg: Register) -> int:
    uow = database.uow()
    electrician = permits.add_party(
        uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name="North Shore Electric")
    )
    permit_id = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="ELECTRICAL",
            parcel_id=reg.parcel_id,
            description="200 A service and wiring for the new dwelling",
            valuation=Decimal("18000.00"),
            parties=(
                (PartyRole.BUILDING_OWNER, reg.owner_id),
                (PartyRole.ELECTRICIAN, electrician),
            ),
        ),
    )
    _meet_conditions(database, clock, reg, permit_id)
    permits.issue_permit(uow, clock, reg.inspector, permit_id)
    return permit_id


def _meet_conditions(database: Database, clock: FixedClock, reg: Register, permit_id: int) -> None:
    """make_issuable, and the licence numbers the electrical checklist asks to be written down."""
    from desk.domain.checklists import ItemKind, ItemState
    from desk.services import checklists

    _, lines = checklists.checklist_lines(database.uow(), permit_id)
    for line in lines:
        if line.state is ItemState.OPEN and line.kind is ItemKind.TEXT:
            checklists.mark_item(
                database.uow(),
                clock,
                reg.inspector,
                permit_id,
                line.code,
                ItemState.RECEIVED,
                value_text="WI 1234567",
            )
    make_issuable(database, clock, reg.inspector, permit_id)


def test_an_electrical_rough_in_is_due_24_hours_after_the_call_and_its_order_runs_7_days(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    permit_id = _electrical_permit(database, clock, reg)
    clock.set(datetime(2026, 3, 17, 14, 30, tzinfo=UTC))
    r = svc.request_inspection(
        database.uow(),
        clock,
        reg.clerk,
        RequestInput(permit_id, "ELE-ROUGH-IN", "Dan at North Shore Electric", "414-555-0199"),
    )
    assert r.due is not None
    assert r.due.due_at == datetime(2026, 3, 18, 14, 30, tzinfo=UTC)
    assert r.due.section == "15.1.76(c)"
    with database.read() as conn:
        (stop,) = iq.open_requests(conn, reg.municipality_id)
    assert stop.due_at == datetime(2026, 3, 18, 14, 30, tzinfo=UTC)
    out = svc.record_result(
        database.uow(),
        clock,
        reg.inspector,
        ResultInput(r.inspection_id, Result.REJECTED, correction_items="Box fill exceeded"),
    )
    assert out.correct_by == date(2026, 3, 24)  # 7 days, 15.1.76(c)


def test_a_correction_order_runs_30_days_and_is_overdue_from_the_day_after(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    loc = _request(database, clock, reg, "BLD-LOCATION")
    with pytest.raises(ValidationError, match="correction items"):
        _record(database, clock, reg, loc, Result.REJECTED)
    out = _record(
        database, clock, reg, loc, Result.REJECTED, correction_items="Garage 2 ft into setback"
    )
    assert out.correct_by == date(2026, 4, 15)  # 30 days after the notice, 15.1.90(b)(1)
    assert out.correction_order_id is not None
    with database.read() as conn:
        assert iq.overdue_orders(conn, reg.municipality_id, date(2026, 4, 15)) == []
        (late,) = iq.overdue_orders(conn, reg.municipality_id, date(2026, 4, 16))
    assert late.permit_number == "2026-0001" and late.type_label == "Location"
    assert late.rule.status(date(2026, 4, 16)).startswith("Overdue since 04/16/2026 (1 day)")
    # The inspector extends it, with a reason; a clerk may not.
    with pytest.raises(PermissionDenied):
        svc.extend_correction(
            database.uow(), clock, reg.clerk, out.correction_order_id, date(2026, 5, 1), "x"
        )
    with pytest.raises(ValidationError, match="reason"):
        svc.extend_correction(
            database.uow(), clock, reg.inspector, out.correction_order_id, date(2026, 5, 1), ""
        )
    svc.extend_correction(
        database.uow(),
        clock,
        reg.inspector,
        out.correction_order_id,
        date(2026, 5, 1),
        "Surveyor booked",
    )
    with database.read() as conn:
        assert iq.overdue_orders(conn, reg.municipality_id, date(2026, 5, 1)) == []
        (order,) = iq.open_orders(conn, reg.municipality_id)
    assert order.due_on == date(2026, 5, 1)
    assert order.extension_reasons == "to 05/01/2026: Surveyor booked"


def test_a_reinspection_after_a_rejection_adds_the_70_dollar_fee_unless_waived(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    loc = _request(database, clock, reg, "BLD-LOCATION")
    _record(database, clock, reg, loc, Result.REJECTED, correction_items="Stakes missing")
    again = _request(database, clock, reg, "BLD-LOCATION")
    out = _record(database, clock, reg, again, Result.REJECTED, correction_items="Still missing")
    # $50.00 plus the 40 % administrative cost (15.1.21(a)(12)), as the fee engine prices it.
    assert [(f.code, f.amount) for f in out.fees] == [("REINSPECTION", Decimal("70.00"))]
    third = _request(database, clock, reg, "BLD-LOCATION")
    out = _record(
        database, clock, reg, third, Result.PASSED, fee_waiver="Surveyor's error, not the builder's"
    )
    assert out.fees == () and "fee waived — Surveyor's error" in out.waived[0]
    assert _added(database, reg) == [("REINSPECTION", Decimal("70.00"))]
    balance = cashiering.permit_balance(database.uow(), clock, reg.permit_id)
    assert balance.adjustments == Decimal("70.00")
    with database.read() as conn:
        tab = iq.permit_inspections(conn, reg.permit_id)
        orders = iq.open_orders(conn, reg.municipality_id)
    assert tab is not None
    assert [x.fee_waiver for x in tab.inspections] == [
        "",
        "",
        "Surveyor's error, not the builder's",
    ]
    assert orders == []  # the stage passed: its orders are corrected


def test_failures_to_call_cost_70_140_then_210_for_the_same_contractor(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    _pass(database, clock, reg, "BLD-LOCATION")
    amounts = []
    for _ in range(3):
        out = svc.record_failure_to_call(
            database.uow(),
            clock,
            reg.inspector,
            reg.permit_id,
            "BLD-FOOTINGS",
            "Footings poured before the inspection was called for",
        )
        amounts.append(out.fees[0].amount)
    assert amounts == [Decimal("70.00"), Decimal("140.00"), Decimal("210.00")]
    with database.read() as conn:
        tab = iq.permit_inspections(conn, reg.permit_id)
    assert tab is not None
    assert [x.failure_to_call for x in tab.inspections] == [False, True, True, True]
    # No result was recorded: the footing stage has not passed.
    assert [t.code for t in tab.next_types] == ["BLD-FOOTINGS"]


def test_a_failure_to_call_found_on_an_inspection_is_charged_with_it(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    _pass(database, clock, reg, "BLD-LOCATION")
    footing = _request(database, clock, reg, "BLD-FOOTINGS")
    out = _record(
        database,
        clock,
        reg,
        footing,
        Result.PARTIAL,
        notes="Forms in place; one wall already poured",
        failure_to_call=True,
    )
    assert [(f.code, f.amount) for f in out.fees] == [("FAIL-TO-CALL", Decimal("70.00"))]


def _final_requested(database: Database, clock: FixedClock) -> tuple[Register, int]:
    """An issued permit whose stages passed, its final inspection requested."""
    reg = _issued(database, clock)
    for code in ("BLD-LOCATION", "BLD-FOOTINGS", "BLD-FRAMING", "BLD-BASEMENT-FLOOR"):
        _pass(database, clock, reg, code)
    return reg, _request(database, clock, reg, "BLD-FINAL")


def test_certificates_are_numbered_gapless_and_refused_while_an_order_is_open(
    database: Database, clock: FixedClock
) -> None:
    reg, final = _final_requested(database, clock)
    with pytest.raises(RuleViolation, match="The final inspection has not passed"):
        svc.issue_certificate(
            database.uow(), clock, reg.inspector, CertificateInput(reg.permit_id, "Dwelling")
        )
    _record(database, clock, reg, final, Result.REJECTED, correction_items="Handrail missing")
    again = _request(database, clock, reg, "BLD-FINAL")
    # The certificate is refused while the order is open, even once the final passes elsewhere.
    with database.read() as conn:
        (order,) = iq.open_orders(conn, reg.municipality_id)
    assert order.type_label == "Building final"
    with pytest.raises(RuleViolation, match="is still open"):
        svc.issue_certificate(
            database.uow(), clock, reg.inspector, CertificateInput(reg.permit_id, "Dwelling")
        )
    _record(database, clock, reg, again, Result.PASSED, fee_waiver="Minor item")
    with pytest.raises(ValidationError, match="use"):
        svc.issue_certificate(
            database.uow(), clock, reg.inspector, CertificateInput(reg.permit_id, " ")
        )
    first = svc.issue_certificate(
        database.uow(),
        clock,
        reg.inspector,
        CertificateInput(reg.permit_id, "Single-family dwelling (R-3)"),
    )
    second = svc.issue_certificate(
        database.uow(),
        clock,
        reg.inspector,
        CertificateInput(reg.permit_id, "Single-family dwelling with home office"),
    )
    assert (first.number, second.number) == ("2026-0001", "2026-0002")
    with database.read() as conn:
        data = iq.certificate_data(conn, second.certificate_id)
    assert data is not None
    assert (data.permit_number, data.address, data.inspector_name) == (
        "2026-0001",
        "6120 N Port Washington Rd",
        "Ivan Inspector",
    )


def test_a_temporary_certificate_runs_at_most_120_days(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    with pytest.raises(ValidationError, match="safe and sanitary"):
        svc.issue_certificate(
            database.uow(),
            clock,
            reg.inspector,
            CertificateInput(reg.permit_id, "Dwelling", temporary_until=date(2026, 6, 1)),
        )
    with pytest.raises(ValidationError, match="07/14/2026 at the latest"):
        svc.issue_certificate(
            database.uow(),
            clock,
            reg.inspector,
            CertificateInput(
                reg.permit_id, "Dwelling", temporary_until=date(2026, 7, 15), safe_and_sanitary=True
            ),
        )
    out = svc.issue_certificate(
        database.uow(),
        clock,
        reg.inspector,
        CertificateInput(
            reg.permit_id, "Dwelling", temporary_until=date(2026, 7, 14), safe_and_sanitary=True
        ),
    )
    assert out.number == "2026-0001" and out.temporary_until == date(2026, 7, 14)


def test_the_inspectors_day_keeps_the_route_the_inspector_sets(
    database: Database, clock: FixedClock
) -> None:
    reg = _issued(database, clock)
    _pass(database, clock, reg, "BLD-LOCATION")
    permit_2 = _electrical_permit(database, clock, reg)
    a = _request(database, clock, reg, "BLD-FOOTINGS", desired_time="am")
    b = svc.request_inspection(
        database.uow(),
        clock,
        reg.clerk,
        RequestInput(permit_2, "ELE-ROUGH-IN", "Dan", "414-555-0199", desired_time="13:30"),
    ).inspection_id
    with database.read() as conn:
        (ivan_id, ivan) = iq.user_by_name(conn, "ivan") or (0, "")
    day = date(2026, 3, 17)
    with pytest.raises(ValidationError, match="in the past"):
        svc.schedule_inspection(database.uow(), clock, reg.clerk, a, ivan_id, date(2026, 3, 1))
    assert svc.schedule_inspection(database.uow(), clock, reg.clerk, a, ivan_id, day) == 1
    assert svc.schedule_inspection(database.uow(), clock, reg.clerk, b, ivan_id, day) == 2
    assert svc.move_in_route(database.uow(), clock, reg.inspector, b, -1) == 1
    with database.read() as conn:
        stops = iq.inspector_day(conn, ivan_id, day)
        sheet = iq.route_sheet(conn, reg.municipality_id, ivan_id, day)
        week = iq.week(conn, reg.municipality_id, day - timedelta(days=1))
    assert [(s.position, s.permit_number, s.type_label, s.desired_time) for s in stops] == [
        (1, "2026-0002", "Electrical rough-in", "13:30"),
        (2, "2026-0001", "Footings and foundation", "AM"),
    ]
    assert sheet.inspector_name == ivan and len(sheet.stops) == 2
    assert [s.inspection_id for s in week if s.scheduled_on == day] == [b, a]
    svc.cancel_inspection(database.uow(), clock, reg.clerk, b, "Caller is not ready")
    with database.read() as conn:
        stops = iq.inspector_day(conn, ivan_id, day)
    assert [(s.position, s.inspection_id) for s in stops] == [(1, a)]


def test_erosion_sites_get_their_visit_requests_for_the_period(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 4, 6))
    uow = database.uow()
    permit_id = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="EROSION",
            parcel_id=reg.parcel_id,
            description="Erosion control for the new dwelling",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id),),
        ),
    )
    _meet_conditions(database, clock, reg, permit_id)
    permits.issue_permit(uow, clock, reg.inspector, permit_id)
    due = svc.generate_site_visits(database.uow(), clock, reg.clerk, reg.municipality_id)
    assert [(d.permit_number, d.period, d.due, d.requested) for d in due] == [
        ("2026-0001", "April 2026", 1, 1)
    ]
    # Run again the same month: the open request is enough.
    due = svc.generate_site_visits(database.uow(), clock, reg.clerk, reg.municipality_id)
    assert [d.requested for d in due] == [0]
    with database.read() as conn:
        (visit,) = iq.open_requests(conn, reg.municipality_id)
    assert visit.type_label == "Erosion control site" or visit.type_code == "ERO-SITE"
    assert visit.notes == "April 2026: visit 1 of 1 (15.2.9)"


def test_the_route_sheet_command_writes_the_inspectors_day(
    tmp_path: object, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from db.database import open_database
    from db.engine import sqlite_url
    from permitdesk.cli import main
    from tests.cli_sign_in import ready, signed

    assert isinstance(tmp_path, Path)
    path = tmp_path / "cli.db"
    database = open_database(sqlite_url(path))
    reg = _issued(database, clock)
    loc = _request(database, clock, reg, "BLD-LOCATION")
    with database.read() as conn:
        ivan = iq.user_by_name(conn, "Ivan Inspector")
    assert ivan is not None
    svc.schedule_inspection(database.uow(), clock, reg.clerk, loc, ivan[0], date(2026, 3, 17))
    ready(database, "ivan")
    database.close()
    out = tmp_path / "route.pdf"
    args = ["report", "route-sheet", "--db", str(path), "--pdf", str(out)]
    ivans = [*args, "--inspector", "ivan"]
    assert main([*ivans, "--date", "2026-03-17", *signed(monkeypatch, "ivan")]) == 0
    assert out.exists() and out.stat().st_size > 1000
    assert main([*ivans, "--date", "17/03/2026", *signed(monkeypatch, "ivan")]) == 2
    nobodys = [*args, "--inspector", "nobody", "--date", "2026-03-17"]
    assert main([*nobodys, *signed(monkeypatch, "ivan")]) == 2


def test_a_certificate_is_issued_with_an_unpaid_reinspection_fee_named(
    database: Database, clock: FixedClock
) -> None:
    # 15.1.13 names the certificate's conditions; a fee charged since issuance is not one.
    reg, final = _final_requested(database, clock)
    _record(database, clock, reg, final, Result.REJECTED, correction_items="Handrail missing")
    again = _request(database, clock, reg, "BLD-FINAL")
    out = _record(database, clock, reg, again, Result.PASSED)
    assert [(f.code, f.amount) for f in out.fees] == [("REINSPECTION", Decimal("70.00"))]
    cert = svc.issue_certificate(
        database.uow(), clock, reg.inspector, CertificateInput(reg.permit_id, "Dwelling")
    )
    assert cert.number == "2026-0001"
    assert cert.balance_due == Decimal("70.00")
