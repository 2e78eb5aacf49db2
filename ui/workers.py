"""Long work off the UI thread: a QRunnable that reports through a QObject's signals."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from db.engine import DatabaseError
from desk.errors import DeskError

Progress = Callable[[int, int], None]


class WorkerSignals(QObject):
    progress = Signal(int, int)  # done, total
    finished = Signal(object)  # the function's result
    failed = Signal(str)  # a message a clerk can read


class Worker(QRunnable):
    """Runs `fn(progress)` in the global thread pool; never touches widgets itself."""

    def __init__(self, fn: Callable[[Progress], Any]) -> None:
        super().__init__()
        self.fn = fn
        self.signals = WorkerSignals()

    def run(self) -> None:
        try:
            result = self.fn(self.signals.progress.emit)
        except (DeskError, DatabaseError) as e:
            self.signals.failed.emit(str(e))
        except Exception as e:  # a bug: say what happened instead of dying silently
            traceback.print_exc()
            self.signals.failed.emit(f"{type(e).__name__}: {e}")
        else:
            self.signals.finished.emit(result)


def start(worker: Worker) -> None:
    QThreadPool.globalInstance().start(worker)
