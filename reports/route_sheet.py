"""The inspector's route sheet: the day's stops in route order with the address, permit number,
inspection, the caller and phone, the desired time and the notes; a PDF to take along and an
.xlsx export. Pure renderers over desk.services.inspections.RouteSheet."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.services.inspections import RouteSheet, RouteStop
from reports import xlsx
from reports.common import MARGIN, RULE, SHADE, build_pdf, day, header, para, styles
from reports.fonts import register_fonts

COLUMNS = ("#", "Time", "Address", "Permit", "Inspection", "Contact", "Phone", "Notes", "Result")
_WIDTHS = (0.3, 0.75, 1.7, 0.75, 1.3, 1.15, 1.05, 1.85, 0.65)  # inches: 9.5, landscape letter


def _local(at: datetime) -> str:
    local = at.astimezone()
    hour = local.hour % 12 or 12
    half = "AM" if local.hour < 12 else "PM"
    return f"{local.month:02d}/{local.day:02d} {hour}:{local.minute:02d} {half}"


def stop_time(s: RouteStop) -> str:
    """What the caller asked for, and the ordinance's limit where there is one."""
    parts = [s.desired_time] if s.desired_time else []
    if s.due_at is not None:
        parts.append(f"by {_local(s.due_at)}")
    return " ".join(parts)


def stop_result(s: RouteStop) -> str:
    return s.result.label if s.result is not None else ""


def _row(s: RouteStop, n: int) -> list[str]:
    return [
        str(s.position or n),
        stop_time(s),
        s.address,
        s.permit_number,
        s.type_label,
        s.contact,
        s.phone,
        s.notes,
        stop_result(s),
    ]


def route_title(sheet: RouteSheet) -> str:
    return f"Route sheet — {sheet.inspector_name}, {sheet.day.strftime('%A')} {day(sheet.day)}"


def render_route_sheet(sheet: RouteSheet, out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    story: list[Flowable] = [
        *header(
            sheet.municipality_name,
            sheet.letterhead,
            st,
            landscape(letter)[0] - 2 * MARGIN,
        ),
        para(route_title(sheet), st["title"]),
        para(
            f"{len(sheet.stops)} stop{'s' if len(sheet.stops) != 1 else ''} in route order. "
            "Result: P passed, R rejected (a written correction order), A partial, C cancelled.",
            st["label"],
        ),
        Spacer(1, 8),
    ]
    data: list[list[Any]] = [[para(c, st["head"]) for c in COLUMNS]]
    for n, s in enumerate(sheet.stops, start=1):
        data.append([para(v, st["cell"]) for v in _row(s, n)])
    if not sheet.stops:
        data.append([para("No inspections on this day.", st["cell"])] + [""] * (len(COLUMNS) - 1))
    table = Table(data, colWidths=[w * inch for w in _WIDTHS], repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
                ("LINEBELOW", (0, 1), (-1, -1), 0.4, RULE),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, SHADE]),
                ("TOPPADDING", (0, 1), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 9),  # room to write the result by hand
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    story.append(table)

    build_pdf(
        out,
        story,
        font=regular,
        title=route_title(sheet),
        author=sheet.municipality_name,
        footer=f"{sheet.municipality_name} — {route_title(sheet)}",
        pagesize=landscape(letter),
        margins=(0.6 * inch, 0.7 * inch),
        footer_y=0.45 * inch,
    )


def export_route_xlsx(sheet: RouteSheet, out: Path) -> None:
    """The same stops as a spreadsheet (to plan, or to send to a phone)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    wb = Workbook()
    ws: Any = wb.active
    ws.title = "Route"
    ws.append([route_title(sheet)])
    ws["A1"].font = Font(bold=True, size=13)
    ws.append([])
    ws.append(list(COLUMNS))
    for cell in ws[3]:
        cell.font = Font(bold=True)
    for n, s in enumerate(sheet.stops, start=1):
        ws.append([s.position or n, *_row(s, n)[1:]])
    for col, width in zip("ABCDEFGHI", (4, 16, 30, 12, 28, 24, 16, 44, 12), strict=True):
        ws.column_dimensions[col].width = width
    for row in ws.iter_rows(min_row=4):
        for cell in row:
            cell.alignment = Alignment(vertical="top", wrap_text=True)
    ws.freeze_panes = "A4"
    xlsx.save(wb, out)
