"""The office's anchors file: the audit trail's head written down outside the database
(db/audit_anchors.py) at every daily close and turnover and with each printout of them, in
`<document folder>/Audit anchors.txt` beside the filed printouts (File → Document folder…).
Administration → Check the register compares the register with it."""

from __future__ import annotations

from pathlib import Path

from db.audit_anchors import Anchor, append_anchor, head, parse_anchor
from db.database import Database
from desk.clock import Clock
from ui import settings

ANCHORS_FILE = "Audit anchors.txt"


def anchors_path() -> Path:
    """`<document folder>/Audit anchors.txt`."""
    return settings.document_folder() / ANCHORS_FILE


def record_anchor(anchor: Anchor, path: Path | None = None) -> str | None:
    """Append the anchor to the anchors file, unless its last line already holds this same
    head. None when written; otherwise why not, in words (the work itself is done: the file
    is a safeguard, and the printout carries the anchor too)."""
    target = path or anchors_path()
    try:
        last = _last_anchor(target)
        if last is None or (last.row_id, last.row_hash) != (anchor.row_id, anchor.row_hash):
            append_anchor(target, anchor)
    except OSError as e:
        return f"The audit trail's anchor could not be added to {target} ({e.strerror or e})."
    return None


def _last_anchor(path: Path) -> Anchor | None:
    """The file's last anchor; None when there is none or the last line is not one (an
    anchor is then added after it all the same)."""
    if not path.exists():
        return None
    with path.open("rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - 1024))
        lines = [x for x in f.read().decode("ascii", "replace").splitlines() if x.strip()]
    try:
        return parse_anchor(lines[-1]) if lines else None
    except ValueError:
        return None


def take_anchor(database: Database, clock: Clock) -> Anchor:
    """The audit trail's head now."""
    with database.read() as conn:
        return head(conn, clock)


def file_anchor(database: Database, clock: Clock) -> tuple[Anchor, str | None]:
    """The head now, appended to the anchors file: the anchor and the reason it could not be
    written, if it could not."""
    anchor = take_anchor(database, clock)
    return anchor, record_anchor(anchor)
