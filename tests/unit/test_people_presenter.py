"""The People section and the person window without a screen: the list's words, counts and
buttons by role, the edit form's checks, the merge and renewal words, the credentials with
their renewals as history, and the history read as a clerk's log."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from db.party_queries import CredentialFact, PartyFacts, PartyFilter, PartyRow, RoleFact
from desk.domain.credentials import HeldCredential
from desk.domain.enums import CredentialKind, PartyKind, PartyRole, PermitStatus, Role
from desk.domain.model import Actor, AuditEntry, FieldChange
from desk.domain.records import MergePreview, Reference
from desk.errors import ValidationError
from ui.presenters import people as p

TODAY = date(2026, 3, 2)
CLERK = Actor(2, "carol", frozenset({Role.CLERK}))
ENGINEER = Actor(5, "erin", frozenset({Role.ENGINEER}))
TREASURER = Actor(4, "terry", frozenset({Role.TREASURER}))
MP = CredentialKind.MASTER_PLUMBER


def row(party_id: int, name: str, **kw: object) -> PartyRow:
    values: dict[str, object] = {
        "party_id": party_id,
        "name": name,
        "kind": PartyKind.ORGANIZATION,
        "address": "N89 W14650 Pilgrim Rd, Brookfield, WI 53045",
        "phone": "(414) 894-5084",
        "email": "",
        "credentials": (),
        "permits": 0,
        "retired_on": None,
        "merged_into": "",
    }
    values.update(kw)
    return PartyRow(**values)  # type: ignore[arg-type]


def facts(**kw: object) -> PartyFacts:
    values: dict[str, object] = {
        "id": 7,
        "version": 3,
        "kind": PartyKind.ORGANIZATION,
        "name": "Dahl Plumbing LLC",
        "first_name": "",
        "last_name": "",
        "address_line1": "N89 W14650 Pilgrim Rd",
        "address_line2": "",
        "city": "Brookfield",
        "state": "WI",
        "zip": "53045",
        "phone": "(414) 894-5084",
        "email": "office@dahl.example.com",
        "notes": "",
        "retired_on": None,
        "retired_reason": "",
        "retired_by": "",
        "merged_into_id": None,
        "merged_into": "",
        "merged_from": (),
        "credentials": (),
        "roles": (),
        "bonds": (),
        "certificates": (),
        "city_licences": (),
        "rooming_licences": (),
        "payments": (),
        "deposits": (),
        "notices": (),
        "credit": Decimal("0.00"),
    }
    values.update(kw)
    return PartyFacts(**values)  # type: ignore[arg-type]


def credential(cid: int, number: str, expires: date | None, **kw: object) -> CredentialFact:
    values: dict[str, object] = {
        "id": cid,
        "kind": MP,
        "number": number,
        "issuing_state": "WI",
        "expires_on": expires,
        "recorded_on": None,
        "superseded_by_id": None,
    }
    values.update(kw)
    return CredentialFact(**values)  # type: ignore[arg-type]


# --- the list -------------------------------------------------------------------------------


def listed(rows: list[PartyRow], actor: Actor = CLERK, page: int = 200) -> p.PeopleListPresenter:
    asked: list[tuple[PartyFilter, str]] = []

    def fetch(which: PartyFilter, text: str) -> list[PartyRow]:
        asked.append((which, text))
        return rows

    presenter = p.PeopleListPresenter(fetch, lambda: TODAY, actor, page_size=page)
    presenter.load()
    return presenter


def test_a_row_reads_kind_address_credentials_permits_and_status() -> None:
    lapsed = HeldCredential(MP, "MP-1234", date(2026, 2, 28))
    presenter = listed(
        [
            row(1, "Dahl Plumbing LLC", credentials=(lapsed,), permits=12),
            row(2, "Dahl Plumbing LLC", retired_on=TODAY, merged_into="Dahl Plumbing LLC"),
            row(3, "Anna Schmidt", kind=PartyKind.PERSON, address="", phone="", retired_on=TODAY),
        ]
    )
    cells = [line.cells for line in presenter.rows]
    assert cells[0] == (
        "Dahl Plumbing LLC",
        "Organization",
        "N89 W14650 Pilgrim Rd, Brookfield, WI 53045",
        "(414) 894-5084",
        "Master plumber MP-1234 to 02/28/2026",
        "12",
        "Active",
    )
    assert presenter.rows[0].warn  # the licence on record has lapsed
    assert cells[1][-1] == "Merged into Dahl Plumbing LLC"
    assert cells[2][1:5] == ("Person", "—", "—", "—")
    assert cells[2][-1] == "Retired 03/02/2026"
    assert presenter.summary == "3 people and organizations: active"
    assert presenter.detail(0) == (
        "Dahl Plumbing LLC · on 12 permits · expired: master plumber MP-1234. "
        "Enter opens the record."
    )


def test_the_list_reads_a_page_at_a_time() -> None:
    presenter = listed([row(n, f"Name {n:03}") for n in range(5)], page=2)
    assert presenter.count == 5 and len(presenter.rows) == 2
    while presenter.can_fetch_more:
        presenter.add(presenter.next_page())
    assert [line.cells[0] for line in presenter.rows][-1] == "Name 004"
    assert presenter.row_of(3) == 3


def test_empty_lists_say_why() -> None:
    presenter = listed([])
    assert presenter.empty_text == "No people or organizations yet. New person… adds one."
    presenter.text = "  zzz "
    assert presenter.empty_text == "No one matches “zzz”."
    presenter.text = ""
    presenter.which = PartyFilter.EXPIRING
    assert presenter.empty_text == "No one: credential expiring in 60 days."
    assert presenter.summary == "0 people and organizations: credential expiring in 60 days"


def test_the_buttons_follow_the_roles_and_the_record_chosen() -> None:
    rows = [
        row(1, "Dahl Plumbing LLC"),
        row(2, "Dahl Plumbing LLC", retired_on=TODAY, merged_into="Dahl Plumbing LLC"),
        row(3, "Anna Schmidt", retired_on=TODAY),
    ]
    clerk = listed(rows)
    assert clerk.can_manage() == (True, "") and clerk.can_import() == (True, "")
    assert clerk.can_edit(0) == (True, "") and clerk.can_retire(0) == (True, "")
    assert clerk.can_restore(0) == (False, "Dahl Plumbing LLC is not retired.")
    assert clerk.can_restore(1) == (
        False,
        "Dahl Plumbing LLC was merged into Dahl Plumbing LLC; it stays retired.",
    )
    assert clerk.can_restore(2) == (True, "")
    assert clerk.can_edit(2) == (False, "Anna Schmidt is retired: restore the record first.")
    assert clerk.can_merge(1)[0] is False
    assert clerk.can_open(-1) == (False, "Select a person or organization.")
    engineer = listed(rows, ENGINEER)
    assert engineer.can_edit(0) == (True, "")
    assert engineer.can_import() == (False, "The clerk or the administrator imports contractors.")
    treasurer = listed(rows, TREASURER)
    assert treasurer.can_open(0) == (True, "")
    for may in (treasurer.can_edit(0), treasurer.can_merge(0), treasurer.can_manage()):
        assert may == (False, p.MANAGE_WHY)


# --- the edit form --------------------------------------------------------------------------


def test_the_form_saves_trimmed_values_and_names_a_bad_field_in_words() -> None:
    f = facts()
    values = p.form_values(f)
    assert p.changed_fields(f, p.edit_from(values)) == []
    values.update(phone=" 262-555-0199 ", address_line1="W156 N8480 Pilgrim Rd", state="wi")
    changed = p.edit_from(values)
    assert (changed.phone, changed.state) == ("262-555-0199", "WI")
    assert p.changed_fields(f, changed) == ["address", "phone"]
    for name, value, words in (
        ("zip", "5304", "ZIP: '5304' is not a ZIP code"),
        ("email", "office at dahl", "email: 'office at dahl' is not an e-mail address"),
        ("name", "  ", "name: enter the name of the person or organization"),
        ("state", "Wis", "state: 'WIS' is not a two-letter state code"),
    ):
        with pytest.raises(ValidationError) as e:
            p.edit_from({**p.form_values(f), name: value})
        assert str(e.value).startswith(words)
        assert p.ERROR_FIELDS[e.value.field] == name


def test_a_person_without_a_name_is_named_by_first_and_last_name() -> None:
    values = {**p.form_values(facts()), "kind": "person", "name": ""}
    values.update(first_name="Anna", last_name="Schmidt")
    assert p.edit_from(values).name == "Anna Schmidt"
    organization = p.edit_from({**values, "kind": "organization", "name": "Schmidt LLC"})
    assert (organization.first_name, organization.last_name) == ("", "")


# --- merging and renewing -------------------------------------------------------------------


def test_the_merge_lists_what_moves_and_asks_before_it_is_done() -> None:
    preview = MergePreview(
        kept="Dahl Plumbing LLC, N89 W14650 Pilgrim Rd",
        duplicate="Dahl Plumbing LLC, N89W14650 Pilgrim Road",
        references=(
            Reference("Role on a permit", "Master plumber on application of 03/02/2026"),
            Reference("Payment", "receipt 2026-0001, Dahl Plumbing LLC"),
        ),
        notes=("Dahl Plumbing LLC is retired, merged into Dahl Plumbing LLC.",),
    )
    assert p.merge_lines(preview) == [
        "Role on a permit: Master plumber on application of 03/02/2026",
        "Payment: receipt 2026-0001, Dahl Plumbing LLC",
        "Dahl Plumbing LLC is retired, merged into Dahl Plumbing LLC.",
    ]
    assert p.merge_question(preview).startswith(
        "Merge Dahl Plumbing LLC, N89W14650 Pilgrim Road into Dahl Plumbing LLC, N89 W14650 "
        "Pilgrim Rd?\n\n2 records move to the record kept"
    )
    assert p.merge_counts(preview) == "2 records: Role on a permit 1, Payment 1."
    empty = replace(preview, references=())
    assert p.merge_counts(empty) == "No record names the duplicate."
    assert p.merge_lines(empty)[0] == "Nothing on the register names the duplicate."
    assert p.choice_words(row(9, "Dahl Plumbing LLC", permits=1)) == (
        "Dahl Plumbing LLC — N89 W14650 Pilgrim Rd, Brookfield, WI 53045 · (414) 894-5084 · "
        "on 1 permit · #9"
    )


def test_a_renewal_starts_two_years_on_and_must_change_something() -> None:
    old = credential(1, "MP-1234", date(2026, 2, 28))
    assert p.renewal_expiry(old, TODAY) == date(2028, 2, 28)
    assert p.renewal_expiry(replace(old, expires_on=date(2024, 2, 29)), TODAY) == date(2026, 2, 28)
    assert p.renewal_expiry(replace(old, expires_on=None), TODAY) == date(2028, 3, 2)
    with pytest.raises(ValidationError, match="nothing changed"):
        p.check_renewal(old, " MP-1234 ", date(2026, 2, 28))
    p.check_renewal(old, "MP-1234", date(2028, 2, 28))
    p.check_renewal(old, "MP-5678", date(2026, 2, 28))


def test_the_credentials_tab_lists_current_ones_then_those_renewed_with_what_replaced_them() -> (
    None
):
    first = credential(1, "MP-1234", date(2024, 2, 29), superseded_by_id=2)
    second = credential(2, "MP-1234", date(2026, 2, 28), recorded_on=date(2024, 3, 1))
    second = replace(second, superseded_by_id=3)
    third = credential(3, "MP-5678", date(2028, 2, 29), recorded_on=TODAY)
    dc = credential(4, "DC-88", date(2026, 2, 1), kind=CredentialKind.DWELLING_CONTRACTOR)
    f = facts(credentials=(first, second, third, dc))
    rows = p.credential_rows(f, TODAY)
    assert [line.cells for line in rows] == [
        ("Master plumber", "MP-5678", "WI", "02/29/2028", "03/02/2026", "current"),
        ("Dwelling contractor", "DC-88", "WI", "02/01/2026", "—", "expired"),
        (
            "Master plumber",
            "MP-1234",
            "WI",
            "02/28/2026",
            "03/01/2024",
            "renewed 03/02/2026 → MP-5678",
        ),
        (
            "Master plumber",
            "MP-1234",
            "WI",
            "02/29/2024",
            "—",
            "renewed 03/01/2024 → MP-1234 to 02/28/2026",
        ),
    ]
    assert [line.warn for line in rows] == [False, True, False, False]
    may = (True, "")
    assert p.renew_allowed(third, may) == (True, "")
    assert p.renew_allowed(first, may) == (
        False,
        "Master plumber MP-1234 was renewed already: select the current one.",
    )
    assert p.renew_allowed(None, may, any_current=False)[1].startswith("No current credential")


# --- the window -----------------------------------------------------------------------------


def test_the_header_summary_and_steps_of_a_record_merged_away() -> None:
    f = facts(
        retired_on=TODAY,
        retired_reason="merged into Dahl Plumbing LLC",
        merged_into_id=3,
        merged_into="Dahl Plumbing LLC",
        phone="",
        email="",
    )
    h = p.header(f)
    assert (h.chip, h.contact) == ("Merged into Dahl Plumbing LLC", "No phone or e-mail on record")
    assert h.address == "Organization · N89 W14650 Pilgrim Rd, Brookfield, WI 53045"
    summary = dict(p.summary_fields(f))
    assert summary["Status"] == "Merged into Dahl Plumbing LLC on 03/02/2026"
    assert summary["Mailing address"] == "N89 W14650 Pilgrim Rd\nBrookfield, WI 53045"
    steps = {s.key: s.may for s in p.steps(f, CLERK)}
    assert steps["restore"] == (
        False,
        "Dahl Plumbing LLC was merged into Dahl Plumbing LLC; it stays retired.",
    )
    assert steps["edit"] == (False, "Dahl Plumbing LLC is retired: restore the record first.")
    active = {s.key: s.may for s in p.steps(facts(), CLERK)}
    assert active["edit"] == (True, "") and active["retire"] == (True, "")
    assert active["renew"][0] is False  # nothing to renew
    assert {s.key: s.may for s in p.steps(facts(), TREASURER)}["edit"] == (False, p.MANAGE_WHY)


def test_the_permits_tab_reads_the_role_and_the_kind_in_words() -> None:
    role = RoleFact(
        11, None, TODAY, "PLUMBING", PartyRole.PLUMBER, PermitStatus.APPLIED, "6120 N Port..."
    )
    f = facts(roles=(role, replace(role, role=PartyRole.APPLICANT)))
    assert p.permit_rows(f, "glendale")[0].cells == (
        "Application",
        "03/02/2026",
        "Plumbing",
        "Master plumber",
        "6120 N Port...",
        "Applied",
    )
    assert dict(p.summary_fields(f))["On permits"] == "2 roles on 1 permit"


def entry(
    minute: int,
    entity: str,
    entity_id: int,
    action: str,
    *changes: tuple[str, str | None, str | None],
) -> AuditEntry:
    return AuditEntry(
        at=datetime(2026, 3, 2, 15, minute, tzinfo=UTC),
        username="carol",
        entity=entity,
        entity_id=entity_id,
        action=action,
        changes=tuple(FieldChange(*c) for c in changes),
    )


def test_the_history_names_each_event_in_the_registers_words() -> None:
    old = credential(1, "MP-1234", date(2026, 2, 28), superseded_by_id=2)
    new = credential(2, "MP-5678", date(2028, 2, 29), recorded_on=TODAY)
    entries = [
        entry(
            5,
            "party",
            9,
            "update",
            ("merged_into_id", None, "7"),
            ("retired_on", None, "2026-03-02"),
        ),
        entry(4, "credential", 1, "update", ("superseded_by_id", None, "2")),
        entry(
            3,
            "credential",
            2,
            "create",
            ("kind", None, "master_plumber"),
            ("number", None, "MP-5678"),
        ),
        entry(2, "party", 7, "update", ("phone", "(414) 894-5084", "414-555-0199")),
        entry(1, "party", 7, "create", ("name", None, "Dahl Plumbing LLC")),
    ]
    names = {9: "Dahl Plumbing LLC (2)", 7: "Dahl Plumbing LLC"}
    h = p.PartyHistoryPresenter(entries[::-1], 7, {1: old, 2: new}, names)
    firsts = [(r.what, r.field, r.old, r.new) for r in h.rows if r.first_of_event]
    assert firsts == [
        ("Dahl Plumbing LLC (2) merged into this record", "Merged into", "", "Dahl Plumbing LLC"),
        (
            "Credential renewed: Master plumber MP-1234",
            "Superseded by",
            "",
            "Master plumber MP-5678",
        ),
        ("Credential recorded: Master plumber MP-5678", "Kind", "", "Master plumber"),
        ("Record changed", "Phone", "(414) 894-5084", "414-555-0199"),
        ("Record created", "Name", "", "Dahl Plumbing LLC"),
    ]
    retired = [r for r in h.rows if r.field == "Retired on"]
    assert retired[0].cells()[2:] == ("", "Retired on", "", "03/02/2026")
    assert h.empty_text == "No changes recorded for this record."


def test_the_screenshot_view_names_a_persons_window_by_name_or_id_and_tab() -> None:
    from ui.presenters.views import ViewSpec, parse_view

    assert parse_view("people") == ViewSpec("people")
    assert parse_view("person:Dahl Plumbing LLC") == ViewSpec("person", "Dahl Plumbing LLC")
    assert parse_view("person:#12:credentials") == ViewSpec("person", "#12", "credentials")
    with pytest.raises(ValueError, match=r"unknown tab 'fees'.*tabs: summary, credentials"):
        parse_view("person:#12:fees")
    with pytest.raises(ValueError, match="no name in view"):
        parse_view("person: ")
