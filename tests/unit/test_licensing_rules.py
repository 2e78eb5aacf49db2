"""The rules of City electrical licences (Glendale 15.1.75, 15.1.78) and of condemnations
(Hudson ch. 140 B–D): the licence's term, the 30-day hearing and the 5-day notice, the
60-day vacate date, and the refusal of a licence without a state credential in force."""

from __future__ import annotations

from datetime import date

import pytest

from desk.domain import licensing as rules
from desk.domain.credentials import HeldCredential
from desk.domain.enums import CredentialKind, Role
from desk.domain.licensing import (
    CondemnationLine,
    Ground,
    LicenceStatus,
    Outcome,
    Revocation,
)
from desk.errors import PermissionDenied, RuleViolation, ValidationError

ME = CredentialKind.MASTER_ELECTRICIAN
EC = CredentialKind.ELECTRICAL_CONTRACTOR


# --- the licence ---------------------------------------------------------------------------------


def test_a_licence_without_an_electrical_credential_is_refused_naming_the_field() -> None:
    held = [HeldCredential(CredentialKind.MASTER_PLUMBER, "MP-10234", date(2027, 6, 30))]
    with pytest.raises(ValidationError) as e:
        rules.qualifying_credential("Kowalski Plumbing", "electrical", held, date(2026, 3, 2))
    assert e.value.field == "licensee"
    assert "no state electrical contractor licence or master electrician licence" in str(e.value)
    assert "(on record: master plumber)" in str(e.value)
    assert "15.1.75(a)" in str(e.value)


def test_a_licence_is_refused_when_the_state_credential_expired_before_the_grant_day() -> None:
    held = [HeldCredential(ME, "ME-22041", date(2026, 3, 1))]
    with pytest.raises(ValidationError) as e:
        rules.qualifying_credential("Sparks Electric", "electrical", held, date(2026, 3, 2))
    assert e.value.field == "licensee"
    assert "master electrician licence ME-22041 expired 03/01/2026" in str(e.value)


def test_a_credential_is_in_force_through_its_expiry_day_and_the_longest_one_is_chosen() -> None:
    held = [
        HeldCredential(EC, "EC-1", date(2026, 3, 2)),
        HeldCredential(ME, "ME-2", date(2028, 1, 31)),
        HeldCredential(ME, "ME-old", date(2025, 1, 31)),
    ]
    assert rules.qualifying_credential("X", "electrical", held, date(2026, 3, 2)).number == "ME-2"
    only = [HeldCredential(EC, "EC-1", date(2026, 3, 2))]
    assert rules.qualifying_credential("X", "electrical", only, date(2026, 3, 2)).number == "EC-1"


def test_the_licence_runs_to_december_31_or_the_state_credentials_earlier_expiry() -> None:
    assert rules.licence_term(date(2026, 3, 2), date(2027, 6, 30)) == date(2026, 12, 31)
    assert rules.licence_term(date(2026, 3, 2), date(2026, 6, 30)) == date(2026, 6, 30)
    assert rules.licence_term(date(2026, 3, 2), None) == date(2026, 12, 31)


def test_licence_numbers_are_el_year_and_four_digits() -> None:
    assert rules.licence_number(2026, 7) == "EL-2026-0007"
    assert rules.licence_number(2026, 12345) == "EL-2026-12345"


def test_a_licence_is_in_force_through_its_last_day_and_revoked_from_the_revocation_day() -> None:
    end = date(2026, 12, 31)
    assert rules.licence_status(end, None, end) is LicenceStatus.IN_FORCE
    assert rules.licence_status(end, None, date(2027, 1, 1)) is LicenceStatus.EXPIRED
    assert rules.licence_status(end, date(2026, 5, 1), date(2026, 4, 30)) is LicenceStatus.IN_FORCE
    assert rules.licence_status(end, date(2026, 5, 1), date(2026, 5, 1)) is LicenceStatus.REVOKED


def test_only_the_electrical_trade_is_licensed() -> None:
    with pytest.raises(ValidationError) as e:
        rules.check_trade("plumbing")
    assert e.value.field == "trade"


# --- revocation: 15.1.78 ------------------------------------------------------------------------

COMPLAINT = date(2026, 3, 2)


def test_the_hearing_may_be_held_through_the_thirtieth_day_after_the_complaint() -> None:
    assert rules.hearing_deadline(COMPLAINT) == date(2026, 4, 1)
    rules.check_hearing(COMPLAINT, date(2026, 4, 1), date(2026, 3, 20), "licensee; employer")


def test_a_hearing_on_the_thirty_first_day_is_refused_naming_the_hearing_date() -> None:
    with pytest.raises(ValidationError) as e:
        rules.check_hearing(COMPLAINT, date(2026, 4, 2), date(2026, 3, 20), "licensee")
    assert e.value.field == "hearing date"
    assert "held by 04/01/2026 (15.1.78(b))" in str(e.value)


def test_notice_must_go_out_at_least_five_days_before_the_hearing() -> None:
    hearing = date(2026, 3, 20)
    rules.check_hearing(COMPLAINT, hearing, date(2026, 3, 15), "licensee")  # five days
    with pytest.raises(ValidationError) as e:
        rules.check_hearing(COMPLAINT, hearing, date(2026, 3, 16), "licensee")  # four days
    assert e.value.field == "notice date"
    assert "send it by 03/15/2026" in str(e.value)


def test_notice_cannot_precede_the_complaint_and_someone_must_be_notified() -> None:
    with pytest.raises(ValidationError) as e:
        rules.check_hearing(COMPLAINT, date(2026, 3, 20), date(2026, 3, 1), "licensee")
    assert e.value.field == "notice date"
    with pytest.raises(ValidationError) as e:
        rules.check_hearing(COMPLAINT, date(2026, 3, 20), date(2026, 3, 10), "  ")
    assert e.value.field == "notified"


def test_a_hearing_before_or_on_the_complaint_day_is_refused() -> None:
    with pytest.raises(ValidationError) as e:
        rules.check_hearing(COMPLAINT, COMPLAINT, COMPLAINT, "licensee")
    assert e.value.field == "hearing date"


def test_a_complaint_needs_its_basis_and_a_licence_in_force() -> None:
    with pytest.raises(ValidationError) as e:
        rules.check_complaint(LicenceStatus.IN_FORCE, Revocation(), COMPLAINT, " ", COMPLAINT)
    assert e.value.field == "basis"
    with pytest.raises(RuleViolation, match="expired"):
        rules.check_complaint(LicenceStatus.EXPIRED, Revocation(), COMPLAINT, "x", COMPLAINT)
    open_one = Revocation(complaint_on=date(2026, 2, 1))
    with pytest.raises(RuleViolation, match="still open"):
        rules.check_complaint(LicenceStatus.IN_FORCE, open_one, COMPLAINT, "x", COMPLAINT)
    dismissed = Revocation(complaint_on=date(2026, 2, 1), disqualified=False)
    rules.check_complaint(LicenceStatus.IN_FORCE, dismissed, COMPLAINT, "again", COMPLAINT)


def test_revocation_waits_for_the_hearing_and_a_finding_of_disqualification() -> None:
    heard = Revocation(complaint_on=COMPLAINT, hearing_on=date(2026, 3, 20))
    with pytest.raises(RuleViolation, match="has not been held yet"):
        rules.check_revocation(heard, date(2026, 3, 19))
    with pytest.raises(RuleViolation, match="Record the Council's finding first"):
        rules.check_revocation(heard, date(2026, 3, 21))
    cleared = Revocation(
        complaint_on=COMPLAINT,
        hearing_on=date(2026, 3, 20),
        finding_on=date(2026, 3, 20),
        disqualified=False,
    )
    with pytest.raises(RuleViolation, match="stays in force"):
        rules.check_revocation(cleared, date(2026, 3, 21))
    found = Revocation(
        complaint_on=COMPLAINT,
        hearing_on=date(2026, 3, 20),
        finding_on=date(2026, 3, 20),
        disqualified=True,
    )
    rules.check_revocation(found, date(2026, 3, 20))
    with pytest.raises(RuleViolation, match="upon a complaint"):
        rules.check_revocation(Revocation(), date(2026, 3, 21))


def test_the_finding_is_not_dated_before_the_hearing() -> None:
    heard = Revocation(complaint_on=COMPLAINT, hearing_on=date(2026, 3, 20))
    with pytest.raises(ValidationError) as e:
        rules.check_finding(heard, date(2026, 3, 19), "disqualified", date(2026, 3, 25))
    assert e.value.field == "finding date"
    with pytest.raises(RuleViolation, match="not scheduled"):
        rules.check_finding(Revocation(complaint_on=COMPLAINT), COMPLAINT, "x", COMPLAINT)


def test_the_stage_of_a_complaint_reads_as_the_clerk_follows_it() -> None:
    today = date(2026, 3, 10)
    assert Revocation(complaint_on=COMPLAINT).stage(today) == (
        "Complaint 03/02/2026: hearing by 04/01/2026"
    )
    assert Revocation(complaint_on=COMPLAINT).stage(date(2026, 4, 2)) == (
        "Complaint 03/02/2026: no hearing by 04/01/2026"
    )
    assert Revocation(revoked_on=date(2026, 3, 21), complaint_on=COMPLAINT).stage(today) == (
        "Revoked 03/21/2026"
    )


def test_each_step_belongs_to_its_officer() -> None:
    rules.require_role("ivan", {Role.INSPECTOR}, rules.GRANT_ROLES, "grant City licences")
    with pytest.raises(PermissionDenied, match="only a user with the role inspector"):
        rules.require_role("carol", {Role.CLERK}, rules.GRANT_ROLES, "grant City licences")
    with pytest.raises(PermissionDenied, match="clerk"):
        rules.require_role("ivan", {Role.INSPECTOR}, rules.HEARING_ROLES, "schedule the hearing")
    rules.require_role("alex", {Role.ADMINISTRATOR}, rules.REVOKE_ROLES, "revoke")


# --- condemnation: Hudson 140 -------------------------------------------------------------------


def test_the_dwelling_is_to_be_vacated_sixty_days_after_the_condemnation() -> None:
    assert rules.vacate_date(date(2026, 3, 2)) == date(2026, 5, 1)
    assert rules.vacate_period({}) == 60
    assert rules.vacate_period({"licensing": {"vacate_days": 30}}) == 30
    assert rules.vacate_period({"licensing": {"vacate_days": "thirty"}}) == 60
    assert rules.vacate_date(date(2026, 3, 2), 30) == date(2026, 4, 1)


def test_the_inspector_may_order_an_earlier_vacate_date_but_not_a_later_one() -> None:
    ok = {
        "address": "5820 N Lake Dr",
        "reasons": "roof collapsed",
        "condemned_on": date(2026, 3, 2),
        "placarded_on": date(2026, 3, 2),
        "days": 60,
        "today": date(2026, 3, 2),
    }
    rules.check_condemnation(vacate_by=date(2026, 3, 20), **ok)  # type: ignore[arg-type]
    rules.check_condemnation(vacate_by=date(2026, 5, 1), **ok)  # type: ignore[arg-type]
    with pytest.raises(ValidationError) as e:
        rules.check_condemnation(vacate_by=date(2026, 5, 2), **ok)  # type: ignore[arg-type]
    assert e.value.field == "vacate by"
    assert "by 05/01/2026 (Hudson 140 C)" in str(e.value)


def test_a_condemnation_needs_grounds_reasons_and_an_address() -> None:
    with pytest.raises(ValidationError) as e:
        rules.parse_grounds([])
    assert e.value.field == "grounds"
    assert rules.parse_grounds(["b(3)", "B1", Ground.B1]) == (Ground.B1, Ground.B3)
    assert rules.grounds_text(["B3", "B1"]) == "B(1), B(3)"
    with pytest.raises(ValidationError) as e:
        rules.parse_grounds(["B4"])
    assert e.value.field == "grounds"
    base = {
        "condemned_on": date(2026, 3, 2),
        "placarded_on": None,
        "vacate_by": date(2026, 5, 1),
        "days": 60,
        "today": date(2026, 3, 2),
    }
    with pytest.raises(ValidationError) as e:
        rules.check_condemnation(address=" ", reasons="x", **base)  # type: ignore[arg-type]
    assert e.value.field == "address"
    with pytest.raises(ValidationError) as e:
        rules.check_condemnation(address="x", reasons="", **base)  # type: ignore[arg-type]
    assert e.value.field == "reasons"


def test_lifting_needs_the_written_approval_and_a_closed_condemnation_stays_closed() -> None:
    with pytest.raises(ValidationError) as e:
        rules.check_lift(Outcome.OPEN, date(2026, 3, 2), date(2026, 4, 1), "", date(2026, 4, 1))
    assert e.value.field == "approval"
    rules.check_lift(Outcome.OPEN, date(2026, 3, 2), date(2026, 4, 1), "Letter", date(2026, 4, 1))
    with pytest.raises(RuleViolation, match="closed: razed 04/01/2026"):
        rules.check_lift(
            Outcome.RAZED,
            date(2026, 3, 2),
            date(2026, 4, 2),
            "x",
            date(2026, 4, 2),
            date(2026, 4, 1),
        )


def test_the_register_says_when_a_dwelling_is_overdue_to_vacate() -> None:
    vacate = date(2026, 5, 1)
    assert rules.condemnation_state(Outcome.OPEN, None, vacate, None, vacate) == (
        "Open: vacate by 05/01/2026",
        False,
    )
    assert rules.condemnation_state(Outcome.OPEN, None, vacate, None, date(2026, 5, 2)) == (
        "Overdue to vacate since 05/02/2026",
        True,
    )
    assert rules.condemnation_state(
        Outcome.OPEN, None, vacate, date(2026, 4, 2), date(2026, 5, 2)
    ) == ("Vacated 04/02/2026; placarded", False)


def test_the_annual_report_shows_an_outcome_recorded_after_the_year_as_open() -> None:
    line = CondemnationLine(
        id=1,
        address="5820 N Lake Dr",
        dwelling_unit="",
        condemned_on=date(2025, 11, 3),
        grounds=("B1",),
        vacate_by=date(2026, 1, 2),
        outcome=Outcome.RAZED,
        outcome_on=date(2026, 2, 10),
    )
    assert line.outcome_words(date(2025, 12, 31)) == "Open"
    assert line.outcome_words(date(2026, 12, 31)) == "Razed 02/10/2026"


def test_a_complaint_never_scheduled_within_thirty_days_lapses_and_a_new_one_may_be_filed() -> None:
    unheard = Revocation(complaint_on=COMPLAINT)
    assert not unheard.lapsed(date(2026, 4, 1))
    with pytest.raises(RuleViolation, match="still open"):
        rules.check_complaint(
            LicenceStatus.IN_FORCE, unheard, date(2026, 4, 1), "x", date(2026, 4, 1)
        )
    assert unheard.lapsed(date(2026, 4, 2))
    rules.check_complaint(LicenceStatus.IN_FORCE, unheard, date(2026, 4, 2), "x", date(2026, 4, 2))
    scheduled = Revocation(complaint_on=COMPLAINT, hearing_on=date(2026, 3, 30))
    assert not scheduled.lapsed(date(2026, 5, 1))  # heard: waiting for the finding
