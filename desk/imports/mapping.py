"""Which column of a data file fills which field of a parcel.

A mapping gives each field (a `Target`) the column or columns it is read from; a field mapped
to several columns joins them as the field's rule says (the V10 street is PREFIX, STREETNAME,
STREETTYPE and SUFFIX). The Wisconsin statewide parcel schema (V10) is a shipped preset; an
office with another layout maps its columns once on the mapping screen and the mapping is kept
with the municipality (settings["parcel_mapping"]).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from desk.errors import ValidationError


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    required: bool = False
    hint: str = ""


# The fields a parcel takes from a file, in the order the mapping screen lists them.
TARGETS: tuple[Target, ...] = (
    Target("pin", "Parcel number (PIN)", required=True, hint="the key: one row per parcel"),
    Target("state_id", "State parcel id", hint="V10 STATEID; the key when the PIN is blank"),
    Target("tax_parcel_id", "Tax parcel id"),
    Target("owner_name", "Owner of record"),
    Target("owner_name_2", "Second owner"),
    Target("owner_address", "Owner's mailing address"),
    Target("site_address", "Site address (one line)", hint="read when the parts are not mapped"),
    Target("house_number", "House number"),
    Target("street", "Street"),
    Target("unit", "Unit"),
    Target("city", "City"),
    Target("zip", "ZIP"),
    Target("property_classes", "Property class(es)", hint="a list: '4, 5M' is two"),
    Target("aux_classes", "Auxiliary class(es)"),
    Target("acres", "Acres", hint="the first of several columns that is not zero"),
    Target("assessed_value", "Assessed value"),
    Target("land_value", "Land value"),
    Target("improvement_value", "Improvement value"),
    Target("fair_market_value", "Estimated fair-market value"),
    Target("tax_roll_year", "Tax roll year"),
    Target("latitude", "Latitude"),
    Target("longitude", "Longitude"),
    Target("placename", "Municipality (PLACENAME)", hint="rows of other places are left out"),
)
TARGET_KEYS = tuple(t.key for t in TARGETS)
LABELS = {t.key: t.label for t in TARGETS}

# Targets whose columns are joined (the V10 address parts): the house number's with nothing
# between (ADDNUMPREFIX N, ADDNUM 1234, ADDNUMSUFFIX A: the grid address "N1234A"), the others
# with spaces; "acres" takes the first column that is neither blank nor zero; any other target
# takes the first column that is not blank.
JOINED = {"house_number": "", "street": " ", "unit": " ", "owner_address": " "}

V10 = "v10"
CUSTOM = "custom"

# The Wisconsin statewide parcel schema, version 10 (Wisconsin State Cartographer's Office).
V10_COLUMNS = (
    "STATEID",
    "PARCELID",
    "TAXPARCELID",
    "PARCELDATE",
    "TAXROLLYEAR",
    "OWNERNME1",
    "OWNERNME2",
    "PSTLADRESS",
    "SITEADRESS",
    "ADDNUMPREFIX",
    "ADDNUM",
    "ADDNUMSUFFIX",
    "PREFIX",
    "STREETNAME",
    "STREETTYPE",
    "SUFFIX",
    "LANDMARKNAME",
    "UNITTYPE",
    "UNITID",
    "PLACENAME",
    "ZIPCODE",
    "ZIP4",
    "STATE",
    "SCHOOLDIST",
    "SCHOOLDISTNO",
    "CNTASSDVALUE",
    "LNDVALUE",
    "IMPVALUE",
    "MFLVALUE",
    "ESTFMKVALUE",
    "NETPRPTA",
    "GRSPRPTA",
    "PROPCLASS",
    "AUXCLASS",
    "ASSDACRES",
    "DEEDACRES",
    "GISACRES",
    "CONAME",
    "LOADDATE",
    "PARCELFIPS",
    "PARCELSRC",
    "LONGITUDE",
    "LATITUDE",
)

V10_MAPPING: dict[str, tuple[str, ...]] = {
    "pin": ("PARCELID",),
    "state_id": ("STATEID",),
    "tax_parcel_id": ("TAXPARCELID",),
    "owner_name": ("OWNERNME1",),
    "owner_name_2": ("OWNERNME2",),
    "owner_address": ("PSTLADRESS",),
    "site_address": ("SITEADRESS",),
    "house_number": ("ADDNUMPREFIX", "ADDNUM", "ADDNUMSUFFIX"),
    "street": ("PREFIX", "STREETNAME", "STREETTYPE", "SUFFIX"),
    "unit": ("UNITID",),
    "city": ("PLACENAME",),
    "zip": ("ZIPCODE",),
    "property_classes": ("PROPCLASS",),
    "aux_classes": ("AUXCLASS",),
    "acres": ("ASSDACRES", "DEEDACRES", "GISACRES"),
    "assessed_value": ("CNTASSDVALUE",),
    "land_value": ("LNDVALUE",),
    "improvement_value": ("IMPVALUE",),
    "fair_market_value": ("ESTFMKVALUE",),
    "tax_roll_year": ("TAXROLLYEAR",),
    "latitude": ("LATITUDE",),
    "longitude": ("LONGITUDE",),
    "placename": ("PLACENAME",),
}


@dataclass(frozen=True)
class ColumnMapping:
    """A mapping: target key -> the columns it is read from (in order)."""

    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    preset: str = CUSTOM

    def of(self, key: str) -> tuple[str, ...]:
        return self.columns.get(key, ())

    def used_columns(self) -> list[str]:
        out: list[str] = []
        for cols in self.columns.values():
            out.extend(c for c in cols if c not in out)
        return out

    def to_dict(self) -> dict[str, object]:
        return {"preset": self.preset, "columns": {k: list(v) for k, v in self.columns.items()}}


def _v10_column(have: dict[str, str], name: str) -> str | None:
    """The file's column for a V10 field: its name in any case, or cut to ten characters as a
    shapefile's .dbf cuts it (ADDNUMPREFIX -> ADDNUMPREF)."""
    return have.get(name) or have.get(name[:10])


def v10_mapping(columns: Sequence[str] = V10_COLUMNS) -> ColumnMapping:
    """The V10 preset, keeping only the columns the file has (county files leave some out)."""
    have = {c.upper(): c for c in columns}
    out: dict[str, tuple[str, ...]] = {}
    for key, wanted in V10_MAPPING.items():
        found = tuple(c for c in (_v10_column(have, w) for w in wanted) if c is not None)
        if found:
            out[key] = found
    return ColumnMapping(out, V10)


def looks_like_v10(columns: Sequence[str]) -> bool:
    """The file has the V10 key and address columns (upper or lower case)."""
    have = {c.upper() for c in columns}
    return {"PARCELID", "OWNERNME1", "SITEADRESS"} <= have or {"STATEID", "PARCELID"} <= have


def mapping_from_dict(raw: Mapping[str, object] | None) -> ColumnMapping | None:
    """A saved mapping (settings["parcel_mapping"]), or None when there is none or it is not
    one (a hand-edited setting is ignored rather than trusted)."""
    if not isinstance(raw, Mapping):
        return None
    cols = raw.get("columns")
    if not isinstance(cols, Mapping):
        return None
    out: dict[str, tuple[str, ...]] = {}
    for key, value in cols.items():
        if key in TARGET_KEYS and isinstance(value, list | tuple):
            names = tuple(str(v) for v in value if isinstance(v, str) and v)
            if names:
                out[str(key)] = names
    preset = raw.get("preset")
    return ColumnMapping(out, str(preset) if preset in (V10, CUSTOM) else CUSTOM)


def suggest(columns: Sequence[str], saved: ColumnMapping | None = None) -> ColumnMapping:
    """The mapping the screen starts from: the saved one when the file has its columns, the
    V10 preset for a V10 file, else columns whose names match a field's."""
    if saved is not None and saved.columns and set(saved.used_columns()) <= set(columns):
        return saved
    if looks_like_v10(columns):
        return v10_mapping(columns)
    plain = {_plain(c): c for c in columns}
    out: dict[str, tuple[str, ...]] = {}
    for target in TARGETS:
        for alias in (target.key, target.label, *_ALIASES.get(target.key, ())):
            found = plain.get(_plain(alias))
            if found is not None:
                out[target.key] = (found,)
                break
    return ColumnMapping(out, CUSTOM)


def _plain(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


_ALIASES: dict[str, tuple[str, ...]] = {
    "pin": ("parcel", "parcel number", "parcelid", "parcel id", "tax key", "taxkey"),
    "owner_name": ("owner", "owner name"),
    "owner_address": ("mailing address", "owner address"),
    "site_address": ("address", "site address", "property address"),
    "house_number": ("number", "house no"),
    "zip": ("zip code", "zipcode", "postal code"),
    "acres": ("acreage",),
    "assessed_value": ("assessed", "assessment"),
}


def check_mapping(mapping: ColumnMapping, columns: Sequence[str], where: str) -> None:
    """Every required field is mapped and every mapped column is in the file; the error names
    the layer and the field ('parcels.gdb, layer PARCELS: Parcel number (PIN): ...')."""
    have = set(columns)
    if not mapping.of("pin") and not mapping.of("state_id"):
        raise ValidationError(
            f"{where}: {LABELS['pin']}",
            "choose the column that holds the parcel number (the key; V10: PARCELID)",
        )
    for key, cols in mapping.columns.items():
        if key not in LABELS:
            raise ValidationError(f"{where}: {key}", "is not a field of a parcel")
        missing = [c for c in cols if c not in have]
        if missing:
            raise ValidationError(
                f"{where}: {LABELS[key]}",
                f"the file has no column {', '.join(missing)}",
            )
