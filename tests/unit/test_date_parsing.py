"""Dates as a clerk types them (ui.presenters.date_text): each accepted form, the refusals,
two-digit years and the words that count from today (an injected today, not the wall clock)."""

from __future__ import annotations

from datetime import date, time

import pytest

from ui.presenters.date_text import (
    DateTextError,
    date_text,
    full_year,
    parse_date,
    parse_time,
    time_text,
)

TODAY = date(2026, 12, 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12/3/26", date(2026, 12, 3)),
        ("12/03/2026", date(2026, 12, 3)),
        ("12-3-2026", date(2026, 12, 3)),
        ("2026-12-03", date(2026, 12, 3)),
        ("1/31/2027", date(2027, 1, 31)),
        ("2/29/2028", date(2028, 2, 29)),
        (" 03/02/2026 ", date(2026, 3, 2)),
        ("3/2", date(2026, 3, 2)),  # no year: this year
        ("today", TODAY),
        ("Today", TODAY),
        ("t", TODAY),
        ("yesterday", date(2026, 12, 2)),
        ("+3", date(2026, 12, 6)),
        ("-3", date(2026, 11, 30)),
        ("+30", date(2027, 1, 2)),
    ],
)
def test_each_accepted_form_is_the_calendar_date_it_names(text: str, expected: date) -> None:
    assert parse_date(text, TODAY) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("6100", "“6100” is not a date"),  # an address typed into the date: not a date
        ("", "type a date"),
        ("12/3/2026x", "is not a date"),
        ("12/3-2026", "is not a date"),  # one separator, not two
        ("2/30/2026", "“2/30/2026” is not a date on the calendar"),
        ("13/1/2026", "is not a date on the calendar"),
        ("12/3/202", "is not a date"),  # a three-digit year
        ("next week", "is not a date"),
    ],
)
def test_text_that_is_not_a_date_is_refused_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(DateTextError) as refused:
        parse_date(text, TODAY)
    assert why in str(refused.value)


def test_a_refusal_says_how_to_type_a_date() -> None:
    with pytest.raises(DateTextError, match=r"type it as MM/DD/YYYY \(e\.g\. 12/03/2026\)"):
        parse_date("6100", TODAY)


@pytest.mark.parametrize(
    ("two", "year"),
    [(26, 2026), (0, 2000), (69, 2069), (75, 2075), (76, 1976), (99, 1999)],
)
def test_a_two_digit_year_is_the_one_nearest_today(two: int, year: int) -> None:
    assert full_year(two, TODAY) == year
    assert parse_date(f"1/2/{two:02d}", TODAY) == date(year, 1, 2)


def test_the_century_of_a_two_digit_year_follows_today() -> None:
    assert parse_date("1/2/99", date(2085, 6, 1)) == date(2099, 1, 2)
    assert parse_date("1/2/05", date(2085, 6, 1)) == date(2105, 1, 2)
    assert parse_date("1/2/05", date(2026, 6, 1)) == date(2005, 1, 2)


def test_today_is_the_day_given_not_the_wall_clock() -> None:
    assert parse_date("today", date(2031, 7, 4)) == date(2031, 7, 4)
    assert parse_date("t", date(2031, 7, 4)) == date(2031, 7, 4)
    assert parse_date("yesterday", date(2031, 1, 1)) == date(2030, 12, 31)
    assert parse_date("-1", date(2028, 3, 1)) == date(2028, 2, 29)


def test_a_date_shows_as_mm_dd_yyyy() -> None:
    assert date_text(date(2026, 3, 2)) == "03/02/2026"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("4:45 pm", time(16, 45)),
        ("4:45PM", time(16, 45)),
        ("4 p.m.", time(16, 0)),
        ("12:05 am", time(0, 5)),
        ("12:30 PM", time(12, 30)),
        ("16:45", time(16, 45)),
        ("9.30", time(9, 30)),
        ("noon", time(12, 0)),
        ("Midnight", time(0, 0)),
    ],
)
def test_a_time_is_read_as_a_clerk_types_it(typed: str, meant: time) -> None:
    assert parse_time(typed) == meant


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("6100", "is not a time"),  # the address typed one field too early
        ("16", "is not a time"),  # an hour alone could be a count: it needs AM/PM or minutes
        ("13 pm", "with AM or PM the hour is 1 to 12"),
        ("24:00", "is not a time of day"),
        ("9:75", "is not a time of day"),
        ("", "type a time"),
    ],
)
def test_text_that_is_no_time_is_refused_in_words(typed: str, why: str) -> None:
    with pytest.raises(DateTextError, match=why):
        parse_time(typed)


def test_a_time_shows_as_the_office_writes_it() -> None:
    assert [time_text(t) for t in (time(0, 5), time(12, 0), time(16, 45), time(9, 3))] == [
        "12:05 AM",
        "12:00 PM",
        "4:45 PM",
        "9:03 AM",
    ]
