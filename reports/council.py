"""The annual report to the Common Council (Glendale 15.1.6(c)) and the electrical inspector's
annual report (15.1.74(b)), as a PDF and an Excel workbook. Pure renderers over
desk.domain.reports.AnnualReport (db/report_queries.annual_report computes it).

PDF: a cover page with the letterhead and the inspector's name, a summary with the headline
figures, the previous year and a five-year trend, charts (permits and valuation by month, fees by
category), then the tables. Excel: a sheet per section, totals as formulas, the summary's
figures as references to those totals.

A municipality with no permit kinds (the City of Hudson: its housing code, ch. 140, only) gets
the code-enforcement report alone (AnnualReport.enforcement_only): a cover, the year's
figures, the hearings the Council decided and the dwellings condemned; no permit, fee or
licence table and no Glendale citation.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from openpyxl.styles import Alignment
from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, Spacer

from desk.domain.documents import Letterhead
from desk.domain.reports import (
    HEADLINE_FIELDS,
    NOT_RECORDED,
    AccountFees,
    AnnualReport,
    Headline,
    change_words,
    cite,
    no_data_words,
    trade_label,
)
from reports import xlsx
from reports.common import (
    SIGNATURE_HEIGHT,
    image_flowable,
    letterhead_lines,
    signature_image,
)
from reports.monthly import (
    NO_REGISTER,
    condemnations_pdf,
    condemnations_xlsx,
    enforcement_byline,
    enforcement_hearings_pdf,
    enforcement_hearings_xlsx,
    enforcement_pdf,
    enforcement_xlsx,
)
from reports.report_pdf import Col, Pdf, count, day, money

# The summary's Change column: a number in the workbook (the change as a fraction of the previous
# year's figure, shown as a signed percent), words in the PDF; where the previous year's figure is
# 0 there is no percent and both say "n/a".
NOT_APPLICABLE = "n/a"
CHANGE_FORMAT = "+0.0%;-0.0%;0.0%"
_CHANGE_SAMPLE = "+00,000.0%"  # sizes the column as Excel shows it, not the formula's text


def change_text(now: Decimal | int, before: Decimal | int) -> str:
    """The PDF's Change column: '+12.5 %', '−3.0 %', '±0.0 %', or 'n/a' when the previous year's
    figure is 0 (as the workbook's formula shows)."""
    return NOT_APPLICABLE if before == 0 else change_words(now, before)


def change_cell(rep: AnnualReport, name: str) -> str:
    """The PDF's Change cell for one headline figure: 'n/a (no data before MM/DD/YYYY)' when the
    previous year is partial in the register (it starts after that year's January 1), so a
    first half-year is not compared with a full one."""
    if rep.register_starts is not None and rep.partial(rep.previous.year):
        return no_data_words(rep.register_starts)
    return change_text(getattr(rep.headline, name), getattr(rep.previous, name))


def change_formula(current: str, previous: str) -> str:
    """The workbook's Change cell: (this year - last year) / last year, or "n/a"."""
    return f'=IF({previous}=0,"{NOT_APPLICABLE}",({current}-{previous})/{previous})'


def _figure(h: Headline, name: str) -> str:
    value = getattr(h, name)
    return money(value) if isinstance(value, Decimal) else count(value)


def trend_title(rep: AnnualReport) -> str:
    """The trend named by the years it holds: a register begun in 2024 has no five years yet."""
    years = [h.year for h in rep.full_trend] or [rep.year]
    first, last = min(years), max(years)
    return f"Trend, {first}" if first == last else f"Trend, {first}–{last}"


def summary_sentence(rep: AnnualReport) -> str:
    h, prev = rep.headline, rep.previous
    what = f"{trade_label(rep.trade).lower()} " if rep.trade else ""
    text = (
        f"In {rep.year} the office issued {h.permits_issued:,} {what}permit"
        f"{'s' if h.permits_issued != 1 else ''} for work valued at {money(h.valuation)}"
        f" ({prev.permits_issued:,} and {money(prev.valuation)} in {prev.year}"
        f"{_partial_words(rep)}), collected "
        f"{money(h.fees_collected)} in fees and made {h.inspections_made:,} inspection"
        f"{'s' if h.inspections_made != 1 else ''}."
    )
    if not rep.trade or rep.trade == "building":
        text += (
            f" {h.buildings_erected:,} new building{'s' if h.buildings_erected != 1 else ''} "
            f"with {h.new_dwelling_units:,} dwelling unit{'s' if h.new_dwelling_units != 1 else ''}"
            " were permitted."
        )
    if rep.voided:
        text += (
            f" {rep.voided:,} of the year's permits {'has' if rep.voided == 1 else 'have'} "
            "since been voided."
        )
    return text


def _partial_words(rep: AnnualReport) -> str:
    if rep.register_starts is None or not rep.partial(rep.previous.year):
        return ""
    return f", a partial year: the register starts {day(rep.register_starts)}"


def cover_lines(rep: AnnualReport) -> tuple[str, str]:
    head = rep.heading
    if rep.enforcement_only:
        chapter = (
            rep.enforcement.citations.chapter if rep.enforcement is not None else "housing code"
        )
        return (
            f"Code enforcement report — {rep.year}",
            f"Annual report to the Common Council of the {head.municipality_name} ({chapter})",
        )
    if rep.trade == "electrical":
        return (
            f"Annual report of the Electrical Inspector — {rep.year}",
            cite("filed with the City Clerk", head.cites.electrical_annual)
            + f" of the {head.municipality_name}",
        )
    if rep.trade:
        return (
            f"Annual {trade_label(rep.trade).lower()} report — {rep.year}",
            f"to the Common Council of the {head.municipality_name}",
        )
    return (
        f"Annual report of the Building Inspector — {rep.year}",
        cite(f"to the Common Council of the {head.municipality_name}", rep.heading.cites.council),
    )


# --------------------------------------------------------------------------- PDF


def _thousands(v: float) -> str:
    if v >= 1_000_000:
        return f"${v / 1_000_000:,.1f}M"
    if v >= 1000:
        return f"${v / 1000:,.0f}k"
    return f"${v:,.0f}"


def render_annual_pdf(
    rep: AnnualReport, out: Path, *, prepared_on: date | None = None, register: bool = True
) -> None:
    """The annual report as a PDF; `register` adds the appendix listing every permit issued."""
    pdf = Pdf(rep.heading, rep.title)
    _cover(pdf, rep, prepared_on)
    if rep.enforcement_only:
        _enforcement_report_pdf(pdf, rep)
    else:
        _summary_and_tables_pdf(pdf, rep, register)
    pdf.build(out, subject=f"{rep.heading.municipality_name} {rep.year}", cover=True)


def _cover(pdf: Pdf, rep: AnnualReport, prepared_on: date | None) -> None:
    head = rep.heading
    title, to_whom = cover_lines(rep)
    logo = image_flowable(
        head.letterhead.logo if isinstance(head.letterhead, Letterhead) else None,
        1.1 * inch,
        3.0 * inch,
    )
    if logo is not None:
        logo.hAlign = "LEFT"
        pdf.add(Spacer(1, 0.35 * inch), logo, Spacer(1, 0.15 * inch))
    else:
        pdf.add(Spacer(1, 1.2 * inch))
    lines = letterhead_lines(head.letterhead, head.municipality_name)
    pdf.text(lines[0], "big")
    for line in lines[1:]:
        pdf.text(line, "cover_line")
    pdf.add(Spacer(1, 1.3 * inch))
    pdf.text(title, "cover_title")
    pdf.text(to_whom, "cover_line")
    signed = image_flowable(
        signature_image(head.letterhead, head.inspector_name), SIGNATURE_HEIGHT, 2.6 * inch
    )
    if signed is not None:
        # The inspector signs the report submitted to the Council (signature_image).
        signed.hAlign = "LEFT"
        pdf.add(Spacer(1, 1.6 * inch - signed.drawHeight), signed)
    else:
        pdf.add(Spacer(1, 1.6 * inch))
    pdf.text(f"Submitted by {head.inspector_name}", "h2")
    pdf.text(head.inspector_title, "cover_line")
    if prepared_on is not None:
        pdf.text(f"Prepared {day(prepared_on)}", "cover_line")
    if rep.due is not None:
        pdf.text(f"Due by {day(rep.due.due)} ({rep.due.section})", "cover_line")
    pdf.add(PageBreak())


def _enforcement_report_pdf(pdf: Pdf, rep: AnnualReport) -> None:
    """After the cover: the year's code-enforcement figures, the hearings, the condemnations."""
    pdf.letterhead()
    pdf.text(rep.title, "title")
    pdf.text(enforcement_byline(rep), "label")
    pdf.space(4)
    section = rep.enforcement
    if section is None:
        pdf.text(NO_REGISTER)
        return
    pdf.text(section.summary_sentence(str(rep.year)))
    enforcement_pdf(pdf, section, [str(rep.year)])
    enforcement_hearings_pdf(pdf, section, str(rep.year))
    condemnations_pdf(
        pdf, section.citations, rep.licensing.condemnations, str(rep.year), rep.period.end
    )


def _summary_and_tables_pdf(pdf: Pdf, rep: AnnualReport, register: bool) -> None:
    # --- summary
    pdf.letterhead()
    pdf.text(rep.title, "title")
    pdf.space(4)
    pdf.text(summary_sentence(rep))
    pdf.h1("Headline figures")
    prev = rep.previous
    pdf.table(
        [
            Col("", 2.4),
            Col(str(rep.year), 1.6, "RIGHT"),
            Col(str(prev.year), 1.6, "RIGHT"),
            Col("Change", 1.2, "RIGHT"),
        ],
        [
            [
                label,
                _figure(rep.headline, name),
                _figure(prev, name),
                change_cell(rep, name),
            ]
            for name, label in _fields(rep)
        ],
    )
    pdf.h1(trend_title(rep))
    widths = {"valuation": 1.4, "fees_collected": 1.25}  # inches; the counts take 0.95
    cols = [Col("Year", 0.5)] + [
        Col(
            label.replace("Valuation of permitted work", "Valuation"),
            widths.get(name, 0.95),
            "RIGHT",
        )
        for name, label in _fields(rep)
    ]
    _fit_widths(cols, 7.0)
    pdf.table(
        cols,
        [[str(h.year), *(_figure(h, name) for name, _ in _fields(rep))] for h in rep.full_trend],
    )

    # --- charts
    pdf.h1("By month")
    months = [m.label for m in rep.by_month]
    pdf.side_by_side(
        pdf.bar_chart(
            f"Permits issued by month, {rep.year}",
            months,
            [m.permits for m in rep.by_month],
            lambda v: f"{v:,.0f}",
        ),
        pdf.bar_chart(
            f"Valuation of permitted work by month, {rep.year}",
            months,
            [float(m.valuation) for m in rep.by_month],
            _thousands,
        ),
    )
    pdf.space(6)
    if rep.fees_by_category:
        pdf.add(
            pdf.hbar_chart(
                f"Fees by category (GL account), {rep.year}",
                [c.label for c in rep.fees_by_category],
                [float(c.amount) for c in rep.fees_by_category],
                lambda v: f"${v:,.0f}",
            )
        )
    else:
        pdf.note(f"No fees were received in {rep.year}.")
    pdf.space(4)
    pdf.table(
        [
            Col("Month", 1.2),
            Col("Permits issued", 1.4, "RIGHT"),
            Col("Valuation", 2.0, "RIGHT"),
            Col("Fees collected", 2.0, "RIGHT"),
        ],
        [[m.label, count(m.permits), money(m.valuation), money(m.fees)] for m in rep.by_month],
        total=[
            "Total",
            count(sum(m.permits for m in rep.by_month)),
            money(sum((m.valuation for m in rep.by_month), Decimal(0))),
            money(sum((m.fees for m in rep.by_month), Decimal(0))),
        ],
    )

    # --- permits by class and kind
    pdf.h1("Permits issued by class and kind")
    pdf.table(
        [
            Col("Class", 1.0),
            Col("Kind", 3.0),
            Col("Trade", 1.0),
            Col("Permits", 0.8, "RIGHT"),
            Col("Valuation", 1.2, "RIGHT"),
        ],
        [
            [
                k.permit_class.label,
                k.kind_label,
                trade_label(k.trade),
                count(k.count),
                money(k.valuation),
            ]
            for k in rep.by_kind
        ],
        total=["Total", "", "", count(rep.headline.permits_issued), money(rep.headline.valuation)],
        empty=f"No permits were issued in {rep.year}.",
    )
    pdf.space(6)
    pdf.table(
        [Col("Class", 2.0), Col("Permits", 1.0, "RIGHT"), Col("Valuation", 1.6, "RIGHT")],
        [[c.permit_class.label, count(c.count), money(c.valuation)] for c in rep.by_class],
        total=["Total", count(rep.headline.permits_issued), money(rep.headline.valuation)],
    )

    # --- buildings erected
    if rep.trade in (None, "building"):
        pdf.h1(cite("Register of buildings erected", rep.heading.cites.council))
        pdf.note(
            "Number, description and size of the buildings permitted, the kind of materials and "
            "the cost of each, and the aggregate cost in each class. Voided permits are left out."
        )
        pdf.table(
            [
                Col("Permit", 0.7),
                Col("Issued", 0.73),
                Col("Class", 0.8),
                Col("Description", 1.22, wrap=True),
                Col("Address", 0.98, wrap=True),
                Col("Sq ft", 0.55, "RIGHT"),
                Col("Materials", 1.1, wrap=True),
                Col("Cost", 0.92, "RIGHT"),
            ],
            [
                [
                    b.number,
                    day(b.issued_on),
                    b.permit_class.label,
                    b.description,
                    b.address,
                    count(b.floor_area_sqft) if b.floor_area_sqft else "",
                    b.materials,
                    money(b.cost),
                ]
                for b in rep.buildings
            ],
            total=[
                "Total",
                "",
                "",
                f"{len(rep.buildings):,} buildings",
                "",
                "",
                "",
                money(sum((b.cost for b in rep.buildings), Decimal(0))),
            ],
            empty=f"No new buildings were permitted in {rep.year}.",
        )
        if rep.buildings:
            pdf.h2("Aggregate cost by class")
            pdf.table(
                [Col("Class", 2.0), Col("Buildings", 1.0, "RIGHT"), Col("Cost", 1.6, "RIGHT")],
                [
                    [c.permit_class.label, count(c.count), money(c.valuation)]
                    for c in rep.buildings_by_class
                ],
                total=[
                    "Total",
                    count(len(rep.buildings)),
                    money(sum((b.cost for b in rep.buildings), Decimal(0))),
                ],
            )

    # --- inspections
    pdf.h1("Inspections made, by type and result")
    results, table = rep.inspection_table()
    if table:
        w = min(0.9, 3.6 / max(len(results) + 1, 1))
        cols = [Col("Inspection", 7.0 - w * (len(results) + 1))] + [
            Col(x, w, "RIGHT") for x in (*results, "Total")
        ]
        rows = [[label, *(count(n) for n in ns), count(sum(ns))] for label, ns in table]
        totals = [sum(ns[k] for _, ns in table) for k in range(len(results))]
        pdf.table(
            cols,
            rows,
            total=["Total", *(count(n) for n in totals), count(sum(totals))],
        )
    else:
        pdf.note(f"No inspection results were recorded in {rep.year}.")

    # --- razings, removals, condemnations
    pdf.h1("Razings, removals and condemnations")
    pdf.table(
        [
            Col("Permit", 0.75),
            Col("Issued", 0.75),
            Col("Kind", 1.4, wrap=True),
            Col("Address", 1.6, wrap=True),
            Col("Description", 2.5, wrap=True),
        ],
        [[x.number, day(x.issued_on), x.kind_label, x.address, x.description] for x in rep.razings],
        empty=f"No razing or moving permits were issued in {rep.year}.",
    )
    _licensing_pdf(pdf, rep)  # condemnations (15.1.6(c)); City licences (15.1.74(b), 15.1.78)
    if rep.enforcement is not None:  # Hudson 140-3, with the hearings decided in the year
        enforcement_pdf(pdf, rep.enforcement, [str(rep.year)])
        enforcement_hearings_pdf(pdf, rep.enforcement, str(rep.year))

    # --- orders
    pdf.h1("Stop-work orders, revocations and voided permits")
    pdf.table(
        [
            Col("Date", 0.75),
            Col("Order", 1.05),
            Col("Permit", 0.72),
            Col("Address", 1.3, wrap=True),
            Col("Section", 0.75),
            Col("Reasons", 1.68, wrap=True),
            Col("Lifted", 0.75),
        ],
        [
            [
                day(o.issued_on),
                o.kind_label,
                o.number,
                o.address,
                o.section,
                o.reasons,
                day(o.lifted_on),
            ]
            for o in rep.orders
        ],
        empty=f"No stop-work orders, revocations or voids in {rep.year}.",
    )

    # --- fees: the city's revenue accounts; then the money collected for others and held
    # (15.1.21(a)(1)a state seal, 15.1.43 street deposits), which is not the city's fees.
    pdf.h1("Fees collected, by GL account")
    _accounts_pdf(pdf, fee_accounts(rep), "Total fees", f"No fees were received in {rep.year}.")
    held = other_accounts(rep)
    if held:
        pdf.h2("Collected for others and held (not the city's fees)")
        _accounts_pdf(pdf, held, "Total", "")
    pdf.facts(
        [(label, money(v)) for label, v, _ in rep.money.lines()],
        label_width=4.0,
        heading="All money received, by whose it is",
    )
    pdf.h2(cite("Fees by the date received", rep.heading.cites.council))
    pdf.table(
        [Col("Date", 1.2), Col("Receipts", 1.0, "RIGHT"), Col("Amount", 1.6, "RIGHT")],
        [[day(d.day), count(d.receipts), money(d.amount)] for d in rep.receipts_by_day],
        total=[
            "Total",
            count(sum(d.receipts for d in rep.receipts_by_day)),
            money(sum((d.amount for d in rep.receipts_by_day), Decimal(0))),
        ]
        if rep.receipts_by_day
        else None,
        empty=f"No fees were received in {rep.year}.",
    )

    # --- deposits and bonds
    if rep.trade is None:
        _sureties_pdf(pdf, rep)

    # --- register
    if register and rep.register:
        pdf.add(PageBreak())
        pdf.h1(f"Appendix: register of permits issued in {rep.year}")
        pdf.table(
            [
                Col("Permit", 0.72),
                Col("Issued", 0.74),
                Col("Kind", 1.6, wrap=True),
                Col("Address", 1.5, wrap=True),
                Col("Owner", 1.4, wrap=True),
                Col("Valuation", 1.04, "RIGHT"),
            ],
            [
                [
                    x.number,
                    day(x.issued_on),
                    x.kind_label,
                    x.address,
                    x.owner,
                    money(x.valuation),
                ]
                for x in rep.register
            ],
            total=[
                "Total",
                "",
                f"{len(rep.register):,} permits",
                "",
                "",
                money(sum((x.valuation for x in rep.register), Decimal(0))),
            ],
        )


def fee_accounts(rep: AnnualReport) -> list[AccountFees]:
    """The city's revenue accounts: the fees collected."""
    return [a for a in rep.fees_by_account if a.is_fee]


def other_accounts(rep: AnnualReport) -> list[AccountFees]:
    """Liability accounts: the state's seal, other governments' fees, deposits, credits."""
    return [a for a in rep.fees_by_account if not a.is_fee]


def _accounts_pdf(pdf: Pdf, accounts: list[AccountFees], label: str, empty: str) -> None:
    pdf.table(
        [
            Col("Account", 0.72),
            Col("Name", 1.25),
            Col("Receipts", 1.05, "RIGHT"),
            Col("Voids, returned checks", 1.0, "RIGHT"),
            Col("Refunds", 1.0, "RIGHT"),
            Col("Transfers", 0.9, "RIGHT"),
            Col("Net", 1.08, "RIGHT"),
        ],
        [
            [
                a.number,
                a.name,
                money(a.receipts),
                money(a.reversals),
                money(a.refunds),
                money(a.transfers),
                money(a.net),
            ]
            for a in accounts
        ],
        total=[
            label,
            "",
            money(sum((a.receipts for a in accounts), Decimal(0))),
            money(sum((a.reversals for a in accounts), Decimal(0))),
            money(sum((a.refunds for a in accounts), Decimal(0))),
            money(sum((a.transfers for a in accounts), Decimal(0))),
            money(sum((a.net for a in accounts), Decimal(0))),
        ]
        if accounts
        else None,
        empty=empty,
    )


def _sureties_pdf(pdf: Pdf, rep: AnnualReport) -> None:
    s = rep.sureties
    pdf.h1("Deposits held and refunded; bonds on file")
    pdf.facts(
        [
            (f"Deposits held on January 1, {rep.year}", money(s.deposits_opening)),
            ("Deposits received", money(s.deposits_received)),
            ("Deposits returned", money(s.deposits_returned)),
            ("Deposits retained by the Council (now city revenue)", money(s.deposits_retained)),
            (f"Deposits held on December 31, {rep.year}", money(s.deposits_closing)),
        ],
        label_width=4.0,
    )
    if not s.recorded:
        pdf.note(s.note)
        return
    pdf.h2(cite("Street deposits", rep.heading.cites.deposits))
    pdf.table(
        [
            Col("Permit", 0.72),
            Col("Depositor", 1.6),
            Col("Received", 0.75),
            Col("Amount", 0.9, "RIGHT"),
            Col("Returned on", 0.75),
            Col("Returned", 0.9, "RIGHT"),
            Col("Status", 1.38),
        ],
        [
            [
                d.permit_number,
                d.depositor,
                day(d.received_on),
                money(d.amount),
                day(d.returned_on),
                money(d.returned) if d.returned else "",
                d.status,
            ]
            for d in s.deposits
        ],
        empty=f"No street deposits were held in {rep.year}.",
    )
    pdf.h2("Bonds on file")
    pdf.table(
        [
            Col("Bond", 0.8),
            Col("Purpose", 1.45),
            Col("Principal", 1.45),
            Col("Amount", 0.9, "RIGHT"),
            Col("From", 0.75),
            Col("To", 0.75),
            Col("Status", 0.9),
        ],
        [
            [
                b.number,
                b.purpose,
                b.principal,
                money(b.amount),
                day(b.effective_on),
                day(b.expires_on),
                b.status,
            ]
            for b in s.bonds
        ],
        empty=f"No bonds were on file in {rep.year}.",
    )


def _fields(rep: AnnualReport) -> list[tuple[str, str]]:
    if rep.trade in (None, "building"):
        return list(HEADLINE_FIELDS)
    return [f for f in HEADLINE_FIELDS if f[0] not in ("buildings_erected", "new_dwelling_units")]


def _fit_widths(cols: list[Col], total: float) -> None:
    """Scale the columns to the text width (a narrower table for fewer figures)."""
    have = sum(c.width for c in cols)
    if have > total:
        factor = total / have
        cols[:] = [Col(c.title, c.width * factor, c.align, c.wrap) for c in cols]


# --------------------------------------------------------------------------- Excel


def export_annual_xlsx(rep: AnnualReport, out: Path, *, register: bool = True) -> None:
    if rep.enforcement_only:
        _export_enforcement_xlsx(rep, out)
        return
    head = rep.heading
    wb = xlsx.new_workbook(
        rep.title,
        subject=f"{head.municipality_name} {rep.year}",
        author=head.municipality_name,
        keywords="annual report, building permits",
        description=summary_sentence(rep),
    )
    lines = [head.municipality_name, f"{head.inspector_name}, {head.inspector_title}"]

    # Sheets with totals first; the summary refers to them.
    by_month = xlsx.add_sheet(wb, "By month")
    row = xlsx.write_title(by_month, f"Permits, valuation and fees by month — {rep.year}", lines)
    t_month = xlsx.write_table(
        by_month,
        ["Month", "Permits issued", "Valuation", "Fees collected"],
        [[m.label, m.permits, m.valuation, m.fees] for m in rep.by_month],
        money_cols={2, 3},
        start_row=row,
    )
    xlsx.sum_columns(by_month, t_month, {1})

    kinds = xlsx.add_sheet(wb, "By class and kind")
    row = xlsx.write_title(kinds, f"Permits issued by class and kind — {rep.year}", lines)
    t_kind = xlsx.write_table(
        kinds,
        ["Class", "Kind", "Trade", "Permits", "Valuation"],
        [
            [k.permit_class.label, k.kind_label, trade_label(k.trade), k.count, k.valuation]
            for k in rep.by_kind
        ],
        money_cols={4},
        start_row=row,
    )
    xlsx.sum_columns(kinds, t_kind, {3})
    row = t_kind.next_row + 1
    t_class = xlsx.write_table(
        kinds,
        ["Class", "Permits", "Valuation"],
        [[c.permit_class.label, c.count, c.valuation] for c in rep.by_class],
        money_cols={2},
        start_row=row,
        freeze=False,
    )
    xlsx.sum_columns(kinds, t_class, {1})

    if rep.trade in (None, "building"):
        b = xlsx.add_sheet(wb, "Buildings erected")
        row = xlsx.write_title(
            b,
            cite(f"Register of buildings erected — {rep.year}", rep.heading.cites.council),
            [*lines, "Number, description, size, kind of materials and cost of each building."],
        )
        t_b = xlsx.write_table(
            b,
            [
                "Permit",
                "Issued",
                "Class",
                "Kind",
                "Description",
                "Address",
                "Floor area (sq ft)",
                "Stories",
                "Materials",
                "Dwelling units",
                "Cost",
            ],
            [
                [
                    x.number,
                    x.issued_on,
                    x.permit_class.label,
                    x.kind_label,
                    x.description,
                    x.address,
                    x.floor_area_sqft,
                    x.stories,
                    x.materials,
                    x.dwelling_units,
                    x.cost,
                ]
                for x in rep.buildings
            ],
            money_cols={10},
            date_cols={1},
            start_row=row,
        )
        xlsx.sum_columns(b, t_b, {6, 9})
        row = t_b.next_row + 1
        b.cell(row=row, column=1, value="Aggregate cost by class").font = xlsx.TOTAL_FONT
        t_bc = xlsx.write_table(
            b,
            ["Class", "Buildings", "Cost"],
            [[c.permit_class.label, c.count, c.valuation] for c in rep.buildings_by_class],
            money_cols={2},
            start_row=row + 1,
            freeze=False,
        )
        xlsx.sum_columns(b, t_bc, {1})
        xlsx.finish_sheet(b, title_rows=set(range(1, t_b.header_row)))

    insp = xlsx.add_sheet(wb, "Inspections")
    row = xlsx.write_title(insp, f"Inspections made by type and result — {rep.year}", lines)
    results, table = rep.inspection_table()
    n = len(results)
    t_i = xlsx.write_table(
        insp,
        ["Inspection", *results, "Total"],
        [
            [label, *ns, f"=SUM(B{row + 1 + k}:{_col(n + 1)}{row + 1 + k})"]
            for k, (label, ns) in enumerate(table)
        ],
        start_row=row,
    )
    xlsx.sum_columns(insp, t_i, set(range(1, n + 2)))

    raz = xlsx.add_sheet(wb, "Razings and orders")
    row = xlsx.write_title(raz, f"Razing and moving permits — {rep.year}", lines)
    t_r = xlsx.write_table(
        raz,
        ["Permit", "Issued", "Kind", "Address", "Description", "Valuation"],
        [
            [x.number, x.issued_on, x.kind_label, x.address, x.description, x.valuation]
            for x in rep.razings
        ],
        money_cols={5},
        date_cols={1},
        start_row=row,
    )
    row = t_r.next_row + 1
    raz.cell(
        row=row, column=1, value="Stop-work orders, revocations and voids"
    ).font = xlsx.TOTAL_FONT
    xlsx.write_table(
        raz,
        ["Date", "Order", "Permit", "Address", "Section", "Reasons", "Lifted"],
        [
            [o.issued_on, o.kind_label, o.number, o.address, o.section, o.reasons, o.lifted_on]
            for o in rep.orders
        ],
        date_cols={0, 6},
        total_row=False,
        start_row=row + 1,
        freeze=False,
    )
    _licensing_xlsx(wb, rep, lines, raz, row + len(rep.orders) + 3)
    if rep.enforcement is not None:  # Hudson 140-3, with the hearings decided in the year
        enf, at = enforcement_xlsx(
            wb, rep.enforcement, [str(rep.year)], f"{rep.enforcement.title} — {rep.year}", lines
        )
        enforcement_hearings_xlsx(enf, rep.enforcement, at)
        xlsx.finish_sheet(enf, title_rows=set(range(1, len(lines) + 3)))

    fees = xlsx.add_sheet(wb, "Fees by account")
    row = xlsx.write_title(fees, f"Fees collected by GL account — {rep.year}", lines)
    t_fees = _accounts_xlsx(fees, fee_accounts(rep), row, "Total fees")
    row = (t_fees.total_row or t_fees.last_row) + 2
    held = other_accounts(rep)
    t_held = None
    if held:
        fees.cell(
            row=row, column=1, value="Collected for others and held (not the city's fees)"
        ).font = xlsx.TOTAL_FONT
        t_held = _accounts_xlsx(fees, held, row + 1, "Total")
        row = (t_held.total_row or t_held.last_row) + 2
    fees.cell(row=row, column=1, value="All money received, by whose it is").font = xlsx.TOTAL_FONT
    split = rep.money.lines()
    start = row + 1
    xlsx.write_pairs(
        fees,
        [
            (label, f"=G{t_fees.total_row}" if n == 0 else v)
            for n, (label, v, _) in enumerate(split[:-1])
        ]
        # The net money received adds the lines above (the city's fees from the table).
        + [(split[-1][0], f"=SUM(B{start}:B{start + len(split) - 2})")],
        start,
        money_rows=set(range(len(split))),
        bold_rows={n for n, (_, _, bold) in enumerate(split) if bold},
    )

    days = xlsx.add_sheet(wb, "Fees by date")
    row = xlsx.write_title(
        days, cite(f"Fees by the date received — {rep.year}", rep.heading.cites.council), lines
    )
    t_d = xlsx.write_table(
        days,
        ["Date", "Receipts", "Amount"],
        [[d.day, d.receipts, d.amount] for d in rep.receipts_by_day],
        money_cols={2},
        date_cols={0},
        start_row=row,
    )
    xlsx.sum_columns(days, t_d, {1})

    if rep.trade is None:
        _sureties_xlsx(wb, rep, lines)

    if register:
        reg = xlsx.add_sheet(wb, "Permit register")
        row = xlsx.write_title(reg, f"Register of permits issued — {rep.year}", lines)
        t_reg = xlsx.write_table(
            reg,
            [
                "Permit",
                "Issued",
                "Kind",
                "Class",
                "Status",
                "Address",
                "Owner",
                "Description",
                "Valuation",
            ],
            [
                [
                    x.number,
                    x.issued_on,
                    x.kind_label,
                    x.permit_class.label,
                    x.status.label,
                    x.address,
                    x.owner,
                    x.description,
                    x.valuation,
                ]
                for x in rep.register
            ],
            money_cols={8},
            date_cols={1},
            start_row=row,
            total_label="Total",
        )
        reg.cell(
            row=t_reg.total_row or row,
            column=2,
            value=f"=COUNTA(A{t_reg.first_row}:A{t_reg.last_row})" if rep.register else 0,
        )
        # Widths from the values themselves: walking 45,000 cells to measure them costs more.
        _widths_from(
            reg,
            [
                "Permit",
                "Issued",
                "Kind",
                "Class",
                "Status",
                "Address",
                "Owner",
                "Description",
                "Valuation",
            ],
            [
                (
                    x.number,
                    "00/00/0000",
                    x.kind_label,
                    x.permit_class.label,
                    x.status.label,
                    x.address,
                    x.owner,
                    x.description,
                    f"${x.valuation:,.2f}",
                )
                for x in rep.register
            ],
        )
        xlsx.setup_page(reg)

    # The summary, first in the workbook, refers to the section totals.
    ws = wb.active
    assert ws is not None
    ws.title = "Summary"
    row = xlsx.write_title(ws, rep.title, [*lines, summary_sentence(rep)])
    refs: dict[str, Any] = {
        "permits_issued": f"='By month'!{t_month.cell(2)}",
        "valuation": f"='By month'!{t_month.cell(3)}",
        "fees_collected": f"='By month'!{t_month.cell(4)}",
        "inspections_made": f"=Inspections!{t_i.cell(n + 2)}" if table else 0,
    }
    if rep.trade in (None, "building"):
        refs["buildings_erected"] = (
            f"=COUNTA('Buildings erected'!A{t_b.first_row}:A{t_b.last_row})" if rep.buildings else 0
        )
    t_s = xlsx.write_table(
        ws,
        ["Figure", str(rep.year), str(rep.previous.year), "Change"],
        [
            [
                label,
                refs.get(name, getattr(rep.headline, name)),
                getattr(rep.previous, name),
                _CHANGE_SAMPLE,  # the formula comes once the columns are fitted (below)
            ]
            for name, label in _fields(rep)
        ],
        total_row=False,
        start_row=row,
    )
    for k, (name, _) in enumerate(_fields(rep)):
        for c in (2, 3):
            cell = ws.cell(row=t_s.first_row + k, column=c)
            cell.number_format = (
                xlsx.MONEY_FORMAT if name in ("valuation", "fees_collected") else xlsx.COUNT_FORMAT
            )
    row = t_s.next_row + 1
    ws.cell(row=row, column=1, value=trend_title(rep)).font = xlsx.TOTAL_FONT
    fields = _fields(rep)
    xlsx.write_table(
        ws,
        ["Year", *(label for _, label in fields)],
        [[h.year, *(getattr(h, name) for name, _ in fields)] for h in rep.full_trend],
        money_cols={
            k + 1 for k, (name, _) in enumerate(fields) if name in ("valuation", "fees_collected")
        },
        total_row=False,
        start_row=row + 1,
        freeze=False,
    )
    for sheet in wb.worksheets:
        if sheet.title not in ("Buildings erected", "Permit register"):
            xlsx.finish_sheet(sheet, title_rows=set(range(1, 6)))
    partial = rep.register_starts is not None and rep.partial(rep.previous.year)
    for k in range(len(fields)):
        r = t_s.first_row + k
        if partial and rep.register_starts is not None:
            # The previous year is partial in the register: no percent (see change_cell).
            cell = ws.cell(row=r, column=4, value=no_data_words(rep.register_starts))
        else:
            cell = ws.cell(row=r, column=4, value=change_formula(f"B{r}", f"C{r}"))
            cell.number_format = CHANGE_FORMAT
        cell.alignment = Alignment(horizontal="right")
    xlsx.save(wb, out)


def _accounts_xlsx(ws: Any, accounts: list[AccountFees], row: int, label: str) -> xlsx.TableRange:
    return xlsx.write_table(
        ws,
        [
            "Account",
            "Name",
            "Receipts",
            "Voids and returned checks",
            "Refunds",
            "Transfers",
            "Net",
        ],
        [
            [
                a.number,
                a.name,
                a.receipts,
                a.reversals,
                a.refunds,
                a.transfers,
                f"=SUM(C{row + 1 + k}:F{row + 1 + k})",
            ]
            for k, a in enumerate(accounts)
        ],
        money_cols={2, 3, 4, 5, 6},
        start_row=row,
        total_label=label,
    )


def _widths_from(ws: Any, headers: list[str], texts: list[tuple[str, ...]]) -> None:
    """Column widths as fit_columns sets them, measured on the values' text."""
    for n, header in enumerate(headers):
        longest = max((len(t[n]) for t in texts), default=0)
        width = max(len(header) + 3, longest + 2)
        ws.column_dimensions[_col(n + 1)].width = max(xlsx.MIN_WIDTH, min(width, 40))


def _col(n: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(n)


def _sureties_xlsx(wb: Any, rep: AnnualReport, lines: list[str]) -> None:
    s = rep.sureties
    ws = xlsx.add_sheet(wb, "Deposits and bonds")
    row = xlsx.write_title(ws, f"Deposits held and refunded; bonds on file — {rep.year}", lines)
    row = xlsx.write_pairs(
        ws,
        [
            (f"Deposits held on January 1, {rep.year}", s.deposits_opening),
            ("Deposits received", s.deposits_received),
            ("Deposits returned", s.deposits_returned),
            ("Deposits retained by the Council (now city revenue)", s.deposits_retained),
            (f"Deposits held on December 31, {rep.year}", f"=SUM(B{row}:B{row + 3})"),
        ],
        row,
        money_rows={0, 1, 2, 3, 4},
        bold_rows={4},
    )
    if not s.recorded:
        ws.cell(row=row, column=1, value=s.note)
        return
    ws.cell(
        row=row, column=1, value=cite("Street deposits", rep.heading.cites.deposits)
    ).font = xlsx.TOTAL_FONT
    t = xlsx.write_table(
        ws,
        [
            "Permit",
            "Depositor",
            "Received",
            "Amount",
            "Returned on",
            "Returned",
            "Retained",
            "Status",
        ],
        [
            [
                d.permit_number,
                d.depositor,
                d.received_on,
                d.amount,
                d.returned_on,
                d.returned,
                d.retained,
                d.status,
            ]
            for d in s.deposits
        ],
        money_cols={3, 5, 6},
        date_cols={2, 4},
        start_row=row + 1,
        freeze=False,
    )
    row = t.next_row + 1
    ws.cell(row=row, column=1, value="Bonds on file").font = xlsx.TOTAL_FONT
    xlsx.write_table(
        ws,
        ["Bond", "Purpose", "Principal", "Kind", "Amount", "From", "To", "Status"],
        [
            [
                b.number,
                b.purpose,
                b.principal,
                b.kind,
                b.amount,
                b.effective_on,
                b.expires_on,
                b.status,
            ]
            for b in s.bonds
        ],
        money_cols={4},
        date_cols={5, 6},
        start_row=row + 1,
        freeze=False,
    )


def _export_enforcement_xlsx(rep: AnnualReport, out: Path) -> None:
    """The code-enforcement report as a workbook: the year's figures with the hearings, and the
    dwellings condemned."""
    head = rep.heading
    section = rep.enforcement
    year = str(rep.year)
    wb = xlsx.new_workbook(
        rep.title,
        subject=f"{head.municipality_name} {rep.year}",
        author=head.municipality_name,
        keywords="annual report, code enforcement",
        description=section.summary_sentence(year) if section else NO_REGISTER,
    )
    lines = [head.municipality_name, enforcement_byline(rep)]
    if section is None:
        ws = xlsx.first_sheet(wb, "Code enforcement")
        xlsx.write_title(ws, rep.title, [*lines, NO_REGISTER])
        xlsx.save(wb, out)
        return
    ws, at = enforcement_xlsx(wb, section, [year], rep.title, lines, first=True)
    enforcement_hearings_xlsx(ws, section, at)
    xlsx.finish_sheet(ws, title_rows=set(range(1, len(lines) + 3)))
    condemnations_xlsx(
        wb, section.citations, rep.licensing.condemnations, year, rep.period.end, lines
    )
    xlsx.save(wb, out)


# --------------------------------------------------------------------------- condemnations


def _condemnation_rows(rep: AnnualReport) -> list[list[str]]:
    end = rep.period.end
    return [
        [c.where, day(c.condemned_on), c.grounds_text, day(c.vacate_by), c.outcome_words(end)]
        for c in rep.licensing.condemnations
    ]


def _licensing_pdf(pdf: Pdf, rep: AnnualReport) -> None:
    """The dwellings condemned in the year with their outcome on December 31, then the City
    licences granted and revoked."""
    s = rep.licensing
    if s.show_condemnations:
        pdf.h2(cite("Condemnations", rep.heading.cites.council))  # the record 15.1.6(c) keeps
        if not s.recorded:
            pdf.note(f"Condemnations of buildings: {NOT_RECORDED}.")
        else:
            pdf.table(
                [
                    Col("Address", 2.3, wrap=True),
                    Col("Condemned", 0.85),
                    Col("Grounds", 1.05),
                    Col("Vacate by", 0.85),
                    Col(f"Outcome at {day(rep.period.end)}", 1.95),
                ],
                _condemnation_rows(rep),
                empty=f"No buildings were condemned in {rep.year}.",
            )
    if not s.show_licences:
        return
    pdf.h1(cite("City licences granted and revoked", rep.heading.cites.licences_annual))
    if not s.recorded:
        pdf.note(f"City licences: {NOT_RECORDED}.")
        return
    end = rep.period.end
    pdf.table(
        [
            Col("Licence", 1.0),
            Col("Granted", 0.75),
            Col("Licensee", 2.0, wrap=True),
            Col("State licence", 2.05, wrap=True),
            Col(f"Status at {day(end)}", 1.2),
        ],
        [
            [x.number, day(x.granted_on), x.licensee, x.credential, x.status_on(end).label]
            for x in s.licences_granted
        ],
        total=["Total", "", f"{len(s.licences_granted):,} licences", "", ""]
        if s.licences_granted
        else None,
        empty=f"No City licences were granted in {rep.year}.",
    )
    pdf.h2(cite("Licences revoked upon the Council's finding", rep.heading.cites.revoked))
    pdf.table(
        [
            Col("Licence", 1.0),
            Col("Licensee", 1.75, wrap=True),
            Col("Complaint", 0.8),
            Col("Hearing", 0.8),
            Col("Finding", 1.85, wrap=True),
            Col("Revoked", 0.8),
        ],
        [
            [
                x.number,
                x.licensee,
                day(x.complaint_on),
                day(x.hearing_on),
                x.council_finding,
                day(x.revoked_on),
            ]
            for x in s.licences_revoked
        ],
        empty=f"No City licences were revoked in {rep.year}.",
    )


def _licensing_xlsx(wb: Any, rep: AnnualReport, lines: list[str], raz: Any, row: int) -> None:
    """A sheet of the year's condemnations (a line on the razings sheet points to it) and a
    sheet of the City licences granted and revoked."""
    s = rep.licensing
    end = rep.period.end
    if s.show_condemnations and not s.recorded:
        raz.cell(row=row, column=1, value=f"Condemnations of buildings: {NOT_RECORDED}.")
    elif s.show_condemnations:
        raz.cell(
            row=row, column=1, value="Condemnations of buildings: see the sheet Condemnations."
        )
        ws = xlsx.add_sheet(wb, "Condemnations")
        start = xlsx.write_title(
            ws,
            cite(
                f"Dwellings condemned as unfit for human habitation — {rep.year}",
                rep.heading.cites.council,
            ),
            [*lines, "Grounds: B(1)–(3) as recorded; vacated within the period ordered."],
        )
        t = xlsx.write_table(
            ws,
            [
                "Address",
                "Unit",
                "Condemned",
                "Grounds",
                "Reasons",
                "Vacate by",
                f"Outcome at {day(end)}",
                "Permit",
            ],
            [
                [
                    c.address,
                    c.dwelling_unit,
                    c.condemned_on,
                    c.grounds_text,
                    c.reasons,
                    c.vacate_by,
                    c.outcome_words(end),
                    c.permit_number,
                ]
                for c in s.condemnations
            ],
            date_cols={2, 5},
            total_row=False,
            start_row=start,
        )
        if not s.condemnations:
            ws.cell(
                row=t.header_row + 1, column=1, value=f"No buildings were condemned in {rep.year}."
            )
    if not s.show_licences:
        return
    lic = xlsx.add_sheet(wb, "City licences")
    start = xlsx.write_title(
        lic,
        cite(f"City licences granted and revoked — {rep.year}", rep.heading.cites.licences_annual),
        lines,
    )
    if not s.recorded:
        lic.cell(row=start, column=1, value=f"City licences: {NOT_RECORDED}.")
        return
    granted = xlsx.write_table(
        lic,
        [
            "Licence",
            "Granted",
            "Licensee",
            "Trade",
            "State licence",
            "Until",
            f"Status at {day(end)}",
        ],
        [
            [
                x.number,
                x.granted_on,
                x.licensee,
                x.trade.capitalize(),
                x.credential,
                x.expires_on,
                x.status_on(end).label,
            ]
            for x in s.licences_granted
        ],
        date_cols={1, 5},
        total_row=False,
        start_row=start,
    )
    row = granted.next_row
    if not s.licences_granted:
        lic.cell(
            row=granted.header_row + 1,
            column=1,
            value=f"No City licences were granted in {rep.year}.",
        )
        row += 1
    lic.cell(
        row=row,
        column=1,
        value=cite("Revoked upon the Council's finding", rep.heading.cites.revoked),
    ).font = xlsx.TOTAL_FONT
    revoked = xlsx.write_table(
        lic,
        ["Licence", "Licensee", "Complaint", "Hearing", "Finding on", "Finding", "Revoked"],
        [
            [
                x.number,
                x.licensee,
                x.complaint_on,
                x.hearing_on,
                x.finding_on,
                x.council_finding,
                x.revoked_on,
            ]
            for x in s.licences_revoked
        ],
        date_cols={2, 3, 4, 6},
        total_row=False,
        start_row=row + 1,
        freeze=False,
    )
    if not s.licences_revoked:
        lic.cell(
            row=revoked.header_row + 1,
            column=1,
            value=f"No City licences were revoked in {rep.year}.",
        )
