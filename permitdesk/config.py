"""Where the database is: --database-url, --db, $PERMITDESK_DATABASE_URL, the settings file, or
the default SQLite file in the user's data folder."""

from __future__ import annotations

import logging
import os
import tomllib
from pathlib import Path

from platformdirs import user_config_dir
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from db.engine import sqlite_url
from db.places import APP_NAME, default_sqlite_path


def settings_file() -> Path:
    return Path(user_config_dir(APP_NAME, appauthor=False)) / "settings.toml"


def pass_file() -> Path:
    """The PostgreSQL password, in libpq's .pgpass format, beside the settings (mode 0600):
    the settings file never holds it."""
    return settings_file().with_name("pgpass.conf")


def _stored_url() -> str | None:
    path = settings_file()
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    url = data.get("database_url")
    return url if isinstance(url, str) and url else None


def _parse(url: str) -> URL | None:
    try:
        return make_url(url)
    except ArgumentError:
        return None


def configured_url() -> str | None:
    """The saved database URL, with its password put back from the pass file."""
    url = _stored_url()
    parsed = _parse(url) if url else None
    if url is None or parsed is None:
        return url
    if parsed.password:
        # Saved by an older Permit Desk in plain text: move the password out now.
        try:
            save_database_url(url)
        except OSError:
            logging.getLogger(__name__).warning("could not move the database password")
        return url
    if parsed.get_backend_name() != "postgresql":
        return url
    password = _find_password(parsed)
    if password is None:
        return url  # libpq may still find one in the user's own .pgpass
    return parsed.set(password=password).render_as_string(hide_password=False)


def save_database_url(url: str) -> None:
    """Save the database to open; a password goes to pass_file(), not the settings."""
    parsed = _parse(url)
    if parsed is not None and parsed.password:
        _save_password(parsed, str(parsed.password))
        # URL.set(password=None) leaves the password as it is; _replace clears it.
        url = parsed._replace(password=None).render_as_string(hide_password=False)
    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    escaped = url.replace("\\", "\\\\").replace('"', '\\"')
    path.write_text(f'database_url = "{escaped}"\n', "utf-8")


def _pgpass_key(url: URL) -> tuple[str, str, str, str]:
    # libpq's defaults: a local socket matches "localhost", the database defaults to the user.
    user = url.username or ""
    return (url.host or "localhost", str(url.port or 5432), url.database or user, user)


def _pgpass_escape(field: str) -> str:
    return field.replace("\\", "\\\\").replace(":", "\\:")


def _pgpass_fields(line: str) -> list[str]:
    """A .pgpass line's fields, unescaped (a backslash escapes the next character)."""
    fields: list[str] = []
    current: list[str] = []
    chars = iter(line)
    for ch in chars:
        if ch == "\\":
            current.append(next(chars, ""))
        elif ch == ":" and len(fields) < 4:
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
    fields.append("".join(current))
    return fields


def _pgpass_lines() -> list[str]:
    try:
        return pass_file().read_text("utf-8").splitlines()
    except OSError:
        return []


def _find_password(url: URL) -> str | None:
    key = _pgpass_key(url)
    for line in _pgpass_lines():
        fields = _pgpass_fields(line)
        if line.startswith("#") or len(fields) != 5:
            continue
        if all(f in ("*", k) for f, k in zip(fields[:4], key, strict=True)):
            return fields[4]
    return None


def _save_password(url: URL, password: str) -> None:
    """Write the password line for `url` (replacing an older one) into a new file created 0600,
    so it is never readable by others, even for a moment; then put it in place."""
    key = _pgpass_key(url)
    kept = [
        line
        for line in _pgpass_lines()
        if line.startswith("#") or tuple(_pgpass_fields(line)[:4]) != key
    ]
    kept.append(":".join(_pgpass_escape(f) for f in (*key, password)))
    path = pass_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(kept) + "\n")
    os.replace(tmp, path)


def resolve_url(db_path: str | None, database_url: str | None) -> str:
    if database_url:
        return database_url
    if db_path:
        return sqlite_url(db_path)
    env = os.environ.get("PERMITDESK_DATABASE_URL")
    if env:
        return env
    return configured_url() or sqlite_url(default_sqlite_path())
