"""The street deposits report (the refund queue as of a day, for the City Engineer's order and
for the Common Council, 15.1.43) and the expiring bonds and certificates report (the expiry
watch), each as .xlsx and .pdf. Pure renderers over desk.services.sureties' report data."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import CondPageBreak, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.domain.sureties import ZERO
from desk.money import format_money
from desk.services.sureties import DepositLine, DepositsReport, ExpiringReport, Letterhead
from reports import xlsx
from reports.common import INK, MARGIN, MUTED, RULE, SHADE, day, header, para, styles
from reports.fonts import register_fonts

DEPOSIT_COLUMNS = (
    "Permit",
    "Address",
    "Depositor",
    "Refund to",
    "Amount",
    "Received",
    "Completed",
    "Eligible",
    "Ordered",
    "Check",
    "Retained",
    "To refund",
    "Status",
)
# The PDF puts the depositor and the payee in one cell: 12 columns on 9.7 inches of landscape.
PDF_DEPOSIT_COLUMNS = (
    "Permit",
    "Address",
    "Depositor (refund to)",
    "Amount",
    "Received",
    "Completed",
    "Eligible",
    "Ordered",
    "Check",
    "Retained",
    "To refund",
    "Status",
)
_DEPOSIT_WIDTHS = (0.7, 1.1, 1.4, 0.72, 0.68, 0.68, 0.68, 0.68, 0.8, 0.66, 0.72, 0.9)
EXPIRING_COLUMNS = ("Ends", "Days", "What", "Reference", "Holder", "Issuer", "Permits relying")
_EXPIRING_WIDTHS = (0.75, 0.45, 1.45, 1.0, 1.9, 1.6, 2.35)


def money(amount: Decimal) -> str:
    return format_money(amount)


def _d(value: date | None) -> str:
    return day(value) if value is not None else ""


def deposit_cells(x: DepositLine) -> list[str]:
    check = f"{x.check_number} of {_d(x.check_date)}" if x.check_number else ""
    who = x.depositor if x.payee == x.depositor else f"{x.depositor} (to {x.payee})"
    return [
        x.permit_label,
        x.address,
        who,
        money(x.amount),
        _d(x.received_on),
        _d(x.completed_on),
        _d(x.eligible_from),
        _d(x.ordered_on),
        check,
        money(x.retained) if x.retained else "",
        money(x.refund_amount),
        x.status_text,
    ]


def deposits_title(report: DepositsReport) -> str:
    return f"Street deposits as of {day(report.as_of)}"


def expiring_title(report: ExpiringReport) -> str:
    return f"Bonds and insurance expiring in the next {report.days} days"


# --- PDF ------------------------------------------------------------------------------------------


class _Doc:
    """A landscape letter document with the letterhead and a numbered footer."""

    def __init__(self, letterhead: Letterhead, title: str) -> None:
        self.regular, self.bold = register_fonts()
        self.st = styles(self.regular, self.bold)
        self.letterhead = letterhead
        self.title = title
        self.st["small"] = ParagraphStyle("small", self.st["cell"], fontSize=7.5, leading=9.2)
        self.st["small_right"] = ParagraphStyle("small_right", self.st["small"], alignment=TA_RIGHT)
        self.st["small_head"] = ParagraphStyle("small_head", self.st["head"], fontSize=7, leading=9)
        self.st["small_head_right"] = ParagraphStyle(
            "small_head_right", self.st["small_head"], alignment=TA_RIGHT
        )
        self.st["small_total"] = ParagraphStyle("small_total", self.st["small"], fontName=self.bold)
        self.st["small_total_right"] = ParagraphStyle(
            "small_total_right", self.st["small_total"], alignment=TA_RIGHT
        )
        self.story: list[Flowable] = [
            *header(letterhead.municipality, letterhead.lines, self.st),
            para(title, self.st["title"]),
        ]

    def text(self, text: str, style: str = "label") -> None:
        self.story.append(para(text, self.st[style]))

    def heading(self, text: str) -> None:
        self.story.append(CondPageBreak(1.2 * inch))
        self.story.append(Spacer(1, 10))
        self.story.append(para(text, self.st["total"]))
        self.story.append(Spacer(1, 3))

    def table(
        self,
        columns: Sequence[str],
        widths: Sequence[float],
        rows: Sequence[Sequence[str]],
        right: Sequence[int] = (),
        total: Sequence[str] | None = None,
        empty: str = "None.",
    ) -> None:
        if not rows:
            self.text(empty)
            return
        head = [
            para(c, self.st["small_head_right" if i in right else "small_head"])
            for i, c in enumerate(columns)
        ]
        data: list[list[Any]] = [head]
        for row in rows:
            data.append(
                [
                    para(v, self.st["small_right" if i in right else "small"])
                    for i, v in enumerate(row)
                ]
            )
        if total is not None:
            data.append(
                [
                    para(v, self.st["small_total_right" if i in right else "small_total"])
                    for i, v in enumerate(total)
                ]
            )
        t = Table(data, colWidths=[w * inch for w in widths], repeatRows=1, hAlign="LEFT")
        cmds: list[tuple[Any, ...]] = [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1 if total is None else -2), [None, SHADE]),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]
        if total is not None:
            cmds.append(("LINEABOVE", (0, -1), (-1, -1), 0.8, INK))
        t.setStyle(TableStyle(cmds))
        self.story.append(t)

    def build(self, out: Path) -> None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        page = landscape(letter)
        footer = f"{self.letterhead.municipality} — {self.title}"
        regular = self.regular

        def draw(canvas: Any, document: Any) -> None:
            canvas.saveState()
            canvas.setFont(regular, 7.5)
            canvas.setFillColor(MUTED)
            canvas.drawString(MARGIN, 0.45 * inch, footer)
            canvas.drawRightString(page[0] - MARGIN, 0.45 * inch, f"Page {document.page}")
            canvas.restoreState()

        doc = SimpleDocTemplate(
            str(out),
            pagesize=page,
            leftMargin=MARGIN * 0.8,
            rightMargin=MARGIN * 0.8,
            topMargin=0.6 * inch,
            bottomMargin=0.7 * inch,
            title=self.title,
            author=self.letterhead.municipality,
            creator="Permit Desk",
        )
        doc.build(self.story, onFirstPage=draw, onLaterPages=draw)


def render_deposits_pdf(report: DepositsReport, out: Path) -> None:
    pdf = _Doc(report.letterhead, deposits_title(report))
    pdf.text(
        f"{report.count} deposit{'s' * (report.count != 1)} on file. Street deposits held "
        f"(liability account) on {day(report.as_of)}: {money(report.held)}. A deposit is "
        "returned not less than 180 days after the proper completion of the work, upon the "
        "order of the City Engineer, by the City Clerk, unless the Common Council retains it "
        "to correct, complete or supplement the work (15.1.43)."
    )
    right = (3, 9, 10)
    for title, lines in report.sections:
        amount = sum((x.amount for x in lines), ZERO)
        pdf.heading(f"{title} — {len(lines)}, {money(amount)}")
        total = None
        if lines:
            total = ["Total", "", "", money(amount), "", "", "", "", ""]
            total += [money(sum((x.retained for x in lines), ZERO))]
            total += [money(sum((x.refund_amount for x in lines), ZERO)), ""]
        pdf.table(
            PDF_DEPOSIT_COLUMNS,
            _DEPOSIT_WIDTHS,
            [deposit_cells(x) for x in lines],
            right=right,
            total=total,
        )
        if title.startswith("Eligible now") and lines:
            pdf.story.append(Spacer(1, 10))
            pdf.text(
                "Order of the City Engineer (15.1.43): the deposits listed above are ordered "
                "returned to the payees shown.",
                "base",
            )
            pdf.story.append(Spacer(1, 16))
            pdf.text("City Engineer ______________________________     Date ______________", "base")
        if title.startswith("Retained") and lines:
            for x in lines:
                pdf.text(
                    f"{x.permit_label}: resolution {x.resolution} of {_d(x.resolved_on)} — "
                    f"{money(x.retained)}: {x.retention_reason}",
                    "note",
                )
    pdf.build(out)


def render_expiring_pdf(report: ExpiringReport, out: Path) -> None:
    pdf = _Doc(report.letterhead, expiring_title(report))
    n = len(report.rows)
    ended = sum(1 for r in report.rows if r.expired)
    pdf.text(
        f"As of {day(report.on)}: {n} bond{'s' * (n != 1)} and certificate{'s' * (n != 1)} "
        f"end within {report.days} days"
        + (f"; {ended} already ended while a permit relies on it." if ended else ".")
    )
    pdf.story.append(Spacer(1, 6))
    pdf.table(
        EXPIRING_COLUMNS,
        _EXPIRING_WIDTHS,
        [_expiring_cells(r) for r in report.rows],
        right=(1,),
        empty="Nothing expires in this period.",
    )
    pdf.build(out)


def _expiring_cells(r: Any) -> list[str]:
    return [
        day(r.ends_on),
        str(r.days_left),
        r.what + (f" ({r.covers})" if r.covers else ""),
        r.reference,
        r.holder,
        r.issuer,
        ", ".join(r.permits),
    ]


# --- Excel ---------------------------------------------------------------------------------------


def export_deposits_xlsx(report: DepositsReport, out: Path) -> None:
    title = deposits_title(report)
    wb = xlsx.new_workbook(title, subject=day(report.as_of), author=report.letterhead.municipality)
    ws = xlsx.first_sheet(wb, "Refund queue")
    row = xlsx.write_title(
        ws,
        title,
        [
            report.letterhead.municipality,
            f"Street deposits held on {day(report.as_of)}: {money(report.held)} (15.1.43)",
        ],
    )
    title_rows = set(range(1, row))
    headers = (*DEPOSIT_COLUMNS[:9], "Check number", "Check date", *DEPOSIT_COLUMNS[10:])
    for section, lines in report.sections:
        ws.cell(row=row, column=1, value=section).font = xlsx.TOTAL_FONT
        title_rows.add(row)
        table = xlsx.write_table(
            ws,
            headers,
            [_deposit_values(x) for x in lines],
            money_cols={4, 11, 12},
            date_cols={5, 6, 7, 8, 10},
            start_row=row + 1,
            freeze=False,
        )
        row = table.next_row
    xlsx.finish_sheet(ws, title_rows=title_rows, header_text=report.letterhead.municipality)
    xlsx.save(wb, out)


def _deposit_values(x: DepositLine) -> list[Any]:
    return [
        x.permit_label,
        x.address,
        x.depositor,
        x.payee,
        x.amount,
        x.received_on,
        x.completed_on,
        x.eligible_from,
        x.ordered_on,
        x.check_number,
        x.check_date,
        x.retained,
        x.refund_amount,
        x.status_text,
    ]


def export_expiring_xlsx(report: ExpiringReport, out: Path) -> None:
    title = expiring_title(report)
    wb = xlsx.new_workbook(title, subject=day(report.on), author=report.letterhead.municipality)
    ws = xlsx.first_sheet(wb, "Expiring")
    row = xlsx.write_title(ws, title, [report.letterhead.municipality, f"As of {day(report.on)}"])
    xlsx.write_table(
        ws,
        (*EXPIRING_COLUMNS[:2], "What", "Covers", *EXPIRING_COLUMNS[3:], "Holder's address"),
        [
            [
                r.ends_on,
                r.days_left,
                r.what,
                r.covers,
                r.reference,
                r.holder,
                r.issuer,
                ", ".join(r.permits),
                r.holder_address.replace("\n", ", "),
            ]
            for r in report.rows
        ],
        date_cols={0},
        total_row=False,
        start_row=row,
        autofilter=True,
    )
    xlsx.finish_sheet(ws, title_rows=set(range(1, row)), header_text=report.letterhead.municipality)
    xlsx.save(wb, out)
