"""Lifecycle deadlines at their edges: the day before, the day of, the day after."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from desk.domain.enums import PermitStatus
from desk.domain.lifecycle import (
    COMPLETE,
    EXPIRES,
    RESUME,
    START,
    Extension,
    PermitDates,
    Rule,
    add_months,
    check_extension,
    check_requested_period,
    check_transition,
    deadlines,
    lapsed,
)
from desk.errors import RuleViolation, ValidationError

ISSUED = date(2026, 1, 15)
DAY = timedelta(days=1)


def dates(rule: Rule, **kw: object) -> PermitDates:
    values: dict[str, object] = {"rule": rule, "status": PermitStatus.ISSUED, "issued_on": ISSUED}
    values.update(kw)
    return PermitDates(**values)  # type: ignore[arg-type]


def due(p: PermitDates, code: str) -> date:
    return next(d.due for d in deadlines(p) if d.code == code)


def edges(p: PermitDates, last_good_day: date) -> tuple[object, object, object]:
    return (
        lapsed(p, last_good_day - DAY),
        lapsed(p, last_good_day),
        lapsed(p, last_good_day + DAY),
    )


def test_month_arithmetic_keeps_the_day_or_takes_the_months_last() -> None:
    assert add_months(date(2026, 1, 15), 4) == date(2026, 5, 15)
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2026, 10, 31), 4) == date(2027, 2, 28)
    assert add_months(date(2026, 1, 15), 18) == date(2027, 7, 15)


def test_a_building_permit_is_void_unless_work_starts_within_four_months() -> None:
    p = dates(Rule.BUILDING)  # 15.1.8(b)
    assert due(p, START) == date(2026, 5, 15)
    before, on, after = edges(p, date(2026, 5, 15))
    assert before is None and on is None
    assert after is not None and after.code == START and after.section == "15.1.8(b)"


def test_a_building_permit_lapses_when_work_is_suspended_sixty_days() -> None:
    p = dates(
        Rule.BUILDING,
        status=PermitStatus.WORK_STARTED,
        commenced_on=date(2026, 2, 1),
        last_activity_on=date(2026, 3, 10),
    )
    assert [d.code for d in deadlines(p)] == [RESUME, COMPLETE]
    assert due(p, RESUME) == date(2026, 5, 9)  # 60 days after the last work
    before, on, after = edges(p, date(2026, 5, 9))
    assert before is None and on is None and after is not None and after.code == RESUME


def test_all_building_work_is_done_within_eighteen_months_of_issue() -> None:
    p = dates(
        Rule.BUILDING,
        status=PermitStatus.WORK_STARTED,
        commenced_on=date(2026, 2, 1),
        last_activity_on=date(2027, 7, 1),
    )
    assert due(p, COMPLETE) == date(2027, 7, 15)  # 15.1.8(c)
    before, on, after = edges(p, date(2027, 7, 15))
    assert before is None and on is None and after is not None and after.code == COMPLETE


def test_the_inspector_may_extend_a_deadline_with_a_reason() -> None:
    p = dates(Rule.BUILDING, extensions=(Extension(START, date(2026, 7, 1), "frost"),))
    d = next(d for d in deadlines(p) if d.code == START)
    assert (d.due, d.extended) == (date(2026, 7, 1), True)
    assert lapsed(p, date(2026, 7, 1)) is None
    with pytest.raises(ValidationError, match="must be after the current date"):
        check_extension(p, START, date(2026, 6, 1))


def test_a_plumbing_permit_remains_in_force_six_months() -> None:
    p = dates(Rule.PLUMBING)  # 15.1.42
    before, on, after = edges(p, date(2026, 7, 15))
    assert before is None and on is None and after is not None and after.code == EXPIRES


def test_erosion_control_runs_180_days_or_the_building_permits_term_if_longer() -> None:
    p = dates(Rule.EROSION)  # 15.2.8(e)(1)
    assert due(p, EXPIRES) == ISSUED + timedelta(days=180)
    longer = dates(Rule.EROSION, building_permit_expires=date(2027, 7, 15))
    assert due(longer, EXPIRES) == date(2027, 7, 15)
    assert check_extension(p, EXPIRES, ISSUED + timedelta(days=360)).code == EXPIRES
    with pytest.raises(ValidationError, match="at most 180 days"):
        check_extension(p, EXPIRES, ISSUED + timedelta(days=361))


def test_a_street_opening_is_valid_30_days_from_approval_and_renewed_30_at_a_time() -> None:
    p = dates(Rule.STREET_OPENING, approved_on=date(2026, 6, 1), issued_on=date(2026, 6, 2))
    before, on, after = edges(p, date(2026, 7, 1))
    assert before is None and on is None and after is not None
    check_extension(p, EXPIRES, date(2026, 7, 31))
    with pytest.raises(ValidationError, match="30 days at a time"):
        check_extension(p, EXPIRES, date(2026, 8, 1))


def test_a_street_privilege_permit_terminates_after_three_months() -> None:
    p = dates(Rule.STREET_PRIVILEGE)
    assert due(p, EXPIRES) == date(2026, 4, 15)


def test_grease_interceptor_permits_expire_on_december_31() -> None:
    p = dates(Rule.GREASE_INTERCEPTOR, issued_on=date(2026, 11, 2))
    before, on, after = edges(p, date(2026, 12, 31))
    assert before is None and on is None and after is not None


@pytest.mark.parametrize(
    ("rule", "last_ok", "first_bad", "message"),
    [
        (Rule.TEMPORARY_ELECTRICAL, date(2026, 4, 15), date(2026, 4, 16), "at most 90 days"),
        (Rule.TEMPORARY_OCCUPANCY, date(2026, 5, 15), date(2026, 5, 16), "at most 120 days"),
        (Rule.SOLID_FILL, date(2026, 4, 14), date(2026, 4, 15), "three consecutive months"),
    ],
)
def test_stated_periods_stay_within_the_ordinances_maximum(
    rule: Rule, last_ok: date, first_bad: date, message: str
) -> None:
    check_requested_period(rule, ISSUED, last_ok)
    with pytest.raises(ValidationError, match=message):
        check_requested_period(rule, ISSUED, first_bad)


def test_solid_fill_ends_in_the_calendar_year_it_starts() -> None:
    with pytest.raises(ValidationError, match="calendar year"):
        check_requested_period(Rule.SOLID_FILL, date(2026, 11, 20), date(2027, 1, 10))


def test_deadlines_run_only_while_the_permit_is_alive() -> None:
    done = dates(Rule.PLUMBING, status=PermitStatus.COMPLETED)
    assert lapsed(done, date(2030, 1, 1)) is None
    applied = dates(Rule.PLUMBING, status=PermitStatus.APPLIED, issued_on=None)
    assert deadlines(applied) == []


def test_a_final_status_has_no_way_out() -> None:
    check_transition(PermitStatus.ISSUED, PermitStatus.WORK_STARTED)
    with pytest.raises(RuleViolation, match="revoked cannot become issued"):
        check_transition(PermitStatus.REVOKED, PermitStatus.ISSUED)
    with pytest.raises(RuleViolation, match="applied cannot become completed"):
        check_transition(PermitStatus.APPLIED, PermitStatus.COMPLETED)


def test_the_frozen_ground_season_runs_from_november_15_through_may_1() -> None:
    from desk.domain.issuance import in_frozen_ground_season

    # §435-8.A "between November 15 and May 1": both days inside; openings again on May 2.
    assert not in_frozen_ground_season(date(2026, 11, 14))
    assert in_frozen_ground_season(date(2026, 11, 15))
    assert in_frozen_ground_season(date(2027, 5, 1))
    assert not in_frozen_ground_season(date(2027, 5, 2))


def test_a_repaved_street_may_be_opened_from_the_fifth_anniversary_or_with_council_approval() -> (
    None
):
    from desk.domain.issuance import frozen_ground_holds, repaving_holds

    paved = date(2021, 6, 1)
    assert repaving_holds(date(2026, 6, 1), paved, None) == []
    (hold,) = repaving_holds(date(2026, 5, 31), paved, None)
    assert "before 06/01/2026" in hold and "§435-8" in hold
    assert repaving_holds(date(2026, 5, 31), paved, date(2026, 5, 12)) == []
    (frozen,) = frozen_ground_holds(date(2026, 12, 1), False)
    assert "November 15 and May 1" in frozen
    assert frozen_ground_holds(date(2026, 12, 1), True) == []
