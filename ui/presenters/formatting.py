"""How values look on screen: US dates, money, counts, field names (one place, so views agree)."""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from decimal import Decimal

from desk.dates import short_date, short_timestamp
from desk.money import format_money

EMPTY = "—"  # shown where a value is missing, so an empty cell is not mistaken for a glitch

_FIELD_NAMES = {
    "pin": "Parcel number",
    "permit_checklist_item": "Checklist item",
    "value_date": "Date on the document",
    "value_text": "Note",
    "floor_area_sqft": "Floor area (sq ft)",
    "lot_area_sqft": "Lot area (sq ft)",
    "zip": "ZIP",
    "permit_class": "Class",
    "work_class": "Work class",
    "status_date": "Status date",
    "address_line1": "Address",
    "address_line2": "Address (line 2)",
    "issued_by_id": "Issued by",
    "party_id": "Party",
    "parcel_id": "Parcel",
    "permit_id": "Permit",
    "municipality_id": "Municipality",
    "user_id": "User",
    "zoning_district": "Zoning district",
    "roles_text": "Roles",
}


def format_date(day: date | None) -> str:
    """MM/DD/YYYY, as the office writes dates on paper; '' when there is none."""
    return "" if day is None else short_date(day)


def format_timestamp(at: datetime, tz: tzinfo | None = None) -> str:
    """A stored (UTC) time in the workstation's local time: '03/02/2026 9:05 AM'."""
    return short_timestamp(at.astimezone(tz))


def format_amount(amount: Decimal | None) -> str:
    return format_money(amount)


def format_percent(rate: Decimal) -> str:
    """A fraction as the ordinance writes it: Decimal('0.40') -> '40 %', '0.125' -> '12.5 %'."""
    value = (rate * 100).normalize()
    if value == value.to_integral_value():
        value = value.quantize(Decimal(1))
    return f"{value} %"


def count_of(n: int, singular: str, plural: str | None = None) -> str:
    """'1 permit', '1,234 permits'."""
    noun = singular if n == 1 else (plural or singular + "s")
    return f"{n:,} {noun}"


def humanise_field(name: str) -> str:
    """'issued_on' -> 'Issued on', 'issued_by_id' -> 'Issued by'."""
    if name in _FIELD_NAMES:
        return _FIELD_NAMES[name]
    words = name.removesuffix("_id").replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else name


def parse_iso_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None
