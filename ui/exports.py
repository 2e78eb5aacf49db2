"""A printout or an export saved where the user says, then opened: the save dialog (the file
named `name` in the home folder; the suffix added when the user leaves it off), the write, the
error that says where it could not be saved, and the file shown: a PDF in the app's own window
(to read and print), a workbook in the program the system uses for it. The dialogs go through
ui.dialogs, so tests patch them there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from ui import dialogs

PDF = (".pdf", "PDF files")
XLSX = (".xlsx", "Excel workbooks")


def save_path(parent: QWidget, caption: str, name: str, kind: tuple[str, str] = PDF) -> Path | None:
    """Where to save `name` (a PDF, or a workbook with XLSX), or None when cancelled."""
    suffix, files = kind
    chosen = dialogs.choose_file(
        parent, caption, f"{files} (*{suffix})", save=True, directory=str(Path.home() / name)
    )
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.suffix.lower() == suffix else path.with_suffix(suffix)


def write_and_open(
    parent: QWidget, title: str, path: Path, write: Callable[[Path], object], what: str = "It"
) -> Path | None:
    """Write the file and show it; when it cannot be written, say so under `title` ("`what`
    could not be saved to …") and return None."""
    try:
        write(path)
    except OSError as e:
        dialogs.error(parent, title, f"{what} could not be saved to {path}: {e}")
        return None
    dialogs.show_file(parent, path, title)
    return path


def save_and_open(
    parent: QWidget,
    title: str,
    caption: str,
    name: str,
    write: Callable[[Path], object],
    kind: tuple[str, str] = PDF,
    what: str = "It",
) -> Path | None:
    """save_path, then write_and_open: the file written, or None."""
    path = save_path(parent, caption, name, kind)
    return None if path is None else write_and_open(parent, title, path, write, what)
