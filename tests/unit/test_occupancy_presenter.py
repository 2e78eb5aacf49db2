"""The occupancy calculator's presenter (Qt-free), on units worked by hand: Hudson 140-7A/B and
Ch. 512-11B/C, the rooms typed as an inspector types them."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from desk.housing.occupancy import CH_512, HUDSON
from ui.presenters.occupancy import (
    FLOOR,
    LOW_AREA,
    LOW_HEIGHT,
    NAME,
    OVER_12,
    UNIT_OVER_12,
    OccupancyPresenter,
    RoomRow,
    default_code,
    sample_rows,
)


def two_bedroom(code: str = HUDSON) -> OccupancyPresenter:
    """Living 180, Bedroom 1 100 sq ft for two adults, Bedroom 2 70 sq ft for one adult."""
    p = OccupancyPresenter(code=code)
    p.load(
        [
            RoomRow("Living room", "living", "180"),
            RoomRow("Bedroom 1", "sleeping", "100", over_12="2"),
            RoomRow("Bedroom 2", "sleeping", "70", over_12="1"),
            RoomRow("Bathroom", "bathroom", "40", mechanical=True),
        ]
    )
    return p


def test_hudson_allows_three_in_350_sq_ft_and_finds_bedroom_2_short() -> None:
    p = two_bedroom()
    # 140-7A: 150 + 100 + 75 = 325 <= 350 < 400: three; the bathroom is not habitable.
    assert (p.habitable_text, p.max_text) == ("350 sq ft", "3")
    # Three sleepers stated in the rooms: 325 sq ft needed.
    assert p.stated_text == "3 (need 325 sq ft)"
    # 140-7B: one occupant needs 80 sq ft; Bedroom 2 has 70.
    assert p.shortfall_lines() == [
        "140-7B Bedroom 2: 1 occupant (1 over 12) sleeps in 70 sq ft; 140-7B requires 80 sq ft."
    ]
    assert p.result_text == (
        "Does not comply: 1 shortfall — at most 3 occupants in 350 sq ft of habitable floor area"
    )
    assert p.can_print and p.error == ""


def test_ch_512_lets_one_sleep_in_70_sq_ft_and_the_unit_complies() -> None:
    p = two_bedroom(CH_512)
    # 512-11B: 150 + 100 + 100 = 350: three; 512-11C: 70 for one, 100 for two.
    assert (p.habitable_text, p.max_text) == ("350 sq ft", "3")
    assert p.shortfall_lines() == []
    assert p.verdict_text == "Complies"
    p.set_code(HUDSON)
    assert p.verdict_text == "Does not comply: 1 shortfall"


def test_a_fourth_stated_occupant_is_a_unit_shortfall() -> None:
    p = two_bedroom(CH_512)
    p.set_stated("4", "")
    # 512-11B: four need 150 + 3 x 100 = 450 sq ft.
    assert p.stated_text == "4 (need 450 sq ft)"
    assert p.shortfall_lines()[0].startswith("512-11B The unit: 4 occupants need 450 sq ft")


def test_the_low_ceiling_area_is_not_counted() -> None:
    p = OccupancyPresenter(code=HUDSON)
    p.load(
        [
            RoomRow("Living room", "living", "200"),
            # 100 sq ft, 30 of it under a 4 ft 6 in slope: 70 counts (140-7C).
            RoomRow("Attic bedroom", "sleeping", "100", "30", "4.5", over_12="1"),
        ]
    )
    assert p.habitable_text == "270 sq ft"
    assert p.shortfall_lines() == [
        "140-7B Attic bedroom: 1 occupant (1 over 12) sleeps in 70 sq ft; 140-7B requires 80 sq ft."
    ]
    assert p.result is not None and p.result.rooms[1].counted_area == D(70)


def test_a_bad_area_names_the_room_and_the_field() -> None:
    p = two_bedroom()
    p.set_value(2, FLOOR, "7O")
    assert p.error == 'Bedroom 2: floor area: "7O" is not a number'
    assert (p.error_row, p.error_key) == (2, FLOOR)
    assert p.result is None and not p.can_print and p.max_text == "—"
    p.set_value(2, FLOOR, "70")
    assert p.error == "" and p.max_text == "3"


@pytest.mark.parametrize(
    ("row", "error", "key"),
    [
        (RoomRow("Den", "living", ""), "Den: floor area: type the room's floor area", FLOOR),
        (RoomRow("", "living", "90"), "Row 2: name: type the room's name", NAME),
        (RoomRow("Den", "living", "90", "100", "6"), "Den: low-ceiling area: 100 is more than "
         "the floor area 90", LOW_AREA),
        (RoomRow("Den", "living", "90", "20"), "Den: low-ceiling height: type the ceiling "
         "height over the low-ceiling area", LOW_HEIGHT),
        (RoomRow("Den", "living", "-5"), "Den: floor area: must not be negative", FLOOR),
        (RoomRow("Den", "living", "90", over_12="two"), 'Den: sleepers over 12: "two" is not '
         "a whole number", OVER_12),
        (RoomRow("Den", "hall", "90", over_12="1"), "Den: sleepers over 12: a hall is not a "
         "habitable room; nobody sleeps there", OVER_12),
        (RoomRow("Living room", "dining", "90"), "Living room: name: row 1 has this name too",
         NAME),
    ],
)  # fmt: skip
def test_mistakes_name_the_room_and_the_field(row: RoomRow, error: str, key: str) -> None:
    p = OccupancyPresenter()
    p.load([RoomRow("Living room", "living", "200"), row])
    assert (p.error, p.error_row, p.error_key) == (error, 1, key)


def test_openable_area_over_the_window_area_is_refused_as_the_cli_does() -> None:
    p = OccupancyPresenter()
    p.load([RoomRow("Den", "living", "160", window_area="10", openable_area="12")])
    assert p.error == "Den: openable area: 12 is more than the window_area 10"


def test_a_blank_row_is_left_out_and_a_bad_stated_count_is_named() -> None:
    p = OccupancyPresenter()
    assert p.verdict_text == "Type the unit's rooms" and not p.can_print
    p.add_room()
    assert p.error == "" and p.result is None
    p.load([RoomRow("Living room", "living", "200"), RoomRow()], "x")
    assert (p.error, p.error_key) == ('The unit: occupants over 12: "x" is not a whole number',
                                      UNIT_OVER_12)  # fmt: skip


def test_commas_are_read_and_the_use_must_be_one_of_the_list() -> None:
    p = OccupancyPresenter()
    p.load([RoomRow("Hall", "hall", "1,000")])
    assert p.result is not None and p.result.rooms[0].floor_area == D(1000)
    with pytest.raises(ValueError):
        p.set_value(0, "use", "garage")


def test_the_default_code_is_the_municipalitys_when_the_calculator_knows_it() -> None:
    assert default_code(None) == HUDSON
    assert default_code({"housing_code": CH_512}) == CH_512
    assert default_code({"housing_code": "unknown-9"}) == HUDSON
    p = OccupancyPresenter()
    assert {c.key for c in p.codes} == {HUDSON, CH_512}
    assert p.code_label == "City of Hudson, Ch. 140 Minimum Housing"


def test_the_screenshot_sample_is_a_two_bedroom_unit_for_three() -> None:
    rows, over, under = sample_rows()
    p = OccupancyPresenter()
    p.load(rows, over, under)
    assert sum(r.use == "sleeping" for r in rows) == 2
    assert (p.max_text, p.stated_text) == ("4", "3 (need 325 sq ft)")
    assert [line.split(":")[0] for line in p.shortfall_lines()] == [
        "140-5A Kitchen",
        "140-7B Bedroom 2",
    ]
