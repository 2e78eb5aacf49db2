"""Inspection rules: order of stages, due times, correction orders at their edges, recurring
visits, the re-inspection and failure-to-call fees priced by the fee engine, occupancy."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from desk.clock import FixedClock
from desk.domain.inspections import (
    BLDS_INSP_TYPES,
    FAIL_TO_CALL,
    REINSPECTION,
    CertifiedUse,
    CorrectionOrder,
    InspectionSequence,
    InspectionTypesError,
    Outcome,
    Result,
    SequenceException,
    StageState,
    Timing,
    Waiver,
    advance_notice,
    backfill_notice,
    certificate_shortfalls,
    check_result,
    check_sequence,
    correction_order,
    electrical_rough_in_due,
    erosion_visits_due,
    excavation_notice,
    extend_correction_order,
    failure_to_call_fee,
    grease_years,
    inspection_due,
    moving_arrival_report_due,
    moving_excavation_fill_due,
    moving_repair_due,
    new_certificate_needed,
    next_types,
    razing_fill_due,
    reinspection_fee,
    sequence_for,
    sequence_status,
    sequences_for,
    sequences_from_toml,
    temporary_occupancy,
    vacate_due,
)
from desk.domain.kinds import kinds_for
from desk.errors import ValidationError
from desk.fees.engine import QuoteRequest
from desk.fees.loader import shipped_schedule
from desk.services import fees as fee_services
from desk.services.fees import quote_shipped

DAY = timedelta(days=1)


def building() -> InspectionSequence:
    s = sequence_for("glendale", "RES-NEW-DWELLING")
    assert s is not None
    return s


# --------------------------------------------------------------------------- the shipped file


def test_every_kind_that_is_inspected_has_its_sequence_in_order() -> None:
    codes = {
        k.code: (s.code if (s := sequence_for("glendale", k.code)) else None)
        for k in kinds_for("glendale")
    }
    assert codes["RES-NEW-DWELLING"] == "building"
    assert codes["RES-REMODEL"] == "building-alteration"
    assert codes["ELECTRICAL"] == "electrical"
    assert codes["SEWER-WATER"] == "plumbing"  # by its trade
    assert codes["GREASE-INTERCEPTOR"] == "grease-interceptor"  # named, though trade plumbing
    assert codes["EROSION"] == "erosion"
    assert codes["RAZE"] == "razing" and codes["MOVE"] == "moving"
    assert codes["ADDRESS-NUMBERS"] is None and codes["SOLID-FILL"] is None
    assert [t.label for t in building().types] == [
        "Location",
        "Footings and foundation",
        "Framing",
        "Basement floor",
        "Building final",
    ]
    electrical = sequence_for("glendale", "ELECTRICAL")
    assert electrical is not None
    assert [t.code for t in electrical.types] == ["ELE-ROUGH-IN", "ELE-SERVICE", "ELE-FINAL"]
    street = sequence_for("new_lisbon", "STREET-OPENING")
    assert street is not None
    assert [t.label for t in street.types] == [
        "Excavation",
        "Backfill compaction test",
        "Surface restoration",
    ]
    assert sequence_for("new_lisbon", "SIDEWALK") is None


def test_every_type_maps_to_a_blds_value_and_every_result_to_a_blds_result() -> None:
    for muni in ("glendale", "new_lisbon"):
        for s in sequences_for(muni):
            for t in s.types:
                assert t.blds in BLDS_INSP_TYPES, t.code
    final = building().type("BLD-FINAL")
    assert final.blds == "Building Final" and final.final and final.section == "15.1.11(a)(5)"
    assert building().type("BLD-FOOTINGS").blds == "Foundation"
    assert "Recertification" in building().type("BLD-FOOTINGS").note
    assert {r.blds for r in Result} == {
        "Passed",
        "Rejected",
        "Partial",
        "Cancelled",
        "OK for Service",
    }
    assert Result.OK_FOR_SERVICE.label == "OK for service"


def test_ok_for_service_is_only_a_result_of_the_electrical_service() -> None:
    electrical = sequence_for("glendale", "ELECTRICAL")
    assert electrical is not None
    check_result(electrical.type("ELE-SERVICE"), Result.OK_FOR_SERVICE)
    with pytest.raises(ValidationError, match=r"not of Framing"):
        check_result(building().type("BLD-FRAMING"), Result.OK_FOR_SERVICE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[glendale\n", "t.toml: not valid TOML"),
        (
            '[[glendale.types]]\ncode = "X"\nlabel = "X"\nsection = "1"\nblds = "Final"\n'
            'trade = "building"\n',
            "t.toml [glendale], type X: field 'blds' is 'Final', not a BLDS InspTypeMapped value",
        ),
        (
            '[[glendale.types]]\ncode = "X"\nlabel = "X"\nsection = "1"\nblds = "Frame"\n'
            'trade = "building"\ncolour = "red"\n',
            "t.toml [glendale], type X: unknown field(s) colour",
        ),
        (
            '[[glendale.types]]\ncode = "X"\nlabel = "X"\nsection = "1"\nblds = "Frame"\n'
            'trade = "building"\ntiming = "soon"\n',
            "t.toml [glendale], type X: field 'timing' is 'soon', not one of",
        ),
        (
            '[[glendale.types]]\ncode = "A"\nlabel = "A"\nsection = "1"\nblds = "Frame"\n'
            'trade = "building"\n[[glendale.sequences]]\ncode = "s"\nlabel = "S"\n'
            'kinds = ["RES-POOL"]\nsteps = [{ type = "A", after = ["B"] }]\n',
            "t.toml [glendale], sequence s, step A: 'after' names 'B', which is not an earlier "
            "step of this sequence",
        ),
        (
            '[[glendale.sequences]]\ncode = "s"\nlabel = "S"\nkinds = ["STREET-OPENING"]\n'
            "steps = []\n",
            "t.toml [glendale], sequence s: kind 'STREET-OPENING' is not a permit kind here",
        ),
        (
            '[[atlantis.types]]\ncode = "A"\n',
            "t.toml [atlantis]: no permit kinds are defined for 'atlantis'",
        ),
    ],
)
def test_a_wrong_inspection_types_file_is_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(InspectionTypesError) as e:
        sequences_from_toml("t.toml", text)
    assert str(e.value).startswith(message)


# --------------------------------------------------------------------------- order of stages


def test_a_later_stage_waits_for_the_earlier_ones_naming_what_is_missing() -> None:
    seq = building()
    assert check_sequence(seq, [], "BLD-LOCATION") == []
    assert check_sequence(seq, [], "BLD-FOOTINGS") == [
        "Location has not passed yet (15.1.11(a)(1))"
    ]
    done = [Outcome("BLD-LOCATION", Result.PASSED), Outcome("BLD-FOOTINGS", Result.REJECTED)]
    assert check_sequence(seq, done, "BLD-FRAMING") == [
        "Footings and foundation has not passed yet: its last result was rejected (15.1.11(a)(2))"
    ]
    assert check_sequence(seq, done, "BLD-FINAL") == [
        "Footings and foundation has not passed yet: its last result was rejected (15.1.11(a)(2))",
        "Framing has not passed yet (15.1.11(a)(3))",
        "Basement floor has not passed yet (15.1.11(a)(4))",
    ]
    # The re-inspection passes; a later cancelled visit changes nothing.
    done += [Outcome("BLD-FOOTINGS", Result.PASSED), Outcome("BLD-FOOTINGS", Result.CANCELLED)]
    assert check_sequence(seq, done, "BLD-FRAMING") == []
    assert check_sequence(seq, done, "BLD-BASEMENT-FLOOR") == []  # follows footings, not framing


def test_an_exception_with_a_reason_clears_the_stage_it_is_recorded_on() -> None:
    seq = building()
    done = [
        Outcome("BLD-LOCATION", Result.PASSED),
        Outcome("BLD-FOOTINGS", Result.PASSED),
        Outcome("BLD-FRAMING", Result.PASSED),
    ]
    assert check_sequence(seq, done, "BLD-FINAL") == [
        "Basement floor has not passed yet (15.1.11(a)(4))"
    ]
    slab = SequenceException("BLD-BASEMENT-FLOOR", "Slab on grade, no basement")
    assert check_sequence(seq, done, "BLD-FINAL", [slab]) == []
    with pytest.raises(ValidationError, match="reason: say why"):
        SequenceException("BLD-BASEMENT-FLOOR", "  ")


def test_the_sequence_shows_where_each_stage_stands_and_what_comes_next() -> None:
    seq = building()
    done = [Outcome("BLD-LOCATION", Result.PASSED), Outcome("BLD-FOOTINGS", Result.REJECTED)]
    rows = sequence_status(seq, done)
    assert [(r.type.code, r.state) for r in rows] == [
        ("BLD-LOCATION", StageState.PASSED),
        ("BLD-FOOTINGS", StageState.REJECTED),
        ("BLD-FRAMING", StageState.WAITING),
        ("BLD-BASEMENT-FLOOR", StageState.WAITING),
        ("BLD-FINAL", StageState.WAITING),
    ]
    assert rows[2].waiting_for == (
        "Footings and foundation has not passed yet: its last result was rejected (15.1.11(a)(2))",
    )
    assert [t.code for t in next_types(seq, done)] == ["BLD-FOOTINGS"]
    done.append(Outcome("BLD-FOOTINGS", Result.PASSED))
    assert [t.code for t in next_types(seq, done)] == ["BLD-FRAMING", "BLD-BASEMENT-FLOOR"]
    slab = SequenceException("BLD-BASEMENT-FLOOR", "Slab on grade")
    rows = sequence_status(seq, done, [slab])
    assert rows[3].state is StageState.EXCEPTED and rows[3].exception_reason == "Slab on grade"
    # Recurring visits never "pass" for good: an erosion site is always due for the next one.
    erosion = sequence_for("glendale", "EROSION")
    assert erosion is not None
    assert next_types(erosion, [Outcome("ERO-SITE", Result.PASSED)])[0].code == "ERO-SITE"


def test_an_electrical_final_needs_the_service_ok_for_service_counts_as_passed() -> None:
    seq = sequence_for("glendale", "ELECTRICAL")
    assert seq is not None
    done = [Outcome("ELE-ROUGH-IN", Result.PASSED), Outcome("ELE-SERVICE", Result.PARTIAL)]
    assert check_sequence(seq, done, "ELE-FINAL") == [
        "Electrical service has not passed yet: its last result was partial (15.1.76(d))"
    ]
    done.append(Outcome("ELE-SERVICE", Result.OK_FOR_SERVICE))
    assert check_sequence(seq, done, "ELE-FINAL") == []


def test_a_type_that_is_not_a_step_of_the_sequence_is_refused() -> None:
    with pytest.raises(ValidationError, match="'ELE-FINAL' is not a step of this sequence"):
        check_sequence(building(), [], "ELE-FINAL")


# --------------------------------------------------------------------------- due times


def test_the_electrical_rough_in_is_due_24_hours_after_the_notice() -> None:
    clock = FixedClock(datetime(2026, 3, 2, 14, 30, tzinfo=UTC))  # the call comes in
    seq = sequence_for("glendale", "ELECTRICAL")
    assert seq is not None
    rough_in = seq.type("ELE-ROUGH-IN")
    assert rough_in.timing is Timing.WITHIN_24_HOURS_OF_NOTICE
    due = inspection_due(rough_in, clock.now())
    assert due is not None
    assert due.due_at == datetime(2026, 3, 3, 14, 30, tzinfo=UTC)
    assert due.message == "Electrical rough-in inspection due by 03/03/2026 2:30 PM (15.1.76(c))"
    assert electrical_rough_in_due(clock.now()).due_at == due.due_at
    clock.advance(timedelta(hours=24))
    assert not due.late(clock.now())
    clock.advance(timedelta(minutes=1))
    assert due.late(clock.now())
    assert inspection_due(seq.type("ELE-FINAL"), clock.now()) is None


def test_street_opening_notices_24_hours_before_excavating_and_4_before_backfilling() -> None:
    dig = datetime(2026, 6, 10, 8, 0)
    on_time = excavation_notice(dig, datetime(2026, 6, 9, 8, 0))
    assert on_time.timely
    late = excavation_notice(dig, datetime(2026, 6, 9, 9, 30))
    assert not late.timely
    assert late.message == (
        "Excavation at 06/10/2026 8:00 AM: notice given 06/09/2026 9:30 AM, 1 h 30 min late; "
        "it was due by 06/09/2026 8:00 AM (§435-8B)"
    )
    assert excavation_notice(dig, datetime(2026, 6, 10, 7, 0), emergency=True).timely
    fill = datetime(2026, 6, 10, 13, 0)
    assert backfill_notice(fill, datetime(2026, 6, 10, 9, 0)).timely
    late_fill = backfill_notice(fill, datetime(2026, 6, 10, 9, 15))
    assert not late_fill.timely and "15 min late" in late_fill.message
    assert "(§435-8F)" in late_fill.message
    street = sequence_for("new_lisbon", "STREET-OPENING")
    assert street is not None
    check = advance_notice(street.type("STO-COMPACTION"), fill, datetime(2026, 6, 10, 9, 0))
    assert check is not None and check.required_by == datetime(2026, 6, 10, 9, 0)


def test_moving_and_razing_deadlines() -> None:
    arrived = date(2026, 5, 4)
    report = moving_arrival_report_due(arrived)
    assert report.due == date(2026, 5, 5) and report.section == "15.1.9(d)"
    assert not report.passed(date(2026, 5, 5)) and report.passed(date(2026, 5, 6))
    assert moving_repair_due(date(2026, 5, 5)).due == date(2026, 5, 15)
    fill = moving_excavation_fill_due(datetime(2026, 5, 4, 7, 0))
    assert fill.due_at == datetime(2026, 5, 6, 7, 0) and fill.section == "15.1.9(f)(2)"
    raze = razing_fill_due(date(2026, 5, 4))
    assert raze.due == date(2026, 5, 9) and raze.section == "15.1.10"
    assert not raze.passed(date(2026, 5, 9)) and raze.passed(date(2026, 5, 10))


# --------------------------------------------------------------------------- correction orders


def test_a_correction_order_is_due_30_days_after_the_notice_and_overdue_the_day_after() -> None:
    clock = FixedClock(date(2026, 3, 2))
    order = correction_order("building", clock.today())
    assert order.due_on == date(2026, 4, 1) and order.section == "15.1.90(b)(1)"
    clock.set(date(2026, 3, 31))  # the day before
    assert not order.overdue(clock.today())
    clock.set(date(2026, 4, 1))  # the day of
    assert not order.overdue(clock.today())
    assert order.status(clock.today()) == "Correct by 04/01/2026 (15.1.90(b)(1))"
    clock.set(date(2026, 4, 2))  # the day after
    assert order.overdue(clock.today())
    assert order.status(clock.today()) == (
        "Overdue since 04/02/2026 (1 day): a stop-work order may be served (15.1.90(b)(2))"
    )
    clock.set(date(2026, 4, 5))
    assert order.days_overdue(clock.today()) == 4


def test_an_electrical_correction_order_is_due_in_7_days() -> None:
    order = correction_order("electrical", date(2026, 3, 2))
    assert order.due_on == date(2026, 3, 9) and order.section == "15.1.76(c)"
    assert not order.overdue(date(2026, 3, 8))
    assert not order.overdue(date(2026, 3, 9))
    assert order.overdue(date(2026, 3, 10))


def test_the_inspector_sets_or_extends_the_date_never_before_the_notice() -> None:
    notice = date(2026, 3, 2)
    sooner = correction_order("building", notice, date(2026, 3, 16))
    assert sooner.due_on == date(2026, 3, 16) and not sooner.extended
    assert correction_order("building", notice, notice).due_on == notice  # same day is allowed
    with pytest.raises(
        ValidationError, match="must not be before the written notice of 03/02/2026"
    ):
        correction_order("building", notice, date(2026, 3, 1))
    with pytest.raises(ValidationError, match=r"beyond 30 days \(04/01/2026, 15.1.90\(b\)\(1\)\)"):
        correction_order("building", notice, date(2026, 4, 15))
    longer = correction_order("building", notice, date(2026, 4, 15), "Waiting for frost to leave")
    assert longer.extended and longer.reason == "Waiting for frost to leave"
    order = correction_order("electrical", notice)
    extended = extend_correction_order(order, date(2026, 3, 20), "Part on back order")
    assert extended.due_on == date(2026, 3, 20) and extended.extended
    assert not extended.overdue(date(2026, 3, 20)) and extended.overdue(date(2026, 3, 21))
    with pytest.raises(ValidationError, match="must be after 03/09/2026"):
        extend_correction_order(order, date(2026, 3, 9), "no")
    with pytest.raises(ValidationError, match="reason"):
        extend_correction_order(order, date(2026, 3, 20), " ")
    corrected = CorrectionOrder(
        notice, date(2026, 4, 1), "15.1.90(b)(1)", corrected_on=date(2026, 3, 20)
    )
    assert not corrected.overdue(date(2026, 5, 1))
    assert corrected.status(date(2026, 5, 1)) == "Corrected on 03/20/2026"


# --------------------------------------------------------------------------- recurring visits


def test_erosion_visits_monthly_in_season_and_twice_over_a_leap_year_winter() -> None:
    periods = erosion_visits_due(
        date(2023, 10, 15),
        date(2024, 3, 20),
        [date(2023, 10, 20), date(2023, 11, 10), date(2024, 2, 29), date(2024, 3, 5)],
    )
    assert [(p.label, p.start, p.end, p.due, p.done, p.shortfall) for p in periods] == [
        ("October 2023", date(2023, 10, 1), date(2023, 10, 31), 1, 1, 0),
        ("Winter 2023–24 (Nov 1 – Feb 29)", date(2023, 11, 1), date(2024, 2, 29), 2, 2, 0),
        ("March 2024", date(2024, 3, 1), date(2024, 3, 31), 1, 1, 0),
    ]


def test_a_winter_with_one_visit_is_short_and_overdue_from_march_1() -> None:
    periods = erosion_visits_due(
        date(2024, 11, 1), date(2025, 2, 28), [date(2025, 1, 15), date(2025, 1, 15)]
    )
    assert len(periods) == 1
    winter = periods[0]
    assert winter.label == "Winter 2024–25 (Nov 1 – Feb 28)"
    assert (winter.due, winter.done, winter.shortfall) == (2, 1, 1)  # same day counts once
    assert not winter.overdue(date(2025, 2, 28))
    assert winter.overdue(date(2025, 3, 1))


def test_a_site_active_for_part_of_the_winter_owes_one_visit_per_half_it_is_active_in() -> None:
    periods = erosion_visits_due(date(2024, 9, 10), date(2024, 12, 15), [date(2024, 9, 30)])
    assert [(p.label, p.due, p.done) for p in periods] == [
        ("September 2024", 1, 1),
        ("October 2024", 1, 0),
        ("Winter 2024–25 (Nov 1 – Feb 28)", 1, 0),
    ]
    assert periods[2].active_to == date(2024, 12, 15)
    assert periods[1].overdue(date(2024, 11, 1)) and not periods[1].overdue(date(2024, 10, 31))
    # Active November 1 into January: both halves, two visits.
    winter = erosion_visits_due(date(2024, 11, 1), date(2025, 1, 5), [])[0]
    assert winter.due == 2


def test_a_grease_interceptor_is_inspected_once_each_calendar_year() -> None:
    years = grease_years(2025, 2026, [date(2025, 6, 10), date(2025, 11, 3), date(2024, 5, 1)])
    y2025, y2026 = years
    assert y2025.done and y2025.visits == (date(2025, 6, 10), date(2025, 11, 3))
    assert y2025.message == "2025: inspected on 06/10/2025 (15.1.57(c))"
    assert not y2026.done
    assert y2026.message == "2026: annual inspection due by 12/31/2026 (15.1.57(c))"
    assert not y2026.overdue(date(2026, 12, 31)) and y2026.overdue(date(2027, 1, 1))


# --------------------------------------------------------------------------- fees


def test_the_fee_codes_are_items_of_the_shipped_glendale_schedule() -> None:
    version = shipped_schedule("glendale").version_on(date(2026, 3, 2))
    assert version is not None
    assert version.item(REINSPECTION) is not None
    assert version.item(FAIL_TO_CALL) is not None
    assert fee_services.FAIL_TO_CALL == FAIL_TO_CALL


def test_a_re_inspection_after_a_rejection_carries_the_fee_unless_waived() -> None:
    footings = building().type("BLD-FOOTINGS")
    assert reinspection_fee(footings, []) is None
    assert reinspection_fee(footings, [Result.PASSED]) is None
    fee = reinspection_fee(footings, [Result.REJECTED, Result.CANCELLED])
    assert fee is not None and fee.code == "REINSPECTION" and fee.charged
    assert fee.message == (
        "Re-inspection of Footings and foundation after it was rejected (15.1.21(a)(12))"
    )
    partial = reinspection_fee(footings, [Result.PARTIAL])
    assert partial is not None and partial.charged
    waived = reinspection_fee(footings, [Result.REJECTED], Waiver("Inspector's scheduling error"))
    assert waived is not None and not waived.charged and waived.quote_item is None
    assert waived.message.endswith("fee waived — Inspector's scheduling error")
    with pytest.raises(ValidationError, match="waiver reason"):
        Waiver("")
    electrical = sequence_for("glendale", "ELECTRICAL")
    assert electrical is not None
    ele = reinspection_fee(electrical.type("ELE-ROUGH-IN"), [Result.REJECTED])
    assert ele is not None and ele.section == "15.1.80(a)(2)"


def test_failure_to_call_names_the_occurrence() -> None:
    framing = building().type("BLD-FRAMING")
    first = failure_to_call_fee(framing, 1)
    assert first.code == "FAIL-TO-CALL" and first.occurrence == 1
    assert first.message == (
        "Failure to call for the Framing inspection, first violation (15.1.21(a)(13))"
    )
    assert "third violation" in failure_to_call_fee(framing, 3).message
    assert "(third and subsequent rate)" in failure_to_call_fee(framing, 5).message
    assert (
        failure_to_call_fee(framing, 2, Waiver("Called; office lost the message")).quote_item
        is None
    )
    with pytest.raises(ValidationError, match="occurrence: must be 1 or more"):
        failure_to_call_fee(framing, 0)


def test_the_fee_engine_prices_them_from_the_shipped_glendale_schedule() -> None:
    """15.1.21(a)(12), (13): $50 re-inspection; $50, $100, $150 failure to call; plus the 40 %
    administrative cost, rounded up to the dollar."""
    on = date(2026, 3, 2)
    footings = building().type("BLD-FOOTINGS")
    fee = reinspection_fee(footings, [Result.REJECTED])
    assert fee is not None and fee.quote_item is not None
    quote = quote_shipped("glendale", QuoteRequest(items=(fee.quote_item,)), on)
    (line,) = quote.lines
    assert (line.code, line.base, line.admin, line.amount) == (
        "REINSPECTION",
        Decimal("50.00"),
        Decimal("20.00"),
        Decimal("70.00"),
    )
    amounts = []
    for n in (1, 2, 3, 4):
        item = failure_to_call_fee(footings, n).quote_item
        assert item is not None
        amounts.append(quote_shipped("glendale", QuoteRequest(items=(item,)), on).total)
    assert amounts == [Decimal("70.00"), Decimal("140.00"), Decimal("210.00"), Decimal("210.00")]


# --------------------------------------------------------------------------- occupancy


def test_a_certificate_needs_the_final_passed_and_no_open_correction_order() -> None:
    order = correction_order("building", date(2026, 3, 2))
    assert certificate_shortfalls(False, [order], "") == [
        "The final inspection has not passed (15.1.13(a)(1))",
        "The correction order of 03/02/2026 (correct by 04/01/2026) is still open: a "
        "certificate is issued only when no violation is found (15.1.13(a)(1))",
        "State the purpose for which the building is to be used; the certificate states it "
        "(15.1.13(a)(1))",
    ]
    corrected = CorrectionOrder(
        order.noticed_on, order.due_on, order.section, corrected_on=date(2026, 3, 25)
    )
    assert certificate_shortfalls(True, [corrected], "Single-family dwelling") == []


def test_temporary_occupancy_is_at_most_120_days_after_the_examination() -> None:
    granted = date(2026, 3, 2)
    deadline = temporary_occupancy(granted, date(2026, 6, 30), safe_and_sanitary=True)
    assert deadline.due == date(2026, 6, 30) and deadline.section == "15.1.13(d)"
    assert not deadline.passed(date(2026, 6, 30)) and deadline.passed(date(2026, 7, 1))
    with pytest.raises(ValidationError) as e:
        temporary_occupancy(granted, date(2026, 7, 1), safe_and_sanitary=True)
    assert str(e.value) == "complete by: at most 120 days: 06/30/2026 at the latest (15.1.13(d))"
    with pytest.raises(ValidationError, match="safe and sanitary"):
        temporary_occupancy(granted, date(2026, 5, 1), safe_and_sanitary=False)


def test_a_change_of_use_or_of_a_non_residential_user_needs_a_new_certificate() -> None:
    home = CertifiedUse("Single-family dwelling")
    assert new_certificate_needed(home, "single-family  dwelling") is None
    assert new_certificate_needed(home, "Day care") == (
        "The use changes from 'Single-family dwelling' to 'Day care': a new certificate of "
        "occupancy is needed (15.1.13(c))"
    )
    shop = CertifiedUse("Retail store", "Main Street Hardware", residential=False)
    assert new_certificate_needed(shop, "Retail store", "Main Street Hardware") is None
    assert new_certificate_needed(shop, "Retail store", "Corner Books") == (
        "The user of a non-residential building changes from 'Main Street Hardware' to "
        "'Corner Books': a new certificate of occupancy is needed (15.1.13(c))"
    )
    assert new_certificate_needed(home, "Single-family dwelling", "New owner") is None
    damaged = new_certificate_needed(home, "Single-family dwelling", vacated_or_damaged=True)
    assert damaged is not None and damaged.endswith("(15.1.13(b)(2))")


def test_use_contrary_to_the_code_is_vacated_within_10_days_of_the_notice() -> None:
    deadline = vacate_due(date(2026, 3, 2))
    assert deadline.due == date(2026, 3, 12) and deadline.section == "15.1.13(b)(1)"
    assert not deadline.passed(date(2026, 3, 12)) and deadline.passed(date(2026, 3, 13))
