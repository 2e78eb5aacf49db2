"""Checklists: what a permit kind needs before issuance.

Templates are data (resources/checklists.toml): reusable groups of items (survey 15.1.7(b)(2),
plans 15.1.7(b)(3), seal 15.1.7(d), ...) composed into one template per permit kind. A permit's
checklist is one row per item (ChecklistItem, stored in permit_checklist_item) with its state,
who and when. Which items apply is decided from the permit's facts by each item's
`required_when` (desk/domain/conditions.py), so a corrected volume or acreage changes what is
required without touching the rows.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum, StrEnum
from functools import cache
from importlib import resources
from typing import Any

from desk.dates import short_date
from desk.domain.conditions import (
    Condition,
    ConditionError,
    Facts,
    Value,
    describe,
    parse_condition,
)
from desk.domain.kinds import kinds_for
from desk.errors import PermissionDenied, RuleViolation, ValidationError

CHECKLISTS_FILE = "checklists.toml"
MUNICIPALITIES = ("glendale", "new_lisbon")


class ItemState(StrEnum):
    OPEN = "open"
    RECEIVED = "received"
    NOT_APPLICABLE = "not_applicable"
    WAIVED = "waived"

    @property
    def label(self) -> str:
        return {
            ItemState.OPEN: "Open",
            ItemState.RECEIVED: "Received",
            ItemState.NOT_APPLICABLE: "Not applicable",
            ItemState.WAIVED: "Waived",
        }[self]

    @property
    def settled(self) -> bool:
        """Nothing more is needed for this item."""
        return self is not ItemState.OPEN


class ItemKind(StrEnum):
    CHECK = "check"  # received or not
    DATE = "date"  # received with the date it bears (a survey's date)
    TEXT = "text"  # received with a short note (a vote, a licence number)


# The facts a `required_when` may name. Facts the permit does not record are unknown.
FACTS: dict[str, str] = {
    "kind": "permit kind code",
    "permit_class": "residential, commercial or agricultural",
    "work_class": "new, addition, alteration, repair, raze, move or other",
    "valuation": "valuation in dollars",
    "dwelling_units": "number of dwelling units",
    "floor_area_sqft": "floor area in square feet",
    "volume_cuft": "total volume in cubic feet (15.1.7(d))",
    "one_two_family": "a one- or two-family dwelling (15.1.7(d))",
    "disturbed_acres": "area of land disturbed, in acres (15.2.8)",
    "kitchen_remodel": "the work remodels a dwelling unit's kitchen (15.1.52(d))",
    "stories": "number of stories",
    "emergency": "emergency work",
}
KNOWN_FACTS = frozenset(FACTS)


def permit_facts(permit: Any, extra: Mapping[str, Value] | None = None) -> dict[str, Value]:
    """The facts of a permit (the Permit entity, a permit table row or a PermitDetail): the
    attributes it has, plus `extra`. The work facts the intake form records (stories,
    volume_cuft, disturbed_acres, emergency: revision 0006) are picked up here by name; a fact
    left empty (None) stays unknown, so its items show as required until it is recorded."""
    facts: dict[str, Value] = {}
    for name in FACTS:
        value = getattr(permit, name, None)
        if isinstance(value, Enum):
            value = value.value  # an enum: compared by its stored value
        if value is not None:
            facts[name] = value
    if "one_two_family" not in facts and facts.get("permit_class"):
        # 15.1.7(d): "other than one (1) and two (2) family residences".
        units = facts.get("dwelling_units")
        if facts["permit_class"] != "residential":
            facts["one_two_family"] = False
        elif isinstance(units, int) and units <= 2:
            facts["one_two_family"] = True
    if extra:
        facts.update({k: v for k, v in extra.items() if v is not None})
    return facts


# --- conditions in words ---------------------------------------------------------------------
# A user never reads a required_when expression: each comparison is said in words, and anything
# without words falls back to a general sentence (see why_required).


def _number(value: Decimal) -> str:
    return f"{value:,.0f}" if value == value.to_integral_value() else f"{value.normalize():,}"


def _money(value: Decimal) -> str:
    return f"${_number(value)}" if value == value.to_integral_value() else f"${value:,.2f}"


def _units(one: str, many: str) -> Callable[[Decimal], str]:
    return lambda value: f"{_number(value)} {one if value == 1 else many}"


# Numeric facts: what they are called, and how a figure of theirs reads.
_QUANTITIES: dict[str, tuple[str, Callable[[Decimal], str]]] = {
    "valuation": ("the valuation", _money),
    "dwelling_units": ("the number of dwelling units", _number),
    "floor_area_sqft": ("the floor area", _units("square foot", "square feet")),
    "volume_cuft": ("the total volume", _units("cubic foot", "cubic feet")),
    "disturbed_acres": ("the land disturbed", _units("acre", "acres")),
    "stories": ("the number of stories", _number),
}
# Counts: "more than 0" reads "at least one".
_COUNTS = {"dwelling_units": "dwelling unit", "stories": "story"}
_COMPARED = {
    ">": "more than {}",
    ">=": "{} or more",
    "<": "less than {}",
    "<=": "{} or less",
    "==": "{}",
    "!=": "not {}",
}
# Yes/no facts: (when true, when false).
_FLAGS: dict[str, tuple[str, str]] = {
    "one_two_family": (
        "the building is a one- or two-family dwelling",
        "the building is not a one- or two-family dwelling",
    ),
    "kitchen_remodel": (
        "the work remodels a dwelling unit's kitchen",
        "the work does not remodel a dwelling unit's kitchen",
    ),
    "emergency": ("the work is emergency work", "the work is not emergency work"),
}
_WORK_CLASSES = {
    "new": "new construction",
    "addition": "an addition",
    "alteration": "an alteration",
    "repair": "a repair",
    "raze": "razing a building",
    "move": "moving a building",
    "other": "other work",
}
_PERMIT_CLASSES = ("residential", "commercial", "agricultural")


def _kind_label(code: str) -> str | None:
    for muni in MUNICIPALITIES:
        for kind in kinds_for(muni):
            if kind.code == code:
                return kind.label
    return None


def _phrase(name: str, op: str, value: Value) -> str | None:
    """One comparison of a required_when in words, or None when there are none for it."""
    if name in _FLAGS:
        if value is not True or op not in ("==", "!="):
            return None
        return _FLAGS[name][0 if op == "==" else 1]
    if name in _QUANTITIES:
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
            return None
        number = Decimal(str(value))
        if name in _COUNTS and number == 0 and op in (">", "!=", "==", "<="):
            some = "at least one" if op in (">", "!=") else "no"
            return f"the work has {some} {_COUNTS[name]}"
        subject, figure = _QUANTITIES[name]
        return f"{subject} is {_COMPARED[op].format(figure(number))}"
    if not isinstance(value, str) or op not in ("==", "!="):
        return None
    is_ = "is" if op == "==" else "is not"
    if name == "work_class" and value in _WORK_CLASSES:
        return f"the work {is_} {_WORK_CLASSES[value]}"
    if name == "permit_class" and value in _PERMIT_CLASSES:
        return f"the permit {is_} {value}"
    label = _kind_label(value) if name == "kind" else None
    return f"the permit kind {is_} {label[:1].lower()}{label[1:]}" if label else None


def condition_words(condition: Condition | None) -> str:
    """The condition as a clause: 'the valuation is $5,000 or more'; "" when there is no
    condition or no words for it (never the expression)."""
    if condition is None:
        return ""
    return describe(condition, _phrase) or ""


def why_required(has_condition: bool, when: str, applies: bool | None) -> str:
    """The sentence a user reads about a conditional item: 'Required because the valuation is
    $5,000 or more.'; a general sentence when the condition has no words."""
    if not has_condition:
        return ""
    if applies is True:
        return f"Required because {when}." if when else "Required for this permit."
    if applies is False:
        return f"Not required: only when {when}." if when else "Not required for this permit."
    if when:
        return f"Counted as required until the permit records its facts: needed only when {when}."
    return "Required for this permit until its facts are recorded."


def _capitalised(text: str) -> str:
    """The item as a line of its own: capitalised, except the ordinance's lettered items
    ('a. location and dimensions ...') and numbered ones, which keep their letter."""
    if re.match(r"^[a-z]\. ", text):
        return text
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class TemplateItem:
    code: str  # "<group>.<item>", unique in a template, stored on the permit's row
    text: str  # lower-case first: "three complete sets of plans and specifications"
    section: str
    group: str
    kind: ItemKind = ItemKind.CHECK
    required_when: Condition | None = None
    max_age_years: int | None = None  # a dated item older than this is a shortfall
    hint: str = ""

    def applies(self, facts: Facts) -> bool | None:
        """True: required; False: not for this permit; None: a fact is not recorded."""
        return True if self.required_when is None else self.required_when.holds(facts)

    @property
    def label(self) -> str:
        return _capitalised(self.text)


@dataclass(frozen=True)
class ItemGroup:
    key: str
    title: str
    section: str


@dataclass(frozen=True)
class ChecklistTemplate:
    municipality: str
    kind: str
    groups: tuple[ItemGroup, ...]
    items: tuple[TemplateItem, ...]

    def item(self, code: str) -> TemplateItem | None:
        return next((i for i in self.items if i.code == code), None)

    def group(self, key: str) -> ItemGroup | None:
        return next((g for g in self.groups if g.key == key), None)


@dataclass(eq=False, kw_only=True)
class ChecklistItem:
    """One item of a permit's checklist as stored (db/orm.py maps it to permit_checklist_item)."""

    permit_id: int
    code: str
    text: str
    section: str
    state: ItemState = ItemState.OPEN
    value_date: date | None = None
    value_text: str = ""
    reason: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    id: int | None = None


# --- loading ---------------------------------------------------------------------------------


class ChecklistError(ValueError):
    """A checklist file that cannot be used; the message names the file, template and item."""


_GROUP_KEYS = {"title", "section", "required_when", "items"}
_ITEM_KEYS = {"code", "text", "section", "kind", "required_when", "max_age_years", "hint"}
_TEMPLATE_KEYS = {"groups"}


def _str(value: Any, where: str, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ChecklistError(f"{where}: '{name}' must be a non-empty text")
    return value.strip()


def _condition(text: Any, where: str) -> Condition:
    try:
        return parse_condition(_str(text, where, "required_when"), KNOWN_FACTS)
    except ConditionError as e:
        raise ChecklistError(f"{where}: required_when: {e}") from None


def _both(group: Condition | None, item: Condition | None) -> Condition | None:
    if group is None or item is None:
        return group or item
    return parse_condition(f"({group.text}) and ({item.text})", KNOWN_FACTS)


def _group_items(source: str, key: str, data: Any) -> tuple[ItemGroup, tuple[TemplateItem, ...]]:
    where = f"{source}: group '{key}'"
    if not isinstance(data, dict):
        raise ChecklistError(f"{where}: must be a table")
    extra = set(data) - _GROUP_KEYS
    if extra:
        raise ChecklistError(f"{where}: unknown key {', '.join(sorted(extra))}")
    group = ItemGroup(
        key, _str(data.get("title"), where, "title"), _str(data.get("section"), where, "section")
    )
    group_when = _condition(data["required_when"], where) if "required_when" in data else None
    rows = data.get("items")
    if not isinstance(rows, list) or not rows:
        raise ChecklistError(f"{where}: 'items' must list at least one item")
    items: list[TemplateItem] = []
    for n, row in enumerate(rows, start=1):
        code = row.get("code") if isinstance(row, dict) else None
        at = f"{where}, item {code!r}" if isinstance(code, str) else f"{where}, item #{n}"
        if not isinstance(row, dict):
            raise ChecklistError(f"{at}: must be a table")
        extra = set(row) - _ITEM_KEYS
        if extra:
            raise ChecklistError(f"{at}: unknown key {', '.join(sorted(extra))}")
        code = _str(row.get("code"), at, "code")
        try:
            kind = ItemKind(row.get("kind", "check"))
        except ValueError:
            raise ChecklistError(
                f"{at}: kind '{row.get('kind')}' is not one of check, date, text"
            ) from None
        age = row.get("max_age_years")
        if age is not None and (not isinstance(age, int) or age < 1 or kind != ItemKind.DATE):
            raise ChecklistError(f'{at}: max_age_years needs kind = "date" and a whole number')
        item_when = _condition(row["required_when"], at) if "required_when" in row else None
        items.append(
            TemplateItem(
                code=f"{key}.{code}",
                text=_str(row.get("text"), at, "text"),
                section=_str(row.get("section", group.section), at, "section"),
                group=key,
                kind=kind,
                required_when=_both(group_when, item_when),
                max_age_years=age,
                hint=str(row.get("hint", "")),
            )
        )
    return group, tuple(items)


def load_templates(
    text: str, source: str = CHECKLISTS_FILE
) -> dict[tuple[str, str], ChecklistTemplate]:
    """Parse and check a checklists file: {(municipality, kind code): template}."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ChecklistError(f"{source}: {e}") from None
    groups_data = data.get("groups")
    if not isinstance(groups_data, dict) or not groups_data:
        raise ChecklistError(f"{source}: no [groups.*] tables")
    groups = {key: _group_items(source, key, value) for key, value in groups_data.items()}
    out: dict[tuple[str, str], ChecklistTemplate] = {}
    for muni in MUNICIPALITIES:
        section = data.get(muni)
        if not isinstance(section, dict):
            raise ChecklistError(f"{source}: no [{muni}] templates")
        kind_codes = [k.code for k in kinds_for(muni)]
        for code, tdata in section.items():
            where = f"{source}: template {muni}/{code}"
            if code not in kind_codes:
                raise ChecklistError(f"{where}: '{code}' is not a permit kind of {muni}")
            if not isinstance(tdata, dict) or set(tdata) - _TEMPLATE_KEYS:
                raise ChecklistError(f"{where}: must be a table with only 'groups'")
            keys = tdata.get("groups")
            if not isinstance(keys, list) or not keys:
                raise ChecklistError(f"{where}: 'groups' must list at least one group")
            template_groups: list[ItemGroup] = []
            items: list[TemplateItem] = []
            for key in keys:
                if key not in groups:
                    raise ChecklistError(f"{where}: group '{key}' is not defined in [groups]")
                if any(g.key == key for g in template_groups):
                    raise ChecklistError(f"{where}: group '{key}' is listed twice")
                group, group_items = groups[key]
                template_groups.append(group)
                items.extend(group_items)
            seen: set[str] = set()
            for item in items:
                if item.code in seen:
                    raise ChecklistError(f"{where}, item '{item.code}': the code is used twice")
                seen.add(item.code)
            out[(muni, code)] = ChecklistTemplate(muni, code, tuple(template_groups), tuple(items))
        missing = [c for c in kind_codes if (muni, c) not in out]
        if missing:
            raise ChecklistError(
                f"{source}: [{muni}] has no template for permit kind {', '.join(missing)}"
            )
    return out


@cache
def shipped_templates() -> dict[tuple[str, str], ChecklistTemplate]:
    text = resources.files("resources").joinpath(CHECKLISTS_FILE).read_text("utf-8")
    return load_templates(text)


def template_for(municipality: str, kind: str) -> ChecklistTemplate | None:
    return shipped_templates().get((municipality, kind))


# --- evaluation --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One item of a permit's checklist as shown and checked: the template item (None for an
    item no longer in the template), the stored row (None until the checklist is opened) and
    whether it applies to this permit."""

    code: str
    text: str
    section: str
    group: str
    kind: ItemKind
    applies: bool | None
    state: ItemState
    value_date: date | None = None
    value_text: str = ""
    reason: str = ""
    by_user_id: int | None = None
    at: datetime | None = None
    max_age_years: int | None = None
    condition: str = ""  # the template's required_when as written: internal, never shown
    when: str = ""  # that condition in words ("" when it has none, or no words for it)

    @property
    def why(self) -> str:
        """Why the item is (or is not) required, in a sentence; "" for an item every permit of
        the kind needs."""
        return why_required(bool(self.condition), self.when, self.applies)

    @property
    def required(self) -> bool:
        """Counted toward completion: applies, or might (a fact is not recorded)."""
        return self.applies is not False

    @property
    def label(self) -> str:
        return _capitalised(self.text)


def lines(
    template: ChecklistTemplate | None, rows: Iterable[ChecklistItem], facts: Facts
) -> list[Line]:
    """The template's items in order, each with its stored state; rows whose code left the
    template follow (they stay required: someone recorded them)."""
    by_code = {r.code: r for r in rows}
    out: list[Line] = []
    for item in template.items if template else ():
        row = by_code.pop(item.code, None)
        out.append(
            Line(
                code=item.code,
                text=item.text,
                section=item.section,
                group=item.group,
                kind=item.kind,
                applies=item.applies(facts),
                state=row.state if row else ItemState.OPEN,
                value_date=row.value_date if row else None,
                value_text=row.value_text if row else "",
                reason=row.reason if row else "",
                by_user_id=row.by_user_id if row else None,
                at=row.at if row else None,
                max_age_years=item.max_age_years,
                condition=item.required_when.text if item.required_when else "",
                when=condition_words(item.required_when),
            )
        )
    for row in by_code.values():
        out.append(
            Line(
                code=row.code,
                text=row.text,
                section=row.section,
                group="",
                kind=ItemKind.CHECK,
                applies=True,
                state=row.state,
                value_date=row.value_date,
                value_text=row.value_text,
                reason=row.reason,
                by_user_id=row.by_user_id,
                at=row.at,
            )
        )
    return out


def years_before(day: date, years: int) -> date:
    """The same calendar day `years` earlier (29 February falls back to the 28th)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def _years_text(n: int) -> str:
    words = {1: "one year", 2: "two years", 3: "three years"}
    return words.get(n, f"{n} years")


def stale(line: Line, issue_date: date) -> bool:
    """A dated item older than its limit on the issue date: 15.1.7(b)(2), a survey is made "in no
    case prior to one (1) year prior to the issuance" — a survey dated exactly one year before
    is still good."""
    if line.max_age_years is None or line.value_date is None:
        return False
    return line.value_date < years_before(issue_date, line.max_age_years)


def unmet(
    checklist: Sequence[Line], group_titles: Mapping[str, str], issue_date: date
) -> list[str]:
    """Each shortfall in plain words with its section, in checklist order, e.g.
    'Plans: three complete sets of plans and specifications not received (15.1.7(b)(1))'."""
    out: list[str] = []
    for line in checklist:
        if not line.required:
            continue
        title = group_titles.get(line.group, "Checklist")
        if line.state is ItemState.OPEN:
            missing = "not recorded" if line.kind is not ItemKind.CHECK else "not received"
            out.append(f"{title}: {line.text} {missing} ({line.section})")
        elif line.state is ItemState.RECEIVED and stale(line, issue_date):
            assert line.value_date is not None and line.max_age_years is not None
            out.append(
                f"{title} dated {short_date(line.value_date)} is more than "
                f"{_years_text(line.max_age_years)} old ({line.section})"
            )
    return out


@dataclass(frozen=True)
class Progress:
    required: int
    received: int
    waived: int
    not_applicable: int
    open: int

    @property
    def text(self) -> str:
        """'7 of 12 received — 5 open' (waived and not applicable items count as settled)."""
        settled = self.received + self.waived + self.not_applicable
        parts = [f"{self.received} of {self.required} received"]
        if self.waived:
            parts.append(f"{self.waived} waived")
        if self.not_applicable:
            parts.append(f"{self.not_applicable} not applicable")
        head = ", ".join(parts)
        if self.open:
            return f"{head} — {self.open} open"
        return f"{head} — complete" if settled == self.required else head


def progress(checklist: Sequence[Line]) -> Progress:
    required = [line for line in checklist if line.required]
    count = {s: sum(1 for line in required if line.state is s) for s in ItemState}
    return Progress(
        required=len(required),
        received=count[ItemState.RECEIVED],
        waived=count[ItemState.WAIVED],
        not_applicable=count[ItemState.NOT_APPLICABLE],
        open=count[ItemState.OPEN],
    )


def check_mark(
    line: Line,
    state: ItemState,
    *,
    value_date: date | None,
    value_text: str,
    reason: str,
    today: date,
    may_waive: bool,
) -> None:
    """The rules of marking an item (the service checks the role first):
    - waiving is the Building Inspector's option (15.1.7(c)) and needs a reason;
    - a dated item is received with the date it bears, not a future one;
    - an item the ordinance requires for this permit cannot be 'not applicable', only waived;
    - undoing a waiver is the inspector's decision too."""
    if (state is ItemState.WAIVED or line.state is ItemState.WAIVED) and not may_waive:
        raise PermissionDenied(
            "Only the Building Inspector (or an administrator) may waive a checklist item or "
            "undo a waiver (15.1.7(c))."
        )
    if state is ItemState.WAIVED and not reason.strip():
        raise ValidationError("reason", f"say why '{line.label}' is waived (15.1.7(c))")
    if state is ItemState.RECEIVED and line.kind is ItemKind.DATE:
        if value_date is None:
            raise ValidationError("date", f"enter the date '{line.label}' bears")
        if value_date > today:
            raise ValidationError("date", f"{short_date(value_date)} is in the future")
    if state is ItemState.RECEIVED and line.kind is ItemKind.TEXT and not value_text.strip():
        raise ValidationError("note", f"record what was received for '{line.label}'")
    if state is ItemState.NOT_APPLICABLE and line.applies is True and line.condition:
        because = f"because {line.when}; " if line.when else ""
        raise RuleViolation(
            f"'{line.label}' is required for this permit ({because}{line.section}); "
            "it can be received or waived by the inspector, not marked not applicable."
        )


# --- the checklist of an issued permit ---------------------------------------------------------
# The checklist records what was on file when the permit was issued (15.1.7(b): the documents
# filed before a permit issues), so once issued it is locked. The inspector may reopen it with a
# reason (a late copy, a corrected date); it stays open until the inspector locks it again.

LOCKED = "The checklist of an issued permit is locked; an inspector can reopen it with a reason."


@dataclass(eq=False, kw_only=True)
class ChecklistReopening:
    """An issued permit's checklist reopened, who, when and why, and when it was locked again
    (db/orm.py maps it to permit_checklist_reopening: one row per reopening, all kept)."""

    permit_id: int
    reason: str
    by_user_id: int | None = None
    at: datetime | None = None
    locked_by_id: int | None = None
    locked_at: datetime | None = None
    id: int | None = None


def open_reopening(reopenings: Iterable[ChecklistReopening]) -> ChecklistReopening | None:
    """The reopening not locked again yet, if any."""
    return next((r for r in reopenings if r.locked_at is None), None)


def is_locked(issued_on: date | None, reopened: ChecklistReopening | None) -> bool:
    return issued_on is not None and reopened is None


def check_unlocked(issued_on: date | None, reopened: ChecklistReopening | None) -> None:
    if is_locked(issued_on, reopened):
        raise RuleViolation(LOCKED)
