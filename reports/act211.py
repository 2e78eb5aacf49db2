"""Wisconsin Act 211 filings (s. 101.63(7m) Wis. Stats., SPS 320.09): each month's permits for new
one- and two-family dwellings, due at the state by the 15th of the following month, with the
date each was filed, what is due and overdue, and the permits whose fees must be refunded
(except the state seal) for late filing. Pure renderers over desk.domain.reports.Act211Report;
the refund itself is cashiering's (desk.services.cashiering.refund, Act 211 ground).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from desk.domain.reports import Act211Line, Act211Report, FilingState
from reports import xlsx
from reports.report_pdf import Col, Pdf, day, money


def summary_sentence(rep: Act211Report) -> str:
    n = len(rep.lines)
    if n == 0:
        return f"No permits for new one- or two-family dwellings were issued in {rep.period.label}."
    filed = rep.count(FilingState.FILED, FilingState.FILED_LATE)
    parts = [
        f"{n} new dwelling permit{'s' if n != 1 else ''} issued in {rep.period.label}, "
        f"due at the state by {day(rep.due.due)}: {filed} filed"
    ]
    due = rep.count(FilingState.DUE)
    overdue = rep.count(FilingState.OVERDUE)
    if due:
        parts.append(f"{due} still due")
    if overdue:
        parts.append(f"{overdue} overdue")
    late = rep.count(FilingState.FILED_LATE)
    if late:
        parts.append(f"{late} filed late")
    return ", ".join(parts) + "."


def _cells(x: Act211Line) -> list[str]:
    return [
        x.number,
        day(x.issued_on),
        x.address,
        str(x.units),
        day(x.due_on),
        day(x.filed_on),
        x.state.label,
        x.flag,
        money(x.refund_due) if x.refund_required else "",
    ]


COLS = [
    Col("Permit", 0.7),
    Col("Issued", 0.75),
    Col("Address", 1.3),
    Col("Units", 0.4, "RIGHT"),
    Col("Due", 0.75),
    Col("Filed", 0.75),
    Col("Status", 0.7),
    Col("Refund", 0.95, wrap=True),
    Col("To refund", 0.7, "RIGHT"),
]


def render_act211_pdf(rep: Act211Report, out: Path) -> None:
    pdf = Pdf(rep.heading, rep.title)
    head = rep.heading
    pdf.letterhead()
    pdf.text(rep.title, "title")
    pdf.text(
        f"New one- and two-family dwelling permits are filed with the state by the 15th of the "
        f"following month ({rep.due.section}); a permit not filed in time has its fees refunded "
        "except the state seal. Status as of "
        f"{day(rep.today)}; prepared for {head.inspector_name}, {head.inspector_title}.",
        "label",
    )
    pdf.space(6)
    pdf.text(summary_sentence(rep))
    pdf.h1(f"Permits issued in {rep.period.label} — due {day(rep.due.due)}")
    pdf.table(
        COLS,
        [_cells(x) for x in rep.lines],
        empty=f"No new one- or two-family dwelling permits were issued in {rep.period.label}.",
    )
    pdf.h1("Earlier permits still not filed")
    pdf.table(COLS, [_cells(x) for x in rep.earlier], empty="None: every earlier permit is filed.")
    refunds = rep.refunds
    if refunds:
        pdf.h1("Refunds owed for late filing (cashiering, Act 211 ground)")
        pdf.table(
            [
                Col("Permit", 0.8),
                Col("Owner", 2.2),
                Col("Fees paid", 1.0, "RIGHT"),
                Col("State seal kept", 1.0, "RIGHT"),
                Col("Refunded", 1.0, "RIGHT"),
                Col("To refund", 1.0, "RIGHT"),
            ],
            [
                [
                    x.number,
                    x.owner,
                    money(x.fees_paid),
                    money(x.seal_paid),
                    money(x.refunded),
                    money(x.refund_due),
                ]
                for x in refunds
            ],
            total=[
                "Total",
                "",
                "",
                "",
                "",
                money(sum((x.refund_due for x in refunds), Decimal(0))),
            ],
        )
    pdf.build(out, subject=rep.period.label)


HEADERS = [
    "Permit",
    "Issued",
    "Address",
    "Owner",
    "Units",
    "Due",
    "Filed",
    "Reference",
    "Status",
    "Refund",
    "Fees paid",
    "State seal",
    "Refunded",
    "To refund",
]


def _values(x: Act211Line) -> list[object]:
    return [
        x.number,
        x.issued_on,
        x.address,
        x.owner,
        x.units,
        x.due_on,
        x.filed_on,
        x.reference,
        x.state.label,
        x.flag,
        x.fees_paid,
        x.seal_paid,
        x.refunded,
        x.refund_due,
    ]


def export_act211_xlsx(rep: Act211Report, out: Path) -> None:
    head = rep.heading
    wb = xlsx.new_workbook(
        rep.title,
        subject=rep.period.label,
        author=head.municipality_name,
        keywords="Act 211, SPS 320.09, state filing",
        description=summary_sentence(rep),
    )
    ws = xlsx.first_sheet(wb, "Filings")
    row = xlsx.write_title(
        ws,
        rep.title,
        [
            head.municipality_name,
            f"Due at the state by {day(rep.due.due)} ({rep.due.section})",
            f"Status as of {day(rep.today)}",
        ],
    )
    table = xlsx.write_table(
        ws,
        HEADERS,
        [_values(x) for x in rep.lines],
        money_cols={10, 11, 12, 13},
        date_cols={1, 5, 6},
        start_row=row,
    )
    xlsx.sum_columns(ws, table, {4})
    earlier = xlsx.add_sheet(wb, "Earlier, not filed")
    row = xlsx.write_title(earlier, "Earlier permits still not filed", [head.municipality_name])
    xlsx.write_table(
        earlier,
        HEADERS,
        [_values(x) for x in rep.earlier],
        money_cols={10, 11, 12, 13},
        date_cols={1, 5, 6},
        start_row=row,
    )
    for sheet in wb.worksheets:
        xlsx.finish_sheet(sheet, title_rows=set(range(1, 5)))
    xlsx.save(wb, out)
