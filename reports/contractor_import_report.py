"""The dry run of a contractors' import as a workbook, to read or pass round before importing:
Summary, New, Changed (each field old -> new), Credentials (added and renewed) and Rejected
(each row with why). Built from desk.imports.contractors.ContractorPlan; queries nothing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from desk.dates import short_date
from desk.imports.contractors import ContractorPlan, expiry_text
from reports import xlsx

TITLE = "Contractors' import: dry run"


def _rows(lines: tuple[int, ...]) -> int | str:
    """The row of the file (a number), or its rows ('3, 4') for a person on several."""
    return lines[0] if len(lines) == 1 else ", ".join(str(n) for n in lines)


def export_contractor_dry_run_xlsx(
    plan: ContractorPlan,
    out: Path,
    *,
    file_name: str,
    municipality: str = "",
    made_on: date | None = None,
) -> None:
    wb = xlsx.new_workbook(
        TITLE,
        subject=file_name,
        author=municipality,
        keywords="contractors, import, dry run",
        description=plan.summary(),
    )
    ws = xlsx.first_sheet(wb, "Summary")
    lines = [x for x in (municipality, f"File: {file_name}") if x]
    if made_on is not None:
        lines.append(f"Dry run of {short_date(made_on)}: nothing has been imported yet")
    row = xlsx.write_title(ws, TITLE, lines)
    counts = [
        ("Rows read", plan.rows_read),
        ("New people and organizations", len(plan.new)),
        ("Changed", len(plan.changed)),
        ("Unchanged", plan.unchanged),
        ("Credentials added", len(plan.added)),
        ("Credentials renewed", len(plan.renewed)),
        ("Rows rejected", len(plan.rejected)),
    ]
    row = xlsx.write_pairs(ws, counts, row)
    if plan.columns_left_out:
        ws.cell(row=row, column=1, value="Columns not read")
        ws.cell(row=row, column=2, value=", ".join(plan.columns_left_out))
        row += 2
    if plan.notes:
        ws.cell(row=row, column=1, value="Notes").font = xlsx.TOTAL_FONT
        for i, note in enumerate(plan.notes, start=row + 1):
            ws.cell(row=i, column=1, value=f"Row {note.line}")
            ws.cell(row=i, column=2, value=note.text)
    xlsx.finish_sheet(ws, title_rows=range(1, len(lines) + 2))

    new = xlsx.add_sheet(wb, "New")
    xlsx.write_table(
        new,
        (
            "Row",
            "Name",
            "Kind",
            "Address",
            "Address line 2",
            "City",
            "State",
            "ZIP",
            "Phone",
            "Email",
        ),
        [
            (
                _rows(p.lines),
                p.person.name,
                p.person.kind.value,
                p.person.address_line1,
                p.person.address_line2,
                p.person.city,
                p.person.state,
                p.person.zip,
                p.person.phone,
                p.person.email,
            )
            for p in plan.new
        ],
        total_row=False,
        autofilter=True,
    )
    xlsx.finish_sheet(new)

    changed = xlsx.add_sheet(wb, "Changed")
    xlsx.write_table(
        changed,
        ("Row", "Name", "Field", "Old", "New"),
        [(_rows(c.lines), c.name, f.label, f.old, f.new) for c in plan.changed for f in c.changes],
        total_row=False,
        autofilter=True,
    )
    xlsx.finish_sheet(changed)

    credentials = xlsx.add_sheet(wb, "Credentials")
    rows: list[tuple[object, ...]] = [
        (
            a.line,
            a.name,
            "Added (new person)" if a.party_id is None else "Added",
            a.kind.label,
            a.number,
            a.expires_on,
            "",
        )
        for a in plan.added
    ]
    rows += [
        (
            r.line,
            r.name,
            "Renewed",
            r.kind.label,
            r.number,
            r.expires_on,
            f"{r.old_number}, {expiry_text(r.old_expires_on)}",
        )
        for r in plan.renewed
    ]
    rows.sort(key=lambda r: int(str(r[0])))
    xlsx.write_table(
        credentials,
        ("Row", "Name", "What", "Credential", "Number", "Expires", "Replaces"),
        rows,
        date_cols={5},
        total_row=False,
        autofilter=True,
    )
    xlsx.finish_sheet(credentials)

    rejected = xlsx.add_sheet(wb, "Rejected")
    xlsx.write_table(
        rejected,
        ("Row", "Name", "Reason"),
        [(r.line, r.name, r.reason) for r in plan.rejected],
        total_row=False,
        autofilter=True,
    )
    xlsx.finish_sheet(rejected)
    xlsx.save(wb, Path(out))
