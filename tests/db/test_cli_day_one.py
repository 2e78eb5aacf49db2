"""Day one in a real office: --help that says the defaults, a clear line when there is no
display, and a log file for support."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

from desk.services.setup import shipped_profiles
from permitdesk import logs
from permitdesk.cli import main
from ui.presenters.views import PERMIT_TABS, REPORT_PAGES, SECTIONS


def help_of(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines


def test_gui_help_lists_every_view_every_report_and_the_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of("gui", capsys)
    for name in (*SECTIONS, *PERMIT_TABS, "inspections", "treasurer", "bonds", "deposits"):
        assert name in text
    for report in REPORT_PAGES:
        assert report in text
    assert "(default: permits)" in text
    assert "(default: 1280x800)" in text
    assert "default: $PERMITDESK_DATABASE_URL" in text


def test_demo_help_lists_the_municipalities_and_every_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of("demo", capsys)
    for key, profile in shipped_profiles().items():
        assert f"{key} ({profile['name']})" in text
    assert "(default: glendale)" in text
    for option, default in (("--years", "3"), ("--per-year", "400"), ("--seed", "1")):
        assert option in text
        assert f"(default: {default})" in text
    assert "--replace delete an existing SQLite file first (default:" in text


@pytest.fixture
def no_display(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")


@pytest.mark.usefixtures("no_display")
def test_gui_without_a_display_says_so_in_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["gui", "--db", str(tmp_path / "office.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("permitdesk: error: no display: ")
    assert "--screenshot" in err
    assert err.count("\n") == 1
    assert not (tmp_path / "office.db").exists()  # nothing opened


@pytest.fixture
def log_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "logs" / "PermitDesk"
    monkeypatch.setattr("db.places.log_dir", lambda: folder)
    logger = logging.getLogger(logs.LOGGER)
    before = list(logger.handlers)
    yield folder
    for handler in logger.handlers:
        if handler not in before:
            handler.close()
            logger.removeHandler(handler)


def test_configure_logging_writes_records_to_a_rotating_file_in_the_log_folder(
    log_folder: Path,
) -> None:
    path = logs.configure_logging()
    assert path == log_folder / "permitdesk.log"
    assert logs.configure_logging() == path  # a second call adds no second handler
    handlers = [
        h for h in logging.getLogger("permitdesk").handlers if isinstance(h, RotatingFileHandler)
    ]
    assert [Path(h.baseFilename) for h in handlers if Path(h.baseFilename) == path] == [path]
    assert handlers[-1].maxBytes == 1_000_000 and handlers[-1].backupCount == 5

    try:
        raise ValueError("a check for $1,200.00 on a closed day")
    except ValueError:
        logging.getLogger("permitdesk.ui").exception("unexpected error")
    for handler in handlers:
        handler.flush()

    text = path.read_text("utf-8")
    assert "ERROR permitdesk.ui" in text
    assert "ValueError: a check for $1,200.00 on a closed day" in text
    assert "Traceback" in text


def test_logging_nowhere_when_the_log_folder_cannot_be_made(
    log_folder: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", "utf-8")
    assert logs.configure_logging(blocker / "logs") is None
