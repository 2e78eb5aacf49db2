"""Contractors imported from a spreadsheet as Excel writes them (CSV in UTF-8 with a BOM, CSV in
Windows-1252, an .xlsx workbook), re-imported from a changed copy, cancelled, and refused by
the command line: on SQLite and PostgreSQL. What the register holds afterwards is read back
from its tables, with the audit rows of every person and credential the import created."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook
from sqlalchemy import func, select

from db import schema
from db.database import Database, open_database
from db.engine import sqlite_url
from desk.clock import FixedClock
from desk.domain.enums import CredentialKind
from desk.errors import PermissionDenied, ValidationError
from desk.imports.contractors import HEADINGS
from desk.imports.files import ImportCancelled, SourceFile
from desk.services.people import contractors
from permitdesk.cli import main
from reports.contractor_import_report import export_contractor_dry_run_xlsx
from reports.contractor_template import write_contractor_template
from tests.cli_sign_in import ready, signed
from tests.factories import Register, seed_register

ROWS = [
    {
        "Name": "Müller Heating & Cooling LLC",
        "Address": "5400 N Green Bay Ave",
        "City": "Glendale",
        "ZIP": "53209",
        "Phone": "414-555-0110",
        "Email": "office@muller.example",
        "Credential": "HVAC contractor",
        "Credential number": "HV-3301",
        "Expires": "06/30/2027",
    },
    {
        "Name": "Peña Electric LLC",
        "Address": "200 W Bender Rd",
        "City": "Glendale",
        "ZIP": "53217",
        "Phone": "414-555-0120",
        "Credential": "Electrical contractor",
        "Credential number": "EC-8812",
        "Expires": "12/31/2026",
    },
    {
        "Name": "Peña Electric LLC",
        "Credential": "Master electrician",
        "Credential number": "ME-1208",
        "Expires": "08/31/2027",
    },
]


def _write_csv(path: Path, rows: list[dict[str, str]], encoding: str) -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(HEADINGS))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _write_xlsx(path: Path, rows: list[dict[str, str]]) -> Path:
    """A workbook as a clerk fills one in: the expiry a real date cell."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Contractors"
    ws.append(list(HEADINGS))
    for row in rows:
        values: list[Any] = [row.get(h, "") or None for h in HEADINGS]
        if row.get("Expires"):
            m, d, y = (int(x) for x in row["Expires"].split("/"))
            values[HEADINGS.index("Expires")] = date(y, m, d)
        ws.append(values)
    notes = wb.create_sheet("Notes")
    notes.append(["Checked by", "Carol"])
    notes.append(["On", "03/02/2026"])
    wb.save(path)
    return path


def _import(database: Database, clock: FixedClock, reg: Register, path: Path) -> Any:
    source = SourceFile(path)
    parsed = contractors.read_contractor_file(source)
    return contractors.import_contractors(
        database.uow(),
        clock,
        reg.clerk,
        reg.municipality_id,
        parsed,
        file_name=source.name,
        file_sha256=source.sha256(),
    )


def _party(database: Database, name: str) -> Any:
    pa = schema.party
    with database.read() as conn:
        return conn.execute(select(pa).where(pa.c.name == name)).one()


def _credentials(database: Database, party_id: int) -> list[Any]:
    c = schema.credential
    with database.read() as conn:
        return list(conn.execute(select(c).where(c.c.party_id == party_id).order_by(c.c.id)))


def _audit(database: Database, entity: str, entity_id: int) -> list[Any]:
    a = schema.audit_event
    with database.read() as conn:
        return list(
            conn.execute(
                select(a.c.action, a.c.changes, a.c.user_id)
                .where((a.c.entity == entity) & (a.c.entity_id == entity_id))
                .order_by(a.c.id)
            )
        )


def _count(database: Database, table: Any) -> int:
    with database.read() as conn:
        return int(conn.scalar(select(func.count()).select_from(table)) or 0)


@pytest.mark.parametrize(
    "write",
    [
        pytest.param(lambda p, rows: _write_csv(p / "c.csv", rows, "utf-8-sig"), id="utf8-bom"),
        pytest.param(lambda p, rows: _write_csv(p / "c.csv", rows, "cp1252"), id="windows-1252"),
        pytest.param(lambda p, rows: _write_xlsx(p / "c.xlsx", rows), id="xlsx"),
    ],
)
def test_contractors_are_imported_from_each_kind_of_file_excel_writes_with_audit_rows(
    database: Database, clock: FixedClock, tmp_path: Path, write: Any
) -> None:
    reg = seed_register(database, clock)
    path = write(tmp_path, ROWS)
    done = _import(database, clock, reg, path)
    assert done.plan.summary() == ("2 new, 0 changed, 0 unchanged; 3 credentials added, 0 renewed")

    muller = _party(database, "Müller Heating & Cooling LLC")
    assert (muller.kind.value, muller.address_line1, muller.city, muller.state, muller.zip) == (
        "organization",
        "5400 N Green Bay Ave",
        "Glendale",
        "WI",
        "53209",
    )
    assert (muller.phone, muller.email) == ("414-555-0110", "office@muller.example")
    (hvac,) = _credentials(database, muller.id)
    assert (hvac.kind, hvac.number, hvac.expires_on, hvac.recorded_on) == (
        CredentialKind.HVAC_CONTRACTOR,
        "HV-3301",
        date(2027, 6, 30),
        clock.today(),
    )
    pena = _party(database, "Peña Electric LLC")  # two rows, one organization
    assert [(c.number, c.expires_on) for c in _credentials(database, pena.id)] == [
        ("EC-8812", date(2026, 12, 31)),
        ("ME-1208", date(2027, 8, 31)),
    ]

    created = _audit(database, "party", muller.id)
    assert [a.action for a in created] == ["create"]
    assert created[0].user_id == reg.clerk.user_id
    fields = {c["field"]: c["new"] for c in created[0].changes}
    assert fields["name"] == "Müller Heating & Cooling LLC" and fields["zip"] == "53209"
    (credential_audit,) = _audit(database, "credential", hvac.id)
    assert credential_audit.action == "create"
    assert {c["field"]: c["new"] for c in credential_audit.changes}["number"] == "HV-3301"

    di = schema.data_import
    with database.read() as conn:
        record = conn.execute(select(di)).one()
    assert (record.kind, record.file_name, record.municipality_id) == (
        "contractors",
        path.name,
        reg.municipality_id,
    )
    assert record.file_sha256 == SourceFile(path).sha256()
    assert record.by_user_id == reg.clerk.user_id
    assert record.layer == ("Contractors" if path.suffix == ".xlsx" else "")
    assert record.counts["new"] == 2 and record.counts["credentials added"] == 3


def test_a_changed_copy_re_imported_changes_the_phone_renews_a_credential_and_erases_nothing(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = seed_register(database, clock)
    _import(database, clock, reg, _write_csv(tmp_path / "first.csv", ROWS, "utf-8-sig"))
    muller = _party(database, "Müller Heating & Cooling LLC")
    (old,) = _credentials(database, muller.id)

    changed = [dict(r) for r in ROWS]
    changed[0].update(Phone="414-555-0199", Email="", Address="", Expires="06/30/2029")
    changed[0]["Credential number"] = "HV-4400"
    copy = _write_csv(tmp_path / "second.csv", changed, "utf-8-sig")
    parsed = contractors.read_contractor_file(SourceFile(copy))
    plan = contractors.dry_run_contractors(database.uow(), reg.clerk, parsed)
    assert [(c.name, f.label, f.old, f.new) for c in plan.changed for f in c.changes] == [
        ("Müller Heating & Cooling LLC", "Phone", "414-555-0110", "414-555-0199")
    ]
    (renewal,) = plan.renewed
    assert (renewal.old_number, renewal.number, renewal.expires_on) == (
        "HV-3301",
        "HV-4400",
        date(2029, 6, 30),
    )
    assert plan.summary() == "0 new, 1 changed, 1 unchanged; 0 credentials added, 1 renewed"

    _import(database, clock, reg, copy)
    after = _party(database, "Müller Heating & Cooling LLC")
    assert after.phone == "414-555-0199"
    assert (after.email, after.address_line1) == ("office@muller.example", "5400 N Green Bay Ave")
    history, current = _credentials(database, muller.id)
    assert (history.id, history.number, history.expires_on) == (old.id, "HV-3301", old.expires_on)
    assert history.superseded_by_id == current.id  # kept as history, pointing at the renewal
    assert (current.number, current.expires_on, current.superseded_by_id) == (
        "HV-4400",
        date(2029, 6, 30),
        None,
    )
    phone = [
        (c["old"], c["new"])
        for a in _audit(database, "party", muller.id)
        if a.action == "update"
        for c in a.changes
        if c["field"] == "phone"
    ]
    assert phone == [("414-555-0110", "414-555-0199")]
    superseded = [
        c["new"]
        for a in _audit(database, "credential", old.id)
        if a.action == "update"
        for c in a.changes
        if c["field"] == "superseded_by_id"
    ]
    assert superseded == [str(current.id)]
    # Once more: the register has it all now.
    again = contractors.dry_run_contractors(database.uow(), reg.clerk, parsed)
    assert again.writes == 0 and again.unchanged == 2


def test_a_cancelled_import_writes_nothing(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = seed_register(database, clock)
    source = SourceFile(_write_csv(tmp_path / "c.csv", ROWS, "utf-8-sig"))
    parsed = contractors.read_contractor_file(source)
    before = [_count(database, t) for t in (schema.party, schema.credential, schema.data_import)]
    steps: list[tuple[int, int]] = []
    with pytest.raises(ImportCancelled):
        contractors.import_contractors(
            database.uow(),
            clock,
            reg.clerk,
            reg.municipality_id,
            parsed,
            file_name=source.name,
            file_sha256=source.sha256(),
            progress=lambda done, total: steps.append((done, total)),
            cancelled=lambda: len(steps) >= 3,
        )
    assert steps == [(1, 5), (2, 5), (3, 5)]  # 2 people and 3 credentials: cancelled at the 4th
    after = [_count(database, t) for t in (schema.party, schema.credential, schema.data_import)]
    assert after == before


def test_only_a_clerk_or_an_administrator_imports_contractors(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = seed_register(database, clock)
    parsed = contractors.read_contractor_file(
        SourceFile(_write_csv(tmp_path / "c.csv", ROWS, "utf-8-sig"))
    )
    with pytest.raises(PermissionDenied):
        contractors.dry_run_contractors(database.uow(), reg.inspector, parsed)


def test_the_dry_run_workbook_lists_changes_credentials_and_rejected_rows(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = seed_register(database, clock)
    rows = [
        {
            "Name": "Badger State Builders LLC",
            "Phone": "262-555-0101",
            "Credential": "Dwelling contractor",
            "Credential number": "DC-1190",
            "Expires": "12/31/2027",
        },
        {"Name": "Nameless", "ZIP": "5321"},
        {"Name": "", "Phone": "555"},
    ]
    parsed = contractors.read_contractor_file(
        SourceFile(_write_csv(tmp_path / "c.csv", rows, "utf-8-sig"))
    )
    plan = contractors.dry_run_contractors(database.uow(), reg.clerk, parsed)
    out = tmp_path / "dry run.xlsx"
    export_contractor_dry_run_xlsx(
        plan, out, file_name="c.csv", municipality="City of Glendale", made_on=clock.today()
    )
    wb = load_workbook(out)
    assert wb.sheetnames == ["Summary", "New", "Changed", "Credentials", "Rejected"]
    changed = [r for r in wb["Changed"].iter_rows(min_row=2, values_only=True)]
    assert changed == [(2, "Badger State Builders LLC", "Phone", "(blank)", "262-555-0101")]
    (credential,) = wb["Credentials"].iter_rows(min_row=2, values_only=True)
    assert credential[:5] == (
        2,
        "Badger State Builders LLC",
        "Added",
        "Dwelling contractor",
        "DC-1190",
    )
    assert credential[5].date() == date(2027, 12, 31)
    rejected = list(wb["Rejected"].iter_rows(min_row=2, values_only=True))
    assert rejected == [(4, None, "Name: the name is blank")]
    new = list(wb["New"].iter_rows(min_row=2, values_only=True))  # 5321: its leading 0 back
    assert [(r[1], r[7]) for r in new] == [("Nameless", "05321")]
    summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True) if r[0]}
    assert summary["Changed"] == 1 and summary["Rows rejected"] == 1


def test_the_template_reopens_with_the_headings_in_row_1_and_imports_once_filled_in(
    database: Database, clock: FixedClock, tmp_path: Path
) -> None:
    reg = seed_register(database, clock)
    path = tmp_path / "Contractors template.xlsx"
    write_contractor_template(path)
    wb = load_workbook(path)
    assert wb.sheetnames == ["Contractors", "How to fill it in"]
    ws = wb["Contractors"]
    assert [c.value for c in ws[1]] == list(HEADINGS)
    assert ws.freeze_panes == "A2" and ws["A1"].font.bold
    assert all(ws.cell(row=2, column=c).value is None for c in range(1, len(HEADINGS) + 1))
    words = [c for row in wb["How to fill it in"].iter_rows(values_only=True) for c in row if c]
    assert "Master plumber" in words and "master_plumber" in words and "12/31/2027" in words

    ws.append(
        [
            "Ann Lee",
            "person",
            None,
            None,
            None,
            None,
            "53209",
            None,
            None,
            "Master plumber",
            "MP-4511",
            date(2027, 12, 31),
        ]
    )
    wb.save(path)
    done = _import(database, clock, reg, path)
    assert done.plan.summary() == "1 new, 0 changed, 0 unchanged; 1 credential added, 0 renewed"
    (mp,) = _credentials(database, _party(database, "Ann Lee").id)
    assert (mp.number, mp.expires_on) == ("MP-4511", date(2027, 12, 31))


def test_the_empty_template_is_refused_in_one_sentence_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "Contractors template.xlsx"
    write_contractor_template(path)
    with pytest.raises(ValidationError) as e:
        contractors.read_contractor_file(SourceFile(path))
    assert str(e.value).startswith("Contractors template.xlsx: no sheet has rows under a Name")


# --- the command line -------------------------------------------------------------------------


def test_the_command_prints_the_dry_run_then_imports_as_the_clerk_who_signed_in(
    database: Database,
    clock: FixedClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed_register(database, clock)
    ready(database, "carol", "ivan")
    rows = [*ROWS, {"Name": "Nobody", "Credential": "Wizard", "Credential number": "W-1"}]
    path = _write_csv(tmp_path / "contractors.csv", rows, "utf-8-sig")
    url = database.engine.url.render_as_string(hide_password=False)
    report = tmp_path / "dry.xlsx"
    args = ["people", "import", str(path), "--database-url", url]
    assert main([*args, "--dry-run", "--report", str(report), *signed(monkeypatch, "carol")]) == 0
    out = capsys.readouterr().out
    assert "2 new, 0 changed, 0 unchanged; 3 credentials added, 0 renewed; 1 rejected" in out
    assert "row 5\tNobody\tCredential: 'Wizard' is not a credential kind" in out
    assert "Dry run: nothing was written." in out
    assert load_workbook(report).sheetnames[0] == "Summary"
    assert _count(database, schema.credential) == 0

    # Importing is the clerk's and the administrator's (desk.domain.permissions).
    assert main([*args, *signed(monkeypatch, "ivan")]) == 2
    assert "only a user with the role administrator or clerk may import" in capsys.readouterr().err
    assert main([*args, *signed(monkeypatch, "carol")]) == 0
    assert "Imported: 2 new, 0 changed; 3 credentials added, 0 renewed" in capsys.readouterr().out
    pena = _party(database, "Peña Electric LLC")
    (created,) = _audit(database, "party", pena.id)
    u = schema.app_user
    with database.read() as conn:
        by = conn.scalar(select(u.c.username).where(u.c.id == created.user_id))
    assert by == "carol"


def test_the_command_refuses_a_bad_file_in_one_line_with_exit_2(
    tmp_path: Path, clock: FixedClock, capsys: pytest.CaptureFixture[str]
) -> None:
    db_path = tmp_path / "register.db"
    database = open_database(sqlite_url(db_path))
    try:
        seed_register(database, clock)
    finally:
        database.close()
    no_name = tmp_path / "firms.csv"
    no_name.write_text("Firm,Phone\nHansen Plumbing,555\n", encoding="utf-8")
    binary = tmp_path / "utf16.csv"
    binary.write_bytes("Name\nAnn\n".encode("utf-16-le"))  # no byte order mark: unreadable
    for path, words in (
        (no_name, "firms.csv: there is no Name column (its headings are: Firm, Phone)"),
        (binary, "utf16.csv is not text in an encoding Permit Desk can read"),
        (tmp_path / "gone.xlsx", "gone.xlsx: there is no such file or folder."),
    ):
        assert main(["people", "import", str(path), "--db", str(db_path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"permitdesk: error: {words}"), err
        assert err.count("\n") == 1
    assert main(["people", "template", str(tmp_path / "t.txt")]) == 2
    assert "give a workbook name ending in .xlsx" in capsys.readouterr().err
    assert main(["people", "template", str(tmp_path / "t.xlsx")]) == 0
    assert load_workbook(tmp_path / "t.xlsx")["Contractors"]["A1"].value == "Name"
