"""Two printouts of the licence and condemnation registers, one letter page each, portrait:

- the placard the Building Inspector posts on a dwelling condemned as unfit for human habitation
  (Hudson 140 B): the address, the date, the grounds, the day it is to be vacated (C), that it
  is not reoccupied without written approval (D), and the warning that no person removes or
  defaces it (E);
- the City electrical licence (Glendale 15.1.75): number, licensee, the state licence it rests
  on, the day granted and the last day.

Pure renderers over desk.domain.licensing.Placard and LicenceCertificate (db/licence_queries.py
fills them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.domain.licensing import LICENCE_SECTION, LicenceCertificate, Outcome, Placard
from reports.common import (
    INK,
    RED,
    TEXT_WIDTH,
    build_certificate,
    build_pdf,
    certificate_heading,
    certificate_styles,
    day,
    facts_table,
    para,
    signature,
    signature_image,
    styles,
)
from reports.fonts import register_fonts


def _who(name: str, title: str) -> list[str]:
    """The inspector's name and title (a profile without a name has the title in both)."""
    return [name] + ([title] if title and title != name else [])


# --- the placard ----------------------------------------------------------------------------------


def render_placard(p: Placard, out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)

    def style(name: str, size: float, *, font: str = regular, colour: Any = INK) -> ParagraphStyle:
        return ParagraphStyle(
            name,
            st["base"],
            fontName=font,
            fontSize=size,
            leading=size * 1.22,
            alignment=TA_CENTER,
            textColor=colour,
        )

    condemned = style("condemned", 60, font=bold, colour=RED)
    unfit = style("unfit", 25, font=bold, colour=RED)
    address = style("address", 21, font=bold)
    centred = style("centred", 12.5)
    warning = style("warning", 15, font=bold, colour=RED)
    body = ParagraphStyle("body", st["base"], fontSize=10, leading=13.5)
    grounds = [para(line, body) for line in p.grounds_lines]
    rows = [[para("Found to have the defects of Hudson 140 B:", st["head"])]] + [
        [g] for g in grounds
    ]
    box = Table(rows, colWidths=[TEXT_WIDTH - 0.6 * inch])
    box.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 1.2, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 10),
                ("RIGHTPADDING", (0, 0), (-1, -1), 10),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    lh = p.letterhead
    story: list[Flowable] = [
        Spacer(1, 0.15 * inch),
        para(lh.municipality_name, style("muni", 13, font=bold)),
        para("Building Inspection", centred),
        Spacer(1, 14),
        para("CONDEMNED", condemned),
        para("UNFIT FOR HUMAN HABITATION", unfit),
        Spacer(1, 16),
        para(p.where, address),
        Spacer(1, 6),
        para(
            f"Condemned on {day(p.condemned_on)}"
            + (f", placarded on {day(p.placarded_on)}" if p.placarded_on else "")
            + " by the Building Inspector",
            centred,
        ),
        Spacer(1, 12),
        box,
        Spacer(1, 12),
        para(
            f"This dwelling shall be vacated by {day(p.vacate_by)} as ordered by the Building "
            "Inspector (Hudson 140 C).",
            style("vacate", 13, font=bold),
        ),
        Spacer(1, 8),
        para(
            "It shall not again be used for human habitation until written approval is secured "
            "from, and this placard is removed by, the Building Inspector (Hudson 140 D).",
            centred,
        ),
        Spacer(1, 16),
        para("DO NOT REMOVE THIS PLACARD", warning),
        para(
            "No person shall deface or remove this placard except as Hudson 140 D provides "
            "(Hudson 140 E).",
            centred,
        ),
        Spacer(1, 22),
        *(para(line, centred) for line in _who(lh.inspector_name, lh.inspector_title)),
    ]

    def border(canvas: Any, _document: Any) -> None:
        canvas.setStrokeColor(RED)
        canvas.setLineWidth(5)
        canvas.rect(0.4 * inch, 0.4 * inch, letter[0] - 0.8 * inch, letter[1] - 0.8 * inch)

    closed = (
        ""
        if p.outcome is Outcome.OPEN
        else f" — a copy: the condemnation is {p.outcome.label.lower()}"
    )
    build_pdf(
        out,
        story,
        font=regular,
        title=f"Placard: unfit for human habitation — {p.where}",
        author=lh.municipality_name,
        footer=f"{lh.municipality_name} — condemnation #{p.condemnation_id}{closed}",
        page_label="",
        margins=(0.6 * inch, 0.75 * inch),
        footer_y=0.55 * inch,
        decorate=border,
    )


# --- the licence ----------------------------------------------------------------------------------


def render_licence_certificate(c: LicenceCertificate, out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    cs = certificate_styles(st, bold)
    name = ParagraphStyle(
        "name", st["base"], fontName=bold, fontSize=18, leading=23, alignment=TA_CENTER
    )
    warning = ParagraphStyle(
        "warning",
        st["base"],
        fontName=bold,
        fontSize=16,
        leading=20,
        alignment=TA_CENTER,
        textColor=RED,
    )
    body = ParagraphStyle("body", st["base"], fontSize=10.5, leading=14.5)
    lh = c.letterhead
    facts = [
        ("Licensee", c.licensee),
        ("Address", c.licensee_address or "—"),
        ("State licence", c.credential),
        ("Granted", day(c.granted_on)),
        ("Expires", f"{day(c.expires_on)} (the end of the year, or the state licence's expiry)"),
    ]
    table = facts_table(facts, st["label"], body, 1.3 * inch)
    signed = signature_image(lh.lines, lh.inspector_name)
    story: list[Flowable] = [
        *certificate_heading(
            st, cs, lh.municipality_name, lh.lines, f"City {c.trade_words}", c.number
        ),
    ]
    if c.revoked_on is not None:
        story += [Spacer(1, 6), para(f"REVOKED {day(c.revoked_on)} (15.1.78)", warning)]
    story += [
        Spacer(1, 16),
        para(lh.municipality_name + " licenses", cs["centred"]),
        Spacer(1, 4),
        para(c.licensee, name),
        Spacer(1, 12),
        para(
            f"to engage in the business of installing, altering and repairing electrical wiring, "
            f"fixtures and apparatus within the {lh.municipality_name}, being the holder of the "
            f"state licence named below ({LICENCE_SECTION}(a)). All work is subject to the "
            f"applicable local, state and federal codes ({LICENCE_SECTION}(c)). This licence may "
            "be revoked upon the Electrical Inspector's complaint after a hearing before the "
            "Common Council (15.1.78).",
            body,
        ),
        Spacer(1, 14),
        table,
        # The signature image replaces most of the space left to sign by hand.
        Spacer(1, 8 if signed else 44),
        *signature(st, lh.inspector_name, "Electrical Inspector", signed),
    ]
    build_certificate(
        out,
        story,
        font=regular,
        title=f"City {c.trade_words} {c.number} — {c.licensee}",
        author=lh.municipality_name,
        footer=f"{lh.municipality_name} — City licence {c.number}",
    )
