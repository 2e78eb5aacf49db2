"""The violation picker's reading of what is typed (ui/presenters/violation_picker.py): every
word looked for in section and title, only an exact text names an item, and the refusal names
what was typed."""

from __future__ import annotations

from desk.housing.codes import load_housing_code
from ui.presenters import violation_picker as vp

HUDSON = load_housing_code("hudson-140")
ITEMS = HUDSON.standards


def sections(typed: str) -> list[str]:
    return [s.section for s in vp.matching(ITEMS, typed)]


def test_every_word_is_looked_for_in_the_section_and_the_title() -> None:
    assert sections("stairs") == ["140-6C"]
    assert sections("Porches, stairs") == ["140-6C"]
    assert sections("140-6 floor") == ["140-6A", "140-6E"]
    assert sections("handrail") == []
    assert len(sections("")) == len(ITEMS)


def test_only_the_section_or_the_item_as_listed_names_it() -> None:
    assert vp.exact(ITEMS, " 140-6c ") is ITEMS[HUDSON.sections.index("140-6C")]
    assert vp.exact(ITEMS, "140-6C  Stairs, porches and appurtenances") is not None
    assert vp.exact(ITEMS, "stairs") is None  # found, but not chosen
    assert vp.exact(ITEMS, "140-6") is None
    assert vp.exact(ITEMS, "") is None


def test_the_refusal_names_what_was_typed() -> None:
    assert vp.refusal(ITEMS, "handrail", HUDSON.name) == (
        f"no item of {HUDSON.name} matches “handrail”: type its section (e.g. 140-4A) or words "
        "of its title"
    )
    assert vp.refusal(ITEMS, "stairs", HUDSON.name) == (
        "“stairs” is not an item as listed: choose 140-6C Stairs, porches and appurtenances "
        "from the list (Down, then Enter)"
    )
    assert vp.refusal(ITEMS, "140-6", HUDSON.name).startswith("“140-6” is not one item: 8 items")
