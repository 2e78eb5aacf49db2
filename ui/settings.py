"""QSettings in one place: window geometry, header state, the last user name, where printouts
are filed, and whether the cashier prints each receipt."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir
from PySide6.QtCore import QByteArray, QSettings

from db.places import APP_NAME
from ui.application import APPLICATION, ORGANIZATION

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


def window_size_key(kind: str, username: str) -> str:
    """The size a user left a kind of window at (ui.geometry), on this computer."""
    return f"windows/{kind}/{username}/size"


def window_maximised_key(kind: str, username: str) -> str:
    return f"windows/{kind}/{username}/maximised"


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


# The register this process works in (use_register): printouts, and the anchors file beside
# them, are kept per register, so a demo's never mix with the office's own register's.
_register: str | None = None


def use_register(url: str | None) -> None:
    """`url`: the open register's database URL (None: the default register)."""
    global _register
    _register = url


def _register_name() -> str | None:
    """A short name for the open register, or None for the default one (permitdesk.db in the
    data folder, or none opened)."""
    if not _register:
        return None
    from sqlalchemy.engine import make_url

    from db.places import default_sqlite_path

    url = make_url(_register)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            return None
        path = Path(url.database).expanduser().resolve()
        if path == default_sqlite_path().expanduser().resolve():
            return None
        name = path.stem
    else:
        name = f"{url.database or 'register'} on {url.host or 'localhost'}"
    return "".join(c if c.isalnum() or c in " -_." else "_" for c in name).strip(" .") or None


def document_folder_key() -> str:
    """Where the folder chosen for the open register is kept on this computer."""
    name = _register_name()
    return DOCUMENT_FOLDER if name is None else f"{DOCUMENT_FOLDER}/{name}"


def document_folder() -> Path:
    """The folder printouts are filed in: the one chosen for this register on this computer;
    else, for the default register, the default folder, and for another register a folder of
    its own name inside it."""
    chosen = read_text(document_folder_key()).strip()
    if chosen:
        return Path(chosen)
    base = read_text(DOCUMENT_FOLDER).strip()
    root = Path(base) if base else default_document_folder()
    name = _register_name()
    return root if name is None else root / name
