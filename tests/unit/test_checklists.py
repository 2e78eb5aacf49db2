"""Checklist templates and their rules, without a database: loading errors, required_when at its
edges, survey age on the issue date, what is reported missing, who may waive."""

from __future__ import annotations

from datetime import date

import pytest

from desk.domain.checklists import (
    ChecklistError,
    ChecklistItem,
    ItemState,
    check_mark,
    lines,
    load_templates,
    permit_facts,
    progress,
    shipped_templates,
    template_for,
    unmet,
    years_before,
)
from desk.domain.conditions import ConditionError, parse_condition
from desk.domain.kinds import kinds_for
from desk.errors import PermissionDenied, RuleViolation, ValidationError

SEAL = "volume_cuft > 50000 and not one_two_family"
ISSUE = date(2026, 3, 2)


def titles(municipality: str, kind: str) -> dict[str, str]:
    t = template_for(municipality, kind)
    assert t is not None
    return {g.key: g.title for g in t.groups}


# --- the shipped file ----------------------------------------------------------------------


def test_every_permit_kind_of_both_towns_has_a_checklist_template() -> None:
    templates = shipped_templates()
    for muni in ("glendale", "new_lisbon"):
        for kind in kinds_for(muni):
            assert (muni, kind.code) in templates, kind.code


def test_the_survey_lists_items_a_to_i_of_15_1_7_b_2_and_a_dated_survey() -> None:
    t = template_for("glendale", "RES-NEW-DWELLING")
    assert t is not None
    survey = [i for i in t.items if i.group == "survey"]
    assert [i.code for i in survey if len(i.code) == len("survey.a")] == [
        f"survey.{c}" for c in "abcdefghi"
    ]
    dated = t.item("survey.date")
    assert dated is not None and dated.kind == "date" and dated.max_age_years == 1
    assert dated.section == "15.1.7(b)(2)"


def test_erosion_control_asks_for_a_full_plan_over_one_acre_and_a_statement_otherwise() -> None:
    t = template_for("glendale", "EROSION")
    assert t is not None

    def required(acres: float) -> set[str]:
        return {i.group for i in t.items if i.applies({"disturbed_acres": acres})}

    assert "erosion_large" in required(1.01) and "erosion_small" not in required(1.01)
    assert "erosion_small" in required(1) and "erosion_large" not in required(1)
    large = [i for i in t.items if i.group == "erosion_large"]
    assert len([i for i in large if i.code.startswith("erosion_large.map_")]) == 8  # a-h
    assert len([i for i in large if i.code.startswith("erosion_large.con_")]) == 5  # a-e


# --- required_when ---------------------------------------------------------------------------


def test_a_seal_is_not_required_at_exactly_50000_cubic_feet() -> None:
    cond = parse_condition(SEAL)
    assert cond.holds({"volume_cuft": 50000, "one_two_family": False}) is False


def test_a_seal_is_required_at_50001_cubic_feet_for_a_commercial_building() -> None:
    cond = parse_condition(SEAL)
    assert cond.holds({"volume_cuft": 50001, "one_two_family": False}) is True


def test_a_one_or_two_family_dwelling_never_needs_the_seal_however_big() -> None:
    cond = parse_condition(SEAL)
    assert cond.holds({"volume_cuft": 90000, "one_two_family": True}) is False


def test_an_unrecorded_volume_leaves_the_seal_required_until_someone_records_it() -> None:
    t = template_for("glendale", "COM-NEW")
    assert t is not None
    seal = t.item("seal.seal")
    assert seal is not None
    facts = permit_facts(_Permit("commercial", "new", 0))
    assert facts["one_two_family"] is False
    assert seal.applies(facts) is None
    (line,) = [x for x in lines(t, [], facts) if x.code == "seal.seal"]
    assert line.required


def test_conditions_support_or_not_parentheses_text_and_numbers() -> None:
    c = parse_condition(
        '(work_class == "new" and dwelling_units > 0) or (kitchen_remodel and valuation > 300)'
    )
    assert c.holds({"work_class": "new", "dwelling_units": 1}) is True
    assert c.holds({"work_class": "alteration", "kitchen_remodel": True, "valuation": 300}) is False
    assert c.holds({"work_class": "alteration", "kitchen_remodel": True, "valuation": 301}) is True
    assert c.holds({"work_class": "alteration", "dwelling_units": 0, "valuation": 5000}) is None


@pytest.mark.parametrize(
    "text",
    ["volume_cuft >", "volume_cuft > 5 and", "(volume_cuft > 5", "__import__('os')", "a ; b", ""],
)
def test_a_condition_that_does_not_parse_is_refused(text: str) -> None:
    with pytest.raises(ConditionError):
        parse_condition(text, frozenset({"volume_cuft", "a", "b"}))


# --- loading errors ----------------------------------------------------------------------------

GOOD_GROUP = """
[groups.g]
title = "G"
section = "1.1"
items = [ { code = "x", text = "an item" } ]
"""


def _file(body: str, glendale: str = "", new_lisbon: str = "") -> str:
    gl = glendale or "\n".join(f'{k.code} = {{ groups = ["g"] }}' for k in kinds_for("glendale"))
    nl = new_lisbon or "\n".join(
        f'{k.code} = {{ groups = ["g"] }}' for k in kinds_for("new_lisbon")
    )
    return f"{body}\n[glendale]\n{gl}\n[new_lisbon]\n{nl}\n"


def test_a_minimal_file_loads() -> None:
    templates = load_templates(_file(GOOD_GROUP), "test.toml")
    assert templates[("glendale", "RAZE")].items[0].code == "g.x"


def test_an_unknown_fact_names_the_file_group_and_item() -> None:
    bad = GOOD_GROUP.replace('text = "an item"', 'text = "an item", required_when = "acres > 1"')
    with pytest.raises(ChecklistError) as e:
        load_templates(_file(bad), "test.toml")
    assert "test.toml: group 'g', item 'x': required_when: unknown fact 'acres'" in str(e.value)


def test_an_unknown_item_kind_is_refused_naming_the_item() -> None:
    bad = GOOD_GROUP.replace('text = "an item"', 'text = "an item", kind = "photo"')
    with pytest.raises(ChecklistError, match=r"test.toml: group 'g', item 'x': kind 'photo'"):
        load_templates(_file(bad), "test.toml")


def test_a_template_for_a_kind_that_does_not_exist_is_refused_naming_the_template() -> None:
    gl = "\n".join(f'{k.code} = {{ groups = ["g"] }}' for k in kinds_for("glendale"))
    with pytest.raises(ChecklistError, match="template glendale/TREEHOUSE"):
        load_templates(_file(GOOD_GROUP, glendale=gl + '\nTREEHOUSE = { groups = ["g"] }'), "t")


def test_a_template_naming_an_undefined_group_is_refused() -> None:
    gl = "\n".join(
        f'{k.code} = {{ groups = ["{"nope" if k.code == "MOVE" else "g"}"] }}'
        for k in kinds_for("glendale")
    )
    with pytest.raises(ChecklistError, match="template glendale/MOVE: group 'nope' is not defined"):
        load_templates(_file(GOOD_GROUP, glendale=gl), "t")


def test_a_permit_kind_without_a_template_is_named() -> None:
    gl = "\n".join(
        f'{k.code} = {{ groups = ["g"] }}' for k in kinds_for("glendale") if k.code != "HVAC"
    )
    with pytest.raises(ChecklistError, match=r"\[glendale\] has no template for permit kind HVAC"):
        load_templates(_file(GOOD_GROUP, glendale=gl), "t")


def test_max_age_on_an_item_that_is_not_dated_is_refused() -> None:
    bad = GOOD_GROUP.replace('text = "an item"', 'text = "an item", max_age_years = 1')
    with pytest.raises(ChecklistError, match="item 'x': max_age_years needs kind"):
        load_templates(_file(bad), "t")


# --- survey age and shortfalls ------------------------------------------------------------------


class _Permit:
    def __init__(self, permit_class: str, work_class: str, dwelling_units: int) -> None:
        self.permit_class = permit_class
        self.work_class = work_class
        self.dwelling_units = dwelling_units
        self.kind = "X"
        self.valuation = 412500


def _house_lines(survey_date: date | None, state: ItemState = ItemState.RECEIVED) -> list:
    t = template_for("glendale", "RES-NEW-DWELLING")
    assert t is not None
    rows = [
        ChecklistItem(permit_id=1, code=i.code, text=i.text, section=i.section, state=state)
        for i in t.items
    ]
    for r in rows:
        if r.code == "survey.date":
            r.value_date = survey_date
    return lines(t, rows, permit_facts(_Permit("residential", "new", 1)))


def test_a_survey_dated_exactly_one_year_before_issuance_is_good() -> None:
    assert (
        unmet(_house_lines(date(2025, 3, 2)), titles("glendale", "RES-NEW-DWELLING"), ISSUE) == []
    )


def test_a_survey_one_day_older_than_a_year_is_reported_with_its_date_and_section() -> None:
    assert unmet(_house_lines(date(2025, 3, 1)), titles("glendale", "RES-NEW-DWELLING"), ISSUE) == [
        "Survey dated 03/01/2025 is more than one year old (15.1.7(b)(2))"
    ]


def test_a_year_before_29_february_is_28_february() -> None:
    assert years_before(date(2028, 2, 29), 1) == date(2027, 2, 28)


def test_open_items_are_listed_in_plain_words_with_their_sections() -> None:
    checklist = _house_lines(None, ItemState.OPEN)
    missing = unmet(checklist, titles("glendale", "RES-NEW-DWELLING"), ISSUE)
    assert (
        "Plans: three complete sets of plans and specifications not received (15.1.7(b)(1))"
        in missing
    )
    assert (
        "Survey: date of the survey (no more than one year before issuance) not recorded "
        "(15.1.7(b)(2))"
    ) in missing
    # A new dwelling unit needs a garbage disposer in the plans (15.1.52(d)).
    assert any(m.startswith("Garbage disposer:") and "(15.1.52(d))" in m for m in missing)
    assert progress(checklist).text == f"0 of {len(checklist)} received — {len(checklist)} open"


def test_waived_and_not_applicable_items_are_settled() -> None:
    checklist = _house_lines(date(2026, 1, 5))
    t = titles("glendale", "RES-NEW-DWELLING")
    assert unmet(checklist, t, ISSUE) == []
    assert progress(checklist).text == f"{len(checklist)} of {len(checklist)} received — complete"


# --- marking rules --------------------------------------------------------------------------


def _line(code: str, facts: dict | None = None, kind: str = "COM-NEW"):  # type: ignore[no-untyped-def]
    t = template_for("glendale", kind)
    assert t is not None
    return next(x for x in lines(t, [], facts or {}) if x.code == code)


def _mark(line, state: ItemState, **kw):  # type: ignore[no-untyped-def]
    args = {"value_date": None, "value_text": "", "reason": "", "today": ISSUE, "may_waive": True}
    args.update(kw)
    check_mark(line, state, **args)


def test_waiving_needs_a_reason_naming_the_field() -> None:
    with pytest.raises(ValidationError) as e:
        _mark(_line("plans.scale"), ItemState.WAIVED, reason="  ")
    assert e.value.field == "reason" and "15.1.7(c)" in e.value.message


def test_only_someone_who_may_waive_can_waive() -> None:
    with pytest.raises(PermissionDenied):
        _mark(_line("plans.scale"), ItemState.WAIVED, reason="minor work", may_waive=False)


def test_a_dated_item_needs_its_date_and_not_a_future_one() -> None:
    survey = _line("survey.date")
    with pytest.raises(ValidationError, match="date: enter the date"):
        _mark(survey, ItemState.RECEIVED)
    with pytest.raises(ValidationError, match="in the future"):
        _mark(survey, ItemState.RECEIVED, value_date=date(2026, 3, 3))
    _mark(survey, ItemState.RECEIVED, value_date=ISSUE)


def test_a_seal_the_volume_requires_cannot_be_marked_not_applicable() -> None:
    seal = _line("seal.seal", {"volume_cuft": 60000, "one_two_family": False})
    with pytest.raises(RuleViolation, match=r"required for this permit .*15\.1\.7\(d\)"):
        _mark(seal, ItemState.NOT_APPLICABLE)
    _mark(seal, ItemState.WAIVED, reason="State-approved plans on file from 2019 phase 1")
