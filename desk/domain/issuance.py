"""Holds on issuance that come from the calendar, the street, the parcel's sewer taxes and the
building's condition, not from a checklist.

New Lisbon §435-8 (Frozen ground): "No openings ... shall be permitted between November 15 and
May 1 except where it is determined ... to be an emergency excavation." Both days are inside
the season; a permit's validity and renewals end on November 14 (desk/domain/lifecycle.py
frozen_ground_cap).
§435-8.I (Excavation in new streets limited): after repaving, "no permit shall be issued to open or
excavate said street for a period of five years after the date of improvement or repaving unless,
in the opinion of the Common Council ... it is absolutely essential": the opening is allowed from
the fifth anniversary on, or earlier with the council's approval on record.
Glendale 15.1.36 (Sewer improvement tax): "No permit shall be issued for any sewer connection
... while there is outstanding against the premises ... any delinquency in the payment of any tax
or assessment for ... any sewer ..., except in cases where special permission to do so has been
granted by the Plumbing Inspector."
Glendale 15.1.9(b) (Moving damaged buildings): no building "damaged ... fifty percent (50%) or
more of its equalized value by any cause" may be repaired, altered or moved, "and no permit shall
be granted"; 15.1.3(d)(3): no alterations or moving of a building deteriorated beyond 50%, and
15.1.3(c)(3) applies that to additions too.
"""

from __future__ import annotations

from datetime import date

from desk.dates import short_date
from desk.domain.enums import WorkClass
from desk.domain.kinds import PermitKind
from desk.domain.lifecycle import add_months

FROZEN_FROM = (11, 15)
FROZEN_TO = (5, 1)
MORATORIUM_YEARS = 5


def in_frozen_ground_season(day: date) -> bool:
    md = (day.month, day.day)
    return md >= FROZEN_FROM or md <= FROZEN_TO


def moratorium_ends(paved_on: date) -> date:
    return add_months(paved_on, 12 * MORATORIUM_YEARS)


def frozen_ground_holds(day: date, emergency: bool) -> list[str]:
    """§435-8.A: no opening issued in the frozen-ground season but an emergency excavation."""
    if not in_frozen_ground_season(day) or emergency:
        return []
    return [
        f"No street openings between November 15 and May 1 except an emergency "
        f"excavation; the issue date is {short_date(day)} (§435-8, Frozen ground)."
    ]


def repaving_holds(
    day: date, paved_on: date | None, council_approved_on: date | None, street: str = ""
) -> list[str]:
    """§435-8.I (Excavation in new streets limited): no opening permit "for a period of five
    years after the date of improvement or repaving" unless the Common Council finds it
    absolutely essential. Reading: the opening may be issued from the fifth anniversary of the
    repaving on (add_months clamps Feb 29 to Feb 28), or earlier once the Council's approval,
    dated on or before the issue day, is on record."""
    if paved_on is None or day >= moratorium_ends(paved_on):
        return []
    if council_approved_on is not None and council_approved_on <= day:
        return []
    where = street or "The street"
    return [
        f"{where} was repaved on {short_date(paved_on)}; it may not be opened before "
        f"{short_date(moratorium_ends(paved_on))} (five years) unless the Common Council "
        "approves the opening as absolutely essential, and no approval is on record "
        "(§435-8.I, Excavation in new streets limited)."
    ]


def house_number_holds(needs_number: bool, house_number: str, pin: str, section: str) -> list[str]:
    """A building permit for a new structure waits for the lot's official house number: New
    Lisbon §435-15.E ("No building permit shall be issued ... until the owner has procured ...
    the official number"); Glendale's application states "the house number thereof",
    15.1.7(b)(1). `section` is the municipality's own (intake_fees.toml house_number_section)."""
    if not needs_number or house_number.strip():
        return []
    return [
        f"No official house number is on record for parcel {pin}; a building permit for a new "
        f"structure is not issued until it is recorded ({section})"
    ]


# 15.1.36: the kinds that connect to the public sewer (Glendale's plumbing and sewer/water
# connection permits; a grease interceptor's annual permit connects nothing new).
SEWER_CONNECTION_KINDS = frozenset({"PLUMBING", "SEWER-WATER"})
# 15.1.9(b), 15.1.3(d)(3), 15.1.3(c)(3): building work on an existing building. COM-NEW is
# "new building or addition": its damage is only recorded for an addition.
DAMAGE_WORK = frozenset(
    {WorkClass.ADDITION, WorkClass.ALTERATION, WorkClass.REPAIR, WorkClass.MOVE}
)
DAMAGE_KINDS = frozenset({"COM-NEW"})
DAMAGE_LIMIT_PERCENT = 50


def sewer_tax_holds(kind: PermitKind, pin: str, delinquent: bool, permission: str) -> list[str]:
    """15.1.36: a sewer connection waits for the delinquency to be paid, or for the Plumbing
    Inspector's special permission on record."""
    if kind.code not in SEWER_CONNECTION_KINDS or not delinquent or permission.strip():
        return []
    return [
        f"Sewer tax or assessment on parcel {pin} is delinquent; the Plumbing Inspector's "
        "special permission is not recorded (15.1.36)"
    ]


def damage_applies(kind: PermitKind) -> bool:
    """Whether the 50% damage rule concerns this kind of permit (building work on an existing
    building: repairs, alterations, additions, moving)."""
    return kind.trade == "building" and (
        kind.work_class in DAMAGE_WORK or kind.code in DAMAGE_KINDS
    )


def damage_holds(kind: PermitKind, damage_percent: int | None) -> list[str]:
    """15.1.9(b): "fifty percent (50%) or more" of equalized value, as the inspector found it."""
    if damage_percent is None or damage_percent < DAMAGE_LIMIT_PERCENT or not damage_applies(kind):
        return []
    return [
        f"The building was damaged 50% or more of its equalized value ({damage_percent}%) and "
        "may not be repaired, altered or moved (15.1.9(b), 15.1.3(d)(3))"
    ]
