"""The fee calculator's and the fee schedules' presenters, without Qt."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from desk.errors import ValidationError
from desk.fees.loader import shipped_schedule
from desk.fees.model import FeeSchedule, ItemKind
from ui.presenters.fee_calculator import (
    AMOUNT,
    OCCURRENCE,
    QUANTITY,
    FeeCalculatorPresenter,
    fields_for,
    sample_lines,
)
from ui.presenters.fee_schedules import (
    NOT_SET,
    VersionDraft,
    VersionSource,
    banner_text,
    cell_text,
    default_effective_from,
    editable,
    error_field,
    field_message,
    item_columns,
    version_rows,
)
from ui.presenters.formatting import format_percent

D = Decimal
GLENDALE = shipped_schedule("glendale")
NEW_LISBON = shipped_schedule("new_lisbon")
DAY = date(2026, 3, 2)


def calculator(schedule: FeeSchedule = GLENDALE) -> FeeCalculatorPresenter:
    return FeeCalculatorPresenter(schedule, DAY, holiday=lambda d: False)


def amounts(p: FeeCalculatorPresenter) -> dict[str, str]:
    return {row.code or row.description: row.amount for row in p.rows()}


# --- the calculator ----------------------------------------------------------------------------


def test_a_new_house_and_its_state_seal_come_to_439_dollars() -> None:
    p = calculator()
    p.add_line("RES-NEW", {QUANTITY: "2,400"})
    p.add_line("res-state-seal")
    p.recalculate()
    assert p.error == ""
    rows = p.rows()
    assert [r.cells() for r in rows[:1]] == [
        (
            "RES-NEW",
            "Residential new construction, all floor area",
            "15.1.21(a)(1)",
            "$288.00",
            "$115.20",
            "$404.00",
        )
    ]
    assert rows[1].admin == ""  # the state seal carries no 40 %
    assert (rows[-1].description, rows[-1].amount, rows[-1].total) == ("Total", "$439.00", True)
    assert p.total_text == "$439.00" and p.can_print
    assert p.admin_title == "40 % admin"
    assert p.footnote == "Fees are rounded up to the next whole dollar."


def test_work_begun_before_the_permit_adds_a_double_fee_line_for_the_lines_that_double() -> None:
    p = calculator()
    p.add_line("RES-NEW", {QUANTITY: "2400"})
    p.add_line("RES-STATE-SEAL")
    p.set_flags(work_began_before_permit=True)
    p.recalculate()
    double = p.rows()[2]
    assert double.description == "double fee — work began before permit (RES-NEW)"
    assert double.amount == "$404.00" and double.extra
    assert p.total_text == "$843.00"
    p.set_flags(emergency=True)  # an emergency is not charged double (15.1.21(f))
    p.recalculate()
    assert p.total_text == "$439.00"


def test_a_missing_quantity_names_the_item_and_field_and_the_old_total_is_not_current() -> None:
    p = calculator()
    p.add_line("RES-STATE-SEAL")
    p.recalculate()
    assert p.total_text == "$35.00"
    p.add_line("RES-NEW")
    p.recalculate()
    assert p.error == "RES-NEW.quantity: enter the quantity (square feet)"
    assert p.error_line == 1
    assert p.total is None and p.total_text == "—" and not p.can_print
    total = p.rows()[-1]
    assert total.amount == "—" and "not current" in total.description
    assert p.rows()[0].amount == "$35.00"  # the last breakdown, shown dimmed by the view


def test_a_typing_mistake_names_the_line_it_is_on() -> None:
    p = calculator()
    p.add_line("RES-NEW", {QUANTITY: "2400"})
    p.add_line("PLUMBING", {AMOUNT: "12O.00"})
    p.recalculate()
    assert p.error == "PLUMBING.amount: '12O.00' is not an amount of money"
    assert p.error_line == 1
    p.replace_line(1, "PLUMBING", {AMOUNT: "120.00"})
    p.recalculate()
    assert (p.error, p.total_text) == ("", "$572.00")
    p.add_line("FAIL-TO-CALL", {OCCURRENCE: "second"})
    p.recalculate()
    assert p.error == "FAIL-TO-CALL.occurrence: enter a whole number (1, 2, 3, ...)"


def test_removing_the_last_line_empties_the_breakdown_without_an_error() -> None:
    p = calculator()
    p.add_line("RES-POOL")
    p.recalculate()
    p.remove_line(0)
    p.recalculate()
    assert (p.rows(), p.error, p.total_text) == ([], "", "—")
    assert p.empty_text.startswith("No items yet")


def test_only_the_fields_an_items_kind_needs_are_asked_for() -> None:
    v = GLENDALE.versions[0]

    def labels(code: str) -> list[str]:
        item = v.item(code)
        assert item is not None
        return [f.label for f in fields_for(item)]

    assert labels("RES-NEW") == ["Square feet"]
    assert labels("RES-REMODEL") == ["Dollars of valuation"]
    assert labels("RES-POOL") == []
    assert labels("FAIL-TO-CALL") == ["Occurrence"]
    assert labels("SEWER-ASSESSMENT") == ["Front feet", "Rate per front foot"]
    assert labels("PLUMBING") == ["Amount from the application form"]
    street = NEW_LISBON.versions[0].item("STREET-OPENING")
    assert street is not None
    assert [f.key for f in fields_for(street)] == [AMOUNT, "pavement_age_years"]


def test_an_item_is_found_by_its_code_a_completer_entry_or_unique_words() -> None:
    p = calculator()

    def code(text: str) -> str | None:
        item = p.find_item(text)
        return None if item is None else item.code

    assert code("res-new") == "RES-NEW"
    assert code("RES-NEW — Residential new construction, all floor area") == "RES-NEW"
    assert code("grease") == "GREASE-INTERCEPTOR"
    assert code("erosion") is None  # several items match
    assert code("") is None
    assert p.item_choices()[0].text == "RES-NEW — Residential new construction, all floor area"


def test_the_lines_list_says_what_was_entered_in_words() -> None:
    p = calculator()
    p.add_line("RES-NEW", {QUANTITY: "2400"})
    p.add_line("RES-STATE-SEAL", {QUANTITY: "3"})  # a field the item has not: dropped
    p.add_line("PLUMBING", {AMOUNT: "120"})
    p.add_line("FAIL-TO-CALL", {OCCURRENCE: "2"})
    p.add_line("RES-REMODEL")
    assert [p.line_entered(i) for i in range(5)] == [
        "2,400 square feet",
        "nothing to enter",
        "$120.00",
        "occurrence 2",
        "—",
    ]
    assert p.lines[1].values == {}


def test_the_date_chooses_the_version_and_a_date_before_any_version_is_an_error() -> None:
    v = GLENDALE.versions[0]
    raised = replace(
        v,
        label="2026 fee ordinance",
        effective_from=date(2026, 7, 1),
        items=tuple(replace(i, rate=D("0.14")) if i.code == "RES-NEW" else i for i in v.items),
    )
    p = FeeCalculatorPresenter(
        FeeSchedule("glendale", (v, raised)), date(2026, 6, 30), holiday=lambda d: False
    )
    p.add_line("RES-NEW", {QUANTITY: "2400"})
    p.add_line("RES-STATE-SEAL")
    p.recalculate()
    assert p.total_text == "$439.00"
    p.set_date(date(2026, 7, 2))
    p.recalculate()
    assert p.total_text == "$506.00"
    assert p.version_text == "Schedule: 2026 fee ordinance, in effect from 07/01/2026"
    p.set_date(date(1999, 12, 31))
    p.recalculate()
    assert p.error == "No fee schedule is in effect on 12/31/1999."
    assert p.item_choices() == []


def test_new_lisbon_asks_for_the_emergency_dates_and_waives_a_timely_emergency() -> None:
    p = calculator(NEW_LISBON)
    assert p.needs_emergency_dates and not calculator().needs_emergency_dates
    p.add_line("STREET-OPENING", {AMOUNT: "150", "pavement_age_years": "7"})
    p.add_line("CITY-EXPENSES", {AMOUNT: "80.10"})
    p.recalculate()
    assert p.total_text == "$230.10"
    p.set_flags(emergency=True)
    p.recalculate()
    assert p.error == (
        "STREET-OPENING.excavated_on: an emergency needs the excavation date and the filing date"
    )
    p.set_flags(excavated_on=date(2026, 3, 2), applied_on=date(2026, 3, 4))
    p.recalculate()
    assert p.total_text == "$80.10"
    assert p.admin_title == "Admin" and p.footnote == ""


def test_the_screenshot_sample_is_a_glendale_house_and_nothing_elsewhere() -> None:
    assert [line.code for line in sample_lines("glendale")] == [
        "RES-NEW",
        "RES-STATE-SEAL",
        "PLUMBING",
    ]
    assert sample_lines("new_lisbon") == []


# --- the fee schedules screen ------------------------------------------------------------------


def test_the_items_read_as_the_ordinance_writes_them() -> None:
    v = GLENDALE.versions[0]

    def cells(code: str, *keys: str) -> list[str]:
        item = v.item(code)
        assert item is not None
        return [cell_text(item, k) for k in keys]

    assert cells("RES-NEW", "unit", "rates", "minimum", "admin", "doubles", "gl_account") == [
        "per sq ft",
        "0.12",
        "100.00",
        "yes",
        "yes",
        "100-44300 Building permits",
    ]
    assert cells("FAIL-TO-CALL", "rates") == ["50.00 / 100.00 / 150.00"]
    assert cells("COM-EROSION", "rates") == ["200.00 first acre, 100.00 each further"]
    assert cells("RES-STATE-SEAL", "minimum", "admin") == ["—", "no"]
    nl = NEW_LISBON.versions[0]
    street, repair = nl.item("STREET-OPENING"), nl.item("CITY-REPAIR")
    assert street is not None and repair is not None
    assert cell_text(street, "council_value") == NOT_SET
    assert cell_text(repair, "admin") == "yes (20 %)"
    assert [c.title for c in item_columns(v)][6] == "40 % admin"
    assert "council_value" not in [c.key for c in item_columns(v)]
    assert item_columns(nl)[-1].title == "Council-set value"


def test_the_versions_list_says_when_each_applies_and_where_it_came_from() -> None:
    v = replace(
        GLENDALE.versions[0], id=1, read_only=True, read_only_reason="it has priced permits"
    )
    later = replace(v, id=2, label="2026", effective_from=date(2026, 7, 1), read_only=False)
    rows = version_rows(
        FeeSchedule("glendale", (later, v)),
        {1: VersionSource("shipped"), 2: VersionSource("admin", None, "Alex Administrator")},
        date(2026, 3, 2),
    )
    assert [r.cells() for r in rows] == [
        (
            "Glendale 15.1.21 (shipped)",
            "01/01/2000",
            "06/30/2026",
            "shipped with Permit Desk",
            "in force today · read-only",
        ),
        ("2026", "07/01/2026", "—", "entered by Alex Administrator", "takes effect later"),
    ]
    assert banner_text(v) == "Read-only: it has priced permits."


def test_a_draft_changes_only_the_cells_that_may_change_and_names_mistakes() -> None:
    base = GLENDALE.versions[0]
    draft = VersionDraft(base)
    row = [i.code for i in draft.items].index("RES-NEW")
    assert draft.editable(row, "rates") and not draft.editable(row, "code")
    assert (
        draft.set_text(row, "rates", "0.1x") == "RES-NEW, Rate(s): '0.1x' is not an amount of money"
    )
    assert draft.text(row, "rates") == "0.1x"  # what was typed stays, to be corrected
    with pytest.raises(ValidationError, match=r"RES-NEW, Rate\(s\): '0.1x'"):
        draft.version("2026", date(2026, 7, 1))
    assert draft.set_text(row, "rates", "0.14") is None
    assert draft.set_text(row, "minimum", "") is None
    draft.set_flag(row, "doubles", False)
    escalating = [i.code for i in draft.items].index("FAIL-TO-CALL")
    assert draft.edit_text(escalating, "rates") == "50.00 / 100.00 / 150.00"
    assert draft.set_text(escalating, "rates", "60 / 120 / 180") is None
    acre = [i.code for i in draft.items].index("COM-EROSION")
    assert draft.edit_text(acre, "rates") == "200.00 / 100.00"
    assert draft.set_text(acre, "rates", "250.00 / 125.00") is None
    assert draft.set_text(acre, "rates", "250") == (
        "COM-EROSION, Rate(s): enter the first acre's rate and each further acre's: 200.00 / 100.00"
    )
    assert draft.set_text(acre, "rates", "250.00 / 125.00") is None
    new = draft.version(" 2026 fee ordinance ", date(2026, 7, 1))
    item = new.item("RES-NEW")
    assert item is not None
    assert (item.rate, item.minimum, item.doubles) == (D("0.14"), None, False)
    fail = new.item("FAIL-TO-CALL")
    erosion = new.item("COM-EROSION")
    assert fail is not None and erosion is not None
    assert fail.rates == (D("60.00"), D("120.00"), D("180.00"))
    assert (erosion.first_rate, erosion.rate) == (D("250.00"), D("125.00"))
    assert (new.label, new.effective_from, new.id, new.read_only) == (
        "2026 fee ordinance",
        date(2026, 7, 1),
        None,
        False,
    )
    assert base.item("RES-NEW") == GLENDALE.versions[0].item("RES-NEW")  # the copy, not the base


def test_a_per_square_foot_rate_may_have_four_decimals_and_council_values_can_be_set() -> None:
    draft = VersionDraft(GLENDALE.versions[0])
    row = [i.code for i in draft.items].index("RES-NEW")
    assert draft.set_text(row, "rates", "$0.125") is None
    assert draft.items[row].rate == D("0.125")
    assert draft.set_text(row, "minimum", "100.005") == (
        "RES-NEW, Minimum: has more than two decimals"
    )
    nl = VersionDraft(NEW_LISBON.versions[0])
    street = [i.code for i in nl.items].index("STREET-OPENING")
    expenses = [i.code for i in nl.items].index("CITY-EXPENSES")
    assert nl.editable(street, "council_value") and not nl.editable(street, "rates")
    assert not nl.editable(expenses, "council_value") and not nl.editable(expenses, "minimum")
    assert nl.set_text(street, "council_value", "75") is None
    assert nl.items[street].council_value == D("75.00")


def test_what_each_kind_lets_an_administrator_edit() -> None:
    v = GLENDALE.versions[0]
    plumbing, deposit = v.item("PLUMBING"), v.item("DEPOSIT-STREET")
    assert plumbing is not None and deposit is not None
    assert plumbing.kind is ItemKind.ENTERED
    assert not editable(plumbing, "rates") and editable(plumbing, "minimum")
    assert editable(deposit, "rates") and not editable(deposit, "minimum")
    assert all(editable(plumbing, k) for k in ("admin", "doubles", "gl_account"))


def test_service_errors_are_shown_next_to_the_field_they_are_about() -> None:
    date_error = ValidationError(
        "effective from", "must be after 2000-01-01, when the current version 'x' took effect"
    )
    assert error_field(date_error) == "effective_from"
    assert field_message(date_error).startswith("Effective from: must be after 2000-01-01")
    assert error_field(ValidationError("label", "name the new version")) == "label"
    twice = ValidationError("fee schedule", "glendale: version label 'x' appears twice")
    assert error_field(twice) == "label"
    assert error_field(ValidationError("fee schedule", "item X: field 'rate'")) == "items"


def test_a_new_version_starts_by_default_on_the_first_of_next_month() -> None:
    v = GLENDALE.versions[0]
    assert default_effective_from(v, date(2026, 3, 2)) == date(2026, 4, 1)
    assert default_effective_from(v, date(2026, 12, 15)) == date(2027, 1, 1)
    later = replace(v, effective_from=date(2026, 5, 1))
    assert default_effective_from(later, date(2026, 3, 2)) == date(2026, 5, 2)


def test_percentages_read_as_the_ordinance_writes_them() -> None:
    assert format_percent(D("0.40")) == "40 %"
    assert format_percent(D("0.20")) == "20 %"
    assert format_percent(D("0.125")) == "12.5 %"
