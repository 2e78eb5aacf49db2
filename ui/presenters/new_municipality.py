"""The New municipality form without Qt: any Wisconsin city, village or town, what its documents
print and what it administers. The letterhead and the PLACENAME follow the name as it is typed
until the user edits them; the service (desk.services.setup) checks again and is the gate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from desk.clock import Clock
from desk.domain.model import Actor
from desk.errors import DeskError, ValidationError
from desk.housing.codes import HousingCodeError, housing_code_keys, load_housing_code
from desk.services import setup
from desk.services.uow import UnitOfWork

DEPARTMENT = "Building Inspection Department"
# The form's fields in the order of the screen (the tab order follows it).
FIELD_ORDER = (
    "name",
    "kind",
    "county",
    "zip",
    "placename",
    "housing_code",
    "ordinance",
    "letterhead",
    "address",
    "inspector_name",
    "inspector_title",
)
LABELS = {
    "name": "Name",
    "kind": "Kind",
    "county": "County",
    "zip": "ZIP",
    "placename": "PLACENAME",
    "housing_code": "Housing code",
    "ordinance": "Permit kinds",
    "letterhead": "Letterhead",
    "address": "Address",
    "inspector_name": "Inspector's name",
    "inspector_title": "Inspector's title",
}
# The service names a field in words; the form knows it by key.
_BY_SERVICE_NAME = {
    "name": "name",
    "kind": "kind",
    "county": "county",
    "zip": "zip",
    "housing code": "housing_code",
    "permit kinds": "ordinance",
    "letterhead": "letterhead",
}
KIND_CHOICES = (("city", "City"), ("village", "Village"), ("town", "Town"))
NO_CODE = "none"
NO_PERMITS = ""
NOTES = {
    "name": "The place's name, e.g. Westby; the kind is chosen below.",
    "placename": "As the county's parcel file names it (its PLACENAME column): an import keeps "
    "this municipality's parcels only.",
    "housing_code": "The code its inspector enforces: cases, notices and the reports cite it.",
    "ordinance": "Its permit kinds, forms and fees. The fees start from that schedule and are "
    "edited in Administration → Fee schedules.",
    "letterhead": "One line each, the first printed bold; it follows the name until you change it.",
}


# How the form names each shipped housing code (its file's name says "City of Hudson, …").
CODE_WORDS = {"hudson-140": "Hudson ch. 140 Minimum Housing"}


@cache
def housing_code_choices() -> tuple[tuple[str, str], ...]:
    """(key, words) of the shipped housing codes, then none: the form's Housing code list."""
    out: list[tuple[str, str]] = []
    for key in sorted(housing_code_keys(), key=lambda k: (k != "hudson-140", k)):
        try:
            name = CODE_WORDS.get(key) or load_housing_code(key).name
        except HousingCodeError:
            continue
        out.append((key, name))
    out.append((NO_CODE, "None — no code enforcement"))
    return tuple(out)


def permit_choices() -> tuple[tuple[str, str], ...]:
    """(ordinance, words) of the shipped permit ordinances and none."""
    return (
        *setup.PERMIT_ORDINANCES.items(),
        (NO_PERMITS, "None — no permits (code enforcement only)"),
    )


@dataclass(frozen=True)
class FieldError:
    field: str  # a key of FIELD_ORDER, or "" for the form as a whole
    message: str  # names the field: 'County: 'Vernon Parish' is not a Wisconsin county'


@dataclass
class NewMunicipalityForm:
    name: str = ""
    kind: str = "city"
    county: str = ""
    zip: str = ""
    placename: str = ""
    housing_code: str = NO_CODE
    ordinance: str = NO_PERMITS
    letterhead: str = ""  # one line each
    address: str = ""
    inspector_name: str = ""
    inspector_title: str = "Building Inspector"
    # What the user typed over the suggestion: that field no longer follows the name.
    edited: set[str] = field(default_factory=set)


def _place(name: str) -> str:
    """'city of  Westby' -> 'Westby'."""
    text = " ".join(name.split())
    for kind, _label in KIND_CHOICES:
        if f"{text.lower()} ".startswith(f"{kind} of "):
            return text[len(kind) + 4 :].strip()
    return text


def _kind_typed(name: str) -> str:
    """The kind a name typed with it says ('Village of Ontario' -> 'village'); '' if none."""
    text = " ".join(name.split()).lower()
    return next((k for k, _ in KIND_CHOICES if text.startswith(f"{k} of ")), "")


def county_matches(text: str) -> list[str]:
    """The counties whose name starts with `text` (any case), then those containing it."""
    typed = " ".join(text.split()).casefold()
    starts = [c for c in setup.COUNTIES if c.casefold().startswith(typed)]
    return starts + [c for c in setup.COUNTIES if typed in c.casefold() and c not in starts]


class NewMunicipalityPresenter:
    """`save` creates the municipality (Administration → New municipality); `check` alone
    is enough for the first run, which creates it with the first administrator."""

    def __init__(self, form: NewMunicipalityForm | None = None) -> None:
        self.form = form or NewMunicipalityForm()
        self.error: FieldError | None = None
        self.created_id: int | None = None
        self._follow()

    # --- what follows the name -------------------------------------------------------------

    @property
    def full_name(self) -> str:
        """'City of Westby' as the register will name it; '' before a name is typed."""
        place = _place(self.form.name)
        kind = dict(KIND_CHOICES).get(self.form.kind, self.form.kind.title())
        return f"{kind} of {place}" if place else ""

    def suggested_letterhead(self) -> str:
        name = self.full_name
        return f"{name}\n{DEPARTMENT}" if name else ""

    def suggested_placename(self) -> str:
        return self.full_name.upper()

    def _follow(self) -> None:
        if "letterhead" not in self.form.edited:
            self.form.letterhead = self.suggested_letterhead()
        if "placename" not in self.form.edited:
            self.form.placename = self.suggested_placename()

    def set(self, key: str, value: str) -> None:
        """A field typed or chosen. The name (or kind) moves the letterhead and PLACENAME
        while they are still the suggestion; a name typed 'Village of …' chooses the kind."""
        if key not in FIELD_ORDER:
            raise KeyError(key)
        setattr(self.form, key, value)
        if key in ("letterhead", "placename"):
            suggested = (
                self.suggested_letterhead() if key == "letterhead" else self.suggested_placename()
            )
            if value.strip() and value != suggested:
                self.form.edited.add(key)
            else:
                self.form.edited.discard(key)  # emptied: it follows the name again
        if key == "name":
            kind = _kind_typed(value)
            if kind:
                self.form.kind = kind
        if key in ("name", "kind"):
            self._follow()
        if self.error is not None and self.error.field == key:
            self.error = None

    # --- checking and saving ---------------------------------------------------------------

    def spec(self) -> setup.NewMunicipality:
        f = self.form
        return setup.NewMunicipality(
            name=f.name,
            kind=f.kind,
            county=f.county,
            letterhead=f.letterhead.splitlines(),
            address=f.address.strip(),
            inspector_name=f.inspector_name,
            inspector_title=f.inspector_title,
            zip=f.zip,
            placename=f.placename,
            housing_code="" if f.housing_code == NO_CODE else f.housing_code,
            ordinance=f.ordinance,
        )

    def _fail(self, e: ValidationError) -> FieldError:
        key = _BY_SERVICE_NAME.get(e.field, e.field if e.field in FIELD_ORDER else "")
        label = LABELS.get(key) or e.field[:1].upper() + e.field[1:]
        self.error = FieldError(key, f"{label}: {e.message}")
        return self.error

    def check(self) -> FieldError | None:
        """The form's first problem, or None when it can be saved (nothing is written)."""
        self.error = None
        try:
            setup.check_new_municipality(self.spec())
        except ValidationError as e:
            return self._fail(e)
        return None

    @property
    def checked_name(self) -> str:
        """'City of Westby', as the register will name it (the form must check)."""
        return setup.check_new_municipality(self.spec()).name

    def save(self, uow: Callable[[], UnitOfWork], clock: Clock, actor: Actor) -> bool:
        """Create the municipality; False with `error` set when the form or the service
        refuses it (a name the register has already, a user not allowed)."""
        if self.check() is not None:
            return False
        try:
            self.created_id = setup.create_municipality(uow(), clock, actor, self.spec())
        except ValidationError as e:
            self._fail(e)
            return False
        except DeskError as e:
            self.error = FieldError("", str(e))
            return False
        return True
