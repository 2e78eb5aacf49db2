"""Reports (issue 8) on SQLite and PostgreSQL: the figures agree wherever they appear — the annual
fees equal the twelve monthly reports and the treasurer's reconciliation, the permits issued
equal the BLDS rows issued that year, the Census units equal the dwelling units on the new
residential permits — on a hand-built office year and on a small demo; Act 211 filing dates are
recorded, flagged and linked to cashiering's refund."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from db import report_queries as q
from db.database import Database
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.domain.enums import PartyRole
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering as cash
from desk.services import fees, permits
from desk.services import reports as svc
from tests.factories import Register, application, make_issuable, seed_register

D = Decimal
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
)  # $404.00 + the $35.00 state seal = $439.00
REROOF = QuoteRequest(items=(QuoteItem("RES-OTHER", amount=D("100.00")),))  # $140.00


@dataclass
class Office:
    """One office year, made through the services (see `office` below)."""

    db: Database
    clock: FixedClock
    reg: Register
    house: int
    duplex: int
    apartments: int
    addition: int
    reroof: int
    prior: int

    @property
    def mid(self) -> int:
        return self.reg.municipality_id


def _apply(office_reg: Register, db: Database, clock: FixedClock, **kw: Any) -> int:
    a = permits.ApplicationInput(
        municipality_id=office_reg.municipality_id,
        parcel_id=office_reg.parcel_id,
        parties=((PartyRole.BUILDING_OWNER, office_reg.owner_id),),
        **kw,
    )
    return permits.take_application(db.uow(), clock, office_reg.clerk, a)


def _issue_on(db: Database, clock: FixedClock, reg: Register, permit_id: int, day: date) -> None:
    """Meet the conditions and pay what is due in cash that day, then issue."""
    clock.set(day)
    make_issuable(db, clock, reg.admin, permit_id)
    permits.issue_permit(db.uow(), clock, reg.inspector, permit_id)


def _close_and_deliver(db: Database, clock: FixedClock, reg: Register) -> int:
    day = clock.today()
    expected = cash.drawer_day(db.uow(), reg.municipality_id, cash.DEFAULT_DRAWER, day).expected
    close = cash.close_day(
        db.uow(), clock, reg.clerk, reg.municipality_id, cash.DEFAULT_DRAWER, day, expected
    )
    return cash.create_turnover(db.uow(), clock, reg.clerk, reg.municipality_id, [close])


def _office(db: Database) -> Office:
    """From November 2024 to December 2025: a house, a two-family dwelling, a six-unit
    apartment building, an addition and a reroof issued in 2025; a reroof in 2024; cash
    receipts turned over to the treasurer, a voided check, and an Act 211 refund."""
    clock = FixedClock(date(2024, 11, 1))
    reg = seed_register(db, clock)
    uow = db.uow()
    house = reg.permit_id  # 1 unit, $412,500 (tests/factories.py)
    duplex = _apply(
        reg,
        db,
        clock,
        kind="RES-NEW-DWELLING",
        description="New two-family dwelling",
        valuation=D("520000.00"),
        floor_area_sqft=3200,
        dwelling_units=2,
    )
    apartments = _apply(
        reg,
        db,
        clock,
        kind="COM-NEW",
        description="Six-unit apartment building",
        valuation=D("1250000.00"),
        floor_area_sqft=7400,
        dwelling_units=6,
    )
    addition = _apply(
        reg,
        db,
        clock,
        kind="RES-ADDITION",
        description="In-law suite addition",
        valuation=D("80000.00"),
        floor_area_sqft=500,
        dwelling_units=1,
    )
    reroof = permits.take_application(uow, clock, reg.clerk, application(reg))
    prior = permits.take_application(uow, clock, reg.clerk, application(reg, "Reroof garage"))
    for permit_id, quote in (
        (house, NEW_HOUSE),
        (duplex, NEW_HOUSE),
        (reroof, REROOF),
        (prior, REROOF),
    ):
        fees.assess_fees(uow, clock, reg.clerk, permit_id, quote)

    _issue_on(db, clock, reg, prior, date(2024, 12, 18))  # $140 cash
    _close_and_deliver(db, clock, reg)
    _issue_on(db, clock, reg, house, date(2025, 2, 10))  # $439 cash
    _close_and_deliver(db, clock, reg)
    _issue_on(db, clock, reg, duplex, date(2025, 3, 5))  # $439 cash
    _close_and_deliver(db, clock, reg)
    _issue_on(db, clock, reg, apartments, date(2025, 3, 20))  # no fees
    # The house was filed with the state after March 15: its fees go back, except the seal.
    svc.record_state_filing(uow, clock, reg.clerk, house, date(2025, 3, 20), "UDC 1120-55")
    svc.record_state_filing(uow, clock, reg.inspector, duplex, date(2025, 3, 20))
    clock.set(date(2025, 3, 25))
    cash.refund(
        uow, clock, reg.treasurer, svc.act211_refund_input(uow, house, "20458", clock.today())
    )
    _issue_on(db, clock, reg, addition, date(2025, 4, 2))  # no fees
    cash.create_turnover(uow, clock, reg.clerk, reg.municipality_id, [])  # the refund goes out
    clock.set(date(2025, 6, 1))
    check = cash.take_payment(
        uow,
        clock,
        reg.clerk,
        cash.PaymentInput(
            municipality_id=reg.municipality_id,
            tender=Tender(
                PaymentMethod.CHECK,
                D("50.00"),
                check_number="881",
                check_drawer="Anna Schmidt",
                check_bank="Associated Bank",
            ),
            allocations=(Allocation(reroof, D("50.00")),),
            payer_name="Anna Schmidt",
        ),
    )
    cash.void_payment(uow, clock, reg.clerk, check.payment_id, "wrong permit")
    _issue_on(db, clock, reg, reroof, date(2025, 12, 30))  # $140 cash, not yet turned over
    clock.set(date(2026, 1, 5))
    return Office(db, clock, reg, house, duplex, apartments, addition, reroof, prior)


@pytest.fixture
def office(database: Database) -> Office:
    return _office(database)


YEAR = r.year_period(2025)


def test_the_annual_fees_equal_the_twelve_monthly_reports_and_the_reconciliation(
    office: Office,
) -> None:
    with office.db.read() as conn:
        annual = q.annual_report(conn, office.mid, 2025)
        months = [q.monthly_report(conn, office.mid, 2025, m) for m in range(1, 13)]
    rec = cash.reconciliation(office.db.uow(), office.clock, office.mid, YEAR.start, YEAR.end)
    # Receipts $439 + $439 + $50 + $140, the $50 check voided, $404 refunded (Act 211).
    assert rec.net == D("614.00")
    assert annual.fees_total == D("614.00")
    assert annual.headline.fees_collected == D("614.00")
    assert sum((m.total.month.fees_received for m in months), D(0)) == D("614.00")
    assert sum((m.fees for m in annual.by_month), D(0)) == D("614.00")
    assert sum((d.amount for d in annual.receipts_by_day), D(0)) == D("614.00")
    assert months[11].total.ytd.fees_received == D("614.00")  # December's year to date
    by_account = {a.number: a for a in annual.fees_by_account}
    assert by_account["100-24210"].net == D("70.00")  # both state seals kept
    assert by_account["100-44300"].refunds == D("-404.00")
    # Delivered to the Treasurer: February's and March's days, then the refund's check.
    delivered = sum((m.total.month.fees_delivered for m in months), D(0))
    assert delivered == D("474.00")
    assert sum((t.amount for m in months for t in m.turnovers), D(0)) == D("474.00")
    assert [m.total.month.fees_delivered for m in months][1:4] == [
        D("439.00"),
        D("439.00"),
        D("-404.00"),
    ]
    # The year before: the garage reroof's $140, delivered on December 18.
    assert annual.previous.fees_collected == D("140.00")


def test_the_permits_issued_equal_the_blds_rows_issued_that_year(office: Office) -> None:
    with office.db.read() as conn:
        annual = q.annual_report(conn, office.mid, 2025)
        rows = list(q.blds_permit_rows(conn, office.mid))
    issued = q.BLDS_PERMIT_FIELDS.index("IssuedDate")
    in_year = [x for x in rows if x[issued].startswith("2025-")]
    assert annual.headline.permits_issued == len(in_year) == 5
    assert annual.previous.permits_issued == 1
    assert annual.headline.valuation == D("2277300.00")  # 412,500 + 520,000 + 1,250,000 + ...
    assert sum((k.count for k in annual.by_kind), 0) == 5
    assert [b.number for b in annual.buildings] == ["2025-0001", "2025-0002", "2025-0003"]
    assert annual.headline.buildings_erected == 3
    assert annual.headline.new_dwelling_units == 9  # the addition adds no new building


def test_the_census_units_equal_the_dwelling_units_of_the_new_residential_permits(
    office: Office,
) -> None:
    with office.db.read() as conn:
        c404 = q.c404_report(conn, office.mid, YEAR)
        units = q.new_residential_units(conn, office.mid, YEAR)
        march = q.c404_report(conn, office.mid, r.month_period(2025, 3))
        may = q.c404_report(conn, office.mid, r.month_period(2025, 5))
    assert c404.total.units == units == 9
    rows = {line.row.value: (line.buildings, line.units, line.valuation) for line in c404.lines}
    assert rows == {
        "101": (1, 1, D("412500")),
        "103": (1, 2, D("520000")),
        "104": (0, 0, D("0")),
        "105": (1, 6, D("1250000")),
        "109": (3, 9, D("2182500")),
    }
    assert [(d.number, d.units, d.valuation) for d in c404.details] == [
        ("2025-0003", 6, D("1250000"))
    ]
    assert march.total.buildings == 2 and not march.no_permits
    assert may.no_permits


def test_the_monthly_report_counts_applications_grants_and_finals_per_trade(
    office: Office,
) -> None:
    with office.db.read() as conn:
        march = q.monthly_report(conn, office.mid, 2025, 3)
        electrical = q.monthly_report(conn, office.mid, 2025, 3, "electrical")
    building = next(x for x in march.rows if x.trade == "building")
    assert (building.month.granted, building.month.valuation) == (2, D("1770000.00"))
    assert building.month.fees_received == D("35.00")  # $439 received, $404 refunded
    assert building.ytd.granted == 3
    assert building.last_year.granted == 0
    assert march.due.due == date(2025, 4, 10)
    assert [p.number for p in march.permits_granted] == ["2025-0002", "2025-0003"]
    assert electrical.total.month.granted == 0 and len(electrical.rows) == 1
    assert electrical.due.what.startswith("Electrical inspector's monthly report")


def test_act_211_lists_what_is_filed_late_refunded_due_and_overdue(office: Office) -> None:
    with office.db.read() as conn:
        feb = q.act211_report(conn, office.mid, 2025, 2, date(2025, 4, 1))
        march = q.act211_report(conn, office.mid, 2025, 3, date(2025, 4, 1))
    (house,) = feb.lines
    assert (house.filed_on, house.reference, house.state) == (
        date(2025, 3, 20),
        "UDC 1120-55",
        r.FilingState.FILED_LATE,
    )
    assert (house.fees_paid, house.seal_paid, house.refunded) == (
        D("439.00"),
        D("35.00"),
        D("404.00"),
    )
    assert (house.refund_due, house.flag) == (D("0.00"), "Refunded")
    (duplex,) = march.lines
    assert duplex.state is r.FilingState.FILED and not duplex.refund_required
    assert march.due.due == date(2025, 4, 15)


def test_an_unfiled_dwelling_is_due_then_overdue_with_its_refund_quoted_by_cashiering(
    database: Database,
) -> None:
    clock = FixedClock(date(2026, 3, 2))
    reg = seed_register(database, clock)
    uow = database.uow()
    fees.assess_fees(uow, clock, reg.clerk, reg.permit_id, NEW_HOUSE)
    _issue_on(database, clock, reg, reg.permit_id, date(2026, 3, 2))
    with database.read() as conn:
        line = q.permit_act211(conn, reg.permit_id, date(2026, 4, 15))
    assert line is not None and line.state is r.FilingState.DUE
    assert svc.act211_refund_quote(uow, clock, reg.permit_id).amount == 0
    clock.set(date(2026, 4, 16))
    with database.read() as conn:
        report = q.act211_report(conn, reg.municipality_id, 2026, 3, clock.today())
    (line,) = report.lines
    assert line.state is r.FilingState.OVERDUE
    assert (line.refund_due, line.flag) == (D("404.00"), "Refund fees (except the state seal)")
    quote = svc.act211_refund_quote(uow, clock, reg.permit_id)
    assert (quote.amount, quote.kept) == (D("404.00"), D("35.00"))
    # An overdue permit from last month still shows in May's report.
    with database.read() as conn:
        may = q.act211_report(conn, reg.municipality_id, 2026, 4, clock.today())
    assert [x.number for x in may.earlier] == [line.number]


def test_a_filing_date_is_recorded_corrected_and_audited(database: Database) -> None:
    clock = FixedClock(date(2026, 3, 2))
    reg = seed_register(database, clock)
    uow = database.uow()
    _issue_on(database, clock, reg, reg.permit_id, date(2026, 3, 2))
    clock.set(date(2026, 3, 20))
    with pytest.raises(ValidationError, match="filed on: must not be in the future"):
        svc.record_state_filing(uow, clock, reg.clerk, reg.permit_id, date(2026, 3, 21))
    with pytest.raises(ValidationError, match="is before the permit was issued"):
        svc.record_state_filing(uow, clock, reg.clerk, reg.permit_id, date(2026, 3, 1))
    with pytest.raises(PermissionDenied):
        svc.record_state_filing(uow, clock, reg.treasurer, reg.permit_id, date(2026, 3, 10))
    first = svc.record_state_filing(uow, clock, reg.clerk, reg.permit_id, date(2026, 3, 10))
    assert first.state is r.FilingState.FILED
    svc.record_state_filing(uow, clock, reg.inspector, reg.permit_id, date(2026, 3, 12), "A-7")
    assert svc.filed_on(uow, reg.permit_id) == date(2026, 3, 12)
    from db.queries import permit_history

    with database.read() as conn:
        history = permit_history(conn, reg.permit_id)
    changes = [
        (c.field, c.old, c.new) for e in history if e.entity == "state_filing" for c in e.changes
    ]
    assert ("filed_on", "2026-03-10", "2026-03-12") in changes
    reroof = permits.take_application(uow, clock, reg.clerk, application(reg))
    with pytest.raises(RuleViolation, match="not for a new one- or two-family dwelling"):
        svc.record_state_filing(uow, clock, reg.clerk, reroof, date(2026, 3, 12))


# --------------------------------------------------------------------------- a small demo


@pytest.fixture
def demo(database: Database) -> tuple[Database, FixedClock, Any]:
    """A small demo register: two years of permits with their receipts, voids, daily closes and
    turnovers (db/demo.py)."""
    from db.demo import DemoSpec, build_demo

    build_demo(database, DemoSpec(years=2, per_year=60, seed=3, today=date(2026, 11, 30)))
    with database.read() as conn:
        mid = q.municipality_id_for(conn, None)
    return database, FixedClock(date(2026, 11, 30)), mid


def test_on_a_small_demo_every_report_agrees_with_the_others(
    demo: tuple[Database, FixedClock, Any],
) -> None:
    database, clock, mid = demo
    with database.read() as conn:
        annual = q.annual_report(conn, mid, 2026)
        months = [q.monthly_report(conn, mid, 2026, m) for m in range(1, 13)]
        rows = list(q.blds_permit_rows(conn, mid))
        c404 = q.c404_report(conn, mid, r.year_period(2026))
        units = q.new_residential_units(conn, mid, r.year_period(2026))
        turned_over = sum((t.amount for t in q.turnovers(conn, mid, r.year_period(2026))), D(0))
    rec = cash.reconciliation(database.uow(), clock, mid, date(2026, 1, 1), date(2026, 12, 31))
    assert rec.net > 0  # the demo takes fees at the counter
    assert annual.fees_total == rec.net == annual.headline.fees_collected
    assert sum((m.total.month.fees_received for m in months), D(0)) == rec.net
    assert sum((m.fees for m in annual.by_month), D(0)) == rec.net
    delivered = sum((m.total.month.fees_delivered for m in months), D(0))
    assert delivered == turned_over > 0
    issued = q.BLDS_PERMIT_FIELDS.index("IssuedDate")
    assert annual.headline.permits_issued == sum(1 for x in rows if x[issued][:4] == "2026") > 0
    assert sum(m.total.month.granted for m in months) == annual.headline.permits_issued
    assert c404.total.units == units == annual.headline.new_dwelling_units
    assert len(annual.register) == annual.headline.permits_issued
    assert sum((x.valuation for x in annual.register), D(0)) == annual.headline.valuation
