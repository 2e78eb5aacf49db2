"""Creating a municipality: from its shipped profile (resources/municipalities.toml), or any
other Wisconsin city, village or town from what its administrator types (create_municipality)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from desk.clock import Clock
from desk.domain.model import Actor, Municipality
from desk.domain.municipality import FIRST_VERSION_FROM, version_of
from desk.domain.permissions import Permission, require
from desk.enforcement.rules import HOUSING_CODE_SETTING, NO_HOUSING_CODE
from desk.errors import ValidationError
from desk.housing.codes import housing_code_keys
from desk.profiles import shipped_profiles
from desk.services.uow import UnitOfWork


def ensure_municipality(uow: UnitOfWork, clock: Clock, actor: Actor | None, key: str) -> int:
    """Return the municipality's id, creating it from its profile on first use.

    `actor` is None only during first start, before any user exists.
    """
    profiles = shipped_profiles()
    if key not in profiles:
        raise ValidationError(
            "municipality", f"'{key}' has no profile; known: {', '.join(sorted(profiles))}"
        )
    if actor is not None:
        require(actor, Permission.MANAGE_MUNICIPALITY)
    p = profiles[key]
    with uow:
        existing = uow.municipalities.by_key(key)
        if existing is not None:
            assert existing.id is not None
            return existing.id
        uow.act_as(actor, clock.now())
        # Another workstation may be creating it too: wait for it, then look again.
        uow.serialise(f"municipality {key}")
        existing = uow.municipalities.by_key(key)
        if existing is not None:
            assert existing.id is not None
            return existing.id
        m = Municipality(
            key=key,
            name=p["name"],
            letterhead=list(p.get("letterhead", [])),
            inspector_name=p.get("inspector_name", ""),
            inspector_title=p.get("inspector_title", "Building Inspector"),
            ordinance=str(p.get("ordinance", "")),
            # A profile's [settings] (e.g. housing_code) start the municipality's settings.
            settings={
                **dict(p.get("settings", {})),
                "city": p.get("city", ""),
                "zip": p.get("zip", ""),
            },
        )
        uow.municipalities.add(m)
        uow.flush()
        # Its first letterhead version is in force from FIRST_VERSION_FROM, not from now:
        # permits entered later with earlier dates (records brought over from paper) must
        # print too, and until an administrator changes it the municipality printed as set up.
        uow.registers.add(version_of(m, FIRST_VERSION_FROM))
        uow.commit()
        assert m.id is not None
        return m.id


# --- any Wisconsin municipality --------------------------------------------------------------

KINDS = ("city", "village", "town")
# Wisconsin's 72 counties (Wis. Stat. 2.01).
COUNTIES = (
    "Adams", "Ashland", "Barron", "Bayfield", "Brown", "Buffalo", "Burnett", "Calumet",
    "Chippewa", "Clark", "Columbia", "Crawford", "Dane", "Dodge", "Door", "Douglas", "Dunn",
    "Eau Claire", "Florence", "Fond du Lac", "Forest", "Grant", "Green", "Green Lake", "Iowa",
    "Iron", "Jackson", "Jefferson", "Juneau", "Kenosha", "Kewaunee", "La Crosse", "Lafayette",
    "Langlade", "Lincoln", "Manitowoc", "Marathon", "Marinette", "Marquette", "Menominee",
    "Milwaukee", "Monroe", "Oconto", "Oneida", "Outagamie", "Ozaukee", "Pepin", "Pierce",
    "Polk", "Portage", "Price", "Racine", "Richland", "Rock", "Rusk", "St. Croix", "Sauk",
    "Sawyer", "Shawano", "Sheboygan", "Taylor", "Trempealeau", "Vernon", "Vilas", "Walworth",
    "Washburn", "Washington", "Waukesha", "Waupaca", "Waushara", "Winnebago", "Wood",
)  # fmt: skip
# The shipped ordinances a new municipality's permit kinds, forms and fee schedule start from;
# its administrator edits the fees in Fee schedules (a new effective-dated version).
PERMIT_ORDINANCES = {
    "glendale": "Glendale's (building, plumbing, electrical, HVAC, erosion)",
    "new_lisbon": "New Lisbon's (street openings, sidewalks, privileges)",
}


@dataclass(frozen=True)
class NewMunicipality:
    """What the New municipality form asks."""

    name: str  # 'Westby', or 'City of Westby'
    kind: str  # city, village or town
    county: str
    letterhead: list[str] = field(default_factory=list)  # blank: the name and the department
    address: str = ""
    inspector_name: str = ""
    inspector_title: str = "Building Inspector"
    zip: str = ""
    placename: str = ""  # blank: 'CITY OF WESTBY', as the county's parcel file writes it
    housing_code: str = ""  # "hudson-140", "ch-512" or "" (none)
    ordinance: str = ""  # "glendale", "new_lisbon" or "" (no permit kinds)


@dataclass(frozen=True)
class CheckedMunicipality:
    key: str
    name: str  # 'City of Westby'
    place: str  # 'Westby'
    spec: NewMunicipality


def _bare_name(name: str, kind: str) -> str:
    """'City of Westby' -> 'Westby' (the kind is asked for on its own)."""
    text = " ".join(name.split())
    for k in KINDS:
        prefix = f"{k} of "
        if f"{text.lower()} ".startswith(prefix):  # 'City of' alone names no place
            return text[len(prefix) :].strip()
    return text


def check_new_municipality(spec: NewMunicipality) -> CheckedMunicipality:
    """The form checked in the order of its fields; ValidationError names the field."""
    kind = spec.kind.strip().lower()
    if kind not in KINDS:
        raise ValidationError("kind", "choose city, village or town")
    place = _bare_name(spec.name, kind)
    if not place:
        raise ValidationError("name", "enter the municipality's name, e.g. Westby")
    if len(place) > 150:
        raise ValidationError("name", "at most 150 characters")
    if not spec.county.strip():
        raise ValidationError("county", "choose the county the municipality is in")
    county = next((c for c in COUNTIES if c.lower() == spec.county.strip().lower()), "")
    if not county:
        raise ValidationError("county", f"'{spec.county.strip()}' is not a Wisconsin county")
    code = spec.housing_code.strip()
    if code and code not in housing_code_keys():
        raise ValidationError("housing code", f"no housing code '{code}' is shipped")
    if spec.ordinance and spec.ordinance not in PERMIT_ORDINANCES:
        raise ValidationError("permit kinds", f"no ordinance '{spec.ordinance}' is shipped")
    zip_ = spec.zip.strip()
    if zip_ and not re.fullmatch(r"\d{5}(-\d{4})?", zip_):
        raise ValidationError("ZIP", f"'{zip_}' is not a ZIP code")
    letterhead = [" ".join(line.split()) for line in spec.letterhead if line.strip()]
    if len(letterhead) > 6:
        raise ValidationError("letterhead", "at most 6 lines")
    placename = " ".join(spec.placename.split()).upper() or f"{kind} of {place}".upper()
    name = f"{kind.title()} of {place}"
    key = re.sub(r"[^a-z0-9]+", "_", f"{kind} {place}".lower()).strip("_")[:40]
    return CheckedMunicipality(
        key,
        name,
        place,
        NewMunicipality(
            name=name,
            kind=kind,
            county=county,
            letterhead=letterhead or [name, "Building Inspection Department"],
            address=spec.address.strip(),
            inspector_name=" ".join(spec.inspector_name.split()),
            inspector_title=" ".join(spec.inspector_title.split()) or "Building Inspector",
            zip=zip_,
            placename=placename,
            housing_code=code,
            ordinance=spec.ordinance,
        ),
    )


def create_municipality(uow: UnitOfWork, clock: Clock, actor: Actor, spec: NewMunicipality) -> int:
    """A new municipality of the register from the form: what it is (kind, county, its
    PLACENAME in the county's parcel file), what its documents print, and what it administers
    (a housing code or none; permit kinds and fees started from a shipped ordinance, or none).
    Its id. A name the register has already is refused."""
    require(actor, Permission.MANAGE_MUNICIPALITY)
    c = check_new_municipality(spec)
    s = c.spec
    with uow:
        uow.act_as(actor, clock.now())
        uow.serialise("new municipality")
        for other in uow.municipalities.all():
            if other.name.casefold() == c.name.casefold():
                raise ValidationError("name", f"the register has the {other.name} already")
        key, n = c.key, 2
        while key in shipped_profiles() or uow.municipalities.by_key(key) is not None:
            key, n = f"{c.key}_{n}", n + 1
        settings: dict[str, Any] = {
            "kind": s.kind,
            "county": s.county,
            "placename": s.placename,
            "city": c.place,
            "zip": s.zip,
            HOUSING_CODE_SETTING: s.housing_code or NO_HOUSING_CODE,
        }
        m = Municipality(
            key=key,
            name=c.name,
            letterhead=list(s.letterhead),
            address=s.address,
            inspector_name=s.inspector_name,
            inspector_title=s.inspector_title,
            ordinance=s.ordinance,
            settings=settings,
        )
        uow.municipalities.add(m)
        uow.flush()
        uow.registers.add(version_of(m, FIRST_VERSION_FROM))
        uow.commit()
        assert m.id is not None
        return m.id
