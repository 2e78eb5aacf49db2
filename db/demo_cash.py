"""The demo register's money: fee lines assessed with the fee engine on each permit
taken in, the payments that paid them (cash, checks, cards and money orders; one check from a
contractor or an owner for the permits paid the same day), a few receipts voided and taken
again, one check returned unpaid and paid again by money order, refunds by the ordinances' rules
(applications withdrawn or denied; plumbing permits voided at the plumber's request, 15.1.42),
re-inspection fees added after issuance (15.1.21(a)(12)), a payer's credit kept and one paid
back, the daily close of every past office day with an over/short now and then, and the weekly
turnovers to the City Treasurer (15.1.34(b)(4)) acknowledged the next office day (one with a
difference found and resolved; the latest still awaiting the treasurer; the days since still
undeposited).

Planned in memory with its own seeded `random.Random` and the domain's arithmetic
(desk/domain/cashiering.py: payments split oldest line first, refunds newest first, the
withdrawal and 15.1.42 rules), then bulk-inserted by db/demo.py with the rest of the demo. Every
issued permit was paid in full on or before the day it was issued (15.1.21; §435-7). The money
rows are history loaded in bulk, as an office would import its cash book: each with the audit
row db/tracking.py writes for a new record (`audit_rows`), by no one, at the moment of the load
(the last moment of the history), so `permitdesk db check` finds the register agreeing with its
journal (db/journal_check.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, func, select

from db import schema
from db.database import Database
from db.numbering import set_at_least
from db.types import UTCDateTime
from desk import demo_data as dd
from desk.calendar import is_holiday
from desk.clock import FixedClock
from desk.domain.cashiering import (
    DRAWER_METHODS,
    ZERO,
    AccountPurpose,
    AdjustmentSource,
    Bucket,
    Charge,
    EntrySource,
    PaymentMethod,
    Portion,
    RefundGround,
    ReversalKind,
    SplitLine,
    WithdrawalPolicy,
    make_buckets,
    parse_settings,
    plumbing_void_refund,
    shipped_ledger,
    split_newest_first,
    split_oldest_first,
    withdrawal_refund,
)
from desk.domain.enums import NUMBERED_STATUSES, PartyKind, PartyRole, PermitStatus
from desk.domain.numbering import RECEIPT_SERIES, format_number
from desk.errors import ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest, price
from desk.fees.model import FeeSchedule, ScheduleVersion
from desk.services import cashiering as cash
from desk.services import fees as fee_services
from desk.services.cashiering import DEFAULT_DRAWER

OPEN = (PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED)
DROPPED = (PermitStatus.WITHDRAWN, PermitStatus.DENIED)
REINSPECTION = "REINSPECTION"
CLOSE_MINUTE = 16 * 60 + 50  # the drawer is counted at 4:50 p.m.
DELIVER_MINUTE = 17 * 60  # and the closed days taken to the treasurer on Friday at 5
LAST_VOIDABLE_MINUTE = 16 * 60
TABLES = (  # in the order their references allow (PostgreSQL checks them row by row)
    "permit_fee_line",
    "turnover",
    "daily_close",
    "payment",
    "payment_allocation",
    "payment_reversal",
    "refund",
    "fee_adjustment",
    "gl_entry",
    "payer_credit",
)
# How many in a thousand payments are voided; the smallest demo still shows two.
VOIDS_PER_THOUSAND = 4
MIN_VOIDS = 2


# --- what the services set up first ------------------------------------------------------


@dataclass(frozen=True)
class Ledger:
    """The municipality's GL accounts as the services imported them."""

    account_id: dict[str, int]  # by account number
    code_account: dict[str, str]  # fee item code → account number
    purpose: dict[str, AccountPurpose]  # by account number
    credits: str  # the credits-held account
    plumbing_clerical: Decimal | None  # 15.1.42's $10, where the municipality has the rule

    def account_of(self, code: str, fallback: str) -> tuple[str, AccountPurpose]:
        number = self.code_account.get(code) or (fallback.split()[0] if fallback else "")
        if number not in self.account_id:
            return "", AccountPurpose.NONE
        return number, self.purpose[number]


def prepare(
    database: Database, municipality_id: int, key: str, at: datetime
) -> tuple[FeeSchedule, Ledger]:
    """Import the shipped fee schedule and GL accounts through the services (as the office's
    first quote and first payment would), before the bulk rows go in."""
    clock = FixedClock(at)
    schedule = fee_services.fee_schedule(database.uow(), clock, municipality_id)
    rows = cash.gl_accounts(database.uow(), clock, municipality_id)
    settings = parse_settings(dict(shipped_ledger(key).settings))
    return schedule, Ledger(
        account_id={r.number: r.id for r in rows},
        code_account={code: r.number for r in rows for code in r.codes},
        purpose={r.number: r.purpose for r in rows},
        credits=next(r.number for r in rows if r.purpose is AccountPurpose.CREDITS_HELD),
        plumbing_clerical=settings.rules.plumbing_clerical,
    )


class CashIds:
    """Explicit ids after those in the database, per table."""

    def __init__(self, conn: Connection) -> None:
        self.last: dict[str, int] = {}
        for name in TABLES:
            table = schema.metadata.tables[name]
            self.last[name] = int(conn.execute(select(func.max(table.c.id))).scalar_one() or 0)

    def __call__(self, table: str) -> int:
        self.last[table] += 1
        return self.last[table]


# --- the plan --------------------------------------------------------------------------------


@dataclass
class _Permit:
    """One permit's money as the plan goes: its charges in order and what is paid per code."""

    permit_id: int
    charges: list[Charge] = field(default_factory=list)
    fallback: dict[str, str] = field(default_factory=dict)  # the schedule's account text
    paid: dict[tuple[str, Portion], Decimal] = field(default_factory=dict)

    @property
    def charged(self) -> Decimal:
        return sum((c.amount for c in self.charges), ZERO)


@dataclass
class _Payer:
    party_id: int
    name: str
    organization: bool


@dataclass
class _Group:
    """One payment: a payer, a day and a minute, the permits and each one's share."""

    day: date
    minute: int
    payer: _Payer
    shares: list[tuple[int, Decimal]]  # (plan index, amount)
    method: PaymentMethod = PaymentMethod.CASH
    extra: Decimal = ZERO  # paid beyond the shares: kept as the payer's credit
    void_reason: str = ""
    nsf_day: date | None = None
    id: int = 0
    number: str = ""
    check_number: str = ""
    bank: str = ""
    card: str = ""

    @property
    def amount(self) -> Decimal:
        return sum((a for _, a in self.shares), ZERO) + self.extra


@dataclass(order=True)
class _Event:
    day: date
    minute: int
    seq: int
    kind: str = field(compare=False)  # add, pay, void, nsf, refund, credit
    subject: Any = field(compare=False)


@dataclass
class CashPlan:
    rows: dict[str, list[dict[str, Any]]]
    receipts: dict[int, int]  # year → the last receipt number used
    payments: int = 0
    voids: int = 0
    returned: int = 0
    refunds: int = 0
    closes: int = 0
    turnovers: int = 0
    pending: int = 0

    def summary(self) -> str:
        if not self.payments:
            return ""
        return (
            f" Cashiering: {self.payments:,} receipts ({self.voids} voided, {self.returned} "
            f"check returned unpaid), {self.refunds} refunds, {self.closes:,} daily closes, "
            f"{self.turnovers:,} turnovers to the treasurer ({self.pending} awaiting "
            "acknowledgment)."
        )


def delivery_day(d: date) -> date:
    """The week's turnover: its last office day (Friday, or earlier before a holiday)."""
    friday = d + timedelta(days=4 - d.weekday())
    while friday > d and (friday.weekday() >= 5 or friday in dd.office_holidays(friday.year)):
        friday -= timedelta(days=1)
    return max(friday, d)


class _Planner:
    def __init__(
        self,
        seed: int,
        municipality: str,
        municipality_id: int,
        today: date,
        now_cap: datetime | None,
        schedule: FeeSchedule,
        ledger: Ledger,
        users: dict[str, int],
        ids: CashIds,
    ) -> None:
        self.rng = random.Random(seed * 7_919 + 5)  # its own stream: the permits stay as they were
        self.municipality = municipality
        self.mid = municipality_id
        self.today = today
        self.now_cap = now_cap
        self.schedule = schedule
        self.ledger = ledger
        self.users = users
        self.ids = ids
        self.rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
        self.permits: dict[int, _Permit] = {}  # by plan index
        self.index_of: dict[int, int] = {}  # permit id → plan index
        self.receipt_entries: dict[int, list[dict[str, Any]]] = {}  # payment id → its entries
        self.refund_check = 10_000  # the treasurer's refund checks run on from here
        self._offsets: dict[date, timedelta] = {}
        self._versions: dict[date, ScheduleVersion | None] = {}
        self._checkbooks: dict[int, int] = {}
        self._account_number = {v: k for k, v in ledger.account_id.items()}

    # --- time ----------------------------------------------------------------------------

    def at(self, d: date, minute: int) -> datetime:
        off = self._offsets.get(d)
        if off is None:
            off = self._offsets[d] = timedelta(hours=-dd.central_utc_offset_hours(d))
        t = datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(minutes=minute) + off
        return t if self.now_cap is None or t <= self.now_cap else self.now_cap

    def minute(self) -> int:
        return 8 * 60 + int(self.rng.random() * (8 * 60 + 10))

    def version(self, d: date) -> ScheduleVersion | None:
        if d not in self._versions:
            self._versions[d] = self.schedule.version_on(d)
        return self._versions[d]

    # --- fee lines ---------------------------------------------------------------------------

    def assess(self, index: int, row: dict[str, Any]) -> None:
        """The lines the intake form's fee request prices, on the day the application came in."""
        if row["status"] is PermitStatus.DRAFT:
            return
        work = dd.Work(row["description"], row["valuation"], row["areas"], row["dwelling_units"])
        request = dd.fee_request(self.municipality, row["kind"], work, self.rng)
        day: date = row["applied_on"]
        version = self.version(day)
        if request is None or version is None:
            return
        try:
            quote = price(version, request, is_holiday)
        except ValidationError:
            return
        state = _Permit(row["id"])
        entered = {q.code: q for q in request.items}
        for line in quote.lines:
            if line.amount <= 0:
                continue
            self.rows["permit_fee_line"].append(
                {
                    "id": self.ids("permit_fee_line"),
                    "permit_id": row["id"],
                    "version_id": version.id,
                    "code": line.code,
                    "description": line.description,
                    "section": line.section,
                    "base": line.base,
                    "admin": line.admin,
                    "amount": line.amount,
                    "gl_account": line.gl_account,
                    "deposit": line.deposit,
                    "note": line.note,
                    "request": _request(entered.get(line.code)),
                    "assessed_on": day,
                }
            )
            state.charges.append(Charge(line.code, Portion.FEE, line.amount, line.description))
            state.fallback.setdefault(line.code, line.gl_account)
        if state.charges:
            self.permits[index] = state
            self.index_of[row["id"]] = index

    def reinspection(self, day: date) -> tuple[Charge, str, str, int] | None:
        version = self.version(day)
        if version is None or version.item(REINSPECTION) is None or version.id is None:
            return None
        request = QuoteRequest(items=(QuoteItem(REINSPECTION, quantity=Decimal(1)),))
        line = price(version, request, is_holiday).lines[0]
        charge = Charge(line.code, Portion.FEE, line.amount, line.description)
        return charge, line.section, line.gl_account, version.id

    def add_reinspection(self, index: int, day: date) -> None:
        """15.1.21(a)(12): a re-inspection fee added after assessment, with its reason."""
        found = self.reinspection(day)
        if found is None:
            return
        charge, section, account, version_id = found
        state = self.permits[index]
        state.charges.append(charge)
        state.fallback.setdefault(charge.code, account)
        self.rows["fee_adjustment"].append(
            self.adjustment(
                state.permit_id,
                charge,
                AdjustmentSource.ADDED,
                "Work not ready at the scheduled inspection; re-inspection charged",
                day,
                self.at(day, 15 * 60),
                self.users["inspector"],
                section=section,
                version_id=version_id,
            )
        )

    def cancel(self, index: int, day: date, status: PermitStatus) -> None:
        """adjust_fee for each line of an application withdrawn or denied before it was paid."""
        state = self.permits[index]
        due: dict[str, Decimal] = {}
        names: dict[str, str] = {}
        for c in state.charges:
            due[c.code] = due.get(c.code, ZERO) + c.amount
            names.setdefault(c.code, c.description)
        what = "withdrawn" if status is PermitStatus.WITHDRAWN else "denied"
        for code, amount in due.items():
            if amount <= 0:
                continue
            charge = Charge(code, Portion.FEE, -amount, names[code])
            state.charges.append(charge)
            self.rows["fee_adjustment"].append(
                self.adjustment(
                    state.permit_id,
                    charge,
                    AdjustmentSource.ADJUSTED,
                    f"Application {what} before the fees were paid: nothing is owed",
                    day,
                    self.at(day, 13 * 60),
                    self.users["inspector"],
                )
            )

    def adjustment(
        self,
        permit_id: int,
        charge: Charge,
        source: AdjustmentSource,
        reason: str,
        day: date,
        at: datetime,
        by: int,
        *,
        section: str = "",
        version_id: int | None = None,
        refund_id: int | None = None,
    ) -> dict[str, Any]:
        return {
            "id": self.ids("fee_adjustment"),
            "permit_id": permit_id,
            "code": charge.code,
            "description": charge.description,
            "amount": charge.amount,
            "source": source,
            "reason": reason,
            "day": day,
            "at": at,
            "section": section,
            "portion": charge.portion,
            "note": "",
            "version_id": version_id,
            "by_user_id": by,
            "refund_id": refund_id,
            "reversal_id": None,
        }

    # --- the ledger ----------------------------------------------------------------------------

    def buckets(self, index: int) -> list[Bucket]:
        s = self.permits[index]
        return make_buckets(
            s.charges,
            s.paid,
            lambda code, _p: self.ledger.account_of(code, s.fallback.get(code, "")),
        )

    def split(self, index: int, amount: Decimal) -> list[SplitLine]:
        """split_oldest_first; a permit's first payment in full takes every line as it is (the
        same split, without building the buckets: most of a large demo's payments)."""
        state = self.permits[index]
        if not state.paid and amount == state.charged:
            merged: dict[str, Decimal] = {}
            for c in state.charges:
                if c.amount <= 0 or c.portion is not Portion.FEE:
                    break
                merged[c.code] = merged.get(c.code, ZERO) + c.amount
            else:
                out = []
                for code, due in merged.items():
                    account, _ = self.ledger.account_of(code, state.fallback.get(code, ""))
                    if not account:
                        break
                    out.append(SplitLine(code, Portion.FEE, account, due))
                else:
                    return out
        return split_oldest_first(amount, self.buckets(index))

    def entry(
        self, day: date, at: datetime, source: EntrySource, account: str, amount: Decimal, **kw: Any
    ) -> dict[str, Any]:
        row = {
            "id": self.ids("gl_entry"),
            "municipality_id": self.mid,
            "day": day,
            "at": at,
            "source": source,
            "account_id": self.ledger.account_id[account],
            "amount": amount,
            "code": "",
            "portion": Portion.FEE,
            "permit_id": None,
            "payment_id": None,
            "reversal_id": None,
            "refund_id": None,
        }
        row.update(kw)
        self.rows["gl_entry"].append(row)
        return row

    def credit_row(
        self, payer: _Payer, day: date, at: datetime, amount: Decimal, memo: str, **kw: Any
    ) -> None:
        row = {
            "id": self.ids("payer_credit"),
            "municipality_id": self.mid,
            "payer_key": cash.payer_key(payer.party_id, payer.name),
            "payer_name": payer.name,
            "amount": amount,
            "day": day,
            "at": at,
            "memo": memo,
            "party_id": payer.party_id,
            "payment_id": None,
            "reversal_id": None,
            "refund_id": None,
        }
        row.update(kw)
        self.rows["payer_credit"].append(row)

    def take(self, g: _Group) -> None:
        """take_payment: the receipt, its allocations, its split oldest line first."""
        at = self.at(g.day, g.minute)
        self.rows["payment"].append(
            {
                "id": g.id,
                "municipality_id": self.mid,
                "receipt_number": g.number,
                "received_at": at,
                "day": g.day,
                "payer_party_id": g.payer.party_id,
                "payer_name": g.payer.name,
                "method": g.method,
                "amount": g.amount,
                "credited": g.extra,
                "check_number": g.check_number,
                "check_drawer": g.payer.name if g.method is PaymentMethod.CHECK else "",
                "check_bank": g.bank,
                "card_reference": g.card,
                "clerk_id": self.users["clerk"],
                "drawer": DEFAULT_DRAWER,
                "close_id": None,
                "printed_count": dd.RECEIPT_PRINTED,
            }
        )
        entries = self.receipt_entries.setdefault(g.id, [])
        for index, amount in g.shares:
            state = self.permits[index]
            self.rows["payment_allocation"].append(
                {
                    "id": self.ids("payment_allocation"),
                    "payment_id": g.id,
                    "permit_id": state.permit_id,
                    "amount": amount,
                }
            )
            for s in self.split(index, amount):
                entries.append(
                    self.entry(
                        g.day,
                        at,
                        EntrySource.RECEIPT,
                        s.account,
                        s.amount,
                        code=s.code,
                        portion=s.portion,
                        permit_id=state.permit_id,
                        payment_id=g.id,
                    )
                )
                key = (s.code, s.portion)
                state.paid[key] = state.paid.get(key, ZERO) + s.amount
        if g.extra:
            entries.append(
                self.entry(
                    g.day, at, EntrySource.RECEIPT, self.ledger.credits, g.extra, payment_id=g.id
                )
            )
            self.credit_row(
                g.payer, g.day, at, g.extra, f"overpayment, receipt {g.number}", payment_id=g.id
            )

    def reverse(self, g: _Group, kind: ReversalKind, day: date, minute: int) -> None:
        """void_payment or return_nsf: new entries that undo the receipt's."""
        at = self.at(day, minute)
        if kind is ReversalKind.VOID:
            reason, notice, by = g.void_reason, "", self.users["clerk"]
        else:
            reason = f"check {g.check_number} returned unpaid"
            notice = dd.NSF_NOTICE.format(bank=g.bank, day=f"{day:%m/%d/%Y}")
            by = self.users["treasurer"]
        reversal = {
            "id": self.ids("payment_reversal"),
            "payment_id": g.id,
            "municipality_id": self.mid,
            "kind": kind,
            "day": day,
            "at": at,
            "reason": reason,
            "bank_notice": notice,
            "by_user_id": by,
            "turnover_id": None,
        }
        self.rows["payment_reversal"].append(reversal)
        source = EntrySource.VOID if kind is ReversalKind.VOID else EntrySource.NSF
        for e in self.receipt_entries[g.id]:
            self.entry(
                day,
                at,
                source,
                self._account_number[e["account_id"]],
                -e["amount"],
                code=e["code"],
                portion=e["portion"],
                permit_id=e["permit_id"],
                payment_id=g.id,
                reversal_id=reversal["id"],
            )
            if e["permit_id"] is not None:
                paid = self.permits[self.index_of[e["permit_id"]]].paid
                key = (e["code"], e["portion"])
                paid[key] = paid.get(key, ZERO) - e["amount"]
        if g.extra:
            self.credit_row(
                g.payer,
                day,
                at,
                -g.extra,
                f"{kind.value} of receipt {g.number}",
                payment_id=g.id,
                reversal_id=reversal["id"],
            )

    def refund_row(
        self,
        day: date,
        at: datetime,
        ground: RefundGround,
        amounts: tuple[Decimal, Decimal],
        words: tuple[str, str],
        payer: _Payer,
        permit_id: int | None,
    ) -> dict[str, Any]:
        self.refund_check += 1
        row = {
            "id": self.ids("refund"),
            "municipality_id": self.mid,
            "ground": ground,
            "amount": amounts[0],
            "kept": amounts[1],
            "reason": words[0],
            "section": words[1],
            "check_number": str(self.refund_check),
            "check_date": day,
            "day": day,
            "at": at,
            "payer_name": payer.name,
            "payer_party_id": payer.party_id,
            "permit_id": permit_id,
            "by_user_id": self.users["treasurer"],
            "turnover_id": None,
        }
        self.rows["refund"].append(row)
        return row

    def refund(self, index: int, day: date, ground: RefundGround, payer: _Payer) -> bool:
        """refund(): a permit's fees given back by its rule, by the treasurer's check; the fees
        given back are no longer charged."""
        buckets = self.buckets(index)
        held = AccountPurpose.DEPOSITS_HELD
        paid = sum((b.paid for b in buckets if b.purpose is not held), ZERO)
        if paid <= 0:
            return False
        if ground is RefundGround.PLUMBING_VOID:
            assert self.ledger.plumbing_clerical is not None
            decision = plumbing_void_refund(paid, (), self.ledger.plumbing_clerical)
        else:
            setting = "withdrawn_refund" if ground is RefundGround.WITHDRAWN else "denied_refund"
            decision = withdrawal_refund(ground, paid, WithdrawalPolicy(True), setting)
        if decision.amount <= 0:
            return False
        lines = split_newest_first(
            decision.amount, buckets, lambda b: ZERO if b.purpose is held else b.paid
        )
        at = self.at(day, 14 * 60 + int(self.rng.random() * 120))
        state = self.permits[index]
        row = self.refund_row(
            day,
            at,
            ground,
            (decision.amount, decision.kept),
            (decision.reason, decision.section),
            payer,
            state.permit_id,
        )
        names = {b.key: b.description for b in buckets}
        for s in lines:
            self.entry(
                day,
                at,
                EntrySource.REFUND,
                s.account,
                -s.amount,
                code=s.code,
                portion=s.portion,
                permit_id=state.permit_id,
                refund_id=row["id"],
            )
            key = (s.code, s.portion)
            state.paid[key] = state.paid.get(key, ZERO) - s.amount
            given = Charge(s.code, s.portion, -s.amount, names.get(key, s.code))
            state.charges.append(given)
            self.rows["fee_adjustment"].append(
                self.adjustment(
                    state.permit_id,
                    given,
                    AdjustmentSource.REFUND,
                    decision.reason,
                    day,
                    at,
                    self.users["treasurer"],
                    refund_id=row["id"],
                )
            )
        return True

    def refund_credit(self, g: _Group, day: date) -> None:
        """refund_credit(): the payer's credit paid back by check."""
        at = self.at(day, 14 * 60 + 30)
        row = self.refund_row(
            day,
            at,
            RefundGround.OVERPAYMENT,
            (g.extra, ZERO),
            (f"Credit on account refunded to {g.payer.name}.", ""),
            g.payer,
            None,
        )
        self.entry(day, at, EntrySource.REFUND, self.ledger.credits, -g.extra, refund_id=row["id"])
        self.credit_row(
            g.payer,
            day,
            at,
            -g.extra,
            f"refunded by check {row['check_number']}",
            refund_id=row["id"],
        )

    # --- tenders -------------------------------------------------------------------------------

    def tender(self, g: _Group) -> None:
        r = self.rng.random()
        if g.payer.organization:  # contractors pay by check, a few by card or money order
            g.method = (
                PaymentMethod.CHECK
                if r < 0.85
                else PaymentMethod.CARD
                if r < 0.95
                else PaymentMethod.MONEY_ORDER
            )
        else:
            g.method = (
                PaymentMethod.CHECK
                if r < 0.45
                else PaymentMethod.CASH
                if r < 0.65
                else PaymentMethod.CARD
                if r < 0.95
                else PaymentMethod.MONEY_ORDER
            )
        self.fill_tender(g)

    def fill_tender(self, g: _Group) -> None:
        g.check_number = g.bank = g.card = ""
        if g.method is PaymentMethod.CHECK:
            if g.payer.organization:  # a checkbook that runs on
                number = self._checkbooks.get(g.payer.party_id) or self.rng.randint(1_001, 8_000)
                self._checkbooks[g.payer.party_id] = number + 1
            else:
                number = self.rng.randint(101, 9_999)
            g.check_number = str(number)
            g.bank = dd.BANKS[g.payer.party_id % len(dd.BANKS)]
        elif g.method is PaymentMethod.MONEY_ORDER:
            g.check_number = str(self.rng.randint(10**9, 10**10 - 1))
        elif g.method is PaymentMethod.CARD:
            g.card = f"AUTH {self.rng.randint(100_000, 999_999)}"


def _request(q: QuoteItem | None) -> dict[str, Any]:
    """What was entered, as assess_fees stores it."""
    if q is None:
        return {}
    return {
        k: (str(v) if v is not None and not isinstance(v, int) else v)
        for k, v in vars(q).items()
        if v is not None and k != "code"
    }


def _payer(roles: Sequence[tuple[PartyRole, int]], parties: dict[int, dict[str, Any]]) -> _Payer:
    """Who pays at the counter: the applicant (the contractor who applied, or the owner)."""
    pid = next((p for role, p in roles if role is PartyRole.APPLICANT), roles[0][1])
    party = parties[pid]
    return _Payer(pid, party["name"], party["kind"] is PartyKind.ORGANIZATION)


def plan_cash(
    *,
    seed: int,
    municipality: str,
    municipality_id: int,
    today: date,
    now_cap: datetime | None,
    schedule: FeeSchedule,
    ledger: Ledger,
    users: dict[str, int],
    ids: CashIds,
    permits: Sequence[dict[str, Any]],
    roles: Sequence[Sequence[tuple[PartyRole, int]]],
    parties: Sequence[dict[str, Any]],
) -> CashPlan:
    p = _Planner(seed, municipality, municipality_id, today, now_cap, schedule, ledger, users, ids)
    rng = p.rng
    for index, row in enumerate(permits):
        p.assess(index, row)
    party_by_id = {x["id"]: x for x in parties}
    payers = {i: _payer(roles[i], party_by_id) for i in p.permits}

    # What each permit's payer pays, when; what is added, refunded.
    intents: dict[tuple[date, int], list[tuple[int, int, Decimal]]] = {}
    events: list[_Event] = []
    seq = 0

    def event(day: date, minute: int, kind: str, subject: Any) -> None:
        nonlocal seq
        seq += 1
        events.append(_Event(day, minute, seq, kind, subject))

    def intend(day: date, index: int, amount: Decimal) -> None:
        key = (day, payers[index].party_id)
        intents.setdefault(key, []).append((p.minute(), index, amount))

    for index, state in p.permits.items():
        row = permits[index]
        status: PermitStatus = row["status"]
        applied: date = row["applied_on"]
        total = state.charged
        r = rng.random()
        if status in NUMBERED_STATUSES:
            issued: date = row["issued_on"]
            intend(applied if r < 0.6 or issued > today else issued, index, total)
        elif status in OPEN:
            if r < 0.45:
                intend(applied, index, total)
            elif r < 0.55 and total >= 2:
                intend(applied, index, (total / 2).quantize(Decimal("1")).quantize(Decimal("0.01")))
        elif status in DROPPED and r >= 0.5:
            # Never paid: the fees are cancelled, so the application owes nothing.
            when = min(dd.next_office_day(max(row["status_date"], applied)), today)
            event(when, 13 * 60, "cancel", index)
        elif status in DROPPED:
            intend(applied, index, total)
            when = dd.next_office_day(max(row["status_date"], applied + timedelta(days=1)))
            if when <= today:
                ground = (
                    RefundGround.WITHDRAWN
                    if status is PermitStatus.WITHDRAWN
                    else RefundGround.DENIED
                )
                event(when, 14 * 60, "refund", (index, ground))
        if (
            status is PermitStatus.VOID
            and row["kind"] == "PLUMBING"
            and ledger.plumbing_clerical is not None
        ):
            when = dd.next_office_day(row["status_date"] + timedelta(days=1))
            if when <= today:  # voided at the plumber's request, before any inspection
                event(when, 14 * 60, "refund", (index, RefundGround.PLUMBING_VOID))
        commenced = row.get("commenced_on")
        if (
            status in (PermitStatus.WORK_STARTED, PermitStatus.COMPLETED)
            and commenced is not None
            and rng.random() < 0.03
        ):
            added = dd.next_office_day(commenced + timedelta(days=rng.randint(3, 20)))
            until = row.get("completed_on") or today
            if added <= min(until, today) and p.reinspection(added) is not None:
                event(added, 15 * 60, "add", index)
                paid_on = dd.next_office_day(added + timedelta(days=rng.randint(5, 25)))
                fee = p.reinspection(added)
                if paid_on <= today and fee is not None:
                    intend(paid_on, index, fee[0].amount)

    # One payment per payer and day: a contractor's one check for its permits.
    groups: list[_Group] = []
    for (day, _payer_id), items in sorted(intents.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        items.sort()
        first = items[0][1]
        g = _Group(day, items[0][0], payers[first], [(i, a) for _, i, a in items])
        p.tender(g)
        if not g.payer.organization and g.method is PaymentMethod.CHECK and rng.random() < 0.02:
            g.extra = Decimal(rng.choice((5, 10, 20, 25)))  # the check was written for more
        groups.append(g)

    # A few receipts voided the same day and taken again; one check returned unpaid.
    n_voids = max(MIN_VOIDS if len(groups) >= 100 else 0, len(groups) * VOIDS_PER_THOUSAND // 1000)
    voidable = [i for i, g in enumerate(groups) if g.minute <= LAST_VOIDABLE_MINUTE and not g.extra]
    again: list[_Group] = []
    for i in sorted(rng.sample(voidable, min(n_voids, len(voidable)))):
        g = groups[i]
        reason = {
            PaymentMethod.CARD: dd.VOID_REASONS[2],
            PaymentMethod.CHECK: dd.VOID_REASONS[1],
        }.get(g.method, dd.VOID_REASONS[0])
        g.void_reason = reason
        event(g.day, g.minute + 12, "void", g)
        retake = _Group(g.day, g.minute + 20, g.payer, list(g.shares), g.method)
        if g.method is PaymentMethod.CARD:
            retake.method = PaymentMethod.CASH
        p.fill_tender(retake)
        again.append(retake)
    groups += again
    returned = [
        g
        for g in groups
        if g.method is PaymentMethod.CHECK
        and not g.void_reason
        and not g.extra
        and not g.payer.organization
        and timedelta(days=45) <= today - g.day <= timedelta(days=120)
    ]
    if returned:
        g = rng.choice(returned)
        g.nsf_day = dd.next_office_day(delivery_day(g.day) + timedelta(days=6))
        repaid = dd.next_office_day(g.nsf_day + timedelta(days=3))
        if g.nsf_day < today and repaid <= today:
            event(g.nsf_day, 10 * 60, "nsf", g)
            money_order = _Group(repaid, p.minute(), g.payer, list(g.shares))
            money_order.method = PaymentMethod.MONEY_ORDER
            p.fill_tender(money_order)
            groups.append(money_order)
        else:
            g.nsf_day = None
    credits = [g for g in groups if g.extra]
    if credits:  # one payer's credit paid back by check a month later
        g = credits[0]
        when = dd.next_office_day(g.day + timedelta(days=30))
        if when <= today:
            event(when, 14 * 60 + 30, "credit", g)

    # Receipts numbered in the order taken, per year (gapless, 15.1.6(c)'s rule for receipts).
    groups.sort(key=lambda g: (g.day, g.minute))
    last: dict[int, int] = {}
    for g in groups:
        g.id = p.ids("payment")
        last[g.day.year] = last.get(g.day.year, 0) + 1
        g.number = format_number(g.day.year, last[g.day.year])
        event(g.day, g.minute, "pay", g)

    # Everything in the order it happened, each step on the permits' balances of that moment.
    plan = CashPlan(p.rows, last)
    for e in sorted(events):
        if e.kind == "pay":
            p.take(e.subject)
        elif e.kind == "add":
            p.add_reinspection(e.subject, e.day)
        elif e.kind == "cancel":
            p.cancel(e.subject, e.day, permits[e.subject]["status"])
        elif e.kind == "void":
            p.reverse(e.subject, ReversalKind.VOID, e.day, e.minute)
        elif e.kind == "nsf":
            p.reverse(e.subject, ReversalKind.NSF, e.day, e.minute)
        elif e.kind == "refund":
            index, ground = e.subject
            plan.refunds += p.refund(index, e.day, ground, payers[index])
        elif e.kind == "credit":
            p.refund_credit(e.subject, e.day)
            plan.refunds += 1
    plan.payments = len(groups)
    plan.voids = sum(1 for g in groups if g.void_reason)
    plan.returned = sum(1 for g in groups if g.nsf_day is not None)
    _close_days(p, groups, plan)
    _turn_over(p, plan)
    return plan


def _close_days(p: _Planner, groups: list[_Group], plan: CashPlan) -> None:
    """The daily close of every past day with receipts: expected by method against counted,
    now and then a few dollars over or short with the clerk's explanation."""
    rng = p.rng
    by_day: dict[date, list[_Group]] = {}
    for g in groups:
        if g.day < p.today:  # today's drawer is still open
            by_day.setdefault(g.day, []).append(g)
    payment_rows = {r["id"]: r for r in p.rows["payment"]}
    for day in sorted(by_day):
        expected = {m: ZERO for m in DRAWER_METHODS}
        for g in by_day[day]:
            if not g.void_reason:
                expected[g.method] += g.amount
        counted = dict(expected)
        explanation = ""
        r = rng.random()
        if r < 0.03 and expected[PaymentMethod.CASH] >= 20:
            diff = Decimal(rng.choice((1, 5, 10, 20)))
            counted[PaymentMethod.CASH] -= diff
            explanation = rng.choice(dd.SHORT_REASONS)
        elif r < 0.045 and expected[PaymentMethod.CASH] > 0:
            counted[PaymentMethod.CASH] += Decimal(rng.choice((1, 2, 5)))
            explanation = rng.choice(dd.OVER_REASONS)
        close_id = p.ids("daily_close")
        row: dict[str, Any] = {
            "id": close_id,
            "municipality_id": p.mid,
            "drawer": DEFAULT_DRAWER,
            "day": day,
        }
        row |= {f"expected_{m.value}": expected[m] for m in DRAWER_METHODS}
        row |= {f"counted_{m.value}": counted[m] for m in DRAWER_METHODS}
        row |= {
            "over_short": sum(counted.values(), ZERO) - sum(expected.values(), ZERO),
            "explanation": explanation,
            "closed_by_id": p.users["clerk"],
            "closed_at": p.at(day, CLOSE_MINUTE),
            "turnover_id": None,
        }
        p.rows["daily_close"].append(row)
        for g in by_day[day]:
            payment_rows[g.id]["close_id"] = close_id
    plan.closes = len(p.rows["daily_close"])


def _turn_over(p: _Planner, plan: CashPlan) -> None:
    """Each week's closed days, returned checks and refunds delivered to the treasurer on its
    last office day and acknowledged the next office day with the bank deposit reference."""
    closes = p.rows["daily_close"]
    reversals = [r for r in p.rows["payment_reversal"] if r["kind"] is ReversalKind.NSF]
    refunds = p.rows["refund"]
    amounts = {r["id"]: r["amount"] for r in p.rows["payment"]}
    weeks = sorted({delivery_day(x["day"]) for x in (*closes, *reversals, *refunds)} - {p.today})
    weeks = [d for d in weeks if d < p.today]
    pending: list[dict[str, Any]] = []
    done: list[dict[str, Any]] = []
    for n, d in enumerate(weeks):
        mine = [c for c in closes if c["turnover_id"] is None and c["day"] <= d]
        nsf = [r for r in reversals if r["turnover_id"] is None and r["day"] <= d]
        out = [r for r in refunds if r["turnover_id"] is None and r["day"] <= d]
        if not (mine or nsf or out):
            continue
        expected = sum((c[f"expected_{m.value}"] for c in mine for m in DRAWER_METHODS), ZERO)
        counted = sum((c[f"counted_{m.value}"] for c in mine for m in DRAWER_METHODS), ZERO)
        returned = sum((amounts[r["payment_id"]] for r in nsf), ZERO)
        turnover_id = p.ids("turnover")
        row: dict[str, Any] = {
            "id": turnover_id,
            "municipality_id": p.mid,
            "delivered_on": d,
            "delivered_at": p.at(d, DELIVER_MINUTE),
            "delivered_by_id": p.users["clerk"],
            "amount": expected - returned - sum((r["amount"] for r in out), ZERO),
            "cash_delivered": counted,
            "acknowledged_on": None,
            "acknowledged_at": None,
            "acknowledged_by_id": None,
            "deposit_ref": "",
            "deposited": None,
            "difference": None,
            "resolved_at": None,
            "resolved_by_id": None,
            "resolution": "",
        }
        for x in (*mine, *nsf, *out):
            x["turnover_id"] = turnover_id
        p.rows["turnover"].append(row)
        if n == len(weeks) - 1:
            pending.append(row)  # the latest is still on the treasurer's desk
            continue
        on = dd.next_office_day(d + timedelta(days=1))
        if on > p.today:
            pending.append(row)
            continue
        row |= {
            "acknowledged_on": on,
            "acknowledged_at": p.at(on, 10 * 60),
            "acknowledged_by_id": p.users["treasurer"],
            "deposit_ref": f"{on:%y%m%d}-{turnover_id % 100:02d}",  # the deposit slip's number
            "deposited": counted,
            "difference": counted - counted,
        }
        done.append(row)
    # One deposit the bank counted $20.00 short, found and resolved (flagged until then).
    middle = [t for t in done if t["cash_delivered"] >= 100]
    if middle:
        t = middle[len(middle) // 2]
        t["deposited"] = t["cash_delivered"] - 20
        t["difference"] = Decimal("-20.00")
        resolved = dd.next_office_day(t["acknowledged_on"] + timedelta(days=2))
        if resolved <= p.today:
            t["resolved_at"] = p.at(resolved, 11 * 60)
            t["resolved_by_id"] = p.users["treasurer"]
            t["resolution"] = dd.DIFFERENCE_RESOLUTION.format(day=f"{resolved:%m/%d/%Y}")
    plan.turnovers = len(p.rows["turnover"])
    plan.pending = len(pending)


def audit_rows(rows: dict[str, list[dict[str, Any]]], at: datetime) -> list[dict[str, Any]]:
    """The "create" audit row of each money row, as db.tracking writes one for a new record
    (every non-empty field, in the mapped class's order, rendered by audit_text), table by table
    in TABLES order, at `at` by no one (a bulk load). The changes come encoded ("changes_json",
    as audit_chain.encoded_changes makes them): hundreds of thousands of rows in a large demo."""
    from json.encoder import encode_basestring_ascii as quoted

    from sqlalchemy.orm import Mapper, class_mapper

    from db.orm import start_mappers
    from db.tracking import ENTITY_NAMES, audit_text

    start_mappers()
    mapped = {}
    for cls, entity in ENTITY_NAMES.items():
        mapper: Mapper[Any] = class_mapper(cls)
        name = mapper.local_table.name  # type: ignore[attr-defined]
        if name in TABLES:
            keys = [(a.key, a.columns[0].name) for a in mapper.column_attrs]
            # Each change as encoded_changes writes it: keys sorted, compact, ASCII.
            starts = [(f'{{"field":{quoted(k)},"new":', c) for k, c in keys]
            skipped = ('{"field":"id","new":', '{"field":"version","new":')
            mapped[name] = (entity, [(s, c) for s, c in starts if s not in skipped])
    # audit_text's own results for the commonest types, without its chain of isinstance.
    plain: dict[type, Any] = {str: str, int: str, bool: str}
    out = []
    for name in TABLES:
        entity, keys = mapped[name]
        for row in rows[name]:
            changes = []
            for start, column in keys:
                value = row.get(column)
                kind = type(value)
                if value is None or (kind in (str, list, dict) and not value):
                    continue  # db.tracking leaves out a new record's empty values
                text = plain.get(kind, audit_text)(value)
                changes.append(f'{start}{quoted(text)},"old":null}}')
            out.append(
                {
                    "at": at,
                    "user_id": None,
                    "entity": entity,
                    "entity_id": row["id"],
                    "permit_id": row.get("permit_id"),
                    "action": "create",
                    "changes_json": f"[{','.join(changes)}]",
                }
            )
    return out


def last_moment(rows: dict[str, list[dict[str, Any]]]) -> datetime | None:
    """The latest time any money row holds (a receipt, a close, an acknowledgment...)."""
    latest: datetime | None = None
    for name in TABLES:
        table = schema.metadata.tables[name]
        times = [c.name for c in table.columns if isinstance(c.type, UTCDateTime)]
        for row in rows[name]:
            for column in times:
                t = row.get(column)
                if t is not None and (latest is None or t > latest):
                    latest = t
    return latest


def set_receipt_counters(conn: Connection, municipality_id: int, plan: CashPlan) -> None:
    """New receipts continue the demo's sequence of each year."""
    for year, value in sorted(plan.receipts.items()):
        set_at_least(conn, municipality_id, RECEIPT_SERIES, year, value)
