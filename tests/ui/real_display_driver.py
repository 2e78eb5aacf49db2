"""Drives the real `permitdesk gui` on an X display (run by test_real_display.py under
xvfb-run): signs in as the demo's admin, waits for the main window, checks the platform and
closes it. Exit 0 when all of that happened; otherwise a line on stderr and another code."""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog, QWidget

import ui.app
from permitdesk.cli import main
from ui.login import LoginDialog
from ui.main_window import MainWindow

DEADLINE_S = 60
state: dict[str, object] = {"signed_in": False, "platform": "", "main_window": False}
started = time.monotonic()
timers: list[QTimer] = []


def give_up(message: str, code: int) -> None:
    print(f"real_display_driver: {message}", file=sys.stderr, flush=True)
    os._exit(code)  # a modal dialog would keep the event loop from ever returning


def tick() -> None:
    try:
        visible: list[QWidget] = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
        for widget in visible:
            if isinstance(widget, MainWindow):
                state["main_window"] = True
                state["platform"] = QGuiApplication.platformName()
                widget.close()  # the last window: the application quits
                return
        for widget in visible:
            if isinstance(widget, LoginDialog) and not state["signed_in"]:
                widget.username_edit.setText("admin")
                widget.password_edit.setText("permitdesk")
                state["signed_in"] = True
                widget.sign_in_button.click()
                return
        for widget in visible:
            if isinstance(widget, QDialog) and not isinstance(widget, LoginDialog):
                give_up(f"unexpected dialog {widget.windowTitle()!r}", 3)
        if time.monotonic() - started > DEADLINE_S:
            give_up(f"no main window after {DEADLINE_S} s", 4)
    except Exception as e:  # any failure ends the run with its reason
        give_up(f"{type(e).__name__}: {e}", 5)


original_application = ui.app.application


def application() -> QApplication:
    """The app's own QApplication, plus the timer that plays the user."""
    app = original_application()
    if not timers:
        timer = QTimer(app)
        timer.setInterval(200)
        timer.timeout.connect(tick)
        timer.start()
        timers.append(timer)
    return app


ui.app.application = application  # run_gui and _interactive look it up at call time

if __name__ == "__main__":
    code = main(["gui", "--db", sys.argv[1]])
    print(f"platform={state['platform']} main_window={state['main_window']} exit={code}")
    if code != 0:
        sys.exit(code)
    if not state["main_window"]:
        give_up("the app quit before its main window showed", 6)
    if state["platform"] != "xcb":
        give_up(f"platform {state['platform']!r}, not xcb", 7)
    sys.exit(0)
