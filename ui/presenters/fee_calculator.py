"""The fee calculator: the lines a clerk enters, the flags, and the breakdown (no Qt here).

The presenter holds what was typed as text, turns it into a desk.fees.engine.QuoteRequest and
prices it with the schedule version in effect on the chosen date. A mistake (typed or found by
the engine) is one message naming the item and the field, e.g. "RES-NEW.quantity: enter the
quantity (square feet)"; the last valid breakdown then stays visible but marked out of date.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from desk.calendar import is_holiday
from desk.errors import ValidationError
from desk.fees.engine import DOUBLE_FEE_CODE, Quote, QuoteItem, QuoteRequest, price
from desk.fees.model import QUANTITY_UNITS, FeeItem, FeeSchedule, ItemKind, ScheduleVersion
from desk.money import format_money, parse_money
from ui.presenters.formatting import EMPTY, format_date, format_percent

# The entry fields, in the order of the form.
QUANTITY = "quantity"
AMOUNT = "amount"
OCCURRENCE = "occurrence"
RATE = "rate"
PAVEMENT_AGE = "pavement_age_years"
FIELD_KEYS = (QUANTITY, AMOUNT, OCCURRENCE, RATE, PAVEMENT_AGE)

EMPTY_TEXT = (
    "No items yet. Type a code or words of an item's description above, fill in what it "
    "asks for and press Enter; the fees appear here."
)
STALE_NOTE = "not current"


@dataclass(frozen=True)
class InputField:
    key: str  # one of FIELD_KEYS
    label: str  # "Square feet", "Amount from the application form", ...
    placeholder: str = ""


@dataclass(frozen=True)
class ItemChoice:
    code: str
    text: str  # "RES-NEW — Residential new construction, all floor area"


@dataclass(frozen=True)
class CalculatorLine:
    """One entered item: its code and the text typed in each of its fields."""

    code: str
    values: Mapping[str, str] = field(default_factory=dict)

    def value(self, key: str) -> str:
        return self.values.get(key, "").strip()


@dataclass(frozen=True)
class BreakdownRow:
    code: str
    description: str
    section: str
    base: str
    admin: str
    amount: str
    note: str = ""
    total: bool = False  # the total (and subtotal) rows, drawn in bold
    extra: bool = False  # a line the engine added: double fee, surcharge

    def cells(self) -> tuple[str, str, str, str, str, str]:
        return (self.code, self.description, self.section, self.base, self.admin, self.amount)


BREAKDOWN_KEYS = ("code", "description", "section", "base", "admin", "amount")
MONEY_KEYS = frozenset({"base", "admin", "amount"})


_EXAMPLES = {
    ItemKind.PER_SQFT: "e.g. 2400",
    ItemKind.PER_THOUSAND: "e.g. 14,800",
    ItemKind.PER_DWELLING_UNIT: "e.g. 1",
    ItemKind.PER_EACH: "e.g. 2",
    ItemKind.PER_HOUR: "e.g. 3",
    ItemKind.PER_ACRE: "e.g. 1.5",
    ItemKind.PER_FRONT_FOOT: "e.g. 80",
}


def fields_for(item: FeeItem) -> tuple[InputField, ...]:
    """The fields an item's kind needs, labelled in the clerk's words."""
    kind = item.kind
    out: list[InputField] = []
    if kind.takes_quantity:
        unit = QUANTITY_UNITS[kind]
        out.append(InputField(QUANTITY, unit[:1].upper() + unit[1:], _EXAMPLES.get(kind, "")))
    if kind is ItemKind.PER_FRONT_FOOT:
        out.append(InputField(RATE, "Rate per front foot", "e.g. 32.50"))
    if kind is ItemKind.ENTERED:
        hint = f"blank: the ${item.minimum:,.2f} minimum" if item.minimum is not None else ""
        out.append(InputField(AMOUNT, "Amount from the application form", hint))
    elif kind is ItemKind.PASS_THROUGH:
        out.append(InputField(AMOUNT, "Amount charged by the other government"))
    elif kind is ItemKind.COST_PLUS:
        out.append(InputField(AMOUNT, "Labor + materials + equipment"))
    elif kind is ItemKind.COUNCIL_SET:
        if item.council_value is None:
            out.append(InputField(AMOUNT, "Amount (the council has not set this fee)"))
        else:
            out.append(InputField(AMOUNT, "Amount", f"blank: ${item.council_value:,.2f}"))
    elif kind is ItemKind.DEPOSIT:
        assert item.rate is not None
        out.append(InputField(AMOUNT, "Deposit", f"blank: ${item.rate:,.2f}"))
    if kind is ItemKind.ESCALATING:
        out.append(InputField(OCCURRENCE, "Occurrence", "1 for the first"))
    if item.surcharge == "pavement_age":
        out.append(InputField(PAVEMENT_AGE, "Paving age (full years)", "since final paving"))
    return tuple(out)


# --- parsing what was typed ------------------------------------------------------------------

_NUMBER_JUNK = re.compile(r"[,$\s]")


def _number(code: str, key: str, text: str) -> Decimal | None:
    if not text:
        return None
    try:
        value = Decimal(_NUMBER_JUNK.sub("", text))
    except InvalidOperation:
        raise ValidationError(f"{code}.{key}", f"'{text}' is not a number") from None
    if not value.is_finite():
        raise ValidationError(f"{code}.{key}", f"'{text}' is not a number")
    if value < 0:
        raise ValidationError(f"{code}.{key}", "must not be negative")
    return value


def _occurrence(code: str, text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit():
        raise ValidationError(f"{code}.{OCCURRENCE}", "enter a whole number (1, 2, 3, ...)")
    return int(text)


def quote_item(line: CalculatorLine) -> QuoteItem:
    """The engine's request item; ValidationError('CODE.field', ...) for text that is no number."""
    code = line.code
    amount_text = line.value(AMOUNT)
    return QuoteItem(
        code=code,
        quantity=_number(code, QUANTITY, line.value(QUANTITY)),
        amount=parse_money(amount_text, f"{code}.{AMOUNT}") if amount_text else None,
        occurrence=_occurrence(code, line.value(OCCURRENCE)),
        rate=_number(code, RATE, line.value(RATE)),
        pavement_age_years=_number(code, PAVEMENT_AGE, line.value(PAVEMENT_AGE)),
    )


def _plain_number(text: str) -> str:
    """'2400' -> '2,400' for the lines list (what was typed, when it is no number)."""
    try:
        value = Decimal(_NUMBER_JUNK.sub("", text))
    except InvalidOperation:
        return text
    if not value.is_finite():
        return text
    return f"{value:,}" if value == value.to_integral_value() else f"{value:,.2f}".rstrip("0")


# --- the presenter ---------------------------------------------------------------------------


class FeeCalculatorPresenter:
    def __init__(
        self,
        schedule: FeeSchedule,
        on: date,
        *,
        holiday: Callable[[date], bool] = is_holiday,
    ) -> None:
        self.schedule = schedule
        self.on = on
        self.holiday = holiday
        self.lines: list[CalculatorLine] = []
        self.work_began_before_permit = False
        self.emergency = False
        self.excavated_on: date | None = None
        self.applied_on: date | None = None
        self.quote: Quote | None = None  # the last breakdown that could be priced
        self.current = True  # False while an error makes `quote` out of date
        self.error = ""
        self.error_line: int | None = None  # the entered line the error is about

    # --- the schedule --------------------------------------------------------------------

    @property
    def version(self) -> ScheduleVersion | None:
        return self.schedule.version_on(self.on)

    @property
    def version_text(self) -> str:
        v = self.version
        if v is None:
            return f"No fee schedule is in effect on {format_date(self.on)}."
        return f"Schedule: {v.label}, in effect from {format_date(v.effective_from)}"

    @property
    def municipality(self) -> str:
        return self.schedule.municipality

    def set_schedule(self, schedule: FeeSchedule) -> None:
        """After a new version is saved: the schedule as it now is."""
        self.schedule = schedule

    def item_choices(self) -> list[ItemChoice]:
        v = self.version
        if v is None:
            return []
        return [ItemChoice(it.code, f"{it.code} — {it.description}") for it in v.items]

    def item(self, code: str) -> FeeItem | None:
        """The item of the version in effect with this code (any case)."""
        v = self.version
        if v is None:
            return None
        wanted = code.strip().upper()
        return next((it for it in v.items if it.code.upper() == wanted), None)

    def find_item(self, text: str) -> FeeItem | None:
        """The item a clerk means by `text`: a code, a completer entry, or one unique match."""
        v = self.version
        wanted = text.strip()
        if v is None or not wanted:
            return None
        code = wanted.split(" — ", 1)[0].strip().upper()
        for it in v.items:
            if it.code.upper() == code:
                return it
        needle = wanted.lower()
        matches = [
            it for it in v.items if needle in it.code.lower() or needle in it.description.lower()
        ]
        return matches[0] if len(matches) == 1 else None

    def fields(self, code: str) -> tuple[InputField, ...]:
        item = self.item(code)
        return () if item is None else fields_for(item)

    @property
    def needs_emergency_dates(self) -> bool:
        """New Lisbon §435-7: an emergency needs the excavation and the filing dates."""
        v = self.version
        return v is not None and any(it.emergency_waivable for it in v.items)

    @property
    def admin_title(self) -> str:
        v = self.version
        if v is not None and v.admin_rate:
            return f"{format_percent(v.admin_rate)} admin"
        return "Admin"

    @property
    def footnote(self) -> str:
        v = self.version
        if v is not None and v.round_up_to_dollar:
            return "Fees are rounded up to the next whole dollar."
        return ""

    # --- what the clerk does (the view then calls recalculate(), debounced) --------------

    def set_date(self, day: date) -> None:
        self.on = day

    def add_line(self, code: str, values: Mapping[str, str] | None = None) -> int:
        """Add an item (values by field key, as typed); returns its index."""
        self.lines.append(self._line(code, values))
        return len(self.lines) - 1

    def replace_line(self, index: int, code: str, values: Mapping[str, str] | None = None) -> None:
        self.lines[index] = self._line(code, values)

    def remove_line(self, index: int) -> None:
        if 0 <= index < len(self.lines):
            del self.lines[index]

    def clear(self) -> None:
        self.lines.clear()
        self.work_began_before_permit = False
        self.emergency = False

    def set_flags(
        self,
        *,
        work_began_before_permit: bool | None = None,
        emergency: bool | None = None,
        excavated_on: date | None = None,
        applied_on: date | None = None,
    ) -> None:
        if work_began_before_permit is not None:
            self.work_began_before_permit = work_began_before_permit
        if emergency is not None:
            self.emergency = emergency
        if excavated_on is not None:
            self.excavated_on = excavated_on
        if applied_on is not None:
            self.applied_on = applied_on

    def _line(self, code: str, values: Mapping[str, str] | None) -> CalculatorLine:
        item = self.item(code)
        keys = {f.key for f in fields_for(item)} if item is not None else set(FIELD_KEYS)
        kept = {k: v.strip() for k, v in (values or {}).items() if k in keys and v.strip()}
        return CalculatorLine(item.code if item is not None else code.strip(), kept)

    # --- pricing -------------------------------------------------------------------------

    def request(self) -> QuoteRequest:
        """The engine's request; ValidationError names the item and field of a typing mistake."""
        return self._request(tuple(quote_item(line) for line in self.lines))

    def _request(self, items: tuple[QuoteItem, ...]) -> QuoteRequest:
        emergency_dates = self.emergency and self.needs_emergency_dates
        return QuoteRequest(
            items=items,
            work_began_before_permit=self.work_began_before_permit,
            emergency=self.emergency,
            excavated_on=self.excavated_on if emergency_dates else None,
            applied_on=self.applied_on if emergency_dates else None,
        )

    def recalculate(self) -> None:
        """Price the lines; on a mistake keep the last breakdown, marked not current."""
        self.error = ""
        self.error_line = None
        if not self.lines:
            self.quote = None
            self.current = True
            return
        version = self.version
        if version is None:
            self.error = self.version_text
            self.current = False
            return
        items = []
        for index, line in enumerate(self.lines):
            try:
                items.append(quote_item(line))
            except ValidationError as e:
                self._fail(e, index)
                return
        try:
            self.quote = price(version, self._request(tuple(items)), self.holiday)
        except ValidationError as e:
            self._fail(e, self._line_of(e.field))
            return
        self.current = True

    def _fail(self, error: ValidationError, line: int | None) -> None:
        self.error = str(error)
        self.error_line = line
        self.current = False

    def _line_of(self, field_name: str) -> int | None:
        code = field_name.split(".", 1)[0]
        for index, line in enumerate(self.lines):
            if line.code == code:
                return index
        return None

    # --- what the tables show ------------------------------------------------------------

    @property
    def total(self) -> Decimal | None:
        """The total a clerk may quote: None when there is none or it is out of date."""
        return self.quote.total if self.quote is not None and self.current else None

    @property
    def total_text(self) -> str:
        total = self.total
        return EMPTY if total is None else format_money(total)

    @property
    def can_print(self) -> bool:
        return self.total is not None

    def line_description(self, index: int) -> str:
        item = self.item(self.lines[index].code)
        return item.description if item is not None else "not an item of this schedule version"

    def line_entered(self, index: int) -> str:
        """What was entered for a line, in words: '2,400 square feet', '$120.00'."""
        line = self.lines[index]
        item = self.item(line.code)
        parts: list[str] = []
        quantity = line.value(QUANTITY)
        if quantity:
            unit = QUANTITY_UNITS.get(item.kind, "") if item is not None else ""
            parts.append(f"{_plain_number(quantity)} {unit}".strip())
        rate = line.value(RATE)
        if rate:
            parts.append(f"at ${_plain_number(rate)} per front foot")
        amount = line.value(AMOUNT)
        if amount:
            try:
                parts.append(format_money(parse_money(amount)))
            except ValidationError:
                parts.append(amount)
        occurrence = line.value(OCCURRENCE)
        if occurrence:
            parts.append(f"occurrence {occurrence}")
        age = line.value(PAVEMENT_AGE)
        if age:
            parts.append(f"paving {_plain_number(age)} years old")
        if parts:
            return ", ".join(parts)
        if item is not None and fields_for(item):
            return EMPTY
        return "nothing to enter"

    def rows(self) -> list[BreakdownRow]:
        """The breakdown: the priced lines, then the total (or subtotals with a deposit)."""
        if self.quote is None:
            return []
        out = []
        for line in self.quote.lines:
            note = line.note
            description = f"{line.description} ({note})" if note else line.description
            out.append(
                BreakdownRow(
                    code=line.code,
                    description=description,
                    section=line.section,
                    base=format_money(line.base),
                    admin=format_money(line.admin) if line.admin else "",
                    amount=format_money(line.amount),
                    note=note,
                    extra=line.code == DOUBLE_FEE_CODE or line.code.endswith("-SURCHARGE"),
                )
            )
        q = self.quote
        stale = not self.current

        def total_row(label: str, amount: Decimal) -> BreakdownRow:
            if stale:
                label = f"{label} ({STALE_NOTE}: fix the mistake shown below)"
            text = EMPTY if stale else format_money(amount)
            return BreakdownRow("", label, "", "", "", text, total=True)

        if q.deposits_total:
            out.append(total_row("Fees", q.fees_total))
            out.append(total_row("Deposits held (not fees)", q.deposits_total))
        out.append(total_row("Total", q.total))
        return out

    @property
    def empty_text(self) -> str:
        return EMPTY_TEXT if not self.lines else ""


def sample_lines(municipality: str) -> list[CalculatorLine]:
    """What the screenshot of the calculator shows (`--view calculator`): a Glendale house."""
    if municipality != "glendale":
        return []
    return [
        CalculatorLine("RES-NEW", {QUANTITY: "2400"}),
        CalculatorLine("RES-STATE-SEAL"),
        CalculatorLine("PLUMBING", {AMOUNT: "120.00"}),
    ]
