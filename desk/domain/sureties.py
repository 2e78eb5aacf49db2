"""Bonds, insurance certificates and street deposits: what a permit needs on file before it is
issued, whether what is on file meets it, when a bond may be released, what expires soon, and
the street deposit's way back to the depositor. Pure: no I/O, no clock (dates are passed in).

What a municipality requires per permit kind is data (resources/surety_requirements.toml); the
rules that read it cite their sections:

- Glendale 15.1.9(f)(g)(h): moving a building over a public way (bond to the City, insurance,
  a second bond to the Plan Commission when the exterior is altered).
- Glendale 15.1.38: plumbing that excavates a public street (insurance; an association's
  certificate for its members, at most one year from filing).
- Glendale 15.2.8(e)(2): erosion control (surety bond or letter of credit when required).
- Glendale 15.1.43: street deposits, returned not less than 180 days after proper completion.
- New Lisbon §435-7.J, K, L: street openings (insurance, bond, annual bond, restoration
  guarantee, public utilities exempt from the bond). §435-10.B: street privilege bond.

Which bonds and certificates belong to a permit (its own, the contractor's annual bond, the
plumbers' association's certificate when the plumber is a member) is the caller's question: the
service passes those on file for the permit and its applicant, and the checks here judge their
kinds, amounts, limits, conditions and dates.

Periods follow Wis. Stat. 990.001(4) (exclude the first day, include the last): "one year from
filing" on 2025-03-01 runs through 2026-03-01; "not less than 180 days after completion" on
2026-03-02 is met on 2026-08-29 (the 180th day after).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from desk.dates import short_date
from desk.domain.enums import Role
from desk.domain.kinds import kind_by_code, kinds_for
from desk.domain.lifecycle import add_months
from desk.errors import PermissionDenied, RuleViolation, ValidationError
from desk.money import CENT

ZERO = Decimal("0.00")


# --- vocabularies (values are stored in the database; never rename one) ---------------------


class BondKind(StrEnum):
    SURETY = "surety"  # a corporate surety company
    PERSONAL = "personal"  # personal sureties, named
    LETTER_OF_CREDIT = "letter_of_credit"  # irrevocable letter of credit
    CASH = "cash"
    GUARANTEE = "guarantee"  # a written guarantee (§435-7.K restoration)

    @property
    def label(self) -> str:
        return {
            "surety": "Corporate surety",
            "personal": "Personal sureties",
            "letter_of_credit": "Letter of credit",
            "cash": "Cash",
            "guarantee": "Written guarantee",
        }[self.value]

    def words(self, personal_sureties: int = 2) -> str:
        """As the ordinance says it: 'a corporate surety', 'two personal sureties'."""
        if self is BondKind.PERSONAL:
            return f"{_count_words(personal_sureties)} personal sureties"
        return {
            "surety": "a corporate surety",
            "letter_of_credit": "an irrevocable letter of credit",
            "cash": "cash",
            "guarantee": "a written guarantee",
        }[self.value]


class BondScope(StrEnum):
    PERMITS = "permits"  # one permit or several named permits
    CONTRACTOR_YEAR = "contractor_year"  # §435-7.K annual bond: all of a principal's openings

    @property
    def label(self) -> str:
        return {"permits": "Named permits", "contractor_year": "Contractor's year"}[self.value]


class BondStatus(StrEnum):
    IN_FORCE = "in_force"
    RELEASED = "released"
    CLAIMED = "claimed"
    EXPIRED = "expired"

    @property
    def label(self) -> str:
        return {
            "in_force": "In force",
            "released": "Released",
            "claimed": "Claimed",
            "expired": "Expired",
        }[self.value]


class ReleaseRule(StrEnum):
    """What must have happened before a bond may be released."""

    FINAL_INSPECTION = "final_inspection"  # the work passed final inspection
    GUARANTEE_YEAR = "guarantee_year"  # one year from completion has run out (§435-7.K)


class BondPurpose(StrEnum):
    """What a bond secures. Each purpose names the section it comes from and its release rule."""

    MOVING = "moving"
    PLAN_COMMISSION = "plan_commission"
    STREET_OPENING = "street_opening"
    RESTORATION = "restoration"
    STREET_PRIVILEGE = "street_privilege"
    EROSION_CONTROL = "erosion_control"

    @property
    def label(self) -> str:
        return {
            "moving": "Moving a building",
            "plan_commission": "Exterior alterations (Plan Commission)",
            "street_opening": "Street opening",
            "restoration": "Restoration guarantee",
            "street_privilege": "Street privilege",
            "erosion_control": "Erosion control plan",
        }[self.value]

    @property
    def section(self) -> str:
        return {
            "moving": "15.1.9(f)",
            "plan_commission": "15.1.9(h)(1)",
            "street_opening": "§435-7.K",
            "restoration": "§435-7.K",
            "street_privilege": "§435-10.B",
            "erosion_control": "15.2.8(e)(2)",
        }[self.value]

    @property
    def release_rule(self) -> ReleaseRule:
        # 15.1.9(d): after the move the streets are inspected and repaired; 15.1.9(h)(1): the
        # exterior alterations are completed; §435-10.B: the street is vacated and cleaned;
        # 15.2.8(e)(2): the control plan is carried out. Each ends in a passed final inspection.
        # §435-7.K: the opener keeps the pavement in repair "for a period of one year".
        if self in (BondPurpose.STREET_OPENING, BondPurpose.RESTORATION):
            return ReleaseRule.GUARANTEE_YEAR
        return ReleaseRule.FINAL_INSPECTION


class CoverageKind(StrEnum):
    PER_PERSON = "per_person"
    PER_ACCIDENT = "per_accident"
    PROPERTY_DAMAGE = "property_damage"

    @property
    def label(self) -> str:
        """'Public liability coverage for one person': how the messages name it."""
        return {
            "per_person": "Public liability coverage for one person",
            "per_accident": "Public liability coverage for one accident",
            "property_damage": "Property damage coverage",
        }[self.value]


class Stage(StrEnum):
    ISSUANCE = "issuance"  # on file before the permit is issued
    COMPLETION = "completion"  # filed when the work is completed (§435-7.K restoration)


class DepositStatus(StrEnum):
    HELD = "held"
    ELIGIBLE = "eligible"
    ORDERED = "ordered"
    REFUNDED = "refunded"
    RETAINED = "retained"

    @property
    def label(self) -> str:
        return {
            "held": "Held",
            "eligible": "Eligible for refund",
            "ordered": "Refund ordered",
            "refunded": "Refunded",
            "retained": "Retained by the Council",
        }[self.value]


# --- the register -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Bond:
    """A bond, letter of credit, cash bond or written guarantee on file."""

    purpose: BondPurpose
    principal: str  # who gives the bond (the permittee or contractor)
    obligee: str  # to whom: "City of Glendale", "Plan Commission"
    kind: BondKind
    amount: Decimal
    effective: date
    expiry: date | None = None  # None: in force until released
    number: str = ""
    surety_company: str = ""
    personal_sureties: tuple[str, ...] = ()
    sureties_approved: str = ""  # 15.1.9(f)(1): the approval of personal sureties, on record
    conditions: frozenset[str] = frozenset()  # condition codes (surety_requirements.toml)
    scope: BondScope = BondScope.PERMITS
    covers: tuple[str, ...] = ()  # permit numbers (scope permits); empty: the permit it is filed on
    year: int | None = None  # scope contractor_year: the calendar year it covers
    status: BondStatus = BondStatus.IN_FORCE
    released_on: date | None = None
    released_by: str = ""
    claimed_on: date | None = None
    claim_amount: Decimal | None = None
    claim_reason: str = ""
    id: int | None = None

    def title(self, capital: bool = True) -> str:
        """'Bond SB-1001', or 'The bond of Acme Movers' when it has no number."""
        if self.number:
            return f"{'B' if capital else 'b'}ond {self.number}"
        return f"{'T' if capital else 't'}he bond of {self.principal}"

    def covered_from(self) -> date:
        if self.scope is BondScope.CONTRACTOR_YEAR and self.year is not None:
            return max(self.effective, date(self.year, 1, 1))
        return self.effective

    def covered_until(self) -> date | None:
        """The last day it covers: its expiry, and for an annual bond December 31 of its year."""
        if self.scope is BondScope.CONTRACTOR_YEAR and self.year is not None:
            year_end = date(self.year, 12, 31)
            return year_end if self.expiry is None else min(self.expiry, year_end)
        return self.expiry


@dataclass(frozen=True)
class Coverage:
    kind: CoverageKind
    limit: Decimal


@dataclass(frozen=True, kw_only=True)
class InsuranceCertificate:
    """A certificate of insurance on file, the contractor's own or an association's."""

    insured: str  # the contractor, or the association
    insurer: str
    policy: str
    coverages: tuple[Coverage, ...]
    effective: date
    expiry: date
    holder: str = ""  # the certificate holder (the City)
    file_reference: str = ""
    association: bool = False  # 15.1.38(b): filed by an association on behalf of its members
    members: tuple[str, ...] = ()
    filed_on: date | None = None  # 15.1.38(b): members are covered at most one year from filing
    id: int | None = None

    def title(self, capital: bool = True) -> str:
        if self.policy:
            return f"{'C' if capital else 'c'}ertificate {self.policy}"
        return f"{'T' if capital else 't'}he certificate of {self.insured}"

    def limit(self, kind: CoverageKind) -> Decimal | None:
        limits = [c.limit for c in self.coverages if c.kind is kind]
        return max(limits) if limits else None

    def association_ends(self, months: int = 12) -> date | None:
        """15.1.38(b): the last day an association certificate covers its members."""
        if not self.association or self.filed_on is None:
            return None
        return add_months(self.filed_on, months)

    def covered_until(self, association_months: int = 12) -> date:
        ends = self.association_ends(association_months)
        return self.expiry if ends is None else min(self.expiry, ends)


@dataclass(frozen=True, kw_only=True)
class Retention:
    """The Common Council's resolution keeping all or part of a street deposit (15.1.43)."""

    resolution: str
    resolved_on: date
    amount: Decimal
    reason: str


@dataclass(frozen=True, kw_only=True)
class Deposit:
    """A street deposit (15.1.43): a liability held for the depositor, never revenue."""

    amount: Decimal
    received_on: date
    depositor: str  # who paid (often the plumber, not the owner)
    depositor_address: str = ""
    refund_payee: str = ""  # who gets the check; the depositor when empty
    refund_address: str = ""  # where the check goes; the depositor's address when empty
    receipt_number: str = ""
    permit_ref: str = ""
    completed_on: date | None = None  # proper completion of the work
    ordered_on: date | None = None  # the City Engineer's order to return it
    ordered_by: str = ""
    retention: Retention | None = None
    refunded_on: date | None = None
    check_number: str = ""
    refunded_by: str = ""
    id: int | None = None

    @property
    def payee(self) -> str:
        return self.refund_payee or self.depositor

    @property
    def payee_address(self) -> str:
        return self.refund_address or self.depositor_address

    @property
    def retained(self) -> Decimal:
        return self.retention.amount if self.retention is not None else ZERO

    @property
    def refund_amount(self) -> Decimal:
        """What the check is for: the deposit less what the Council retained, exact to the cent."""
        return (self.amount - self.retained).quantize(CENT)

    @property
    def eligible_from(self) -> date | None:
        return eligible_on(self.completed_on) if self.completed_on is not None else None

    def status(self, on: date) -> DepositStatus:
        if self.retention is not None and self.retained >= self.amount:
            return DepositStatus.RETAINED
        if self.refunded_on is not None:
            return DepositStatus.REFUNDED
        if self.ordered_on is not None:
            return DepositStatus.ORDERED
        eligible = self.eligible_from
        if eligible is not None and on >= eligible:
            return DepositStatus.ELIGIBLE
        return DepositStatus.HELD


@dataclass(frozen=True, kw_only=True)
class PermitFacts:
    """What the permit's conditions turn on. The inspector or engineer records these; the
    requirement file names them in `when`/`unless`/`amount_fact`."""

    # 15.1.9(f)(2): the bond is further conditioned "Unless the Building Inspector ... shall find
    # it to be a fact" that the excavation is no hazard, so a hazard is presumed.
    excavation_hazard: bool = True
    exterior_altered: bool = False  # 15.1.9(h)(1): the moved building is also altered outside
    excavates_public_street: bool = False  # 15.1.38(a), 15.1.43
    street_paved: bool = False  # 15.1.43: the excavation is in a paved street
    engineer_requires_bond: bool = False  # §435-7.K
    inspector_requires_surety: bool = False  # 15.2.8(e)(2)
    public_utility: bool = False  # §435-7.L
    bond_amount: Decimal | None = None  # the amount the inspector or engineer fixed
    plan_commission_bond_amount: Decimal | None = None  # 15.1.9(h)(1)
    restoration_bond_amount: Decimal | None = None  # §435-7.K, set by the Director of Public Works
    deposit_amount: Decimal | None = None  # 15.1.43: the City Engineer's increased deposit
    permit_ref: str = ""  # the permit's number, to check a bond's list of covered permits


_FLAG_FACTS = frozenset(
    {
        "excavation_hazard",
        "exterior_altered",
        "excavates_public_street",
        "street_paved",
        "engineer_requires_bond",
        "inspector_requires_surety",
        "public_utility",
    }
)
_AMOUNT_FACTS = frozenset(
    {"bond_amount", "plan_commission_bond_amount", "restoration_bond_amount", "deposit_amount"}
)


# --- requirements -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BondCondition:
    code: str
    words: str  # "erecting adequate barriers and, within 48 hours, filling in the excavation"
    section: str


@dataclass(frozen=True, kw_only=True)
class BondRequirement:
    purpose: BondPurpose
    label: str
    obligee: str
    section: str
    accepted: tuple[BondKind, ...]
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    fixed_amount: Decimal | None = None  # what the officer fixed for this permit
    fixed_by: str = ""
    personal_sureties: int = 2
    approved_by: str = ""
    annual: bool = False
    stage: Stage = Stage.ISSUANCE
    guarantee_years: int = 0
    conditions: tuple[BondCondition, ...] = ()

    @property
    def required_amount(self) -> Decimal | None:
        """The amount the bond must reach: the officer's figure, never below the minimum."""
        figures = [a for a in (self.minimum, self.fixed_amount) if a is not None]
        return max(figures) if figures else None

    def accepted_words(self) -> str:
        return " or ".join(k.words(self.personal_sureties) for k in self.accepted)

    def describe(self) -> str:
        """'at least $1,000, by a corporate surety or two personal sureties approved by ...'."""
        parts = []
        need = self.required_amount
        if need is not None:
            parts.append(f"at least {money_words(need)}")
        elif self.fixed_by:
            parts.append(f"in the amount the {self.fixed_by} sets")
        if self.maximum is not None:
            parts.append(f"not exceeding {money_words(self.maximum)}")
        how = f"by {self.accepted_words()}"
        if BondKind.PERSONAL in self.accepted and self.approved_by:
            how += f" approved by {self.approved_by}"
        parts.append(how)
        if self.conditions:
            parts.append("conditioned on " + " and on ".join(c.words for c in self.conditions))
        return ", ".join(parts)


@dataclass(frozen=True, kw_only=True)
class InsuranceRequirement:
    label: str
    section: str
    limits: tuple[Coverage, ...]
    association: bool = False
    association_months: int = 12
    association_section: str = ""
    through_term: bool = True
    # 15.1.38(b): "each such member applying for a permit shall be deemed to have complied":
    # an association's certificate is checked on the days of application and issue, and need
    # not outlast the permit's term (True: the office's stricter reading, like a contractor's own).
    association_through_term: bool = False

    def describe(self) -> str:
        """'public liability $100,000 for one person and $200,000 for one accident, property
        damage $50,000'."""
        by_kind = {c.kind: c.limit for c in self.limits}
        liability = []
        if CoverageKind.PER_PERSON in by_kind:
            liability.append(f"{money_words(by_kind[CoverageKind.PER_PERSON])} for one person")
        if CoverageKind.PER_ACCIDENT in by_kind:
            liability.append(f"{money_words(by_kind[CoverageKind.PER_ACCIDENT])} for one accident")
        parts = []
        if liability:
            parts.append("public liability " + " and ".join(liability))
        if CoverageKind.PROPERTY_DAMAGE in by_kind:
            parts.append(f"property damage {money_words(by_kind[CoverageKind.PROPERTY_DAMAGE])}")
        return ", ".join(parts)


@dataclass(frozen=True, kw_only=True)
class DepositRequirement:
    label: str
    section: str
    amount: Decimal  # required for this permit (the City Engineer's figure when increased)
    base_amount: Decimal  # the ordinance's figure
    fixed_by: str = ""
    refund_after_days: int = 180
    held_in: str = ""  # the liability account label
    retained_to: str = ""  # the account paying the cost of completing the work


@dataclass(frozen=True, kw_only=True)
class Requirements:
    municipality_key: str
    kind_code: str
    bonds: tuple[BondRequirement, ...] = ()
    insurance: tuple[InsuranceRequirement, ...] = ()
    deposits: tuple[DepositRequirement, ...] = ()
    exemptions: tuple[str, ...] = ()  # why a requirement does not apply, in words

    @property
    def empty(self) -> bool:
        return not (self.bonds or self.insurance or self.deposits)

    def bond(self, purpose: BondPurpose) -> BondRequirement | None:
        return next((b for b in self.bonds if b.purpose is purpose), None)


@dataclass(frozen=True)
class _Entry:
    """One requirement of the file with its applicability, before the permit's facts fill it."""

    kinds: frozenset[str]
    when: tuple[str, ...]
    unless: tuple[str, ...]
    unless_words: str
    amount_fact: str
    requirement: BondRequirement | InsuranceRequirement | DepositRequirement
    condition_when: tuple[tuple[str, str], ...] = ()  # (condition code, fact)


# The keys each kind of entry may have: a misspelt key is an error, not a silent default.
# fmt: off
_COMMON_KEYS = frozenset({"kinds", "label", "section", "when", "unless", "unless_words"})
_BOND_KEYS = _COMMON_KEYS | {
    "purpose", "obligee", "minimum", "maximum", "amount_fact", "fixed_by", "accepted",
    "personal_sureties", "approved_by", "annual", "stage", "guarantee_years", "conditions",
}
_INSURANCE_KEYS = _COMMON_KEYS | {
    "per_person", "per_accident", "property_damage", "association", "association_months",
    "association_section", "through_term", "association_through_term",
}
_DEPOSIT_KEYS = _COMMON_KEYS | {
    "amount", "amount_fact", "fixed_by", "refund_after_days", "held_in", "retained_to",
}
# fmt: on


def _money_field(where: str, raw: dict[str, Any], key: str) -> Decimal | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f'{where}: {key} must be a string of dollars ("1000.00")')
    amount = Decimal(value)
    if amount != amount.quantize(CENT) or amount < 0:
        raise ValueError(f"{where}: {key} {value} is not an amount of money")
    return amount.quantize(CENT)


def _facts_list(where: str, raw: dict[str, Any], key: str) -> tuple[str, ...]:
    names = tuple(raw.get(key, ()))
    for name in names:
        if name not in _FLAG_FACTS:
            raise ValueError(f"{where}: {key} names '{name}', not a permit fact")
    return names


def _parse_entry(where: str, section_kind: str, raw: dict[str, Any], codes: set[str]) -> _Entry:
    allowed = {"bond": _BOND_KEYS, "insurance": _INSURANCE_KEYS, "deposit": _DEPOSIT_KEYS}
    unknown = set(raw) - allowed[section_kind]
    if unknown:
        raise ValueError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    kinds = frozenset(raw["kinds"])
    if not kinds or kinds - codes:
        raise ValueError(f"{where}: kinds {sorted(kinds - codes)} are not permit kinds")
    amount_fact = raw.get("amount_fact", "")
    if amount_fact and amount_fact not in _AMOUNT_FACTS:
        raise ValueError(f"{where}: amount_fact '{amount_fact}' is not a permit fact")
    common = {
        "kinds": kinds,
        "when": _facts_list(where, raw, "when"),
        "unless": _facts_list(where, raw, "unless"),
        "unless_words": raw.get("unless_words", ""),
        "amount_fact": amount_fact,
    }
    label, section = raw["label"], raw["section"]
    if section_kind == "bond":
        conditions, condition_when = [], []
        for c in raw.get("conditions", ()):
            conditions.append(BondCondition(c["code"], c["words"], c.get("section", section)))
            if "when" in c:
                if c["when"] not in _FLAG_FACTS:
                    raise ValueError(f"{where}: condition {c['code']} when '{c['when']}'")
                condition_when.append((c["code"], c["when"]))
        bond = BondRequirement(
            purpose=BondPurpose(raw["purpose"]),
            label=label,
            obligee=raw["obligee"],
            section=section,
            accepted=tuple(BondKind(k) for k in raw["accepted"]),
            minimum=_money_field(where, raw, "minimum"),
            maximum=_money_field(where, raw, "maximum"),
            fixed_by=raw.get("fixed_by", ""),
            personal_sureties=int(raw.get("personal_sureties", 2)),
            approved_by=raw.get("approved_by", ""),
            annual=bool(raw.get("annual", False)),
            stage=Stage(raw.get("stage", "issuance")),
            guarantee_years=int(raw.get("guarantee_years", 0)),
            conditions=tuple(conditions),
        )
        if bond.stage is Stage.COMPLETION and bond.guarantee_years < 1:
            raise ValueError(f"{where}: a completion bond needs guarantee_years")
        return _Entry(**common, requirement=bond, condition_when=tuple(condition_when))
    if section_kind == "insurance":
        limits = []
        for kind in CoverageKind:
            limit = _money_field(where, raw, kind.value)
            if limit is not None:
                limits.append(Coverage(kind, limit))
        if not limits:
            raise ValueError(f"{where}: no coverage limits")
        insurance = InsuranceRequirement(
            label=label,
            section=section,
            limits=tuple(limits),
            association=bool(raw.get("association", False)),
            association_months=int(raw.get("association_months", 12)),
            association_section=raw.get("association_section", section),
            through_term=bool(raw.get("through_term", True)),
            association_through_term=bool(raw.get("association_through_term", False)),
        )
        return _Entry(**common, requirement=insurance)
    base = _money_field(where, raw, "amount")
    if base is None:
        raise ValueError(f"{where}: a deposit needs an amount")
    deposit = DepositRequirement(
        label=label,
        section=section,
        amount=base,
        base_amount=base,
        fixed_by=raw.get("fixed_by", ""),
        refund_after_days=int(raw.get("refund_after_days", 180)),
        held_in=raw.get("held_in", ""),
        retained_to=raw.get("retained_to", ""),
    )
    return _Entry(**common, requirement=deposit)


@cache
def _entries(municipality_key: str) -> tuple[_Entry, ...]:
    text = resources.files("resources").joinpath("surety_requirements.toml").read_text("utf-8")
    data = tomllib.loads(text).get(municipality_key, {})
    codes = {k.code for k in kinds_for(municipality_key)}
    out = []
    for section_kind in ("bond", "insurance", "deposit"):
        for i, raw in enumerate(data.get(section_kind, ())):
            where = f"surety_requirements.toml [{municipality_key}] {section_kind} #{i + 1}"
            try:
                out.append(_parse_entry(where, section_kind, raw, codes))
            except KeyError as e:
                raise ValueError(f"{where}: missing {e}") from None
    return tuple(out)


def requirement_for(municipality_key: str, kind_code: str, facts: PermitFacts) -> Requirements:
    """What a permit of `kind_code` needs on file, given its facts. Amounts the officer fixed are
    checked against the ordinance's floor and cap here (ValidationError names the fact)."""
    kind_by_code(municipality_key, kind_code)  # an unknown kind is an input error
    bonds: list[BondRequirement] = []
    insurance: list[InsuranceRequirement] = []
    deposits: list[DepositRequirement] = []
    exemptions: list[str] = []
    for entry in _entries(municipality_key):
        if kind_code not in entry.kinds:
            continue
        if not all(getattr(facts, f) for f in entry.when):
            continue
        if any(getattr(facts, f) for f in entry.unless):
            exemptions.append(entry.unless_words or f"Not required ({entry.requirement.section})")
            continue
        fixed = getattr(facts, entry.amount_fact) if entry.amount_fact else None
        req = entry.requirement
        if isinstance(req, BondRequirement):
            bonds.append(_fill_bond(req, entry, facts, fixed))
        elif isinstance(req, InsuranceRequirement):
            insurance.append(req)
        else:
            deposits.append(_fill_deposit(req, entry, fixed))
    return Requirements(
        municipality_key=municipality_key,
        kind_code=kind_code,
        bonds=tuple(bonds),
        insurance=tuple(insurance),
        deposits=tuple(deposits),
        exemptions=tuple(exemptions),
    )


def _fill_bond(
    req: BondRequirement, entry: _Entry, facts: PermitFacts, fixed: Decimal | None
) -> BondRequirement:
    if fixed is not None:
        if fixed <= 0:
            raise ValidationError(entry.amount_fact, "must be more than $0")
        if req.minimum is not None and fixed < req.minimum:
            raise ValidationError(
                entry.amount_fact,
                f"{money_words(fixed)} is below the {money_words(req.minimum)} minimum "
                f"({req.section})",
            )
        if req.maximum is not None and fixed > req.maximum:
            raise ValidationError(
                entry.amount_fact,
                f"{money_words(fixed)} exceeds the {money_words(req.maximum)} the ordinance "
                f"allows ({req.section})",
            )
    off = {code for code, fact in entry.condition_when if not getattr(facts, fact)}
    return replace(
        req,
        fixed_amount=fixed,
        conditions=tuple(c for c in req.conditions if c.code not in off),
    )


def _fill_deposit(
    req: DepositRequirement, entry: _Entry, fixed: Decimal | None
) -> DepositRequirement:
    if fixed is None:
        return req
    # 15.1.43 NOTE: "Street deposits may be increased at the discretion of the City Engineer":
    # an increase, never a reduction.
    if fixed < req.base_amount:
        raise ValidationError(
            entry.amount_fact,
            f"the {req.fixed_by or 'City Engineer'} may increase the "
            f"{money_words(req.base_amount)} deposit, not reduce it ({req.section})",
        )
    return replace(req, amount=fixed)


# --- checking what is on file -------------------------------------------------------------------


def surety_shortfalls(
    requirements: Requirements,
    bonds: Sequence[Bond],
    certificates: Sequence[InsuranceCertificate],
    issue_date: date,
    term_end: date | None,
    facts: PermitFacts,
    deposits: Sequence[Deposit] = (),
    applied_on: date | None = None,
    issued_on: date | None = None,
) -> list[str]:
    """Each unmet requirement in words, with its section; [] when the permit may be issued.

    Everything must be in force on the issue date and, where the requirement says so, through
    `term_end` (the end of the permit's term). `deposits` are those received for this permit.
    An association's certificate (15.1.38(b)) is checked on `applied_on` and on the day of issue
    (`issued_on` once issued, else `issue_date`), not through the term.
    """
    out: list[str] = []
    for bond_req in requirements.bonds:
        if bond_req.stage is Stage.ISSUANCE:
            out += _bond_shortfalls(
                bond_req,
                bonds,
                issue_date,
                term_end,
                facts,
                "the issue date",
                "before the permit's work ends on",
            )
    for ins_req in requirements.insurance:
        out += _insurance_shortfalls(
            ins_req,
            certificates,
            issue_date,
            term_end if ins_req.through_term else None,
            _member_days(applied_on, issued_on or issue_date),
        )
    for dep_req in requirements.deposits:
        out += _deposit_shortfalls(dep_req, deposits)
    return _unique(out)


def completion_shortfalls(
    requirements: Requirements, bonds: Sequence[Bond], completed_on: date, facts: PermitFacts
) -> list[str]:
    """What must be filed when the work is completed: §435-7.K, the restoring contractor's
    written guarantee or surety bond for one year from the date of completion."""
    out: list[str] = []
    for req in requirements.bonds:
        if req.stage is Stage.COMPLETION:
            ends = guarantee_ends(completed_on, req.guarantee_years)
            out += _bond_shortfalls(
                req,
                bonds,
                completed_on,
                ends,
                facts,
                "the completion date",
                f"before the {_count_words(req.guarantee_years)}-year guarantee ends on",
            )
    return _unique(out)


def _bond_shortfalls(
    req: BondRequirement,
    bonds: Sequence[Bond],
    start: date,
    end: date | None,
    facts: PermitFacts,
    start_words: str,
    end_words: str,
) -> list[str]:
    mine = [b for b in bonds if b.purpose is req.purpose]
    if not mine:
        return [f"No {_lower_first(req.label)} is on file: {req.describe()} ({req.section})"]
    reports = [_bond_problems(req, b, start, end, facts, start_words, end_words) for b in mine]
    if any(not r for r in reports):
        return []  # one good bond meets the requirement
    return [m for r in reports for m in r]


def _bond_problems(
    req: BondRequirement,
    bond: Bond,
    start: date,
    end: date | None,
    facts: PermitFacts,
    start_words: str,
    end_words: str,
) -> list[str]:
    t, sec = bond.title(), req.section
    out: list[str] = []
    if bond.status is BondStatus.RELEASED:
        when = f" on {short_date(bond.released_on)}" if bond.released_on else ""
        out.append(f"{t} was released{when}; a bond in force is required ({sec})")
    elif bond.status is BondStatus.CLAIMED:
        claim = f" for {money_words(bond.claim_amount)}" if bond.claim_amount else ""
        out.append(
            f"A claim{claim} has been made on {bond.title(False)}; a new bond is required ({sec})"
        )
    elif bond.status is BondStatus.EXPIRED:
        out.append(f"{t} is recorded as expired; a bond in force is required ({sec})")
    if bond.kind not in req.accepted:
        out.append(
            f"{t} is {bond.kind.words(req.personal_sureties)}; {sec} calls for "
            f"{req.accepted_words()}"
        )
    elif bond.kind is BondKind.SURETY and not bond.surety_company.strip():
        out.append(f"{t} names no surety company ({sec})")
    elif bond.kind is BondKind.PERSONAL:
        # 15.1.9(f)(1): "two (2) personal sureties to be approved by the governing body"
        named = [n for n in bond.personal_sureties if n.strip()]
        if len(named) < req.personal_sureties:
            out.append(
                f"{t} names {_count_words(len(named))} personal "
                f"suret{'y' if len(named) == 1 else 'ies'}; "
                f"{_count_words(req.personal_sureties)} are required ({sec})"
            )
        if req.approved_by and not bond.sureties_approved.strip():
            out.append(
                f"The personal sureties on {bond.title(False)} have not been approved by "
                f"{req.approved_by} ({sec})"
            )
    if req.maximum is not None and bond.amount > req.maximum:
        # §435-10.B: "a bond not exceeding $10,000". A bond on file above the cap cannot be
        # what was filed under the section: the figure on record is wrong.
        out.append(
            f"{t} is recorded as {money_words(bond.amount)}, more than the "
            f"{money_words(req.maximum)} {sec} allows: the amount on record is an error, "
            "correct the bond's data"
        )
    annual = bond.scope is BondScope.CONTRACTOR_YEAR
    need = req.required_amount
    if not annual:
        # §435-7.K: an annual bond is "in the amount determined by the City Engineer" for the
        # year, not per opening, so its amount is not held against a single permit's figure.
        if need is not None and bond.amount < need:
            out.append(
                f"{t} is for {money_words(bond.amount)}, below the {money_words(need)} "
                f"required ({sec})"
            )
        elif need is None and req.fixed_by:
            out.append(
                f"The {req.fixed_by} has not set the amount of the "
                f"{_lower_first(req.label)} ({sec})"
            )
    for cond in req.conditions:
        if cond.code not in bond.conditions:
            out.append(f"{t} is not conditioned on {cond.words} ({cond.section})")
    if annual:
        out += _annual_problems(req, bond, start, end, start_words)
    elif bond.covers and facts.permit_ref and facts.permit_ref not in bond.covers:
        listed = ", ".join(bond.covers)
        out.append(f"{t} covers permit {listed}, not {facts.permit_ref} ({sec})")
    out += _date_problems(t, bond.effective, bond.expiry, start, end, sec, start_words, end_words)
    return out


def _annual_problems(
    req: BondRequirement, bond: Bond, start: date, end: date | None, start_words: str
) -> list[str]:
    t, sec = bond.title(), req.section
    if not req.annual:
        return [f"{t} is a contractor's annual bond; {sec} calls for a bond for this permit"]
    if bond.year is None:
        return [f"{t} is an annual bond with no year on record ({sec})"]
    # §435-7.K: "an annual bond ... covering all excavation work done by the principal for one
    # year beginning January 1": January 1 to December 31 of its year, and no other.
    year_start, year_end = date(bond.year, 1, 1), date(bond.year, 12, 31)
    if start < year_start or start > year_end:
        return [
            f"{t} is an annual bond for {bond.year}: it covers work from {short_date(year_start)} "
            f"to {short_date(year_end)} only, and {start_words} is {short_date(start)} ({sec})"
        ]
    if end is not None and end > year_end:
        return [
            f"{t} is an annual bond for {bond.year}: it covers work from {short_date(year_start)} "
            f"to {short_date(year_end)} only, and the permit's work ends on {short_date(end)} "
            f"({sec})"
        ]
    return []


def _date_problems(
    t: str,
    effective: date,
    expiry: date | None,
    start: date,
    end: date | None,
    sec: str,
    start_words: str,
    end_words: str,
) -> list[str]:
    if effective > start:
        return [
            f"{t} takes effect {short_date(effective)}, after {start_words} "
            f"{short_date(start)} ({sec})"
        ]
    if expiry is not None and expiry < start:
        return [
            f"{t} expired {short_date(expiry)}, before {start_words} {short_date(start)} ({sec})"
        ]
    if expiry is not None and end is not None and expiry < end:
        return [f"{t} expires {short_date(expiry)}, {end_words} {short_date(end)} ({sec})"]
    return []


def _member_days(applied_on: date | None, issued_on: date) -> tuple[tuple[date, str], ...]:
    """15.1.38(b): the days a member's association certificate must be in force: the day the
    member applies for the permit and the day it is issued."""
    days = [(issued_on, "the issue date")]
    if applied_on is not None and applied_on < issued_on:
        days.insert(0, (applied_on, "the application date"))
    return tuple(days)


def _certificate_problems(
    req: InsuranceRequirement,
    cert: InsuranceCertificate,
    start: date,
    end: date | None,
    member_days: Sequence[tuple[date, str]] = (),
) -> list[str]:
    """Problems of one certificate that no limit could cure: association, filing, dates."""
    t, sec = cert.title(), req.section
    if cert.association and not req.association:
        return [
            f"{t} is an association's certificate for its members; {sec} calls for the "
            "applicant's own certificate"
        ]
    if cert.association and member_days and not req.association_through_term:
        # 15.1.38(b): the member "applying for a permit shall be deemed to have complied":
        # in force on the day of application and on the day of issue; the term is not asked.
        for day, words in member_days:
            found = _certificate_problems_on(req, cert, day, None, words)
            if found:
                return found
        return []
    return _certificate_problems_on(req, cert, start, end, "the issue date")


def _certificate_problems_on(
    req: InsuranceRequirement,
    cert: InsuranceCertificate,
    start: date,
    end: date | None,
    start_words: str,
) -> list[str]:
    t = cert.title()
    sec = req.association_section if cert.association else req.section
    out = _date_problems(
        t,
        cert.effective,
        cert.expiry,
        start,
        end,
        sec,
        start_words,
        "before the permit's work ends on",
    )
    if out or not cert.association:
        return out
    asec = req.association_section
    if cert.filed_on is None:
        return [
            f"{t} has no filing date on record; an association's certificate covers its "
            f"members for at most one year from filing ({asec})"
        ]
    # 15.1.38(b): "for a given period of time not to exceed one (1) year from the date of the
    # filing thereof": through the anniversary of the filing, not a day longer.
    ends = cert.association_ends(req.association_months)
    assert ends is not None
    filed = short_date(cert.filed_on)
    if ends < start:
        return [
            f"{t}, filed by {cert.insured} on {filed}, stopped covering its members on "
            f"{short_date(ends)}, one year from filing, before {start_words} "
            f"{short_date(start)} ({asec})"
        ]
    if end is not None and ends < end:
        return [
            f"{t}, filed by {cert.insured} on {filed}, covers its members only until "
            f"{short_date(ends)}, one year from filing, before the permit's work ends on "
            f"{short_date(end)} ({asec})"
        ]
    return []


def _insurance_shortfalls(
    req: InsuranceRequirement,
    certificates: Sequence[InsuranceCertificate],
    start: date,
    end: date | None,
    member_days: Sequence[tuple[date, str]] = (),
) -> list[str]:
    if not certificates:
        return [f"No insurance certificate is on file: {req.describe()} ({req.section})"]
    problems = {id(c): _certificate_problems(req, c, start, end, member_days) for c in certificates}
    good = [c for c in certificates if not problems[id(c)]]
    out: list[str] = []
    # Limits may come from several certificates (liability on one, property damage on another):
    # each coverage is met when some certificate good for the whole period carries enough.
    for need in req.limits:
        best_good = max(
            (lim for c in good if (lim := c.limit(need.kind)) is not None), default=None
        )
        if best_good is not None and best_good >= need.limit:
            continue
        enough_but_flawed = [
            c for c in certificates if c not in good and (c.limit(need.kind) or ZERO) >= need.limit
        ]
        if enough_but_flawed:
            out += problems[id(enough_but_flawed[0])]
            continue
        if best_good is not None:
            out.append(
                f"{need.kind.label} {money_words(best_good)} is below the "
                f"{money_words(need.limit)} required ({req.section})"
            )
            continue
        carrying = [c for c in certificates if c.limit(need.kind) is not None]
        if not carrying:
            out.append(
                f"No {_lower_first(need.kind.label)} on file; "
                f"{money_words(need.limit)} is required ({req.section})"
            )
            continue
        best = max(carrying, key=lambda c: c.limit(need.kind) or ZERO)
        out.append(
            f"{need.kind.label} {money_words(best.limit(need.kind) or ZERO)} is below "
            f"the {money_words(need.limit)} required ({req.section})"
        )
        out += problems[id(best)]
    return out


def _deposit_shortfalls(req: DepositRequirement, deposits: Sequence[Deposit]) -> list[str]:
    held = sum((d.amount for d in deposits if d.refunded_on is None and d.retention is None), ZERO)
    if held <= 0:
        return [
            f"No {_lower_first(req.label)} has been received: {money_words(req.amount)} is "
            f"required before the permit is issued ({req.section})"
        ]
    if held < req.amount:
        by = (
            f" the {req.fixed_by} has set"
            if req.amount > req.base_amount and req.fixed_by
            else " required"
        )
        return [
            f"The {_lower_first(req.label)} of {money_words(held)} received is below the "
            f"{money_words(req.amount)}{by} ({req.section})"
        ]
    return []


# --- releasing a bond ---------------------------------------------------------------------------

RELEASE_ROLES = frozenset({Role.ENGINEER, Role.INSPECTOR})


def guarantee_ends(completed_on: date, years: int = 1) -> date:
    """§435-7.K: "responsible therefor for one year from the date of the completion of the
    work": the anniversary of completion is the guarantee's last day."""
    return add_months(completed_on, 12 * years)


@dataclass(frozen=True, kw_only=True)
class ReleaseFacts:
    on: date
    roles: frozenset[Role]
    final_inspection_passed_on: date | None = None
    # The completion of the work the bond secures; for an annual bond, the latest completion
    # among the principal's openings of its year.
    completed_on: date | None = None


def release_check(bond: Bond, facts: ReleaseFacts) -> list[str]:
    """Why `bond` may not be released on `facts.on` by someone holding `facts.roles`; []: it may.
    Releasing takes the engineer's or the inspector's role."""
    t, sec = bond.title(), bond.purpose.section
    out: list[str] = []
    if not facts.roles & RELEASE_ROLES:
        out.append("Releasing a bond takes the engineer's or the inspector's role")
    if bond.status is BondStatus.RELEASED:
        when = f" on {short_date(bond.released_on)}" if bond.released_on else ""
        who = f" by {bond.released_by}" if bond.released_by else ""
        return [*out, f"{t} was already released{when}{who}"]
    if bond.status is BondStatus.EXPIRED:
        return [*out, f"{t} has expired; there is nothing to release"]
    if bond.status is BondStatus.CLAIMED:
        # Releasing would discharge the surety from the City's claim on it.
        when = f" on {short_date(bond.claimed_on)}" if bond.claimed_on else ""
        return [*out, f"{t} was claimed{when}; a claimed bond is not released"]
    if bond.scope is BondScope.CONTRACTOR_YEAR and bond.year is not None:
        year_end = date(bond.year, 12, 31)
        if facts.on <= year_end:
            out.append(
                f"{t} is the annual bond for {bond.year} and covers openings through "
                f"{short_date(year_end)}; it may be released after its year ({sec})"
            )
    rule = bond.purpose.release_rule
    if rule is ReleaseRule.FINAL_INSPECTION:
        passed = facts.final_inspection_passed_on
        if passed is None or passed > facts.on:
            out.append(
                f"{t} secures the work until it passes final inspection; no passed "
                f"final inspection is recorded ({sec})"
            )
    else:
        done = facts.completed_on
        if done is None:
            if bond.scope is not BondScope.CONTRACTOR_YEAR:
                out.append(
                    f"{t} guarantees the work for one year from its completion; no "
                    f"completion date is recorded ({sec})"
                )
        else:
            ends = guarantee_ends(done)
            if facts.on <= ends:
                out.append(
                    f"{t} guarantees the work for one year from its completion on "
                    f"{short_date(done)}, through {short_date(ends)}; it may be released from "
                    f"{short_date(ends + timedelta(days=1))} ({sec})"
                )
    return out


def release_bond(bond: Bond, facts: ReleaseFacts, by: str) -> Bond:
    """The bond released on `facts.on` by `by`; PermissionDenied or RuleViolation otherwise."""
    if not facts.roles & RELEASE_ROLES:
        raise PermissionDenied("Releasing a bond takes the engineer's or the inspector's role")
    problems = release_check(bond, facts)
    if problems:
        raise RuleViolation("\n".join(problems))
    return replace(bond, status=BondStatus.RELEASED, released_on=facts.on, released_by=by)


def record_claim(bond: Bond, on: date, amount: Decimal, reason: str) -> Bond:
    """A claim made on the bond, with its amount and reason."""
    if bond.status is BondStatus.RELEASED:
        raise RuleViolation(f"{bond.title()} was released; no claim can be made on it")
    _check_cents("claim_amount", amount)
    if amount <= 0:
        raise ValidationError("claim_amount", "must be more than $0.00")
    if not reason.strip():
        raise ValidationError("claim_reason", "say why the bond is claimed")
    return replace(
        bond, status=BondStatus.CLAIMED, claimed_on=on, claim_amount=amount, claim_reason=reason
    )


def bond_status_on(bond: Bond, on: date) -> BondStatus:
    """The status to show on `on`: a bond in force past its last covered day is expired."""
    until = bond.covered_until()
    if bond.status is BondStatus.IN_FORCE and until is not None and until < on:
        return BondStatus.EXPIRED
    return bond.status


def validate_bond(bond: Bond) -> None:
    """Checks on entry, each naming the field (the register refuses a bond that fails them)."""
    _check_cents("amount", bond.amount)
    if bond.amount <= 0:
        raise ValidationError("amount", "must be more than $0.00")
    if not bond.principal.strip():
        raise ValidationError("principal", "enter who gives the bond")
    if bond.expiry is not None and bond.expiry < bond.effective:
        raise ValidationError("expiry", "is before the effective date")
    if bond.scope is BondScope.CONTRACTOR_YEAR and bond.year is None:
        raise ValidationError("year", "an annual bond covers one calendar year: enter it")
    if bond.kind is BondKind.SURETY and not bond.surety_company.strip():
        raise ValidationError("surety_company", "enter the surety company")
    if bond.kind is BondKind.PERSONAL and not any(n.strip() for n in bond.personal_sureties):
        raise ValidationError("personal_sureties", "enter the personal sureties' names")


def validate_certificate(cert: InsuranceCertificate) -> None:
    if not cert.insured.strip():
        raise ValidationError("insured", "enter the insured")
    if cert.expiry < cert.effective:
        raise ValidationError("expiry", "is before the effective date")
    for c in cert.coverages:
        _check_cents(c.kind.value, c.limit)
        if c.limit <= 0:
            raise ValidationError(c.kind.value, "must be more than $0.00")
    if cert.association and cert.filed_on is None:
        raise ValidationError("filed_on", "an association's certificate needs its filing date")


# --- expiry watch -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Watched:
    """A bond or certificate with the active permits that rely on it (the caller knows which)."""

    item: Bond | InsuranceCertificate
    permits: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExpiryNotice:
    what: str  # "Bond" or "Insurance certificate"
    reference: str  # bond number or policy number
    holder: str  # the principal or the insured: the contractor the reminder goes to
    issuer: str  # the surety company or the insurer
    ends_on: date  # the last day it covers
    days_left: int  # negative once it has expired
    permits: tuple[str, ...]
    item: Bond | InsuranceCertificate

    @property
    def expired(self) -> bool:
        return self.days_left < 0

    @property
    def message(self) -> str:
        name = f"{self.item.title()} of {self.holder}" if self.reference else self.item.title()
        if self.expired:
            text = f"{name} expired {short_date(self.ends_on)}"
        elif self.days_left == 0:
            text = f"{name} expires today, {short_date(self.ends_on)}"
        else:
            days = _days(self.days_left)
            text = f"{name} expires {short_date(self.ends_on)} (in {days})"
        if self.permits:
            text += f"; permit{'s' if len(self.permits) > 1 else ''} "
            text += f"{', '.join(self.permits)} rel{'y' if len(self.permits) > 1 else 'ies'} on it"
        return text


def expiring(items: Iterable[Watched], on: date, days: int = 60) -> list[ExpiryNotice]:
    """Bonds and certificates whose cover ends within `days` of `on` (inclusive), and those
    already ended while a permit still relies on them; soonest first."""
    horizon = on + timedelta(days=days)
    out = []
    for w in items:
        item = w.item
        if isinstance(item, Bond):
            if item.status is BondStatus.RELEASED:
                continue
            ends = item.covered_until()
            if ends is None:
                continue  # in force until released
            what, ref, holder = "Bond", item.number, item.principal
            issuer = item.surety_company or ", ".join(item.personal_sureties)
        else:
            ends = item.covered_until()
            what, ref, holder, issuer = (
                "Insurance certificate",
                item.policy,
                item.insured,
                (item.insurer),
            )
        if ends > horizon or (ends < on and not w.permits):
            continue
        out.append(
            ExpiryNotice(
                what=what,
                reference=ref,
                holder=holder,
                issuer=issuer,
                ends_on=ends,
                days_left=(ends - on).days,
                permits=tuple(w.permits),
                item=item,
            )
        )
    out.sort(key=lambda n: (n.ends_on, n.what, n.reference))
    return out


# --- street deposits (15.1.43) ------------------------------------------------------------------

REFUND_WAIT_DAYS = 180


def eligible_on(completed_on: date, wait_days: int = REFUND_WAIT_DAYS) -> date:
    """15.1.43: "Not less than one hundred eighty (180) days after the proper completion of the
    work ... said deposit shall be returned upon order of the City Engineer".

    Counted as Wis. Stat. 990.001(4) counts: the completion day is excluded, so the day after is
    day 1 and completed_on + 180 days is day 180. On that day 180 days have passed since the
    completion, which is "not less than 180 days after": day 180 counts, day 179 does not.
    """
    return completed_on + timedelta(days=wait_days)


def _check_roles(roles: Iterable[Role], needed: Role, message: str) -> None:
    if needed not in frozenset(roles):
        raise PermissionDenied(message)


def record_completion(deposit: Deposit, completed_on: date) -> Deposit:
    """The proper completion of the work (from the passed final inspection or the inspector)."""
    if deposit.ordered_on is not None or deposit.refunded_on is not None:
        raise RuleViolation(
            "The City Engineer has already ordered this deposit returned; the completion date "
            "can no longer change"
        )
    return replace(deposit, completed_on=completed_on)


def order_check(deposit: Deposit, on: date) -> list[str]:
    """Why the City Engineer may not order `deposit` returned on `on`; [] when he may."""
    sec = "15.1.43"
    if deposit.status(on) is DepositStatus.RETAINED:
        r = deposit.retention
        assert r is not None
        return [
            f"The Common Council retained the whole deposit by resolution {r.resolution} "
            f"of {short_date(r.resolved_on)}; nothing is left to return ({sec})"
        ]
    if deposit.refunded_on is not None:
        return [
            f"This deposit was refunded on {short_date(deposit.refunded_on)} by check "
            f"{deposit.check_number}"
        ]
    if deposit.ordered_on is not None:
        return [
            f"The City Engineer already ordered this deposit returned on "
            f"{short_date(deposit.ordered_on)}"
        ]
    if deposit.completed_on is None:
        return [
            f"No completion date is recorded for the work this deposit secures; it may be "
            f"returned not less than 180 days after the work's proper completion ({sec})"
        ]
    eligible = eligible_on(deposit.completed_on)
    if on < eligible:
        return [
            f"The deposit may be returned not less than 180 days after the work's proper "
            f"completion on {short_date(deposit.completed_on)}: from {short_date(eligible)}, "
            f"{_days((eligible - on).days)} from now ({sec})"
        ]
    return []


# 15.1.43: a street deposit is returned "upon order of the City Engineer by the City Clerk".
# An office without an engineer user names the role that acts for him (Municipality screen):
# settings["deposits"]["refund_order_role"], "engineer" when not set. The engineer's role
# itself always may: he is the City Engineer the ordinance names.
DEPOSITS_KEY = "deposits"
REFUND_ORDER_SETTING = "refund_order_role"
DEFAULT_REFUND_ORDER_ROLE = Role.ENGINEER


def check_refund_order_role(value: object) -> Role:
    """The setting's value as a Role; a ValidationError names the roles allowed."""
    text = str(value or "").strip().lower()
    try:
        return Role(text)
    except ValueError:
        allowed = ", ".join(r.value for r in Role)
        raise ValidationError(REFUND_ORDER_SETTING, f"must be one of {allowed}") from None


def refund_order_role(settings: object) -> Role:
    """Who acts for the City Engineer on deposit refunds in this municipality (15.1.43)."""
    section = settings.get(DEPOSITS_KEY) if isinstance(settings, dict) else None
    value = section.get(REFUND_ORDER_SETTING) if isinstance(section, dict) else None
    if not value:
        return DEFAULT_REFUND_ORDER_ROLE
    try:
        return check_refund_order_role(value)
    except ValidationError:
        return DEFAULT_REFUND_ORDER_ROLE


def may_order_refund(roles: Iterable[Role], orderer: Role = DEFAULT_REFUND_ORDER_ROLE) -> bool:
    return bool(frozenset(roles) & {Role.ENGINEER, orderer})


def order_refusal(roles: Iterable[Role], orderer: Role = DEFAULT_REFUND_ORDER_ROLE) -> str:
    """Why these roles may not order a deposit refund, in words ('' when they may)."""
    held = frozenset(roles)
    if may_order_refund(held, orderer):
        return ""
    who = ", ".join(sorted(r.value for r in held)) or "none"
    acting = (
        ""
        if orderer is Role.ENGINEER
        else f"; in this office the {orderer.value}'s role acts for him"
    )
    return f"The City Engineer orders a deposit refund (15.1.43){acting}; your roles: {who}."


def order_refund(
    deposit: Deposit,
    on: date,
    roles: Iterable[Role],
    by: str,
    orderer: Role = DEFAULT_REFUND_ORDER_ROLE,
) -> Deposit:
    """The City Engineer's order to return the deposit (15.1.43: "upon order of the City
    Engineer"). Takes the engineer's role, or the role the municipality names to act for
    him (`orderer`)."""
    refusal = order_refusal(roles, orderer)
    if refusal:
        raise PermissionDenied(refusal)
    problems = order_check(deposit, on)
    if problems:
        raise RuleViolation("\n".join(problems))
    return replace(deposit, ordered_on=on, ordered_by=by)


def refund_check(deposit: Deposit, on: date) -> list[str]:
    """Why the clerk may not issue the refund check on `on`; [] when she may."""
    if deposit.status(on) is DepositStatus.RETAINED:
        return order_check(deposit, on)
    if deposit.refunded_on is not None:
        return [
            f"This deposit was refunded on {short_date(deposit.refunded_on)} by check "
            f"{deposit.check_number}"
        ]
    if deposit.ordered_on is None:
        return [
            "A street deposit is returned only upon the order of the City Engineer "
            "(15.1.43); no order is recorded for this deposit"
        ]
    if on < deposit.ordered_on:
        return [
            f"The refund date {short_date(on)} is before the City Engineer's order of "
            f"{short_date(deposit.ordered_on)}"
        ]
    return []


def record_refund(
    deposit: Deposit, on: date, roles: Iterable[Role], check_number: str, by: str
) -> Deposit:
    """The City Clerk returns the deposit (less any part the Council retained) by check."""
    _check_roles(
        roles,
        Role.CLERK,
        "The City Clerk (clerk's role) issues the refund of a street deposit (15.1.43)",
    )
    if not check_number.strip():
        raise ValidationError("check_number", "enter the number of the refund check")
    problems = refund_check(deposit, on)
    if problems:
        raise RuleViolation("\n".join(problems))
    return replace(deposit, refunded_on=on, check_number=check_number.strip(), refunded_by=by)


def record_retention(deposit: Deposit, retention: Retention, roles: Iterable[Role]) -> Deposit:
    """15.1.43: "unless, in the opinion of the Common Council, it shall be necessary to correct,
    complete or supplement said work, in which event said deposit or any [part] thereof may be
    retained to pay costs for completion of said work". The clerk records the resolution."""
    _check_roles(
        roles,
        Role.CLERK,
        "The City Clerk (clerk's role) records the Common Council's resolution (15.1.43)",
    )
    if not retention.resolution.strip():
        raise ValidationError("resolution", "enter the Council's resolution number")
    if not retention.reason.strip():
        raise ValidationError(
            "reason", "say what work the retained amount pays to correct, complete or supplement"
        )
    _check_cents("amount", retention.amount)
    if retention.amount <= 0:
        raise ValidationError("amount", "must be more than $0.00")
    if retention.amount > deposit.amount:
        raise ValidationError(
            "amount", f"the Council can retain at most the deposit, {money_words(deposit.amount)}"
        )
    if deposit.refunded_on is not None:
        raise RuleViolation(
            f"This deposit was already refunded on "
            f"{short_date(deposit.refunded_on)}; there is nothing to retain"
        )
    if deposit.retention is not None:
        r = deposit.retention
        raise RuleViolation(
            f"The Council already retained {money_words(r.amount)} by "
            f"resolution {r.resolution} of {short_date(r.resolved_on)}"
        )
    return replace(deposit, retention=retention)


@dataclass(frozen=True)
class DepositSplit:
    """Where a deposit's money goes: the payee's check and the completion-cost account. The
    two always add up to the deposit."""

    refund: Decimal
    retained: Decimal


def split(deposit: Deposit) -> DepositSplit:
    result = DepositSplit(refund=deposit.refund_amount, retained=deposit.retained.quantize(CENT))
    assert result.refund + result.retained == deposit.amount
    return result


# --- words --------------------------------------------------------------------------------------


def money_words(amount: Decimal) -> str:
    """'$50,000' for whole dollars (as the ordinances write them), '$1,250.50' otherwise."""
    if amount == amount.to_integral_value():
        return f"${amount:,.0f}"
    return f"${amount:,.2f}"


def _count_words(n: int) -> str:
    return {0: "no", 1: "one", 2: "two", 3: "three"}.get(n, str(n))


def _days(n: int) -> str:
    return f"{n} day{'' if n == 1 else 's'}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _check_cents(field: str, amount: Decimal) -> None:
    if amount != amount.quantize(CENT):
        raise ValidationError(field, "has more than two decimals")


def _unique(messages: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(messages))
