"""The Help menu without Qt: where the user guide is, its contents as a tree, the shortcut rows
and what the About box says."""

from __future__ import annotations

import platform
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

GUIDE = Path("docs") / "user-guide.md"
GUIDE_MISSING = (
    "The user guide (docs/user-guide.md) is not installed with this copy of Permit Desk."
)


def guide_candidates() -> list[Path]:
    """The PyInstaller folder first (packaging/permitdesk.spec puts docs/ there), then the
    checkout this module runs from (an editable install)."""
    found: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        found.append(Path(bundle) / GUIDE)
    found.append(Path(__file__).resolve().parents[2] / GUIDE)
    return found


def find_guide(candidates: list[Path] | None = None) -> Path | None:
    for path in guide_candidates() if candidates is None else candidates:
        if path.is_file():
            return path
    return None


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading: "Fees (15.1.21)" → "fees-15121"."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@dataclass
class ContentsNode:
    title: str
    position: int  # where the heading is in the document (a block number or offset)
    children: list[ContentsNode] = field(default_factory=list)


def contents_tree(headings: list[tuple[int, str, int]]) -> list[ContentsNode]:
    """(level, title, position) in document order → the contents tree. A lone level-1 heading
    at the top is the guide's title, not an entry: its sections become the top level."""
    if headings and headings[0][0] == 1 and sum(1 for h in headings if h[0] == 1) == 1:
        headings = headings[1:]
    roots: list[ContentsNode] = []
    stack: list[tuple[int, ContentsNode]] = []
    for level, title, position in headings:
        node = ContentsNode(title, position)
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((level, node))
    return roots


def action_label(text: str) -> str:
    """A menu text as a sentence: "&New Application…" → "New Application"."""
    plain = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
    return plain.rstrip(".…").strip()


@dataclass(frozen=True)
class ShortcutRow:
    keys: str  # in the platform's own words, e.g. "Ctrl+N"
    what: str


def shortcut_rows(rows: list[ShortcutRow]) -> list[ShortcutRow]:
    """Each (keys, what) once, in the order found; rows with no keys are left out."""
    seen: set[tuple[str, str]] = set()
    out: list[ShortcutRow] = []
    for row in rows:
        key = (row.keys, row.what)
        if row.keys and row.what and key not in seen:
            seen.add(key)
            out.append(row)
    return out


@dataclass(frozen=True)
class AboutInfo:
    version: str
    database: str
    revision: str | None
    head: str
    data_folder: str
    log_folder: str
    qt_version: str = ""
    last_backup: str = ""  # when and where the register was last backed up (ui.backups)

    def revision_text(self) -> str:
        if self.revision is None:
            return f"none (this version's is {self.head})"
        if self.revision != self.head:
            return f"{self.revision} (this version's is {self.head})"
        return self.revision

    def rows(self) -> list[tuple[str, str]]:
        rows = [
            ("Version", self.version),
            ("Database", self.database),
            ("Schema revision", self.revision_text()),
            ("Data folder", self.data_folder),
            ("Log folder", self.log_folder),
            ("Python", platform.python_version()),
        ]
        if self.last_backup:
            rows.insert(5, ("Last backup", self.last_backup))  # after the folders
        if self.qt_version:
            rows.append(("Qt", self.qt_version))
        return rows

    def text(self) -> str:
        """What Copy puts on the clipboard, for an e-mail to support."""
        return "Permit Desk\n" + "\n".join(f"{label}: {value}" for label, value in self.rows())
