"""The one-way import rule (ARCHITECTURE.md): desk/ is plain Python."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_DESK = ("PySide6", "sqlalchemy", "alembic", "ui", "db", "reports", "permitdesk")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):  # walks function bodies too: a lazy import is still an import
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_desk_imports_neither_qt_nor_sqlalchemy_nor_the_outer_layers() -> None:
    offenders = {
        str(p.relative_to(ROOT)): sorted(_imports(p) & set(FORBIDDEN_IN_DESK))
        for p in (ROOT / "desk").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_db_does_not_import_the_user_interface() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "db").rglob("*.py")
        if _imports(p) & {"PySide6", "ui", "reports"}
    ]
    assert offenders == []


def test_no_date_today_or_datetime_now_in_desk_outside_the_clock() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "desk").rglob("*.py")
        if p.name != "clock.py"
        and any(s in p.read_text("utf-8") for s in ("date.today()", "datetime.now("))
    ]
    assert offenders == []
