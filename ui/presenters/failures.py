"""The words of the window's error dialog for an error nobody foresaw: what was being done,
whether it was saved, where the details are. Never SQL or a traceback: those go to the log."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from sqlalchemy.exc import DBAPIError

from db.uow import NOT_SAVED, SAVED, UNKNOWN, outcome

SERVICES = "desk.services."


@dataclass(frozen=True)
class Failure:
    text: str  # the dialog's sentence
    details: str  # Copy details: the exception's one line and the log's path


def action_of(tb: TracebackType | None) -> str | None:
    """The service the window had called ("record payment"), from the outermost frame in
    desk.services: its function name in words."""
    for frame, _ in traceback.walk_tb(tb):
        module = str(frame.f_globals.get("__name__", ""))
        name = frame.f_code.co_name
        if module.startswith(SERVICES) and not name.startswith("_"):
            return name.replace("_", " ")
    return None


def describe(
    kind: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    log_path: Path | None,
) -> Failure:
    action = action_of(tb)
    during = f" during “{action}”" if action else ""
    where = (
        f" The details are in the log: {log_path}"
        if log_path is not None
        else " No log file could be written."
    )
    saved = outcome(value)
    lost = isinstance(value, DBAPIError) and value.connection_invalidated
    if lost and saved == UNKNOWN:
        text = (
            f"The connection to the database server was lost{during}, as it was being saved: "
            "the server may or may not have kept it. When the server is back, look it up "
            "before you do it again."
        )
    elif lost:
        text = (
            f"The connection to the database server was lost{during}. Nothing was saved; when "
            "the server is back (Permit Desk reconnects by itself), do it again."
        )
    elif saved == NOT_SAVED:
        text = f"Something went wrong{during}. Nothing was saved; you can try again."
    elif saved == SAVED:
        text = (
            f"Something went wrong{during} after it was saved: it is in the register, but "
            "check what followed (a receipt, a printout) before you do it again."
        )
    else:
        text = (
            f"Something went wrong{during}. Check whether it was done before you do it "
            "again; if it happens again, send the log to support."
        )
    line = "".join(traceback.format_exception_only(kind, value)).strip()
    details = f"{line}\nAction: {action or '(none)'}\nLog: {log_path or '(none)'}"
    return Failure(text + where, details)
