"""Services on SQLite and PostgreSQL: permissions, numbering, audit trail, search index."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from db import queries, schema
from db.database import Database
from desk.clock import FixedClock
from desk.domain.enums import PermitStatus, Role
from desk.errors import AuthenticationFailed, PermissionDenied, RuleViolation, ValidationError
from desk.services import permits, users
from tests.factories import PASSWORD, application, make_issuable, seed_register


def test_a_clerk_cannot_create_a_user_through_the_service_layer(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(PermissionDenied, match="only a user with the role administrator"):
        users.create_user(
            database.uow(),
            clock,
            reg.clerk,
            username="mallory",
            full_name="Mallory",
            password="whatever123",
            roles={Role.ADMINISTRATOR},
        )
    with pytest.raises(AuthenticationFailed):
        users.authenticate(database.uow(), "mallory", "whatever123")


def test_a_clerk_cannot_issue_a_permit_and_the_treasurer_cannot_take_an_application(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with pytest.raises(PermissionDenied, match="issue permits"):
        permits.issue_permit(database.uow(), clock, reg.clerk, reg.permit_id)
    with pytest.raises(PermissionDenied, match="take permit applications"):
        permits.take_application(database.uow(), clock, reg.treasurer, application(reg))
    with database.read() as conn:
        assert queries.permit_detail(conn, reg.permit_id).number is None  # type: ignore[union-attr]


def test_permits_are_numbered_in_the_order_of_their_issue_per_year(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    second = permits.take_application(uow, clock, reg.clerk, application(reg))
    third = permits.take_application(uow, clock, reg.clerk, application(reg, "Siding"))
    for permit_id in (second, reg.permit_id, third):
        make_issuable(database, clock, reg.inspector, permit_id)
    assert permits.issue_permit(uow, clock, reg.inspector, second) == "2026-0001"
    assert permits.issue_permit(uow, clock, reg.inspector, reg.permit_id) == "2026-0002"
    clock.set(date(2027, 1, 4))
    assert permits.issue_permit(uow, clock, reg.inspector, third) == "2027-0001"


def test_a_voided_permit_keeps_its_number_and_the_next_one_does_not_reuse_it(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    first = permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    permits.void_permit(uow, clock, reg.inspector, reg.permit_id, "Issued to the wrong parcel")
    other = permits.take_application(uow, clock, reg.clerk, application(reg))
    make_issuable(database, clock, reg.inspector, other)
    assert permits.issue_permit(uow, clock, reg.inspector, other) == "2026-0002"
    with database.read() as conn:
        voided = queries.permit_detail(conn, reg.permit_id)
    assert voided is not None
    assert (voided.number, voided.status) == (first, PermitStatus.VOID)
    with database.read() as conn:
        orders = queries.open_orders(conn, reg.permit_id)
    assert [(kind, lifted) for _id, kind, _on, lifted in orders] == [("void", None)]
    with database.read() as conn:
        reason = conn.execute(
            select(schema.permit_order.c.reasons).where(schema.permit_order.c.id == orders[0][0])
        ).scalar_one()
    assert reason == "Issued to the wrong parcel"
    with pytest.raises(RuleViolation, match="already void"):
        permits.void_permit(uow, clock, reg.inspector, reg.permit_id, "again")


def test_a_failed_issue_does_not_burn_a_number(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    with pytest.raises(ValidationError, match="issue date"):
        # Rolled back after validation: the counter must not move.
        permits.issue_permit(uow, clock, reg.inspector, reg.permit_id, issued_on=date(2026, 1, 1))
    assert permits.issue_permit(uow, clock, reg.inspector, reg.permit_id) == "2026-0001"


def test_every_write_records_who_when_and_each_field_old_to_new(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    clock.set(date(2026, 3, 9))
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    with database.read() as conn:
        history = queries.permit_history(conn, reg.permit_id)
    issued = history[0]
    assert (issued.username, issued.action, issued.entity) == ("ivan", "update", "permit")
    assert issued.at.date() == date(2026, 3, 9)
    changes = {c.field: (c.old, c.new) for c in issued.changes}
    assert changes["number"] == (None, "2026-0001")
    assert changes["status"] == ("applied", "issued")
    assert changes["issued_on"] == (None, "2026-03-09")
    created = history[-1]
    assert (created.username, created.action) == ("carol", "create")
    assert {c.field: c.new for c in created.changes}["valuation"] == "412500.00"
    # The parties added with the application are in the permit's history too.
    assert sum(1 for h in history if h.entity == "permit_party") == 2


def test_a_password_change_is_audited_without_the_hash(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    users.change_own_password(database.uow(), clock, reg.clerk, PASSWORD, "new-password-1")
    assert users.authenticate(database.uow(), "carol", "new-password-1").username == "carol"
    with pytest.raises(AuthenticationFailed):
        users.authenticate(database.uow(), "carol", PASSWORD)
    from sqlalchemy import select

    from db.schema import audit_event

    with database.read() as conn:
        rows = conn.execute(
            select(audit_event.c.changes).where(
                (audit_event.c.entity == "user") & (audit_event.c.entity_id == reg.clerk.user_id)
            )
        ).all()
    text = repr([r.changes for r in rows])
    assert "argon2" not in text
    assert {"field": "password_hash", "old": "(hidden)", "new": "(changed)"} in rows[-1].changes


def test_the_search_finds_a_permit_by_number_address_parcel_owner_and_contractor(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    other = permits.take_application(uow, clock, reg.clerk, application(reg))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    number = permits.issue_permit(uow, clock, reg.inspector, reg.permit_id)
    mid = reg.municipality_id
    with database.read() as conn:

        def found(text: str) -> set[int]:
            return {r.id for r in queries.search_permits(conn, mid, text)}

        assert found(number) == {reg.permit_id}
        assert found("2026-00") == {reg.permit_id}
        assert found("6120 port wash") == {reg.permit_id, other}
        assert found("047-9991") == {reg.permit_id, other}
        assert found("schm") == {reg.permit_id, other}
        assert found("badger") == {reg.permit_id}
        assert found("badger schmidt") == {reg.permit_id}
        assert found("nobody") == set()
        assert queries.count_permits(conn, mid, "badger") == 1
        assert queries.count_permits(conn, mid, "") == 2


def test_renaming_a_party_updates_the_permits_list(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    with uow:
        uow.act_as(reg.clerk, clock.now())
        party = uow.parties.get(reg.owner_id)
        assert party is not None
        party.name = "Anna Schmidt-Vang"
        uow.commit()
    with database.read() as conn:
        rows = queries.search_permits(conn, reg.municipality_id, "vang")
    assert [r.owner for r in rows] == ["Anna Schmidt-Vang"]


def test_the_permits_list_sorts_in_sql_by_each_column(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    cheap = permits.take_application(uow, clock, reg.clerk, application(reg))
    mid = reg.municipality_id
    with database.read() as conn:
        by_value = queries.search_permits(conn, mid, sort="valuation", descending=False)
        assert [r.id for r in by_value] == [cheap, reg.permit_id]
        assert by_value[0].valuation == Decimal("14800.00")
        for key, _ in queries.SORT_COLUMNS.items():
            assert len(queries.search_permits(conn, mid, sort=key)) == 2
        page = queries.search_permits(conn, mid, sort="applied", offset=1, limit=1)
        assert len(page) == 1


def test_application_input_errors_name_the_field(database: Database, clock: FixedClock) -> None:
    reg = seed_register(database, clock)
    bad = permits.ApplicationInput(
        municipality_id=reg.municipality_id,
        kind="RES-OTHER",
        parcel_id=reg.parcel_id,
        description="Fence",
        valuation=Decimal("-5.00"),
    )
    with pytest.raises(ValidationError) as err:
        permits.take_application(database.uow(), clock, reg.clerk, bad)
    assert err.value.field == "valuation"
    unknown = permits.ApplicationInput(
        municipality_id=reg.municipality_id, kind="NOPE", parcel_id=reg.parcel_id, description="x"
    )
    with pytest.raises(ValidationError, match="kind"):
        permits.take_application(database.uow(), clock, reg.clerk, unknown)


def test_a_party_without_street_or_city_has_no_address_not_a_bare_state(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    with database.read() as conn:
        detail = queries.permit_detail(conn, reg.permit_id)
    assert detail is not None
    assert [p.mailing_address for p in detail.parties] == ["", ""]


def test_issuance_waits_for_the_fees_to_be_paid_in_full(
    database: Database, clock: FixedClock
) -> None:
    from desk.fees.engine import QuoteItem, QuoteRequest
    from desk.services import fees
    from desk.services.issuance import issuance_shortfalls
    from tests.factories import pay_in_full

    reg = seed_register(database, clock)
    uow = database.uow()
    fees.assess_fees(
        uow,
        clock,
        reg.clerk,
        reg.permit_id,
        QuoteRequest(items=(QuoteItem("RES-NEW", quantity=Decimal(2400)),)),
    )
    before = issuance_shortfalls(uow, reg.permit_id, clock.today())
    assert "Fees of $404.00 are assessed; $0.00 is paid; $404.00 is due (15.1.21)." in (before)
    make_issuable(database, clock, reg.admin, reg.permit_id)  # checklist, licences, then pays
    assert issuance_shortfalls(uow, reg.permit_id, clock.today()) == []
    assert permits.issue_permit(uow, clock, reg.inspector, reg.permit_id) == "2026-0001"
    pay_in_full(database, clock, reg.admin, reg.permit_id)  # nothing more is due: no receipt
