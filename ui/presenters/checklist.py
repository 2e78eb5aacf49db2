"""A permit's Checklist tab, Qt-free: rows grouped by the template's groups, the summary line,
and which actions the signed-in user may take on the selected item."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, tzinfo

from desk.domain.checklists import (
    ChecklistReopening,
    ChecklistTemplate,
    ItemKind,
    ItemState,
    Line,
    is_locked,
    progress,
    stale,
)
from ui.presenters import date_text
from ui.presenters.formatting import format_date, format_timestamp

COLUMNS: tuple[str, ...] = ("Item", "Section", "State", "Recorded", "By", "When")
STATE_TEXT = {
    ItemState.OPEN: "Open",
    ItemState.RECEIVED: "✓ Received",
    ItemState.NOT_APPLICABLE: "N/A",
    ItemState.WAIVED: "Waived",
}
OTHER_GROUP = "Other items"


@dataclass(frozen=True)
class ChecklistRow:
    """A group heading (line is None) or an item."""

    title: str
    line: Line | None = None
    section: str = ""
    state: str = ""
    recorded: str = ""
    by: str = ""
    when: str = ""
    required: bool = True
    problem: str = ""  # e.g. the survey is too old on the issue date

    @property
    def is_group(self) -> bool:
        return self.line is None

    def cells(self) -> tuple[str, ...]:
        if self.line is None:
            return (self.title, "", "", "", "", "")
        return (self.title, self.section, self.state, self.recorded, self.by, self.when)


def parse_date(text: str, today: date) -> date | None:
    """The date typed as in every date field ('03/01/2025', '3/1/25', '2025-03-01', 'today';
    ui.presenters.date_text); None when it is not a date."""
    try:
        return date_text.parse_date(text, today)
    except date_text.DateTextError:
        return None


class ChecklistPresenter:
    def __init__(
        self,
        template: ChecklistTemplate | None,
        lines: Sequence[Line],
        names: Mapping[int, str],
        *,
        today: date,  # the issue date of an issued permit: a survey's age counts at issuance
        can_waive: bool,
        tz: tzinfo | None = None,
        issued_on: date | None = None,
        reopened: ChecklistReopening | None = None,
        can_reopen: bool = False,
    ) -> None:
        self.issued_on = issued_on
        self.reopened = reopened
        self.can_reopen = can_reopen
        # An issued permit's checklist is read-only until the inspector reopens it.
        self.locked = is_locked(issued_on, reopened)
        self.template = template
        self.lines = list(lines)
        self.names = dict(names)
        self.today = today
        self.can_waive = can_waive
        self.tz = tz
        self.columns = COLUMNS
        self.rows = self._rows()

    def _group_titles(self) -> dict[str, str]:
        return {g.key: g.title for g in self.template.groups} if self.template else {}

    def _item_row(self, line: Line) -> ChecklistRow:
        state = STATE_TEXT[line.state]
        if not line.required and line.state is ItemState.OPEN:
            state = "Not required"
        recorded = ""
        if line.state is ItemState.WAIVED:
            recorded = line.reason
        elif line.value_date is not None:
            recorded = format_date(line.value_date)
        elif line.value_text:
            recorded = line.value_text
        problem = ""
        if line.state is ItemState.RECEIVED and stale(line, self.today):
            problem = f"More than one year old on {format_date(self.today)} ({line.section})"
        return ChecklistRow(
            title=line.label,
            line=line,
            section=line.section,
            state=state,
            recorded=recorded,
            by=self.names.get(line.by_user_id, "") if line.by_user_id is not None else "",
            when=format_timestamp(line.at, self.tz) if line.at else "",
            required=line.required,
            problem=problem,
        )

    def _rows(self) -> list[ChecklistRow]:
        titles = self._group_titles()
        rows: list[ChecklistRow] = []
        current: str | None = None
        for line in self.lines:
            if line.group != current:
                current = line.group
                rows.append(ChecklistRow(titles.get(line.group, OTHER_GROUP)))
            rows.append(self._item_row(line))
        return rows

    @property
    def summary(self) -> str:
        """'7 of 12 received — 5 open'."""
        if not self.lines:
            return "This permit kind has no checklist."
        text = progress(self.lines).text
        stale_rows = [r for r in self.rows if r.problem]
        if stale_rows:
            text = text.replace(" — complete", "")
            text += f" — {stale_rows[0].title.split(' (')[0].lower()} out of date"
            if len(stale_rows) > 1:
                text += f" and {len(stale_rows) - 1} more"
        return text

    @property
    def lock_text(self) -> str:
        """'Locked: the permit was issued on 03/02/2026.', who reopened it and why, or ''."""
        if self.issued_on is None:
            return ""
        if self.reopened is None:
            return f"Locked: the permit was issued on {format_date(self.issued_on)}."
        r = self.reopened
        who = self.names.get(r.by_user_id, "") if r.by_user_id is not None else ""
        when = f" on {format_timestamp(r.at, self.tz)}" if r.at else ""
        return f"Reopened{' by ' + who if who else ''}{when}: {r.reason}"

    @property
    def shows_reopen(self) -> bool:
        return self.locked and self.can_reopen

    @property
    def shows_lock(self) -> bool:
        return self.reopened is not None and self.can_reopen

    @property
    def empty_text(self) -> str:
        return "This permit kind has no checklist."

    def first_item_row(self) -> int:
        return next((i for i, r in enumerate(self.rows) if not r.is_group), -1)

    def row_of(self, code: str) -> int:
        return next(
            (i for i, r in enumerate(self.rows) if r.line is not None and r.line.code == code), -1
        )

    def item(self, row: int) -> Line | None:
        if 0 <= row < len(self.rows):
            return self.rows[row].line
        return None

    # --- what the user may do with the selected item ----------------------------------------

    def can_mark(self, row: int) -> bool:
        line = self.item(row)
        if line is None or self.locked:
            return False
        return line.state is not ItemState.WAIVED or self.can_waive

    def can_waive_row(self, row: int) -> bool:
        return self.can_waive and not self.locked and self.item(row) is not None

    def toggle_target(self, row: int) -> ItemState | None:
        """Space: received <-> open (None when not allowed)."""
        line = self.item(row)
        if line is None or not self.can_mark(row):
            return None
        return ItemState.OPEN if line.state is ItemState.RECEIVED else ItemState.RECEIVED

    def needs_value(self, row: int) -> ItemKind | None:
        line = self.item(row)
        if line is None or line.kind is ItemKind.CHECK or self.locked:
            return None
        return line.kind

    def detail(self, row: int) -> str:
        """The selected item in full, with its section, condition and note."""
        r = self.rows[row] if 0 <= row < len(self.rows) else None
        if r is None or r.line is None:
            return ""
        line = r.line
        parts = [f"{line.label} ({line.section})."]
        if line.why:  # in words: never the template's expression
            parts.append(line.why)
        if line.state is ItemState.WAIVED and line.reason:
            parts.append(f"Waived: {line.reason}.")
        if r.problem:
            parts.append(r.problem + ".")
        return " ".join(parts)
