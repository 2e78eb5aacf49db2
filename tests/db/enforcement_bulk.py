"""Many code enforcement cases at once, inserted with SQL: taking 200 complaints through the
services takes too long for a test of the list's paging (the cases have no complaint, no
inspection: the list shows them at the "complaint" stage)."""

from __future__ import annotations

from datetime import date, timedelta

from db import schema
from desk.enforcement.model import Origin
from tests.db.enforcement_setup import Office


def add_cases(o: Office, count: int, parcel_id: int, first: int, opened_on: date) -> list[str]:
    """`count` open cases on the parcel, CE-YYYY-NNNN from `first`, the n-th opened n days
    before `opened_on`; their numbers, newest first (as the list shows them)."""
    rows = [
        {
            "municipality_id": o.mid,
            "number": f"CE-{opened_on.year}-{first + n:04d}",
            "parcel_id": parcel_id,
            "opened_on": opened_on - timedelta(days=count - 1 - n),
            "origin": Origin.OBSERVATION,
            "housing_code": "hudson-140",
            "summary": "Seen from the street",
            "close_note": "",
        }
        for n in range(count)
    ]
    with o.db.engine.begin() as conn:
        conn.execute(schema.enforcement_case.insert(), rows)
    return [str(r["number"]) for r in reversed(rows)]
