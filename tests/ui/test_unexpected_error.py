"""An error nobody foresaw, raised in a slot: a calm dialog naming the log file (never SQL or a
traceback on screen), the traceback in the log, and the window still working afterwards."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from permitdesk.logs import LOGGER, configure_logging
from ui import app, dialogs
from ui.main_window import MainWindow


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(
        dialogs, "unexpected", lambda _p, _t, text, details: seen.append((text, details))
    )
    return seen


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The app's log in a folder of the test's own (other tests may have configured one)."""
    logger = logging.getLogger(LOGGER)
    monkeypatch.setattr(logger, "handlers", [])
    path = configure_logging(tmp_path / "logs")
    assert path is not None
    yield path
    for handler in logger.handlers:
        handler.close()


def _raise_in_slot(error: BaseException) -> None:
    try:
        raise error
    except BaseException as e:
        app._excepthook(type(e), e, e.__traceback__)


def test_an_unexpected_error_is_a_calm_sentence_and_the_traceback_is_in_the_log(
    main_window: MainWindow, shown: list[tuple[str, str]], log: Path
) -> None:
    _raise_in_slot(RuntimeError("UPDATE payment SET amount=? WHERE id=? failed"))
    assert len(shown) == 1
    text, details = shown[0]
    assert text.startswith("Something went wrong, and what you were doing may not have been saved")
    assert text.endswith(f"The details are in the log: {log}")
    assert "UPDATE" not in text and "Traceback" not in text
    assert details.startswith("RuntimeError: UPDATE payment") and str(log) in details
    logged = log.read_text("utf-8")
    assert "Traceback (most recent call last)" in logged and "UPDATE payment" in logged
    main_window.permits_view.load()  # the window still works
    assert main_window.permits_view.model.rowCount() > 0


def test_a_lost_connection_says_so(shown: list[tuple[str, str]], log: Path) -> None:
    lost = OperationalError("SELECT 1", {}, Exception("server closed the connection"))
    lost.connection_invalidated = True
    _raise_in_slot(lost)
    assert shown[0][0].startswith("The connection to the database was lost. What you were doing")
