"""What every Permit Desk spreadsheet shares: a title block, tables with a styled and frozen
header row, money and dates in their formats, totals as formulas (so a treasurer who changes a
figure sees the total follow), fitted column widths, landscape pages fitted to the width, and
the document properties; on saving, each formula's value beside it (reports.xlsx_values), no
column wider than 40 and a filter on each sheet's largest table. Pure helpers over openpyxl; they
query nothing.

    wb = new_workbook("Daily cash report", subject="03/02/2026", author="City of Glendale")
    ws = first_sheet(wb, "Receipts")
    row = write_title(ws, "Daily cash report", ["City of Glendale", "Monday 03/02/2026"])
    table = write_table(ws, headers, rows, money_cols={4}, date_cols={1}, start_row=row)
    setup_page(ws)
    save(wb, path)
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Collection, Sequence
from copy import copy
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from reports.xlsx_values import with_values

MONEY_FORMAT = '"$"#,##0.00;[Red]-"$"#,##0.00'
DATE_FORMAT = "mm/dd/yyyy"
DATETIME_FORMAT = "mm/dd/yyyy h:mm AM/PM"
HEADER_FILL = PatternFill("solid", fgColor="1B2430")
HEADER_FONT = Font(bold=True, color="FFFFFF")
TOTAL_FILL = PatternFill("solid", fgColor="EEF2F7")
TOTAL_FONT = Font(bold=True)
TITLE_FONT = Font(bold=True, size=14)
SUBTITLE_FONT = Font(color="5D6873")
_THIN = Side(style="thin", color="1B2430")
# Wider than 40 a column pushes the next ones off a laptop's screen: longer text wraps.
MIN_WIDTH, MAX_WIDTH = 8, 40
# The tables written on each sheet, so that save() can put the sheet's filter on its largest.
_TABLES: weakref.WeakKeyDictionary[Worksheet, list[TableRange]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class TableRange:
    """Where write_table put a table: rows are 1-based sheet rows."""

    header_row: int
    first_row: int  # first data row
    last_row: int  # last data row (first_row - 1 when there are none)
    total_row: int | None
    columns: int

    @property
    def next_row(self) -> int:
        """The first free row after the table and one blank row."""
        return (self.total_row or self.last_row) + 2

    def cell(self, column: int, row: int | None = None) -> str:
        """'E12': a 1-based column in a data row (the total row by default)."""
        return f"{get_column_letter(column)}{row or self.total_row or self.last_row}"


def new_workbook(
    title: str, *, subject: str = "", author: str = "", keywords: str = "", description: str = ""
) -> Workbook:
    """A workbook with its document properties (File → Properties in Excel)."""
    wb = Workbook()
    props = wb.properties
    props.title = title
    props.subject = subject
    props.creator = author or "Permit Desk"
    props.lastModifiedBy = "Permit Desk"
    props.keywords = keywords
    props.description = description
    props.category = "Permit Desk report"
    return wb


def first_sheet(wb: Workbook, title: str) -> Worksheet:
    ws = wb.active
    assert isinstance(ws, Worksheet)
    ws.title = _sheet_title(title)
    return ws


def add_sheet(wb: Workbook, title: str) -> Worksheet:
    return wb.create_sheet(_sheet_title(title))


def _sheet_title(title: str) -> str:
    # Excel: at most 31 characters, none of []:*?/\
    cleaned = "".join(" " if c in "[]:*?/\\" else c for c in title)
    return cleaned[:31]


def write_title(ws: Worksheet, title: str, lines: Sequence[str] = (), start_row: int = 1) -> int:
    """A bold title and muted lines under it; returns the first row after a blank line."""
    ws.cell(row=start_row, column=1, value=title).font = TITLE_FONT
    row = start_row + 1
    for line in lines:
        ws.cell(row=row, column=1, value=line).font = SUBTITLE_FONT
        row += 1
    return row + 1


def write_pairs(
    ws: Worksheet,
    pairs: Sequence[tuple[str, Any]],
    start_row: int,
    money_rows: Collection[int] = (),
    bold_rows: Collection[int] = (),
) -> int:
    """Label/value rows (a summary): column A the label, column B the value; `money_rows` and
    `bold_rows` are 0-based indexes into `pairs`. A value starting with '=' is a formula.
    Returns the first row after a blank line."""
    for i, (label, value) in enumerate(pairs):
        row = start_row + i
        ws.cell(row=row, column=1, value=label)
        cell = ws.cell(row=row, column=2, value=value)
        if i in money_rows:
            cell.number_format = MONEY_FORMAT
        _format_value(cell, value)
        if i in bold_rows:
            ws.cell(row=row, column=1).font = TOTAL_FONT
            cell.font = TOTAL_FONT
    return start_row + len(pairs) + 1


def _format_value(cell: Any, value: Any) -> None:
    if isinstance(value, datetime):
        cell.number_format = DATETIME_FORMAT
    elif isinstance(value, date):
        cell.number_format = DATE_FORMAT


def write_table(
    ws: Worksheet,
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    money_cols: Collection[int] = (),
    date_cols: Collection[int] = (),
    total_row: bool = True,
    *,
    start_row: int = 1,
    total_label: str = "Total",
    freeze: bool = True,
    autofilter: bool = False,
) -> TableRange:
    """A table: the header row styled (and frozen, with the rows above it), the data rows,
    and a total row with a SUM formula under each money column. Columns in `money_cols` and
    `date_cols` are 0-based indexes into `headers`. Column widths are fitted afterwards by
    `fit_columns` (call it once the sheet is complete)."""
    n = len(headers)
    header_row = start_row
    for c, text in enumerate(headers, start=1):
        cell = ws.cell(row=header_row, column=c, value=text)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(
            horizontal="right" if (c - 1) in money_cols else "left", vertical="center"
        )
    first = header_row + 1
    for r, values in enumerate(rows, start=first):
        for c, value in enumerate(values, start=1):
            cell = ws.cell(row=r, column=c, value=value)
            if (c - 1) in money_cols:
                cell.number_format = MONEY_FORMAT
            elif (c - 1) in date_cols:
                cell.number_format = DATETIME_FORMAT if isinstance(value, datetime) else DATE_FORMAT
            else:
                _format_value(cell, value)
    last = first + len(rows) - 1
    total: int | None = None
    if total_row:
        total = last + 1
        label_col = next((c for c in range(n) if c not in money_cols), 0) + 1
        ws.cell(row=total, column=label_col, value=total_label)
        for c in range(1, n + 1):
            cell = ws.cell(row=total, column=c)
            cell.font = TOTAL_FONT
            cell.fill = TOTAL_FILL
            cell.border = Border(top=_THIN)
            if (c - 1) in money_cols:
                letter = get_column_letter(c)
                cell.value = f"=SUM({letter}{first}:{letter}{last})" if rows else 0
                cell.number_format = MONEY_FORMAT
    if freeze and ws.freeze_panes is None:
        ws.freeze_panes = ws.cell(row=header_row + 1, column=1)
        ws.print_title_rows = f"{header_row}:{header_row}"  # the header on every printed page
    if autofilter and rows:
        ws.auto_filter.ref = f"A{header_row}:{get_column_letter(n)}{last}"
    table = TableRange(header_row, first, last, total, n)
    _TABLES.setdefault(ws, []).append(table)
    return table


def _shown(value: Any, number_format: str) -> str:
    """About the text Excel shows for a value, to measure a column."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith("=SUM"):
        return "$000,000.00"
    if isinstance(value, Decimal | int | float) and not isinstance(value, bool):
        if "$" in number_format:
            return f"${value:,.2f}"
        return f"{value}"
    if isinstance(value, datetime):
        return "00/00/0000 00:00 PM"
    if isinstance(value, date):
        return "00/00/0000"
    return str(value)


def fit_columns(ws: Worksheet, skip_rows: Collection[int] = (), max_width: int = MAX_WIDTH) -> None:
    """Each column as wide as its longest value (within limits); rows in `skip_rows` (a title
    that may run across columns) do not count."""
    widths: dict[int, int] = {}
    for row in ws.iter_rows():
        for cell in row:
            if cell.row in skip_rows or cell.value is None:
                continue
            text = _shown(cell.value, cell.number_format or "")
            longest = max((len(part) for part in text.split("\n")), default=0)
            bold = bool(cell.font and cell.font.bold)
            widths[cell.column] = max(widths.get(cell.column, 0), longest + (3 if bold else 2))
    for column, width in widths.items():
        ws.column_dimensions[get_column_letter(column)].width = max(
            MIN_WIDTH, min(width, max_width)
        )
    _wrap_long(ws, max_width, skip_rows)


def _wrap_long(ws: Worksheet, max_width: int, skip_rows: Collection[int] = ()) -> None:
    """Text longer than its column is wide wraps (its alignment otherwise kept)."""
    for row in ws.iter_rows():
        for cell in row:
            if cell.row in skip_rows or not isinstance(cell.value, str):
                continue
            if cell.value.startswith("=") or len(cell.value) <= max_width:
                continue
            letter = get_column_letter(cell.column)
            width = ws.column_dimensions[letter].width or MIN_WIDTH
            if len(cell.value) > width and not cell.alignment.wrap_text:
                align = copy(cell.alignment)
                align.wrap_text = True
                align.vertical = align.vertical or "top"
                cell.alignment = align


def finish_workbook(wb: Workbook) -> None:
    """What every workbook gets before it is saved: no column wider than MAX_WIDTH (longer
    text wraps), and each sheet's largest table a filter (Excel allows one a sheet) when the
    sheet has none."""
    for ws in wb.worksheets:
        capped = False
        for dim in ws.column_dimensions.values():
            if dim.width and dim.width > MAX_WIDTH:
                dim.width = MAX_WIDTH
                capped = True
        if capped:
            _wrap_long(ws, MAX_WIDTH)
        tables = _TABLES.get(ws, [])
        if ws.auto_filter.ref or not tables:
            continue
        biggest = max(tables, key=lambda t: t.last_row - t.first_row)
        last = max(biggest.last_row, biggest.header_row)
        ws.auto_filter.ref = f"A{biggest.header_row}:{get_column_letter(biggest.columns)}{last}"


def setup_page(ws: Worksheet, *, landscape: bool = True, header_text: str = "") -> None:
    """Print setup: landscape, fitted to one page wide (as many tall as needed), a page number
    footer 'Page X of Y'."""
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_LETTER
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.5
    if header_text:
        ws.oddHeader.left.text = header_text
    ws.oddFooter.right.text = "Page &P of &N"


def save(wb: Workbook, out: Path) -> None:
    """Write the workbook to `out`. Built in memory first: a zip written straight to a full
    disk fails once more while being garbage-collected, printing a traceback past any handler;
    this way a full disk is one OSError naming the file, and no half-written workbook is left."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    finish_workbook(wb)
    buffer = io.BytesIO()
    wb.save(buffer)
    # Each formula's value saved beside it: a viewer that does not calculate shows the number.
    data = with_values(buffer.getvalue(), wb)
    try:
        with open(out, "wb") as f:
            f.write(data)
    except OSError as e:
        if out.is_file():
            out.unlink(missing_ok=True)
        raise OSError(e.errno, e.strerror, str(out)) from None


def finish_sheet(ws: Worksheet, title_rows: Collection[int] = (), header_text: str = "") -> None:
    """Fit the columns and set the page up: what every sheet needs last."""
    fit_columns(ws, skip_rows=title_rows)
    setup_page(ws, header_text=header_text)


COUNT_FORMAT = "#,##0"


def sum_columns(
    ws: Worksheet, table: TableRange, columns: Collection[int], number_format: str = COUNT_FORMAT
) -> None:
    """Totals as SUM formulas under more columns of a table written with a total row (counts,
    units); `columns` are 0-based like write_table's."""
    if table.total_row is None:
        return
    for c in columns:
        letter = get_column_letter(c + 1)
        cell = ws.cell(row=table.total_row, column=c + 1)
        has_rows = table.last_row >= table.first_row
        cell.value = f"=SUM({letter}{table.first_row}:{letter}{table.last_row})" if has_rows else 0
        cell.number_format = number_format
        cell.alignment = Alignment(horizontal="right")
