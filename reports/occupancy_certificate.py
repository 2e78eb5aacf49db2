"""The certificate of occupancy (15.1.13): number, premises, the use it is issued for, the
conditions and the inspector; a temporary certificate says until when (15.1.13(d)). One letter
page, portrait. A pure renderer over desk.services.inspections.CertificateData."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.services.inspections import CertificateData
from reports.common import (
    INK,
    RED,
    TEXT_WIDTH,
    build_certificate,
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


def certificate_title(c: CertificateData) -> str:
    return "Temporary Certificate of Occupancy" if c.temporary_until else "Certificate of Occupancy"


def statement(c: CertificateData) -> str:
    if c.temporary_until is not None:
        return (
            "The premises below were examined and found safe and sanitary. Occupancy is "
            "permitted before completion of the work, for the use stated, until the date "
            "above, by which the work must be complete (15.1.13(d))."
        )
    return (
        "The building below was inspected on completion and no violation of the Building Code "
        "was found. It may be occupied and used for the purpose stated below, and for no other "
        "without a new certificate (15.1.13(a)(1), (c))."
    )


def render_occupancy_certificate(c: CertificateData, out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    cs = certificate_styles(st, bold)
    warning = ParagraphStyle(
        "warning",
        st["base"],
        fontName=bold,
        fontSize=15,
        leading=19,
        alignment=TA_CENTER,
        textColor=RED,
    )
    use = ParagraphStyle("use", st["base"], fontName=bold, fontSize=13, leading=17)
    body = ParagraphStyle("body", st["base"], fontSize=10, leading=14)
    facts = [
        ("Premises", c.address),
        ("Parcel", c.pin or "—"),
        ("Permit", f"{c.permit_number} — {c.kind_label}: {c.description}"),
        ("Owner", c.owner or "—"),
    ]
    if c.occupant:
        facts.append(("Occupant", c.occupant))
    facts.append(("Issued", day(c.issued_on)))
    table = facts_table(facts, st["label"], body, 1.2 * inch)
    use_box = Table(
        [[para("Use and occupancy", st["head"])], [para(c.use_stated, use)]],
        colWidths=[TEXT_WIDTH],
    )
    use_box.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 1.2, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 10),
                ("TOPPADDING", (0, 0), (-1, -1), 6),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 8),
            ]
        )
    )
    signed = signature_image(c.letterhead, c.inspector_name)
    story: list[Flowable] = [
        *certificate_heading(
            st, cs, c.municipality_name, c.letterhead, certificate_title(c), c.number
        ),
    ]
    if c.temporary_until is not None:
        story += [Spacer(1, 6), para(f"TEMPORARY — valid until {day(c.temporary_until)}", warning)]
    story += [
        Spacer(1, 14),
        para(statement(c), body),
        Spacer(1, 12),
        table,
        Spacer(1, 12),
        use_box,
        Spacer(1, 10),
        para("Conditions", st["head"]),
        para(c.conditions or "None.", body),
        # The signature image replaces most of the space left to sign by hand.
        Spacer(1, 8 if signed else 40),
        *signature(st, c.inspector_name, c.inspector_title, signed),
        Spacer(1, 20),
        para(
            "A change of use, or of the user of a non-residential building, needs a new "
            "certificate (15.1.13(c)). Keep this certificate on the premises.",
            cs["centred"],
        ),
    ]
    build_certificate(
        out,
        story,
        font=regular,
        title=f"{certificate_title(c)} {c.number} — {c.address}",
        author=c.municipality_name,
        footer=f"{c.municipality_name} — certificate of occupancy {c.number}",
    )
