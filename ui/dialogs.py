"""Every standard dialog the app shows goes through here, so tests can patch one function."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)


def inform(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def tell(parent: QWidget | None, text: str, ms: int = 30000) -> bool:
    """A confirmation of what was just done, on the window's status line rather than a box to
    dismiss after every call at the counter. False when the window has no status line (the
    caller shows the text in place)."""
    window = parent.window() if parent is not None else None
    if isinstance(window, QMainWindow):
        window.statusBar().showMessage(" ".join(text.split()), ms)
        return True
    return False


def warn(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def error(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.critical(parent, title, text)


def unexpected(parent: QWidget | None, title: str, text: str, details: str) -> None:
    """An error nobody foresaw: calm words on screen; `details` (what support needs, never
    shown in the dialog) go to the clipboard with Copy details."""
    box = QMessageBox(QMessageBox.Icon.Critical, title, text, parent=parent)
    copy = box.addButton("&Copy details", QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Close)
    copy.clicked.disconnect()  # an action button would close the box; copying keeps it open
    copy.clicked.connect(lambda: QApplication.clipboard().setText(details))
    box.exec()


def ask(parent: QWidget | None, title: str, question: str, *, default_yes: bool = False) -> bool:
    """A yes/no question; No is the default unless the action is harmless."""
    buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
    default = QMessageBox.StandardButton.Yes if default_yes else QMessageBox.StandardButton.No
    return QMessageBox.question(parent, title, question, buttons, default) == (
        QMessageBox.StandardButton.Yes
    )


def offer_reload(parent: QWidget | None, title: str, text: str) -> bool:
    """A form saved over a record changed meanwhile: True to reload it (the unsaved changes on
    screen are dropped), False to keep them on screen a moment (to copy them first)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=parent)
    reload = box.addButton("&Reload", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("&Keep my changes on screen", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(reload)
    box.exec()
    return box.clickedButton() is reload


def ask_text(parent: QWidget | None, title: str, label: str) -> str | None:
    """A few lines of text (a reason), or None when cancelled."""
    text, ok = QInputDialog.getMultiLineText(parent, title, label)
    return str(text) if ok else None


def choose(
    parent: QWidget | None, title: str, label: str, items: Sequence[str], current: int = 0
) -> str | None:
    """One of `items`, or None when cancelled."""
    text, ok = QInputDialog.getItem(parent, title, label, list(items), current, False)
    return str(text) if ok else None


def choose_file(
    parent: QWidget | None,
    caption: str,
    file_filter: str = "",
    *,
    save: bool = False,
    directory: str = "",
) -> str | None:
    """A path from the native file dialog, or None when cancelled."""
    if save:
        path, _ = QFileDialog.getSaveFileName(parent, caption, directory, file_filter)
    else:
        path, _ = QFileDialog.getOpenFileName(parent, caption, directory, file_filter)
    return path or None


def choose_folder(parent: QWidget | None, caption: str, directory: str = "") -> str | None:
    """A folder from the native folder dialog, or None when cancelled."""
    return QFileDialog.getExistingDirectory(parent, caption, directory) or None


def open_file(path: Path | str) -> bool:
    """Open a file we just wrote (a PDF, a spreadsheet) in the program the system uses for it."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


def show_file(parent: QWidget | None, path: Path | str, title: str) -> None:
    """A document just written: a PDF in the app's own window (to read and print), anything
    else (a workbook) in the program the system uses for it."""
    if Path(path).suffix.lower() == ".pdf":
        show_pdf(parent, Path(path), title)
    else:
        open_file(path)


def show_pdf(parent: QWidget | None, path: Path, title: str) -> None:
    """Show a PDF just written in the app's own window, to read and print (Ctrl+P); the
    computer's PDF viewer when the file cannot be read there."""
    from ui.pdf import PdfError, PdfWindow

    try:
        window = PdfWindow(parent, Path(path), title)
    except PdfError:
        open_file(path)
        return
    window.show()
