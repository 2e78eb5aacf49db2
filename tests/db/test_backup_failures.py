"""A backup that fails (the disk fills up halfway) leaves no empty or partial file that could be
taken for a good backup later, and never removes a file that was there before; the command
line says so in one line with exit 3 (the computer, not the user)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import db.engine
import db.migrate
from db.database import open_database
from db.engine import make_engine, sqlite_backup, sqlite_url
from db.migrate import upgrade
from permitdesk.cli import main
from tests.cli_sign_in import first_administrator, signed

DISK_FULL = "database or disk is full"


class _Connection:
    """A real sqlite3 connection whose online backup fails after its first page, as on a disk
    that fills up while the copy is written (when `fails(target path)`)."""

    def __init__(self, real: sqlite3.Connection, path: str, fails: Callable[[str], bool]):
        self._real, self.path, self._fails = real, path, fails

    def backup(self, target: Any, **kw: Any) -> None:
        real = target._real if isinstance(target, _Connection) else target
        if not self._fails(getattr(target, "path", "")):
            self._real.backup(real, **kw)
            return
        steps = 0

        def progress(_status: int, _remaining: int, _total: int) -> None:
            nonlocal steps
            steps += 1
            if steps > 1:  # a page or more is written before the disk fills
                raise sqlite3.OperationalError(DISK_FULL)

        self._real.backup(real, pages=1, progress=progress)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _Sqlite3:
    """The sqlite3 module as a module under test sees it, with connect() wrapped."""

    def __init__(self, fails: Callable[[str], bool]) -> None:
        self._fails = fails

    def connect(self, database: Any, *args: Any, **kw: Any) -> _Connection:
        return _Connection(sqlite3.connect(database, *args, **kw), str(database), self._fails)

    def __getattr__(self, name: str) -> Any:
        return getattr(sqlite3, name)


def fill_disk_on_backup(
    monkeypatch: pytest.MonkeyPatch, module: ModuleType, fails: Callable[[str], bool]
) -> None:
    """Online backups made by `module` into a file for which `fails(path)` run out of disk."""
    monkeypatch.setattr(module, "sqlite3", _Sqlite3(fails))


def _register(path: Path) -> Path:
    open_database(sqlite_url(path)).close()
    return path


def _left(folder: Path, name: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(name))


def test_a_backup_that_fills_the_disk_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _register(tmp_path / "office.db")
    fill_disk_on_backup(monkeypatch, db.engine, lambda path: True)
    with pytest.raises(sqlite3.OperationalError, match=DISK_FULL):
        sqlite_backup(source, tmp_path / "saved" / "office-monday.db")
    assert list((tmp_path / "saved").iterdir()) == []  # nor a -journal beside it


def test_a_failed_backup_over_an_existing_file_leaves_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _register(tmp_path / "office.db")
    earlier = tmp_path / "office-monday.db"
    sqlite_backup(source, earlier)
    before = earlier.read_bytes()
    fill_disk_on_backup(monkeypatch, db.engine, lambda path: True)
    with pytest.raises(sqlite3.OperationalError, match=DISK_FULL):
        sqlite_backup(source, earlier)
    # SQLite rolled its half-written pages back: Monday's backup is as it was.
    assert earlier.read_bytes() == before


def test_db_backup_on_a_full_disk_is_exit_3_naming_the_file_and_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _register(tmp_path / "office.db")
    first_administrator(source)
    out = tmp_path / "office-monday.db"
    capsys.readouterr()
    fill_disk_on_backup(monkeypatch, db.engine, lambda path: True)
    argv = ["db", "backup", "--db", str(source), "--out", str(out)]
    assert main([*argv, *signed(monkeypatch)]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"permitdesk: error: No space left on device: {out}\n"
    assert _left(tmp_path, "office-monday") == []


def test_the_backup_before_an_upgrade_that_fills_the_disk_is_removed_and_nothing_upgraded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine, "0001")
    fill_disk_on_backup(monkeypatch, db.engine, lambda target: ".before-" in target)
    with pytest.raises(sqlite3.OperationalError, match=DISK_FULL):
        db.migrate.upgrade(engine)
    assert db.migrate.current_revision(engine) == "0001"
    engine.dispose()
    assert _left(tmp_path, "old.") == ["old.db"]
