"""The audit trail of a period as a workbook, for administrators and auditors: one row per
audit row, each changed field on its own line (old → new), and the row's hash so a copy can
be compared with the register later."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from openpyxl.styles import Alignment

from db.audit_queries import AuditExportRow
from desk.dates import short_date
from reports.xlsx import finish_sheet, first_sheet, new_workbook, save, write_table, write_title

HEADERS = (
    "When (UTC)",
    "Who",
    "Entity",
    "Id",
    "Permit",
    "Action",
    "Changes (old → new)",
    "Row hash",
)
CHANGES_COLUMN = 7  # 1-based


def _shown(value: str | None) -> str:
    return "(none)" if value is None else value


def changes_text(changes: Sequence[tuple[str, str | None, str | None]]) -> str:
    return "\n".join(f"{field}: {_shown(old)} → {_shown(new)}" for field, old, new in changes)


def export_audit(
    out: Path, rows: Sequence[AuditExportRow], start: date, end: date, where: str
) -> None:
    title = "Audit trail"
    wb = new_workbook(title, subject=f"{start.isoformat()} to {end.isoformat()}")
    ws = first_sheet(wb, title)
    first = write_title(
        ws,
        title,
        [
            f"{short_date(start)} to {short_date(end)} (UTC days), {len(rows):,} rows",
            f"From {where}",
        ],
    )
    table = write_table(
        ws,
        HEADERS,
        [
            (
                r.at.replace(tzinfo=None),  # Excel has no time zones; the header says UTC
                r.username,
                r.entity,
                r.entity_id,
                r.permit_number or "",
                r.action,
                changes_text(r.changes),
                r.row_hash or "",
            )
            for r in rows
        ],
        date_cols={0},
        total_row=False,
        start_row=first,
        autofilter=True,
    )
    for row in range(table.first_row, table.last_row + 1):
        ws.cell(row=row, column=CHANGES_COLUMN).alignment = Alignment(
            wrap_text=True, vertical="top"
        )
    finish_sheet(ws, title_rows=range(1, first), header_text=title)
    save(wb, out)
