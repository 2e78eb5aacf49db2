"""The footer every Permit Desk PDF prints (reports/common.py numbered_canvas): the document's
line on the left and its page number on the right, "Page X of Y" where the document says so."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from reportlab.platypus import PageBreak, SimpleDocTemplate
from reportlab.platypus.flowables import Flowable

from reports.common import MARGIN, build_pdf, numbered_canvas, para, styles
from reports.fonts import register_fonts


def _story(pages: int) -> list[Flowable]:
    regular, bold = register_fonts()
    st = styles(regular, bold)
    story: list[Flowable] = []
    for n in range(1, pages + 1):
        story.append(para(f"Body of sheet {n}", st["base"]))
        if n < pages:
            story.append(PageBreak())
    return story


def _lines(path: Path) -> list[set[str]]:
    """Each page's lines of text (in no particular order: the footer is drawn last)."""
    return [
        {line.strip() for line in page.extract_text().splitlines() if line.strip()}
        for page in PdfReader(str(path)).pages
    ]


def test_a_one_off_document_numbers_its_pages_and_can_say_of_how_many(tmp_path: Path) -> None:
    regular, _ = register_fonts()
    plain, of = tmp_path / "plain.pdf", tmp_path / "of.pdf"
    build_pdf(plain, _story(2), font=regular, title="T", author="A", footer="Notice of 03/02/2026")
    build_pdf(
        of,
        _story(3),
        font=regular,
        title="T",
        author="A",
        footer="Quote",
        page_label="Page {page} of {pages} · Permit Desk",
    )
    assert _lines(plain) == [
        {"Body of sheet 1", "Notice of 03/02/2026", "Page 1"},
        {"Body of sheet 2", "Notice of 03/02/2026", "Page 2"},
    ]
    assert _lines(of) == [
        {f"Body of sheet {n}", "Quote", f"Page {n} of 3 · Permit Desk"} for n in (1, 2, 3)
    ]


def test_a_report_with_a_cover_numbers_every_page_but_the_cover(tmp_path: Path) -> None:
    regular, _ = register_fonts()
    out = tmp_path / "report.pdf"
    SimpleDocTemplate(str(out), leftMargin=MARGIN, rightMargin=MARGIN).build(
        _story(3), canvasmaker=numbered_canvas("Annual report 2025", regular, skip_first=True)
    )
    assert _lines(out) == [
        {"Body of sheet 1"},
        {"Body of sheet 2", "Annual report 2025", "Page 2 of 3"},
        {"Body of sheet 3", "Annual report 2025", "Page 3 of 3"},
    ]
