"""`permitdesk enforcement sweep --db ...` makes the orders (140-3D), once, as the inspector
who signed in."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from db import schema
from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.enforcement.model import ServiceMethod
from desk.services.enforcement import notices
from permitdesk.cli import main
from tests.cli_sign_in import ready, signed
from tests.db.enforcement_setup import case_with_notice, office


def test_the_sweep_command_makes_an_order_of_a_notice_not_petitioned_once(
    tmp_path: Path,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "register.db"
    database = open_database(sqlite_url(path))
    try:
        o = office(database, clock)
        _case, _v, issued = case_with_notice(o)
        notices.record_service(
            database.uow(),
            clock,
            o.inspector,
            issued.addressee_ids[0],
            ServiceMethod.PERSONAL,
            clock.today(),
            "Ivan",
        )
        ready(database, "ivan")
    finally:
        database.close()
    sweep = ["enforcement", "sweep", "--db", str(path)]
    assert main(sweep) == 2
    assert "sign in to use this command" in capsys.readouterr().err
    assert main([*sweep, *signed(monkeypatch, "ivan")]) == 0
    first = capsys.readouterr().out
    assert "CE-2026-0001" in first and "1 notice(s) became orders" in first
    assert main([*sweep, *signed(monkeypatch, "ivan")]) == 0
    assert "0 notice(s) became orders" in capsys.readouterr().out
    charges = ["enforcement", "charges", "--year", "2026", "--db", str(path)]
    assert main([*charges, *signed(monkeypatch, "ivan")]) == 0
    assert "City of Glendale: 0 special charge(s), $0.00 for 2026" in capsys.readouterr().out
    database = open_database(sqlite_url(path))
    try:
        a, u = schema.audit_event, schema.app_user
        with database.read() as conn:
            by = (
                conn.execute(
                    select(u.c.username)
                    .join(a, a.c.user_id == u.c.id)
                    .where(a.c.entity == "enforcement_order")
                )
                .scalars()
                .all()
            )
    finally:
        database.close()
    assert by == ["ivan"]  # the order the sweep made is recorded as the inspector's
