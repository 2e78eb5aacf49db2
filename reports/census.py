"""The Census Bureau's Form C-404 (Report of New Privately-Owned Residential Building or Zoning
Permits Issued) for a month or a year: rows 101, 103, 104, 105 and 109 with buildings, housing
units and valuation in whole dollars, the "no permits issued" answer, and the permits at or above
the high-value threshold listed one by one. Pure renderers over desk.domain.reports.C404Report.
"""

from __future__ import annotations

from pathlib import Path

from desk.domain.reports import C404Report, C404Row, c404_row, whole_dollars
from reports import xlsx
from reports.report_pdf import Col, Pdf, count, day

WHOLE_DOLLARS = '"$"#,##0'


def dollars(value: object) -> str:
    return f"${value:,}"


def no_permits_text(rep: C404Report) -> str:
    return f"No permits for new privately owned housing units were issued in {rep.period.label}."


def summary_sentence(rep: C404Report) -> str:
    t = rep.total
    if rep.no_permits:
        return no_permits_text(rep)
    return (
        f"{t.buildings:,} building{'s' if t.buildings != 1 else ''} with {t.units:,} housing "
        f"unit{'s' if t.units != 1 else ''} valued at {dollars(t.valuation)} in "
        f"{rep.period.label}."
    )


def render_c404_pdf(rep: C404Report, out: Path) -> None:
    pdf = Pdf(rep.heading, rep.title)
    head = rep.heading
    pdf.letterhead()
    pdf.text(rep.title, "title")
    pdf.text(
        "Report of new privately owned residential building permits issued. Valuation in whole "
        "dollars. Additions, alterations, conversions and publicly owned housing are not "
        "included.",
        "label",
    )
    pdf.space(6)
    pdf.facts(
        [
            ("Permit-issuing place", head.municipality_name),
            ("State", head.state),
            ("Period", rep.period.label),
            ("Prepared by", f"{head.inspector_name}, {head.inspector_title}"),
        ],
        label_width=1.6,
    )
    pdf.space(8)
    if rep.no_permits:
        pdf.text("☒ " + no_permits_text(rep), "h2")
    pdf.h1("Section 1 — New housing units authorized")
    pdf.table(
        [
            Col("Item", 0.5),
            Col("Type of building", 3.1),
            Col("Buildings", 1.0, "RIGHT"),
            Col("Housing units", 1.0, "RIGHT"),
            Col("Valuation ($)", 1.4, "RIGHT"),
        ],
        [
            [
                line.row.value,
                line.row.label,
                count(line.buildings),
                count(line.units),
                dollars(line.valuation),
            ]
            for line in rep.lines
            if line.row is not C404Row.TOTAL
        ],
        total=[
            C404Row.TOTAL.value,
            C404Row.TOTAL.label,
            count(rep.total.buildings),
            count(rep.total.units),
            dollars(rep.total.valuation),
        ],
    )
    pdf.h1(f"Permits valued at {dollars(rep.threshold)} or more")
    pdf.table(
        [
            Col("Permit", 0.75),
            Col("Issued", 0.75),
            Col("Site address", 2.1),
            Col("Type of building", 1.8),
            Col("Units", 0.5, "RIGHT"),
            Col("Valuation ($)", 1.1, "RIGHT"),
        ],
        [
            [
                d.number,
                day(d.issued_on),
                d.address,
                d.building_type,
                count(d.units),
                dollars(d.valuation),
            ]
            for d in rep.details
        ],
        empty=f"No permit was valued at {dollars(rep.threshold)} or more.",
    )
    if rep.permits:
        pdf.h1("Permits counted (for the office's check)")
        pdf.table(
            [
                Col("Permit", 0.75),
                Col("Issued", 0.75),
                Col("Address", 2.6),
                Col("Item", 0.5),
                Col("Units", 0.6, "RIGHT"),
                Col("Valuation ($)", 1.8, "RIGHT"),
            ],
            [
                [
                    p.number,
                    day(p.issued_on),
                    p.address,
                    _row_of(p.units),
                    count(p.units),
                    dollars(whole_dollars(p.valuation)),
                ]
                for p in rep.permits
            ],
        )
    if rep.excluded:
        pdf.note(
            f"{rep.excluded} new housing permit{'s' if rep.excluded != 1 else ''} not counted: "
            "publicly owned, or voided since issued."
        )
    pdf.build(out, subject=rep.period.label)


def _row_of(units: int) -> str:
    return c404_row(units).value


def export_c404_xlsx(rep: C404Report, out: Path) -> None:
    head = rep.heading
    wb = xlsx.new_workbook(
        rep.title,
        subject=rep.period.label,
        author=head.municipality_name,
        keywords="Census, C-404, housing units",
        description=summary_sentence(rep),
    )
    ws = xlsx.first_sheet(wb, "C-404")
    row = xlsx.write_title(
        ws,
        rep.title,
        [
            head.municipality_name,
            f"Period: {rep.period.label}",
            "New privately owned housing; valuation in whole dollars.",
        ],
    )
    if rep.no_permits:
        ws.cell(row=row, column=1, value=no_permits_text(rep)).font = xlsx.TOTAL_FONT
        row += 2
    table = xlsx.write_table(
        ws,
        ["Item", "Type of building", "Buildings", "Housing units", "Valuation"],
        [
            [int(line.row.value), line.row.label, line.buildings, line.units, int(line.valuation)]
            for line in rep.lines
            if line.row is not C404Row.TOTAL
        ],
        start_row=row,
        total_label=f"{C404Row.TOTAL.value} {C404Row.TOTAL.label}",
    )
    xlsx.sum_columns(ws, table, {2, 3})
    xlsx.sum_columns(ws, table, {4}, WHOLE_DOLLARS)
    for r in range(table.first_row, table.last_row + 1):
        ws.cell(row=r, column=5).number_format = WHOLE_DOLLARS
    details = xlsx.add_sheet(wb, "High-value permits")
    row = xlsx.write_title(
        details, f"Permits valued at {dollars(rep.threshold)} or more", [rep.period.label]
    )
    t = xlsx.write_table(
        details,
        ["Permit", "Issued", "Site address", "Type of building", "Units", "Valuation"],
        [
            [d.number, d.issued_on, d.address, d.building_type, d.units, int(d.valuation)]
            for d in rep.details
        ],
        date_cols={1},
        total_row=False,
        start_row=row,
    )
    for r in range(t.first_row, t.last_row + 1):
        details.cell(row=r, column=6).number_format = WHOLE_DOLLARS
    counted = xlsx.add_sheet(wb, "Permits counted")
    row = xlsx.write_title(counted, "Permits counted", [rep.period.label])
    t2 = xlsx.write_table(
        counted,
        ["Permit", "Issued", "Address", "Item", "Units", "Valuation"],
        [
            [
                p.number,
                p.issued_on,
                p.address,
                int(_row_of(p.units)),
                p.units,
                int(whole_dollars(p.valuation)),
            ]
            for p in rep.permits
        ],
        date_cols={1},
        start_row=row,
    )
    xlsx.sum_columns(counted, t2, {4})
    xlsx.sum_columns(counted, t2, {5}, WHOLE_DOLLARS)
    for r in range(t2.first_row, t2.last_row + 1):
        counted.cell(row=r, column=6).number_format = WHOLE_DOLLARS
    for sheet in wb.worksheets:
        xlsx.finish_sheet(sheet, title_rows=set(range(1, 6)))
    xlsx.save(wb, out)
