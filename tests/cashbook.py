"""A cashier's day made through the services, shared by the report, CLI and screen tests.

Monday 2 March 2026 at the Glendale counter:
  2026-0001  check no. 1042 (Associated Bank) from Badger State Builders LLC, $579.00:
             the new dwelling ($439.00: $404.00 building + $35.00 state seal) and the reroof
             ($140.00), one check for two permits
  2026-0002  cash $100.00 from Anna Schmidt toward the electrical permit ($168.00) — voided
             ("typed on the wrong permit")
  2026-0003  cash $168.00 from Anna Schmidt, the electrical permit in full
The drawer is counted $5.00 short in cash ("change given twice"), closed, turned over by the
clerk and acknowledged by the treasurer with bank deposit DEP-0302.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from db.database import Database
from desk.clock import FixedClock
from desk.domain.cashiering import Allocation, MethodTotals, PaymentMethod, Tender
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering as cash
from desk.services import fees, permits
from tests.factories import Register, application, seed_register

D = Decimal
DAY = date(2026, 3, 2)
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
)  # $404.00 + $35.00 = $439.00
REROOF = QuoteRequest(items=(QuoteItem("RES-OTHER", amount=D("100.00")),))  # $140.00
WIRING = QuoteRequest(items=(QuoteItem("ELECTRICAL", amount=D("120.00")),))  # $168.00


@dataclass
class CashDay:
    database: Database
    clock: FixedClock
    reg: Register
    house: int
    reroof: int
    wiring: int
    check_receipt: int  # payment id of 2026-0001
    voided_receipt: int  # 2026-0002
    cash_receipt: int  # 2026-0003
    close_id: int | None = None
    turnover_id: int | None = None


def pay(
    day: CashDay,
    method: PaymentMethod,
    payer: str,
    *allocations: tuple[int, str],
    **tender: str,
) -> cash.PaymentResult:
    total = sum((D(a) for _, a in allocations), D(0))
    return cash.take_payment(
        day.database.uow(),
        day.clock,
        day.reg.clerk,
        cash.PaymentInput(
            municipality_id=day.reg.municipality_id,
            tender=Tender(method, total, **tender),
            allocations=tuple(Allocation(p, D(a)) for p, a in allocations),
            payer_name=payer,
        ),
    )


def open_day(database: Database, clock: FixedClock) -> CashDay:
    """The three receipts and the void; the drawer still open."""
    reg = seed_register(database, clock)
    uow = database.uow()
    fees.assess_fees(uow, clock, reg.clerk, reg.permit_id, NEW_HOUSE)
    reroof = permits.take_application(uow, clock, reg.clerk, application(reg))
    fees.assess_fees(uow, clock, reg.clerk, reroof, REROOF)
    wiring = permits.take_application(uow, clock, reg.clerk, application(reg, "200 A service"))
    fees.assess_fees(uow, clock, reg.clerk, wiring, WIRING)
    day = CashDay(database, clock, reg, reg.permit_id, reroof, wiring, 0, 0, 0)
    day.check_receipt = pay(
        day,
        PaymentMethod.CHECK,
        "Badger State Builders LLC",
        (day.house, "439.00"),
        (day.reroof, "140.00"),
        check_number="1042",
        check_drawer="Badger State Builders LLC",
        check_bank="Associated Bank",
    ).payment_id
    day.voided_receipt = pay(
        day, PaymentMethod.CASH, "Anna Schmidt", (day.wiring, "100.00")
    ).payment_id
    cash.void_payment(uow, clock, reg.clerk, day.voided_receipt, "typed on the wrong permit")
    day.cash_receipt = pay(
        day, PaymentMethod.CASH, "Anna Schmidt", (day.wiring, "168.00")
    ).payment_id
    return day


def close_the_day(day: CashDay) -> int:
    """Counted: the check, and $163.00 cash of the $168.00 expected."""
    day.close_id = cash.close_day(
        day.database.uow(),
        day.clock,
        day.reg.clerk,
        day.reg.municipality_id,
        cash.DEFAULT_DRAWER,
        day.clock.today(),
        MethodTotals(cash=D("163.00"), check=D("579.00")),
        "change given twice",
    )
    return day.close_id


def turned_over(database: Database, clock: FixedClock) -> CashDay:
    """The whole day: closed, turned over by the clerk, acknowledged by the treasurer."""
    day = open_day(database, clock)
    close_the_day(day)
    uow = database.uow()
    day.turnover_id = cash.create_turnover(
        uow, clock, day.reg.clerk, day.reg.municipality_id, [day.close_id or 0]
    )
    cash.acknowledge_turnover(
        uow, clock, day.reg.treasurer, day.turnover_id, clock.today(), "DEP-0302", D("742.00")
    )
    return day
