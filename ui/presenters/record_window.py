"""What the windows of a code enforcement case (Hudson 140-3) and of a rooming house licence
(140-10) are presented by alike: a table's columns and rows, and a step with whether this user
may take it now."""

from __future__ import annotations

from dataclasses import dataclass

from ui.presenters.registers import Line


@dataclass
class Rows:
    """A table of a record's window: its columns and its rows (ui.views.common.LinesModel)."""

    columns: tuple[str, ...]
    rows: list[Line]


@dataclass(frozen=True)
class Step:
    key: str
    label: str  # the button's text with its mnemonic
    may: tuple[bool, str]  # (may, why not)
