"""The permit window's Parties and Fees queries (db/permit_queries.py) on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from db.database import Database
from db.permit_queries import permit_fee_lines, permit_party_credentials
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind
from desk.domain.model import Credential
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees, permits
from tests.factories import seed_register


def test_the_assessed_lines_come_back_with_what_was_entered_and_their_schedule(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    request = QuoteRequest(
        items=(
            QuoteItem("RES-NEW", quantity=Decimal("2400")),
            QuoteItem("PLUMBING", amount=Decimal("120.00")),
            QuoteItem("DEPOSIT-STREET"),
        )
    )
    fees.assess_fees(database.uow(), clock, reg.clerk, reg.permit_id, request)
    with database.read() as conn:
        lines = permit_fee_lines(conn, reg.permit_id)
        assert permit_fee_lines(conn, reg.permit_id + 999) == []
    assert [(f.code, f.quantity, f.entered_amount, f.amount, f.deposit) for f in lines] == [
        ("RES-NEW", Decimal("2400"), None, Decimal("404.00"), False),
        ("PLUMBING", None, Decimal("120.00"), Decimal("168.00"), False),
        ("DEPOSIT-STREET", None, None, Decimal("500.00"), True),
    ]
    assert {(f.version_label, f.version_from, f.assessed_on) for f in lines} == {
        ("Glendale 15.1.21 (shipped)", date(2000, 1, 1), date(2026, 3, 2))
    }


def test_credentials_are_read_for_every_party_of_the_permit_and_no_other(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    permits.add_credential(
        database.uow(),
        clock,
        reg.clerk,
        reg.contractor_id,
        Credential(
            kind=CredentialKind.DWELLING_CONTRACTOR, number="DC-1100", expires_on=date(2026, 3, 2)
        ),
    )
    permits.add_credential(
        database.uow(),
        clock,
        reg.clerk,
        reg.contractor_id,
        Credential(kind=CredentialKind.HVAC_CONTRACTOR, number="HV-7"),
    )
    with database.read() as conn:
        found = permit_party_credentials(conn, reg.permit_id)
    assert list(found) == [reg.contractor_id]  # the owner holds none
    assert [(c.kind, c.number, c.expires_on) for c in found[reg.contractor_id]] == [
        (CredentialKind.DWELLING_CONTRACTOR, "DC-1100", date(2026, 3, 2)),
        (CredentialKind.HVAC_CONTRACTOR, "HV-7", None),
    ]
