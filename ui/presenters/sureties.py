"""Bonds & Insurance and Deposits sections and the permit window's Sureties tab, without
Qt: what each list shows, its filters and counts, which action the signed-in user may take on
the selected row and why not, and the parsing of the forms' money and dates."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from db.surety_queries import BondRow, CertificateRow
from desk.domain.enums import Role
from desk.domain.sureties import (
    DEFAULT_REFUND_ORDER_ROLE,
    BondPurpose,
    BondStatus,
    DepositStatus,
    money_words,
    order_refusal,
)
from desk.errors import ValidationError
from desk.money import CENT
from desk.services.sureties import (
    QUEUES,
    DepositLine,
    ExpiryRow,
    PermitSureties,
    in_queue,
)
from ui.presenters.formatting import EMPTY, format_amount, format_date
from ui.presenters.registers import Line, item_at, row_of

# --- parsing the forms ----------------------------------------------------------------------------


def parse_money(text: str, field: str, *, required: bool = True) -> Decimal | None:
    """'$1,250.50', '1250.5' or '1250' → Decimal('1250.50'); a ValidationError names the field.
    (QDoubleValidator is locale-dependent: money is parsed here.)"""
    raw = text.strip().replace("$", "").replace(",", "").strip()
    if not raw:
        if required:
            raise ValidationError(field, "enter an amount in dollars and cents, e.g. 500.00")
        return None
    try:
        amount = Decimal(raw)
    except InvalidOperation:
        raise ValidationError(field, f"'{text.strip()}' is not an amount of money") from None
    if not amount.is_finite():
        raise ValidationError(field, f"'{text.strip()}' is not an amount of money")
    if amount != amount.quantize(CENT):
        raise ValidationError(field, "has more than two decimals")
    return amount.quantize(CENT)


def parse_day(text: str, field: str, *, required: bool = True) -> date | None:
    """'03/01/2026', '3/1/2026' or '2026-03-01'; a ValidationError names the field."""
    raw = text.strip()
    if not raw:
        if required:
            raise ValidationError(field, "enter the date, e.g. 03/01/2026")
        return None
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", raw)
    try:
        if m:
            return date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
        return date.fromisoformat(raw)
    except ValueError:
        raise ValidationError(field, f"'{raw}' is not a date; write it as 03/01/2026") from None


def names_list(text: str) -> tuple[str, ...]:
    """Names typed one per line or separated by semicolons."""
    parts = re.split(r"[;\n]", text)
    return tuple(p.strip() for p in parts if p.strip())


# --- Bonds & Insurance ----------------------------------------------------------------------------

BOND_COLUMNS = (
    "Number",
    "Purpose",
    "Principal",
    "Kind",
    "Amount",
    "Effective",
    "Until",
    "Covers",
    "Status",
)
STATUS_FILTERS: tuple[tuple[str, BondStatus | None], ...] = (
    ("Any status", None),
    *((s.label, s) for s in BondStatus),
)
PURPOSE_FILTERS: tuple[tuple[str, BondPurpose | None], ...] = (
    ("Any purpose", None),
    *((p.label, p) for p in BondPurpose),
)
RELEASE_ROLES = frozenset({Role.ENGINEER, Role.INSPECTOR})


class BondsPresenter:
    columns = BOND_COLUMNS

    def __init__(
        self,
        fetch: Callable[[str, BondStatus | None, BondPurpose | None], list[BondRow]],
        today: Callable[[], date],
        roles: frozenset[Role],
    ) -> None:
        self.fetch = fetch
        self.today = today
        self.roles = roles
        self.text = ""
        self.status: BondStatus | None = None
        self.purpose: BondPurpose | None = None
        self.rows: list[Line] = []

    def load(self) -> None:
        today = self.today()
        self.rows = []
        for r in self.fetch(self.text, self.status, self.purpose):
            until = r.covered_until
            soon = (
                until is not None
                and r.status is BondStatus.IN_FORCE
                and ((until - today).days <= 60)
            )
            self.rows.append(
                Line(
                    r,
                    (
                        r.number or EMPTY,
                        r.purpose.label,
                        r.principal,
                        r.kind.label,
                        format_amount(r.amount),
                        format_date(r.effective_on),
                        format_date(until) if until else "until released",
                        r.covers or EMPTY,
                        r.status.label,
                    ),
                    warn=soon or r.status is BondStatus.EXPIRED,
                )
            )

    def bond(self, row: int) -> BondRow | None:
        return item_at(self.rows, row, BondRow)

    @property
    def summary(self) -> str:
        n = len(self.rows)
        if n == 0:
            return (
                "No bond matches."
                if self.text or self.status or self.purpose
                else ("No bond is on file yet.")
            )
        in_force = sum(
            1
            for x in self.rows
            if isinstance(x.item, BondRow) and x.item.status is BondStatus.IN_FORCE
        )
        return f"{n} bond{'s' * (n != 1)}, {in_force} in force"

    def can_release(self, row: int) -> tuple[bool, str]:
        b = self.bond(row)
        if b is None:
            return False, "Choose a bond."
        if not self.roles & RELEASE_ROLES:
            return False, "Releasing a bond takes the engineer's or the inspector's role."
        if b.status is not BondStatus.IN_FORCE:
            return False, f"{b.title} is {b.status.label.lower()}."
        return True, ""

    def can_claim(self, row: int) -> tuple[bool, str]:
        b = self.bond(row)
        if b is None:
            return False, "Choose a bond."
        if not self.roles & (RELEASE_ROLES | {Role.CLERK, Role.ADMINISTRATOR}):
            return False, "Recording a claim takes the clerk's, inspector's or engineer's role."
        if b.status in (BondStatus.RELEASED, BondStatus.CLAIMED):
            return False, f"{b.title} is {b.status.label.lower()}."
        return True, ""

    def can_expire(self, row: int) -> tuple[bool, str]:
        b = self.bond(row)
        if b is None:
            return False, "Choose a bond."
        if b.status is not BondStatus.EXPIRED:
            return False, f"{b.title} is {b.status.label.lower()}; only a lapsed bond is marked."
        return True, ""

    def can_edit(self, row: int) -> tuple[bool, str]:
        b = self.bond(row)
        if b is None:
            return False, "Choose a bond."
        if b.status in (BondStatus.RELEASED, BondStatus.CLAIMED):
            return False, f"{b.title} is {b.status.label.lower()}; its record stays as it was."
        return True, ""


CERTIFICATE_COLUMNS = (
    "Policy",
    "Insured",
    "Insurer",
    "Limits",
    "Effective",
    "Covers until",
    "Status",
)


class CertificatesPresenter:
    columns = CERTIFICATE_COLUMNS

    def __init__(self, fetch: Callable[[str, bool], list[CertificateRow]]) -> None:
        self.fetch = fetch
        self.text = ""
        self.include_expired = False
        self.rows: list[Line] = []

    def load(self) -> None:
        self.rows = []
        for r in self.fetch(self.text, self.include_expired):
            insured = r.insured
            if r.association:
                insured += f" (association, {len(r.members)} member{'s' * (len(r.members) != 1)})"
            self.rows.append(
                Line(
                    r,
                    (
                        r.policy,
                        insured,
                        r.insurer,
                        r.limits,
                        format_date(r.effective_on),
                        format_date(r.covered_until),
                        r.status,
                    ),
                    warn=r.status != "In force",
                )
            )

    def certificate(self, row: int) -> CertificateRow | None:
        return item_at(self.rows, row, CertificateRow)

    @property
    def summary(self) -> str:
        n = len(self.rows)
        if n == 0:
            return "No certificate matches." if self.text else "No certificate is on file yet."
        soon = sum(1 for x in self.rows if x.warn)
        return f"{n} certificate{'s' * (n != 1)}" + (
            f", {soon} expiring or expired" if soon else ""
        )


EXPIRY_COLUMNS = ("Ends", "In", "What", "Reference", "Holder", "Issuer", "Permits relying")


class ExpiryPresenter:
    """The expiry watch: bonds and certificates ending within `days`, and those ended while a
    permit relies on them."""

    columns = EXPIRY_COLUMNS

    def __init__(self, fetch: Callable[[int], list[ExpiryRow]], days: int = 60) -> None:
        self.fetch = fetch
        self.days = days
        self.rows: list[Line] = []
        self.items: list[ExpiryRow] = []

    def load(self) -> None:
        self.items = self.fetch(self.days)
        self.rows = []
        for r in self.items:
            left = r.days_left
            when = (
                f"ended {-left} day{'s' * (left != -1)} ago"
                if left < 0
                else "today"
                if left == 0
                else f"{left} day{'s' * (left != 1)}"
            )
            self.rows.append(
                Line(
                    r,
                    (
                        format_date(r.ends_on),
                        when,
                        f"{r.what}: {r.covers}" if r.covers else r.what,
                        r.reference or EMPTY,
                        r.holder,
                        r.issuer or EMPTY,
                        ", ".join(r.permits) or EMPTY,
                    ),
                    warn=left < 0 or left <= 14,
                )
            )

    @property
    def summary(self) -> str:
        n = len(self.items)
        if n == 0:
            return f"Nothing ends in the next {self.days} days."
        ended = sum(1 for r in self.items if r.expired)
        text = f"{n} bond{'s' * (n != 1)} and certificate{'s' * (n != 1)} to watch"
        if ended:
            text += f"; {ended} ended while a permit relies on it"
        return text

    def chosen(self, rows: Sequence[int]) -> list[ExpiryRow]:
        """The rows the letters go to: the selected ones, or all of them."""
        picked = [self.items[r] for r in sorted(set(rows)) if 0 <= r < len(self.items)]
        return picked or list(self.items)


# --- Deposits -------------------------------------------------------------------------------------

DEPOSIT_COLUMNS = (
    "Permit",
    "Address",
    "Depositor",
    "Refund to",
    "Amount",
    "Received",
    "Completed",
    "Eligible",
    "Status",
)
QUEUE_ORDER = ("eligible", "soon", "ordered", "retained", "all")


def _your_roles(roles: frozenset[Role]) -> str:
    return "your roles: " + (", ".join(sorted(r.value for r in roles)) or "none")


class DepositsPresenter:
    columns = DEPOSIT_COLUMNS

    def __init__(
        self,
        fetch: Callable[[date], list[DepositLine]],
        today: Callable[[], date],
        roles: frozenset[Role],
        orderer: Role = DEFAULT_REFUND_ORDER_ROLE,
    ) -> None:
        self.fetch = fetch
        self.today = today
        self.roles = roles
        # Who acts for the City Engineer on refunds in this office (15.1.43; the Municipality
        # screen), read by the view on each load.
        self.orderer = orderer
        self.queue = "all"
        self.lines: list[DepositLine] = []
        self.rows: list[Line] = []
        self.on = today()

    def load(self) -> None:
        self.on = self.today()
        self.lines = self.fetch(self.on)
        self._filter()

    def set_queue(self, queue: str) -> None:
        if queue not in QUEUES:
            raise ValueError(queue)
        self.queue = queue
        self._filter()

    def _filter(self) -> None:
        self.rows = [
            Line(
                x,
                (
                    x.permit_label,
                    x.address,
                    x.depositor,
                    x.payee if x.payee != x.depositor else "",
                    format_amount(x.amount),
                    format_date(x.received_on),
                    format_date(x.completed_on),
                    format_date(x.eligible_from),
                    x.status_text,
                ),
                warn=x.status is DepositStatus.ELIGIBLE,
            )
            for x in self.lines
            if in_queue(x, self.queue, self.on)
        ]

    def count(self, queue: str) -> int:
        return sum(1 for x in self.lines if in_queue(x, queue, self.on))

    def tab_title(self, queue: str) -> str:
        return f"{QUEUES[queue]} ({self.count(queue)})"

    def line(self, row: int) -> DepositLine | None:
        return item_at(self.rows, row, DepositLine)

    def row_of(self, deposit_id: int) -> int:
        return row_of(self.rows, deposit_id, "deposit_id")

    @property
    def summary(self) -> str:
        n = len(self.rows)
        total = sum(
            (r.item.amount for r in self.rows if isinstance(r.item, DepositLine)), Decimal(0)
        )
        if n == 0:
            return "No deposit in this list."
        return f"{n} deposit{'s' * (n != 1)}, {format_amount(total)}"

    # Which action the signed-in user may take on the selected deposit, and why not.

    def can_pay(self, row: int) -> tuple[bool, str]:
        x = self.line(row)
        if x is None:
            return False, "Choose a deposit."
        if x.status is not None:
            return False, f"The deposit was received on {format_date(x.received_on)}."
        if not self.roles & {Role.CLERK, Role.TREASURER, Role.ADMINISTRATOR}:
            return False, "Taking a payment takes the clerk's or the treasurer's role."
        return True, ""

    def can_complete(self, row: int) -> tuple[bool, str]:
        x = self.line(row)
        if x is None:
            return False, "Choose a deposit."
        if Role.INSPECTOR not in self.roles:
            return False, "The inspector records when the work was completed."
        if x.status not in (DepositStatus.HELD, DepositStatus.ELIGIBLE):
            return False, f"The deposit is {x.status_text.lower()}."
        return True, ""

    def can_order(self, row: int) -> tuple[bool, str]:
        x = self.line(row)
        if x is None:
            return False, "Choose a deposit."
        refusal = order_refusal(self.roles, self.orderer)
        if refusal:
            return False, refusal
        if x.status is not DepositStatus.ELIGIBLE:
            if x.status is DepositStatus.HELD and x.eligible_from is not None:
                return False, f"Eligible from {format_date(x.eligible_from)} (15.1.43)."
            if x.status is DepositStatus.HELD:
                return False, "No completion date is recorded yet."
            return False, f"The deposit is {x.status_text.lower()}."
        return True, ""

    def can_refund(self, row: int) -> tuple[bool, str]:
        x = self.line(row)
        if x is None:
            return False, "Choose a deposit."
        if Role.CLERK not in self.roles:
            return (
                False,
                f"The City Clerk issues the refund check (15.1.43); {_your_roles(self.roles)}.",
            )
        if x.status is not DepositStatus.ORDERED:
            return False, "A deposit is refunded on the City Engineer's order (15.1.43)."
        return True, ""

    def can_retain(self, row: int) -> tuple[bool, str]:
        x = self.line(row)
        if x is None:
            return False, "Choose a deposit."
        if Role.CLERK not in self.roles:
            return False, "The City Clerk records the Council's resolution (15.1.43)."
        if x.status not in (DepositStatus.HELD, DepositStatus.ELIGIBLE, DepositStatus.ORDERED):
            return False, f"The deposit is {x.status_text.lower()}."
        if x.retained > 0:
            return False, f"The Council already retained {money_words(x.retained)}."
        return True, ""

    def detail(self, row: int) -> str:
        """The selected deposit in a few lines under the table."""
        x = self.line(row)
        if x is None:
            return ""
        parts = [
            f"Permit {x.permit_label}, {x.address}: {format_amount(x.amount)} from {x.depositor}"
            + (
                f", receipt {x.receipt_number} of {format_date(x.received_on)}"
                if x.receipt_number
                else ""
            )
            + "."
        ]
        parts.append(
            f"Refund to {x.payee}"
            + (f", {x.payee_address.replace(chr(10), ', ')}" if x.payee_address else "")
            + "."
        )
        if x.completed_on:
            parts.append(
                f"Work completed {format_date(x.completed_on)}; eligible for return from "
                f"{format_date(x.eligible_from)} (15.1.43)."
            )
        if x.ordered_on:
            parts.append(f"Ordered returned by {x.ordered_by} on {format_date(x.ordered_on)}.")
        if x.retained:
            parts.append(
                f"The Council retained {format_amount(x.retained)} by resolution {x.resolution} "
                f"of {format_date(x.resolved_on)}: {x.retention_reason}."
            )
        if x.check_number:
            parts.append(
                f"Refunded {format_amount(x.refund_amount)} by check {x.check_number} of "
                f"{format_date(x.check_date)}."
            )
        return " ".join(parts)


# --- the permit window's Sureties tab -------------------------------------------------------------

ON_FILE_COLUMNS = ("On file", "Reference", "Holder", "Amount or limits", "Period", "Status")


@dataclass(frozen=True)
class Fact:
    name: str  # the PermitFacts field
    label: str
    amount: bool = False  # an amount of money, not a yes/no


# What the inspector or engineer records per kind (the facts resources/surety_requirements.toml
# turns on), in the order of the ordinance's sentences.
FACTS_BY_KIND: dict[str, tuple[Fact, ...]] = {
    "MOVE": (
        Fact("bond_amount", "Bond amount fixed by the Building Inspector (15.1.9(f)(1))", True),
        Fact("excavation_hazard", "The excavation left behind is a hazard (15.1.9(f)(2))"),
        Fact("exterior_altered", "The exterior is to be altered (15.1.9(h)(1))"),
        Fact(
            "plan_commission_bond_amount",
            "Plan Commission bond amount (15.1.9(h)(1))",
            True,
        ),
    ),
    "PLUMBING": (
        Fact("excavates_public_street", "Excavates a public street or road (15.1.38(a))"),
        Fact("street_paved", "The street is paved (15.1.43)"),
        Fact("deposit_amount", "Street deposit set by the City Engineer (15.1.43)", True),
    ),
    "SEWER-WATER": (
        Fact("excavates_public_street", "Excavates a public street or road (15.1.38(a))"),
        Fact("street_paved", "The street is paved (15.1.43)"),
        Fact("deposit_amount", "Street deposit set by the City Engineer (15.1.43)", True),
    ),
    "EROSION": (
        Fact("inspector_requires_surety", "The inspector requires a surety (15.2.8(e)(2))"),
        Fact("bond_amount", "Amount of the surety bond or letter of credit", True),
    ),
    "STREET-OPENING": (
        Fact("engineer_requires_bond", "The City Engineer requires a bond (§435-7.K)"),
        Fact("bond_amount", "Bond amount the City Engineer recommends (§435-7.K)", True),
        Fact("public_utility", "The applicant is a public utility (§435-7.L)"),
        Fact(
            "restoration_bond_amount",
            "Restoration guarantee set by the Director of Public Works (§435-7.K)",
            True,
        ),
    ),
    "STREET-PRIVILEGE": (Fact("bond_amount", "Bond amount, at most $10,000 (§435-10.B)", True),),
}


class PermitSuretiesPresenter:
    columns = ON_FILE_COLUMNS

    def __init__(self, view: PermitSureties) -> None:
        self.view = view
        self.rows = [
            Line(
                f,
                (f.what, f.reference or EMPTY, f.holder, f.amount, f.period, f.status),
                warn=f.status.startswith(("Expired", "Awaiting")),
            )
            for f in view.on_file
        ]

    @property
    def facts(self) -> tuple[Fact, ...]:
        return FACTS_BY_KIND.get(self.view.kind, ())

    @property
    def applies(self) -> bool:
        return bool(self.view.requirements or self.view.exemptions or self.view.on_file)

    @property
    def requirements_text(self) -> list[str]:
        if not self.view.requirements:
            return ["No bond, insurance or street deposit is required for this permit."]
        return [f"{r.what}: {r.detail} ({r.section})" for r in self.view.requirements]

    @property
    def status_text(self) -> str:
        if self.view.closed:
            return (
                f"The permit is {self.view.status.label.lower()}: its bonds and insurance are no "
                "longer checked."
            )
        n = len(self.view.shortfalls)
        when = format_date(self.view.checked_on)
        term = (
            f" and through the end of its term, {format_date(self.view.term_ends)}"
            if self.view.term_ends
            else ""
        )
        if n == 0:
            if not self.view.requirements:
                return "Nothing to check."
            return f"Everything required is on file for {when}{term}."
        return f"{n} shortfall{'s' * (n != 1)} on {when}{term}:"

    def fact_text(self, fact: Fact) -> str:
        value = getattr(self.view.facts, fact.name)
        if fact.amount:
            return format_amount(value) if value is not None else EMPTY
        return "Yes" if value else "No"
