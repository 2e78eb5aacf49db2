"""The backup rules without a register: which automatic backups go, when one is overdue, what a
municipality's settings say when they were never set."""

from __future__ import annotations

from datetime import UTC, date, datetime

from desk.domain.backups import (
    DEFAULT_KEEP,
    LastBackup,
    backup_name,
    backup_settings,
    made_today,
    overdue,
    to_delete,
)


def _last(day: date, checked: bool = True) -> LastBackup:
    return LastBackup(datetime(2026, 12, 1, 16, tzinfo=UTC), day, "/b/x", 10, checked)


def test_only_this_register_s_oldest_automatic_backups_are_named_for_deletion() -> None:
    names = [
        "permitdesk.auto-20261201-080000.bak.db",
        "permitdesk.auto-20261203-080000.bak.db",
        "permitdesk.auto-20261203-080000-2.bak.db",  # a second one in the same second
        "permitdesk.auto-20261202-080000.bak.db",
        "permitdesk.auto-20261130-080000.bak.db.anchor",
        "permitdesk.backup-20261101-080000.bak.db",
        "office.auto-20261101-080000.bak.db",
        "permitdesk.auto-20261101-080000.bak.db.old",
        "Budget 2027.xlsx",
    ]
    assert to_delete(names, "permitdesk", ".db", 2) == [
        "permitdesk.auto-20261202-080000.bak.db",
        "permitdesk.auto-20261201-080000.bak.db",
    ]
    assert to_delete(names, "permitdesk", ".db", 14) == []
    assert backup_name("permitdesk", ".dump", datetime(2026, 12, 3, 8, 15), automatic=True) == (
        "permitdesk.auto-20261203-081500.bak.dump"
    )


def test_a_backup_is_overdue_after_the_days_set_and_a_failed_one_never_counts() -> None:
    today = date(2026, 12, 3)
    assert overdue(None, today, 2)
    assert not overdue(_last(date(2026, 12, 1)), today, 2)  # two days old
    assert overdue(_last(date(2026, 11, 30)), today, 2)
    assert overdue(_last(today, checked=False), today, 2)
    assert made_today(_last(today), today)
    assert not made_today(_last(today, checked=False), today)
    assert not made_today(_last(date(2026, 12, 2)), today)


def test_settings_never_set_or_not_understood_are_the_defaults() -> None:
    assert backup_settings({}).keep == DEFAULT_KEEP
    odd = backup_settings({"backups": {"keep": True, "overdue_days": "3", "last": {"at": 1}}})
    assert (odd.keep, odd.overdue_days, odd.last) == (DEFAULT_KEEP, 2, None)
    record = _last(date(2026, 12, 1))
    assert backup_settings({"backups": {"last": record.to_json()}}).last == record
