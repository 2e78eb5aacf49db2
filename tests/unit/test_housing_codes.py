"""Housing code files: both shipped codes load with every standard; a wrong file is refused
with a message naming the file, the item and the field."""

from __future__ import annotations

import re

import pytest

from desk.housing.codes import (
    HousingCodeError,
    Party,
    housing_code_from_toml,
    housing_code_keys,
    load_housing_code,
)

GOOD_ITEM = """
[[standards]]
section = "140-4A"
title = "Kitchen sink and laundry tray"
text = "Every dwelling unit shall contain a kitchen sink."
health_safety = true
responsible = ["owner"]
days = 1
"""
HEAD = 'key = "test"\nname = "Test code"\n'


def test_both_housing_codes_are_shipped() -> None:
    assert housing_code_keys() == ("ch-512", "hudson-140")


def test_hudson_lists_every_standard_of_140_4_to_140_11() -> None:
    code = load_housing_code("hudson-140")
    assert code.key == "hudson-140"
    per_section: dict[str, int] = {}
    for section in code.sections:
        number = re.match(r"140-(\d+)", section)
        assert number, section
        per_section[number.group(1)] = per_section.get(number.group(1), 0) + 1
    # 140-4 A-F, 140-5 A-F, 140-6 A-H, 140-7 A-C, 140-8 A-C, 140-9 A-F,
    # 140-10 A, C, E, F, G, I (H is not in the text; B, D, J, K are procedure),
    # 140-11 B(1)-(3), C, D, E (A is procedure).
    assert per_section == {"4": 6, "5": 6, "6": 8, "7": 3, "8": 3, "9": 6, "10": 6, "11": 6}
    assert len(code.standards) == 44


def test_ch_512_lists_every_standard() -> None:
    code = load_housing_code("ch-512")
    assert code.sections[:4] == ("512-9A(1)", "512-9A(2)", "512-9A(3)", "512-9A(4)")
    # 512-9 A(1)-(4), B-G; 512-10 A-G; 512-11 A-E, F(1)-(3), G-L; 512-12 A, B.
    assert len([s for s in code.sections if s.startswith("512-9")]) == 10
    assert len([s for s in code.sections if s.startswith("512-10")]) == 7
    assert len([s for s in code.sections if s.startswith("512-11")]) == 14
    assert len([s for s in code.sections if s.startswith("512-12")]) == 2
    assert len(code.standards) == 33


def test_hudson_140_9_splits_who_is_responsible() -> None:
    code = load_housing_code("hudson-140")
    assert code.standard("140-9A").responsible == (Party.OWNER,)
    assert code.standard("140-9B").responsible == (Party.OCCUPANT,)
    assert code.standard("140-9C").responsible == (Party.OCCUPANT, Party.OWNER)
    assert "more than four dwelling units" in code.standard("140-9C").note
    assert code.standard("140-9F").responsible == (Party.OCCUPANT,)
    assert code.standard("140-10A").responsible == (Party.OPERATOR,)
    assert code.standard("140-6G").responsible == (Party.OWNER, Party.OPERATOR, Party.OCCUPANT)


def test_hudson_items_quote_the_code_and_flag_health_and_safety() -> None:
    code = load_housing_code("hudson-140")
    space = code.standard("140-7A")
    assert space.title == "Gross floor area"
    assert space.text.startswith(
        "Every dwelling unit shall contain a minimum gross floor area of not less than 150 "
        "square feet for the first occupant, 100 square feet for the second occupant and 75 "
        "square feet for each additional occupant."
    )
    heat = code.standard("140-5D")
    assert "at least 70° F. at a distance of 30 inches above floor level" in heat.text
    assert heat.health_safety is True
    assert heat.days == 1
    assert code.standard("140-10A").health_safety is False  # a licence, not a 140-3A matter
    assert code.standard("140-11C").days == 60  # the code's own period to vacate


def test_ch_512_items() -> None:
    code = load_housing_code("ch-512")
    space = code.standard("512-11B")
    assert space.title == "Required space in dwelling units"
    assert space.responsible == (Party.OWNER, Party.OCCUPANT)
    assert code.standard("512-10B").responsible == (Party.OCCUPANT,)
    assert "45% of the minimum window area size required in Subsection G" in (
        code.standard("512-11K").text
    )
    assert code.standard("512-11E").health_safety is False
    assert code.standard("512-9D").days == 1


def test_the_office_can_change_the_days_to_correct() -> None:
    code = load_housing_code("hudson-140")
    changed = code.with_days({"140-6A": 45})
    assert changed.standard("140-6A").days == 45
    assert code.standard("140-6A").days == 30  # the shipped code is unchanged
    with pytest.raises(HousingCodeError, match=r"hudson-140, item 140-6A: field 'days'"):
        code.with_days({"140-6A": -1})
    with pytest.raises(HousingCodeError, match="no standard 140-99"):
        code.with_days({"140-99": 5})


def test_an_unknown_code_names_the_shipped_ones() -> None:
    with pytest.raises(HousingCodeError, match=r"'glendale'.*ch-512, hudson-140"):
        load_housing_code("glendale")


def test_the_error_is_a_value_error() -> None:
    assert issubclass(HousingCodeError, ValueError)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ('title = "Kitchen sink and laundry tray"\n', ""),
            "item 140-4A: field 'title' is missing",
        ),
        (('["owner"]', '["landlord"]'), "item 140-4A: field 'responsible' has 'landlord'"),
        (('["owner"]', "[]"), "item 140-4A: field 'responsible' must list"),
        (("days = 1", "days = -3"), "item 140-4A: field 'days' must not be negative"),
        (("days = 1", 'days = "ten"'), "item 140-4A: field 'days' must be a whole number"),
        (("days = 1\n", ""), "item 140-4A: field 'days' is missing"),
        (("health_safety = true", 'health_safety = "yes"'), "field 'health_safety' must be"),
        (("days = 1", "days = 1\nseverity = 2"), "item 140-4A: unknown field(s) severity"),
        (('section = "140-4A"\n', ""), "item #1: field 'section' is missing"),
    ],
)
def test_a_malformed_item_is_refused_naming_file_item_and_field(
    change: tuple[str, str], message: str
) -> None:
    old, new = change
    assert old in GOOD_ITEM
    text = HEAD + GOOD_ITEM.replace(old, new)
    with pytest.raises(HousingCodeError) as caught:
        housing_code_from_toml("bad.toml", text)
    assert str(caught.value).startswith("bad.toml, ")
    assert message in str(caught.value)


def test_a_repeated_section_is_refused() -> None:
    with pytest.raises(HousingCodeError) as caught:
        housing_code_from_toml("bad.toml", HEAD + GOOD_ITEM + GOOD_ITEM)
    assert str(caught.value) == "bad.toml, item 140-4A: field 'section' appears twice"


def test_a_file_without_standards_or_key_is_refused() -> None:
    with pytest.raises(HousingCodeError, match=r"bad\.toml: it has no"):
        housing_code_from_toml("bad.toml", HEAD)
    with pytest.raises(HousingCodeError, match=r"bad\.toml: field 'key' is missing"):
        housing_code_from_toml("bad.toml", 'name = "x"\n' + GOOD_ITEM)
    with pytest.raises(HousingCodeError, match=r"bad\.toml: not valid TOML"):
        housing_code_from_toml("bad.toml", "key = ")
