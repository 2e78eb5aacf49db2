"""A list read a page at a time as it is scrolled (Qt's canFetchMore/fetchMore): the rows of a
presenter that knows how many there are (`count`, one COUNT) and reads the next page on demand
(`next_page`), then keeps it (`add`). The view asks for more when its scroll bar reaches the end,
so a search over thousands of rows reads its count and the first page only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, Signal

from db.engine import DatabaseError
from desk.errors import DeskError
from ui.models.base import Index
from ui.presenters.registers import Line
from ui.views.common import LinesModel


class PagedLines(Protocol):
    @property
    def rows(self) -> Sequence[Line]: ...

    @property
    def can_fetch_more(self) -> bool: ...

    def next_page(self) -> list[Line]: ...

    def add(self, lines: Sequence[Line]) -> None: ...


class PagedLinesModel(LinesModel):
    """LinesModel over the rows read so far; the next page is read when the view asks."""

    failed = Signal(str)  # a page could not be read: a message for the view to show

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        presenter: Any = self.presenter
        return not parent.isValid() and presenter is not None and presenter.can_fetch_more

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        presenter: PagedLines | None = self.presenter
        if parent.isValid() or presenter is None:
            return
        try:
            lines = presenter.next_page()
        except (DeskError, DatabaseError) as e:  # called by Qt while painting: never raise
            self.failed.emit(f"The next rows of the list could not be read ({e}). Press F5.")
            return
        if not lines:
            return
        first = len(presenter.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(lines) - 1)
        presenter.add(lines)
        self.endInsertRows()
