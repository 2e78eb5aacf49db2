"""A municipality's fee schedule: versions with an effective date, each a list of items."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from enum import StrEnum


class ItemKind(StrEnum):
    """How an item's base is computed. The `unit` column of the schedule tables."""

    PER_SQFT = "per_sqft"  # rate × square feet
    PER_THOUSAND = "per_thousand"  # valuation ÷ 1,000 × rate (valuation not rounded)
    PER_DWELLING_UNIT = "per_dwelling_unit"
    PER_EACH = "per_each"
    PER_HOUR = "per_inspector_hour"
    PER_ACRE = "per_acre"  # first acre at first_rate, each further acre or part at rate
    PER_FRONT_FOOT = "per_front_foot"  # front feet × a rate entered per request (assessments)
    FLAT = "flat"
    ESCALATING = "escalating"  # rates by occurrence: first, second, third and later
    ENTERED = "entered"  # amount entered by the clerk, e.g. from a state uniform form
    PASS_THROUGH = "pass_through"  # other government's fees, at cost
    COST_PLUS = "cost_plus"  # labor + materials + equipment, plus the item's admin rate
    COUNCIL_SET = "council_set"  # a value the municipality's administrator sets
    DEPOSIT = "deposit"  # held for the depositor, not revenue

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]

    @property
    def takes_quantity(self) -> bool:
        return self in _QUANTITY_KINDS

    @property
    def exact(self) -> bool:
        """Charged to the cent, never rounded up to the dollar (readings in desk/fees/engine.py)."""
        return self in (ItemKind.PASS_THROUGH, ItemKind.PER_FRONT_FOOT, ItemKind.DEPOSIT)


_KIND_LABELS = {
    ItemKind.PER_SQFT: "per sq ft",
    ItemKind.PER_THOUSAND: "per $1,000 of valuation",
    ItemKind.PER_DWELLING_UNIT: "per dwelling unit",
    ItemKind.PER_EACH: "each",
    ItemKind.PER_HOUR: "per inspector-hour",
    ItemKind.PER_ACRE: "per acre (first acre, then each further acre or part)",
    ItemKind.PER_FRONT_FOOT: "per front foot (rate entered)",
    ItemKind.FLAT: "flat",
    ItemKind.ESCALATING: "by occurrence",
    ItemKind.ENTERED: "amount entered",
    ItemKind.PASS_THROUGH: "at cost",
    ItemKind.COST_PLUS: "cost plus administration",
    ItemKind.COUNCIL_SET: "set by the council",
    ItemKind.DEPOSIT: "deposit",
}

_QUANTITY_KINDS = frozenset(
    {
        ItemKind.PER_SQFT,
        ItemKind.PER_THOUSAND,
        ItemKind.PER_DWELLING_UNIT,
        ItemKind.PER_EACH,
        ItemKind.PER_HOUR,
        ItemKind.PER_ACRE,
        ItemKind.PER_FRONT_FOOT,
    }
)

# What the quantity of each kind counts, for messages and the calculator.
QUANTITY_UNITS = {
    ItemKind.PER_SQFT: "square feet",
    ItemKind.PER_THOUSAND: "dollars of valuation",
    ItemKind.PER_DWELLING_UNIT: "dwelling units",
    ItemKind.PER_EACH: "count",
    ItemKind.PER_HOUR: "inspector-hours",
    ItemKind.PER_ACRE: "acres",
    ItemKind.PER_FRONT_FOOT: "front feet",
}


@dataclass(frozen=True)
class FeeItem:
    code: str
    description: str
    section: str
    kind: ItemKind
    rate: Decimal | None = None
    first_rate: Decimal | None = None  # PER_ACRE: the first acre
    rates: tuple[Decimal, ...] = ()  # ESCALATING: first, second, third-and-later
    minimum: Decimal | None = None
    admin: bool = False  # the version's administrative cost applies (Glendale 40%)
    admin_rate: Decimal | None = None  # an item's own rate (New Lisbon CITY-REPAIR 20%)
    doubles: bool = False  # charged twice when work began before the permit
    gl_account: str = ""
    group: str | None = None  # items sharing one minimum (Glendale 15.1.21(b)(1)i)
    council_value: Decimal | None = None  # COUNCIL_SET: the value in force, None = unset
    surcharge: str | None = None  # "pavement_age": New Lisbon §435-7 surcharge line
    emergency_waivable: bool = False  # New Lisbon §435-7: no fee for an emergency filed in time
    late_code: str | None = None  # the item charged instead when the emergency filing is late

    def with_changes(self, **changes: object) -> FeeItem:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FeeGroup:
    """Items whose bases share one minimum; below it they are charged as one line."""

    code: str
    minimum: Decimal
    description: str
    section: str


@dataclass(frozen=True)
class ScheduleVersion:
    municipality: str
    label: str
    effective_from: date
    effective_to: date | None = None  # inclusive; None = until the next version
    admin_rate: Decimal = Decimal("0")
    round_up_to_dollar: bool = False
    items: tuple[FeeItem, ...] = ()
    groups: tuple[FeeGroup, ...] = ()
    notes: str = ""
    id: int | None = None  # the database row, once imported
    read_only: bool = False
    read_only_reason: str = ""

    def item(self, code: str) -> FeeItem | None:
        for it in self.items:
            if it.code == code:
                return it
        return None

    def group(self, code: str) -> FeeGroup | None:
        for g in self.groups:
            if g.code == code:
                return g
        return None

    def covers(self, day: date) -> bool:
        return self.effective_from <= day and (
            self.effective_to is None or day <= self.effective_to
        )


@dataclass(frozen=True)
class FeeSchedule:
    municipality: str
    versions: tuple[ScheduleVersion, ...] = field(default_factory=tuple)

    def version_on(self, day: date) -> ScheduleVersion | None:
        """The version in effect on `day`: the latest one that started on or before it."""
        candidates = [v for v in self.versions if v.covers(day)]
        return max(candidates, key=lambda v: v.effective_from) if candidates else None


@dataclass(eq=False, kw_only=True)
class StoredVersion:
    """A schedule version as the database keeps it (db/orm.py maps it)."""

    municipality_id: int
    label: str
    effective_from: date
    effective_to: date | None = None
    data: dict[str, object] = field(default_factory=dict)  # desk.fees.loader.version_to_dict
    source: str = "admin"
    created_at: object = None
    created_by_id: int | None = None
    id: int | None = None


@dataclass(eq=False, kw_only=True)
class AssessedLine:
    """A fee line charged on a permit, with the schedule version that priced it."""

    permit_id: int
    version_id: int
    code: str
    description: str
    section: str
    base: Decimal
    admin: Decimal
    amount: Decimal
    gl_account: str = ""
    deposit: bool = False
    note: str = ""
    request: dict[str, object] = field(default_factory=dict)
    assessed_on: date
    id: int | None = None
