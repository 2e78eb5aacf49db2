"""Stop-work orders (15.1.12) and revocation notices (15.1.7(g)): page 1 the written notice
served on the owner, page 2 the placard posted at the site. A pure renderer."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.domain.readmodels import OrderNotice
from reports.common import MARGIN, build_pdf, day, header, para, styles
from reports.fonts import register_fonts

RED = colors.HexColor("#b3261e")

_TEXT = {
    "stop_work": {
        "title": "Stop-Work Order",
        "placard": "STOP WORK",
        "body": (
            "The provisions of the Building Code, or of the plans approved under it, are not "
            "complied with at the premises below. All work must stop at once. This order is "
            "served on the owner or the owner's representative and a copy is posted at the "
            "site. It shall not be removed except by written notice of the Building Inspector "
            "after satisfactory evidence has been supplied that the violation has been "
            "corrected (15.1.12)."
        ),
        "placard_body": "By order of the Building Inspector. This order may not be removed "
        "except by written notice of the Building Inspector (15.1.12).",
    },
    "lifted": {
        "title": "Notice Lifting Stop-Work Order",
        "body": (
            "Satisfactory evidence has been supplied that the violations stated in the stop-work "
            "order below have been corrected. By this written notice of the Building Inspector "
            "the order is removed and work may resume (15.1.12)."
        ),
    },
    "revocation": {
        "title": "Notice of Revocation of Permit",
        "placard": "PERMIT REVOKED",
        "body": (
            "The permit below is revoked for the reasons stated. From the service and posting "
            "of this notice it is unlawful for any person to proceed with any construction "
            "operation whatsoever on the premises; the permit is null and void, and before any "
            "construction or operation is resumed a new permit must be obtained and its fees "
            "paid (15.1.7(g)(4))."
        ),
        "placard_body": "This permit has been revoked by the Building Inspector. No work may "
        "proceed on these premises until a new permit is issued (15.1.7(g)).",
    },
}


def _facts(n: OrderNotice, st: dict[str, ParagraphStyle]) -> Table:
    rows = [
        ("Date", day(n.issued_on)),
        ("Permit", n.permit_number or f"Application #{n.permit_id}"),
        ("Premises", n.address),
        ("Work", f"{n.kind_label}: {n.description}"),
        ("Owner", ", ".join(x for x in (n.owner, n.owner_address) if x) or "—"),
        ("Contractor", n.contractor or "—"),
    ]
    table = Table(
        [[para(label, st["label"]), para(value, st["base"])] for label, value in rows],
        colWidths=[1.2 * inch, letter[0] - 2 * MARGIN - 1.2 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return table


def render_order_notice(n: OrderNotice, out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    lifted = n.kind == "stop_work" and n.lifted_on is not None
    text = _TEXT[n.kind]
    title = _TEXT["lifted"]["title"] if lifted else text["title"]
    body_text = _TEXT["lifted"]["body"] if lifted else text["body"]
    if not lifted and n.section and n.section not in body_text:
        # An order under 15.1.90(b)(2) or 15.2.10 names its own section too.
        body_text += f" This order is issued under {n.section}."
    big = ParagraphStyle(
        "big",
        st["base"],
        fontName=bold,
        fontSize=54,
        leading=62,
        alignment=TA_CENTER,
        textColor=RED,
    )
    centred = ParagraphStyle("centred", st["base"], fontSize=13, leading=17, alignment=TA_CENTER)
    body = ParagraphStyle("body", st["base"], fontSize=10, leading=14)
    # A municipality that has not entered the inspector's name has the title in both fields.
    who = [n.inspector_name] + (
        [n.inspector_title] if n.inspector_title != n.inspector_name else []
    )
    signature = [
        Spacer(1, 28),
        para("_" * 40, st["base"]),
        para(who[0], st["base"]),
        *(para(line, st["label"]) for line in who[1:]),
    ]
    story: list[Flowable] = [
        *header(n.municipality_name, n.letterhead, st),
        para(title, st["title"]),
        Spacer(1, 8),
        _facts(n, st),
        Spacer(1, 10),
        para(body_text, body),
        Spacer(1, 8),
        para("Reasons", st["head"]),
        para(n.reasons, body),
    ]
    if n.lifted_on is not None:
        story += [
            Spacer(1, 8),
            para(f"Lifted on {day(n.lifted_on)} by written notice", st["head"]),
            para(n.lift_notice, body),
        ]
    story += signature
    if not lifted:  # the placard is posted with the order; a lift notice takes it down
        story += [
            PageBreak(),
            Spacer(1, 1.2 * inch),
            para(text["placard"], big),
            Spacer(1, 24),
            para(
                n.address, ParagraphStyle("addr", centred, fontName=bold, fontSize=20, leading=26)
            ),
            Spacer(1, 8),
            para(
                f"Permit {n.permit_number or '#' + str(n.permit_id)} — {day(n.issued_on)}", centred
            ),
            Spacer(1, 24),
            para(text["placard_body"], centred),
            Spacer(1, 36),
            para(n.municipality_name, centred),
            para(", ".join(who), centred),
        ]

    build_pdf(
        out,
        story,
        font=regular,
        title=f"{title} — {n.permit_number or n.permit_id}",
        author=n.municipality_name,
        footer=f"{n.municipality_name} — {title.lower()} #{n.order_id}",
    )
