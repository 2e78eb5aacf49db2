"""The Qt-free presenters of the permit window's actions, issue dialog, Parties and Fees tabs."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from db.permit_queries import AssessedFeeLine
from desk.domain.credentials import HeldCredential
from desk.domain.enums import CredentialKind, PartyRole, PermitStatus, Role
from desk.domain.kinds import kind_by_code
from desk.domain.lifecycle import Deadline
from desk.domain.model import Actor
from desk.domain.readmodels import PartyLine
from ui.presenters.issuance import IssuancePresenter, may_issue
from ui.presenters.permit_actions import (
    available_actions,
    deadline_choices,
    deadline_rows,
    deadlines_note,
    no_action_text,
)
from ui.presenters.permit_fees import NO_FEES, PermitFeesPresenter
from ui.presenters.permit_parties import NOT_NEEDED, PermitPartiesPresenter
from ui.presenters.views import ViewSpec, parse_view

S = PermitStatus


def actor(*roles: Role) -> Actor:
    return Actor(user_id=1, username="u", roles=frozenset(roles))


def labels(status: PermitStatus, who: Actor, *, has_deadlines: bool = True) -> list[list[str]]:
    return [
        [a.label.replace("&", "") for a in group]
        for group in available_actions(status, who, has_deadlines=has_deadlines)
    ]


# --- the Actions menu -------------------------------------------------------------------------


def test_an_inspector_moves_an_application_along_or_ends_it() -> None:
    assert labels(S.APPLIED, actor(Role.INSPECTOR)) == [
        ["Start review…", "Approve…"],
        ["Withdrawn by the applicant…", "Deny…"],
    ]
    assert labels(S.IN_REVIEW, actor(Role.INSPECTOR)) == [
        ["Approve…", "Back to applied…"],
        ["Withdrawn by the applicant…", "Deny…"],
    ]


def test_a_live_permit_offers_the_orders_only_to_the_inspector() -> None:
    assert labels(S.WORK_STARTED, actor(Role.INSPECTOR)) == [
        ["Completed (finaled)…"],
        ["Extend a deadline…", "Stop-work order…"],
        ["Revoke…", "Mark expired…", "Void…"],
    ]
    assert labels(S.WORK_STARTED, actor(Role.CLERK)) == []
    assert labels(S.ISSUED, actor(Role.CLERK)) == [["Work started…"]]
    assert labels(S.ISSUED, actor(Role.TREASURER)) == []


def test_a_permit_on_hold_comes_off_hold_only_by_lifting_the_order() -> None:
    # 15.1.12: removed only by the inspector's written notice, not by a bare status change.
    assert labels(S.ON_HOLD, actor(Role.INSPECTOR)) == [
        ["Extend a deadline…", "Lift the stop-work order…"],
        ["Revoke…", "Mark expired…", "Void…"],
    ]
    assert labels(S.ON_HOLD, actor(Role.CLERK)) == []


def test_extend_is_offered_only_when_the_permit_has_a_deadline() -> None:
    groups = labels(S.ISSUED, actor(Role.INSPECTOR), has_deadlines=False)
    assert "Extend a deadline…" not in [x for g in groups for x in g]


def test_an_ended_permit_has_no_action_and_says_why() -> None:
    for status in (S.COMPLETED, S.EXPIRED, S.REVOKED, S.VOID, S.WITHDRAWN, S.DENIED):
        assert labels(status, actor(Role.ADMINISTRATOR)) == []
    assert no_action_text(S.COMPLETED).startswith("A completed permit has no further steps.")
    assert "fees still due are taken on the Fees tab" in no_action_text(S.COMPLETED)
    assert no_action_text(S.ISSUED) == "Your role has no action on this permit."


def test_the_menu_mnemonics_do_not_repeat() -> None:
    for status in PermitStatus:
        groups = available_actions(status, actor(Role.ADMINISTRATOR), has_deadlines=True)
        keys = [a.label[a.label.index("&") + 1].lower() for g in groups for a in g]
        assert len(keys) == len(set(keys)), (status, keys)


def test_the_deadlines_read_in_words_with_their_dates() -> None:
    found = [
        Deadline("start", "Work must start", date(2026, 7, 2), "15.1.8(b)"),
        Deadline("complete", "All work completed", date(2027, 12, 1), "15.1.8(c)", extended=True),
    ]
    assert [c.text for c in deadline_choices(found)] == [
        "Work must start — by 07/02/2026 (15.1.8(b))",
        "All work completed — by 12/01/2027 (15.1.8(c)) — extended",
    ]
    rows = deadline_rows(found, date(2026, 7, 3))
    assert [(r.label, r.due, r.note) for r in rows] == [
        ("Work must start", "07/02/2026", "passed"),
        ("All work completed", "12/01/2027", "extended"),
    ]
    assert deadlines_note(S.APPLIED, False, False) == (
        "The deadlines start to run when the permit is issued."
    )
    assert deadlines_note(S.COMPLETED, True, True) == "No deadline runs: the permit is completed."


# --- the issue dialog -------------------------------------------------------------------------


def test_issue_is_disabled_and_counts_the_unmet_conditions() -> None:
    p = IssuancePresenter("Application #12")
    assert not p.can_issue  # not checked yet
    p.set_shortfalls(date(2026, 3, 2), ["Survey: b. dimensions of the lot not received (x)"])
    assert not p.can_issue
    assert p.issue_text == "1 condition is not met"
    assert p.summary == "On 03/02/2026, 1 condition is not met:"
    assert p.lines == ("✗  Survey: b. dimensions of the lot not received (x)",)
    p.set_shortfalls(date(2026, 3, 2), ["a", "b", "c"])
    assert p.issue_text == "3 conditions are not met"
    p.set_shortfalls(date(2026, 3, 3), [])
    assert p.can_issue
    assert p.issue_text == "&Issue permit"
    assert p.summary == "✓  Every condition for issuance is met on 03/03/2026."
    p.issued("2026-0007")
    assert not p.can_issue
    assert p.result_text == "Issued as permit 2026-0007"


def test_only_an_inspector_may_issue_and_only_an_open_application() -> None:
    assert may_issue(actor(Role.INSPECTOR), S.APPLIED)
    assert may_issue(actor(Role.ADMINISTRATOR), S.APPROVED)
    assert not may_issue(actor(Role.CLERK), S.APPLIED)
    for status in (S.ISSUED, S.WITHDRAWN, S.DENIED, S.VOID, S.REVOKED):
        assert not may_issue(actor(Role.INSPECTOR), status)


# --- Parties ------------------------------------------------------------------------------------


def test_each_credential_is_marked_whether_it_fits_the_role_on_the_day() -> None:
    kind = kind_by_code("glendale", "RES-NEW-DWELLING")
    parties = (
        PartyLine(PartyRole.BUILDING_OWNER, 1, "Anna Schmidt", "6120 N Port Washington Rd", ""),
        PartyLine(PartyRole.CONTRACTOR, 2, "Badger State Builders LLC", "", "414-555-0300"),
    )
    held = {
        2: [
            HeldCredential(CredentialKind.DWELLING_CONTRACTOR, "DC-1100", date(2026, 3, 2)),
            HeldCredential(CredentialKind.MASTER_PLUMBER, "MP-4", None),
        ]
    }
    on_the_day = PermitPartiesPresenter(parties, held, kind, date(2026, 3, 2))
    owner, builder = on_the_day.cards
    assert (owner.needs, owner.ok, owner.phone, owner.credentials) == (NOT_NEEDED, True, "—", ())
    assert builder.needs == "Needs a dwelling contractor certification (Wis. Stat. 101.654)."
    assert [(c.mark, c.kind, c.number, c.expires, c.note) for c in builder.credentials] == [
        ("✓", "Dwelling contractor", "DC-1100", "expires 03/02/2026", "fits this role"),
        ("✗", "Master plumber", "MP-4", "no expiry date", "not for this role"),
    ]
    assert on_the_day.summary == (
        "Credentials checked on 03/02/2026: every party may take its role."
    )

    day_after = PermitPartiesPresenter(parties, held, kind, date(2026, 3, 3))
    builder = day_after.cards[1]
    assert not builder.ok
    assert builder.credentials[0].mark == "✗"
    assert builder.credentials[0].note == "expired"
    assert builder.verdict == (
        "Badger State Builders LLC: dwelling contractor certification DC-1100 expired "
        "03/02/2026 (Wis. Stat. 101.654)"
    )
    assert day_after.summary == (
        "Credentials checked on 03/03/2026: not in order for Badger State Builders LLC."
    )


def test_an_hvac_contractor_needs_an_hvac_registration() -> None:
    kind = kind_by_code("glendale", "HVAC")
    p = PermitPartiesPresenter(
        (PartyLine(PartyRole.HVAC_CONTRACTOR, 3, "Kettle Moraine HVAC Co.", "", ""),),
        {},
        kind,
        date(2026, 3, 2),
    )
    (card,) = p.cards
    assert card.needs == "Needs an HVAC contractor registration (SPS 305)."
    assert (
        card.verdict
        == "Kettle Moraine HVAC Co.: no HVAC contractor registration on record (SPS 305)"
    )


# --- Fees --------------------------------------------------------------------------------------


def line(
    code: str,
    charged: str,
    *,
    deposit: bool = False,
    quantity: Decimal | None = None,
    entered: Decimal | None = None,
) -> AssessedFeeLine:
    return AssessedFeeLine(
        code=code,
        description=code.title(),
        section="15.1.21",
        quantity=quantity,
        entered_amount=entered,
        amount=Decimal(charged),
        deposit=deposit,
        note="",
        assessed_on=date(2026, 3, 2),
        version_label="Glendale 15.1.21 (shipped)",
        version_from=date(2000, 1, 1),
    )


def test_the_fee_lines_show_what_was_entered_and_the_totals_keep_deposits_apart() -> None:
    p = PermitFeesPresenter(
        [
            line("RES-NEW", "404.00", quantity=Decimal("2400")),
            line("PLUMBING", "168.00", entered=Decimal("120.00")),
            line("DEPOSIT-STREET", "500.00", deposit=True),
        ]
    )
    assert [r.cells() for r in p.rows] == [
        ("RES-NEW", "Res-New", "15.1.21", "2,400", "$404.00"),
        ("PLUMBING", "Plumbing", "15.1.21", "$120.00", "$168.00"),
        ("DEPOSIT-STREET", "Deposit-Street — deposit", "15.1.21", "—", "$500.00"),
    ]
    assert [(t.label, t.amount, t.grand) for t in p.totals()] == [
        ("Fees", "$572.00", False),
        ("Deposits held (not fees)", "$500.00", False),
        ("Total", "$1,072.00", True),
    ]
    assert p.source == (
        "3 lines assessed 03/02/2026, priced with the fee schedule "
        "“Glendale 15.1.21 (shipped)”, in effect from 01/01/2000."
    )


def test_a_permit_without_fee_lines_says_so() -> None:
    p = PermitFeesPresenter([])
    assert p.empty and p.totals() == () and p.source == ""
    assert NO_FEES.startswith("No fees are assessed on this permit.")
    only_fees = PermitFeesPresenter([line("RES-NEW", "404.00", quantity=Decimal("1.5"))])
    assert only_fees.rows[0].quantity == "1.5"
    assert [(t.label, t.amount) for t in only_fees.totals()] == [("Total fees", "$404.00")]


# --- screenshots ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("permit:2026-0001:parties", ViewSpec("permit", "2026-0001", "parties")),
        ("permit:2026-0001:fees", ViewSpec("permit", "2026-0001", "fees")),
        ("permit:#12", ViewSpec("permit", "", "summary", 12)),
        ("permit:#12:issue", ViewSpec("permit", "", "issue", 12)),
    ],
)
def test_a_permit_is_named_by_number_or_by_id_for_a_screenshot(text: str, spec: ViewSpec) -> None:
    assert parse_view(text) == spec


def test_a_bad_id_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="'#x' in view 'permit:#x' is not an id"):
        parse_view("permit:#x")
