"""What the issue-8 reports share as PDFs: the letter-size document with the letterhead, a footer
"Page X of Y", section headings, tables with given column widths whose header row repeats on
every page and whose money is right-aligned, and reportlab charts.

Long tables are laid out page by page (PagedTable): each row is measured once and each page gets
a small Table of the rows that fit; reportlab's own split of one long Table re-measures the rows
left on every page. Cells are plain strings (a Paragraph per cell is reportlab's slow path)
except in the few wrapped columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import Flowable

from desk.dates import short_date
from desk.domain.reports import Heading
from reports.common import (
    INK,
    MARGIN,
    MUTED,
    RULE,
    SHADE,
    header,
    numbered_canvas,
    para,
    styles,
)
from reports.fonts import register_fonts

PAGE_WIDTH, PAGE_HEIGHT = letter
WIDTH = PAGE_WIDTH - 2 * MARGIN  # 7 inches of text
ACCENT = colors.HexColor("#2f6690")
ACCENT_LIGHT = colors.HexColor("#9cc5e3")
CELL_SIZE = 8
CELL_LEADING = 10


def money(amount: Decimal | None) -> str:
    if amount is None:
        return ""
    text = f"${abs(amount):,.2f}"
    return f"−{text}" if amount < 0 else text


def count(n: int | None) -> str:
    return "" if n is None else f"{n:,}"


def day(d: date | None) -> str:
    return "" if d is None else short_date(d)


@dataclass(frozen=True)
class Col:
    title: str
    width: float  # inches
    align: str = "LEFT"  # LEFT or RIGHT (money, counts)
    wrap: bool = False  # a Paragraph (short tables only)


def fit(text: str, font: str, size: float, width: float) -> str:
    """The text cut with an ellipsis to fit `width` points (plain-string cells do not wrap)."""
    if stringWidth(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if stringWidth(text[:mid] + "…", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


class Pdf:
    """One report being written: fonts, styles and the story."""

    def __init__(self, heading: Heading, title: str) -> None:
        self.regular, self.bold = register_fonts()
        self.st = styles(self.regular, self.bold)
        self.st["h1"] = ParagraphStyle(
            "h1",
            self.st["base"],
            fontName=self.bold,
            fontSize=13,
            leading=16,
            spaceBefore=10,
            spaceAfter=4,
            textColor=INK,
        )
        self.st["h2"] = ParagraphStyle(
            "h2",
            self.st["base"],
            fontName=self.bold,
            fontSize=10.5,
            leading=13,
            spaceBefore=8,
            spaceAfter=3,
        )
        self.st["big"] = ParagraphStyle(
            "big", self.st["base"], fontName=self.bold, fontSize=22, leading=27
        )
        self.st["cover_title"] = ParagraphStyle(
            "cover_title",
            self.st["base"],
            fontName=self.bold,
            fontSize=24,
            leading=30,
            spaceBefore=6,
            spaceAfter=10,
        )
        self.st["cover_line"] = ParagraphStyle(
            "cover_line", self.st["base"], fontSize=12, leading=16, textColor=MUTED
        )
        self.heading = heading
        self.title = title
        self.story: list[Flowable] = []

    # --- text ------------------------------------------------------------------------

    def letterhead(self) -> None:
        self.story.extend(header(self.heading.municipality_name, self.heading.letterhead, self.st))

    def add(self, *flowables: Flowable) -> None:
        self.story.extend(flowables)

    def text(self, text: str, style: str = "base") -> None:
        self.story.append(para(text, self.st[style]))

    def h1(self, text: str) -> None:
        # A heading never sits alone at the foot of a page.
        self.story.append(CondPageBreak(1.4 * inch))
        self.story.append(para(text, self.st["h1"]))

    def h2(self, text: str) -> None:
        self.story.append(CondPageBreak(1.0 * inch))
        self.story.append(para(text, self.st["h2"]))

    def note(self, text: str) -> None:
        self.story.append(para(text, self.st["note"]))

    def space(self, points: float = 8) -> None:
        self.story.append(Spacer(1, points))

    # --- tables ----------------------------------------------------------------------

    def table(
        self,
        cols: Sequence[Col],
        rows: Sequence[Sequence[str]],
        total: Sequence[str] | None = None,
        empty: str = "None.",
    ) -> None:
        """A table of plain strings (Col.wrap columns become Paragraphs) laid out page by page:
        each page gets the header and the rows that fit (PagedTable)."""
        if not rows:
            self.story.append(para(empty, self.st["label"]))
            return
        widths = _widths_for_figures(cols, rows, total, self.regular, self.bold)
        # Headings wrap (a Paragraph each, made once).
        head_left = ParagraphStyle("th", self.st["head"], fontSize=7.5, leading=9)
        head_right = ParagraphStyle("thr", self.st["head_right"], fontSize=7.5, leading=9)
        head = [para(c.title, head_right if c.align == "RIGHT" else head_left) for c in cols]
        wrap_style = ParagraphStyle(
            "wrapcell", self.st["cell"], fontSize=CELL_SIZE, leading=CELL_LEADING
        )

        def cell(c: Col, w: float, value: str) -> Any:
            # Only a value too long for its column is a Paragraph (reportlab's slow path).
            if c.wrap and stringWidth(value, self.regular, CELL_SIZE) > w - PAD:
                return para(value, wrap_style)
            if c.wrap:
                return value
            return fit(value, self.regular, CELL_SIZE, w - PAD)

        body: list[list[Any]] = [
            [cell(c, w, v) for c, w, v in zip(cols, widths, row, strict=True)] for row in rows
        ]
        if total is not None:
            body.append(
                [fit(v, self.bold, CELL_SIZE, w - PAD) for w, v in zip(widths, total, strict=True)]
            )
        self.story.append(
            PagedTable(
                head,
                body,
                widths,
                lambda n, first, last: self._style(
                    cols, n, last and total is not None, odd_start=first % 2 == 1
                ),
            )
        )

    def _style(
        self, cols: Sequence[Col], n_rows: int, has_total: bool, *, odd_start: bool = False
    ) -> TableStyle:
        cmds: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, -1), self.regular),
            ("FONTSIZE", (0, 0), (-1, -1), CELL_SIZE),
            ("LEADING", (0, 0), (-1, -1), CELL_LEADING),
            ("TEXTCOLOR", (0, 0), (-1, -1), INK),
            ("FONTNAME", (0, 0), (-1, 0), self.bold),
            ("TEXTCOLOR", (0, 0), (-1, 0), MUTED),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        if n_rows > 2:
            shades = [SHADE, None] if odd_start else [None, SHADE]  # the stripes run on
            cmds.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), shades))
        for n, c in enumerate(cols):
            if c.align == "RIGHT":
                cmds.append(("ALIGN", (n, 0), (n, -1), "RIGHT"))
        if has_total:
            cmds += [
                ("FONTNAME", (0, -1), (-1, -1), self.bold),
                ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK),
                ("BACKGROUND", (0, -1), (-1, -1), colors.white),
            ]
        return TableStyle(cmds)

    def facts(
        self, pairs: Sequence[tuple[str, str]], label_width: float = 2.6, heading: str = ""
    ) -> None:
        """Label/value lines (a summary block), under `heading` (an h2) on the same page."""
        data = [[label, value] for label, value in pairs]
        t = Table(data, colWidths=[label_width * inch, 2.0 * inch], hAlign="LEFT")
        t.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), self.regular),
                    ("FONTSIZE", (0, 0), (-1, -1), 9.5),
                    ("TEXTCOLOR", (0, 0), (0, -1), MUTED),
                    ("FONTNAME", (1, 0), (1, -1), self.bold),
                    ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                    ("TOPPADDING", (0, 0), (-1, -1), 2),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        # A summary is read whole, with its heading: never split by a page.
        head = [para(heading, self.st["h2"])] if heading else []
        self.story.append(KeepTogether([*head, t]))

    # --- charts ----------------------------------------------------------------------

    def bar_chart(
        self,
        title: str,
        labels: Sequence[str],
        values: Sequence[float],
        value_text: Callable[[float], str],
        *,
        width: float = 3.4,
        height: float = 2.2,
    ) -> Drawing:
        """A vertical bar chart (months along the bottom)."""
        w, h = width * inch, height * inch
        d = Drawing(w, h)
        d.add(String(0, h - 11, title, fontName=self.bold, fontSize=9, fillColor=INK))
        chart = VerticalBarChart()
        chart.x, chart.y = 38, 22
        chart.width, chart.height = w - 46, h - 48
        chart.data = [list(values) or [0]]
        chart.categoryAxis.categoryNames = list(labels)
        chart.categoryAxis.labels.fontName = self.regular
        chart.categoryAxis.labels.fontSize = 6.5
        chart.valueAxis.labels.fontName = self.regular
        chart.valueAxis.labels.fontSize = 6.5
        chart.valueAxis.valueMin = 0
        top = max(values, default=0)
        if top <= 0:
            chart.valueAxis.valueMax = 1
        chart.valueAxis.labelTextFormat = value_text
        chart.valueAxis.strokeColor = RULE
        chart.categoryAxis.strokeColor = RULE
        chart.valueAxis.gridStrokeColor = colors.HexColor("#e3e8ee")
        chart.valueAxis.visibleGrid = True
        chart.bars[0].fillColor = ACCENT
        chart.bars[0].strokeColor = None
        chart.barSpacing = 1
        d.add(chart)
        return d

    def hbar_chart(
        self,
        title: str,
        labels: Sequence[str],
        values: Sequence[float],
        value_text: Callable[[float], str],
        *,
        width: float = 7.0,
    ) -> Drawing:
        """A horizontal bar chart (categories with long names: GL accounts)."""
        n = max(len(values), 1)
        label_w = min(2.6 * inch, max(stringWidth(x, self.regular, 7) for x in labels) + 8)
        w, h = width * inch, 30 + n * 16
        d = Drawing(w, h)
        d.add(String(0, h - 11, title, fontName=self.bold, fontSize=9, fillColor=INK))
        chart = HorizontalBarChart()
        chart.x, chart.y = label_w, 16
        chart.width, chart.height = w - label_w - 20, h - 34
        chart.data = [list(reversed(values))]
        chart.categoryAxis.categoryNames = list(reversed(labels))
        chart.categoryAxis.labels.fontName = self.regular
        chart.categoryAxis.labels.fontSize = 7
        chart.categoryAxis.labels.boxAnchor = "e"
        chart.valueAxis.labels.fontName = self.regular
        chart.valueAxis.labels.fontSize = 6.5
        chart.valueAxis.valueMin = 0
        chart.valueAxis.labelTextFormat = value_text
        chart.valueAxis.strokeColor = RULE
        chart.categoryAxis.strokeColor = RULE
        chart.bars[0].fillColor = ACCENT_LIGHT
        chart.bars[0].strokeColor = ACCENT
        chart.barLabelFormat = value_text
        chart.barLabels.fontName = self.regular
        chart.barLabels.fontSize = 6.5
        chart.barLabels.boxAnchor = "w"
        chart.barLabels.dx = 3
        d.add(chart)
        return d

    def side_by_side(self, *drawings: Flowable) -> None:
        widths = [float(getattr(d, "width", 0)) for d in drawings]
        t = Table([list(drawings)], colWidths=widths, hAlign="LEFT")
        t.setStyle(
            TableStyle(
                [
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        self.story.append(KeepTogether([t]))

    # --- building -------------------------------------------------------------------

    def build(self, out: Path, *, subject: str = "", cover: bool = False) -> None:
        """Write the PDF: the footer on every page but a cover, 'Page X of Y' on the right."""
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        footer = f"{self.heading.municipality_name} — {self.title}"
        doc = SimpleDocTemplate(
            str(out),
            pagesize=letter,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=0.6 * inch,
            bottomMargin=0.75 * inch,
            title=self.title,
            author=self.heading.municipality_name,
            subject=subject,
            creator="Permit Desk",
        )
        doc.build(self.story, canvasmaker=numbered_canvas(footer, self.regular, skip_first=cover))


PAD = 6  # a cell's left and right padding together
V_PAD = 4  # top and bottom
KEEP_TOGETHER = 3  # rows kept together at the end of a table split across pages


def _widths_for_figures(
    cols: Sequence[Col],
    rows: Sequence[Sequence[str]],
    total: Sequence[str] | None,
    regular: str,
    bold: str,
) -> list[float]:
    """Column widths in points. A figure (a right-aligned column: money, counts) is never cut
    short: a column too narrow for its widest figure takes the room from the widest column of
    words."""
    widths = [c.width * inch for c in cols]
    words = [n for n, c in enumerate(cols) if c.align != "RIGHT"]
    for n, c in enumerate(cols):
        if c.align != "RIGHT" or not words:
            continue
        need = max((stringWidth(r[n], regular, CELL_SIZE) for r in rows), default=0.0)
        if total is not None:
            need = max(need, stringWidth(total[n], bold, CELL_SIZE))
        short = need + PAD - widths[n]
        if short > 0:
            widest = max(words, key=lambda k: widths[k])
            widths[widest] -= short
            widths[n] += short
    return widths


class PagedTable(Flowable):
    """A long table laid out page by page: each row's height is measured once, and on each page
    a plain Table is made of the header and the rows that fit, so nothing is measured twice and
    every page starts with the header (reportlab's own split re-measures the rows left on every
    page, and cutting a table into blocks repeats the header in mid-page)."""

    def __init__(
        self,
        head: list[Any],
        body: list[list[Any]],
        widths: list[float],
        style: Callable[[int, int, bool], TableStyle],
        *,
        first: int = 0,
        heights: list[float] | None = None,
        head_height: float | None = None,
    ) -> None:
        super().__init__()
        self.head, self.body, self.widths, self.style = head, body, widths, style
        self.first = first  # the index of body[0] in the whole table (for the stripes)
        self.head_height = head_height if head_height is not None else self._height(head)
        self.heights = heights if heights is not None else [self._height(r) for r in body]
        self.is_last = True  # the rest of the whole table, down to its last row

    def _height(self, row: list[Any]) -> float:
        tallest = float(CELL_LEADING)
        for cell, w in zip(row, self.widths, strict=True):
            if isinstance(cell, Paragraph):
                tallest = max(tallest, cell.wrap(w - PAD, PAGE_HEIGHT)[1])
        return tallest + V_PAD

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return sum(self.widths), self.head_height + sum(self.heights)

    def _table(self, start: int, end: int, last: bool) -> Table:
        data = [self.head, *self.body[start:end]]
        t = Table(
            data,
            colWidths=self.widths,
            rowHeights=[self.head_height, *self.heights[start:end]],
            hAlign="LEFT",
        )
        t.setStyle(self.style(len(data), self.first + start, last))
        return t

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        room = available_height - self.head_height
        fit, used = 0, 0.0
        for h in self.heights:
            if used + h > room:
                break
            used += h
            fit += 1
        if fit >= len(self.body):
            return [self._table(0, len(self.body), True)]
        # No last row (a total above all) alone at the top of a page: keep the table's last
        # rows together.
        fit = min(fit, len(self.body) - min(KEEP_TOGETHER, len(self.body)))
        if fit <= 0:
            return []  # not even one row: the whole table moves to the next page
        rest = PagedTable(
            self.head,
            self.body[fit:],
            self.widths,
            self.style,
            first=self.first + fit,
            heights=self.heights[fit:],
            head_height=self.head_height,
        )
        return [self._table(0, fit, False), rest]

    def draw(self) -> None:
        # Reached when the rest fits where it stands: draw it as one table.
        table = self._table(0, len(self.body), True)
        table.wrapOn(self.canv, sum(self.widths), PAGE_HEIGHT)
        table.drawOn(self.canv, 0, 0)


def paragraph(text: str, style: ParagraphStyle) -> Paragraph:
    return para(text, style)
