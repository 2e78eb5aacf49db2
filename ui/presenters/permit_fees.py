"""The Fees tab, Qt-free: the fee lines assessed on the permit, the schedule version they were
priced with, and the totals. Deposits (e.g. a sewer connection deposit) are money held, not fees,
and are totalled apart as on the application summary.

Cashiering (payments, the balance) is a later issue: `totals()` is where "Paid" and "Balance"
rows go then; nothing here invents a payment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from db.permit_queries import AssessedFeeLine
from ui.presenters.formatting import EMPTY, format_amount, format_date

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


class PermitFeesPresenter:
    columns = COLUMNS

    def __init__(self, lines: Sequence[AssessedFeeLine]) -> None:
        self.lines = list(lines)
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

    @staticmethod
    def _version(line: AssessedFeeLine) -> str:
        return f"“{line.version_label}”, in effect from {format_date(line.version_from)}"

    @property
    def empty(self) -> bool:
        return not self.lines

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
        """The rows under the table. Cashiering (a later issue) adds Paid and Balance here."""
        if self.empty:
            return ()
        if not self.deposits_total:
            return (TotalRow("Total fees", format_amount(self.fees_total), grand=True),)
        return (
            TotalRow("Fees", format_amount(self.fees_total)),
            TotalRow("Deposits held (not fees)", format_amount(self.deposits_total)),
            TotalRow("Total", format_amount(self.total), grand=True),
        )

    @property
    def source(self) -> str:
        """Which schedule the lines were priced with and when: a line over the table."""
        if self.empty:
            return ""
        versions = list(dict.fromkeys(r.version for r in self.rows))
        days = sorted({f.assessed_on for f in self.lines})
        when = ", ".join(format_date(d) for d in days)
        n = len(self.lines)
        lines = f"{n} line{'s' if n != 1 else ''} assessed {when}"
        if len(versions) == 1:
            return f"{lines}, priced with the fee schedule {versions[0]}."
        return f"{lines}, priced with the fee schedules {'; '.join(versions)}."
