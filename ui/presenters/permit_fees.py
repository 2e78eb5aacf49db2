"""The Fees & Payments tab, Qt-free: the fee lines assessed on the permit with the schedule
version they were priced with, the lines added or corrected since (each with its reason and who
added it: a fee change is a new line, never an edit), the receipts that paid the permit, the
refunds, and the totals down to the balance. Deposits (e.g. a sewer connection deposit) are money
held, not fees, and are totalled apart as on the application summary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from db.permit_queries import AssessedFeeLine
from desk.domain.cashiering import ChargeRow, PaymentRow, PermitAccount, RefundRow
from desk.errors import ValidationError
from desk.fees.engine import QuoteItem
from desk.fees.model import QUANTITY_UNITS, ItemKind, ScheduleVersion
from ui.presenters.formatting import EMPTY, count_of, format_amount, format_date

COLUMNS: tuple[str, ...] = ("Item", "Description", "Section", "Quantity", "Amount")
AMOUNT_COLUMN = 4
QUANTITY_COLUMN = 3
NO_FEES = (
    "No fees are assessed on this permit.\n\n"
    "Fees are assessed when the application is saved from the new-application form."
)
ZERO = Decimal("0.00")


def _quantity(line: AssessedFeeLine) -> str:
    if line.quantity is not None:
        q = line.quantity.normalize()
        return f"{q:,f}" if q == q.to_integral_value() else f"{line.quantity:,}"
    if line.entered_amount is not None:
        return format_amount(line.entered_amount)  # a valuation the fee is a rate of
    return EMPTY


@dataclass(frozen=True)
class FeeRow:
    code: str
    description: str
    section: str
    quantity: str
    amount: str
    deposit: bool
    version: str

    def cells(self) -> tuple[str, ...]:
        return (self.code, self.description, self.section, self.quantity, self.amount)


@dataclass(frozen=True)
class TotalRow:
    label: str
    amount: str
    grand: bool = False


ADDED_WORDS = {
    "added": "added",
    "adjusted": "corrected",
    "refund": "refunded",
    "nsf_charge": "returned-check charge",
}


def _added_row(c: ChargeRow) -> FeeRow:
    """A line added or corrected after assessment, saying when, why and by whom."""
    who = f" by {c.by}" if c.by else ""
    why = f": {c.reason}" if c.reason else ""
    return FeeRow(
        code=c.code,
        description=f"{c.description} — {ADDED_WORDS.get(c.kind, c.kind)} {format_date(c.day)}"
        f"{who}{why}",
        section=EMPTY,
        quantity=EMPTY,
        amount=format_amount(c.amount),
        deposit=False,
        version="",
    )


PAYMENT_COLUMNS = ("Receipt", "Date", "Payer", "Method", "Amount", "Status")
PAYMENT_AMOUNT_COLUMN = 4
REFUND_COLUMNS = ("Date", "Check", "Paid to", "Amount", "Reason")
REFUND_AMOUNT_COLUMN = 3


def payment_cells(p: PaymentRow) -> tuple[str, ...]:
    status = {"void": "Void", "returned": "Check returned"}.get(p.status, "")
    return (
        p.receipt_number,
        format_date(p.day),
        p.payer,
        p.method.label,
        format_amount(p.amount),
        status,
    )


def refund_cells(r: RefundRow) -> tuple[str, ...]:
    return (
        format_date(r.day),
        f"{r.check_number} of {format_date(r.check_date)}",
        r.payer or EMPTY,
        format_amount(r.amount),
        r.reason,
    )


class PermitFeesPresenter:
    columns = COLUMNS

    def __init__(
        self, lines: Sequence[AssessedFeeLine], account: PermitAccount | None = None
    ) -> None:
        self.lines = list(lines)
        self.account = account
        self.rows: tuple[FeeRow, ...] = tuple(
            FeeRow(
                code=line.code,
                description=line.description
                + (f" ({line.note})" if line.note else "")
                + (" — deposit" if line.deposit else ""),
                section=line.section,
                quantity=_quantity(line),
                amount=format_amount(line.amount),
                deposit=line.deposit,
                version=self._version(line),
            )
            for line in self.lines
        )
        self.added: tuple[ChargeRow, ...] = (
            tuple(c for c in account.charges if c.kind != "assessed") if account else ()
        )
        self.rows += tuple(_added_row(c) for c in self.added)
        self.payments: tuple[tuple[str, ...], ...] = (
            tuple(payment_cells(p) for p in account.payments) if account else ()
        )
        self.refunds: tuple[tuple[str, ...], ...] = (
            tuple(refund_cells(r) for r in account.refunds) if account else ()
        )

    @staticmethod
    def _version(line: AssessedFeeLine) -> str:
        return f"“{line.version_label}”, in effect from {format_date(line.version_from)}"

    @property
    def empty(self) -> bool:
        return not self.lines and not self.added and not self.payments

    @property
    def fees_total(self) -> Decimal:
        return sum((f.amount for f in self.lines if not f.deposit), ZERO)

    @property
    def deposits_total(self) -> Decimal:
        return sum((f.amount for f in self.lines if f.deposit), ZERO)

    @property
    def total(self) -> Decimal:
        return self.fees_total + self.deposits_total

    def totals(self) -> tuple[TotalRow, ...]:
        """The rows under the table: the fees, then (with cashiering) what is paid and due."""
        if self.empty:
            return ()
        if not self.deposits_total:
            rows = [TotalRow("Total fees", format_amount(self.fees_total), grand=True)]
        else:
            rows = [
                TotalRow("Fees", format_amount(self.fees_total)),
                TotalRow("Deposits held (not fees)", format_amount(self.deposits_total)),
                TotalRow("Total", format_amount(self.total), grand=True),
            ]
        if self.account is None:
            return tuple(rows)
        b = self.account.balance
        rows = [TotalRow(r.label, r.amount) for r in rows]
        if b.adjustments:
            rows.append(TotalRow("Added or corrected since", format_amount(b.adjustments)))
            rows.append(TotalRow("Charged", format_amount(b.charged)))
        rows.append(TotalRow("Paid", format_amount(b.paid)))
        if b.due < 0:
            rows.append(TotalRow("Paid beyond the fees", format_amount(-b.due), grand=True))
        else:
            rows.append(TotalRow("Balance due", format_amount(b.due), grand=True))
        return tuple(rows)

    @property
    def balance_text(self) -> str:
        """One line over the payments: paid in full, or how much is due."""
        if self.account is None:
            return ""
        b = self.account.balance
        if not self.lines and not self.added:
            return ""
        if b.due > 0:
            return f"{format_amount(b.due)} is due of {format_amount(b.charged)} charged."
        if b.due < 0:
            return f"Paid in full; {format_amount(-b.due)} was paid beyond the fees."
        return "Paid in full."

    @property
    def source(self) -> str:
        """Which schedule the lines were priced with and when: a line over the table."""
        if self.empty:
            return ""
        if not self.lines:
            return ""
        versions = list(dict.fromkeys(r.version for r in self.rows if r.version))
        days = sorted({f.assessed_on for f in self.lines})
        when = ", ".join(format_date(d) for d in days)
        lines = f"{count_of(len(self.lines), 'line')} assessed {when}"
        if self.added:  # the table lists them too: the count must add up to its rows
            later = ", ".join(format_date(d) for d in sorted({c.day for c in self.added}))
            lines += f", {count_of(len(self.added), 'line')} added or corrected {later}"
        if len(versions) == 1:
            return f"{lines}, priced with the fee schedule {versions[0]}."
        return f"{lines}, priced with the fee schedules {'; '.join(versions)}."


# --- adding a fee after assessment ----------------------------------------------------------

# Items entered as an amount rather than computed from a quantity.
_AMOUNT_KINDS = frozenset(
    {
        ItemKind.ENTERED,
        ItemKind.PASS_THROUGH,
        ItemKind.COST_PLUS,
        ItemKind.COUNCIL_SET,
        ItemKind.DEPOSIT,
    }
)


def fee_item_choices(version: ScheduleVersion) -> list[tuple[str, str]]:
    """(code, 'CODE — description') of the version's items, for the Add fee dialog."""
    return [(i.code, f"{i.code} — {i.description}") for i in version.items]


def _optional_number(text: str, field: str) -> Decimal | None:
    cleaned = text.strip().replace(",", "").replace("$", "")
    if not cleaned:
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValidationError(field, f"'{text.strip()}' is not a number") from None
    if not value.is_finite() or value <= 0:
        raise ValidationError(field, "must be more than 0")
    return value


def fee_quote_item(
    version: ScheduleVersion, code: str, quantity_text: str, amount_text: str
) -> QuoteItem:
    """The fee engine's item for what was typed; a ValidationError names the field."""
    item = version.item(code)
    if item is None:
        raise ValidationError("code", "choose a fee item of the schedule")
    quantity = _optional_number(quantity_text, "quantity")
    amount = _optional_number(amount_text, "amount")
    if item.kind.takes_quantity and quantity is None:
        unit = QUANTITY_UNITS.get(item.kind, "quantity")
        raise ValidationError("quantity", f"enter the {unit} for {code}")
    if amount is not None and item.kind not in _AMOUNT_KINDS:
        raise ValidationError("amount", f"{code} is priced by the schedule; leave the amount empty")
    return QuoteItem(
        code=code,
        quantity=quantity if item.kind.takes_quantity else None,
        amount=amount,
    )
