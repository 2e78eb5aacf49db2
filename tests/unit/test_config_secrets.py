"""A PostgreSQL password is never kept in plain text in the settings file: it goes to a
.pgpass-format file readable by the user alone, and comes back when the URL is read."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from permitdesk import config

URL = "postgresql://clerk:s3cret@db.example:5433/permitdesk"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "PermitDesk" / "settings.toml"
    monkeypatch.setattr(config, "settings_file", lambda: path)
    monkeypatch.delenv("PERMITDESK_DATABASE_URL", raising=False)
    return path


def test_the_settings_file_holds_the_url_without_its_password(settings: Path) -> None:
    config.save_database_url(URL)
    text = settings.read_text("utf-8")
    assert "s3cret" not in text
    assert "clerk@db.example:5433/permitdesk" in text


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_the_pass_file_is_readable_by_the_user_alone_and_holds_a_pgpass_line(
    settings: Path,
) -> None:
    config.save_database_url(URL)
    pass_file = config.pass_file()
    assert pass_file.parent == settings.parent
    assert stat.S_IMODE(os.stat(pass_file).st_mode) == 0o600
    assert pass_file.read_text("utf-8") == "db.example:5433:permitdesk:clerk:s3cret\n"


def test_the_configured_url_has_its_password_back(settings: Path) -> None:
    config.save_database_url(URL)
    assert make_url(config.configured_url() or "") == make_url(URL)
    assert make_url(config.resolve_url(None, None)).password == "s3cret"


def test_colons_and_backslashes_are_escaped_as_libpq_reads_them(settings: Path) -> None:
    url = make_url(URL).set(password="a:b\\c@d/e%f")
    config.save_database_url(url.render_as_string(hide_password=False))
    line = config.pass_file().read_text("utf-8")
    assert line == "db.example:5433:permitdesk:clerk:a\\:b\\\\c@d/e%f\n"
    assert make_url(config.configured_url() or "").password == "a:b\\c@d/e%f"


def test_a_new_password_for_the_same_database_replaces_the_old_line(settings: Path) -> None:
    config.save_database_url(URL)
    config.save_database_url(URL.replace("s3cret", "n3w"))
    other = "postgresql://clerk:other@db2.example/permitdesk"
    config.save_database_url(other)
    lines = config.pass_file().read_text("utf-8").splitlines()
    assert lines == [
        "db.example:5433:permitdesk:clerk:n3w",
        "db2.example:5432:permitdesk:clerk:other",
    ]
    assert make_url(config.configured_url() or "").password == "other"


def test_a_plain_text_password_from_an_older_version_is_moved_on_first_read(
    settings: Path,
) -> None:
    settings.parent.mkdir(parents=True)
    settings.write_text(f'database_url = "{URL}"\n', "utf-8")
    assert make_url(config.configured_url() or "") == make_url(URL)
    assert "s3cret" not in settings.read_text("utf-8")
    assert config.pass_file().read_text("utf-8").endswith(":s3cret\n")
    assert make_url(config.configured_url() or "") == make_url(URL)  # and again, from the file


def test_a_url_without_a_password_writes_no_pass_file(settings: Path) -> None:
    config.save_database_url("postgresql://clerk@db.example/permitdesk")
    assert not config.pass_file().exists()
    assert config.configured_url() == "postgresql://clerk@db.example/permitdesk"
    config.save_database_url("sqlite:////srv/office.db")
    assert not config.pass_file().exists()
    assert config.configured_url() == "sqlite:////srv/office.db"


def test_db_use_never_prints_the_password(
    settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from db.engine import make_engine
    from permitdesk import cli

    class Opened:
        where = make_engine(URL).url.render_as_string(hide_password=True)

        def close(self) -> None:
            pass

    monkeypatch.setattr("db.database.open_database", lambda *a, **k: Opened())
    assert cli.main(["db", "use", "--database-url", URL]) == 0
    out = capsys.readouterr().out
    assert "s3cret" not in out and "db.example" in out
    assert "s3cret" not in settings.read_text("utf-8")
