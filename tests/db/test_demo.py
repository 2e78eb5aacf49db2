"""`permitdesk demo`: a reproducible, consistent demo register built fast with bulk inserts."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from db import cash_queries, inspection_queries, queries, schema
from db.database import Database, open_database
from db.demo import DEMO_PASSWORD, DEMO_USERS, DemoSpec, build_demo
from db.engine import sqlite_url
from db.migrate import check
from db.queries import is_demo
from desk import demo_data
from desk.clock import FixedClock
from desk.domain.cashiering import Allocation, PaymentMethod, Tender
from desk.domain.checklists import ItemState, template_for
from desk.domain.enums import NUMBERED_STATUSES, PartyRole, PermitStatus
from desk.domain.inspections import Result, correction_due, sequence_for
from desk.domain.kinds import kind_by_code, kinds_for
from desk.domain.lifecycle import ACTIVE, Extension, PermitDates, Rule, lapsed
from desk.domain.numbering import parse_number
from desk.services import cashiering as cash
from desk.services import checklists, lifecycle, users

TODAY = date(2026, 11, 29)
# The bulk data alone: its rows are checked for time order, which the bonds and deposits the
# services add afterwards do not follow (tests/db/test_demo_sureties.py checks those).
SPEC = DemoSpec(years=3, per_year=200, seed=1, today=TODAY, sureties=False)
NL_SPEC = DemoSpec(
    municipality="new_lisbon", years=3, per_year=200, seed=1, today=TODAY, sureties=False
)
DATE_COLUMNS = ("applied_on", "issued_on", "expires_on", "commenced_on", "completed_on")


@dataclass
class Demo:
    path: Path
    database: Database
    summary: str
    progress: list[tuple[int, int]]
    municipality: str = "glendale"


def _build(path: Path, spec: DemoSpec, progress: list[tuple[int, int]] | None = None) -> Demo:
    calls: list[tuple[int, int]] = [] if progress is None else progress
    database = open_database(sqlite_url(path))
    with pytest.MonkeyPatch.context() as mp:  # argon2 at its lowest cost, as in conftest
        mp.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        summary = build_demo(database, spec, progress=lambda d, t: calls.append((d, t)))
    return Demo(path, database, summary, calls, spec.municipality)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    built = _build(tmp_path_factory.mktemp("demo") / "demo.db", SPEC)
    yield built
    built.database.close()


@pytest.fixture(scope="module")
def nl_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    built = _build(tmp_path_factory.mktemp("nl_demo") / "demo.db", NL_SPEC)
    yield built
    built.database.close()


@pytest.fixture(params=["glendale", "new_lisbon"])
def either(request: pytest.FixtureRequest) -> Demo:
    """The Glendale demo, then the New Lisbon one."""
    built: Demo = request.getfixturevalue("demo" if request.param == "glendale" else "nl_demo")
    return built


def _dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table but the users (whose password hashes are salted at random)."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            "municipality",
            "parcel",
            "party",
            "credential",
            "permit",
            "permit_party",
            "permit_listing",
            "permit_search_term",
            "number_counter",
            "audit_event",
            "permit_checklist_item",
            "permit_order",
            "permit_extension",
            "permit_fee_line",
            "fee_adjustment",
            "payment",
            "payment_allocation",
            "payment_reversal",
            "refund",
            "gl_entry",
            "payer_credit",
            "daily_close",
            "turnover",
        ]
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
    finally:
        conn.close()


def _permits(demo: Demo) -> list[sqlite3.Row]:
    conn = sqlite3.connect(demo.path)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT * FROM permit ORDER BY id").fetchall()
    finally:
        conn.close()


def _rows(demo: Demo, table: str, where: str = "") -> list[sqlite3.Row]:
    conn = sqlite3.connect(demo.path)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(f"SELECT * FROM {table} {where} ORDER BY id").fetchall()
    finally:
        conn.close()


def _day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def test_the_same_seed_builds_the_same_register_and_another_seed_a_different_one(
    demo: Demo, tmp_path: Path
) -> None:
    again = _build(tmp_path / "again.db", SPEC)
    other = _build(tmp_path / "other.db", DemoSpec(years=3, per_year=200, seed=2, today=TODAY))
    again.database.close()
    other.database.close()
    first = _dump(demo.path)
    assert _dump(again.path) == first
    assert len(first["permit"]) == 600
    assert _dump(other.path)["permit"] != first["permit"]


def test_a_build_has_exactly_years_times_per_year_permits_and_a_quarter_as_many_parcels(
    demo: Demo,
) -> None:
    with demo.database.read() as conn:
        count = conn.execute(select(func.count()).select_from(schema.permit)).scalar_one()
        parcels = conn.execute(select(func.count()).select_from(schema.parcel)).scalar_one()
    assert count == 600
    assert parcels == 150
    assert "600 permits" in demo.summary
    assert "150 parcels" in demo.summary
    assert "permitdesk" in demo.summary


def test_progress_is_reported_from_zero_to_the_total(demo: Demo) -> None:
    assert demo.progress[0] == (0, 600)
    assert demo.progress[-1] == (600, 600)
    done = [d for d, _ in demo.progress]
    assert done == sorted(done)


def test_permit_numbers_are_gapless_per_year_and_in_the_order_of_issue(demo: Demo) -> None:
    by_year: dict[int, list[tuple[date, int, int]]] = {}
    for p in _permits(demo):
        if p["number"] is None:
            continue
        year, seq = parse_number(p["number"])
        issued = _day(p["issued_on"])
        assert issued is not None and issued.year == year
        by_year.setdefault(year, []).append((issued, p["id"], seq))
    assert set(by_year) == {2023, 2024, 2025, 2026}
    for year, rows in by_year.items():
        in_issue_order = [seq for _, _, seq in sorted(rows)]
        assert in_issue_order == list(range(1, len(rows) + 1)), year


def test_the_number_counters_equal_the_last_number_of_each_year(demo: Demo) -> None:
    last: dict[int, int] = {}
    for p in _permits(demo):
        if p["number"]:
            year, seq = parse_number(p["number"])
            last[year] = max(last.get(year, 0), seq)
    with demo.database.read() as conn:
        c = schema.number_counter.c
        counters = dict(conn.execute(select(c.year, c.value).where(c.series == "P")).all())
    assert counters == last


def test_nothing_is_dated_after_today(demo: Demo) -> None:
    permits = _permits(demo)
    for p in permits:
        for column in (*DATE_COLUMNS[:1], *DATE_COLUMNS[2:], "status_date"):
            if column == "expires_on":
                continue  # a permit issued last month expires in 18 months
            day = _day(p[column])
            assert day is None or day <= TODAY, (p["id"], column, day)
    assert min(date.fromisoformat(p["applied_on"]) for p in permits) > TODAY - timedelta(days=1096)
    end_of_today_in_wisconsin = datetime(2026, 11, 30, 6, tzinfo=UTC)
    with demo.database.read() as conn:
        latest = conn.execute(select(func.max(schema.audit_event.c.at))).scalar_one()
    assert latest.replace(tzinfo=UTC) < end_of_today_in_wisconsin


def test_applications_arrive_on_office_days_mostly_in_the_building_season(demo: Demo) -> None:
    applied = [_day(p["applied_on"]) for p in _permits(demo)]
    assert all(d is not None and d.weekday() < 5 for d in applied)
    summer = sum(1 for d in applied if d is not None and d.month in (5, 6, 7, 8))
    winter = sum(1 for d in applied if d is not None and d.month in (12, 1, 2))
    assert summer > 2 * winter


def test_statuses_and_dates_tell_a_consistent_story(demo: Demo) -> None:
    statuses = set()
    moved = {e["permit_id"] for e in _rows(demo, "permit_extension", "WHERE deadline = 'complete'")}
    for p in _permits(demo):
        status = PermitStatus(p["status"])
        statuses.add(status)
        applied, issued = _day(p["applied_on"]), _day(p["issued_on"])
        assert applied is not None
        if status in NUMBERED_STATUSES:
            assert p["number"] and issued is not None and applied <= issued
            assert (issued - applied).days <= 45
            assert p["issued_by_id"] is not None
        else:
            assert p["number"] is None and issued is None
        if status == PermitStatus.COMPLETED:
            assert _day(p["completed_on"]) == _day(p["status_date"])
        else:
            assert p["completed_on"] is None
        if status in (PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED):
            assert (TODAY - applied).days < 60  # old applications were decided long ago
        kind = kind_by_code("glendale", p["kind"])
        if issued is not None and kind.lifecycle is Rule.BUILDING and p["id"] not in moved:
            assert _day(p["expires_on"]) == demo_data.add_months(issued, 18)  # 15.1.8(c)
        assert p["permit_class"] == kind.permit_class.value
        assert p["work_class"] == kind.work_class.value
    assert {PermitStatus.COMPLETED, PermitStatus.ISSUED, PermitStatus.WORK_STARTED} <= statuses


def test_floor_area_is_the_sum_of_the_levels_without_the_unfinished_basement(demo: Demo) -> None:
    dwellings = 0
    for p in _permits(demo):
        areas = json.loads(p["areas"])
        assert p["floor_area_sqft"] == sum(
            v for k, v in areas.items() if k != "basement_unfinished"
        )
        if p["kind"] == "RES-NEW-DWELLING":
            dwellings += 1
            assert p["dwelling_units"] in (1, 2)
            assert p["floor_area_sqft"] > 800
    assert dwellings > 0


def test_every_permit_has_an_owner_an_applicant_and_the_trade_that_does_the_work(
    demo: Demo,
) -> None:
    conn = sqlite3.connect(demo.path)
    try:
        roles: dict[int, set[str]] = {}
        for permit_id, role in conn.execute("SELECT permit_id, role FROM permit_party"):
            roles.setdefault(permit_id, set()).add(role)
        kinds = dict(conn.execute("SELECT id, kind FROM permit"))
    finally:
        conn.close()
    assert set(roles) == set(kinds)
    for permit_id, have in roles.items():
        assert {PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER, PartyRole.APPLICANT} <= have
        trade_role = {
            "PLUMBING": PartyRole.PLUMBER,
            "ELECTRICAL": PartyRole.ELECTRICIAN,
            "HVAC": PartyRole.HVAC_CONTRACTOR,
            "RES-NEW-DWELLING": PartyRole.CONTRACTOR,
        }.get(kinds[permit_id])
        if trade_role is not None:
            assert trade_role in have, (permit_id, kinds[permit_id])


def test_contractors_hold_credentials_some_of_which_have_lapsed(demo: Demo) -> None:
    with demo.database.read() as conn:
        expiries = conn.scalars(select(schema.credential.c.expires_on)).all()
    assert any(d < TODAY for d in expiries)
    assert sum(1 for d in expiries if d >= TODAY) > len(expiries) / 2


def test_every_permit_has_a_history_and_an_issued_one_records_its_number(demo: Demo) -> None:
    with demo.database.read() as conn:
        permits = conn.execute(
            select(schema.permit.c.id, schema.permit.c.number).order_by(schema.permit.c.id)
        ).all()
        for permit_id, number in permits[::37]:
            history = queries.permit_history(conn, permit_id)
            assert history[-1].action == "create"
            assert history[-1].username == "clerk"
            if number is not None:
                issue = [e for e in history if any(c.field == "number" for c in e.changes)]
                assert len(issue) == 1 and issue[0].username == "inspector"
                assert any(c.new == number for c in issue[0].changes)
            assert [e.at for e in history] == sorted((e.at for e in history), reverse=True)


def test_db_check_finds_no_problem(either: Demo) -> None:
    assert check(either.database.engine) == []


@pytest.mark.parametrize("username", [u for u, _, _ in DEMO_USERS])
def test_every_demo_user_signs_in_with_the_demo_password(demo: Demo, username: str) -> None:
    actor = users.authenticate(demo.database.uow(), username, DEMO_PASSWORD)
    roles = next(r for u, _, r in DEMO_USERS if u == username)
    assert actor.roles == frozenset(roles)


def test_the_search_finds_a_demo_owner_by_a_prefix_of_the_last_name(demo: Demo) -> None:
    pp, pa = schema.permit_party, schema.party
    with demo.database.read() as conn:
        muni = queries.municipality_by_key(conn, "glendale")
        assert muni is not None
        owner_id, last_name = conn.execute(
            select(pa.c.id, pa.c.last_name)
            .join(pp, pp.c.party_id == pa.c.id)
            .where(pp.c.role == PartyRole.BUILDING_OWNER, pa.c.last_name != "")
            .order_by(pp.c.id)
            .limit(1)
        ).one()
        owned = set(
            conn.scalars(
                select(pp.c.permit_id).where(
                    pp.c.party_id == owner_id, pp.c.role == PartyRole.BUILDING_OWNER
                )
            )
        )
        prefix = last_name[:5].lower()
        count = queries.count_permits(conn, muni[0], prefix)
        rows = queries.search_permits(conn, muni[0], prefix, limit=1000)
    assert count == len(rows) >= len(owned) >= 1
    assert owned <= {r.id for r in rows}
    assert any(last_name in r.owner for r in rows)


def test_the_search_finds_permits_by_a_number_prefix_and_a_street(demo: Demo) -> None:
    with demo.database.read() as conn:
        muni = queries.municipality_by_key(conn, "glendale")
        assert muni is not None
        in_2025 = queries.count_permits(conn, muni[0], "2025-0")
        numbered_2025 = conn.execute(
            select(func.count())
            .select_from(schema.permit)
            .where(schema.permit.c.number.like("2025-%"))
        ).scalar_one()
        rows = queries.search_permits(conn, muni[0], "port wash", limit=50)
    assert in_2025 == min(numbered_2025, 999)
    assert rows and all("Port Washington" in r.address for r in rows)


def test_is_demo_is_true_for_a_demo_database_and_false_for_an_empty_one(
    demo: Demo, tmp_path: Path
) -> None:
    with demo.database.read() as conn:
        assert is_demo(conn)
        settings = conn.execute(select(schema.municipality.c.settings)).scalar_one()
        inspector = conn.execute(select(schema.municipality.c.inspector_name)).scalar_one()
    assert settings["city"] == "Glendale"
    assert inspector == demo_data.DEMO_INSPECTOR_NAME
    empty = open_database(sqlite_url(tmp_path / "empty.db"))
    try:
        with empty.read() as conn:
            assert not is_demo(conn)
    finally:
        empty.close()


# --- every kind, every status, checklists in every state (issue 4) --------------------------


def _user_id(demo: Demo, username: str) -> int:
    with demo.database.read() as conn:
        u = schema.app_user
        return int(conn.execute(select(u.c.id).where(u.c.username == username)).scalar_one())


def _municipality_id(demo: Demo) -> int:
    with demo.database.read() as conn:
        found = queries.municipality_by_key(conn, demo.municipality)
    assert found is not None
    return found[0]


def _statuses(demo: Demo) -> dict[int, PermitStatus]:
    return {p["id"]: PermitStatus(p["status"]) for p in _permits(demo)}


def test_every_kind_appears_a_handful_of_times_and_recently_with_its_checklist(
    either: Demo,
) -> None:
    kinds = kinds_for(either.municipality)
    counted = Counter(p["kind"] for p in _permits(either))
    assert {k.code: min(counted[k.code], 5) for k in kinds} == {k.code: 5 for k in kinds}
    conn = sqlite3.connect(either.path)
    try:
        with_checklist = {
            kind
            for (kind,) in conn.execute(
                "SELECT DISTINCT p.kind FROM permit p "
                "JOIN permit_checklist_item c ON c.permit_id = p.id"
            )
        }
    finally:
        conn.close()
    assert with_checklist == {k.code for k in kinds if template_for(either.municipality, k.code)}


def test_every_status_appears(either: Demo) -> None:
    counted = Counter(_statuses(either).values())
    assert set(counted) == set(PermitStatus)
    assert all(n >= 2 for n in counted.values()), counted
    # Open applications are recent; the register is mostly work completed.
    assert counted[PermitStatus.COMPLETED] > len(_permits(either)) * 0.8


def test_checklist_items_are_in_every_state_and_a_waiver_says_why_and_who(either: Demo) -> None:
    items = _rows(either, "permit_checklist_item")
    assert {ItemState(r["state"]) for r in items} == set(ItemState)
    inspector, clerk = _user_id(either, "inspector"), _user_id(either, "clerk")
    waived = {r["id"]: r for r in items if r["state"] == ItemState.WAIVED}
    assert waived
    for r in waived.values():
        assert r["reason"].strip() and r["by_user_id"] == inspector and r["at"] is not None
    for r in items:
        if r["state"] in (ItemState.RECEIVED, ItemState.NOT_APPLICABLE):
            assert r["by_user_id"] == clerk and r["at"] is not None and not r["reason"]
        if r["state"] == ItemState.OPEN:
            assert r["by_user_id"] is None and r["at"] is None
    # 15.1.7(c): each waiver is in the permit's history, by the inspector, with its reason.
    audit = _rows(either, "audit_event", "WHERE entity = 'permit_checklist_item'")
    assert {a["entity_id"] for a in audit} == set(waived)
    for a in audit:
        changes = {c["field"]: c["new"] for c in json.loads(a["changes"])}
        item = waived[a["entity_id"]]
        assert a["user_id"] == inspector and a["permit_id"] == item["permit_id"]
        assert changes["state"] == "waived" and changes["reason"] == item["reason"]


def test_issued_permits_have_settled_checklists_that_issuance_accepts(either: Demo) -> None:
    statuses = _statuses(either)
    issued_on = {p["id"]: _day(p["issued_on"]) for p in _permits(either)}
    items = _rows(either, "permit_checklist_item")
    numbered = {r["permit_id"] for r in items if statuses[r["permit_id"]] in NUMBERED_STATUSES}
    assert len(numbered) > 100
    assert not [r["id"] for r in items if r["permit_id"] in numbered and r["state"] == "open"]
    for permit_id in sorted(numbered)[::4]:
        day = issued_on[permit_id]
        assert day is not None
        # What issue_permit checks, on the day it was issued.
        assert checklists.checklist_shortfalls(either.database.uow(), permit_id, day) == []


def test_open_applications_show_what_is_missing_and_some_are_ready(demo: Demo) -> None:
    statuses = _statuses(demo)
    waiting = [
        i
        for i, s in statuses.items()
        if s in (PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED)
    ]
    found = {i: checklists.checklist_shortfalls(demo.database.uow(), i, TODAY) for i in waiting}
    missing = [i for i, s in found.items() if any("not received" in x for x in s)]
    assert missing, found
    assert any(not s for s in found.values()), found


def test_one_open_application_has_a_survey_more_than_a_year_old(demo: Demo) -> None:
    statuses = _statuses(demo)
    old = []
    for r in _rows(demo, "permit_checklist_item", "WHERE code = 'survey.date'"):
        status = statuses[r["permit_id"]]
        if status in NUMBERED_STATUSES or status in (PermitStatus.WITHDRAWN, PermitStatus.DENIED):
            continue
        dated = _day(r["value_date"])
        if dated is not None and dated < TODAY - timedelta(days=366):
            old.append((r["permit_id"], dated))
    assert old
    permit_id, dated = old[0]
    # The issue dialog's shortfall, and the only one of its checklist (15.1.7(b)(2)).
    assert checklists.checklist_shortfalls(demo.database.uow(), permit_id, TODAY) == [
        f"Survey dated {dated:%m/%d/%Y} is more than one year old (15.1.7(b)(2))"
    ]


def test_the_lapse_sweep_on_the_demo_day_expires_nothing_and_a_week_later_only_what_fell_due(
    either: Demo, tmp_path: Path
) -> None:
    copy = tmp_path / "copy.db"
    source, target = sqlite3.connect(either.path), sqlite3.connect(copy)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    database = open_database(sqlite_url(copy))
    try:
        muni = _municipality_id(either)
        today = FixedClock(TODAY)
        due = lifecycle.lapsing_within(database.uow(), today, muni, 6)
        assert lifecycle.sweep_lapsed(database.uow(), today, muni) == []
        week = lifecycle.sweep_lapsed(database.uow(), FixedClock(TODAY + timedelta(7)), muni)
    finally:
        database.close()
    assert {x.permit_id for x in week} == {d.permit_id for d in due}
    assert len(week) <= 6


def test_on_hold_permits_have_an_open_stop_work_order(either: Demo) -> None:
    statuses = _statuses(either)
    status_date = {p["id"]: _day(p["status_date"]) for p in _permits(either)}
    inspector = _user_id(either, "inspector")
    orders = _rows(either, "permit_order", "WHERE kind = 'stop_work'")
    in_force = {o["permit_id"]: o for o in orders if o["lifted_on"] is None}
    held = {i for i, s in statuses.items() if s is PermitStatus.ON_HOLD}
    assert held and set(in_force) == held
    for permit_id, o in in_force.items():
        served = _day(o["issued_on"])
        assert served == status_date[permit_id] and served is not None and served.weekday() < 5
        assert o["reasons"].strip() and o["by_user_id"] == inspector and not o["lift_notice"]
        if either.municipality == "glendale":
            assert o["section"] == "15.1.12"
        else:
            assert o["section"].startswith("§435-")
    for o in orders:
        if o["lifted_on"] is not None:  # lifted by written notice: work resumed (15.1.12)
            assert statuses[o["permit_id"]] is PermitStatus.WORK_STARTED
            assert o["lift_notice"].startswith("Violation corrected")
            assert _day(o["lifted_on"]) == status_date[o["permit_id"]]


def test_revoked_permits_have_a_revocation_order_with_its_reasons(either: Demo) -> None:
    statuses = _statuses(either)
    status_date = {p["id"]: _day(p["status_date"]) for p in _permits(either)}
    orders = {o["permit_id"]: o for o in _rows(either, "permit_order", "WHERE kind = 'revocation'")}
    revoked = {i for i, s in statuses.items() if s is PermitStatus.REVOKED}
    assert revoked and set(orders) == revoked
    section = (
        "15.1.7(g)" if either.municipality == "glendale" else "§435-10 (Conditions of occupancy)"
    )
    for permit_id, o in orders.items():
        assert _day(o["issued_on"]) == status_date[permit_id]
        assert o["section"] == section
        assert any(text in o["reasons"] for text in lifecycle.REVOCATION_REASONS.values())


def _dates(p: sqlite3.Row, rule: Rule, extensions: list[sqlite3.Row]) -> PermitDates:
    return PermitDates(
        rule=rule,
        status=PermitStatus(p["status"]),
        issued_on=_day(p["issued_on"]),
        approved_on=_day(p["approved_on"]),
        commenced_on=_day(p["commenced_on"]),
        last_activity_on=_day(p["last_activity_on"]),
        requested_until=_day(p["requested_until"]),
        extensions=tuple(
            Extension(e["deadline"], date.fromisoformat(e["until"]), e["reason"])
            for e in extensions
        ),
    )


def test_expiry_dates_and_lapses_follow_the_deadline_rules(either: Demo) -> None:
    by_permit: dict[int, list[sqlite3.Row]] = {}
    for e in _rows(either, "permit_extension"):
        by_permit.setdefault(e["permit_id"], []).append(e)
    expired = 0
    for p in _permits(either):
        status = PermitStatus(p["status"])
        if status not in NUMBERED_STATUSES:
            continue
        rule = kind_by_code(either.municipality, p["kind"]).lifecycle
        dates = _dates(p, rule, by_permit.get(p["id"], []))
        # The term the app sets on issue and on each extension.
        assert _day(p["expires_on"]) == lifecycle.term_end(dates), p["id"]
        if status in ACTIVE:
            assert lapsed(dates, TODAY) is None, p["id"]
        if status is PermitStatus.EXPIRED:  # the morning after its first deadline passed
            expired += 1
            on = _day(p["status_date"])
            assert on is not None
            missed = lapsed(replace(dates, status=PermitStatus.WORK_STARTED), on)
            assert missed is not None and missed.due == on - timedelta(days=1), p["id"]
    assert expired >= 2


def test_extensions_name_the_deadline_a_reason_and_the_inspector(either: Demo) -> None:
    inspector = _user_id(either, "inspector")
    statuses = _statuses(either)
    extensions = _rows(either, "permit_extension")
    assert extensions
    for e in extensions:
        assert e["deadline"] in ("start", "resume", "complete", "expires")
        assert e["reason"].strip() and e["by_user_id"] == inspector and e["at"] is not None
    assert sum(1 for e in extensions if statuses[e["permit_id"]] in ACTIVE) >= 2


def test_the_history_is_in_time_order_and_records_each_order_extension_and_lapse(
    either: Demo,
) -> None:
    audit = _rows(either, "audit_event")
    ats = [a["at"] for a in audit]
    assert ats == sorted(ats)  # ids follow time: the History tab lists newest first by id
    created = {(a["entity"], a["entity_id"]): a for a in audit if a["action"] == "create"}
    inspector = _user_id(either, "inspector")
    for table, field in (("permit_order", "reasons"), ("permit_extension", "reason")):
        for row in _rows(either, table):
            a = created[(table, row["id"])]
            assert a["permit_id"] == row["permit_id"] and a["user_id"] == inspector
            changes = {c["field"]: c["new"] for c in json.loads(a["changes"])}
            assert changes[field] == row[field]
    last: dict[int, sqlite3.Row] = {}
    for a in audit:
        if a["entity"] == "permit":
            last[a["entity_id"]] = a
    for p in _permits(either):
        changes = {c["field"]: c["new"] for c in json.loads(last[p["id"]]["changes"])}
        if p["status"] == "expired":  # by the lapse sweep, with no one signed in
            assert last[p["id"]]["user_id"] is None
            assert changes == {"status": "expired", "status_date": p["status_date"]}
        elif "status" in changes:
            assert changes["status"] == p["status"]


def test_a_demo_on_either_backend_leaves_the_services_working(
    database: Database,
) -> None:
    """PostgreSQL too: the sequences follow the demo's own ids, so the next order, extension
    and checklist mark the services make get fresh ones."""
    build_demo(database, DemoSpec(years=1, per_year=300, seed=3, today=TODAY))
    clock = FixedClock(TODAY)
    with database.read() as conn:
        found = queries.municipality_by_key(conn, "glendale")
        assert found is not None
        muni = found[0]
        p, o = schema.permit, schema.permit_order
        top_order = conn.execute(select(func.max(o.c.id))).scalar_one()
        working = conn.scalars(
            select(p.c.id)
            .where(p.c.status == PermitStatus.WORK_STARTED, p.c.kind == "RES-REMODEL")
            .order_by(p.c.id)
        ).all()
        waiting = conn.scalars(
            select(p.c.id).where(p.c.status == PermitStatus.IN_REVIEW).order_by(p.c.id)
        ).all()
    assert lifecycle.sweep_lapsed(database.uow(), clock, muni) == []
    # A payment takes the next receipt number of the year (the counter follows the demo's).
    with database.read() as conn:
        pay = schema.payment
        last = conn.scalars(
            select(pay.c.receipt_number).where(pay.c.receipt_number.like("2026-%"))
        ).all()
        owing = cash_queries.payable_permits(conn, muni, "", owing_only=True, limit=1)
    assert owing, "an open application owes its fees"
    clerk = users.authenticate(database.uow(), "clerk", DEMO_PASSWORD)
    paid = cash.take_payment(
        database.uow(),
        clock,
        clerk,
        cash.PaymentInput(
            municipality_id=muni,
            tender=Tender(PaymentMethod.CASH, owing[0].due),
            allocations=(Allocation(owing[0].permit_id, owing[0].due),),
            payer_name="Demo payer",
            drawer="Counter 2",
        ),
    )
    assert paid.receipt_number == f"2026-{max(parse_number(n)[1] for n in last) + 1:04d}"
    inspector = users.authenticate(database.uow(), "inspector", DEMO_PASSWORD)
    order = lifecycle.issue_stop_work_order(
        database.uow(), clock, inspector, working[0], "Stairs without handrails", "15.1.12"
    )
    assert order > top_order
    lifecycle.extend_deadline(
        database.uow(), clock, inspector, working[-1], "complete", TODAY + timedelta(900), "Demo"
    )
    _, lines = checklists.checklist_lines(database.uow(), waiting[0])
    checklists.mark_item(
        database.uow(), clock, inspector, waiting[0], lines[0].code, ItemState.WAIVED, reason="Demo"
    )
    assert check(database.engine) == []


# --- the money (issue 5) ---------------------------------------------------------------------


D0 = Decimal("0.00")


def _money(demo: Demo) -> dict[int, tuple[Decimal, Decimal]]:
    with demo.database.read() as conn:
        return cash_queries.permit_money(conn, [p["id"] for p in _permits(demo)])


def test_fees_are_assessed_with_the_schedule_on_the_day_the_application_came_in(
    either: Demo,
) -> None:
    permits = {p["id"]: p for p in _permits(either)}
    lines = _rows(either, "permit_fee_line")
    versions = {v["id"] for v in _rows(either, "fee_schedule_version")}
    assert lines and {line["version_id"] for line in lines} <= versions
    for line in lines:
        permit = permits[line["permit_id"]]
        assert line["assessed_on"] == permit["applied_on"]
        assert permit["status"] != PermitStatus.DRAFT
        assert line["amount"] > 0
    priced = {line["permit_id"] for line in lines}
    assert len(priced) > len(permits) * 0.8  # solid fill and the like price nothing
    if either.municipality == "glendale":
        house = next(
            line for line in lines if line["code"] == "RES-STATE-SEAL"
        )  # a new dwelling pays the state seal (15.1.21(a)(1)a)
        assert house["amount"] == 3500  # cents


def test_every_issued_permit_was_paid_in_full_by_the_day_it_was_issued(either: Demo) -> None:
    money = _money(either)
    paid_on: dict[int, date] = {}
    payments = {r["id"]: r for r in _rows(either, "payment")}
    for a in _rows(either, "payment_allocation"):
        day = _day(payments[a["payment_id"]]["day"])
        assert day is not None
        paid_on[a["permit_id"]] = min(day, paid_on.get(a["permit_id"], day))
    added: Counter[int] = Counter()
    for a in _rows(either, "fee_adjustment", "WHERE source = 'added'"):
        added[a["permit_id"]] += a["amount"]  # re-inspection fees, after issuance
    for p in _permits(either):
        charged, paid = money[p["id"]]
        if p["number"] is not None and charged:
            # Due at most the fees added since issuance (a re-inspection billed lately).
            assert D0 <= charged - paid <= Decimal(added[p["id"]]) / 100, p["id"]
            issued = _day(p["issued_on"])
            assert issued is not None and paid_on[p["id"]] <= issued, p["id"]
    owing = [i for i, (c, paid) in money.items() if c > paid]
    assert owing, "some open applications still owe their fees"


def test_receipts_are_numbered_gaplessly_per_year_in_the_order_taken(demo: Demo) -> None:
    payments = _rows(demo, "payment")
    by_year: dict[int, list[tuple[str, int]]] = {}
    for r in payments:
        year, seq = parse_number(r["receipt_number"])
        assert date.fromisoformat(r["day"]).year == year
        by_year.setdefault(year, []).append((r["received_at"], seq))
    with demo.database.read() as conn:
        c = schema.number_counter.c
        counters = dict(conn.execute(select(c.year, c.value).where(c.series == "R")).all())
    for year, rows in by_year.items():
        assert [seq for _, seq in sorted(rows)] == list(range(1, len(rows) + 1)), year
        assert counters[year] == len(rows)


def test_the_demo_shows_voids_a_returned_check_refunds_and_a_contractors_check_for_several(
    either: Demo,
) -> None:
    reversals = _rows(either, "payment_reversal")
    assert sum(1 for r in reversals if r["kind"] == "void") >= 2
    assert all(r["reason"].strip() for r in reversals)
    (nsf,) = [r for r in reversals if r["kind"] == "nsf"]
    assert "insufficient funds" in nsf["bank_notice"] and nsf["turnover_id"] is not None
    refunds = _rows(either, "refund")
    assert {r["ground"] for r in refunds} >= {"withdrawn", "denied"}
    assert all(r["check_number"] and r["reason"] for r in refunds)
    allocations = Counter(a["payment_id"] for a in _rows(either, "payment_allocation"))
    payments = {r["id"]: r for r in _rows(either, "payment")}
    several = [payments[i] for i, n in allocations.items() if n > 1]
    assert any(p["method"] == "check" for p in several)
    assert {r["method"] for r in payments.values()} == {"cash", "check", "card", "money_order"}
    # 15.1.42: a plumbing permit voided at the plumber's request refunds all but $10.00.
    voided = {
        p["id"] for p in _permits(either) if p["status"] == "void" and p["kind"] == "PLUMBING"
    }
    plumbing = [r for r in refunds if r["ground"] == "plumbing_void"]
    assert {r["permit_id"] for r in plumbing} <= voided
    assert all(r["kept"] == 1000 for r in plumbing)
    if either.municipality == "glendale":
        assert {r["permit_id"] for r in plumbing} == {
            i for i in voided if any(a["permit_id"] == i for a in _rows(either, "gl_entry"))
        }


def test_past_days_are_closed_and_turned_over_and_the_treasurer_acknowledged_them(
    either: Demo,
) -> None:
    closes = _rows(either, "daily_close")
    payments = _rows(either, "payment")
    days = {r["day"] for r in payments if date.fromisoformat(r["day"]) < TODAY}
    assert {c["day"] for c in closes} == days
    assert all(r["close_id"] is not None for r in payments if r["day"] in days)
    for c in closes:
        if c["over_short"]:
            assert c["explanation"].strip()
    turnovers = _rows(either, "turnover")
    pending = [t for t in turnovers if t["acknowledged_on"] is None]
    assert len(pending) == 1 and pending[0]["id"] == max(t["id"] for t in turnovers)
    treasurer, clerk = _user_id(either, "treasurer"), _user_id(either, "clerk")
    for t in turnovers:
        assert t["delivered_by_id"] == clerk
        if t["acknowledged_on"] is not None:
            assert t["acknowledged_by_id"] == treasurer and t["deposit_ref"]
            assert t["acknowledged_on"] > t["delivered_on"]
    flagged = [t for t in turnovers if t["difference"]]
    assert len(flagged) == 1 and flagged[0]["resolution"]


def test_the_treasurers_reconciliation_of_the_demo_years_balances(either: Demo) -> None:
    clock = FixedClock(TODAY)
    muni = _municipality_id(either)
    whole = cash.reconciliation(either.database.uow(), clock, muni, TODAY - timedelta(1200), TODAY)
    assert whole.balanced and whole.gl_balanced
    assert whole.voids > 0 and whole.nsf > 0 and whole.refunds > 0
    assert whole.acknowledged > 0 and whole.pending > 0
    assert whole.net == whole.receipts - whole.voids - whole.nsf - whole.refunds
    last_year = cash.reconciliation(
        either.database.uow(), clock, muni, date(2025, 1, 1), date(2025, 12, 31)
    )
    assert last_year.balanced and last_year.gl_balanced
    with either.database.read() as conn:
        day = conn.execute(
            select(func.max(schema.daily_close.c.day)).where(
                schema.daily_close.c.municipality_id == muni
            )
        ).scalar_one()
        report = cash_queries.daily_cash(conn, muni, day)
    assert report.all_closed and report.expected == report.drawers[0].expected


# --- inspections (issue 7) -------------------------------------------------------------------


def _inspections(demo: Demo) -> dict[int, list[sqlite3.Row]]:
    by_permit: dict[int, list[sqlite3.Row]] = {}
    for r in _rows(demo, "inspection"):
        by_permit.setdefault(r["permit_id"], []).append(r)
    return by_permit


def test_every_started_building_permit_had_its_location_inspected_after_issue(
    demo: Demo,
) -> None:
    found = _inspections(demo)
    checked = 0
    for p in _permits(demo):
        seq = sequence_for("glendale", p["kind"])
        if seq is None or seq.types[0].code != "BLD-LOCATION" or p["commenced_on"] is None:
            continue
        if p["number"] is None or p["status"] == PermitStatus.VOID:
            continue
        location = [r for r in found.get(p["id"], []) if r["type_code"] == "BLD-LOCATION"]
        assert location, f"{p['number']} ({p['kind']}, {p['status']}) has no location inspection"
        for r in location:
            assert _day(r["scheduled_on"]) >= _day(p["issued_on"])  # type: ignore[operator]
        checked += 1
    assert checked > 20


def test_completed_new_dwellings_passed_their_final_on_completed_on_and_hold_a_certificate(
    demo: Demo,
) -> None:
    found = _inspections(demo)
    certificates = {c["permit_id"]: c for c in _rows(demo, "occupancy_certificate")}
    completed = [
        p
        for p in _permits(demo)
        if p["kind"] == "RES-NEW-DWELLING" and p["status"] == PermitStatus.COMPLETED
    ]
    assert completed
    for p in completed:
        finals = [
            r
            for r in found[p["id"]]
            if r["type_code"] == "BLD-FINAL" and r["result"] == Result.PASSED
        ]
        assert [f["scheduled_on"] for f in finals] == [p["completed_on"]], p["number"]
        cert = certificates[p["id"]]
        assert cert["issued_on"] == p["completed_on"]
        assert cert["use_stated"].endswith("-family dwelling")
        assert cert["inspector_name"] == "Ivan Inspector"


def test_certificates_of_occupancy_are_numbered_gaplessly_per_year_with_the_counter_set(
    demo: Demo,
) -> None:
    certs = sorted(_rows(demo, "occupancy_certificate"), key=lambda c: (c["issued_on"], c["id"]))
    assert certs
    by_year: dict[int, list[int]] = {}
    for c in certs:
        year, seq_no = parse_number(c["number"])
        assert year == date.fromisoformat(c["issued_on"]).year
        by_year.setdefault(year, []).append(seq_no)
    with demo.database.read() as conn:
        c = schema.number_counter.c
        counters = dict(conn.execute(select(c.year, c.value).where(c.series == "CO")).all())
    for year, numbers in by_year.items():
        assert numbers == list(range(1, len(numbers) + 1))
        assert counters[year] == len(numbers)


def test_some_inspections_are_rejected_with_a_correction_order_and_most_were_corrected(
    demo: Demo,
) -> None:
    rejected = {r["id"]: r for r in _rows(demo, "inspection", "WHERE result = 'rejected'")}
    orders = _rows(demo, "correction_order")
    assert len(rejected) >= 10
    assert {o["inspection_id"] for o in orders} == set(rejected)
    corrected = [o for o in orders if o["corrected_on"] is not None]
    assert len(corrected) > len(orders) / 2
    for o in orders:
        insp = rejected[o["inspection_id"]]
        noticed = date.fromisoformat(o["noticed_on"])
        trade = "electrical" if insp["type_code"].startswith("ELE-") else "building"
        # 15.1.90(b)(1): 30 days to correct; electrical work 7 (15.1.76(c)).
        assert o["due_on"] == correction_due(noticed, trade).isoformat()
        assert o["items"].strip()
    # A corrected stage passed on re-inspection that day, with the fee or its waiver.
    passes = {
        (r["permit_id"], r["type_code"], r["scheduled_on"]): r
        for r in _rows(demo, "inspection", "WHERE result IN ('passed', 'ok_for_service')")
    }
    for o in corrected:
        insp = rejected[o["inspection_id"]]
        assert (o["permit_id"], insp["type_code"], o["corrected_on"]) in passes
    failures = _rows(demo, "inspection", "WHERE failure_to_call")
    assert failures and all(f["fee_waiver"] and f["result"] is None for f in failures)


def test_the_inspectors_day_on_the_demo_day_is_not_empty(demo: Demo) -> None:
    day = demo_data.next_office_day(TODAY)
    with demo.database.read() as conn:
        stops = inspection_queries.inspector_day(conn, _user_id(demo, "inspector"), day)
        waiting = inspection_queries.open_requests(conn, _municipality_id(demo))
    assert len(stops) >= 5
    assert [s.position for s in stops] == list(range(1, len(stops) + 1))
    assert waiting


def test_inspections_of_a_demo_on_either_backend_read_back_through_the_queries(
    database: Database,
) -> None:
    build_demo(database, DemoSpec(years=1, per_year=300, seed=1, today=TODAY))
    with database.read() as conn:
        i = schema.inspection
        counted = conn.execute(select(func.count()).select_from(i)).scalar_one()
        permit_id = conn.execute(
            select(i.c.permit_id).where(i.c.result == Result.REJECTED).limit(1)
        ).scalar_one()
        shown = inspection_queries.permit_inspections(conn, permit_id)
    assert counted > 100
    assert shown is not None and shown.inspections
    assert check(database.engine) == []
