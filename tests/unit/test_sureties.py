"""Bonds, insurance and street deposits: the rules that hold a permit back, the bond's release,
the expiry watch and the 180-day deposit refund, with the words a clerk reads."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest

from desk.domain.enums import Role
from desk.domain.sureties import (
    Bond,
    BondKind,
    BondPurpose,
    BondScope,
    BondStatus,
    Coverage,
    CoverageKind,
    Deposit,
    DepositStatus,
    InsuranceCertificate,
    PermitFacts,
    ReleaseFacts,
    Retention,
    Watched,
    bond_status_on,
    completion_shortfalls,
    eligible_on,
    expiring,
    money_words,
    order_refund,
    record_claim,
    record_completion,
    record_refund,
    record_retention,
    release_bond,
    release_check,
    requirement_for,
    split,
    surety_shortfalls,
    validate_bond,
    validate_certificate,
)
from desk.errors import PermissionDenied, RuleViolation, ValidationError

D = Decimal
ISSUE = date(2026, 5, 4)
TERM_END = date(2026, 11, 4)
ENGINEER = frozenset({Role.ENGINEER})
CLERK = frozenset({Role.CLERK})
INSPECTOR = frozenset({Role.INSPECTOR})


def cert(**kw: object) -> InsuranceCertificate:
    values: dict[str, object] = {
        "insured": "Badger House Movers LLC",
        "insurer": "Wisconsin Mutual Insurance Co.",
        "policy": "GL-2026-118",
        "coverages": (
            Coverage(CoverageKind.PER_PERSON, D("100000.00")),
            Coverage(CoverageKind.PER_ACCIDENT, D("200000.00")),
            Coverage(CoverageKind.PROPERTY_DAMAGE, D("50000.00")),
        ),
        "effective": date(2026, 1, 1),
        "expiry": date(2027, 1, 1),
        "holder": "City of Glendale",
    }
    values.update(kw)
    return InsuranceCertificate(**values)  # type: ignore[arg-type]


def moving_bond(**kw: object) -> Bond:
    values: dict[str, object] = {
        "purpose": BondPurpose.MOVING,
        "principal": "Badger House Movers LLC",
        "obligee": "City of Glendale",
        "kind": BondKind.SURETY,
        "surety_company": "Western Surety Company",
        "number": "SB-1001",
        "amount": D("1000.00"),
        "conditions": frozenset({"barriers_48h"}),
        "effective": date(2026, 4, 1),
        "expiry": date(2027, 4, 1),
    }
    values.update(kw)
    return Bond(**values)  # type: ignore[arg-type]


def moving(
    bonds: list[Bond],
    certificates: list[InsuranceCertificate],
    facts: PermitFacts | None = None,
    issue: date = ISSUE,
    term_end: date | None = TERM_END,
) -> list[str]:
    facts = facts or PermitFacts()
    reqs = requirement_for("glendale", "MOVE", facts)
    return surety_shortfalls(reqs, bonds, certificates, issue, term_end, facts)


def with_limit(kind: CoverageKind, limit: str) -> InsuranceCertificate:
    base = cert()
    return replace(
        base,
        coverages=tuple(
            Coverage(c.kind, D(limit)) if c.kind is kind else c for c in base.coverages
        ),
    )


# --- moving a building (Glendale 15.1.9(f)(g)(h)) ---------------------------------------------


def test_a_moving_permit_may_be_issued_when_bond_and_all_coverages_hold() -> None:
    assert moving([moving_bond()], [cert()]) == []


@pytest.mark.parametrize(
    ("kind", "limit", "message"),
    [
        (
            CoverageKind.PER_PERSON,
            "50000.00",
            "Public liability coverage for one person $50,000 is below the $100,000 required "
            "(15.1.9(g))",
        ),
        (
            CoverageKind.PER_ACCIDENT,
            "150000.00",
            "Public liability coverage for one accident $150,000 is below the $200,000 "
            "required (15.1.9(g))",
        ),
        (
            CoverageKind.PROPERTY_DAMAGE,
            "25000.00",
            "Property damage coverage $25,000 is below the $50,000 required (15.1.9(g))",
        ),
    ],
)
def test_a_moving_permit_is_refused_for_each_insufficient_coverage(
    kind: CoverageKind, limit: str, message: str
) -> None:
    assert moving([moving_bond()], [with_limit(kind, limit)]) == [message]


def test_a_coverage_missing_from_the_certificate_is_named() -> None:
    no_property = replace(cert(), coverages=cert().coverages[:2])
    assert moving([moving_bond()], [no_property]) == [
        "No property damage coverage on file; $50,000 is required (15.1.9(g))"
    ]


def test_property_damage_on_a_second_certificate_completes_the_cover() -> None:
    liability = replace(cert(), coverages=cert().coverages[:2])
    property_damage = cert(
        policy="PD-77", coverages=(Coverage(CoverageKind.PROPERTY_DAMAGE, D("75000.00")),)
    )
    assert moving([moving_bond()], [liability, property_damage]) == []


def test_a_certificate_expiring_before_the_work_ends_holds_the_permit() -> None:
    assert moving([moving_bond()], [cert(expiry=date(2026, 7, 1))]) == [
        "Certificate GL-2026-118 expires 07/01/2026, before the permit's work ends on "
        "11/04/2026 (15.1.9(g))"
    ]


def test_a_certificate_expired_or_not_yet_in_force_on_the_issue_date_holds_the_permit() -> None:
    assert moving([moving_bond()], [cert(expiry=date(2026, 4, 30))]) == [
        "Certificate GL-2026-118 expired 04/30/2026, before the issue date 05/04/2026 (15.1.9(g))"
    ]
    assert moving([moving_bond()], [cert(effective=date(2026, 5, 5))]) == [
        "Certificate GL-2026-118 takes effect 05/05/2026, after the issue date 05/04/2026 "
        "(15.1.9(g))"
    ]


def test_a_certificate_in_force_through_the_last_day_of_the_term_is_enough() -> None:
    assert moving([moving_bond()], [cert(expiry=TERM_END)]) == []
    assert moving([moving_bond()], [cert(expiry=TERM_END - timedelta(days=1))]) != []


def test_without_bond_or_certificate_the_clerk_reads_what_is_required() -> None:
    assert moving([], []) == [
        "No bond to the City for moving the building is on file: at least $1,000, by a "
        "corporate surety or two personal sureties approved by the governing body or "
        "designated agent, conditioned on erecting adequate barriers and, within 48 hours, "
        "filling in the excavation (15.1.9(f)(1))",
        "No insurance certificate is on file: public liability $100,000 for one person and "
        "$200,000 for one accident, property damage $50,000 (15.1.9(g))",
    ]


def test_the_bond_reaches_the_amount_the_inspector_fixed() -> None:
    facts = PermitFacts(bond_amount=D("2500.00"))
    assert moving([moving_bond()], [cert()], facts) == [
        "Bond SB-1001 is for $1,000, below the $2,500 required (15.1.9(f)(1))"
    ]
    assert moving([moving_bond(amount=D("2500.00"))], [cert()], facts) == []


def test_the_inspector_cannot_fix_the_moving_bond_below_one_thousand_dollars() -> None:
    with pytest.raises(ValidationError) as e:
        requirement_for("glendale", "MOVE", PermitFacts(bond_amount=D("750.00")))
    assert e.value.field == "bond_amount"
    assert e.value.message == "$750 is below the $1,000 minimum (15.1.9(f)(1))"


def test_a_hazardous_excavation_needs_the_barrier_condition_unless_the_inspector_finds_none() -> (
    None
):
    bare = moving_bond(conditions=frozenset())
    assert moving([bare], [cert()]) == [
        "Bond SB-1001 is not conditioned on erecting adequate barriers and, within 48 hours, "
        "filling in the excavation (15.1.9(f)(2))"
    ]
    assert moving([bare], [cert()], PermitFacts(excavation_hazard=False)) == []


def test_personal_sureties_must_be_two_and_approved() -> None:
    one = moving_bond(
        number="PS-7", kind=BondKind.PERSONAL, surety_company="", personal_sureties=("A. Nowak",)
    )
    assert moving([one], [cert()]) == [
        "Bond PS-7 names one personal surety; two are required (15.1.9(f)(1))",
        "The personal sureties on bond PS-7 have not been approved by the governing body or "
        "designated agent (15.1.9(f)(1))",
    ]
    two = replace(one, personal_sureties=("A. Nowak", "B. Lindqvist"))
    assert moving([two], [cert()]) == [
        "The personal sureties on bond PS-7 have not been approved by the governing body or "
        "designated agent (15.1.9(f)(1))"
    ]
    approved = replace(two, sureties_approved="Common Council 2026-04-14, item 9")
    assert moving([approved], [cert()]) == []


def test_a_corporate_surety_bond_names_its_company_and_a_letter_of_credit_will_not_do() -> None:
    assert moving([moving_bond(surety_company="")], [cert()]) == [
        "Bond SB-1001 names no surety company (15.1.9(f)(1))"
    ]
    letter = moving_bond(number="LC-3", kind=BondKind.LETTER_OF_CREDIT, surety_company="")
    assert moving([letter], [cert()]) == [
        "Bond LC-3 is an irrevocable letter of credit; 15.1.9(f)(1) calls for a corporate "
        "surety or two personal sureties"
    ]


def test_a_bond_expiring_before_the_work_ends_holds_the_permit() -> None:
    assert moving([moving_bond(expiry=date(2026, 9, 30))], [cert()]) == [
        "Bond SB-1001 expires 09/30/2026, before the permit's work ends on 11/04/2026 "
        "(15.1.9(f)(1))"
    ]


def test_a_released_bond_no_longer_secures_a_permit() -> None:
    released = moving_bond(status=BondStatus.RELEASED, released_on=date(2026, 4, 20))
    assert moving([released], [cert()]) == [
        "Bond SB-1001 was released on 04/20/2026; a bond in force is required (15.1.9(f)(1))"
    ]


def test_an_exterior_alteration_needs_the_second_bond_to_the_plan_commission() -> None:
    facts = PermitFacts(exterior_altered=True)
    assert moving([moving_bond()], [cert()], facts) == [
        "No bond to the Plan Commission for the exterior alterations is on file: at least "
        "$1,000, by a corporate surety or two personal sureties approved by the governing body "
        "or designated agent, conditioned on completing the proposed exterior alterations "
        "within the time set by the Plan Commission (15.1.9(h)(1))"
    ]
    plan = moving_bond(
        purpose=BondPurpose.PLAN_COMMISSION,
        obligee="Plan Commission",
        number="SB-1002",
        conditions=frozenset({"exterior_alterations"}),
    )
    assert moving([moving_bond(), plan], [cert()], facts) == []


def test_a_bond_listing_other_permits_does_not_cover_this_one() -> None:
    bond = moving_bond(covers=("2026-0101",))
    facts = PermitFacts(permit_ref="2026-0117")
    assert moving([bond], [cert()], facts) == [
        "Bond SB-1001 covers permit 2026-0101, not 2026-0117 (15.1.9(f)(1))"
    ]


def test_an_association_certificate_does_not_stand_in_for_a_mover() -> None:
    assoc = cert(association=True, filed_on=date(2026, 1, 2))
    assert moving([moving_bond()], [assoc]) == [
        "Certificate GL-2026-118 is an association's certificate for its members; 15.1.9(g) "
        "calls for the applicant's own certificate"
    ]


# --- plumbing in a public street (Glendale 15.1.38) -------------------------------------------

PLUMBING_FACTS = PermitFacts(excavates_public_street=True)


def association_cert(filed_on: date) -> InsuranceCertificate:
    return InsuranceCertificate(
        insured="Milwaukee Area Plumbing Contractors Association",
        insurer="Lakeshore Casualty",
        policy="ASSN-2025-4",
        coverages=(
            Coverage(CoverageKind.PER_PERSON, D("50000.00")),
            Coverage(CoverageKind.PER_ACCIDENT, D("100000.00")),
        ),
        effective=date(2025, 1, 1),
        expiry=date(2027, 12, 31),  # the policy outlives the one year the ordinance allows
        association=True,
        members=("Kowalski Plumbing Inc", "Northshore Sewer & Water"),
        filed_on=filed_on,
    )


def plumbing(cert: InsuranceCertificate, issue: date, term_end: date) -> list[str]:
    reqs = requirement_for("glendale", "PLUMBING", PLUMBING_FACTS)
    return surety_shortfalls(reqs, [], [cert], issue, term_end, PLUMBING_FACTS)


def test_plumbing_needs_insurance_only_when_it_excavates_a_public_street() -> None:
    assert requirement_for("glendale", "PLUMBING", PermitFacts()).empty
    reqs = requirement_for("glendale", "PLUMBING", PLUMBING_FACTS)
    assert surety_shortfalls(reqs, [], [], ISSUE, TERM_END, PLUMBING_FACTS) == [
        "No insurance certificate is on file: public liability $50,000 for one person and "
        "$100,000 for one accident (15.1.38(a))"
    ]


def test_an_association_certificate_covers_members_through_one_year_from_filing() -> None:
    filed = association_cert(filed_on=date(2025, 6, 2))
    # 15.1.38(b): "each such member applying for a permit shall be deemed to have complied":
    # in force on the days of application and issue; the term may run past the anniversary.
    assert plumbing(filed, date(2026, 1, 5), date(2026, 6, 3)) == []
    assert plumbing(filed, date(2026, 6, 1), date(2026, 12, 1)) == []  # the day before
    assert plumbing(filed, date(2026, 6, 2), date(2026, 12, 2)) == []  # the anniversary
    assert plumbing(filed, date(2026, 6, 3), date(2026, 12, 3)) != []  # the day after


def test_an_association_certificate_must_be_in_force_on_the_day_of_application() -> None:
    reqs = requirement_for("glendale", "PLUMBING", PLUMBING_FACTS)
    filed = association_cert(filed_on=date(2025, 6, 2))
    late = replace(filed, effective=date(2026, 1, 6))

    def check(cert: InsuranceCertificate, applied: date) -> list[str]:
        return surety_shortfalls(
            reqs, [], [cert], date(2026, 1, 6), None, PLUMBING_FACTS, applied_on=applied
        )

    assert check(late, date(2026, 1, 6)) == []
    assert check(late, date(2026, 1, 5)) == [
        "Certificate ASSN-2025-4 takes effect 01/06/2026, after the application date 01/05/2026 "
        "(15.1.38(b))"
    ]
    # Applied on the anniversary, issued the day after: held on the issue date.
    assert check(filed, date(2026, 6, 2)) == []
    assert surety_shortfalls(
        reqs, [], [filed], date(2026, 6, 3), None, PLUMBING_FACTS, applied_on=date(2026, 6, 2)
    ) == [
        "Certificate ASSN-2025-4, filed by Milwaukee Area Plumbing Contractors Association on "
        "06/02/2025, stopped covering its members on 06/02/2026, one year from filing, before "
        "the issue date 06/03/2026 (15.1.38(b))"
    ]


def test_an_association_certificate_older_than_one_year_no_longer_covers_members() -> None:
    filed = association_cert(filed_on=date(2025, 6, 2))
    assert plumbing(filed, date(2026, 6, 3), date(2026, 12, 3)) == [
        "Certificate ASSN-2025-4, filed by Milwaukee Area Plumbing Contractors Association on "
        "06/02/2025, stopped covering its members on 06/02/2026, one year from filing, before "
        "the issue date 06/03/2026 (15.1.38(b))"
    ]
    refiled = association_cert(filed_on=date(2026, 6, 1))
    assert plumbing(refiled, date(2026, 6, 3), date(2026, 12, 3)) == []


# --- street deposits on issuance (Glendale 15.1.43) --------------------------------------------

PAVED = PermitFacts(excavates_public_street=True, street_paved=True)


def deposit(**kw: object) -> Deposit:
    values: dict[str, object] = {
        "amount": D("500.00"),
        "received_on": date(2026, 3, 2),
        "depositor": "Kowalski Plumbing Inc",
        "depositor_address": "4120 W Good Hope Rd, Milwaukee, WI 53209",
        "refund_payee": "Kowalski Plumbing Inc",
        "receipt_number": "R-2026-00412",
        "permit_ref": "2026-0088",
    }
    values.update(kw)
    return Deposit(**values)  # type: ignore[arg-type]


def sewer(facts: PermitFacts, deposits: list[Deposit]) -> list[str]:
    reqs = requirement_for("glendale", "SEWER-WATER", facts)
    insured = cert(
        coverages=(
            Coverage(CoverageKind.PER_PERSON, D("50000.00")),
            Coverage(CoverageKind.PER_ACCIDENT, D("100000.00")),
        )
    )
    return surety_shortfalls(reqs, [], [insured], ISSUE, TERM_END, facts, deposits)


def test_a_sewer_permit_in_a_paved_street_waits_for_the_500_dollar_deposit() -> None:
    assert sewer(PAVED, []) == [
        "No street deposit has been received: $500 is required before the permit is issued "
        "(15.1.43)"
    ]
    assert sewer(PAVED, [deposit()]) == []
    unpaved = replace(PAVED, street_paved=False)
    assert requirement_for("glendale", "SEWER-WATER", unpaved).deposits == ()


def test_the_city_engineer_may_increase_the_deposit_but_not_reduce_it() -> None:
    raised = replace(PAVED, deposit_amount=D("1200.00"))
    assert sewer(raised, [deposit()]) == [
        "The street deposit of $500 received is below the $1,200 the City Engineer has set "
        "(15.1.43)"
    ]
    assert sewer(raised, [deposit(), deposit(amount=D("700.00"))]) == []
    with pytest.raises(ValidationError) as e:
        requirement_for("glendale", "SEWER-WATER", replace(PAVED, deposit_amount=D("300.00")))
    assert e.value.message == (
        "the City Engineer may increase the $500 deposit, not reduce it (15.1.43)"
    )


# --- New Lisbon street openings (§435-7.J, K, L) and street privileges (§435-10.B) ------------


def nl_insurance() -> InsuranceCertificate:
    return cert(
        insured="Sauk Excavating Inc",
        policy="CGL-88213",
        holder="City of New Lisbon",
        expiry=date(2027, 6, 30),
        coverages=tuple(Coverage(k, D("500000.00")) for k in CoverageKind),
    )


def opening_bond(**kw: object) -> Bond:
    values: dict[str, object] = {
        "purpose": BondPurpose.STREET_OPENING,
        "principal": "Sauk Excavating Inc",
        "obligee": "City of New Lisbon",
        "kind": BondKind.SURETY,
        "surety_company": "Western Surety Company",
        "number": "SO-2026-1",
        "amount": D("20000.00"),
        "scope": BondScope.CONTRACTOR_YEAR,
        "year": 2026,
        "effective": date(2026, 1, 1),
    }
    values.update(kw)
    return Bond(**values)  # type: ignore[arg-type]


def opening(
    facts: PermitFacts, bonds: list[Bond], issue: date = date(2026, 6, 1), end: date | None = None
) -> list[str]:
    reqs = requirement_for("new_lisbon", "STREET-OPENING", facts)
    end = end or issue + timedelta(days=30)
    return surety_shortfalls(reqs, bonds, [nl_insurance()], issue, end, facts)


def test_the_street_opening_insurance_is_500000_each_for_the_whole_permit_period() -> None:
    facts = PermitFacts()
    reqs = requirement_for("new_lisbon", "STREET-OPENING", facts)
    short = replace(
        nl_insurance(),
        coverages=(
            *nl_insurance().coverages[:2],
            Coverage(CoverageKind.PROPERTY_DAMAGE, D("300000.00")),
        ),
    )
    assert surety_shortfalls(reqs, [], [short], ISSUE, TERM_END, facts) == [
        "Property damage coverage $300,000 is below the $500,000 required (§435-7.J)"
    ]
    assert surety_shortfalls(reqs, [], [nl_insurance()], ISSUE, TERM_END, facts) == []


def test_the_engineer_sets_the_amount_of_a_bond_he_requires() -> None:
    required = PermitFacts(engineer_requires_bond=True)
    assert opening(required, []) == [
        "No street opening bond is on file: in the amount the City Engineer sets, by a "
        "corporate surety or cash (§435-7.K)"
    ]
    single = opening_bond(scope=BondScope.PERMITS, year=None, number="SO-17", amount=D("5000"))
    assert opening(required, [single]) == [
        "The City Engineer has not set the amount of the street opening bond (§435-7.K)"
    ]
    assert opening(replace(required, bond_amount=D("5000.00")), [single]) == []
    assert opening(replace(required, bond_amount=D("8000.00")), [single]) == [
        "Bond SO-17 is for $5,000, below the $8,000 required (§435-7.K)"
    ]


def test_an_annual_bond_covers_the_contractors_openings_of_its_calendar_year_only() -> None:
    required = PermitFacts(engineer_requires_bond=True, bond_amount=D("5000.00"))
    annual = opening_bond()
    assert opening(required, [annual], date(2026, 1, 2)) == []
    assert opening(required, [annual], date(2026, 12, 1), date(2026, 12, 31)) == []
    assert opening(required, [annual], date(2026, 12, 10), date(2027, 1, 9)) == [
        "Bond SO-2026-1 is an annual bond for 2026: it covers work from 01/01/2026 "
        "to 12/31/2026 only, and the permit's work ends on 01/09/2027 (§435-7.K)"
    ]
    assert opening(required, [annual], date(2027, 5, 3)) == [
        "Bond SO-2026-1 is an annual bond for 2026: it covers work from 01/01/2026 "
        "to 12/31/2026 only, and the issue date is 05/03/2027 (§435-7.K)"
    ]


def test_a_public_utility_posts_no_street_opening_bond_but_still_insures() -> None:
    utility = PermitFacts(engineer_requires_bond=True, public_utility=True)
    reqs = requirement_for("new_lisbon", "STREET-OPENING", utility)
    # The restoration guarantee is no indemnity bond: the utility still files it at completion.
    assert [b.purpose for b in reqs.bonds] == [BondPurpose.RESTORATION]
    assert reqs.exemptions == (
        "A public utility is not required to post the indemnity bond (§435-7.L)",
    )
    assert opening(utility, []) == []
    assert surety_shortfalls(reqs, [], [], ISSUE, TERM_END, utility)[0].startswith(
        "No insurance certificate is on file"
    )


def test_the_restoring_contractor_files_a_one_year_guarantee_at_completion() -> None:
    facts = PermitFacts(restoration_bond_amount=D("2000.00"))
    reqs = requirement_for("new_lisbon", "STREET-OPENING", facts)
    done = date(2026, 6, 15)
    assert completion_shortfalls(reqs, [], done, facts) == [
        "No restoration guarantee is on file: at least $2,000, by a written guarantee or a "
        "corporate surety (§435-7.K)"
    ]
    guarantee = Bond(
        purpose=BondPurpose.RESTORATION,
        principal="Sauk Excavating Inc",
        obligee="City of New Lisbon",
        kind=BondKind.GUARANTEE,
        number="RG-31",
        amount=D("2000.00"),
        effective=done,
        expiry=date(2027, 6, 14),
    )
    assert completion_shortfalls(reqs, [guarantee], done, facts) == [
        "Bond RG-31 expires 06/14/2027, before the one-year guarantee ends on 06/15/2027 (§435-7.K)"
    ]
    assert completion_shortfalls(reqs, [replace(guarantee, expiry=None)], done, facts) == []
    # Not asked for at issuance.
    assert surety_shortfalls(reqs, [], [nl_insurance()], ISSUE, TERM_END, facts) == []


def privilege_bond(amount: str) -> Bond:
    return Bond(
        purpose=BondPurpose.STREET_PRIVILEGE,
        principal="Juneau County Builders",
        obligee="City of New Lisbon",
        kind=BondKind.SURETY,
        surety_company="Western Surety Company",
        number="SP-12",
        amount=D(amount),
        effective=date(2026, 5, 1),
        expiry=date(2026, 12, 31),
    )


def test_a_street_privilege_bond_may_not_exceed_ten_thousand_dollars() -> None:
    facts = PermitFacts()
    reqs = requirement_for("new_lisbon", "STREET-PRIVILEGE", facts)
    end = date(2026, 8, 4)
    assert surety_shortfalls(reqs, [privilege_bond("10000.00")], [], ISSUE, end, facts) == []
    assert surety_shortfalls(reqs, [privilege_bond("12000.00")], [], ISSUE, end, facts) == [
        "Bond SP-12 is recorded as $12,000, more than the $10,000 §435-10.B allows: the amount "
        "on record is an error, correct the bond's data"
    ]
    with pytest.raises(ValidationError) as e:
        requirement_for("new_lisbon", "STREET-PRIVILEGE", PermitFacts(bond_amount=D("15000")))
    assert e.value.message == "$15,000 exceeds the $10,000 the ordinance allows (§435-10.B)"


def test_erosion_control_surety_only_when_the_inspector_requires_it() -> None:
    assert requirement_for("glendale", "EROSION", PermitFacts()).empty
    facts = PermitFacts(inspector_requires_surety=True, bond_amount=D("3500.00"))
    reqs = requirement_for("glendale", "EROSION", facts)
    letter = Bond(
        purpose=BondPurpose.EROSION_CONTROL,
        principal="Riverside Homes LLC",
        obligee="City of Glendale",
        kind=BondKind.LETTER_OF_CREDIT,
        number="LC-2026-9",
        amount=D("3500.00"),
        effective=date(2026, 4, 1),
        expiry=date(2027, 4, 1),
    )
    assert surety_shortfalls(reqs, [letter], [], ISSUE, TERM_END, facts) == []


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValidationError):
        requirement_for("glendale", "NO-SUCH-KIND", PermitFacts())


# --- releasing a bond ---------------------------------------------------------------------------


def test_a_moving_bond_is_released_after_a_passed_final_inspection_by_the_inspector() -> None:
    bond = moving_bond()
    early = ReleaseFacts(on=date(2026, 6, 1), roles=INSPECTOR)
    assert release_check(bond, early) == [
        "Bond SB-1001 secures the work until it passes final inspection; no passed final "
        "inspection is recorded (15.1.9(f))"
    ]
    passed = replace(early, final_inspection_passed_on=date(2026, 5, 28))
    assert release_check(bond, passed) == []
    released = release_bond(bond, passed, by="T. Ruiz")
    assert (released.status, released.released_on, released.released_by) == (
        BondStatus.RELEASED,
        date(2026, 6, 1),
        "T. Ruiz",
    )
    assert release_check(released, passed) == [
        "Bond SB-1001 was already released on 06/01/2026 by T. Ruiz"
    ]


def test_only_the_engineer_or_the_inspector_releases_a_bond() -> None:
    facts = ReleaseFacts(
        on=date(2026, 6, 1), roles=CLERK, final_inspection_passed_on=date(2026, 5, 28)
    )
    assert release_check(moving_bond(), facts) == [
        "Releasing a bond takes the engineer's or the inspector's role"
    ]
    with pytest.raises(PermissionDenied):
        release_bond(moving_bond(), facts, by="clerk")
    assert release_check(moving_bond(), replace(facts, roles=ENGINEER)) == []


def test_a_restoration_guarantee_is_released_only_after_its_year() -> None:
    guarantee = Bond(
        purpose=BondPurpose.RESTORATION,
        principal="Sauk Excavating Inc",
        obligee="City of New Lisbon",
        kind=BondKind.GUARANTEE,
        number="RG-31",
        amount=D("2000.00"),
        effective=date(2026, 6, 15),
    )
    last_day = ReleaseFacts(on=date(2027, 6, 15), roles=ENGINEER, completed_on=date(2026, 6, 15))
    assert release_check(guarantee, last_day) == [
        "Bond RG-31 guarantees the work for one year from its completion on 06/15/2026, "
        "through 06/15/2027; it may be released from 06/16/2027 (§435-7.K)"
    ]
    assert release_check(guarantee, replace(last_day, on=date(2027, 6, 16))) == []
    with pytest.raises(RuleViolation):
        release_bond(guarantee, last_day, by="City Engineer")


def test_an_annual_bond_is_not_released_before_its_year_is_over() -> None:
    facts = ReleaseFacts(on=date(2026, 12, 31), roles=ENGINEER, completed_on=date(2025, 10, 1))
    assert release_check(opening_bond(), facts) == [
        "Bond SO-2026-1 is the annual bond for 2026 and covers openings through 12/31/2026; it "
        "may be released after its year (§435-7.K)"
    ]
    # Its last opening was completed in October: the one-year guarantee runs to 2027-10-01.
    later = replace(facts, on=date(2027, 1, 4), completed_on=date(2026, 10, 1))
    assert release_check(opening_bond(), later) == [
        "Bond SO-2026-1 guarantees the work for one year from its completion on 10/01/2026, "
        "through 10/01/2027; it may be released from 10/02/2027 (§435-7.K)"
    ]


def test_a_claim_is_recorded_with_its_amount_and_reason() -> None:
    claimed = record_claim(moving_bond(), date(2026, 7, 1), D("840.00"), "Curb at 5900 N Port")
    assert claimed.status is BondStatus.CLAIMED
    assert (claimed.claim_amount, claimed.claim_reason) == (D("840.00"), "Curb at 5900 N Port")
    with pytest.raises(ValidationError):
        record_claim(moving_bond(), date(2026, 7, 1), D("840.00"), " ")


def test_a_bond_in_force_past_its_expiry_shows_as_expired() -> None:
    bond = moving_bond(expiry=date(2026, 9, 30))
    assert bond_status_on(bond, date(2026, 9, 30)) is BondStatus.IN_FORCE
    assert bond_status_on(bond, date(2026, 10, 1)) is BondStatus.EXPIRED


def test_entry_checks_name_the_field() -> None:
    with pytest.raises(ValidationError) as e:
        validate_bond(opening_bond(year=None))
    assert e.value.field == "year"
    with pytest.raises(ValidationError) as e:
        validate_bond(moving_bond(amount=D("1000.005")))
    assert e.value.field == "amount"
    with pytest.raises(ValidationError) as e:
        validate_certificate(cert(association=True))
    assert e.value.field == "filed_on"
    validate_bond(moving_bond())
    validate_certificate(cert())


# --- expiry watch -------------------------------------------------------------------------------


def test_the_expiry_watch_lists_what_ends_in_60_days_and_what_ended_under_a_live_permit() -> None:
    on = date(2026, 5, 4)
    soon = cert(policy="GL-1", expiry=on + timedelta(days=12))
    day_60 = cert(policy="GL-2", expiry=on + timedelta(days=60))
    day_61 = cert(policy="GL-3", expiry=on + timedelta(days=61))
    lapsed_relied = cert(policy="GL-4", expiry=on - timedelta(days=3))
    lapsed_alone = cert(policy="GL-5", expiry=on - timedelta(days=3))
    open_ended = moving_bond(number="SB-9", expiry=None)
    released = moving_bond(number="SB-8", expiry=on, status=BondStatus.RELEASED)
    bond_soon = moving_bond(number="SB-7", expiry=on + timedelta(days=30))
    notices = expiring(
        [
            Watched(soon, ("2026-0117",)),
            Watched(day_60),
            Watched(day_61),
            Watched(lapsed_relied, ("2026-0090", "2026-0104")),
            Watched(lapsed_alone),
            Watched(open_ended, ("2026-0117",)),
            Watched(released, ("2026-0117",)),
            Watched(bond_soon, ("2026-0117",)),
        ],
        on,
    )
    assert [(n.reference, n.ends_on, n.days_left) for n in notices] == [
        ("GL-4", date(2026, 5, 1), -3),
        ("GL-1", date(2026, 5, 16), 12),
        ("SB-7", date(2026, 6, 3), 30),
        ("GL-2", date(2026, 7, 3), 60),
    ]
    assert notices[0].message == (
        "Certificate GL-4 of Badger House Movers LLC expired 05/01/2026; permits 2026-0090, "
        "2026-0104 rely on it"
    )
    assert notices[1].message == (
        "Certificate GL-1 of Badger House Movers LLC expires 05/16/2026 (in 12 days); permit "
        "2026-0117 relies on it"
    )
    assert notices[2].what == "Bond" and notices[2].issuer == "Western Surety Company"


def test_the_expiry_watch_counts_an_association_certificate_to_one_year_from_filing() -> None:
    on = date(2026, 5, 4)
    notices = expiring([Watched(association_cert(filed_on=date(2025, 6, 2)))], on)
    assert [(n.reference, n.ends_on) for n in notices] == [("ASSN-2025-4", date(2026, 6, 2))]


# --- street deposit refunds (15.1.43) -----------------------------------------------------------

COMPLETED = date(2026, 3, 2)


def test_a_deposit_is_eligible_on_the_180th_day_after_completion_not_the_179th() -> None:
    assert eligible_on(COMPLETED) == date(2026, 8, 29)
    d = deposit(completed_on=COMPLETED)
    assert d.status(date(2026, 8, 28)) is DepositStatus.HELD  # day 179
    assert d.status(date(2026, 8, 29)) is DepositStatus.ELIGIBLE  # day 180
    assert d.status(date(2026, 8, 30)) is DepositStatus.ELIGIBLE  # day 181
    assert deposit().status(date(2027, 1, 1)) is DepositStatus.HELD  # no completion recorded


def test_the_engineer_orders_the_refund_from_day_180_on() -> None:
    d = deposit(completed_on=COMPLETED)
    with pytest.raises(RuleViolation) as e:
        order_refund(d, date(2026, 8, 28), ENGINEER, by="City Engineer")
    assert str(e.value) == (
        "The deposit may be returned not less than 180 days after the work's proper completion "
        "on 03/02/2026: from 08/29/2026, 1 day from now (15.1.43)"
    )
    ordered = order_refund(d, date(2026, 8, 29), ENGINEER, by="City Engineer")
    assert ordered.status(date(2026, 8, 29)) is DepositStatus.ORDERED
    assert ordered.ordered_on == date(2026, 8, 29)
    with pytest.raises(PermissionDenied):
        order_refund(d, date(2026, 8, 29), CLERK, by="clerk")
    # An office without an engineer names the role acting for him (15.1.43); he still may.
    treasurer = frozenset({Role.TREASURER})
    acting = order_refund(d, date(2026, 8, 29), treasurer, by="T", orderer=Role.TREASURER)
    assert acting.ordered_on == date(2026, 8, 29)
    assert order_refund(d, date(2026, 8, 29), ENGINEER, by="E", orderer=Role.TREASURER).ordered_by
    with pytest.raises(PermissionDenied, match="treasurer's role acts for him; your roles: clerk"):
        order_refund(d, date(2026, 8, 29), CLERK, by="clerk", orderer=Role.TREASURER)


def test_a_refund_without_the_engineers_order_is_refused() -> None:
    d = deposit(completed_on=COMPLETED)
    with pytest.raises(RuleViolation) as e:
        record_refund(d, date(2026, 9, 15), CLERK, check_number="20931", by="clerk")
    assert str(e.value) == (
        "A street deposit is returned only upon the order of the City Engineer (15.1.43); no "
        "order is recorded for this deposit"
    )


def test_the_clerk_refunds_the_whole_deposit_by_check_after_the_order() -> None:
    ordered = order_refund(deposit(completed_on=COMPLETED), date(2026, 9, 1), ENGINEER, by="CE")
    with pytest.raises(PermissionDenied):
        record_refund(ordered, date(2026, 9, 15), ENGINEER, check_number="20931", by="CE")
    with pytest.raises(ValidationError) as e:
        record_refund(ordered, date(2026, 9, 15), CLERK, check_number=" ", by="clerk")
    assert e.value.field == "check_number"
    refunded = record_refund(ordered, date(2026, 9, 15), CLERK, check_number="20931", by="clerk")
    assert refunded.status(date(2026, 9, 15)) is DepositStatus.REFUNDED
    assert (refunded.check_number, refunded.refund_amount) == ("20931", D("500.00"))
    with pytest.raises(RuleViolation):
        record_refund(refunded, date(2026, 9, 16), CLERK, check_number="20932", by="clerk")


def test_a_council_retention_splits_the_deposit_to_the_cent() -> None:
    retention = Retention(
        resolution="R-2026-41",
        resolved_on=date(2026, 8, 11),
        amount=D("137.45"),
        reason="Patch the settled trench at 6100 N Santa Monica Blvd",
    )
    kept = record_retention(deposit(completed_on=COMPLETED), retention, CLERK)
    assert split(kept).refund == D("362.55")
    assert split(kept).retained == D("137.45")
    assert split(kept).refund + split(kept).retained == kept.amount
    ordered = order_refund(kept, date(2026, 8, 29), ENGINEER, by="CE")
    refunded = record_refund(ordered, date(2026, 9, 3), CLERK, check_number="20940", by="clerk")
    assert refunded.status(date(2026, 9, 3)) is DepositStatus.REFUNDED
    assert refunded.refund_amount == D("362.55")
    with pytest.raises(RuleViolation):
        record_retention(kept, retention, CLERK)


def test_a_whole_retention_leaves_nothing_to_order() -> None:
    retention = Retention(
        resolution="R-2026-52",
        resolved_on=date(2026, 9, 8),
        amount=D("500.00"),
        reason="Lateral never restored; the City completes the work",
    )
    kept = record_retention(deposit(completed_on=COMPLETED), retention, CLERK)
    assert kept.status(date(2026, 9, 8)) is DepositStatus.RETAINED
    assert split(kept).refund == D("0.00")
    with pytest.raises(RuleViolation) as e:
        order_refund(kept, date(2026, 9, 9), ENGINEER, by="CE")
    assert str(e.value) == (
        "The Common Council retained the whole deposit by resolution R-2026-52 of 09/08/2026; "
        "nothing is left to return (15.1.43)"
    )


def test_a_retention_cannot_exceed_the_deposit_and_names_its_resolution() -> None:
    base = Retention(
        resolution="R-1", resolved_on=date(2026, 9, 8), amount=D("500.01"), reason="Completion"
    )
    with pytest.raises(ValidationError) as e:
        record_retention(deposit(), base, CLERK)
    assert (e.value.field, e.value.message) == (
        "amount",
        "the Council can retain at most the deposit, $500",
    )
    with pytest.raises(ValidationError) as e:
        record_retention(deposit(), replace(base, amount=D("100"), resolution=""), CLERK)
    assert e.value.field == "resolution"
    with pytest.raises(PermissionDenied):
        record_retention(deposit(), replace(base, amount=D("100")), ENGINEER)


def test_the_refund_goes_to_the_payee_on_record_not_necessarily_the_depositor() -> None:
    d = deposit(refund_payee="Maria Alvarez", refund_address="6120 N Lake Dr, Glendale, WI 53217")
    assert (d.payee, d.payee_address) == ("Maria Alvarez", "6120 N Lake Dr, Glendale, WI 53217")
    same = deposit(refund_payee="")
    assert (same.payee, same.payee_address) == (
        "Kowalski Plumbing Inc",
        "4120 W Good Hope Rd, Milwaukee, WI 53209",
    )


def test_the_completion_date_is_fixed_once_the_refund_is_ordered() -> None:
    d = record_completion(deposit(), COMPLETED)
    assert d.eligible_from == date(2026, 8, 29)
    ordered = order_refund(d, date(2026, 9, 1), ENGINEER, by="CE")
    with pytest.raises(RuleViolation):
        record_completion(ordered, date(2026, 4, 1))


def test_money_reads_as_the_ordinance_writes_it() -> None:
    assert money_words(D("50000.00")) == "$50,000"
    assert money_words(D("362.55")) == "$362.55"
