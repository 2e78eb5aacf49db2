"""The application summary: the application as filed, with its site, parties, work and the
assessed fee lines (letter, portrait). A pure renderer over ApplicationSummaryData."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import letter
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.dates import short_date
from desk.domain.documents import ApplicationSummaryData
from desk.money import format_money
from reports.common import INK, MARGIN, RULE, SHADE, build_pdf
from reports.common import header as _header
from reports.common import para as _p
from reports.common import styles as _styles
from reports.fonts import register_fonts

LEVEL_LABELS = {
    "basement_finished": "Basement, finished",
    "basement_unfinished": "Basement, unfinished (not counted)",
    "first": "First floor",
    "second": "Second floor",
    "third": "Third floor",
    "garage": "Garage",
}


def _day(d: date | None) -> str:
    return short_date(d) if d is not None else "—"


def _money(amount: Decimal) -> str:
    return format_money(amount)


def _facts(rows: list[tuple[str, str]], st: dict[str, Any], width: float) -> Table:
    table = Table(
        [[_p(label, st["label"]), _p(value or "—", st["base"])] for label, value in rows],
        colWidths=[1.45 * inch, width - 1.45 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st["base"].fontName),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def _section(title: str, st: dict[str, Any]) -> list[Flowable]:
    return [Spacer(1, 10), _p(title, st["total"]), Spacer(1, 4)]


def _grid(
    head: list[str], rows: list[list[str]], widths: list[float], st: dict[str, Any], money: int = -1
) -> Table:
    def cell(text: str, col: int, header: bool = False) -> Paragraph:
        if header:
            return _p(text, st["head_right"] if col == money else st["head"])
        return _p(text, st["money"] if col == money else st["cell"])

    data = [[cell(h, i, True) for i, h in enumerate(head)]]
    data += [[cell(v, i) for i, v in enumerate(r)] for r in rows]
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), st["cell"].fontName),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
            ]
        )
    )
    return table


def render_application_summary(data: ApplicationSummaryData, out: Path, printed_on: date) -> None:
    """Write the summary to `out` as a PDF (letter, DejaVu embedded)."""
    regular, bold = register_fonts()
    st = _styles(regular, bold)
    width = letter[0] - 2 * MARGIN
    name = f"Permit {data.number}" if data.number else f"Application #{data.permit_id}"

    story: list[Flowable] = []
    story += _header(data.municipality_name, data.letterhead, st)
    story.append(_p(f"Application summary — {name}", st["title"]))
    story.append(Spacer(1, 6))
    story.append(
        _facts(
            [
                ("Kind", f"{data.kind_label} ({data.kind_code})"),
                ("Status", data.status),
                ("Applied", _day(data.applied_on)),
                ("Issued", _day(data.issued_on) if data.issued_on else "not yet"),
            ],
            st,
            width,
        )
    )
    story += _section("Site", st)
    story.append(
        _facts(
            [
                ("Address", data.address),
                ("Parcel (PIN)", data.pin),
                ("Legal description", data.legal_description),
                ("Zoning district", data.zoning_district),
            ],
            st,
            width,
        )
    )
    story += _section("Parties", st)
    if data.parties:
        story.append(
            _grid(
                ["Role", "Name", "Mailing address", "Phone"],
                [[p.role, p.name, p.address, p.phone] for p in data.parties],
                [1.4 * inch, 1.9 * inch, width - 4.4 * inch, 1.1 * inch],
                st,
            )
        )
    else:
        story.append(_p("No parties recorded.", st["base"]))
    story += _section("Work", st)
    work = [
        ("Description", data.description),
        ("Valuation", _money(data.valuation) + "  (excluding HVAC, plumbing and electrical work)"),
        ("Floor area", f"{data.floor_area_sqft:,} sq ft (garage and finished levels)"),
    ]
    order = list(LEVEL_LABELS)
    levels = sorted(data.areas, key=lambda la: order.index(la[0]) if la[0] in order else 99)
    for level, area in levels:
        if area:
            work.append((f"  {LEVEL_LABELS.get(level, level)}", f"{area:,} sq ft"))
    if data.dwelling_units:
        work.append(("Dwelling units", str(data.dwelling_units)))
    story.append(_facts(work, st, width))
    story += _section("Fees assessed", st)
    if data.fee_lines:
        rows = [
            [
                f.code,
                f.description + (f" ({f.note})" if f.note else ""),
                f.section,
                _money(f.amount),
            ]
            for f in data.fee_lines
        ]
        table = _grid(
            ["Item", "Description", "Section", "Amount"],
            rows,
            [1.45 * inch, width - 3.55 * inch, 1.1 * inch, 1.0 * inch],
            st,
            money=3,
        )
        story.append(table)
        totals = [("Fees", data.fees_total)]
        if data.deposits_total:
            totals.append(("Deposits held (not fees)", data.deposits_total))
        total_table = Table(
            [[_p(label, st["total"]), _p(_money(v), st["total_money"])] for label, v in totals],
            colWidths=[width - 1.0 * inch, 1.0 * inch],
            hAlign="LEFT",
        )
        total_table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), regular),
                    ("BACKGROUND", (0, 0), (-1, -1), SHADE),
                    ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
                    ("LEFTPADDING", (0, 0), (-1, -1), 4),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ]
            )
        )
        story.append(total_table)
        if data.schedule_version:
            story.append(Spacer(1, 4))
            story.append(_p(f"Fee schedule: {data.schedule_version}", st["footnote"]))
    else:
        story.append(_p("No fees assessed yet.", st["base"]))
    build_pdf(
        Path(out),
        story,
        font=regular,
        title=f"{name} — application summary",
        author=data.municipality_name,
        footer=f"{data.municipality_name} — {name}, printed {_day(printed_on)}",
        page_label="Page {page} · Permit Desk",
    )
