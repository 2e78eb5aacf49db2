"""Administration → Fee schedules: the versions, the items of one, and a new version's draft.

No Qt here. A fee change is never an edit of a version in use: it is a new version from a date
(desk.services.fees.create_version), made from a copy of the latest one (VersionDraft).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from desk.errors import ValidationError
from desk.fees.model import FeeItem, FeeSchedule, ItemKind, ScheduleVersion
from desk.money import CENT, parse_money
from desk.services.fees import with_items
from ui.presenters.formatting import EMPTY, format_date, format_percent

NOT_SET = "not set"
READ_ONLY_PREFIX = "Read-only"
EDITABLE_NOTE = (
    "This version has not priced a permit yet. A change to the fees is still a new version "
    "from a date, so every quote can be traced to the fees in force on its day."
)


@dataclass(frozen=True)
class VersionSource:
    """Where a stored version came from (db.queries.fee_version_sources)."""

    source: str  # "shipped" or "admin"
    created_at: datetime | None = None
    created_by: str = ""


@dataclass(frozen=True)
class VersionRow:
    id: int | None
    label: str
    effective_from: str
    effective_to: str
    source: str
    status: str
    read_only: bool
    reason: str

    def cells(self) -> tuple[str, str, str, str, str]:
        return (self.label, self.effective_from, self.effective_to, self.source, self.status)


VERSION_COLUMNS = ("Version", "Effective from", "Effective to", "Source", "Status")


def _source_text(info: VersionSource | None) -> str:
    if info is None:
        return EMPTY
    if info.source == "shipped":
        return "shipped with Permit Desk"
    who = info.created_by or "an administrator"
    when = f" on {format_date(info.created_at.astimezone().date())}" if info.created_at else ""
    return f"entered by {who}{when}"


def version_rows(
    schedule: FeeSchedule, sources: dict[int, VersionSource], today: date
) -> list[VersionRow]:
    """The versions, oldest first, with the day each stops applying and its status today."""
    ordered = sorted(schedule.versions, key=lambda v: v.effective_from)
    rows = []
    in_force = schedule.version_on(today)
    for i, v in enumerate(ordered):
        following = ordered[i + 1] if i + 1 < len(ordered) else None
        if v.effective_to is not None:
            to = format_date(v.effective_to)
        elif following is not None:
            to = format_date(following.effective_from - timedelta(days=1))
        else:
            to = EMPTY
        if in_force is not None and v.id == in_force.id and v.label == in_force.label:
            status = "in force today"
        elif v.effective_from > today:
            status = "takes effect later"
        else:
            status = "past"
        if v.read_only:
            status += " · read-only"
        rows.append(
            VersionRow(
                id=v.id,
                label=v.label,
                effective_from=format_date(v.effective_from),
                effective_to=to,
                source=_source_text(sources.get(v.id) if v.id is not None else None),
                status=status,
                read_only=v.read_only,
                reason=v.read_only_reason,
            )
        )
    return rows


def banner_text(version: ScheduleVersion) -> str:
    if version.read_only:
        return f"{READ_ONLY_PREFIX}: {version.read_only_reason or 'it has priced permits'}."
    return EDITABLE_NOTE


# --- the items table -------------------------------------------------------------------------


@dataclass(frozen=True)
class ItemColumn:
    key: str
    title: str
    numeric: bool = False  # right-aligned
    flag: bool = False  # yes/no (a check box while editing)


def item_columns(version: ScheduleVersion | None) -> tuple[ItemColumn, ...]:
    admin = (
        f"{format_percent(version.admin_rate)} admin"
        if version is not None and version.admin_rate
        else "Admin"
    )
    columns = (
        ItemColumn("code", "Code"),
        ItemColumn("description", "Description"),
        ItemColumn("section", "Section"),
        ItemColumn("unit", "Unit"),
        ItemColumn("rates", "Rate(s)", numeric=True),
        ItemColumn("minimum", "Minimum", numeric=True),
        ItemColumn("admin", admin, flag=True),
        ItemColumn("doubles", "Doubles", flag=True),
        ItemColumn("gl_account", "GL account"),
        ItemColumn("council_value", "Council-set value", numeric=True),
    )
    # A schedule without council-set fees (Glendale) has nothing to show in that column.
    if version is not None and not any(i.kind is ItemKind.COUNCIL_SET for i in version.items):
        return columns[:-1]
    return columns


EDITABLE_KEYS = frozenset({"rates", "minimum", "admin", "doubles", "gl_account", "council_value"})

# Kinds whose rate is per unit of something: a rate may have up to four decimals ($0.125/sq ft).
_PER_UNIT = frozenset(
    {
        ItemKind.PER_SQFT,
        ItemKind.PER_THOUSAND,
        ItemKind.PER_DWELLING_UNIT,
        ItemKind.PER_EACH,
        ItemKind.PER_HOUR,
    }
)
_WITHOUT_RATE = frozenset(
    {
        ItemKind.ENTERED,
        ItemKind.PASS_THROUGH,
        ItemKind.COST_PLUS,
        ItemKind.COUNCIL_SET,
        ItemKind.PER_FRONT_FOOT,
    }
)


def _plain(amount: Decimal | None) -> str:
    """'0.12', '35.00', '1,000.00': the rate as the ordinance writes it, two decimals at least."""
    if amount is None:
        return ""
    exponent = amount.as_tuple().exponent
    places = max(2, -exponent) if isinstance(exponent, int) else 2
    return f"{amount:,.{places}f}"


def rates_text(item: FeeItem) -> str:
    """'0.12'; escalating '50.00 / 100.00 / 150.00'; per acre '200.00 first acre, 100.00 each
    further'; '' when the kind has no rate (the amount is entered or set by the council)."""
    if item.kind is ItemKind.ESCALATING:
        return " / ".join(_plain(r) for r in item.rates)
    if item.kind is ItemKind.PER_ACRE:
        return f"{_plain(item.first_rate)} first acre, {_plain(item.rate)} each further"
    return _plain(item.rate)


def rates_edit_text(item: FeeItem) -> str:
    """What the editor starts with: the rates only, '200.00 / 100.00' for an acre item."""
    if item.kind is ItemKind.PER_ACRE:
        return f"{_plain(item.first_rate)} / {_plain(item.rate)}"
    return rates_text(item)


def is_unset_council_value(item: FeeItem) -> bool:
    return item.kind is ItemKind.COUNCIL_SET and item.council_value is None


def cell_text(item: FeeItem, key: str) -> str:
    if key == "code":
        return item.code
    if key == "description":
        return item.description
    if key == "section":
        return item.section
    if key == "unit":
        return item.kind.label
    if key == "rates":
        return rates_text(item) or EMPTY
    if key == "minimum":
        return _plain(item.minimum) or EMPTY
    if key == "admin":
        if item.admin and item.admin_rate is not None:
            return f"yes ({format_percent(item.admin_rate)})"
        return "yes" if item.admin else "no"
    if key == "doubles":
        return "yes" if item.doubles else "no"
    if key == "gl_account":
        return item.gl_account or EMPTY
    if key == "council_value":
        if item.kind is not ItemKind.COUNCIL_SET:
            return EMPTY
        return NOT_SET if item.council_value is None else _plain(item.council_value)
    raise KeyError(key)


def cell_tooltip(item: FeeItem, key: str) -> str | None:
    if key == "council_value" and is_unset_council_value(item):
        return "The council has not set this fee; a quote for it asks for the amount."
    if key == "rates" and item.kind is ItemKind.ESCALATING:
        return "First, second, third and later occurrence"
    if key == "minimum" and item.group is not None:
        return f"Shares the {item.group} minimum with the other items of its group"
    text = cell_text(item, key)
    return None if text == EMPTY else text


def is_dim(item: FeeItem, key: str) -> bool:
    """Cells that hold no value for this item ('—')."""
    return cell_text(item, key) == EMPTY


def editable(item: FeeItem, key: str) -> bool:
    """Which cells of a draft a clerk may change (the code, words and kind stay as they are)."""
    if key not in EDITABLE_KEYS:
        return False
    if key == "rates":
        return item.kind not in _WITHOUT_RATE
    if key == "minimum":
        return not item.kind.exact and item.kind is not ItemKind.COUNCIL_SET
    if key == "council_value":
        return item.kind is ItemKind.COUNCIL_SET
    return True


# --- parsing an edited cell ------------------------------------------------------------------

_WORDS = re.compile(r"[A-Za-z]+")


def _rate(text: str, field: str, *, per_unit: bool) -> Decimal:
    """A rate: money with two decimals, or up to four for a per-unit rate ($0.125 per sq ft)."""
    if not per_unit:
        return parse_money(text, field)
    cleaned = text.strip().replace(",", "").replace("$", "").strip()
    if not cleaned:
        raise ValidationError(field, "enter an amount")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValidationError(field, f"'{text}' is not an amount of money") from None
    if not value.is_finite():
        raise ValidationError(field, f"'{text}' is not an amount of money")
    if value < 0:
        raise ValidationError(field, "must not be negative")
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        raise ValidationError(field, "has more than four decimals")
    return value.quantize(CENT) if isinstance(exponent, int) and exponent > -2 else value


def parse_cell(item: FeeItem, key: str, text: str, where: str) -> dict[str, Any]:
    """The FeeItem fields that `text` typed in column `key` sets; ValidationError(where, ...)."""
    text = text.strip()
    if key == "rates":
        if item.kind is ItemKind.ESCALATING:
            parts = [p for p in text.split("/") if p.strip()]
            if not parts:
                raise ValidationError(where, "enter the rates by occurrence: 50.00 / 100.00")
            return {"rates": tuple(parse_money(p, where) for p in parts)}
        if item.kind is ItemKind.PER_ACRE:
            parts = [_WORDS.sub("", p) for p in re.split(r"/|,(?=\s)", text) if p.strip()]
            if len(parts) != 2:
                raise ValidationError(
                    where, "enter the first acre's rate and each further acre's: 200.00 / 100.00"
                )
            return {
                "first_rate": parse_money(parts[0], where),
                "rate": parse_money(parts[1], where),
            }
        return {"rate": _rate(text, where, per_unit=item.kind in _PER_UNIT)}
    if key == "minimum":
        return {"minimum": parse_money(text, where) if text else None}
    if key == "council_value":
        return {"council_value": parse_money(text, where) if text else None}
    if key == "gl_account":
        return {"gl_account": text}
    raise KeyError(key)


class VersionDraft:
    """A copy of the latest version being edited in "New version from date…".

    Each cell keeps what was typed until it parses; `errors` holds one message per bad cell,
    naming the item and the column ("RES-NEW, Rate(s): '0.1x' is not an amount of money").
    """

    def __init__(self, base: ScheduleVersion) -> None:
        self.base = base
        self.items: list[FeeItem] = list(base.items)
        self.columns = item_columns(base)
        self.typed: dict[tuple[int, str], str] = {}  # cells whose text does not parse
        self.errors: dict[tuple[int, str], str] = {}
        self.changed = False

    def title(self, key: str) -> str:
        for c in self.columns:
            if c.key == key:
                return c.title
        raise KeyError(key)

    def editable(self, row: int, key: str) -> bool:
        return editable(self.items[row], key)

    def text(self, row: int, key: str) -> str:
        if (row, key) in self.typed:
            return self.typed[(row, key)]
        return cell_text(self.items[row], key)

    def edit_text(self, row: int, key: str) -> str:
        """What an editor starts with: the value without placeholders ('' for 'not set')."""
        if (row, key) in self.typed:
            return self.typed[(row, key)]
        item = self.items[row]
        if key == "rates":
            return rates_edit_text(item)
        if key == "minimum":
            return _plain(item.minimum)
        if key == "council_value":
            return _plain(item.council_value)
        if key == "gl_account":
            return item.gl_account
        return cell_text(item, key)

    def set_text(self, row: int, key: str, text: str) -> str | None:
        """Change a cell from typed text; returns the error message, or None when it parsed."""
        item = self.items[row]
        if not editable(item, key):
            raise ValueError(f"{item.code}: column {key} cannot be edited")
        where = f"{item.code}, {self.title(key)}"
        if text.strip() == self.edit_text(row, key).strip() and (row, key) not in self.typed:
            return None
        self.changed = True
        try:
            changes = parse_cell(item, key, text, where)
        except ValidationError as e:
            self.typed[(row, key)] = text
            self.errors[(row, key)] = str(e)
            return str(e)
        self.typed.pop((row, key), None)
        self.errors.pop((row, key), None)
        self.items[row] = item.with_changes(**changes)
        return None

    def flag(self, row: int, key: str) -> bool:
        return bool(getattr(self.items[row], key))

    def set_flag(self, row: int, key: str, value: bool) -> None:
        if key not in ("admin", "doubles"):
            raise KeyError(key)
        if self.flag(row, key) != value:
            self.items[row] = self.items[row].with_changes(**{key: value})
            self.changed = True

    def error(self, row: int, key: str) -> str | None:
        return self.errors.get((row, key))

    @property
    def first_error(self) -> str:
        if not self.errors:
            return ""
        return self.errors[min(self.errors)]

    def version(self, label: str, effective_from: date) -> ScheduleVersion:
        """The new version to save; ValidationError names the first bad cell."""
        if self.errors:
            where, _, message = self.first_error.partition(": ")
            raise ValidationError(where, message)
        return with_items(
            self.base,
            label=label.strip(),
            effective_from=effective_from,
            effective_to=None,
            items=tuple(self.items),
        )


def default_effective_from(latest: ScheduleVersion | None, today: date) -> date:
    """The first of next month, and after the latest version's date."""
    first = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    if latest is not None and first <= latest.effective_from:
        return latest.effective_from + timedelta(days=1)
    return first


# Which field of the new-version form a service error is about.
LABEL_FIELD = "label"
DATE_FIELD = "effective_from"
TABLE_FIELD = "items"


def error_field(error: ValidationError) -> str:
    """Map create_version's ValidationError to the form field it should be shown next to."""
    if error.field == "label":
        return LABEL_FIELD
    if error.field == "effective from":
        return DATE_FIELD
    if error.field == "fee schedule" and "version label" in error.message:
        return LABEL_FIELD
    if error.field == "fee schedule" and "overlap" in error.message:
        return DATE_FIELD
    return TABLE_FIELD


def field_message(error: ValidationError) -> str:
    """The message for a field-level label: 'Effective from: must be after 2000-01-01, ...'."""
    if error.field in ("label", "effective from"):
        return f"{error.field[:1].upper()}{error.field[1:]}: {error.message}"
    return str(error)
