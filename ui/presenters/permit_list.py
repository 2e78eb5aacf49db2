"""The permits list: search text, sort, paged rows and how each cell reads (no Qt here).

Rows are never all loaded: the presenter knows how many match (one COUNT) and fetches pages of
`page_size` rows from SQL when the view asks for a row it has not cached yet (the Anki browser
model). A new search or sort drops the cache.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from db import inspection_queries, queries
from db.database import Database
from desk.clock import Clock, SystemClock
from desk.domain.kinds import kind_label, kinds_for
from desk.domain.permit_filter import NO_FILTER, PermitFilter, PermitWhere
from desk.domain.readmodels import PERMIT_COLUMNS, PermitListRow
from desk.domain.search import SearchPlan, query_tokens
from ui.presenters.formatting import EMPTY, count_of, format_amount, format_date

PAGE_SIZE = 200
SEARCH_PLACEHOLDER = "Search permits by number, address, parcel number, owner or contractor"
EMPTY_DATABASE_TEXT = (
    "No permits yet. Take the first application with File → New Application (Ctrl+N). "
    "An administrator adds the office's users under Administration → Users and sets the "
    "letterhead under Administration → Municipality."
)
# A municipality with code enforcement only (Hudson: its ordinance on file is the housing code).
NO_KINDS_TEXT = (
    "No permit kinds. This municipality's ordinance in Permit Desk is its housing code: "
    "complaints, inspections, notices and orders are under Code enforcement. An administrator "
    "sets the municipality's letterhead under Administration → Municipality."
)
NOT_ISSUED_TOOLTIP = "not issued yet"
FILTERED_SUFFIX = " — filtered"


class PermitSource(Protocol):
    """Where the rows come from: SQL in the application, a list in presenter tests. The
    presenter passes `filters` only when one is set (a source without filters never gets one)."""

    def count(self, text: str, filters: PermitFilter | None = None) -> int: ...

    def page(
        self,
        text: str,
        sort: str,
        descending: bool,
        offset: int,
        limit: int,
        filters: PermitFilter | None = None,
    ) -> list[PermitListRow]: ...


class SqlPermitSource:
    """Counts and pages of one municipality's permits, each on a short read-only connection."""

    def __init__(
        self,
        database: Database,
        municipality_id: int,
        *,
        user_id: int | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.database = database
        self.municipality_id = municipality_id
        self.user_id = user_id  # "entered by me"
        self.clock: Clock = clock or SystemClock()
        # The plan of the last count, reused by its pages: a typo is corrected once per search.
        self._plan: tuple[str, SearchPlan] | None = None
        # The last filter made concrete (the lapsing permits are worked out once per count).
        self._where: tuple[PermitFilter, PermitWhere] | None = None

    def where(self, filters: PermitFilter | None) -> PermitWhere | None:
        """`filters` for this user today; "lapsing" asks the same service as the home, so the
        saved search and the home's list cannot disagree."""
        if filters is None or not filters.active:
            return None
        if self._where is not None and self._where[0] == filters:
            return self._where[1]
        ids = None
        if filters.lapsing_days is not None:
            from desk.services.lifecycle import lapsing_within

            found = lapsing_within(
                self.database.uow(), self.clock, self.municipality_id, filters.lapsing_days
            )
            ids = frozenset(x.permit_id for x in found)
        where = PermitWhere(filters, self.user_id, ids)
        self._where = (filters, where)
        return where

    def inspectors(self) -> list[tuple[int, str]]:
        """The filter bar's inspectors: the same list the Inspections section assigns from."""
        with self.database.read() as conn:
            return inspection_queries.inspectors(conn)

    def forget(self) -> None:
        """A reload: the lapsing permits are worked out again (they move with the day)."""
        self._where = None

    def count(self, text: str, filters: PermitFilter | None = None) -> int:
        where = self.where(filters)
        with self.database.read() as conn:
            plan, found = queries.count_search(conn, self.municipality_id, text, where)
            self._plan = (text, plan)
            return found

    def close_matches(self, text: str) -> tuple[str, ...]:
        """The corrected words the last count of `text` searched for instead (none: exact)."""
        if self._plan is None or self._plan[0] != text:
            return ()
        return self._plan[1].close_matches

    def page(
        self,
        text: str,
        sort: str,
        descending: bool,
        offset: int,
        limit: int,
        filters: PermitFilter | None = None,
    ) -> list[PermitListRow]:
        plan = self._plan[1] if self._plan is not None and self._plan[0] == text else None
        where = self.where(filters)
        with self.database.read() as conn:
            return queries.search_permits(
                conn,
                self.municipality_id,
                text,
                sort=sort,
                descending=descending,
                offset=offset,
                limit=limit,
                plan=plan,
                where=where,
            )


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    numeric: bool = False  # right-aligned (money)


COLUMNS: tuple[Column, ...] = tuple(
    Column(key, title, numeric=key == "valuation") for key, title in PERMIT_COLUMNS
)
# Sorting a new column starts with what a clerk wants first: newest dates, biggest jobs.
_DESCENDING_FIRST = frozenset({"applied", "issued", "valuation"})


class PermitListPresenter:
    def __init__(
        self,
        source: PermitSource,
        municipality_key: str,
        *,
        page_size: int = PAGE_SIZE,
        max_cached_pages: int = 50,
    ) -> None:
        self.source = source
        self.municipality_key = municipality_key
        self.page_size = page_size
        self.max_cached_pages = max_cached_pages
        self.columns = COLUMNS
        self.search_text = ""
        self.filters: PermitFilter = NO_FILTER
        self.sort_key = queries.DEFAULT_SORT
        self.descending = True
        self.count = 0
        self.total = 0  # permits of the municipality, whatever the search
        self.close_matches: tuple[str, ...] = ()  # words searched instead of typos
        self.loaded = False
        self.error = ""  # the last failure to read a page; cleared by load()
        self.on_error: Callable[[str], None] | None = None
        self._pages: OrderedDict[int, list[PermitListRow]] = OrderedDict()

    # --- state changes -----------------------------------------------------------------

    def load(self) -> None:
        """(Re)count from the database and forget cached rows, keeping search and sort."""
        self._pages.clear()
        self.error = ""
        forget = getattr(self.source, "forget", None)
        if forget is not None:
            forget()
        self.total = self.source.count("")
        if self.search_text.strip() or self.filters.active:
            self.count = self._count(self.search_text)
        else:
            self.count = self.total
        self._read_close_matches()
        self.loaded = True

    def _count(self, text: str) -> int:
        # Filters go to the source only when set: test fakes know nothing of them.
        if self.filters.active:
            return self.source.count(text, self.filters)
        return self.source.count(text)

    def set_filter(self, filters: PermitFilter) -> bool:
        """Filter by the bar's choices (with the search text); False when nothing changes."""
        if self.loaded and filters == self.filters:
            return False
        self.filters = filters
        self._pages.clear()
        if not self.loaded:
            self.total = self.source.count("")
        self.count = self._count(self.search_text if query_tokens(self.search_text) else "")
        self._read_close_matches()
        self.loaded = True
        return True

    @property
    def filtered(self) -> bool:
        return self.filters.active

    def search_changes(self, text: str) -> bool:
        """Would searching for `text` filter differently from now? ('schm ' is 'schm')."""
        return not self.loaded or query_tokens(text) != query_tokens(self.search_text)

    def set_search(self, text: str) -> bool:
        """Filter by what was typed; False when it filters exactly as before (nothing to do)."""
        if not self.search_changes(text):
            self.search_text = text
            return False
        self.search_text = text
        self._pages.clear()
        self.count = self._count(text if query_tokens(text) else "")
        if not query_tokens(text) and not self.filters.active:
            self.total = self.count
        self._read_close_matches()
        self.loaded = True
        return True

    def _read_close_matches(self) -> None:
        # Only the SQL source corrects typos; a source without it searches exactly.
        read = getattr(self.source, "close_matches", None)
        found = read(self.search_text) if read is not None and self.count else ()
        self.close_matches = tuple(found)

    def set_sort(self, key: str, descending: bool) -> None:
        if key not in {c.key for c in self.columns}:
            raise ValueError(f"cannot sort permits by '{key}'")
        self.sort_key = key
        self.descending = descending
        self._pages.clear()

    def column_index(self, key: str) -> int:
        for i, c in enumerate(self.columns):
            if c.key == key:
                return i
        raise KeyError(key)

    @staticmethod
    def first_direction_descending(key: str) -> bool:
        return key in _DESCENDING_FIRST

    # --- rows ---------------------------------------------------------------------------

    def row(self, index: int) -> PermitListRow | None:
        """The row at `index` of the current search and sort, fetching its page if needed."""
        if index < 0 or index >= self.count:
            return None
        number, offset = divmod(index, self.page_size)
        page = self._pages.get(number)
        if page is None:
            try:
                args = (
                    self.search_text,
                    self.sort_key,
                    self.descending,
                    number * self.page_size,
                    self.page_size,
                )
                if self.filters.active:
                    page = self.source.page(*args, self.filters)
                else:
                    page = self.source.page(*args)
            except Exception as e:  # the view is painting: report once, never raise into Qt
                page = []
                self.error = f"The permits could not be read ({type(e).__name__}: {e}). Press F5."
                if self.on_error is not None:
                    self.on_error(self.error)
            self._pages[number] = page
            while len(self._pages) > self.max_cached_pages:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(number)
        return page[offset] if offset < len(page) else None

    @property
    def cached_pages(self) -> list[int]:
        return sorted(self._pages)

    def cell_text(self, row: PermitListRow, key: str) -> str:
        if key == "number":
            return row.number or EMPTY
        if key == "status":
            return row.status.label
        if key == "kind":
            return kind_label(self.municipality_key, row.kind)
        if key == "address":
            return row.address
        if key == "owner":
            return row.owner
        if key == "contractor":
            return row.contractor
        if key == "applied":
            return format_date(row.applied_on)
        if key == "issued":
            return format_date(row.issued_on)
        if key == "valuation":
            return format_amount(row.valuation)
        raise KeyError(key)

    def cell_tooltip(self, row: PermitListRow, key: str) -> str | None:
        if key == "number" and not row.number:
            return NOT_ISSUED_TOOLTIP
        if key == "kind":
            return f"{kind_label(self.municipality_key, row.kind)} ({row.kind})"
        text = self.cell_text(row, key)
        return text or None

    def is_dim(self, row: PermitListRow, key: str) -> bool:
        """Cells drawn in a muted colour: the placeholder of a permit not issued yet."""
        return key == "number" and not row.number

    # --- what the labels say ------------------------------------------------------------

    @property
    def count_text(self) -> str:
        filtered = FILTERED_SUFFIX if self.filtered else ""
        if self.no_match and self.filtered:
            return (
                f"No permits match '{self.search_text.strip()}' with these filters — check the "
                "spelling, or clear the filters"
            )
        if self.no_match:
            return (
                f"No permits match '{self.search_text.strip()}' — check the spelling, "
                "or search by parcel number"
            )
        if self.count == 0 and self.filtered:
            return "No permits match these filters — Clear filters shows them all"
        if self.count == 0:
            return "No permits"
        if self.close_matches:
            words = ", ".join(f"\u201c{w}\u201d" for w in self.close_matches)
            return (
                f"No exact match; showing close matches for {words}: "
                f"{count_of(self.count, 'permit')}{filtered}"
            )
        return count_of(self.count, "permit") + filtered

    @property
    def no_match(self) -> bool:
        """A search that finds nothing (as opposed to a register with no permits)."""
        return self.count == 0 and bool(query_tokens(self.search_text))

    @property
    def empty_database(self) -> bool:
        """True when the municipality has no permits at all (not merely none matching)."""
        return self.loaded and self.total == 0 and self.count == 0

    @property
    def empty_text(self) -> str:
        if not kinds_for(self.municipality_key):
            return NO_KINDS_TEXT
        return EMPTY_DATABASE_TEXT
