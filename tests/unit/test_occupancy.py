"""Occupancy limits worked by hand: Hudson 140-5 and 140-7, Ch. 512-11. Areas in square feet;
a room given without ceiling parts is 8 ft high throughout."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from desk.housing.occupancy import (
    CH_512,
    HUDSON,
    CeilingPart,
    OccupancyResult,
    Room,
    Unit,
    Use,
    ch512_max_occupants,
    hudson_max_occupants,
    occupancy,
)


def room(name: str, use: Use, area: str, **kw: object) -> Room:
    return Room(name=name, use=use, floor_area=D(area), **kw)  # type: ignore[arg-type]


def sections(result: OccupancyResult) -> list[tuple[str, str | None]]:
    return [(p.section, p.room) for p in result.problems]


# --- 140-7A / 512-11B: floor area per occupant ------------------------------------------------


@pytest.mark.parametrize(
    ("area", "occupants"),
    [
        # 140-7A: 150 for the first, +100 for the second (250), +75 each after (325, 400)
        ("149", 0), ("150", 1), ("249", 1), ("250", 2), ("324", 2), ("325", 3),
        ("399", 3), ("400", 4), ("399.99", 3),
    ],
)  # fmt: skip
def test_hudson_140_7a_steps(area: str, occupants: int) -> None:
    assert hudson_max_occupants(D(area)) == occupants


@pytest.mark.parametrize(
    ("area", "occupants"),
    [
        # 512-11B: 150 for the first, +100 for each additional (250, 350, 450)
        ("149", 0), ("150", 1), ("249", 1), ("250", 2), ("349", 2), ("350", 3), ("450", 4),
    ],
)  # fmt: skip
def test_ch_512_11b_steps(area: str, occupants: int) -> None:
    assert ch512_max_occupants(D(area)) == occupants


def test_three_occupants_fit_325_sq_ft_under_hudson_but_not_324() -> None:
    # 150 + 100 + 75 = 325 for three occupants.
    at = occupancy(HUDSON, Unit((room("Living", Use.LIVING, "325"),), occupants_over_12=3))
    assert (at.max_occupants, at.complies, at.required_area) == (3, True, D(325))
    under = occupancy(HUDSON, Unit((room("Living", Use.LIVING, "324"),), occupants_over_12=3))
    assert under.max_occupants == 2
    assert sections(under) == [("140-7A", None)]
    assert under.problems[0].text == (
        "3 occupants need 325 sq ft of habitable floor area; the unit has 324 sq ft, enough for 2."
    )


def test_three_occupants_need_350_sq_ft_under_512() -> None:
    # 150 + 100 + 100 = 350.
    at = occupancy(CH_512, Unit((room("Living", Use.LIVING, "350"),), occupants_over_12=3))
    assert (at.max_occupants, at.complies) == (3, True)
    under = occupancy(CH_512, Unit((room("Living", Use.LIVING, "349"),), occupants_over_12=3))
    assert sections(under) == [("512-11B", None)]


def test_non_habitable_rooms_are_not_counted() -> None:
    # Only the 150 sq ft living room counts; the 50 + 30 + 10 + 40 + 20 = 150 sq ft of
    # bathroom, hall, closet, laundry and storage does not (140-1 HABITABLE ROOM).
    rooms = (
        room("Living", Use.LIVING, "150"),
        room("Bath", Use.BATHROOM, "50", mechanical_ventilation=True),
        room("Hall", Use.HALL, "30"),
        room("Closet", Use.CLOSET, "10"),
        room("Laundry", Use.LAUNDRY, "40"),
        room("Storage", Use.STORAGE, "20"),
    )
    for code in (HUDSON, CH_512):
        result = occupancy(code, Unit(rooms, occupants_over_12=2))
        assert result.habitable_area == D(150)
        assert result.max_occupants == 1
        assert [r.habitable for r in result.rooms] == [True] + [False] * 5
        assert not result.complies


def test_kitchen_and_dining_are_habitable() -> None:
    rooms = (room("Kitchen", Use.KITCHEN, "100"), room("Dining", Use.DINING, "150"))
    assert occupancy(HUDSON, Unit(rooms)).habitable_area == D(250)


def test_stated_sleepers_are_the_occupancy_when_the_unit_states_none() -> None:
    rooms = (
        room("Bedroom", Use.SLEEPING, "100", occupants_over_12=2),
        room("Living", Use.LIVING, "140"),
    )
    # 240 sq ft: one occupant under 140-7A (two need 250).
    result = occupancy(HUDSON, Unit(rooms))
    assert (result.occupants, result.max_occupants) == (2, 1)
    assert sections(result) == [("140-7A", None)]


# --- 140-7B / 512-11C: sleeping rooms ---------------------------------------------------------


def _hudson_bedroom(area: str, over: int, under: int) -> OccupancyResult:
    rooms = (
        room("Bedroom", Use.SLEEPING, area, occupants_over_12=over, occupants_under_12=under),
        room("Living", Use.LIVING, "400"),
    )
    return occupancy(HUDSON, Unit(rooms))


def test_hudson_sleeping_room_with_children_under_12() -> None:
    # One adult and two children: 40 + 30 + 30 = 100 sq ft.
    ok = _hudson_bedroom("100", 1, 2)
    assert ok.complies
    assert ok.rooms[0].required_sleeping_area == D(100)
    short = _hudson_bedroom("99", 1, 2)
    assert sections(short) == [("140-7B", "Bedroom")]
    assert short.problems[0].text == (
        "3 occupants (1 over 12, 2 under 12) sleep in 99 sq ft; 140-7B requires 100 sq ft."
    )


def test_hudson_one_sleeper_needs_80_sq_ft() -> None:
    assert _hudson_bedroom("80", 1, 0).complies
    assert sections(_hudson_bedroom("79", 1, 0)) == [("140-7B", "Bedroom")]
    assert sections(_hudson_bedroom("79", 0, 1)) == [("140-7B", "Bedroom")]


def test_hudson_two_children_need_60_sq_ft_though_one_alone_needs_80() -> None:
    # 140-7B read as written: 2 x 30 = 60 for two children; 80 for one occupant.
    result = _hudson_bedroom("60", 0, 2)
    assert result.complies
    bedroom = result.rooms[0]
    # 60 sq ft: two children (60) or no adult (one needs 80; two need 80).
    assert (bedroom.max_sleepers_over_12, bedroom.max_sleepers_under_12) == (0, 2)
    # 100 sq ft: 100 // 40 = 2 adults, 100 // 30 = 3 children.
    assert (_hudson_bedroom("100", 0, 0).rooms[0].max_sleepers_over_12) == 2
    assert (_hudson_bedroom("100", 0, 0).rooms[0].max_sleepers_under_12) == 3


def test_hudson_140_7b_does_not_apply_to_a_one_room_unit() -> None:
    # "In every dwelling unit of two or more rooms": an efficiency room of 70 sq ft with one
    # sleeper is short under 140-7A (150), not 140-7B.
    rooms = (
        room("Studio", Use.LIVING, "70", occupants_over_12=1),
        room("Bath", Use.BATHROOM, "40", mechanical_ventilation=True),
    )
    result = occupancy(HUDSON, Unit(rooms))
    assert sections(result) == [("140-7A", None)]
    assert result.rooms[0].max_sleepers_over_12 is None


def test_ch_512_sleeping_rooms_70_for_one_50_each_for_more() -> None:
    def bedroom(area: str, sleepers: int) -> OccupancyResult:
        rooms = (
            room("Bedroom", Use.SLEEPING, area, occupants_over_12=sleepers),
            room("Living", Use.LIVING, "400"),
        )
        return occupancy(CH_512, Unit(rooms))

    assert bedroom("70", 1).complies
    assert sections(bedroom("69", 1)) == [("512-11C", "Bedroom")]
    assert bedroom("150", 3).complies  # 3 x 50
    assert sections(bedroom("149", 3)) == [("512-11C", "Bedroom")]
    # no distinction by age in 512-11C: 100 sq ft holds 2, 99 holds 1
    assert bedroom("100", 0).rooms[0].max_sleepers_over_12 == 2
    assert bedroom("99", 0).rooms[0].max_sleepers_under_12 == 1


# --- ceilings ---------------------------------------------------------------------------------


def test_hudson_area_under_5_ft_is_not_counted_and_half_needs_7_ft_6_in() -> None:
    # 120 sq ft bedroom: 50 at 8 ft, 40 at 6 ft, 30 at 4 ft.
    # Counted: 50 + 40 = 90 (the 30 under 5 ft is left out, 140-7C).
    # At 7 ft 6 in or more: 50 < half of 120 = 60 -> 140-7C.
    low = (CeilingPart(D(8), D(50)), CeilingPart(D(6), D(40)), CeilingPart(D(4), D(30)))
    rooms = (room("Bedroom", Use.SLEEPING, "120", ceiling=low), room("Living", Use.LIVING, "150"))
    result = occupancy(HUDSON, Unit(rooms))
    bedroom = result.rooms[0]
    assert (bedroom.counted_area, bedroom.full_ceiling_area) == (D(90), D(50))
    assert bedroom.min_full_ceiling_area == D(60)
    assert sections(result) == [("140-7C", "Bedroom")]
    # Habitable area 90 + 150 = 240: one occupant (two need 250).
    assert (result.habitable_area, result.max_occupants) == (D(240), 1)


def test_hudson_exactly_half_at_7_ft_6_in_complies() -> None:
    # 60 at 7.5 ft, 30 at 6 ft, 30 at 4.99 ft: 60 = half of 120; counted 90.
    parts = (CeilingPart(D("7.5"), D(60)), CeilingPart(D(6), D(30)), CeilingPart(D("4.99"), D(30)))
    result = occupancy(HUDSON, Unit((room("Bedroom", Use.SLEEPING, "120", ceiling=parts),)))
    assert result.complies
    assert result.rooms[0].counted_area == D(90)


def test_ch_512_needs_7_ft_over_the_minimum_area_of_a_sleeping_room() -> None:
    # 150 sq ft bedroom for 2 (512-11C minimum 100): 90 at 7 ft, 40 at 6 ft, 20 at 4 ft.
    # Counted 130 >= 100, so 512-11C is met; but only 90 < 100 has 7 ft -> 512-11A.
    parts = (CeilingPart(D(7), D(90)), CeilingPart(D(6), D(40)), CeilingPart(D(4), D(20)))
    rooms = (
        room("Bedroom", Use.SLEEPING, "150", ceiling=parts, occupants_over_12=2),
        room("Living", Use.LIVING, "300"),
    )
    result = occupancy(CH_512, Unit(rooms))
    assert sections(result) == [("512-11A", "Bedroom")]
    assert result.rooms[0].counted_area == D(130)
    assert result.rooms[0].max_sleepers_over_12 == 1  # 90 sq ft at 7 ft holds one (70)
    # 100 at 7 ft: the whole minimum has 7 ft.
    parts = (CeilingPart(D(7), D(100)), CeilingPart(D(6), D(30)), CeilingPart(D(4), D(20)))
    rooms = (
        room("Bedroom", Use.SLEEPING, "150", ceiling=parts, occupants_over_12=2),
        room("Living", Use.LIVING, "300"),
    )
    assert occupancy(CH_512, Unit(rooms)).complies


def test_ch_512_attic_half_story_needs_7_ft_over_one_third() -> None:
    # Attic bedroom of 150 sq ft for 2 (minimum 100): counted = 150 - 30 under 5 ft = 120.
    # 7 ft over 1/3 of 100 = 33.33...: 35 at 7 ft complies, 33 does not.
    def attic(full: int) -> OccupancyResult:
        parts = (
            CeilingPart(D(7), D(full)),
            CeilingPart(D("5.5"), D(120 - full)),
            CeilingPart(D(4), D(30)),
        )
        rooms = (
            room(
                "Attic", Use.SLEEPING, "150", ceiling=parts, attic_half_story=True,
                occupants_over_12=2,
            ),
            room("Living", Use.LIVING, "300"),
        )  # fmt: skip
        return occupancy(CH_512, Unit(rooms))

    assert attic(35).complies
    short = attic(33)
    assert sections(short) == [("512-11A", "Attic")]
    assert "7 ft over 1/3 of the 100 sq ft minimum area" in short.problems[0].text
    # The same room not in an attic: 35 < 100 at 7 ft.
    assert attic(35).rooms[0].counted_area == D(120)


def test_ch_512_unit_needs_7_ft_over_its_512_11b_minimum() -> None:
    # Living room of 200: 100 at 7 ft 6 in, 100 at 6 ft 6 in. One occupant needs 150
    # (512-11B is met: 200 counted) but only 100 has 7 ft -> 512-11A for the unit.
    parts = (CeilingPart(D("7.5"), D(100)), CeilingPart(D("6.5"), D(100)))
    result = occupancy(
        CH_512, Unit((room("Living", Use.LIVING, "200", ceiling=parts),), occupants_over_12=1)
    )
    assert result.max_occupants == 1
    assert sections(result) == [("512-11A", None)]
    # Under Hudson the same room has half (100 of 200) at 7 ft 6 in: it complies.
    hudson = occupancy(
        HUDSON, Unit((room("Living", Use.LIVING, "200", ceiling=parts),), occupants_over_12=1)
    )
    assert hudson.complies


# --- windows ---------------------------------------------------------------------------------


def _one(code: str, r: Room) -> OccupancyResult:
    return occupancy(code, Unit((r, room("Living", Use.LIVING, "400"))))


def test_hudson_window_10_percent_and_openable_4_percent() -> None:
    # 120 sq ft: window 12 (10 %), openable 4.8 (4 %).
    ok = _one(HUDSON, room("Bed", Use.SLEEPING, "120", window_area=D(12), openable_area=D("4.8")))
    assert ok.complies
    assert (ok.rooms[0].required_window_area, ok.rooms[0].required_openable_area) == (
        D(12),
        D("4.8"),
    )
    small = _one(HUDSON, room("Bed", Use.SLEEPING, "120", window_area=D(11), openable_area=D(6)))
    assert sections(small) == [("140-5A", "Bed")]
    tight = _one(
        HUDSON, room("Bed", Use.SLEEPING, "120", window_area=D(12), openable_area=D("4.7"))
    )
    assert sections(tight) == [("140-5B", "Bed")]


def test_hudson_mechanical_ventilation_exempts_the_openable_area_not_the_window() -> None:
    # 140-5B: "except where there is supplied a mechanical device"; 140-5A has no exception.
    vent = room(
        "Bed", Use.SLEEPING, "120", window_area=D(12), openable_area=D(0),
        mechanical_ventilation=True,
    )  # fmt: skip
    result = _one(HUDSON, vent)
    assert result.complies
    assert result.rooms[0].required_openable_area is None
    dark = room(
        "Bed", Use.SLEEPING, "120", window_area=D(6), openable_area=D(0),
        mechanical_ventilation=True,
    )  # fmt: skip
    assert sections(_one(HUDSON, dark)) == [("140-5A", "Bed")]


def test_hudson_bathroom_needs_a_window_unless_mechanically_ventilated() -> None:
    # 140-5C: 40 sq ft bathroom: window 4, openable 1.6, unless mechanically ventilated.
    bath = room("Bath", Use.BATHROOM, "40", window_area=D(3), openable_area=D(1))
    assert sections(_one(HUDSON, bath)) == [("140-5C", "Bath"), ("140-5C", "Bath")]
    vented = room(
        "Bath", Use.BATHROOM, "40", window_area=D(0), openable_area=D(0),
        mechanical_ventilation=True,
    )  # fmt: skip
    assert _one(HUDSON, vented).complies


def test_ch_512_window_8_percent_and_openable_45_percent_of_that() -> None:
    # 100 sq ft: window 8 (8 %), openable 0.45 x 8 = 3.6.
    def bed(window: str, openable: str, **kw: object) -> OccupancyResult:
        return _one(
            CH_512,
            room(
                "Bed", Use.SLEEPING, "100", window_area=D(window), openable_area=D(openable), **kw
            ),
        )

    ok = bed("8", "3.6")
    assert ok.complies
    assert (ok.rooms[0].required_window_area, ok.rooms[0].required_openable_area) == (
        D(8),
        D("3.6"),
    )
    assert sections(bed("7.99", "3.6")) == [("512-11G", "Bed")]
    assert sections(bed("8", "3.59")) == [("512-11K", "Bed")]
    # 512-11K exempts only bathrooms and water closets with ventilation, not habitable rooms.
    assert sections(bed("8", "3", mechanical_ventilation=True)) == [("512-11K", "Bed")]


def test_ch_512_window_base_leaves_out_area_under_5_ft() -> None:
    # Attic room of 150 with 30 under 5 ft: counted 120, window 8 % of 120 = 9.6 (not 12).
    parts = (CeilingPart(D(8), D(120)), CeilingPart(D(4), D(30)))
    r = room("Attic", Use.LIVING, "150", ceiling=parts, window_area=D("9.6"))
    result = _one(CH_512, r)
    assert result.complies
    assert result.rooms[0].required_window_area == D("9.6")


def test_ch_512_bathroom_with_approved_ventilation_needs_no_window() -> None:
    # 512-11L: 50 sq ft bathroom: window 4 (8 %), openable 1.8, unless ventilated.
    bath = room("Bath", Use.BATHROOM, "50", window_area=D(4), openable_area=D("1.7"))
    assert sections(_one(CH_512, bath)) == [("512-11K", "Bath")]
    bath = room("Bath", Use.BATHROOM, "50", window_area=D(3), openable_area=D("1.8"))
    assert sections(_one(CH_512, bath)) == [("512-11L", "Bath")]
    vented = room(
        "Bath", Use.BATHROOM, "50", window_area=D(0), openable_area=D(0),
        mechanical_ventilation=True,
    )  # fmt: skip
    assert _one(CH_512, vented).complies


def test_ch_512_kitchen_with_artificial_light_still_needs_ventilation() -> None:
    # 512-11G: a kitchen may have artificial light instead of the 8 % window; 512-11K still
    # asks a window that opens "or such other device as will adequately ventilate the room".
    lit = room(
        "Kitchen", Use.KITCHEN, "100", window_area=D(0), openable_area=D(0),
        artificial_light=True,
    )  # fmt: skip
    assert sections(_one(CH_512, lit)) == [("512-11K", "Kitchen")]
    vented = room(
        "Kitchen", Use.KITCHEN, "100", window_area=D(0), openable_area=D(0),
        artificial_light=True, mechanical_ventilation=True,
    )  # fmt: skip
    assert _one(CH_512, vented).complies


def test_window_areas_not_measured_are_not_checked() -> None:
    result = _one(HUDSON, room("Bed", Use.SLEEPING, "120"))
    assert result.complies
    assert result.rooms[0].required_window_area == D(12)


def test_an_unknown_code_is_refused() -> None:
    with pytest.raises(ValueError, match="glendale"):
        occupancy("glendale", Unit((room("Living", Use.LIVING, "150"),)))
