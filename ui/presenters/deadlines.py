"""The Deadlines section: live permits whose deadline falls in the next days (no Qt here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from desk.domain.kinds import kind_label
from desk.services.lifecycle import Lapse
from ui.presenters.formatting import format_date

COLUMNS = ("Due", "In", "Permit", "Kind", "Address", "Deadline", "Section")


@dataclass(frozen=True)
class DeadlineRow:
    permit_id: int
    cells: tuple[str, ...]
    overdue_soon: bool  # within a week: shown in the warning colour


def _in_days(left: int) -> str:
    if left == 0:
        return "today"
    if left < 0:  # 15.1.13(d): a temporary certificate that ended, until the final one
        return f"{-left} day{'s' if left != -1 else ''} overdue"
    return f"{left} day{'s' if left != 1 else ''}"


class DeadlinesPresenter:
    def __init__(
        self,
        fetch: Callable[[int], list[Lapse]],
        municipality_key: str,
        today: Callable[[], date],
        days: int = 30,
    ) -> None:
        self.fetch = fetch
        self.municipality_key = municipality_key
        self.today = today
        self.days = days
        self.rows: list[DeadlineRow] = []

    def load(self) -> None:
        today = self.today()
        self.rows = []
        for lapse in self.fetch(self.days):
            d = lapse.deadline
            left = (d.due - today).days
            self.rows.append(
                DeadlineRow(
                    permit_id=lapse.permit_id,
                    cells=(
                        format_date(d.due),
                        _in_days(left),
                        lapse.number or f"#{lapse.permit_id}",
                        kind_label(self.municipality_key, lapse.kind),
                        lapse.address,
                        lapse.flag or d.label + (" (extended)" if d.extended else ""),
                        d.section,
                    ),
                    overdue_soon=left <= 7,
                )
            )

    @property
    def summary(self) -> str:
        n = len(self.rows)
        if n == 0:
            return f"No permit has a deadline in the next {self.days} days."
        late = sum(1 for r in self.rows if r.cells[1].endswith("overdue"))
        text = f"{n} permit deadline{'s' if n != 1 else ''} in the next {self.days} days"
        return text + (f", {late} of them overdue" if late else "")
