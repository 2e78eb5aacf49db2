"""The case list's presenter over a source read a page at a time: the count from one COUNT, the
rows read so far, the next page on demand, the stages read for the page's cases only."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from db.enforcement_case_view import CaseFacts
from desk.domain.enums import Role
from desk.domain.model import Actor
from desk.enforcement.readmodels import CaseFilter, CaseRow
from ui.presenters import enforcement as p

INSPECTOR = Actor(3, "ivan", frozenset({Role.INSPECTOR}))


def row(n: int) -> CaseRow:
    return CaseRow(n, f"CE-2026-{n:04d}", date(2026, 3, 2), "412 Vine St", "", "", 0, None, "")


class Source:
    def __init__(self, rows: list[CaseRow]) -> None:
        self.rows = rows
        self.asked: list[tuple[str, CaseFilter, str, int, int]] = []

    def count(self, which: CaseFilter, text: str) -> int:
        self.asked.append(("count", which, text, 0, 0))
        return len(self.rows)

    def page(self, which: CaseFilter, text: str, offset: int, limit: int) -> list[CaseRow]:
        self.asked.append(("page", which, text, offset, limit))
        return self.rows[offset : offset + limit]


def test_the_list_counts_reads_the_first_page_and_the_next_on_demand() -> None:
    source = Source([row(n) for n in range(5, 0, -1)])
    facts: list[list[int]] = []

    def read(ids: Sequence[int]) -> dict[int, CaseFacts]:
        facts.append(list(ids))
        return {}

    presenter = p.CaseListPresenter(source, read, lambda: date(2026, 3, 2), INSPECTOR, 2)
    presenter.text = "vine"
    presenter.load()
    assert presenter.summary == "5 cases: open"
    assert [line.cells[0] for line in presenter.rows] == ["CE-2026-0005", "CE-2026-0004"]
    assert facts == [[5, 4]]
    assert presenter.can_fetch_more
    presenter.add(presenter.next_page())
    presenter.add(presenter.next_page())
    assert [r.cells[0][-1] for r in presenter.rows] == ["5", "4", "3", "2", "1"]
    assert facts == [[5, 4], [3, 2], [1]]
    assert not presenter.can_fetch_more and presenter.next_page() == []
    assert source.asked == [
        ("count", CaseFilter.OPEN, "vine", 0, 0),
        ("page", CaseFilter.OPEN, "vine", 0, 2),
        ("page", CaseFilter.OPEN, "vine", 2, 2),
        ("page", CaseFilter.OPEN, "vine", 4, 2),
    ]
    assert presenter.row_of(1) == 4 and presenter.case(4) == row(1)


def test_a_case_closed_between_two_pages_ends_the_list_where_the_rows_end() -> None:
    source = Source([row(n) for n in range(3, 0, -1)])
    presenter = p.CaseListPresenter(source, lambda ids: {}, lambda: date(2026, 3, 2), INSPECTOR, 2)
    presenter.load()
    del source.rows[2:]  # closed meanwhile
    assert presenter.next_page() == []
    assert presenter.count == 2 and not presenter.can_fetch_more
    assert presenter.summary == "2 cases: open"
