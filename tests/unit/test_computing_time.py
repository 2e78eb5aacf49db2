"""Wis. Stat. 990.001(4) as the office counts its days: the first day excluded, the last
included; a last day on a Sunday or legal holiday (995.20) moves to the next secular day; a last
day on a Saturday moves too when the act is a filing at an office with no Saturday hours."""

from __future__ import annotations

from datetime import date

from desk.enforcement import deadlines
from desk.enforcement.computing_time import STATUTE, OfficeCalendar, legal_holidays

OPEN_SATURDAYS = OfficeCalendar(open_saturdays=True)


def test_a_petition_window_ending_on_a_saturday_runs_to_monday_when_the_office_is_closed() -> None:
    window = deadlines.petition_window(date(2026, 7, 1))  # 10 days: Saturday 07/11
    assert window.counted == date(2026, 7, 11)
    assert window.day == date(2026, 7, 13)
    assert window.reason == "Saturday 07/11/2026 the office is closed"
    assert window.text() == (
        "Monday 07/13/2026 (extended: Saturday 07/11/2026 the office is closed; "
        "Wis. Stat. 990.001(4))"
    )
    # An office with Saturday hours takes the petition that Saturday.
    assert deadlines.petition_last_day(date(2026, 7, 1), OPEN_SATURDAYS) == date(2026, 7, 11)


def test_a_last_day_on_a_sunday_moves_to_monday_whatever_the_office_hours() -> None:
    assert deadlines.petition_last_day(date(2026, 3, 5), OPEN_SATURDAYS) == date(2026, 3, 16)
    # Correcting a violation is no filing: a Saturday stays, a Sunday moves.
    assert deadlines.correction_date(date(2026, 3, 4), 10) == date(2026, 3, 14)
    assert deadlines.correction_date(date(2026, 3, 5), 10) == date(2026, 3, 16)


def test_a_last_day_on_a_legal_holiday_moves_to_the_next_day_the_office_is_open() -> None:
    # Labor Day, Monday 09/07/2026.
    labor = STATUTE.last_day(date(2026, 8, 28), 10, filing=True)
    assert labor.day == date(2026, 9, 8)
    assert labor.reason == "Monday 09/07/2026 is a legal holiday, Labor Day"
    # Christmas, Friday 12/25/2026, then a Saturday the office is closed and a Sunday.
    assert STATUTE.last_day(date(2026, 12, 15), 10, filing=True).day == date(2026, 12, 28)
    # Independence Day 2027 falls on a Sunday and is kept Monday 07/05 (995.20).
    assert STATUTE.last_day(date(2027, 6, 24), 10, filing=True).day == date(2027, 7, 6)


def test_the_legal_holidays_of_995_20() -> None:
    days = legal_holidays(2026)
    assert days[date(2026, 1, 19)] == "Martin Luther King, Jr. Day"
    assert days[date(2026, 5, 25)] == "Memorial Day"
    assert days[date(2026, 11, 3)] == "general election day"
    assert days[date(2026, 11, 26)] == "Thanksgiving Day"
    assert date(2026, 4, 3) not in days  # Good Friday: 11 a.m. to 3 p.m. only
    assert date(2027, 11, 2) not in legal_holidays(2027)  # no general election in odd years
    assert legal_holidays(2027)[date(2027, 7, 5)] == "Independence Day (observed)"


def test_the_office_calendar_is_read_from_the_municipality_settings() -> None:
    assert OfficeCalendar.of(None) == STATUTE
    assert OfficeCalendar.of({"office_open_saturdays": True}) == OPEN_SATURDAYS
