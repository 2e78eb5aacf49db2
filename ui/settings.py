"""QSettings in one place: window geometry, header state, the last user name, where printouts
are filed, and whether the cashier prints each receipt."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir
from PySide6.QtCore import QByteArray, QSettings

from db.engine import APP_NAME

ORGANIZATION = "PermitDesk"
APPLICATION = "PermitDesk"

MAIN_GEOMETRY = "main/geometry"
MAIN_STATE = "main/state"
PERMITS_HEADER = "permits/header"
LAST_USERNAME = "login/last_username"
# The municipality last worked in on this computer (its key), for a register that has several.
LAST_MUNICIPALITY = "login/last_municipality"
PERMIT_WINDOW_GEOMETRY = "permit_window/geometry"
FEE_CALCULATOR_GEOMETRY = "fee_calculator/geometry"
NEW_FEE_VERSION_GEOMETRY = "new_fee_version/geometry"
# Per computer: where every printout is filed as PDF, and the cashier's "Print receipt" tick.
DOCUMENT_FOLDER = "documents/folder"
PRINT_RECEIPT = "cashier/print_receipt"


def saved_searches_key(username: str) -> str:
    """Each user's saved permit searches on this computer (JSON text)."""
    return f"permits/saved_searches/{username}"


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


def read_bool(key: str, default: bool) -> bool:
    value = settings().value(key, default, type=bool)
    return bool(value) if value is not None else default


def default_document_folder() -> Path:
    """`documents` under the data folder (beside the default database)."""
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "documents"


def document_folder() -> Path:
    """The folder printouts are filed in: the one chosen on this computer, else the default."""
    chosen = read_text(DOCUMENT_FOLDER).strip()
    return Path(chosen) if chosen else default_document_folder()
