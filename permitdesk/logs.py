"""The log file support asks for: tracebacks go here, the user sees one sentence."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

LOGGER = "permitdesk"
LOG_FILE = "permitdesk.log"
MAX_BYTES = 1_000_000
BACKUPS = 5
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d]: %(message)s"


def configure_logging(folder: Path | None = None) -> Path | None:
    """Attach a rotating file handler to the "permitdesk" logger; return the file, or None
    when the folder cannot be made (then the app logs nowhere rather than failing to start)."""
    from db.places import log_dir

    logger = logging.getLogger(LOGGER)
    path = (folder or log_dir()) / LOG_FILE
    for handler in logger.handlers:
        if isinstance(handler, RotatingFileHandler) and Path(handler.baseFilename) == path:
            return path  # main() called twice in one process (tests): one handler
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(logging.INFO)
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)
    return path


def log_file() -> Path | None:
    """The file the "permitdesk" logger writes to, once configure_logging has run."""
    for handler in logging.getLogger(LOGGER).handlers:
        if isinstance(handler, RotatingFileHandler):
            return Path(handler.baseFilename)
    return None
