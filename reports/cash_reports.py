"""The treasurer's papers: the daily cash report, the turnover transmittal and the
treasurer's reconciliation, each as a PDF ("Page X of Y", money right-aligned, table headings
repeated on every page) and as an .xlsx (reports/xlsx.py: frozen header rows, totals as
formulas, landscape fitted to the width).

Glendale 15.1.34(b)(4): the office "turns all such collected fees to the City Treasurer";
15.1.74(b): the monthly report of "fees received and delivered to the City Treasurer".

Pure renderers over db.cash_queries.DailyCash and desk.domain.cashiering.Transmittal /
Reconciliation; they query nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import KeepTogether, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from db.audit_anchors import Anchor
from db.cash_queries import DailyCash, DrawerCash
from desk.domain.cashiering import (
    ACCOUNT_LINE_HEADINGS,
    DRAWER_METHODS,
    ZERO,
    AccountKind,
    AccountLine,
    Reconciliation,
    Transmittal,
    TurnoverState,
)
from desk.domain.reports import reconciliation_split
from desk.money import format_money as _format_money
from reports import xlsx
from reports.common import (
    INK,
    MARGIN,
    RULE,
    SHADE,
    build_pdf,
    day,
    header,
    para,
    styles,
)
from reports.fonts import register_fonts
from reports.receipt import local_time

# --- shared PDF pieces ----------------------------------------------------------------------


def format_money(amount: Decimal) -> str:
    """Money as the treasurer writes it: '$1,234.00', a negative '−$167.00'."""
    return f"−{_format_money(-amount)}" if amount < 0 else _format_money(amount)


def _money(amount: Decimal | None) -> str:
    return "" if amount is None else format_money(amount)


def _signed(amount: Decimal) -> str:
    """Over/short: '+$2.00' over, '−$5.00' short, '$0.00' even."""
    if amount > 0:
        return f"+{format_money(amount)}"
    if amount < 0:
        return f"−{format_money(-amount)}"
    return format_money(amount)


@dataclass(frozen=True)
class Col:
    title: str
    width: float  # inches
    money: bool = False


def pdf_table(
    cols: Sequence[Col],
    rows: Sequence[Sequence[str]],
    st: dict[str, Any],
    total: Sequence[str] | None = None,
    empty: str = "None.",
) -> Table:
    """Headings repeated on each page; money columns right-aligned; a shaded bold total row."""
    data: list[list[Any]] = [[para(c.title, st["head_right" if c.money else "head"]) for c in cols]]
    for r in rows:
        data.append(
            [para(v, st["money" if c.money else "cell"]) for c, v in zip(cols, r, strict=True)]
        )
    if not rows:
        data.append([para(empty, st["cell"])] + [""] * (len(cols) - 1))
    if total is not None:
        bold = {
            k: ParagraphStyle(f"table_{k}", st[k], fontSize=8.5, leading=10.5)
            for k in ("total", "total_money")
        }
        data.append(
            [
                para(v, bold["total_money" if c.money else "total"])
                for c, v in zip(cols, total, strict=True)
            ]
        )
    table = Table(data, colWidths=[c.width * inch for c in cols], repeatRows=1, hAlign="LEFT")
    style: list[tuple[Any, ...]] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3.5),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
        ("LINEBELOW", (0, 1), (-1, -2 if total is not None else -1), 0.25, RULE),
    ]
    if not rows:
        style.append(("SPAN", (0, 1), (-1, 1)))
    if total is not None:
        style += [
            ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK),
            ("BACKGROUND", (0, -1), (-1, -1), SHADE),
        ]
        # The label runs on over the empty cells after it ("3 receipts, 1 voided").
        span = next((i for i in range(1, len(cols)) if total[i]), len(cols)) - 1
        if span > 0:
            style.append(("SPAN", (0, -1), (span, -1)))
    table.setStyle(TableStyle(style))
    return table


def page_header(
    municipality: str, letterhead: Sequence[str], st: dict[str, Any], page: tuple[float, float]
) -> list[Flowable]:
    """reports.common.header as wide as this page (landscape too)."""
    return header(municipality, letterhead, st, page[0] - 2 * MARGIN - 12)


def _heading(text: str, st: dict[str, Any]) -> list[Flowable]:
    """A section heading that stays on the page of the table under it."""
    style = ParagraphStyle("heading", st["total"], keepWithNext=1, spaceBefore=12, spaceAfter=4)
    return [para(text, style)]


def _facts(pairs: Sequence[tuple[str, str]], st: dict[str, Any], label_width: float = 1.7) -> Table:
    table = Table(
        [[para(k, st["label"]), para(v, st["base"])] for k, v in pairs],
        colWidths=[label_width * inch, 5.2 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table


def _build(
    out: Path,
    story: list[Flowable],
    *,
    title: str,
    author: str,
    subject: str,
    footer: str,
    page: tuple[float, float],
) -> None:
    regular, _ = register_fonts()
    build_pdf(
        Path(out),
        story,
        font=regular,
        title=title,
        author=author,
        subject=subject,
        footer=footer,
        page_label="Page {page} of {pages} · Permit Desk",
        pagesize=page,
        margins=(0.6 * inch, 0.75 * inch),
        footer_y=0.45 * inch,
    )


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _weekday_day(d: date) -> str:
    """'Monday 03/02/2026': the office's short date, with the weekday a cash day is known by."""
    return f"{_WEEKDAYS[d.weekday()]} {day(d)}"


# --- the daily cash report -------------------------------------------------------------------

RECEIPT_COLS = (
    Col("Receipt", 0.85),
    Col("Time", 0.75),
    Col("Payer", 2.4),
    Col("Permits", 1.55),
    Col("Method", 0.95),
    Col("Check / reference", 1.2),
    Col("Status", 0.8),
    Col("Amount", 1.0, money=True),
)
METHOD_COLS = (
    Col("Method", 1.6),
    Col("Receipts", 1.2, money=True),
    Col("Voids", 1.2, money=True),
    Col("Expected", 1.2, money=True),
    Col("Counted", 1.2, money=True),
    Col("Over / short", 1.2, money=True),
)


def daily_cash_title(report: DailyCash) -> str:
    return f"Daily cash report — {_weekday_day(report.day)}"


def _reference(r: Any) -> str:
    if r.check_number:
        return r.check_number
    return r.card_reference


def _status(r: Any) -> str:
    return {"void": "VOID", "returned": "Returned"}.get(r.status, "")


def _drawer_state(d: DrawerCash) -> str:
    if not d.closed:
        return "open: not yet closed"
    when = f" {local_time(d.closed_at)}" if d.closed_at else ""
    by = f" by {d.closed_by}" if d.closed_by else ""
    turned = f"; in turnover #{d.turnover_id}" if d.turnover_id else ""
    return f"closed{when}{by}{turned}"


def method_rows(d: DrawerCash) -> list[tuple[str, Decimal, Decimal, Decimal, Decimal | None]]:
    """(method, receipts, voids, expected, counted) per drawer method."""
    return [
        (
            m.label,
            d.gross.get(m),
            d.voids.get(m),
            d.expected.get(m),
            d.counted.get(m) if d.counted is not None else None,
        )
        for m in DRAWER_METHODS
    ]


def _drawer_story(d: DrawerCash, st: dict[str, Any]) -> list[Flowable]:
    out = _heading(f"Drawer {d.drawer} — {_drawer_state(d)}", st)
    rows = [
        [
            r.receipt_number,
            local_time(r.received_at).split(" ", 1)[1],
            r.payer,
            ", ".join(r.permits),
            r.method.label,
            _reference(r),
            _status(r),
            format_money(r.amount),
        ]
        for r in d.receipts
    ]
    money = [r for r in d.receipts if r.is_money]
    n, v = len(d.receipts), d.void_count
    out.append(
        pdf_table(
            RECEIPT_COLS,
            rows,
            st,
            total=[
                f"{n} receipt{'s' if n != 1 else ''}" + (f", {v} voided" if v else ""),
                "",
                "",
                "",
                "",
                "",
                "",
                format_money(sum((r.amount for r in money), ZERO)),
            ],
            empty="No receipts.",
        )
    )
    out.append(Spacer(1, 8))
    method = [
        [
            label,
            _money(g),
            _money(vo),
            _money(e),
            _money(c),
            _signed(c - e) if c is not None else "",
        ]
        for label, g, vo, e, c in method_rows(d)
    ]
    counted = d.counted
    out.append(
        KeepTogether(
            [
                pdf_table(
                    METHOD_COLS,
                    method,
                    st,
                    total=[
                        "Total",
                        _money(d.gross.total),
                        _money(d.voids.total),
                        _money(d.expected.total),
                        _money(counted.total) if counted else "",
                        _signed(d.over_short) if d.over_short is not None else "",
                    ],
                )
            ]
        )
    )
    if d.closed and d.over_short:
        word = "over" if d.over_short > 0 else "short"
        out.append(Spacer(1, 4))
        out.append(
            para(
                f"The drawer was {format_money(abs(d.over_short))} {word}: {d.explanation}",
                st["base"],
            )
        )
    return out


def anchor_story(anchor: Anchor | None, st: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The audit trail's head when the printout was made (db/audit_anchors.py): the short form,
    and the full line in small monospace type, so a later check can compare the register with
    this paper."""
    if anchor is None:
        return []
    mono = ParagraphStyle("anchor", st["note"], fontName="Courier", fontSize=6.5, leading=8)
    return [
        Spacer(1, 12),
        para(
            f"{anchor.short()}. Kept with this paper, it lets an administrator check later that "
            "the register's audit trail was not rewritten (Administration → Check the register).",
            st["note"],
        ),
        para(anchor.line(), mono),
    ]


def render_daily_cash_pdf(report: DailyCash, out: Path, anchor: Anchor | None = None) -> None:
    """`anchor`: the audit trail's head read with or after the report (printed at its foot)."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    title = daily_cash_title(report)
    story: list[Flowable] = [
        *page_header(report.municipality, report.letterhead, st, landscape(letter)),
        para(title, st["title"]),
        para(
            "Receipts taken, voids, and the money each drawer must hold by method against what "
            "was counted at the close.",
            st["label"],
        ),
    ]
    for d in report.drawers:
        story += _drawer_story(d, st)
    if len(report.drawers) > 1:
        story += _heading("All drawers", st)
        e, c = report.expected, report.counted
        story.append(
            pdf_table(
                METHOD_COLS,
                [
                    [
                        m.label,
                        _money(report.gross.get(m)),
                        _money(report.voids.get(m)),
                        _money(e.get(m)),
                        _money(c.get(m)),
                        "",
                    ]
                    for m in DRAWER_METHODS
                ],
                st,
                total=[
                    "Total",
                    _money(report.gross.total),
                    _money(report.voids.total),
                    _money(e.total),
                    _money(c.total),
                    _signed(report.over_short),
                ],
            )
        )
    if report.returned or report.refunds:
        story += _heading("Recorded today, deducted at the next turnover", st)
        items = [
            ["Returned check", x.reference, x.name, x.detail, format_money(x.amount)]
            for x in report.returned
        ]
        items += [
            ["Refund", f"check {x.reference}", x.name, x.detail, format_money(x.amount)]
            for x in report.refunds
        ]
        story.append(
            pdf_table(
                (
                    Col("What", 1.2),
                    Col("Reference", 1.1),
                    Col("Name", 2.0),
                    Col("Detail", 3.8),
                    Col("Amount", 1.2, money=True),
                ),
                items,
                st,
            )
        )
    story += [
        Spacer(1, 18),
        para("Counted by ______________________    Checked by ______________________", st["base"]),
        *anchor_story(anchor, st),
    ]
    _build(
        out,
        story,
        title=title,
        author=report.municipality,
        subject=day(report.day),
        footer=f"{report.municipality} — {title}",
        page=landscape(letter),
    )


def _list_sheet(
    wb: Any,
    name: str,
    title: str,
    lines: Sequence[str],
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    money_cols: Collection[int],
    date_cols: Collection[int] = (),
    autofilter: bool = False,
    first: bool = False,
) -> None:
    """A sheet of the workbook with its title, `lines` under it (the municipality first, also
    the printed page header) and one table with its total row."""
    ws = xlsx.first_sheet(wb, name) if first else xlsx.add_sheet(wb, name)
    row = xlsx.write_title(ws, title, lines)
    xlsx.write_table(
        ws,
        headers,
        rows,
        money_cols=money_cols,
        date_cols=date_cols,
        start_row=row,
        autofilter=autofilter,
    )
    xlsx.finish_sheet(ws, title_rows=set(range(1, len(lines) + 2)), header_text=lines[0])


def export_daily_cash_xlsx(report: DailyCash, out: Path) -> None:
    title = daily_cash_title(report)
    wb = xlsx.new_workbook(
        title, subject=day(report.day), author=report.municipality, keywords="daily cash"
    )
    ws = xlsx.first_sheet(wb, "Drawers")
    row = xlsx.write_title(ws, title, [report.municipality])
    rows: list[list[Any]] = []
    for d in report.drawers:
        state = "closed" if d.closed else "open"
        for label, g, vo, e, c in method_rows(d):
            rows.append([d.drawer, state, label, g, vo, e, c, (c - e) if c is not None else None])
    table = xlsx.write_table(
        ws,
        ["Drawer", "State", "Method", "Receipts", "Voids", "Expected", "Counted", "Over / short"],
        rows,
        money_cols={3, 4, 5, 6, 7},
        start_row=row,
    )
    notes = table.next_row
    for d in report.drawers:
        if d.closed and d.explanation:
            ws.cell(row=notes, column=1, value=f"Drawer {d.drawer}: {d.explanation}")
            notes += 1
    xlsx.finish_sheet(ws, title_rows={1, 2}, header_text=report.municipality)

    _list_sheet(
        wb,
        "Receipts",
        title,
        [report.municipality],
        [
            "Drawer",
            "Receipt",
            "Received",
            "Payer",
            "Permits",
            "Method",
            "Check / reference",
            "Status",
            "Amount",
        ],
        [
            [
                d.drawer,
                r.receipt_number,
                r.received_at.astimezone().replace(tzinfo=None),
                r.payer,
                ", ".join(r.permits),
                r.method.label,
                _reference(r),
                _status(r),
                r.amount,
            ]
            for d in report.drawers
            for r in d.receipts
        ],
        money_cols={8},
        date_cols={2},
        autofilter=True,
    )
    if report.returned or report.refunds:
        _list_sheet(
            wb,
            "Deductions",
            "Returned checks and refunds recorded this day",
            [report.municipality],
            ["What", "Reference", "Name", "Detail", "Amount"],
            [["Returned check", x.reference, x.name, x.detail, x.amount] for x in report.returned]
            + [["Refund", x.reference, x.name, x.detail, x.amount] for x in report.refunds],
            money_cols={4},
        )
    xlsx.save(wb, out)


# --- the turnover transmittal ----------------------------------------------------------------


def transmittal_title(t: Transmittal) -> str:
    return f"Turnover #{t.turnover_id} to the City Treasurer — transmittal"


def turnover_state_text(s: TurnoverState, acknowledged_by: str = "") -> str:
    if s.acknowledged_on is None:
        return "Delivered; not yet acknowledged by the treasurer."
    by = f" by {acknowledged_by}" if acknowledged_by else ""
    text = f"Acknowledged {day(s.acknowledged_on)}{by}, bank deposit {s.deposit_ref}"
    if s.deposited is not None:
        text += f", {format_money(s.deposited)} deposited"
    if s.difference:
        text += f"; difference {_signed(s.difference)}" + (
            " (resolved)" if s.resolved else " — FLAGGED until resolved"
        )
    return text + "."


def render_transmittal_pdf(
    t: Transmittal, municipality: str, out: Path, anchor: Anchor | None = None
) -> None:
    """`anchor`: the audit trail's head read after the turnover (printed at the foot)."""
    regular, bold = register_fonts()
    st = styles(regular, bold)
    title = transmittal_title(t)
    width = letter[0] - 2 * MARGIN
    w = width / inch
    story: list[Flowable] = [
        *page_header(municipality, t.letterhead, st, letter),
        para(title, st["title"]),
        para(
            "Collected fees turned over to the City Treasurer (15.1.34(b)(4)): the closed days, "
            "the totals by method and by GL account, the checks, and the returned checks and "
            "refunds deducted.",
            st["label"],
        ),
        Spacer(1, 8),
        _facts(
            [
                ("Delivered", f"{day(t.delivered_on)} by {t.delivered_by or '—'}"),
                ("Book amount", format_money(t.amount)),
                ("Money delivered (counted)", format_money(t.cash_delivered)),
                ("State", turnover_state_text(t.state, t.acknowledged_by)),
            ],
            st,
        ),
    ]
    story += _heading("Closed days", st)
    story.append(
        pdf_table(
            (
                Col("Drawer", 0.9),
                Col("Day", 0.9),
                Col("Expected", 1.0, money=True),
                Col("Counted", 1.0, money=True),
                Col("Over / short", 0.95, money=True),
                Col("Explanation", w - 4.75),
            ),
            [
                [
                    c.drawer,
                    day(c.day),
                    format_money(c.expected.total),
                    format_money(c.counted.total),
                    _signed(c.over_short),
                    c.explanation,
                ]
                for c in t.closes
            ],
            st,
            total=[
                "Total",
                "",
                format_money(sum((c.expected.total for c in t.closes), ZERO)),
                format_money(sum((c.counted.total for c in t.closes), ZERO)),
                _signed(sum((c.over_short for c in t.closes), ZERO)),
                "",
            ],
        )
    )
    story += _heading("By method", st)
    story.append(
        pdf_table(
            (Col("Method", 2.0), Col("Amount", 1.3, money=True)),
            [[m.label, format_money(v)] for m, v in t.by_method.items()],
            st,
            total=["Total collected", format_money(t.by_method.total)],
        )
    )
    story += _heading("By GL account", st)
    story.append(
        pdf_table(
            (Col("Account", 1.1), Col("Name", w - 2.4), Col("Amount", 1.3, money=True)),
            [[n, name, format_money(v)] for n, name, v in t.by_account],
            st,
            total=["Total", "", format_money(sum((v for _, _, v in t.by_account), ZERO))],
        )
    )
    items = (
        Col("Day", 0.85),
        Col("Receipt", 0.9),
        Col("Payer", w - 4.95),
        Col("Check no.", 0.9),
        Col("Bank", 1.2),
        Col("Amount", 1.1, money=True),
    )

    def item_rows(xs: Sequence[Any]) -> list[list[str]]:
        return [
            [day(x.day), x.reference, x.name, x.number, x.bank, format_money(x.amount)] for x in xs
        ]

    story += _heading("Checks and money orders", st)
    story.append(
        pdf_table(
            items,
            item_rows(t.checks),
            st,
            total=[
                "Total",
                "",
                f"{len(t.checks)} item{'s' if len(t.checks) != 1 else ''}",
                "",
                "",
                format_money(sum((x.amount for x in t.checks), ZERO)),
            ],
        )
    )
    if t.returned:
        story += _heading("Returned checks deducted", st)
        story.append(
            pdf_table(
                items,
                item_rows(t.returned),
                st,
                total=[
                    "Total",
                    "",
                    "",
                    "",
                    "",
                    format_money(sum((x.amount for x in t.returned), ZERO)),
                ],
            )
        )
    if t.refunds:
        story += _heading("Refunds deducted", st)
        refund_cols = (
            Col("Day", 0.85),
            Col("Check no.", 0.9),
            Col("Paid to", w - 2.85),
            Col("Amount", 1.1, money=True),
        )
        story.append(
            pdf_table(
                refund_cols,
                [[day(x.day), x.number, x.name, format_money(x.amount)] for x in t.refunds],
                st,
                total=["Total", "", "", format_money(sum((x.amount for x in t.refunds), ZERO))],
            )
        )
    story += [
        Spacer(1, 22),
        para(
            "Delivered by ______________________    Received by ______________________    "
            "Date ____________",
            st["base"],
        ),
        *anchor_story(anchor, st),
    ]
    _build(
        out,
        story,
        title=f"{title} — {municipality}",
        author=t.delivered_by or municipality,
        subject=day(t.delivered_on),
        footer=f"{municipality} — {title}",
        page=letter,
    )


def export_transmittal_xlsx(t: Transmittal, municipality: str, out: Path) -> None:
    title = transmittal_title(t)
    wb = xlsx.new_workbook(
        title, subject=day(t.delivered_on), author=municipality, keywords="turnover transmittal"
    )
    _list_sheet(
        wb,
        "By account",
        title,
        [
            municipality,
            f"Delivered {day(t.delivered_on)} by {t.delivered_by}",
            turnover_state_text(t.state, t.acknowledged_by),
        ],
        ["Account", "Name", "Amount"],
        [[n, name, v] for n, name, v in t.by_account],
        money_cols={2},
        first=True,
    )
    _list_sheet(
        wb,
        "By method",
        title,
        [municipality],
        ["Method", "Amount"],
        [[m.label, v] for m, v in t.by_method.items()],
        money_cols={1},
    )
    _list_sheet(
        wb,
        "Checks",
        title,
        [municipality],
        ["Day", "Receipt", "Payer", "Check no.", "Bank", "Amount"],
        [[x.day, x.reference, x.name, x.number, x.bank, x.amount] for x in t.checks],
        money_cols={5},
        date_cols={0},
    )
    _list_sheet(
        wb,
        "Closed days",
        title,
        [municipality],
        ["Drawer", "Day", "Expected", "Counted", "Over / short", "Explanation"],
        [
            [c.drawer, c.day, c.expected.total, c.counted.total, c.over_short, c.explanation]
            for c in t.closes
        ],
        money_cols={2, 3, 4},
        date_cols={1},
    )
    if t.returned or t.refunds:
        _list_sheet(
            wb,
            "Deductions",
            title,
            [municipality],
            ["What", "Day", "Reference", "Name", "Check no.", "Amount"],
            [["Returned check", x.day, x.reference, x.name, x.number, x.amount] for x in t.returned]
            + [["Refund", x.day, x.reference, x.name, x.number, x.amount] for x in t.refunds],
            money_cols={5},
            date_cols={1},
        )
    xlsx.save(wb, out)


# --- the treasurer's reconciliation -----------------------------------------------------------


def reconciliation_title(r: Reconciliation) -> str:
    return f"Treasurer's reconciliation, {day(r.start)} – {day(r.end)}"


def identity_lines(r: Reconciliation) -> list[tuple[str, Decimal, bool]]:
    """The proof, line by line: (label, amount, is a total)."""
    return [
        ("Receipts", r.receipts, False),
        ("Less voids", -r.voids, False),
        ("Less returned checks (NSF)", -r.nsf, False),
        ("Less refunds", -r.refunds, False),
        ("Net collections", r.net, True),
        ("Turnovers acknowledged by the treasurer", r.acknowledged, False),
        ("Turnovers delivered, not yet acknowledged", r.pending, False),
        ("Undeposited (in the drawers, or closed and not turned over)", r.undeposited, False),
        ("Accounted for", r.accounted, True),
    ]


def split_lines(r: Reconciliation) -> list[tuple[str, Decimal, bool]]:
    """The net collections by whose money it is, from the GL accounts' kind and purpose: the
    city's fees (revenue accounts), money collected for others (the state seal,
    15.1.21(a)(1)a; other governments' fees), street deposits received, returned and retained
    (15.1.43), payers' credits. They add up to the net collections."""
    return reconciliation_split(r.accounts).lines()


def split_text(r: Reconciliation) -> str:
    total = reconciliation_split(r.accounts).total
    if total == r.net:
        return "The money by whose it is adds up to the net collections."
    return f"The money by whose it is differs from the net collections by {_signed(total - r.net)}."


def balance_text(r: Reconciliation) -> str:
    if r.balanced:
        return "Balanced: every dollar received is in a turnover or still undeposited."
    return f"OUT OF BALANCE by {format_money(abs(r.net - r.accounted))}."


def _turnover_status(s: TurnoverState) -> str:
    if s.acknowledged_on is None:
        return "pending"
    if s.flagged:
        return "difference flagged"
    return "acknowledged" + (" (difference resolved)" if s.difference else "")


def render_reconciliation_pdf(
    r: Reconciliation, municipality: str, letterhead: Sequence[str], out: Path
) -> None:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    title = reconciliation_title(r)
    story: list[Flowable] = [
        *page_header(municipality, letterhead, st, landscape(letter)),
        para(title, st["title"]),
        para(
            "Receipts − voids − returned checks − refunds = turnovers acknowledged + turnovers "
            "pending + undeposited; each GL account: opening + movements = closing. Turnovers "
            f"as they stood on {day(r.end)}.",
            st["label"],
        ),
    ]
    story += _heading("The proof", st)
    lines = identity_lines(r)
    table = Table(
        [
            [
                para(label, st["total" if bold else "cell"]),
                para(_signed_plain(v), st["total_money" if bold else "money"]),
            ]
            for label, v, bold in lines
        ],
        colWidths=[4.6 * inch, 1.4 * inch],
        hAlign="LEFT",
    )
    style: list[tuple[Any, ...]] = [
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
    ]
    for i, (_, _, is_total) in enumerate(lines):
        if is_total:
            style += [
                ("LINEABOVE", (0, i), (-1, i), 0.8, INK),
                ("BACKGROUND", (0, i), (-1, i), SHADE),
            ]
    table.setStyle(TableStyle(style))
    story.append(table)
    story += [Spacer(1, 4), para(balance_text(r), st["total"])]
    story += _heading("Net collections by whose money it is", st)
    split = split_lines(r)
    table = Table(
        [
            [
                para(label, st["total" if bold else "cell"]),
                para(_signed_plain(v), st["total_money" if bold else "money"]),
            ]
            for label, v, bold in split
        ],
        colWidths=[4.6 * inch, 1.4 * inch],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
                ("LINEABOVE", (0, len(split) - 1), (-1, len(split) - 1), 0.8, INK),
                ("BACKGROUND", (0, len(split) - 1), (-1, len(split) - 1), SHADE),
            ]
        )
    )
    story += [table, Spacer(1, 4), para(split_text(r), st["base"])]
    if r.over_short:
        story.append(
            para(
                f"Over/short recorded at the daily closes in the period: {_signed(r.over_short)}.",
                st["base"],
            )
        )
    story += _heading("Receipts by method (net of voids)", st)
    story.append(
        pdf_table(
            (Col("Method", 2.0), Col("Amount", 1.4, money=True)),
            [[m.label, format_money(v)] for m, v in r.receipts_by_method],
            st,
            total=["Total", format_money(sum((v for _, v in r.receipts_by_method), ZERO))],
        )
    )
    widths = (0.85, 1.75, 0.65, 0.95, 0.95, 0.8, 0.8, 0.8, 0.8, 1.05)
    cols = tuple(
        Col(title, width, money=n >= 3)  # the account, then its amounts
        for n, (title, width) in enumerate(zip(ACCOUNT_LINE_HEADINGS, widths, strict=True))
    )

    def acc_rows(kind: AccountKind | None) -> list[AccountLine]:
        return [a for a in r.accounts if kind is None or a.kind is kind]

    def cells(a: AccountLine) -> list[str]:
        return [a.number, a.name, a.kind.label, *(format_money(v) for v in a.amounts)]

    def total(rows: list[AccountLine], label: str) -> list[str]:
        amounts = range(len(ACCOUNT_LINE_HEADINGS) - 3)
        return [
            label,
            "",
            "",
            *(format_money(sum((a.amounts[i] for a in rows), ZERO)) for i in amounts),
        ]

    revenue = acc_rows(AccountKind.REVENUE)
    story += _heading("Revenue accounts", st)
    story.append(
        pdf_table(cols, [cells(a) for a in revenue], st, total=total(revenue, "Total revenue"))
    )
    held = acc_rows(AccountKind.LIABILITY)
    story += _heading(
        "Liabilities held (state seal payable, deposits, credits) with their movement", st
    )
    story.append(pdf_table(cols, [cells(a) for a in held], st, total=total(held, "Total held")))
    story.append(Spacer(1, 4))
    story.append(
        para(
            f"Payers' credits on account: {format_money(r.credits_opening)} at the start, "
            f"{_signed(r.credits_movement)} in the period, "
            f"{format_money(r.credits_closing)} at the end.",
            st["base"],
        )
    )
    story += _heading("Turnovers", st)
    story.append(
        pdf_table(
            (
                Col("#", 0.45),
                Col("Delivered", 0.8),
                Col("Acknowledged", 1.1),
                Col("Deposit ref.", 1.35),
                Col("Book amount", 1.05, money=True),
                Col("Money delivered", 1.1, money=True),
                Col("Deposited", 1.0, money=True),
                Col("Difference", 0.9, money=True),
                Col("State", 1.6),
            ),
            [
                [
                    str(t.id),
                    day(t.delivered_on),
                    day(t.acknowledged_on) if t.acknowledged_on else "",
                    t.deposit_ref,
                    format_money(t.amount),
                    format_money(t.cash_delivered),
                    _money(t.deposited),
                    _signed(t.difference) if t.difference is not None else "",
                    _turnover_status(t),
                ]
                for t in r.turnovers
            ],
            st,
            empty="No turnovers in the period.",
        )
    )
    _build(
        out,
        story,
        title=f"{title} — {municipality}",
        author=municipality,
        subject=f"{day(r.start)} – {day(r.end)}",
        footer=f"{municipality} — {title}",
        page=landscape(letter),
    )


def _signed_plain(v: Decimal) -> str:
    return f"−{format_money(-v)}" if v < 0 else format_money(v)


def export_reconciliation_xlsx(r: Reconciliation, municipality: str, out: Path) -> None:
    title = reconciliation_title(r)
    wb = xlsx.new_workbook(
        title,
        subject=f"{day(r.start)} – {day(r.end)}",
        author=municipality,
        keywords="reconciliation",
    )
    ws = xlsx.first_sheet(wb, "Proof")
    row = xlsx.write_title(ws, title, [municipality, f"Turnovers as they stood on {day(r.end)}"])
    # The identity with formulas: net = receipts − voids − NSF − refunds; accounted = the sum.
    first = row
    pairs: list[tuple[str, Any]] = [
        ("Receipts", r.receipts),
        ("Voids", r.voids),
        ("Returned checks (NSF)", r.nsf),
        ("Refunds", r.refunds),
        ("Net collections", f"=B{first}-B{first + 1}-B{first + 2}-B{first + 3}"),
        ("Turnovers acknowledged", r.acknowledged),
        ("Turnovers pending", r.pending),
        ("Undeposited", r.undeposited),
        ("Accounted for", f"=SUM(B{first + 5}:B{first + 7})"),
        ("Difference (net − accounted)", f"=B{first + 4}-B{first + 8}"),
        ("Over/short at the closes", r.over_short),
    ]
    row = xlsx.write_pairs(ws, pairs, first, money_rows=set(range(len(pairs))), bold_rows={4, 8, 9})
    ws.cell(row=row, column=1, value=balance_text(r))
    row += 2
    ws.cell(row=row, column=1, value="Net collections by whose money it is").font = xlsx.TOTAL_FONT
    split = split_lines(r)
    start = row + 1
    # The last line adds the others up (a formula), and is checked against the net collections.
    row = xlsx.write_pairs(
        ws,
        [
            *((label, v) for label, v, _ in split[:-1]),
            (split[-1][0], f"=SUM(B{start}:B{start + len(split) - 2})"),
            (
                "Difference (net collections − this total)",
                f"=B{first + 4}-B{start + len(split) - 1}",
            ),
        ],
        start,
        money_rows=set(range(len(split) + 1)),
        bold_rows={0, len(split) - 1},
    )
    ws.cell(row=row, column=1, value=split_text(r))
    xlsx.finish_sheet(ws, title_rows={1, 2, 3, row}, header_text=municipality)

    acs = xlsx.add_sheet(wb, "GL accounts")
    row = xlsx.write_title(acs, title, [municipality])
    table = xlsx.write_table(
        acs,
        list(ACCOUNT_LINE_HEADINGS),
        # Closing is a formula (below): the amounts but the last.
        [[a.number, a.name, a.kind.label, *a.amounts[:-1], None] for a in r.accounts],
        money_cols={3, 4, 5, 6, 7, 8, 9},
        start_row=row,
        autofilter=True,
    )
    # Closing = opening + the movements, as a formula on each row.
    for rr in range(table.first_row, table.last_row + 1):
        acs.cell(row=rr, column=10, value=f"=SUM(D{rr}:I{rr})")
    xlsx.finish_sheet(acs, title_rows={1, 2}, header_text=municipality)

    _list_sheet(
        wb,
        "By method",
        title,
        [municipality],
        ["Method", "Net receipts"],
        [[m.label, v] for m, v in r.receipts_by_method],
        money_cols={1},
    )
    _list_sheet(
        wb,
        "Turnovers",
        title,
        [municipality],
        [
            "#",
            "Delivered",
            "Acknowledged",
            "Deposit ref.",
            "Book amount",
            "Money delivered",
            "Deposited",
            "Difference",
            "State",
        ],
        [
            [
                t.id,
                t.delivered_on,
                t.acknowledged_on,
                t.deposit_ref,
                t.amount,
                t.cash_delivered,
                t.deposited,
                t.difference,
                _turnover_status(t),
            ]
            for t in r.turnovers
        ],
        money_cols={4, 5, 6, 7},
        date_cols={1, 2},
    )
    xlsx.save(wb, out)
