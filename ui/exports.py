"""Printouts and exports. A printout (a PDF) is filed at once in the office's document folder
(`<folder>/<year>/<subfolder>/<name>.pdf`, never over an earlier file) and then shown in the
app's own window (save_and_open) or sent straight to the print dialog (print_now): no Save-as
dialog stands between a clerk and the printer; the window's Save as… copies it elsewhere. A
workbook (.xlsx) is not a printout: it is saved where the user says and opened in the program
the system uses for it. The dialogs go through ui.dialogs, so tests patch them there."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QStatusBar, QWidget

from ui import dialogs, settings

PDF = (".pdf", "PDF files")
XLSX = (".xlsx", "Excel workbooks")

# The subfolders of the document folder, one per kind of printout.
RECEIPTS = "Receipts"
PERMIT_CARDS = "Permit cards"
APPLICATIONS = "Applications"
NOTICES = "Notices"
CERTIFICATES = "Certificates"
ROUTE_SHEETS = "Route sheets"
REPORTS = "Reports"
LETTERS = "Letters"
QUOTES = "Fee quotes"


def subfolder_for(title: str) -> str:
    """A readable subfolder from a window title: "Print route sheet" → "Route sheets"."""
    words = title.strip()
    for verb in ("Print ", "Export ", "Save "):
        words = words.removeprefix(verb)
    words = words.strip() or "Documents"
    words = words[0].upper() + words[1:]
    return words if words.endswith("s") else f"{words}s"


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


def _reserve(folder: Path, stem: str) -> Path:
    """A new file `stem.pdf` in `folder`, or `stem (2).pdf`, `(3)`…: made empty at once
    (exclusive create), so two printouts at the same moment never share a name."""
    number = 1
    while True:
        path = folder / (f"{stem}.pdf" if number == 1 else f"{stem} ({number}).pdf")
        try:
            path.touch(exist_ok=False)
        except FileExistsError:
            number += 1
            continue
        return path


def filed_path(parent: QWidget | None, title: str, name: str, subfolder: str | None = None) -> Path:
    """Where a printout named `name` is filed now: `<folder>/<year>/<subfolder>/<name>.pdf`,
    reserved. When the folder cannot be made the user is told which (under `title`) and the
    printout goes to a temporary folder instead, so it can still be printed or saved as."""
    stem = name[:-4] if name.lower().endswith(".pdf") else name
    kind = subfolder or subfolder_for(title)
    folder = settings.document_folder() / str(date.today().year) / kind
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return _reserve(folder, stem)
    except OSError as e:
        dialogs.error(
            parent,
            title,
            f"The document folder {folder} could not be used ({e.strerror or e}). This copy is "
            "not filed: print it, or keep it with Save as…. Choose another folder with File ▸ "
            "Document folder….",
        )
        return _reserve(Path(tempfile.mkdtemp(prefix="permitdesk-")), stem)


def _write(
    parent: QWidget | None, title: str, path: Path, write: Callable[[Path], object], what: str
) -> bool:
    try:
        write(path)
    except OSError as e:
        dialogs.error(parent, title, f"{what} could not be saved to {path}: {e}")
        return False
    return True


def file_pdf(
    parent: QWidget | None,
    title: str,
    name: str,
    write: Callable[[Path], object],
    subfolder: str | None = None,
    what: str = "It",
) -> Path | None:
    """Write the printout into the document folder: its path, or None when it could not be
    written (the user was told, and no empty file is left behind)."""
    path = filed_path(parent, title, name, subfolder)
    if not _write(parent, title, path, write, what):
        path.unlink(missing_ok=True)
        return None
    return path


def write_and_open(
    parent: QWidget, title: str, path: Path, write: Callable[[Path], object], what: str = "It"
) -> Path | None:
    """Write the file and show it; when it cannot be written, say so under `title` ("`what`
    could not be saved to …") and return None."""
    if not _written(parent, title, path, write, what):
        return None
    dialogs.show_file(parent, path, title)
    return path


def _written(
    parent: QWidget, title: str, path: Path, write: Callable[[Path], object], what: str
) -> bool:
    if _write(parent, title, path, write, what):
        return True
    if _is_filed(path) and path.exists() and path.stat().st_size == 0:
        path.unlink()  # the name filed_path reserved, left unwritten
    return False


def _is_filed(path: Path) -> bool:
    return path.is_relative_to(settings.document_folder())


def save_and_open(
    parent: QWidget,
    title: str,
    caption: str,
    name: str,
    write: Callable[[Path], object],
    kind: tuple[str, str] = PDF,
    what: str = "It",
    *,
    subfolder: str | None = None,
) -> Path | None:
    """A PDF filed in the document folder (`subfolder`, else one named after `title`) and shown
    to read and print; a workbook saved where the user says (`caption`) and opened. The file
    written, or None."""
    if kind != PDF:
        path = save_path(parent, caption, name, kind)
        return None if path is None else write_and_open(parent, title, path, write, what)
    filed = file_pdf(parent, title, name, write, subfolder, what)
    if filed is not None:
        dialogs.show_file(parent, filed, title)
    return filed


def print_now(
    parent: QWidget | None,
    title: str,
    name: str,
    write: Callable[[Path], object],
    subfolder: str | None = None,
    what: str = "It",
) -> Path | None:
    """Ctrl+P: the printout filed, then straight to the print dialog (no preview between). The
    filed path (also when the print dialog was cancelled), or None when it could not be
    written."""
    path = file_pdf(parent, title, name, write, subfolder, what)
    if path is None:
        return None
    send_to_printer(parent, title, path, what)
    return path


def write_and_print(
    parent: QWidget, title: str, path: Path, write: Callable[[Path], object], what: str = "It"
) -> Path | None:
    """Ctrl+P where the path is chosen already (filed_path): write the PDF, then straight to the
    print dialog. The path, or None when it could not be written."""
    if not _written(parent, title, path, write, what):
        return None
    send_to_printer(parent, title, path, what)
    return path


def send_to_printer(parent: QWidget | None, title: str, path: Path, what: str = "It") -> None:
    """A PDF written to `path` straight to the print dialog; a file that cannot be read as PDF
    is said to be filed where it is."""
    from ui.pdf import PdfError, print_pdf

    try:
        print_pdf(parent, path)
    except PdfError as e:
        dialogs.error(parent, title, f"{what} could not be printed ({e}); it is filed as {path}.")


def printout(
    parent: QWidget,
    title: str,
    name: str,
    write: Callable[[Path], object],
    subfolder: str,
    what: str = "It",
    *,
    direct: bool = False,
) -> Path | None:
    """A PDF printout filed in `subfolder`: straight to the print dialog (`direct`, Ctrl+P),
    otherwise shown to read and print."""
    if direct:
        return print_now(parent, title, name, write, subfolder, what)
    return save_and_open(parent, title, "", name, write, what=what, subfolder=subfolder)


def print_section(section: object, status: QStatusBar) -> bool:
    """File ▸ Print (Ctrl+P): the section shown prints its printout; the status bar says so
    when it has none."""
    print_current = getattr(section, "print_current", None)
    if callable(print_current) and print_current():
        return True
    status.showMessage("Nothing to print here.", 5000)
    return False


def choose_document_folder(parent: QWidget) -> Path | None:
    """File ▸ Document folder…: the folder printouts are filed in on this computer, shown and
    changed. The folder chosen, or None when kept."""
    current = settings.document_folder()
    default = settings.default_document_folder()
    note = "" if current == default else f"\n\nThe default is {default}."
    if not dialogs.ask(
        parent,
        "Document folder",
        f"Printouts are filed as PDF in\n{current}\n(one folder per year and kind).{note}\n\n"
        "Choose another folder?",
        default_yes=True,
    ):
        return None
    chosen = dialogs.choose_folder(parent, "Choose the document folder", str(current))
    if not chosen:
        return None
    folder = Path(chosen)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".permitdesk-write-test"
        probe.touch()
        probe.unlink()
    except OSError as e:
        dialogs.error(
            parent,
            "Document folder",
            f"Printouts cannot be filed in {folder} ({e.strerror or e}); they stay in {current}.",
        )
        return None
    settings.write(settings.document_folder_key(), str(folder))
    return folder
