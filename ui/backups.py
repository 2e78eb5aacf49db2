"""File → Back up now…, and the automatic backup on the first start of each day.

Both write the register to the backup folder the administrator chose on the Municipality screen
(a second disk or a share; a Backups folder beside the register when none is chosen) with the
code `permitdesk db backup` uses (db/backups.py), check the copy once written, add its audit trail
anchor to the office's anchors file, and remember the backup in the municipality's settings so
that every workstation knows the last one (Needs attention, About Permit Desk). The automatic
backup runs in the thread pool after the window shows, once a day for the whole register, and
keeps the newest N automatic backups of the folder (deleting only its own older ones)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from db import backups
from db.audit_anchors import backup_anchor_path
from db.database import Database
from db.engine import DatabaseError, sqlite_file
from desk.clock import Clock
from desk.domain.backups import LastBackup, made_today
from desk.domain.model import Actor
from desk.services import municipality as municipality_service
from ui import settings
from ui.anchors import record_anchor
from ui.presenters.formatting import format_timestamp
from ui.workers import Progress, Worker, start

TITLE = "Back up now"
WAIT_ON_QUIT = 300.0  # seconds a quitting window waits for its backup to finish
DEFAULT_FOLDER = "Backups"


def default_folder(database: Database) -> Path:
    """Where backups go when the administrator chose no folder: beside an SQLite register;
    for PostgreSQL in this computer's document folder."""
    path = sqlite_file(database.engine)
    base = path.parent if path is not None else settings.document_folder()
    return base / DEFAULT_FOLDER


@dataclass(frozen=True)
class BackupOutcome:
    path: Path
    size: int
    problem: str | None  # what the check after writing found; None: sound
    automatic: bool = False
    notes: tuple[str, ...] = ()  # the anchors file or the record that could not be written
    pruned: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def text(self) -> str:
        if not self.ok:
            lines = [
                f"The backup {self.path} was written but did NOT check out: {self.problem}.",
                "Do not rely on it: run File → Back up now… again, and if it fails again, "
                "Administration → Check the register.",
            ]
        else:
            lines = [
                f"The register was backed up to {self.path} ({self.size:,} bytes).",
                "It was opened again and checked: it is sound.",
                f"Its audit trail anchor is beside it in {backup_anchor_path(self.path).name}.",
            ]
        if self.pruned:
            lines.append(f"{len(self.pruned)} older automatic backup(s) were deleted.")
        return "\n".join([*lines, *self.notes])

    def status(self) -> str:
        """One line for the status bar (the automatic backup)."""
        if not self.ok:
            return f"The automatic backup {self.path} did NOT check out: {self.problem}"
        return f"Backed up automatically to {self.path} (checked)."


def run_backup(
    database: Database,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    *,
    automatic: bool = False,
    _progress: Progress | None = None,
) -> BackupOutcome | None:
    """Qt-free (it runs in a worker thread). None when automatic and a backup that checked out
    was already made today, on any workstation."""
    own, last = municipality_service.backup_state(database.uow(), municipality_id)
    if automatic and made_today(last, clock.today()):
        return None
    folder = Path(own.folder).expanduser() if own.folder else default_folder(database)
    stem, suffix = backups.stem_and_suffix(database.engine)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        out = backups.target(folder, stem, suffix, clock.now().astimezone(), automatic=automatic)
        written = backups.back_up(database.engine, out, clock)
    except OSError as e:
        raise DatabaseError(
            f"the backup could not be written to {folder} ({e.strerror or e}); check that the "
            "folder is there (a disk plugged in, a share connected) and has room"
        ) from e
    notes: list[str] = []
    if written.anchor is not None:
        note = record_anchor(written.anchor)  # the office's anchors file, as the CLI's --anchors
        if note:
            notes.append(note)
    record = LastBackup(
        at=clock.now(),
        day=clock.today(),
        where=str(written.path),
        size=written.size,
        checked=written.problem is None,
        automatic=automatic,
        by=actor.username,
    )
    if database.read_only:
        notes.append("This copy of the register is open read-only: the backup is not recorded.")
    else:
        municipality_service.record_backup(database.uow(), clock, actor, municipality_id, record)
    pruned: list[Path] = []
    if automatic and written.problem is None:  # a bad new one never costs a good old one
        try:
            pruned = backups.prune(folder, stem, suffix, own.keep)
        except OSError as e:
            notes.append(f"Older automatic backups could not be deleted ({e.strerror or e}).")
    return BackupOutcome(
        written.path, written.size, written.problem, automatic, tuple(notes), tuple(pruned)
    )


def last_backup_text(database: Database) -> str:
    """For About Permit Desk: '12/03/2026 8:15 AM, <file>', or 'none yet'."""
    try:
        last = municipality_service.last_backup(database.uow())
    except Exception:  # a server gone away must not stop the About box
        return "unknown (the register cannot be read)"
    return describe_last(last)


def describe_last(last: LastBackup | None) -> str:
    if last is None:
        return "none yet"
    checked = "" if last.checked else " — it did NOT check out"
    return f"{format_timestamp(last.at)}, {last.where}{checked}"


class BackupDialog(QDialog):
    """The backup running (a busy bar), then where it is and whether it checked out."""

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self.setObjectName("backupDialog")
        self.outcome: BackupOutcome | None = None
        self.failure = ""
        self.busy = True
        self.status = QLabel("Backing up the register…", self)
        self.status.setObjectName("backupStatus")
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy: the copy has no count to show
        self.result_label = QLabel(self)
        self.result_label.setObjectName("backupResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_label.setVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(self.result_label, 1)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def finished_with(self, outcome: BackupOutcome | None) -> None:
        self.busy = False
        assert outcome is not None  # Back up now always backs up
        self.outcome = outcome
        self.status.setText(
            "Backed up and checked." if outcome.ok else "The backup did NOT check out."
        )
        self._show(outcome.text())

    def failed_with(self, message: str) -> None:
        self.busy = False
        self.failure = message
        self.status.setText("No backup was made.")
        self._show(message[:1].upper() + message[1:])

    def _show(self, text: str) -> None:
        self.progress.setVisible(False)
        self.result_label.setText(text)
        self.result_label.setVisible(True)
        self.adjustSize()  # every line in sight

    def reject(self) -> None:
        if self.busy:
            return  # the copy finishes on its own; closing mid-way would hide its outcome
        super().reject()


class BackupActions(QObject):
    """The window's backups: File → Back up now… and the automatic one after signing in."""

    def __init__(
        self,
        window: QMainWindow,
        database: Database,
        actor: Actor,
        municipality_id: int,
        clock: Clock,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.database = database
        self.actor = actor
        self.municipality_id = municipality_id
        self.clock = clock
        self.automatic_outcome: BackupOutcome | None = None
        self.automatic_failure = ""
        self.automatic_done = False
        self._workers: list[Worker] = []  # kept until they report
        self._running: list[threading.Event] = []  # set when each backup's work has ended

    def _worker(self, automatic: bool) -> Worker:
        database, clock, actor, mid = self.database, self.clock, self.actor, self.municipality_id
        ended = threading.Event()
        self._running.append(ended)

        def work(progress: Progress) -> BackupOutcome | None:
            try:
                return run_backup(
                    database, clock, actor, mid, automatic=automatic, _progress=progress
                )
            finally:
                ended.set()

        worker = Worker(work)
        self._workers.append(worker)
        worker.signals.finished.connect(lambda _r: self._workers.remove(worker))
        worker.signals.failed.connect(lambda _m: self._workers.remove(worker))
        return worker

    def wait(self, seconds: float = WAIT_ON_QUIT) -> bool:
        """Let a backup still running finish before the register is closed (quitting right
        after signing in): stopped half-way, the copy would be lost. False when one is still
        running after `seconds` (a share that stopped answering)."""
        return all(ended.wait(seconds) for ended in self._running)

    def back_up_now(self) -> BackupDialog:
        """File → Back up now…: in the thread pool, the dialog showing it is busy, then where the
        backup is and that it checked out."""
        dialog = BackupDialog(self.window)
        worker = self._worker(automatic=False)
        worker.signals.finished.connect(dialog.finished_with)
        worker.signals.failed.connect(dialog.failed_with)
        worker.signals.finished.connect(lambda _r: self._refresh_home())
        dialog.open()
        start(worker)
        return dialog

    def start_automatic(self) -> Worker | None:
        """The day's automatic backup, in the background (after the first screen shows); nothing
        when one was made today already or the register is open read-only."""
        if self.database.read_only:
            return None
        worker = self._worker(automatic=True)
        worker.signals.finished.connect(self._automatic_finished)
        worker.signals.failed.connect(self._automatic_failed)
        start(worker)
        return worker

    def _automatic_finished(self, outcome: BackupOutcome | None) -> None:
        self.automatic_done = True
        self.automatic_outcome = outcome
        if outcome is not None:
            self.window.statusBar().showMessage(outcome.status(), 60_000)
            self._refresh_home()

    def _automatic_failed(self, message: str) -> None:
        self.automatic_done = True
        self.automatic_failure = message
        # Not a dialog over the first screen: the status bar, and Needs attention says the last
        # backup is old until one is made.
        self.window.statusBar().showMessage(f"No automatic backup today: {message}", 60_000)

    def _refresh_home(self) -> None:
        home = getattr(self.window, "home_view", None)
        current = getattr(self.window, "_current_section", None)
        if home is not None and current is not None and current() is home:
            home.load()
