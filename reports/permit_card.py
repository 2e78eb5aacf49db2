"""The permit card (15.1.8(a)): the weatherproof card posted on the job site. One letter page,
landscape, big number and address, readable from the street.

A pure renderer: it takes desk.domain.documents.PermitCardData and queries nothing.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from desk.dates import short_date
from desk.domain.documents import Letterhead, PermitCardData
from reports.common import INK, MUTED, image_flowable, letterhead_lines
from reports.fonts import register_fonts

RULE = colors.HexColor("#1b2430")
BAND = colors.HexColor("#e8eef5")
POSTING = "This card must be posted on the job site and protected from the weather (15.1.8(a))."


def _day(d: date | None) -> str:
    return short_date(d) if d is not None else "—"


def _fit(text: str, font: str, size: float, width: float, smallest: float = 9) -> float:
    """The largest size up to `size` at which `text` fits `width`."""
    while size > smallest and stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def _wrap(text: str, font: str, size: float, width: float, lines: int) -> list[str]:
    words, out, current = text.split(), [], ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if stringWidth(candidate, font, size) <= width or not current:
            current = candidate
        else:
            out.append(current)
            current = word
    if current:
        out.append(current)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
        while stringWidth(out[-1] + "…", font, size) > width and " " in out[-1]:
            out[-1] = out[-1].rsplit(" ", 1)[0]
        out[-1] += "…"
    return out


def render_permit_card(card: PermitCardData, out: Path) -> None:
    """Write the card to `out` as a one-page PDF (letter, landscape; DejaVu embedded)."""
    regular, bold = register_fonts()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    width, height = landscape(letter)
    margin = 0.55 * inch
    inner = width - 2 * margin
    c: Any = Canvas(str(out), pagesize=(width, height), initialFontName=regular)
    c.setTitle(f"Permit card {card.number} — {card.municipality_name}")
    c.setAuthor(card.inspector_name or card.municipality_name)
    c.setCreator("Permit Desk")

    # Frame: a heavy border, as on the printed card stock.
    c.setStrokeColor(RULE)
    c.setLineWidth(3)
    c.rect(margin * 0.6, margin * 0.6, width - 1.2 * margin, height - 1.2 * margin)

    # Letterhead, the logo at its left (kept small: the band under it is the card's point).
    y = height - margin - 0.1 * inch
    lines = letterhead_lines(card.letterhead, card.municipality_name)
    x = margin
    logo = image_flowable(
        card.letterhead.logo if isinstance(card.letterhead, Letterhead) else None,
        0.48 * inch,
        1.5 * inch,
    )
    if logo is not None:
        logo.drawOn(c, margin, y - 19)
        x += logo.drawWidth + 10
    c.setFillColor(INK)
    c.setFont(bold, 15)
    c.drawString(x, y, lines[0])
    c.setFont(regular, 9.5)
    c.setFillColor(MUTED)
    c.drawString(x, y - 14, " · ".join(lines[1:]))
    c.setFont(bold, 15)
    c.setFillColor(INK)
    c.drawRightString(width - margin, y, "PERMIT")
    c.setFont(regular, 9.5)
    c.setFillColor(MUTED)
    c.drawRightString(width - margin, y - 14, "Post on the job site — 15.1.8(a)")

    # The number, big.
    y -= 1.05 * inch
    c.setFillColor(BAND)
    c.rect(margin, y - 0.25 * inch, inner, 1.0 * inch, stroke=0, fill=1)
    c.setFillColor(MUTED)
    c.setFont(regular, 10)
    c.drawString(margin + 10, y + 0.55 * inch, "PERMIT NUMBER")
    c.setFillColor(INK)
    c.setFont(bold, 50)
    c.drawString(margin + 10, y - 0.12 * inch, card.number)

    # Address.
    y -= 0.75 * inch
    c.setFillColor(MUTED)
    c.setFont(regular, 10)
    c.drawString(margin, y, "JOB ADDRESS")
    size = _fit(card.address or "—", bold, 28, inner)
    c.setFillColor(INK)
    c.setFont(bold, size)
    c.drawString(margin, y - size - 2, card.address or "—")
    if card.pin:
        c.setFont(regular, 10)
        c.setFillColor(MUTED)
        c.drawRightString(width - margin, y, f"Parcel {card.pin}")

    # Kind and work.
    y -= size + 0.45 * inch
    c.setFillColor(MUTED)
    c.setFont(regular, 10)
    c.drawString(margin, y, "WORK")
    c.setFillColor(INK)
    c.setFont(bold, 15)
    c.drawString(margin, y - 19, card.kind_label)
    c.setFont(regular, 13)
    for i, line in enumerate(_wrap(card.description, regular, 13, inner, 2)):
        c.drawString(margin, y - 38 - i * 16, line)

    # Owner, contractor; dates.
    y -= 1.15 * inch
    col = inner / 4
    facts = (
        ("OWNER", card.owner or "—"),
        ("CONTRACTOR", card.contractor or "Owner"),
        ("ISSUED", _day(card.issued_on)),
        ("EXPIRES", _day(card.expires_on) if card.expires_on else "see 15.1.8(b)"),
    )
    widths = (col * 1.45, col * 1.45, col * 0.55, col * 0.55)
    x = margin
    for (label, value), w in zip(facts, widths, strict=True):
        c.setFillColor(MUTED)
        c.setFont(regular, 10)
        c.drawString(x, y, label)
        c.setFillColor(INK)
        vsize = _fit(value, bold, 14, w - 10)
        c.setFont(bold, vsize)
        c.drawString(x, y - 18, value)
        x += w

    # The inspector's signature line, above the posting rule.
    y = margin + 1.25 * inch
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.line(margin, y, margin + 3.6 * inch, y)
    c.setFillColor(INK)
    c.setFont(bold, 12)
    c.drawString(margin, y - 16, card.inspector_name or "")
    c.setFont(regular, 10)
    c.setFillColor(MUTED)
    c.drawString(margin, y - 30, card.inspector_title or "Building Inspector")

    # The posting rule.
    c.setFillColor(INK)
    c.setFont(bold, 11)
    c.drawCentredString(width / 2, margin + 0.05 * inch, POSTING)
    c.showPage()
    c.save()
