"""The inspector's route sheet: the day's stops in route order with the address, permit number,
inspection, the caller and phone, the desired time and the notes; a PDF to take along and an
.xlsx export. Pure renderers over desk.services.inspections.RouteSheet.

Case inspections of code enforcement (Hudson 140-3, 140-10A) print beside the permit stops with
the case number and what to inspect (the complaint, or the open violations with unit and room)
across the contact, phone and notes columns. No complainant is ever printed: the stop carries
none (140-2, confidential)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk import dates
from desk.services.inspections import RouteSheet, RouteStop
from reports import xlsx
from reports.common import MARGIN, RULE, SHADE, build_pdf, day, header, para, styles
from reports.fonts import register_fonts

COLUMNS = (
    "#",
    "Time",
    "Address",
    "Permit / case",
    "Inspection",
    "Contact",
    "Phone",
    "Notes",
    "Result",
)
_WHAT = 5  # a case stop's "what to inspect" spans Contact, Phone and Notes
_WIDTHS = (0.3, 0.75, 1.6, 1.0, 1.3, 1.1, 1.05, 1.75, 0.65)  # inches: 9.5, landscape letter


def _local(at: datetime) -> str:
    local = at.astimezone()
    hour = local.hour % 12 or 12
    half = "AM" if local.hour < 12 else "PM"
    return f"{local.month:02d}/{local.day:02d} {hour}:{local.minute:02d} {half}"


def stop_time(s: RouteStop) -> str:
    """What the caller asked for, and the ordinance's limit where there is one."""
    parts = [dates.stop_time(s.desired_time)] if s.desired_time else []
    if s.due_at is not None:
        parts.append(f"by {_local(s.due_at)}")
    return " ".join(parts)


def stop_result(s: RouteStop) -> str:
    return s.result.label if s.result is not None else ""


def case_what(s: RouteStop) -> list[str]:
    """A case stop's lines: what to inspect, then the visit's own notes."""
    extra = [x for x in s.notes.splitlines() if x and x not in s.items]
    return (["To inspect:", *s.items] if s.items else []) + extra


def _row(s: RouteStop, n: int) -> list[str]:
    if s.is_case:
        return [
            str(s.position or n),
            stop_time(s),
            s.address,
            s.permit_number,
            s.type_label,
            "",  # no caller: who complained is confidential (Hudson 140-2)
            "",
            "\n".join(case_what(s)),
            stop_result(s),
        ]
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


def stops_words(sheet: RouteSheet) -> str:
    """'3 stops in route order, 1 of them code enforcement case inspection.'"""
    n = len(sheet.stops)
    cases = sum(1 for s in sheet.stops if s.is_case)
    words = f"{n} stop{'s' if n != 1 else ''} in route order"
    if cases == n and n:
        return words + (
            ": code enforcement case inspections."
            if n > 1
            else ": a code enforcement case inspection."
        )
    if cases:
        return words + f", {cases} of them code enforcement case inspection{'s' * (cases > 1)}."
    return words + "."


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
            f"{stops_words(sheet)} "
            "Result: P passed, R rejected (a written correction order), A partial, C cancelled.",
            st["label"],
        ),
        Spacer(1, 8),
    ]
    data: list[list[Any]] = [[para(c, st["head"]) for c in COLUMNS]]
    spans: list[tuple[Any, ...]] = []
    for n, s in enumerate(sheet.stops, start=1):
        cells: list[Any] = [para(v, st["cell"]) for v in _row(s, n)]
        if s.is_case:
            lines = case_what(s)
            cells[_WHAT] = Paragraph(
                "<br/>".join(
                    f"<b>{escape(x)}</b>" if k == 0 and s.items else escape(x)
                    for k, x in enumerate(lines)
                ),
                st["cell"],
            )
            cells[_WHAT + 1] = cells[_WHAT + 2] = ""
            spans.append(("SPAN", (_WHAT, n), (_WHAT + 2, n)))
        data.append(cells)
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
                *spans,
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
    ws.auto_filter.ref = f"A3:I{max(3, ws.max_row)}"  # the stops, by street or by time
    xlsx.save(wb, out)
