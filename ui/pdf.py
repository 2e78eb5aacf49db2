"""A PDF seen inside the app and sent to a printer.
QtPdf renders the very file that is saved, so what the inspector sees and prints is what
goes to the Council.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import QPoint, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QKeySequence, QPageLayout, QPageSize, QPainter, QShortcut
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrinterInfo
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.geometry import fit_window

# Pages go to the printer as images; 300 dots per inch is print quality, and a letter page at
# 300 dpi is 2550 x 3300 pixels (about 34 MB), where the printer's 1200 dpi would be 540 MB.
PRINT_DPI = 300


class PdfError(Exception):
    """The file could not be read as a PDF."""


class NoPrinter(Exception):
    """No printer is set up on this computer (Qt's dialog would offer only Print to File)."""


NO_PRINTER = "No printer is set up on this computer"


def load_into(document: QPdfDocument, path: Path) -> None:
    error = document.load(str(path))
    if error != QPdfDocument.Error.None_:
        raise PdfError(f"{path.name} could not be read as a PDF ({error.name})")


class PdfPreview(QWidget):
    """Every page of one PDF, a whole page in view, with the page number and zoom controls.
    Ctrl++ / Ctrl+- zoom, Ctrl+0 shows the whole page again; PgUp/PgDn scroll."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = QPdfDocument(self)
        self.view = QPdfView(self)
        self.view.setObjectName("pdfView")
        self.view.setAccessibleName("Preview of the PDF")
        self.view.setDocument(self.document)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitInView)
        self.view.setPageSpacing(12)
        self.page_label = QLabel(self)
        self.page_label.setObjectName("noteText")
        self.zoom_out = self._button("−", "Zoom out (Ctrl+-)", lambda: self.zoom(1 / 1.25))
        self.zoom_in = self._button("+", "Zoom in (Ctrl++)", lambda: self.zoom(1.25))
        self.fit = self._button("Whole page", "Show the whole page (Ctrl+0)", self.fit_page)
        self.fit_to_width = self._button("Fit width", "Fit the page to the width", self.fit_width)
        for keys, slot in (
            (QKeySequence.StandardKey.ZoomIn, lambda: self.zoom(1.25)),
            (QKeySequence.StandardKey.ZoomOut, lambda: self.zoom(1 / 1.25)),
            (QKeySequence("Ctrl+0"), self.fit_page),
        ):
            shortcut = QShortcut(keys, self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self.view.pageNavigator().currentPageChanged.connect(self._show_page_number)
        self.document.statusChanged.connect(self._show_page_number)

        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.page_label)
        bar.addStretch(1)
        bar.addWidget(self.zoom_out)
        bar.addWidget(self.zoom_in)
        bar.addWidget(self.fit)
        bar.addWidget(self.fit_to_width)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self._show_page_number()

    def _button(self, text: str, tip: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAccessibleName(tip.split(" (")[0])
        button.clicked.connect(slot)
        return button

    @property
    def page_count(self) -> int:
        return self.document.pageCount()

    def show_pdf(self, path: Path) -> None:
        """Show the file from its first page, the whole page in view."""
        self.document.close()
        load_into(self.document, path)
        self.fit_page()
        self.view.pageNavigator().jump(0, QPointF(0, 0))
        self._show_page_number()

    def clear(self) -> None:
        self.document.close()
        self._show_page_number()

    def text_of_page(self, page: int) -> str:
        """The text QtPdf reads on a page (what the preview shows, for tests)."""
        return self.document.getAllText(page).text()

    def zoom(self, factor: float) -> None:
        current = self.view.zoomFactor()
        if self.view.zoomMode() != QPdfView.ZoomMode.Custom:
            # Start from the factor that fitting had reached.
            current = self._fitted_factor()
            self.view.setZoomMode(QPdfView.ZoomMode.Custom)
        self.view.setZoomFactor(max(0.25, min(4.0, current * factor)))

    def fit_page(self) -> None:
        self.view.setZoomMode(QPdfView.ZoomMode.FitInView)

    def fit_width(self) -> None:
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)

    def _fitted_factor(self) -> float:
        if self.page_count == 0:
            return 1.0
        page = self.document.pagePointSize(0)
        margins = self.view.documentMargins()
        room = self.view.viewport().size()
        dpi = self.logicalDpiX() or 96
        wide = (room.width() - margins.left() - margins.right()) / (page.width() * dpi / 72)
        if self.view.zoomMode() == QPdfView.ZoomMode.FitToWidth:
            return max(0.25, wide)
        high = (room.height() - margins.top() - margins.bottom()) / (page.height() * dpi / 72)
        return max(0.25, min(wide, high))

    def _show_page_number(self, *_: object) -> None:
        count = self.page_count
        if count == 0:
            self.page_label.setText("")
        else:
            page = self.view.pageNavigator().currentPage() + 1
            self.page_label.setText(f"Page {page} of {count}")
        for button in (self.zoom_in, self.zoom_out, self.fit, self.fit_to_width):
            button.setEnabled(count > 0)


def letter_printer(name: str, *, landscape: bool = False) -> QPrinter:
    """A printer set to US Letter, portrait unless the document is landscape: the office's
    paper, whatever the system's locale says (Qt's default is A4 in many)."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(name)
    printer.setPageSize(QPageSize(QPageSize.PageSizeId.Letter))
    printer.setPageOrientation(
        QPageLayout.Orientation.Landscape if landscape else QPageLayout.Orientation.Portrait
    )
    return printer


def choose_printer(parent: QWidget | None, printer: QPrinter, pages: int) -> bool:
    """The system's print dialog (printer, copies, page range); False when cancelled. Tests patch
    this to print into a PDF file. Raises NoPrinter when no printer is set up: the dialog would
    offer only Print to File, on its own paper size."""
    if not QPrinterInfo.availablePrinters():
        raise NoPrinter(NO_PRINTER)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle("Print")
    dialog.setMinMax(1, pages)
    dialog.setOption(QPrintDialog.PrintDialogOption.PrintPageRange, True)
    return dialog.exec() == QPrintDialog.DialogCode.Accepted


def print_pdf(parent: QWidget | None, path: Path) -> int:
    """Print the PDF's pages through the print dialog. Returns the number of pages sent (0 when
    the dialog was cancelled, or when no printer is set up: then the filed PDF is opened in the
    system's viewer and the user told where it is). Raises PdfError when the file cannot be
    read."""
    document = QPdfDocument()
    try:
        load_into(document, path)
        pages = document.pageCount()
        first_page = document.pagePointSize(0)
        printer = letter_printer(path.stem, landscape=first_page.width() > first_page.height())
        printer.setFromTo(1, pages)
        try:
            chosen = choose_printer(parent, printer, pages)
        except NoPrinter:
            open_instead(parent, path)
            return 0
        if not chosen:
            return 0
        first, last = printer.fromPage(), printer.toPage()
        if first == 0 and last == 0:  # "all pages"
            first, last = 1, pages
        first, last = max(1, first), min(pages, last)
        return _paint_pages(document, printer, range(first - 1, last))
    finally:
        document.close()


def open_instead(parent: QWidget | None, path: Path) -> None:
    """No printer: the filed PDF opened in the system's viewer (it prints from there, or it is
    carried to a computer that has a printer), and the user told where it is filed."""
    from ui import dialogs

    opened = dialogs.open_file(path)
    tail = "opened." if opened else "no program on this computer opens it."
    dialogs.inform(parent, "Print", f"{NO_PRINTER}; the PDF is filed at {path} and {tail}")


def _paint_pages(document: QPdfDocument, printer: QPrinter, pages: range) -> int:
    painter = QPainter()
    if not painter.begin(printer):
        raise PdfError("the printer could not be started")
    sent = 0
    try:
        area = printer.pageLayout().paintRectPixels(printer.resolution())
        area.moveTo(0, 0)
        for number, page in enumerate(pages):
            if number:
                printer.newPage()
            points = document.pagePointSize(page)
            # The page fitted into the printable area, its shape kept.
            scale = min(area.width() / points.width(), area.height() / points.height())
            target = QSize(round(points.width() * scale), round(points.height() * scale))
            dpi = min(printer.resolution(), PRINT_DPI)
            pixels = QSize(round(points.width() * dpi / 72), round(points.height() * dpi / 72))
            image = document.render(page, pixels)
            painter.drawImage(QRect(QPoint(0, 0), target), image)
            sent += 1
    finally:
        painter.end()
    return sent


class PdfWindow(QDialog):
    """A document just written (a receipt, a permit card, a notice), shown in the app with Print
    (Ctrl+P, and Enter: the default), Save as… (a copy where the user says; the original stays
    filed), Open in the PDF viewer and Close (Esc). Not modal: the counter keeps working."""

    # The windows open: Python keeps a window without a parent alive until it is closed.
    showing: ClassVar[set[PdfWindow]] = set()

    def __init__(self, parent: QWidget | None, path: Path, title: str) -> None:
        super().__init__(parent)
        self.path = path
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.preview = PdfPreview(self)
        self.preview.show_pdf(path)  # PdfError: no window
        PdfWindow.showing.add(self)
        self.finished.connect(lambda _result: PdfWindow.showing.discard(self))
        self.status = QLabel(self)
        self.status.setObjectName("noteText")
        self.print_button = QPushButton("&Print…", self)
        self.print_button.setDefault(True)
        self.print_button.setToolTip("Ctrl+P")
        self.print_button.clicked.connect(self.print_document)
        self.save_button = QPushButton("Save &as…", self)
        self.save_button.setAutoDefault(False)
        self.save_button.clicked.connect(self.save_as)
        self.open_button = QPushButton("&Open in PDF viewer", self)
        self.open_button.setAutoDefault(False)
        self.open_button.clicked.connect(self.open_outside)
        close = QPushButton("Close", self)
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        QShortcut(QKeySequence.StandardKey.Print, self).activated.connect(self.print_document)
        buttons = QHBoxLayout()
        # Where the file is filed: a long path is cut on the left rather than widening the
        # window past a small screen.
        where = QLabel(self)
        where.setToolTip(str(path))
        where.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        where.setText(where.fontMetrics().elidedText(str(path), Qt.TextElideMode.ElideLeft, 420))
        buttons.addWidget(where, 1)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.open_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        fit_window(self, "pdf_preview", (760, 900))

    def print_document(self) -> int:
        try:
            sent = print_pdf(self, self.path)
        except PdfError as e:
            self.status.setText(f"Not printed: {e}.")
            return 0
        if sent:
            self.status.setText(f"Sent {sent} page{'s' if sent != 1 else ''} to the printer.")
        return sent

    def save_as(self) -> Path | None:
        """A copy where the user chooses (the filed one stays); None when cancelled or failed."""
        from ui import dialogs

        chosen = dialogs.choose_file(
            self,
            "Save a copy as PDF",
            "PDF files (*.pdf)",
            save=True,
            directory=str(Path.home() / self.path.name),
        )
        if not chosen:
            return None
        target = Path(chosen)
        if target.suffix.lower() != ".pdf":
            target = target.with_suffix(".pdf")
        try:
            shutil.copyfile(self.path, target)
        except OSError as e:
            self.status.setText(f"Not saved to {target}: {e.strerror or e}.")
            return None
        self.status.setText(f"Saved a copy to {target}.")
        return target

    def open_outside(self) -> None:
        from ui import dialogs

        if not dialogs.open_file(self.path):
            self.status.setText(f"No program on this computer opens {self.path.name}.")
