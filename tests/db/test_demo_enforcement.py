"""`permitdesk demo --municipality hudson`: code enforcement only (Hudson ch. 140), every state
of 140-3 entered through the services."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from db import enforcement_queries as eq
from db import licence_register_queries as lq
from db import schema
from db.database import Database, open_database
from db.demo import DemoSpec, build_demo
from db.engine import sqlite_url
from desk.demo_data import HUDSON_STREETS
from desk.enforcement.licences import RegisterFilter
from desk.enforcement.readmodels import CaseFilter
from desk.services import users
from desk.services.enforcement import licences

ROOT = Path(__file__).resolve().parents[2]
TODAY = date(2026, 11, 29)
SPEC = DemoSpec(municipality="hudson", years=3, per_year=200, seed=1, today=TODAY)


def _build(path: Path, spec: DemoSpec = SPEC) -> tuple[Database, str]:
    database = open_database(sqlite_url(path))
    with pytest.MonkeyPatch.context() as mp:  # argon2 at its lowest cost, as in conftest
        mp.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        summary = build_demo(database, spec)
    return database, summary


@pytest.fixture(scope="module")
def hudson(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Database, str, Path]]:
    path = tmp_path_factory.mktemp("hudson") / "hudson.db"
    database, summary = _build(path)
    yield database, summary, path
    database.close()


def _mid(database: Database) -> int:
    with database.read() as conn:
        return int(conn.execute(select(schema.municipality.c.id)).scalar_one())


def test_the_hudson_demo_is_the_city_of_hudson_with_code_enforcement_and_no_permits(
    hudson: tuple[Database, str, Path],
) -> None:
    database, summary, _ = hudson
    assert "City of Hudson" in summary and "11 rooming-house licences" in summary
    assert "the Council sets the licence fee: $50.00 here is demo data" in summary
    m = schema.municipality
    with database.read() as conn:
        row = conn.execute(select(m.c.key, m.c.name, m.c.settings, m.c.letterhead)).one()
        permits = conn.execute(select(func.count()).select_from(schema.permit)).scalar_one()
        streets = set(conn.execute(select(schema.parcel.c.street)).scalars())
        people = set(conn.execute(select(schema.app_user.c.username)).scalars())
        cases = conn.execute(select(func.count()).select_from(schema.enforcement_case)).scalar()
    assert (row.key, row.name) == ("hudson", "City of Hudson")
    assert row.settings["housing_code"] == "hudson-140"
    assert row.letterhead[-1] == "Hudson, WI 54016"
    assert permits == 0
    assert streets <= {s.name for s in HUDSON_STREETS}
    assert {"admin", "clerk", "inspector", "engineer", "treasurer"} <= people
    with database.read() as conn:  # the Building Inspector's rooming-house cases (140-10A)
        licence_cases = conn.execute(
            select(func.count(schema.rooming_licence.c.case_id.distinct()))
        ).scalar_one()
        inspections = conn.execute(  # a suspended licence's 140-10I is found on a later case
            select(func.count()).where(
                schema.enforcement_case.c.summary.startswith("Rooming house licence inspection")
            )
        ).scalar_one()
    assert licence_cases == 9 and inspections == 13
    assert cases == round(200 * 3 / 30) + inspections


def test_every_filter_of_the_case_list_has_cases(hudson: tuple[Database, str, Path]) -> None:
    database, _, _ = hudson
    with database.read() as conn:
        counts = {f: len(eq.case_rows(conn, _mid(database), TODAY, f)) for f in CaseFilter}
    assert all(counts.values()), counts
    assert counts[CaseFilter.ALL] > counts[CaseFilter.OPEN]


def test_every_stage_of_140_3_is_present(hudson: tuple[Database, str, Path]) -> None:
    database, _, _ = hudson
    c, n, o = schema.enforcement_case, schema.enforcement_notice, schema.enforcement_order
    es, sv = schema.enforcement_escalation, schema.enforcement_service
    with database.read() as conn:
        decisions = Counter(
            d.value for d in conn.execute(select(n.c.decision)).scalars() if d is not None
        )
        orders = Counter(k.value for k in conn.execute(select(o.c.kind)).scalars())
        escalations = Counter(k.value for k in conn.execute(select(es.c.kind)).scalars())
        closed = Counter(
            r.value for r in conn.execute(select(c.c.closed_reason)).scalars() if r is not None
        )
        kinds = Counter(k.value for k in conn.execute(select(n.c.kind)).scalars())
        returned = conn.execute(
            select(func.count()).select_from(sv).where(sv.c.returned_on.is_not(None))
        ).scalar_one()
        posted = conn.execute(
            select(func.count()).select_from(sv).where(sv.c.method == "posting")
        ).scalar_one()
        open_ids = [r.case_id for r in eq.case_rows(conn, _mid(database), TODAY, CaseFilter.OPEN)]
        kinds_of_timeline = [{e.kind for e in eq.timeline(conn, i)} for i in open_ids]
        serve_again = eq.serve_again(conn, _mid(database))
    assert set(decisions) == {"sustain", "modify", "withdraw"}
    assert set(orders) == {"automatic", "council", "emergency"}
    assert set(escalations) == {"reinspection", "citation", "abatement"}
    assert set(closed) == {"corrected", "unfounded", "withdrawn"}
    assert kinds["emergency"] >= 1 and kinds["notice"] >= 1
    assert returned >= 2 and posted >= 1 and serve_again
    # a complaint only, its first inspection scheduled on the inspector's day
    assert {"complaint", "visit"} in kinds_of_timeline
    assert any(
        k == {"complaint", "inspection"} or k == {"case", "inspection"} for k in kinds_of_timeline
    )


def test_the_special_charge_list_has_the_citys_abatements(
    hudson: tuple[Database, str, Path],
) -> None:
    database, _, _ = hudson
    es = schema.enforcement_escalation
    with database.read() as conn:
        years = set(
            conn.execute(select(es.c.tax_roll_year).where(es.c.kind == "abatement")).scalars()
        )
        rows = [r for y in years for r in eq.special_charges(conn, _mid(database), y)]
    assert rows and all(r.cost > 0 and r.case_number.startswith("CE-") for r in rows)


def test_case_numbers_are_gapless_per_year_of_opening(hudson: tuple[Database, str, Path]) -> None:
    database, _, _ = hudson
    c = schema.enforcement_case
    with database.read() as conn:
        rows = conn.execute(select(c.c.number, c.c.opened_on).order_by(c.c.id)).all()
    by_year: dict[int, list[int]] = {}
    for number, opened_on in rows:
        prefix, year, seq = number.split("-")
        assert prefix == "CE" and int(year) == opened_on.year and len(seq) == 4
        by_year.setdefault(int(year), []).append(int(seq))
    for seqs in by_year.values():
        assert sorted(seqs) == list(range(1, len(seqs) + 1))


def test_complainants_have_names_that_no_list_or_timeline_shows(
    hudson: tuple[Database, str, Path],
) -> None:
    database, _, _ = hudson
    cp = schema.enforcement_complaint
    with database.read() as conn:
        names = [n for n in conn.execute(select(cp.c.complainant_name)).scalars()]
        rows = eq.case_rows(conn, _mid(database), TODAY)
        shown = " ".join(repr(r) for r in rows)
        shown += " ".join(repr(e) for r in rows for e in eq.timeline(conn, r.case_id))
    assert names and all(n.strip() for n in names)
    assert not [n for n in names if n in shown]


def test_the_same_seed_builds_the_same_cases(
    hudson: tuple[Database, str, Path], tmp_path: Path
) -> None:
    database, _, _ = hudson
    again, _ = _build(tmp_path / "again.db")
    c, pc = schema.enforcement_case, schema.parcel

    def cases(db: Database) -> list[tuple[object, ...]]:
        with db.read() as conn:
            rows = conn.execute(
                select(c.c.number, c.c.opened_on, c.c.closed_on, pc.c.pin)
                .join(pc, pc.c.id == c.c.parcel_id)
                .order_by(c.c.number)
            ).all()
            return [
                (*r, tuple(eq.timeline(conn, i)))
                for r, i in zip(
                    rows, conn.execute(select(c.c.id).order_by(c.c.number)).scalars(), strict=True
                )
            ]

    try:
        assert cases(again) == cases(database)
    finally:
        again.close()


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.parametrize("view", ["enforcement", "case"])
def test_screenshots_of_the_case_list_and_a_case_on_the_hudson_demo(
    hudson: tuple[Database, str, Path], tmp_path: Path, view: str
) -> None:
    database, _, path = hudson
    if view == "case":
        c = schema.enforcement_case
        with database.read() as conn:
            number = conn.execute(
                select(c.c.number).where(c.c.closed_on.is_(None)).order_by(c.c.opened_on).limit(1)
            ).scalar_one()
        view = f"case:{number}"
    out = tmp_path / "shot.png"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "permitdesk", "gui", "--db", str(path)),
            *("--screenshot", str(out), "--view", view, "--size", "1366x768"),
        ],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert _png_size(out)[0] >= 1366
    keep = os.environ.get("PERMITDESK_SHOTS")
    if keep:
        out.replace(Path(keep) / f"hudson-{view.replace(':', '_')}.png")


def test_a_municipality_without_permit_kinds_has_no_fee_schedule_and_says_so(
    hudson: tuple[Database, str, Path],
) -> None:
    from desk.clock import FixedClock
    from desk.errors import RuleViolation
    from desk.services import fees

    database, _, _ = hudson
    with pytest.raises(RuleViolation, match="City of Hudson has no permit kinds"):
        fees.fee_schedule(database.uow(), FixedClock(TODAY), _mid(database))


def test_the_clerk_gets_the_special_charges_as_a_workbook(
    hudson: tuple[Database, str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from openpyxl import load_workbook

    from permitdesk.cli import main
    from tests.cli_sign_in import signed_demo

    database, _, path = hudson
    es = schema.enforcement_escalation
    with database.read() as conn:
        year = min(
            conn.execute(select(es.c.tax_roll_year).where(es.c.kind == "abatement")).scalars()
        )
        rows = eq.special_charges(conn, _mid(database), year)
    out = tmp_path / "charges.xlsx"
    argv = ["enforcement", "charges", "--year", str(year), "--db", str(path), "--xlsx", str(out)]
    assert main([*argv, *signed_demo(monkeypatch, "clerk")]) == 0
    assert f"Written to {out}" in capsys.readouterr().out
    ws = load_workbook(out).active
    assert ws is not None and ws.title == "City of Hudson"
    cells = [[c.value for c in r] for r in ws.iter_rows()]
    header = cells.index(["Parcel number", "Address", "Case", "Decided on", "Cost", "Notes"])
    data = cells[header + 1 : header + 1 + len(rows)]
    assert [(d[0], d[2], d[4]) for d in data] == [(r.pin, r.case_number, r.cost) for r in rows]
    assert data[0][3].date() == rows[0].decided_on  # a date cell, not text
    assert cells[header + 1 + len(rows)][0] == "Total"


def test_rooming_house_licences_are_in_every_state_of_140_10(
    hudson: tuple[Database, str, Path],
) -> None:
    database, _, _ = hudson
    mid = _mid(database)
    with database.read() as conn:
        counts = {f: len(lq.register(conn, mid, TODAY, f)) for f in RegisterFilter}
        rows = conn.execute(select(schema.rooming_licence)).all()
        pending = [r.licence_id for r in lq.register(conn, mid, TODAY, RegisterFilter.PENDING)]
        fee = conn.execute(select(schema.municipality.c.settings)).scalar_one()
        letters = lq.renewal_letters(conn, mid, TODAY)
    assert all(counts.values()), counts
    assert counts[RegisterFilter.IN_FORCE] >= 3  # in force, expiring, warned
    with database.read() as conn:  # what the clerk on the phone reads in the register
        shown = {r.status for r in lq.register(conn, mid, TODAY, RegisterFilter.IN_FORCE)}
        (expiring,) = lq.register(conn, mid, TODAY, RegisterFilter.EXPIRING)
    correct_by = (TODAY - timedelta(days=6) + timedelta(days=21)).strftime("%m/%d/%Y")
    assert shown == {
        "in force",
        f"in force — warned, correct by {correct_by}",
        f"in force — expires {expiring.expires_on.strftime('%m/%d/%Y')}",
    }
    assert len(letters) == 1 and letters[0].expires_on <= TODAY + timedelta(days=60)
    assert fee["rooming_licence_fee"] == "50.00"  # demo data: the Council sets it
    issued = [r for r in rows if r.issued_on is not None]
    assert all(r.fee == Decimal("50.00") and r.fee_receipt for r in issued)
    # one pending short of fixtures (140-10E) and sleeping room space (140-10G)
    sections = {s.section for i in pending for s in licences.check_licence(database.uow(), i)}
    assert sections == {"140-10E", "140-10G"}
    # warned with the correction date ahead (140-10C)
    assert any(r.warned_on and r.correct_by > TODAY and r.state.value == "issued" for r in rows)
    # suspended within the 10-day window (140-10D)
    (suspended,) = [r for r in rows if r.state.value == "suspended"]
    assert suspended.suspended_on + timedelta(days=10) >= TODAY
    revoked = {r.revocation.value for r in rows if r.revocation is not None}
    assert revoked == {"automatic", "council"}
    (council,) = [r for r in rows if r.revocation is not None and r.revocation.value == "council"]
    assert council.petition_timely and council.decision.value == "sustain"
    assert [r.denial_reason != "" for r in rows if r.state.value == "denied"] == [True]
    (ended,) = [r for r in rows if r.state.value == "ended"]
    assert ended.successor_name and ended.successor_address and ended.ended_on < TODAY


def test_licences_are_numbered_in_the_order_of_their_issue_days(
    hudson: tuple[Database, str, Path],
) -> None:
    database, _, _ = hudson
    rl = schema.rooming_licence
    with database.read() as conn:
        rows = conn.execute(
            select(rl.c.number, rl.c.issued_on).where(rl.c.number.is_not(None)).order_by(rl.c.id)
        ).all()
    by_year: dict[int, list[tuple[int, date]]] = {}
    for number, issued_on in rows:
        prefix, year, seq = number.split("-")
        assert prefix == "RH" and int(year) == issued_on.year
        by_year.setdefault(issued_on.year, []).append((int(seq), issued_on))
    assert len(rows) == 8 and len(by_year) == 2
    for issued in by_year.values():
        issued.sort()
        assert [s for s, _ in issued] == list(range(1, len(issued) + 1))  # gapless
        days = [d for _, d in issued]
        assert days == sorted(days)  # RH-YYYY-0001 issued first


def test_case_numbers_follow_opening_days_rooming_houses_included(
    hudson: tuple[Database, str, Path],
) -> None:
    database, _, _ = hudson
    c = schema.enforcement_case
    with database.read() as conn:
        rows = conn.execute(select(c.c.number, c.c.opened_on, c.c.summary)).all()
    by_year: dict[str, list[tuple[int, date]]] = {}
    for number, opened_on, _ in rows:
        _, year, seq = number.split("-")
        by_year.setdefault(year, []).append((int(seq), opened_on))
    for opened in by_year.values():
        days = [d for _, d in sorted(opened)]
        assert days == sorted(days)
    assert any(s.startswith("Rooming house licence inspection") for _, _, s in rows)


def test_a_clean_licence_inspection_is_closed_once_the_licence_is_decided(
    hudson: tuple[Database, str, Path],
) -> None:
    database, _, _ = hudson
    c, rl, vi = schema.enforcement_case, schema.rooming_licence, schema.enforcement_violation
    with database.read() as conn:
        cases = conn.execute(
            select(c.c.id, c.c.number, c.c.opened_on, c.c.closed_on, c.c.closed_reason).where(
                c.c.summary.startswith("Rooming house licence inspection")
            )
        ).all()
        violations = {
            case_id
            for case_id, state in conn.execute(select(vi.c.case_id, vi.c.state))
            if state == "open"
        }
        pending = set(conn.execute(select(rl.c.case_id).where(rl.c.state == "applied")).scalars())
        issued = conn.execute(select(rl.c.issued_on).where(rl.c.issued_on.is_not(None))).all()
    left_open = [
        r.number for r in cases if r.closed_on is None and r.id not in violations | pending
    ]
    assert left_open == []  # no inspection that found nothing stays open once decided
    closed = [r for r in cases if r.closed_on is not None]
    assert len(closed) == len(issued) == 8
    assert {r.closed_reason for r in closed} == {"unfounded"}  # inspected, nothing found
    assert {r.closed_on for r in closed} == {d for (d,) in issued}  # the day of issue
