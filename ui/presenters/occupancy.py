"""Tools → Occupancy calculator: a unit's rooms as typed in a table, the limits under a housing
code (Hudson 140-5/140-7, Ch. 512-11) as they are typed. Qt-free.

The rooms are parsed by desk.housing.jsonio (the same checks as `permitdesk housing
occupancy`); a mistake is one sentence naming the room and the field, and the row and column
the view points at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from desk.enforcement.readmodels import OccupancyCheckRow
from desk.enforcement.rules import housing_code_key
from desk.errors import ValidationError
from desk.housing.codes import HousingCodeError, load_housing_code
from desk.housing.jsonio import MAX_AREA, MAX_HEIGHT, MAX_OCCUPANTS, room_from_dict
from desk.housing.occupancy import (
    CH_512,
    CODES,
    DEFAULT_CEILING_FT,
    HUDSON,
    OccupancyResult,
    Problem,
    Room,
    Unit,
    Use,
    fmt,
    occupancy,
)
from ui.presenters.formatting import EMPTY, format_date
from ui.presenters.registers import Line

# The columns of the rooms table, in the order of the inspector's sheet.
NAME = "name"
USE = "use"
FLOOR = "floor_area"
LOW_AREA = "low_area"
LOW_HEIGHT = "low_height"
WINDOW = "window_area"
OPENABLE = "openable_area"
MECHANICAL = "mechanical"
LIGHT = "artificial_light"
ATTIC = "attic_half_story"
OVER_12 = "over_12"
UNDER_12 = "under_12"


@dataclass(frozen=True)
class Column:
    key: str
    title: str  # the table's header
    words: str  # how a message names the field
    hint: str = ""  # the header's tooltip; "{cite}" where the housing code's section goes
    cites: tuple[tuple[str, str], ...] = ()  # (code, what its section says there)

    def hint_for(self, code: str) -> str:
        """The tooltip under housing code `code`: its own section, never another code's."""
        said = dict(self.cites).get(code, "")
        return self.hint.replace("{cite}", f" ({said})" if said else "")


COLUMNS = (
    Column(NAME, "Room", "name", "The room's name, e.g. Bedroom 2"),
    Column(
        USE,
        "Use",
        "use",
        "Sleeping, living, dining and kitchen are habitable{cite}",
        ((HUDSON, "140-1"),),
    ),
    Column(FLOOR, "Floor area\n(sq ft)", "floor area", "The whole floor of the room"),
    Column(
        LOW_AREA,
        "Low-ceiling\narea (sq ft)",
        "low-ceiling area",
        "The part of the floor under a ceiling lower than 8 ft (blank: 8 ft throughout)",
    ),
    Column(
        LOW_HEIGHT,
        "Its ceiling\n(ft)",
        "low-ceiling height",
        "The clear height over the low-ceiling area, in feet (6 ft 6 in = 6.5)",
    ),
    Column(WINDOW, "Window\n(sq ft)", "window area", "Glazed area (blank: not measured)"),
    Column(OPENABLE, "Openable\n(sq ft)", "openable area", "Area that opens (blank: not measured)"),
    Column(
        MECHANICAL,
        "Mech.\nvent.",
        "mechanical ventilation",
        "A mechanical device ventilates the room{cite}; Space ticks it",
        ((HUDSON, "140-5B/C"), (CH_512, "512-11K/L")),
    ),
    Column(
        LIGHT,
        "Artificial\nlight",
        "artificial light",
        "A kitchen lit and ventilated artificially, not by a window{cite}; Space ticks it",
        ((CH_512, "512-11G"),),
    ),
    Column(
        ATTIC,
        "Attic\nhalf-story",
        "attic half-story",
        "A room in the top half-story attic{cite}; Space ticks it",
        ((CH_512, "512-11A"),),
    ),
    Column(OVER_12, "Sleepers\nover 12", "sleepers over 12", "Who sleeps here, over 12"),
    Column(
        UNDER_12,
        "Sleepers\nunder 12",
        "sleepers under 12",
        "Under 12{cite}",
        ((HUDSON, "a child under one is no occupant, 140-1"),),
    ),
)
COLUMN_KEYS = tuple(c.key for c in COLUMNS)


def stated_note(code: str) -> str:
    """Under the stated occupants: what a blank means, and who is no occupant where the code
    says (Hudson 140-1; Ch. 512 defines no such exception)."""
    note = "Blank: the sleepers stated in the rooms."
    return f"{note} A child under one is no occupant (140-1)." if code == HUDSON else note


FLAGS = (MECHANICAL, LIGHT, ATTIC)  # ticked, not typed
CH_512_ONLY = (LIGHT, ATTIC)  # Ch. 512's own cases; Hudson ch. 140 has neither
USES = tuple(u.value for u in Use)
# How the use picker names a use: a bedroom is the code's sleeping room, so "b" picks it.
USE_LABELS = {Use.SLEEPING.value: "bedroom (sleeping)"}


def use_label(use: str) -> str:
    return USE_LABELS.get(use, use)


_NUMBER_KEYS = (FLOOR, LOW_AREA, LOW_HEIGHT, WINDOW, OPENABLE)
_COUNT_KEYS = (OVER_12, UNDER_12)
# What desk.housing.jsonio calls each field, back to the column.
_JSON_FIELDS = {
    "name": NAME,
    "use": USE,
    "floor_area": FLOOR,
    "ceiling": LOW_AREA,
    "ceiling[0].area": LOW_AREA,
    "ceiling[0].height_ft": LOW_HEIGHT,
    "ceiling[1].area": FLOOR,
    "window_area": WINDOW,
    "openable_area": OPENABLE,
    "mechanical_ventilation": MECHANICAL,
    "artificial_light": LIGHT,
    "attic_half_story": ATTIC,
    "occupants_over_12": OVER_12,
    "occupants_under_12": UNDER_12,
}
# The unit's stated occupants (not a column): the error's key.
UNIT_OVER_12 = "unit_over_12"
UNIT_UNDER_12 = "unit_under_12"


@dataclass
class RoomRow:
    """One row as typed; the presenter parses it."""

    name: str = ""
    use: str = ""  # picked in the table (one of USES)
    floor_area: str = ""
    low_area: str = ""
    low_height: str = ""
    window_area: str = ""
    openable_area: str = ""
    mechanical: bool = False
    artificial_light: bool = False
    attic_half_story: bool = False
    over_12: str = ""
    under_12: str = ""

    def value(self, key: str) -> Any:
        return getattr(self, key)

    @property
    def blank(self) -> bool:
        """Nothing typed (a room just added): left out, not an error."""
        return not any(
            str(getattr(self, f.name)).strip() for f in fields(self) if f.name not in (USE, *FLAGS)
        )


@dataclass(frozen=True)
class CodeChoice:
    key: str
    label: str  # "City of Hudson, Ch. 140 Minimum Housing"


def code_choices() -> tuple[CodeChoice, ...]:
    """The codes the calculator knows (desk.housing.occupancy.CODES), named as shipped."""
    out = []
    for key in CODES:
        try:
            label = load_housing_code(key).name
        except HousingCodeError:
            label = key
        out.append(CodeChoice(key, label))
    return tuple(out)


def default_code(settings: dict[str, Any] | None) -> str:
    """The municipality's housing code (settings["housing_code"]) when the calculator knows it,
    else Hudson ch. 140."""
    key = housing_code_key(settings)
    return key if key in CODES else HUDSON


class _RowError(Exception):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def _number(key: str, text: str, limit: Decimal) -> Decimal | None:
    """Decimal feet or square feet as typed ("1,200", "6.5"); None when blank."""
    cleaned = text.replace(",", "").strip()
    if not cleaned:
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise _RowError(key, f'"{text.strip()}" is not a number') from None
    if not value.is_finite():
        raise _RowError(key, f'"{text.strip()}" is not a number')
    if value < 0:
        raise _RowError(key, "must not be negative")
    if value > limit:
        raise _RowError(key, f"must not be more than {fmt(limit)}")
    return value


def _whole(key: str, text: str) -> int:
    cleaned = text.strip()
    if not cleaned:
        return 0
    if not cleaned.isdigit():
        raise _RowError(key, f'"{cleaned}" is not a whole number')
    value = int(cleaned)
    if value > MAX_OCCUPANTS:
        raise _RowError(key, f"must not be more than {MAX_OCCUPANTS}")
    return value


def parse_row(index: int, row: RoomRow) -> Room:
    """The room a row describes; _RowError(column key, message) for a mistake."""
    if not row.name.strip():
        raise _RowError(NAME, "type the room's name")
    if not row.use:
        raise _RowError(USE, f"pick one of: {', '.join(USES)}")
    floor = _number(FLOOR, row.floor_area, MAX_AREA)
    if floor is None:
        raise _RowError(FLOOR, "type the room's floor area")
    low = _number(LOW_AREA, row.low_area, MAX_AREA)
    height = _number(LOW_HEIGHT, row.low_height, MAX_HEIGHT)
    ceiling: list[dict[str, Decimal]] = []
    if low is not None and low > 0:
        if height is None:
            raise _RowError(LOW_HEIGHT, "type the ceiling height over the low-ceiling area")
        if low > floor:
            raise _RowError(LOW_AREA, f"{fmt(low)} is more than the floor area {fmt(floor)}")
        # The rest of the floor at the default 8 ft (desk.housing.occupancy).
        ceiling.append({"height_ft": height, "area": low})
        if floor - low:
            ceiling.append({"height_ft": DEFAULT_CEILING_FT, "area": floor - low})
    elif height is not None:
        raise _RowError(LOW_AREA, "type the floor area under that ceiling height")
    raw: dict[str, Any] = {
        "name": row.name,
        "use": row.use,
        "floor_area": floor,
        "ceiling": ceiling or None,
        "window_area": _number(WINDOW, row.window_area, MAX_AREA),
        "openable_area": _number(OPENABLE, row.openable_area, MAX_AREA),
        "mechanical_ventilation": row.mechanical,
        "artificial_light": row.artificial_light,
        "attic_half_story": row.attic_half_story,
        "occupants_over_12": _whole(OVER_12, row.over_12),
        "occupants_under_12": _whole(UNDER_12, row.under_12),
    }
    raw = {k: v for k, v in raw.items() if v is not None}
    try:
        return room_from_dict(index, raw)
    except ValidationError as e:
        json_field = e.field.rsplit(": ", 1)[-1] if ": " in e.field else e.field
        raise _RowError(_JSON_FIELDS.get(json_field, NAME), e.message) from None


def _words(key: str) -> str:
    for c in COLUMNS:
        if c.key == key:
            return c.words
    return {UNIT_OVER_12: "occupants over 12", UNIT_UNDER_12: "occupants under 12"}.get(key, key)


def problem_line(p: Problem) -> str:
    """'140-7B Bedroom 2: 1 occupant (1 under 12) sleeps in 70 sq ft; …'."""
    return f"{p.section} {p.room or 'The unit'}: {p.text}"


@dataclass
class OccupancyPresenter:
    code: str = HUDSON
    codes: tuple[CodeChoice, ...] = ()
    rows: list[RoomRow] = field(default_factory=list)
    unit_over_12: str = ""  # the unit's stated occupants; blank: the sleepers stated in rooms
    unit_under_12: str = ""
    unit: Unit | None = None  # the last unit parsed without a mistake (None: none, or a mistake)
    result: OccupancyResult | None = None
    error: str = ""
    error_row: int | None = None
    error_key: str | None = None

    def __post_init__(self) -> None:
        if not self.codes:
            self.codes = code_choices()
        self.recalculate()

    # --- what the inspector does -------------------------------------------------------------

    def set_code(self, key: str) -> None:
        if key not in CODES:
            raise ValueError(f"no occupancy rules for housing code '{key}'")
        self.code = key
        self.recalculate()

    def add_room(self, row: RoomRow | None = None) -> int:
        self.rows.append(row if row is not None else RoomRow())
        self.recalculate()
        return len(self.rows) - 1

    def remove_room(self, index: int) -> None:
        if 0 <= index < len(self.rows):
            del self.rows[index]
            self.recalculate()

    def set_value(self, index: int, key: str, value: str | bool) -> None:
        if key not in COLUMN_KEYS:
            raise KeyError(key)
        row = self.rows[index]
        if key in FLAGS:
            setattr(row, key, bool(value))
        elif key == USE:
            text = str(value).strip().lower()
            if text and text not in USES:
                raise ValueError(f"'{value}' is not a use: {', '.join(USES)}")
            row.use = text
        else:
            setattr(row, key, str(value))
        self.recalculate()

    def set_stated(self, over_12: str, under_12: str) -> None:
        self.unit_over_12, self.unit_under_12 = over_12, under_12
        self.recalculate()

    def load(self, rows: list[RoomRow], over_12: str = "", under_12: str = "") -> None:
        self.rows = [replace(r) for r in rows]
        self.set_stated(over_12, under_12)

    # --- the calculation ---------------------------------------------------------------------

    def room_label(self, index: int) -> str:
        name = " ".join(self.rows[index].name.split())
        return name or f"Row {index + 1}"

    def recalculate(self) -> None:
        self.error, self.error_row, self.error_key = "", None, None
        self.unit = self.result = None
        rooms: list[Room] = []
        seen: dict[str, int] = {}
        for index, row in enumerate(self.rows):
            if row.blank:
                continue
            try:
                room = parse_row(index, row)
                if room.name in seen:
                    raise _RowError(NAME, f"row {seen[room.name] + 1} has this name too")
            except _RowError as e:
                self._fail(index, e.key, f"{self.room_label(index)}: {_words(e.key)}: {e.message}")
                return
            seen[room.name] = index
            rooms.append(room)
        try:
            over = _whole(UNIT_OVER_12, self.unit_over_12) if self.unit_over_12.strip() else None
            under = (
                _whole(UNIT_UNDER_12, self.unit_under_12) if self.unit_under_12.strip() else None
            )
        except _RowError as e:
            self._fail(None, e.key, f"The unit: {_words(e.key)}: {e.message}")
            return
        if not rooms:
            return
        self.unit = Unit(tuple(rooms), occupants_over_12=over, occupants_under_12=under)
        self.result = occupancy(self.code, self.unit)

    def _fail(self, row: int | None, key: str, message: str) -> None:
        self.error, self.error_row, self.error_key = message, row, key

    # --- what the window shows -----------------------------------------------------------

    @property
    def code_label(self) -> str:
        return next((c.label for c in self.codes if c.key == self.code), self.code)

    @property
    def can_print(self) -> bool:
        return self.result is not None

    @property
    def empty(self) -> bool:
        return all(r.blank for r in self.rows)

    @property
    def habitable_text(self) -> str:
        r = self.result
        return EMPTY if r is None else f"{fmt(r.habitable_area)} sq ft"

    @property
    def max_text(self) -> str:
        r = self.result
        return EMPTY if r is None else str(r.max_occupants)

    @property
    def stated_text(self) -> str:
        r = self.result
        if r is None:
            return EMPTY
        if r.occupants is None:
            return "none stated"
        need = f" (need {fmt(r.required_area)} sq ft)" if r.required_area is not None else ""
        return f"{r.occupants}{need}"

    @property
    def verdict_text(self) -> str:
        r = self.result
        if r is None:
            if self.error:
                return "Fix the mistake shown below the table"
            return "Type the unit's rooms"
        if r.complies:
            return "Complies"
        n = len(r.problems)
        return f"Does not comply: {n} shortfall{'s' if n != 1 else ''}"

    @property
    def result_text(self) -> str:
        """One line: 'Complies — at most 4 occupants in 450 sq ft of habitable floor area'."""
        r = self.result
        if r is None:
            return self.verdict_text
        people = "occupant" if r.max_occupants == 1 else "occupants"
        return (
            f"{self.verdict_text} — at most {r.max_occupants} {people} in "
            f"{fmt(r.habitable_area)} sq ft of habitable floor area"
        )

    def shortfall_lines(self) -> list[str]:
        return [] if self.result is None else [problem_line(p) for p in self.result.problems]


def sample_rows() -> tuple[list[RoomRow], str, str]:
    """What the screenshot shows (`--view occupancy`): a small two-bedroom unit for three,
    the second bedroom partly under the roof slope, the kitchen window short (140-5A)."""
    rows = [
        RoomRow("Living room", Use.LIVING.value, "180", "", "", "20", "8"),
        RoomRow("Kitchen", Use.KITCHEN.value, "90", "", "", "6", "4"),
        RoomRow("Bedroom 1", Use.SLEEPING.value, "130", "", "", "14", "6", over_12="2"),
        RoomRow("Bedroom 2", Use.SLEEPING.value, "84", "20", "4.5", "9", "4", under_12="1"),
        RoomRow("Bathroom", Use.BATHROOM.value, "45", mechanical=True),
        RoomRow("Hall", Use.HALL.value, "30"),
    ]
    return rows, "2", "1"


# --- attaching to a case or a licence -----------------------------------------------------------

_CASE_NUMBER = re.compile(r"CE-(\d{4})-(\d{1,4})")
_LICENCE_NUMBER = re.compile(r"RH-(\d{4})-(\d{1,4})")
_APPLICATION = re.compile(r"(?:APPLICATION\s*)?#?\s*(\d{1,9})")


def case_number(text: str) -> str:
    """'ce-2026-8' -> 'CE-2026-0008'; ValidationError('case') when it is no case number."""
    cleaned = "".join(text.split()).upper()
    m = _CASE_NUMBER.fullmatch(cleaned)
    if m is None:
        raise ValidationError("case", "type the case number as CE-YYYY-NNNN, e.g. CE-2026-0008")
    return f"CE-{m.group(1)}-{int(m.group(2)):04d}"


def licence_ref(text: str) -> tuple[str | None, int | None]:
    """(licence number, None) for 'RH-2026-0001', (None, application id) for '#3' or
    'application 3'; ValidationError('licence') otherwise."""
    cleaned = " ".join(text.split()).upper()
    m = _LICENCE_NUMBER.fullmatch(cleaned.replace(" ", ""))
    if m is not None:
        return f"RH-{m.group(1)}-{int(m.group(2)):04d}", None
    a = _APPLICATION.fullmatch(cleaned)
    if a is not None and int(a.group(1)) > 0:
        return None, int(a.group(1))
    raise ValidationError(
        "licence", "type the licence number as RH-YYYY-NNNN, or the application as #3"
    )


def unit_to_dict(unit: Unit) -> dict[str, Any]:
    """The unit as `permitdesk housing occupancy` reads it (desk.housing.jsonio), areas as
    decimal strings; what a check attached to a case keeps as its rooms."""
    rooms: list[dict[str, Any]] = []
    for r in unit.rooms:
        raw: dict[str, Any] = {"name": r.name, "use": r.use.value, "floor_area": fmt(r.floor_area)}
        if r.ceiling:
            raw["ceiling"] = [
                {"height_ft": fmt(c.height_ft), "area": fmt(c.area)} for c in r.ceiling
            ]
        if r.window_area is not None:
            raw["window_area"] = fmt(r.window_area)
        if r.openable_area is not None:
            raw["openable_area"] = fmt(r.openable_area)
        for flag in ("mechanical_ventilation", "artificial_light", "attic_half_story"):
            if getattr(r, flag):
                raw[flag] = True
        if r.occupants_over_12:
            raw["occupants_over_12"] = r.occupants_over_12
        if r.occupants_under_12:
            raw["occupants_under_12"] = r.occupants_under_12
        rooms.append(raw)
    out: dict[str, Any] = {}
    if unit.occupants_over_12 is not None:
        out["occupants_over_12"] = unit.occupants_over_12
    if unit.occupants_under_12 is not None:
        out["occupants_under_12"] = unit.occupants_under_12
    out["rooms"] = rooms
    return out


def unit_to_json(unit: Unit) -> str:
    return json.dumps(unit_to_dict(unit), indent=2)


# --- the case window's Occupancy tab -----------------------------------------------------------

CHECK_COLUMNS = ("Checked", "Unit", "Max. occupants", "Complies", "Shortfalls")


def problems_text(row: OccupancyCheckRow) -> str:
    """'140-7A the unit; 140-7B Bedroom 2' (EMPTY when it complies)."""
    if not row.problems:
        return EMPTY
    return "; ".join(f"{section} {room or 'the unit'}" for section, room, _ in row.problems)


def check_lines(rows: Sequence[OccupancyCheckRow]) -> list[Line]:
    return [
        Line(
            r,
            (
                format_date(r.checked_on),
                r.unit or EMPTY,
                str(r.max_occupants),
                "yes" if r.complies else "no",
                problems_text(r),
            ),
            warn=not r.complies,
        )
        for r in rows
    ]


def attach_note(today: date) -> str:
    return (
        "The rooms and the result are kept as they are today "
        f"({format_date(today)}); a later change does not alter them."
    )
