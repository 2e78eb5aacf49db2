"""Reports (issue 8) on SQLite and PostgreSQL: the figures agree wherever they appear — the annual
fees equal the twelve monthly reports and the treasurer's reconciliation, the permits issued
equal the BLDS rows issued that year, the Census units equal the dwelling units on the new
residential permits — on a hand-built office year and on a small demo; Act 211 filing dates are
recorded, flagged and linked to cashiering's refund."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from db import report_queries as q
from db.database import Database
from desk.clock import FixedClock
from desk.domain import reports as r
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.domain.enums import PartyRole, Role
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering as cash
from desk.services import fees, permits, users
from desk.services import reports as svc
from desk.services import sureties as sure
from tests.factories import PASSWORD, Register, application, make_issuable, seed_register

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


def _office(db: Database, *, deposits: bool = False) -> Office:
    """From November 2024 to December 2025: a house, a two-family dwelling, a six-unit
    apartment building, an addition and a reroof issued in 2025; a reroof in 2024; cash
    receipts turned over to the treasurer, a voided check, and an Act 211 refund. With
    `deposits`, 2025 also has two street deposits, one returned and one partly retained by the
    Council, and a check returned unpaid (_deposits_and_nsf)."""
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
    check = _schmidt_check(uow, clock, reg, reroof, D("50.00"), "881")
    cash.void_payment(uow, clock, reg.clerk, check.payment_id, "wrong permit")
    if deposits:
        _deposits_and_nsf(db, clock, reg, reroof)
    _issue_on(db, clock, reg, reroof, date(2025, 12, 30))  # $140 cash, not yet turned over
    clock.set(date(2026, 1, 5))
    return Office(db, clock, reg, house, duplex, apartments, addition, reroof, prior)


def _schmidt_check(
    uow: Any, clock: FixedClock, reg: Register, permit_id: int, amount: Decimal, number: str
) -> Any:
    """Anna Schmidt pays `amount` on the permit by her check `number`."""
    return cash.take_payment(
        uow,
        clock,
        reg.clerk,
        cash.PaymentInput(
            municipality_id=reg.municipality_id,
            tender=Tender(PaymentMethod.CHECK, amount, number, "Anna Schmidt", "Associated Bank"),
            allocations=(Allocation(permit_id, amount),),
            payer_name="Anna Schmidt",
        ),
    )


def _deposits_and_nsf(db: Database, clock: FixedClock, reg: Register, reroof: int) -> None:
    """2025's money that is not the city's fees, and a returned check:
    June 2    two $500 street deposits paid by check (15.1.43), turned over the same day
    July 1    a $140 check for the reroof, turned over; July 15 it comes back unpaid (NSF)
    Nov 3     the Council retains $200 of the second deposit (resolution of October 28): it
              becomes revenue in 100-46710 that day; $300 of it is still held on December 31
    Dec 5     the first deposit returned in full by the clerk's check no. 10441 on the City
              Engineer's order, 183 days after the work was completed on June 5."""
    uow = db.uow()
    users.create_user(
        uow,
        clock,
        reg.admin,
        username="erin",
        full_name="Erin Engineer",
        password=PASSWORD,
        roles={Role.ENGINEER},
    )
    engineer = users.authenticate(uow, "erin", PASSWORD)
    clock.set(date(2025, 6, 2))
    deposit_ids = []
    for check, street in (("2231", "W Bender Rd"), ("2232", "N Port Washington Rd")):
        sewer = _apply(
            reg, db, clock, kind="SEWER-WATER", description=f"Sanitary lateral, {street}"
        )
        deposit_id, paid = sure.take_deposit(
            uow,
            clock,
            reg.clerk,
            sure.DepositInput(
                permit_id=sewer,
                depositor="North Shore Plumbing Co",
                depositor_address="5800 N Bayshore Dr, Glendale WI 53217",
                amount=D("500.00"),
            ),
            Tender(PaymentMethod.CHECK, D("500.00"), check, "North Shore Plumbing Co", "Tri City"),
        )
        assert paid is not None
        deposit_ids.append(deposit_id)
    _close_and_deliver(db, clock, reg)
    clock.set(date(2025, 6, 5))
    sure.record_completion(uow, clock, reg.inspector, deposit_ids[0], date(2025, 6, 5))
    clock.set(date(2025, 7, 1))
    bounced = _schmidt_check(uow, clock, reg, reroof, D("140.00"), "902")
    _close_and_deliver(db, clock, reg)
    clock.set(date(2025, 7, 15))
    cash.return_nsf(uow, clock, reg.treasurer, bounced.payment_id, "7/14 NSF notice, ref 5512")
    cash.create_turnover(uow, clock, reg.clerk, reg.municipality_id, [])  # the NSF goes out
    clock.set(date(2025, 11, 3))
    sure.retain_deposit(
        uow,
        clock,
        reg.clerk,
        deposit_ids[1],
        "R-2025-41",
        date(2025, 10, 28),
        D("200.00"),
        "Trench patch settled; the City re-paves it",
    )
    clock.set(date(2025, 12, 5))
    sure.order_deposit_refund(uow, clock, engineer, deposit_ids[0])
    sure.refund_deposit(uow, clock, reg.clerk, deposit_ids[0], "10441", date(2025, 12, 5))
    cash.create_turnover(uow, clock, reg.clerk, reg.municipality_id, [])  # the check goes out


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
    # Fees collected are the city's revenue accounts only: the two $35 state seals are collected
    # for the state (15.1.21(a)(1)a), so $614 − $70.
    assert annual.fees_total == D("544.00")
    assert annual.headline.fees_collected == D("544.00")
    assert sum((m.total.month.fees_received for m in months), D(0)) == D("544.00")
    assert sum((m.fees for m in annual.by_month), D(0)) == D("544.00")
    assert sum((d.amount for d in annual.receipts_by_day), D(0)) == D("544.00")
    assert months[11].total.ytd.fees_received == D("544.00")  # December's year to date
    by_account = {a.number: a for a in annual.fees_by_account}
    assert by_account["100-24210"].net == D("70.00")  # both state seals kept
    assert by_account["100-24210"].money_class is r.MoneyClass.FOR_OTHERS
    assert by_account["100-44300"].refunds == D("-404.00")
    assert annual.money == r.MoneySplit(fees_collected=D("544.00"), for_others=D("70.00"))
    assert annual.money.total == rec.net == r.reconciliation_split(rec.accounts).total
    # Delivered to the Treasurer: February's and March's days, then the refund's check; the
    # turnovers carry the seals too ($404 + $404 − $404 of fees, $70 of seals).
    delivered = sum((m.total.month.fees_delivered for m in months), D(0))
    assert delivered == D("404.00")
    assert sum((t.amount for m in months for t in m.turnovers), D(0)) == D("474.00")
    assert [m.total.month.fees_delivered for m in months][1:4] == [
        D("404.00"),
        D("404.00"),
        D("-404.00"),
    ]
    assert sum((m.money.for_others for m in months), D(0)) == D("70.00")
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
    # $439 received ($404 fee + the $35 state seal, not the city's), $404 refunded.
    assert building.month.fees_received == D("0.00")
    assert march.money.for_others == D("35.00")
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
    fees = annual.fees_total
    assert fees == annual.headline.fees_collected == annual.money.fees_collected > 0
    assert annual.money.total == rec.net == r.reconciliation_split(rec.accounts).total
    assert sum((m.total.month.fees_received for m in months), D(0)) == fees
    assert sum((m.fees for m in annual.by_month), D(0)) == fees
    assert sum((m.money.total for m in months), D(0)) == rec.net
    delivered = sum((m.total.month.fees_delivered for m in months), D(0))
    assert 0 < delivered <= turned_over
    issued = q.BLDS_PERMIT_FIELDS.index("IssuedDate")
    assert annual.headline.permits_issued == sum(1 for x in rows if x[issued][:4] == "2026") > 0
    assert sum(m.total.month.granted for m in months) == annual.headline.permits_issued
    assert c404.total.units == units == annual.headline.new_dwelling_units
    assert len(annual.register) == annual.headline.permits_issued
    assert sum((x.valuation for x in annual.register), D(0)) == annual.headline.valuation


# --------------------------------------------------------------------------- money not the city's


@pytest.fixture
def money_office(database: Database) -> Office:
    return _office(database, deposits=True)


def test_fees_collected_are_the_city_revenue_and_the_reconciliation_still_balances(
    money_office: Office, tmp_path: Path
) -> None:
    """A year with street deposits paid, returned and retained, a void, a returned check and a
    refund: fees collected count the city's revenue accounts only (15.1.6(c)); the state seals
    are collected for others (15.1.21(a)(1)a); deposits are their own lines (15.1.43)."""
    o = money_office
    with o.db.read() as conn:
        annual = q.annual_report(conn, o.mid, 2025)
        months = [q.monthly_report(conn, o.mid, 2025, m) for m in range(1, 13)]
    rec = cash.reconciliation(o.db.uow(), o.clock, o.mid, YEAR.start, YEAR.end)
    # Receipts $439 + $439 + $50 + $500 + $500 + $140 + $140 = $2,208; the $50 check voided,
    # the $140 check returned, $404 (Act 211) and the $500 deposit refunded.
    assert (rec.receipts, rec.voids, rec.nsf, rec.refunds) == (
        D("2208.00"),
        D("50.00"),
        D("140.00"),
        D("904.00"),
    )
    assert rec.net == D("1114.00") and rec.balanced and rec.gl_balanced
    # $404 + $404 − $404 refunded + $140 (the reroof, paid again in December) + the $200 the
    # Council retained, which became revenue on November 3.
    expected = r.MoneySplit(
        fees_collected=D("744.00"),
        for_others=D("70.00"),
        deposits_received=D("1000.00"),
        deposits_returned=D("-500.00"),
        deposits_retained=D("-200.00"),
    )
    assert annual.money == expected == r.reconciliation_split(rec.accounts)
    assert expected.total == rec.net
    assert annual.fees_total == annual.headline.fees_collected == D("744.00")
    assert sum((m.fees for m in annual.by_month), D(0)) == D("744.00")
    assert sum((d.amount for d in annual.receipts_by_day), D(0)) == D("744.00")
    assert sum((m.total.month.fees_received for m in months), D(0)) == D("744.00")
    assert months[10].total.month.fees_received == D("200.00")  # November: the retention
    assert months[10].money.deposits_retained == D("-200.00")
    assert months[5].total.month.fees_received == D("0.00")  # June: deposits only
    assert months[5].money.deposits_received == D("1000.00")
    assert months[6].money.fees_collected == D("0.00")  # July: the check and its return
    assert sum((m.money.total for m in months), D(0)) == rec.net
    by_account = {a.number: a for a in annual.fees_by_account}
    assert by_account["100-46710"].net == D("200.00") and by_account["100-46710"].is_fee
    assert by_account["100-23100"].money_class is r.MoneyClass.DEPOSITS
    assert by_account["100-23100"].net == D("300.00")
    assert "100-23100" not in {c.label for c in annual.fees_by_category}
    s = annual.sureties
    assert (s.deposits_opening, s.deposits_received, s.deposits_returned) == (
        D("0.00"),
        D("1000.00"),
        D("-500.00"),
    )
    assert (s.deposits_retained, s.deposits_closing) == (D("-200.00"), D("300.00"))
    assert rec.account("100-23100").closing == D("300.00")
    # Delivered to the Treasurer: fees only; the turnovers carry all the money.
    delivered = sum((m.total.month.fees_delivered for m in months), D(0))
    assert delivered == D("404.00")  # $404 + $404 − $404; the December reroof is not turned over
    turned_over = sum((t.amount for m in months for t in m.turnovers), D(0))
    assert turned_over == rec.acknowledged + rec.pending == rec.net - rec.undeposited
    # The treasurer's workbook: the proof, then the same split, adding up to the net.
    from openpyxl import load_workbook

    from reports.cash_reports import export_reconciliation_xlsx

    out = tmp_path / "reconciliation.xlsx"
    export_reconciliation_xlsx(rec, "City of Glendale", out)
    ws = load_workbook(out)["Proof"]
    cells = {ws.cell(row=n, column=1).value: ws.cell(row=n, column=2).value for n in range(1, 40)}
    assert cells["Fees collected (city revenue accounts)"] == 744
    assert cells["Collected for others (state seal, other governments)"] == 70
    assert cells["Street deposits received"] == 1000
    assert cells["Street deposits returned"] == -500
    assert cells["Street deposits retained by the Council (now city revenue)"] == -200
    assert str(cells["Net money received"]).startswith("=SUM(B")
    assert "The money by whose it is adds up to the net collections." in cells
    assert "Balanced: every dollar received is in a turnover or still undeposited." in cells
