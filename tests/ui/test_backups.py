"""Backups from the window: File → Back up now… writes the register to the administrator's backup
folder with its anchor, checks it and says where it is; the automatic backup of the day's first
start runs once a day and keeps the newest N of its own files; PostgreSQL goes through pg_dump or
says how to back up the server; Needs attention and About name the last backup."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QMenu, QPushButton
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from db import backups, schema
from db.audit_anchors import backup_anchor_path, file_head, read_anchors
from db.database import Database
from db.engine import make_engine, sqlite_url
from desk.clock import FixedClock
from desk.domain.backups import LastBackup
from desk.domain.model import Actor
from desk.services import municipality as svc
from desk.services import setup, users
from tests.ui.sample import PASSWORD, Sample
from ui import app as gui
from ui.anchors import anchors_path
from ui.app import make_session
from ui.backups import BackupDialog, run_backup
from ui.login import LoginDialog
from ui.main_window import MainWindow
from ui.presenters.formatting import format_timestamp
from ui.views.home import SECTION_TITLE as HOME
from ui.views.municipality import MunicipalityView


def _set(sample: Sample, **changes: object) -> None:
    svc.update_municipality(
        sample.database.uow(), sample.clock, sample.admin, sample.municipality_id, dict(changes)
    )


def _permits(path: Path) -> int:
    engine = make_engine(sqlite_url(path), read_only=True)
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(schema.permit)).scalar_one())
    finally:
        engine.dispose()


def _local(at: datetime) -> str:
    return at.astimezone().strftime("%Y%m%d-%H%M%S")


def _back_up_now(qtbot: QtBot, window: MainWindow) -> BackupDialog:
    dialog = window.backups.back_up_now()
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.busy, timeout=20_000)
    return dialog


def test_back_up_now_writes_a_checked_copy_with_its_anchor_to_the_chosen_folder(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, tmp_path: Path
) -> None:
    folder = tmp_path / "second disk"
    _set(sample, backup_folder=str(folder))
    file_menu = {m.title(): m for m in main_window.menuBar().findChildren(QMenu)}["&File"]
    assert main_window.backup_action in file_menu.actions()
    assert main_window.backup_action.text() == "&Back up now…"

    dialog = _back_up_now(qtbot, main_window)

    outcome = dialog.outcome
    assert outcome is not None and outcome.ok, dialog.result_label.text()
    assert outcome.path.parent == folder
    # The register's name, dated in the workstation's time.
    assert outcome.path.name == f"t.backup-{_local(sample.clock.now())}.bak.db"
    assert dialog.status.text() == "Backed up and checked."
    text = dialog.result_label.text()
    assert f"backed up to {outcome.path}" in text
    assert "checked: it is sound" in text
    # The copy opens as the register, with every permit.
    with sample.database.read() as conn:
        permits = conn.execute(select(func.count()).select_from(schema.permit)).scalar_one()
    assert permits > 0
    assert _permits(outcome.path) == permits
    # Its anchor beside it and in the office's anchors file, as `permitdesk db backup --anchors`.
    assert sorted(p.name for p in folder.iterdir()) == [
        outcome.path.name,
        backup_anchor_path(outcome.path).name,
    ]  # one file and its anchor: no -wal or -shm left by the check
    anchor_file = backup_anchor_path(outcome.path)
    assert anchor_file.read_text().strip() == file_head(outcome.path, sample.clock).line()
    assert read_anchors(anchors_path())[-1].line() == file_head(outcome.path, sample.clock).line()
    # Every workstation knows it: the register remembers it, and About names it.
    _own, last = svc.backup_state(sample.database.uow(), sample.municipality_id)
    assert last is not None and last.checked and last.where == str(outcome.path)
    assert last.size == outcome.path.stat().st_size and last.by == "admin"
    about = main_window.help_menu.about_dialog()
    qtbot.addWidget(about)
    assert about.values["Last backup"].text().startswith(format_timestamp(sample.clock.now()))
    assert str(outcome.path) in about.values["Last backup"].text()


def test_a_backup_that_fails_its_check_says_so_and_is_not_counted(
    qtbot: QtBot,
    main_window: MainWindow,
    sample: Sample,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _set(sample, backup_folder=str(tmp_path / "b"))
    monkeypatch.setattr(backups, "check_sqlite_backup", lambda _p: "*** in database main ***")

    dialog = _back_up_now(qtbot, main_window)

    assert dialog.outcome is not None and not dialog.outcome.ok
    assert dialog.status.text() == "The backup did NOT check out."
    assert "did NOT check out: *** in database main ***" in dialog.result_label.text()
    # Not a backup made today: the automatic one tries again, and Needs attention says so.
    again = run_backup(
        sample.database, sample.clock, sample.admin, sample.municipality_id, automatic=True
    )
    assert again is not None
    main_window.show_section(HOME)
    backup = next(g for g in main_window.home_view.groups if g.key == "backup")
    assert backup.count == 1  # the retry failed too (the check is still patched)
    assert backup.items[0].what == "Last backup 03/02/2026 — it did not check out"


def test_the_automatic_backup_runs_once_a_day_and_keeps_the_newest_of_its_own(
    sample: Sample, tmp_path: Path
) -> None:
    folder = tmp_path / "share"
    folder.mkdir()
    _set(sample, backup_folder=str(folder), backup_keep="3")
    old = [f"t.auto-202601{d:02d}-080000.bak.db" for d in (1, 2, 3)]
    foreign = [
        "notes.txt",
        "t.backup-20260101-080000.bak.db",  # Back up now's and the command line's
        "other.auto-20260101-080000.bak.db",  # another register's
        "t.auto-old.bak.db",  # not the pattern
        "t.db",
    ]
    for name in [*old, *foreign]:
        (folder / name).write_text("x")
    for name in old:
        backup_anchor_path(folder / name).write_text("x")
    clock = FixedClock(datetime(2026, 3, 2, 14, 0, tzinfo=UTC))
    db, admin, mid = sample.database, sample.admin, sample.municipality_id

    first = run_backup(db, clock, admin, mid, automatic=True)
    assert first is not None and first.ok and first.automatic
    assert first.path.name == f"t.auto-{_local(clock.now())}.bak.db"
    clock.advance(timedelta(hours=3))
    assert run_backup(db, clock, admin, mid, automatic=True) is None  # once a day
    clock.advance(timedelta(days=1))
    second = run_backup(db, clock, admin, mid, automatic=True)
    assert second is not None and second.ok
    assert second.path.name == f"t.auto-{_local(clock.now())}.bak.db"

    ours = sorted(p.name for p in folder.glob("t.auto-2*.bak.db"))
    assert ours == [old[2], first.path.name, second.path.name]  # the newest 3
    for name in old[:2]:
        assert not backup_anchor_path(folder / name).exists()
    assert backup_anchor_path(folder / old[2]).exists()
    for name in foreign:
        assert (folder / name).read_text() == "x"  # never touched
    assert len(second.pruned) == 1


def test_the_automatic_backup_runs_in_the_background_after_the_window_shows(
    qtbot: QtBot, main_window: MainWindow, sample: Sample, db_path: Path
) -> None:
    worker = main_window.backups.start_automatic()
    assert worker is not None
    qtbot.waitUntil(lambda: main_window.backups.automatic_done, timeout=20_000)
    outcome = main_window.backups.automatic_outcome
    assert outcome is not None and outcome.ok
    # No folder chosen: a Backups folder beside the register.
    assert outcome.path.parent == db_path.parent / "Backups"
    assert main_window.statusBar().currentMessage() == (
        f"Backed up automatically to {outcome.path} (checked)."
    )
    # The second window of the day (another workstation, or signing in again) makes none.
    main_window.backups.automatic_done = False
    main_window.backups.start_automatic()
    qtbot.waitUntil(lambda: main_window.backups.automatic_done, timeout=20_000)
    assert main_window.backups.automatic_outcome is None
    assert [p.name for p in (db_path.parent / "Backups").glob("*.db")] == [outcome.path.name]


def test_signing_in_backs_up_once_a_day_and_quitting_waits_for_the_backup(
    qtbot: QtBot, sample: Sample, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def sign_in(dialog: LoginDialog) -> int:
        dialog.username_edit.setText("admin")
        dialog.password_edit.setText(PASSWORD)
        dialog.try_sign_in()
        return int(QDialog.DialogCode.Accepted)

    shown: list[str] = []

    def event_loop(_app: QApplication) -> int:  # the user quits at once
        window = next(
            w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
        )
        shown.append(window.current_section_title())  # the first screen, before the backup
        window.close()
        return 0

    monkeypatch.setattr(LoginDialog, "exec", sign_in)
    monkeypatch.setattr(QApplication, "exec", event_loop)
    folder = db_path.parent / "Backups"
    for _day in (1, 2):  # the second start of the day makes none
        assert gui.run_gui(sqlite_url(db_path), None, "permits", (1280, 800), None, "") == 0
        backups_made = sorted(folder.glob("t.auto-*.bak.db"))
        assert len(backups_made) == 1
        assert _permits(backups_made[0]) > 0  # whole: run_gui waited for it to finish
    assert shown == [HOME, HOME]
    last = svc.last_backup(sample.database.uow())
    assert last is not None and last.automatic and last.where == str(backups_made[0])


def _record(sample: Sample, day: date) -> None:
    svc.record_backup(
        sample.database.uow(),
        sample.clock,
        sample.admin,
        sample.municipality_id,
        LastBackup(
            at=datetime(day.year, day.month, day.day, 16, 0, tzinfo=UTC),
            day=day,
            where="/mnt/backup/t.backup-x.bak.db",
            size=1000,
            checked=True,
        ),
    )


def _backup_group(qtbot: QtBot, sample: Sample, who: str, today: date) -> list[str]:
    actor = users.actor_for_username(sample.database.uow(), who)
    window = MainWindow(
        sample.database,
        make_session(sample.database, actor),
        remember_geometry=False,
        clock=FixedClock(today),
    )
    qtbot.addWidget(window)
    window.show_section(HOME)
    window.load()
    groups = {g.key: g for g in window.home_view.groups}
    if "backup" not in groups:
        return ["(not shown)"]
    return [f"{i.what} | {i.why}" for i in groups["backup"].items]


def test_needs_attention_names_an_old_backup_for_the_clerk_and_the_administrator(
    qtbot: QtBot, sample: Sample
) -> None:
    today = date(2026, 12, 3)
    assert _backup_group(qtbot, sample, "carol", today)[0].startswith("No backup yet | ")
    _record(sample, date(2026, 11, 28))
    for who in ("carol", "admin"):
        items = _backup_group(qtbot, sample, who, today)
        assert items == [
            "Last backup 11/28/2026 — older than 2 days | /mnt/backup/t.backup-x.bak.db; "
            "File → Back up now… makes one"
        ]
    _record(sample, date(2026, 12, 1))  # two days: not yet overdue
    assert _backup_group(qtbot, sample, "carol", today) == []
    _set(sample, backup_overdue_days="1")
    assert _backup_group(qtbot, sample, "carol", today)[0].startswith(
        "Last backup 12/01/2026 — older than 1 day"
    )


def _edit(view: MunicipalityView, key: str) -> QLineEdit:
    edit = view.fields[key]
    assert isinstance(edit, QLineEdit)
    return edit


def test_the_municipality_screen_sets_the_backup_folder_and_how_many_are_kept(
    qtbot: QtBot, sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = tmp_path / "usb"
    chosen.mkdir()
    monkeypatch.setattr("ui.dialogs.choose_folder", lambda *_a: str(chosen))
    view = MunicipalityView(
        sample.database, make_session(sample.database, sample.admin), sample.clock
    )
    qtbot.addWidget(view)
    view.show()
    view.load()
    keep = _edit(view, "backup_keep")
    assert keep.text() == "14"
    assert _edit(view, "backup_overdue_days").text() == "2"

    qtbot.mouseClick(view.findChild(QPushButton, "chooseBackupFolder"), Qt.MouseButton.LeftButton)
    assert _edit(view, "backup_folder").text() == str(chosen)
    keep.selectAll()
    qtbot.keyClicks(keep, "30")
    assert view.save(), view.presenter.error

    own, _last = svc.backup_state(sample.database.uow(), sample.municipality_id)
    assert (own.folder, own.keep, own.overdue_days) == (str(chosen), 30, 2)
    keep.selectAll()
    qtbot.keyClicks(keep, "0")
    assert not view.save()
    assert view.presenter.error == "Automatic backups kept: enter 1 to 366 backups"
    assert view.presenter.error_field == "backup_keep"


# --- PostgreSQL ----------------------------------------------------------------------------------


def _pg_register(database: Database) -> tuple[FixedClock, Actor, int]:
    clock = FixedClock(datetime(2026, 3, 2, 15, 0, tzinfo=UTC))
    uow = database.uow()
    admin = users.create_first_administrator(
        uow, clock, "admin", "Alex Administrator", "correct-horse-7"
    )
    mid = setup.ensure_municipality(uow, clock, admin, "glendale")
    return clock, admin, mid


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_postgresql_without_pg_dump_says_how_to_back_up_the_server(
    qtbot: QtBot, database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, admin, mid = _pg_register(database)
    folder = tmp_path / "backups"
    svc.update_municipality(database.uow(), clock, admin, mid, {"backup_folder": str(folder)})
    monkeypatch.setattr(backups.shutil, "which", lambda _name: None)
    window = MainWindow(
        database, make_session(database, admin), remember_geometry=False, clock=clock
    )
    qtbot.addWidget(window)

    dialog = _back_up_now(qtbot, window)

    assert dialog.outcome is None
    assert dialog.status.text() == "No backup was made."
    note = dialog.result_label.text()
    assert note.startswith("This computer has no pg_dump (PostgreSQL's client tools), so")
    assert "README's section 'Sharing the register on PostgreSQL'" in note
    assert not any(folder.iterdir())
    assert svc.last_backup(database.uow()) is None


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="no pg_dump on this computer")
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_postgresql_is_backed_up_with_pg_dump_and_checked(
    database: Database, tmp_path: Path
) -> None:
    clock, admin, mid = _pg_register(database)
    svc.update_municipality(database.uow(), clock, admin, mid, {"backup_folder": str(tmp_path)})

    outcome = run_backup(database, clock, admin, mid)

    assert outcome is not None and outcome.ok, outcome
    assert outcome.path.parent == tmp_path and outcome.path.suffix == ".dump"
    assert outcome.path.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    assert backup_anchor_path(outcome.path).read_text().startswith("permitdesk-anchor 1 ")
    last = svc.last_backup(database.uow())
    assert last is not None and last.checked and last.where == str(outcome.path)


def test_a_backup_changes_no_municipality_so_an_open_municipality_screen_still_saves(
    sample: Sample,
) -> None:
    """The backup is a record of the register (table backup_made), not a change to the
    municipality: the administrator who opened the Municipality screen before File → Back up
    now saves it without being told it was changed meanwhile."""
    uow = sample.database.uow
    shown = svc.municipality_settings(uow(), sample.municipality_id).record_version
    _record(sample, date(2026, 3, 2))
    _record(sample, date(2026, 3, 1))  # recorded late: the newest is still the last
    assert svc.municipality_settings(uow(), sample.municipality_id).record_version == shown
    changed = svc.update_municipality(
        uow(),
        sample.clock,
        sample.admin,
        sample.municipality_id,
        {"inspector_title": "Chief Building Inspector"},
        version=shown,
    )
    assert changed == ("inspector_title",)
    last = svc.last_backup(uow())
    assert last is not None and last.day == date(2026, 3, 2)
    with sample.database.read() as conn:
        a = schema.audit_event
        audited = conn.execute(
            select(func.count()).where(a.c.entity == "backup_made", a.c.action == "create")
        ).scalar_one()
    assert audited == 2  # each backup in the audit trail, by whom and when


def test_a_last_backup_an_earlier_version_kept_in_the_settings_is_still_read(
    sample: Sample,
) -> None:
    """Registers upgraded from before revision 0024 kept the last backup in the municipality's
    settings: it counts until a newer one is made."""
    earlier = LastBackup(
        at=datetime(2026, 2, 27, 16, 0, tzinfo=UTC),
        day=date(2026, 2, 27),
        where="/mnt/backup/t.auto-20260227-160000.bak.db",
        size=1000,
        checked=True,
        automatic=True,
    )
    with sample.database.engine.begin() as conn:
        m = schema.municipality
        settings = conn.execute(
            select(m.c.settings).where(m.c.id == sample.municipality_id)
        ).scalar_one()
        settings = {**(settings or {}), "backups": {"last": earlier.to_json()}}
        conn.execute(m.update().where(m.c.id == sample.municipality_id).values(settings=settings))
    assert svc.last_backup(sample.database.uow()) == earlier
    _record(sample, date(2026, 3, 2))
    last = svc.last_backup(sample.database.uow())
    assert last is not None and last.day == date(2026, 3, 2)
