"""A list read a page at a time (ui/views/paged.py): how many records the filter and the search
find (one COUNT) and the rows read so far, the next page read as the list is scrolled. The
sections that list a register this way (Code enforcement, Parcels, People) say how to count,
read a page and show its rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from ui.presenters.registers import Line

PAGE_SIZE = 200  # rows read at a time, as the permits list (ui/presenters/permit_list.py)

F = TypeVar("F")  # the filter
R = TypeVar("R")  # a record as the list reads it


class WholeList(Generic[F, R]):
    """A source over a function returning every row at once (presenter tests): count() and
    page(), as the database's paged sources answer them."""

    def __init__(self, fetch: Callable[[F, str], list[R]]) -> None:
        self.fetch = fetch
        self.found: list[R] = []

    def count(self, which: F, text: str) -> int:
        self.found = self.fetch(which, text)
        return len(self.found)

    def page(self, which: F, text: str, offset: int, limit: int) -> list[R]:
        return self.found[offset : offset + limit]


class PagedList(Generic[R]):
    """The count and the rows read so far; subclasses count, read a page and make its lines."""

    def __init__(self, page_size: int = PAGE_SIZE) -> None:
        self.page_size = page_size
        self.text = ""
        self.count = 0  # the records found, whether read yet or not
        self.rows: list[Line] = []  # the rows read so far

    def _count(self) -> int:
        raise NotImplementedError

    def _page(self, offset: int, limit: int) -> list[R]:
        raise NotImplementedError

    def _lines(self, found: list[R]) -> list[Line]:
        raise NotImplementedError

    def _forget(self) -> None:
        """What the subclass keeps about the rows read, dropped when the list is read again."""

    def load(self) -> None:
        """Count again and read the first page (after a change, a filter or a search)."""
        self.count = self._count()
        self.rows = []
        self._forget()
        self.add(self.next_page())

    @property
    def can_fetch_more(self) -> bool:
        return len(self.rows) < self.count

    def next_page(self) -> list[Line]:
        """The rows after those read (not yet added: the model announces them first)."""
        if not self.can_fetch_more:
            return []
        found = self._page(len(self.rows), self.page_size)
        if not found:  # fewer than counted (one retired or closed meanwhile): the list ends
            self.count = len(self.rows)
            return []
        return self._lines(found)

    def add(self, lines: Sequence[Line]) -> None:
        self.rows.extend(lines)
