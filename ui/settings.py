"""QSettings in one place: window geometry, header state, the last user name."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

ORGANIZATION = "PermitDesk"
APPLICATION = "PermitDesk"

MAIN_GEOMETRY = "main/geometry"
MAIN_STATE = "main/state"
PERMITS_HEADER = "permits/header"
LAST_USERNAME = "login/last_username"
PERMIT_WINDOW_GEOMETRY = "permit_window/geometry"
FEE_CALCULATOR_GEOMETRY = "fee_calculator/geometry"
NEW_FEE_VERSION_GEOMETRY = "new_fee_version/geometry"


def settings() -> QSettings:
    return QSettings(ORGANIZATION, APPLICATION)


def read_bytes(key: str) -> QByteArray | None:
    value = settings().value(key, QByteArray(), type=QByteArray)
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


def read_text(key: str, default: str = "") -> str:
    value = settings().value(key, default, type=str)
    return str(value) if value is not None else default


def write(key: str, value: object) -> None:
    settings().setValue(key, value)
