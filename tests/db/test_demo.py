"""`permitdesk demo`: a reproducible, consistent demo register built fast with bulk inserts."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from db import queries, schema
from db.database import Database, open_database
from db.demo import DEMO_PASSWORD, DEMO_USERS, DemoSpec, build_demo
from db.engine import sqlite_url
from db.migrate import check
from db.queries import is_demo
from desk import demo_data
from desk.domain.enums import NUMBERED_STATUSES, PartyRole, PermitStatus
from desk.domain.kinds import kind_by_code
from desk.domain.numbering import parse_number
from desk.services import users

TODAY = date(2026, 11, 29)
SPEC = DemoSpec(years=3, per_year=200, seed=1, today=TODAY)
DATE_COLUMNS = ("applied_on", "issued_on", "expires_on", "commenced_on", "completed_on")


@dataclass
class Demo:
    path: Path
    database: Database
    summary: str
    progress: list[tuple[int, int]]


def _build(path: Path, spec: DemoSpec, progress: list[tuple[int, int]] | None = None) -> Demo:
    calls: list[tuple[int, int]] = [] if progress is None else progress
    database = open_database(sqlite_url(path))
    with pytest.MonkeyPatch.context() as mp:  # argon2 at its lowest cost, as in conftest
        mp.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        summary = build_demo(database, spec, progress=lambda d, t: calls.append((d, t)))
    return Demo(path, database, summary, calls)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    built = _build(tmp_path_factory.mktemp("demo") / "demo.db", SPEC)
    yield built
    built.database.close()


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
        if issued is not None and kind.trade == "building":
            assert _day(p["expires_on"]) == demo_data.add_months(issued, 18)  # 15.1.8
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


def test_db_check_finds_no_problem(demo: Demo) -> None:
    assert check(demo.database.engine) == []


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
