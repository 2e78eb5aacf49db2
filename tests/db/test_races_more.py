"""More of two workstations acting on one record at the same moment, on SQLite and PostgreSQL:
a street deposit refunded twice, a bond released twice or released while it is claimed, one
inspection's result recorded by two inspectors, one checklist item decided two ways, a City
licence revoked twice, a payment taken while the one before it is voided, and workstations in
separate processes issuing permits together. Released by a barrier, many trials: where only one
can succeed the other is refused in words (never a database error), and the register is right
afterwards: the money moved once, one result, the audit trail's old values chained, the permit
numbers without a gap."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from db import schema
from db.database import Database
from db.migrate import check
from desk.clock import FixedClock
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.domain.checklists import ItemState
from desk.domain.enums import CredentialKind, PartyKind, PartyRole, PermitStatus, Role
from desk.domain.inspections import Result
from desk.domain.model import (
    Actor,
    BondRecord,
    CityLicence,
    Credential,
    DepositState,
    Inspection,
    InspectionStatus,
    Party,
    PaymentReversal,
    Refund,
    StreetDeposit,
)
from desk.domain.sureties import BondStatus
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import cashiering as cash
from desk.services import checklists, fees, licensing, permits, users
from desk.services import inspections as insp
from desk.services import sureties as sure
from tests.db.test_sureties import Office as SuretiesOffice
from tests.db.test_sureties import _office as sureties_office
from tests.db.test_sureties import moving_bond
from tests.factories import PASSWORD, Register, application, make_issuable, seed_register
from tests.racing import OK, errors, race, run_processes

D = Decimal
TRIALS = 20
DAY = date(2026, 3, 2)  # the conftest clock's day
NEW_HOUSE = QuoteRequest(
    items=(QuoteItem("RES-NEW", quantity=Decimal(2400)), QuoteItem("RES-STATE-SEAL"))
)


def act(database: Database, service: Callable[..., object], *args: Any) -> Callable[[], object]:
    """The service called with a unit of work of its own (made in the racing thread)."""
    return lambda: service(database.uow(), *args)


def one_ok_one_refused(outcomes: list[str]) -> tuple[int, str]:
    """(index of the one that succeeded, the other's refusal)."""
    assert errors(outcomes) == [], outcomes
    assert outcomes.count(OK) == 1, outcomes
    winner = outcomes.index(OK)
    return winner, outcomes[1 - winner]


@dataclass
class Office:
    db: Database
    clock: FixedClock
    reg: Register
    engineer: Actor
    clerk2: Actor  # a second clerk at another workstation
    mover_id: int
    plumber_id: int
    move: int  # moving a building (15.1.9): a bond
    base: SuretiesOffice  # the sureties tests' office this one extends

    def uow(self) -> Any:
        return self.db.uow()


def _office(database: Database, clock: FixedClock) -> Office:
    """The sureties tests' office (a mover, a plumber, a moving permit) and a second clerk."""
    base = sureties_office(database, clock)
    users.create_user(
        base.db.uow(), clock, base.reg.admin, username="dana", full_name="Dana Deputy Clerk",
        password=PASSWORD, roles={Role.CLERK},
    )  # fmt: skip
    clerk2 = users.authenticate(base.db.uow(), "dana", PASSWORD)
    return Office(
        database, clock, base.reg, base.engineer, clerk2, base.mover_id, base.plumber_id,
        base.move, base,
    )  # fmt: skip


def _sewer_permit(o: Office, n: int) -> int:
    return permits.take_application(
        o.uow(),
        o.clock,
        o.reg.clerk,
        permits.ApplicationInput(
            municipality_id=o.reg.municipality_id,
            kind="SEWER-WATER",
            parcel_id=o.reg.parcel_id,
            description=f"Sanitary lateral to the main in the street, trial {n}",
            parties=(
                (PartyRole.BUILDING_OWNER, o.reg.owner_id),
                (PartyRole.PLUMBER, o.plumber_id),
            ),
        ),
    )


def _complete(o: Office, permit_id: int, on: date) -> None:
    """The final passed on `on` (as desk/services/inspections.py records it)."""
    uow = o.uow()
    with uow:
        uow.act_as(o.reg.inspector, o.clock.now())
        p = uow.permits.get(permit_id)
        if p.number is None:
            p.number, p.issued_on = f"2026-9{permit_id:03d}", DAY
        p.status, p.completed_on = PermitStatus.COMPLETED, on
        uow.commit()


def _audit(database: Database, entity: str, entity_id: int) -> list[tuple[int | None, Any]]:
    """(user id, changes) of the entity's update rows, oldest first."""
    a = schema.audit_event
    with database.read() as conn:
        return [
            (r.user_id, r.changes)
            for r in conn.execute(
                select(a.c.user_id, a.c.changes)
                .where((a.c.entity == entity) & (a.c.entity_id == entity_id))
                .where(a.c.action == "update")
                .order_by(a.c.id)
            )
        ]


def _field_steps(database: Database, entity: str, entity_id: int, field: str) -> list[Any]:
    """Each change of `field` in the entity's audit trail: (user id, {"old", "new"})."""
    return [
        (user_id, next(c for c in changes if c["field"] == field))
        for user_id, changes in _audit(database, entity, entity_id)
        if any(c["field"] == field for c in changes)
    ]


# --- a. a street deposit refunded twice at once (15.1.43) ---------------------------------------


def test_the_same_street_deposit_refunded_twice_at_once_is_refunded_once(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    deposits: list[tuple[int, int]] = []
    for n in range(TRIALS):
        permit_id = _sewer_permit(o, n)
        deposit_id, paid = sure.take_deposit(
            o.uow(),
            clock,
            o.reg.clerk,
            sure.DepositInput(
                permit_id=permit_id,
                depositor="",
                depositor_party_id=o.plumber_id,
                amount=D("500.00"),
            ),
            Tender(PaymentMethod.CHECK, D("500.00"), f"{2200 + n}", "North Shore Plumbing Co",
                   "Tri City"),
        )  # fmt: skip
        assert paid is not None
        sure.record_completion(o.uow(), clock, o.reg.inspector, deposit_id, DAY)
        deposits.append((permit_id, deposit_id))
    refund_day = DAY + timedelta(days=180)
    clock.set(refund_day)
    for _, deposit_id in deposits:
        sure.order_deposit_refund(o.uow(), clock, o.engineer, deposit_id)

    for n, (permit_id, deposit_id) in enumerate(deposits):
        checks = (f"{10000 + 2 * n}", f"{10001 + 2 * n}")
        clerks = (o.reg.clerk, o.clerk2)
        outcomes = race(
            *(
                act(database, sure.refund_deposit, clock, c, deposit_id, k, refund_day)
                for c, k in zip(clerks, checks, strict=True)
            )
        )
        winner, refusal = one_ok_one_refused(outcomes)
        assert refusal == (
            f"This deposit was refunded on {refund_day:%m/%d/%Y} by check {checks[winner]}"
        ), outcomes
        uow = o.uow()
        with uow:
            row = uow.sureties.get(StreetDeposit, deposit_id)
            assert (row.status, row.check_number, row.refunded_by_id) == (
                DepositState.REFUNDED,
                checks[winner],
                clerks[winner].user_id,
            )
            refunds = uow.cash.find(Refund, permit_id=permit_id)
            assert [(r.amount, r.check_number) for r in refunds] == [(D("500.00"), checks[winner])]
            assert row.refund_id == refunds[0].id
            assert cash.deposit_held(uow, permit_id) == D("0.00")
        assert cash.permit_balance(o.uow(), clock, permit_id).due == D("0.00")

    # The money left once per deposit: the dollar figure of the refunds recorded.
    with database.read() as conn:
        r = schema.refund
        count, total = conn.execute(select(func.count(), func.sum(r.c.amount))).one()
    assert (count, total) == (TRIALS, D("500.00") * TRIALS)
    reconciled = cash.reconciliation(o.uow(), clock, o.reg.municipality_id, DAY, refund_day)
    assert reconciled.refunds == D("500.00") * TRIALS
    assert reconciled.account("100-23100").closing == D("0.00")
    assert reconciled.gl_balanced
    assert check(database.engine) == []


# --- b. a bond released twice, or released while it is claimed ----------------------------------


def _bond(o: Office, n: int) -> int:
    return sure.record_bond(
        o.uow(), o.clock, o.reg.clerk, moving_bond(o.base, number=f"SB-{1000 + n}")
    )


def _bond_row(o: Office, bond_id: int) -> Any:
    uow = o.uow()
    with uow:
        row = uow.sureties.get(BondRecord, bond_id)
        return (row.status, row.released_by_id, row.released_by, row.claim_amount)


def test_the_same_bond_released_twice_at_once_is_released_once(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    bonds = [_bond(o, n) for n in range(TRIALS)]
    _complete(o, o.move, DAY)
    releasers = ((o.reg.inspector, "Ivan Inspector"), (o.engineer, "Erin Engineer"))
    for n, bond_id in enumerate(bonds):
        outcomes = race(*(act(database, sure.release, clock, a, bond_id) for a, _ in releasers))
        winner, refusal = one_ok_one_refused(outcomes)
        actor, name = releasers[winner]
        assert refusal == (
            f"Bond SB-{1000 + n} was already released on {DAY:%m/%d/%Y} by {name}"
        ), outcomes
        assert _bond_row(o, bond_id) == (BondStatus.RELEASED, actor.user_id, name, None)
        steps = _field_steps(database, "bond", bond_id, "status")
        assert [(u, s["old"], s["new"]) for u, s in steps] == [
            (actor.user_id, "in_force", "released")
        ]
    assert check(database.engine) == []


def test_a_bond_released_while_another_clerk_claims_it_ends_with_one_told_no(
    database: Database, clock: FixedClock
) -> None:
    """Whichever lands first, the second sees it and is refused in words: no claim on a
    released bond, no release of a claimed one (it would discharge the surety)."""
    o = _office(database, clock)
    bonds = [_bond(o, n) for n in range(TRIALS)]
    _complete(o, o.move, DAY)
    for n, bond_id in enumerate(bonds):
        claim = act(
            database, sure.claim, clock, o.reg.clerk, bond_id, D("750.00"), "barriers not erected"
        )
        release = act(database, sure.release, clock, o.reg.inspector, bond_id)
        claimed, released = race(claim, release)
        assert errors([claimed, released]) == [], (claimed, released)
        assert [claimed, released].count(OK) == 1, (claimed, released)
        status, by_id, _, amount = _bond_row(o, bond_id)
        steps = [
            (u, s["old"], s["new"]) for u, s in _field_steps(database, "bond", bond_id, "status")
        ]
        if released == OK:  # the release first: the claim refused
            assert claimed == f"Bond SB-{1000 + n} was released; no claim can be made on it"
            assert (status, by_id, amount) == (BondStatus.RELEASED, o.reg.inspector.user_id, None)
            assert steps == [(o.reg.inspector.user_id, "in_force", "released")]
        else:  # the claim first: the release refused
            assert released == (
                f"Bond SB-{1000 + n} was claimed on {DAY:%m/%d/%Y}; a claimed bond is not released"
            )
            assert (status, by_id, amount) == (BondStatus.CLAIMED, None, D("750.00"))
            assert steps == [(o.reg.clerk.user_id, "in_force", "claimed")]
    assert check(database.engine) == []


# --- c. one inspection's result recorded by two inspectors at once (15.1.11(a)) ---------------


def test_the_same_inspections_result_recorded_by_two_inspectors_is_recorded_once(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    clock.set(date(2026, 3, 16))
    make_issuable(database, clock, reg.inspector, reg.permit_id)
    permits.issue_permit(database.uow(), clock, reg.inspector, reg.permit_id)
    o = reg.inspector, reg.admin
    orders = 0
    for n in range(TRIALS):
        inspection_id = insp.request_inspection(
            database.uow(),
            clock,
            reg.clerk,
            insp.RequestInput(reg.permit_id, "BLD-LOCATION", "Mike Kowalczyk", "(414) 555-0142"),
        ).inspection_id
        results = (
            insp.ResultInput(inspection_id, Result.PASSED, notes=f"Stakes on the line, {n}"),
            insp.ResultInput(
                inspection_id,
                Result.REJECTED,
                notes=f"Stakes 2 ft into the setback, {n}",
                correction_items="Move the footing forms out of the side-yard setback",
            ),
        )
        outcomes = race(
            *(
                act(database, insp.record_result, clock, a, r)
                for a, r in zip(o, results, strict=True)
            )
        )
        winner, refusal = one_ok_one_refused(outcomes)
        assert refusal == (
            "This inspection is done already; a new visit is a new request (a re-inspection)."
        ), outcomes
        uow = database.uow()
        with uow:
            row = uow.inspections.get(inspection_id)
            assert row is not None
            assert (row.status, row.result, row.notes, row.recorded_by_id) == (
                InspectionStatus.DONE,
                results[winner].result,
                results[winner].notes,
                o[winner].user_id,
            )
            made = [x for x in uow.inspections.orders_for(reg.permit_id)]
            orders += winner  # the rejection is a written correction order
            assert len(made) == orders
            assert sum(1 for x in made if x.inspection_id == inspection_id) == winner
        steps = _field_steps(database, "inspection", inspection_id, "result")
        assert [(u, s["old"]) for u, s in steps] == [(o[winner].user_id, None)]
    uow = database.uow()
    with uow:
        rows = uow.inspections.for_permit(reg.permit_id)
        assert len(rows) == TRIALS
        assert all(isinstance(x, Inspection) and x.result is not None for x in rows)
    assert check(database.engine) == []


# --- d. one checklist item decided two ways at once ---------------------------------------------


def test_one_checklist_item_decided_two_ways_at_once_chains_its_old_values(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    permit_id = permits.take_application(database.uow(), clock, reg.clerk, application(reg))
    code = "minor_work.described"
    deciders = ((reg.inspector, ItemState.RECEIVED), (reg.admin, ItemState.NOT_APPLICABLE))
    for n in range(TRIALS):
        if n:  # each trial starts from an open item, so both decisions change it
            checklists.mark_item(database.uow(), clock, reg.clerk, permit_id, code, ItemState.OPEN)
        outcomes = race(
            *(
                act(database, checklists.mark_item, clock, a, permit_id, code, s)
                for a, s in deciders
            )
        )
        assert outcomes == [OK, OK], outcomes
    uow = database.uow()
    with uow:
        (row,) = [r for r in uow.checklists.for_permit(permit_id) if r.code == code]
        item_id, final, by = row.id, row.state, row.by_user_id
    assert item_id is not None
    steps = _field_steps(database, "permit_checklist_item", item_id, "state")
    assert len(steps) == 3 * TRIALS - 1
    # An unbroken chain: each decision's old value is the one the decision before it wrote.
    assert steps[0][1]["old"] == ItemState.OPEN.value
    for (_, before), (_, after) in itertools.pairwise(steps):
        assert after["old"] == before["new"]
    # Within each trial the two decisions follow the reopening, one after the other.
    for trial in range(TRIALS):
        if trial:
            assert steps[3 * trial - 1][1]["new"] == "open"
        first, second = steps[3 * trial][1], steps[3 * trial + 1][1]
        assert first["old"] == "open"
        assert {first["new"], second["new"]} == {"received", "not_applicable"}
    assert final in (ItemState.RECEIVED, ItemState.NOT_APPLICABLE)
    assert (by, final.value) == (steps[-1][0], steps[-1][1]["new"])
    assert check(database.engine) == []


# --- e. a City licence revoked twice at once (15.1.78(c)) ---------------------------------------


def test_the_same_city_licence_revoked_twice_at_once_is_revoked_once(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    uow = database.uow()
    licences: list[int] = []
    for n in range(TRIALS):
        party_id = permits.add_party(
            uow, clock, reg.clerk, Party(kind=PartyKind.ORGANIZATION, name=f"Sparks {n} Electric")
        )
        permits.add_credential(
            uow,
            clock,
            reg.clerk,
            party_id,
            Credential(kind=CredentialKind.ELECTRICAL_CONTRACTOR, number=f"EC-{1200 + n}",
                       expires_on=date(2027, 6, 30)),
        )  # fmt: skip
        granted = licensing.grant_city_licence(
            uow, clock, reg.inspector, reg.municipality_id, party_id
        )
        licences.append(granted.licence_id)
    clock.set(date(2026, 4, 6))
    for licence in licences:
        licensing.file_licence_complaint(
            uow, clock, reg.inspector, licence, date(2026, 4, 6), "Wiring concealed"
        )
        licensing.schedule_revocation_hearing(
            uow, clock, reg.clerk, licence, date(2026, 4, 21), date(2026, 4, 10), "the licensee"
        )
    clock.set(date(2026, 4, 22))
    for licence in licences:
        licensing.record_council_finding(
            uow, clock, reg.clerk, licence, date(2026, 4, 21), True, "Disqualified (Res. 26-14)"
        )
    revokers = (reg.inspector, reg.admin)
    for licence in licences:
        outcomes = race(
            *(act(database, licensing.revoke_city_licence, clock, a, licence) for a in revokers)
        )
        winner, refusal = one_ok_one_refused(outcomes)
        assert refusal == "The licence was revoked on 04/22/2026", outcomes
        with uow:
            row = uow.registers.get(CityLicence, licence)
            assert row is not None
            assert (row.revoked_on, row.revoked_by_id) == (
                date(2026, 4, 22),
                revokers[winner].user_id,
            )
        steps = _field_steps(database, "city_licence", licence, "revoked_on")
        assert [(u, s["old"]) for u, s in steps] == [(revokers[winner].user_id, None)]
    with database.read() as conn:
        c = schema.city_licence
        revoked = conn.execute(
            select(func.count()).select_from(c).where(c.c.revoked_on.is_not(None))
        ).scalar_one()
    assert revoked == TRIALS
    assert check(database.engine) == []


# --- f. a payment taken while another clerk voids the one before it ------------------------------


def _payment_input(reg: Register, permit_id: int, amount: Decimal) -> cash.PaymentInput:
    return cash.PaymentInput(
        municipality_id=reg.municipality_id,
        tender=Tender(PaymentMethod.CASH, amount),
        allocations=(Allocation(permit_id, amount),),
        payer_name="Anna Schmidt",
    )


def test_a_payment_taken_while_another_clerk_voids_the_one_before_leaves_the_balance_right(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    total = D("439.00")
    for n in range(TRIALS):
        permit_id = permits.take_application(
            database.uow(), clock, reg.clerk, application(reg, f"Reroof, trial {n}")
        )
        fees.assess_fees(database.uow(), clock, reg.clerk, permit_id, NEW_HOUSE)
        first = cash.take_payment(
            database.uow(), clock, reg.clerk, _payment_input(reg, permit_id, D("100.00"))
        )
        outcomes = race(
            act(database, cash.void_payment, clock, reg.clerk, first.payment_id, "Wrong permit"),
            act(
                database,
                cash.take_payment,
                clock,
                reg.treasurer,
                _payment_input(reg, permit_id, total - D("100.00")),
            ),
        )
        assert outcomes == [OK, OK], outcomes
        balance = cash.permit_balance(database.uow(), clock, permit_id)
        assert (balance.paid, balance.due) == (D("339.00"), D("100.00")), outcomes
        uow = database.uow()
        with uow:
            assert len(uow.cash.find(PaymentReversal, payment_id=first.payment_id)) == 1
    assert check(database.engine) == []


def test_the_same_receipt_voided_twice_at_once_is_voided_once(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    permit_id = reg.permit_id
    fees.assess_fees(database.uow(), clock, reg.clerk, permit_id, NEW_HOUSE)
    for n in range(TRIALS):
        paid = cash.take_payment(
            database.uow(), clock, reg.clerk, _payment_input(reg, permit_id, D("10.00"))
        )
        outcomes = race(
            act(database, cash.void_payment, clock, reg.clerk, paid.payment_id, f"Mistake {n}"),
            act(database, cash.void_payment, clock, reg.treasurer, paid.payment_id, "Duplicate"),
        )
        _, refusal = one_ok_one_refused(outcomes)
        assert refusal == f"Receipt {paid.receipt_number} is already voided or returned.", outcomes
        uow = database.uow()
        with uow:
            assert len(uow.cash.find(PaymentReversal, payment_id=paid.payment_id)) == 1
        balance = cash.permit_balance(database.uow(), clock, permit_id)
        assert balance.paid == D("0.00"), outcomes
    assert check(database.engine) == []


# --- g. workstations in separate processes issuing permits together ------------------------------


def test_processes_issuing_permits_together_number_them_without_gap_or_duplicate(
    database: Database, clock: FixedClock
) -> None:
    reg = seed_register(database, clock)
    workers = 4 if database.engine.dialect.name == "sqlite" else 8
    per_worker = 10
    lists: list[list[int]] = []
    for w in range(workers):
        ids = []
        for n in range(per_worker):
            permit_id = permits.take_application(
                database.uow(), clock, reg.clerk, application(reg, f"Reroof {w}.{n}")
            )
            make_issuable(database, clock, reg.admin, permit_id)
            ids.append(permit_id)
        lists.append(ids)
    url = database.engine.url.render_as_string(hide_password=False)
    reports = run_processes(url, (reg.inspector, reg.admin), lists, clock.today())

    assert [(w, problems) for w, _, problems in reports] == [(w, []) for w in range(workers)]
    year = clock.today().year
    count = workers * per_worker
    got = sorted(number for _, issued, _ in reports for _, number in issued)
    assert got == [f"{year}-{i:04d}" for i in range(1, count + 1)]
    for w, issued, _ in reports:
        assert [p for p, _ in issued] == lists[w]
        mine = [number for _, number in issued]
        assert mine == sorted(mine)  # each workstation's numbers in the order it issued
    with database.read() as conn:
        p = schema.permit
        kept = conn.execute(
            select(p.c.id, p.c.number, p.c.status).where(p.c.number.is_not(None))
        ).all()
    assert sorted(n for _, n, _ in kept) == got
    assert {pid: n for pid, n, _ in kept} == {
        pid: n for _, issued, _ in reports for pid, n in issued
    }
    assert {s for _, _, s in kept} == {PermitStatus.ISSUED}
    assert check(database.engine) == []
