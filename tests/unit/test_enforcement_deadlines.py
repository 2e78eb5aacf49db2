"""The day arithmetic of Hudson 140-3 at its edges, and the stage a notice is at."""

from __future__ import annotations

from datetime import date

import pytest

from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.enforcement import deadlines, rules
from desk.enforcement.model import AddresseeRole, Decision, NoticeKind
from desk.enforcement.rules import NoticeFacts, Stage
from desk.errors import RuleViolation, ValidationError
from desk.housing.codes import load_housing_code

S = date(2026, 3, 2)  # the day of service


def test_a_petition_filed_nine_days_after_service_is_timely() -> None:
    assert deadlines.petition_timely(S, date(2026, 3, 11))


def test_a_petition_filed_on_the_tenth_day_after_service_is_timely() -> None:
    assert deadlines.petition_last_day(S) == date(2026, 3, 12)
    assert deadlines.petition_timely(S, date(2026, 3, 12))


def test_a_petition_filed_on_the_eleventh_day_after_service_is_late() -> None:
    assert not deadlines.petition_timely(S, date(2026, 3, 13))


def test_the_window_runs_across_a_month_end_in_calendar_days() -> None:
    assert deadlines.petition_last_day(date(2026, 2, 24)) == date(2026, 3, 6)  # a Friday
    # Saturday 03/07: the office is closed, the petition may be filed Monday (990.001(4)(c)).
    assert deadlines.petition_last_day(date(2026, 2, 25)) == date(2026, 3, 9)


def test_the_notice_becomes_an_order_the_day_after_the_last_addressees_window() -> None:
    assert deadlines.automatic_order_day([S, date(2026, 3, 3)]) == date(2026, 3, 14)
    # 03/15 is a Sunday: the window served 03/05 closes Monday 03/16, the order is 03/17.
    assert deadlines.automatic_order_day([S, date(2026, 3, 5)]) == date(2026, 3, 17)
    with pytest.raises(ValueError):
        deadlines.automatic_order_day([])


def test_a_correction_date_is_the_inspection_day_plus_the_items_days() -> None:
    code = load_housing_code("hudson-140")
    stairs, heat = code.standard("140-6C"), code.standard("140-5D")
    assert deadlines.correction_date(S, stairs.days) == date(2026, 4, 1)  # 30 days
    assert deadlines.correction_date(S, heat.days) == date(2026, 3, 3)  # 1 day
    assert deadlines.correction_date(S, 0) == S


def test_an_emergency_order_is_effective_the_day_issued_and_a_council_order_the_day_decided() -> (
    None
):
    assert deadlines.emergency_order_day(S) == S
    assert deadlines.council_order_day(S) == S


def test_a_violation_is_past_due_the_day_after_its_correction_date() -> None:
    assert not deadlines.past_due(S, S)
    assert deadlines.past_due(S, date(2026, 3, 3))


def _facts(
    *served: date | None,
    petitions: int = 0,
    decision: Decision | None = None,
    order: bool = False,
    kind: NoticeKind = NoticeKind.NOTICE,
) -> NoticeFacts:
    return NoticeFacts(kind, list(served), petitions, decision, order)


def test_a_notice_is_due_for_an_order_only_once_every_addressees_window_has_closed() -> None:
    two = _facts(S, date(2026, 3, 3))
    assert rules.stage(two, date(2026, 3, 13)) is Stage.WINDOW_OPEN
    assert rules.due_for_order(two, date(2026, 3, 13)) is None
    assert rules.stage(two, date(2026, 3, 14)) is Stage.DUE_FOR_ORDER
    assert rules.due_for_order(two, date(2026, 3, 14)) == date(2026, 3, 14)


def test_an_addressee_not_served_keeps_the_notice_from_becoming_an_order() -> None:
    f = _facts(S, None)
    assert rules.stage(f, date(2026, 6, 1)) is Stage.NOT_SERVED
    assert rules.due_for_order(f, date(2026, 6, 1)) is None


def test_a_timely_petition_sends_the_notice_to_the_council_instead() -> None:
    f = _facts(S, petitions=1)
    assert rules.stage(f, date(2026, 6, 1)) is Stage.HEARING
    assert rules.due_for_order(f, date(2026, 6, 1)) is None
    assert rules.stage(_facts(S, petitions=1, decision=Decision.WITHDRAW), S) is Stage.WITHDRAWN


def test_an_emergency_order_is_an_order_at_once_and_never_swept() -> None:
    f = _facts(None, kind=NoticeKind.EMERGENCY, order=True)
    assert rules.stage(f, S) is Stage.ORDER
    assert rules.due_for_order(f, date(2026, 6, 1)) is None


def test_the_earliest_service_governs_registered_mail_returned_included() -> None:
    # 140-3A(4): mailed 03/02 and returned unclaimed 03/09, then posted 03/10: served 03/02.
    assert rules.effective_service([S, date(2026, 3, 10)]) == S
    assert rules.effective_service([]) is None


def test_an_owner_is_served_when_the_owners_agent_is() -> None:
    owner, agent = AddresseeRole.OWNER, AddresseeRole.AGENT
    occupant = AddresseeRole.OCCUPANT
    served = rules.served_with_agent([(owner, None), (agent, S), (occupant, None)])
    assert served == [S, S, None]
    later = rules.served_with_agent([(owner, date(2026, 3, 9)), (agent, S)])
    assert later == [S, S]  # the earliest governs


def test_a_violation_cannot_be_found_not_corrected_before_its_correction_date() -> None:
    with pytest.raises(RuleViolation, match="140-3A"):
        rules.check_finding(date(2026, 4, 1), date(2026, 3, 31), False, "140-6C")
    rules.check_finding(date(2026, 4, 1), date(2026, 4, 1), False, "140-6C")
    rules.check_finding(date(2026, 4, 1), date(2026, 3, 10), True, "140-6C")


def test_a_modification_names_new_dates_and_only_a_modification_does() -> None:
    with pytest.raises(ValidationError):
        rules.check_decision(Decision.MODIFY, {}, [1], S)
    with pytest.raises(ValidationError):
        rules.check_decision(Decision.SUSTAIN, {1: S}, [1], S)
    with pytest.raises(ValidationError):
        rules.check_decision(Decision.MODIFY, {2: S}, [1], S)
    rules.check_decision(Decision.MODIFY, {1: S}, [1], S)


def test_cases_are_numbered_ce_year_and_four_digits() -> None:
    assert rules.case_number(2026, 7) == "CE-2026-0007"
    assert rules.case_number(2026, 12345) == "CE-2026-12345"


def test_the_municipality_enforces_hudson_140_unless_it_says_otherwise() -> None:
    assert rules.housing_code_key({}) == "hudson-140"
    assert rules.housing_code_key({"housing_code": "ch-512"}) == "ch-512"


def test_the_clerk_takes_complaints_and_petitions_and_the_inspector_decides() -> None:
    clerk = Actor(1, "carol", frozenset({Role.CLERK}))
    inspector = Actor(2, "ivan", frozenset({Role.INSPECTOR}))
    for p in (Permission.TAKE_COMPLAINT, Permission.RECORD_PETITION):
        assert allowed(clerk, p)
    for p in (
        Permission.OPEN_CASE,
        Permission.INSPECT_HOUSING,
        Permission.ISSUE_HOUSING_NOTICE,
        Permission.SCHEDULE_HEARING,
        Permission.RECORD_COUNCIL_DECISION,
        Permission.RECORD_ESCALATION,
        Permission.CLOSE_CASE,
        Permission.VIEW_COMPLAINANT,
    ):
        assert allowed(inspector, p) and not allowed(clerk, p)
