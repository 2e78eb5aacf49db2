"""Cashiering use cases: balances, payments and numbered receipts, voids, returned
checks, fee lines added or corrected after assessment, refunds by the ordinances' rules, the
daily close, turnovers to the City Treasurer and the treasurer's reconciliation.

The rules live in desk/domain/cashiering.py; each service here checks the role, reads the
register, applies the rule and writes new rows (never edits or deletes money rows). Every
cashiering write first takes the municipality's cashiering lock (uow.cash.lock), so two clerks'
payments, a void and a close never interleave on PostgreSQL; on SQLite the writing transaction
holds the database's write lock anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from desk.calendar import is_holiday
from desk.clock import Clock
from desk.dates import short_date
from desk.domain.cashiering import (
    SETTING_KEYS,
    ZERO,
    AccountInfo,
    AccountKind,
    AccountPurpose,
    AdjustmentSource,
    Allocation,
    BalanceLine,
    Bucket,
    CashieringSettings,
    Charge,
    ChargeRow,
    EntrySource,
    InspectionMade,
    LedgerEntry,
    MethodTotals,
    MoneyEvent,
    MoneyKind,
    PaymentMethod,
    PaymentRow,
    PermitAccount,
    PermitBalance,
    Portion,
    ReceiptAccount,
    ReceiptPermit,
    ReceiptView,
    Reconciliation,
    RefundCase,
    RefundDecision,
    RefundGround,
    RefundRow,
    ReversalKind,
    SplitLine,
    Tender,
    Transmittal,
    TransmittalClose,
    TransmittalItem,
    TurnoverState,
    check_allocations,
    check_amount,
    check_tender,
    close_figures,
    make_buckets,
    parse_settings,
    reconcile,
    refund_decision,
    shipped_ledger,
    split_newest_first,
    split_oldest_first,
    unpaid_message,
)
from desk.domain.duplicates import check_already_receipted, gl_account_exists, refund_check_used
from desk.domain.enums import PermitClass, Role, WorkClass
from desk.domain.inspections import sequences_for
from desk.domain.kinds import kind_by_code, kinds_for
from desk.domain.model import (
    Actor,
    DailyClose,
    FeeAccountMap,
    FeeAdjustment,
    GlAccount,
    GlEntry,
    InspectionStatus,
    Municipality,
    PayerCredit,
    Payment,
    PaymentAllocation,
    PaymentReversal,
    Permit,
    Refund,
    Turnover,
)
from desk.domain.numbering import RECEIPT_SERIES, format_number
from desk.domain.permissions import Permission, require
from desk.errors import NotFound, RuleViolation, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest, price
from desk.money import format_money
from desk.services.fees import FAIL_TO_CALL, _schedule, _version_on, failure_to_call_occurrence
from desk.services.uow import UnitOfWork

DEFAULT_DRAWER = "Main"
NSF_CODE = "NSF-CHARGE"
NEW_DWELLING_KIND = "RES-NEW-DWELLING"


# --- the ledger: accounts, the fee map and the settings ---------------------------------------


def settings_of(muni: Municipality) -> CashieringSettings:
    """The shipped settings (resources/gl_accounts.toml) overlaid with the municipality's
    profile (settings["cashiering"])."""
    try:
        raw = dict(shipped_ledger(muni.ordinance).settings)
    except ValueError:
        raw = {}
    override = muni.settings.get("cashiering") if isinstance(muni.settings, dict) else None
    if isinstance(override, dict):
        raw.update(override)
    return parse_settings(raw)


@dataclass
class _Ledger:
    by_id: dict[int, GlAccount]
    code_account: dict[str, int]
    settings: CashieringSettings

    @property
    def by_number(self) -> dict[str, GlAccount]:
        return {a.number: a for a in self.by_id.values()}

    def with_purpose(self, purpose: AccountPurpose) -> GlAccount:
        for a in self.by_id.values():
            if a.purpose is purpose:
                return a
        raise RuleViolation(
            f"No GL account has the purpose '{purpose.value}'; an administrator adds one "
            "(Administration → GL accounts)."
        )

    def account_of(
        self, code: str, portion: Portion, fallback: str = ""
    ) -> tuple[str, AccountPurpose]:
        acc: GlAccount | None
        if portion is Portion.ADMIN:
            acc = self.by_number.get(self.settings.admin_cost_account)
        else:
            acc = self.by_id.get(self.code_account.get(code, -1))
            if acc is None and fallback:
                # The number the fee schedule printed on the line ("100-44300 Building permits").
                acc = self.by_number.get(fallback.split()[0])
        return (acc.number, acc.purpose) if acc else ("", AccountPurpose.NONE)


def _municipality(uow: UnitOfWork, municipality_id: int) -> Municipality:
    muni = uow.municipalities.get(municipality_id)
    if muni is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return muni


def _ledger(uow: UnitOfWork, muni: Municipality) -> _Ledger:
    """The municipality's accounts; the shipped file is imported on first use. Runs inside an
    open unit of work after act_as (the caller commits)."""
    assert muni.id is not None
    accounts = uow.cash.find(GlAccount, municipality_id=muni.id)
    if not accounts:
        # Another workstation may be loading them too: wait for it, then look again.
        uow.serialise(f"gl accounts {muni.id}")
        accounts = uow.cash.find(GlAccount, municipality_id=muni.id)
    if not accounts:
        try:
            shipped = shipped_ledger(muni.ordinance)
        except ValueError as e:
            raise ValidationError("GL accounts", str(e)) from None
        for a in shipped.accounts:
            uow.cash.add(
                GlAccount(
                    municipality_id=muni.id,
                    number=a.number,
                    name=a.name,
                    kind=a.kind,
                    purpose=a.purpose,
                )
            )
        uow.flush()
        accounts = uow.cash.find(GlAccount, municipality_id=muni.id)
        ids = {a.number: a.id for a in accounts}
        for code, number in shipped.fee_map:
            account_id = ids[number]
            assert account_id is not None
            uow.cash.add(FeeAccountMap(municipality_id=muni.id, code=code, account_id=account_id))
        uow.flush()
    maps = uow.cash.find(FeeAccountMap, municipality_id=muni.id)
    return _Ledger(
        by_id={a.id: a for a in accounts if a.id is not None},
        code_account={m.code: m.account_id for m in maps},
        settings=settings_of(muni),
    )


@dataclass(frozen=True)
class AccountRow:
    id: int
    number: str
    name: str
    kind: AccountKind
    purpose: AccountPurpose
    active: bool
    codes: tuple[str, ...]  # the fee item codes that book to it


def gl_accounts(uow: UnitOfWork, clock: Clock, municipality_id: int) -> list[AccountRow]:
    """The municipality's GL accounts with the fee codes each books; none for a municipality
    on no permit ordinance (code enforcement only): it takes no permit fees, none are shipped."""
    with uow:
        uow.act_as(None, clock.now())
        muni = _municipality(uow, municipality_id)
        if not kinds_for(muni.ordinance):
            return []
        ledger = _ledger(uow, muni)
        uow.commit()
        codes: dict[int, list[str]] = {}
        for code, account_id in ledger.code_account.items():
            codes.setdefault(account_id, []).append(code)
        return [
            AccountRow(
                id=a.id,
                number=a.number,
                name=a.name,
                kind=a.kind,
                purpose=a.purpose,
                active=a.active,
                codes=tuple(sorted(codes.get(a.id, []))),
            )
            for a in sorted(ledger.by_id.values(), key=lambda a: a.number)
            if a.id is not None
        ]


def add_gl_account(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    number: str,
    name: str,
    kind: AccountKind,
    purpose: AccountPurpose = AccountPurpose.NONE,
) -> int:
    require(actor, Permission.MANAGE_GL_ACCOUNTS)
    number, name = number.strip(), name.strip()
    if not number or " " in number:
        raise ValidationError("account number", "enter the number without spaces, e.g. 100-44300")
    if not name:
        raise ValidationError("account name", "name the account")
    with uow:
        uow.act_as(actor, clock.now())
        ledger = _ledger(uow, _municipality(uow, municipality_id))
        if number in ledger.by_number:
            raise gl_account_exists(ledger.by_number[number])
        if purpose is not AccountPurpose.NONE and any(
            a.purpose is purpose for a in ledger.by_id.values()
        ):
            raise ValidationError("purpose", f"another account already has the purpose {purpose}")
        acc = GlAccount(
            municipality_id=municipality_id, number=number, name=name, kind=kind, purpose=purpose
        )
        uow.cash.add(acc)
        uow.commit()
        assert acc.id is not None
        return acc.id


def map_fee_code(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    code: str,
    account_number: str,
) -> None:
    """Book a fee item code to another account from now on; money already booked stays where
    it was (receipts keep their split)."""
    require(actor, Permission.MANAGE_GL_ACCOUNTS)
    code = code.strip().upper()
    if not code:
        raise ValidationError("fee item code", "enter the code")
    with uow:
        uow.act_as(actor, clock.now())
        ledger = _ledger(uow, _municipality(uow, municipality_id))
        acc = ledger.by_number.get(account_number.strip())
        if acc is None or acc.id is None:
            raise ValidationError("account", f"{account_number} is not an account")
        found = uow.cash.find(FeeAccountMap, municipality_id=municipality_id, code=code)
        if found:
            found[0].account_id = acc.id
        else:
            uow.cash.add(
                FeeAccountMap(municipality_id=municipality_id, code=code, account_id=acc.id)
            )
        uow.commit()


def apply_cashiering_settings(
    uow: UnitOfWork, muni: Municipality, changes: dict[str, Any]
) -> CashieringSettings:
    """Check and set the changes inside the caller's transaction (the Municipality screen's
    service, desk.services.municipality); a ValidationError names the setting."""
    current = dict(muni.settings.get("cashiering") or {})
    current.update({k: v for k, v in changes.items()})
    unknown = sorted(set(current) - set(SETTING_KEYS))
    if unknown:
        raise ValidationError(unknown[0], "is not a cashiering setting")
    muni.settings = {**muni.settings, "cashiering": current}
    parsed = settings_of(muni)  # checks the values
    ledger = _ledger(uow, muni)
    if parsed.admin_cost_account and parsed.admin_cost_account not in ledger.by_number:
        raise ValidationError("admin_cost_account", "is not an account")
    return parsed


# --- a permit's balance ---------------------------------------------------------------------------


def _permit(uow: UnitOfWork, permit_id: int) -> Permit:
    permit = uow.permits.get(permit_id)
    if permit is None:
        raise NotFound(f"permit #{permit_id} does not exist")
    return permit


def permit_label(permit: Permit) -> str:
    return f"permit {permit.number}" if permit.number else f"application #{permit.id}"


def _address(permit: Permit) -> str:
    return permit.parcel.address if permit.parcel is not None else ""


def _charges(
    uow: UnitOfWork, permit_id: int, settings: CashieringSettings
) -> tuple[list[Charge], dict[str, str], Decimal, Decimal]:
    """The permit's charges in order; the schedule's account text per code (a fallback); the
    assessed total and the adjustments total."""
    charges: list[Charge] = []
    fallback: dict[str, str] = {}
    assessed = adjusted = ZERO
    for line in uow.fees.lines_for(permit_id):
        assessed += line.amount
        fallback.setdefault(line.code, line.gl_account)
        if settings.admin_cost_account and line.admin > 0:
            charges.append(
                Charge(line.code, Portion.FEE, line.amount - line.admin, line.description)
            )
            charges.append(Charge(line.code, Portion.ADMIN, line.admin, line.description))
        else:
            charges.append(Charge(line.code, Portion.FEE, line.amount, line.description))
    for adj in uow.cash.find(FeeAdjustment, permit_id=permit_id):
        adjusted += adj.amount
        charges.append(Charge(adj.code, adj.portion, adj.amount, adj.description))
    return charges, fallback, assessed, adjusted


def _paid(uow: UnitOfWork, permit_id: int) -> dict[tuple[str, Portion], Decimal]:
    paid: dict[tuple[str, Portion], Decimal] = {}
    for e in uow.cash.find(GlEntry, permit_id=permit_id):
        key = (e.code, e.portion)
        paid[key] = paid.get(key, ZERO) + e.amount
    return paid


def _buckets(uow: UnitOfWork, permit_id: int, ledger: _Ledger) -> list[Bucket]:
    charges, fallback, _, _ = _charges(uow, permit_id, ledger.settings)
    return make_buckets(
        charges,
        _paid(uow, permit_id),
        lambda code, portion: ledger.account_of(code, portion, fallback.get(code, "")),
    )


def _balance(uow: UnitOfWork, permit: Permit, settings: CashieringSettings) -> PermitBalance:
    assert permit.id is not None
    charges, _, assessed, adjusted = _charges(uow, permit.id, settings)
    paid = _paid(uow, permit.id)
    buckets = make_buckets(charges, paid, lambda code, portion: ("", AccountPurpose.NONE))
    return PermitBalance(
        permit_id=permit.id,
        number=permit.number,
        assessed=assessed,
        adjustments=adjusted,
        paid=sum(paid.values(), ZERO).quantize(Decimal("0.01")),
        lines=tuple(_balance_lines(buckets)),
    )


def _balance_lines(buckets: list[Bucket]) -> list[BalanceLine]:
    return [
        BalanceLine(b.code, b.portion, b.description, b.account, b.due, b.paid) for b in buckets
    ]


def permit_balance(uow: UnitOfWork, clock: Clock, permit_id: int) -> PermitBalance:
    """What the permit is charged, what is paid, what is due, line by line with its account."""
    with uow:
        uow.act_as(None, clock.now())
        permit = _permit(uow, permit_id)
        ledger = _ledger(uow, _municipality(uow, permit.municipality_id))
        balance = _balance(uow, permit, ledger.settings)
        lines = _balance_lines(_buckets(uow, permit_id, ledger))
        uow.commit()
        return PermitBalance(
            permit_id=balance.permit_id,
            number=balance.number,
            assessed=balance.assessed,
            adjustments=balance.adjustments,
            paid=balance.paid,
            lines=tuple(lines),
        )


def unpaid_shortfall(uow: UnitOfWork, permit_id: int) -> str | None:
    """The issuance condition "fees paid in full", in words, or None when nothing is due. Runs
    inside an open unit of work (issue_permit's transaction) and writes nothing. A permit with no
    fees assessed at all has nothing due."""
    permit = _permit(uow, permit_id)
    muni = _municipality(uow, permit.municipality_id)
    settings = settings_of(muni)
    return unpaid_message(_balance(uow, permit, settings), settings.fees_due_section)


def amount_due(uow: UnitOfWork, permit_id: int) -> Decimal:
    """What is still owed on the permit (negative when overpaid). Runs inside an open unit of
    work and writes nothing."""
    permit = _permit(uow, permit_id)
    return _balance(uow, permit, settings_of(_municipality(uow, permit.municipality_id))).due


def payer_key(party_id: int | None, name: str) -> str:
    """Whose credit: the party on record, else the name as typed (case and spaces folded)."""
    if party_id is not None:
        return f"party:{party_id}"
    return "name:" + " ".join(name.casefold().split())


def credit_balance(
    uow: UnitOfWork, municipality_id: int, party_id: int | None, name: str = ""
) -> Decimal:
    with uow:
        return uow.cash.credit_balance(municipality_id, payer_key(party_id, name))


# --- payments -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PaymentInput:
    municipality_id: int
    tender: Tender
    allocations: tuple[Allocation, ...]
    payer_name: str = ""
    payer_party_id: int | None = None
    drawer: str = DEFAULT_DRAWER
    # Only these fee item codes of each permit are paid (a street deposit paid on its own);
    # empty: the permit's lines oldest first, as always.
    codes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PaymentResult:
    payment_id: int
    receipt_number: str
    credited: Decimal  # the overpayment kept as the payer's credit


def _entry(
    payment: Payment, source: EntrySource, account_id: int, amount: Decimal, **kw: Any
) -> GlEntry:
    return GlEntry(
        municipality_id=payment.municipality_id,
        day=kw.pop("day", payment.day),
        at=kw.pop("at", payment.received_at),
        source=source,
        account_id=account_id,
        amount=amount,
        payment_id=payment.id,
        **kw,
    )


def _account_id(ledger: _Ledger, number: str) -> int:
    acc = ledger.by_number[number]
    assert acc.id is not None
    return acc.id


def take_payment(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    p: PaymentInput,
    on_taken: Callable[[Payment], None] | None = None,
) -> PaymentResult:
    """Take a payment for one or more permits and number its receipt (series R) in the same
    transaction. Each permit's share is split over its fee lines, oldest first; an overpayment
    is kept as the payer's credit. `on_taken` runs in the same transaction before it commits
    (the street deposit records the receipt that took it)."""
    require(actor, Permission.TAKE_PAYMENT)
    tender = check_tender(p.tender)
    drawer = p.drawer.strip()
    if not drawer:
        raise ValidationError("drawer", "name the cash drawer")
    if not p.allocations and tender.method is PaymentMethod.CREDIT:
        raise ValidationError("allocation", "choose the permits the credit pays")
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        uow.cash.lock(p.municipality_id)
        muni = _municipality(uow, p.municipality_id)
        ledger = _ledger(uow, muni)
        payer_name = p.payer_name.strip()
        if p.payer_party_id is not None:
            party = uow.parties.get(p.payer_party_id)
            if party is None:
                raise ValidationError("payer", f"party #{p.payer_party_id} does not exist")
            payer_name = payer_name or party.name
        if not payer_name:
            raise ValidationError("payer", "enter who is paying")
        if uow.cash.find(DailyClose, municipality_id=muni.id, drawer=drawer, day=today):
            raise RuleViolation(
                f"The drawer {drawer} is already closed for {short_date(today)}; "
                "take the payment in another drawer."
            )
        assert muni.id is not None
        _check_not_receipted(uow, muni.id, tender)
        permits: dict[int, Permit] = {}
        due: dict[int, Decimal] = {}
        labels: dict[int, str] = {}
        buckets: dict[int, list[Bucket]] = {}
        for a in p.allocations:
            permit = uow.permits.get(a.permit_id)
            if permit is None or permit.municipality_id != muni.id:
                raise ValidationError("permit", f"permit #{a.permit_id} is not in this register")
            permits[a.permit_id] = permit
            labels[a.permit_id] = permit_label(permit)
            buckets[a.permit_id] = [
                b for b in _buckets(uow, a.permit_id, ledger) if not p.codes or b.code in p.codes
            ]
            due[a.permit_id] = sum((max(b.remaining, ZERO) for b in buckets[a.permit_id]), ZERO)
        overpaid = check_allocations(tender.amount, p.allocations, due, labels)
        key = payer_key(p.payer_party_id, payer_name)
        credits = ledger.with_purpose(AccountPurpose.CREDITS_HELD)
        assert credits.id is not None
        if tender.method is PaymentMethod.CREDIT:
            if overpaid:
                raise ValidationError(
                    "amount", "a payment from credit is allocated to permits in full"
                )
            held = uow.cash.credit_balance(p.municipality_id, key)
            if tender.amount > held:
                raise ValidationError(
                    "amount",
                    f"{payer_name} has {format_money(held)} of credit, less than "
                    f"{format_money(tender.amount)}",
                )
        splits = {
            a.permit_id: split_oldest_first(a.amount, buckets[a.permit_id]) for a in p.allocations
        }
        # The number comes last: a payment refused above burns no receipt number.
        seq = uow.numbers.next(p.municipality_id, RECEIPT_SERIES, today.year)
        payment = Payment(
            municipality_id=p.municipality_id,
            receipt_number=format_number(today.year, seq),
            received_at=now,
            day=today,
            payer_name=payer_name,
            payer_party_id=p.payer_party_id,
            method=tender.method,
            amount=tender.amount,
            credited=overpaid,
            check_number=tender.check_number,
            check_drawer=tender.check_drawer,
            check_bank=tender.check_bank,
            card_reference=tender.card_reference,
            clerk_id=actor.user_id,
            drawer=drawer,
        )
        uow.cash.add(payment)
        uow.flush()
        assert payment.id is not None
        source = EntrySource.RECEIPT if tender.method.is_money else EntrySource.TRANSFER
        for a in p.allocations:
            uow.cash.add(
                PaymentAllocation(payment_id=payment.id, permit_id=a.permit_id, amount=a.amount)
            )
            for s in splits[a.permit_id]:
                uow.cash.add(
                    _entry(
                        payment,
                        source,
                        _account_id(ledger, s.account),
                        s.amount,
                        code=s.code,
                        portion=s.portion,
                        permit_id=a.permit_id,
                    )
                )
        if overpaid:
            uow.cash.add(_entry(payment, EntrySource.RECEIPT, credits.id, overpaid))
            uow.cash.add(
                PayerCredit(
                    municipality_id=p.municipality_id,
                    payer_key=key,
                    payer_name=payer_name,
                    party_id=p.payer_party_id,
                    amount=overpaid,
                    day=today,
                    at=now,
                    payment_id=payment.id,
                    memo=f"overpayment, receipt {payment.receipt_number}",
                )
            )
        if tender.method is PaymentMethod.CREDIT:
            uow.cash.add(_entry(payment, EntrySource.TRANSFER, credits.id, -tender.amount))
            uow.cash.add(
                PayerCredit(
                    municipality_id=p.municipality_id,
                    payer_key=key,
                    payer_name=payer_name,
                    party_id=p.payer_party_id,
                    amount=-tender.amount,
                    day=today,
                    at=now,
                    payment_id=payment.id,
                    memo=f"used, receipt {payment.receipt_number}",
                )
            )
        if on_taken is not None:
            on_taken(payment)
        uow.commit()
        return PaymentResult(payment.id, payment.receipt_number, overpaid)


def _payment(uow: UnitOfWork, payment_id: int) -> Payment:
    payment = uow.cash.get(Payment, payment_id)
    if payment is None:
        raise NotFound(f"payment #{payment_id} does not exist")
    return payment


def _reverse(
    uow: UnitOfWork,
    payment: Payment,
    reversal: PaymentReversal,
    source: EntrySource,
) -> None:
    """New entries that undo every entry and credit movement of the payment."""
    assert reversal.id is not None
    for e in uow.cash.find(GlEntry, payment_id=payment.id, reversal_id=None):
        uow.cash.add(
            _entry(
                payment,
                EntrySource.TRANSFER if e.source is EntrySource.TRANSFER else source,
                e.account_id,
                -e.amount,
                day=reversal.day,
                at=reversal.at,
                code=e.code,
                portion=e.portion,
                permit_id=e.permit_id,
                reversal_id=reversal.id,
            )
        )
    for c in uow.cash.find(PayerCredit, payment_id=payment.id, reversal_id=None):
        uow.cash.add(
            PayerCredit(
                municipality_id=c.municipality_id,
                payer_key=c.payer_key,
                payer_name=c.payer_name,
                party_id=c.party_id,
                amount=-c.amount,
                day=reversal.day,
                at=reversal.at,
                payment_id=payment.id,
                reversal_id=reversal.id,
                memo=f"{reversal.kind.value} of receipt {payment.receipt_number}",
            )
        )


def void_payment(uow: UnitOfWork, clock: Clock, actor: Actor, payment_id: int, reason: str) -> None:
    """Void a receipt on the day it was taken, before that day's close, with a reason. The void
    is a new entry; the receipt stays in the register, marked void."""
    require(actor, Permission.VOID_RECEIPT)
    if not reason.strip():
        raise ValidationError("reason", "say why the receipt is voided")
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        payment = _payment(uow, payment_id)
        uow.cash.lock(payment.municipality_id)
        n = payment.receipt_number
        if uow.cash.find(PaymentReversal, payment_id=payment.id):
            raise RuleViolation(f"Receipt {n} is already voided or returned.")
        if payment.day != today:
            raise RuleViolation(
                f"Receipt {n} was taken on {short_date(payment.day)}; a receipt can be voided only "
                "on the day it was taken."
            )
        if payment.close_id is not None or uow.cash.find(
            DailyClose, municipality_id=payment.municipality_id, drawer=payment.drawer, day=today
        ):
            raise RuleViolation(
                f"The drawer {payment.drawer} is closed for {short_date(today)}; receipt {n} can "
                "no longer be voided."
            )
        if payment.credited > 0:
            key = next((c.payer_key for c in uow.cash.find(PayerCredit, payment_id=payment.id)), "")
            held = uow.cash.credit_balance(payment.municipality_id, key)
            if held < payment.credited:
                raise RuleViolation(
                    f"{format_money(payment.credited)} of receipt {n} was kept as credit and "
                    "part of it is spent; void the receipt that used it first."
                )
        reversal = PaymentReversal(
            payment_id=payment.id,  # type: ignore[arg-type]
            municipality_id=payment.municipality_id,
            kind=ReversalKind.VOID,
            day=today,
            at=now,
            reason=reason.strip(),
            by_user_id=actor.user_id,
        )
        uow.cash.add(reversal)
        uow.flush()
        _reverse(uow, payment, reversal, EntrySource.VOID)
        uow.commit()


def return_nsf(
    uow: UnitOfWork, clock: Clock, actor: Actor, payment_id: int, bank_notice: str
) -> None:
    """A check came back unpaid: reverse the payment (the permits owe it again), record the
    bank's notice, and add the municipality's returned-check charge if it sets one."""
    require(actor, Permission.RECORD_RETURNED_CHECK)
    if not bank_notice.strip():
        raise ValidationError("bank notice", "enter the bank's notice (date, reference, reason)")
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        payment = _payment(uow, payment_id)
        uow.cash.lock(payment.municipality_id)
        n = payment.receipt_number
        if payment.method is not PaymentMethod.CHECK:
            raise RuleViolation(
                f"Receipt {n} was paid by {payment.method.label.lower()}, not check."
            )
        if uow.cash.find(PaymentReversal, payment_id=payment.id):
            raise RuleViolation(f"Receipt {n} is already voided or returned.")
        close = uow.cash.get(DailyClose, payment.close_id) if payment.close_id else None
        if close is None or close.turnover_id is None:
            raise RuleViolation(
                f"The check of receipt {n} has not been turned over for deposit yet, so the bank "
                "cannot have returned it; void the receipt instead if it was taken today."
            )
        muni = _municipality(uow, payment.municipality_id)
        ledger = _ledger(uow, muni)
        reversal = PaymentReversal(
            payment_id=payment.id,  # type: ignore[arg-type]
            municipality_id=payment.municipality_id,
            kind=ReversalKind.NSF,
            day=today,
            at=now,
            reason=f"check {payment.check_number} returned unpaid",
            bank_notice=bank_notice.strip(),
            by_user_id=actor.user_id,
        )
        uow.cash.add(reversal)
        uow.flush()
        _reverse(uow, payment, reversal, EntrySource.NSF)
        allocations = uow.cash.find(PaymentAllocation, payment_id=payment.id)
        charge = ledger.settings.nsf_charge
        if charge > 0 and allocations:
            uow.cash.add(
                FeeAdjustment(
                    permit_id=allocations[0].permit_id,
                    code=NSF_CODE,
                    description="Returned check charge",
                    amount=charge,
                    source=AdjustmentSource.NSF_CHARGE,
                    reason=f"check {payment.check_number} of receipt {n} returned unpaid",
                    day=today,
                    at=now,
                    by_user_id=actor.user_id,
                    reversal_id=reversal.id,
                )
            )
        uow.commit()


# --- fee lines after assessment -------------------------------------------------------------------


def add_fee_line(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, item: QuoteItem, reason: str
) -> Decimal:
    """A fee charged after assessment (re-inspection, failure to call, a double fee found later),
    priced with the schedule version in effect today, stored as a new line with the reason and
    the user. Returns the amount added."""
    require(actor, Permission.ADD_FEE_LINE)
    if not reason.strip():
        raise ValidationError("reason", "say why the fee is added")
    if item.code == FAIL_TO_CALL and item.occurrence is None:
        # 15.1.21(a)(13): counted per contractor (or owner) across the municipality's permits.
        item = QuoteItem(code=item.code, occurrence=failure_to_call_occurrence(uow, permit_id))
    with uow:
        uow.act_as(actor, clock.now())
        added = add_fee_line_within(uow, clock, actor, _permit(uow, permit_id), item, reason)
        uow.commit()
        return added


def add_fee_line_within(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit: Permit, item: QuoteItem, reason: str
) -> Decimal:
    """add_fee_line's work inside a unit of work the caller opened and commits (recording an
    inspection result adds its re-inspection fee in the same transaction)."""
    assert permit.id is not None
    today, now = clock.today(), clock.now()
    muni = _municipality(uow, permit.municipality_id)
    ledger = _ledger(uow, muni)
    version = _version_on(_schedule(uow, clock, permit.municipality_id), today)
    uow.act_as(actor, now)  # _schedule may have imported the shipped schedule as no one
    assert version.id is not None
    quote = price(version, QuoteRequest(items=(item,)), is_holiday)
    added = ZERO
    for line in quote.lines:
        account, _ = ledger.account_of(line.code, Portion.FEE, line.gl_account)
        if not account:
            raise ValidationError(
                "code", f"{line.code} has no GL account; an administrator maps it first"
            )
        parts = [(Portion.FEE, line.amount)]
        if ledger.settings.admin_cost_account and line.admin > 0:
            parts = [(Portion.FEE, line.amount - line.admin), (Portion.ADMIN, line.admin)]
        for portion, amount in parts:
            uow.cash.add(
                FeeAdjustment(
                    permit_id=permit.id,
                    code=line.code,
                    description=line.description,
                    section=line.section,
                    portion=portion,
                    amount=amount,
                    source=AdjustmentSource.ADDED,
                    reason=reason.strip(),
                    note=line.note,
                    version_id=version.id,
                    day=today,
                    at=now,
                    by_user_id=actor.user_id,
                )
            )
        added += line.amount
    return added


def adjust_fee(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    code: str,
    amount: Decimal,
    reason: str,
) -> None:
    """Correct a fee up or down with a reason: an adjusting line, never an edit of a line. A
    correction below what is already paid leaves an overpayment (refundable as such)."""
    require(actor, Permission.ADJUST_FEES)
    code = code.strip().upper()
    if not reason.strip():
        raise ValidationError("reason", "say why the fee is corrected")
    if amount == 0:
        raise ValidationError("amount", "enter the correction, e.g. -50.00 or 25.00")
    check_amount(abs(amount))
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        uow.cash.lock(_permit(uow, permit_id).municipality_id)
        permit = _permit(uow, permit_id)
        ledger = _ledger(uow, _municipality(uow, permit.municipality_id))
        buckets = [b for b in _buckets(uow, permit_id, ledger) if b.code == code]
        fee = next((b for b in buckets if b.portion is Portion.FEE), None)
        if fee is None:
            if amount < 0:
                raise ValidationError("code", f"{code} is not charged on this permit")
            if not ledger.account_of(code, Portion.FEE)[0]:
                raise ValidationError("code", f"{code} has no GL account")
        elif fee.due + amount < 0:
            raise ValidationError(
                "amount", f"{code} is charged {format_money(fee.due)}; it cannot go below $0.00"
            )
        uow.cash.add(
            FeeAdjustment(
                permit_id=permit_id,
                code=code,
                description=fee.description if fee else code,
                amount=amount,
                source=AdjustmentSource.ADJUSTED,
                reason=reason.strip(),
                day=today,
                at=now,
                by_user_id=actor.user_id,
            )
        )
        uow.commit()


# --- refunds --------------------------------------------------------------------------------------


def _is_new_dwelling(permit: Permit) -> bool:
    return permit.kind == NEW_DWELLING_KIND or (
        permit.permit_class is PermitClass.RESIDENTIAL
        and permit.work_class is WorkClass.NEW
        and 1 <= permit.dwelling_units <= 2
    )


def inspections_made_within(
    uow: UnitOfWork, muni: Municipality, permit_id: int
) -> tuple[InspectionMade, ...]:
    """15.1.42 "before any inspections are made": the inspections on the register with a result
    recorded (passed, partial, rejected, OK for service). One requested, scheduled or cancelled
    was not made. Read from the register, never typed by the user."""
    labels = {t.code: t.label for s in sequences_for(muni.ordinance) for t in s.types}
    return tuple(
        InspectionMade(
            labels.get(i.type_code, i.type_code),
            i.result.label.lower(),
            i.scheduled_on or (i.result_at.date() if i.result_at else None),
        )
        for i in uow.inspections.for_permit(permit_id)
        if i.status is InspectionStatus.DONE and i.result is not None and i.result.made
    )


def inspections_made(uow: UnitOfWork, permit_id: int) -> tuple[InspectionMade, ...]:
    """The inspections made on the permit (15.1.42), for the refund dialog to show."""
    with uow:
        permit = _permit(uow, permit_id)
        made = inspections_made_within(uow, _municipality(uow, permit.municipality_id), permit_id)
        uow.commit()
        return made


def _refund_case(
    uow: UnitOfWork,
    permit: Permit,
    muni: Municipality,
    buckets: list[Bucket],
    ground: RefundGround,
    today: date,
    filed_on: date | None,
) -> RefundCase:
    fee_buckets = [b for b in buckets if b.purpose is not AccountPurpose.DEPOSITS_HELD]
    return RefundCase(
        ground=ground,
        trade=kind_by_code(muni.ordinance, permit.kind).trade,
        status=permit.status,
        issued_on=permit.issued_on,
        new_dwelling=_is_new_dwelling(permit),
        fees_paid=sum((b.paid for b in fee_buckets), ZERO),
        seal_paid=sum(
            (b.paid for b in fee_buckets if b.purpose is AccountPurpose.STATE_SEAL), ZERO
        ),
        excess_paid=sum((max(b.paid - b.due, ZERO) for b in buckets), ZERO),
        today=today,
        # 15.1.42: the inspections made, read from the register (the user cannot lower them).
        inspections_made=(
            inspections_made_within(uow, muni, permit.id or 0)
            if ground is RefundGround.PLUMBING_VOID
            else ()
        ),
        filed_on=filed_on,
    )


def refund_grounds(uow: UnitOfWork, municipality_id: int) -> tuple[RefundGround, ...]:
    """The grounds a fee is refunded on here: the plumbing void only where the municipality's
    ordinance has it (Glendale 15.1.42, its clerical fee set); a street deposit is returned from
    the Deposits section (15.1.43), not as a fee refund."""
    with uow:
        settings = settings_of(_municipality(uow, municipality_id))
    return tuple(
        g
        for g in RefundGround
        if g is not RefundGround.STREET_DEPOSIT
        and (g is not RefundGround.PLUMBING_VOID or settings.rules.plumbing_clerical is not None)
    )


def refund_quote(
    uow: UnitOfWork,
    clock: Clock,
    permit_id: int,
    ground: RefundGround,
    filed_on: date | None = None,
) -> RefundDecision:
    """What the rule allows, before anyone writes a check (the refund dialog shows it)."""
    with uow:
        uow.act_as(None, clock.now())
        permit = _permit(uow, permit_id)
        muni = _municipality(uow, permit.municipality_id)
        ledger = _ledger(uow, muni)
        buckets = _buckets(uow, permit_id, ledger)
        case = _refund_case(uow, permit, muni, buckets, ground, clock.today(), filed_on)
        decision = refund_decision(case, ledger.settings.rules)
        uow.commit()
        return decision


@dataclass(frozen=True)
class RefundInput:
    permit_id: int
    ground: RefundGround
    check_number: str
    check_date: date
    filed_on: date | None = None  # Act 211: the day the permit was filed with the state
    payer_name: str = ""  # whom the check is made out to; default the permit's last payer


@dataclass(frozen=True)
class RefundResult:
    refund_id: int
    amount: Decimal
    kept: Decimal
    reason: str


def _check_refund_check(number: str, day: date | None) -> str:
    if not number.strip():
        raise ValidationError("check number", "enter the number of the refund check")
    if day is None:
        raise ValidationError("check date", "enter the date of the refund check")
    return number.strip()


def _refund_check_unused(uow: UnitOfWork, municipality_id: int, number: str) -> None:
    """The treasurer's checks are numbered once each: a number already written is a typo or a
    refund entered twice."""
    used = uow.cash.find(Refund, municipality_id=municipality_id, check_number=number)
    if used:
        raise refund_check_used(used[0])


def _check_not_receipted(uow: UnitOfWork, municipality_id: int, tender: Tender) -> None:
    """The same check (number, drawer and bank) on a receipt not reversed: entered twice. A
    check returned unpaid or a voided receipt may be receipted again."""
    if tender.method not in (PaymentMethod.CHECK, PaymentMethod.MONEY_ORDER):
        return
    if not tender.check_number:
        return

    def fold(text: str) -> str:
        return " ".join(text.casefold().split())

    for p in uow.cash.find(
        Payment, municipality_id=municipality_id, check_number=tender.check_number
    ):
        if (
            p.method is tender.method
            and fold(p.check_drawer) == fold(tender.check_drawer)
            and fold(p.check_bank) == fold(tender.check_bank)
            and not uow.cash.find(PaymentReversal, payment_id=p.id)
        ):
            raise check_already_receipted(p)


def refund(uow: UnitOfWork, clock: Clock, actor: Actor, r: RefundInput) -> RefundResult:
    """Refund a permit's fees as far as the ordinance's rule allows (RuleViolation says why
    not), recording the treasurer's check. The refunded fees are no longer charged (adjusting
    lines), and the money leaves the accounts it was booked to, newest line first."""
    require(actor, Permission.REFUND)
    check_number = _check_refund_check(r.check_number, r.check_date)
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        permit = _permit(uow, r.permit_id)
        uow.cash.lock(permit.municipality_id)
        muni = _municipality(uow, permit.municipality_id)
        ledger = _ledger(uow, muni)
        buckets = _buckets(uow, r.permit_id, ledger)
        case = _refund_case(uow, permit, muni, buckets, r.ground, today, r.filed_on)
        decision = refund_decision(case, ledger.settings.rules)
        if not decision.allowed:
            raise RuleViolation(decision.reason)
        lines: list[SplitLine]
        if r.ground is RefundGround.OVERPAYMENT:
            lines = split_newest_first(decision.amount, buckets, lambda b: b.paid - b.due)
        else:
            kept = decision.keep_purposes | {AccountPurpose.DEPOSITS_HELD}
            lines = split_newest_first(
                decision.amount, buckets, lambda b: ZERO if b.purpose in kept else b.paid
            )
        _refund_check_unused(uow, permit.municipality_id, check_number)
        payer = r.payer_name.strip() or _last_payer(uow, r.permit_id)
        row = Refund(
            municipality_id=permit.municipality_id,
            ground=r.ground,
            amount=decision.amount,
            kept=decision.kept,
            reason=decision.reason,
            section=decision.section,
            check_number=check_number,
            check_date=r.check_date,
            day=today,
            at=now,
            payer_name=payer,
            permit_id=r.permit_id,
            by_user_id=actor.user_id,
        )
        uow.cash.add(row)
        uow.flush()
        for s in lines:
            uow.cash.add(
                GlEntry(
                    municipality_id=permit.municipality_id,
                    day=today,
                    at=now,
                    source=EntrySource.REFUND,
                    account_id=_account_id(ledger, s.account),
                    amount=-s.amount,
                    code=s.code,
                    portion=s.portion,
                    permit_id=r.permit_id,
                    refund_id=row.id,
                )
            )
            if r.ground is not RefundGround.OVERPAYMENT:
                # The fee given back is no longer charged: the balance stays right.
                desc = next((b.description for b in buckets if b.key == (s.code, s.portion)), "")
                uow.cash.add(
                    FeeAdjustment(
                        permit_id=r.permit_id,
                        code=s.code,
                        portion=s.portion,
                        description=desc or s.code,
                        amount=-s.amount,
                        source=AdjustmentSource.REFUND,
                        reason=decision.reason,
                        day=today,
                        at=now,
                        by_user_id=actor.user_id,
                        refund_id=row.id,
                    )
                )
        uow.commit()
        assert row.id is not None
        return RefundResult(row.id, decision.amount, decision.kept, decision.reason)


def _last_payer(uow: UnitOfWork, permit_id: int) -> str:
    for a in reversed(uow.cash.find(PaymentAllocation, permit_id=permit_id)):
        payment = uow.cash.get(Payment, a.payment_id)
        if payment is not None and not uow.cash.find(PaymentReversal, payment_id=payment.id):
            return payment.payer_name
    return ""


def _refund_out_of(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    account: GlAccount,
    ground: RefundGround,
    amount: Decimal,
    check_number: str,
    check_date: date,
    *,
    payer_name: str,
    reason: str,
    section: str = "",
    kept: Decimal = ZERO,
    payer_party_id: int | None = None,
    permit_id: int | None = None,
    code: str = "",
) -> Refund:
    """The treasurer's check paying `amount` back out of a liability account (a payer's credits
    held, a street deposit held): the Refund row, which goes with the next turnover, and the GL
    entry taking the money out of `account`. The caller writes what else goes with it and
    commits."""
    assert account.id is not None
    _refund_check_unused(uow, account.municipality_id, check_number)
    today, now = clock.today(), clock.now()
    row = Refund(
        municipality_id=account.municipality_id,
        ground=ground,
        amount=amount,
        kept=kept,
        reason=reason,
        section=section,
        check_number=check_number,
        check_date=check_date,
        day=today,
        at=now,
        payer_name=payer_name,
        payer_party_id=payer_party_id,
        permit_id=permit_id,
        by_user_id=actor.user_id,
    )
    uow.cash.add(row)
    uow.flush()
    assert row.id is not None
    uow.cash.add(
        GlEntry(
            municipality_id=account.municipality_id,
            day=today,
            at=now,
            source=EntrySource.REFUND,
            account_id=account.id,
            amount=-amount,
            code=code,
            permit_id=permit_id,
            refund_id=row.id,
        )
    )
    return row


def refund_credit(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    payer_party_id: int | None,
    payer_name: str,
    amount: Decimal,
    check_number: str,
    check_date: date,
) -> int:
    """Pay a payer's credit (an overpayment kept) back by check."""
    require(actor, Permission.REFUND)
    check_amount(amount)
    number = _check_refund_check(check_number, check_date)
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        uow.cash.lock(municipality_id)
        muni = _municipality(uow, municipality_id)
        ledger = _ledger(uow, muni)
        name = payer_name.strip()
        if payer_party_id is not None and not name:
            party = uow.parties.get(payer_party_id)
            name = party.name if party else ""
        key = payer_key(payer_party_id, name)
        held = uow.cash.credit_balance(municipality_id, key)
        if amount > held:
            raise ValidationError(
                "amount",
                f"{name or 'the payer'} has {format_money(held)} of credit, less than "
                f"{format_money(amount)}",
            )
        row = _refund_out_of(
            uow,
            clock,
            actor,
            ledger.with_purpose(AccountPurpose.CREDITS_HELD),
            RefundGround.OVERPAYMENT,
            amount,
            number,
            check_date,
            payer_name=name,
            reason=f"Credit on account refunded to {name}.",
            payer_party_id=payer_party_id,
        )
        uow.cash.add(
            PayerCredit(
                municipality_id=municipality_id,
                payer_key=key,
                payer_name=name,
                party_id=payer_party_id,
                amount=-amount,
                day=today,
                at=now,
                refund_id=row.id,
                memo=f"refunded by check {number}",
            )
        )
        uow.commit()
        assert row.id is not None
        return row.id


# --- the daily close ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawerReceipt:
    payment_id: int
    receipt_number: str
    received_at: datetime
    payer: str
    method: PaymentMethod
    amount: Decimal
    check_number: str
    voided: bool


@dataclass(frozen=True)
class DrawerDay:
    municipality_id: int
    drawer: str
    day: date
    receipts: tuple[DrawerReceipt, ...]
    expected: MethodTotals
    close_id: int | None


def _expected(uow: UnitOfWork, payments: Sequence[Payment]) -> MethodTotals:
    """What the drawer must hold: the day's money receipts that were not voided."""
    sums: dict[PaymentMethod, Decimal] = {}
    for p in payments:
        if p.method.is_money and not uow.cash.find(PaymentReversal, payment_id=p.id):
            sums[p.method] = sums.get(p.method, ZERO) + p.amount
    return MethodTotals.of(sums)


def drawer_day(uow: UnitOfWork, municipality_id: int, drawer: str, day: date) -> DrawerDay:
    with uow:
        payments = uow.cash.find(Payment, municipality_id=municipality_id, drawer=drawer, day=day)
        closes = uow.cash.find(DailyClose, municipality_id=municipality_id, drawer=drawer, day=day)
        receipts = tuple(
            DrawerReceipt(
                payment_id=p.id,  # type: ignore[arg-type]
                receipt_number=p.receipt_number,
                received_at=p.received_at,
                payer=p.payer_name,
                method=p.method,
                amount=p.amount,
                check_number=p.check_number,
                voided=bool(uow.cash.find(PaymentReversal, payment_id=p.id)),
            )
            for p in payments
        )
        return DrawerDay(
            municipality_id,
            drawer,
            day,
            receipts,
            closes[0].expected if closes else _expected(uow, payments),
            closes[0].id if closes else None,
        )


def close_day(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    drawer: str,
    day: date,
    counted: MethodTotals,
    explanation: str = "",
) -> int:
    """Close one drawer's day: expected by method vs counted, over/short with its explanation.
    From now on the day's receipts cannot be voided and the drawer takes no more payments that
    day. When the treasurer closes a drawer herself, the money is already in the City
    Treasurer's custody (15.1.34(b)(4)): the day goes into a turnover she delivers and
    acknowledges at once (see _into_own_custody), so nothing waits for a second person and the
    reconciliation counts the money once, as acknowledged."""
    require(actor, Permission.CLOSE_DRAWER)
    drawer = drawer.strip()
    now = clock.now()
    if day > clock.today():
        raise ValidationError("day", "cannot close a day that has not come yet")
    with uow:
        uow.act_as(actor, now)
        uow.cash.lock(municipality_id)
        _municipality(uow, municipality_id)
        if uow.cash.find(DailyClose, municipality_id=municipality_id, drawer=drawer, day=day):
            raise RuleViolation(f"The drawer {drawer} is already closed for {short_date(day)}.")
        payments = uow.cash.find(Payment, municipality_id=municipality_id, drawer=drawer, day=day)
        figures = close_figures(_expected(uow, payments), counted, explanation)
        e, c = figures.expected, figures.counted
        close = DailyClose(
            municipality_id=municipality_id,
            drawer=drawer,
            day=day,
            expected_cash=e.cash,
            expected_check=e.check,
            expected_card=e.card,
            expected_money_order=e.money_order,
            counted_cash=c.cash,
            counted_check=c.check,
            counted_card=c.card,
            counted_money_order=c.money_order,
            over_short=figures.over_short,
            explanation=explanation.strip(),
            closed_by_id=actor.user_id,
            closed_at=now,
        )
        uow.cash.add(close)
        uow.flush()
        for p in payments:
            p.close_id = close.id
        if Role.TREASURER in actor.roles:
            turnover = _deliver(uow, actor, municipality_id, [close], today=clock.today(), now=now)
            _into_own_custody(turnover, actor, clock.today(), now)
        uow.commit()
        assert close.id is not None
        return close.id


# --- turnovers to the treasurer -------------------------------------------------------------------


def create_turnover(
    uow: UnitOfWork, clock: Clock, actor: Actor, municipality_id: int, close_ids: Sequence[int]
) -> int:
    """Deliver closed days to the City Treasurer (15.1.34(b)(4)). The returned checks and
    refunds recorded since the last turnover go with it as deductions."""
    require(actor, Permission.DELIVER_TURNOVER)
    today, now = clock.today(), clock.now()
    with uow:
        uow.act_as(actor, now)
        uow.cash.lock(municipality_id)
        _municipality(uow, municipality_id)
        closes = []
        for cid in dict.fromkeys(close_ids):
            close = uow.cash.get(DailyClose, cid)
            if close is None or close.municipality_id != municipality_id:
                raise ValidationError("closed days", f"daily close #{cid} is not in this register")
            if close.turnover_id is not None:
                raise RuleViolation(
                    f"The {close.drawer} drawer's {short_date(close.day)} is already in turnover "
                    f"#{close.turnover_id}."
                )
            closes.append(close)
        turnover = _deliver(uow, actor, municipality_id, closes, today=today, now=now)
        uow.commit()
        assert turnover.id is not None
        return turnover.id


def _deliver(
    uow: UnitOfWork,
    actor: Actor,
    municipality_id: int,
    closes: Sequence[DailyClose],
    *,
    today: date,
    now: datetime,
) -> Turnover:
    """The turnover of `closes` with the returned checks and refunds not yet reported, inside
    the caller's transaction (which holds the cash lock)."""
    nsf = uow.cash.find(
        PaymentReversal,
        municipality_id=municipality_id,
        kind=ReversalKind.NSF,
        turnover_id=None,
    )
    refunds = uow.cash.find(Refund, municipality_id=municipality_id, turnover_id=None)
    if not closes and not nsf and not refunds:
        raise ValidationError("closed days", "choose at least one closed day")
    returned = ZERO
    for r in nsf:
        returned += _payment(uow, r.payment_id).amount
    amount = (
        sum((c.expected.total for c in closes), ZERO)
        - returned
        - sum((r.amount for r in refunds), ZERO)
    )
    turnover = Turnover(
        municipality_id=municipality_id,
        delivered_on=today,
        delivered_at=now,
        delivered_by_id=actor.user_id,
        amount=amount,
        cash_delivered=sum((c.counted.total for c in closes), ZERO),
    )
    uow.cash.add(turnover)
    uow.flush()
    for c in closes:
        c.turnover_id = turnover.id
    for r in nsf:
        r.turnover_id = turnover.id
    for f in refunds:
        f.turnover_id = turnover.id
    return turnover


# The deposit reference of a turnover the treasurer took from her own drawer: no bank deposit
# is made by the handing over; the money she counted at the close is what she holds.
OWN_DRAWER = "Treasurer's own drawer"


def _into_own_custody(turnover: Turnover, actor: Actor, today: date, now: datetime) -> None:
    """The treasurer's own drawer: 15.1.34(b)(4) has the office turn its fees over to the City
    Treasurer; money she took and counted herself is in her custody already, so the turnover is
    acknowledged by her as it is delivered, for the money counted (an over or short is on the
    close, not a second difference)."""
    turnover.acknowledged_on = today
    turnover.acknowledged_at = now
    turnover.acknowledged_by_id = actor.user_id
    turnover.deposit_ref = OWN_DRAWER
    turnover.deposited = turnover.cash_delivered
    turnover.difference = ZERO


def acknowledge_turnover(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    turnover_id: int,
    on: date,
    deposit_ref: str,
    deposited: Decimal,
) -> Decimal:
    """The treasurer receives the turnover: the date, the bank deposit reference and the amount
    deposited. Returns the difference from the money delivered (flagged until resolved)."""
    require(actor, Permission.ACKNOWLEDGE_TURNOVER)
    if not deposit_ref.strip():
        raise ValidationError("deposit reference", "enter the bank deposit reference")
    if deposited < 0 or deposited != deposited.quantize(Decimal("0.01")):
        raise ValidationError("amount deposited", "enter the amount in dollars and cents")
    with uow:
        uow.act_as(actor, clock.now())
        turnover = uow.cash.get(Turnover, turnover_id)
        if turnover is None:
            raise NotFound(f"turnover #{turnover_id} does not exist")
        uow.cash.lock(turnover.municipality_id)
        if turnover.acknowledged_on is not None:
            raise RuleViolation(f"Turnover #{turnover_id} is already acknowledged.")
        if _delivered_by(turnover, actor) and not _own_drawers(uow, turnover, actor):
            raise RuleViolation(
                f"You delivered turnover #{turnover_id}; another treasurer acknowledges it."
            )
        if on < turnover.delivered_on or on > clock.today():
            raise ValidationError(
                "date", f"must be between {short_date(turnover.delivered_on)} and today"
            )
        turnover.acknowledged_on = on
        turnover.acknowledged_at = clock.now()
        turnover.acknowledged_by_id = actor.user_id
        turnover.deposit_ref = deposit_ref.strip()
        turnover.deposited = deposited
        turnover.difference = deposited - turnover.cash_delivered
        uow.commit()
        return turnover.difference


def _delivered_by(turnover: Turnover, actor: Actor) -> bool:
    """Who delivered the money does not also receive it: the acknowledgment is a second
    person's check on the delivery."""
    return turnover.delivered_by_id == actor.user_id


def _own_drawers(uow: UnitOfWork, turnover: Turnover, actor: Actor) -> bool:
    """A treasurer's turnover of only the drawers she closed herself (delivered before closes
    went straight into her custody): there was no second person to hand the money to, so she
    acknowledges it (15.1.34(b)(4))."""
    if Role.TREASURER not in actor.roles:
        return False
    closes = uow.cash.find(DailyClose, turnover_id=turnover.id)
    return bool(closes) and all(c.closed_by_id == actor.user_id for c in closes)


def delivered_by(uow: UnitOfWork, actor: Actor, turnover_id: int) -> bool:
    """Whether the actor delivered the turnover and so may not acknowledge it, for the form to
    say so before it is filled in (acknowledge_turnover refuses it all the same)."""
    with uow:
        turnover = uow.cash.get(Turnover, turnover_id)
        if turnover is None:
            raise NotFound(f"turnover #{turnover_id} does not exist")
        mine = _delivered_by(turnover, actor) and not _own_drawers(uow, turnover, actor)
        uow.commit()
        return mine


def resolve_turnover_difference(
    uow: UnitOfWork, clock: Clock, actor: Actor, turnover_id: int, resolution: str
) -> None:
    require(actor, Permission.ACKNOWLEDGE_TURNOVER)
    if not resolution.strip():
        raise ValidationError("resolution", "say how the difference was resolved")
    with uow:
        uow.act_as(actor, clock.now())
        turnover = uow.cash.get(Turnover, turnover_id)
        if turnover is None:
            raise NotFound(f"turnover #{turnover_id} does not exist")
        if not turnover.difference or turnover.resolved_at is not None:
            raise RuleViolation(f"Turnover #{turnover_id} has no open difference.")
        turnover.resolved_at = clock.now()
        turnover.resolved_by_id = actor.user_id
        turnover.resolution = resolution.strip()
        uow.commit()


def _turnover_state(t: Turnover) -> TurnoverState:
    assert t.id is not None
    return TurnoverState(
        id=t.id,
        delivered_on=t.delivered_on,
        acknowledged_on=t.acknowledged_on,
        amount=t.amount,
        cash_delivered=t.cash_delivered,
        deposited=t.deposited,
        difference=t.difference,
        resolved=t.resolved_at is not None,
        deposit_ref=t.deposit_ref,
    )


# --- the reconciliation ---------------------------------------------------------------------------


def reconciliation(
    uow: UnitOfWork, clock: Clock, municipality_id: int, start: date, end: date
) -> Reconciliation:
    """The treasurer's reconciliation for a period (turnover states as of its last day)."""
    if end < start:
        raise ValidationError("to", "is before the first day of the period")
    with uow:
        uow.act_as(None, clock.now())
        ledger = _ledger(uow, _municipality(uow, municipality_id))
        close_turnover: dict[int, int | None] = {}

        def turnover_of(payment: Payment) -> int | None:
            if payment.close_id is None:
                return None
            if payment.close_id not in close_turnover:
                close = uow.cash.get(DailyClose, payment.close_id)
                close_turnover[payment.close_id] = close.turnover_id if close else None
            return close_turnover[payment.close_id]

        events: list[MoneyEvent] = []
        for p in uow.cash.in_period(Payment, municipality_id, start, end):
            if p.method.is_money:
                events.append(
                    MoneyEvent(MoneyKind.RECEIPT, p.day, p.amount, turnover_of(p), p.method)
                )
        for r in uow.cash.in_period(PaymentReversal, municipality_id, start, end):
            p = _payment(uow, r.payment_id)
            if not p.method.is_money:
                continue
            if r.kind is ReversalKind.VOID:
                events.append(MoneyEvent(MoneyKind.VOID, r.day, p.amount, turnover_of(p), p.method))
            else:
                events.append(MoneyEvent(MoneyKind.NSF, r.day, p.amount, r.turnover_id, p.method))
        for f in uow.cash.in_period(Refund, municipality_id, start, end):
            events.append(MoneyEvent(MoneyKind.REFUND, f.day, f.amount, f.turnover_id))
        turnovers = [
            _turnover_state(t) for t in uow.cash.find(Turnover, municipality_id=municipality_id)
        ]
        number = {i: a.number for i, a in ledger.by_id.items()}
        opening = {number[i]: v for i, v in uow.cash.gl_opening(municipality_id, start).items()}
        movements = [
            LedgerEntry(number[i], start, source, amount)
            for i, source, amount in uow.cash.gl_sums(municipality_id, start, end)
        ]
        over_short = sum(
            (c.over_short for c in uow.cash.in_period(DailyClose, municipality_id, start, end)),
            ZERO,
        )
        uow.commit()
        return reconcile(
            start,
            end,
            events,
            turnovers,
            [AccountInfo(a.number, a.name, a.kind, a.purpose) for a in ledger.by_id.values()],
            opening,
            movements,
            over_short,
        )


# --- receipts -------------------------------------------------------------------------------------


def _receipt_view(uow: UnitOfWork, payment: Payment, copy: bool) -> ReceiptView:
    muni = _municipality(uow, payment.municipality_id)
    accounts = {a.id: a for a in uow.cash.find(GlAccount, municipality_id=muni.id)}
    permits = []
    for a in uow.cash.find(PaymentAllocation, payment_id=payment.id):
        permit = _permit(uow, a.permit_id)
        permits.append(
            ReceiptPermit(
                number=permit.number or f"Application #{permit.id}",
                address=_address(permit),
                description=permit.description,
                amount=a.amount,
            )
        )
    sums: dict[int, Decimal] = {}
    for e in uow.cash.find(GlEntry, payment_id=payment.id, reversal_id=None):
        if e.amount > 0:  # a payment from credit: the fees paid, not the credit used
            sums[e.account_id] = sums.get(e.account_id, ZERO) + e.amount
    lines = tuple(ReceiptAccount(accounts[i].number, accounts[i].name, v) for i, v in sums.items())
    payer_address = ""
    if payment.payer_party_id is not None:
        party = uow.parties.get(payment.payer_party_id)
        payer_address = party.mailing_address if party else ""
    clerk = uow.users.get(payment.clerk_id) if payment.clerk_id else None
    status = ""
    for r in uow.cash.find(PaymentReversal, payment_id=payment.id):
        if r.kind is ReversalKind.VOID:
            status = f"VOID — voided {short_date(r.day)}: {r.reason}"
        else:
            status = f"CHECK RETURNED UNPAID — {short_date(r.day)}"
    return ReceiptView(
        # A reprint shows the letterhead of the moment the payment was received.
        letterhead=uow.municipalities.letterhead_as_of(
            payment.municipality_id, payment.received_at
        ),
        municipality=muni.name,
        receipt_number=payment.receipt_number,
        received_at=payment.received_at,
        day=payment.day,
        payer=payment.payer_name,
        payer_address=payer_address,
        permits=tuple(permits),
        accounts=lines,
        method=payment.method,
        amount=payment.amount,
        credited=payment.credited,
        check_number=payment.check_number,
        check_drawer=payment.check_drawer,
        check_bank=payment.check_bank,
        card_reference=payment.card_reference,
        clerk=clerk.full_name if clerk else "",
        drawer=payment.drawer,
        copy=copy,
        status=status,
    )


def receipt(uow: UnitOfWork, payment_id: int, copy: bool = True) -> ReceiptView:
    """A receipt to show or reprint (a COPY unless said otherwise)."""
    with uow:
        return _receipt_view(uow, _payment(uow, payment_id), copy)


def print_receipt(uow: UnitOfWork, clock: Clock, actor: Actor, payment_id: int) -> ReceiptView:
    """The receipt to print, counted: the first print is the original, every later one a COPY."""
    require(actor, Permission.TAKE_PAYMENT)
    with uow:
        uow.act_as(actor, clock.now())
        payment = _payment(uow, payment_id)
        view = _receipt_view(uow, payment, copy=payment.printed_count > 0)
        payment.printed_count += 1
        uow.commit()
        return view


# --- read models for the Fees & Payments tab and the transmittal ----------------------------------


def _user_name(uow: UnitOfWork, user_id: int | None) -> str:
    user = uow.users.get(user_id) if user_id is not None else None
    return user.full_name if user else ""


def permit_account(uow: UnitOfWork, clock: Clock, permit_id: int) -> PermitAccount:
    """A permit's fee lines (assessed, added, corrected, refunded), the receipts that paid it and
    the refunds, with the balance."""
    balance = permit_balance(uow, clock, permit_id)
    with uow:
        charges = [
            ChargeRow(
                line.assessed_on, line.code, line.description, line.amount, "assessed", "", ""
            )
            for line in uow.fees.lines_for(permit_id)
        ]
        charges += [
            ChargeRow(
                a.day,
                a.code,
                a.description + (" — administrative cost" if a.portion is Portion.ADMIN else ""),
                a.amount,
                a.source.value,
                _user_name(uow, a.by_user_id),
                a.reason,
            )
            for a in uow.cash.find(FeeAdjustment, permit_id=permit_id)
        ]
        payments = []
        for a in uow.cash.find(PaymentAllocation, permit_id=permit_id):
            p = _payment(uow, a.payment_id)
            reversal = uow.cash.find(PaymentReversal, payment_id=p.id)
            status = ""
            if reversal:
                status = "void" if reversal[0].kind is ReversalKind.VOID else "returned"
            payments.append(
                PaymentRow(
                    p.id,  # type: ignore[arg-type]
                    p.receipt_number,
                    p.day,
                    p.payer_name,
                    p.method,
                    a.amount,
                    status,
                )
            )
        refunds = [
            RefundRow(
                f.id,  # type: ignore[arg-type]
                f.day,
                f.amount,
                f.check_number,
                f.check_date,
                f.payer_name,
                f.reason,
            )
            for f in uow.cash.find(Refund, permit_id=permit_id)
        ]
        return PermitAccount(balance, tuple(charges), tuple(payments), tuple(refunds))


def transmittal(uow: UnitOfWork, turnover_id: int) -> Transmittal:
    """The turnover as the transmittal report prints it: closed days, totals by method and by
    GL account, the checks deposited, and the returned checks and refunds deducted."""
    with uow:
        t = uow.cash.get(Turnover, turnover_id)
        if t is None:
            raise NotFound(f"turnover #{turnover_id} does not exist")
        muni = _municipality(uow, t.municipality_id)
        accounts = {a.id: a for a in uow.cash.find(GlAccount, municipality_id=muni.id)}
        closes = uow.cash.find(DailyClose, turnover_id=turnover_id)
        sums: dict[int, Decimal] = {}

        def book(entries: list[GlEntry]) -> None:
            for e in entries:
                if e.source is not EntrySource.TRANSFER:
                    sums[e.account_id] = sums.get(e.account_id, ZERO) + e.amount

        checks = []
        for c in closes:
            for p in uow.cash.find(Payment, close_id=c.id):
                if not p.method.is_money:
                    continue
                # The receipt and its void; a later returned check goes with its own turnover.
                entries = uow.cash.find(GlEntry, payment_id=p.id)
                book([e for e in entries if e.source in (EntrySource.RECEIPT, EntrySource.VOID)])
                voided = any(e.source is EntrySource.VOID for e in entries)
                if p.method in (PaymentMethod.CHECK, PaymentMethod.MONEY_ORDER) and not voided:
                    bank = p.check_bank if p.method is PaymentMethod.CHECK else "money order"
                    checks.append(
                        TransmittalItem(
                            p.day, p.receipt_number, p.payer_name, p.check_number, bank, p.amount
                        )
                    )
        returned = []
        for r in uow.cash.find(PaymentReversal, turnover_id=turnover_id):
            p = _payment(uow, r.payment_id)
            book(uow.cash.find(GlEntry, reversal_id=r.id))
            returned.append(
                TransmittalItem(
                    r.day, p.receipt_number, p.payer_name, p.check_number, p.check_bank, p.amount
                )
            )
        refunds = []
        for f in uow.cash.find(Refund, turnover_id=turnover_id):
            book(uow.cash.find(GlEntry, refund_id=f.id))
            refunds.append(
                TransmittalItem(f.day, f.check_number, f.payer_name, f.check_number, "", f.amount)
            )
        by_method: dict[PaymentMethod, Decimal] = {}
        for c in closes:
            for m, v in c.expected.items():
                by_method[m] = by_method.get(m, ZERO) + v
        return Transmittal(
            turnover_id=turnover_id,
            letterhead=uow.municipalities.letterhead_as_of(t.municipality_id, t.delivered_on),
            delivered_on=t.delivered_on,
            delivered_by=_user_name(uow, t.delivered_by_id),
            closes=tuple(
                TransmittalClose(
                    c.drawer, c.day, c.expected, c.counted, c.over_short, c.explanation
                )
                for c in closes
            ),
            by_method=MethodTotals.of(by_method),
            by_account=tuple(
                (accounts[i].number, accounts[i].name, v)
                for i, v in sorted(sums.items(), key=lambda kv: accounts[kv[0]].number)
            ),
            checks=tuple(checks),
            returned=tuple(returned),
            refunds=tuple(refunds),
            amount=t.amount,
            cash_delivered=t.cash_delivered,
            state=_turnover_state(t),
            acknowledged_by=_user_name(uow, t.acknowledged_by_id),
        )


# --- street deposits (15.1.43): the liability account's money going out -------------------------

DEPOSIT_CODE = "DEPOSIT-STREET"  # the fee item of a street deposit (15.1.43), booked to a liability


def deposit_held(uow: UnitOfWork, permit_id: int) -> Decimal:
    """What the liability account holds for the permit's street deposit. Inside an open unit of
    work."""
    permit = _permit(uow, permit_id)
    ledger = _ledger(uow, _municipality(uow, permit.municipality_id))
    held = ledger.with_purpose(AccountPurpose.DEPOSITS_HELD)
    entries = uow.cash.find(GlEntry, permit_id=permit_id, account_id=held.id)
    return sum((e.amount for e in entries), ZERO)


def _deposit_leaving(
    uow: UnitOfWork, permit_id: int, amount: Decimal, what: str
) -> tuple[Municipality, _Ledger, GlAccount]:
    """The permit's street deposit about to leave the liability account (by the clerk's check
    or a Council retention), under the cashiering lock: the municipality, its ledger and the
    account. RuleViolation when the account holds less than `amount` for the permit (`what`:
    "to return", "retained")."""
    permit = _permit(uow, permit_id)
    uow.cash.lock(permit.municipality_id)
    muni = _municipality(uow, permit.municipality_id)
    ledger = _ledger(uow, muni)
    held = ledger.with_purpose(AccountPurpose.DEPOSITS_HELD)
    assert held.id is not None
    have = deposit_held(uow, permit_id)
    if amount > have:
        raise RuleViolation(
            f"{held.name} holds {format_money(have)} for {permit_label(permit)}, less than the "
            f"{format_money(amount)} {what}."
        )
    return muni, ledger, held


def return_deposit_within(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    permit_id: int,
    amount: Decimal,
    payee: str,
    check_number: str,
    check_date: date,
    reason: str,
    retained: Decimal = ZERO,
) -> int:
    """The clerk's check returning a street deposit (15.1.43), inside the caller's open unit of
    work (desk/services/sureties.py checks the engineer's order first). The money leaves the
    liability account, the refund goes with the next turnover like any other, and the amount
    returned is no longer charged on the permit. Returns the refund's id."""
    check_amount(amount)
    number = _check_refund_check(check_number, check_date)
    today, now = clock.today(), clock.now()
    _, _, held = _deposit_leaving(uow, permit_id, amount, "to return")
    row = _refund_out_of(
        uow,
        clock,
        actor,
        held,
        RefundGround.STREET_DEPOSIT,
        amount,
        number,
        check_date,
        payer_name=payee,
        reason=reason,
        section="15.1.43",
        kept=retained,
        permit_id=permit_id,
        code=DEPOSIT_CODE,
    )
    uow.cash.add(
        FeeAdjustment(
            permit_id=permit_id,
            code=DEPOSIT_CODE,
            description="Street deposit returned",
            amount=-amount,
            source=AdjustmentSource.REFUND,
            reason=reason,
            section="15.1.43",
            day=today,
            at=now,
            by_user_id=actor.user_id,
            refund_id=row.id,
        )
    )
    assert row.id is not None
    return row.id


def _shipped_account_added(
    uow: UnitOfWork, muni: Municipality, ledger: _Ledger, name: str
) -> GlAccount:
    """The account named `name` as resources/gl_accounts.toml ships it, added to a database
    whose accounts were loaded from an older file (the file is loaded only into a municipality
    that has no accounts yet, see _ledger)."""
    try:
        shipped = shipped_ledger(muni.ordinance).accounts
    except ValueError:
        shipped = ()
    wanted = next((a for a in shipped if a.name.casefold() == name.casefold()), None)
    if wanted is None or wanted.number in ledger.by_number:
        taken = f" and {wanted.number} is taken" if wanted is not None else ""
        raise RuleViolation(
            f"No GL account is named '{name}'{taken}; an administrator adds the account "
            "(Administration → GL accounts)."
        )
    assert muni.id is not None
    account = GlAccount(
        municipality_id=muni.id,
        number=wanted.number,
        name=wanted.name,
        kind=wanted.kind,
        purpose=wanted.purpose,
    )
    uow.cash.add(account)
    uow.flush()
    return account


def retain_deposit_within(
    uow: UnitOfWork, clock: Clock, permit_id: int, amount: Decimal, account_name: str
) -> str:
    """The Common Council keeps `amount` of a street deposit to pay the cost of completing the
    work (15.1.43): a transfer from the liability account to the account named `account_name`
    (resources/gl_accounts.toml ships it; added here to an older database that lacks it). No
    money leaves the treasury. Inside the caller's open unit of work; returns the account's
    number."""
    check_amount(amount)
    today, now = clock.today(), clock.now()
    muni, ledger, held = _deposit_leaving(uow, permit_id, amount, "retained")
    target = next(
        (a for a in ledger.by_id.values() if a.name.casefold() == account_name.casefold()), None
    )
    if target is None:
        target = _shipped_account_added(uow, muni, ledger, account_name)
    assert held.id is not None and target.id is not None
    for account_id, signed in ((held.id, -amount), (target.id, amount)):
        uow.cash.add(
            GlEntry(
                municipality_id=held.municipality_id,
                day=today,
                at=now,
                source=EntrySource.TRANSFER,
                account_id=account_id,
                amount=signed,
                code=DEPOSIT_CODE,
                permit_id=permit_id,
            )
        )
    return target.number
