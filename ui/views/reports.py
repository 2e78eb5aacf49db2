"""The Reports section: the monthly and annual reports, Form C-404, the Act 211
filings and the BLDS export. Choose a report and its period, see when it is due, Make report
(Ctrl+Return) — the work runs in the thread pool on its own database connection, with a
progress bar and Cancel (Esc) — then read the PDF itself in the preview, and Save as Excel, Save
as PDF, Print (Ctrl+P) or Open.
"""

from __future__ import annotations

import calendar
import shutil
import tempfile
import threading
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from db.database import Database
from desk.clock import Clock
from desk.domain.kinds import kinds_for
from desk.domain.reports import report_citations
from desk.errors import DeskError, ValidationError
from ui import dialogs, focus
from ui.presenters.reports import (
    FIRST_YEAR,
    Cancelled,
    ReportOutput,
    ReportsPresenter,
    SqlReportSource,
    record_filing,
    run_report,
    suggested_name,
)
from ui.presenters.session import Session
from ui.views.common import date_edit, from_qdate, to_qdate
from ui.workers import Worker, start

if TYPE_CHECKING:
    from ui.pdf import PdfPreview

SECTION_TITLE = "Reports"
KEY_ROLE = Qt.ItemDataRole.UserRole
NOT_OFFERED_COLOR = "#8a939c"  # the style sheet sets the items' colour: greyed by hand


def choose_folder(parent: QWidget, caption: str) -> str | None:
    """A folder from the native dialog, or None (tests patch this)."""
    return QFileDialog.getExistingDirectory(parent, caption) or None


class ReportsView(QWidget):
    finished = Signal(object)  # the ReportOutput, for tests and the status bar

    def __init__(
        self, database: Database, session: Session, clock: Clock, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reportsView")
        self.database = database
        self.session = session
        self.clock = clock
        # Code enforcement only (no permit kinds, e.g. Hudson): the permit reports are not offered.
        self.presenter = ReportsPresenter(
            clock.today,
            bool(kinds_for(session.municipality_key)),
            session.municipality_name,
            report_citations(session.municipality_key),
        )
        self.source = SqlReportSource(database, session.municipality_id)
        self._workdir = tempfile.TemporaryDirectory(prefix="permitdesk-reports-")
        self._cancel = threading.Event()
        self._worker: Worker | None = None

        heading = QLabel("Reports", self)
        heading.setObjectName("viewHeading")
        self.list = QListWidget(self)
        self.list.setObjectName("reportList")
        self.list.setAccessibleName("Reports")
        self.list.setMinimumWidth(180)
        self.list.setMaximumWidth(290)
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        greyed = False
        for key, label in self.presenter.choices:
            item = QListWidgetItem(f"{label}\n{self.presenter.due_line(key)}")
            item.setData(KEY_ROLE, key)
            why = self.presenter.not_offered(key)
            item.setToolTip(why or label)
            if why:  # shown greyed with the reason, never chosen
                greyed = True
                item.setFlags(
                    item.flags() & ~Qt.ItemFlag.ItemIsEnabled & ~Qt.ItemFlag.ItemIsSelectable
                )
            self.list.addItem(item)
        if greyed:  # resources/style.qss colours every item alike
            self.list.setStyleSheet(
                f"QListWidget#reportList::item:disabled {{ color: {NOT_OFFERED_COLOR}; }}"
            )
        self.list.currentRowChanged.connect(self._chosen)

        self.title = QLabel(self)
        self.title.setObjectName("reportTitle")
        self.month = QComboBox(self)
        self.month.setObjectName("reportMonth")
        self.month.addItems([calendar.month_name[m] for m in range(1, 13)])
        self.month_label = QLabel("&Month", self)
        self.month_label.setBuddy(self.month)
        self.year = QSpinBox(self)
        self.year.setObjectName("reportYear")
        self.year.setRange(FIRST_YEAR, clock.today().year)
        self.year_label = QLabel("&Year", self)
        self.year_label.setBuddy(self.year)
        self.whole_year = QCheckBox("&Whole year", self)
        self.register = QCheckBox("Include the &register of every permit issued", self)
        self.register.setChecked(True)
        self.due = QLabel(self)
        self.due.setObjectName("reportDue")
        self.due.setWordWrap(True)
        self.error = QLabel(self)
        self.error.setObjectName("errorText")
        self.error.setWordWrap(True)
        self.error.hide()

        self.make_button = QPushButton("&Make report", self)
        self.make_button.setObjectName("makeReport")
        self.make_button.setDefault(True)
        self.make_button.setToolTip("Ctrl+Return")
        self.progress = QProgressBar(self)
        self.progress.setObjectName("reportProgress")
        self.progress.setTextVisible(False)
        self.progress.setFixedWidth(160)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Esc")
        self.cancel_button.hide()
        self.save_xlsx = QPushButton("Save as &Excel…", self)
        self.save_pdf = QPushButton("Save as &PDF…", self)
        self.print_button = QPushButton("Pr&int…", self)
        self.print_button.setObjectName("printReport")
        self.print_button.setToolTip("Print the report (Ctrl+P)")
        self.open_button = QPushButton("&Open", self)
        self.open_button.setToolTip("Open the PDF in the system's PDF viewer")
        self.filing_button = QPushButton("Record &filing…", self)
        self.filing_button.setToolTip(
            "Record the day a new dwelling permit was filed with the state (Act 211)"
        )
        self.status = QLabel(self)
        self.status.setObjectName("countLabel")
        self.status.setWordWrap(True)
        # The preview: the PDF itself, or words (before a report is made, and for the BLDS
        # files, which have no PDF).
        self.words = QTextBrowser(self)
        self.words.setObjectName("reportWords")
        self.words.setOpenLinks(False)
        self.words.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # QtPdf is loaded with the first report made, not at start-up.
        self.pdf_preview: PdfPreview | None = None
        self.preview_stack = QStackedWidget(self)
        self.preview_stack.addWidget(self.words)
        page = QFrame(self)
        page.setObjectName("previewPage")
        page_layout = QVBoxLayout(page)
        page_layout.setContentsMargins(12, 12, 12, 12)
        page_layout.addWidget(self.preview_stack, 1)

        self.make_button.clicked.connect(self.make)
        self.cancel_button.clicked.connect(self.cancel)
        self.save_xlsx.clicked.connect(lambda: self.save(".xlsx"))
        self.save_pdf.clicked.connect(lambda: self.save(".pdf"))
        self.print_button.clicked.connect(self.print_report)
        self.open_button.clicked.connect(self.open_pdf)
        self.filing_button.clicked.connect(self.record_filing)
        self.month.currentIndexChanged.connect(self._period_changed)
        self.year.valueChanged.connect(self._period_changed)
        self.whole_year.toggled.connect(self._period_changed)
        self.register.toggled.connect(self._period_changed)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self).activated.connect(self.make)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(self.cancel)
        # Ctrl+P is the main window's File ▸ Print (print_current): a second one would clash.

        period = QHBoxLayout()
        period.addWidget(self.month_label)
        period.addWidget(self.month)
        period.addSpacing(12)
        period.addWidget(self.year_label)
        period.addWidget(self.year)
        period.addSpacing(12)
        period.addWidget(self.whole_year)
        period.addStretch(1)
        actions = QHBoxLayout()
        actions.addWidget(self.make_button)
        actions.addWidget(self.progress)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.filing_button)
        actions.addStretch(1)
        files = QHBoxLayout()
        files.addWidget(self.save_xlsx)
        files.addWidget(self.save_pdf)
        files.addWidget(self.print_button)
        files.addWidget(self.open_button)
        files.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.title)
        right.addLayout(period)
        right.addWidget(self.register)
        right.addWidget(self.due)
        right.addWidget(self.error)
        right.addLayout(actions)
        right.addLayout(files)
        right.addWidget(self.status)
        right.addWidget(page, 1)
        body = QHBoxLayout()
        body.addWidget(self.list)
        body.addSpacing(12)
        body.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(heading)
        layout.addLayout(body, 1)
        self.setTabOrder(self.list, self.month)
        self.setTabOrder(self.month, self.year)
        self.setTabOrder(self.year, self.make_button)
        self.list.setCurrentRow(0)
        self._refresh()

    # --- state -> widgets -----------------------------------------------------------

    def _refresh(self) -> None:
        p = self.presenter
        self.title.setText(p.title)
        widgets: tuple[QWidget, ...] = (self.month, self.month_label)
        for w in widgets:
            w.setVisible(p.uses_month)
        widgets = (self.year, self.year_label)
        for w in widgets:
            w.setVisible(p.uses_year)
        self.whole_year.setVisible(p.offers_whole_year)
        self.register.setVisible(p.offers_register)
        self._set_quietly(p)
        self.due.setText(p.due_text)
        ready = p.output is not None and not p.running
        files = ready and p.output is not None and p.output.pdf is not None
        for button in (self.save_xlsx, self.save_pdf):
            button.setEnabled(files)
            button.setVisible(p.makes_files)
        self.print_button.setEnabled(files)
        self.print_button.setVisible(p.makes_files)
        self.open_button.setText("&Open" if p.makes_files else "&Open folder")
        self.open_button.setEnabled(ready)
        self.make_button.setText("&Make report" if p.makes_files else "&Export to a folder…")
        self.make_button.setEnabled(not p.running)
        self.filing_button.setVisible(p.key == "act211")
        self.filing_button.setEnabled(not p.running)
        self.list.setEnabled(not p.running)
        self.progress.setVisible(p.running)
        self.cancel_button.setVisible(p.running)
        self.status.setText(p.status)
        if p.output is None and not p.running:
            if self.pdf_preview is not None:
                self.pdf_preview.clear()
            self.words.setHtml(
                "<p style='color:#5d6873'>The report appears here, page by page, once it is "
                "made.</p>"
            )
            self.preview_stack.setCurrentWidget(self.words)

    def _set_quietly(self, p: ReportsPresenter) -> None:
        for w in (self.month, self.year, self.whole_year, self.register):
            w.blockSignals(True)
        self.month.setCurrentIndex(p.month - 1)
        self.year.setValue(p.year)
        self.whole_year.setChecked(p.whole_year)
        self.register.setChecked(p.include_register)
        for w in (self.month, self.year, self.whole_year, self.register):
            w.blockSignals(False)

    def _chosen(self, row: int) -> None:
        item = self.list.item(row)
        if item is None:
            return
        try:
            self.presenter.choose(str(item.data(KEY_ROLE)))
        except ValidationError as e:  # a report not offered here (no permit kinds)
            self._refresh()
            self._set_error(e.message)
            return
        self._set_error("")
        self._refresh()

    def _period_changed(self) -> None:
        p = self.presenter
        p.month = self.month.currentIndex() + 1
        p.year = self.year.value()
        p.whole_year = self.whole_year.isChecked()
        p.include_register = self.register.isChecked()
        p.output = None
        self._set_error("")
        self._refresh()

    def _set_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def select(self, key: str) -> None:
        """Show the report `key`; one not offered here stays unchosen, its reason shown."""
        why = self.presenter.not_offered(key)
        if why:
            self._set_error(why)
            return
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item is not None and item.data(KEY_ROLE) == key:
                self.list.setCurrentRow(row)
                return
        raise KeyError(key)

    # --- the work -------------------------------------------------------------------

    def _job(self, blds_folder: Path | None) -> Any:
        request = self.presenter.request()
        today = self.clock.today()
        workdir = Path(self._workdir.name)
        cancel = self._cancel

        def job(progress: Any) -> ReportOutput | None:
            try:
                return run_report(
                    request, self.source, workdir, today, progress, cancel, blds_folder=blds_folder
                )
            except Cancelled:
                return None

        return job

    def _prepare(self) -> Any | None:
        """The job for the request on screen, or None (a message under the period says why)."""
        if self.presenter.running:
            return None
        folder: Path | None = None
        try:
            self.presenter.request()
        except ValidationError as e:
            self._set_error(f"{e.field.capitalize()}: {e.message}")
            (self.month if e.field == "month" else self.year).setFocus()
            return None
        if not self.presenter.makes_files:
            chosen = choose_folder(self, "Export the BLDS files to the folder")
            if chosen is None:
                return None
            folder = Path(chosen)
        self._set_error("")
        self._cancel.clear()
        return self._job(folder)

    def make(self) -> None:
        """Make the report in the thread pool."""
        job = self._prepare()
        if job is None:
            return
        self.presenter.running = True
        self.presenter.output = None
        self.progress.setRange(0, 3)
        self.progress.setValue(0)
        self._refresh()
        worker = Worker(job)
        worker.signals.progress.connect(self._progress)
        worker.signals.finished.connect(self._done)
        worker.signals.failed.connect(self._failed)
        self._worker = worker
        start(worker)

    def make_now(self) -> ReportOutput | None:
        """Make the report in this thread (screenshots and tests)."""
        job = self._prepare()
        if job is None:
            return None
        self.presenter.running = True
        self._refresh()
        try:
            result = job(lambda done, total: None)
        except DeskError as e:
            self._failed(str(e))
            return None
        self._done(result)
        return self.presenter.output

    def cancel(self) -> None:
        if self.presenter.running:
            self._cancel.set()
            self.status.setText("Cancelling…")

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _done(self, output: ReportOutput | None) -> None:
        p = self.presenter
        p.running = False
        self._worker = None
        p.output = output
        self._refresh()
        if output is None:
            self.status.setText("Cancelled: nothing was written.")
            return
        self._show(output)
        self.finished.emit(output)

    def _show(self, output: ReportOutput) -> None:
        if output.pdf is None:
            self.words.setHtml(output.preview_html)
            self.preview_stack.setCurrentWidget(self.words)
            return
        from ui.pdf import PdfError, PdfPreview

        if self.pdf_preview is None:
            self.pdf_preview = PdfPreview(self)
            self.pdf_preview.setObjectName("reportPreview")
            self.preview_stack.addWidget(self.pdf_preview)
        try:
            self.pdf_preview.show_pdf(output.pdf)
        except PdfError as e:
            self.words.setHtml(f"<p>The preview cannot be shown: {e}.</p>")
            self.preview_stack.setCurrentWidget(self.words)
            return
        self.preview_stack.setCurrentWidget(self.pdf_preview)

    def _failed(self, message: str) -> None:
        self.presenter.running = False
        self._worker = None
        self._refresh()
        self.status.setText("")
        self._set_error(f"The report could not be made: {message}")

    # --- the files ------------------------------------------------------------------

    def save(self, suffix: str) -> Path | None:
        out = self.presenter.output
        if out is None:
            return None
        source = out.xlsx if suffix == ".xlsx" else out.pdf
        if source is None:
            return None
        what = "Excel workbook (*.xlsx)" if suffix == ".xlsx" else "PDF (*.pdf)"
        name = suggested_name(self.presenter.request(), suffix)
        path = dialogs.choose_file(
            self, "Save the report as", what, save=True, directory=str(Path.home() / name)
        )
        if path is None:
            return None
        target = Path(path)
        if target.suffix.lower() != suffix:
            target = target.with_suffix(suffix)
        try:
            shutil.copyfile(source, target)
        except OSError as e:
            dialogs.warn(self, "Save the report", f"Cannot write {target}: {e.strerror or e}")
            return None
        self.status.setText(f"Saved {target}")
        return target

    def print_current(self) -> bool:
        """Ctrl+P (File ▸ Print): the report made, straight to the print dialog."""
        out = self.presenter.output
        if out is None or out.pdf is None or self.presenter.running:
            return False
        self.print_report()
        return True

    def print_report(self) -> int:
        """File a copy of the PDF in the document folder (Reports), then print it through the
        print dialog; the number of pages sent (0 if cancelled)."""
        out = self.presenter.output
        if out is None or out.pdf is None or self.presenter.running:
            return 0
        from ui.exports import REPORTS, file_pdf
        from ui.pdf import PdfError, print_pdf

        source = out.pdf
        name = suggested_name(self.presenter.request(), ".pdf")
        filed = file_pdf(self, "Print", name, lambda path: shutil.copyfile(source, path), REPORTS)
        try:
            sent = print_pdf(self, filed or source)
        except PdfError as e:
            dialogs.warn(self, "Print", f"The report could not be printed: {e}.")
            return 0
        if sent:
            self.status.setText(f"Sent {sent} page{'s' if sent != 1 else ''} to the printer.")
        return sent

    def open_pdf(self) -> None:
        out = self.presenter.output
        if out is None:
            return
        target = out.pdf if out.pdf is not None else out.folder
        if target is not None and not dialogs.open_file(target):
            dialogs.warn(self, "Open", f"No program on this computer opens {target}.")

    # --- Act 211 -------------------------------------------------------------------

    def record_filing(self) -> str | None:
        """Ask for the permit and the day it was filed with the state; record it and make the
        report again. Returns the words shown (None when cancelled)."""
        dialog = FilingDialog(self, self.clock.today())
        while dialog.exec() == QDialog.DialogCode.Accepted:
            try:
                words = record_filing(
                    self.database,
                    self.clock,
                    self.session.actor,
                    self.session.municipality_id,
                    dialog.number.text(),
                    from_qdate(dialog.filed.date()),
                    dialog.reference.text(),
                )
            except DeskError as e:
                dialog.show_error(e)
                continue
            if self.presenter.output is not None:
                self.make_now()
            self.status.setText(words)
            return words
        return None


class FilingDialog(QDialog):
    """Permit number, the day filed with the state, and the state's reference (optional)."""

    def __init__(self, parent: QWidget, today: date) -> None:
        super().__init__(parent)
        self.setWindowTitle("Record the Act 211 filing")
        self.number = QLineEdit(self)
        self.number.setObjectName("filingPermit")
        self.number.setPlaceholderText("e.g. 2026-0412")
        self.filed = date_edit(self, "filingDate")
        self.filed.setDate(to_qdate(today))
        self.reference = QLineEdit(self)
        self.reference.setMaxLength(80)
        self.error = QLabel(self)
        self.error.setObjectName("errorText")
        self.error.setWordWrap(True)
        self.error.hide()
        form = QFormLayout()
        form.addRow("&Permit", self.number)
        form.addRow("&Filed with the state on", self.filed)
        form.addRow("State &reference", self.reference)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        focus.install(self)

    def show_error(self, error: DeskError) -> None:
        """Said once under the form, the field named in words; the cursor goes to it."""
        focus.show_error(self, self.error, error)
