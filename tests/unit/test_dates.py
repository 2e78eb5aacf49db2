"""One date format wherever a person reads a date: the office's short date, '03/02/2026'
(desk.dates), which the lists, the messages of the rules and the printouts all use."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from desk.dates import short_date, short_time, short_timestamp
from desk.domain import licensing
from desk.domain.inspections import correction_order, extend_correction_order
from desk.domain.sureties import Deposit, refund_check
from desk.errors import ValidationError
from ui.presenters.formatting import format_date, format_timestamp


def test_the_short_date_is_month_day_year_with_leading_zeros() -> None:
    assert short_date(date(2026, 3, 2)) == "03/02/2026"
    assert short_date(date(2026, 12, 31)) == "12/31/2026"
    assert short_date(date(987, 1, 5)) == "01/05/0987"


def test_the_short_time_is_a_12_hour_clock_without_a_leading_zero() -> None:
    assert short_time(datetime(2026, 3, 2, 0, 0)) == "12:00 AM"
    assert short_time(datetime(2026, 3, 2, 9, 5)) == "9:05 AM"
    assert short_time(datetime(2026, 3, 2, 12, 30)) == "12:30 PM"
    assert short_time(datetime(2026, 3, 2, 23, 59)) == "11:59 PM"


def test_the_short_timestamp_reads_in_the_zone_the_time_carries() -> None:
    assert short_timestamp(datetime(2026, 3, 2, 14, 30)) == "03/02/2026 2:30 PM"
    central = timezone(timedelta(hours=-6))
    stored = datetime(2026, 3, 3, 3, 5, tzinfo=UTC)  # 9:05 PM the day before in Wisconsin
    assert short_timestamp(stored) == "03/03/2026 3:05 AM"
    assert short_timestamp(stored.astimezone(central)) == "03/02/2026 9:05 PM"


def test_the_lists_format_dates_by_the_same_rule() -> None:
    assert format_date(date(2026, 3, 2)) == short_date(date(2026, 3, 2)) == "03/02/2026"
    assert format_date(None) == ""
    central = timezone(timedelta(hours=-6))
    stored = datetime(2026, 3, 3, 3, 5, tzinfo=UTC)
    assert format_timestamp(stored, central) == "03/02/2026 9:05 PM"


# --- messages a clerk reads carry the short date ------------------------------------------------


def test_a_correction_order_reads_correct_by_and_refuses_an_earlier_extension_by_date() -> None:
    order = correction_order("building", date(2026, 3, 2))
    assert order.status(date(2026, 3, 10)) == "Correct by 04/01/2026 (15.1.90(b)(1))"
    assert order.status(date(2026, 4, 3)) == (
        "Overdue since 04/02/2026 (2 days): a stop-work order may be served (15.1.90(b)(2))"
    )
    with pytest.raises(ValidationError) as e:
        extend_correction_order(order, date(2026, 3, 31), "more time for the inspection")
    assert str(e.value) == "correct by: must be after 04/01/2026"


def test_a_hearing_too_late_names_the_complaint_and_the_last_day_in_short_dates() -> None:
    with pytest.raises(ValidationError) as e:
        licensing.check_hearing(date(2026, 3, 2), date(2026, 4, 15), date(2026, 4, 1), "both")
    assert e.value.message.startswith(
        "04/15/2026 is more than 30 days after the complaint filed 03/02/2026; the hearing "
        "must be held by 04/01/2026 (15.1.78(b))."
    )


def test_a_street_deposit_refund_dated_before_the_engineers_order_is_refused_by_date() -> None:
    held = Deposit(
        amount=Decimal("500.00"),
        received_on=date(2026, 3, 2),
        depositor="Kowalski Plumbing Inc",
        completed_on=date(2026, 3, 10),
        ordered_on=date(2026, 9, 8),
    )
    assert refund_check(held, date(2026, 9, 4)) == [
        "The refund date 09/04/2026 is before the City Engineer's order of 09/08/2026"
    ]
