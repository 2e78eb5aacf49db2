"""What the register lists share, without Qt: a list's row (the record behind it, the cells shown
and whether it is shown in the warning colour), the record behind a chosen row and the row that
shows a record. Used by the Bonds & Insurance, Deposits and Licences & condemnations sections
and the permit window's Sureties tab (ui.views.common.LinesModel shows the rows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar


@dataclass(frozen=True)
class Line:
    """A row of a list: the record behind it and the cells shown."""

    item: object
    cells: tuple[str, ...]
    warn: bool = False  # shown in the list's warning colour (expired, revoked, overdue …)


_Item = TypeVar("_Item")


def item_at(rows: Sequence[Line], row: int, cls: type[_Item]) -> _Item | None:
    """The record behind row `row` of a list (None when no row is chosen)."""
    if 0 <= row < len(rows):
        item = rows[row].item
        assert isinstance(item, cls)
        return item
    return None


def row_of(rows: Sequence[Line], key: int, attribute: str = "id") -> int:
    """The row whose record's `attribute` is `key` (-1 when the list does not show it)."""
    for n, line in enumerate(rows):
        if getattr(line.item, attribute, None) == key:
            return n
    return -1
