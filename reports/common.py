"""What every Permit Desk PDF shares: page margins, colours, the DejaVu styles, the letterhead."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from datetime import date
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from desk.dates import short_date
from desk.domain.documents import Letterhead
from desk.pictures import picture_problem

log = logging.getLogger(__name__)

MARGIN = 0.75 * inch
INK = colors.HexColor("#1b2430")
MUTED = colors.HexColor("#5d6873")
RULE = colors.HexColor("#c6ced8")
SHADE = colors.HexColor("#eef2f7")
RED = colors.HexColor("#b3261e")  # what must not be missed: revoked, temporary, condemned
TEXT_WIDTH = letter[0] - 2 * MARGIN  # between the margins of a letter page


def day(d: date) -> str:
    return short_date(d)


def styles(regular: str, bold: str) -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("base", fontName=regular, fontSize=9, leading=11.5, textColor=INK)
    return {
        "base": base,
        "muni": ParagraphStyle("muni", base, fontName=bold, fontSize=13, leading=16),
        "letterhead": ParagraphStyle("letterhead", base, textColor=MUTED),
        "title": ParagraphStyle(
            "title", base, fontName=bold, fontSize=17, leading=21, spaceBefore=4
        ),
        "label": ParagraphStyle("label", base, textColor=MUTED),
        "head": ParagraphStyle("head", base, fontName=bold, fontSize=8.5, textColor=MUTED),
        "head_right": ParagraphStyle(
            "head_right", base, fontName=bold, fontSize=8.5, textColor=MUTED, alignment=TA_RIGHT
        ),
        "cell": ParagraphStyle("cell", base, fontSize=8.5, leading=10.5),
        "note": ParagraphStyle("note", base, fontSize=7.5, leading=9.5, textColor=MUTED),
        "money": ParagraphStyle("money", base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT),
        "total": ParagraphStyle("total", base, fontName=bold, fontSize=10, leading=12.5),
        "total_money": ParagraphStyle(
            "total_money", base, fontName=bold, fontSize=10, leading=12.5, alignment=TA_RIGHT
        ),
        "footnote": ParagraphStyle("footnote", base, fontSize=8, leading=10.5, textColor=MUTED),
    }


def para(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape(text), style)


LOGO_HEIGHT = 0.75 * inch
LOGO_MAX_WIDTH = 2.0 * inch  # a wide logo is scaled down to this width instead


# A run of letters prints the same logo on each: it is decoded to be checked once.
_picture_problem = functools.lru_cache(maxsize=8)(picture_problem)


def image_flowable(content: bytes | None, height: float, max_width: float) -> Image | None:
    """`content` (PNG or JPEG bytes) as an Image `height` high (narrower when it would be wider
    than `max_width`), keeping its aspect ratio; None when there is none or it cannot be read:
    a broken upload must never stop a document printing."""
    if not content:
        return None
    # Checked as when it was chosen (the pixel limit before anything is decoded); a picture
    # stored before that check, or damaged since, is named in the log, and the Municipality
    # screen says to choose it again.
    problem = _picture_problem(bytes(content))
    if problem is not None:
        log.warning("a logo or signature cannot be read (%s); printing without it", problem)
        return None
    try:
        reader = ImageReader(BytesIO(content))
        w, h = reader.getSize()
        reader.getRGBData()  # decode now: a truncated file fails here, not halfway through build
        if w <= 0 or h <= 0:
            return None
        scale = min(height / h, max_width / w)
        return Image(BytesIO(content), width=w * scale, height=h * scale)
    except Exception as e:  # any decoder error: print without the image
        log.warning("a logo or signature cannot be read (%s); printing without it", e)
        return None


def letterhead_lines(letterhead: Sequence[str], municipality_name: str) -> list[str]:
    """The lines a header prints: the letterhead's, the address lines (when a Letterhead has
    them) under them; the municipality's name when there are none."""
    lines = [line for line in letterhead if line.strip()] or [municipality_name]
    if isinstance(letterhead, Letterhead):
        lines += [x for x in letterhead.address_lines if x not in lines]
    return lines


def header(
    municipality_name: str,
    letterhead: Sequence[str],
    st: dict[str, ParagraphStyle],
    width: float = letter[0] - 2 * MARGIN,
) -> list[Flowable]:
    """The letterhead at the top of a document: its first line big, the others muted, the
    logo (when the Letterhead has one) at their left, and a rule under them."""
    lines = letterhead_lines(letterhead, municipality_name)
    text: list[Flowable] = [para(lines[0], st["muni"])]
    text.extend(para(line, st["letterhead"]) for line in lines[1:])
    logo = image_flowable(
        letterhead.logo if isinstance(letterhead, Letterhead) else None,
        LOGO_HEIGHT,
        LOGO_MAX_WIDTH,
    )
    out: list[Flowable]
    if logo is None:
        out = text
    else:
        beside = Table(
            [[logo, text]],
            colWidths=[logo.drawWidth + 12, width - logo.drawWidth - 12],
            hAlign="LEFT",
        )
        beside.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        out = [beside]
    rule = Table([[""]], colWidths=[width], rowHeights=[6])
    rule.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 1, RULE),
                ("FONTNAME", (0, 0), (-1, -1), st["base"].fontName),
            ]
        )
    )
    out += [rule, Spacer(1, 12)]
    return out


def facts_table(
    facts: Sequence[tuple[str, str]],
    label: ParagraphStyle,
    value: ParagraphStyle,
    label_width: float,
    *,
    width: float = TEXT_WIDTH,
    padding: float = 4,
) -> Table:
    """A document's facts, a line each: the label in its column `label_width` wide, the value
    beside it; flush left, `padding` points under each line."""
    table = Table(
        [[para(name, label), para(text, value)] for name, text in facts],
        colWidths=[label_width, width - label_width],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("BOTTOMPADDING", (0, 0), (-1, -1), padding),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return table


# --- one-page certificates (a City licence, a certificate of occupancy) -------------------------


def certificate_styles(st: dict[str, ParagraphStyle], bold: str) -> dict[str, ParagraphStyle]:
    """A certificate's centred title ("big"), its number ("number") and centred text."""
    base = st["base"]
    return {
        "big": ParagraphStyle(
            "big", base, fontName=bold, fontSize=24, leading=30, alignment=TA_CENTER
        ),
        "number": ParagraphStyle(
            "number", base, fontName=bold, fontSize=14, leading=18, alignment=TA_CENTER
        ),
        "centred": ParagraphStyle("centred", base, fontSize=11, leading=15, alignment=TA_CENTER),
    }


def certificate_heading(
    st: dict[str, ParagraphStyle],
    cs: dict[str, ParagraphStyle],
    municipality_name: str,
    letterhead: Sequence[str],
    title: str,
    number: str,
) -> list[Flowable]:
    """A certificate's top: the letterhead, then its title and "No. <number>" centred (`cs`:
    certificate_styles)."""
    return [
        *header(municipality_name, letterhead, st),
        Spacer(1, 10),
        para(title, cs["big"]),
        para(f"No. {number}", cs["number"]),
    ]


SIGNATURE_HEIGHT = 0.6 * inch


def signature_image(letterhead: Sequence[str], signer: str) -> bytes | None:
    """The letterhead's signature image when it is the signer's own: only when `signer` is the
    letterhead version's inspector, whose signature it is, so a document never shows someone's
    signature over another person's name."""
    if not isinstance(letterhead, Letterhead) or not letterhead.signature:
        return None
    same = (
        " ".join(signer.split()).casefold()
        == " ".join(letterhead.inspector_name.split()).casefold()
    )
    return letterhead.signature if signer.strip() and same else None


def signature(
    st: dict[str, ParagraphStyle], name: str, title: str, image: bytes | None = None
) -> list[Flowable]:
    """The line to sign on, the signer's name under it and the title, muted, under that; the
    signature `image` (signature_image) above the line when there is one."""
    out: list[Flowable] = []
    drawn = image_flowable(image, SIGNATURE_HEIGHT, 2.6 * inch)
    if drawn is not None:
        drawn.hAlign = "LEFT"
        out.append(drawn)
    return [*out, para("_" * 40, st["base"]), para(name, st["base"]), para(title, st["label"])]


def certificate_border(canvas: Any, _document: Any) -> None:
    """The thin rule framing a certificate's page (build_pdf's `decorate`)."""
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(2)
    canvas.rect(0.45 * inch, 0.45 * inch, letter[0] - 0.9 * inch, letter[1] - 0.9 * inch)


def build_certificate(
    out: Path, story: list[Flowable], *, font: str, title: str, author: str, footer: str
) -> None:
    """build_pdf for a one-page certificate: framed (certificate_border), the footer line
    without a page number."""
    build_pdf(
        out,
        story,
        font=font,
        title=title,
        author=author,
        footer=footer,
        page_label="",
        footer_y=0.6 * inch,
        decorate=certificate_border,
    )


def numbered_canvas(
    footer: str,
    font: str,
    *,
    page_width: float = letter[0],
    label: str = "Page {page} of {pages}",
    footer_y: float = 0.45 * inch,
    skip_first: bool = False,
) -> type[Canvas]:
    """A canvas class (`canvasmaker`) that writes each page's muted footer line: `footer` on
    the left and `label` on the right, where {page} is the page's number and {pages} the
    number of pages (every page is kept until the document is saved, so Y of "Page X of Y" is
    known). An empty label writes the footer alone; `skip_first` leaves a cover page bare."""

    class _Numbered(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                if not (skip_first and number == 1):
                    self.saveState()
                    self.setFont(font, 7.5)
                    self.setFillColor(MUTED)
                    self.drawString(MARGIN, footer_y, footer)
                    if label:
                        self.drawRightString(
                            page_width - MARGIN, footer_y, label.format(page=number, pages=total)
                        )
                    self.restoreState()
                super().showPage()
            super().save()

    return _Numbered


def build_pdf(
    out: Path,
    story: list[Flowable],
    *,
    font: str,
    title: str,
    author: str,
    footer: str,
    page_label: str = "Page {page}",
    pagesize: tuple[float, float] = letter,
    subject: str = "",
    margins: tuple[float, float] = (MARGIN, MARGIN),  # (top, bottom)
    footer_y: float = 0.5 * inch,
    decorate: Callable[[Any, Any], None] | None = None,
) -> None:
    """Write a one-off document (a notice, a certificate, a quote): the story on `pagesize` with
    the margins every printout shares, and on each page a muted footer line with `footer` on
    the left and `page_label` ("Page {page}", or "Page {page} of {pages}") on the right
    (numbered_canvas). `decorate(canvas, doc)` draws anything more on each page (a
    certificate's border). `font` is the registered DejaVu face, so no unembedded Helvetica
    ends up in the file."""

    def on_page(canvas: Any, document: Any) -> None:
        if decorate is not None:
            canvas.saveState()
            decorate(canvas, document)
            canvas.restoreState()

    out.parent.mkdir(parents=True, exist_ok=True)
    created = not out.exists()
    try:
        SimpleDocTemplate(
            str(out),
            pagesize=pagesize,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=margins[0],
            bottomMargin=margins[1],
            title=title,
            author=author,
            subject=subject,
            creator="Permit Desk",
            initialFontName=font,
        ).build(
            story,
            onFirstPage=on_page,
            onLaterPages=on_page,
            canvasmaker=numbered_canvas(
                footer, font, page_width=pagesize[0], label=page_label, footer_y=footer_y
            ),
        )
    except OSError as e:
        if e.filename is not None:
            raise  # a file it read (a font), named already
        # Writing the PDF failed (a full disk): no half-written file is left, and the error
        # names the file (reportlab's does not).
        if created and out.is_file():
            out.unlink(missing_ok=True)
        raise OSError(e.errno, e.strerror or str(e), str(out)) from e
