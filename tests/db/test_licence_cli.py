"""`permitdesk enforcement certificate RH-YYYY-NNNN OUT.pdf` and `enforcement licences --letters`:
the rooming house licence certificate (Hudson 140-10A) and the renewal letters, as PDFs."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.services.enforcement import inspections
from desk.services.enforcement import licences as svc
from permitdesk.cli import main
from tests.cli_sign_in import signed
from tests.db.enforcement_setup import office
from tests.db.licence_fee import RECEIPT, set_licence_fee
from tests.reports.test_enforcement_pdfs import text_of


def _register(path: Path, issued_on: date) -> str:
    """A register with one licence issued on `issued_on` and one application pending."""
    database = open_database(sqlite_url(path))
    try:
        o = office(database, FixedClock(issued_on))
        set_licence_fee(o)
        ids = [
            svc.record_application(
                database.uow(),
                o.clock,
                o.clerk,
                svc.ApplicationInput(
                    municipality_id=o.mid,
                    parcel_id=o.parcel_id,
                    operator_name="Rita Roomer",
                    operator_address="5 Oak St, Hudson WI 54016",
                    persons=4,
                    water_closets=1,
                    lavatories=1,
                    baths=1,
                    rooms=(svc.RoomInput("Room 1", Decimal(80), True, 1),),
                    dwelling_unit=unit,
                ),
            )
            for unit in ("A", "B")
        ]
        case_id = svc.open_licence_case(database.uow(), o.clock, o.inspector, ids[0])
        inspections.record_inspection(database.uow(), o.clock, o.inspector, case_id, issued_on)
        issued = svc.issue_licence(database.uow(), o.clock, o.clerk, ids[0], fee_receipt=RECEIPT)
        return issued.number
    finally:
        database.close()


def test_the_certificate_command_writes_the_licence_and_refuses_an_unknown_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "register.db"
    number = _register(path, date.today())  # the command reads the system clock
    out = tmp_path / "licence.pdf"
    args = ["enforcement", "certificate", number.lower(), str(out), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)]) == 0
    assert f"Licence {number} written to {out}" in capsys.readouterr().out
    text = text_of(out)
    assert f"No. {number}" in text and "412 Vine St, Unit A" in text
    assert f"$25.00, receipt {RECEIPT}" in text
    bad = ["enforcement", "certificate", "RH-2019-0042", str(tmp_path / "x.pdf")]
    assert main([*bad, "--db", str(path), *signed(monkeypatch)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("no rooming house licence RH-2019-0042 was issued")
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "x.pdf").exists()


def test_the_letters_go_to_the_licences_expiring_within_60_days(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "register.db"
    # issued a year ago less 50 days: it expires in 50 days, within the default 60
    number = _register(path, date.today() - timedelta(days=365 - 50))
    out = tmp_path / "letters.pdf"
    args = ["enforcement", "licences", "--letters", str(out), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)]) == 0
    printed = capsys.readouterr().out
    assert f"1 renewal letter(s) written to {out}" in printed
    text = text_of(out)
    assert "Rita Roomer 5 Oak St, Hudson WI 54016" in text
    assert f"Re: Rooming house licence {number} — 412 Vine St, Unit A: renewal" in text
    few = tmp_path / "few.pdf"
    args = ["enforcement", "licences", "--expiring", "30", "--letters", str(few)]
    assert main([*args, "--db", str(path), *signed(monkeypatch)]) == 0
    assert "0 renewal letter(s)" in capsys.readouterr().out
    assert "No rooming house licence expires in this period" in text_of(few)
