"""A list printed as the screen shows it (Ctrl+P on the permits, parcels, people… lists): the
letterhead, the list's name, its filter in words, the day and the count, then every row that
matches (all of them, not only the rows scrolled to) in a table on US Letter whose header repeats
on each page. Long text wraps in its cell; nothing is cut short."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth

from desk.dates import short_date
from desk.domain.reports import Heading
from reports.report_pdf import CELL_SIZE, PAD, WIDTH, Col, Pdf

# A column of short values (a number, a date, money) keeps its width; text columns share the
# rest by how much they hold, none narrower than this.
MIN_TEXT_WIDTH = 0.7 * inch
HEAD_SIZE = 7.5


@dataclass(frozen=True)
class ListColumn:
    title: str
    align: str = "LEFT"  # RIGHT: money, counts


@dataclass(frozen=True)
class ListReport:
    title: str  # the list's name: "Permits"
    filter_words: str  # "Status: Issued; kind: Deck" or "All permits"
    printed_on: date
    noun: str  # one row: "permit"
    columns: Sequence[ListColumn]
    rows: Sequence[Sequence[str]]

    @property
    def count_words(self) -> str:
        n = len(self.rows)
        noun = self.noun if n == 1 else _plural(self.noun)
        return f"{n:,} {noun}"


def _plural(noun: str) -> str:
    if noun.endswith("y") and not noun.endswith(("ay", "ey", "oy")):
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def column_widths(report: ListReport, regular: str, bold: str) -> list[float]:
    """Widths in points that fill the page's 7 inches: each column as wide as its widest value
    when they all fit; otherwise the columns whose values are all short (within a fifth of the
    page) keep their width and the wider ones share the rest, wrapping."""
    need: list[float] = []
    for n, c in enumerate(report.columns):
        widest = max((stringWidth(r[n], regular, CELL_SIZE) for r in report.rows), default=0.0)
        head = max((stringWidth(w, bold, HEAD_SIZE) for w in c.title.split()), default=0.0)
        need.append(max(widest, head) + PAD + 1)
    total = sum(need)
    if total <= WIDTH:
        spare = WIDTH - total
        return [w + spare * w / total for w in need]
    short = [n for n, w in enumerate(need) if w <= WIDTH / 5]
    fixed = sum(need[n] for n in short)
    wide = [n for n in range(len(need)) if n not in short]
    room = max(WIDTH - fixed, MIN_TEXT_WIDTH * len(wide))
    # The wide columns share the room by the square root of what they hold: a long address
    # gets more than a short kind, but not all of it.
    weights = {n: need[n] ** 0.5 for n in wide}
    total_weight = sum(weights.values()) or 1.0
    widths = list(need)
    for n in wide:
        widths[n] = max(MIN_TEXT_WIDTH, room * weights[n] / total_weight)
    overflow = sum(widths) - WIDTH
    if overflow > 0 and short:  # the minimums ran over: the short columns give it back evenly
        for n in short:
            widths[n] -= overflow / len(short)
    return widths


def write_list_report(heading: Heading, report: ListReport, out: Path) -> None:
    pdf = Pdf(heading, report.title)
    pdf.letterhead()
    pdf.text(report.title, "title")
    pdf.space(2)
    pdf.text(f"Filter: {report.filter_words}")
    pdf.text(f"Printed {short_date(report.printed_on)} — {report.count_words}")
    pdf.space(6)
    widths = column_widths(report, pdf.regular, pdf.bold)
    cols = [
        Col(c.title, w / inch, c.align, wrap=c.align != "RIGHT")
        for c, w in zip(report.columns, widths, strict=True)
    ]
    pdf.table(cols, report.rows, empty=f"No {_plural(report.noun)} match this filter.")
    pdf.build(out, subject=f"{report.title}: {report.filter_words}")
