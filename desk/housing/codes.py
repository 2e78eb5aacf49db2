"""Housing codes as data: every standard a dwelling can violate, shipped as
resources/housing_codes/<key>.toml and checked on load like the fee schedules.

Every error names the file, the item (its section) and the field, so whoever edits a code
file knows exactly what to fix.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from importlib import resources
from typing import Any

FOLDER = "housing_codes"


class HousingCodeError(ValueError):
    """A housing code file that cannot be used; the message says where and why."""


class Party(StrEnum):
    """Who must correct a violation (Hudson 140-9 splits owner and occupant duties)."""

    OWNER = "owner"
    OPERATOR = "operator"
    OCCUPANT = "occupant"


@dataclass(frozen=True)
class Standard:
    """One requirement of a housing code, as a notice of violation quotes it."""

    section: str  # "140-7B", "512-11B", "512-9A(1)"
    title: str
    text: str  # the code's words
    health_safety: bool  # Hudson 140-3A: it affects the health or safety of occupants or public
    responsible: tuple[Party, ...]  # the first is the usual one; note says when it shifts
    days: int  # default time to correct; the office may change it
    note: str = ""


@dataclass(frozen=True)
class HousingCode:
    key: str  # "hudson-140"
    name: str
    standards: tuple[Standard, ...]
    # The procedure its notices follow (resources/procedures): Hudson 140-3, or Wis. Stat.
    # ch. 68 for a code with no procedure of its own (Ch. 512).
    procedure: str = "hudson-140-3"

    def standard(self, section: str) -> Standard:
        for s in self.standards:
            if s.section == section:
                return s
        raise KeyError(f"{self.key} has no standard {section}")

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(s.section for s in self.standards)

    def with_days(self, days: Mapping[str, int]) -> HousingCode:
        """The code with the office's own times to correct (section -> days)."""
        unknown = set(days) - set(self.sections)
        if unknown:
            raise HousingCodeError(
                f"{self.key}: no standard {', '.join(sorted(unknown))} to set days for"
            )
        for section, value in days.items():
            _days(f"{self.key}, item {section}", value)
        return replace(
            self,
            standards=tuple(
                replace(s, days=days[s.section]) if s.section in days else s for s in self.standards
            ),
        )


_CODE_FIELDS = {"key", "name", "standards", "procedure"}
_ITEM_FIELDS = {"section", "title", "text", "health_safety", "responsible", "days", "note"}


def _text(where: str, name: str, value: Any, *, required: bool = True) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise HousingCodeError(f"{where}: field '{name}' is missing")
        return ""
    if not isinstance(value, str):
        raise HousingCodeError(f"{where}: field '{name}' must be text")
    return " ".join(value.split())


def _bool(where: str, name: str, value: Any) -> bool:
    if value is None:
        raise HousingCodeError(f"{where}: field '{name}' is missing")
    if not isinstance(value, bool):
        raise HousingCodeError(f"{where}: field '{name}' must be true or false")
    return value


def _days(where: str, value: Any) -> int:
    if value is None:
        raise HousingCodeError(f"{where}: field 'days' is missing")
    if isinstance(value, bool) or not isinstance(value, int):
        raise HousingCodeError(f"{where}: field 'days' must be a whole number of days")
    if value < 0:
        raise HousingCodeError(f"{where}: field 'days' must not be negative ({value})")
    return value


def _parties(where: str, value: Any) -> tuple[Party, ...]:
    if value is None:
        raise HousingCodeError(f"{where}: field 'responsible' is missing")
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise HousingCodeError(
            f"{where}: field 'responsible' must list owner, operator and/or occupant"
        )
    parties: list[Party] = []
    for v in items:
        try:
            party = Party(v)
        except ValueError:
            known = ", ".join(p.value for p in Party)
            raise HousingCodeError(
                f"{where}: field 'responsible' has {v!r}, not one of: {known}"
            ) from None
        if party in parties:
            raise HousingCodeError(f"{where}: field 'responsible' names {party} twice")
        parties.append(party)
    return tuple(parties)


def standard_from_dict(where: str, index: int, raw: Any) -> Standard:
    if not isinstance(raw, dict):
        raise HousingCodeError(f"{where}, item #{index + 1}: not a table of fields")
    section = raw.get("section")
    label = section if isinstance(section, str) and section.strip() else f"#{index + 1}"
    where = f"{where}, item {label}"
    unknown = set(raw) - _ITEM_FIELDS
    if unknown:
        raise HousingCodeError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    return Standard(
        section=_text(where, "section", section),
        title=_text(where, "title", raw.get("title")),
        text=_text(where, "text", raw.get("text")),
        health_safety=_bool(where, "health_safety", raw.get("health_safety")),
        responsible=_parties(where, raw.get("responsible")),
        days=_days(where, raw.get("days")),
        note=_text(where, "note", raw.get("note"), required=False),
    )


def housing_code_from_toml(name: str, text: str) -> HousingCode:
    """Parse and check a code file; `name` is the file name errors cite."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise HousingCodeError(f"{name}: not valid TOML: {e}") from None
    unknown = set(data) - _CODE_FIELDS
    if unknown:
        raise HousingCodeError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
    key = _text(name, "key", data.get("key"))
    code_name = _text(name, "name", data.get("name"))
    raw = data.get("standards")
    if not isinstance(raw, list) or not raw:
        raise HousingCodeError(f"{name}: it has no [[standards]]")
    standards = [standard_from_dict(name, i, r) for i, r in enumerate(raw)]
    seen: set[str] = set()
    for s in standards:
        if s.section in seen:
            raise HousingCodeError(f"{name}, item {s.section}: field 'section' appears twice")
        seen.add(s.section)
    # A code file that names none follows Hudson 140-3, as every code did before the field.
    procedure = _text(name, "procedure", data.get("procedure", "hudson-140-3"))
    return HousingCode(key=key, name=code_name, standards=tuple(standards), procedure=procedure)


def housing_code_keys() -> tuple[str, ...]:
    """The codes shipped in resources/housing_codes, sorted: ("ch-512", "hudson-140")."""
    folder = resources.files("resources").joinpath(FOLDER)
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


def load_housing_code(key: str) -> HousingCode:
    """The code shipped as resources/housing_codes/<key>.toml, checked."""
    keys = housing_code_keys()
    if key not in keys:
        raise HousingCodeError(f"no housing code '{key}' is shipped (shipped: {', '.join(keys)})")
    name = f"{key}.toml"
    path = resources.files("resources").joinpath(FOLDER).joinpath(name)
    code = housing_code_from_toml(name, path.read_text("utf-8"))
    if code.key != key:
        raise HousingCodeError(f"{name}: field 'key' says '{code.key}', not '{key}'")
    shipped = resources.files("resources").joinpath("procedures")
    if not shipped.joinpath(f"{code.procedure}.toml").is_file():
        raise HousingCodeError(
            f"{name}: field 'procedure' names '{code.procedure}', which is not shipped "
            "(resources/procedures)"
        )
    return code
