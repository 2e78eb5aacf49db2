"""Bonds, insurance certificates and street deposits: the register, what a permit
needs on file before it is issued, releases and claims, the expiry watch, and the street
deposit's way from the counter back to the depositor (Glendale 15.1.43).

The rules are desk/domain/sureties.py (requirements per municipality and permit kind in
resources/surety_requirements.toml); each service here checks who acts, reads the register,
applies the rule and writes the rows. A deposit's money moves only through cashiering: it is
paid as the permit's DEPOSIT-STREET line, which books to the liability account "Street deposits
held" (never revenue); the clerk's check takes it out of that account as a refund of its own;
a Council retention transfers the amount kept to the account that pays the cost of completing
the work (desk/services/cashiering.py: take_payment, return_deposit_within,
retain_deposit_within).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import TypeVar

from desk.clock import Clock
from desk.dates import short_date
from desk.domain.cashiering import AdjustmentSource, Allocation, Tender
from desk.domain.enums import PartyRole, PermitStatus, Role
from desk.domain.kinds import kind_by_code
from desk.domain.lifecycle import ACTIVE
from desk.domain.model import (
    Actor,
    AssociationMember,
    BondPermit,
    BondRecord,
    BondSurety,
    CoverageRecord,
    DepositState,
    FeeAdjustment,
    GlEntry,
    InsuranceCertificateRecord,
    Municipality,
    Party,
    Payment,
    Permit,
    StreetDeposit,
    SuretyFacts,
)
from desk.domain.permissions import Permission, require
from desk.domain.sureties import (
    ZERO,
    Bond,
    BondKind,
    BondPurpose,
    BondScope,
    BondStatus,
    Coverage,
    CoverageKind,
    Deposit,
    DepositStatus,
    ExpiryNotice,
    InsuranceCertificate,
    PermitFacts,
    ReleaseFacts,
    Requirements,
    Retention,
    Watched,
    bond_status_on,
    completion_shortfalls,
    eligible_on,
    expiring,
    money_words,
    order_refund,
    record_claim,
    record_refund,
    record_retention,
    refund_order_role,
    release_check,
    requirement_for,
    split,
    surety_shortfalls,
    validate_bond,
    validate_certificate,
)
from desk.domain.sureties import (
    record_completion as completion_rule,
)
from desk.domain.sureties import (
    release_bond as release_rule,
)
from desk.errors import NotFound, PermissionDenied, RuleViolation, ValidationError
from desk.money import CENT, format_money
from desk.services import cashiering
from desk.services.cashiering import permit_label
from desk.services.lifecycle import permit_dates, term_end
from desk.services.uow import UnitOfWork
from desk.services.versions import check_version
from desk.text import sentence_start

DEPOSIT_CODE = cashiering.DEPOSIT_CODE
# Who the contractor on a permit is, for an annual bond (§435-7.K "the principal") and a
# contractor's own certificate; the plumber, for an association's certificate (15.1.38(b)).
CONTRACTOR_ROLES = (
    PartyRole.APPLICANT,
    PartyRole.CONTRACTOR,
    PartyRole.PLUMBER,
    PartyRole.ELECTRICIAN,
    PartyRole.HVAC_CONTRACTOR,
)
# Permits that rely on a bond or certificate for the expiry watch: issued and alive, and
# approved ones about to be issued.
RELYING = ACTIVE | {PermitStatus.APPROVED}
FACT_ROLES = frozenset({Role.INSPECTOR, Role.ENGINEER, Role.ADMINISTRATOR})
CLOSED = frozenset(
    {
        PermitStatus.COMPLETED,
        PermitStatus.EXPIRED,
        PermitStatus.REVOKED,
        PermitStatus.WITHDRAWN,
        PermitStatus.DENIED,
        PermitStatus.VOID,
    }
)


def fold(name: str) -> str:
    """A name as the register matches it: case and spacing do not matter."""
    return " ".join(name.split()).lower()


def _permit(uow: UnitOfWork, permit_id: int) -> Permit:
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def _municipality(uow: UnitOfWork, municipality_id: int) -> Municipality:
    muni = uow.municipalities.get(municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return muni


def _user_name(uow: UnitOfWork, actor: Actor) -> str:
    user = uow.users.get(actor.user_id)
    return user.full_name if user is not None and user.full_name else actor.username


_Row = TypeVar("_Row", BondRecord, InsuranceCertificateRecord, StreetDeposit)


def _record(uow: UnitOfWork, cls: type[_Row], row_id: int, noun: str) -> _Row:
    """A bond, certificate or deposit of the register by id (NotFound names it)."""
    row = uow.sureties.get(cls, row_id)
    if row is None:
        raise NotFound(f"{noun} #{row_id} does not exist")
    return row


def _party(uow: UnitOfWork, party_id: int | None, field: str) -> Party | None:
    if party_id is None:
        return None
    party = uow.parties.get(party_id)
    if party is None:
        raise ValidationError(field, f"party #{party_id} does not exist")
    return party


def _money(field: str, amount: Decimal | None) -> Decimal | None:
    if amount is None:
        return None
    if not amount.is_finite() or amount != amount.quantize(CENT):
        raise ValidationError(field, "enter an amount in dollars and cents")
    if amount <= 0:
        raise ValidationError(field, "must be more than $0.00")
    return amount.quantize(CENT)


# --- the rules' views of the register's rows -----------------------------------------------------


def bond_view(row: BondRecord, covers: Sequence[str] = ()) -> Bond:
    """The domain's Bond of a register row; `covers` the numbers of the permits it names."""
    return Bond(
        purpose=row.purpose,
        principal=row.principal,
        obligee=row.obligee,
        kind=row.kind,
        amount=row.amount,
        effective=row.effective_on,
        expiry=row.expires_on,
        number=row.number,
        surety_company=row.surety_company,
        personal_sureties=tuple(s.name for s in row.sureties),
        sureties_approved=row.sureties_approved,
        conditions=frozenset(row.conditions),
        scope=row.scope,
        covers=tuple(covers),
        year=row.year,
        status=row.status,
        released_on=row.released_on,
        released_by=row.released_by,
        claimed_on=row.claimed_on,
        claim_amount=row.claim_amount,
        claim_reason=row.claim_reason,
        id=row.id,
    )


def certificate_view(row: InsuranceCertificateRecord) -> InsuranceCertificate:
    return InsuranceCertificate(
        insured=row.insured,
        insurer=row.insurer,
        policy=row.policy,
        coverages=tuple(Coverage(c.kind, c.limit_amount) for c in row.coverages),
        effective=row.effective_on,
        expiry=row.expires_on,
        holder=row.holder,
        file_reference=row.file_reference,
        association=row.association,
        members=tuple(m.name for m in row.members),
        filed_on=row.filed_on,
        id=row.id,
    )


def deposit_view(
    row: StreetDeposit, permit_completed_on: date | None = None, permit_ref: str = ""
) -> Deposit | None:
    """The domain's Deposit of a register row; None while it awaits payment. The completion is
    the date the inspector entered, else the permit's passed final (15.1.43 "proper
    completion")."""
    if row.received_on is None:
        return None
    retention = None
    if row.retention_amount is not None and row.retention_resolved_on is not None:
        retention = Retention(
            resolution=row.retention_resolution,
            resolved_on=row.retention_resolved_on,
            amount=row.retention_amount,
            reason=row.retention_reason,
        )
    return Deposit(
        amount=row.amount,
        received_on=row.received_on,
        depositor=row.depositor,
        depositor_address=row.depositor_address,
        refund_payee=row.refund_payee,
        refund_address=row.refund_address,
        permit_ref=permit_ref,
        completed_on=row.completed_on or permit_completed_on,
        ordered_on=row.ordered_on,
        ordered_by=row.ordered_by,
        retention=retention,
        refunded_on=row.check_date if row.refund_id is not None else None,
        check_number=row.check_number,
        id=row.id,
    )


# --- a permit's facts --------------------------------------------------------------------------


def facts_within(uow: UnitOfWork, permit: Permit) -> PermitFacts:
    """What the permit's requirements turn on: the facts the inspector or engineer recorded, a
    street opening's excavation (§435-7: it is what the permit is for), and the street of a
    deposit on file (15.1.43)."""
    assert permit.id is not None
    found = uow.sureties.find(SuretyFacts, permit_id=permit.id)
    facts = PermitFacts(permit_ref=permit.number or "")
    if found:
        f = found[0]
        facts = PermitFacts(
            excavation_hazard=f.excavation_hazard,
            exterior_altered=f.exterior_altered,
            excavates_public_street=f.excavates_public_street,
            street_paved=f.street_paved,
            engineer_requires_bond=f.engineer_requires_bond,
            inspector_requires_surety=f.inspector_requires_surety,
            public_utility=f.public_utility,
            bond_amount=f.bond_amount,
            plan_commission_bond_amount=f.plan_commission_bond_amount,
            restoration_bond_amount=f.restoration_bond_amount,
            deposit_amount=f.deposit_amount,
            permit_ref=permit.number or "",
        )
    if permit.kind == "STREET-OPENING" and not facts.excavates_public_street:
        facts = replace(facts, excavates_public_street=True)
    deposits = uow.sureties.deposits_for(permit.id)
    if deposits and not found:
        facts = replace(
            facts,
            excavates_public_street=True,
            street_paved=any(d.street_paved for d in deposits),
        )
    return facts


def permit_facts(uow: UnitOfWork, permit_id: int) -> PermitFacts:
    with uow:
        return facts_within(uow, _permit(uow, permit_id))


def set_permit_facts(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, facts: PermitFacts
) -> None:
    """The inspector or engineer records what the permit's conditions turn on: a hazardous
    excavation, an altered exterior, a public street excavated and paved, a bond required, and
    the amounts they fixed. The amounts are checked against the ordinance's floor and cap."""
    if not actor.roles & FACT_ROLES:
        raise PermissionDenied(
            "The inspector or the City Engineer records a permit's bond, insurance and deposit "
            "conditions"
        )
    for name in ("bond_amount", "plan_commission_bond_amount", "restoration_bond_amount"):
        _money(name, getattr(facts, name))
    _money("deposit_amount", facts.deposit_amount)
    with uow:
        uow.act_as(actor, clock.now())
        permit = _permit(uow, permit_id)
        muni = _municipality(uow, permit.municipality_id)
        requirement_for(muni.ordinance, permit.kind, facts)  # the amounts within floor and cap
        found = uow.sureties.find(SuretyFacts, permit_id=permit_id)
        row = found[0] if found else SuretyFacts(permit_id=permit_id)
        for name in (
            "excavation_hazard",
            "exterior_altered",
            "excavates_public_street",
            "street_paved",
            "engineer_requires_bond",
            "inspector_requires_surety",
            "public_utility",
            "bond_amount",
            "plan_commission_bond_amount",
            "restoration_bond_amount",
            "deposit_amount",
        ):
            setattr(row, name, getattr(facts, name))
        row.by_user_id = actor.user_id
        row.at = clock.now()
        if not found:
            uow.sureties.add(row)
        uow.commit()


# --- what is on file for a permit ----------------------------------------------------------------


def _contractors(permit: Permit) -> tuple[set[int], set[str]]:
    ids: set[int] = set()
    names: set[str] = set()
    for link in permit.parties:
        if link.role in CONTRACTOR_ROLES:
            if link.party.id is not None:
                ids.add(link.party.id)
            names.add(fold(link.party.name))
    return ids, names


def _all_parties(permit: Permit) -> tuple[set[int], set[str]]:
    ids = {link.party.id for link in permit.parties if link.party.id is not None}
    return ids, {fold(link.party.name) for link in permit.parties}


def _plumbers(permit: Permit) -> tuple[set[int], set[str]]:
    links = [link for link in permit.parties if link.role is PartyRole.PLUMBER]
    return (
        {link.party.id for link in links if link.party.id is not None},
        {fold(link.party.name) for link in links},
    )


def _covers(uow: UnitOfWork, row: BondRecord) -> list[str]:
    out = []
    for link in row.permits:
        p = uow.permits.get(link.permit_id)
        if p is not None and p.number:
            out.append(p.number)
    return out


def bonds_on_file(uow: UnitOfWork, permit: Permit) -> list[BondRecord]:
    """The bonds that name the permit and the contractor's annual bonds (§435-7.K)."""
    assert permit.id is not None
    rows = {r.id: r for r in uow.sureties.bonds_for_permit(permit.id)}
    ids, names = _contractors(permit)
    if ids or names:
        for r in uow.sureties.bonds_of(permit.municipality_id, ids, names):
            if r.scope is BondScope.CONTRACTOR_YEAR:
                rows.setdefault(r.id, r)
    return sorted(rows.values(), key=lambda r: r.id or 0)


def certificates_on_file(uow: UnitOfWork, permit: Permit) -> list[InsuranceCertificateRecord]:
    """The certificates of the permit's parties, and the certificate of an association that
    lists the permit's plumber among its members (15.1.38(b))."""
    ids, names = _all_parties(permit)
    if not ids and not names:
        return []
    plumber_ids, plumber_names = _plumbers(permit)
    out = []
    for c in uow.sureties.certificates_of(permit.municipality_id, ids, names):
        if not c.association or any(
            (m.party_id is not None and m.party_id in plumber_ids) or fold(m.name) in plumber_names
            for m in c.members
        ):
            out.append(c)
    return out


def _term(uow: UnitOfWork, permit: Permit, on: date) -> date | None:
    """The end of the permit's term were it issued on `on` (or as issued)."""
    muni = _municipality(uow, permit.municipality_id)
    try:
        rule = kind_by_code(muni.ordinance, permit.kind).lifecycle
    except ValidationError:
        return None
    dates = permit_dates(permit, rule)
    if permit.issued_on is None:
        dates = replace(dates, issued_on=on, status=PermitStatus.ISSUED)
    return term_end(dates)


def _requirements(uow: UnitOfWork, permit: Permit, facts: PermitFacts) -> Requirements | None:
    muni = _municipality(uow, permit.municipality_id)
    try:
        return requirement_for(muni.ordinance, permit.kind, facts)
    except ValidationError:
        return None  # a kind this municipality does not list: nothing to require


def surety_shortfalls_for(uow: UnitOfWork, permit_id: int, on: date) -> list[str]:
    """Every bond, insurance and deposit requirement the permit does not meet on `on` and
    through its term, in words with its section; [] when none. Inside an open unit of work
    (issue_permit's transaction)."""
    permit = _permit(uow, permit_id)
    facts = facts_within(uow, permit)
    muni = _municipality(uow, permit.municipality_id)
    try:
        requirements = requirement_for(muni.ordinance, permit.kind, facts)
    except ValidationError as e:
        if e.field == "kind":
            return []
        return [f"The recorded {e.field.replace('_', ' ')}: {e.message}"]
    if requirements.empty:
        return []
    bonds = [bond_view(r, _covers(uow, r)) for r in bonds_on_file(uow, permit)]
    certificates = [certificate_view(c) for c in certificates_on_file(uow, permit)]
    deposits = [
        d
        for row in uow.sureties.deposits_for(permit_id)
        if (d := deposit_view(row, permit.completed_on, permit.number or "")) is not None
    ]
    return surety_shortfalls(
        requirements,
        bonds,
        certificates,
        on,
        _term(uow, permit, on),
        facts,
        deposits,
        # 15.1.38(b): a member's association certificate is read on these days of record.
        applied_on=permit.applied_on,
        issued_on=permit.issued_on,
    )


# --- the permit window's Sureties tab ------------------------------------------------------------


@dataclass(frozen=True)
class RequirementLine:
    what: str  # "Bond to the City for moving the building"
    detail: str  # "at least $1,000, by a corporate surety or two personal sureties ..."
    section: str


@dataclass(frozen=True)
class OnFileLine:
    what: str  # "Bond", "Insurance certificate", "Street deposit"
    reference: str
    holder: str
    amount: str  # the bond's amount, the certificate's limits, the deposit
    period: str
    status: str
    id: int


@dataclass(frozen=True)
class PermitSureties:
    permit_id: int
    number: str
    kind: str
    facts: PermitFacts
    requirements: tuple[RequirementLine, ...]
    exemptions: tuple[str, ...]
    on_file: tuple[OnFileLine, ...]
    shortfalls: tuple[str, ...]  # at issuance (or today, for an issued permit)
    completion: tuple[str, ...]  # what is due at completion (§435-7.K)
    checked_on: date
    term_ends: date | None
    status: PermitStatus = PermitStatus.APPLIED
    notes: tuple[str, ...] = ()  # information, not shortfalls (an association's cover, ...)

    @property
    def closed(self) -> bool:
        """Completed, expired, revoked, withdrawn, denied or void: nothing more is checked."""
        return self.status in CLOSED


def _limits_text(c: InsuranceCertificate) -> str:
    words = {
        CoverageKind.PER_PERSON: "person",
        CoverageKind.PER_ACCIDENT: "accident",
        CoverageKind.PROPERTY_DAMAGE: "property",
    }
    return ", ".join(f"{money_words(c_.limit)} {words[c_.kind]}" for c_ in c.coverages)


def permit_sureties(uow: UnitOfWork, clock: Clock, permit_id: int) -> PermitSureties:
    """What the permit needs, what is on file for it, and what is short today and through the
    end of its term (an application: were it issued today). A closed permit (completed,
    expired, revoked, ...) is not checked any more."""
    today = clock.today()
    with uow:
        permit = _permit(uow, permit_id)
        facts = facts_within(uow, permit)
        reqs = _requirements(uow, permit, facts)
        lines: list[RequirementLine] = []
        if reqs is not None:
            for br in reqs.bonds:
                lines.append(RequirementLine(br.label, br.describe(), br.section))
            for i in reqs.insurance:
                detail = i.describe()
                if i.association:
                    detail += "; an association's certificate covers its members for one year"
                lines.append(RequirementLine(i.label, detail, i.section))
            for d in reqs.deposits:
                detail = f"{money_words(d.amount)}, held in {d.held_in or 'a liability account'}"
                detail += f", returned {d.refund_after_days} days after completion"
                lines.append(RequirementLine(d.label, detail, d.section))
        on_file: list[OnFileLine] = []
        for r in bonds_on_file(uow, permit):
            b = bond_view(r, _covers(uow, r))
            until = b.covered_until()
            on_file.append(
                OnFileLine(
                    "Bond",
                    r.number or "(no number)",
                    r.principal,
                    format_money(r.amount),
                    f"{short_date(r.effective_on)} – {short_date(until) if until else 'release'}",
                    f"{r.purpose.label}; {bond_status_on(b, today).label}",
                    r.id or 0,
                )
            )
        notes: list[str] = []
        for c in certificates_on_file(uow, permit):
            cv = certificate_view(c)
            if c.association:
                notes.append(_association_note(reqs, cv))
            on_file.append(
                OnFileLine(
                    "Association certificate" if c.association else "Insurance certificate",
                    c.policy,
                    c.insured,
                    _limits_text(cv),
                    f"{short_date(c.effective_on)} – {short_date(cv.covered_until())}",
                    "In force" if cv.covered_until() >= today else "Expired",
                    c.id or 0,
                )
            )
        for row in uow.sureties.deposits_for(permit_id):
            dv = deposit_view(row, permit.completed_on, permit.number or "")
            on_file.append(
                OnFileLine(
                    "Street deposit",
                    f"receipt {_receipt_number(uow, row)}" if row.payment_id else "",
                    row.depositor,
                    format_money(row.amount),
                    short_date(row.received_on) if row.received_on else "",
                    deposit_status_text(row, dv, today),
                    row.id or 0,
                )
            )
        on = today
        closed = permit.status in CLOSED
        shortfalls = [] if closed else surety_shortfalls_for(uow, permit_id, on)
        completion: list[str] = []
        if reqs is not None and permit.completed_on is not None:
            bonds = [bond_view(r, _covers(uow, r)) for r in bonds_on_file(uow, permit)]
            completion = completion_shortfalls(reqs, bonds, permit.completed_on, facts)
        return PermitSureties(
            permit_id=permit_id,
            number=permit.number or "",
            kind=permit.kind,
            facts=facts,
            requirements=tuple(lines),
            exemptions=reqs.exemptions if reqs is not None else (),
            on_file=tuple(on_file),
            shortfalls=tuple(shortfalls),
            completion=tuple(completion),
            checked_on=on,
            term_ends=None if closed else _term(uow, permit, on),
            status=permit.status,
            notes=tuple(notes),
        )


def _association_note(reqs: Requirements | None, cert: InsuranceCertificate) -> str:
    """15.1.38(b): the association's cover, shown as information; it need not outlast the
    permit's term (the member is deemed to have complied when applying)."""
    req = next((i for i in (reqs.insurance if reqs else ()) if i.association), None)
    months = req.association_months if req else 12
    section = (req.association_section if req else "") or "15.1.38(b)"
    until = cert.covered_until(months)
    return (
        f"The permit's plumber is covered by the {cert.insured} certificate "
        f"{cert.policy or '(no number)'}, in force until {short_date(until)} ({section}): a member "
        "is deemed to have complied with the insurance requirement when the certificate is in "
        "force on the days the permit is applied for and issued; it need not outlast the "
        "permit's term."
    )


def _receipt_number(uow: UnitOfWork, row: StreetDeposit) -> str:
    if row.payment_id is None:
        return ""
    payment = uow.cash.get(Payment, row.payment_id)
    return payment.receipt_number if payment is not None else ""


def deposit_status_text(row: StreetDeposit, view: Deposit | None, on: date) -> str:
    if view is None:
        return "Awaiting payment"
    status = view.status(on)
    if status is DepositStatus.REFUNDED and view.retained > 0:
        return f"Refunded, {money_words(view.retained)} retained"
    return status.label


# --- bonds ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BondInput:
    municipality_id: int
    purpose: BondPurpose
    kind: BondKind
    principal: str
    obligee: str
    amount: Decimal
    effective_on: date
    expires_on: date | None = None
    principal_party_id: int | None = None
    number: str = ""
    surety_company: str = ""
    personal_sureties: tuple[str, ...] = ()
    sureties_approved: str = ""
    conditions: tuple[str, ...] = ()
    scope: BondScope = BondScope.PERMITS
    year: int | None = None
    permit_ids: tuple[int, ...] = ()
    notes: str = ""
    version: int | None = None  # the bond's, as the edit form showed it


def _check_bond(b: BondInput) -> BondInput:
    b = replace(
        b,
        principal=b.principal.strip(),
        obligee=b.obligee.strip(),
        number=b.number.strip(),
        surety_company=b.surety_company.strip(),
        personal_sureties=tuple(n.strip() for n in b.personal_sureties if n.strip()),
        sureties_approved=b.sureties_approved.strip(),
        notes=b.notes.strip(),
    )
    if not b.amount.is_finite():
        raise ValidationError("amount", "enter an amount in dollars and cents")
    if not b.obligee:
        raise ValidationError("obligee", "enter to whom the bond is given")
    if b.scope is BondScope.CONTRACTOR_YEAR and b.permit_ids:
        raise ValidationError(
            "permits", "an annual bond covers all of the contractor's openings of its year"
        )
    if b.year is not None and not 1900 < b.year < 2200:
        raise ValidationError("year", "enter the calendar year, e.g. 2026")
    validate_bond(
        Bond(
            purpose=b.purpose,
            principal=b.principal,
            obligee=b.obligee,
            kind=b.kind,
            amount=b.amount,
            effective=b.effective_on,
            expiry=b.expires_on,
            number=b.number,
            surety_company=b.surety_company,
            personal_sureties=b.personal_sureties,
            scope=b.scope,
            year=b.year,
        )
    )
    return b


def _named_principal(uow: UnitOfWork, b: BondInput) -> BondInput:
    """The principal's name from the register's party when the form chose one."""
    party = _party(uow, b.principal_party_id, "principal")
    if party is not None and not b.principal.strip():
        return replace(b, principal=party.name)
    return b


def _fill_bond(uow: UnitOfWork, row: BondRecord, b: BondInput) -> None:
    row.purpose, row.kind = b.purpose, b.kind
    row.principal = b.principal
    row.principal_party_id = b.principal_party_id
    row.obligee, row.amount = b.obligee, b.amount
    row.effective_on, row.expires_on = b.effective_on, b.expires_on
    row.number, row.surety_company = b.number, b.surety_company
    row.sureties_approved = b.sureties_approved
    row.conditions = sorted(set(b.conditions))
    row.scope, row.year, row.notes = b.scope, b.year, b.notes
    lists_changed = False
    if [s.name for s in row.sureties] != list(b.personal_sureties):
        row.sureties = [BondSurety(name=n) for n in b.personal_sureties]
        lists_changed = True
    have = {link.permit_id for link in row.permits}
    want = list(dict.fromkeys(b.permit_ids))
    for pid in want:
        permit = _permit(uow, pid)
        if permit.municipality_id != row.municipality_id:
            raise ValidationError("permits", f"permit #{pid} is not in this register")
    if set(want) != have:
        row.permits = [link for link in row.permits if link.permit_id in want]
        row.permits += [BondPermit(permit_id=pid) for pid in want if pid not in have]
        lists_changed = True
    _children_changed(row, lists_changed)


def _children_changed(row: BondRecord | InsuranceCertificateRecord, changed: bool) -> None:
    """Rows of the form's lists (sureties, permits, coverages, members) changed: the record's
    version moves too, so a form opened before is stale (an UPDATE of the record's own columns
    moves it anyway)."""
    if changed and row.id is not None:
        row.version += 1


def _file(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    new_row: Callable[[], BondRecord | InsuranceCertificateRecord],
) -> int:
    """A bond or a certificate of insurance filed with the City, in one transaction: the row
    `new_row` makes from the checked form (it runs inside the open unit of work). Returns the
    row's id."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        _municipality(uow, municipality_id)
        row = new_row()
        uow.sureties.add(row)
        uow.commit()
        assert row.id is not None
        return row.id


def record_bond(uow: UnitOfWork, clock: Clock, actor: Actor, b: BondInput) -> int:
    """A bond filed with the City, with the permits it covers (or a contractor's year)."""

    def new_row() -> BondRecord:
        checked = _check_bond(_named_principal(uow, b))
        row = BondRecord(
            municipality_id=checked.municipality_id,
            purpose=checked.purpose,
            kind=checked.kind,
            principal=checked.principal,
            obligee=checked.obligee,
            amount=checked.amount,
            effective_on=checked.effective_on,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        _fill_bond(uow, row, checked)
        return row

    return _file(uow, clock, actor, b.municipality_id, new_row)


def _bond(uow: UnitOfWork, bond_id: int) -> BondRecord:
    return _record(uow, BondRecord, bond_id, "bond")


def edit_bond(uow: UnitOfWork, clock: Clock, actor: Actor, bond_id: int, b: BondInput) -> None:
    """Correct a bond's data (audited). A released or claimed bond stays as it was."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        row = _bond(uow, bond_id)
        check_version(uow, row, b.version, bond_view(row).title())
        b = _check_bond(_named_principal(uow, replace(b, municipality_id=row.municipality_id)))
        if row.status in (BondStatus.RELEASED, BondStatus.CLAIMED):
            raise RuleViolation(
                f"{bond_view(row).title()} is {row.status.label.lower()}; its record stays as "
                "it was"
            )
        _fill_bond(uow, row, b)
        uow.commit()


def bond_input(uow: UnitOfWork, bond_id: int) -> BondInput:
    """A bond's data as the edit form shows it."""
    with uow:
        row = _bond(uow, bond_id)
        return BondInput(
            municipality_id=row.municipality_id,
            purpose=row.purpose,
            kind=row.kind,
            principal=row.principal,
            obligee=row.obligee,
            amount=row.amount,
            effective_on=row.effective_on,
            expires_on=row.expires_on,
            principal_party_id=row.principal_party_id,
            number=row.number,
            surety_company=row.surety_company,
            personal_sureties=tuple(s.name for s in row.sureties),
            sureties_approved=row.sureties_approved,
            conditions=tuple(row.conditions),
            scope=row.scope,
            year=row.year,
            permit_ids=tuple(link.permit_id for link in row.permits),
            notes=row.notes,
            version=row.version,
        )


def link_bond(uow: UnitOfWork, clock: Clock, actor: Actor, bond_id: int, permit_id: int) -> None:
    """Name one more permit the bond covers."""
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        row = _bond(uow, bond_id)
        permit = _permit(uow, permit_id)
        if permit.municipality_id != row.municipality_id:
            raise ValidationError("permit", f"{permit_label(permit)} is not in this register")
        if row.scope is BondScope.CONTRACTOR_YEAR:
            raise RuleViolation(
                f"{bond_view(row).title()} is an annual bond: it covers all of "
                f"{row.principal}'s openings of {row.year} without naming them (§435-7.K)"
            )
        if any(link.permit_id == permit_id for link in row.permits):
            return
        row.permits.append(BondPermit(permit_id=permit_id))
        uow.commit()


def _release_facts(uow: UnitOfWork, row: BondRecord, on: date, actor: Actor) -> ReleaseFacts:
    """The passed finals and completions the bond's release turns on. A bond covering several
    permits secures all of them: it is free when the last one has passed."""
    done: list[date | None] = []
    if row.scope is BondScope.CONTRACTOR_YEAR:
        ids = {row.principal_party_id} if row.principal_party_id is not None else set()
        names = {fold(row.principal)}
        for p in _permits_of(uow, row.municipality_id, ids, names):
            if p.issued_on is not None and p.issued_on.year == row.year:
                done.append(p.completed_on)
    else:
        for link in row.permits:
            done.append(_permit(uow, link.permit_id).completed_on)
    last = None if not done or any(d is None for d in done) else max(d for d in done if d)
    return ReleaseFacts(
        on=on, roles=actor.roles, final_inspection_passed_on=last, completed_on=last
    )


def _permits_of(
    uow: UnitOfWork, municipality_id: int, party_ids: set[int], names: set[str]
) -> list[Permit]:
    """The municipality's live and completed permits on which these parties contract."""
    return uow.sureties.permits_of(
        municipality_id, party_ids, names, CONTRACTOR_ROLES, (*RELYING, PermitStatus.COMPLETED)
    )


def bond_release_check(uow: UnitOfWork, clock: Clock, actor: Actor, bond_id: int) -> list[str]:
    """Why the bond may not be released today by this user; [] when it may."""
    with uow:
        row = _bond(uow, bond_id)
        return release_check(
            bond_view(row, _covers(uow, row)), _release_facts(uow, row, clock.today(), actor)
        )


def release(uow: UnitOfWork, clock: Clock, actor: Actor, bond_id: int) -> None:
    """The engineer or the inspector releases a bond whose conditions are met: the work passed
    final inspection, or the one-year guarantee has run out (§435-7.K)."""
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        row = _bond(uow, bond_id)
        released = release_rule(
            bond_view(row, _covers(uow, row)),
            _release_facts(uow, row, today, actor),
            _user_name(uow, actor),
        )
        row.status = released.status
        row.released_on = released.released_on
        row.released_by = released.released_by
        row.released_by_id = actor.user_id
        uow.commit()


def claim(
    uow: UnitOfWork, clock: Clock, actor: Actor, bond_id: int, amount: Decimal, reason: str
) -> None:
    """A claim made on a bond, with its amount and reason."""
    if not actor.roles & (FACT_ROLES | {Role.CLERK}):
        raise PermissionDenied(
            "Recording a claim on a bond takes the clerk's, the inspector's or the engineer's role"
        )
    with uow:
        uow.act_as(actor, clock.now())
        row = _bond(uow, bond_id)
        claimed = record_claim(bond_view(row), clock.today(), amount, reason)
        row.status = claimed.status
        row.claimed_on = claimed.claimed_on
        row.claim_amount = claimed.claim_amount
        row.claim_reason = claimed.claim_reason.strip()
        uow.commit()


def expire(uow: UnitOfWork, clock: Clock, actor: Actor, bond_id: int) -> None:
    """Mark a bond whose cover has ended as expired."""
    require(actor, Permission.MANAGE_PARTIES)
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        row = _bond(uow, bond_id)
        b = bond_view(row)
        if row.status is not BondStatus.IN_FORCE:
            raise RuleViolation(f"{b.title()} is {row.status.label.lower()}, not in force")
        until = b.covered_until()
        if until is None or until >= today:
            raise RuleViolation(
                f"{b.title()} is in force "
                + (f"through {short_date(until)}" if until else "until released")
            )
        row.status = BondStatus.EXPIRED
        uow.commit()


# --- insurance certificates -----------------------------------------------------------------------


@dataclass(frozen=True)
class CertificateInput:
    municipality_id: int
    insured: str
    insurer: str
    policy: str
    effective_on: date
    expires_on: date
    coverages: tuple[Coverage, ...]
    insured_party_id: int | None = None
    holder: str = ""
    file_reference: str = ""
    association: bool = False
    filed_on: date | None = None
    members: tuple[tuple[str, int | None], ...] = ()  # (name, party id)
    version: int | None = None  # the certificate's, as the edit form showed it


def _check_certificate(c: CertificateInput) -> CertificateInput:
    c = replace(
        c,
        insured=c.insured.strip(),
        insurer=c.insurer.strip(),
        policy=c.policy.strip(),
        holder=c.holder.strip(),
        file_reference=c.file_reference.strip(),
        members=tuple((n.strip(), pid) for n, pid in c.members if n.strip() or pid),
    )
    if not c.insurer:
        raise ValidationError("insurer", "enter the insurance company")
    if not c.policy:
        raise ValidationError("policy", "enter the policy number")
    if not c.coverages:
        raise ValidationError("coverages", "enter at least one coverage limit")
    kinds = [x.kind for x in c.coverages]
    if len(set(kinds)) != len(kinds):
        raise ValidationError("coverages", "enter each kind of coverage once")
    if not c.association and c.members:
        raise ValidationError("members", "only an association's certificate lists members")
    if c.association and not c.members:
        raise ValidationError("members", "list the members the association's certificate covers")
    validate_certificate(
        InsuranceCertificate(
            insured=c.insured,
            insurer=c.insurer,
            policy=c.policy,
            coverages=c.coverages,
            effective=c.effective_on,
            expiry=c.expires_on,
            association=c.association,
            filed_on=c.filed_on,
        )
    )
    return c


def _named_insured(uow: UnitOfWork, c: CertificateInput) -> CertificateInput:
    party = _party(uow, c.insured_party_id, "insured")
    if party is not None and not c.insured.strip():
        c = replace(c, insured=party.name)
    members = []
    for name, pid in c.members:
        member = _party(uow, pid, "members")
        members.append((name.strip() or (member.name if member else ""), pid))
    return replace(c, members=tuple(members))


def _fill_certificate(
    uow: UnitOfWork, row: InsuranceCertificateRecord, c: CertificateInput
) -> None:
    row.insured = c.insured
    row.insured_party_id = c.insured_party_id
    row.insurer, row.policy = c.insurer, c.policy
    row.effective_on, row.expires_on = c.effective_on, c.expires_on
    row.holder, row.file_reference = c.holder, c.file_reference
    row.association, row.filed_on = c.association, c.filed_on
    lists_changed = False
    if [(x.kind, x.limit_amount) for x in row.coverages] != [
        (x.kind, x.limit) for x in c.coverages
    ]:
        row.coverages = [CoverageRecord(kind=x.kind, limit_amount=x.limit) for x in c.coverages]
        lists_changed = True
    if [(m.name, m.party_id) for m in row.members] != list(c.members):
        row.members = [AssociationMember(name=n, party_id=pid) for n, pid in c.members]
        lists_changed = True
    _children_changed(row, lists_changed)


def record_certificate(uow: UnitOfWork, clock: Clock, actor: Actor, c: CertificateInput) -> int:
    """A certificate of insurance filed with the City: a contractor's own or an association's
    on behalf of its members (15.1.38(b))."""

    def new_row() -> InsuranceCertificateRecord:
        checked = _check_certificate(_named_insured(uow, c))
        row = InsuranceCertificateRecord(
            municipality_id=checked.municipality_id,
            insured=checked.insured,
            insurer=checked.insurer,
            policy=checked.policy,
            effective_on=checked.effective_on,
            expires_on=checked.expires_on,
            by_user_id=actor.user_id,
            at=clock.now(),
        )
        _fill_certificate(uow, row, checked)
        return row

    return _file(uow, clock, actor, c.municipality_id, new_row)


def _certificate(uow: UnitOfWork, certificate_id: int) -> InsuranceCertificateRecord:
    return _record(uow, InsuranceCertificateRecord, certificate_id, "certificate")


def edit_certificate(
    uow: UnitOfWork, clock: Clock, actor: Actor, certificate_id: int, c: CertificateInput
) -> None:
    require(actor, Permission.MANAGE_PARTIES)
    with uow:
        uow.act_as(actor, clock.now())
        row = _certificate(uow, certificate_id)
        check_version(uow, row, c.version, certificate_view(row).title())
        c = _check_certificate(_named_insured(uow, c))
        _fill_certificate(uow, row, c)
        uow.commit()


def certificate_input(uow: UnitOfWork, certificate_id: int) -> CertificateInput:
    with uow:
        row = _certificate(uow, certificate_id)
        return CertificateInput(
            municipality_id=row.municipality_id,
            insured=row.insured,
            insurer=row.insurer,
            policy=row.policy,
            effective_on=row.effective_on,
            expires_on=row.expires_on,
            coverages=tuple(Coverage(x.kind, x.limit_amount) for x in row.coverages),
            insured_party_id=row.insured_party_id,
            holder=row.holder,
            file_reference=row.file_reference,
            association=row.association,
            filed_on=row.filed_on,
            members=tuple((m.name, m.party_id) for m in row.members),
            version=row.version,
        )


# --- the expiry watch ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExpiryRow:
    """One line of the expiry watch, with what the reminder letter needs."""

    what: str  # "Bond" or "Insurance certificate"
    item_id: int
    reference: str
    holder: str
    holder_address: str
    issuer: str
    ends_on: date
    days_left: int
    permits: tuple[str, ...]
    message: str
    title: str  # "Bond SB-1001", "Certificate GL-77"
    covers: str  # what it covers, in words: "Bond to the City for moving a building"

    @property
    def expired(self) -> bool:
        return self.days_left < 0


def _relying_bond(uow: UnitOfWork, row: BondRecord, today: date) -> list[Permit]:
    """Live permits the bond secures; once it has ended, those with no other bond of its
    purpose in force today (a renewal filed takes its place)."""
    if row.scope is BondScope.CONTRACTOR_YEAR:
        ids = {row.principal_party_id} if row.principal_party_id is not None else set()
        found = [
            p
            for p in _permits_of(uow, row.municipality_id, ids, {fold(row.principal)})
            if p.status in RELYING and _needs_bond(uow, p, row.purpose)
        ]
    else:
        found = [
            p
            for link in row.permits
            if (p := uow.permits.get(link.permit_id)) is not None and p.status in RELYING
        ]
    until = bond_view(row).covered_until()
    if until is None or until >= today:
        return found

    def renewed(p: Permit) -> bool:
        return any(
            other.id != row.id
            and other.purpose is row.purpose
            and bond_status_on(bond_view(other), today) is BondStatus.IN_FORCE
            for other in bonds_on_file(uow, p)
        )

    return [p for p in found if not renewed(p)]


def _needs_bond(uow: UnitOfWork, permit: Permit, purpose: BondPurpose) -> bool:
    reqs = _requirements(uow, permit, facts_within(uow, permit))
    return reqs is not None and reqs.bond(purpose) is not None


def _needs_insurance(uow: UnitOfWork, permit: Permit) -> bool:
    reqs = _requirements(uow, permit, facts_within(uow, permit))
    return reqs is not None and bool(reqs.insurance)


def _relying_certificate(
    uow: UnitOfWork, row: InsuranceCertificateRecord, today: date
) -> list[Permit]:
    """Live permits of the insured (or, for an association, of its member plumbers) whose
    requirements include insurance."""
    if row.association:
        ids = {m.party_id for m in row.members if m.party_id is not None}
        names = {fold(m.name) for m in row.members}
        roles: tuple[PartyRole, ...] = (PartyRole.PLUMBER,)
    else:
        ids = {row.insured_party_id} if row.insured_party_id is not None else set()
        names, roles = {fold(row.insured)}, tuple(PartyRole)
    found = uow.sureties.permits_of(row.municipality_id, ids, names, roles, tuple(RELYING))
    found = [p for p in found if _needs_insurance(uow, p)]
    if certificate_view(row).covered_until() >= today:
        return found
    # Ended: the permits left without another certificate in force today.
    return [
        p
        for p in found
        if not any(
            c.id != row.id and certificate_view(c).covered_until() >= today
            for c in certificates_on_file(uow, p)
        )
    ]


def _address(uow: UnitOfWork, party_id: int | None) -> str:
    party = uow.parties.get(party_id) if party_id is not None else None
    return party.mailing_address if party is not None else ""


def expiry_watch(
    uow: UnitOfWork, clock: Clock, municipality_id: int, days: int = 60
) -> list[ExpiryRow]:
    """Bonds and certificates whose cover ends in the next `days` days, and those that ended
    while a permit still relies on them, soonest first, with the permits affected."""
    if days < 0:
        raise ValidationError("days", "must not be negative")
    today = clock.today()
    with uow:
        watched: list[Watched] = []
        meta: dict[int, tuple[str, int, str, str]] = {}
        for row in uow.sureties.find(BondRecord, municipality_id=municipality_id):
            if row.status is not BondStatus.IN_FORCE:
                continue
            b = bond_view(row, _covers(uow, row))
            numbers = tuple(p.number or f"#{p.id}" for p in _relying_bond(uow, row, today))
            w = Watched(b, numbers)
            watched.append(w)
            meta[id(b)] = (
                "Bond",
                row.id or 0,
                _address(uow, row.principal_party_id),
                row.purpose.label,
            )
        for crow in uow.sureties.find(InsuranceCertificateRecord, municipality_id=municipality_id):
            c = certificate_view(crow)
            numbers = tuple(p.number or f"#{p.id}" for p in _relying_certificate(uow, crow, today))
            watched.append(Watched(c, numbers))
            covers = "Public liability insurance"
            if c.limit(CoverageKind.PROPERTY_DAMAGE) is not None:
                covers = "Public liability and property damage insurance"
            if crow.association:
                covers += " for the association's members"
            meta[id(c)] = (
                "Insurance certificate",
                crow.id or 0,
                _address(uow, crow.insured_party_id),
                covers,
            )
        out = []
        for n in expiring(watched, today, days):
            what, item_id, address, covers = meta[id(n.item)]
            out.append(_expiry_row(n, what, item_id, address, covers))
        return out


def _expiry_row(n: ExpiryNotice, what: str, item_id: int, address: str, covers: str) -> ExpiryRow:
    return ExpiryRow(
        what=what,
        item_id=item_id,
        reference=n.reference,
        holder=n.holder,
        holder_address=address,
        issuer=n.issuer,
        ends_on=n.ends_on,
        days_left=n.days_left,
        permits=n.permits,
        message=n.message,
        title=n.item.title(),
        covers=covers,
    )


# --- street deposits (15.1.43) -------------------------------------------------------------------


@dataclass(frozen=True)
class DepositInput:
    permit_id: int
    depositor: str
    amount: Decimal
    depositor_party_id: int | None = None
    depositor_address: str = ""
    refund_payee: str = ""
    refund_address: str = ""
    street_paved: bool = True


def _deposit(uow: UnitOfWork, deposit_id: int) -> StreetDeposit:
    return _record(uow, StreetDeposit, deposit_id, "deposit")


def _charged(uow: UnitOfWork, permit_id: int) -> Decimal:
    """What the permit is charged for its street deposit: the assessed line and later lines."""
    total = sum(
        (line.amount for line in uow.fees.lines_for(permit_id) if line.code == DEPOSIT_CODE), ZERO
    )
    for a in uow.cash.find(FeeAdjustment, permit_id=permit_id, code=DEPOSIT_CODE):
        total += a.amount
    return total


def record_deposit(uow: UnitOfWork, clock: Clock, actor: Actor, d: DepositInput) -> int:
    """Record a street deposit before the permit is issued (15.1.43): who pays it (often the
    plumber), who gets it back and where the check goes, and the amount ($500 for a paved
    street; the City Engineer may increase it, never reduce it). The permit is charged the
    deposit as its DEPOSIT-STREET line when the fees do not already carry it; when that line is
    already paid, the deposit is held from that receipt on."""
    require(actor, Permission.TAKE_PAYMENT)
    depositor = d.depositor.strip()
    amount = _money("amount", d.amount)
    assert amount is not None
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        permit = _permit(uow, d.permit_id)
        muni = _municipality(uow, permit.municipality_id)
        party = _party(uow, d.depositor_party_id, "depositor")
        if party is not None:
            depositor = depositor or party.name
        if not depositor:
            raise ValidationError("depositor", "enter who makes the deposit")
        address = d.depositor_address.strip() or (party.mailing_address if party else "")
        if not address and not d.refund_address.strip():
            raise ValidationError(
                "depositor address", "enter the address the refund check will be mailed to"
            )
        # The kind takes a deposit at all (15.1.43: sewer or water excavations); in a paved
        # street, the amount is at least the ordinance's (the City Engineer may increase it).
        try:
            reqs = requirement_for(
                muni.ordinance,
                permit.kind,
                PermitFacts(
                    excavates_public_street=True,
                    street_paved=True,
                    deposit_amount=amount if d.street_paved else None,
                ),
            )
        except ValidationError as e:
            if e.field == "deposit_amount":
                raise ValidationError("amount", e.message) from None
            raise
        if not reqs.deposits:
            kind = kind_by_code(muni.ordinance, permit.kind)
            raise ValidationError(
                "permit",
                f"a {kind.label.lower()} permit takes no street deposit; 15.1.43 asks one "
                "before a permit involving sewer or water excavations",
            )
        open_rows = [
            r
            for r in uow.sureties.deposits_for(d.permit_id)
            if r.status in (DepositState.AWAITING_PAYMENT, DepositState.HELD, DepositState.ORDERED)
        ]
        if open_rows:
            r = open_rows[0]
            raise RuleViolation(
                f"{sentence_start(permit_label(permit))} already has a street deposit of "
                f"{format_money(r.amount)} on file ({r.status.value.replace('_', ' ')})"
            )
        row = StreetDeposit(
            municipality_id=permit.municipality_id,
            permit_id=d.permit_id,
            depositor=depositor,
            depositor_party_id=d.depositor_party_id,
            depositor_address=address,
            refund_payee=d.refund_payee.strip(),
            refund_address=d.refund_address.strip(),
            amount=amount,
            street_paved=d.street_paved,
            by_user_id=actor.user_id,
            at=now,
        )
        # What the permit already holds for a deposit no other record claims (the line was
        # assessed with the fees and paid at the counter).
        held_free = cashiering.deposit_held(uow, d.permit_id)
        charged = _charged(uow, d.permit_id)
        if charged < amount:
            uow.cash.add(
                FeeAdjustment(
                    permit_id=d.permit_id,
                    code=DEPOSIT_CODE,
                    description="Street deposit",
                    amount=amount - charged,
                    source=AdjustmentSource.ADDED,
                    reason=f"street deposit of {format_money(amount)} (15.1.43)",
                    section="15.1.43",
                    day=today,
                    at=now,
                    by_user_id=actor.user_id,
                )
            )
        if held_free >= amount:
            payment = _last_deposit_payment(uow, d.permit_id)
            row.payment_id = payment.id if payment is not None else None
            row.received_on = payment.day if payment is not None else today
            row.status = DepositState.HELD
        uow.sureties.add(row)
        uow.commit()
        assert row.id is not None
        return row.id


def _last_deposit_payment(uow: UnitOfWork, permit_id: int) -> Payment | None:
    entries = [
        e
        for e in uow.cash.find(GlEntry, permit_id=permit_id, code=DEPOSIT_CODE)
        if e.payment_id is not None and e.amount > 0
    ]
    return (
        uow.cash.get(Payment, entries[-1].payment_id)
        if entries and entries[-1].payment_id
        else None
    )


def pay_deposit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    deposit_id: int,
    tender: Tender,
    drawer: str = cashiering.DEFAULT_DRAWER,
) -> cashiering.PaymentResult:
    """Take the deposit's money at the counter: a numbered receipt whose whole allocation goes
    to the permit's DEPOSIT-STREET line, i.e. to the liability account "Street deposits held",
    never to revenue. The deposit is held from that receipt on (same transaction)."""
    with uow:
        row = _deposit(uow, deposit_id)
        if row.status is not DepositState.AWAITING_PAYMENT:
            raise RuleViolation(
                f"The street deposit of {format_money(row.amount)} was received on "
                f"{short_date(row.received_on) if row.received_on else '—'}"
            )
        permit = _permit(uow, row.permit_id)
        municipality_id, permit_id, amount = permit.municipality_id, row.permit_id, row.amount
        payer, party_id = row.depositor, row.depositor_party_id

    def taken(payment: Payment) -> None:
        # Inside take_payment's transaction: the same session, so the row is re-read there.
        again = uow.sureties.get(StreetDeposit, deposit_id)
        assert again is not None
        if again.status is not DepositState.AWAITING_PAYMENT:
            raise RuleViolation("The street deposit was received at another workstation")
        again.payment_id = payment.id
        again.received_on = payment.day
        again.status = DepositState.HELD

    return cashiering.take_payment(
        uow,
        clock,
        actor,
        cashiering.PaymentInput(
            municipality_id=municipality_id,
            tender=tender,
            allocations=(Allocation(permit_id, amount),),
            payer_name=payer,
            payer_party_id=party_id,
            drawer=drawer,
            codes=(DEPOSIT_CODE,),
        ),
        on_taken=taken,
    )


def take_deposit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    d: DepositInput,
    tender: Tender,
    drawer: str = cashiering.DEFAULT_DRAWER,
) -> tuple[int, cashiering.PaymentResult | None]:
    """Record the deposit and take its money (the counter's one step). A deposit already paid
    with the permit's fees needs no payment: the result is (id, None)."""
    deposit_id = record_deposit(uow, clock, actor, d)
    with uow:
        paid = _deposit(uow, deposit_id).status is not DepositState.AWAITING_PAYMENT
    if paid:
        return deposit_id, None
    return deposit_id, pay_deposit(uow, clock, actor, deposit_id, tender, drawer)


def _view(uow: UnitOfWork, row: StreetDeposit) -> tuple[Deposit, Permit]:
    permit = _permit(uow, row.permit_id)
    view = deposit_view(row, permit.completed_on, permit.number or "")
    if view is None:
        raise RuleViolation(
            f"The street deposit of {format_money(row.amount)} for {permit_label(permit)} has not "
            "been paid yet"
        )
    return view, permit


def record_completion(
    uow: UnitOfWork, clock: Clock, actor: Actor, deposit_id: int, completed_on: date
) -> date:
    """The inspector enters the date the work was properly completed (when no final inspection
    recorded it). Returns the day the deposit becomes eligible for return (15.1.43)."""
    if Role.INSPECTOR not in actor.roles:
        raise PermissionDenied(
            "The inspector (inspector's role) records the completion of the work (15.1.43)"
        )
    if completed_on > clock.today():
        raise ValidationError("completed on", "is after today")
    with uow:
        uow.act_as(actor, clock.now())
        row = _deposit(uow, deposit_id)
        view, permit = _view(uow, row)
        if permit.issued_on is not None and completed_on < permit.issued_on:
            raise ValidationError(
                "completed on", f"is before the permit was issued on {short_date(permit.issued_on)}"
            )
        completion_rule(view, completed_on)  # refused once the engineer has ordered the refund
        row.completed_on = completed_on
        row.completed_by_id = actor.user_id
        uow.commit()
        return eligible_on(completed_on)


def order_deposit_refund(uow: UnitOfWork, clock: Clock, actor: Actor, deposit_id: int) -> None:
    """The City Engineer orders the deposit returned, not less than 180 days after the work's
    proper completion (15.1.43)."""
    today = clock.today()
    with uow:
        uow.act_as(actor, clock.now())
        row = _deposit(uow, deposit_id)
        view, permit = _view(uow, row)
        # 15.1.43: on the City Engineer's order, or the role the office names to act for him.
        orderer = refund_order_role(_municipality(uow, permit.municipality_id).settings)
        ordered = order_refund(view, today, actor.roles, _user_name(uow, actor), orderer)
        row.ordered_on = ordered.ordered_on
        row.ordered_by = ordered.ordered_by
        row.ordered_by_id = actor.user_id
        row.ordered_at = clock.now()
        row.status = DepositState.ORDERED
        uow.commit()


def refund_deposit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    deposit_id: int,
    check_number: str,
    check_date: date,
) -> Decimal:
    """The City Clerk returns the deposit by check on the City Engineer's order (15.1.43), less
    what the Council retained; the check leaves the liability account. Returns its amount."""
    if check_date > clock.today():
        raise ValidationError("check date", "is after today")
    with uow:
        uow.act_as(actor, clock.now())
        row = _deposit(uow, deposit_id)
        view, _ = _view(uow, row)
        refunded = record_refund(
            view, check_date, actor.roles, check_number, _user_name(uow, actor)
        )
        amounts = split(refunded)
        reason = (
            f"Street deposit returned to {refunded.payee} on the City Engineer's order of "
            f"{short_date(row.ordered_on) if row.ordered_on else ''} (15.1.43)"
        )
        if amounts.retained > 0:
            reason += f"; {format_money(amounts.retained)} retained by the Common Council"
        refund_id = cashiering.return_deposit_within(
            uow,
            clock,
            actor,
            row.permit_id,
            amounts.refund,
            refunded.payee,
            refunded.check_number,
            check_date,
            reason,
            retained=amounts.retained,
        )
        row.check_number = refunded.check_number
        row.check_date = check_date
        row.refund_id = refund_id
        row.refunded_at = clock.now()
        row.refunded_by_id = actor.user_id
        row.status = DepositState.REFUNDED
        uow.commit()
        return amounts.refund


def retain_deposit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    deposit_id: int,
    resolution: str,
    resolved_on: date,
    amount: Decimal,
    reason: str,
) -> str:
    """The clerk records the Common Council's resolution keeping all or part of the deposit to
    correct, complete or supplement the work (15.1.43); the amount moves from the liability
    account to the account that pays the cost of completing the work. Returns that account's
    number."""
    if resolved_on > clock.today():
        raise ValidationError("resolved on", "is after today")
    if not amount.is_finite():
        raise ValidationError("amount", "enter an amount in dollars and cents")
    with uow:
        uow.act_as(actor, clock.now())
        row = _deposit(uow, deposit_id)
        view, permit = _view(uow, row)
        kept = record_retention(
            view,
            Retention(
                resolution=resolution.strip(),
                resolved_on=resolved_on,
                amount=amount,
                reason=reason.strip(),
            ),
            actor.roles,
        )
        muni = _municipality(uow, permit.municipality_id)
        reqs = requirement_for(
            muni.ordinance,
            permit.kind,
            PermitFacts(excavates_public_street=True, street_paved=True),
        )
        account = reqs.deposits[0].retained_to if reqs.deposits else ""
        number = cashiering.retain_deposit_within(
            uow, clock, row.permit_id, amount, account or "Cost of completing street work"
        )
        r = kept.retention
        assert r is not None
        row.retention_resolution = r.resolution
        row.retention_resolved_on = r.resolved_on
        row.retention_amount = r.amount
        row.retention_reason = r.reason
        row.retention_by_id = actor.user_id
        if kept.status(clock.today()) is DepositStatus.RETAINED:
            row.status = DepositState.RETAINED
        uow.commit()
        return number


# --- read models for the Deposits screen, its exports and the reminder letters --------------------


@dataclass(frozen=True)
class Letterhead:
    municipality: str
    lines: tuple[str, ...]
    inspector_name: str
    inspector_title: str


@dataclass(frozen=True)
class DepositLine:
    """One street deposit as the register, the refund queue and the exports show it."""

    deposit_id: int
    permit_id: int
    permit_number: str
    address: str
    depositor: str
    payee: str
    payee_address: str
    amount: Decimal
    received_on: date | None
    receipt_number: str
    completed_on: date | None
    eligible_from: date | None
    status: DepositStatus | None  # None: awaiting payment
    status_text: str
    ordered_on: date | None
    ordered_by: str
    check_number: str
    check_date: date | None
    refund_amount: Decimal  # what the check is (or will be) for
    retained: Decimal
    resolution: str
    resolved_on: date | None
    retention_reason: str

    @property
    def permit_label(self) -> str:
        return self.permit_number or f"#{self.permit_id}"


# The refund queue: what the engineer orders, what the clerk pays, what the Council kept.
QUEUES: dict[str, str] = {
    "eligible": "Eligible now",
    "soon": "Eligible in the next 30 days",
    "ordered": "Ordered, awaiting the check",
    "retained": "Retained by the Council",
    "all": "All deposits",
}
SOON_DAYS = 30


def in_queue(line: DepositLine, queue: str, on: date) -> bool:
    if queue == "all":
        return True
    if queue == "eligible":
        return line.status is DepositStatus.ELIGIBLE
    if queue == "soon":
        return (
            line.status is DepositStatus.HELD
            and line.eligible_from is not None
            and on < line.eligible_from <= on + timedelta(days=SOON_DAYS)
        )
    if queue == "ordered":
        return line.status is DepositStatus.ORDERED
    if queue == "retained":
        return line.retained > 0
    raise ValueError(f"unknown queue '{queue}'")


@dataclass(frozen=True)
class DepositsReport:
    """The deposits as of a day, by queue: for the City Engineer's order and for the Council."""

    letterhead: Letterhead
    as_of: date
    sections: tuple[tuple[str, tuple[DepositLine, ...]], ...]
    held: Decimal  # what the liability account holds for all deposits on the day
    count: int


@dataclass(frozen=True)
class ExpiringReport:
    letterhead: Letterhead
    on: date
    days: int
    rows: tuple[ExpiryRow, ...]


@dataclass(frozen=True)
class ReminderLetter:
    """A reminder to the contractor that a bond or certificate ends (mail-merged from the
    expiry watch)."""

    letterhead: Letterhead
    on: date
    row: ExpiryRow
    reply_by: date  # the last day the renewal is asked for: the day before it ends, or soon


def reminder_letters(
    letterhead: Letterhead, on: date, rows: Sequence[ExpiryRow]
) -> list[ReminderLetter]:
    """One letter per bond or certificate, in the watch's order. A renewal is asked for by the
    day before the cover ends, and at least ten days from the letter."""
    out = []
    for r in rows:
        reply_by = max(r.ends_on - timedelta(days=1), on + timedelta(days=10))
        out.append(ReminderLetter(letterhead, on, r, reply_by))
    return out
