"""Cashiering rules: payments, their allocation and GL split, refunds by the ordinances'
rules, the daily close and the treasurer's reconciliation. Pure Decimal arithmetic, no I/O;
desk/services/cashiering.py applies them to the register.

Readings written down here (also in the user guide):

- Money comes in at the counter (Glendale 15.1.34(b)(4): the office "turns all such collected
  fees to the City Treasurer"; New Lisbon §435-7: fees are paid to the Clerk-Treasurer, "who shall
  issue a receipt therefor"). Every receipt is numbered; nothing is ever deleted: a void, a
  returned check and a refund are entries of their own.
- A payment is split over a permit's fee lines **oldest line first** (first charged, first paid),
  not pro rata. Why: each fee line is then either paid, partly paid (only the last one touched)
  or unpaid, which is what a clerk can explain at the counter and what the receipt prints; the
  state seal, a liability owed to the state, is paid in full as soon as the payment reaches it,
  not a few cents at a time; re-inspection and failure-to-call fees added later are paid after
  the fees that were due before them; and the split is exact to the cent with no rounding at all
  (the remainder of the payment simply lands on the last line it reaches). A refund or reversal
  undoes it in the opposite order (newest line first), so a kept amount stays on the oldest line.
- The treasurer's identity, for any period: receipts − voids − returned checks (NSF) − refunds =
  turnovers acknowledged + turnovers pending + undeposited. Returned checks and refunds are
  reported to the treasurer with the next turnover, as deductions from it, so every money event
  sits in exactly one turnover or is still undeposited.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from desk.dates import short_date
from desk.domain.enums import PermitStatus
from desk.errors import RuleViolation, ValidationError
from desk.money import CENT, format_money

ZERO = Decimal("0.00")


def _money(value: Decimal) -> Decimal:
    return value.quantize(CENT)


# --- vocabularies (stored in the database: never rename a value) --------------------------------


class PaymentMethod(StrEnum):
    CASH = "cash"
    CHECK = "check"
    CARD = "card"
    MONEY_ORDER = "money_order"
    CREDIT = "credit"  # the payer's credit on account: no money changes hands

    @property
    def label(self) -> str:
        return {
            "cash": "Cash",
            "check": "Check",
            "card": "Card",
            "money_order": "Money order",
            "credit": "Credit on account",
        }[self.value]

    @property
    def is_money(self) -> bool:
        return self is not PaymentMethod.CREDIT


# What a drawer holds and the daily close counts.
DRAWER_METHODS: tuple[PaymentMethod, ...] = (
    PaymentMethod.CASH,
    PaymentMethod.CHECK,
    PaymentMethod.CARD,
    PaymentMethod.MONEY_ORDER,
)


class AccountKind(StrEnum):
    REVENUE = "revenue"
    LIABILITY = "liability"  # held for someone else: the state, a depositor, a payer

    @property
    def label(self) -> str:
        return self.value.capitalize()


class AccountPurpose(StrEnum):
    """What the cashiering rules need to find among a municipality's accounts."""

    NONE = ""
    STATE_SEAL = "state_seal"  # owed to the state (UDC seal); kept in an Act 211 refund
    CREDITS_HELD = "credits_held"  # overpayments kept for the payer
    DEPOSITS_HELD = "deposits_held"  # street deposits, returned under 15.1.43, never "refunded"
    PASS_THROUGH = "pass_through"  # other governments' fees collected at cost (15.1.21(e))
    ADMIN_COST = "admin_cost"  # the administrative cost, where the municipality books it apart
    NSF_CHARGE = "nsf_charge"  # the returned-check charge, where the municipality sets one


class Portion(StrEnum):
    """Which part of a fee line: the fee itself, or its administrative cost booked apart."""

    FEE = "fee"
    ADMIN = "admin"


class EntrySource(StrEnum):
    """Why a GL entry exists. Receipts, voids, NSF and refunds move money; transfers do not
    (a payment out of the payer's credit: the credits held go down, the fee accounts go up)."""

    RECEIPT = "receipt"
    VOID = "void"
    NSF = "nsf"
    REFUND = "refund"
    TRANSFER = "transfer"


class ReversalKind(StrEnum):
    VOID = "void"
    NSF = "nsf"


class AdjustmentSource(StrEnum):
    ADDED = "added"  # a fee added after assessment (re-inspection, failure to call, ...)
    ADJUSTED = "adjusted"  # a correction, up or down, with its reason
    REFUND = "refund"  # the fees given back by a refund are no longer charged
    NSF_CHARGE = "nsf_charge"


class RefundGround(StrEnum):
    PLUMBING_VOID = "plumbing_void"
    ACT_211 = "act_211"
    WITHDRAWN = "withdrawn"
    DENIED = "denied"
    OVERPAYMENT = "overpayment"
    # 15.1.43: a street deposit returned on the City Engineer's order, out of the liability
    # account (desk/services/sureties.py refund_deposit), not a fee refunded by refund_decision.
    STREET_DEPOSIT = "street_deposit"

    @property
    def label(self) -> str:
        return {
            "plumbing_void": "Plumbing permit voided at the plumber's request (15.1.42)",
            "act_211": "Not filed with the state in time (Wisconsin Act 211, SPS 320.09)",
            "withdrawn": "Application withdrawn before issuance",
            "denied": "Application denied",
            "overpayment": "Overpayment",
            "street_deposit": "Street deposit returned on the City Engineer's order (15.1.43)",
        }[self.value]


# --- tender and allocation ----------------------------------------------------------------------


@dataclass(frozen=True)
class Tender:
    """How the payer pays. A money order's serial number goes in `check_number`."""

    method: PaymentMethod
    amount: Decimal
    check_number: str = ""
    check_drawer: str = ""  # the name printed on the check
    check_bank: str = ""
    card_reference: str = ""


def check_amount(amount: Decimal, field_name: str = "amount") -> Decimal:
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise ValidationError(field_name, "enter an amount of money")
    if amount != amount.quantize(CENT):
        raise ValidationError(field_name, "has more than two decimals")
    if amount <= 0:
        raise ValidationError(field_name, "must be more than $0.00")
    return _money(amount)


def check_tender(t: Tender) -> Tender:
    """The tender with its text trimmed and the fields of other methods cleared; a
    ValidationError names the missing field."""
    amount = check_amount(t.amount)
    number, drawer, bank, card = (
        t.check_number.strip(),
        t.check_drawer.strip(),
        t.check_bank.strip(),
        t.card_reference.strip(),
    )
    if t.method is PaymentMethod.CHECK:
        if not number:
            raise ValidationError("check number", "enter the check number")
        if not drawer:
            raise ValidationError("name on check", "enter the name printed on the check")
        if not bank:
            raise ValidationError("bank", "enter the bank the check is drawn on")
        return Tender(t.method, amount, number, drawer, bank, "")
    if t.method is PaymentMethod.MONEY_ORDER:
        if not number:
            raise ValidationError("money order number", "enter the money order's number")
        return Tender(t.method, amount, number, drawer, bank, "")
    if t.method is PaymentMethod.CARD:
        if not card:
            raise ValidationError("card reference", "enter the card terminal's reference")
        return Tender(t.method, amount, "", "", "", card)
    return Tender(t.method, amount)


@dataclass(frozen=True)
class Allocation:
    """How much of a payment goes to one permit (the clerk types each amount)."""

    permit_id: int
    amount: Decimal


def check_allocations(
    amount: Decimal,
    allocations: Sequence[Allocation],
    due: Mapping[int, Decimal],
    labels: Mapping[int, str],
) -> Decimal:
    """Explicit amounts per permit: none above what the permit owes, together not above the
    payment. Returns the overpayment (kept as a credit for the payer, or refunded)."""
    seen: set[int] = set()
    total = ZERO
    for a in allocations:
        label = labels.get(a.permit_id, f"permit #{a.permit_id}")
        if a.permit_id in seen:
            raise ValidationError(label, "is listed twice; give it one amount")
        seen.add(a.permit_id)
        check_amount(a.amount, label)
        owed = due.get(a.permit_id, ZERO)
        if a.amount > owed:
            raise ValidationError(
                label,
                f"{format_money(a.amount)} is allocated but only {format_money(owed)} is due",
            )
        total += a.amount
    if total > amount:
        raise ValidationError(
            "allocation",
            f"the amounts for the permits add up to {format_money(total)}, more than the "
            f"payment of {format_money(amount)}",
        )
    return _money(amount - total)


# --- fee lines, buckets and the GL split ---------------------------------------------------------


@dataclass(frozen=True)
class Charge:
    """A line charged on a permit (assessed, or an adjusting line), in the order charged."""

    code: str
    portion: Portion
    amount: Decimal  # negative for a reduction
    description: str = ""


@dataclass(frozen=True)
class Bucket:
    """All charges of one code and portion on a permit: what is due, what is paid, where it books.
    Lines of the same code book to the same account, so they share a bucket; the bucket's place
    is that of its oldest line."""

    code: str
    portion: Portion
    description: str
    account: str  # the account number; "" when the code is not mapped
    due: Decimal
    paid: Decimal
    purpose: AccountPurpose = AccountPurpose.NONE

    @property
    def remaining(self) -> Decimal:
        return _money(self.due - self.paid)

    @property
    def key(self) -> tuple[str, Portion]:
        return (self.code, self.portion)


def make_buckets(
    charges: Sequence[Charge],
    paid: Mapping[tuple[str, Portion], Decimal],
    account_of: Callable[[str, Portion], tuple[str, AccountPurpose]],
) -> list[Bucket]:
    """Buckets in the order of their oldest charge; money paid to a code no longer charged (it
    can happen after a correction) keeps a bucket of its own at the end."""
    order: list[tuple[str, Portion]] = []
    due: dict[tuple[str, Portion], Decimal] = {}
    names: dict[tuple[str, Portion], str] = {}
    for c in charges:
        key = (c.code, c.portion)
        if key not in due:
            order.append(key)
            due[key] = ZERO
            names[key] = c.description
        due[key] += c.amount
    for key in paid:
        if key not in due:
            order.append(key)
            due[key] = ZERO
            names[key] = key[0]
    out = []
    for key in order:
        account, purpose = account_of(*key)
        description = names[key] or key[0]
        if key[1] is Portion.ADMIN:
            description += " — administrative cost"
        out.append(
            Bucket(
                code=key[0],
                portion=key[1],
                description=description,
                account=account,
                due=_money(due[key]),
                paid=_money(paid.get(key, ZERO)),
                purpose=purpose,
            )
        )
    return out


@dataclass(frozen=True)
class SplitLine:
    code: str
    portion: Portion
    account: str
    amount: Decimal  # positive: the share of the payment (or refund) of this bucket


def _unmapped(code: str) -> RuleViolation:
    return RuleViolation(
        f"The fee item {code} has no GL account. An administrator maps it to an account "
        "(Administration → GL accounts) before it can be paid."
    )


def split_oldest_first(amount: Decimal, buckets: Sequence[Bucket]) -> list[SplitLine]:
    """Split a payment to one permit over its buckets, oldest first. The amount must not exceed
    what is due (check_allocations says so first, in the clerk's words)."""
    left = _money(amount)
    out: list[SplitLine] = []
    for b in buckets:
        if left <= 0:
            break
        take = min(left, b.remaining)
        if take <= 0:
            continue
        if not b.account:
            raise _unmapped(b.code)
        out.append(SplitLine(b.code, b.portion, b.account, take))
        left -= take
    if left > 0:
        raise ValidationError(
            "amount", f"{format_money(amount)} is more than the {format_money(amount - left)} due"
        )
    return out


def split_newest_first(
    amount: Decimal, buckets: Sequence[Bucket], available: Callable[[Bucket], Decimal]
) -> list[SplitLine]:
    """Take `amount` back out of the buckets, newest first, at most `available(bucket)` from each
    (a refund: what was paid; an overpayment refund: what was paid beyond the due)."""
    left = _money(amount)
    out: list[SplitLine] = []
    for b in reversed(buckets):
        if left <= 0:
            break
        take = min(left, _money(available(b)))
        if take <= 0:
            continue
        if not b.account:
            raise _unmapped(b.code)
        out.append(SplitLine(b.code, b.portion, b.account, take))
        left -= take
    if left > 0:
        raise RuleViolation(
            f"Only {format_money(amount - left)} of {format_money(amount)} can be taken back "
            "from the fees paid."
        )
    return out


def totals_by_account(lines: Iterable[SplitLine]) -> list[tuple[str, Decimal]]:
    """Account number → amount, in the order the accounts first appear."""
    out: dict[str, Decimal] = {}
    for line in lines:
        out[line.account] = out.get(line.account, ZERO) + line.amount
    return [(k, _money(v)) for k, v in out.items()]


# --- refunds -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RefundDecision:
    """What may be refunded, what the municipality keeps, and why in words with the section."""

    ground: RefundGround
    amount: Decimal
    kept: Decimal
    reason: str
    section: str
    keep_purposes: frozenset[AccountPurpose] = frozenset()  # paid money on these stays

    @property
    def allowed(self) -> bool:
        return self.amount > 0


# Glendale: "NO REFUNDS once permit has been issued", in each fee section.
NO_REFUND_SECTIONS = {
    "building": "15.1.21 NOTE",
    "erosion": "15.1.21 NOTE",
    "hvac": "15.1.21 NOTE",
    "other": "15.1.21 NOTE",
    "plumbing": "15.1.56(a)(5)",
    "electrical": "15.1.80(a)(5)",
}
CLERICAL_SECTION = "15.1.42"
ACT_211_SECTION = "Wisconsin Act 211, SPS 320.09"


def no_refund_once_issued(ground: RefundGround, trade: str, fees_paid: Decimal) -> RefundDecision:
    section = NO_REFUND_SECTIONS.get(trade, "15.1.21 NOTE")
    return RefundDecision(
        ground,
        ZERO,
        _money(fees_paid),
        f"No refund once a permit has been issued ({section}).",
        section,
    )


@dataclass(frozen=True)
class InspectionMade:
    """An inspection made on the permit, as the register records it (15.1.42 reads "before any
    inspections are made"): its type, the result recorded and the day it was made. The service
    reads these from the register; nobody types them (ARCHITECTURE.md)."""

    label: str  # "Plumbing rough-in"
    result: str  # "passed", "rejected", "partial", "ok for service"
    on: date | None = None

    def __str__(self) -> str:
        day = f" {short_date(self.on)}" if self.on is not None else ""
        return f"{self.label} {self.result}{day}"


def inspections_made_text(made: Sequence[InspectionMade]) -> str:
    """'1 inspection made: Plumbing rough-in passed 03/04/2026'; 'No inspection made'."""
    if not made:
        return "No inspection made"
    head = "1 inspection made" if len(made) == 1 else f"{len(made)} inspections made"
    return f"{head}: " + "; ".join(str(m) for m in made)


def plumbing_void_refund(
    fees_paid: Decimal, made: Sequence[InspectionMade], clerical: Decimal = Decimal("10.00")
) -> RefundDecision:
    """15.1.42: a plumbing permit voided at the plumber's request "before any inspections are
    made": all fees paid except $10.00 kept for clerical expense; "in the event partial
    inspections have been made, the entire permit fee shall be retained": nothing."""
    paid = _money(fees_paid)
    if made:
        what = "1 inspection was" if len(made) == 1 else f"{len(made)} inspections were"
        return RefundDecision(
            RefundGround.PLUMBING_VOID,
            ZERO,
            paid,
            f"{what} made before the permit was voided "
            f"({'; '.join(str(m) for m in made)}): the entire permit fee is retained "
            f"({CLERICAL_SECTION}).",
            CLERICAL_SECTION,
        )
    amount = max(ZERO, paid - clerical)
    return RefundDecision(
        RefundGround.PLUMBING_VOID,
        amount,
        paid - amount,
        f"Voided at the plumber's request before any inspection: the fees paid are refunded "
        f"except {format_money(min(paid, clerical))} kept for clerical expense "
        f"({CLERICAL_SECTION}).",
        CLERICAL_SECTION,
    )


def act_211_deadline(issued_on: date) -> date:
    """The 15th of the month following the month of issuance."""
    year, month = (
        (issued_on.year + 1, 1) if issued_on.month == 12 else (issued_on.year, issued_on.month + 1)
    )
    return date(year, month, 15)


def act_211_refund(
    fees_paid: Decimal,
    seal_paid: Decimal,
    issued_on: date,
    filed_on: date | None,
    today: date,
) -> RefundDecision:
    """Wisconsin Act 211 (SPS 320.09): a new one- or two-family dwelling permit not filed with
    the state by the 15th of the following month has its fees refunded except the state seal."""
    deadline = act_211_deadline(issued_on)
    paid, seal = _money(fees_paid), _money(seal_paid)
    g = RefundGround.ACT_211
    if filed_on is not None and filed_on <= deadline:
        return RefundDecision(
            g,
            ZERO,
            paid,
            f"The permit was filed with the state on {short_date(filed_on)}, by the "
            f"{short_date(deadline)} deadline: no refund "
            f"({ACT_211_SECTION}).",
            ACT_211_SECTION,
        )
    if filed_on is None and today <= deadline:
        return RefundDecision(
            g,
            ZERO,
            paid,
            f"The filing deadline, {short_date(deadline)}, has not passed "
            f"yet: no refund ({ACT_211_SECTION}).",
            ACT_211_SECTION,
        )
    amount = max(ZERO, paid - seal)
    return RefundDecision(
        g,
        amount,
        paid - amount,
        f"Not filed with the state by {short_date(deadline)}: the fees "
        f"are refunded except the state seal of {format_money(seal)} ({ACT_211_SECTION}).",
        ACT_211_SECTION,
        frozenset({AccountPurpose.STATE_SEAL}),
    )


@dataclass(frozen=True)
class WithdrawalPolicy:
    """The municipality's setting for an application withdrawn or denied before issuance:
    "full", "none", or "less N" (N dollars kept)."""

    refund: bool
    retain: Decimal = ZERO

    @classmethod
    def parse(cls, text: str, setting: str = "withdrawn_refund") -> WithdrawalPolicy:
        t = " ".join(str(text).lower().split())
        if t == "full":
            return cls(True)
        if t == "none":
            return cls(False)
        if t.startswith("less "):
            try:
                n = Decimal(t[5:].replace("$", "").strip())
            except InvalidOperation:
                n = Decimal("-1")
            if n.is_finite() and n >= 0 and n == n.quantize(CENT):
                return cls(True, _money(n))
        raise ValidationError(
            setting, f"'{text}' is not one of: full, none, less N (dollars kept, e.g. less 10)"
        )

    @property
    def text(self) -> str:
        if not self.refund:
            return "none"
        return f"less {self.retain}" if self.retain else "full"


def withdrawal_refund(
    ground: RefundGround, fees_paid: Decimal, policy: WithdrawalPolicy, setting: str
) -> RefundDecision:
    what = "withdrawn" if ground is RefundGround.WITHDRAWN else "denied"
    paid = _money(fees_paid)
    section = f"municipal setting {setting}"
    if not policy.refund:
        return RefundDecision(
            ground,
            ZERO,
            paid,
            f"The municipality refunds nothing when an application is {what} ({section} = none).",
            section,
        )
    amount = max(ZERO, paid - policy.retain)
    kept = f", less {format_money(min(paid, policy.retain))} kept" if policy.retain else " in full"
    return RefundDecision(
        ground,
        amount,
        paid - amount,
        f"Application {what} before issuance: the fees paid are refunded{kept} "
        f"({section} = {policy.text}).",
        section,
    )


@dataclass(frozen=True)
class RefundRules:
    """A municipality's refund settings (resources/gl_accounts.toml, [<key>.settings])."""

    no_refund_once_issued: bool = False
    plumbing_clerical: Decimal | None = None  # 15.1.42's $10; None where no such rule exists
    withdrawn: WithdrawalPolicy = field(default_factory=lambda: WithdrawalPolicy(True))
    denied: WithdrawalPolicy = field(default_factory=lambda: WithdrawalPolicy(True))


@dataclass(frozen=True)
class RefundCase:
    """The facts of one permit that the refund rules read."""

    ground: RefundGround
    trade: str
    status: PermitStatus
    issued_on: date | None
    new_dwelling: bool
    fees_paid: Decimal  # paid on fee lines (deposits excluded), net of reversals and refunds
    seal_paid: Decimal
    excess_paid: Decimal  # paid beyond what the permit is charged
    today: date
    inspections_made: tuple[InspectionMade, ...] = ()  # 15.1.42: from the register
    filed_on: date | None = None


def refund_decision(case: RefundCase, rules: RefundRules) -> RefundDecision:
    g = case.ground
    paid = _money(case.fees_paid)
    if g is RefundGround.STREET_DEPOSIT:
        return RefundDecision(
            g,
            ZERO,
            ZERO,
            "A street deposit is returned on the City Engineer's order from the Deposits "
            "section, not refunded with the fees (15.1.43).",
            "15.1.43",
        )
    if g is RefundGround.OVERPAYMENT:
        excess = _money(case.excess_paid)
        if excess <= 0:
            return RefundDecision(
                g, ZERO, ZERO, "Nothing was paid on this permit beyond its fees.", ""
            )
        return RefundDecision(
            g, excess, ZERO, f"{format_money(excess)} was paid beyond the fees charged.", ""
        )
    if paid <= 0:
        return RefundDecision(g, ZERO, ZERO, "No fees are paid on this permit.", "")
    if g is RefundGround.ACT_211:
        # State law: applies to issued permits, whatever the local no-refund rule says.
        if not case.new_dwelling:
            return RefundDecision(
                g,
                ZERO,
                paid,
                f"The Act 211 refund is for new one- and two-family dwellings only "
                f"({ACT_211_SECTION}).",
                ACT_211_SECTION,
            )
        if case.issued_on is None:
            return RefundDecision(
                g,
                ZERO,
                paid,
                "The permit has not been issued; the Act 211 filing runs from issuance.",
                ACT_211_SECTION,
            )
        return act_211_refund(paid, case.seal_paid, case.issued_on, case.filed_on, case.today)
    if g is RefundGround.PLUMBING_VOID:
        if rules.plumbing_clerical is None:
            return RefundDecision(
                g, ZERO, paid, "This municipality's ordinance has no such refund.", ""
            )
        if case.trade != "plumbing":
            return RefundDecision(
                g,
                ZERO,
                paid,
                f"The plumber's-request refund is for plumbing permits only ({CLERICAL_SECTION}).",
                CLERICAL_SECTION,
            )
        if case.status is not PermitStatus.VOID:
            return RefundDecision(
                g,
                ZERO,
                paid,
                f"Void the permit at the plumber's request first ({CLERICAL_SECTION}).",
                CLERICAL_SECTION,
            )
        return plumbing_void_refund(paid, case.inspections_made, rules.plumbing_clerical)
    # Withdrawn or denied before issuance.
    wanted = PermitStatus.WITHDRAWN if g is RefundGround.WITHDRAWN else PermitStatus.DENIED
    if case.issued_on is not None:
        if rules.no_refund_once_issued:
            return no_refund_once_issued(g, case.trade, paid)
        return RefundDecision(
            g, ZERO, paid, "The permit was issued; this refund is for applications only.", ""
        )
    if case.status is not wanted:
        return RefundDecision(
            g,
            ZERO,
            paid,
            f"The application is {case.status.label.lower()}, not {wanted.label.lower()}; "
            f"change its status first.",
            "",
        )
    policy = rules.withdrawn if g is RefundGround.WITHDRAWN else rules.denied
    setting = "withdrawn_refund" if g is RefundGround.WITHDRAWN else "denied_refund"
    return withdrawal_refund(g, paid, policy, setting)


# --- the daily close ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MethodTotals:
    """An amount for each method a drawer holds."""

    cash: Decimal = ZERO
    check: Decimal = ZERO
    card: Decimal = ZERO
    money_order: Decimal = ZERO

    @classmethod
    def of(cls, amounts: Mapping[PaymentMethod, Decimal]) -> MethodTotals:
        return cls(**{m.value: _money(amounts.get(m, ZERO)) for m in DRAWER_METHODS})

    def get(self, method: PaymentMethod) -> Decimal:
        return getattr(self, method.value) if method in DRAWER_METHODS else ZERO

    def items(self) -> list[tuple[PaymentMethod, Decimal]]:
        return [(m, self.get(m)) for m in DRAWER_METHODS]

    @property
    def total(self) -> Decimal:
        return _money(self.cash + self.check + self.card + self.money_order)

    def minus(self, other: MethodTotals) -> MethodTotals:
        return MethodTotals.of({m: self.get(m) - other.get(m) for m in DRAWER_METHODS})


@dataclass(frozen=True)
class CloseFigures:
    expected: MethodTotals
    counted: MethodTotals

    @property
    def difference(self) -> MethodTotals:
        """Counted − expected per method: positive over, negative short."""
        return self.counted.minus(self.expected)

    @property
    def over_short(self) -> Decimal:
        return _money(self.counted.total - self.expected.total)


def close_figures(expected: MethodTotals, counted: MethodTotals, explanation: str) -> CloseFigures:
    """Expected by method vs counted; an over or short drawer needs an explanation."""
    for m, v in counted.items():
        if v < 0:
            raise ValidationError(f"counted {m.label.lower()}", "must not be negative")
        if v != v.quantize(CENT):
            raise ValidationError(f"counted {m.label.lower()}", "has more than two decimals")
    figures = CloseFigures(expected, counted)
    diff = figures.over_short
    if diff != 0 and not explanation.strip():
        word = "over" if diff > 0 else "short"
        raise ValidationError(
            "explanation", f"the drawer is {format_money(abs(diff))} {word}; explain the difference"
        )
    return figures


# --- the treasurer's reconciliation ------------------------------------------------------------


class MoneyKind(StrEnum):
    RECEIPT = "receipt"
    VOID = "void"
    NSF = "nsf"
    REFUND = "refund"


@dataclass(frozen=True)
class MoneyEvent:
    """One movement of money as the treasurer counts it; `amount` is positive."""

    kind: MoneyKind
    day: date
    amount: Decimal
    turnover_id: int | None
    method: PaymentMethod | None = None


@dataclass(frozen=True)
class TurnoverState:
    id: int
    delivered_on: date
    acknowledged_on: date | None
    amount: Decimal  # the book amount: closed days' collections − NSF − refunds
    cash_delivered: Decimal  # counted money handed over
    deposited: Decimal | None
    difference: Decimal | None
    resolved: bool
    deposit_ref: str = ""

    @property
    def flagged(self) -> bool:
        return self.difference is not None and self.difference != 0 and not self.resolved


@dataclass(frozen=True)
class LedgerEntry:
    account: str
    day: date
    source: EntrySource
    amount: Decimal  # signed: + money the account now holds


@dataclass(frozen=True)
class AccountInfo:
    number: str
    name: str
    kind: AccountKind
    purpose: AccountPurpose = AccountPurpose.NONE


# The reconciliation's GL account lines as the Treasurer screen, the PDF and the workbook list
# them: the account, then AccountLine.amounts.
ACCOUNT_LINE_HEADINGS = (
    "Account",
    "Name",
    "Kind",
    "Opening",
    "Receipts",
    "Voids",
    "Returned",
    "Refunds",
    "Transfers",
    "Closing",
)


@dataclass(frozen=True)
class AccountLine:
    """One GL account over the period: opening + movements = closing (signed, + = held)."""

    number: str
    name: str
    kind: AccountKind
    opening: Decimal
    receipts: Decimal
    voids: Decimal
    nsf: Decimal
    refunds: Decimal
    transfers: Decimal
    closing: Decimal
    purpose: AccountPurpose = AccountPurpose.NONE  # whose money it is (reports' money split)

    @property
    def movement(self) -> Decimal:
        return _money(self.receipts + self.voids + self.nsf + self.refunds + self.transfers)

    @property
    def amounts(self) -> tuple[Decimal, ...]:
        """Opening, the movements and closing, in the order of ACCOUNT_LINE_HEADINGS[3:]."""
        return (
            self.opening,
            self.receipts,
            self.voids,
            self.nsf,
            self.refunds,
            self.transfers,
            self.closing,
        )

    @property
    def balances(self) -> bool:
        return _money(self.opening + self.movement) == self.closing


@dataclass(frozen=True)
class Reconciliation:
    """The treasurer's proof for a period: every dollar received is in a turnover or still
    undeposited. Turnover states are as of the period's last day."""

    start: date
    end: date
    receipts: Decimal
    voids: Decimal
    nsf: Decimal
    refunds: Decimal
    acknowledged: Decimal
    pending: Decimal
    undeposited: Decimal
    receipts_by_method: tuple[tuple[PaymentMethod, Decimal], ...]
    accounts: tuple[AccountLine, ...]
    turnovers: tuple[TurnoverState, ...]
    credits_opening: Decimal
    credits_movement: Decimal
    credits_closing: Decimal
    over_short: Decimal

    @property
    def net(self) -> Decimal:
        return _money(self.receipts - self.voids - self.nsf - self.refunds)

    @property
    def accounted(self) -> Decimal:
        return _money(self.acknowledged + self.pending + self.undeposited)

    @property
    def balanced(self) -> bool:
        """receipts − voids − NSF − refunds = turnovers (acknowledged + pending) + undeposited."""
        return self.net == self.accounted

    @property
    def gl_balanced(self) -> bool:
        """Each account balances, and the accounts together moved exactly the net money."""
        return (
            all(a.balances for a in self.accounts)
            and _money(sum((a.receipts for a in self.accounts), ZERO)) == self.receipts
            and _money(sum((a.voids for a in self.accounts), ZERO)) == -self.voids
            and _money(sum((a.nsf for a in self.accounts), ZERO)) == -self.nsf
            and _money(sum((a.refunds for a in self.accounts), ZERO)) == -self.refunds
            and _money(sum((a.transfers for a in self.accounts), ZERO)) == ZERO
        )

    def account(self, number: str) -> AccountLine:
        for a in self.accounts:
            if a.number == number:
                return a
        raise KeyError(number)


def reconcile(
    start: date,
    end: date,
    events: Iterable[MoneyEvent],
    turnovers: Iterable[TurnoverState],
    accounts: Iterable[AccountInfo],
    opening_balances: Mapping[str, Decimal],
    entries: Iterable[LedgerEntry],
    over_short: Decimal = ZERO,
) -> Reconciliation:
    """The reconciliation of [start, end]: `opening_balances` per account number before the
    period, `entries` the GL movements (entries dated before the period add to the opening)."""
    if end < start:
        raise ValidationError("to", "is before the first day of the period")
    states = {t.id: t for t in turnovers}
    sums = {k: ZERO for k in MoneyKind}
    by_method: dict[PaymentMethod, Decimal] = {}
    acknowledged = pending = undeposited = ZERO
    for e in events:
        if not start <= e.day <= end:
            continue
        sums[e.kind] += e.amount
        signed = e.amount if e.kind is MoneyKind.RECEIPT else -e.amount
        if e.method is not None and e.kind in (MoneyKind.RECEIPT, MoneyKind.VOID):
            by_method[e.method] = by_method.get(e.method, ZERO) + signed
        t = states.get(e.turnover_id) if e.turnover_id is not None else None
        if t is None or t.delivered_on > end:
            undeposited += signed
        elif t.acknowledged_on is not None and t.acknowledged_on <= end:
            acknowledged += signed
        else:
            pending += signed
    infos = {a.number: a for a in accounts}
    opening: dict[str, Decimal] = {n: ZERO for n in infos}
    moves: dict[str, dict[EntrySource, Decimal]] = {n: {} for n in infos}
    for number, amount in opening_balances.items():
        if number not in infos:
            infos[number] = AccountInfo(number, "(unknown account)", AccountKind.REVENUE)
            moves[number] = {}
        opening[number] = opening.get(number, ZERO) + amount
    for x in entries:
        if x.account not in infos:
            infos[x.account] = AccountInfo(x.account, "(unknown account)", AccountKind.REVENUE)
            opening[x.account] = ZERO
            moves[x.account] = {}
        if x.day < start:
            opening[x.account] += x.amount
        elif x.day <= end:
            moves[x.account][x.source] = moves[x.account].get(x.source, ZERO) + x.amount
    lines = []
    credits_open = credits_move = ZERO
    for number, info in infos.items():
        m = moves[number]
        line = AccountLine(
            number=number,
            name=info.name,
            kind=info.kind,
            opening=_money(opening[number]),
            receipts=_money(m.get(EntrySource.RECEIPT, ZERO)),
            voids=_money(m.get(EntrySource.VOID, ZERO)),
            nsf=_money(m.get(EntrySource.NSF, ZERO)),
            refunds=_money(m.get(EntrySource.REFUND, ZERO)),
            transfers=_money(m.get(EntrySource.TRANSFER, ZERO)),
            closing=_money(opening[number] + sum(m.values(), ZERO)),
            purpose=info.purpose,
        )
        lines.append(line)
        if info.purpose is AccountPurpose.CREDITS_HELD:
            credits_open += line.opening
            credits_move += line.movement
    # The period's turnovers, and older ones still pending or flagged at its end.
    shown = [
        t
        for t in states.values()
        if t.delivered_on <= end
        and (
            t.delivered_on >= start
            or t.acknowledged_on is None
            or t.acknowledged_on > end
            or t.flagged
        )
    ]
    return Reconciliation(
        start=start,
        end=end,
        receipts=_money(sums[MoneyKind.RECEIPT]),
        voids=_money(sums[MoneyKind.VOID]),
        nsf=_money(sums[MoneyKind.NSF]),
        refunds=_money(sums[MoneyKind.REFUND]),
        acknowledged=_money(acknowledged),
        pending=_money(pending),
        undeposited=_money(undeposited),
        receipts_by_method=tuple(
            (m, _money(by_method[m])) for m in (*DRAWER_METHODS,) if m in by_method
        ),
        accounts=tuple(sorted(lines, key=lambda a: a.number)),
        turnovers=tuple(sorted(shown, key=lambda t: (t.delivered_on, t.id))),
        credits_opening=_money(credits_open),
        credits_movement=_money(credits_move),
        credits_closing=_money(credits_open + credits_move),
        over_short=_money(over_short),
    )


# --- read models -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BalanceLine:
    code: str
    portion: Portion
    description: str
    account: str
    due: Decimal
    paid: Decimal

    @property
    def remaining(self) -> Decimal:
        return _money(self.due - self.paid)


@dataclass(frozen=True)
class PermitBalance:
    """What a permit is charged, what is paid on it, and what is still due."""

    permit_id: int
    number: str | None
    assessed: Decimal  # the lines the fee engine assessed
    adjustments: Decimal  # added and adjusting lines since (refunded fees included, negative)
    paid: Decimal  # receipts − voids − NSF − refunds, on this permit
    lines: tuple[BalanceLine, ...]

    @property
    def charged(self) -> Decimal:
        return _money(self.assessed + self.adjustments)

    @property
    def due(self) -> Decimal:
        """Still owed; negative when more was paid than charged."""
        return _money(self.charged - self.paid)

    @property
    def paid_in_full(self) -> bool:
        return self.due <= 0


def unpaid_message(balance: PermitBalance, section: str) -> str | None:
    """The issuance shortfall in the clerk's words, or None when the fees are paid in full."""
    if balance.due <= 0:
        return None
    where = f" ({section})" if section else ""
    return (
        f"Fees of {format_money(balance.charged)} are assessed; {format_money(balance.paid)} is "
        f"paid; {format_money(balance.due)} is due{where}."
    )


@dataclass(frozen=True)
class ReceiptPermit:
    number: str  # the permit number, or "Application #12" before issuance
    address: str
    description: str
    amount: Decimal


@dataclass(frozen=True)
class ReceiptAccount:
    number: str
    name: str
    amount: Decimal


@dataclass(frozen=True)
class ReceiptView:
    """Everything the receipt PDF prints."""

    letterhead: tuple[str, ...]
    municipality: str
    receipt_number: str
    received_at: datetime
    day: date
    payer: str
    payer_address: str
    permits: tuple[ReceiptPermit, ...]
    accounts: tuple[ReceiptAccount, ...]  # the split by GL account, credit held included
    method: PaymentMethod
    amount: Decimal
    credited: Decimal  # overpayment kept as the payer's credit
    check_number: str
    check_drawer: str
    check_bank: str
    card_reference: str
    clerk: str
    drawer: str
    copy: bool  # a reprint: the PDF says COPY
    status: str = ""  # "VOID ..." or "RETURNED CHECK ..." once reversed

    @property
    def method_label(self) -> str:
        return self.method.label


# --- GL accounts and settings as shipped (resources/gl_accounts.toml) ---------------------------


@dataclass(frozen=True)
class ShippedAccount:
    number: str
    name: str
    kind: AccountKind
    purpose: AccountPurpose = AccountPurpose.NONE


@dataclass(frozen=True)
class CashieringSettings:
    fees_due_section: str = ""
    rules: RefundRules = field(default_factory=RefundRules)
    nsf_charge: Decimal = ZERO
    admin_cost_account: str = ""


@dataclass(frozen=True)
class ShippedLedger:
    accounts: tuple[ShippedAccount, ...]
    fee_map: tuple[tuple[str, str], ...]  # (fee item code, account number)
    settings: dict[str, object]


SETTING_KEYS = (
    "fees_due_section",
    "no_refund_once_issued",
    "plumbing_clerical",
    "withdrawn_refund",
    "denied_refund",
    "nsf_charge",
    "admin_cost_account",
)


def _setting_money(raw: object, name: str) -> Decimal:
    try:
        value = Decimal(str(raw).replace("$", "").strip())
    except InvalidOperation:
        raise ValidationError(name, f"'{raw}' is not an amount of money") from None
    if not value.is_finite() or value < 0 or value != value.quantize(CENT):
        raise ValidationError(name, f"'{raw}' is not an amount of money")
    return _money(value)


def parse_settings(raw: Mapping[str, object]) -> CashieringSettings:
    """Settings from the shipped file overlaid with the municipality's profile; a
    ValidationError names the setting."""
    unknown = sorted(set(raw) - set(SETTING_KEYS))
    if unknown:
        raise ValidationError(
            unknown[0], f"is not a cashiering setting ({', '.join(SETTING_KEYS)})"
        )
    clerical_raw = raw.get("plumbing_clerical", "")
    clerical = (
        None if clerical_raw in ("", None) else _setting_money(clerical_raw, "plumbing_clerical")
    )
    flag = raw.get("no_refund_once_issued", False)
    if not isinstance(flag, bool):
        raise ValidationError("no_refund_once_issued", "must be true or false")
    return CashieringSettings(
        fees_due_section=str(raw.get("fees_due_section", "")),
        rules=RefundRules(
            no_refund_once_issued=flag,
            plumbing_clerical=clerical,
            withdrawn=WithdrawalPolicy.parse(
                str(raw.get("withdrawn_refund", "full")), "withdrawn_refund"
            ),
            denied=WithdrawalPolicy.parse(str(raw.get("denied_refund", "full")), "denied_refund"),
        ),
        nsf_charge=_setting_money(raw.get("nsf_charge", "0"), "nsf_charge"),
        admin_cost_account=str(raw.get("admin_cost_account", "")).strip(),
    )


def parse_ledger(municipality_key: str, data: Mapping[str, object]) -> ShippedLedger:
    """One municipality's table of resources/gl_accounts.toml, checked."""
    where = f"gl_accounts.toml [{municipality_key}]"
    section = data.get(municipality_key)
    if not isinstance(section, dict):
        raise ValueError(f"{where}: no such municipality")
    accounts: list[ShippedAccount] = []
    for i, row in enumerate(section.get("accounts", [])):
        try:
            acc = ShippedAccount(
                number=str(row["number"]).strip(),
                name=str(row["name"]).strip(),
                kind=AccountKind(row["kind"]),
                purpose=AccountPurpose(row.get("purpose", "")),
            )
        except (KeyError, ValueError) as e:
            raise ValueError(f"{where} account #{i + 1}: {e}") from None
        if not acc.number or not acc.name:
            raise ValueError(f"{where} account #{i + 1}: number and name are required")
        accounts.append(acc)
    numbers = [a.number for a in accounts]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"{where}: an account number is listed twice")
    for purpose in AccountPurpose:
        if purpose is not AccountPurpose.NONE and sum(a.purpose is purpose for a in accounts) > 1:
            raise ValueError(f"{where}: two accounts have the purpose {purpose.value}")
    if not any(a.purpose is AccountPurpose.CREDITS_HELD for a in accounts):
        raise ValueError(f"{where}: an account with purpose credits_held is required")
    fee_map = []
    for code, number in dict(section.get("map", {})).items():
        if number not in numbers:
            raise ValueError(f"{where} map: {code} → {number}, which is not an account")
        fee_map.append((str(code), str(number)))
    settings = dict(section.get("settings", {}))
    try:
        parsed = parse_settings(settings)
    except ValidationError as e:
        raise ValueError(f"{where} settings: {e}") from None
    if parsed.admin_cost_account and parsed.admin_cost_account not in numbers:
        raise ValueError(f"{where} settings: admin_cost_account is not an account")
    return ShippedLedger(tuple(accounts), tuple(fee_map), settings)


def shipped_ledger(municipality_key: str) -> ShippedLedger:
    import tomllib
    from importlib import resources

    text = resources.files("resources").joinpath("gl_accounts.toml").read_text("utf-8")
    return parse_ledger(municipality_key, tomllib.loads(text))


# --- read models for the screens and reports of the next brief ----------------------------------


@dataclass(frozen=True)
class ChargeRow:
    """One fee line of a permit as the Fees & Payments tab lists it."""

    day: date
    code: str
    description: str
    amount: Decimal
    kind: str  # "assessed", or an AdjustmentSource value
    by: str  # who added it ("" for the assessment, which the History tab shows)
    reason: str


@dataclass(frozen=True)
class PaymentRow:
    payment_id: int
    receipt_number: str
    day: date
    payer: str
    method: PaymentMethod
    amount: Decimal  # the share of this permit
    status: str  # "", "void" or "returned"


@dataclass(frozen=True)
class RefundRow:
    refund_id: int
    day: date
    amount: Decimal
    check_number: str
    check_date: date
    payer: str
    reason: str


@dataclass(frozen=True)
class PermitAccount:
    balance: PermitBalance
    charges: tuple[ChargeRow, ...]
    payments: tuple[PaymentRow, ...]
    refunds: tuple[RefundRow, ...]


@dataclass(frozen=True)
class TransmittalClose:
    drawer: str
    day: date
    expected: MethodTotals
    counted: MethodTotals
    over_short: Decimal
    explanation: str


@dataclass(frozen=True)
class TransmittalItem:
    """A check listed on the transmittal, a returned check or a refund deducted."""

    day: date
    reference: str  # receipt number, or the refund check number
    name: str  # the payer
    number: str  # the check number
    bank: str
    amount: Decimal


@dataclass(frozen=True)
class Transmittal:
    """A turnover as delivered to the City Treasurer: closed days, totals by method and by GL
    account, the checks, and the returned checks and refunds deducted."""

    turnover_id: int
    letterhead: tuple[str, ...]
    delivered_on: date
    delivered_by: str
    closes: tuple[TransmittalClose, ...]
    by_method: MethodTotals  # the closed days' expected money
    by_account: tuple[tuple[str, str, Decimal], ...]  # (number, name, net amount)
    checks: tuple[TransmittalItem, ...]
    returned: tuple[TransmittalItem, ...]
    refunds: tuple[TransmittalItem, ...]
    amount: Decimal  # book amount = Σ by_account
    cash_delivered: Decimal
    state: TurnoverState
    acknowledged_by: str = ""
