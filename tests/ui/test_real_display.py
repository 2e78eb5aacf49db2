"""The real app on a real X server (Xvfb) with Qt's xcb platform plugin: a Linux desktop
missing one of the libxcb libraries fails here instead of at an office's first start."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120


def test_the_app_starts_on_an_x_display_signs_in_and_closes(tmp_path: Path) -> None:
    xvfb_run = shutil.which("xvfb-run")
    if xvfb_run is None:
        if os.environ.get("CI") == "true":
            pytest.fail("xvfb-run is missing: `make sysdeps` installs xvfb and xauth")
        pytest.skip("xvfb-run is not installed (Debian: xvfb, xauth)")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"
    # The app's settings, data and log folders: the test's own, never the user's.
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env.pop("PERMITDESK_DATABASE_URL", None)
    db = tmp_path / "demo.db"
    demo = ["demo", "--db", str(db), "--years", "1", "--per-year", "5"]
    made = subprocess.run(
        [sys.executable, "-m", "permitdesk", *demo],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert made.returncode == 0, made.stderr

    run = subprocess.run(
        [
            xvfb_run,
            "-a",
            "-s",
            "-screen 0 1280x1024x24",
            sys.executable,
            "-m",
            "tests.ui.real_display_driver",
            str(db),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert "platform=xcb main_window=True exit=0" in run.stdout
