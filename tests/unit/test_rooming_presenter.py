"""The Rooming houses section and a licence's window without Qt (Hudson 140-10): the register's
cells, search and empty words; the status with its dates (the last valid day, the last day to
petition a suspension); the steps each role may take and why not; the history in date order;
the application form's numbers read from what was typed, its mistakes naming the room's row."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from db.licence_view import LicenceFacts, RoomFact
from desk.domain.model import Actor, Role
from desk.enforcement.licences import (
    HearingDecision,
    LicenceRow,
    LicenceState,
    RegisterFilter,
    Shortfall,
)
from desk.errors import ValidationError
from ui.presenters import rooming as p

TODAY = date(2026, 3, 2)
CLERK = Actor(2, "clerk", frozenset({Role.CLERK}))
INSPECTOR = Actor(3, "inspector", frozenset({Role.INSPECTOR}))
TREASURER = Actor(4, "treasurer", frozenset({Role.TREASURER}))


def facts(**kw: object) -> LicenceFacts:
    base = LicenceFacts(
        id=7,
        municipality_id=1,
        parcel_id=3,
        number=None,
        state=LicenceState.APPLIED,
        operator_name="Rita Roomer",
        operator_address="5 Oak St, Hudson WI 54016",
        dwelling="412 Vine St",
        dwelling_unit="",
        pin="047-0001-001",
        persons=5,
        water_closets=1,
        lavatories=1,
        baths=1,
        applied_on=date(2026, 2, 2),
        issued_on=None,
        issued_by="",
        expires_on=None,
        denied_on=None,
        denial_reason="",
        warned_on=None,
        correct_by=None,
        suspended_on=None,
        petition_filed_on=None,
        petitioner="",
        petition_timely=None,
        decision=None,
        decided_on=None,
        findings="",
        revoked_on=None,
        revocation=None,
        changed_at=None,
        change_notice_at=None,
        change_notice_late=None,
        successor_name="",
        successor_address="",
        ended_on=None,
        fee=None,
        fee_receipt="",
        rooms=(
            RoomFact("Room 1", Decimal(80), True, 1, 0),
            RoomFact("Kitchen", Decimal("140.5"), False, 0, 0),
        ),
        case_id=None,
        case_number="",
        case_closed_on=None,
        last_inspected_on=None,
        open_violations=0,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


ISSUED = dict(
    state=LicenceState.ISSUED,
    number="RH-2026-0001",
    issued_on=date(2026, 2, 20),
    expires_on=date(2027, 2, 20),
    issued_by="Carol Clerk",
    fee=Decimal("25.00"),
    fee_receipt="CC-2026-0417",
    case_id=11,
    case_number="CE-2026-0003",
    last_inspected_on=date(2026, 2, 10),
)


def may(f: LicenceFacts, actor: Actor, today: date = TODAY, shortfalls: int = 0) -> dict:
    return {s.key: s.may for s in p.licence_steps(f, today, actor, shortfalls)}


def row(**kw: object) -> LicenceRow:
    base = LicenceRow(
        licence_id=1,
        number="RH-2026-0001",
        operator="Rita Roomer",
        address="412 Vine St",
        pin="047-0001-001",
        persons=5,
        applied_on=date(2026, 2, 2),
        issued_on=date(2026, 2, 20),
        expires_on=date(2027, 2, 20),
        status="in force",
        suspended_on=None,
        revoked_on=None,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


# --- the register -------------------------------------------------------------------------------


def test_the_register_shows_warned_and_expiring_in_amber_suspended_and_revoked_in_red() -> None:
    statuses = [
        "in force",
        "in force — warned, correct by 12/15/2026",
        "in force — expires 01/01/2027",
        "suspended",
        "revoked",
        "expired",
        "applications pending",
    ]
    assert [p.caution(s) for s in statuses] == [False, True, True, False, False, False, False]
    rows = [row(licence_id=i, status=s) for i, s in enumerate(statuses)]
    presenter = p.RegisterPresenter(lambda _w: rows, lambda: TODAY, CLERK)
    presenter.load()
    assert [line.warn for line in presenter.rows] == [False] * 3 + [True] * 3 + [False]
    assert [line.cells[-1] for line in presenter.rows] == statuses
    assert "valid through 02/20/2027" in presenter.detail(2)  # in force, however annotated


def test_the_register_shows_each_licence_and_an_application_without_number() -> None:
    rows = [
        row(),
        row(licence_id=2, number="", issued_on=None, expires_on=None, status="applied"),
        row(licence_id=3, number="RH-2025-0004", status="suspended", operator="Otto Lodge"),
    ]
    presenter = p.RegisterPresenter(lambda _w: rows, lambda: TODAY, CLERK)
    presenter.load()
    assert [line.cells for line in presenter.rows][:2] == [
        (
            "RH-2026-0001",
            "Rita Roomer",
            "412 Vine St",
            "5",
            "02/02/2026",
            "02/20/2026",
            "02/20/2027",
            "in force",
        ),
        ("Application", "Rita Roomer", "412 Vine St", "5", "02/02/2026", "—", "—", "applied"),
    ]
    assert [line.warn for line in presenter.rows] == [False, False, True]
    assert presenter.summary == "3 licences: all"
    assert presenter.detail(0) == (
        "RH-2026-0001 · Rita Roomer · 412 Vine St · PIN 047-0001-001 · 5 persons · valid "
        "through 02/20/2027 (355 days). Enter opens it."
    )
    presenter.text = "lodge 2025"
    presenter.load()
    assert [line.cells[0] for line in presenter.rows] == ["RH-2025-0004"]
    presenter.text = "nobody"
    presenter.load()
    assert presenter.empty_text == "No licence or application matches “nobody”."


def test_an_empty_register_says_how_to_start_and_who_may() -> None:
    presenter = p.RegisterPresenter(lambda _w: [], lambda: TODAY, TREASURER)
    presenter.load()
    assert presenter.empty_text == (
        "No rooming house licences yet. New application… (Ctrl+N) records an operator's "
        "application (Hudson 140-10A)."
    )
    assert presenter.can_apply() == (False, "The clerk records applications (Hudson 140-10A).")
    presenter.which = RegisterFilter.EXPIRING
    assert presenter.empty_text == "None: expiring within 60 days."
    assert p.RegisterPresenter(lambda _w: [], lambda: TODAY, CLERK).can_apply() == (True, "")


# --- the window -------------------------------------------------------------------------------


def test_the_status_says_the_dates_that_matter() -> None:
    assert p.status_words(facts(), TODAY) == "application pending since 02/02/2026"
    issued = facts(**ISSUED)
    assert p.status_words(issued, TODAY) == (
        "in force · issued 02/20/2026, valid through 02/20/2027"
    )
    # 140-10A: valid through the anniversary, expired the day after
    assert p.status_words(issued, date(2027, 2, 20)).startswith("in force")
    assert p.status_words(issued, date(2027, 2, 21)) == "expired: last valid day 02/20/2027"
    warned = replace(issued, warned_on=date(2026, 3, 1), correct_by=date(2026, 3, 31))
    assert p.status_words(warned, TODAY).endswith("warned 03/01/2026, correct by 03/31/2026")
    # 140-10D: the suspension petitioned through the 10th day after, revoked on the 11th
    suspended = replace(issued, state=LicenceState.SUSPENDED, suspended_on=date(2026, 3, 2))
    assert p.status_words(suspended, TODAY) == (
        "suspended 03/02/2026 · petition through 03/12/2026, else revoked"
    )
    denied = facts(state=LicenceState.DENIED, denied_on=date(2026, 2, 25))
    # 10 days after the denial is Saturday 03/07, the office closed: Monday (990.001(4)(c))
    assert p.status_words(denied, TODAY) == "denied 02/25/2026 · petition through 03/09/2026"
    title, operator, dwelling, _ = p.header_words(issued, TODAY)
    assert (title, operator) == (
        "Licence RH-2026-0001",
        "Operator: Rita Roomer, 5 Oak St, Hudson WI 54016",
    )
    assert dwelling == "412 Vine St · PIN 047-0001-001 · applied 02/02/2026 · case CE-2026-0003"
    assert p.header_words(facts(), TODAY)[0] == "Application"


def test_the_clerk_issues_and_the_inspector_inspects_denies_warns_and_suspends() -> None:
    pending = facts()
    clerk, inspector = may(pending, CLERK), may(pending, INSPECTOR)
    assert clerk["issue"] == (
        False,
        "The inspector has not opened an inspection case yet (140-10A).",
    )
    assert clerk["case"][0] is False and clerk["deny"][0] is False
    assert inspector["issue"] == (
        False,
        "The City Clerk (issue rooming house licences (Hudson 140-10A)).",
    )
    assert inspector["case"] == (True, "") and inspector["deny"] == (True, "")
    inspected = replace(pending, case_id=11, case_number="CE-2026-0003")
    assert may(inspected, CLERK)["issue"] == (
        False,
        "The inspector has not inspected since the application of 02/02/2026 (140-10A).",
    )
    inspected = replace(inspected, last_inspected_on=date(2026, 2, 10))
    assert may(inspected, CLERK)["issue"] == (True, "")
    assert may(replace(inspected, open_violations=2), CLERK)["issue"] == (
        False,
        "2 violations open on case CE-2026-0003 (140-10A).",
    )
    assert may(inspected, CLERK, shortfalls=1)["issue"] == (
        False,
        "1 shortfall of 140-10E/G: see Fixtures & checks.",
    )
    # in force: the inspector warns once a violation is open, suspends after the correction date
    issued = facts(**ISSUED)
    assert may(issued, INSPECTOR)["warning"] == (
        False,
        "No violation is open on the licence's case: inspect first (140-10C).",
    )
    assert may(issued, CLERK)["warning"][0] is False
    found = replace(issued, open_violations=1)
    assert may(found, INSPECTOR)["warning"] == (True, "")
    assert may(found, INSPECTOR)["suspend"] == (
        False,
        "Give the warning notice with a correction date first (140-10C).",
    )
    warned = replace(found, warned_on=date(2026, 3, 1), correct_by=date(2026, 3, 31))
    assert may(warned, INSPECTOR)["suspend"] == (
        False,
        "The correction period runs to 03/31/2026 (140-10C).",
    )
    assert may(warned, INSPECTOR, date(2026, 3, 31))["suspend"] == (True, "")
    assert may(warned, CLERK)["petition"] == (True, "")  # 140-10D on the notice
    assert may(warned, CLERK)["change"] == (True, "")
    assert may(warned, INSPECTOR)["change"][0] is False
    assert may(issued, CLERK, date(2027, 2, 21))["change"] == (
        False,
        "RH-2026-0001 is issued, not in force.",
    )
    assert may(issued, INSPECTOR, date(2027, 2, 21))["warning"] == (
        False,
        "RH-2026-0001 expired after 02/20/2027.",
    )


def test_a_petition_once_then_the_councils_decision() -> None:
    suspended = facts(
        **{**ISSUED, "state": LicenceState.SUSPENDED, "suspended_on": date(2026, 3, 2)}
    )
    assert may(suspended, CLERK)["petition"] == (True, "")
    assert may(suspended, INSPECTOR)["decision"] == (
        False,
        "No timely petition awaits the Council's decision (140-3B, C).",
    )
    filed = replace(
        suspended, petition_filed_on=date(2026, 3, 5), petitioner="Rita", petition_timely=True
    )
    assert may(filed, CLERK)["petition"] == (False, "A petition was filed on 03/05/2026 already.")
    assert may(filed, INSPECTOR)["decision"] == (True, "")
    assert may(filed, CLERK)["decision"][0] is False


def test_the_history_reads_in_date_order_with_its_sections() -> None:
    f = facts(
        **ISSUED,
        warned_on=date(2026, 3, 1),
        correct_by=date(2026, 3, 31),
        decision=HearingDecision.WITHDRAW,
        decided_on=date(2026, 3, 20),
        findings="Corrected before the hearing.",
        changed_at=datetime(2026, 4, 1, 14, 0, tzinfo=UTC),
        change_notice_at=datetime(2026, 4, 2, 15, 0, tzinfo=UTC),
        change_notice_late=True,
        successor_name="Northside LLC",
        successor_address="77 Locust St",
        ended_on=date(2026, 4, 1),
    )
    rows = [line.cells for line in p.history_rows(f).rows]
    assert [r[:2] for r in rows] == [
        ("02/02/2026", "Application"),
        ("02/10/2026", "Inspection case"),
        ("02/20/2026", "Issued"),
        ("03/01/2026", "Warning notice"),
        ("03/20/2026", "Council"),
        ("04/01/2026", "Change of owner"),
    ]
    assert rows[2][2] == (
        "Licence RH-2026-0001, valid through 02/20/2027, by Carol Clerk; fee $25.00, receipt "
        "CC-2026-0417"
    )
    assert rows[1][2].startswith("Case CE-2026-0003: last inspected 02/10/2026, 0 open")
    assert p.history_rows(f).rows[1].item.case_id == 11  # Enter opens the case
    assert rows[5][2].startswith("Changed 04/01/2026 14:00, notice 04/02/2026 15:00 (late)")
    assert [r[3] for r in rows] == ["140-10A", "140-10A", "140-10A", "140-10C", "140-3C", "140-10A"]


def test_rooms_and_fixtures_show_each_shortfall_with_its_section() -> None:
    f = facts(persons=12, water_closets=1, lavatories=2, baths=2)
    found = [
        Shortfall("140-10E", None, "12 persons need 2 flush water closet(s); 1 supplied."),
        Shortfall("140-10G", "Room 1", "1 sleeper(s) in 80 sq ft; 140-10G requires 90 sq ft."),
    ]
    rooms = p.room_rows(f.rooms, found)
    assert [line.cells for line in rooms.rows] == [
        ("Room 1", "80", "yes", "1", "0"),
        ("Kitchen", "140.5", "no", "—", "—"),
    ]
    assert [line.warn for line in rooms.rows] == [True, False]
    cells = [line.cells for line in p.fixture_rows(f, found).rows]
    assert cells[:4] == [
        ("140-10E", "Persons residing", "12: 2 set(s) of fixtures"),
        ("140-10E", "Flush water closets", "1 (2 needed)"),
        ("140-10E", "Lavatory basins", "2 (enough)"),
        ("140-10E", "Bathtubs or showers", "2 (enough)"),
    ]
    assert cells[-2:] == [
        ("140-10E", "Shortfall", found[0].text),
        ("140-10G", "Room 1", found[1].text),
    ]


def test_the_fee_in_force_and_the_notices_to_print() -> None:
    assert p.fee_words(Decimal("25.00")) == "$25.00, as the Council set it, paid to the City Clerk"
    assert p.fee_words(Decimal(0)) == "none ($0.00, as the Council set it)"
    assert p.fee_words(None) == "not set by the Council"
    assert p.fee_warning(None).startswith("Rooming-house licence fee: the council has not set")
    assert p.notices_available(facts()) == []
    f = facts(**ISSUED, warned_on=date(2026, 3, 1), suspended_on=date(2026, 3, 31))
    assert [k for k, _ in p.notices_available(f)] == ["warning", "suspension"]
    assert p.certificate_allowed(facts(), TODAY) == (
        False,
        "Not issued: there is no certificate to print.",
    )
    assert p.certificate_allowed(facts(**ISSUED), TODAY) == (True, "")


def test_the_form_reads_numbers_and_names_the_room_row() -> None:
    assert p.parse_area("1,200", "room row 1") == Decimal(1200)
    assert p.parse_area(" 120.5 ", "room row 1") == Decimal("120.5")
    with pytest.raises(ValidationError) as e:
        p.parse_area("big", "room row 2 (Room 2)")
    assert (
        str(e.value)
        == "floor area: room row 2 (Room 2): give the floor area in square feet, e.g. 120"
    )
    with pytest.raises(ValidationError) as e:
        p.parse_count("occupants", "two", where="room row 3")
    assert str(e.value) == "occupants: room row 3: give a whole number, not “two”"
    assert p.parse_count("occupants", "") == 0
