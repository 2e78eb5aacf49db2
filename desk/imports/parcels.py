"""A row of the county's parcel file as a parcel, and the dry run of an import: what would be
new, what would change field by field, what is unchanged, what the register has that the file
does not, what the file says against what the office keeps, and the rows rejected with why.

The sync rules (the register is the office's; the county's file is the county's):
- The county's fields (COUNTY_FIELDS: owners of record and their mailing address, the parcel
  ids, site address, classes, acreage, values, tax roll year, coordinates) are updated from the
  file on every import.
- What the office keeps itself (the house number it assigned, the zoning district, the sewer
  delinquency, its notes, the legal description and lot area) is set from the file only on a
  parcel the import creates, or where the office left it blank; a file that says otherwise is
  listed as a conflict and never overwrites it. (County files carry only the house number of
  these.)
- A parcel on the register but not in the file is listed, never retired; a retired parcel the
  file still has is listed and left as it is.
- A parcel number (PIN) twice in the file rejects every row that has it: which is right is for
  the county to say. Blank keys and unreadable values reject the row, naming the field.

Text is read tolerantly, as county files write it: every attribute is text, street types spelled
out ("AVENUE" is kept as "Ave", USPS Publication 28), several municipalities in one file (the
rows of other places, by PLACENAME, are counted and left out), money with or without "$" and
thousands separators, acreage to four decimals and coordinates to seven (rounded half-even).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from functools import lru_cache

from desk.domain.search import STREET_ABBREVIATIONS
from desk.imports.files import LAT, LON, Row
from desk.imports.mapping import JOINED, LABELS, ColumnMapping

MAX_PIN = 40
ACRES = Decimal("0.0001")
DEGREES = Decimal("0.0000001")
MAX_MONEY = Decimal("10000000000")  # $10 billion: anything larger is a misread column

# The State's property classes (Wis. Stat. 70.32(2)(a)) and the V10 auxiliary classes (exempt
# and special: X1-X4, W1-W9, AW, AWO, M). A class outside them is imported as the file has it
# and noted in the dry run.
PROPERTY_CLASSES = frozenset({"1", "2", "3", "4", "5", "5M", "6", "7"})
AUX_CLASSES = frozenset(
    {"X1", "X2", "X3", "X4", "AW", "AWO", "M", *(f"W{n}" for n in range(1, 10))}
)


@dataclass(frozen=True, slots=True)
class CountyParcel:
    """A parcel as the county's file describes it, parsed."""

    pin: str
    state_id: str = ""
    tax_parcel_id: str = ""
    owner_name: str = ""
    owner_name_2: str = ""
    owner_address: str = ""
    house_number: str = ""
    street: str = ""
    unit: str = ""
    city: str = ""
    zip: str = ""
    property_classes: tuple[str, ...] = ()
    aux_classes: tuple[str, ...] = ()
    acres: Decimal | None = None
    assessed_value: Decimal | None = None
    land_value: Decimal | None = None
    improvement_value: Decimal | None = None
    fair_market_value: Decimal | None = None
    tax_roll_year: int | None = None
    latitude: Decimal | None = None
    longitude: Decimal | None = None


# Updated from the file on every import.
COUNTY_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(CountyParcel) if f.name not in ("pin", "house_number")
)
FIELD_LABELS = {**LABELS, "pin": "Parcel number (PIN)"}


@dataclass(frozen=True, slots=True)
class RegisterParcel:
    """A parcel of the register as the import compares it: its id, whether it is retired, the
    house number the office keeps, and the county's fields as the register holds them."""

    id: int
    pin: str
    retired: bool
    house_number: str
    county: CountyParcel


@dataclass(frozen=True)
class FieldChange:
    field: str
    label: str
    old: str
    new: str


@dataclass(frozen=True)
class NewParcel:
    line: int
    parcel: CountyParcel


@dataclass(frozen=True)
class ChangedParcel:
    line: int
    parcel_id: int
    parcel: CountyParcel
    changes: tuple[FieldChange, ...]


@dataclass(frozen=True)
class Conflict:
    """The file says otherwise about a field the office keeps: listed, not applied."""

    line: int
    parcel_id: int
    pin: str
    field: str
    label: str
    office: str
    county: str


@dataclass(frozen=True)
class Missing:
    parcel_id: int
    pin: str
    address: str


@dataclass(frozen=True)
class Rejected:
    line: int
    pin: str
    reason: str


@dataclass(frozen=True)
class RetiredInFile:
    line: int
    parcel_id: int
    pin: str


@dataclass(frozen=True)
class Note:
    """Imported as the file has it, but worth a look (a class outside the State's list)."""

    line: int
    pin: str
    text: str


@dataclass
class ParsedFile:
    """The file's rows as parcels: the ones kept, the rejected, and the places left out."""

    parcels: list[tuple[int, CountyParcel]] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    places_left_out: dict[str, int] = field(default_factory=dict)
    rows_read: int = 0


@dataclass
class ImportPlan:
    """The dry run: what the import does if applied now."""

    new: list[NewParcel] = field(default_factory=list)
    changed: list[ChangedParcel] = field(default_factory=list)
    unchanged: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)
    retired: list[RetiredInFile] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    places_left_out: dict[str, int] = field(default_factory=dict)
    rows_read: int = 0

    @property
    def counts(self) -> dict[str, int]:
        return {
            "rows read": self.rows_read,
            "new": len(self.new),
            "changed": len(self.changed),
            "unchanged": self.unchanged,
            "conflicts": len(self.conflicts),
            "not in the file": len(self.missing),
            "retired on the register": len(self.retired),
            "rejected": len(self.rejected),
            "left out (other places)": sum(self.places_left_out.values()),
        }

    @property
    def writes(self) -> int:
        """Parcels the import would create or change."""
        return len(self.new) + len(self.changed)

    def summary(self) -> str:
        """'12 new, 3 changed, 140 unchanged, 2 not in the file, 6 rejected'."""
        parts = [
            f"{len(self.new):,} new",
            f"{len(self.changed):,} changed",
            f"{self.unchanged:,} unchanged",
        ]
        for n, words in (
            (len(self.conflicts), "conflicts with the office's records"),
            (len(self.missing), "not in the file"),
            (len(self.retired), "retired on the register"),
            (len(self.rejected), "rejected"),
            (sum(self.places_left_out.values()), "of other places left out"),
        ):
            if n:
                parts.append(f"{n:,} {words}")
        return ", ".join(parts)


# --- reading a row -------------------------------------------------------------------------


class _Bad(Exception):
    """A value of the row cannot be read: the row is rejected with this reason."""


_HIGHWAY_PREFIXES = frozenset({"USH", "STH", "CTH", "US", "CTY", "CO", "SR", "IH", "I"})
_DIRECTIONS = frozenset({"N", "S", "E", "W", "NE", "NW", "SE", "SW"})
_UNIT_WORDS = frozenset({"UNIT", "APT", "STE", "SUITE", "#", "RM", "LOT", "BLDG", "FL"})
_PLACE_KINDS = ("CITY OF ", "VILLAGE OF ", "TOWN OF ")


def _word(token: str) -> str:
    """One word of a street as the office writes it: 'AVENUE' -> 'Ave', 'NORTH' -> 'N',
    'PRAIRIE' -> 'Prairie', '1ST' -> '1st', "O'BRIEN" -> "O'Brien"."""
    upper = token.upper()
    abbreviation = STREET_ABBREVIATIONS.get(upper.lower())
    if abbreviation is not None:
        upper = abbreviation.upper()
    if upper in _DIRECTIONS:
        return upper
    if any(ch.isdigit() for ch in upper):
        return upper.lower() if re.fullmatch(r"\d+(ST|ND|RD|TH)", upper) else upper
    return "'".join(p[:1].upper() + p[1:].lower() for p in upper.split("'"))


def street_text(parts: Iterable[str]) -> str:
    """The street from its parts (V10 PREFIX, STREETNAME, STREETTYPE, SUFFIX, or one line):
    'S', 'PRAIRIE', 'STREET' -> 'S Prairie St'. After a highway prefix (USH, STH, CTH) the
    route keeps its capitals: 'CTH VV', 'USH 14/61'."""
    return _street(" ".join(p for p in parts if p))


@lru_cache(maxsize=8192)  # a municipality has a few hundred streets, each on many rows
def _street(line: str) -> str:
    tokens = line.split()
    if not tokens:
        return ""
    if tokens[0].upper() in _HIGHWAY_PREFIXES:
        return " ".join(t.upper() for t in tokens)
    out = [_word(t) for t in tokens]
    # 'HWY 27' after a spelled-out 'STATE' or 'COUNTY': the route number as it is.
    return " ".join(out)


def _split_site_address(line: str) -> tuple[str, str, str]:
    """(house number, street, unit) of a one-line site address: '100 ELM ST #3' ->
    ('100', 'Elm St', '3'); 'E7551 US HWY 14/61' -> ('E7551', 'US HWY 14/61', '')."""
    tokens = line.split()
    number = ""
    if tokens and any(ch.isdigit() for ch in tokens[0]) and len(tokens) > 1:
        number = tokens.pop(0).upper()
    unit = ""
    for i, token in enumerate(tokens):
        upper = token.upper()
        if upper.startswith("#") and len(upper) > 1:
            unit = " ".join(t.upper() for t in [upper[1:], *tokens[i + 1 :]])
            tokens = tokens[:i]
            break
        if upper in _UNIT_WORDS and i > 0 and i + 1 < len(tokens):
            unit = " ".join(t.upper() for t in tokens[i + 1 :])
            tokens = tokens[:i]
            break
    return number, street_text(tokens), unit


@lru_cache(maxsize=1024)
def city_text(place: str) -> str:
    """The city line from a place name: 'CITY OF WESTBY' -> 'Westby'; 'Glendale' as typed."""
    text = " ".join(place.split())
    upper = text.upper()
    for kind in _PLACE_KINDS:
        if upper.startswith(kind):
            text = text[len(kind) :]
            break
    return " ".join(_word(w) for w in text.split()) if text.isupper() else text


def place_key(place: str) -> str:
    """PLACENAME compared as text: case and spacing folded, nothing else."""
    return " ".join(place.split()).casefold()


@lru_cache(maxsize=1024)
def classes(text: str) -> tuple[str, ...]:
    """'4, 5M' -> ('4', '5M'); 'X4,S1' -> ('X4', 'S1'); repeats kept once, in order."""
    out: list[str] = []
    for part in re.split(r"[,;/\s]+", text.upper()):
        if part and part not in out:
            out.append(part)
    return tuple(out)


def _decimal(text: str, label: str) -> Decimal | None:
    cleaned = text.replace(",", "").replace("$", "").strip()
    if not cleaned:
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise _Bad(f"{label}: '{text}' is not a number") from None
    if not value.is_finite():
        raise _Bad(f"{label}: '{text}' is not a number")
    return value


@lru_cache(maxsize=65536)  # assessments repeat across a municipality's parcels
def _money(text: str, label: str) -> Decimal | None:
    value = _decimal(text, label)
    if value is None:
        return None
    if value < 0 or value >= MAX_MONEY:
        raise _Bad(f"{label}: '{text}' is not an amount a parcel is valued at")
    # Values are whole dollars in county files; cents are kept, fractions of a cent rounded.
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


@lru_cache(maxsize=65536)
def _acres(texts: tuple[str, ...], label: str) -> Decimal | None:
    """The first of the columns that is neither blank nor zero (V10: assessed, deed, GIS)."""
    for text in texts:
        value = _decimal(text, label)
        if value is None or value == 0:
            continue
        if value < 0 or value > 1_000_000:
            raise _Bad(f"{label}: '{text}' is not an acreage")
        return value.quantize(ACRES, rounding=ROUND_HALF_EVEN)
    return None


@lru_cache(maxsize=256)
def _year(text: str, label: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    value = _decimal(text, label)
    if value is None or value != value.to_integral_value() or not 1800 <= value <= 2200:
        raise _Bad(f"{label}: '{text}' is not a year")
    return int(value)


def _degrees(text: str, label: str, limit: int) -> Decimal | None:
    value = _decimal(text, label)
    if value is None:
        return None
    if not -limit <= value <= limit or value == 0:
        raise _Bad(f"{label}: '{text}' is not a {label.lower()} in degrees")
    return value.quantize(DEGREES, rounding=ROUND_HALF_EVEN)


class RowReader:
    """Reads the file's rows as parcels under one mapping (and place filter)."""

    def __init__(self, mapping: ColumnMapping, place: str | None) -> None:
        self.mapping = mapping
        self.place = place_key(place) if place else None
        self.cols = {key: mapping.of(key) for key in LABELS}

    def _get(self, values: Mapping[str, str], key: str) -> str:
        """The field's text (values arrive stripped from desk.imports.files)."""
        cols = self.cols[key]
        if not cols:
            return ""
        if len(cols) == 1:
            return values.get(cols[0], "")
        joint = JOINED.get(key)
        if joint is not None:
            return joint.join(v for v in (values.get(c, "") for c in cols) if v)
        for c in cols:
            v = values.get(c, "")
            if v:
                return v
        return ""

    def place_of(self, values: Mapping[str, str]) -> str:
        return self._get(values, "placename")

    def read(self, values: Mapping[str, str], line: int) -> tuple[CountyParcel, list[Note]]:
        """The parcel of one row, or _Bad naming the field that cannot be read."""
        g = self._get
        pin = g(values, "pin") or g(values, "state_id")
        if not pin:
            raise _Bad("the parcel number is blank")
        if len(pin) > MAX_PIN:
            raise _Bad(f"the parcel number '{pin[:60]}' is longer than {MAX_PIN} characters")
        house, street, unit = g(values, "house_number"), g(values, "street"), g(values, "unit")
        if street:
            street = street_text([street])
        site = g(values, "site_address")
        notes: list[Note] = []
        if site:
            site_number, site_street, site_unit = _split_site_address(site)
            if not street:
                house, street, unit = house or site_number, site_street, unit or site_unit
            elif (site_number, site_street.casefold()) != (house.upper(), street.casefold()):
                shown = " ".join(x for x in (house, street) if x)
                notes.append(
                    Note(line, pin, f"the site address '{site}' differs from its parts ({shown})")
                )
        city = g(values, "city")
        lat = g(values, "latitude") or values.get(LAT, "")
        lon = g(values, "longitude") or values.get(LON, "")
        parcel = CountyParcel(
            pin=pin,
            state_id=g(values, "state_id")[:40],
            tax_parcel_id=g(values, "tax_parcel_id")[:40],
            owner_name=g(values, "owner_name")[:200],
            owner_name_2=g(values, "owner_name_2")[:200],
            owner_address=" ".join(g(values, "owner_address").split())[:300],
            house_number=house.upper()[:20],
            street=street[:120],
            unit=unit.lstrip("#").strip()[:20],
            city=city_text(city)[:80] if city else "",
            zip=g(values, "zip")[:10],
            property_classes=classes(g(values, "property_classes")),
            aux_classes=classes(g(values, "aux_classes")),
            acres=_acres(tuple(values.get(c, "") for c in self.cols["acres"]), LABELS["acres"]),
            assessed_value=_money(g(values, "assessed_value"), LABELS["assessed_value"]),
            land_value=_money(g(values, "land_value"), LABELS["land_value"]),
            improvement_value=_money(g(values, "improvement_value"), LABELS["improvement_value"]),
            fair_market_value=_money(g(values, "fair_market_value"), LABELS["fair_market_value"]),
            tax_roll_year=_year(g(values, "tax_roll_year"), LABELS["tax_roll_year"]),
            latitude=_degrees(lat, "Latitude", 90),
            longitude=_degrees(lon, "Longitude", 180),
        )
        if parcel.owner_name and not parcel.owner_address:
            notes.append(Note(line, pin, "the owner of record has no mailing address"))
        odd = [c for c in parcel.property_classes if c not in PROPERTY_CLASSES]
        odd += [c for c in parcel.aux_classes if c not in AUX_CLASSES]
        if odd:
            notes.append(
                Note(
                    line,
                    pin,
                    f"class {', '.join(odd)} is not one of the State's; kept as the file has it",
                )
            )
        return parcel, notes


def parse_rows(rows: Iterable[Row], mapping: ColumnMapping, place: str | None = None) -> ParsedFile:
    """The rows as parcels. `place`: only rows whose PLACENAME is this one (case and spacing
    aside); the others are counted by place and left out."""
    reader = RowReader(mapping, place)
    out = ParsedFile()
    kept: list[tuple[int, CountyParcel]] = []
    filter_place = reader.place is not None and bool(reader.cols.get("placename"))
    for row in rows:
        out.rows_read += 1
        if filter_place:
            where = reader.place_of(row.values)
            if place_key(where) != reader.place:
                name = where or "(no place name)"
                out.places_left_out[name] = out.places_left_out.get(name, 0) + 1
                continue
        try:
            parcel, notes = reader.read(row.values, row.line)
        except _Bad as e:
            pin = reader._get(row.values, "pin") or reader._get(row.values, "state_id")
            out.rejected.append(Rejected(row.line, pin, str(e)))
            continue
        kept.append((row.line, parcel))
        out.notes.extend(notes)
    # A PIN twice in the file: every row that has it is rejected (which is right is the
    # county's to say), naming the other lines.
    seen = Counter(p.pin.casefold() for _, p in kept)
    twice = {pin for pin, n in seen.items() if n > 1}
    if twice:
        lines: dict[str, list[int]] = {}
        for line, p in kept:
            if p.pin.casefold() in twice:
                lines.setdefault(p.pin.casefold(), []).append(line)
        for line, p in kept:
            if p.pin.casefold() in twice:
                others = [n for n in lines[p.pin.casefold()] if n != line]
                shown = ", ".join(str(n) for n in others[:5]) + (", …" if len(others) > 5 else "")
                out.rejected.append(
                    Rejected(line, p.pin, f"the parcel number {p.pin} is also on row {shown}")
                )
        kept = [(line, p) for line, p in kept if p.pin.casefold() not in twice]
    out.rejected.sort(key=lambda r: r.line)
    out.parcels = kept
    return out


# --- comparing with the register -----------------------------------------------------------


def shown(value: object) -> str:
    """A field's value as the dry run prints it."""
    if value is None or value == "" or value == ():
        return "(blank)"
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _same(a: object, b: object) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
    return a == b


def plan_import(
    parsed: ParsedFile,
    register: Mapping[str, RegisterParcel],
    by_state_id: Mapping[str, RegisterParcel] | None = None,
    *,
    include_missing: bool = True,
) -> ImportPlan:
    """The dry run of `parsed` against the register's parcels (by PIN, case-insensitively; a
    PIN not on the register matches a parcel with the same state parcel id)."""
    by_pin = {pin.casefold(): p for pin, p in register.items()}
    by_state = {k: v for k, v in (by_state_id or {}).items() if k}
    plan = ImportPlan(
        rejected=list(parsed.rejected),
        notes=list(parsed.notes),
        places_left_out=dict(parsed.places_left_out),
        rows_read=parsed.rows_read,
    )
    matched: set[int] = set()
    for line, county in parsed.parcels:
        on = by_pin.get(county.pin.casefold())
        if on is None and county.state_id:
            on = by_state.get(county.state_id)
        if on is None:
            plan.new.append(NewParcel(line, county))
            continue
        if on.id in matched:  # two PINs of the file matched one parcel by its state id
            plan.rejected.append(
                Rejected(line, county.pin, f"the state parcel id {county.state_id} is repeated")
            )
            continue
        matched.add(on.id)
        if on.retired:
            plan.retired.append(RetiredInFile(line, on.id, on.pin))
            continue
        changes = tuple(
            FieldChange(name, FIELD_LABELS[name], shown(old), shown(new))
            for name in COUNTY_FIELDS
            if not _same(old := getattr(on.county, name), new := getattr(county, name))
        )
        if county.house_number and not _same(county.house_number, on.house_number):
            if not on.house_number:  # nothing the office assigned: filled in, not overwritten
                label = FIELD_LABELS["house_number"]
                changes += (FieldChange("house_number", label, "(blank)", county.house_number),)
            else:
                plan.conflicts.append(
                    Conflict(
                        line,
                        on.id,
                        on.pin,
                        "house_number",
                        FIELD_LABELS["house_number"],
                        on.house_number,
                        county.house_number,
                    )
                )
        if changes:
            plan.changed.append(ChangedParcel(line, on.id, county, changes))
        else:
            plan.unchanged += 1
    if include_missing:
        for p in sorted(register.values(), key=lambda r: r.pin):
            if p.id not in matched and not p.retired:
                address = " ".join(x for x in (p.house_number, p.county.street) if x)
                plan.missing.append(Missing(p.id, p.pin, address))
    plan.rejected.sort(key=lambda r: r.line)
    return plan
