"""The forgiving permits search, pure parts: street words both ways and typo correction."""

from __future__ import annotations

from desk.domain.search import (
    SearchPlan,
    TokenMatch,
    closest_terms,
    correctable,
    edit_distance,
    street_equivalents,
    token_matches,
)


def finds(typed: str, term: str) -> bool:
    """Does the typed word match this indexed term (as the SQL filter applies it)?"""
    return term.startswith(typed) or term in street_equivalents(typed)


PUB_28 = [
    ("street", "st"),
    ("avenue", "ave"),
    ("road", "rd"),
    ("place", "pl"),
    ("drive", "dr"),
    ("lane", "ln"),
    ("court", "ct"),
    ("boulevard", "blvd"),
    ("circle", "cir"),
    ("parkway", "pkwy"),
    ("terrace", "ter"),
    ("trail", "trl"),
    ("highway", "hwy"),
    ("way", "way"),
    ("north", "n"),
    ("south", "s"),
    ("east", "e"),
    ("west", "w"),
    ("northeast", "ne"),
    ("northwest", "nw"),
    ("southeast", "se"),
    ("southwest", "sw"),
]


def test_a_street_word_and_its_usps_abbreviation_find_each_other() -> None:
    for word, abbreviation in PUB_28:
        assert finds(word, abbreviation), (word, abbreviation)
        assert finds(abbreviation, word), (abbreviation, word)
    assert street_equivalents("road") == ("rd",)
    assert street_equivalents("avenue") == ("ave",)
    assert street_equivalents("ave") == ()  # "avenue" starts with it: the prefix finds it
    assert street_equivalents("south") == ("s", "se", "sw")  # as "south" begins "southeast"
    assert street_equivalents("sw") == ("southwest",)


def test_a_street_word_does_not_find_another_suffix() -> None:
    assert not finds("road", "ridge")
    assert not finds("place", "plz")
    assert not finds("street", "ave")
    assert not finds("east", "w")


def test_north_also_finds_the_abbreviated_diagonals_as_its_prefix_finds_the_words() -> None:
    # 'north' is a prefix of 'northeast' and 'northwest', so it finds NE and NW too.
    assert street_equivalents("north") == ("n", "ne", "nw")


def test_a_word_being_typed_finds_the_abbreviation_already() -> None:
    assert "pl" in street_equivalents("pla")  # on the way to 'place'
    assert "pkwy" in street_equivalents("park")
    assert "boulevard" in street_equivalents("blv")  # on the way to 'blvd'
    assert finds("te", "terrace")  # on the way to 'ter' or 'terrace'
    assert finds("pla", "place") and finds("pla", "pl")


def test_what_the_prefix_finds_anyway_is_not_repeated_and_other_words_have_none() -> None:
    assert street_equivalents("st") == ()  # 'street' starts with 'st'
    assert street_equivalents("n") == ()
    assert street_equivalents("schmidt") == ()
    assert street_equivalents("6120") == ()
    assert street_equivalents("pa") == ()  # too short to guess a word


def test_the_typed_words_keep_their_prefix_and_gain_the_equivalents() -> None:
    assert token_matches("6120 north port washington road") == (
        TokenMatch("washington", "washington"),
        TokenMatch("north", "north", ("n", "ne", "nw")),
        TokenMatch("6120", "6120"),
        TokenMatch("port", "port"),
        TokenMatch("road", "road", ("rd",)),
    )
    assert token_matches("  ") == ()


def test_an_adjacent_swap_is_one_edit() -> None:
    assert edit_distance("teutonai", "teutonia", 2) == 1
    assert edit_distance("schmit", "schmidt", 2) == 1
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("abc", "abcdefgh", 2) == 3  # beyond the limit: limit + 1


def test_a_typo_is_corrected_to_the_closest_indexed_term() -> None:
    terms = ["teutonia", "teuton", "tower", "thompson", "tuetonia", "toledo"]
    assert closest_terms("teutonai", terms)[0] == ("teutonia", 1)
    # Closest first; among equals, the term of the typed length first.
    assert closest_terms("teutonai", terms) == [
        ("teutonia", 1),
        ("tuetonia", 2),
        ("teuton", 2),
    ]
    assert closest_terms("schmit", ["schwartz", "schmidt", "smith"]) == [("schmidt", 1)]
    assert closest_terms("zzzzzz", terms) == []


def test_a_typo_in_a_word_being_typed_is_close_to_the_beginning_of_a_term() -> None:
    assert closest_terms("tuetoni", ["teutonia", "tower"]) == [("teutonia", 1)]


def test_short_words_and_numbers_are_not_corrected() -> None:
    assert not correctable("xyz")
    assert not correctable("6102")
    assert not correctable("047-9991")
    assert correctable("schmit")


def test_the_plan_names_the_corrected_words_for_the_clerk() -> None:
    plan = SearchPlan(
        (
            TokenMatch("6120", "6120"),
            TokenMatch("teutonai", None, ("teutonia", "teuton"), (1, 2)),
        )
    )
    assert plan.close_matches == ("teutonia",)
    assert SearchPlan(token_matches("teutonia")).close_matches == ()
