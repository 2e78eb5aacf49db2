"""What each shipped ordinance gives a municipality: the sections of the main window, the groups
of settings on the Municipality screen, the parts of its reports and the citations they print.

A municipality follows at most one permit ordinance (`Municipality.ordinance`: its permit kinds,
fee schedule, bonds and deposits) and at most one housing code (`settings["housing_code"]`: code
enforcement). What it provides is the union of the two, and nothing else: Glendale's screens and
printouts never cite Hudson ch. 140, Hudson's never cite Glendale's ch. 15.1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Part(StrEnum):
    """A section of the main window (and the part of a report that goes with it)."""

    PERMITS = "permits"  # permits, intake, inspections of permits, fee schedules, calculator
    BONDS = "bonds"  # bonds and insurance certificates
    DEPOSITS = "deposits"  # street deposits and their refunds
    LICENCES = "licences"  # City electrical licences (Glendale 15.1.75, 15.1.78)
    CONDEMNATIONS = "condemnations"  # the condemnation register
    ENFORCEMENT = "enforcement"  # code enforcement cases under a housing code
    ROOMING = "rooming"  # rooming-house licences (Hudson 140-10)


class SettingGroup(StrEnum):
    """A group of fields on the Municipality screen's Settings."""

    PERMIT_FEES = "permit_fees"  # fees-due section, refunds, plumbing clerical, fee date, C-404
    VACATE = "vacate"  # the vacate period of a condemnation (Hudson 140-11C)
    ROOMING_FEE = "rooming_fee"  # the rooming-house licence fee (Hudson 140-10A)


@dataclass(frozen=True)
class Ordinance:
    """One shipped ordinance: what it provides and how its sections are numbered."""

    key: str
    title: str
    parts: frozenset[Part]
    settings: frozenset[SettingGroup] = frozenset()
    # How its sections print; text of another municipality's screens never holds one.
    prefixes: tuple[str, ...] = ()
    condemnation: str = ""  # the section the condemnation register cites


ORDINANCES: dict[str, Ordinance] = {
    # Glendale Title 15 ch. 1: permits (15.1.21 fees), bonds for moving buildings, street
    # deposits (15.1.43), City electrical licences (15.1.75) and the record of condemnations
    # the inspector keeps (15.1.6(c)).
    "glendale": Ordinance(
        "glendale",
        "Glendale ch. 15.1 Building code",
        frozenset(Part) - {Part.ENFORCEMENT, Part.ROOMING},
        frozenset({SettingGroup.PERMIT_FEES}),
        prefixes=("15.1.",),
        condemnation="15.1.6(c)",
    ),
    # New Lisbon ch. 435: street openings, sidewalks and privileges, with bonds and deposits.
    "new_lisbon": Ordinance(
        "new_lisbon",
        "New Lisbon ch. 435 Streets",
        frozenset({Part.PERMITS, Part.BONDS, Part.DEPOSITS}),
        frozenset({SettingGroup.PERMIT_FEES}),
        prefixes=("435-",),
    ),
    # Hudson ch. 140 Minimum housing: notices and orders (140-3), rooming-house licences
    # (140-10), condemnation and placarding (140-11, vacate within 60 days).
    "hudson-140": Ordinance(
        "hudson-140",
        "Hudson ch. 140 Minimum housing",
        frozenset({Part.ENFORCEMENT, Part.ROOMING, Part.CONDEMNATIONS}),
        frozenset({SettingGroup.VACATE, SettingGroup.ROOMING_FEE}),
        prefixes=("Hudson", "140-", "ch. 140", "Ch. 140"),
        condemnation="140-11",
    ),
    # Ch. 512 Property maintenance: standards only, reviewed under Wis. Stat. ch. 68.
    "ch-512": Ordinance(
        "ch-512",
        "Ch. 512 Property maintenance",
        frozenset({Part.ENFORCEMENT}),
        prefixes=("512-",),
    ),
}
DEFAULT_HOUSING_CODE = "hudson-140"  # desk.enforcement.rules.DEFAULT_HOUSING_CODE
NO_HOUSING_CODE = "none"


@dataclass(frozen=True)
class Provides:
    """What one municipality's ordinances provide, and the prefixes of the others'."""

    ordinances: tuple[Ordinance, ...]

    @property
    def parts(self) -> frozenset[Part]:
        return frozenset(p for o in self.ordinances for p in o.parts)

    @property
    def settings(self) -> frozenset[SettingGroup]:
        return frozenset(s for o in self.ordinances for s in o.settings)

    def has(self, part: Part) -> bool:
        return part in self.parts

    def shows(self, group: SettingGroup) -> bool:
        return group in self.settings

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(o.key for o in self.ordinances)

    @property
    def condemnation(self) -> str:
        """The section(s) its condemnations cite: '15.1.6(c)' in Glendale, '140-11' in Hudson."""
        return "; ".join(o.condemnation for o in self.ordinances if o.condemnation)

    def foreign_prefixes(self) -> tuple[str, ...]:
        """The prefixes of every shipped ordinance this municipality does not follow."""
        return tuple(p for k, o in ORDINANCES.items() if k not in self.keys for p in o.prefixes)


def housing_code_of(ordinance: str, settings: Mapping[str, Any] | None) -> str:
    """The housing code a municipality enforces: its setting when it names one ("none": none);
    not set, none for a municipality on a permit ordinance (Glendale's and New Lisbon's
    profiles name no housing code), Hudson ch. 140 for one without (registers made before the
    setting existed)."""
    value = (settings or {}).get("housing_code")
    if value == NO_HOUSING_CODE:
        return ""
    if value:
        return str(value)
    return "" if ordinance else DEFAULT_HOUSING_CODE


def provides(ordinance: str | None, settings: Mapping[str, Any] | None) -> Provides:
    """What a municipality on permit ordinance `ordinance` ("" for none) with these settings
    provides; an ordinance or code not shipped provides nothing."""
    found = [ORDINANCES[k] for k in (ordinance or "",) if k in ORDINANCES]
    code = housing_code_of(ordinance or "", settings)
    if code in ORDINANCES:
        found.append(ORDINANCES[code])
    return Provides(tuple(found))
