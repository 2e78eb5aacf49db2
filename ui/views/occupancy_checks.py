"""The occupancy calculations attached to a case or a rooming house licence (Hudson 140-7,
Ch. 512-11), as one tab of its window: the list, oldest first, and a reprint of the chosen one
(else the latest) from the rooms and result frozen when it was attached. `CalculatorLink` opens
the calculator for that case or licence, one at a time, and tells the window when it attached."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from db.database import Database
from db.letterheads import letterhead_as_of
from desk.enforcement.readmodels import OccupancyCheckRow
from ui.exports import printout
from ui.presenters import occupancy as op
from ui.presenters.enforcement import Rows
from ui.presenters.registers import item_at
from ui.presenters.session import Session
from ui.views.common import LinesModel, fit_columns, read_only_table

if TYPE_CHECKING:
    from desk.clock import Clock
    from ui.presenters.occupancy import RoomRow
    from ui.views.occupancy import OccupancyWindow

WARN = QColor(160, 40, 30)
REPRINT_LABEL = "Reprint calcul&ation…"


class OccupancyChecks(QWidget):
    """A tab page: the table "occupancyTable" and the button "reprintOccupancy"."""

    def __init__(
        self,
        database: Database,
        session: Session,
        parent: QWidget | None = None,
        reprint_label: str = REPRINT_LABEL,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("occupancyChecks")
        self.database = database
        self.session = session
        self.checks = Rows(op.CHECK_COLUMNS, [])
        self.model = LinesModel(self.checks, self, WARN)
        self.table = read_only_table(self, "occupancyTable", self.model)
        self.table.setAccessibleName("Occupancy calculations attached")
        self.reprint_button = QPushButton(reprint_label, self)
        self.reprint_button.setObjectName("reprintOccupancy")
        self.reprint_button.setAutoDefault(False)
        self.reprint_button.setToolTip(
            "The chosen calculation (else the latest) as it was attached"
        )
        self.reprint_button.clicked.connect(lambda: self.reprint())
        self.reprint_button.setEnabled(False)
        # Enter on a row reprints it, as the button does.
        self.table.activated.connect(lambda _i: self.reprint())
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.reprint_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 12, 12, 12)
        box.addWidget(self.table)
        box.addLayout(row)
        self.setFocusProxy(self.table)

    def load(self, rows: Sequence[OccupancyCheckRow]) -> None:
        self.checks = Rows(op.CHECK_COLUMNS, op.check_lines(rows))
        self.model.set_presenter(self.checks)
        fit_columns(self.table, (4,))
        self.reprint_button.setEnabled(bool(rows))

    def chosen(self) -> OccupancyCheckRow | None:
        """The row chosen in the table, else the latest attached."""
        rows = self.checks.rows
        row = item_at(rows, self.table.currentIndex().row(), OccupancyCheckRow)
        if row is None and rows:
            row = item_at(rows, len(rows) - 1, OccupancyCheckRow)
        return row

    def reprint(self, direct: bool = False) -> Path | None:
        """The calculation as attached: its frozen rooms and result, on the letterhead of its
        day."""
        from reports.occupancy_result import render_attached_pdf
        from ui.views.occupancy import SUBFOLDER

        chosen = self.chosen()
        if chosen is None:
            return None
        mid = self.session.municipality_id
        municipality = self.session.municipality_name

        def write(out: Path) -> None:
            with self.database.read() as conn:
                letterhead = letterhead_as_of(conn, mid, chosen.checked_on)
            render_attached_pdf(chosen, municipality, letterhead, out)

        return printout(
            self,
            f"Occupancy calculation — {chosen.attached_to}",
            f"occupancy-{chosen.attached_to}-{chosen.check_id}.pdf",
            write,
            SUBFOLDER,
            "The occupancy calculation",
            direct=direct,
        )


class CalculatorLink:
    """The calculator opened from a case or licence window, attaching to it: one at a time
    (opened again, the open one comes forward); `on_attached` runs after each attachment."""

    def __init__(self, owner: QWidget, on_attached: Callable[[], None]) -> None:
        self.owner = owner
        self.on_attached = on_attached
        self.window: OccupancyWindow | None = None

    def open(
        self,
        database: Database,
        session: Session,
        clock: Clock,
        *,
        for_case: tuple[int, str] | None = None,
        for_licence: tuple[int, str] | None = None,
        code: str | None = None,
        rooms: list[RoomRow] | None = None,
    ) -> OccupancyWindow:
        from ui.views.occupancy import open_occupancy

        if self.window is not None:
            self.window.raise_()
            self.window.activateWindow()
            return self.window
        window = open_occupancy(
            database,
            session,
            clock,
            self.owner,
            remember_geometry=False,
            for_case=for_case,
            for_licence=for_licence,
            code=code,
        )
        if rooms:
            window.load_rooms(rooms)
        window.attached.connect(lambda _result: self.on_attached())
        window.closed.connect(self._closed)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.window = window
        window.show()
        window.activateWindow()
        return window

    def _closed(self) -> None:
        self.window = None
