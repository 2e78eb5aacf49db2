"""The one QApplication and the start frame: what a start shows before the data layer and the
sections are imported (SQLAlchemy, the schema, reportlab and every section take most of a
start; a person sees the window at once and the sign-in follows). Imports only PySide6."""

from __future__ import annotations

import sys
import time
from importlib import resources

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from ui.style import use_desk_style

ORGANIZATION = "PermitDesk"
APPLICATION = "PermitDesk"
APP_TITLE = "Permit Desk"
OPENING = "Opening the register…"


def stylesheet() -> str:
    try:
        return resources.files("resources").joinpath("style.qss").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return ""


def application() -> QApplication:
    """The one QApplication (reused when one exists, as in tests), styled."""
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "permitdesk"])
    assert isinstance(app, QApplication)
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    # No display name: Qt appends it to every window title unless the title ends with it, and
    # "Permit Desk — City of Glendale" would read "… — Permit Desk" twice over.
    app.setApplicationDisplayName("")
    # The same calm look on Windows and Linux; the stylesheet adds colour. Set only when it
    # changes: setting either again re-polishes every widget that exists.
    use_desk_style(app)
    sheet = stylesheet()
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
    return app


def process_events(app: QApplication, rounds: int = 3) -> None:
    for _ in range(rounds):
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)


def settle(app: QApplication, seconds: float) -> None:
    """Keep handling events for `seconds`: work other threads post back (rendered pages)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.02)


class StartFrame(QWidget):
    """The app's name and "Opening the register…", centred, while the rest loads; it closes
    when the first dialog (sign-in, first run, an error) or the main window takes over."""

    def __init__(self) -> None:
        super().__init__(None, Qt.WindowType.Window)
        self.setObjectName("startFrame")
        self.setWindowTitle(APP_TITLE)
        self.setAccessibleName(APP_TITLE)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 36, 48, 36)
        title = QLabel(APP_TITLE, self)
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status = QLabel(OPENING, self)
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addStretch(1)
        layout.addWidget(title)
        layout.addWidget(self.status)
        layout.addStretch(1)
        self.resize(420, 220)


def show_start_frame() -> StartFrame:
    """The QApplication made, the start frame shown and painted (before anything heavier is
    imported)."""
    app = application()
    frame = StartFrame()
    frame.show()
    process_events(app, 2)
    return frame
