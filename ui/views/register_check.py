"""Administration → Check the register…: what `permitdesk db check` finds (the file's integrity,
the numbered series, the audit trail's hash chain, money rows and users against the audit
trail), and the audit trail against the office's anchors file (ui/anchors.py), run off the UI
thread (seconds on a large register), the outcome shown to copy or print."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from db.audit_anchors import AnchorFileError, anchor_problems, read_anchors
from db.database import Database
from desk.domain.enums import Role
from desk.domain.model import Actor
from ui.anchors import anchors_path
from ui.geometry import fit_window
from ui.workers import Progress, Worker, start

TITLE = "Check the register"


def may_check(actor: Actor) -> bool:
    """Administrators only: the outcome names users' powers and every discrepancy."""
    return Role.ADMINISTRATOR in actor.roles


@dataclass(frozen=True)
class RegisterCheck:
    problems: list[str]
    anchors: str  # what was compared with the anchors file, in words

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        if self.ok:
            return (
                "OK: the register is sound. Its audit trail follows from row to row, every money "
                "row and every user agrees with it, and " + self.anchors
            )
        lines = [f"{len(self.problems)} problem(s) found:", ""]
        lines += [f"• {p}" for p in self.problems]
        if self.anchors:
            lines += ["", self.anchors[:1].upper() + self.anchors[1:]]
        return "\n".join(lines)


def run_check(
    database: Database, anchors_file: Path, _progress: Progress | None = None
) -> RegisterCheck:
    """The check itself, Qt-free (it runs in a worker thread)."""
    from db.migrate import check

    problems = check(database.engine)
    if not anchors_file.exists():
        note = (
            f"there is no anchors file yet at {anchors_file}: one is started at the next daily "
            "close or turnover."
        )
        return RegisterCheck(problems, note)
    try:
        anchors = read_anchors(anchors_file)
    except AnchorFileError as e:
        return RegisterCheck([*problems, f"the anchors file cannot be used: {e}"], "")
    except OSError as e:
        reason = e.strerror or str(e)
        return RegisterCheck(
            [*problems, f"the anchors file {anchors_file} cannot be read ({reason})"], ""
        )
    with database.read() as conn:
        found = anchor_problems(conn, anchors)
    if anchors:
        last = max(anchors, key=lambda a: a.taken_at)
        note = (
            f"the audit trail was compared with the {len(anchors):,} "
            f"anchor{'' if len(anchors) == 1 else 's'} of {anchors_file} "
            f"(the last {last.when.removeprefix('the anchor of ')})."
        )
    else:
        note = f"the anchors file {anchors_file} holds no anchor yet."
    return RegisterCheck([*problems, *found], note)


class RegisterCheckDialog(QDialog):
    def __init__(self, database: Database, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self.setObjectName("registerCheck")
        fit_window(self, "register_check", (720, 460))
        self.database = database
        self.anchors_file = anchors_path()
        self.outcome: RegisterCheck | None = None
        self._worker: Worker | None = None
        heading = QLabel(TITLE, self)
        heading.setObjectName("sectionTitle")
        about = QLabel(
            "The register's file, its numbered series and its audit trail; every money row and "
            "every user's roles against the audit trail; and the audit trail against the anchors "
            f"printed on the daily closes and turnovers and kept in {self.anchors_file}.",
            self,
        )
        about.setWordWrap(True)
        about.setObjectName("noteText")
        self.status = QLabel("Checking the register…", self)
        self.status.setObjectName("checkStatus")
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy: the check has no count to show
        self.output = QPlainTextEdit(self)
        self.output.setObjectName("checkResult")
        self.output.setReadOnly(True)
        self.output.setVisible(False)
        buttons = QDialogButtonBox(self)
        self.copy_button = QPushButton("&Copy", self)
        self.copy_button.setObjectName("copyCheck")
        self.copy_button.clicked.connect(self.copy)
        self.print_button = QPushButton("&Print…", self)
        self.print_button.setObjectName("printCheck")
        self.print_button.clicked.connect(self.print_result)
        for b in (self.copy_button, self.print_button):
            b.setEnabled(False)
            b.setAutoDefault(False)
            buttons.addButton(b, QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(about)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(self.output, 1)
        layout.addWidget(buttons)

    def start(self) -> None:
        """Run the check in the thread pool; the outcome replaces the busy bar."""
        database, path = self.database, self.anchors_file
        worker = Worker(lambda progress: run_check(database, path, progress))
        worker.signals.finished.connect(self._finished)
        worker.signals.failed.connect(self._failed)
        self._worker = worker
        start(worker)

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def _finished(self, result: RegisterCheck) -> None:
        self._worker = None
        self.outcome = result
        self.status.setText(
            "OK: nothing wrong was found." if result.ok else "Problems were found: see below."
        )
        self._show(result.text())

    def _failed(self, message: str) -> None:
        self._worker = None
        self.status.setText("The check could not be finished.")
        self._show(f"The check could not be finished: {message}")

    def _show(self, text: str) -> None:
        self.progress.setVisible(False)
        self.output.setPlainText(text)
        self.output.setVisible(True)
        self.copy_button.setEnabled(True)
        self.print_button.setEnabled(True)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.output.toPlainText())

    def print_result(self) -> bool:
        """Through the system's print dialog (ui.pdf.choose_printer, which tests patch)."""
        from ui import dialogs
        from ui.pdf import NO_PRINTER, NoPrinter, choose_printer, letter_printer

        printer = letter_printer(TITLE)
        try:
            if not choose_printer(self, printer, 1):
                return False
        except NoPrinter:
            dialogs.inform(self, TITLE, f"{NO_PRINTER}; copy the result instead (Copy).")
            return False
        self.output.document().print_(printer)
        return True

    def reject(self) -> None:
        if self.busy:
            return  # the check reads only; it ends on its own in a moment
        super().reject()
