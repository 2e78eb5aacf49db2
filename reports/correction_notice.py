"""The written notice of a correction order (15.1.90(b)(1); electrical 15.1.76(c)): what the
inspection found, what must be corrected and by when, and what follows if it is not. A pure
renderer over desk.services.inspections.CorrectionNoticeData."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.services.inspections import CorrectionNoticeData
from reports.common import MARGIN, RULE, build_pdf, day, header, para, styles
from reports.fonts import register_fonts

TITLE = "Correction Order"


def consequence(section: str) -> str:
    """What the notice says follows an uncorrected violation (15.1.90(b)(2), (3))."""
    return (
        f"The violations listed must be corrected by the date above ({section}), unless an "
        "extension of time is granted in writing. If they are not, the Building Inspector may "
        "order the work stopped (15.1.90(b)(2)), and each day a violation continues after that "
        "date is a separate offense (15.1.90(b)(3)). Call the Inspection Department for a "
        "re-inspection when the work is corrected; a re-inspection fee applies."
    )


def render_correction_notice(n: CorrectionNoticeData, out: Path) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    body = ParagraphStyle("body", st["base"], fontSize=10, leading=14)
    due = ParagraphStyle("due", st["base"], fontName=bold, fontSize=13, leading=17)
    facts = [
        ("Date of notice", day(n.noticed_on)),
        ("Permit", n.permit_number),
        ("Premises", n.address),
        ("Work", f"{n.kind_label}: {n.description}"),
        ("Owner", ", ".join(x for x in (n.owner, n.owner_address) if x) or "—"),
        ("Contractor", n.contractor or "—"),
        (
            "Inspection",
            " on ".join(
                x for x in (n.type_label, day(n.inspected_on) if n.inspected_on else "") if x
            )
            or "—",
        ),
    ]
    table = Table(
        [[para(label, st["label"]), para(value, st["base"])] for label, value in facts],
        colWidths=[1.3 * inch, letter[0] - 2 * MARGIN - 1.3 * inch],
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
    items = [line.strip() for line in n.items.splitlines() if line.strip()]
    item_rows = [[para(f"{k}.", st["base"]), para(text, body)] for k, text in enumerate(items, 1)]
    item_table = Table(
        item_rows or [[para("", st["base"]), para("—", body)]],
        colWidths=[0.3 * inch, letter[0] - 2 * MARGIN - 0.3 * inch],
        hAlign="LEFT",
    )
    item_table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    story: list[Flowable] = [
        *header(n.municipality_name, n.letterhead, st),
        para(TITLE, st["title"]),
        para(f"Written notice under {n.section}", st["label"]),
        Spacer(1, 8),
        table,
        Spacer(1, 10),
        para("The inspection found the following not in compliance with the Code:", body),
        Spacer(1, 4),
        item_table,
        Spacer(1, 12),
        para(f"Correct by {day(n.due_on)}", due),
    ]
    if n.extension_reasons:
        story.append(
            para("Time extended " + "; ".join(n.extension_reasons.splitlines()), st["label"])
        )
    story += [
        Spacer(1, 8),
        para(consequence(n.section), body),
        Spacer(1, 30),
        para("_" * 40, st["base"]),
        para(n.inspector_name, st["base"]),
        para(n.inspector_title, st["label"]),
    ]

    build_pdf(
        out,
        story,
        font=regular,
        title=f"{TITLE} — {n.permit_number}",
        author=n.municipality_name,
        footer=f"{n.municipality_name} — correction order #{n.order_id}",
    )
