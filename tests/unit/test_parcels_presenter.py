"""The Parcels section and the parcel window without a screen: the list read a page at a time,
the words of each row and of the window, who may correct a parcel and why not, the edit form's
figures, the history as a clerk reads it and the merge listed before it is confirmed."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from db.audit_queries import HistoryLookup
from db.parcel_queries import (
    ParcelFacts,
    ParcelFilter,
    ParcelImport,
    ParcelRow,
    ParcelSort,
    StreetEntry,
)
from desk.domain.enums import Role
from desk.domain.model import Actor, AuditEntry, FieldChange
from desk.domain.records import MergePreview, Reference
from desk.errors import ValidationError
from ui.presenters import parcels as p

CLERK = Actor(2, "carol", frozenset({Role.CLERK}))
TREASURER = Actor(5, "terry", frozenset({Role.TREASURER}))
ENGINEER = Actor(4, "erin", frozenset({Role.ENGINEER}))


def row(n: int, **kw: object) -> ParcelRow:
    values: dict[str, object] = dict(
        id=n,
        version=1,
        pin=f"047-9991-{n:03d}",
        house_number=str(6100 + n),
        street="N Port Washington Rd",
        unit="",
        city="Glendale",
        zip="53217",
        owner_name="",
        owner_name_2="",
        state_id="",
        property_classes=(),
        acres=None,
        assessed_value=None,
        permits=0,
        open_cases=0,
        retired_on=None,
        merged_into_pin="",
    )
    values.update(kw)
    return ParcelRow(**values)  # type: ignore[arg-type]


def facts(**kw: object) -> ParcelFacts:
    values: dict[str, object] = dict(
        id=7,
        version=3,
        municipality_id=1,
        pin="047-9991-002",
        house_number="6120",
        street="N Port Washington Rd",
        unit="",
        city="Glendale",
        zip="53217",
        legal_description="",
        zoning_district="R-4",
        lot_area_sqft=7200,
        sewer_delinquent=False,
        notes="",
        state_id="1232910064500",
        tax_parcel_id="",
        owner_name="JOSEPH C RATH",
        owner_name_2="ROBBIN M DUUCK",
        owner_address="302 ULLAND AVE, WESTBY, WI, 54667",
        property_classes=("4", "5M"),
        aux_classes=(),
        acres=Decimal("0.4730"),
        assessed_value=Decimal("186700.00"),
        land_value=Decimal("17500.00"),
        improvement_value=Decimal("169200.00"),
        fair_market_value=None,
        tax_roll_year=2025,
        latitude=Decimal("43.6529236"),
        longitude=Decimal("-90.8666351"),
        source=ParcelImport(
            3, "V10_Vernon.gdb", "PARCELS", datetime(2026, 3, 2, 15, 0, tzinfo=UTC), "Carol Clerk"
        ),
        retired_on=None,
        retired_reason="",
        retired_by="",
        merged_into_id=None,
        merged_into_pin="",
        merged_from=(),
        permits=(),
        cases=(),
        complaints=0,
        licences=(),
        deposits=(),
        condemnations=(),
        street_entries=(),
        history=(),
        lookup=HistoryLookup(),
        pins={},
        imports={},
    )
    values.update(kw)
    return ParcelFacts(**values)  # type: ignore[arg-type]


class FakeSource:
    def __init__(self, rows: list[ParcelRow]) -> None:
        self.rows = rows
        self.asked: list[tuple[ParcelSort, int, int]] = []

    def count(self, which: ParcelFilter, text: str) -> int:
        return len(self.rows)

    def page(
        self, which: ParcelFilter, text: str, sort: ParcelSort, offset: int, limit: int
    ) -> list[ParcelRow]:
        self.asked.append((sort, offset, limit))
        return self.rows[offset : offset + limit]


def test_the_list_reads_its_count_and_one_page_then_the_next_as_it_is_scrolled() -> None:
    source = FakeSource([row(n) for n in range(1, 6)])
    presenter = p.ParcelListPresenter(source, CLERK, page_size=2)
    presenter.sort = ParcelSort.PIN
    presenter.load()
    assert presenter.summary == "5 parcels: active"
    assert presenter.pins() == ["047-9991-001", "047-9991-002"]
    assert presenter.can_fetch_more
    while presenter.can_fetch_more:
        presenter.add(presenter.next_page())
    assert len(presenter.pins()) == 5
    assert source.asked == [(ParcelSort.PIN, 0, 2), (ParcelSort.PIN, 2, 2), (ParcelSort.PIN, 4, 2)]
    assert presenter.row_of(4) == 3


def test_a_row_shows_owners_classes_acres_value_counts_and_its_status() -> None:
    cells = p.row_cells(
        row(
            2,
            owner_name="JOSEPH C RATH",
            owner_name_2="ROBBIN M DUUCK",
            property_classes=("4", "5M"),
            acres=Decimal("0.2500"),
            assessed_value=Decimal("186700.00"),
            permits=3,
            open_cases=1,
        )
    )
    assert cells == (
        "047-9991-002",
        "6102 N Port Washington Rd",
        "JOSEPH C RATH & ROBBIN M DUUCK",
        "4, 5M",
        "0.25",
        "$186,700.00",
        "3",
        "1",
        "Active",
    )
    retired = p.row_cells(row(3, retired_on=date(2026, 3, 2)))
    merged = p.row_cells(row(4, retired_on=date(2026, 3, 2), merged_into_pin="047-9991-002"))
    assert (retired[-1], merged[-1]) == ("Retired 03/02/2026", "Merged into PIN 047-9991-002")
    assert p.acres_text(Decimal("45.1500")) == "45.15"
    assert p.acres_text(Decimal("2.7270")) == "2.727"
    assert p.acres_text(Decimal("1234")) == "1,234.00"


def test_an_empty_list_says_how_parcels_come_in_and_a_search_says_what_found_nothing() -> None:
    presenter = p.ParcelListPresenter(FakeSource([]), CLERK)
    presenter.load()
    assert "Import parcels…" in presenter.empty_text
    presenter.text = "santa monica "
    assert presenter.empty_text == "No parcel matches “santa monica”."


def test_the_note_under_the_list_reads_the_selected_parcel_in_full() -> None:
    presenter = p.ParcelListPresenter(
        FakeSource([row(2, owner_name="ANNA SCHMIDT", permits=1)]), CLERK
    )
    presenter.load()
    assert presenter.detail(0) == (
        "PIN 047-9991-002 · 6102 N Port Washington Rd, Glendale 53217 · owner of record "
        "ANNA SCHMIDT · 1 permit. Enter opens the parcel."
    )


def test_who_may_correct_a_parcel_and_why_a_step_waits() -> None:
    active = p.state_of_row(row(2))
    retired = p.state_of_row(row(3, retired_on=date(2026, 3, 2)))
    merged = p.state_of_row(row(4, retired_on=date(2026, 3, 2), merged_into_pin="047-9991-002"))
    assert p.edit_allowed(CLERK, active) == (True, "")
    assert p.edit_allowed(ENGINEER, active) == (True, "")
    ok, why = p.edit_allowed(TREASURER, active)
    assert not ok and why.startswith("The clerk, the inspector, the engineer")
    assert p.edit_allowed(CLERK, retired) == (
        False,
        "Parcel 047-9991-003 is retired: restore it first.",
    )
    assert p.retire_allowed(CLERK, retired)[1] == "Parcel 047-9991-003 was retired on 03/02/2026."
    assert p.restore_allowed(CLERK, retired) == (True, "")
    assert p.restore_allowed(CLERK, merged) == (
        False,
        "Parcel 047-9991-004 was merged into 047-9991-002; it stays retired.",
    )
    assert p.merge_allowed(CLERK, None) == (False, "Select the parcel entered twice.")
    assert p.import_allowed(CLERK) == (True, "")
    assert p.import_allowed(ENGINEER)[0] is False


def test_the_window_s_header_and_summary_keep_the_office_s_and_the_county_s_apart() -> None:
    f = facts()
    assert p.header_words(f) == (
        "Parcel 047-9991-002",
        "Active",
        "6120 N Port Washington Rd, Glendale 53217",
        "Owner of record: JOSEPH C RATH & ROBBIN M DUUCK, 302 ULLAND AVE, WESTBY, WI, 54667",
    )
    office = {x.label: x.value for x in p.office_section(f).fields}
    county = {x.label: x.value for x in p.county_section(f).fields}
    assert (office["Zoning district"], office["Lot area"]) == ("R-4", "7,200 sq ft")
    assert county["Property class"] == "4, 5M"
    assert county["Assessed value"] == "$186,700.00"
    assert county["Est. fair-market value"] == "—"
    assert county["Imported from"].startswith("V10_Vernon.gdb, layer PARCELS, imported 03/0")
    assert county["Imported from"].endswith("by Carol Clerk")
    retired = facts(retired_on=date(2026, 3, 2), retired_reason="Split", retired_by="Carol Clerk")
    assert p.header_words(retired)[1] == "Retired 03/02/2026"
    office = {x.label: x.value for x in p.office_section(retired).fields}
    assert (office["Retired"], office["Why"]) == ("03/02/2026 by Carol Clerk", "Split")


def test_the_street_register_rows_say_whether_the_repaving_covers_the_parcel() -> None:
    f = facts(
        street_entries=(
            StreetEntry(1, "N Port Washington Rd", 6000, 6300, date(2024, 6, 1), ""),
            StreetEntry(2, "N Port Washington Rd", 7000, 7400, date(2025, 6, 1), ""),
            StreetEntry(3, "N Port Washington Rd", None, None, date(2015, 6, 1), "Reconstructed"),
        )
    )
    rows = p.street_rows(f, date(2026, 3, 2)).rows
    assert [line.cells[1:4] for line in rows] == [
        ("6000–6300", "06/01/2024", "in the segment, repaved less than 5 years ago"),
        ("7000–7400", "06/01/2025", "outside it"),
        ("the whole street", "06/01/2015", "in the segment"),
    ]
    # §435-8.I: within five years of a repaving that covers it, an opening needs the Council.
    assert [line.warn for line in rows] == [True, False, False]


def test_the_form_takes_the_lot_area_with_commas_and_names_the_field_when_it_is_not_a_number() -> (
    None
):
    values = p.form_values(facts())
    assert values["lot_area_sqft"] == "7,200"
    assert p.parcel_edit({**values, "lot_area_sqft": "12,500"}).lot_area_sqft == 12500
    assert p.parcel_edit({**values, "lot_area_sqft": " "}).lot_area_sqft is None
    with pytest.raises(ValidationError) as e:
        p.parcel_edit({**values, "lot_area_sqft": "about a quarter acre"})
    assert e.value.field == "lot area"
    assert {f.error for f in p.FORM_FIELDS} >= {"parcel number", "ZIP", "owner of record"}
    assert "03/0" in p.county_note(facts()) and "V10_Vernon.gdb" in p.county_note(facts())
    assert "none yet" in p.county_note(facts(source=None))
    labels = [x.label for x in p.county_figures(facts())]
    assert "Owner of record" not in labels and "Assessed value" in labels


def test_the_history_reads_a_correction_old_to_new_and_an_import_in_words() -> None:
    at = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    corrected = AuditEntry(
        at,
        "carol",
        "parcel",
        7,
        "update",
        (
            FieldChange("pin", "N Santa Monica Blvd", "048-1007-017"),
            FieldChange("street", "Glendale", "N Santa Monica Blvd"),
            FieldChange("unit", "53217", ""),
        ),
    )
    imported = AuditEntry(
        replace(corrected, at=datetime(2026, 3, 1, 15, 0, tzinfo=UTC)).at,
        "carol",
        "parcel",
        7,
        "create",
        (
            FieldChange("pin", None, "048-1007-017"),
            FieldChange("property_classes", None, '["4", "5M"]'),
            FieldChange("assessed_value", None, "186700.00"),
            FieldChange("import_id", None, "3"),
        ),
    )
    merged = AuditEntry(
        datetime(2026, 3, 3, 15, 0, tzinfo=UTC),
        "carol",
        "parcel",
        7,
        "update",
        (FieldChange("merged_into_id", None, "9"), FieldChange("retired_on", None, "2026-03-03")),
    )
    history = p.ParcelHistory(
        [merged, corrected, imported],
        "glendale",
        pins={9: "047-9991-002"},
        imports={3: "V10_Vernon.gdb"},
        lookup=HistoryLookup(full_names={"carol": "Carol Clerk"}),
        tz=UTC,
    )
    cells = [r.cells() for r in history.rows]
    assert cells[0][1:4] == ("Carol Clerk", "Merged into another parcel", "Merged into")
    assert cells[0][5] == "PIN 047-9991-002"
    assert cells[2] == (
        "03/02/2026 3:00 PM",
        "Carol Clerk",
        "Parcel corrected",
        "PIN",
        "N Santa Monica Blvd",
        "048-1007-017",
    )
    assert cells[4][3:] == ("Unit", "53217", "")
    imported_rows = {r.field: r.new for r in history.rows if r.event == 2}
    assert history.rows[5].what == "Parcel imported"
    assert imported_rows["Property class(es)"] == "4, 5M"
    assert imported_rows["Assessed value"] == "$186,700.00"
    assert imported_rows["Imported from"] == "V10_Vernon.gdb"
    assert p.ParcelHistory([], "", pins={}, imports={}).empty_text == (
        "No changes recorded for this parcel."
    )


def test_the_merge_lists_what_moves_before_it_is_confirmed() -> None:
    preview = MergePreview(
        kept="PIN 047-9991-002, 6120 N Port Washington Rd",
        duplicate="PIN 0479991002, 6120 N Port Washington Road",
        references=(Reference("Permit", "2026-0012"), Reference("Complaint", "03/02/2026")),
        notes=("Parcel 0479991002 is retired, merged into 047-9991-002.",),
    )
    words = p.merge_words(preview).splitlines()
    assert words[0] == (
        "PIN 0479991002, 6120 N Port Washington Road is merged into PIN 047-9991-002, "
        "6120 N Port Washington Rd."
    )
    assert words[2:] == [
        "  • Permit: 2026-0012",
        "  • Complaint: 03/02/2026",
        "  • Parcel 0479991002 is retired, merged into 047-9991-002.",
    ]
    assert "2 records move" in p.merge_question(preview)
    assert "cannot be undone" in p.merge_question(preview)
