"""Where the office's files go by default (the register, the logs): platformdirs only, so a
start can name them before SQLAlchemy and the schema are imported."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir, user_log_dir

APP_NAME = "PermitDesk"


def default_sqlite_path() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "permitdesk.db"


def log_dir() -> Path:
    """Where the rotating log goes (permitdesk/logs.py); support asks for these files."""
    return Path(user_log_dir(APP_NAME, appauthor=False))
