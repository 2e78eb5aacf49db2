"""A Ch. 512 municipality (Westby) follows Wis. Stat. ch. 68, not Hudson's 140-3: a request for
review within 30 days of notice (68.08), the decision on review within 15 days of receipt
(68.09(3)), an appeal within 30 days of notice of that decision (68.10(2)), its hearing within
15 days with notice at least 10 days before (68.11(1)), the final determination within 20 days
(68.12(1)); each last day counted by Wis. Stat. 990.001(4). Hudson cases keep their 10 days."""

from __future__ import annotations

from datetime import date

import pytest

from db import enforcement_queries as eq
from db.database import Database
from db.enforcement_case_view import case_facts
from desk.clock import FixedClock
from desk.enforcement.model import AddresseeRole, Channel, Decision, ServiceMethod
from desk.errors import RuleViolation, ValidationError
from desk.services import municipality as municipality_service
from desk.services.enforcement import complaints, inspections, notices, petitions, review
from desk.services.enforcement.sweep import sweep_notices
from tests.db.test_ch512_municipality import OWNER, Westby, westby
from ui.presenters.enforcement import case_stage


def served_notice(w: Westby, served_on: date) -> tuple[int, int, int]:
    """A case with 512-11K (30 days to correct) on notice, served by registered mail."""
    uow, clock = w.db.uow, w.clock
    clock.set(served_on)
    taken = complaints.take_complaint(
        uow(), clock, w.clerk, w.mid, w.parcel_id, Channel.PHONE, "Broken window"
    )
    case_id = taken.case.case_id
    found = inspections.record_inspection(
        uow(),
        clock,
        w.inspector,
        case_id,
        served_on,
        found=[inspections.FoundViolation("512-11K", unit="2", room="bedroom")],
    )
    issued = notices.issue_notice(
        uow(),
        clock,
        w.inspector,
        case_id,
        (OWNER,),
        [notices.NoticeLine(found.violation_ids[0], "Replace the pane")],
        "The bedroom window is broken.",
    )
    (addressee_id,) = issued.addressee_ids
    notices.record_service(
        uow(), clock, w.clerk, addressee_id, ServiceMethod.REGISTERED_MAIL, served_on, "Carol"
    )
    return case_id, issued.notice_id, addressee_id


def request(w: Westby, addressee_id: int, on: date) -> petitions.PetitionRecorded:
    w.clock.set(max(on, w.clock.today()))
    return petitions.record_petition(
        w.db.uow(), w.clock, w.clerk, addressee_id, on, "Ole Hanson", "The window is fine."
    )


def timeline_texts(w: Westby, case_id: int) -> list[str]:
    with w.db.read() as conn:
        return [e.text for e in eq.timeline(conn, case_id)]


def test_a_request_for_review_on_day_30_is_timely_and_on_day_31_late(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    _, _, first = served_notice(w, date(2026, 3, 2))  # Monday; day 30 is Wednesday April 1
    assert request(w, first, date(2026, 4, 1)).timely
    assert request(w, first, date(2026, 4, 1)).last_day == date(2026, 4, 1)
    case_id, _, second = served_notice(w, date(2026, 3, 2))  # a second notice, same case
    late = request(w, second, date(2026, 4, 2))
    assert not late.timely and late.last_day == date(2026, 4, 1)
    texts = timeline_texts(w, case_id)
    assert any("a request for review may be filed through 04/01/2026" in t for t in texts)
    assert any(t.startswith("Request for review filed by Ole Hanson (late)") for t in texts)


def test_with_no_request_the_determination_is_an_order_on_day_31_with_the_68_08_words(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    case_id, _, _ = served_notice(w, date(2026, 3, 2))
    clock.set(date(2026, 4, 1))  # day 30: the request may still be filed
    assert sweep_notices(database.uow(), clock, w.mid) == []
    with database.read() as conn:
        facts = case_facts(conn, [case_id])[case_id]
    stage = case_stage(facts, clock.today())
    assert stage.words == "review may be requested until 04/01/2026"
    clock.set(date(2026, 4, 2))
    (made,) = sweep_notices(database.uow(), clock, w.mid)
    assert made.effective_on == date(2026, 4, 2)
    assert made.reason == "no review requested within 30 days (Wis. Stat. 68.08)"
    assert (
        "The determination became an order: no review requested within 30 days"
        in timeline_texts(w, case_id)
    )


def test_a_last_day_on_a_saturday_or_a_holiday_is_extended(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    # Served Thursday March 5: day 30 is Saturday April 4, the office closed: Monday April 6.
    served_notice(w, date(2026, 3, 5))
    # Served Saturday April 25: day 30 is Memorial Day, May 25: Tuesday May 26.
    _, _, holiday_addressee = served_notice(w, date(2026, 4, 25))  # a second notice
    clock.set(date(2026, 4, 6))
    assert sweep_notices(database.uow(), clock, w.mid) == []
    clock.set(date(2026, 4, 7))
    (made,) = sweep_notices(database.uow(), clock, w.mid)
    assert (made.effective_on, made.reason[:23]) == (date(2026, 4, 7), "no review requested wit")
    assert request(w, holiday_addressee, date(2026, 5, 26)).timely
    clock.set(date(2026, 5, 27))
    assert sweep_notices(database.uow(), clock, w.mid) == []


def test_the_review_decision_is_due_15_days_after_receipt_and_a_late_one_is_warned(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    case_id, notice_id, addressee_id = served_notice(w, date(2026, 3, 2))
    request(w, addressee_id, date(2026, 4, 1))
    with database.read() as conn:
        facts = case_facts(conn, [case_id])[case_id]
    stage = case_stage(facts, date(2026, 4, 2))
    assert stage.words == "review requested, decision due 04/16/2026"
    assert stage.next_on == date(2026, 4, 16)
    # The Council hears no Ch. 512 notice: the municipal authority decides on review.
    with pytest.raises(RuleViolation, match="no hearing before the Common Council"):
        petitions.schedule_hearing(
            database.uow(),
            clock,
            w.inspector,
            notice_id,
            date(2026, 4, 10),
            "City Hall",
            date(2026, 4, 1),
        )
    clock.set(date(2026, 4, 20))
    assert case_stage(facts, clock.today()).warn
    decided = review.record_review_decision(
        database.uow(),
        clock,
        w.inspector,
        notice_id,
        Decision.SUSTAIN,
        clock.today(),
        "The pane is cracked through.",
    )
    assert decided.due == date(2026, 4, 16)
    assert "after its last day, 04/16/2026 (Wis. Stat. 68.09(3))" in decided.warning
    assert decided.order_id is not None
    texts = timeline_texts(w, case_id)
    assert any(
        t.startswith(
            "Decision on review by the municipal authority (the Building Inspector): "
            "determination affirmed"
        )
        for t in texts
    ), texts


def test_a_decision_on_time_carries_no_warning(database: Database, clock: FixedClock) -> None:
    w = westby(database, clock)
    _, notice_id, addressee_id = served_notice(w, date(2026, 3, 2))
    request(w, addressee_id, date(2026, 4, 1))
    clock.set(date(2026, 4, 16))
    decided = review.record_review_decision(
        database.uow(), clock, w.inspector, notice_id, Decision.SUSTAIN, clock.today(), "Stands."
    )
    assert decided.warning == ""


def decided_notice(w: Westby, on: date) -> tuple[int, int]:
    case_id, notice_id, addressee_id = served_notice(w, date(2026, 3, 2))
    request(w, addressee_id, date(2026, 3, 20))
    w.clock.set(on)
    review.record_review_decision(
        w.db.uow(), w.clock, w.inspector, notice_id, Decision.SUSTAIN, on, "It stands."
    )
    return case_id, notice_id


def test_an_appeal_is_timely_within_30_days_of_notice_of_the_decision_on_review(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    # Decided Thursday April 16: day 30 is Saturday May 16, the office closed: Monday May 18.
    _, notice_id = decided_notice(w, date(2026, 4, 16))
    clock.set(date(2026, 5, 19))
    late = review.record_appeal(
        database.uow(), clock, w.clerk, notice_id, date(2026, 5, 19), "Ole Hanson", "Unfair."
    )
    assert not late.timely and late.last_day == date(2026, 5, 18)
    with pytest.raises(RuleViolation, match=r"was late \(Wis. Stat. 68.10\(2\)\)"):
        review.schedule_appeal_hearing(
            database.uow(),
            clock,
            w.inspector,
            late.appeal_id,
            date(2026, 5, 30),
            "City Hall",
            date(2026, 5, 19),
        )
    _, other = decided_notice(w, date(2026, 4, 16))
    clock.set(date(2026, 5, 18))
    timely = review.record_appeal(
        database.uow(), clock, w.clerk, other, date(2026, 5, 18), "Ole Hanson", "Unfair."
    )
    assert timely.timely and timely.hearing_by == date(2026, 6, 2)


def test_a_hearing_too_late_or_noticed_too_short_is_refused_citing_68_11(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    case_id, notice_id = decided_notice(w, date(2026, 4, 1))
    clock.set(date(2026, 4, 20))
    appeal = review.record_appeal(
        database.uow(), clock, w.clerk, notice_id, clock.today(), "Ole Hanson", "Unfair."
    )
    assert appeal.hearing_by == date(2026, 5, 5)  # 15 days of receipt, April 20
    clock.set(date(2026, 4, 27))
    with pytest.raises(ValidationError, match=r"hold it by 05/05/2026 \(Wis. Stat. 68.11\(1\)\)"):
        review.schedule_appeal_hearing(
            database.uow(),
            clock,
            w.inspector,
            appeal.appeal_id,
            date(2026, 5, 6),
            "City Hall",
            date(2026, 4, 21),
        )
    with pytest.raises(ValidationError, match=r"at least 10 days before it \(Wis. Stat. 68.11"):
        review.schedule_appeal_hearing(
            database.uow(),
            clock,
            w.inspector,
            appeal.appeal_id,
            date(2026, 5, 5),
            "City Hall",
            date(2026, 4, 27),  # 8 days before
        )
    review.schedule_appeal_hearing(
        database.uow(),
        clock,
        w.inspector,
        appeal.appeal_id,
        date(2026, 5, 5),
        "City Hall",
        date(2026, 4, 24),  # 11 days before
    )
    with database.read() as conn:
        facts = case_facts(conn, [case_id])[case_id]
    assert case_stage(facts, clock.today()).words == "appeal hearing 05/05/2026"
    # 68.12(1): 20 days of the hearing, May 25, is Memorial Day: Tuesday May 26.
    clock.set(date(2026, 5, 27))
    assert case_stage(facts, clock.today()).words == (
        "appeal heard, final determination due 05/26/2026"
    )
    final = review.record_final_determination(
        database.uow(),
        clock,
        w.inspector,
        appeal.appeal_id,
        Decision.WITHDRAW,
        clock.today(),
        "The window was repaired before the notice.",
    )
    assert final.due == date(2026, 5, 26)
    assert "after its last day, 05/26/2026 (Wis. Stat. 68.12(1))" in final.warning
    with database.read() as conn:
        facts = case_facts(conn, [case_id])[case_id]
    assert case_stage(facts, clock.today()).words == "violations withdrawn"  # reversed: none stands
    texts = timeline_texts(w, case_id)
    assert any(t.startswith("Final determination on the appeal: reversed") for t in texts), texts


def test_the_final_determination_is_due_20_days_after_the_hearing(
    database: Database, clock: FixedClock
) -> None:
    w = westby(database, clock)
    _, notice_id = decided_notice(w, date(2026, 4, 1))
    clock.set(date(2026, 4, 6))
    appeal = review.record_appeal(
        database.uow(), clock, w.clerk, notice_id, clock.today(), "Ole Hanson", "Unfair."
    )
    review.schedule_appeal_hearing(
        database.uow(),
        clock,
        w.inspector,
        appeal.appeal_id,
        date(2026, 4, 17),
        "City Hall",
        date(2026, 4, 6),
    )
    clock.set(date(2026, 5, 7))  # Thursday May 7: 20 days after Friday April 17
    final = review.record_final_determination(
        database.uow(),
        clock,
        w.inspector,
        appeal.appeal_id,
        Decision.SUSTAIN,
        clock.today(),
        "Affirmed.",
    )
    assert (final.due, final.warning) == (date(2026, 5, 7), "")


def test_the_offices_own_periods_are_used_instead(database: Database, clock: FixedClock) -> None:
    w = westby(database, clock)
    municipality_service.update_municipality(
        database.uow(), clock, w.admin, w.mid, {"procedure_days": {"request": 45, "review": 10}}
    )
    with pytest.raises(
        ValidationError, match=r"shorter than the 30 days Wis\. Stat\. 68\.08 gives"
    ):
        municipality_service.update_municipality(
            database.uow(), clock, w.admin, w.mid, {"procedure_days": {"request": 20}}
        )
    case_id, _, addressee_id = served_notice(w, date(2026, 3, 2))
    assert request(w, addressee_id, date(2026, 4, 16)).timely  # day 45
    with database.read() as conn:
        facts = case_facts(conn, [case_id])[case_id]
    assert case_stage(facts, date(2026, 4, 17)).words == (
        "review requested, decision due 04/27/2026"  # 10 days of April 16 (Sunday 26th)
    )


def test_hudson_cases_keep_their_10_days(database: Database, clock: FixedClock) -> None:
    w = westby(database, clock)
    municipality_service.update_municipality(
        database.uow(), clock, w.admin, w.mid, {"housing_code": "hudson-140"}
    )
    _, _, addressee_id = served_notice_hudson(w, date(2026, 3, 2))
    recorded = request(w, addressee_id, date(2026, 3, 12))
    assert recorded.timely and recorded.last_day == date(2026, 3, 12)
    assert not request(w, addressee_id, date(2026, 3, 13)).timely


def served_notice_hudson(w: Westby, served_on: date) -> tuple[int, int, int]:
    uow, clock = w.db.uow, w.clock
    clock.set(served_on)
    taken = complaints.take_complaint(
        uow(), clock, w.clerk, w.mid, w.parcel_id, Channel.PHONE, "Broken window"
    )
    found = inspections.record_inspection(
        uow(),
        clock,
        w.inspector,
        taken.case.case_id,
        served_on,
        found=[inspections.FoundViolation("140-5D")],
    )
    issued = notices.issue_notice(
        uow(),
        clock,
        w.inspector,
        taken.case.case_id,
        (notices.Addressee(AddresseeRole.OWNER, "Ole Hanson", "PO Box 12"),),
        [notices.NoticeLine(found.violation_ids[0], "Repair")],
        "Broken.",
    )
    (addressee_id,) = issued.addressee_ids
    notices.record_service(
        uow(), clock, w.clerk, addressee_id, ServiceMethod.PERSONAL, served_on, "Carol"
    )
    return taken.case.case_id, issued.notice_id, addressee_id
