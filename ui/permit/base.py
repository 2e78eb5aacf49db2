"""What a tab of the permit window is. To add a tab: subclass PermitTab, list it in tabs.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from PySide6.QtWidgets import QWidget
from sqlalchemy import Connection

from db.database import Database
from desk.clock import Clock, SystemClock
from desk.domain.readmodels import PermitDetail
from ui.presenters.session import Session


@dataclass(frozen=True)
class PermitContext:
    database: Database
    session: Session
    permit_id: int
    # The dates the permit's dialogs default to and the services record (tests pass a FixedClock).
    clock: Clock = field(default_factory=SystemClock)


class PermitTab(QWidget):
    """One tab. `load` runs on the window's read connection each time the window refreshes."""

    key: ClassVar[str]  # for --view permit:NUMBER:KEY and for selecting the tab in code
    title: ClassVar[str]

    def __init__(self, context: PermitContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context

    def load(self, conn: Connection, detail: PermitDetail) -> None:
        raise NotImplementedError
