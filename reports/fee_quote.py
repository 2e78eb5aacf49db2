"""A fee quote as a one-page PDF (letter): letterhead, the schedule version, the lines, the total.

A pure renderer: it takes a desk.fees.engine.Quote and plain values, and queries nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.fees.engine import DOUBLE_FEE_CODE, Quote
from desk.money import format_money
from reports.common import INK, MARGIN, RULE, SHADE, build_pdf
from reports.common import day as _day
from reports.common import header as _header
from reports.common import para as _p
from reports.common import styles as _styles
from reports.fonts import register_fonts


@dataclass(frozen=True)
class _Readings:
    """How the schedule version reads on a quote (from the quote itself, not the municipality)."""

    admin_title: str = "Admin"
    footnotes: tuple[str, ...] = ()
    double_fee: str = ""


def _readings(quote: Quote) -> _Readings:
    percent = (quote.admin_rate * 100).normalize()
    notes = []
    if quote.round_up_to_dollar:
        notes.append("Fees are rounded up to the next whole dollar.")
    if quote.admin_rate:
        notes.append(
            f"An additional {percent:f} % administrative cost is added where the ordinance "
            "does not say otherwise."
        )
    double = next((line for line in quote.lines if line.code == DOUBLE_FEE_CODE), None)
    return _Readings(
        admin_title=f"{percent:f} % admin" if quote.admin_rate else "Admin",
        footnotes=(" ".join(notes),) if notes else (),
        double_fee=(
            "Work began before the permit was issued: the fees marked to double are charged "
            f"twice ({double.section})."
            if double is not None and double.section
            else ""
        ),
    )


def _money(amount: Decimal) -> str:
    return format_money(amount)


def _facts(
    quote: Quote, prepared_by: str, on: date, st: dict[str, ParagraphStyle]
) -> list[Flowable]:
    rows = [
        ("Date", _day(on)),
        ("Fee schedule", quote.schedule_version),
        ("In effect from", _day(quote.effective_from)),
        ("Prepared by", prepared_by or "—"),
    ]
    table = Table(
        [[_p(label, st["label"]), _p(value, st["base"])] for label, value in rows],
        colWidths=[1.15 * inch, 4.5 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st["base"].fontName),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return [table, Spacer(1, 14)]


def _code_markup(code: str, style: ParagraphStyle, width: float) -> str:
    """The code, broken only after its hyphens when it is wider than the column."""
    lines: list[str] = []
    current = ""
    for part in (p + "-" for p in code.split("-")):
        candidate = current + part
        if current and stringWidth(candidate.rstrip("-"), style.fontName, style.fontSize) > width:
            lines.append(current)
            current = part
        else:
            current = candidate
    lines.append(current)
    lines[-1] = lines[-1].removesuffix("-")
    return "<br/>".join(escape(line) for line in lines)


def _lines_table(quote: Quote, readings: _Readings, st: dict[str, ParagraphStyle]) -> Table:
    """Item (code over its section), Description (over a note), Base, admin, Amount."""
    width = letter[0] - 2 * MARGIN
    padding = 4
    money = [0.85 * inch, 0.95 * inch, 1.0 * inch]  # base, admin, amount: "$12,345.00" in bold
    item_w = 1.45 * inch
    widths = [item_w, width - item_w - sum(money), *money]
    data: list[list[Any]] = [
        [
            _p("Item", st["head"]),
            _p("Description", st["head"]),
            _p("Base", st["head_right"]),
            _p(readings.admin_title, st["head_right"]),
            _p("Amount", st["head_right"]),
        ]
    ]
    for line in quote.lines:
        item: list[Flowable] = [
            Paragraph(_code_markup(line.code, st["cell"], item_w - 2 * padding), st["cell"])
        ]
        if line.section:
            item.append(_p(line.section, st["note"]))
        description: list[Flowable] = [_p(line.description, st["cell"])]
        if line.note:
            description.append(_p(line.note, st["note"]))
        data.append(
            [
                item,
                description,
                _p(_money(line.base), st["money"]),
                _p(_money(line.admin) if line.admin else "", st["money"]),
                _p(_money(line.amount), st["money"]),
            ]
        )
    first_total = len(data)
    if quote.deposits_total:
        for label, amount in (
            ("Fees", quote.fees_total),
            ("Deposits held (not fees)", quote.deposits_total),
        ):
            data.append(["", _p(label, st["cell"]), "", "", _p(_money(amount), st["money"])])
    data.append(["", _p("Total", st["total"]), "", "", _p(_money(quote.total), st["total_money"])])
    table = Table(data, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st["cell"].fontName),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), padding),
                ("RIGHTPADDING", (0, 0), (-1, -1), padding),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
                ("LINEBELOW", (0, 1), (-1, first_total - 1), 0.25, RULE),
                ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK),
                ("BACKGROUND", (0, -1), (-1, -1), SHADE),
            ]
        )
    )
    return table


def _footnotes(quote: Quote, readings: _Readings, st: dict[str, ParagraphStyle]) -> list[Flowable]:
    notes = list(readings.footnotes)
    if readings.double_fee and any(line.code == DOUBLE_FEE_CODE for line in quote.lines):
        notes.append(readings.double_fee)
    if quote.deposits_total:
        notes.append("A deposit is held for the depositor and is not a fee.")
    notes.append("This is a quote, not a bill or a receipt.")
    out: list[Flowable] = [Spacer(1, 14)]
    out.extend(_p(n, st["footnote"]) for n in notes)
    return out


def render_quote_pdf(
    quote: Quote,
    municipality_name: str,
    letterhead: Sequence[str],
    out: Path,
    prepared_by: str,
    on: date,
) -> None:
    """Write the quote to `out` as a PDF (letter size, DejaVu embedded)."""
    regular, bold = register_fonts()
    st = _styles(regular, bold)
    readings = _readings(quote)

    story: list[Flowable] = []
    story += _header(municipality_name, letterhead, st)
    story.append(_p("Fee quote", st["title"]))
    story.append(Spacer(1, 6))
    story += _facts(quote, prepared_by, on, st)
    story.append(_lines_table(quote, readings, st))
    story += _footnotes(quote, readings, st)
    build_pdf(
        Path(out),
        story,
        font=regular,
        title=f"Fee quote — {municipality_name}",
        author=prepared_by,
        subject=f"{quote.schedule_version}, {_day(on)}",
        footer=f"{municipality_name} — fee quote of {_day(on)}",
        page_label="Page {page} · Permit Desk",
    )
