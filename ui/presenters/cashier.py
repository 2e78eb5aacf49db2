"""The Cashier section, Qt-free: find the permits a payer pays, see what each owes,
type each permit's share, the payer and the tender, take the payment (a numbered receipt), print
it; the day's receipts with Void and Reprint.

The services decide (desk/services/cashiering.py); this presenter parses what the clerk typed,
names the field when it cannot, and says what will happen (an overpayment is kept as the
payer's credit) before it does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Protocol

from db import cash_queries, queries
from db.cash_queries import PayablePermit, ReceiptRow
from db.database import Database
from desk.clock import Clock
from desk.domain.cashiering import ZERO, Allocation, PaymentMethod, ReceiptView, Tender
from desk.domain.documents import PartyChoice
from desk.domain.kinds import kind_label
from desk.errors import ValidationError
from desk.money import format_money, parse_money
from desk.services import cashiering
from desk.services.cashiering import DEFAULT_DRAWER, PaymentInput, PaymentResult
from ui.presenters.formatting import EMPTY, count_of, format_timestamp
from ui.presenters.session import Session

# The methods a clerk picks; "credit on account" only when the payer has some.
METHODS: tuple[PaymentMethod, ...] = (
    PaymentMethod.CHECK,
    PaymentMethod.CASH,
    PaymentMethod.CARD,
    PaymentMethod.MONEY_ORDER,
    PaymentMethod.CREDIT,
)
RESULT_COLUMNS = ("Permit", "Status", "Address", "Owner", "Contractor", "Paid", "Due")
RESULT_MONEY = (5, 6)
DUE_COLUMN = 6
LINE_COLUMNS = ("Permit", "Address", "Due", "Paying")
LINE_MONEY = (2, 3)
AMOUNT_COLUMN = 3
RECEIPT_COLUMNS = ("Receipt", "Time", "Payer", "Permits", "Method", "Drawer", "Amount", "Status")
RECEIPT_MONEY = (6,)
SEARCH_HINT = "Type a permit number, an address or a name (owner, contractor) to find permits."


class CashierBackend(Protocol):
    """What the presenter needs from the register (SqlCashier in ui/views/cashier.py)."""

    def search(self, text: str, owing_only: bool) -> list[PayablePermit]: ...

    def permit(self, permit_id: int) -> PayablePermit | None: ...

    def parties(self, text: str) -> list[PartyChoice]: ...

    def credit(self, party_id: int | None, name: str) -> Decimal: ...

    def take(self, payment: PaymentInput) -> PaymentResult: ...

    def receipts(self, day: date) -> list[ReceiptRow]: ...

    def void(self, payment_id: int, reason: str) -> None: ...

    def print_receipt(self, payment_id: int) -> ReceiptView: ...

    def drawers(self) -> list[str]: ...


@dataclass(frozen=True)
class ResultRow:
    permit: PayablePermit
    municipality_key: str

    def cells(self) -> tuple[str, ...]:
        p = self.permit
        return (
            p.label,
            p.status.label,
            p.address or EMPTY,
            p.owner or EMPTY,
            p.contractor or EMPTY,
            format_money(p.paid),
            format_money(p.due),
        )

    @property
    def tooltip(self) -> str:
        p = self.permit
        return (
            f"{p.label}: {kind_label(self.municipality_key, p.kind)}\n"
            f"Charged {format_money(p.charged)}, paid {format_money(p.paid)}, "
            f"due {format_money(p.due)}"
        )


@dataclass
class PayLine:
    """One permit the payment goes to, with the share the clerk typed."""

    permit: PayablePermit
    amount_text: str

    @property
    def label(self) -> str:
        return self.permit.label

    def cells(self) -> tuple[str, ...]:
        return (
            self.label,
            self.permit.address or EMPTY,
            format_money(self.permit.due),
            self.amount_text,
        )

    def amount(self) -> Decimal:
        """The share, parsed; a ValidationError names the permit."""
        label = f"amount for {self.label}"
        value = parse_money(self.amount_text, label)
        if value <= 0:
            raise ValidationError(label, "must be more than $0.00; remove the permit instead")
        return value


@dataclass
class Tendered:
    """The tender fields as typed."""

    method: PaymentMethod = PaymentMethod.CHECK
    amount_text: str = ""  # "" = the allocated total
    check_number: str = ""
    check_drawer: str = ""
    check_bank: str = ""
    card_reference: str = ""
    money_order_number: str = ""


@dataclass
class CashierPresenter:
    backend: CashierBackend
    municipality_id: int
    municipality_key: str
    today: date
    search_text: str = ""
    owing_only: bool = False
    results: list[ResultRow] = field(default_factory=list)
    lines: list[PayLine] = field(default_factory=list)
    payer_name: str = ""
    payer_party_id: int | None = None
    payer_choices: list[PartyChoice] = field(default_factory=list)
    tender: Tendered = field(default_factory=Tendered)
    drawer: str = DEFAULT_DRAWER
    last: PaymentResult | None = None
    last_text: str = ""
    receipts_day: date | None = None
    receipts: list[ReceiptRow] = field(default_factory=list)

    columns = RESULT_COLUMNS

    # --- finding permits ---------------------------------------------------------------------

    def search(self, text: str | None = None) -> None:
        if text is not None:
            self.search_text = text
        found = self.backend.search(self.search_text, self.owing_only)
        self.results = [ResultRow(p, self.municipality_key) for p in found]

    @property
    def search_summary(self) -> str:
        if not self.search_text.strip() and not self.owing_only:
            return SEARCH_HINT
        n = len(self.results)
        if n == 0:
            return "No permit matches."
        owing = sum(1 for r in self.results if r.permit.due > 0)
        return f"{count_of(n, 'permit')} found, {owing} with money due. Enter adds one."

    # --- what the payment pays ---------------------------------------------------------------

    def add_result(self, row: int) -> PayLine | None:
        if not 0 <= row < len(self.results):
            return None
        return self.add(self.results[row].permit)

    def add_permit_id(self, permit_id: int) -> PayLine | None:
        found = self.backend.permit(permit_id)
        return None if found is None else self.add(found)

    def add(self, permit: PayablePermit) -> PayLine:
        """Add a permit with its share set to what it owes (the clerk may type less)."""
        for line in self.lines:
            if line.permit.permit_id == permit.permit_id:
                return line
        line = PayLine(permit, f"{max(permit.due, ZERO):,.2f}")
        self.lines.append(line)
        if not self.payer_name.strip():
            # The contractor usually pays; otherwise the owner. The clerk types over it.
            self.payer_name = permit.contractor or permit.owner
            self.payer_party_id = None
        return line

    def remove(self, row: int) -> None:
        if 0 <= row < len(self.lines):
            del self.lines[row]

    def set_line_amount(self, row: int, text: str) -> None:
        if 0 <= row < len(self.lines):
            self.lines[row].amount_text = text.strip()

    def allocated(self) -> Decimal:
        """The shares that parse (the summary shows the total while the clerk types)."""
        total = ZERO
        for line in self.lines:
            try:
                total += line.amount()
            except ValidationError:
                continue
        return total

    def amount(self) -> Decimal:
        """The amount tendered: as typed, or the allocated total when left empty."""
        text = self.tender.amount_text.strip()
        if not text:
            return self.allocated()
        return parse_money(text, "amount")

    @property
    def allocation_summary(self) -> str:
        """What will happen, in words, before the payment is taken."""
        if not self.lines:
            return "Add the permits this payment is for."
        allocated = self.allocated()
        try:
            amount = self.amount()
        except ValidationError as e:
            return str(e)
        n = len(self.lines)
        permits = "1 permit" if n == 1 else f"{n} permits"
        if amount < allocated:
            return (
                f"The shares add up to {format_money(allocated)}, more than the payment of "
                f"{format_money(amount)}."
            )
        text = f"{format_money(allocated)} to {permits}"
        if amount > allocated:
            who = self.payer_name.strip() or "the payer"
            text += (
                f"; {format_money(amount - allocated)} more than the permits owe is kept as "
                f"credit for {who}"
            )
        return text + "."

    # --- the payer ---------------------------------------------------------------------------

    def find_payers(self, text: str) -> list[str]:
        self.payer_choices = self.backend.parties(text) if len(text.strip()) >= 2 else []
        return [self.choice_text(c) for c in self.payer_choices]

    @staticmethod
    def choice_text(c: PartyChoice) -> str:
        return f"{c.name} — {c.address}" if c.address else c.name

    def set_payer(self, text: str) -> None:
        """The name as typed, or a party picked from the completer (its name and id)."""
        text = text.strip()
        chosen = next((c for c in self.payer_choices if self.choice_text(c) == text), None)
        if chosen is not None:
            self.payer_name, self.payer_party_id = chosen.name, chosen.id
        else:
            self.payer_name, self.payer_party_id = text, None

    def payer_credit(self) -> Decimal:
        if not self.payer_name.strip() and self.payer_party_id is None:
            return ZERO
        return self.backend.credit(self.payer_party_id, self.payer_name)

    # --- taking the payment ------------------------------------------------------------------

    def payment_input(self) -> PaymentInput:
        """The service's input; a ValidationError names the field the clerk must fix."""
        if not self.lines and self.tender.method is not PaymentMethod.CREDIT:
            raise ValidationError("permits", "add the permits this payment is for")
        allocations = tuple(Allocation(line.permit.permit_id, line.amount()) for line in self.lines)
        amount = self.amount()
        t = self.tender
        number = t.money_order_number if t.method is PaymentMethod.MONEY_ORDER else t.check_number
        drawer_name = t.check_drawer.strip() or (
            self.payer_name if t.method is PaymentMethod.CHECK else ""
        )
        return PaymentInput(
            municipality_id=self.municipality_id,
            tender=Tender(
                t.method,
                amount,
                check_number=number,
                check_drawer=drawer_name,
                check_bank=t.check_bank,
                card_reference=t.card_reference,
            ),
            allocations=allocations,
            payer_name=self.payer_name,
            payer_party_id=self.payer_party_id,
            drawer=self.drawer,
        )

    def take(self) -> PaymentResult:
        """Take the payment; on success the form is cleared for the next payer (the drawer
        stays) and the result says the receipt number."""
        payment = self.payment_input()
        result = self.backend.take(payment)
        self.last = result
        n = len(payment.allocations)
        self.last_text = (
            f"Receipt {result.receipt_number}: {format_money(payment.tender.amount)} by "
            f"{payment.tender.method.label.lower()} from {payment.payer_name}"
            + (f" for {n} permits" if n > 1 else "")
            + (f"; {format_money(result.credited)} kept as credit" if result.credited else "")
            + "."
        )
        self.clear()
        if self.receipts_day == self.today:
            self.load_receipts(self.today)
        return result

    def clear(self) -> None:
        self.lines = []
        self.payer_name, self.payer_party_id = "", None
        self.tender = Tendered(method=self.tender.method)

    def print_last(self) -> ReceiptView | None:
        if self.last is None:
            return None
        return self.backend.print_receipt(self.last.payment_id)

    # --- the day's receipts ------------------------------------------------------------------

    def load_receipts(self, day: date) -> None:
        self.receipts_day = day
        self.receipts = self.backend.receipts(day)

    def receipt_cells(self, r: ReceiptRow) -> tuple[str, ...]:
        status = {"void": "Void", "returned": "Check returned"}.get(r.status, "")
        if not status and r.closed:
            status = "Closed"
        return (
            r.receipt_number,
            format_timestamp(r.received_at).split(" ", 1)[1],
            r.payer,
            ", ".join(r.permits) or EMPTY,
            r.method.label,
            r.drawer,
            format_money(r.amount),
            status,
        )

    @property
    def receipts_summary(self) -> str:
        if self.receipts_day is None:
            return ""
        money = [r for r in self.receipts if r.is_money and not r.voided]
        total = sum((r.amount for r in money), ZERO)
        voids = sum(1 for r in self.receipts if r.voided)
        text = f"{count_of(len(self.receipts), 'receipt')}, {format_money(total)} taken"
        return text + (f", {voids} voided" if voids else "")

    def can_void(self, row: int) -> str:
        """'' when the receipt may be voided, else why not (the service checks again)."""
        if not 0 <= row < len(self.receipts):
            return "Choose a receipt."
        r = self.receipts[row]
        if r.status:
            return f"Receipt {r.receipt_number} is already {'voided' if r.voided else 'returned'}."
        if r.day != self.today:
            return "A receipt can be voided only on the day it was taken."
        if r.closed:
            return f"The drawer {r.drawer} is closed for the day."
        return ""

    def void(self, row: int, reason: str) -> str:
        r = self.receipts[row]
        self.backend.void(r.payment_id, reason)
        if self.receipts_day is not None:
            self.load_receipts(self.receipts_day)
        return f"Receipt {r.receipt_number} is void."

    def reprint(self, row: int) -> ReceiptView:
        return self.backend.print_receipt(self.receipts[row].payment_id)


def receipt_file_name(view: ReceiptView) -> str:
    return f"receipt-{view.receipt_number}{'-copy' if view.copy else ''}.pdf"


def method_fields(method: PaymentMethod) -> Sequence[str]:
    """Which tender fields a method asks for (the view shows only those)."""
    return {
        PaymentMethod.CHECK: ("check_number", "check_drawer", "check_bank"),
        PaymentMethod.MONEY_ORDER: ("money_order_number",),
        PaymentMethod.CARD: ("card_reference",),
    }.get(method, ())


class SqlCashier:
    """CashierBackend on the database: reads on short connections, writes through the services
    as the signed-in user."""

    def __init__(self, database: Database, clock: Clock, session: Session) -> None:
        self.database = database
        self.clock = clock
        self.session = session

    @property
    def municipality_id(self) -> int:
        return self.session.municipality_id

    def search(self, text: str, owing_only: bool) -> list[PayablePermit]:
        with self.database.read() as conn:
            return cash_queries.payable_permits(
                conn, self.municipality_id, text, owing_only=owing_only
            )

    def permit(self, permit_id: int) -> PayablePermit | None:
        with self.database.read() as conn:
            return cash_queries.payable_permit(conn, permit_id)

    def parties(self, text: str) -> list[PartyChoice]:
        with self.database.read() as conn:
            return queries.party_matches(conn, text)

    def credit(self, party_id: int | None, name: str) -> Decimal:
        return cashiering.credit_balance(self.database.uow(), self.municipality_id, party_id, name)

    def take(self, payment: PaymentInput) -> PaymentResult:
        return cashiering.take_payment(self.database.uow(), self.clock, self.session.actor, payment)

    def receipts(self, day: date) -> list[ReceiptRow]:
        with self.database.read() as conn:
            return cash_queries.receipts_on(conn, self.municipality_id, day)

    def void(self, payment_id: int, reason: str) -> None:
        cashiering.void_payment(
            self.database.uow(), self.clock, self.session.actor, payment_id, reason
        )

    def print_receipt(self, payment_id: int) -> ReceiptView:
        return cashiering.print_receipt(
            self.database.uow(), self.clock, self.session.actor, payment_id
        )

    def drawers(self) -> list[str]:
        with self.database.read() as conn:
            return cash_queries.drawers(conn, self.municipality_id)
