"""A start shows its frame before the data layer and the sections are imported: the person
sees Permit Desk at once, the sign-in follows when the register is open."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from permitdesk.cli import main
from ui.application import OPENING, StartFrame, show_start_frame

PROBE = """
import json, sys
from permitdesk.cli import main
code = main(["gui", "--start-frame", sys.argv[1]])
heavy = ["sqlalchemy", "db.schema", "db.engine", "reportlab", "ui.main_window", "desk.services"]
print(json.dumps({"code": code, "loaded": [m for m in heavy if m in sys.modules]}))
"""


def test_the_start_frame_is_painted_before_sqlalchemy_or_any_section_is_imported(
    tmp_path: Path,
) -> None:
    out = tmp_path / "frame.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"code": 0, "loaded": []}
    image = QImage(str(out))
    assert (image.width(), image.height()) == (420, 220)


def test_the_frame_says_the_register_is_opening(qtbot: object) -> None:
    frame = show_start_frame()
    try:
        assert isinstance(frame, StartFrame) and frame.isVisible()
        assert frame.windowTitle() == "Permit Desk"
        assert frame.status.text() == OPENING
    finally:
        frame.close()
        frame.deleteLater()


def test_a_bad_output_path_is_one_line_naming_it(tmp_path: Path, capsys: object) -> None:
    missing = tmp_path / "no such folder" / "frame.png"
    assert main(["gui", "--start-frame", str(missing)]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert str(missing) in err and err.count("\n") == 1
