"""The report PDFs' long tables (reports/report_pdf.py): a figure is never cut short, and a
table split across pages never leaves its total alone at the top of a page."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from desk.domain.reports import Heading
from reports.report_pdf import KEEP_TOGETHER, Col, Pdf

HEADING = Heading(
    municipality_id=1,
    municipality_key="glendale",
    municipality_name="City of Glendale",
    letterhead=("City of Glendale", "Department of Building Inspection"),
    inspector_name="Dale Kowalski",
    inspector_title="Building Inspector",
)


def _page_texts(path: Path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(str(path)).pages]


def test_a_total_wider_than_its_column_is_printed_whole(tmp_path: Path) -> None:
    pdf = Pdf(HEADING, "Buildings erected")
    pdf.table(
        [Col("Description", 3.0, wrap=True), Col("Cost", 0.6, "RIGHT")],
        [["New 5-story hotel", "$20,823,700.00"], ["Deck", "$3,530.00"]],
        total=["Total", "$28,454,300.00"],
    )
    out = tmp_path / "t.pdf"
    pdf.build(out)
    text = _page_texts(out)[0]
    assert "$20,823,700.00" in text and "$28,454,300.00" in text and "…" not in text


def test_the_total_of_a_long_table_keeps_the_last_rows_with_it(tmp_path: Path) -> None:
    # Find a row count whose total would fall alone on a new page, then check it does not.
    for n in range(40, 120):
        pdf = Pdf(HEADING, "Register")
        pdf.table(
            [Col("Permit", 1.0), Col("Valuation", 1.2, "RIGHT")],
            [[f"2025-{k:04d}", f"${k:,}.00"] for k in range(1, n + 1)],
            total=["Total", "$1.00"],
        )
        out = tmp_path / f"r{n}.pdf"
        pdf.build(out)
        pages = _page_texts(out)
        if len(pages) < 2:
            continue
        last = pages[-1]
        assert last.count("2025-") >= KEEP_TOGETHER - 1, (n, last)
        assert "Total" in last
        first_rows = pages[0].count("2025-")
        if first_rows < n - KEEP_TOGETHER + 1:  # the split moved rows to keep the total company
            return
    raise AssertionError("no row count put the total on a page of its own")
