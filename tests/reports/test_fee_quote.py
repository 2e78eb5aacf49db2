"""The fee quote PDF: reopened with pypdf, the figures a clerk reads off it."""

from __future__ import annotations

import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path

import pypdf
import pytest

from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services import fees
from reports.fee_quote import render_quote_pdf

D = Decimal
GLENDALE_LETTERHEAD = [
    "City of Glendale",
    "Department of Building Inspection",
    "5909 N Milwaukee River Pkwy",
    "Glendale, WI 53209",
]
DAY = date(2026, 3, 2)


def glendale_quote(*items: QuoteItem, work_began: bool = False) -> fees.Quote:
    return fees.quote_shipped(
        "glendale", QuoteRequest(items=items, work_began_before_permit=work_began), DAY
    )


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def test_the_quote_pdf_shows_the_lines_the_total_and_the_rounding_rule(tmp_path: Path) -> None:
    quote = glendale_quote(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
    out = tmp_path / "quote.pdf"
    render_quote_pdf(quote, "City of Glendale", GLENDALE_LETTERHEAD, out, "Carol Clerk", DAY)
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 1
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(width), round(height)) == (612, 792)  # letter
    text = pdf_text(out)
    for expected in (
        "City of Glendale",
        "Department of Building Inspection",
        "Fee quote",
        "03/02/2026",
        "Glendale 15.1.21 (shipped)",
        "01/01/2000",
        "Carol Clerk",
        "RES-NEW",
        "$288.00",
        "$115.20",
        "$404.00",
        "RES-STATE-SEAL",
        "$35.00",
        "$439.00",
        "40 % admin",
        "Fees are rounded up to the next whole dollar.",
    ):
        assert expected in text, expected


def test_the_fonts_are_embedded(tmp_path: Path) -> None:
    out = tmp_path / "quote.pdf"
    quote = glendale_quote(QuoteItem("RES-POOL"))
    render_quote_pdf(quote, "City of Glendale", GLENDALE_LETTERHEAD, out, "Carol Clerk", DAY)
    fonts = set()
    for page in pypdf.PdfReader(out).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts.add(str(font["/BaseFont"]))
            descendants = font.get("/DescendantFonts")
            descriptor = (
                descendants[0].get_object()["/FontDescriptor"]
                if descendants
                else font.get("/FontDescriptor")
            )
            assert descriptor is not None and "/FontFile2" in descriptor.get_object()
    assert any("DejaVuSans-Bold" in f for f in fonts)
    assert any(f.endswith("DejaVuSans") for f in fonts)


def test_a_double_fee_and_a_deposit_are_explained_under_the_table(tmp_path: Path) -> None:
    quote = glendale_quote(
        QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("DEPOSIT-STREET"), work_began=True
    )
    out = tmp_path / "quote.pdf"
    render_quote_pdf(quote, "City of Glendale", GLENDALE_LETTERHEAD, out, "Carol Clerk", DAY)
    text = pdf_text(out)
    assert "double fee — work began before permit" in text
    assert "$808.00" in text  # fees: 404 twice
    assert "Deposits held (not fees)" in text and "$500.00" in text
    assert "$1,308.00" in text
    assert "charged twice (15.1.21(f))" in text
    assert "A deposit is held for the depositor and is not a fee." in text


def test_new_lisbon_has_no_glendale_rounding_note(tmp_path: Path) -> None:
    quote = fees.quote_shipped(
        "new_lisbon",
        QuoteRequest(items=(QuoteItem("CITY-REPAIR", amount=D("1234.56")),)),
        DAY,
    )
    out = tmp_path / "nl.pdf"
    render_quote_pdf(quote, "City of New Lisbon", [], out, "Erin Engineer", DAY)
    text = pdf_text(out)
    assert "City of New Lisbon" in text  # no letterhead: the name heads the page
    assert "$1,481.47" in text and "rounded up" not in text and "40 %" not in text


def test_a_long_item_code_breaks_after_a_hyphen_not_inside_a_word(tmp_path: Path) -> None:
    quote = glendale_quote(QuoteItem("COM-NEW-INSTITUTIONAL", quantity=D(1000)))
    out = tmp_path / "quote.pdf"
    render_quote_pdf(quote, "City of Glendale", GLENDALE_LETTERHEAD, out, "Carol Clerk", DAY)
    text = pdf_text(out)
    assert "INSTITUTIONAL" in text and "INSTITUTIONA\n" not in text


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_the_quote_renders_to_an_image(tmp_path: Path) -> None:
    quote = glendale_quote(QuoteItem("RES-NEW", quantity=D(2400)), QuoteItem("RES-STATE-SEAL"))
    out = tmp_path / "quote.pdf"
    render_quote_pdf(quote, "City of Glendale", GLENDALE_LETTERHEAD, out, "Carol Clerk", DAY)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(out), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == 1 and pages[0].stat().st_size > 10_000
