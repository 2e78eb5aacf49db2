"""Where the database is: --database-url, --db, $PERMITDESK_DATABASE_URL, the settings file, or
the default SQLite file in the user's data folder."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from platformdirs import user_config_dir

from db.engine import APP_NAME, default_sqlite_path, sqlite_url


def settings_file() -> Path:
    return Path(user_config_dir(APP_NAME, appauthor=False)) / "settings.toml"


def configured_url() -> str | None:
    path = settings_file()
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    url = data.get("database_url")
    return url if isinstance(url, str) and url else None


def save_database_url(url: str) -> None:
    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    escaped = url.replace("\\", "\\\\").replace('"', '\\"')
    path.write_text(f'database_url = "{escaped}"\n', "utf-8")


def resolve_url(db_path: str | None, database_url: str | None) -> str:
    if database_url:
        return database_url
    if db_path:
        return sqlite_url(db_path)
    env = os.environ.get("PERMITDESK_DATABASE_URL")
    if env:
        return env
    return configured_url() or sqlite_url(default_sqlite_path())
