"""The Treasurer section, Qt-free: the daily close per drawer, turnovers to the City
Treasurer (15.1.34(b)(4)) with their acknowledgment, the reconciliation of a period, refunds by
the ordinance's rules, returned checks, and payers' credits.

Each page is a small presenter over a TreasuryBackend (SqlTreasury in ui/views/treasurer.py):
it parses what was typed, names the field when it cannot, and shows the services' figures."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Protocol

from db import cash_queries, queries
from db.cash_queries import (
    CloseRow,
    CreditRow,
    DailyCash,
    Deductions,
    DrawerCash,
    PayablePermit,
    ReceiptRow,
    TurnoverRow,
)
from db.database import Database
from desk.clock import Clock
from desk.domain.cashiering import (
    ACCOUNT_LINE_HEADINGS,
    DRAWER_METHODS,
    ZERO,
    AccountLine,
    InspectionMade,
    MethodTotals,
    PaymentMethod,
    Reconciliation,
    RefundDecision,
    RefundGround,
    Transmittal,
    inspections_made_text,
)
from desk.errors import ValidationError
from desk.money import format_money, parse_money
from desk.services import cashiering
from desk.services.cashiering import DEFAULT_DRAWER, RefundInput, RefundResult
from desk.services.uow import UnitOfWork
from desk.text import sentence_start
from ui.presenters.formatting import EMPTY, count_of, format_date, format_timestamp
from ui.presenters.session import Session


class TreasuryBackend(Protocol):
    def daily_cash(self, day: date) -> DailyCash: ...

    def drawers(self) -> list[str]: ...

    def close_day(self, drawer: str, day: date, counted: MethodTotals, explanation: str) -> int: ...

    def open_closes(self) -> list[CloseRow]: ...

    def deductions(self) -> Deductions: ...

    def turnovers(self) -> list[TurnoverRow]: ...

    def create_turnover(self, close_ids: list[int]) -> int: ...

    def acknowledge(
        self, turnover_id: int, on: date, reference: str, deposited: Decimal
    ) -> Decimal: ...

    def resolve(self, turnover_id: int, resolution: str) -> None: ...

    def delivered_by_me(self, turnover_id: int) -> bool: ...

    def transmittal(self, turnover_id: int) -> Transmittal: ...

    def reconciliation(self, start: date, end: date) -> Reconciliation: ...

    def receipt(self, number: str) -> ReceiptRow | None: ...

    def return_nsf(self, payment_id: int, notice: str) -> None: ...

    def permit(self, number: str) -> PayablePermit | None: ...

    def inspections_made(self, permit_id: int) -> tuple[InspectionMade, ...]: ...

    def refund_grounds(self) -> tuple[RefundGround, ...]: ...

    def refund_quote(
        self, permit_id: int, ground: RefundGround, filed_on: date | None
    ) -> RefundDecision: ...

    def refund(self, r: RefundInput) -> RefundResult: ...

    def credits(self) -> list[CreditRow]: ...

    def refund_credit(
        self, credit: CreditRow, amount: Decimal, check_number: str, check_date: date
    ) -> int: ...


def signed(amount: Decimal) -> str:
    """Over/short as the office writes it: '+$2.00' over, '−$5.00' short."""
    if amount > 0:
        return f"+{format_money(amount)}"
    if amount < 0:
        return f"−{format_money(-amount)}"
    return format_money(amount)


# --- the daily close ---------------------------------------------------------------------------

CLOSE_COLUMNS = ("Method", "Receipts", "Voids", "Expected", "Counted", "Over / short")


@dataclass
class DailyClosePresenter:
    backend: TreasuryBackend
    today: date
    day: date
    drawer: str = DEFAULT_DRAWER
    report: DailyCash | None = None
    counted_text: dict[PaymentMethod, str] = field(default_factory=dict)
    explanation: str = ""

    def load(self) -> None:
        self.report = self.backend.daily_cash(self.day)
        d = self.drawer_cash
        if d.counted is not None:
            self.counted_text = {m: f"{d.counted.get(m):,.2f}" for m in DRAWER_METHODS}
            self.explanation = d.explanation
        else:
            self.counted_text = {}
            self.explanation = ""

    def drawer_names(self) -> list[str]:
        names = self.backend.drawers()
        if self.report is not None:
            names += [d.drawer for d in self.report.drawers if d.drawer not in names]
        return names

    @property
    def drawer_cash(self) -> DrawerCash:
        assert self.report is not None
        for d in self.report.drawers:
            if d.drawer == self.drawer:
                return d
        empty = MethodTotals()
        return DrawerCash(
            self.drawer, (), empty, empty, empty, None, None, "", None, "", None, None
        )

    @property
    def closed(self) -> bool:
        return self.report is not None and self.drawer_cash.closed

    def counted(self) -> MethodTotals:
        """What was typed; an empty field counts $0.00. A ValidationError names the field."""
        values: dict[PaymentMethod, Decimal] = {}
        for m in DRAWER_METHODS:
            text = self.counted_text.get(m, "").strip()
            values[m] = parse_money(text, f"counted {m.label.lower()}") if text else ZERO
        return MethodTotals.of(values)

    def rows(self) -> list[tuple[str, ...]]:
        d = self.drawer_cash
        try:
            counted: MethodTotals | None = d.counted or self.counted()
        except ValidationError:
            counted = None
        out: list[tuple[str, ...]] = []
        for m in DRAWER_METHODS:
            c = counted.get(m) if counted is not None else None
            out.append(
                (
                    m.label,
                    format_money(d.gross.get(m)),
                    format_money(d.voids.get(m)),
                    format_money(d.expected.get(m)),
                    format_money(c) if c is not None else "",
                    signed(c - d.expected.get(m)) if c is not None else "",
                )
            )
        return out

    def totals(self) -> tuple[str, ...]:
        d = self.drawer_cash
        try:
            counted: MethodTotals | None = d.counted or self.counted()
        except ValidationError:
            counted = None
        return (
            "Total",
            format_money(d.gross.total),
            format_money(d.voids.total),
            format_money(d.expected.total),
            format_money(counted.total) if counted is not None else "",
            signed(counted.total - d.expected.total) if counted is not None else "",
        )

    @property
    def state(self) -> str:
        d = self.drawer_cash
        receipts = count_of(d.receipt_count, "receipt") + (
            f" ({d.void_count} voided)" if d.void_count else ""
        )
        if not d.closed:
            if self.day > self.today:
                return "This day has not come yet."
            return f"Drawer {d.drawer}, {format_date(self.day)}: open, {receipts}."
        when = f" {format_timestamp(d.closed_at)}" if d.closed_at else ""
        by = f" by {d.closed_by}" if d.closed_by else ""
        turned = f"; in turnover #{d.turnover_id}" if d.turnover_id else "; not yet turned over"
        return f"Drawer {d.drawer}, {format_date(self.day)}: closed{when}{by}, {receipts}{turned}."

    @property
    def preview(self) -> str:
        """The over/short before the close, in words."""
        if self.closed:
            d = self.drawer_cash
            if not d.over_short:
                return "The count matched what was expected."
            word = "over" if (d.over_short or 0) > 0 else "short"
            return f"{format_money(abs(d.over_short or ZERO))} {word}: {d.explanation}"
        try:
            counted = self.counted()
        except ValidationError as e:
            return str(e)
        expected = self.drawer_cash.expected.total
        diff = counted.total - expected
        text = f"Counted {format_money(counted.total)} of {format_money(expected)} expected"
        if diff == 0:
            return text + ": even."
        word = "over" if diff > 0 else "short"
        return f"{text}: {format_money(abs(diff))} {word} — explain the difference."

    @property
    def close_refusal(self) -> str | None:
        """Why Close day is greyed for this day and drawer (None when it may be closed)."""
        if self.report is None:
            return "The day is being read."
        if self.closed:
            return f"The drawer {self.drawer} is already closed for {format_date(self.day)}."
        if self.day > self.today:
            return "This day has not come yet."
        return None

    def close(self) -> int:
        close_id = self.backend.close_day(self.drawer, self.day, self.counted(), self.explanation)
        self.load()
        return close_id

    def closed_message(self, treasurer: bool) -> str:
        """What the close did. The treasurer's own close puts the money in her custody at once
        (15.1.34(b)(4); cashiering.close_day): she is told nothing waits for acknowledgment."""
        text = f"The drawer {self.drawer} is closed for {format_date(self.day)}."
        turnover = self.drawer_cash.turnover_id if self.report is not None else None
        if treasurer and turnover:
            text += (
                f" The money is in your custody: turnover #{turnover} is delivered and "
                "acknowledged by you; nothing waits for acknowledgment."
            )
        return text


# --- turnovers -----------------------------------------------------------------------------

OPEN_CLOSE_COLUMNS = ("Day", "Drawer", "Expected", "Counted", "Over / short", "Explanation")
TURNOVER_COLUMNS = (
    "#",
    "Delivered",
    "By",
    "Days",
    "Book amount",
    "Money delivered",
    "Acknowledged",
    "Deposit ref.",
    "Deposited",
    "Difference",
    "State",
)


# Who delivered the money does not acknowledge it (cashiering.acknowledge_turnover).
SELF_ACKNOWLEDGMENT = "You delivered this turnover; another person (the treasurer) acknowledges it."


@dataclass
class TurnoversPresenter:
    backend: TreasuryBackend
    today: date
    open_closes: list[CloseRow] = field(default_factory=list)
    selected: set[int] = field(default_factory=set)
    deductions: Deductions = field(default_factory=lambda: Deductions(0, ZERO, 0, ZERO))
    turnovers: list[TurnoverRow] = field(default_factory=list)

    def load(self) -> None:
        self.open_closes = self.backend.open_closes()
        # Every closed day is chosen until the clerk unticks one.
        self.selected = {c.close_id for c in self.open_closes}
        self.deductions = self.backend.deductions()
        self.turnovers = self.backend.turnovers()

    @staticmethod
    def close_cells(c: CloseRow) -> tuple[str, ...]:
        return (
            format_date(c.day),
            c.drawer,
            format_money(c.expected),
            format_money(c.counted),
            signed(c.over_short),
            c.explanation or EMPTY,
        )

    @staticmethod
    def turnover_cells(t: TurnoverRow) -> tuple[str, ...]:
        state = {
            "pending": "Awaiting the treasurer",
            "difference": "Difference flagged",
            "acknowledged": "Acknowledged" + (" (difference resolved)" if t.difference else ""),
        }[t.state]
        return (
            str(t.turnover_id),
            format_date(t.delivered_on),
            t.delivered_by or EMPTY,
            str(t.days),
            format_money(t.amount),
            format_money(t.cash_delivered),
            format_date(t.acknowledged_on) or EMPTY,
            t.deposit_ref or EMPTY,
            format_money(t.deposited) if t.deposited is not None else EMPTY,
            signed(t.difference) if t.difference else EMPTY,
            state,
        )

    def toggle(self, close_id: int, on: bool) -> None:
        if on:
            self.selected.add(close_id)
        else:
            self.selected.discard(close_id)

    @property
    def chosen(self) -> list[CloseRow]:
        return [c for c in self.open_closes if c.close_id in self.selected]

    @property
    def summary(self) -> str:
        chosen = self.chosen
        expected = sum((c.expected for c in chosen), ZERO)
        counted = sum((c.counted for c in chosen), ZERO)
        d = self.deductions
        text = (
            f"{count_of(len(chosen), 'closed day')} chosen: {format_money(expected)} collected, "
            f"{format_money(counted)} counted"
        )
        parts = []
        if d.returned_count:
            parts.append(
                f"{count_of(d.returned_count, 'returned check')} {format_money(d.returned)}"
            )
        if d.refund_count:
            parts.append(f"{count_of(d.refund_count, 'refund')} {format_money(d.refunds)}")
        if parts:
            text += (
                f"; deducted: {', '.join(parts)}; book amount {format_money(expected - d.total)}"
            )
        return text + "."

    def create(self) -> int:
        turnover_id = self.backend.create_turnover(sorted(self.selected))
        self.load()
        return turnover_id

    def turnover(self, turnover_id: int) -> TurnoverRow | None:
        return next((t for t in self.turnovers if t.turnover_id == turnover_id), None)

    def acknowledge_refusal(self, turnover_id: int) -> str:
        """Why the signed-in user cannot acknowledge the turnover, said before the form is
        filled in; '' when they can. The service refuses it again on submit."""
        t = self.turnover(turnover_id)
        if t is None or t.acknowledged_on is not None:
            return ""
        if self.backend.delivered_by_me(turnover_id):
            return SELF_ACKNOWLEDGMENT
        return ""

    def acknowledge_reason(self, turnover_id: int | None) -> str | None:
        """Why Acknowledge is greyed for the chosen turnover (None when it may be used)."""
        t = self.turnover(turnover_id) if turnover_id is not None else None
        if t is None:
            return "Choose a turnover."
        if t.acknowledged_on is not None:
            by = f" by {t.acknowledged_by}" if t.acknowledged_by else ""
            return (
                f"Turnover #{t.turnover_id} was acknowledged on "
                f"{format_date(t.acknowledged_on)}{by}."
            )
        return self.acknowledge_refusal(t.turnover_id) or None

    def resolve_reason(self, turnover_id: int | None) -> str | None:
        """Why Resolve difference is greyed (None when the chosen turnover has one open)."""
        t = self.turnover(turnover_id) if turnover_id is not None else None
        if t is None:
            return "Choose a turnover."
        if not t.flagged:
            return f"Turnover #{t.turnover_id} has no open difference to resolve."
        return None

    def acknowledge(self, turnover_id: int, on: date, reference: str, deposited_text: str) -> str:
        deposited = parse_money(deposited_text, "amount deposited")
        difference = self.backend.acknowledge(turnover_id, on, reference, deposited)
        self.load()
        if difference:
            return (
                f"Turnover #{turnover_id} is acknowledged with a difference of "
                f"{signed(difference)}; it stays flagged until the difference is resolved."
            )
        return f"Turnover #{turnover_id} is acknowledged: deposit {reference.strip()}."

    def resolve(self, turnover_id: int, resolution: str) -> None:
        self.backend.resolve(turnover_id, resolution)
        self.load()


# --- the reconciliation --------------------------------------------------------------------

ACCOUNT_COLUMNS = ACCOUNT_LINE_HEADINGS  # as the reconciliation's PDF and workbook list them


@dataclass
class ReconciliationPresenter:
    backend: TreasuryBackend
    start: date
    end: date
    result: Reconciliation | None = None

    def load(self) -> None:
        self.result = self.backend.reconciliation(self.start, self.end)

    def proof(self) -> list[tuple[str, str, bool]]:
        """(label, amount, is a total) — the identity the treasurer proves."""
        r = self.result
        if r is None:
            return []
        return [
            ("Receipts", format_money(r.receipts), False),
            ("− Voids", format_money(r.voids), False),
            ("− Returned checks (NSF)", format_money(r.nsf), False),
            ("− Refunds", format_money(r.refunds), False),
            ("= Net collections", format_money(r.net), True),
            ("Turnovers acknowledged", format_money(r.acknowledged), False),
            ("+ Turnovers pending", format_money(r.pending), False),
            ("+ Undeposited", format_money(r.undeposited), False),
            ("= Accounted for", format_money(r.accounted), True),
        ]

    @property
    def verdict(self) -> str:
        r = self.result
        if r is None:
            return ""
        if r.balanced and r.gl_balanced:
            return (
                "Balanced: every dollar received is in a turnover or still undeposited, and "
                "each GL account balances."
            )
        if not r.balanced:
            return f"Out of balance by {format_money(abs(r.net - r.accounted))}."
        return "The GL accounts do not balance: an account's movements differ from the money."

    @property
    def notes(self) -> str:
        r = self.result
        if r is None:
            return ""
        parts = []
        if r.over_short:
            parts.append(f"over/short at the daily closes {signed(r.over_short)}")
        parts.append(
            f"payers' credits {format_money(r.credits_opening)} → {format_money(r.credits_closing)}"
        )
        flagged = sum(1 for t in r.turnovers if t.flagged)
        if flagged:
            parts.append(f"{count_of(flagged, 'turnover')} with a difference flagged")
        return sentence_start("; ".join(parts)) + "."

    @staticmethod
    def account_cells(a: AccountLine) -> tuple[str, ...]:
        return (a.number, a.name, a.kind.label, *(format_money(v) for v in a.amounts))

    def account_rows(self) -> list[tuple[str, ...]]:
        return [] if self.result is None else [self.account_cells(a) for a in self.result.accounts]


# --- returned checks -----------------------------------------------------------------------


@dataclass
class ReturnedCheckPresenter:
    backend: TreasuryBackend
    receipt: ReceiptRow | None = None
    message: str = ""

    def find(self, number: str) -> bool:
        self.receipt = self.backend.receipt(number) if number.strip() else None
        r = self.receipt
        if r is None:
            self.message = f"No receipt numbered '{number.strip()}'." if number.strip() else ""
            return False
        what = f"{format_money(r.amount)} by {r.method.label.lower()}"
        if r.check_number:
            what += f" no. {r.check_number}" + (f", {r.check_bank}" if r.check_bank else "")
        self.message = (
            f"Receipt {r.receipt_number} of {format_date(r.day)}: {what} from {r.payer} "
            f"for {', '.join(r.permits) or 'no permit'}."
        )
        if r.status:
            self.message += f" It is already {'voided' if r.voided else 'returned'}."
        elif r.method is not PaymentMethod.CHECK:
            self.message += " Only a check can come back unpaid."
        elif not r.turned_over:
            self.message += " It has not been turned over for deposit yet."
        return True

    @property
    def can_record(self) -> bool:
        r = self.receipt
        return r is not None and not r.status and r.method is PaymentMethod.CHECK and r.turned_over

    def record(self, notice: str) -> str:
        r = self.receipt
        if r is None:
            raise ValidationError("receipt", "find the receipt of the check first")
        self.backend.return_nsf(r.payment_id, notice)
        number = r.receipt_number
        self.find(number)
        return (
            f"The check of receipt {number} is recorded as returned unpaid; "
            f"{', '.join(r.permits)} owe{'s' if len(r.permits) == 1 else ''} "
            f"{format_money(r.amount)} again."
        )


# --- refunds and credits -------------------------------------------------------------------

# The grounds the refund dialog offers: a street deposit is returned from the Deposits section
# on the City Engineer's order (15.1.43), not here.
GROUNDS: tuple[RefundGround, ...] = tuple(
    g for g in RefundGround if g is not RefundGround.STREET_DEPOSIT
)
CREDIT_COLUMNS = ("Payer", "Credit held")


@dataclass
class RefundPresenter:
    backend: TreasuryBackend
    today: date
    permit: PayablePermit | None = None
    ground: RefundGround = RefundGround.WITHDRAWN
    # 15.1.42: the inspections made, as the register has them; shown, never typed.
    inspections: tuple[InspectionMade, ...] = ()
    filed_on: date | None = None
    decision: RefundDecision | None = None
    message: str = ""
    credits: list[CreditRow] = field(default_factory=list)

    def find(self, number: str) -> bool:
        self.decision = None
        self.inspections = ()
        self.permit = self.backend.permit(number) if number.strip() else None
        if self.permit is None:
            self.message = f"No permit or application '{number.strip()}'." if number.strip() else ""
            return False
        p = self.permit
        self.message = (
            f"{p.label}, {p.address or 'no address'} ({p.status.label.lower()}): "
            f"{format_money(p.charged)} charged, {format_money(p.paid)} paid."
        )
        self.inspections = self.backend.inspections_made(p.permit_id)
        return True

    @property
    def inspections_text(self) -> str:
        """What the register says about inspections made (15.1.42), read-only in the dialog."""
        if self.permit is None:
            return ""
        if not self.inspections:
            return "No inspection made on the register — 15.1.42: refunded less the clerical fee"
        return f"{inspections_made_text(self.inspections)} — 15.1.42: no refund"

    def quote(self) -> RefundDecision:
        if self.permit is None:
            raise ValidationError("permit", "find the permit first")
        self.decision = self.backend.refund_quote(self.permit.permit_id, self.ground, self.filed_on)
        return self.decision

    @property
    def quote_text(self) -> str:
        d = self.decision
        if d is None:
            return ""
        head = (
            f"Refund {format_money(d.amount)}"
            + (f"; {format_money(d.kept)} is kept" if d.kept else "")
            if d.allowed
            else "No refund"
        )
        return f"{head}. {d.reason}"

    def refund(self, check_number: str, check_date: date | None, payer: str = "") -> RefundResult:
        if self.permit is None:
            raise ValidationError("permit", "find the permit first")
        if check_date is None:
            raise ValidationError("check date", "enter the date of the refund check")
        result = self.backend.refund(
            RefundInput(
                permit_id=self.permit.permit_id,
                ground=self.ground,
                check_number=check_number,
                check_date=check_date,
                filed_on=self.filed_on,
                payer_name=payer,
            )
        )
        self.find(self.permit.number or f"#{self.permit.permit_id}")
        self.decision = None
        self.message = (
            f"Refunded {format_money(result.amount)} by check {check_number.strip()}"
            + (f"; {format_money(result.kept)} kept" if result.kept else "")
            + "."
        )
        return result

    def load_credits(self) -> None:
        self.credits = self.backend.credits()

    @staticmethod
    def credit_cells(c: CreditRow) -> tuple[str, ...]:
        return (c.name, format_money(c.balance))

    def refund_credit(
        self, row: int, amount_text: str, check_number: str, check_date: date | None
    ) -> str:
        if not 0 <= row < len(self.credits):
            raise ValidationError("payer", "choose the payer whose credit is refunded")
        if check_date is None:
            raise ValidationError("check date", "enter the date of the refund check")
        credit = self.credits[row]
        amount = parse_money(amount_text, "amount") if amount_text.strip() else credit.balance
        self.backend.refund_credit(credit, amount, check_number, check_date)
        self.load_credits()
        return (
            f"Refunded {format_money(amount)} of {credit.name}'s credit by check "
            f"{check_number.strip()}."
        )


class SqlTreasury:
    """TreasuryBackend on the database, as the signed-in user."""

    def __init__(self, database: Database, clock: Clock, session: Session) -> None:
        self.database = database
        self.clock = clock
        self.session = session

    @property
    def _mid(self) -> int:
        return self.session.municipality_id

    def _uow(self) -> UnitOfWork:
        return self.database.uow()

    def daily_cash(self, day: date) -> DailyCash:
        with self.database.read() as conn:
            return cash_queries.daily_cash(conn, self._mid, day)

    def drawers(self) -> list[str]:
        with self.database.read() as conn:
            return cash_queries.drawers(conn, self._mid)

    def close_day(self, drawer: str, day: date, counted: MethodTotals, explanation: str) -> int:
        return cashiering.close_day(
            self._uow(),
            self.clock,
            self.session.actor,
            self._mid,
            drawer,
            day,
            counted,
            explanation,
        )

    def open_closes(self) -> list[CloseRow]:
        with self.database.read() as conn:
            return cash_queries.closes_not_turned_over(conn, self._mid)

    def deductions(self) -> Deductions:
        with self.database.read() as conn:
            return cash_queries.pending_deductions(conn, self._mid)

    def turnovers(self) -> list[TurnoverRow]:
        with self.database.read() as conn:
            return cash_queries.turnovers(conn, self._mid)

    def create_turnover(self, close_ids: list[int]) -> int:
        return cashiering.create_turnover(
            self._uow(), self.clock, self.session.actor, self._mid, close_ids
        )

    def acknowledge(
        self, turnover_id: int, on: date, reference: str, deposited: Decimal
    ) -> Decimal:
        return cashiering.acknowledge_turnover(
            self._uow(), self.clock, self.session.actor, turnover_id, on, reference, deposited
        )

    def resolve(self, turnover_id: int, resolution: str) -> None:
        cashiering.resolve_turnover_difference(
            self._uow(), self.clock, self.session.actor, turnover_id, resolution
        )

    def delivered_by_me(self, turnover_id: int) -> bool:
        return cashiering.delivered_by(self._uow(), self.session.actor, turnover_id)

    def transmittal(self, turnover_id: int) -> Transmittal:
        return cashiering.transmittal(self._uow(), turnover_id)

    def reconciliation(self, start: date, end: date) -> Reconciliation:
        return cashiering.reconciliation(self._uow(), self.clock, self._mid, start, end)

    def receipt(self, number: str) -> ReceiptRow | None:
        with self.database.read() as conn:
            return cash_queries.receipt_by_number(conn, self._mid, number)

    def return_nsf(self, payment_id: int, notice: str) -> None:
        cashiering.return_nsf(self._uow(), self.clock, self.session.actor, payment_id, notice)

    def permit(self, number: str) -> PayablePermit | None:
        """By permit number, or an application by '#12'."""
        text = number.strip()
        with self.database.read() as conn:
            if text.startswith("#") and text[1:].isdigit():
                permit_id: int | None = int(text[1:])
            else:
                permit_id = queries.permit_id_by_number(conn, self._mid, text)
            if permit_id is None:
                return None
            return cash_queries.payable_permit(conn, permit_id)

    def inspections_made(self, permit_id: int) -> tuple[InspectionMade, ...]:
        return cashiering.inspections_made(self._uow(), permit_id)

    def refund_grounds(self) -> tuple[RefundGround, ...]:
        return cashiering.refund_grounds(self._uow(), self._mid)

    def refund_quote(
        self, permit_id: int, ground: RefundGround, filed_on: date | None
    ) -> RefundDecision:
        return cashiering.refund_quote(self._uow(), self.clock, permit_id, ground, filed_on)

    def refund(self, r: RefundInput) -> RefundResult:
        return cashiering.refund(self._uow(), self.clock, self.session.actor, r)

    def credits(self) -> list[CreditRow]:
        with self.database.read() as conn:
            return cash_queries.credits_held(conn, self._mid)

    def refund_credit(
        self, credit: CreditRow, amount: Decimal, check_number: str, check_date: date
    ) -> int:
        return cashiering.refund_credit(
            self._uow(),
            self.clock,
            self.session.actor,
            self._mid,
            credit.party_id,
            credit.name,
            amount,
            check_number,
            check_date,
        )
