"""`permitdesk enforcement docket --date YYYY-MM-DD OUT.pdf`: the Common Council's hearing
docket of a meeting date (Hudson 140-3B), read back from the PDF: the date, each matter's case
number and address, never the complainant."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from db.database import open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.enforcement.model import ServiceMethod
from desk.services.enforcement import notices, petitions
from permitdesk.cli import main
from tests.cli_sign_in import signed
from tests.db.enforcement_setup import case_with_notice, office

PLACE = "Council Chambers, City Hall"


def _text(path: Path) -> str:
    return " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages)


def test_the_docket_command_writes_the_hearings_of_the_meeting_date(
    tmp_path: Path,
    clock: FixedClock,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "register.db"
    database = open_database(sqlite_url(path))
    try:
        o = office(database, clock)
        today = clock.today()
        for k, street in enumerate(("Vine St", "Oak Ave")):
            o.parcel_id = o.parcel(f"047-0008-{k:03d}", str(412 + k), street)
            _case, _v, issued = case_with_notice(o)
            (owner,) = issued.addressee_ids
            notices.record_service(
                database.uow(), clock, o.clerk, owner, ServiceMethod.PERSONAL, today, "Carol"
            )
            petitions.record_petition(
                database.uow(), clock, o.clerk, owner, today, f"Owner {k + 1}", "More time"
            )
            petitions.schedule_hearing(
                database.uow(),
                clock,
                o.inspector,
                issued.notice_id,
                date(2026, 3, 17),
                PLACE,
                today,
            )
    finally:
        database.close()
    out = tmp_path / "docket.pdf"
    args = ["enforcement", "docket", "--date", "2026-03-17", str(out), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)]) == 0
    said = capsys.readouterr().out
    assert "2 hearing(s) on 2026-03-17" in said
    text = _text(out)
    assert "Common Council hearing docket" in text and "Hearings of 03/17/2026" in text
    assert "CE-2026-0001" in text and "412 Vine St" in text
    assert "CE-2026-0002" in text and "413 Oak Ave" in text
    assert "Owner 1" in text and "Owner 2" in text and "2 hearings." in text
    assert "Nellie" not in text and "555-0199" not in text

    other = tmp_path / "other.pdf"
    args = ["enforcement", "docket", "--date", "2026-03-18", str(other), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)]) == 0
    assert "No hearing is scheduled for 03/18/2026." in _text(other)
    args = ["enforcement", "docket", "--date", "17.3.2026", str(other), "--db", str(path)]
    assert main([*args, *signed(monkeypatch)])
    assert "--date 17.3.2026: give the meeting date as YYYY-MM-DD" in capsys.readouterr().err
