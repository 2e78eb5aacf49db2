"""A contractors' spreadsheet read row by row, and its dry run against a register (a fake one:
the people the lookups find): who is new, what changes old -> new, which credentials are added
or renewed, and every row rejected with the field and the reason."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from desk.domain.enums import CredentialKind, PartyKind
from desk.errors import ValidationError
from desk.imports.contractors import (
    HEADINGS,
    ParsedContractors,
    RegisterCredential,
    RegisterPerson,
    match_headings,
    parse_contractor_rows,
    plan_contractors,
)
from desk.imports.files import Row

MP, DC = CredentialKind.MASTER_PLUMBER, CredentialKind.DWELLING_CONTRACTOR


def _parse(*rows: dict[str, str], headings: Sequence[str] = HEADINGS) -> ParsedContractors:
    """Rows under the template's headings, numbered as a sheet numbers them (heading = 1)."""
    return parse_contractor_rows(
        [Row(i, dict(values)) for i, values in enumerate(rows, start=2)],
        headings,
        "contractors.csv",
    )


class _Register:
    """The register's people as the dry run's lookups find them."""

    def __init__(self, *people: RegisterPerson) -> None:
        self.people = people

    def by_credential(self, kind: CredentialKind, number: str) -> list[RegisterPerson]:
        return [
            p
            for p in self.people
            if any(
                c.current and c.kind is kind and c.number.casefold() == number.casefold()
                for c in p.credentials
            )
        ]

    def by_name(self, name: str) -> list[RegisterPerson]:
        wanted = " ".join(name.split()).casefold()
        return [p for p in self.people if p.name.casefold() == wanted]


HANSEN = RegisterPerson(
    id=7,
    name="Hansen Plumbing LLC",
    kind=PartyKind.ORGANIZATION,
    address_line1="400 W Silver Spring Dr",
    city="Glendale",
    state="WI",
    zip="53217",
    phone="414-555-0100",
    email="office@hansen.example",
    credentials=(
        RegisterCredential(70, MP, "MP-1000", date(2025, 12, 31), current=False),
        RegisterCredential(71, MP, "MP-2000", date(2026, 12, 31), current=True),
    ),
)


# --- the headings ---------------------------------------------------------------------------


def test_headings_are_matched_with_case_and_spaces_aside() -> None:
    found = match_headings(["NAME", " credential  number ", "E-mail", "zip", "Remarks"], "x.csv")
    assert found == {
        "name": "NAME",
        "credential_number": " credential  number ",
        "email": "E-mail",
        "zip": "zip",
    }


def test_a_file_without_a_name_column_is_refused_naming_the_file_and_its_headings() -> None:
    with pytest.raises(ValidationError) as e:
        _parse({"Firm": "Hansen Plumbing LLC"}, headings=("Firm", "Phone"))
    assert str(e.value).startswith("contractors.csv: there is no Name column")
    assert "Firm, Phone" in str(e.value)


def test_columns_no_field_reads_are_listed_not_refused() -> None:
    parsed = _parse({"Name": "Ann Lee", "Remarks": "pays cash"}, headings=("Name", "Remarks"))
    assert parsed.columns_left_out == ("Remarks",)
    assert [r.name for r in parsed.rows] == ["Ann Lee"]


# --- a row ----------------------------------------------------------------------------------


def test_a_full_row_is_read_with_its_credential_and_expiry() -> None:
    parsed = _parse(
        {
            "Name": "  Badger  Heating LLC ",
            "Kind": "",
            "Address": "1200 W Layton Ave",
            "Address line 2": "Suite 4",
            "City": "Milwaukee",
            "State": "wi",
            "ZIP": "53221-1234",
            "Phone": "(414) 555-0142",
            "Email": "office@badger.example",
            "Credential": "hvac CONTRACTOR",
            "Credential number": "HV-12",
            "Expires": "12/31/2027",
        }
    )
    (row,) = parsed.rows
    assert (row.line, row.name, row.kind, row.kind_guessed) == (
        2,
        "Badger Heating LLC",
        PartyKind.ORGANIZATION,
        True,
    )
    assert (row.address_line2, row.state, row.zip) == ("Suite 4", "WI", "53221-1234")
    assert (row.credential, row.credential_number, row.expires_on) == (
        CredentialKind.HVAC_CONTRACTOR,
        "HV-12",
        date(2027, 12, 31),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Master plumber", MP),
        ("master_plumber", MP),
        ("MASTER PLUMBER", MP),
        ("Registered land surveyor", CredentialKind.LAND_SURVEYOR),
        ("land_surveyor", CredentialKind.LAND_SURVEYOR),
    ],
)
def test_a_credential_kind_is_read_by_its_label_or_its_value(
    text: str, expected: CredentialKind
) -> None:
    (row,) = _parse({"Name": "Ann Lee", "Credential": text, "Credential number": "X-1"}).rows
    assert row.credential is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12/31/2027", date(2027, 12, 31)),
        ("1/5/2028", date(2028, 1, 5)),
        ("12/31/27", date(2027, 12, 31)),
        ("2027-12-31", date(2027, 12, 31)),  # an Excel date cell, as desk.imports.files reads it
        ("2027-12-31 00:00:00", date(2027, 12, 31)),
    ],
)
def test_an_expiry_is_read_as_offices_and_excel_write_it(text: str, expected: date) -> None:
    (row,) = _parse(
        {"Name": "Ann Lee", "Credential": "Architect", "Credential number": "A-1", "Expires": text}
    ).rows
    assert row.expires_on == expected


def test_the_kind_is_guessed_from_the_name_when_blank_and_taken_as_written_otherwise() -> None:
    parsed = _parse(
        {"Name": "Joe Hansen"},
        {"Name": "Hansen & Sons Co"},
        {"Name": "Hansen Trust", "Kind": "Person"},
    )
    assert [(r.kind, r.kind_guessed) for r in parsed.rows] == [
        (PartyKind.PERSON, True),
        (PartyKind.ORGANIZATION, True),
        (PartyKind.PERSON, False),
    ]


def test_a_zip_that_excel_cut_to_four_digits_gets_its_leading_zero_back() -> None:
    (row,) = _parse({"Name": "Ann Lee", "ZIP": "2134"}).rows
    assert row.zip == "02134"


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"Name": "  ", "Phone": "555"}, "Name: the name is blank"),
        (
            {"Name": "Ann Lee", "Credential": "Wizard", "Credential number": "W-1"},
            "Credential: 'Wizard' is not a credential kind",
        ),
        (
            {"Name": "Ann Lee", "Credential": "Master plumber"},
            "Credential number: the master plumber has no number",
        ),
        (
            {"Name": "Ann Lee", "Credential number": "MP-1"},
            "Credential: the number MP-1 has no credential kind",
        ),
        (
            {
                "Name": "Ann Lee",
                "Credential": "Architect",
                "Credential number": "A-1",
                "Expires": "next June",
            },
            "Expires: 'next June' is not a date",
        ),
        (
            {
                "Name": "Ann Lee",
                "Credential": "Architect",
                "Credential number": "A-1",
                "Expires": "02/30/2027",
            },
            "Expires: '02/30/2027' is not a date",
        ),
        (
            {
                "Name": "Ann Lee",
                "Credential": "Architect",
                "Credential number": "A-1",
                "Expires": "12/31/1900",
            },
            "Expires: 12/31/1900 is not an expiry date",
        ),
        ({"Name": "Ann Lee", "Expires": "12/31/2027"}, "Expires: a date with no credential"),
        ({"Name": "Ann Lee", "ZIP": "53217x"}, "ZIP: '53217x' is not a ZIP code"),
        ({"Name": "Ann Lee", "Email": "ann at lee"}, "Email: 'ann at lee' is not an e-mail"),
        ({"Name": "Ann Lee", "State": "Wisconsin"}, "State: 'WISCONSIN' is not a two-letter"),
        ({"Name": "Ann Lee", "Kind": "partnership"}, "Kind: 'partnership' is neither person"),
        ({"Name": "Ann Lee", "Phone": "5" * 41}, "Phone: at most 40 characters"),
    ],
)
def test_a_row_is_rejected_with_its_line_and_the_field_it_fails_on(
    values: dict[str, str], reason: str
) -> None:
    parsed = _parse({"Name": "Ok Person"}, values)
    assert [r.name for r in parsed.rows] == ["Ok Person"]
    (rejected,) = parsed.rejected
    assert rejected.line == 3
    assert rejected.reason.startswith(reason), rejected.reason


def test_the_same_credential_twice_rejects_every_row_that_has_it_naming_the_others() -> None:
    cred = {"Credential": "Master plumber"}
    parsed = _parse(
        {"Name": "Ann Lee", **cred, "Credential number": "MP-5"},
        {"Name": "Bo Diaz", **cred, "Credential number": "MP-6"},
        {"Name": "Cy Park", **cred, "Credential number": "mp-5"},
        {"Name": "Di Roe", **cred, "Credential number": "MP-5"},
    )
    assert [r.name for r in parsed.rows] == ["Bo Diaz"]
    assert [(r.line, r.reason) for r in parsed.rejected] == [
        (2, "Credential number: master plumber MP-5 is also on row 4, 5"),
        (4, "Credential number: master plumber mp-5 is also on row 2, 5"),
        (5, "Credential number: master plumber MP-5 is also on row 2, 4"),
    ]


# --- matching the register ------------------------------------------------------------------


def test_a_person_is_found_by_a_current_credential_first_whatever_the_name_says() -> None:
    parsed = _parse(
        {"Name": "Hansen Plbg", "Credential": "Master plumber", "Credential number": "mp-2000"}
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    assert plan.new == [] and plan.unchanged == 1
    (note,) = plan.notes
    assert "held by Hansen Plumbing LLC" in note.text and "Hansen Plbg is not applied" in note.text


def test_a_person_is_found_by_name_with_the_same_zip_or_a_blank_one() -> None:
    register = _Register(HANSEN)
    same_zip = plan_contractors(_parse({"Name": "HANSEN PLUMBING LLC", "ZIP": "53217"}), register)
    blank_zip = plan_contractors(_parse({"Name": "Hansen Plumbing LLC"}), register)
    other_zip = plan_contractors(_parse({"Name": "Hansen Plumbing LLC", "ZIP": "53703"}), register)
    assert (same_zip.unchanged, len(same_zip.new)) == (1, 0)
    assert (blank_zip.unchanged, len(blank_zip.new)) == (1, 0)
    assert [n.person.zip for n in other_zip.new] == ["53703"]


def test_a_retired_person_is_never_matched_the_row_is_rejected_naming_them() -> None:
    retired = RegisterPerson(
        id=9, name="Old Hand Builders", kind=PartyKind.ORGANIZATION, retired_on=date(2026, 1, 15)
    )
    plan = plan_contractors(
        _parse({"Name": "Old Hand Builders", "Phone": "555"}), _Register(retired)
    )
    assert plan.new == [] and plan.changed == []
    assert [r.reason for r in plan.rejected] == ["matches Old Hand Builders, retired on 01/15/2026"]


def test_a_retired_holder_of_the_credential_rejects_the_row() -> None:
    retired = RegisterPerson(
        id=9,
        name="Old Hand Plumbing",
        kind=PartyKind.ORGANIZATION,
        retired_on=date(2026, 1, 15),
        credentials=(RegisterCredential(90, MP, "MP-9", None, current=True),),
    )
    parsed = _parse(
        {"Name": "New Name", "Credential": "Master plumber", "Credential number": "MP-9"}
    )
    plan = plan_contractors(parsed, _Register(retired))
    assert [r.reason for r in plan.rejected] == ["matches Old Hand Plumbing, retired on 01/15/2026"]


def test_two_people_of_the_same_name_and_zip_reject_the_row_until_they_are_merged() -> None:
    twin = RegisterPerson(id=8, name="Hansen Plumbing LLC", kind=PartyKind.ORGANIZATION)
    plan = plan_contractors(_parse({"Name": "Hansen Plumbing LLC"}), _Register(HANSEN, twin))
    (rejected,) = plan.rejected
    assert rejected.reason.startswith("matches 2 on the register (Hansen Plumbing LLC (53217)")
    assert "merge them in People first" in rejected.reason


# --- the dry run ----------------------------------------------------------------------------


def test_a_filled_cell_that_differs_is_a_change_old_to_new_and_a_blank_one_erases_nothing() -> None:
    parsed = _parse(
        {"Name": "Hansen Plumbing LLC", "Phone": "414-555-0199", "City": "GLENDALE", "Email": ""}
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    (changed,) = plan.changed
    assert (changed.party_id, changed.name, changed.lines) == (7, "Hansen Plumbing LLC", (2,))
    assert [(c.label, c.old, c.new) for c in changed.changes] == [
        ("Phone", "414-555-0100", "414-555-0199")
    ]  # the city differs in case only; the blank email erases nothing
    assert plan.unchanged == 0


def test_a_field_the_register_left_blank_is_filled_as_a_change_from_blank() -> None:
    plan = plan_contractors(
        _parse({"Name": "Hansen Plumbing LLC", "Address line 2": "Suite 2"}), _Register(HANSEN)
    )
    assert [(c.label, c.old, c.new) for c in plan.changed[0].changes] == [
        ("Address line 2", "(blank)", "Suite 2")
    ]


def test_a_new_expiry_of_the_same_number_renews_the_credential() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "Credential": "Master plumber",
            "Credential number": "MP-2000",
            "Expires": "12/31/2028",
        }
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    (renewal,) = plan.renewed
    assert (renewal.credential_id, renewal.old_number, renewal.old_expires_on) == (
        71,
        "MP-2000",
        date(2026, 12, 31),
    )
    assert (renewal.number, renewal.expires_on) == ("MP-2000", date(2028, 12, 31))
    assert plan.added == [] and plan.unchanged == 0


def test_a_new_number_of_a_kind_the_person_holds_renews_the_current_one() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "ZIP": "53217",
            "Credential": "master_plumber",
            "Credential number": "MP-3000",
            "Expires": "2028-06-30",
        }
    )
    (renewal,) = plan_contractors(parsed, _Register(HANSEN)).renewed
    assert (renewal.credential_id, renewal.old_number, renewal.number) == (71, "MP-2000", "MP-3000")


def test_the_same_credential_with_a_blank_expiry_is_unchanged() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "Credential": "Master plumber",
            "Credential number": "MP-2000",
        }
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    assert (plan.unchanged, plan.renewed, plan.added) == (1, [], [])


def test_a_credential_of_another_kind_is_added() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "Credential": "Dwelling contractor",
            "Credential number": "DC-44",
            "Expires": "12/31/2027",
        }
    )
    (added,) = plan_contractors(parsed, _Register(HANSEN)).added
    assert (added.party_id, added.name, added.kind, added.number, added.expires_on) == (
        7,
        "Hansen Plumbing LLC",
        DC,
        "DC-44",
        date(2027, 12, 31),
    )


def test_an_earlier_number_the_register_has_renewed_since_is_noted_and_kept() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "Credential": "Master plumber",
            "Credential number": "MP-1000",
            "Expires": "12/31/2025",
        }
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    assert plan.renewed == [] and plan.added == [] and plan.unchanged == 1
    (note,) = plan.notes
    assert note.text == (
        "Hansen Plumbing LLC: the file has the earlier master plumber MP-1000; the register's "
        "MP-2000 replaced it and is kept"
    )


def test_a_new_person_on_two_rows_is_one_person_with_both_credentials() -> None:
    parsed = _parse(
        {
            "Name": "Ann Lee",
            "City": "Milwaukee",
            "ZIP": "53209",
            "Credential": "Master plumber",
            "Credential number": "MP-5",
            "Expires": "12/31/2027",
        },
        {
            "Name": "ann lee",
            "Phone": "414-555-0001",
            "Credential": "Dwelling contractor",
            "Credential number": "DC-5",
        },
    )
    plan = plan_contractors(parsed, _Register())
    (new,) = plan.new
    assert new.lines == (2, 3)
    assert (new.person.name, new.person.city, new.person.state, new.person.phone) == (
        "Ann Lee",
        "Milwaukee",
        "WI",  # blank State with an address: Wisconsin
        "414-555-0001",
    )
    assert [(a.line, a.kind, a.new_person, a.party_id) for a in plan.added] == [
        (2, MP, 0, None),
        (3, DC, 0, None),
    ]


def test_a_second_row_that_says_otherwise_about_the_same_person_is_rejected() -> None:
    parsed = _parse(
        {
            "Name": "Ann Lee",
            "Phone": "414-555-0001",
            "Credential": "Master plumber",
            "Credential number": "MP-5",
        },
        {
            "Name": "Ann Lee",
            "Phone": "414-555-0002",
            "Credential": "Dwelling contractor",
            "Credential number": "DC-5",
        },
    )
    plan = plan_contractors(parsed, _Register())
    assert [a.number for a in plan.added] == ["MP-5"]
    assert [(r.line, r.reason) for r in plan.rejected] == [
        (3, "Phone: 414-555-0002 here, 414-555-0001 on row 2 for the same person")
    ]


def test_a_second_credential_of_the_same_kind_for_one_person_is_rejected() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "Credential": "Master plumber",
            "Credential number": "MP-2000",
        },
        {
            "Name": "Hansen Plumbing LLC",
            "Credential": "Master plumber",
            "Credential number": "MP-4000",
        },
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    assert plan.renewed == []
    assert [(r.line, r.reason) for r in plan.rejected] == [
        (3, "Credential: a second master plumber for the same person (row 2)")
    ]


def test_the_summary_counts_people_credentials_and_rejected_rows() -> None:
    parsed = _parse(
        {
            "Name": "Hansen Plumbing LLC",
            "Phone": "414-555-0199",
            "Credential": "Master plumber",
            "Credential number": "MP-3000",
        },
        {"Name": "Ann Lee", "Credential": "Architect", "Credential number": "A-9"},
        {"Name": ""},
    )
    plan = plan_contractors(parsed, _Register(HANSEN))
    assert plan.summary() == (
        "1 new, 1 changed, 0 unchanged; 1 credential added, 1 renewed; 1 rejected"
    )
    assert plan.counts["rows read"] == 3
    assert plan.writes == 4
