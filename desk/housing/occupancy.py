"""Occupancy limits of a dwelling unit under a housing code: floor area per occupant, sleeping
rooms, ceiling heights and windows (Hudson 140-5, 140-7; Ch. 512-11). Pure: rooms in, figures
and problems out. Areas are Decimal square feet, heights Decimal feet; no floats.

Readings a clerk should know (the code text leaves them open):
- Habitable rooms are those for living, sleeping, cooking or eating; bathrooms, closets,
  halls, laundries and storage never are (Hudson 140-1 HABITABLE ROOM).
- The stated occupancy is the unit's occupants_over_12 + occupants_under_12; when the unit
  states none, the sleepers stated in its rooms. Hudson 140-1: a child under one year is no
  occupant, so leave infants out of the counts.
- Sleepers stated in a habitable room make it a "room occupied for sleeping purposes".
- Hudson 140-7B applies "in every dwelling unit of two or more rooms": two or more habitable
  rooms (an efficiency unit is one room; its bathroom does not make it two).
- Hudson 140-7C: the half at 7 ft 6 in is half of the room's whole floor area; the area under
  5 ft is left out of the area that sets occupancy (140-7A/B), not out of the window base
  (140-5A/B: "the floor area of such room").
- Ch. 512-11A: only area under a ceiling of 5 ft or more counts, for every 512-11 figure. The
  7 ft ceiling must cover the minimum area the chapter requires: a sleeping room's 512-11C
  area for its sleepers, and the unit's 512-11B area for its stated occupants (a top
  half-story attic used for sleeping or study: 7 ft over a third of it, so such a room's 7 ft
  area covers three times as much of the minimum).
- Ch. 512-11K asks an openable window (or a ventilating device) of every room; it is checked
  in habitable rooms and bathrooms, the rooms 512-11G and L give a window size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

HUDSON = "hudson-140"
CH_512 = "ch-512"
CODES = (CH_512, HUDSON)

DEFAULT_CEILING_FT = Decimal(8)  # a room given without ceiling parts
COUNTED_CEILING_FT = Decimal(5)  # Hudson 140-7C; 512-11A: area under 5 ft is not counted
HUDSON_FULL_CEILING_FT = Decimal("7.5")  # 140-7C: seven feet six inches
CH_512_FULL_CEILING_FT = Decimal(7)  # 512-11A


class Use(StrEnum):
    SLEEPING = "sleeping"
    LIVING = "living"
    DINING = "dining"
    KITCHEN = "kitchen"
    BATHROOM = "bathroom"
    HALL = "hall"
    CLOSET = "closet"
    LAUNDRY = "laundry"
    STORAGE = "storage"

    @property
    def habitable(self) -> bool:
        """Hudson 140-1: for living, sleeping, cooking or eating purposes."""
        return self in _HABITABLE


_HABITABLE = frozenset({Use.SLEEPING, Use.LIVING, Use.DINING, Use.KITCHEN})


@dataclass(frozen=True)
class CeilingPart:
    """A part of a room's floor and the clear ceiling height over it."""

    height_ft: Decimal
    area: Decimal


@dataclass(frozen=True)
class Room:
    name: str
    use: Use
    floor_area: Decimal
    ceiling: tuple[CeilingPart, ...] = ()  # () = the whole floor at DEFAULT_CEILING_FT
    window_area: Decimal | None = None  # None: not measured, not checked
    openable_area: Decimal | None = None
    mechanical_ventilation: bool = False
    artificial_light: bool = False  # 512-11G: a kitchen may have artificial light instead
    attic_half_story: bool = False  # 512-11A: a top half-story attic used for sleeping, study
    occupants_over_12: int = 0  # sleepers in the room
    occupants_under_12: int = 0

    @property
    def habitable(self) -> bool:
        return self.use.habitable

    @property
    def sleepers(self) -> int:
        return self.occupants_over_12 + self.occupants_under_12

    def area_under(self, at_least_ft: Decimal) -> Decimal:
        """Floor area with a clear ceiling of `at_least_ft` or more."""
        if not self.ceiling:  # the whole floor at DEFAULT_CEILING_FT
            return self.floor_area if at_least_ft <= DEFAULT_CEILING_FT else Decimal(0)
        return sum((p.area for p in self.ceiling if p.height_ft >= at_least_ft), Decimal(0))


@dataclass(frozen=True)
class Unit:
    rooms: tuple[Room, ...]
    occupants_over_12: int | None = None
    occupants_under_12: int | None = None

    @property
    def stated_occupants(self) -> int | None:
        if self.occupants_over_12 is not None or self.occupants_under_12 is not None:
            return (self.occupants_over_12 or 0) + (self.occupants_under_12 or 0)
        sleepers = sum(r.sleepers for r in self.rooms)
        return sleepers if sleepers else None


@dataclass(frozen=True)
class Problem:
    section: str  # "140-7B"
    room: str | None  # None: the unit as a whole
    text: str


@dataclass(frozen=True)
class RoomResult:
    name: str
    use: Use
    habitable: bool
    floor_area: Decimal
    counted_area: Decimal  # under a ceiling of 5 ft or more
    full_ceiling_ft: Decimal  # 7.5 (140-7C) or 7 (512-11A)
    full_ceiling_area: Decimal  # under a ceiling of full_ceiling_ft or more
    min_full_ceiling_area: Decimal | None  # what the ceiling rule asks of this room
    sleepers: int
    required_sleeping_area: Decimal | None
    max_sleepers_over_12: int | None  # all sleepers over 12 (None: rule does not apply)
    max_sleepers_under_12: int | None  # all sleepers under 12
    window_area: Decimal | None
    required_window_area: Decimal | None  # None: no window required
    openable_area: Decimal | None
    required_openable_area: Decimal | None


@dataclass(frozen=True)
class OccupancyResult:
    code: str
    habitable_area: Decimal
    max_occupants: int
    occupants: int | None
    required_area: Decimal | None  # for the stated occupants
    problems: tuple[Problem, ...]
    rooms: tuple[RoomResult, ...]

    @property
    def complies(self) -> bool:
        return not self.problems


def fmt(d: Decimal) -> str:
    """12.00 -> "12", 9.8760 -> "9.876": exact, no exponent."""
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def _sq(d: Decimal) -> str:
    return f"{fmt(d)} sq ft"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- Hudson 140-7A, 140-7B --------------------------------------------------------------------


def hudson_required_area(occupants: int) -> Decimal:
    """140-7A: 150 sq ft for the first occupant, 100 for the second, 75 for each additional."""
    if occupants <= 0:
        return Decimal(0)
    if occupants == 1:
        return Decimal(150)
    return Decimal(250 + 75 * (occupants - 2))


def hudson_max_occupants(area: Decimal) -> int:
    """140-7A: the most occupants `area` sq ft of habitable floor allows (150/250/325/+75)."""
    if area < 150:
        return 0
    if area < 250:
        return 1
    return 2 + int((area - 250) // 75)


def hudson_sleeping_area(over_12: int, under_12: int) -> Decimal:
    """140-7B: 80 sq ft for one occupant; otherwise 40 per occupant over 12, 30 under 12."""
    if over_12 + under_12 == 0:
        return Decimal(0)
    if over_12 + under_12 == 1:
        return Decimal(80)
    return Decimal(40 * over_12 + 30 * under_12)


def hudson_max_sleepers(area: Decimal, *, under_12: bool = False) -> int:
    """140-7B: the most sleepers, all over 12 (or all under 12), that `area` allows. Two
    children need only 60 sq ft but one alone 80, so 60 to 79 sq ft allows two, not one."""
    if under_12:
        return int(area // 30) if area >= 60 else 0
    return int(area // 40) if area >= 80 else 0


# --- Ch. 512-11B, 512-11C ---------------------------------------------------------------------


def ch512_required_area(occupants: int) -> Decimal:
    """512-11B: 150 sq ft for the first occupant and 100 for each additional."""
    if occupants <= 0:
        return Decimal(0)
    return Decimal(150 + 100 * (occupants - 1))


def ch512_max_occupants(area: Decimal) -> int:
    """512-11B: the most occupants `area` sq ft of habitable floor allows (150/250/350/...)."""
    if area < 150:
        return 0
    return 1 + int((area - 150) // 100)


def ch512_sleeping_area(sleepers: int) -> Decimal:
    """512-11C: 70 sq ft for one occupant; 50 per occupant when more than one."""
    if sleepers <= 0:
        return Decimal(0)
    if sleepers == 1:
        return Decimal(70)
    return Decimal(50 * sleepers)


def ch512_max_sleepers(area: Decimal) -> int:
    """512-11C: the most sleepers `area` allows (70 for one, 100 for two, 50 each after)."""
    if area >= 100:
        return int(area // 50)
    return 1 if area >= 70 else 0


def _ch512_ceiling_credit(room: Room) -> Decimal:
    """512-11A: the part of the minimum area a room's 7 ft ceiling covers. In a top half-story
    attic used for sleeping or study 7 ft is needed over 1/3 of the minimum only."""
    full = room.area_under(CH_512_FULL_CEILING_FT)
    counted = room.area_under(COUNTED_CEILING_FT)
    return min(counted, 3 * full) if room.attic_half_story else full


# --- the calculators --------------------------------------------------------------------------


def occupancy(code: str, unit: Unit) -> OccupancyResult:
    """The limits and problems of `unit` under the housing code `code` (see CODES)."""
    if code == HUDSON:
        return hudson_occupancy(unit)
    if code == CH_512:
        return ch512_occupancy(unit)
    raise ValueError(f"no occupancy rules for housing code '{code}' (known: {', '.join(CODES)})")


def hudson_occupancy(unit: Unit) -> OccupancyResult:
    problems: list[Problem] = []
    rooms: list[RoomResult] = []
    habitable = [r for r in unit.rooms if r.habitable]
    # 140-7B applies "in every dwelling unit of two or more rooms" (habitable rooms).
    sleeping_rule = len(habitable) >= 2
    for room in unit.rooms:
        counted = room.area_under(COUNTED_CEILING_FT)
        full = room.area_under(HUDSON_FULL_CEILING_FT)
        min_full: Decimal | None = None
        need: Decimal | None = None
        max_over: int | None = None
        max_under: int | None = None
        window: Decimal | None = None
        openable: Decimal | None = None
        if room.habitable:
            # 140-7C: at least 1/2 of the floor area at 7 ft 6 in or more.
            min_full = room.floor_area / 2
            if full < min_full:
                problems.append(
                    Problem(
                        "140-7C",
                        room.name,
                        f"{_sq(full)} of the {_sq(room.floor_area)} floor has a ceiling of "
                        f"7 ft 6 in or more; at least half ({_sq(min_full)}) must.",
                    )
                )
            if sleeping_rule:
                max_over = hudson_max_sleepers(counted)
                max_under = hudson_max_sleepers(counted, under_12=True)
                if room.sleepers:
                    need = hudson_sleeping_area(room.occupants_over_12, room.occupants_under_12)
                    if counted < need:
                        problems.append(
                            Problem(
                                "140-7B",
                                room.name,
                                f"{_sleepers(room)} in {_sq(counted)}; "
                                f"140-7B requires {_sq(need)}.",
                            )
                        )
            # 140-5A: window area 10 % of the floor area; 140-5B: openable 4 %, except
            # where a mechanical device affords adequate ventilation.
            window = room.floor_area * Decimal("0.10")
            openable = None if room.mechanical_ventilation else room.floor_area * Decimal("0.04")
            problems += _window_problems(room, window, openable, "140-5A", "140-5B")
        elif room.use is Use.BATHROOM and not room.mechanical_ventilation:
            # 140-5C: bathrooms as habitable rooms (A and B), unless mechanically ventilated,
            # when no window or skylight is required.
            window = room.floor_area * Decimal("0.10")
            openable = room.floor_area * Decimal("0.04")
            problems += _window_problems(room, window, openable, "140-5C", "140-5C")
        rooms.append(
            _room_result(
                room,
                counted,
                HUDSON_FULL_CEILING_FT,
                full,
                min_full,
                need,
                max_over,
                max_under,
                window,
                openable,
            )
        )
    area = sum((r.counted_area for r in rooms if r.habitable), Decimal(0))
    return _unit_result(
        HUDSON,
        unit,
        area,
        hudson_max_occupants(area),
        hudson_required_area,
        "140-7A",
        problems,
        rooms,
    )


def ch512_occupancy(unit: Unit) -> OccupancyResult:
    problems: list[Problem] = []
    rooms: list[RoomResult] = []
    for room in unit.rooms:
        counted = room.area_under(COUNTED_CEILING_FT)
        full = room.area_under(CH_512_FULL_CEILING_FT)
        min_full: Decimal | None = None
        need: Decimal | None = None
        max_sleepers: int | None = None
        window: Decimal | None = None
        openable: Decimal | None = None
        if room.habitable:
            credit = _ch512_ceiling_credit(room)
            # 512-11C sleeping space, within the 7 ft ceiling of 512-11A.
            max_sleepers = min(ch512_max_sleepers(counted), ch512_max_sleepers(credit))
            if room.sleepers:
                need = ch512_sleeping_area(room.sleepers)
                min_full = need / 3 if room.attic_half_story else need
                if counted < need:
                    problems.append(
                        Problem(
                            "512-11C",
                            room.name,
                            f"{_sleepers(room)} in {_sq(counted)}; 512-11C requires {_sq(need)}.",
                        )
                    )
                # 512-11A, when low ceilings fall shorter than the counted area does.
                if credit < min(need, counted):
                    problems.append(
                        Problem("512-11A", room.name, _ch512_ceiling_text(room, full, need))
                    )
            # 512-11G: window area 8 % of the floor area (a kitchen may have artificial light
            # instead); 512-11K: openable area 45 % of that minimum, in every habitable room.
            if room.use is Use.KITCHEN and room.artificial_light:
                window, openable = None, Decimal(0)
            else:
                window = counted * Decimal("0.08")
                openable = window * Decimal("0.45")
            problems += _window_problems(room, window, openable, "512-11G", "512-11K")
        elif room.use is Use.BATHROOM and not room.mechanical_ventilation:
            # 512-11L: bathrooms as habitable rooms (G), unless they have an approved
            # ventilation system; 512-11K: then no openable window either.
            window = room.floor_area * Decimal("0.08")
            openable = window * Decimal("0.45")
            problems += _window_problems(room, window, openable, "512-11L", "512-11K")
        rooms.append(
            _room_result(
                room,
                counted,
                CH_512_FULL_CEILING_FT,
                full,
                min_full,
                need,
                max_sleepers,
                max_sleepers,
                window,
                openable,
            )
        )
    # 512-11A: 7 ft over the minimum area 512-11B requires of the unit. Where the counted
    # area itself falls short, 512-11B says so; 512-11A only when low ceilings fall shorter.
    area = sum((r.counted_area for r in rooms if r.habitable), Decimal(0))
    occupants = unit.stated_occupants
    required = ch512_required_area(occupants or 0)
    credit = sum((_ch512_ceiling_credit(r) for r in unit.rooms if r.habitable), Decimal(0))
    if occupants and credit < min(required, area):
        problems.append(
            Problem(
                "512-11A",
                None,
                f"{_sq(credit)} of the habitable floor has a ceiling of 7 ft or more (in a "
                "top half-story attic: three times its 7 ft area); "
                f"{_count(occupants, 'occupant')} need 7 ft over the {_sq(required)} "
                "minimum area.",
            )
        )
    return _unit_result(
        CH_512,
        unit,
        area,
        ch512_max_occupants(area),
        ch512_required_area,
        "512-11B",
        problems,
        rooms,
    )


def _ch512_ceiling_text(room: Room, full: Decimal, need: Decimal) -> str:
    if room.attic_half_story:
        return (
            f"{_sq(full)} has a ceiling of 7 ft or more; in a top half-story attic 512-11A "
            f"requires 7 ft over 1/3 of the {_sq(need)} minimum area ({_sq(need / 3)})."
        )
    return (
        f"{_sq(full)} has a ceiling of 7 ft or more; 512-11A requires 7 ft over the "
        f"{_sq(need)} minimum area."
    )


def _sleepers(room: Room) -> str:
    parts = []
    if room.occupants_over_12:
        parts.append(f"{room.occupants_over_12} over 12")
    if room.occupants_under_12:
        parts.append(f"{room.occupants_under_12} under 12")
    verb = "sleeps" if room.sleepers == 1 else "sleep"
    return f"{_count(room.sleepers, 'occupant')} ({', '.join(parts)}) {verb}"


def _window_problems(
    room: Room,
    window: Decimal | None,
    openable: Decimal | None,
    window_section: str,
    openable_section: str,
) -> list[Problem]:
    """Window and openable area against the minimums; an area not measured is not checked."""
    found: list[Problem] = []
    if window is not None and room.window_area is not None and room.window_area < window:
        found.append(
            Problem(
                window_section,
                room.name,
                f"{_sq(room.window_area)} of window; {window_section} requires {_sq(window)}.",
            )
        )
    if openable is not None and room.openable_area is not None:
        if room.openable_area < openable:
            found.append(
                Problem(
                    openable_section,
                    room.name,
                    f"{_sq(room.openable_area)} of window opens; {openable_section} requires "
                    f"{_sq(openable)}.",
                )
            )
        elif openable == 0 and room.openable_area == 0 and not room.mechanical_ventilation:
            # 512-11K: "at least one window which can be easily opened or such other device".
            found.append(
                Problem(
                    openable_section,
                    room.name,
                    "no window opens and no device ventilates the room.",
                )
            )
    return found


def _room_result(
    room: Room,
    counted: Decimal,
    full_ft: Decimal,
    full: Decimal,
    min_full: Decimal | None,
    need: Decimal | None,
    max_over: int | None,
    max_under: int | None,
    window: Decimal | None,
    openable: Decimal | None,
) -> RoomResult:
    return RoomResult(
        name=room.name,
        use=room.use,
        habitable=room.habitable,
        floor_area=room.floor_area,
        counted_area=counted,
        full_ceiling_ft=full_ft,
        full_ceiling_area=full,
        min_full_ceiling_area=min_full,
        sleepers=room.sleepers,
        required_sleeping_area=need,
        max_sleepers_over_12=max_over,
        max_sleepers_under_12=max_under,
        window_area=room.window_area,
        required_window_area=window,
        openable_area=room.openable_area,
        required_openable_area=openable,
    )


def _unit_result(
    code: str,
    unit: Unit,
    area: Decimal,
    max_occupants: int,
    required_area: Callable[[int], Decimal],
    section: str,
    problems: list[Problem],
    rooms: list[RoomResult],
) -> OccupancyResult:
    occupants = unit.stated_occupants
    required = None if occupants is None else required_area(occupants)
    unit_problems: list[Problem] = []
    if occupants is not None and occupants > max_occupants:
        assert required is not None
        unit_problems.append(
            Problem(
                section,
                None,
                f"{_count(occupants, 'occupant')} need {_sq(required)} of habitable floor "
                f"area; the unit has {_sq(area)}, enough for {max_occupants}.",
            )
        )
    return OccupancyResult(
        code=code,
        habitable_area=area,
        max_occupants=max_occupants,
        occupants=occupants,
        required_area=required,
        # the unit's problems first, then the rooms' in room order
        problems=tuple(sorted(unit_problems + problems, key=lambda p: p.room is not None)),
        rooms=tuple(rooms),
    )
