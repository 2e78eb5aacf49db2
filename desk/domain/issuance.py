"""Holds on issuance that come from the calendar and the street, not from a checklist.

New Lisbon §435-8 (Frozen ground): "No openings ... shall be permitted between November 15 and
May 1 except where it is determined ... to be an emergency excavation." Both days are inside
the season.
§435-8 (Excavation in new streets limited): after repaving, "no permit shall be issued to open or
excavate said street for a period of five years after the date of improvement or repaving unless,
in the opinion of the Common Council ... it is absolutely essential": the opening is allowed from
the fifth anniversary on, or earlier with the council's approval on record.
"""

from __future__ import annotations

from datetime import date

from desk.domain.lifecycle import add_months

FROZEN_FROM = (11, 15)
FROZEN_TO = (5, 1)
MORATORIUM_YEARS = 5


def in_frozen_ground_season(day: date) -> bool:
    md = (day.month, day.day)
    return md >= FROZEN_FROM or md <= FROZEN_TO


def moratorium_ends(paved_on: date) -> date:
    return add_months(paved_on, 12 * MORATORIUM_YEARS)


def street_opening_holds(
    day: date, emergency: bool, paved_on: date | None, council_approval: str
) -> list[str]:
    out = []
    if in_frozen_ground_season(day) and not emergency:
        out.append(
            f"No street openings between November 15 and May 1 except an emergency "
            f"excavation; the issue date is {day.isoformat()} (§435-8, Frozen ground)."
        )
    if paved_on is not None and day < moratorium_ends(paved_on) and not council_approval.strip():
        out.append(
            f"The street was repaved on {paved_on.isoformat()}; it may not be opened before "
            f"{moratorium_ends(paved_on).isoformat()} without the Common Council's approval on "
            "record (§435-8, Excavation in new streets limited)."
        )
    return out
