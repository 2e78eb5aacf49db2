"""The Code enforcement list read a page at a time, on both backends: the count says how many
cases each filter and search finds, and the pages, read one after the other, are the whole list
newest first (the section shows "N cases" and reads 200 at a time as it is scrolled)."""

from __future__ import annotations

from datetime import date

from db import enforcement_queries as q
from db.database import Database
from desk.clock import FixedClock
from desk.enforcement.readmodels import CaseFilter
from tests.db.enforcement_bulk import add_cases
from tests.db.enforcement_setup import case_with_notice, office

TODAY = date(2026, 3, 2)


def test_the_count_and_the_pages_are_the_list_for_each_filter_and_search(
    database: Database, clock: FixedClock
) -> None:
    o = office(database, clock)
    case_with_notice(o)  # CE-2026-0001 today: Otto Owner, notice not yet served
    vine = add_cases(o, 23, o.parcel("047-0003-001", "500"), 100, date(2026, 2, 20))
    elm = add_cases(o, 3, o.parcel("047-0002-001", "77", "Elm St"), 400, date(2026, 3, 1))
    with database.read() as conn:
        for which in CaseFilter:
            for text in ("", "vine", "elm st", "otto", "047-0002", "ce-2026-01", "nobody"):
                whole = [r.number for r in q.case_rows(conn, o.mid, TODAY, which, text)]
                paged = [
                    r.number
                    for start in range(0, 30, 7)
                    for r in q.case_rows(conn, o.mid, TODAY, which, text, 7, start)
                ]
                assert paged == whole, (which, text)
                assert q.case_count(conn, o.mid, TODAY, which, text) == len(whole), (which, text)
        assert q.case_count(conn, o.mid, TODAY) == 27
        assert [r.number for r in q.case_rows(conn, o.mid, TODAY, limit=5)] == [
            "CE-2026-0001",
            *elm,
            vine[0],
        ]
        assert [r.number for r in q.case_rows(conn, o.mid, TODAY, limit=3, offset=25)] == vine[-2:]
        assert q.case_count(conn, o.mid, TODAY, text="vine") == 24
        assert q.case_count(conn, o.mid, TODAY, text="ce-2026-011") == 10  # 0110 to 0119
        assert q.case_count(conn, o.mid, TODAY, CaseFilter.NOT_SERVED, "otto") == 1
        assert q.case_count(conn, o.mid, TODAY, CaseFilter.NOT_SERVED, "elm") == 0
        (first,) = q.case_rows(conn, o.mid, TODAY, text="otto 412")
        assert (first.owner, first.open_violations) == ("Otto Owner", 1)
