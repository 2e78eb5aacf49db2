"""The Code enforcement presenter without Qt or a database: the stage a case is at in words
(Hudson 140-3), its next date, the list's filters and empty words, and which step the clerk and
the inspector may take."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from db.enforcement_case_view import (
    AddresseeFact,
    CaseFacts,
    NoticeFact,
    OrderFact,
    PetitionFact,
    ServiceFact,
    ViolationFact,
)
from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.enforcement.model import (
    AddresseeRole,
    Decision,
    NoticeKind,
    OrderKind,
    ServiceMethod,
    ViolationState,
)
from desk.enforcement.readmodels import CaseFilter, CaseRow
from ui.presenters import enforcement as p

CLERK = Actor(2, "carol", frozenset({Role.CLERK}))
INSPECTOR = Actor(3, "ivan", frozenset({Role.INSPECTOR}))
TREASURER = Actor(4, "terry", frozenset({Role.TREASURER}))
D = date
DUE = date(2026, 4, 1)
TODAY = date(2026, 3, 5)


def violation(state: ViolationState = ViolationState.OPEN, by: date = DUE) -> ViolationFact:
    closed = D(2026, 4, 20) if state is not ViolationState.OPEN else None
    return ViolationFact(7, "140-6C", "Stairs and porches", "1", "rear porch", by, state, closed)


def served(
    on: date | None,
    returned: date | None = None,
    role: AddresseeRole = AddresseeRole.OWNER,
    addressee_id: int = 11,
) -> AddresseeFact:
    how = ServiceMethod.REGISTERED_MAIL if returned else ServiceMethod.PERSONAL
    services = (
        (ServiceFact(1, how, on, "Ivan", returned, "unclaimed" if returned else ""),)
        if on is not None
        else ()
    )
    return AddresseeFact(addressee_id, role, "Otto Owner", "9 Elm St", services)


def notice(**kw: object) -> NoticeFact:
    base = NoticeFact(
        id=5,
        kind=NoticeKind.NOTICE,
        issued_on=D(2026, 3, 2),
        violation_ids=(7,),
        addressees=(served(None),),
        petitions=(),
        orders=(),
        hearing_on=None,
        hearing_place="",
        decision=None,
        decided_on=None,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def case(**kw: object) -> CaseFacts:
    base = CaseFacts(
        id=1,
        number="CE-2026-0001",
        parcel_id=9,
        address="412 Vine St",
        opened_on=D(2026, 3, 2),
        housing_code="hudson-140",
        summary="Rear porch stairs broken",
        closed_on=None,
        closed_reason="",
        complaint_ids=(1,),
        inspections=1,
        violations=(violation(),),
        notices=(),
    )
    return replace(base, **kw)  # type: ignore[arg-type]


ORDER = OrderFact(3, OrderKind.AUTOMATIC, D(2026, 3, 13), None, None)


def words(f: CaseFacts, today: date = TODAY) -> tuple[str, date | None]:
    s = p.case_stage(f, today)
    return s.words, s.next_on


def test_the_stage_follows_the_case_from_complaint_to_closed() -> None:
    assert words(case(inspections=0, violations=())) == ("complaint", None)
    assert words(case()) == ("inspected", D(2026, 4, 1))
    assert words(case(), D(2026, 4, 1)) == ("inspected", D(2026, 4, 1))  # the last day
    late = p.case_stage(case(), D(2026, 4, 2))
    assert (late.words, late.next_on, late.warn) == (
        "inspected, correction date passed",
        D(2026, 4, 1),
        True,
    )
    assert words(case(violations=())) == ("inspected, no violation found", None)
    assert words(case(notices=(notice(),))) == ("notice issued, not yet served", None)
    window = case(notices=(notice(addressees=(served(D(2026, 3, 2)),)),))
    # 140-3B: served 03/02, a petition is timely through 03/12.
    assert words(window) == ("petition window open until 03/12/2026", D(2026, 3, 12))
    assert words(window, D(2026, 3, 13)) == ("served, window closed", D(2026, 3, 13))
    ordered = case(notices=(notice(addressees=(served(D(2026, 3, 2)),), orders=(ORDER,)),))
    assert words(ordered, D(2026, 3, 13)) == ("order in force", D(2026, 4, 1))
    assert words(ordered, D(2026, 4, 1)) == ("order in force", D(2026, 4, 1))
    late = p.case_stage(ordered, D(2026, 4, 2))
    assert (late.words, late.warn) == ("past due since 04/01/2026", True)
    fixed = replace(ordered, violations=(violation(ViolationState.CORRECTED),))
    assert words(fixed, D(2026, 4, 20)) == ("violations corrected", None)
    closed = replace(fixed, closed_on=D(2026, 4, 20), closed_reason="corrected")
    assert words(closed) == ("closed (corrected)", None)


def test_a_petition_and_a_hearing_show_the_hearing_date() -> None:
    petition = PetitionFact(11, "Otto Owner", D(2026, 3, 10), True)
    filed = notice(addressees=(served(D(2026, 3, 2)),), petitions=(petition,))
    assert words(case(notices=(filed,))) == ("petition filed, hearing to schedule", None)
    heard = replace(filed, hearing_on=D(2026, 4, 6), hearing_place="City Hall")
    assert words(case(notices=(heard,))) == ("hearing 04/06/2026", D(2026, 4, 6))


def test_registered_mail_returned_unclaimed_still_served_the_notice_the_day_it_was_mailed() -> None:
    returned = notice(addressees=(served(D(2026, 3, 2), returned=D(2026, 3, 9)),))
    f = case(notices=(returned,))
    assert words(f, D(2026, 3, 10)) == ("petition window open until 03/12/2026", D(2026, 3, 12))
    assert words(f, D(2026, 3, 13)) == ("served, window closed", D(2026, 3, 13))
    assert [line.cells[3:] for line in p.notice_rows(f, D(2026, 3, 10))] == [
        (
            "03/02/2026 registered mail (returned unclaimed 03/09/2026: serve again)",
            "open, through 03/12/2026",
        )
    ]


def test_an_owner_served_through_the_agent_is_served() -> None:
    both = notice(
        addressees=(
            served(None),
            served(D(2026, 3, 2), role=AddresseeRole.AGENT, addressee_id=12),
        )
    )
    f = case(notices=(both,))
    assert words(f, D(2026, 3, 13)) == ("served, window closed", D(2026, 3, 13))
    assert next(line.cells[3] for line in p.notice_rows(f, D(2026, 3, 13))) == (
        "03/02/2026 through the agent"
    )


def test_a_window_ending_on_a_saturday_is_open_until_monday() -> None:
    f = case(notices=(notice(addressees=(served(D(2026, 7, 1)),)),))
    assert words(f, D(2026, 7, 13)) == (
        "petition window open until 07/13/2026 (extended: Saturday 07/11/2026 the office is "
        "closed)",
        D(2026, 7, 13),
    )


def test_a_withdrawn_notice_frees_its_violations_for_a_new_one() -> None:
    withdrawn = notice(decision=Decision.WITHDRAW, decided_on=D(2026, 4, 6))
    f = case(notices=(withdrawn,))
    assert p.live_notice(f) is None
    assert [v.id for v in p.noticeable(f)] == [7]


def steps(f: CaseFacts, actor: Actor, today: date = TODAY) -> dict[str, bool]:
    return {s.key: s.may[0] for s in p.case_steps(f, today, actor)}


def test_the_clerk_records_service_and_petitions_the_inspector_the_rest() -> None:
    f = case(notices=(notice(),))
    assert steps(f, CLERK) == {
        "inspection": False,
        "schedule": True,  # the clerk books inspections, as on the permit side
        "notice": False,
        "service": True,
        "returned": False,  # no registered mail to come back
        "correct": False,  # withdrawing a mistake is the inspector's
        "petition": True,
        "hearing": False,
        "decision": False,
        "escalation": False,
        "close": False,
    }
    inspector = steps(f, INSPECTOR)
    assert inspector["inspection"] and inspector["service"] and inspector["close"]
    assert not inspector["petition"]  # the clerk records petitions (140-3B)
    assert not inspector["notice"]  # the violation is on the notice already
    assert not any(steps(f, TREASURER).values())
    why = dict((s.key, s.may[1]) for s in p.case_steps(f, D(2026, 3, 5), CLERK))
    assert why["inspection"].startswith("The inspector")


def test_an_order_past_due_may_be_enforced_and_a_closed_case_takes_no_step() -> None:
    ordered = case(notices=(notice(addressees=(served(D(2026, 3, 2)),), orders=(ORDER,)),))
    assert not steps(ordered, INSPECTOR, D(2026, 4, 1))["escalation"]
    assert steps(ordered, INSPECTOR, D(2026, 4, 2))["escalation"]
    closed = replace(ordered, closed_on=D(2026, 4, 20), closed_reason="withdrawn")
    assert not any(steps(closed, INSPECTOR).values())


def test_who_complained_is_for_the_inspector_only() -> None:
    assert p.complainant_allowed(INSPECTOR)
    assert not p.complainant_allowed(CLERK)
    assert p.take_complaint_allowed(CLERK) == (True, "")
    assert not p.take_complaint_allowed(TREASURER)[0]


def test_the_list_shows_stage_and_next_date_and_says_when_it_is_empty() -> None:
    row = CaseRow(1, "CE-2026-0001", D(2026, 3, 2), "412 Vine St", "047-0001-001", "", 1, None, "")
    asked: list[tuple[CaseFilter, str]] = []

    def fetch(which: CaseFilter, text: str) -> list[CaseRow]:
        asked.append((which, text))
        return [row] if which is CaseFilter.OPEN and not text else []

    ordered = case(notices=(notice(addressees=(served(D(2026, 3, 2)),), orders=(ORDER,)),))
    presenter = p.CaseListPresenter(
        fetch, lambda ids: {1: ordered}, lambda: D(2026, 4, 2), INSPECTOR
    )
    presenter.load()
    assert presenter.rows[0].cells == (
        "CE-2026-0001",
        "412 Vine St",
        "03/02/2026",
        "past due since 04/01/2026",
        "04/01/2026",
        "—",
    )
    assert presenter.rows[0].warn
    assert presenter.summary == "1 case: open"
    presenter.text = "elm"
    presenter.load()
    assert asked[-1] == (CaseFilter.OPEN, "elm")
    assert presenter.empty_text == "No case matches “elm”."
    presenter.text, presenter.which = "", CaseFilter.HEARING_SCHEDULED
    presenter.load()
    assert presenter.empty_text == "No cases: hearing scheduled."
    presenter.which = CaseFilter.OPEN
    assert presenter.empty_text.startswith("No code enforcement cases yet. A complaint (Ctrl+J)")
    assert [label for label, _f in p.FILTERS][:6] == [
        "Open",
        "Notice not yet served",
        "Petition window open",
        "Order past its correction date",
        "Hearing scheduled",
        "Closed this year",
    ]


def test_a_case_whose_only_violation_was_withdrawn_says_withdrawn_not_corrected() -> None:
    gone = violation(state=ViolationState.WITHDRAWN)
    assert words(case(violations=(gone,))) == ("violations withdrawn", None)
    fixed = violation(state=ViolationState.CORRECTED)
    assert words(case(violations=(fixed,))) == ("violations corrected", None)
