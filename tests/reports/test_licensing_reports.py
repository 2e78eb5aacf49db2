"""City licences and condemnations in the issue-8 reports: a licence granted in March counts in
March's monthly report (15.1.74(b): "licenses and permits granted"), beside the same month last
year and the year to date; a dwelling condemned in 2025 is a row of the 2025 annual report to
the Council (15.1.6(c)) in the workbook and the PDF, and a year without one says so in words;
licences granted and revoked are listed too. Plus the printed licence and placard."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from db import licence_queries as lq
from db import report_queries as q
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind, PartyKind
from desk.domain.licensing import Outcome
from desk.domain.model import Credential, Party
from desk.services import licensing as svc
from desk.services import permits
from reports.council import export_annual_xlsx, render_annual_pdf
from reports.licensing_documents import render_licence_certificate, render_placard
from reports.monthly import export_monthly_xlsx, render_monthly_pdf
from tests.factories import Register, seed_register


@dataclass
class Town:
    db: Database
    reg: Register
    licence_ids: dict[str, int]
    condemnation_id: int


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    from argon2 import PasswordHasher

    from desk.services import users

    path = tmp_path_factory.mktemp("town") / "town.db"
    db = open_database(sqlite_url(path))
    clock = FixedClock(date(2025, 1, 6))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        reg = seed_register(db, clock)
    uow = db.uow()
    ids: dict[str, int] = {}
    for name, number in (("Sparks Electric LLC", "EC-1208"), ("Bay Electric", "ME-22041")):
        party = permits.add_party(
            uow,
            clock,
            reg.clerk,
            Party(kind=PartyKind.ORGANIZATION, name=name, address_line1="4100 W Bradley Rd"),
        )
        permits.add_credential(
            uow,
            clock,
            reg.clerk,
            party,
            Credential(
                kind=CredentialKind.MASTER_ELECTRICIAN, number=number, expires_on=date(2028, 6, 30)
            ),
        )
        ids[name] = party
    # 2025: one licence in March, revoked in June after a hearing; a dwelling condemned.
    clock.set(date(2025, 3, 11))
    ids["2025"] = svc.grant_city_licence(
        uow, clock, reg.inspector, reg.municipality_id, ids["Bay Electric"]
    ).licence_id
    clock.set(date(2025, 5, 20))
    svc.file_licence_complaint(uow, clock, reg.inspector, ids["2025"], clock.today(), "Unsafe work")
    svc.schedule_revocation_hearing(
        uow, clock, reg.clerk, ids["2025"], date(2025, 6, 3), date(2025, 5, 22), "Licensee"
    )
    clock.set(date(2025, 6, 4))
    svc.record_council_finding(
        uow, clock, reg.clerk, ids["2025"], date(2025, 6, 3), True, "Disqualified (Res. 25-31)"
    )
    svc.revoke_city_licence(uow, clock, reg.inspector, ids["2025"])
    clock.set(date(2025, 10, 14))
    cid = svc.record_condemnation(
        uow,
        clock,
        reg.inspector,
        svc.CondemnationInput(
            municipality_id=reg.municipality_id,
            address="5820 N Lake Dr",
            grounds=("B1", "B3"),
            reasons="Fire damage",
            condemned_on=date(2025, 10, 14),
        ),
    )
    clock.set(date(2026, 1, 20))
    svc.record_razed(uow, clock, reg.inspector, cid, date(2026, 1, 20))
    # 2026: a licence in March.
    clock.set(date(2026, 3, 9))
    ids["2026"] = svc.grant_city_licence(
        uow, clock, reg.inspector, reg.municipality_id, ids["Sparks Electric LLC"]
    ).licence_id
    try:
        yield Town(db, reg, ids, cid)
    finally:
        db.close()


def _read(db: Database, fn: Any, *args: Any) -> Any:
    with db.read() as conn:
        return fn(conn, *args)


def _text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(path)).pages)


def test_a_licence_granted_in_march_counts_in_marchs_monthly_report(
    town: Town, tmp_path: Path
) -> None:
    rep = _read(town.db, q.monthly_report, town.reg.municipality_id, 2026, 3)
    assert [(x.trade, x.month, x.last_year, x.ytd, x.ytd_last_year) for x in rep.licences] == [
        ("electrical", 1, 1, 1, 1)
    ]
    xlsx, pdf = tmp_path / "m.xlsx", tmp_path / "m.pdf"
    export_monthly_xlsx(rep, xlsx)
    render_monthly_pdf(rep, pdf)
    ws = load_workbook(xlsx)["Activity"]
    heads = [n for n in range(1, ws.max_row + 1) if ws.cell(row=n, column=1).value == "Trade"]
    licence_head = heads[-1]
    assert ws.cell(row=licence_head - 1, column=1).value == "City licences granted (15.1.74(b))"
    assert ws.cell(row=licence_head, column=2).value == "March 2026"
    assert ws.cell(row=licence_head + 1, column=1).value == "Electrical"
    assert ws.cell(row=licence_head + 1, column=2).value == 1  # granted in March 2026
    listing = load_workbook(xlsx)["Licences granted"]
    numbers = [c.value for c in listing["A"]]
    assert "EL-2026-0001" in numbers
    text = _text(pdf)
    assert "1 City licence granted." in text
    assert "City licences granted" in text
    assert "EL-2026-0001" in text and "Sparks Electric LLC" in text


def test_a_month_without_licences_says_so(town: Town, tmp_path: Path) -> None:
    rep = _read(town.db, q.monthly_report, town.reg.municipality_id, 2026, 2)
    assert rep.licences[0].month == 0
    pdf = tmp_path / "feb.pdf"
    render_monthly_pdf(rep, pdf)
    text = _text(pdf)
    assert "No City licences were granted in February 2026." in text
    assert "No City licence was granted." in text and "0 City licences granted." not in text
    plumbing = _read(town.db, q.monthly_report, town.reg.municipality_id, 2026, 3, "plumbing")
    assert plumbing.licences == ()  # the City licenses no plumbers


def test_a_condemnation_recorded_in_2025_is_in_the_2025_annual_report(
    town: Town, tmp_path: Path
) -> None:
    rep = _read(town.db, q.annual_report, town.reg.municipality_id, 2025)
    xlsx, pdf = tmp_path / "a.xlsx", tmp_path / "a.pdf"
    export_annual_xlsx(rep, xlsx)
    render_annual_pdf(rep, pdf)
    wb = load_workbook(xlsx)
    ws = wb["Condemnations"]
    rows = {ws.cell(row=n, column=1).value: n for n in range(1, ws.max_row + 1)}
    row = rows["5820 N Lake Dr"]
    assert ws.cell(row=row, column=3).value.date() == date(2025, 10, 14)
    assert ws.cell(row=row, column=4).value == "B(1), B(3)"
    assert ws.cell(row=row, column=6).value.date() == date(2025, 12, 13)  # 60 days
    assert ws.cell(row=row, column=7).value == "Open"  # razed only in January 2026
    razings = [c.value for c in wb["Razings and orders"]["A"]]
    assert "Condemnations of buildings: see the sheet Condemnations." in razings
    assert not any("not recorded" in str(v) for v in razings)
    text = _text(pdf)
    assert "not recorded in Permit Desk yet" not in text
    assert "5820 N Lake Dr 10/14/2025 B(1), B(3) 12/13/2025 Open" in text
    lic = wb["City licences"]
    values = [c.value for row in lic.iter_rows() for c in row]
    assert "EL-2025-0001" in values and "Revoked" in values
    assert "Disqualified (Res. 25-31)" in values
    assert "City licences granted and revoked" in text
    assert (
        "EL-2025-0001 Bay Electric 05/20/2025 06/03/2025 Disqualified (Res. 25-31) 06/04/2025"
        in (text)
    )


def test_the_next_years_report_shows_the_razing_and_a_year_without_condemnations_says_so(
    town: Town, tmp_path: Path
) -> None:
    rep = _read(town.db, q.annual_report, town.reg.municipality_id, 2026)
    assert rep.licensing.condemnations == ()
    pdf, xlsx = tmp_path / "2026.pdf", tmp_path / "2026.xlsx"
    render_annual_pdf(rep, pdf)
    export_annual_xlsx(rep, xlsx)
    assert "No buildings were condemned in 2026." in _text(pdf)
    ws = load_workbook(xlsx)["Condemnations"]
    assert "No buildings were condemned in 2026." in [c.value for c in ws["A"]]
    earlier = _read(town.db, q.annual_report, town.reg.municipality_id, 2025)
    assert earlier.licensing.condemnations[0].outcome_words(date(2026, 12, 31)) == (
        "Razed 01/20/2026"
    )


def test_the_electrical_annual_report_lists_licences_but_not_condemnations(
    town: Town, tmp_path: Path
) -> None:
    rep = _read(town.db, q.annual_report, town.reg.municipality_id, 2025, "electrical")
    assert [x.number for x in rep.licensing.licences_granted] == ["EL-2025-0001"]
    assert not rep.licensing.show_condemnations
    pdf = tmp_path / "e.pdf"
    render_annual_pdf(rep, pdf)
    text = _text(pdf)
    assert "EL-2025-0001" in text and "Condemnations (" not in text


def test_the_placard_and_the_licence_print_what_the_inspector_posts_and_hands_over(
    town: Town, tmp_path: Path
) -> None:
    with town.db.read() as conn:
        placard = lq.placard(conn, town.condemnation_id)
        certificate = lq.licence_certificate(conn, town.licence_ids["2026"])
    out = tmp_path / "placard.pdf"
    render_placard(placard, out)
    text = _text(out)
    assert "UNFIT FOR HUMAN HABITATION" in text
    assert "5820 N Lake Dr" in text
    assert "10/14/2025" in text and "12/13/2025" in text
    assert "Hudson 140 E" in text and "remove" in text
    assert placard.outcome is Outcome.RAZED
    licence = tmp_path / "licence.pdf"
    render_licence_certificate(certificate, licence)
    text = _text(licence)
    assert "EL-2026-0001" in text and "Sparks Electric LLC" in text
    assert "12/31/2026" in text and "15.1.75" in text
