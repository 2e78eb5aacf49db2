"""The contract of `permitdesk housing occupancy`: a unit's rooms as JSON in, the limits as
JSON out. Areas are square feet written as decimal strings ("120.5"); JSON numbers are read
exactly too. Errors name the room and the field:
`rooms[0] "Bedroom 1": floor_area: not a number: "12x"`.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from desk.errors import ValidationError
from desk.housing.occupancy import (
    CeilingPart,
    OccupancyResult,
    Room,
    Unit,
    Use,
    fmt,
)

_UNIT_KEYS = {"rooms", "occupants_over_12", "occupants_under_12"}
_ROOM_KEYS = {
    "name", "use", "floor_area", "ceiling", "window_area", "openable_area",
    "mechanical_ventilation", "artificial_light", "attic_half_story", "occupants_over_12",
    "occupants_under_12",
}  # fmt: skip
_CEILING_KEYS = {"height_ft", "area"}
MAX_AREA = Decimal(1_000_000)  # square feet; far beyond any dwelling unit
MAX_HEIGHT = Decimal(100)
MAX_OCCUPANTS = 1_000
MAX_PLACES = 4


def _shown(value: Any) -> str:
    if isinstance(value, Decimal):
        return fmt(value) if value.is_finite() else str(value)
    return json.dumps(value)


def _decimal(where: str, name: str, value: Any, limit: Decimal) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise ValidationError(f"{where}: {name}", f"not a number: {_shown(value)}")
    try:
        d = Decimal(value.strip()) if isinstance(value, str) else Decimal(value)
    except InvalidOperation:
        raise ValidationError(f"{where}: {name}", f"not a number: {_shown(value)}") from None
    if not d.is_finite():
        raise ValidationError(f"{where}: {name}", f"not a number: {_shown(value)}")
    if d < 0:
        raise ValidationError(f"{where}: {name}", f"must not be negative: {_shown(value)}")
    if d > limit:
        raise ValidationError(f"{where}: {name}", f"must not be more than {fmt(limit)}")
    exponent = d.as_tuple().exponent  # normalize() only when the written places are many
    if d and int(exponent) < -MAX_PLACES and int(d.normalize().as_tuple().exponent) < -MAX_PLACES:
        raise ValidationError(f"{where}: {name}", f"has more than {MAX_PLACES} decimal places")
    return d + 0  # 1E+2 -> 100


def _count(where: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"{where}: {name}", f"not a whole number: {_shown(value)}")
    if value < 0:
        raise ValidationError(f"{where}: {name}", f"must not be negative: {value}")
    if value > MAX_OCCUPANTS:
        raise ValidationError(f"{where}: {name}", f"must not be more than {MAX_OCCUPANTS}")
    return value


def _flag(where: str, name: str, value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ValidationError(f"{where}: {name}", f"must be true or false: {_shown(value)}")
    return value


def _unknown(where: str, raw: dict[str, Any], known: set[str]) -> None:
    unknown = sorted(set(raw) - known)
    sep = "." if where.endswith("]") else ": "
    if unknown:
        raise ValidationError(
            f"{where}{sep}{unknown[0]}", f"unknown field (known: {', '.join(sorted(known))})"
        )


def _ceiling(where: str, raw: Any, floor_area: Decimal) -> tuple[CeilingPart, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValidationError(f"{where}: ceiling", "must be a list of {height_ft, area}")
    parts = []
    for j, part in enumerate(raw):
        name = f"ceiling[{j}]"
        if not isinstance(part, dict):
            raise ValidationError(f"{where}: {name}", "must be {height_ft, area}")
        _unknown(f"{where}: {name}", part, _CEILING_KEYS)
        for key in ("height_ft", "area"):
            if part.get(key) is None:
                raise ValidationError(f"{where}: {name}.{key}", "missing")
        parts.append(
            CeilingPart(
                height_ft=_decimal(where, f"{name}.height_ft", part["height_ft"], MAX_HEIGHT),
                area=_decimal(where, f"{name}.area", part["area"], MAX_AREA),
            )
        )
    total = sum((p.area for p in parts), Decimal(0))
    if parts and total != floor_area:
        raise ValidationError(
            f"{where}: ceiling",
            f"the areas add up to {fmt(total)}, not the floor_area {fmt(floor_area)}",
        )
    return tuple(parts)


def room_from_dict(index: int, raw: Any) -> Room:
    where = f"rooms[{index}]"
    if not isinstance(raw, dict):
        raise ValidationError(where, "must be an object with name, use, floor_area, ...")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValidationError(f"{where}: name", "missing" if name is None else "must be text")
    name = " ".join(name.split())
    where = f"{where} {json.dumps(name)}"
    _unknown(where, raw, _ROOM_KEYS)
    use_raw = raw.get("use")
    if use_raw is None:
        raise ValidationError(f"{where}: use", "missing")
    try:
        use = Use(use_raw)
    except ValueError:
        known = ", ".join(u.value for u in Use)
        message = f"{_shown(use_raw)} is not one of: {known}"
        raise ValidationError(f"{where}: use", message) from None
    if raw.get("floor_area") is None:
        raise ValidationError(f"{where}: floor_area", "missing")
    floor_area = _decimal(where, "floor_area", raw["floor_area"], MAX_AREA)
    window = raw.get("window_area")
    openable = raw.get("openable_area")
    window_area = None if window is None else _decimal(where, "window_area", window, MAX_AREA)
    openable_area = (
        None if openable is None else _decimal(where, "openable_area", openable, MAX_AREA)
    )
    if window_area is not None and openable_area is not None and openable_area > window_area:
        raise ValidationError(
            f"{where}: openable_area",
            f"{fmt(openable_area)} is more than the window_area {fmt(window_area)}",
        )
    over = _count(where, "occupants_over_12", raw.get("occupants_over_12", 0))
    under = _count(where, "occupants_under_12", raw.get("occupants_under_12", 0))
    if (over or under) and not use.habitable:
        field = "occupants_over_12" if over else "occupants_under_12"
        raise ValidationError(
            f"{where}: {field}", f"a {use.value} is not a habitable room; nobody sleeps there"
        )
    return Room(
        name=name,
        use=use,
        floor_area=floor_area,
        ceiling=_ceiling(where, raw.get("ceiling"), floor_area),
        window_area=window_area,
        openable_area=openable_area,
        mechanical_ventilation=_flag(
            where, "mechanical_ventilation", raw.get("mechanical_ventilation")
        ),
        artificial_light=_flag(where, "artificial_light", raw.get("artificial_light")),
        attic_half_story=_flag(where, "attic_half_story", raw.get("attic_half_story")),
        occupants_over_12=over,
        occupants_under_12=under,
    )


def unit_from_dict(raw: Any) -> Unit:
    if not isinstance(raw, dict):
        raise ValidationError("unit", 'must be a JSON object with "rooms"')
    _unknown("unit", raw, _UNIT_KEYS)
    rooms_raw = raw.get("rooms")
    if not isinstance(rooms_raw, list) or not rooms_raw:
        raise ValidationError("unit: rooms", "must list the unit's rooms")
    rooms = tuple(room_from_dict(i, r) for i, r in enumerate(rooms_raw))
    seen: set[str] = set()  # a set, not the list so far: a unit of many rooms stays linear
    for i, room in enumerate(rooms):
        if room.name in seen:
            raise ValidationError(
                f"rooms[{i}] {json.dumps(room.name)}: name", "another room has it"
            )
        seen.add(room.name)
    over, under = raw.get("occupants_over_12"), raw.get("occupants_under_12")
    return Unit(
        rooms=rooms,
        occupants_over_12=None if over is None else _count("unit", "occupants_over_12", over),
        occupants_under_12=None if under is None else _count("unit", "occupants_under_12", under),
    )


def unit_from_json(text: str) -> Unit:
    """Parse the JSON a clerk or a script sends; decimals stay exact."""
    try:
        raw = json.loads(text, parse_float=Decimal)
    except (json.JSONDecodeError, RecursionError) as e:
        reason = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
        raise ValidationError("unit", f"not valid JSON ({reason})") from None
    return unit_from_dict(raw)


def _opt(d: Decimal | None) -> str | None:
    return None if d is None else fmt(d)


def result_to_json(result: OccupancyResult) -> str:
    """The result as JSON a person can read: one line per key, each room and problem on a line
    of its own. Written with the C encoder line by line (an indented dump goes through the pure
    Python one, which took seconds on a unit of 100,000 rooms)."""
    lines = []
    for key, value in result_to_dict(result).items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {json.dumps(item)}" for item in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def result_to_dict(result: OccupancyResult) -> dict[str, Any]:
    """JSON-ready; decimals as strings."""
    return {
        "code": result.code,
        "habitable_area": fmt(result.habitable_area),
        "max_occupants": result.max_occupants,
        "occupants": result.occupants,
        "required_area": _opt(result.required_area),
        "complies": result.complies,
        "problems": [
            {"section": p.section, "room": p.room, "text": p.text} for p in result.problems
        ],
        "rooms": [
            {
                "name": r.name,
                "use": r.use.value,
                "habitable": r.habitable,
                "floor_area": fmt(r.floor_area),
                "counted_area": fmt(r.counted_area),
                "full_ceiling_ft": fmt(r.full_ceiling_ft),
                "full_ceiling_area": fmt(r.full_ceiling_area),
                "min_full_ceiling_area": _opt(r.min_full_ceiling_area),
                "sleepers": r.sleepers,
                "required_sleeping_area": _opt(r.required_sleeping_area),
                "max_sleepers_over_12": r.max_sleepers_over_12,
                "max_sleepers_under_12": r.max_sleepers_under_12,
                "window_area": _opt(r.window_area),
                "required_window_area": _opt(r.required_window_area),
                "openable_area": _opt(r.openable_area),
                "required_openable_area": _opt(r.required_openable_area),
            }
            for r in result.rooms
        ],
    }
