"""Bonds, insurance certificates and street deposits through the services, on SQLite and
PostgreSQL (issue 6): what issuance finds short, the association's one year, the 15.1.43
deposit from the counter to the clerk's check with its 180-day wait, the Council's retention,
and the money kept in the liability account until it leaves, with the treasurer's
reconciliation still in balance."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from db.database import Database
from desk.clock import FixedClock
from desk.domain.cashiering import (
    AccountKind,
    AccountPurpose,
    PaymentMethod,
    RefundGround,
    Tender,
)
from desk.domain.enums import PartyKind, PartyRole, PermitStatus, Role
from desk.domain.model import Actor, DepositState, GlAccount, GlEntry, Party, Refund
from desk.domain.sureties import (
    BondKind,
    BondPurpose,
    BondScope,
    BondStatus,
    Coverage,
    CoverageKind,
    PermitFacts,
)
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.services import cashiering as cash
from desk.services import permits, users
from desk.services import sureties as sure
from tests.factories import PASSWORD, Register, seed_register

D = Decimal
ISSUE_DAY = date(2026, 3, 2)


@dataclass
class Office:
    db: Database
    clock: FixedClock
    reg: Register
    engineer: Actor
    mover_id: int
    plumber_id: int
    move: int  # moving a building (15.1.9)
    sewer: int  # a sewer connection in a paved street (15.1.43)

    @property
    def uow(self) -> Any:
        return self.db.uow()

    def shortfalls(self, permit_id: int, on: date = ISSUE_DAY) -> list[str]:
        uow = self.uow
        with uow:
            return sure.surety_shortfalls_for(uow, permit_id, on)


def _office(database: Database, clock: FixedClock) -> Office:
    reg = seed_register(database, clock)
    uow = database.uow()
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
    mover_id = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(
            kind=PartyKind.ORGANIZATION,
            name="Lakeshore House Movers Inc",
            address_line1="400 W Silver Spring Dr",
            city="Glendale",
            zip="53217",
        ),
    )
    plumber_id = permits.add_party(
        uow,
        clock,
        reg.clerk,
        Party(
            kind=PartyKind.ORGANIZATION,
            name="North Shore Plumbing Co",
            address_line1="5800 N Bayshore Dr",
            city="Glendale",
            zip="53217",
        ),
    )
    move = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="MOVE",
            parcel_id=reg.parcel_id,
            description="Move a garage over Port Washington Rd",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id), (PartyRole.CONTRACTOR, mover_id)),
        ),
    )
    sewer = permits.take_application(
        uow,
        clock,
        reg.clerk,
        permits.ApplicationInput(
            municipality_id=reg.municipality_id,
            kind="SEWER-WATER",
            parcel_id=reg.parcel_id,
            description="Sanitary lateral to the main in the street",
            parties=((PartyRole.BUILDING_OWNER, reg.owner_id), (PartyRole.PLUMBER, plumber_id)),
        ),
    )
    return Office(database, clock, reg, engineer, mover_id, plumber_id, move, sewer)


@pytest.fixture
def office(database: Database, clock: FixedClock) -> Office:
    return _office(database, clock)


def moving_bond(o: Office, **kw: Any) -> sure.BondInput:
    values: dict[str, Any] = dict(
        municipality_id=o.reg.municipality_id,
        purpose=BondPurpose.MOVING,
        kind=BondKind.SURETY,
        principal="",
        principal_party_id=o.mover_id,
        obligee="City of Glendale",
        amount=D("1000.00"),
        effective_on=date(2026, 1, 1),
        expires_on=date(2029, 12, 31),
        number="SB-1001",
        surety_company="Western Surety Co",
        conditions=("barriers_48h",),
        permit_ids=(o.move,),
    )
    values.update(kw)
    return sure.BondInput(**values)


def mover_certificate(o: Office, **limits: str) -> sure.CertificateInput:
    figures = {"per_person": "100000.00", "per_accident": "200000.00", "property_damage": "50000"}
    figures.update(limits)
    return sure.CertificateInput(
        municipality_id=o.reg.municipality_id,
        insured="",
        insured_party_id=o.mover_id,
        insurer="Badger Mutual",
        policy="GL-4471",
        effective_on=date(2026, 1, 1),
        expires_on=date(2029, 12, 31),
        coverages=tuple(Coverage(CoverageKind(k), D(v)) for k, v in figures.items()),
        holder="City of Glendale",
    )


# --- issuance ------------------------------------------------------------------------------


def test_a_moving_permit_with_its_bond_and_every_coverage_has_no_shortfall(office: Office) -> None:
    o = office
    sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, mover_certificate(o))
    assert o.shortfalls(o.move) == []


@pytest.mark.parametrize(
    ("coverage", "limit", "message"),
    [
        (
            "per_person",
            "99999.99",
            "Public liability coverage for one person $99,999.99 is below the $100,000 "
            "required (15.1.9(g))",
        ),
        (
            "per_accident",
            "150000",
            "Public liability coverage for one accident $150,000 is below the $200,000 "
            "required (15.1.9(g))",
        ),
        (
            "property_damage",
            "25000",
            "Property damage coverage $25,000 is below the $50,000 required (15.1.9(g))",
        ),
    ],
)
def test_a_moving_permit_is_held_for_each_insufficient_coverage(
    office: Office, coverage: str, limit: str, message: str
) -> None:
    o = office
    sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, mover_certificate(o, **{coverage: limit}))
    assert o.shortfalls(o.move) == [message]


def test_without_bond_or_certificate_the_moving_permit_lists_both(office: Office) -> None:
    found = office.shortfalls(office.move)
    assert len(found) == 2
    assert found[0].startswith("No bond to the City for moving the building is on file")
    assert "(15.1.9(f)(1))" in found[0]
    assert found[1].startswith("No insurance certificate is on file: public liability $100,000")


def test_a_certificate_ending_before_the_moving_permit_term_holds_it(office: Office) -> None:
    o = office
    sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    short = replace_expiry(mover_certificate(o), date(2026, 7, 1))
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, short)
    (message,) = o.shortfalls(o.move)
    assert message.startswith("Certificate GL-4471 expires 07/01/2026, before the permit's work")


def replace_expiry(c: sure.CertificateInput, expiry: date) -> sure.CertificateInput:
    from dataclasses import replace

    return replace(c, expires_on=expiry)


def test_the_inspectors_bond_amount_and_the_exterior_alteration_come_from_the_facts(
    office: Office,
) -> None:
    o = office
    sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, mover_certificate(o))
    with pytest.raises(PermissionDenied):
        sure.set_permit_facts(
            o.uow, o.clock, o.reg.clerk, o.move, PermitFacts(bond_amount=D("2500.00"))
        )
    with pytest.raises(ValidationError, match=r"below the \$1,000 minimum"):
        sure.set_permit_facts(
            o.uow, o.clock, o.reg.inspector, o.move, PermitFacts(bond_amount=D("900.00"))
        )
    sure.set_permit_facts(
        o.uow,
        o.clock,
        o.reg.inspector,
        o.move,
        PermitFacts(bond_amount=D("2500.00"), exterior_altered=True),
    )
    found = o.shortfalls(o.move)
    assert found[0] == "Bond SB-1001 is for $1,000, below the $2,500 required (15.1.9(f)(1))"
    assert found[1].startswith(
        "No bond to the Plan Commission for the exterior alterations is on file"
    )


def test_an_annual_bond_of_the_contractor_covers_a_permit_it_does_not_name(
    office: Office,
) -> None:
    o = office
    annual = moving_bond(
        o, scope=BondScope.CONTRACTOR_YEAR, year=2026, permit_ids=(), number="AB-2026"
    )
    sure.record_bond(o.uow, o.clock, o.reg.clerk, annual)
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, mover_certificate(o))
    # 15.1.9 knows no annual bond: the permit's own bond is still asked for.
    assert o.shortfalls(o.move)[0] == (
        "Bond AB-2026 is a contractor's annual bond; 15.1.9(f)(1) calls for a bond for this permit"
    )


# --- the association's certificate (15.1.38(b)) -----------------------------------------------


def association_certificate(o: Office, filed_on: date) -> sure.CertificateInput:
    return sure.CertificateInput(
        municipality_id=o.reg.municipality_id,
        insured="Milwaukee Master Plumbers Association",
        insurer="Badger Mutual",
        policy="ASSN-2025",
        effective_on=filed_on,
        expires_on=date(2030, 1, 1),
        coverages=(
            Coverage(CoverageKind.PER_PERSON, D("50000")),
            Coverage(CoverageKind.PER_ACCIDENT, D("100000")),
        ),
        association=True,
        filed_on=filed_on,
        members=(("", o.plumber_id), ("Other Plumber LLC", None)),
    )


def _street_excavation(o: Office) -> None:
    sure.set_permit_facts(
        o.uow,
        o.clock,
        o.reg.inspector,
        o.sewer,
        PermitFacts(excavates_public_street=True, street_paved=False),
    )


def test_an_association_certificate_covers_its_member_plumber(office: Office) -> None:
    o = office
    _street_excavation(o)
    assert o.shortfalls(o.sewer)[0].startswith("No insurance certificate is on file")
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, association_certificate(o, ISSUE_DAY))
    assert o.shortfalls(o.sewer) == []


def test_an_association_certificate_older_than_one_year_no_longer_covers(office: Office) -> None:
    o = office
    _street_excavation(o)
    sure.record_certificate(
        o.uow, o.clock, o.reg.clerk, association_certificate(o, date(2025, 2, 14))
    )
    assert o.shortfalls(o.sewer) == [
        "Certificate ASSN-2025, filed by Milwaukee Master Plumbers Association on 02/14/2025, "
        "stopped covering its members on 02/14/2026, one year from filing, before the issue "
        "date 03/02/2026 (15.1.38(b))"
    ]


def test_an_association_certificate_does_not_cover_a_plumber_who_is_not_a_member(
    office: Office,
) -> None:
    o = office
    _street_excavation(o)
    cert = association_certificate(o, ISSUE_DAY)
    from dataclasses import replace

    sure.record_certificate(
        o.uow, o.clock, o.reg.clerk, replace(cert, members=(("Other Plumber LLC", None),))
    )
    assert o.shortfalls(o.sewer)[0].startswith("No insurance certificate is on file")


# 15.1.38(b): "each such member applying for a permit shall be deemed to have complied with the
# insurance requirements": the association's certificate in force on the day of application and
# on the day of issue; it need not outlast the plumbing permit's six months (15.1.42).
ASSN_ENDS = date(2026, 9, 1)  # the certificate's last day, months before the permit's term ends


def _member_applies(o: Office, on: date) -> int:
    o.clock.set(on)
    sure.record_certificate(
        o.uow,
        o.clock,
        o.reg.clerk,
        replace(association_certificate(o, ISSUE_DAY), expires_on=ASSN_ENDS),
    )
    pid = permits.take_application(
        o.uow,
        o.clock,
        o.reg.clerk,
        permits.ApplicationInput(
            municipality_id=o.reg.municipality_id,
            kind="SEWER-WATER",
            parcel_id=o.reg.parcel_id,
            description="Water service to the main in the street",
            parties=((PartyRole.BUILDING_OWNER, o.reg.owner_id), (PartyRole.PLUMBER, o.plumber_id)),
        ),
    )
    sure.set_permit_facts(
        o.uow,
        o.clock,
        o.reg.inspector,
        pid,
        PermitFacts(excavates_public_street=True, street_paved=False),
    )
    return pid


@pytest.mark.parametrize("applied", [ASSN_ENDS - timedelta(days=1), ASSN_ENDS])
def test_a_member_applying_while_the_association_certificate_is_in_force_needs_no_more(
    office: Office, applied: date
) -> None:
    o = office
    pid = _member_applies(o, applied)
    # Applied and issued the same day (the day before, or the certificate's last day): no
    # insurance shortfall, though the permit's term runs months past the certificate.
    assert o.shortfalls(pid, applied) == []
    view = sure.permit_sureties(o.uow, o.clock, pid)
    assert view.term_ends is not None and view.term_ends > ASSN_ENDS
    assert view.shortfalls == ()
    assert view.notes == (
        "The permit's plumber is covered by the Milwaukee Master Plumbers Association "
        "certificate ASSN-2025, in force until 09/01/2026 (15.1.38(b)): a member is deemed to "
        "have complied with the insurance requirement when the certificate is in force on the "
        "days the permit is applied for and issued; it need not outlast the permit's term.",
    )


def test_a_member_issued_the_day_after_the_association_certificate_ends_is_held(
    office: Office,
) -> None:
    o = office
    pid = _member_applies(o, ASSN_ENDS)  # in force on the day of application
    after = ASSN_ENDS + timedelta(days=1)
    assert o.shortfalls(pid, after) == [
        "Certificate ASSN-2025 expired 09/01/2026, before the issue date 09/02/2026 (15.1.38(b))"
    ]


def test_a_member_who_applied_before_the_association_filed_is_held(office: Office) -> None:
    o = office
    pid = _member_applies(o, ISSUE_DAY - timedelta(days=1))  # the day before the filing
    assert o.shortfalls(pid, ISSUE_DAY) == [
        "Certificate ASSN-2025 takes effect 03/02/2026, after the application date 03/01/2026 "
        "(15.1.38(b))"
    ]


def test_the_one_year_from_filing_still_bounds_the_association_certificate(
    office: Office,
) -> None:
    o = office
    _street_excavation(o)
    sure.record_certificate(
        o.uow, o.clock, o.reg.clerk, association_certificate(o, date(2025, 3, 2))
    )
    # Filed 2025-03-02: it covers its members through 2026-03-02, the issue day, not after.
    assert o.shortfalls(o.sewer, ISSUE_DAY) == []
    assert o.shortfalls(o.sewer, ISSUE_DAY + timedelta(days=1)) == [
        "Certificate ASSN-2025, filed by Milwaukee Master Plumbers Association on 03/02/2025, "
        "stopped covering its members on 03/02/2026, one year from filing, before the issue "
        "date 03/03/2026 (15.1.38(b))"
    ]


def test_a_plumbers_own_certificate_must_still_outlast_the_permits_term(office: Office) -> None:
    # 15.1.38(a) asks for the evidence before issuance; the office reads the contractor's own
    # certificate as cover for the whole job (resources/surety_requirements.toml, through_term).
    o = office
    _street_excavation(o)
    own = replace(
        association_certificate(o, ISSUE_DAY),
        insured="",
        insured_party_id=o.plumber_id,
        policy="GL-77",
        association=False,
        filed_on=None,
        members=(),
        expires_on=ASSN_ENDS,
    )
    sure.record_certificate(o.uow, o.clock, o.reg.clerk, own)
    (short,) = o.shortfalls(o.sewer)
    assert short.startswith(
        "Certificate GL-77 expires 09/01/2026, before the permit's work ends on"
    )
    assert short.endswith("(15.1.38(a))")


# --- the register ----------------------------------------------------------------------------


def test_entry_checks_name_the_field(office: Office) -> None:
    o = office
    with pytest.raises(ValidationError) as e:
        sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o, surety_company=" "))
    assert e.value.field == "surety_company"
    with pytest.raises(ValidationError) as e:
        sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o, expires_on=date(2025, 12, 31)))
    assert e.value.field == "expiry"
    with pytest.raises(ValidationError) as e:
        sure.record_certificate(o.uow, o.clock, o.reg.clerk, mover_certificate(o, per_person="0"))
    assert e.value.field == "per_person"
    with pytest.raises(ValidationError) as e:
        from dataclasses import replace

        sure.record_certificate(
            o.uow, o.clock, o.reg.clerk, replace(association_certificate(o, ISSUE_DAY), members=())
        )
    assert e.value.field == "members"


def test_a_bond_edit_is_audited_and_a_released_bond_stays_as_it_was(office: Office) -> None:
    o = office
    bond_id = sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    sure.edit_bond(o.uow, o.clock, o.reg.clerk, bond_id, moving_bond(o, amount=D("1500.00")))
    assert sure.bond_input(o.uow, bond_id).amount == D("1500.00")
    with o.db.read() as conn:
        from sqlalchemy import text

        changes = conn.execute(
            text("SELECT action FROM audit_event WHERE entity = 'bond' ORDER BY id")
        ).scalars()
        assert list(changes) == ["create", "update"]


def test_a_bond_is_released_after_the_final_inspection_by_the_inspector(office: Office) -> None:
    o = office
    bond_id = sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    problems = sure.bond_release_check(o.uow, o.clock, o.reg.inspector, bond_id)
    assert problems == [
        "Bond SB-1001 secures the work until it passes final inspection; no passed final "
        "inspection is recorded (15.1.9(f))"
    ]
    _complete(o, o.move, date(2026, 3, 2))
    with pytest.raises(PermissionDenied):
        sure.release(o.uow, o.clock, o.reg.clerk, bond_id)
    sure.release(o.uow, o.clock, o.reg.inspector, bond_id)
    b = sure.bond_input(o.uow, bond_id)
    assert b.amount == D("1000.00")
    with o.uow as uow:
        from desk.domain.model import BondRecord

        row = uow.sureties.get(BondRecord, bond_id)
        assert row.status is BondStatus.RELEASED
        assert row.released_by == "Ivan Inspector"
        assert row.released_on == ISSUE_DAY


def test_a_claim_and_an_expiry_are_recorded(office: Office) -> None:
    o = office
    bond_id = sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    with pytest.raises(RuleViolation, match="in force through 12/31/2029"):
        sure.expire(o.uow, o.clock, o.reg.clerk, bond_id)
    sure.claim(o.uow, o.clock, o.reg.inspector, bond_id, D("750.00"), "barriers not erected")
    with o.uow as uow:
        from desk.domain.model import BondRecord

        row = uow.sureties.get(BondRecord, bond_id)
        assert (row.status, row.claim_amount, row.claim_reason) == (
            BondStatus.CLAIMED,
            D("750.00"),
            "barriers not erected",
        )


# --- the expiry watch ----------------------------------------------------------------------------


def _issue_directly(o: Office, permit_id: int, number: str) -> None:
    """Mark a permit issued (the watch reads live permits; issuance has its own tests)."""
    uow = o.uow
    with uow:
        uow.act_as(o.reg.admin, o.clock.now())
        p = uow.permits.get(permit_id)
        p.number, p.status, p.issued_on = number, PermitStatus.ISSUED, ISSUE_DAY
        uow.commit()


def _complete(o: Office, permit_id: int, on: date) -> None:
    """The final passed on `on` (desk/services/inspections.py sets these)."""
    uow = o.uow
    with uow:
        uow.act_as(o.reg.inspector, o.clock.now())
        p = uow.permits.get(permit_id)
        if p.number is None:
            p.number, p.issued_on = f"2026-9{permit_id:03d}", ISSUE_DAY
        p.status, p.completed_on = PermitStatus.COMPLETED, on
        uow.commit()


def test_the_expiry_watch_lists_what_ends_soon_with_the_permits_relying_on_it(
    office: Office,
) -> None:
    o = office
    _issue_directly(o, o.move, "2026-0101")
    sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o, expires_on=date(2026, 4, 15)))
    sure.record_certificate(
        o.uow, o.clock, o.reg.clerk, replace_expiry(mover_certificate(o), date(2026, 2, 27))
    )
    sure.record_certificate(
        o.uow,
        o.clock,
        o.reg.clerk,
        sure.CertificateInput(
            municipality_id=o.reg.municipality_id,
            insured="Somebody Else Inc",
            insurer="Acme",
            policy="FAR-1",
            effective_on=date(2026, 1, 1),
            expires_on=date(2026, 12, 31),
            coverages=(Coverage(CoverageKind.PER_PERSON, D("100000")),),
        ),
    )
    rows = sure.expiry_watch(o.uow, o.clock, o.reg.municipality_id, 60)
    assert [(r.what, r.reference, r.ends_on, r.days_left, r.permits) for r in rows] == [
        ("Insurance certificate", "GL-4471", date(2026, 2, 27), -3, ("2026-0101",)),
        ("Bond", "SB-1001", date(2026, 4, 15), 44, ("2026-0101",)),
    ]
    assert rows[0].holder == "Lakeshore House Movers Inc"
    assert rows[0].holder_address.startswith("400 W Silver Spring Dr")
    assert rows[0].message == (
        "Certificate GL-4471 of Lakeshore House Movers Inc expired 02/27/2026; permit "
        "2026-0101 relies on it"
    )


# --- street deposits (15.1.43) ---------------------------------------------------------------


def _deposit(o: Office, amount: str = "500.00", **kw: Any) -> tuple[int, str]:
    deposit_id, paid = sure.take_deposit(
        o.uow,
        o.clock,
        o.reg.clerk,
        sure.DepositInput(
            permit_id=o.sewer,
            depositor="",
            depositor_party_id=o.plumber_id,
            amount=D(amount),
            refund_payee=kw.pop("refund_payee", ""),
            refund_address=kw.pop("refund_address", ""),
        ),
        Tender(PaymentMethod.CHECK, D(amount), "2231", "North Shore Plumbing Co", "Tri City"),
    )
    assert paid is not None
    return deposit_id, paid.receipt_number


def _held(o: Office) -> Decimal:
    uow = o.uow
    with uow:
        return cash.deposit_held(uow, o.sewer)


def _row(o: Office, deposit_id: int) -> Any:
    from types import SimpleNamespace

    from db import schema
    from desk.domain.model import StreetDeposit

    uow = o.uow
    with uow:
        row = uow.sureties.get(StreetDeposit, deposit_id)
        return SimpleNamespace(**{c.name: getattr(row, c.name) for c in schema.deposit.columns})


def test_the_deposit_is_taken_at_the_counter_into_the_liability_account(office: Office) -> None:
    o = office
    sure.set_permit_facts(
        o.uow,
        o.clock,
        o.reg.inspector,
        o.sewer,
        PermitFacts(excavates_public_street=True, street_paved=True),
    )
    assert (
        "No street deposit has been received: $500 is required before the permit is issued "
        "(15.1.43)"
    ) in o.shortfalls(o.sewer)
    deposit_id, receipt = _deposit(o)
    row = _row(o, deposit_id)
    assert (row.status, row.received_on, row.depositor) == (
        DepositState.HELD,
        ISSUE_DAY,
        "North Shore Plumbing Co",
    )
    assert row.depositor_address.startswith("5800 N Bayshore Dr")
    assert _held(o) == D("500.00")
    uow = o.uow
    with uow:
        accounts = {
            a.id: a for a in uow.cash.find(GlAccount, municipality_id=o.reg.municipality_id)
        }
        entries = uow.cash.find(GlEntry, payment_id=row.payment_id)
        assert [(accounts[e.account_id].number, e.amount) for e in entries] == [
            ("100-23100", D("500.00"))
        ]
        assert accounts[entries[0].account_id].purpose is AccountPurpose.DEPOSITS_HELD
    assert receipt.startswith("2026-")
    assert not any("street deposit" in s for s in o.shortfalls(o.sewer))


def test_the_deposit_is_refused_below_500_dollars_for_a_paved_street(office: Office) -> None:
    o = office
    with pytest.raises(ValidationError) as e:
        sure.record_deposit(
            o.uow,
            o.clock,
            o.reg.clerk,
            sure.DepositInput(
                permit_id=o.sewer, depositor_party_id=o.plumber_id, depositor="", amount=D("400.00")
            ),
        )
    assert e.value.field == "amount"
    assert "not reduce it (15.1.43)" in e.value.message
    with pytest.raises(ValidationError, match="takes no street deposit"):
        sure.record_deposit(
            o.uow,
            o.clock,
            o.reg.clerk,
            sure.DepositInput(
                permit_id=o.move, depositor="Lakeshore", depositor_address="x", amount=D("500.00")
            ),
        )


def test_the_deposit_is_eligible_on_the_180th_day_after_completion_not_the_179th(
    office: Office,
) -> None:
    o = office
    deposit_id, _ = _deposit(o)
    done = date(2026, 3, 10)
    o.clock.set(date(2026, 3, 12))
    assert sure.record_completion(o.uow, o.clock, o.reg.inspector, deposit_id, done) == date(
        2026, 9, 6
    )
    o.clock.set(done + timedelta(days=179))
    with pytest.raises(RuleViolation) as e:
        sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)
    assert str(e.value) == (
        "The deposit may be returned not less than 180 days after the work's proper completion "
        "on 03/10/2026: from 09/06/2026, 1 day from now (15.1.43)"
    )
    o.clock.set(done + timedelta(days=180))
    with pytest.raises(PermissionDenied, match="City Engineer"):
        sure.order_deposit_refund(o.uow, o.clock, o.reg.clerk, deposit_id)
    sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)
    row = _row(o, deposit_id)
    assert (row.status, row.ordered_on, row.ordered_by) == (
        DepositState.ORDERED,
        date(2026, 9, 6),
        "Erin Engineer",
    )


def test_an_office_without_an_engineer_names_the_treasurer_to_order_refunds(
    office: Office,
) -> None:
    """15.1.43: returned "upon order of the City Engineer by the City Clerk"; the Municipality
    screen's setting names the role acting for the engineer."""
    from desk.services.municipality import municipality_settings, update_municipality

    o = office
    deposit_id, _ = _deposit(o, refund_payee="Anna Schmidt", refund_address="6120 N Port Wash")
    _complete(o, o.sewer, date(2026, 3, 2))
    o.clock.set(date(2026, 10, 1))
    with pytest.raises(PermissionDenied) as e:
        sure.order_deposit_refund(o.uow, o.clock, o.reg.treasurer, deposit_id)
    assert str(e.value) == (
        "The City Engineer orders a deposit refund (15.1.43); your roles: treasurer."
    )
    mid = o.reg.municipality_id
    with pytest.raises(ValidationError, match="must be one of clerk, inspector, engineer"):
        update_municipality(o.uow, o.clock, o.reg.admin, mid, {"refund_order_role": "mayor"})
    assert update_municipality(
        o.uow, o.clock, o.reg.admin, mid, {"refund_order_role": "treasurer"}
    ) == ("refund_order_role",)
    assert municipality_settings(o.uow, mid).refund_order_role == "treasurer"
    with pytest.raises(PermissionDenied) as e:
        sure.order_deposit_refund(o.uow, o.clock, o.reg.clerk, deposit_id)
    assert str(e.value) == (
        "The City Engineer orders a deposit refund (15.1.43); in this office the treasurer's "
        "role acts for him; your roles: clerk."
    )
    sure.order_deposit_refund(o.uow, o.clock, o.reg.treasurer, deposit_id)
    row = _row(o, deposit_id)
    assert (row.status, row.ordered_on, row.ordered_by) == (
        DepositState.ORDERED,
        date(2026, 10, 1),
        "Terry Treasurer",
    )
    o.clock.set(date(2026, 10, 5))
    amount = sure.refund_deposit(
        o.uow, o.clock, o.reg.clerk, deposit_id, "10441", date(2026, 10, 5)
    )
    assert amount == D("500.00") and _held(o) == D("0.00")
    assert _row(o, deposit_id).status == DepositState.REFUNDED


def test_the_completion_comes_from_the_passed_final_inspection(office: Office) -> None:
    o = office
    deposit_id, _ = _deposit(o)
    _complete(o, o.sewer, date(2026, 4, 1))
    o.clock.set(date(2026, 9, 28))  # day 180
    sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)
    assert _row(o, deposit_id).ordered_on == date(2026, 9, 28)


def test_a_refund_without_the_engineers_order_is_refused(office: Office) -> None:
    o = office
    deposit_id, _ = _deposit(o)
    _complete(o, o.sewer, date(2026, 3, 2))
    o.clock.set(date(2026, 10, 1))
    with pytest.raises(RuleViolation) as e:
        sure.refund_deposit(o.uow, o.clock, o.reg.clerk, deposit_id, "10441", date(2026, 10, 1))
    assert str(e.value) == (
        "A street deposit is returned only upon the order of the City Engineer (15.1.43); no "
        "order is recorded for this deposit"
    )
    assert _held(o) == D("500.00")


def test_the_clerk_refunds_by_check_out_of_the_liability_account(office: Office) -> None:
    o = office
    deposit_id, _ = _deposit(o, refund_payee="Anna Schmidt", refund_address="6120 N Port Wash")
    _complete(o, o.sewer, date(2026, 3, 2))
    o.clock.set(date(2026, 8, 29))
    sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)
    o.clock.set(date(2026, 9, 3))
    with pytest.raises(PermissionDenied, match="City Clerk"):
        sure.refund_deposit(o.uow, o.clock, o.engineer, deposit_id, "10441", date(2026, 9, 3))
    amount = sure.refund_deposit(o.uow, o.clock, o.reg.clerk, deposit_id, "10441", date(2026, 9, 3))
    assert amount == D("500.00")
    row = _row(o, deposit_id)
    assert (row.status, row.check_number, row.check_date) == (
        DepositState.REFUNDED,
        "10441",
        date(2026, 9, 3),
    )
    assert _held(o) == D("0.00")
    uow = o.uow
    with uow:
        refund = uow.cash.get(Refund, row.refund_id)
        assert (refund.amount, refund.payer_name, refund.section, refund.check_number) == (
            D("500.00"),
            "Anna Schmidt",
            "15.1.43",
            "10441",
        )
        # The refund is a deposit returned, not an overpayment: the day's report says so.
        assert refund.ground is RefundGround.STREET_DEPOSIT
        assert refund.ground.label == (
            "Street deposit returned on the City Engineer's order (15.1.43)"
        )
    # The deposit returned is no longer charged: the permit owes nothing for it.
    assert cash.permit_balance(o.uow, o.clock, o.sewer).due == D("0.00")


def test_a_council_retention_splits_the_deposit_to_the_cent(office: Office) -> None:
    o = office
    deposit_id, _ = _deposit(o, "750.00")
    _complete(o, o.sewer, date(2026, 3, 2))
    o.clock.set(date(2026, 6, 1))
    with pytest.raises(PermissionDenied):
        sure.retain_deposit(
            o.uow, o.clock, o.engineer, deposit_id, "R-2026-41", date(2026, 5, 26), D("1"), "x"
        )
    number = sure.retain_deposit(
        o.uow,
        o.clock,
        o.reg.clerk,
        deposit_id,
        "R-2026-41",
        date(2026, 5, 26),
        D("212.35"),
        "Asphalt patch settled; the City re-paves the trench",
    )
    assert number == "100-46710"
    assert _held(o) == D("537.65")
    o.clock.set(date(2026, 8, 29))
    sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)
    refunded = sure.refund_deposit(
        o.uow, o.clock, o.reg.clerk, deposit_id, "10502", date(2026, 8, 29)
    )
    assert refunded == D("537.65")
    assert refunded + D("212.35") == D("750.00")
    assert _held(o) == D("0.00")
    uow = o.uow
    with uow:
        account = uow.cash.find(GlAccount, municipality_id=o.reg.municipality_id, number=number)[0]
        assert account.name == "Cost of completing street work"
        kept = sum(e.amount for e in uow.cash.find(GlEntry, account_id=account.id))
        assert kept == D("212.35")
    assert _row(o, deposit_id).status is DepositState.REFUNDED


def test_a_database_loaded_before_the_completion_account_was_shipped_gets_it_on_retention(
    database: Database, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """resources/gl_accounts.toml is loaded only into a municipality with no accounts yet: an
    older database has no 100-46710, and the first retention adds it as the file ships it."""
    shipped = cash.shipped_ledger

    def older_file(key: str) -> Any:
        ledger = shipped(key)
        kept = tuple(a for a in ledger.accounts if a.number != "100-46710")
        return type(ledger)(kept, ledger.fee_map, ledger.settings)

    monkeypatch.setattr(cash, "shipped_ledger", older_file)
    o = _office(database, clock)
    deposit_id, _ = _deposit(o)
    uow = o.uow
    with uow:
        numbers = {
            a.number for a in uow.cash.find(GlAccount, municipality_id=o.reg.municipality_id)
        }
    assert "100-23100" in numbers and "100-46710" not in numbers
    monkeypatch.setattr(cash, "shipped_ledger", shipped)  # the new file, the old database
    number = sure.retain_deposit(
        o.uow, o.clock, o.reg.clerk, deposit_id, "R-2026-9", ISSUE_DAY, D("80.00"), "patch"
    )
    assert number == "100-46710"
    uow = o.uow
    with uow:
        account = uow.cash.find(GlAccount, municipality_id=o.reg.municipality_id, number=number)[0]
        assert (account.name, account.kind) == (
            "Cost of completing street work",
            AccountKind.REVENUE,
        )
        assert sum(e.amount for e in uow.cash.find(GlEntry, account_id=account.id)) == D("80.00")
    assert _held(o) == D("420.00")


def test_a_whole_retention_leaves_nothing_to_refund(office: Office) -> None:
    o = office
    deposit_id, _ = _deposit(o)
    sure.retain_deposit(
        o.uow,
        o.clock,
        o.reg.clerk,
        deposit_id,
        "R-2026-7",
        ISSUE_DAY,
        D("500.00"),
        "Contractor abandoned the trench",
    )
    assert _row(o, deposit_id).status is DepositState.RETAINED
    o.clock.set(date(2027, 1, 1))
    _complete(o, o.sewer, date(2026, 3, 2))
    with pytest.raises(RuleViolation, match="retained the whole deposit"):
        sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)


def test_money_is_conserved_and_the_reconciliation_balances(office: Office) -> None:
    """The deposit sits in the liability account until it leaves by check or by retention; the
    treasurer's identity holds at every step."""
    o = office
    muni = o.reg.municipality_id
    deposit_id, _ = _deposit(o, "600.00")
    day = o.clock.today()
    expected = cash.drawer_day(o.uow, muni, cash.DEFAULT_DRAWER, day).expected
    close_id = cash.close_day(o.uow, o.clock, o.reg.clerk, muni, cash.DEFAULT_DRAWER, day, expected)
    turnover = cash.create_turnover(o.uow, o.clock, o.reg.clerk, muni, [close_id])
    cash.acknowledge_turnover(o.uow, o.clock, o.reg.treasurer, turnover, day, "DEP-1", D("600.00"))

    def check(start: date, end: date) -> Any:
        r = cash.reconciliation(o.uow, o.clock, muni, start, end)
        assert r.balanced and r.gl_balanced
        return r

    r = check(day, day)
    assert r.account("100-23100").closing == D("600.00")
    assert r.receipts == D("600.00") and r.acknowledged == D("600.00")

    _complete(o, o.sewer, date(2026, 3, 2))
    o.clock.set(date(2026, 5, 4))
    sure.retain_deposit(
        o.uow, o.clock, o.reg.clerk, deposit_id, "R-12", date(2026, 5, 4), D("100.00"), "patch"
    )
    o.clock.set(date(2026, 8, 31))
    sure.order_deposit_refund(o.uow, o.clock, o.engineer, deposit_id)
    sure.refund_deposit(o.uow, o.clock, o.reg.clerk, deposit_id, "10601", date(2026, 8, 31))
    r = check(day, date(2026, 8, 31))
    liability = r.account("100-23100")
    assert (liability.receipts, liability.transfers, liability.refunds, liability.closing) == (
        D("600.00"),
        D("-100.00"),
        D("-500.00"),
        D("0.00"),
    )
    assert r.account("100-46710").closing == D("100.00")
    assert r.refunds == D("500.00")
    assert r.undeposited == D("-500.00")  # the check goes with the next turnover
    later = cash.create_turnover(o.uow, o.clock, o.reg.clerk, muni, [])
    t = cash.transmittal(o.uow, later)
    assert [(x.number, x.name, x.amount) for x in t.refunds] == [
        ("10601", "North Shore Plumbing Co", D("500.00"))
    ]
    assert t.amount == D("-500.00")
    r = check(day, date(2026, 8, 31))
    assert r.pending == D("-500.00") and r.undeposited == D("0.00")
    # What the permit owes, paid and holds agree: nothing is due, nothing held.
    assert cash.permit_balance(o.uow, o.clock, o.sewer).due == D("0.00")


def test_a_deposit_line_already_paid_with_the_fees_is_held_from_that_receipt(
    office: Office,
) -> None:
    from desk.domain.cashiering import Allocation
    from desk.fees.engine import QuoteItem, QuoteRequest
    from desk.services import fees

    o = office
    fees.assess_fees(
        o.uow, o.clock, o.reg.clerk, o.sewer, QuoteRequest(items=(QuoteItem("DEPOSIT-STREET"),))
    )
    paid = cash.take_payment(
        o.uow,
        o.clock,
        o.reg.clerk,
        cash.PaymentInput(
            municipality_id=o.reg.municipality_id,
            tender=Tender(PaymentMethod.CASH, D("500.00")),
            allocations=(Allocation(o.sewer, D("500.00")),),
            payer_name="North Shore Plumbing Co",
        ),
    )
    deposit_id, again = sure.take_deposit(
        o.uow,
        o.clock,
        o.reg.clerk,
        sure.DepositInput(
            permit_id=o.sewer, depositor="", depositor_party_id=o.plumber_id, amount=D("500.00")
        ),
        Tender(PaymentMethod.CASH, D("500.00")),
    )
    assert again is None
    row = _row(o, deposit_id)
    assert (row.status, row.payment_id) == (DepositState.HELD, paid.payment_id)
    with pytest.raises(RuleViolation, match=r"already has a street deposit of \$500\.00"):
        sure.record_deposit(
            o.uow,
            o.clock,
            o.reg.clerk,
            sure.DepositInput(
                permit_id=o.sewer,
                depositor="",
                depositor_party_id=o.plumber_id,
                amount=D("500.00"),
            ),
        )


def test_the_sureties_tab_reads_requirements_on_file_and_shortfalls(office: Office) -> None:
    o = office
    sure.record_bond(o.uow, o.clock, o.reg.clerk, moving_bond(o))
    view = sure.permit_sureties(o.uow, o.clock, o.move)
    assert [r.what for r in view.requirements] == [
        "Bond to the City for moving the building",
        "Public liability and property damage insurance",
    ]
    assert view.requirements[0].detail.startswith("at least $1,000, by a corporate surety or two")
    assert [(f.what, f.reference, f.amount) for f in view.on_file] == [
        ("Bond", "SB-1001", "$1,000.00")
    ]
    assert view.shortfalls[0].startswith("No insurance certificate is on file")
