"""What the register sections share (Bonds & Insurance, Deposits, Licences & condemnations): the
signal that opens a permit, the database, session and clock, the heading with its counts on the
right, Ctrl+1… for the pages or lists, the context the action dialogs take, the status-bar
message after a step, and a service's refusal shown under the step's title."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from db.database import Database
from desk.clock import Clock
from desk.errors import DeskError
from ui import dialogs
from ui.permit.base import PermitContext
from ui.presenters.session import Session

PageSpec = tuple[Callable[[], QWidget], str]  # (builds the page, the tab's label)


class SectionView(QWidget):
    open_permit = Signal(int)

    def __init__(
        self,
        name: str,
        database: Database,
        session: Session,
        clock: Clock,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.database, self.session, self.clock = database, session, clock
        self.loaded = False

    # --- the frame ----------------------------------------------------------------------------

    def _heading(self, title: str) -> QHBoxLayout:
        """The section's title on the left and `self.summary`, its counts, on the right."""
        heading = QLabel(title, self)
        heading.setObjectName("viewHeading")
        self.summary = QLabel(self)
        self.summary.setObjectName("countLabel")
        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(self.summary)
        return top

    def _section_layout(self, top: QHBoxLayout) -> QVBoxLayout:
        """The section's own layout, with the heading `top` first."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        return layout

    def _pick_keys(self, count: int, pick: Callable[[int], object]) -> None:
        """Ctrl+1 … Ctrl+`count` pick the first … last page or list."""
        for n in range(count):
            shortcut = QShortcut(QKeySequence(f"Ctrl+{n + 1}"), self)
            shortcut.activated.connect(lambda n=n: pick(n))

    def _paged(self, title: str, name: str, pages: Sequence[PageSpec]) -> None:
        """The heading over `self.pages`, a tab of each of `pages` (built in order as it is
        added); the summary follows the page shown; Ctrl+1… pick a page and Ctrl+F goes to the
        page's search (`_focus_search`)."""
        top = self._heading(title)
        self.pages = QTabWidget(self)
        self.pages.setObjectName(name)
        for build, label in pages:
            self.pages.addTab(build(), label)
        self.pages.currentChanged.connect(lambda _i: self._show_summary())
        layout = self._section_layout(top)
        layout.addWidget(self.pages, 1)
        self._pick_keys(len(pages), self.pages.setCurrentIndex)
        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.activated.connect(self._focus_search)

    def _show_summary(self) -> None:
        """A paged section shows the counts of the page shown."""
        raise NotImplementedError

    def _focus_search(self) -> None:
        """A paged section puts the cursor in the search of the page shown."""
        raise NotImplementedError

    # --- the steps ----------------------------------------------------------------------------

    def _context(self) -> PermitContext:
        return PermitContext(self.database, self.session, 0, self.clock)

    def _status(self, message: str) -> None:
        """What a step did, in the main window's status bar for fifteen seconds."""
        bar = getattr(self.window(), "statusBar", None)
        if callable(bar):
            bar().showMessage(message, 15_000)

    def _attempt(self, title: str, step: Callable[[], object]) -> bool:
        """Run a service's step; when the service refuses, say why under `title`. True when it
        ran."""
        try:
            step()
        except DeskError as e:
            dialogs.warn(self, title, str(e))
            return False
        return True

    def _confirmed(
        self, title: str, allowed: tuple[bool, str], question: str, step: Callable[[], object]
    ) -> bool:
        """A step taken on a yes: when `allowed` says it may not be taken, why; otherwise
        `question` asked under `title` and, on a yes, the step run (_attempt). True when it
        ran."""
        ok, why = allowed
        if not ok:
            dialogs.warn(self, title, why)
            return False
        if not dialogs.ask(self, title, question):
            return False
        return self._attempt(title, step)
