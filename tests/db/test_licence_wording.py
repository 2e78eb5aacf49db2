"""A message that begins with a licence number keeps the number as it is printed on the
licence: "RH-2026-0001 is ended, not in force", never "Rh-2026-0001"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from db.database import Database
from desk.clock import FixedClock
from desk.errors import RuleViolation
from desk.services.enforcement import licences as svc
from desk.text import sentence_start
from tests.db.test_rooming_licences import TODAY, _issued, _office


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(TODAY)


def test_a_refusal_starting_with_the_licence_number_keeps_its_capitals(
    database: Database, clock: FixedClock
) -> None:
    o = _office(database, clock)
    issued = _issued(o)
    assert issued.number == "RH-2026-0001"
    changed = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    svc.record_change(
        database.uow(), clock, o.clerk, issued.licence_id, changed, "Sam Successor", "7 Ash St"
    )
    with pytest.raises(RuleViolation) as e:
        svc.suspend_licence(database.uow(), clock, o.inspector, issued.licence_id)
    assert str(e.value) == "RH-2026-0001 is ended, not in force"


def test_a_sentence_start_upper_cases_the_first_letter_only() -> None:
    assert sentence_start("the application #7 is ended") == "The application #7 is ended"
    assert sentence_start("no timely petition (140-10D)") == "No timely petition (140-10D)"
    assert sentence_start("permit B-2026-0001 is void") == "Permit B-2026-0001 is void"
    assert sentence_start("") == ""
