"""Rooming house licences, the pure rules (Hudson 140-10): expiry, the 24-hour notice, the
10-day petition window and automatic revocation, fixtures per 10 persons, sleeping rooms."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from desk.enforcement import licences as r
from desk.enforcement.licences import LicenceRoom, LicenceState


def test_a_licence_issued_on_a_day_is_valid_through_the_anniversary_and_expired_the_day_after() -> (
    None
):
    issued = date(2026, 3, 2)
    last = r.last_valid_day(issued)
    assert last == date(2027, 3, 2)
    assert not r.expired(last, date(2027, 3, 1))
    assert not r.expired(last, date(2027, 3, 2))
    assert r.expired(last, date(2027, 3, 3))


def test_a_licence_issued_on_29_february_is_valid_through_28_february() -> None:
    assert r.last_valid_day(date(2028, 2, 29)) == date(2029, 2, 28)


def test_the_change_notice_is_timely_through_24_hours_and_late_a_minute_after() -> None:
    changed = datetime(2026, 5, 4, 14, 0, tzinfo=UTC)
    assert r.change_notice_due(changed) == datetime(2026, 5, 5, 14, 0, tzinfo=UTC)
    assert not r.change_notice_late(changed, changed + timedelta(hours=23, minutes=59))
    assert not r.change_notice_late(changed, changed + timedelta(hours=24))
    assert r.change_notice_late(changed, changed + timedelta(hours=24, minutes=1))


def test_a_suspension_may_be_petitioned_through_the_tenth_day_and_is_revoked_the_eleventh() -> None:
    suspended = date(2026, 6, 1)
    assert r.petition_timely(suspended, date(2026, 6, 10))  # the day before the last
    assert r.petition_timely(suspended, date(2026, 6, 11))  # the 10th day following
    assert not r.petition_timely(suspended, date(2026, 6, 12))
    assert r.petition_last_day(suspended) == date(2026, 6, 11)
    assert r.automatic_revocation_day(suspended) == date(2026, 6, 12)


@pytest.mark.parametrize(
    ("persons", "sets"), [(0, 0), (1, 1), (9, 1), (10, 1), (11, 2), (20, 2), (21, 3)]
)
def test_one_set_of_fixtures_serves_ten_persons_or_a_fraction(persons: int, sets: int) -> None:
    assert r.sets_required(persons) == sets


def test_ten_persons_pass_with_one_set_and_eleven_need_two() -> None:
    assert r.fixture_shortfalls(10, 1, 1, 1) == []
    found = r.fixture_shortfalls(11, 1, 2, 1)
    assert [s.section for s in found] == ["140-10E", "140-10E"]
    assert "11 persons need 2 flush water closet(s)" in found[0].text
    assert "bathtub or shower" in found[1].text
    assert r.fixture_shortfalls(11, 2, 2, 2) == []


def _room(name: str, area: str, over: int, under: int = 0) -> LicenceRoom:
    return LicenceRoom(
        licence_id=1,
        name=name,
        floor_area=Decimal(area),
        sleeping=True,
        occupants_over_12=over,
        occupants_under_12=under,
    )


def test_a_sleeping_room_needs_80_sq_ft_for_one_and_40_each_for_two_or_more() -> None:
    assert r.sleeping_room_shortfalls([_room("1", "80", 1), _room("2", "80", 2)]) == []
    found = r.sleeping_room_shortfalls([_room("3", "79.5", 1), _room("4", "79", 2)])
    assert [(s.section, s.room) for s in found] == [("140-10G", "3"), ("140-10G", "4")]
    assert "requires 80 sq ft" in found[0].text
    # two children under 12: 60 sq ft (140-7B as 140-10G computes it)
    assert r.sleeping_room_shortfalls([_room("5", "60", 0, 2)]) == []


def test_a_room_not_for_sleeping_is_not_checked_and_takes_no_sleepers() -> None:
    kitchen = LicenceRoom(licence_id=1, name="kitchen", floor_area=Decimal(30), sleeping=False)
    assert r.sleeping_room_shortfalls([kitchen]) == []
    with pytest.raises(Exception, match="only a sleeping room"):
        r.check_room("kitchen", Decimal(30), False, 1, 0)


def test_the_register_reads_expired_from_the_date() -> None:
    assert r.status_on(LicenceState.ISSUED, date(2027, 3, 2), date(2027, 3, 2)) == "in force"
    assert r.status_on(LicenceState.ISSUED, date(2027, 3, 2), date(2027, 3, 3)) == "expired"
    assert r.status_on(LicenceState.SUSPENDED, date(2027, 3, 2), date(2026, 7, 1)) == "suspended"


def test_expiring_within_60_days_counts_both_ends() -> None:
    today = date(2027, 1, 1)
    assert r.expiring_within(today, today)
    assert r.expiring_within(today + timedelta(days=60), today)
    assert not r.expiring_within(today + timedelta(days=61), today)


def test_licence_numbers_are_rh_year_and_four_digits() -> None:
    assert r.licence_number(2026, 1) == "RH-2026-0001"
    with pytest.raises(ValueError):
        r.licence_number(2026, 0)


def test_the_register_says_when_a_licence_in_force_expires_within_the_60_day_watch() -> None:
    last = date(2027, 1, 1)
    on = r.status_on
    assert on(LicenceState.ISSUED, last, last - timedelta(days=61), watch_days=60) == "in force"
    assert (
        on(LicenceState.ISSUED, last, last - timedelta(days=60), watch_days=60)
        == "in force — expires 01/01/2027"
    )
    assert on(LicenceState.ISSUED, last, last, watch_days=60) == "in force — expires 01/01/2027"
    assert on(LicenceState.ISSUED, last, date(2027, 1, 2), watch_days=60) == "expired"
    # the certificate asks without the watch: plain "in force" (no stamp on it)
    assert on(LicenceState.ISSUED, last, last - timedelta(days=10)) == "in force"


def test_the_register_says_a_warned_licence_is_in_force_with_its_correction_date() -> None:
    last, fix = date(2027, 6, 30), date(2026, 12, 15)
    on = r.status_on
    for today in (date(2026, 12, 1), fix):  # the correction date ahead, and its day
        assert (
            on(LicenceState.ISSUED, last, today, correct_by=fix, watch_days=60)
            == "in force — warned, correct by 12/15/2026"
        )
    assert (
        on(LicenceState.ISSUED, last, date(2026, 12, 16), correct_by=fix, watch_days=60)
        == "in force — warned, correct by 12/15/2026, past due"
    )
    assert (  # warned and expiring: both
        on(LicenceState.ISSUED, date(2027, 1, 1), date(2026, 12, 1), correct_by=fix, watch_days=60)
        == "in force — warned, correct by 12/15/2026; expires 01/01/2027"
    )
    assert on(LicenceState.SUSPENDED, last, date(2026, 12, 20), correct_by=fix) == "suspended"
