"""The street register's repavings (New Lisbon §435-8.I): which recorded repaving a parcel's
street falls under, so that every opening on that street reads the same date.

Readings (docs/user-guide.md, "Issuing a permit"):
- A street is matched by its name as the parcels spell it, ignoring case, repeated spaces and
  a trailing period ("N Main St." is "n main st").
- A repaving may cover a segment between two house numbers (both ends included); without
  numbers it covers the whole street. A parcel without a house number on a street with only
  segments recorded is taken as covered (the careful reading: the Council can still approve).
- When several repavings cover the parcel, the latest one counts: a new repaving starts a new
  five years.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from desk.domain.model import StreetRepaving


def street_key(name: str) -> str:
    """The street's name for matching: folded case, single spaces, no trailing period."""
    return " ".join(name.split()).rstrip(".").casefold()


def house_number_value(text: str) -> int | None:
    """The leading digits of a house number ("6120", "6120A", "6120-6124" → 6120)."""
    found = re.match(r"\s*(\d+)", text)
    return int(found.group(1)) if found else None


def covers(repaving: StreetRepaving, street: str, house_number: str) -> bool:
    if street_key(repaving.street) != street_key(street) or not street_key(street):
        return False
    if repaving.from_number is None and repaving.to_number is None:
        return True
    number = house_number_value(house_number)
    if number is None:
        return True
    low = repaving.from_number if repaving.from_number is not None else 0
    high = repaving.to_number if repaving.to_number is not None else 10**9
    return min(low, high) <= number <= max(low, high)


def latest_repaving(
    repavings: Iterable[StreetRepaving], street: str, house_number: str, on: date | None = None
) -> StreetRepaving | None:
    """The latest repaving (on or before `on`, when given) that covers the address."""
    found = [
        r
        for r in repavings
        if covers(r, street, house_number) and (on is None or r.repaved_on <= on)
    ]
    return max(found, key=lambda r: (r.repaved_on, r.id or 0), default=None)


def segment_text(repaving: StreetRepaving) -> str:
    """'N Main St' or 'N Main St, 100 to 400'."""
    if repaving.from_number is None and repaving.to_number is None:
        return repaving.street
    low = "" if repaving.from_number is None else str(repaving.from_number)
    high = "" if repaving.to_number is None else str(repaving.to_number)
    return f"{repaving.street}, {low or '…'} to {high or '…'}"
