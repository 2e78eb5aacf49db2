"""A Glendale register with one plumbing contractor typed twice, for the People tests: the
record the office keeps (its master plumber licence on record) and a duplicate of it named on a
plumbing permit and on the payment for it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from db.database import Database
from desk.clock import FixedClock
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.domain.enums import CredentialKind, PartyKind, PartyRole
from desk.domain.model import Party
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering, fees, permits
from desk.services.people import credentials
from tests.factories import Register, seed_register

LICENCE_EXPIRES = date(2026, 2, 28)  # lapsed two days before the tests' day (03/02/2026)


@dataclass
class Contractors:
    reg: Register
    kept: int  # Dahl Plumbing LLC, with its licence MP-1234
    duplicate: int  # the same company typed again at the counter
    credential_id: int  # MP-1234
    kept_permit: int  # the record kept is its master plumber
    plumbing_permit: int  # the duplicate is its master plumber
    receipt: str  # the duplicate paid for it


def dahl(**fields: object) -> Party:
    values: dict[str, object] = {
        "kind": PartyKind.ORGANIZATION,
        "name": "Dahl Plumbing LLC",
        "address_line1": "N89 W14650 Pilgrim Rd",
        "city": "Brookfield",
        "zip": "53045",
        "phone": "(414) 894-5084",
        "email": "office@dahlplumbing.example.com",
    }
    values.update(fields)
    return Party(**values)  # type: ignore[arg-type]


def contractors(database: Database, clock: FixedClock) -> Contractors:
    reg = seed_register(database, clock)
    uow = database.uow()
    kept = permits.add_party(uow, clock, reg.clerk, dahl())
    credential_id = credentials.record_credential(
        uow,
        clock,
        reg.clerk,
        kept,
        credentials.CredentialInput(CredentialKind.MASTER_PLUMBER, "MP-1234", LICENCE_EXPIRES),
    )
    kept_permit = plumbing_application(reg, clock, database, kept, "New water softener")
    duplicate = permits.add_party(
        uow,
        clock,
        reg.clerk,
        dahl(address_line1="N89W14650 Pilgrim Road", phone="", email=""),
    )
    plumbing = plumbing_application(reg, clock, database, duplicate, "Replace the water heater")
    # 15.1.21(d)(1): $45.00 entered from the plumbing application, plus the administrative cost.
    fees.assess_fees(
        uow,
        clock,
        reg.clerk,
        plumbing,
        QuoteRequest(items=(QuoteItem("PLUMBING", amount=Decimal("45.00")),)),
    )
    due = cashiering.permit_balance(uow, clock, plumbing).due
    paid = cashiering.take_payment(
        uow,
        clock,
        reg.clerk,
        cashiering.PaymentInput(
            municipality_id=reg.municipality_id,
            tender=Tender(PaymentMethod.CASH, due),
            allocations=(Allocation(plumbing, due),),
            payer_name="Dahl Plumbing LLC",
            payer_party_id=duplicate,
        ),
    )
    return Contractors(
        reg, kept, duplicate, credential_id, kept_permit, plumbing, paid.receipt_number
    )


def plumbing_application(
    reg: Register, clock: FixedClock, database: Database, plumber: int, description: str
) -> int:
    return permits.take_application(
        database.uow(),
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="PLUMBING",
            parcel_id=reg.parcel_id,
            description=description,
            valuation=Decimal("2400.00"),
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id), (PartyRole.PLUMBER, plumber)),
        ),
    )
