"""Pricing a permit from a schedule version. Pure Decimal arithmetic, no I/O.

Readings of the ordinances (also in docs/user-guide.md):

- Line amount (Glendale 15.1.21): base = rate × quantity (per $1,000 items: valuation ÷ 1,000 ×
  rate, the valuation not rounded); then the minimum (an entered amount below the minimum, or none,
  is charged the minimum); then, where the item carries it, the administrative cost (40 % of the
  base, "An additional 40% administrative cost shall be added to all fees unless otherwise
  indicated"); then the line is rounded up to the next whole dollar ("All fee categories shall be
  rounded up to the next full dollar amount"). Arithmetic is exact until that rounding; base and
  admin are shown to the cent. Pass-through, assessments and deposits are exact to the cent.
- Commercial minimum (15.1.21(b)(1)i): the lines of one group share one minimum; when their bases
  add up to less, they are charged as a single minimum line.
- Double fees (15.1.21(f), 15.1.90(b)(4)): when work began before the permit was issued, except in
  an emergency, every line marked "doubles" is charged twice; the extra is its own line.
- New Lisbon §435-7: an emergency excavation filed within two regular business days pays no permit
  fee (city expenses still apply); filed later, the late fee applies. The surcharge for opening
  a paved surface is a multiple of the permit fee by whole years since the final paving.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

from desk.errors import ValidationError
from desk.fees.model import QUANTITY_UNITS, FeeItem, ItemKind, ScheduleVersion
from desk.money import CENT

ZERO = Decimal("0")
DOLLAR = Decimal("1")
THOUSAND = Decimal("1000")

DOUBLE_FEE_CODE = "DOUBLE-FEE"
SURCHARGE_SUFFIX = "-SURCHARGE"

# New Lisbon §435-7 surcharge: whole years completed since the final paving -> times the fee.
PAVEMENT_SURCHARGE = {0: 5, 1: 4, 2: 3, 3: 2, 4: 1}


@dataclass(frozen=True)
class QuoteItem:
    code: str
    quantity: Decimal | None = None
    amount: Decimal | None = None
    occurrence: int | None = None
    rate: Decimal | None = None
    pavement_age_years: Decimal | None = None


@dataclass(frozen=True)
class QuoteRequest:
    items: tuple[QuoteItem, ...]
    work_began_before_permit: bool = False
    emergency: bool = False
    excavated_on: date | None = None  # New Lisbon emergency: the day of the excavation
    applied_on: date | None = None  # ... and the day the application was filed


@dataclass(frozen=True)
class QuoteLine:
    code: str
    description: str
    section: str
    base: Decimal
    admin: Decimal
    amount: Decimal
    gl_account: str = ""
    deposit: bool = False
    note: str = ""


@dataclass(frozen=True)
class Quote:
    municipality: str
    schedule_version: str
    effective_from: date
    lines: tuple[QuoteLine, ...] = field(default_factory=tuple)
    admin_rate: Decimal = ZERO  # the version's administrative cost, for printed headings
    round_up_to_dollar: bool = False

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def fees_total(self) -> Decimal:
        return sum((line.amount for line in self.lines if not line.deposit), ZERO)

    @property
    def deposits_total(self) -> Decimal:
        return sum((line.amount for line in self.lines if line.deposit), ZERO)


def round_up_to_dollar(amount: Decimal) -> Decimal:
    """15.1.21 NOTE: "All fee categories shall be rounded up to the next full dollar amount"."""
    return amount.quantize(DOLLAR, rounding=ROUND_CEILING).quantize(CENT)


def _cents(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass
class _Raw:
    """A line before rounding: exact base and admin."""

    item: FeeItem
    base: Decimal
    admin_applies: bool
    description: str = ""
    note: str = ""
    code: str = ""


def _field(item: FeeItem, name: str, message: str) -> ValidationError:
    return ValidationError(f"{item.code}.{name}", message)


def _require_quantity(item: FeeItem, q: QuoteItem) -> Decimal:
    unit = QUANTITY_UNITS[item.kind]
    if q.quantity is None:
        raise _field(item, "quantity", f"enter the quantity ({unit})")
    if q.quantity < 0:
        raise _field(item, "quantity", "must not be negative")
    return q.quantity


def _require_amount(item: FeeItem, q: QuoteItem, what: str) -> Decimal:
    if q.amount is None:
        raise _field(item, "amount", f"enter {what}")
    return q.amount


def _base(item: FeeItem, q: QuoteItem) -> tuple[Decimal, str]:
    """The exact base of one requested item, before minimums; and a note for the line."""
    kind = item.kind
    if not kind.takes_quantity and q.quantity is not None:
        raise _field(item, "quantity", f"a {kind.label} item takes no quantity")
    if q.amount is not None and q.amount < 0:
        raise _field(item, "amount", "must not be negative")
    if kind in (
        ItemKind.PER_SQFT,
        ItemKind.PER_DWELLING_UNIT,
        ItemKind.PER_EACH,
        ItemKind.PER_HOUR,
    ):
        assert item.rate is not None
        return item.rate * _require_quantity(item, q), ""
    if kind is ItemKind.PER_THOUSAND:
        assert item.rate is not None
        return _require_quantity(item, q) / THOUSAND * item.rate, ""
    if kind is ItemKind.PER_ACRE:
        assert item.rate is not None and item.first_rate is not None
        acres = _require_quantity(item, q)
        if acres == 0:
            return ZERO, ""
        further = max(ZERO, acres - 1).to_integral_value(rounding=ROUND_CEILING)
        return item.first_rate + item.rate * further, ""
    if kind is ItemKind.PER_FRONT_FOOT:
        feet = _require_quantity(item, q)
        if q.rate is None:
            raise _field(item, "rate", "enter the rate per front foot")
        if q.rate < 0:
            raise _field(item, "rate", "must not be negative")
        return feet * q.rate, ""
    if kind is ItemKind.FLAT:
        assert item.rate is not None
        return item.rate, ""
    if kind is ItemKind.ESCALATING:
        if q.occurrence is None:
            raise _field(item, "occurrence", "enter which occurrence this is (1 for the first)")
        if q.occurrence < 1:
            raise _field(item, "occurrence", "must be 1 or more")
        index = min(q.occurrence, len(item.rates)) - 1
        return item.rates[index], f"occurrence {q.occurrence}"
    if kind is ItemKind.ENTERED:
        if q.amount is None:
            if item.minimum is None:
                raise _field(item, "amount", "enter the amount (from the application form)")
            return ZERO, ""
        return q.amount, ""
    if kind is ItemKind.PASS_THROUGH:
        return _require_amount(item, q, "the amount charged by the other government"), "at cost"
    if kind is ItemKind.COST_PLUS:
        return _require_amount(item, q, "labor + materials + equipment"), ""
    if kind is ItemKind.COUNCIL_SET:
        if q.amount is not None:
            return q.amount, ""
        if item.council_value is None:
            raise _field(
                item,
                "amount",
                "the council has not set this fee yet; an administrator sets it in "
                "Administration → Fee schedules (new version), or enter the amount",
            )
        return item.council_value, ""
    if kind is ItemKind.DEPOSIT:
        assert item.rate is not None
        if q.amount is None:
            return item.rate, ""
        if q.amount < item.rate:
            raise _field(item, "amount", f"the deposit is at least ${item.rate:,.2f}")
        return q.amount, "increased by the City Engineer"
    raise AssertionError(kind)


def add_business_days(day: date, n: int, is_holiday: Callable[[date], bool]) -> date:
    current = day
    while n > 0:
        current += timedelta(days=1)
        if current.weekday() < 5 and not is_holiday(current):
            n -= 1
    return current


def pavement_multiplier(age_years: Decimal) -> int:
    if age_years < 0:
        raise ValidationError("pavement_age_years", "must not be negative")
    return PAVEMENT_SURCHARGE.get(int(age_years), 0)


def price(
    version: ScheduleVersion,
    request: QuoteRequest,
    is_holiday: Callable[[date], bool] = lambda d: False,
) -> Quote:
    """Price a request with one schedule version. ValidationError names the item and field."""
    if not request.items:
        raise ValidationError("items", "add at least one fee item")
    raws: list[_Raw] = []
    surcharges: list[tuple[int, Decimal, FeeItem]] = []  # (index of the fee line, age, item)
    for q in request.items:
        item = version.item(q.code)
        if item is None:
            raise ValidationError(
                f"{q.code}.code", f"'{q.code}' is not an item of the {version.label} schedule"
            )
        note = ""
        if item.emergency_waivable and request.emergency:
            filed_in_time = _filed_in_time(request, item, is_holiday)
            if filed_in_time:
                raws.append(
                    _Raw(
                        item,
                        ZERO,
                        False,
                        note="no permit fee: emergency filed within two business days",
                    )
                )
                continue
            late = version.item(item.late_code) if item.late_code else None
            if late is None:
                raise _field(item, "code", "the schedule has no late fee for this item")
            item, note = late, "emergency not filed within two business days"
        base, base_note = _base(item, q)
        if item.minimum is not None and item.group is None:
            base = max(base, item.minimum)
        raws.append(_Raw(item, base, item.admin, note=note or base_note))
        if item.surcharge == "pavement_age":
            if q.pavement_age_years is None:
                raise _field(item, "pavement_age_years", "enter the age of the final paving")
            surcharges.append((len(raws) - 1, q.pavement_age_years, item))
    raws = _apply_group_minimums(version, raws)
    lines = [_finish(version, r) for r in raws]
    for index, age, item in surcharges:
        fee = lines[index].amount
        times = pavement_multiplier(age)
        lines.append(
            QuoteLine(
                code=item.code + SURCHARGE_SUFFIX,
                description=f"surcharge — final paving {int(age)} full years old ({times} × fee)",
                section=item.section,
                base=_cents(fee * times),
                admin=ZERO.quantize(CENT),
                amount=_cents(fee * times),
                gl_account=item.gl_account,
            )
        )
    if request.work_began_before_permit and not request.emergency:
        doubled = [
            (line, raw)
            for line, raw in zip(lines, raws, strict=False)
            if raw.item.doubles and line.amount > 0
        ]
        if doubled:
            lines.append(
                QuoteLine(
                    code=DOUBLE_FEE_CODE,
                    description="double fee — work began before permit",
                    section=double_fee_section(version.municipality),
                    base=sum((line.base for line, _ in doubled), ZERO),
                    admin=sum((line.admin for line, _ in doubled), ZERO),
                    amount=sum((line.amount for line, _ in doubled), ZERO),
                    gl_account=doubled[0][1].item.gl_account,
                    note=", ".join(line.code for line, _ in doubled),
                )
            )
    return Quote(
        municipality=version.municipality,
        schedule_version=version.label,
        effective_from=version.effective_from,
        lines=tuple(lines),
        admin_rate=version.admin_rate,
        round_up_to_dollar=version.round_up_to_dollar,
    )


# Where a municipality doubles fees for work begun before the permit: Glendale 15.1.21(f).
# New Lisbon's Ch. 435 has no such rule (no item of its schedule doubles).
DOUBLE_FEE_SECTIONS = {"glendale": "15.1.21(f)"}


def double_fee_section(municipality_key: str) -> str:
    """The section that doubles fees for work begun before the permit; "" where none does."""
    return DOUBLE_FEE_SECTIONS.get(municipality_key, "")


def _filed_in_time(
    request: QuoteRequest, item: FeeItem, is_holiday: Callable[[date], bool]
) -> bool:
    if request.excavated_on is None or request.applied_on is None:
        raise _field(
            item, "excavated_on", "an emergency needs the excavation date and the filing date"
        )
    if request.applied_on < request.excavated_on:
        raise _field(item, "applied_on", "is before the excavation")
    return request.applied_on <= add_business_days(request.excavated_on, 2, is_holiday)


def _apply_group_minimums(version: ScheduleVersion, raws: list[_Raw]) -> list[_Raw]:
    out: list[_Raw] = []
    done: set[str] = set()
    for raw in raws:
        g = raw.item.group
        if g is None:
            out.append(raw)
            continue
        if g in done:
            continue
        done.add(g)
        members = [r for r in raws if r.item.group == g]
        group = version.group(g)
        total = sum((r.base for r in members), ZERO)
        if group is not None and total < group.minimum:
            first = members[0].item
            out.append(
                _Raw(
                    first,
                    group.minimum,
                    any(r.admin_applies for r in members),
                    description=group.description,
                    code=group.code,
                    note="minimum for " + ", ".join(r.item.code for r in members),
                )
            )
            # The minimum line stands for these items; keep their section on it.
        else:
            out.extend(members)
    return out


def _finish(version: ScheduleVersion, raw: _Raw) -> QuoteLine:
    item = raw.item
    rate = item.admin_rate if item.admin_rate is not None else version.admin_rate
    admin = raw.base * rate if raw.admin_applies else ZERO
    exact_total = raw.base + admin
    if version.round_up_to_dollar and not item.kind.exact:
        amount = round_up_to_dollar(exact_total)
    else:
        amount = _cents(exact_total)
    group = version.group(raw.code) if raw.code else None
    return QuoteLine(
        code=raw.code or item.code,
        description=raw.description or item.description,
        section=group.section if group else item.section,
        base=_cents(raw.base),
        admin=_cents(admin),
        amount=amount,
        gl_account=item.gl_account,
        deposit=item.kind is ItemKind.DEPOSIT,
        note=raw.note,
    )
