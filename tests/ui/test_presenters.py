"""Presenters without Qt: what the views will say, computed from plain values."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from desk.clock import FixedClock
from desk.domain.enums import PartyRole, PermitClass, PermitStatus, Role, WorkClass
from desk.domain.model import Actor, AuditEntry, FieldChange
from desk.domain.readmodels import PartyLine, PermitDetail, PermitListRow
from desk.errors import AuthenticationFailed
from ui.presenters.first_run import AdminForm, check_admin_form, municipality_choices
from ui.presenters.formatting import count_of, format_date, format_timestamp, humanise_field
from ui.presenters.history import HistoryPresenter, References, describe_event
from ui.presenters.login import LoginPresenter
from ui.presenters.permit_detail import PermitSummaryPresenter, permit_title
from ui.presenters.permit_list import PermitListPresenter
from ui.presenters.session import Session
from ui.presenters.views import ViewSpec, parse_view

ROOT = Path(__file__).resolve().parents[2]
CENTRAL = timezone(timedelta(hours=-6), "CST")


def test_no_presenter_imports_qt() -> None:
    modules = sorted(
        f"ui.presenters.{p.stem}"
        for p in (ROOT / "ui" / "presenters").glob("*.py")
        if p.stem != "__init__"
    )
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in [*modules])
        + "bad = [m for m in sys.modules if m.startswith('PySide6')]\n"
        + "assert not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


# --- formatting ---------------------------------------------------------------------------


def test_dates_read_month_day_year_and_times_in_local_time() -> None:
    assert format_date(date(2026, 3, 2)) == "03/02/2026"
    assert format_date(None) == ""
    at = datetime(2026, 3, 2, 15, 5, tzinfo=UTC)
    assert format_timestamp(at, CENTRAL) == "03/02/2026 9:05 AM"
    assert format_timestamp(datetime(2026, 3, 3, 0, 30, tzinfo=UTC), CENTRAL) == (
        "03/02/2026 6:30 PM"
    )


def test_counts_and_field_names_read_as_english() -> None:
    assert count_of(1, "permit") == "1 permit"
    assert count_of(1234, "permit") == "1,234 permits"
    assert humanise_field("issued_on") == "Issued on"
    assert humanise_field("issued_by_id") == "Issued by"
    assert humanise_field("floor_area_sqft") == "Floor area (sq ft)"
    assert humanise_field("pin") == "Parcel number"


# --- the permits list ------------------------------------------------------------------------


def row(i: int, number: str | None = None, owner: str = "Anna Schmidt") -> PermitListRow:
    return PermitListRow(
        id=i,
        number=number,
        status=PermitStatus.ISSUED if number else PermitStatus.APPLIED,
        kind="RES-OTHER",
        address=f"{100 + i} N Lake Dr",
        owner=owner,
        contractor="",
        applied_on=date(2026, 1, 5),
        issued_on=date(2026, 1, 9) if number else None,
        valuation=Decimal("1234.5"),
    )


class FakeSource:
    """Rows in memory; records every query so tests can see the paging."""

    def __init__(self, rows: list[PermitListRow]) -> None:
        self.rows = rows
        self.pages: list[tuple[str, str, bool, int, int]] = []
        self.counts: list[str] = []

    def _match(self, text: str) -> list[PermitListRow]:
        t = text.strip().lower()
        return [r for r in self.rows if not t or t in r.owner.lower()]

    def count(self, text: str) -> int:
        self.counts.append(text)
        return len(self._match(text))

    def page(
        self, text: str, sort: str, descending: bool, offset: int, limit: int
    ) -> list[PermitListRow]:
        self.pages.append((text, sort, descending, offset, limit))
        return self._match(text)[offset : offset + limit]


def test_rows_are_fetched_a_page_at_a_time_and_only_once() -> None:
    source = FakeSource([row(i) for i in range(450)])
    p = PermitListPresenter(source, "glendale", page_size=200)
    p.load()
    assert p.count == 450
    assert source.pages == []  # nothing fetched until a row is shown
    assert p.row(0) is not None and p.row(199) is not None
    assert [q[3] for q in source.pages] == [0]
    assert p.row(420) is not None
    assert [q[3] for q in source.pages] == [0, 400]
    assert p.row(450) is None
    assert p.cached_pages == [0, 2]


def test_a_new_search_or_sort_drops_the_cached_pages() -> None:
    source = FakeSource([row(1, owner="Anna Schmidt"), row(2, owner="Tomasz Kowalski")])
    p = PermitListPresenter(source, "glendale")
    p.load()
    p.row(0)
    assert p.set_search("schm") is True
    assert p.cached_pages == []
    assert p.count == 1 and p.count_text == "1 permit"
    assert p.set_search("schm ") is False  # the same search: nothing to do
    p.set_sort("number", descending=False)
    p.row(0)
    assert source.pages[-1] == ("schm ", "number", False, 0, 200)


def test_the_count_says_what_a_search_found_or_what_to_try() -> None:
    p = PermitListPresenter(FakeSource([row(i) for i in range(1234)]), "glendale")
    p.load()
    assert p.count_text == "1,234 permits"
    p.set_search("xyz")
    assert p.no_match
    assert p.count_text == (
        "No permits match 'xyz' — check the spelling, or search by parcel number"
    )
    assert not p.empty_database


def test_an_empty_register_is_told_apart_from_a_search_that_finds_nothing() -> None:
    p = PermitListPresenter(FakeSource([]), "glendale")
    p.load()
    assert p.empty_database
    assert p.empty_text.startswith("No permits yet.")


def test_cells_show_labels_us_dates_and_dollars() -> None:
    p = PermitListPresenter(FakeSource([]), "glendale")
    issued, applied = row(1, "2026-0007"), row(2)
    assert p.cell_text(issued, "number") == "2026-0007"
    assert p.cell_text(applied, "number") == "—"
    assert p.cell_tooltip(applied, "number") == "not issued yet"
    assert p.cell_text(issued, "status") == "Issued"
    assert p.cell_text(issued, "kind") == "Roofing, siding, fencing"
    assert p.cell_text(issued, "applied") == "01/05/2026"
    assert p.cell_text(applied, "issued") == ""
    assert p.cell_text(issued, "valuation") == "$1,234.50"
    assert [c.key for c in p.columns if c.numeric] == ["valuation"]


def test_a_page_that_cannot_be_read_is_reported_once_instead_of_raising_into_the_view() -> None:
    class Broken(FakeSource):
        def page(
            self, text: str, sort: str, descending: bool, offset: int, limit: int
        ) -> list[PermitListRow]:
            raise ConnectionError("server closed the connection")

    reported: list[str] = []
    p = PermitListPresenter(Broken([row(1)]), "glendale")
    p.on_error = reported.append
    p.load()
    assert p.row(0) is None
    assert p.row(0) is None  # not asked again on the next paint
    assert reported == [
        "The permits could not be read (ConnectionError: server closed the connection). Press F5."
    ]
    p.load()
    assert p.error == ""


def test_sorting_by_an_unknown_column_is_refused() -> None:
    p = PermitListPresenter(FakeSource([]), "glendale")
    with pytest.raises(ValueError, match="cannot sort permits by 'colour'"):
        p.set_sort("colour", descending=False)


def test_dates_and_money_sort_biggest_first_text_a_to_z() -> None:
    assert PermitListPresenter.first_direction_descending("applied")
    assert PermitListPresenter.first_direction_descending("valuation")
    assert not PermitListPresenter.first_direction_descending("owner")


# --- the permit window ------------------------------------------------------------------------


def detail(**changes: object) -> PermitDetail:
    values: dict[str, object] = {
        "id": 12,
        "municipality_key": "glendale",
        "number": "2026-0001",
        "status": PermitStatus.ISSUED,
        "kind": "RES-ADDITION",
        "permit_class": PermitClass.RESIDENTIAL,
        "work_class": WorkClass.ADDITION,
        "description": "Rear addition",
        "address": "5909 N Milwaukee River Pkwy",
        "pin": "0123-456-789",
        "legal_description": "",
        "zoning_district": "RS-4",
        "valuation": Decimal("45000.00"),
        "floor_area_sqft": 0,
        "dwelling_units": 0,
        "applied_on": date(2026, 3, 2),
        "issued_on": date(2026, 3, 4),
        "expires_on": None,
        "commenced_on": None,
        "completed_on": None,
        "issued_by": "Ada Admin",
        "parties": (
            PartyLine(PartyRole.BUILDING_OWNER, 1, "Hans Schmidt", "", "414-555-0101"),
            PartyLine(
                PartyRole.CONTRACTOR, 2, "Badger Builders LLC", "1 Main St, Glendale, WI 53209", ""
            ),
        ),
    }
    values.update(changes)
    return PermitDetail(**values)  # type: ignore[arg-type]


def test_the_summary_reads_as_label_value_pairs() -> None:
    s = PermitSummaryPresenter(detail())
    assert s.title == "Permit 2026-0001"
    assert s.window_title == "Permit 2026-0001 — 5909 N Milwaukee River Pkwy"
    assert s.kind == "Residential addition"
    assert [sec.title for sec in s.sections()] == ["Permit", "Site", "Size and value", "Dates"]
    assert s.field("Work class") == "Addition"
    assert s.field("Valuation") == "$45,000.00"
    assert s.field("Floor area") == "—"
    assert s.field("Legal description") == "—"
    assert s.field("Issued") == "03/04/2026"
    assert s.field("Expires") == "—"


def test_parties_show_their_role_and_address() -> None:
    from ui.presenters.permit_parties import PermitPartiesPresenter

    parties = PermitPartiesPresenter(detail().parties, {}, None, date(2026, 3, 4)).cards
    assert [(p.role, p.name, p.address) for p in parties] == [
        ("Owner of the building", "Hans Schmidt", "—"),
        ("Contractor", "Badger Builders LLC", "1 Main St, Glendale, WI 53209"),
    ]


def test_an_application_is_titled_by_its_id_until_it_is_issued() -> None:
    s = PermitSummaryPresenter(detail(number=None, status=PermitStatus.APPLIED))
    assert s.title == "Application #12"
    assert s.field("Number") == "— (not issued yet)"
    assert permit_title("2025-0100", 3) == "Permit 2025-0100"


AT = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)


def entry(entity: str, action: str, *changes: tuple[str, str | None, str | None]) -> AuditEntry:
    return AuditEntry(
        at=AT,
        username="ivan",
        entity=entity,
        entity_id=1,
        action=action,
        changes=tuple(FieldChange(*c) for c in changes),
    )


def test_a_checklist_shows_as_opened_once_then_each_item_by_its_text() -> None:
    opened = [
        replace(entry("permit_checklist_item", "create", ("state", None, "open")), entity_id=i)
        for i in (7, 8, 9)
    ]
    ticked = replace(
        entry(
            "permit_checklist_item",
            "update",
            ("state", "open", "waived"),
            ("reason", None, "Plans on file from 2025"),
            ("by_user_id", None, "2"),
        ),
        entity_id=8,
        at=AT + timedelta(minutes=5),
    )
    refs = References(checklist_items={8: "three complete sets of plans and specifications"})
    p = HistoryPresenter([ticked, *opened], "glendale", references=refs, tz=UTC)
    assert [r.cells()[2:] for r in p.rows] == [
        ("Checklist: three complete sets of plans and specifications", "State", "Open", "Waived"),
        ("", "Reason", "", "Plans on file from 2025"),
        ("Checklist opened", "Items", "", "3"),
    ]


def test_history_names_each_event_as_the_office_would() -> None:
    assert describe_event(entry("permit", "create", ("status", None, "applied"))) == (
        "Permit created"
    )
    assert describe_event(entry("permit", "update", ("status", "applied", "issued"))) == (
        "Permit issued"
    )
    assert describe_event(entry("permit", "update", ("status", "issued", "void"))) == (
        "Permit voided"
    )
    assert describe_event(entry("permit", "update", ("description", "a", "b"))) == (
        "Permit changed"
    )
    assert describe_event(entry("permit_party", "create", ("role", None, "contractor"))) == (
        "Contractor added"
    )
    assert describe_event(entry("permit_party", "delete", ("role", "plumber", None))) == (
        "Master plumber removed"
    )
    assert describe_event(entry("parcel", "update", ("zoning_district", "RS-3", "RS-4"))) == (
        "Parcel changed"
    )


def test_history_has_one_row_per_changed_field_with_readable_values() -> None:
    issued = entry(
        "permit",
        "update",
        ("number", None, "2026-0001"),
        ("status", "applied", "issued"),
        ("issued_on", None, "2026-03-02"),
        ("issued_by_id", None, "4"),
        ("valuation", "100.00", "45000.00"),
    )
    linked = entry(
        "permit_party",
        "create",
        ("permit_id", None, "12"),
        ("party_id", None, "7"),
        ("role", None, "building_owner"),
    )
    h = HistoryPresenter(
        [issued, linked],
        "glendale",
        references=References(users={4: "Ivan Inspector"}, parties={7: "Hans Schmidt"}),
        tz=CENTRAL,
    )
    cells = [r.cells() for r in h.rows]
    assert cells == [
        ("03/02/2026 9:00 AM", "ivan", "Permit issued", "Number", "", "2026-0001"),
        ("", "", "", "Status", "Applied", "Issued"),
        ("", "", "", "Issued on", "", "03/02/2026"),
        ("", "", "", "Issued by", "", "Ivan Inspector"),
        ("", "", "", "Valuation", "$100.00", "$45,000.00"),
        ("03/02/2026 9:00 AM", "ivan", "Owner of the building added", "Party", "", "Hans Schmidt"),
        ("", "", "", "Role", "", "Owner of the building"),
    ]
    assert h.rows[1].what == "Permit issued"  # the full row is there for tooltips


def test_areas_by_level_read_in_square_feet() -> None:
    h = HistoryPresenter(
        [entry("permit", "update", ("areas", None, '{"basement": 1200, "porch": 120}'))],
        "glendale",
    )
    assert h.rows[0].new == "basement 1,200 sq ft, porch 120 sq ft"


def test_an_unknown_reference_never_shows_an_id() -> None:
    # An internal id means nothing to a clerk: a change that names nothing leaves no field row.
    h = HistoryPresenter([entry("permit", "update", ("parcel_id", "3", "9"))], "glendale")
    assert [r.cells()[2:] for r in h.rows] == [("Permit changed", "", "", "")]


# --- sign-in, first start, session, views -----------------------------------------------------

ADMIN = Actor(user_id=1, username="admin", roles=frozenset({Role.ADMINISTRATOR}))


def test_login_asks_for_the_name_then_reports_a_failure_in_words() -> None:
    def authenticate(name: str, password: str) -> Actor:
        if (name, password) == ("admin", "right-one"):
            return ADMIN
        raise AuthenticationFailed("Unknown user name or wrong password.")

    login = LoginPresenter(authenticate, last_username="admin")
    # A fresh sign-in starts in the user name, filled in or not; only a locked session's
    # dialog starts in Password.
    assert not login.focus_password
    assert LoginPresenter(authenticate, "carol", locked_name="Carol Clerk").focus_password
    assert login.sign_in("  ", "x") is None and login.error == "Enter your user name."
    assert login.sign_in("admin", "") is None and login.error == "Enter your password."
    assert login.sign_in("admin", "wrong") is None
    assert login.error == "Unknown user name or wrong password."
    assert login.sign_in(" admin ", "right-one") == ADMIN
    assert login.username == "admin" and login.error == ""


def form(**changes: str) -> AdminForm:
    values = {
        "municipality": "glendale",
        "username": "mgarcia",
        "full_name": "Maria Garcia",
        "password": "long-enough-1",
        "password_again": "long-enough-1",
    }
    values.update(changes)
    return AdminForm(**values)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"municipality": ""}, "municipality", "Municipality: choose"),
        ({"username": ""}, "username", "User name: enter a user name"),
        ({"username": "m garcia"}, "username", "User name: enter a user name without spaces"),
        ({"full_name": " "}, "full_name", "Full name: enter the person's name"),
        ({"password": "short", "password_again": "short"}, "password", "Password: use at least 8"),
        ({"password_again": "other-one-1"}, "password_again", "Password (again): the two"),
    ],
)
def test_the_administrator_form_names_the_field_that_is_wrong(
    changes: dict[str, str], field: str, message: str
) -> None:
    problem = check_admin_form(form(**changes))
    assert problem is not None
    assert problem.field == field
    assert problem.message.startswith(message)


def test_a_complete_administrator_form_passes() -> None:
    assert check_admin_form(form()) is None


def test_the_shipped_municipalities_are_offered_by_name() -> None:
    assert municipality_choices() == [
        ("glendale", "City of Glendale"),
        ("hudson", "City of Hudson"),
        ("new_lisbon", "City of New Lisbon"),
    ]


def test_the_status_bar_lists_the_roles_by_name() -> None:
    actor = Actor(2, "ivan", frozenset({Role.ADMINISTRATOR, Role.INSPECTOR}))
    s = Session(actor, "Ivan Inspector", 1, "glendale", "City of Glendale", "/data/permitdesk.db")
    assert s.user_text == "Ivan Inspector (Inspector, Administrator)"
    assert s.database_text == "Database: /data/permitdesk.db"
    assert s.window_title == "Permit Desk — City of Glendale"


def test_views_for_screenshots_are_parsed_or_refused_in_one_line() -> None:
    assert parse_view("permits") == ViewSpec("permits")
    assert parse_view("permit:2026-0001") == ViewSpec("permit", "2026-0001", "summary")
    assert parse_view("permit:2026-0001:history") == ViewSpec("permit", "2026-0001", "history")
    assert parse_view("fees") == ViewSpec("fees")
    assert parse_view(" Calculator ") == ViewSpec("calculator")
    assert parse_view("deadlines") == ViewSpec("deadlines")
    assert parse_view("inspections:day") == ViewSpec("inspections", tab="day")
    with pytest.raises(
        ValueError,
        match=r"unknown view 'council'; use home \(Needs attention\), permits, .* calculator",
    ):
        parse_view("council")
    with pytest.raises(ValueError, match="unknown view 'permit:'"):
        parse_view("permit:")


def test_a_fixed_clock_is_all_the_presenters_need_for_time() -> None:
    # The history shows stored UTC times in the zone it is given, nothing reads the wall clock.
    clock = FixedClock(AT)
    h = HistoryPresenter([entry("permit", "create", ("kind", None, "RAZE"))], "glendale", tz=UTC)
    assert h.rows[0].when == "03/02/2026 3:00 PM" == format_timestamp(clock.now(), UTC)
    assert h.rows[0].new == "Razing or wrecking"
