"""The People section's reads (SQLite and PostgreSQL): the list searched word by word over the
name, address, phone, e-mail and credential numbers, filtered and read a page at a time with
each record's current credentials and permits; a person's whole record; and its history."""

from __future__ import annotations

from datetime import date

from db import party_queries as q
from db.database import Database
from db.party_queries import PartyFilter
from desk.clock import FixedClock
from desk.domain.credentials import HeldCredential
from desk.domain.enums import CredentialKind, PartyKind, PartyRole, PermitStatus
from desk.domain.model import Party
from desk.services import permits
from desk.services.people import credentials, edit, merge, retire
from tests.db.people_setup import LICENCE_EXPIRES, contractors, dahl

TODAY = date(2026, 3, 2)


def names(database: Database, text: str = "", which: PartyFilter = PartyFilter.ACTIVE) -> list[str]:
    with database.read() as conn:
        rows = q.party_rows(conn, TODAY, which, text)
        assert q.party_count(conn, TODAY, which, text) == len(rows)
    return [r.name for r in rows]


def test_every_word_typed_must_match_the_name_address_phone_email_or_a_licence_number(
    database: Database, clock: FixedClock
) -> None:
    c = contractors(database, clock)
    permits.add_party(
        database.uow(),
        clock,
        c.reg.clerk,
        Party(kind=PartyKind.PERSON, name="Ed Pilgrim", phone="262-555-0100", city="Brookfield"),
    )
    assert names(database) == [
        "Anna Schmidt",
        "Badger State Builders LLC",
        "Dahl Plumbing LLC",
        "Dahl Plumbing LLC",
        "Ed Pilgrim",
    ]
    assert names(database, "pilgrim") == ["Dahl Plumbing LLC", "Dahl Plumbing LLC", "Ed Pilgrim"]
    assert names(database, "DAHL  road") == ["Dahl Plumbing LLC"]  # the duplicate's street
    assert names(database, "pilgrim brookfield 262") == ["Ed Pilgrim"]
    # A phone number typed with or without its punctuation.
    assert names(database, "4148945084") == ["Dahl Plumbing LLC"]
    assert names(database, "894-5084") == ["Dahl Plumbing LLC"]
    assert names(database, "office@dahlplumbing") == ["Dahl Plumbing LLC"]
    assert names(database, "mp-1234") == ["Dahl Plumbing LLC"]
    assert names(database, "53045 schmidt") == []
    assert names(database, "%ahl") == []  # a wildcard typed is a character, not any text


def test_the_filters_find_contractors_credentials_expiring_and_retired_records(
    database: Database, clock: FixedClock
) -> None:
    c = contractors(database, clock)
    uow = database.uow()
    credentials.record_credential(
        uow,
        clock,
        c.reg.clerk,
        c.reg.contractor_id,
        credentials.CredentialInput(
            CredentialKind.DWELLING_CONTRACTOR, "DC-88", date(2026, 5, 1)
        ),  # within 60 days of 03/02/2026
    )
    retire.retire_party(uow, clock, c.reg.clerk, c.reg.owner_id, "moved away", None)
    assert names(database, which=PartyFilter.CONTRACTORS) == [
        "Badger State Builders LLC",
        "Dahl Plumbing LLC",
    ]
    # Dahl's licence lapsed on 02/28/2026: not "expiring", already expired.
    assert names(database, which=PartyFilter.EXPIRING) == ["Badger State Builders LLC"]
    assert names(database, which=PartyFilter.RETIRED) == ["Anna Schmidt"]
    assert "Anna Schmidt" not in names(database)
    assert len(names(database, which=PartyFilter.ALL)) == 4


def test_a_row_shows_the_current_credentials_the_permits_and_the_merge(
    database: Database, clock: FixedClock
) -> None:
    c = contractors(database, clock)
    uow = database.uow()
    renewed = credentials.renew_credential(
        uow, clock, c.reg.clerk, c.credential_id, "MP-5678", date(2028, 2, 29)
    )
    merge.merge_parties(uow, clock, c.reg.clerk, c.kept, c.duplicate)
    with database.read() as conn:
        rows = {r.party_id: r for r in q.party_rows(conn, TODAY, PartyFilter.ALL)}
        one = q.party_row(conn, c.kept)
    kept, dup = rows[c.kept], rows[c.duplicate]
    assert kept.credentials == (
        HeldCredential(CredentialKind.MASTER_PLUMBER, "MP-5678", date(2028, 2, 29)),
    )
    assert kept.permits == 2  # its own plumbing permit and the duplicate's
    assert kept.address == "N89 W14650 Pilgrim Rd, Brookfield, WI 53045"
    assert (dup.retired_on, dup.merged_into, dup.permits) == (TODAY, "Dahl Plumbing LLC", 0)
    assert rows[c.reg.owner_id].permits == 3  # the owner of the house on all three
    assert one == kept
    assert renewed != c.credential_id


def test_pages_follow_one_another_by_name_without_repeating_a_record(
    database: Database, clock: FixedClock
) -> None:
    c = contractors(database, clock)
    uow = database.uow()
    for n in range(7):
        permits.add_party(uow, clock, c.reg.clerk, dahl(name=f"Zeta Heating {n}", phone=""))
    with database.read() as conn:
        every = q.party_rows(conn, TODAY, PartyFilter.ACTIVE, "")
        pages = [q.party_rows(conn, TODAY, PartyFilter.ACTIVE, "", 4, at) for at in (0, 4, 8)]
        assert q.party_count(conn, TODAY, PartyFilter.ACTIVE, "heating") == 7
    assert [len(page) for page in pages] == [4, 4, 3]
    assert [r.party_id for page in pages for r in page] == [r.party_id for r in every]


def test_a_persons_record_holds_its_roles_payment_credentials_and_what_was_merged_into_it(
    database: Database, clock: FixedClock
) -> None:
    c = contractors(database, clock)
    uow = database.uow()
    renewed = credentials.renew_credential(
        uow, clock, c.reg.clerk, c.credential_id, "MP-1234", date(2028, 2, 29)
    )
    merge.merge_parties(uow, clock, c.reg.clerk, c.kept, c.duplicate)
    with database.read() as conn:
        f = q.party_facts(conn, c.kept, c.reg.municipality_id)
        gone = q.party_facts(conn, c.duplicate, c.reg.municipality_id)
        missing = q.party_facts(conn, 9999, c.reg.municipality_id)
        assert q.party_id_by_name(conn, "dahl plumbing llc") == c.kept  # the one in use
        assert q.party_id_by_name(conn, f"#{c.duplicate}") == c.duplicate
        assert q.party_id_by_name(conn, "Nobody") is None
    assert f is not None and gone is not None and missing is None
    assert [(x.number, x.expires_on, x.superseded_by_id) for x in f.credentials] == [
        ("MP-1234", LICENCE_EXPIRES, renewed),
        ("MP-1234", date(2028, 2, 29), None),
    ]
    assert f.credentials[1].recorded_on == TODAY
    assert [(r.permit_id, r.role, r.status, r.number) for r in f.roles] == [
        (c.plumbing_permit, PartyRole.PLUMBER, PermitStatus.APPLIED, None),
        (c.kept_permit, PartyRole.PLUMBER, PermitStatus.APPLIED, None),
    ]
    assert f.roles[0].address == "6120 N Port Washington Rd"
    assert [(p.receipt_number, p.day, p.permits) for p in f.payments] == [
        (c.receipt, TODAY, ("application of 03/02/2026",))
    ]
    assert f.merged_from == ((c.duplicate, "Dahl Plumbing LLC"),)
    assert (gone.merged_into_id, gone.merged_into, gone.retired_reason) == (
        c.kept,
        "Dahl Plumbing LLC",
        "merged into Dahl Plumbing LLC",
    )
    assert gone.roles == () and gone.payments == ()


def test_the_history_reads_the_record_its_credentials_and_the_duplicate_merged_into_it(
    database: Database, clock: FixedClock
) -> None:
    c = contractors(database, clock)
    uow = database.uow()
    with database.read() as conn:
        shown = q.party_facts(conn, c.kept, c.reg.municipality_id)
    assert shown is not None
    form = edit.party_edit_of(shown)  # type: ignore[arg-type]
    edit.update_party(
        uow,
        clock,
        c.reg.clerk,
        c.kept,
        form.__class__(**{**form.__dict__, "phone": "414-555-0199"}),
    )
    credentials.renew_credential(uow, clock, c.reg.clerk, c.credential_id, "MP-5678", None)
    merge.merge_parties(uow, clock, c.reg.clerk, c.kept, c.duplicate)
    with database.read() as conn:
        entries = q.party_history(conn, [c.kept, c.duplicate])
    seen = [(e.entity, e.action, e.entity_id) for e in entries]
    assert ("party", "update", c.kept) in seen
    assert ("party", "update", c.duplicate) in seen  # retired, merged into the one kept
    assert seen[-1] == ("party", "create", c.kept)  # newest first: its creation last
    credential_rows = [e for e in entries if e.entity == "credential"]
    assert {e.action for e in credential_rows} == {"create", "update"}
    phone = [ch for e in entries if e.entity == "party" for ch in e.changes if ch.field == "phone"]
    assert phone[0].old == "(414) 894-5084" and phone[0].new == "414-555-0199"
