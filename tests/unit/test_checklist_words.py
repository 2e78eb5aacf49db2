"""A checklist never shows a required_when expression: each condition is said in words, with a
general sentence for anything that has none; and an issued permit's checklist is locked."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from desk.domain.checklists import (
    LOCKED,
    ChecklistReopening,
    Line,
    check_unlocked,
    condition_words,
    is_locked,
    lines,
    shipped_templates,
    why_required,
)
from desk.domain.conditions import parse_condition
from desk.errors import RuleViolation
from ui.presenters.checklist import ChecklistPresenter

# What an expression looks like and a sentence does not.
EXPRESSION = re.compile(r"==|!=|<=|>=|<|>|\"|\w+_\w+|\b(true|false)\b")


def words(text: str) -> str:
    return condition_words(parse_condition(text))


@pytest.mark.parametrize(
    ("expression", "sentence"),
    [
        ("valuation >= 5000", "the valuation is $5,000 or more"),
        ("5000 <= valuation", "the valuation is $5,000 or more"),
        ("valuation > 300", "the valuation is more than $300"),
        ("disturbed_acres > 1", "the land disturbed is more than 1 acre"),
        ("disturbed_acres <= 1", "the land disturbed is 1 acre or less"),
        ("floor_area_sqft < 200", "the floor area is less than 200 square feet"),
        ("dwelling_units > 0", "the work has at least one dwelling unit"),
        ("not (stories > 2)", "the number of stories is 2 or less"),
        ("emergency == false", "the work is not emergency work"),
        (
            "volume_cuft > 50000 and not one_two_family",
            "the total volume is more than 50,000 cubic feet and the building is not a one- "
            "or two-family dwelling",
        ),
        (
            "permit_class != 'residential' and work_class == 'new'",
            "the permit is not residential and the work is new construction",
        ),
        (
            "valuation >= 5000 and kind == 'RES-NEW-DWELLING'",
            "the valuation is $5,000 or more and the permit kind is new one- or two-family "
            "dwelling",
        ),
        (
            "disturbed_acres > 1 and (emergency or stories >= 3)",
            "the land disturbed is more than 1 acre and either the work is emergency work or "
            "the number of stories is 3 or more",
        ),
    ],
)
def test_a_condition_reads_as_a_clause(expression: str, sentence: str) -> None:
    assert words(expression) == sentence


@pytest.mark.parametrize(
    "expression",
    [
        "valuation > floor_area_sqft",  # two facts
        "kind == 'NO-SUCH-KIND'",
        "work_class == 'teleport'",
        "valuation",  # a bare figure
        "not (emergency or stories > 2)",
        "valuation > 1 and (emergency or (stories > 1 and valuation > 2))",
    ],
)
def test_a_condition_without_words_falls_back_to_a_general_sentence(expression: str) -> None:
    assert words(expression) == ""
    assert why_required(True, "", True) == "Required for this permit."
    assert why_required(True, "", False) == "Not required for this permit."
    assert why_required(True, "", None) == "Required for this permit until its facts are recorded."


def test_the_sentence_says_why_an_item_is_required_or_not() -> None:
    when = words("valuation >= 5000")
    assert why_required(True, when, True) == "Required because the valuation is $5,000 or more."
    assert (
        why_required(True, when, False)
        == "Not required: only when the valuation is $5,000 or more."
    )
    assert why_required(False, "", True) == ""  # every permit of the kind needs it


def _texts_shown(line: Line) -> list[str]:
    """Every text the checklist tab, its tooltip and the refusal of 'not applicable' show."""
    presenter = ChecklistPresenter(None, [line], {}, today=date(2026, 3, 2), can_waive=True)
    row = presenter.row_of(line.code)
    shown = [presenter.detail(row), *presenter.rows[row].cells(), presenter.summary]
    from desk.domain.checklists import ItemState, check_mark

    try:
        check_mark(
            line,
            ItemState.NOT_APPLICABLE,
            value_date=None,
            value_text="",
            reason="",
            today=date(2026, 3, 2),
            may_waive=True,
        )
    except RuleViolation as e:
        shown.append(str(e))
    return shown


FACTS_SEEN = (
    {},  # nothing recorded: every condition unknown
    {"permit_class": "commercial", "work_class": "new", "volume_cuft": 60000,
     "one_two_family": False, "disturbed_acres": 2, "dwelling_units": 0},
    {"permit_class": "residential", "work_class": "new", "volume_cuft": 20000,
     "one_two_family": True, "disturbed_acres": 0.5, "dwelling_units": 1,
     "kitchen_remodel": True, "valuation": 400},
)  # fmt: skip


def test_no_text_shown_for_any_shipped_template_item_contains_an_expression() -> None:
    checked = 0
    for template in shipped_templates().values():
        for facts in FACTS_SEEN:
            for line in lines(template, [], facts):
                for text in _texts_shown(line):
                    if line.condition:
                        assert line.condition not in text
                    # The item's own words and section may hold parentheses: "15.1.7(d)".
                    rest = text.replace(line.section, "").replace(line.label, "")
                    rest = rest.replace(line.text, "")
                    assert not EXPRESSION.search(rest), (template.kind, line.code, text)
                assert "(" not in line.why and ")" not in line.why
                if line.condition:
                    assert line.when, line.condition  # every shipped condition has words
                    checked += 1
    assert checked > 10


def test_an_issued_permits_checklist_is_locked_until_reopened() -> None:
    assert not is_locked(None, None)
    assert is_locked(date(2026, 3, 2), None)
    reopened = ChecklistReopening(permit_id=1, reason="Survey replaced", at=datetime(2026, 3, 5))
    assert not is_locked(date(2026, 3, 2), reopened)
    with pytest.raises(RuleViolation) as e:
        check_unlocked(date(2026, 3, 2), None)
    assert str(e.value) == LOCKED
    assert "an inspector can reopen it with a reason" in LOCKED
