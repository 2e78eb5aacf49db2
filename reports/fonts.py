"""The DejaVu fonts shipped in resources/fonts, registered once with reportlab and embedded."""

from __future__ import annotations

from functools import cache
from importlib import resources

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"


@cache
def register_fonts() -> tuple[str, str]:
    """(regular, bold) font names for reportlab styles; embedded as subsets in each PDF."""
    folder = resources.files("resources").joinpath("fonts")
    for name in (REGULAR, BOLD):
        path = folder.joinpath(f"{name}.ttf")
        pdfmetrics.registerFont(TTFont(name, str(path)))
    # <b> in a Paragraph picks the bold face.
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
    return REGULAR, BOLD
