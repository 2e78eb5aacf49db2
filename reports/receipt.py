"""The receipt (New Lisbon §435-7: the Clerk-Treasurer "shall issue a receipt therefor";
Glendale 15.1.34(b)(4)): letterhead, the receipt number, date and time, the payer, the permits
with their numbers and addresses, the split by GL account, the method (check number, bank),
the clerk. A reprint says COPY across the page; a voided receipt says VOID, a returned check
says so. One letter page.

A pure renderer over desk.domain.cashiering.ReceiptView; it queries nothing.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.dates import short_timestamp
from desk.domain.cashiering import PaymentMethod, ReceiptView
from desk.money import format_money
from reports.common import INK, MARGIN, MUTED, RULE, SHADE, header, para, styles
from reports.fonts import register_fonts

WATERMARK = colors.Color(0.75, 0.78, 0.82, alpha=0.45)
VOID_RED = colors.HexColor("#b3261e")


def local_time(at: datetime) -> str:
    """A stored UTC time on the workstation's clock: '03/02/2026 9:05 AM'."""
    return short_timestamp(at.astimezone())


def method_text(view: ReceiptView) -> str:
    """'Check no. 1042, Associated Bank (Badger State Builders LLC)'."""
    m = view.method
    if m is PaymentMethod.CHECK:
        drawn = f" ({view.check_drawer})" if view.check_drawer else ""
        bank = f", {view.check_bank}" if view.check_bank else ""
        return f"Check no. {view.check_number}{bank}{drawn}"
    if m is PaymentMethod.MONEY_ORDER:
        return f"Money order no. {view.check_number}"
    if m is PaymentMethod.CARD:
        return f"Card, reference {view.card_reference}"
    return m.label


def receipt_title(view: ReceiptView) -> str:
    return f"Receipt {view.receipt_number}" + (" — COPY" if view.copy else "")


def _facts(view: ReceiptView, st: dict[str, Any]) -> Table:
    payer = view.payer + (f"\n{view.payer_address}" if view.payer_address else "")
    rows = [
        ("Receipt no.", view.receipt_number),
        ("Date and time", local_time(view.received_at)),
        ("Received from", payer),
        ("Paid by", method_text(view)),
        ("Received by", f"{view.clerk or '—'} (drawer {view.drawer})"),
    ]
    table = Table(
        [
            [para(k, st["label"]), [para(line, st["base"]) for line in v.split("\n")]]
            for k, v in rows
        ],
        colWidths=[1.3 * inch, 5.6 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    return table


def _money_table(
    headers: list[str],
    rows: list[list[str]],
    widths: list[float],
    st: dict[str, Any],
    total: tuple[str, str] | None = None,
) -> Table:
    """A table whose last column is money, right-aligned, with an optional bold total row."""
    last = len(headers) - 1
    data: list[list[Any]] = [
        [para(h, st["head_right" if i == last else "head"]) for i, h in enumerate(headers)]
    ]
    for r in rows:
        data.append([para(v, st["money" if i == last else "cell"]) for i, v in enumerate(r)])
    if total is not None:
        data.append(
            [para(total[0], st["total"])]
            + [""] * (len(headers) - 2)
            + [para(total[1], st["total_money"])]
        )
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
        ("LINEBELOW", (0, 1), (-1, -2 if total else -1), 0.25, RULE),
    ]
    if total is not None:
        style += [
            ("SPAN", (0, -1), (-2, -1)),
            ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK),
            ("BACKGROUND", (0, -1), (-1, -1), SHADE),
        ]
    table.setStyle(TableStyle(style))
    return table


def _stamp(canvas: Any, font: str, text: str, color: Any, size: float) -> None:
    """A large diagonal word across the page (COPY, VOID)."""
    width, height = letter
    canvas.saveState()
    canvas.setFillColor(color)
    canvas.setFont(font, size)
    canvas.translate(width / 2, height / 2)
    canvas.rotate(35)
    canvas.drawCentredString(0, 0, text)
    canvas.restoreState()


def render_receipt(view: ReceiptView, out: Path) -> None:
    """Write the receipt to `out` as a one-page PDF (letter; DejaVu embedded)."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    width = letter[0] - 2 * MARGIN - 12  # the frame's own padding
    story: list[Flowable] = [*header(view.municipality, view.letterhead, st)]
    title = Table(
        [
            [
                para("Receipt", st["title"]),
                para(
                    f"No. {view.receipt_number}",
                    ParagraphStyle("number", st["title"], alignment=TA_RIGHT),
                ),
            ]
        ],
        colWidths=[width / 2, width / 2],
    )
    title.setStyle(
        TableStyle(
            [
                ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    story.append(title)
    if view.copy:
        story.append(para("COPY — a reprint of the original receipt", st["label"]))
    if view.status:
        story.append(Spacer(1, 4))
        story.append(para(view.status, ParagraphStyle("status", st["total"], textColor=VOID_RED)))
    story += [Spacer(1, 10), _facts(view, st), Spacer(1, 14)]

    story.append(para("Permits paid", st["head"]))
    story.append(Spacer(1, 3))
    story.append(
        _money_table(
            ["Permit", "Address", "Work", "Amount"],
            [[p.number, p.address, p.description, format_money(p.amount)] for p in view.permits],
            [1.25 * inch, 2.1 * inch, width - 4.45 * inch, 1.1 * inch],
            st,
        )
    )
    story.append(Spacer(1, 14))
    story.append(para("Booked to", st["head"]))
    story.append(Spacer(1, 3))
    accounts = [[a.number, a.name, format_money(a.amount)] for a in view.accounts]
    story.append(
        _money_table(
            ["Account", "Name", "Amount"],
            accounts,
            [1.25 * inch, width - 2.35 * inch, 1.1 * inch],
            st,
            total=("Amount received", format_money(view.amount)),
        )
    )
    notes = []
    if view.credited > 0:
        notes.append(
            f"{format_money(view.credited)} paid beyond the fees due is kept as a credit for "
            f"{view.payer} (account “credits held”), to be used for later fees or refunded."
        )
    if view.method is PaymentMethod.CREDIT:
        notes.append("Paid from the payer's credit on account: no money changed hands.")
    notes.append("Keep this receipt. A receipt can be voided only on the day it was issued.")
    story.append(Spacer(1, 12))
    story += [para(n, st["footnote"]) for n in notes]

    stamp = ""
    stamp_color: Any = WATERMARK
    if view.status.startswith("VOID"):
        stamp, stamp_color = "VOID", colors.Color(0.70, 0.15, 0.12, alpha=0.30)
    elif view.status:
        stamp, stamp_color = "RETURNED", colors.Color(0.70, 0.15, 0.12, alpha=0.30)
    elif view.copy:
        stamp = "COPY"

    def decorate(canvas: Any, document: Any) -> None:
        if stamp:
            _stamp(canvas, bold, stamp, stamp_color, 120 if stamp == "COPY" else 110)
        canvas.saveState()
        canvas.setFont(regular, 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawString(MARGIN, 0.5 * inch, f"{view.municipality} — {receipt_title(view)}")
        canvas.drawRightString(letter[0] - MARGIN, 0.5 * inch, "Permit Desk")
        canvas.restoreState()

    doc = SimpleDocTemplate(
        str(out),
        pagesize=letter,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"{receipt_title(view)} — {view.municipality}",
        author=view.clerk or view.municipality,
        subject=f"{view.payer}, {format_money(view.amount)}",
        creator="Permit Desk",
        initialFontName=regular,
    )
    doc.build(story, onFirstPage=decorate, onLaterPages=decorate)
