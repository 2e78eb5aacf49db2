"""Backups of the register, as the administrator sets them on the Municipality screen and as the
last one is remembered for every workstation (File → Back up now…, and the automatic backup on
the first start of each day).

The settings are kept in `Municipality.settings["backups"]`:
  - "folder": where backups go (a second disk or a share); "" for the default folder;
  - "keep": how many automatic backups stay in the folder (older ones of this register's, by
    their own name pattern, are deleted; nothing else ever is);
  - "overdue_days": Needs attention names the last backup when it is older than this.

Each backup made is a row of its own (BackupMade, table backup_made), register-wide: a backup
copies the whole register, every municipality in it, and recording one changes no
municipality. Registers of earlier versions kept the last one in the settings as "last"; it is
still read until a newer backup is made.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from desk.errors import ValidationError

SETTINGS_KEY = "backups"
DEFAULT_KEEP = 14  # two weeks of automatic backups
DEFAULT_OVERDUE_DAYS = 2
MAX_KEEP = 366
MAX_OVERDUE_DAYS = 60
MAX_FOLDER = 1000

LABELS = {
    "backup_folder": "Backup folder",
    "backup_keep": "Automatic backups kept",
    "backup_overdue_days": "Backup overdue after",
}

AUTO_LABEL = "auto"  # in the automatic backups' names: only these are ever deleted
MANUAL_LABEL = "backup"  # as `permitdesk db backup` names its copies (db.migrate.backup_path)
_STAMP = "%Y%m%d-%H%M%S"


@dataclass(frozen=True)
class LastBackup:
    at: datetime  # UTC
    day: date  # the office's calendar date it was made (clock.today())
    where: str  # the file written
    size: int  # bytes
    checked: bool  # opened and checked after writing, and sound
    automatic: bool = False
    by: str = ""  # user name

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "day": self.day.isoformat(),
            "where": self.where,
            "size": self.size,
            "checked": self.checked,
            "automatic": self.automatic,
            "by": self.by,
        }

    @classmethod
    def from_json(cls, raw: Any) -> LastBackup | None:
        """None for anything that is not a record this module wrote."""
        if not isinstance(raw, Mapping):
            return None
        try:
            return cls(
                at=datetime.fromisoformat(str(raw["at"])),
                day=date.fromisoformat(str(raw["day"])),
                where=str(raw["where"]),
                size=int(raw.get("size") or 0),
                checked=bool(raw.get("checked")),
                automatic=bool(raw.get("automatic")),
                by=str(raw.get("by") or ""),
            )
        except (KeyError, ValueError, TypeError):
            return None


@dataclass
class BackupMade:
    """A backup of the register as recorded (table backup_made)."""

    at: datetime
    day: date
    path: str
    size: int
    checked: bool
    automatic: bool
    by_user: str = ""
    id: int | None = None

    @classmethod
    def of(cls, record: LastBackup) -> BackupMade:
        return cls(
            record.at,
            record.day,
            record.where,
            record.size,
            record.checked,
            record.automatic,
            record.by,
        )

    def as_last(self) -> LastBackup:
        return LastBackup(
            self.at, self.day, self.path, self.size, self.checked, self.automatic, self.by_user
        )


@dataclass(frozen=True)
class BackupSettings:
    folder: str = ""
    keep: int = DEFAULT_KEEP
    overdue_days: int = DEFAULT_OVERDUE_DAYS
    last: LastBackup | None = None


def backup_settings(settings: Mapping[str, Any] | None) -> BackupSettings:
    """The municipality's backup settings; the defaults for what is unset or not understood."""
    section = (settings or {}).get(SETTINGS_KEY)
    if not isinstance(section, Mapping):
        return BackupSettings()
    return BackupSettings(
        folder=str(section.get("folder") or ""),
        keep=_whole(section.get("keep"), 1, MAX_KEEP, DEFAULT_KEEP),
        overdue_days=_whole(section.get("overdue_days"), 1, MAX_OVERDUE_DAYS, DEFAULT_OVERDUE_DAYS),
        last=LastBackup.from_json(section.get("last")),
    )


def _whole(value: Any, low: int, high: int, default: int) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    return int(value) if ok else default


def latest(records: Iterable[LastBackup | None]) -> LastBackup | None:
    """The most recent of the records (the register's last backup, of all its municipalities)."""
    found = [r for r in records if r is not None]
    return max(found, key=lambda r: r.at) if found else None


# --- what the administrator typed ----------------------------------------------------------------


def check_folder(value: Any) -> str:
    text = str(value or "").strip()
    if len(text) > MAX_FOLDER:
        raise ValidationError(LABELS["backup_folder"], f"at most {MAX_FOLDER} characters")
    return text


def check_keep(value: Any) -> int:
    return _check_whole("backup_keep", value, 1, MAX_KEEP, "backups")


def check_overdue_days(value: Any) -> int:
    return _check_whole("backup_overdue_days", value, 1, MAX_OVERDUE_DAYS, "days")


def _check_whole(key: str, value: Any, low: int, high: int, unit: str) -> int:
    label = LABELS[key]
    text = str(value if value is not None else "").strip()
    try:
        number = int(text)
    except ValueError:
        raise ValidationError(label, f"'{value}' is not a number of {unit}") from None
    if not low <= number <= high:
        raise ValidationError(label, f"enter {low} to {high} {unit}")
    return number


# --- when ----------------------------------------------------------------------------------------


def made_today(last: LastBackup | None, today: date) -> bool:
    """A backup that checked out was made on the office's calendar day `today`."""
    return last is not None and last.checked and last.day == today


def overdue(last: LastBackup | None, today: date, overdue_days: int) -> bool:
    """No backup yet, the last one failed its check, or it is older than `overdue_days`."""
    if last is None or not last.checked:
        return True
    return (today - last.day).days > overdue_days


# --- names ---------------------------------------------------------------------------------------


def backup_name(stem: str, suffix: str, at: datetime, *, automatic: bool) -> str:
    """`permitdesk.auto-20261203-081500.bak.db` (automatic) or `permitdesk.backup-….bak.db`
    (as `permitdesk db backup` names its copies); `suffix` is ".db", or ".dump" for pg_dump."""
    label = AUTO_LABEL if automatic else MANUAL_LABEL
    return f"{stem}.{label}-{at.strftime(_STAMP)}.bak{suffix}"


def automatic_pattern(stem: str, suffix: str) -> re.Pattern[str]:
    """The names of this register's automatic backups, and only those."""
    return re.compile(
        rf"{re.escape(stem)}\.{AUTO_LABEL}-(\d{{8}}-\d{{6}})(-\d+)?\.bak{re.escape(suffix)}"
    )


def to_delete(names: Iterable[str], stem: str, suffix: str, keep: int) -> list[str]:
    """Of the file names in the backup folder, the automatic backups of this register beyond
    the newest `keep` (by the time in their names); any other file is never named."""
    pattern = automatic_pattern(stem, suffix)
    ours = [n for n in names if pattern.fullmatch(n)]
    ours.sort(key=lambda n: _sort_key(pattern, n), reverse=True)
    return ours[keep:]


def _sort_key(pattern: re.Pattern[str], name: str) -> tuple[str, int]:
    m = pattern.fullmatch(name)
    assert m is not None
    return m.group(1), int((m.group(2) or "-0")[1:])
