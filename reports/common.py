"""What every Permit Desk PDF shares: page margins, colours, the DejaVu styles, the letterhead."""

from __future__ import annotations

from datetime import date
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

MARGIN = 0.75 * inch
INK = colors.HexColor("#1b2430")
MUTED = colors.HexColor("#5d6873")
RULE = colors.HexColor("#c6ced8")
SHADE = colors.HexColor("#eef2f7")


def day(d: date) -> str:
    return f"{d.month:02d}/{d.day:02d}/{d.year:04d}"


def styles(regular: str, bold: str) -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("base", fontName=regular, fontSize=9, leading=11.5, textColor=INK)
    return {
        "base": base,
        "muni": ParagraphStyle("muni", base, fontName=bold, fontSize=13, leading=16),
        "letterhead": ParagraphStyle("letterhead", base, textColor=MUTED),
        "title": ParagraphStyle(
            "title", base, fontName=bold, fontSize=17, leading=21, spaceBefore=4
        ),
        "label": ParagraphStyle("label", base, textColor=MUTED),
        "head": ParagraphStyle("head", base, fontName=bold, fontSize=8.5, textColor=MUTED),
        "head_right": ParagraphStyle(
            "head_right", base, fontName=bold, fontSize=8.5, textColor=MUTED, alignment=TA_RIGHT
        ),
        "cell": ParagraphStyle("cell", base, fontSize=8.5, leading=10.5),
        "note": ParagraphStyle("note", base, fontSize=7.5, leading=9.5, textColor=MUTED),
        "money": ParagraphStyle("money", base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT),
        "total": ParagraphStyle("total", base, fontName=bold, fontSize=10, leading=12.5),
        "total_money": ParagraphStyle(
            "total_money", base, fontName=bold, fontSize=10, leading=12.5, alignment=TA_RIGHT
        ),
        "footnote": ParagraphStyle("footnote", base, fontSize=8, leading=10.5, textColor=MUTED),
    }


def para(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape(text), style)


def header(
    municipality_name: str, letterhead: list[str], st: dict[str, ParagraphStyle]
) -> list[Flowable]:
    lines = [line for line in letterhead if line.strip()] or [municipality_name]
    out: list[Flowable] = [para(lines[0], st["muni"])]
    out.extend(para(line, st["letterhead"]) for line in lines[1:])
    rule = Table([[""]], colWidths=[letter[0] - 2 * MARGIN], rowHeights=[6])
    rule.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 1, RULE),
                ("FONTNAME", (0, 0), (-1, -1), st["base"].fontName),
            ]
        )
    )
    out += [rule, Spacer(1, 12)]
    return out
