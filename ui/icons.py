"""Icons shipped in resources/icons (SVG: sharp at any size and screen scale)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from PySide6.QtGui import QIcon


@cache
def icon(name: str) -> QIcon:
    """resources/icons/<name>.svg; an empty icon when the file is missing."""
    path = resources.files("resources").joinpath("icons", f"{name}.svg")
    return QIcon(str(path)) if path.is_file() else QIcon()


def lock_icon() -> QIcon:
    return icon("lock")
