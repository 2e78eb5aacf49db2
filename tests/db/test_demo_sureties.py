"""The demo's bonds, certificates and street deposits (issue 6), added to a built demo register
through the services: deposits in every state of 15.1.43 whose money sits in the liability
account, bonds and certificates in force, expiring and insufficient; and the two CLI reports
over it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from openpyxl import load_workbook
from pypdf import PdfReader

from db import surety_queries as sq
from db.database import Database, open_database
from db.demo import DemoSpec, build_demo
from db.demo_sureties import demo_sureties
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.sureties import DepositStatus
from desk.services import cashiering, sureties, users
from permitdesk.cli import main
from tests.cli_sign_in import signed_demo

TODAY = date(2026, 11, 29)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Database, str]]:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    database = open_database(sqlite_url(path))
    with pytest.MonkeyPatch.context() as mp:  # argon2 at its lowest cost, as in conftest
        mp.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        build_demo(database, DemoSpec(years=3, per_year=400, seed=1, today=TODAY, sureties=False))
    summary = demo_sureties(database, TODAY)
    yield path, database, summary
    database.close()


def test_the_demo_has_deposits_in_every_state(demo: tuple[Path, Database, str]) -> None:
    _, database, summary = demo
    with database.read() as conn:
        lines = sq.deposit_lines(conn, 1, TODAY)
        held = sq.deposits_held(conn, 1, TODAY)
    states = {x.status for x in lines}
    assert states == {None, *DepositStatus}  # awaiting payment and every status
    assert any(x.retained and x.status is DepositStatus.REFUNDED for x in lines)
    assert any(sureties.in_queue(x, "soon", TODAY) for x in lines)
    # What the liability account holds is what the deposits not yet returned or kept hold.
    still = (DepositStatus.HELD, DepositStatus.ELIGIBLE, DepositStatus.ORDERED)
    assert held == sum((x.amount - x.retained for x in lines if x.status in still), Decimal(0))
    assert "street deposits: 1 awaiting payment, 1 held" in summary
    # The treasurer's identity holds over the whole demo, deposits, checks and retentions too.
    r = cashiering.reconciliation(database.uow(), FixedClock(TODAY), 1, date(2023, 1, 1), TODAY)
    assert r.balanced and r.gl_balanced
    assert r.account("100-23100").closing == held


def test_the_demo_has_bonds_and_certificates_expiring_and_insufficient(
    demo: tuple[Path, Database, str],
) -> None:
    _, database, _ = demo
    with database.read() as conn:
        bonds = sq.bond_rows(conn, 1, TODAY)
        certificates = sq.certificate_rows(conn, 1, TODAY)
    assert {b.status.value for b in bonds} >= {"in_force", "released"}
    assert any(c.association for c in certificates)
    assert any("$25,000 property" in c.limits for c in certificates)  # below 15.1.9(g)
    watch = sureties.expiry_watch(database.uow(), FixedClock(TODAY), 1, 60)
    assert any(r.expired and r.permits for r in watch)  # ended under a live permit
    assert any(not r.expired for r in watch)


def test_the_cli_writes_the_deposits_and_expiring_reports(
    demo: tuple[Path, Database, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, _, _ = demo
    xlsx, pdf = tmp_path / "deposits.xlsx", tmp_path / "deposits.pdf"
    code = main(
        [
            "report",
            "deposits",
            "--db",
            str(path),
            "--as-of",
            TODAY.isoformat(),
            "--xlsx",
            str(xlsx),
            "--pdf",
            str(pdf),
            *signed_demo(monkeypatch, "clerk"),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith("2026-11-29: 10 street deposit(s), $3,000.00 held; 2 eligible now")
    assert load_workbook(xlsx).active is not None
    assert "Street deposits as of 11/29/2026" in PdfReader(pdf).pages[0].extract_text()

    e_xlsx, e_pdf, letters = tmp_path / "e.xlsx", tmp_path / "e.pdf", tmp_path / "letters.pdf"
    code = main(
        [
            "report",
            "expiring",
            "--db",
            str(path),
            "--days",
            "60",
            "--xlsx",
            str(e_xlsx),
            "--pdf",
            str(e_pdf),
            "--letters",
            str(letters),
            *signed_demo(monkeypatch, "clerk"),
        ]
    )
    assert code == 0
    assert "bond(s) and certificate(s) end within 60 days" in capsys.readouterr().out
    assert len(PdfReader(letters).pages) >= 1
    argv = ["report", "deposits", "--db", str(path), "--as-of", "11/29/2026"]
    assert main([*argv, *signed_demo(monkeypatch, "clerk")]) == 2
    assert "--as-of '11/29/2026' is not a date YYYY-MM-DD" in capsys.readouterr().err
