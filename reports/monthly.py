"""The monthly permit report (Glendale 15.1.74(b): "applications received, licenses and permits
granted and fees received and delivered to the City Treasurer"; 15.1.34(b)(8): the plumbing
inspector's monthly report of permit transactions), for every trade or one, as a PDF and an
Excel workbook. Pure renderers over desk.domain.reports.MonthlyReport.

A municipality with no permit kinds (the City of Hudson: its housing code, ch. 140, only) gets
the code-enforcement report alone (MonthlyReport.enforcement_only): the figures, the month's
condemnations, no permit or fee table and no Glendale citation.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from openpyxl.styles import Alignment

from desk.domain.licensing import CondemnationLine
from desk.domain.reports import (
    ACTIVITY_COLUMNS,
    Activity,
    CodeCitations,
    EnforcementSection,
    FigureLine,
    MonthlyReport,
    TradeActivity,
    cite,
    month_period,
    year_to_date,
)
from reports import xlsx
from reports.enforcement.notice import code_name
from reports.report_pdf import Col, Pdf, count, day, money

MONEY_FIELDS = ("valuation", "fees_received", "fees_delivered")


def _cell(a: Activity, name: str) -> str:
    value = getattr(a, name)
    return money(value) if name in MONEY_FIELDS else count(value)


def period_titles(rep: MonthlyReport) -> tuple[tuple[str, str], ...]:
    """The four periods compared, with the TradeActivity attribute of each."""
    return (
        (rep.period.label, "month"),
        (f"The same month last year: {month_period(rep.year - 1, rep.month).label}", "last_year"),
        (f"Year to date: {year_to_date(rep.year, rep.month).label}", "ytd"),
        (f"Year to date last year: {year_to_date(rep.year - 1, rep.month).label}", "ytd_last_year"),
    )


def summary_sentence(rep: MonthlyReport) -> str:
    t = rep.total.month
    return (
        f"In {rep.period.label}: {t.applications:,} application"
        f"{'s' if t.applications != 1 else ''} received, {t.granted:,} permit"
        f"{'s' if t.granted != 1 else ''} granted for work valued at {money(t.valuation)}, "
        f"{t.finaled:,} finaled; {money(t.fees_received)} in fees received and "
        f"{money(t.fees_delivered)} delivered to the Treasurer."
    ) + _licence_sentence(rep)


def _due_words(rep: MonthlyReport) -> str:
    """' — due by Thursday 12/10/2026 (15.1.74(b), …)'; '' where the ordinance sets no day."""
    if rep.due is None:
        return ""
    return f" — due by {day(rep.due.due)} ({rep.due.section})"


def render_monthly_pdf(rep: MonthlyReport, out: Path) -> None:
    if rep.enforcement_only:
        _render_enforcement_monthly_pdf(rep, out)
        return
    pdf = Pdf(rep.heading, rep.title)
    head = rep.heading
    pdf.letterhead()
    pdf.text(rep.title, "title")
    pdf.text(f"{head.inspector_name}, {head.inspector_title}{_due_words(rep)}", "label")
    pdf.space(6)
    pdf.text(summary_sentence(rep))
    trades = rep.rows
    # One table per period keeps the columns wide enough for the money.
    titles = period_titles(rep)
    cols = [Col("Trade", 1.1)] + [
        Col(label, 0.95 if name in MONEY_FIELDS else 0.75, "RIGHT")
        for name, label in ACTIVITY_COLUMNS
    ]
    scale = 7.0 / sum(c.width for c in cols)
    cols = [Col(c.title, c.width * scale, c.align) for c in cols]
    for title, attr in titles:
        pdf.h1(title)
        rows = [
            [t.label, *(_cell(getattr(t, attr), n) for n, _ in ACTIVITY_COLUMNS)] for t in trades
        ]
        total = getattr(rep.total, attr)
        pdf.table(cols, rows, total=["Total", *(_cell(total, n) for n, _ in ACTIVITY_COLUMNS)])

    _money_pdf(pdf, rep)
    _licences_pdf(pdf, rep)  # 15.1.74(b): "licenses and permits granted"
    _enforcement_pdf(pdf, rep)  # Hudson 140-3
    pdf.h1(f"Permits granted in {rep.period.label}")
    pdf.table(
        [
            Col("Permit", 0.72),
            Col("Issued", 0.74),
            Col("Kind", 1.7, wrap=True),
            Col("Address", 1.55, wrap=True),
            Col("Owner", 1.29, wrap=True),
            Col("Valuation", 1.0, "RIGHT"),
        ],
        [
            [x.number, day(x.issued_on), x.kind_label, x.address, x.owner, money(x.valuation)]
            for x in rep.permits_granted
        ],
        total=[
            "Total",
            "",
            f"{len(rep.permits_granted):,} permits",
            "",
            "",
            money(sum((x.valuation for x in rep.permits_granted), Decimal(0))),
        ],
        empty=f"No permits were granted in {rep.period.label}.",
    )
    if rep.trade is None:
        pdf.h1("Delivered to the City Treasurer")
        pdf.table(
            [
                Col("Turnover", 0.9),
                Col("Delivered", 1.0),
                Col("Amount", 1.3, "RIGHT"),
                Col("Acknowledged", 1.0),
                Col("Deposit", 2.0),
            ],
            [
                [
                    f"#{t.id}",
                    day(t.delivered_on),
                    money(t.amount),
                    day(t.acknowledged_on),
                    t.deposit_ref,
                ]
                for t in rep.turnovers
            ],
            total=[
                "Total",
                "",
                money(sum((t.amount for t in rep.turnovers), Decimal(0))),
                "",
                "",
            ],
            empty=f"No turnovers were delivered in {rep.period.label}.",
        )
        pdf.note(TURNOVER_NOTE)
    pdf.build(out, subject=rep.period.label)


def export_monthly_xlsx(rep: MonthlyReport, out: Path) -> None:
    if rep.enforcement_only:
        _export_enforcement_monthly_xlsx(rep, out)
        return
    head = rep.heading
    wb = xlsx.new_workbook(
        rep.title,
        subject=rep.period.label,
        author=head.municipality_name,
        keywords="monthly report, permits",
        description=summary_sentence(rep),
    )
    ws = xlsx.first_sheet(wb, "Activity")
    row = xlsx.write_title(
        ws,
        rep.title,
        [
            head.municipality_name,
            f"{head.inspector_name}, {head.inspector_title}",
            f"Due by {day(rep.due.due)} ({rep.due.section})"
            if rep.due is not None
            else "The ordinance sets no day for this report",
        ],
    )
    money_cols = {k + 1 for k, (n, _) in enumerate(ACTIVITY_COLUMNS) if n in MONEY_FIELDS}
    count_cols = {k + 1 for k, (n, _) in enumerate(ACTIVITY_COLUMNS) if n not in MONEY_FIELDS}
    first = True
    for title, attr in period_titles(rep):
        ws.cell(row=row, column=1, value=title).font = xlsx.TOTAL_FONT
        table = xlsx.write_table(
            ws,
            ["Trade", *(label for _, label in ACTIVITY_COLUMNS)],
            [_row(t, attr) for t in rep.rows],
            money_cols=money_cols,
            start_row=row + 1,
            freeze=first,
        )
        xlsx.sum_columns(ws, table, count_cols)
        first = False
        row = table.next_row + 1

    row = _money_xlsx(ws, rep, row)
    _licences_xlsx(wb, ws, rep, row)  # 15.1.74(b): "licenses and permits granted"
    permits = xlsx.add_sheet(wb, "Permits granted")
    row = xlsx.write_title(
        permits, f"Permits granted — {rep.period.label}", [head.municipality_name]
    )
    table = xlsx.write_table(
        permits,
        ["Permit", "Issued", "Kind", "Class", "Address", "Owner", "Description", "Valuation"],
        [
            [
                x.number,
                x.issued_on,
                x.kind_label,
                x.permit_class.label,
                x.address,
                x.owner,
                x.description,
                x.valuation,
            ]
            for x in rep.permits_granted
        ],
        money_cols={7},
        date_cols={1},
        start_row=row,
    )
    xlsx.finish_sheet(permits, title_rows=set(range(1, table.header_row)))
    if rep.trade is None:
        turn = xlsx.add_sheet(wb, "Delivered to the Treasurer")
        row = xlsx.write_title(
            turn,
            f"Turnovers delivered to the Treasurer — {rep.period.label}",
            [head.municipality_name],
        )
        table = xlsx.write_table(
            turn,
            ["Turnover", "Delivered", "Amount", "Acknowledged", "Deposit"],
            [
                [t.id, t.delivered_on, t.amount, t.acknowledged_on, t.deposit_ref]
                for t in rep.turnovers
            ],
            money_cols={2},
            date_cols={1, 3},
            start_row=row,
        )
        xlsx.finish_sheet(turn, title_rows=set(range(1, table.header_row)))
    _enforcement_xlsx(wb, rep)  # Hudson 140-3: a sheet of its own, the last
    xlsx.finish_sheet(ws, title_rows=set(range(1, 5)))
    xlsx.save(wb, out)


# --- money that is not the city's fees (15.1.21(a)(1)a, 15.1.43) -------------------------------

MONEY_TITLE = "All money received this month, by whose it is"
TURNOVER_NOTE = (
    "A turnover carries all the money received: the city's fees, the state seals collected for "
    "the state and the street deposits held (see the money received by whose it is)."
)


def _money_pdf(pdf: Pdf, rep: MonthlyReport) -> None:
    pdf.h1(MONEY_TITLE)
    pdf.facts([(label, money(v)) for label, v, _ in rep.money.lines()], label_width=4.0)


def _money_xlsx(ws: Any, rep: MonthlyReport, row: int) -> int:
    ws.cell(row=row, column=1, value=MONEY_TITLE).font = xlsx.TOTAL_FONT
    lines = rep.money.lines()
    return xlsx.write_pairs(
        ws,
        [(label, v) for label, v, _ in lines],
        row + 1,
        money_rows=set(range(len(lines))),
        bold_rows={n for n, (_, _, bold) in enumerate(lines) if bold},
    )


def _row(t: TradeActivity, attr: str) -> list[object]:
    a: Activity = getattr(t, attr)
    return [t.label, *(getattr(a, n) for n, _ in ACTIVITY_COLUMNS)]


# --- City licences granted (15.1.74(b)) -----------------------------------------------------------

LICENCE_PERIODS = ("month", "last_year", "ytd", "ytd_last_year")


def _licence_sentence(rep: MonthlyReport) -> str:
    if not rep.licences:
        return ""
    n = sum(x.month for x in rep.licences)
    if n == 0:
        return " No City licence was granted."
    return f" {n:,} City licence{'s' if n != 1 else ''} granted."


def _licence_titles(rep: MonthlyReport) -> list[str]:
    return [
        rep.period.label,
        f"{month_period(rep.year - 1, rep.month).label}",
        f"Year to date {rep.year}",
        f"Year to date {rep.year - 1}",
    ]


def _licences_pdf(pdf: Pdf, rep: MonthlyReport) -> None:
    if not rep.licences:
        return
    pdf.h1("City licences granted")
    pdf.table(
        [Col("Trade", 1.6), *(Col(t, 1.35, "RIGHT") for t in _licence_titles(rep))],
        [[x.label, *(count(getattr(x, a)) for a in LICENCE_PERIODS)] for x in rep.licences],
        total=[
            "Total",
            *(count(sum(getattr(x, a) for x in rep.licences)) for a in LICENCE_PERIODS),
        ]
        if len(rep.licences) > 1
        else None,
    )
    pdf.space(4)
    pdf.table(
        [
            Col("Licence", 1.05),
            Col("Granted", 0.75),
            Col("Licensee", 2.0, wrap=True),
            Col("State licence", 2.4, wrap=True),
            Col("Until", 0.8),
        ],
        [
            [x.number, day(x.granted_on), x.licensee, x.credential, day(x.expires_on)]
            for x in rep.licences_granted
        ],
        empty=f"No City licences were granted in {rep.period.label}.",
    )


def _licences_xlsx(wb: Any, ws: Any, rep: MonthlyReport, row: int) -> None:
    """The licence figures under the activity tables, and a sheet of the month's licences."""
    if not rep.licences:
        return
    ws.cell(
        row=row, column=1, value=cite("City licences granted", rep.heading.cites.licences)
    ).font = xlsx.TOTAL_FONT
    table = xlsx.write_table(
        ws,
        ["Trade", *_licence_titles(rep)],
        [[x.label, *(getattr(x, a) for a in LICENCE_PERIODS)] for x in rep.licences],
        # One licensed trade needs no total; several add up under "All trades" (the activity
        # tables above keep "Total" for their own totals).
        total_row=len(rep.licences) > 1,
        start_row=row + 1,
        total_label="All trades",
        freeze=False,
    )
    xlsx.sum_columns(ws, table, {1, 2, 3, 4})
    sheet = xlsx.add_sheet(wb, "Licences granted")
    start = xlsx.write_title(
        sheet, f"City licences granted — {rep.period.label}", [rep.heading.municipality_name]
    )
    listing = xlsx.write_table(
        sheet,
        ["Licence", "Granted", "Licensee", "Trade", "State licence", "Until"],
        [
            [x.number, x.granted_on, x.licensee, x.trade.capitalize(), x.credential, x.expires_on]
            for x in rep.licences_granted
        ],
        date_cols={1, 5},
        total_row=False,
        start_row=start,
    )
    if not rep.licences_granted:
        sheet.cell(
            row=listing.header_row + 1,
            column=1,
            value=f"No City licences were granted in {rep.period.label}.",
        )
    xlsx.finish_sheet(sheet, title_rows=set(range(1, listing.header_row)))


# --- code enforcement (Hudson 140-3) ------------------------------------------------------------

ENFORCEMENT_TITLE = "Code enforcement (Hudson 140-3)"
ENFORCEMENT_NOTE = (
    "Each event is counted in the period of its own date: a complaint when received, a case when "
    "opened or closed, a notice when issued, a service when made, an order when it took effect, "
    "a petition when filed, a hearing when the Council decided, an escalation when decided. "
    "Complainants are not named."
)


def _figure_text(line: FigureLine) -> str:
    return money(line.value) if isinstance(line.value, Decimal) else count(line.value)


def enforcement_pdf(pdf: Pdf, section: EnforcementSection, titles: Sequence[str]) -> None:
    """The figures of each period side by side (the month and the year to date, or the year),
    then the hearings decided, if the section lists them."""
    periods = [section.figures, *([section.ytd] if section.ytd is not None else [])]
    columns = [f.lines() for f in periods]
    pdf.h1(section.title)
    pdf.table(
        [Col("", 3.9), *(Col(t, 1.5, "RIGHT") for t in titles)],
        [
            [("      " if line.level else "") + line.label, *(_figure_text(c[k]) for c in columns)]
            for k, line in enumerate(columns[0])
        ],
    )
    pdf.note(ENFORCEMENT_NOTE)


def hearings_title(section: EnforcementSection) -> str:
    return cite("Hearings before the Common Council", section.citations.hearings_list)


def enforcement_hearings_pdf(pdf: Pdf, section: EnforcementSection, period_words: str) -> None:
    pdf.h2(hearings_title(section))
    pdf.table(
        [
            Col("Hearing", 0.8),
            Col("Decided", 0.8),
            Col("Case", 1.0),
            Col("Address", 2.2, wrap=True),
            Col("Decision", 2.2, wrap=True),
        ],
        [
            [day(h.hearing_on), day(h.decided_on), h.case_number, h.address, h.decision_words]
            for h in section.hearings
        ],
        empty=f"The Common Council decided no hearing in {period_words}.",
    )


def enforcement_xlsx(
    wb: Any,
    section: EnforcementSection,
    titles: Sequence[str],
    title: str,
    lines: Sequence[str],
    *,
    first: bool = False,
) -> tuple[Any, int]:
    """A sheet "Code enforcement" (`first`: the workbook's first sheet): the figures of each
    period in a column; returns the sheet and the first free row (for the hearings)."""
    ws = (xlsx.first_sheet if first else xlsx.add_sheet)(wb, "Code enforcement")
    start = xlsx.write_title(ws, title, [*lines, ENFORCEMENT_NOTE])
    periods = [section.figures, *([section.ytd] if section.ytd is not None else [])]
    columns = [f.lines() for f in periods]
    money_rows = {k for k, line in enumerate(columns[0]) if line.is_money}
    table = xlsx.write_table(
        ws,
        ["Figure", *titles],
        [[line.label, *(c[k].value for c in columns)] for k, line in enumerate(columns[0])],
        total_row=False,
        start_row=start,
    )
    for k, line in enumerate(columns[0]):
        row = table.first_row + k
        if line.level:
            ws.cell(row=row, column=1).alignment = Alignment(indent=2)
        else:
            ws.cell(row=row, column=1).font = xlsx.TOTAL_FONT
        for c in range(len(columns)):
            cell = ws.cell(row=row, column=2 + c)
            cell.number_format = xlsx.MONEY_FORMAT if k in money_rows else xlsx.COUNT_FORMAT
    return ws, table.next_row + 1


def enforcement_hearings_xlsx(ws: Any, section: EnforcementSection, row: int) -> int:
    ws.cell(row=row, column=1, value=hearings_title(section)).font = xlsx.TOTAL_FONT
    table = xlsx.write_table(
        ws,
        ["Hearing", "Decided", "Case", "Address", "Decision"],
        [
            [h.hearing_on, h.decided_on, h.case_number, h.address, h.decision_words]
            for h in section.hearings
        ],
        date_cols={0, 1},
        total_row=False,
        start_row=row + 1,
        freeze=False,
    )
    return table.next_row


def _enforcement_titles(rep: MonthlyReport) -> list[str]:
    return [rep.period.label, f"Year to date {rep.year}"]


def _enforcement_pdf(pdf: Pdf, rep: MonthlyReport) -> None:
    if rep.enforcement is not None:
        enforcement_pdf(pdf, rep.enforcement, _enforcement_titles(rep))


def _enforcement_xlsx(wb: Any, rep: MonthlyReport) -> None:
    if rep.enforcement is None:
        return
    ws, _ = enforcement_xlsx(
        wb,
        rep.enforcement,
        _enforcement_titles(rep),
        f"{rep.enforcement.title} — {rep.period.label}",
        [rep.heading.municipality_name],
    )
    xlsx.finish_sheet(ws, title_rows=set(range(1, 5)))


# --- the code-enforcement report of a municipality with no permit kinds (Hudson ch. 140) ------

NO_REGISTER = "This database keeps no code-enforcement register yet (revision 0017)."


def enforcement_byline(rep: MonthlyReport | Any) -> str:
    """'Dale Kowalski, Building Inspector — housing code: City of Hudson, Ch. 140 Minimum
    Housing' (the report of a municipality that enforces its housing code only)."""
    head = rep.heading
    section: EnforcementSection | None = rep.enforcement
    key = section.citations.key if section is not None else ""
    code = f" — housing code: {code_name(key)}" if key else ""
    return f"{head.inspector_name}, {head.inspector_title}{code}"


def condemnations_title(c: CodeCitations) -> str:
    return cite("Dwellings condemned as unfit for human habitation", c.condemnation)


def condemnations_pdf(
    pdf: Pdf,
    c: CodeCitations,
    condemned: Sequence[CondemnationLine],
    period_words: str,
    end: Any,
) -> None:
    """The period's condemnations with their outcome on its last day (Hudson 140-11B grounds,
    140-11C vacate within the period ordered)."""
    pdf.h1(condemnations_title(c))
    pdf.table(
        [
            Col("Address", 2.3, wrap=True),
            Col("Condemned", 0.85),
            Col("Grounds", 1.05, wrap=True),
            Col("Vacate by", 0.85),
            Col(f"Outcome at {day(end)}", 1.95),
        ],
        [
            [
                x.where,
                day(x.condemned_on),
                c.grounds(x.grounds_text),
                day(x.vacate_by),
                x.outcome_words(end),
            ]
            for x in condemned
        ],
        empty=f"No dwelling was condemned in {period_words}.",
    )


def condemnations_xlsx(
    wb: Any,
    c: CodeCitations,
    condemned: Sequence[CondemnationLine],
    period_words: str,
    end: Any,
    lines: Sequence[str],
) -> None:
    """A sheet "Condemnations": the period's condemnations with their outcome on its last day."""
    ws = xlsx.add_sheet(wb, "Condemnations")
    start = xlsx.write_title(ws, f"{condemnations_title(c)} — {period_words}", lines)
    table = xlsx.write_table(
        ws,
        [
            "Address",
            "Unit",
            "Condemned",
            "Grounds",
            "Reasons",
            "Vacate by",
            f"Outcome at {day(end)}",
        ],
        [
            [
                x.address,
                x.dwelling_unit,
                x.condemned_on,
                c.grounds(x.grounds_text),
                x.reasons,
                x.vacate_by,
                x.outcome_words(end),
            ]
            for x in condemned
        ],
        date_cols={2, 5},
        total_row=False,
        start_row=start,
    )
    if not condemned:
        ws.cell(
            row=table.header_row + 1,
            column=1,
            value=f"No dwelling was condemned in {period_words}.",
        )
    xlsx.finish_sheet(ws, title_rows=set(range(1, table.header_row)))


def _render_enforcement_monthly_pdf(rep: MonthlyReport, out: Path) -> None:
    pdf = Pdf(rep.heading, rep.title)
    pdf.letterhead()
    pdf.text(rep.title, "title")
    pdf.text(enforcement_byline(rep), "label")
    pdf.space(6)
    section = rep.enforcement
    if section is None:
        pdf.text(NO_REGISTER)
    else:
        pdf.text(section.summary_sentence(rep.period.label))
        enforcement_pdf(pdf, section, _enforcement_titles(rep))
        condemnations_pdf(
            pdf, section.citations, section.condemned, rep.period.label, rep.period.end
        )
    pdf.build(out, subject=rep.period.label)


def _export_enforcement_monthly_xlsx(rep: MonthlyReport, out: Path) -> None:
    head = rep.heading
    section = rep.enforcement
    wb = xlsx.new_workbook(
        rep.title,
        subject=rep.period.label,
        author=head.municipality_name,
        keywords="monthly report, code enforcement",
        description=section.summary_sentence(rep.period.label) if section else NO_REGISTER,
    )
    lines = [head.municipality_name, enforcement_byline(rep)]
    if section is None:
        ws = xlsx.first_sheet(wb, "Code enforcement")
        xlsx.write_title(ws, rep.title, [*lines, NO_REGISTER])
        xlsx.save(wb, out)
        return
    ws, _ = enforcement_xlsx(wb, section, _enforcement_titles(rep), rep.title, lines, first=True)
    xlsx.finish_sheet(ws, title_rows=set(range(1, len(lines) + 3)))
    condemnations_xlsx(
        wb, section.citations, section.condemned, rep.period.label, rep.period.end, lines
    )
    xlsx.save(wb, out)
