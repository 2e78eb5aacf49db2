"""The saved permit searches of one user: the built-in ones, then the user's own (no Qt here).

Stored as JSON text by whoever builds it (ui.settings, per user name, on this computer).
"""

from __future__ import annotations

from collections.abc import Callable

from desk.domain.permit_filter import (
    BUILT_IN_SEARCHES,
    PermitFilter,
    SavedSearch,
    searches_from_json,
    searches_to_json,
)

MAX_NAME = 60


class SavedSearches:
    def __init__(self, read: Callable[[], str], write: Callable[[str], None]) -> None:
        self._read = read
        self._write = write
        self.own: list[SavedSearch] = searches_from_json(read())

    def all(self) -> list[SavedSearch]:
        return [*BUILT_IN_SEARCHES, *self.own]

    def names(self) -> list[str]:
        return [s.name for s in self.all()]

    def find(self, name: str) -> SavedSearch | None:
        return next((s for s in self.all() if s.name == name), None)

    def check_name(self, name: str) -> str:
        """Why `name` cannot be used ("" when it can)."""
        name = name.strip()
        if not name:
            return "Give the search a name."
        if len(name) > MAX_NAME:
            return f"Keep the name under {MAX_NAME} characters."
        if any(s.built_in and s.name.casefold() == name.casefold() for s in BUILT_IN_SEARCHES):
            return f"“{name}” is a built-in search; choose another name."
        return ""

    def save(self, name: str, text: str, filters: PermitFilter) -> SavedSearch:
        """Save (or replace the user's search of that name); ValueError when the name is bad."""
        problem = self.check_name(name)
        if problem:
            raise ValueError(problem)
        search = SavedSearch(name.strip(), text.strip(), filters)
        key = search.name.casefold()
        kept = [s for s in self.own if s.name.casefold() != key]
        self.own = sorted([*kept, search], key=lambda s: s.name.casefold())
        self._write(searches_to_json(self.own))
        return search

    def delete(self, name: str) -> bool:
        """Forget the user's search `name`; built-in searches stay (False)."""
        kept = [s for s in self.own if s.name != name]
        if len(kept) == len(self.own):
            return False
        self.own = kept
        self._write(searches_to_json(self.own))
        return True
