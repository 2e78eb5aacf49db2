"""What the import windows (File → Import parcels…, Import contractors…) share: the work run off
the UI thread with a progress bar and Cancel (Esc), the error said once in the window, and a
window that cannot be closed under the work (Cancel first: the register stays as it was)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QWidget,
)

from ui.presenters.import_jobs import CANCELLED, Job, Jobs
from ui.views.common import error_label, note_label
from ui.workers import Worker, start

CANCELLED_TEXT = "Cancelled: nothing was changed."


def button(parent: QWidget, text: str, name: str) -> QPushButton:
    b = QPushButton(text, parent)
    b.setObjectName(name)
    b.setAutoDefault(False)
    return b


class ImportWorkDialog(QDialog):
    """A window whose presenter (`presenter`, a Jobs) tells it jobs to run. Subclasses lay out
    `error`, `outcome` and `work_row` where they want them, and say which buttons the state
    allows (`_buttons`) and where the focus goes after the work (`_after_work`)."""

    presenter: Jobs

    def _work_widgets(self) -> None:
        self._worker: Worker | None = None
        self._on_done: Callable[[Any], None] | None = None
        self._on_failed: Callable[[], None] | None = None
        self.error = error_label(self)
        self.outcome = note_label(self)  # "Cancelled: nothing was changed." / the result
        self.outcome.setObjectName("sectionTitle")
        self.outcome.setVisible(False)
        self.work_row = QWidget(self)
        self.status = QLabel(self.work_row)
        self.status.setObjectName("noteText")
        self.progress = QProgressBar(self.work_row)
        self.progress.setObjectName("importProgress")
        self.progress.setFixedWidth(260)
        self.progress.setFormat("%v of %m")
        self.cancel_button = button(self.work_row, "Cancel", "cancelWork")
        self.cancel_button.clicked.connect(self.cancel)
        work = QHBoxLayout(self.work_row)
        work.setContentsMargins(0, 0, 0, 0)
        work.addWidget(self.status, 1)
        work.addWidget(self.progress)
        work.addWidget(self.cancel_button)
        self.work_row.setVisible(False)

    # --- what the subclass says ----------------------------------------------------------------

    def _buttons(self) -> None:
        raise NotImplementedError

    def _after_work(self) -> None:
        """Where the focus goes when the work ended without its result (cancelled, failed)."""
        raise NotImplementedError

    def _cancelled(self, result: Any) -> bool:
        """Whether the job's result says it was cancelled (nothing written)."""
        return isinstance(result, str) and result == CANCELLED

    def _say(self, text: str) -> None:
        """The error: one sentence, shown once (never also in a message box)."""
        self.error.setText(text)
        self.error.setVisible(bool(text))

    # --- the work off the UI thread ------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return bool(self.presenter.running)

    def _run(
        self,
        doing: str,
        job: Job,
        done: Callable[[Any], None],
        failed: Callable[[], None] | None = None,
    ) -> None:
        self.presenter.start(doing)
        self._on_done, self._on_failed = done, failed
        self._say("")
        self.outcome.setVisible(False)
        self.status.setText(doing)
        self.progress.setRange(0, 0)  # busy until the first count comes
        self.work_row.setVisible(True)
        self._buttons()
        self.cancel_button.setFocus()
        worker = Worker(job)
        worker.signals.progress.connect(self._progress)
        worker.signals.finished.connect(self._finished)
        worker.signals.failed.connect(self._failed)
        self._worker = worker
        start(worker)

    def _progress(self, done: int, total: int) -> None:
        if total > 0:  # the bar says "50 of 124"
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
        else:
            self.status.setText(f"{self.presenter.running} {done:,} rows")

    def _stop(self) -> None:
        self.presenter.stopped()
        self._worker = None
        self.work_row.setVisible(False)
        self._buttons()

    def _finished(self, result: Any) -> None:
        done, self._on_done, self._on_failed = self._on_done, None, None
        self._stop()
        if self._cancelled(result):
            self.outcome.setText(CANCELLED_TEXT)
            self.outcome.setVisible(True)
            self._after_work()
            return
        if done is not None:
            done(result)

    def _failed(self, message: str) -> None:
        failed, self._on_done, self._on_failed = self._on_failed, None, None
        self._stop()
        if failed is not None:
            failed()
        self._say(message)
        self._after_work()

    def cancel(self) -> None:
        """Cancel (Esc) the work under way: it stops at the next chunk, nothing written."""
        if self.presenter.running:
            self.presenter.cancel.set()
            self.status.setText("Cancelling…")

    # --- closing -------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.presenter.running:
            self.cancel()  # Esc cancels the work; the window stays to say so
            event.accept()
            return
        super().keyPressEvent(event)

    def reject(self) -> None:
        if self.presenter.running:
            self.cancel()
            return
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.presenter.running:
            self.cancel()  # the work stops first; the register stays as it was
            event.ignore()
            return
        super().closeEvent(event)
