"""Occupancy calculations attached to a case or a rooming house licence (Hudson 140-7, Ch.
512-11): the list a case or licence window shows, one for a reprint, and the case timeline's
entries. The result is read from the JSON frozen when it was attached, never computed again."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from sqlalchemy import Connection, Row, select

from db import schema
from desk.enforcement.readmodels import OccupancyCheckRow, TimelineEntry

oc = schema.occupancy_check
c = schema.enforcement_case
lic = schema.rooming_licence
u = schema.app_user

# The section that sets the most occupants of a unit, by housing code.
LIMIT_SECTION = {"hudson-140": "140-7A", "ch-512": "512-11B"}


def _problems(result_json: str) -> tuple[tuple[str, str, str], ...]:
    try:
        raw = json.loads(result_json)
        return tuple(
            (str(p["section"]), str(p.get("room") or ""), str(p["text"]))
            for p in raw.get("problems", [])
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return (("", "", "the stored result cannot be read"),)


def _select() -> Any:
    return (
        select(
            oc,
            c.c.number.label("case_number"),
            lic.c.number.label("licence_number"),
            u.c.full_name,
        )
        .outerjoin(c, c.c.id == oc.c.case_id)
        .outerjoin(lic, lic.c.id == oc.c.licence_id)
        .outerjoin(u, u.c.id == oc.c.by_user_id)
    )


def _row(r: Row[Any]) -> OccupancyCheckRow:
    if r.case_id is not None:
        attached = r.case_number
    else:
        attached = r.licence_number or f"application #{r.licence_id}"
    return OccupancyCheckRow(
        check_id=r.id,
        case_id=r.case_id,
        licence_id=r.licence_id,
        attached_to=attached,
        code=r.code,
        unit=r.unit,
        checked_on=r.checked_on,
        max_occupants=r.max_occupants,
        complies=r.complies,
        problems=_problems(r.result_json),
        rooms_json=r.rooms_json,
        result_json=r.result_json,
        inspection_id=r.inspection_id,
        by=r.full_name or "",
    )


def occupancy_checks(
    conn: Connection, *, case_id: int | None = None, licence_id: int | None = None
) -> list[OccupancyCheckRow]:
    """The case's (or the licence's) attached calculations, oldest first."""
    if (case_id is None) == (licence_id is None):
        raise ValueError("give either case_id or licence_id")
    where = oc.c.case_id == case_id if case_id is not None else oc.c.licence_id == licence_id
    rows = conn.execute(_select().where(where).order_by(oc.c.checked_on, oc.c.id))
    return [_row(r) for r in rows]


def occupancy_check(conn: Connection, check_id: int) -> OccupancyCheckRow | None:
    """One attached calculation, for a reprint."""
    r = conn.execute(_select().where(oc.c.id == check_id)).one_or_none()
    return None if r is None else _row(r)


def timeline_text(row: OccupancyCheckRow) -> str:
    """'Occupancy calculated: 4 may live here (140-7A); does not comply'."""
    limit = LIMIT_SECTION.get(row.code, "")
    words = f"Occupancy calculated: {row.max_occupants} may live here"
    words += f" ({limit})" if limit else ""
    words += "; complies" if row.complies else "; does not comply"
    return words + (f" (Unit {row.unit})" if row.unit else "")


def timeline_entries(conn: Connection, case_id: int) -> list[tuple[date, int, TimelineEntry]]:
    """(date, the inspection it recorded or 0, entry) of each calculation attached to the case."""
    return [
        (
            r.checked_on,
            r.inspection_id or 0,
            TimelineEntry(
                r.checked_on, "occupancy", timeline_text(r), LIMIT_SECTION.get(r.code, "")
            ),
        )
        for r in occupancy_checks(conn, case_id=case_id)
    ]


def case_by_number(
    conn: Connection, municipality_id: int, number: str
) -> tuple[int, date | None, str] | None:
    """(id, closed on, housing code) of the municipality's case CE-YYYY-NNNN, None when it
    has none."""
    r = conn.execute(
        select(c.c.id, c.c.closed_on, c.c.housing_code).where(
            c.c.municipality_id == municipality_id, c.c.number == number
        )
    ).one_or_none()
    return None if r is None else (r.id, r.closed_on, r.housing_code)


def licence_id(
    conn: Connection, municipality_id: int, number: str | None, application_id: int | None
) -> int | None:
    """The municipality's licence RH-YYYY-NNNN, or its application #id; None when none."""
    where = lic.c.number == number if number is not None else lic.c.id == application_id
    return conn.execute(
        select(lic.c.id).where(lic.c.municipality_id == municipality_id, where)
    ).scalar_one_or_none()
