"""The new-application form (no Qt here): the kind, the parcel, the parties with their
credentials, the work, the flags and the live fee breakdown.

The presenter keeps what was typed as text. The fee items come from the kind and the work
(desk.services.intake.fee_request, resources/intake_fees.toml) plus the items the clerk adds;
a FeeCalculatorPresenter (`fees`) holds those extra items and shows the breakdown, so the
calculator's tables serve here too. `application()` turns the form into a
desk.services.permits.ApplicationInput, raising ValidationError with the field it is about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Protocol

from db import queries
from db.database import Database
from desk.calendar import is_holiday
from desk.domain.checklists import template_for
from desk.domain.credentials import CredentialCheck, HeldCredential, check_credentials
from desk.domain.documents import ParcelChoice, PartyChoice
from desk.domain.enums import PartyRole, WorkClass
from desk.domain.kinds import PermitKind, kind_by_code, kinds_for
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import PermitDetail
from desk.domain.reports import (
    NOT_A_BUILDING,
    OWNERSHIP,
    PRIVATE,
    PUBLIC,
    is_building_erected,
    name_looks_public,
    ownership_answer,
    publicly_owned,
)
from desk.errors import ValidationError
from desk.fees.engine import Quote, QuoteRequest, double_fee_section, price
from desk.fees.model import FeeSchedule
from desk.money import format_money, parse_money
from desk.services.intake import (
    LEVELS,
    KindForm,
    WorkValues,
    floor_area_counted,
    kind_form,
    roles_for,
)
from desk.services.intake import fee_request as make_fee_request
from desk.services.permits import ApplicationInput, application_date_concern
from ui.presenters.fee_calculator import FeeCalculatorPresenter, quote_item

# Form keys of the work fields (the view names its widgets after them).
DESCRIPTION = "description"
VALUATION = "valuation"
DWELLING_UNITS = "dwelling_units"
STORIES = "stories"
VOLUME = "volume"
PAVEMENT_AGE = "pavement_age"
PAVEMENT_AGE_FIELD = "age of the final paving"
OCCUPANCY = "occupancy"
CONSTRUCTION_TYPE = "construction_type"
ACRES = "disturbed_acres"
FEE_AMOUNT = "fee_amount"
PARCEL = "parcel"
APPLIED_ON = "applied_on"
OWNER_ROLES = (PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER)
AREA_KEYS = tuple(f"area_{key}" for key, _, _ in LEVELS)
FEES = "fees"

VALUATION_NOTE = "excluding HVAC, plumbing and electrical work (15.1.21 NOTE)"


_TRADE_WORK = {"electrical": "electrical", "plumbing": "plumbing", "hvac": "heating and cooling"}


def valuation_note(municipality_key: str, trade: str = "building") -> str:
    """What the valuation counts, under the municipality's own ordinance: Glendale's 15.1.21
    NOTE leaves the trades out of a building's cost, so a trade permit's valuation is the cost
    of that trade's work alone; New Lisbon's ch. 435 says nothing of it."""
    if municipality_key != "glendale":
        return ""
    if trade in _TRADE_WORK:
        return f"the cost of the {_TRADE_WORK[trade]} work alone"
    return VALUATION_NOTE


FLOOR_AREA_NOTE = "garage and finished levels counted, unfinished basement excluded (15.1.21 NOTE)"


def house_number_note(section: str) -> str:
    """The municipality's own section (Glendale 15.1.7(b)(1), New Lisbon §435-15.E); the
    permit is not issued without the number (desk/services/issuance.py)."""
    return (
        "No house number on record. A building permit for a new structure needs the official "
        f"house number first ({section})."
    )


NO_FEES_TEXT = "No fee items for this kind yet: add any that apply below."


def work_began_text(municipality_key: str) -> str:
    """The box's label cites the municipality's own double-fee section; where its ordinance
    doubles nothing (New Lisbon), the box only records the fact."""
    section = double_fee_section(municipality_key)
    return (
        f"&Work began before permit (double fees, {section})"
        if section
        else ("&Work began before permit")
    )


ACRES_NOTE = (
    "over one acre: a full erosion control plan; one acre or less: a plan statement (15.2.8)"
)

# Who owns the building (form key OWNERSHIP, stored in work_details): Census Form C-404 counts new
# privately owned housing only. Asked for new buildings that may hold dwellings.
OWNERSHIP_TEXT = "Owner is a &government body or public housing authority"
OWNERSHIP_HINT = (
    "Publicly owned: left off Census Form C-404, which counts new privately owned housing only."
)
OWNER_LOOKS_PUBLIC_NOTE = (
    "The owner's name reads like a government body or housing authority: tick the box if the "
    "housing is publicly owned. Left unticked, the permit is counted on Form C-404."
)

# Work fields the form also asks when the kind's checklist decides by their fact (a seal over
# 50,000 cu ft, 15.1.7(d); an erosion control plan over one acre, 15.2.8), so the checklist
# gets the figure it needs even where resources/intake_fees.toml does not list the field.
FACT_FIELDS = {VOLUME: "volume_cuft", ACRES: "disturbed_acres"}
MAX_ACRE_DECIMALS = 3

# Construction types of the building code (IBC ch. 6), for commercial kinds; the SBD-5823 has
# its own list (site-built, manufactured, mobile home) in SBD_FIELDS.
CONSTRUCTION_TYPES = ("", "I-A", "I-B", "II-A", "II-B", "III-A", "III-B", "IV", "V-A", "V-B")


@dataclass(frozen=True)
class FormField:
    key: str
    label: str
    choices: tuple[str, ...] = ()  # () = free text
    placeholder: str = ""


# The Wisconsin Uniform Building Permit Application (SBD-5823), in the order of the paper form.
SBD_FIELDS: tuple[FormField, ...] = (
    FormField(
        "sbd_project",
        "Project",
        ("", "New", "Addition", "Alteration", "Repair", "Raze", "Move", "Other"),
    ),
    FormField("sbd_area_unit1", "Area, unit 1 (sq ft)", placeholder="e.g. 2400"),
    FormField("sbd_area_unit2", "Area, unit 2 (sq ft)", placeholder="two-family only"),
    FormField("sbd_occupancy", "Occupancy", ("", "Single family", "Two family", "Garage", "Other")),
    FormField(
        "sbd_construction", "Construction type", ("", "Site-built", "Manufactured", "Mobile home")
    ),
    FormField("sbd_electric", "Electric service (amps)", placeholder="e.g. 200"),
    FormField(
        "sbd_walls",
        "Walls",
        ("", "Wood frame", "Steel", "ICF", "Timber/pole", "Other"),
    ),
    FormField("sbd_use", "Use", ("", "Permanent", "Seasonal", "Other")),
    FormField(
        "sbd_hvac",
        "HVAC equipment",
        (
            "",
            "Forced air furnace",
            "Radiant baseboard/panel",
            "Heat pump",
            "Boiler",
            "Central AC",
            "Fireplace",
            "Space heater",
            "Other",
        ),
    ),
    FormField("sbd_sewer", "Sewer", ("", "Municipal", "Sanitary permit", "Other")),
    FormField("sbd_water", "Water", ("", "Municipal", "On-site well")),
    FormField(
        "sbd_energy",
        "Energy source",
        ("", "Natural gas", "LP", "Fuel oil", "Electric", "Wood", "Solar", "Geothermal"),
    ),
    FormField("sbd_heat_loss", "Heat loss (BTU/hr)", placeholder="from the energy worksheet"),
    FormField("sbd_cost", "Estimated cost, without land", placeholder="$"),
)
SBD_KEYS = tuple(f.key for f in SBD_FIELDS)


@cache
def asked_fields(municipality_key: str, code: str) -> frozenset[str]:
    """The work fields the form asks for a kind: those resources/intake_fees.toml lists, and
    those whose fact the kind's checklist decides by (FACT_FIELDS)."""
    form = kind_form(municipality_key, code)
    template = template_for(municipality_key, code)
    facts = {
        name
        for item in (template.items if template is not None else ())
        if item.required_when is not None
        for name in item.required_when.names
    }
    return frozenset(form.fields) | {key for key, fact in FACT_FIELDS.items() if fact in facts}


def asks_ownership(municipality_key: str, kind: PermitKind) -> bool:
    """Whether the form asks who owns the building: for new buildings that may hold dwellings --
    a one- or two-family dwelling (the form asks its units) or a commercial new building (an
    apartment building; the form asks its occupancy class)."""
    if not is_building_erected(kind):
        return False
    asked = asked_fields(municipality_key, kind.code)
    return DWELLING_UNITS in asked or OCCUPANCY in asked


class IntakeSource(Protocol):
    """What the form looks up: a db.queries facade in the app, a fake in tests."""

    def parcels(self, text: str) -> list[ParcelChoice]: ...

    def parcel(self, parcel_id: int) -> ParcelChoice | None: ...

    def parties(self, text: str) -> list[PartyChoice]: ...

    def credentials(self, party_id: int) -> list[HeldCredential]: ...


# What clerks call a kind when its name says it otherwise; typed words only (no spaces).
KIND_SYNONYMS: dict[str, str] = {
    "house": "dwelling",
    "home": "dwelling",
    "duplex": "dwelling",
    "garage": "accessory",
    "shed": "accessory",
    "demolition": "razing",
    "fence": "fencing",
    "furnace": "hvac",
    "wiring": "electrical",
}
_KIND_WORD = re.compile(r"[0-9a-z]+")


def _kind_rank(kind: PermitKind, typed: str) -> int | None:
    """0: the name starts with it (the combo's own type-ahead, kept first); 1: a word of the
    name or the code starts with it; 2: it begins a synonym of such a word; None: no match."""
    label, code = kind.label.lower(), kind.code.lower()
    if label.startswith(typed):
        return 0
    words = _KIND_WORD.findall(label) + _KIND_WORD.findall(code)
    if code.startswith(typed) or any(w.startswith(typed) for w in words):
        return 1
    if len(typed) >= 2:
        targets = [t for s, t in KIND_SYNONYMS.items() if s.startswith(typed)]
        if any(w.startswith(t) for t in targets for w in words):
            return 2
    return None


def find_kind(kinds: Sequence[PermitKind], typed: str, after: int = -1) -> int | None:
    """The index of the kind the clerk means by `typed` ('dwelling', 'house', 'RES-NEW'):
    the best-ranked match, the first in the list's order among equals, looking first after
    `after` (typing one letter again steps to the next kind with it)."""
    typed = typed.strip().lower()
    if not typed:
        return None
    ranked = [(r, i) for i, k in enumerate(kinds) if (r := _kind_rank(k, typed)) is not None]
    if not ranked:
        return None
    best = min(r for r, _ in ranked)
    indexes = [i for r, i in ranked if r == best]
    return next((i for i in indexes if i > after), indexes[0])


_NUMBER_JUNK = re.compile(r"[,\s]")


def parse_count(text: str, field: str, what: str = "a whole number") -> int:
    """'2,400' -> 2400; '' -> 0; ValidationError(field) for anything else."""
    cleaned = _NUMBER_JUNK.sub("", text)
    if not cleaned:
        return 0
    if not cleaned.isdigit():
        if cleaned.startswith("-") and cleaned[1:].isdigit():
            raise ValidationError(field, "must not be negative")
        raise ValidationError(field, f"'{text.strip()}' is not {what}")
    return int(cleaned)


def parse_optional_count(text: str, field: str, what: str = "a whole number") -> int | None:
    """Like parse_count, but '' -> None: not recorded (a checklist fact stays unknown)."""
    return parse_count(text, field, what) if _NUMBER_JUNK.sub("", text) else None


def parse_acres(text: str, field: str = "disturbed acres") -> Decimal | None:
    """'1.25' -> Decimal('1.25'); '' -> None; up to three decimals (a thousandth of an acre is
    about 44 sq ft)."""
    cleaned = _NUMBER_JUNK.sub("", text)
    if not cleaned:
        return None
    if not re.fullmatch(r"-?(\d+(\.\d*)?|\.\d+)", cleaned):
        raise ValidationError(field, f"'{text.strip()}' is not a number of acres")
    value = Decimal(cleaned)
    if value < 0:
        raise ValidationError(field, "must not be negative")
    if value != value.quantize(Decimal(1).scaleb(-MAX_ACRE_DECIMALS)):
        raise ValidationError(field, f"at most {MAX_ACRE_DECIMALS} decimals")
    return value


class IntakePresenter:
    def __init__(
        self,
        municipality_id: int,
        municipality_key: str,
        schedule: FeeSchedule,
        source: IntakeSource,
        today: date,
        *,
        holiday: Callable[[date], bool] = is_holiday,
    ) -> None:
        self.municipality_id = municipality_id
        self.municipality_key = municipality_key
        self.source = source
        self.holiday = holiday
        self.today = today
        self.applied_on = today
        self.fees = FeeCalculatorPresenter(schedule, today, holiday=holiday)
        self.form: KindForm | None = None
        self.values: dict[str, str] = {}
        self.parcel: ParcelChoice | None = None
        self.parties: dict[PartyRole, PartyChoice] = {}
        self._credentials: dict[int, list[HeldCredential]] = {}
        self._parcel_choices: dict[str, ParcelChoice] = {}
        self._party_choices: dict[str, PartyChoice] = {}
        self.fee_error = ""
        self._confirmed_on: date | None = None  # an unusual date the clerk said yes to
        self.owner_public = False  # the OWNERSHIP box
        self.dirty = False

    # --- the kind ------------------------------------------------------------------------

    @property
    def kinds(self) -> tuple[PermitKind, ...]:
        return kinds_for(self.municipality_key)

    @property
    def kind(self) -> PermitKind | None:
        return self.form.kind if self.form is not None else None

    def kind_text(self, kind: PermitKind) -> str:
        return f"{kind.label} ({kind.code})"

    def set_kind(self, code: str | None) -> None:
        """Choose the kind; the form then asks for what it needs. Parties in roles the new kind
        has no place for are dropped."""
        if not code:
            self.form = None
            return
        if self.form is not None and self.form.kind.code == code:
            return
        self.form = kind_form(self.municipality_key, code)
        roles = set(self.roles)
        self.parties = {r: p for r, p in self.parties.items() if r in roles}
        self.dirty = True

    def shows(self, name: str) -> bool:
        """Whether the form shows a work field (asked_fields), or the ownership box."""
        if name == OWNERSHIP:
            return self.shows_ownership
        return self.form is not None and name in asked_fields(
            self.municipality_key, self.form.kind.code
        )

    @property
    def shows_ownership(self) -> bool:
        """The ownership box (asks_ownership)."""
        return self.form is not None and asks_ownership(self.municipality_key, self.form.kind)

    @property
    def roles(self) -> tuple[PartyRole, ...]:
        return roles_for(self.form.kind) if self.form is not None else ()

    @property
    def occupancy_choices(self) -> list[tuple[str, str]]:
        """(key, label) of the municipality's occupancy classes ('' first: none chosen)."""
        classes = self.form.occupancy_classes if self.form is not None else ()
        return [("", ""), *((c.key, c.label) for c in classes)]

    @property
    def fee_amount_label(self) -> str:
        return self.form.fee_amount_label if self.form is not None else "Fee amount"

    # --- typed values --------------------------------------------------------------------

    def set_value(self, key: str, text: str) -> None:
        if self.values.get(key, "") != text:
            self.values[key] = text
            self.dirty = True

    def value(self, key: str) -> str:
        return self.values.get(key, "").strip()

    def set_applied_on(self, day: date) -> None:
        if day != self.applied_on:
            self.applied_on = day
            self.fees.set_date(day)
            self.dirty = True

    def date_concern(self) -> str:
        """What is unusual about the application date ('' for an ordinary one): the service's
        rule (permits.application_date_concern), asked before saving."""
        return application_date_concern(self.applied_on, self.today)

    def date_question(self) -> str:
        concern = self.date_concern()
        return f"{concern} Save it anyway?" if concern else ""

    def confirm_date(self) -> None:
        """The clerk said yes to date_question() for the date as it is now."""
        self._confirmed_on = self.applied_on

    def set_flags(self, *, work_began_before_permit: bool, emergency: bool) -> None:
        if (work_began_before_permit, emergency) != (
            self.fees.work_began_before_permit,
            self.fees.emergency,
        ):
            self.dirty = True
        self.fees.set_flags(work_began_before_permit=work_began_before_permit, emergency=emergency)

    def set_owner_public(self, on: bool) -> None:
        if on != self.owner_public:
            self.owner_public = on
            self.dirty = True

    @property
    def owner_name(self) -> str:
        """The owner as the permit list shows it: the building's, else the land's."""
        for role in (PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER):
            party = self.parties.get(role)
            if party is not None:
                return party.name
        return ""

    @property
    def ownership_note(self) -> str:
        """A word under the box when the owner's name reads as public but the box is unticked."""
        if not self.shows_ownership or self.owner_public:
            return ""
        return OWNER_LOOKS_PUBLIC_NOTE if name_looks_public(self.owner_name) else ""

    def areas(self) -> dict[str, int]:
        """The floor areas by level that were entered (ValidationError names the level)."""
        out = {}
        for (level, label, _), key in zip(LEVELS, AREA_KEYS, strict=True):
            area = parse_count(self.value(key), f"area ({label.lower()})", "square feet")
            if area:
                out[level] = area
        return out

    @property
    def floor_area_text(self) -> str:
        """'2,400 sq ft' (or the mistake in an area)."""
        try:
            return f"{floor_area_counted(self.areas()):,} sq ft"
        except ValidationError as e:
            return str(e)

    def work(self) -> WorkValues:
        show = self.shows
        valuation = (
            parse_money(self.value(VALUATION), VALUATION)
            if show(VALUATION) and self.value(VALUATION)
            else Decimal("0.00")
        )
        fee_amount = (
            parse_money(self.value(FEE_AMOUNT), FEE_AMOUNT)
            if show(FEE_AMOUNT) and self.value(FEE_AMOUNT)
            else None
        )
        return WorkValues(
            valuation=valuation,
            areas=self.areas() if show("areas") else {},
            dwelling_units=parse_count(self.value(DWELLING_UNITS), "dwelling units")
            if show(DWELLING_UNITS)
            else 0,
            fee_amount=fee_amount,
            occupancy=self.value(OCCUPANCY) if show(OCCUPANCY) else "",
            pavement_age_years=self.pavement_age(),
        )

    def pavement_age(self) -> Decimal | None:
        """Full years since the final paving (§435-7 surcharge); None when not entered, which
        the fee engine answers by asking for it."""
        if not self.shows(PAVEMENT_AGE):
            return None
        age = parse_optional_count(
            self.value(PAVEMENT_AGE), PAVEMENT_AGE_FIELD, "a number of years"
        )
        return None if age is None else Decimal(age)

    def work_details(self) -> dict[str, str]:
        """The SBD-5823 answers given, by form key (one- and two-family dwellings only), and
        where the form asks it the answer about ownership: PUBLIC ticked, PRIVATE not."""
        out = {k: self.value(k) for k in SBD_KEYS if self.value(k)} if self.shows("sbd") else {}
        if self.shows_ownership:
            out[OWNERSHIP] = PUBLIC if self.owner_public else PRIVATE
        return out

    # --- the parcel ----------------------------------------------------------------------

    def parcel_matches(self, text: str) -> list[str]:
        """Completer entries for what was typed (a prefix of the address, street or PIN)."""
        found = self.source.parcels(text)
        self._parcel_choices.update({c.text: c for c in found})
        return [c.text for c in found]

    def choose_parcel(self, text: str) -> bool:
        """The parcel the clerk means: a completer entry, or the only match; False if unclear."""
        wanted = text.strip()
        choice = self._parcel_choices.get(wanted)
        if choice is None and self.parcel is not None and wanted == self.parcel.text:
            return True
        if choice is None and wanted:
            found = self.source.parcels(wanted.split(" — ")[0])
            if len(found) == 1:
                choice = found[0]
        self.set_parcel(choice)
        return choice is not None

    def set_parcel(self, choice: ParcelChoice | None) -> None:
        if choice != self.parcel:
            self.parcel = choice
            self.dirty = True

    def reload_parcel(self) -> None:
        """After a house number was recorded: read the parcel again."""
        if self.parcel is not None:
            self.parcel = self.source.parcel(self.parcel.id)

    @property
    def parcel_note(self) -> str:
        if self.parcel is None:
            return ""
        if self.needs_house_number:
            assert self.form is not None
            return house_number_note(self.form.house_number_section)
        return f"PIN {self.parcel.pin}"

    @property
    def owner_of_record(self) -> str:
        """The county's owner of record of the parcel chosen ("" when none)."""
        return self.parcel.owner if self.parcel is not None else ""

    def owner_offer(self, shown: Iterable[PartyRole]) -> tuple[PartyRole, ...]:
        """The owner roles the form shows and has no one in, when the parcel has an owner of
        record to offer for them (15.1.7(b)(1): the owners of the building and of the land)."""
        if not self.owner_of_record:
            return ()
        return tuple(r for r in OWNER_ROLES if r in shown and self.parties.get(r) is None)

    @property
    def needs_house_number(self) -> bool:
        return (
            self.form is not None
            and self.form.needs_house_number
            and self.parcel is not None
            and not self.parcel.house_number.strip()
        )

    # --- parties -------------------------------------------------------------------------

    def party_matches(self, text: str) -> list[str]:
        found = self.source.parties(text)
        self._party_choices.update({c.text: c for c in found})
        return [c.text for c in found]

    def choose_party(self, role: PartyRole, text: str) -> bool:
        wanted = text.strip()
        current = self.parties.get(role)
        if current is not None and wanted == current.text:
            return True
        choice = self._party_choices.get(wanted)
        if choice is None and wanted:
            found = self.source.parties(wanted.split(" — ")[0])
            if len(found) == 1:
                choice = found[0]
        self.set_party(role, choice)
        return choice is not None

    def set_party(self, role: PartyRole, choice: PartyChoice | None) -> None:
        if self.parties.get(role) == choice:
            return
        if choice is None:
            self.parties.pop(role, None)
        else:
            self.parties[role] = choice
            self._credentials.pop(choice.id, None)  # read again: it may have been renewed
        self.dirty = True

    def credential_check(self, role: PartyRole) -> CredentialCheck:
        """Whether the party in `role` holds the credential the kind needs on the application
        date (15.1.41, 15.1.75, ...); ok with no message when nobody is chosen."""
        party = self.parties.get(role)
        if party is None or self.form is None:
            return CredentialCheck(True, "")
        held = self._credentials.get(party.id)
        if held is None:
            held = self._credentials[party.id] = self.source.credentials(party.id)
        return check_credentials(party.name, role, self.form.kind, held, self.applied_on)

    # --- fees ----------------------------------------------------------------------------

    def request(self) -> QuoteRequest | None:
        """The engine's request; None when the kind makes no items and none were added.
        ValidationError names the field (or 'CODE.field' of an added item)."""
        if self.form is None:
            return None
        extra = tuple(quote_item(line) for line in self.fees.lines)
        request = make_fee_request(
            self.form,
            self.work(),
            extra,
            work_began_before_permit=self.fees.work_began_before_permit,
            emergency=self.fees.emergency,
            applied_on=self.applied_on,
        )
        return request if request.items else None

    def recalculate(self) -> None:
        """Price the form; on a mistake keep the last breakdown, marked not current."""
        f = self.fees
        f.error = ""
        f.error_line = None
        self.fee_error = ""
        try:
            request = self.request()
            if request is None:
                f.quote = None
                f.current = True
                return
            version = f.version
            if version is None:
                raise ValidationError(FEES, f.version_text)
            f.quote = price(version, request, self.holiday)
            f.current = True
        except ValidationError as e:
            f.current = False
            f.error = self.fee_error = self._fee_error_text(e)
            code = e.field.split(".", 1)[0]
            f.error_line = next(
                (i for i, line in enumerate(f.lines) if line.code == code and "." in e.field),
                None,
            )

    def _fee_error_text(self, e: ValidationError) -> str:
        """'Street opening permit: the council has not set …' — an item's mistake named by its
        description, never by the engine's 'CODE.field'."""
        code, dot, _ = e.field.partition(".")
        version = self.fees.version
        item = version.item(code) if dot and version is not None else None
        return f"{item.description}: {e.message}" if item is not None else str(e)

    @property
    def quote(self) -> Quote | None:
        return self.fees.quote if self.fees.current else None

    @property
    def total_text(self) -> str:
        q = self.quote
        return format_money(q.total) if q is not None else ""

    @property
    def empty_fees_text(self) -> str:
        if self.form is None:
            return "Choose the kind of permit: the fees follow from it and the work."
        if self.fees.quote is None and not self.fee_error:
            return NO_FEES_TEXT
        return ""

    # --- saving --------------------------------------------------------------------------

    def application(self) -> ApplicationInput:
        """The application to take; ValidationError(field) for the first thing that is missing."""
        if self.form is None:
            raise ValidationError("kind", "choose the kind of permit")
        if self.parcel is None:
            raise ValidationError(PARCEL, "choose the parcel (type the address or PIN)")
        if self.needs_house_number:
            raise ValidationError(PARCEL, self.parcel_note)
        if not self.value(DESCRIPTION):
            raise ValidationError(DESCRIPTION, "describe the work")
        for role in self.roles:
            check = self.credential_check(role)
            if not check.ok:
                raise ValidationError(role.label, check.message)
        work = self.work()
        show = self.shows
        stories = parse_optional_count(self.value(STORIES), "stories") if show(STORIES) else None
        volume = (
            parse_optional_count(self.value(VOLUME), "volume", "a number of cubic feet")
            if show(VOLUME)
            else None
        )
        acres = parse_acres(self.value(ACRES)) if show(ACRES) else None
        self.recalculate()
        if self.fee_error:
            raise ValidationError(FEES, self.fee_error)
        if self.date_concern() and self._confirmed_on != self.applied_on:
            # Last, once the rest is right: the view asks date_question() and confirm_date().
            raise ValidationError(APPLIED_ON, self.date_concern())
        return ApplicationInput(
            municipality_id=self.municipality_id,
            kind=self.form.kind.code,
            parcel_id=self.parcel.id,
            description=self.value(DESCRIPTION),
            valuation=work.valuation,
            floor_area_sqft=work.floor_area,
            areas=dict(work.areas),
            dwelling_units=work.dwelling_units,
            parties=tuple((role, p.id) for role, p in self.parties.items()),
            applied_on=self.applied_on,
            stories=stories,
            volume_cuft=volume,
            occupancy_class=work.occupancy,
            construction_type=self.value(CONSTRUCTION_TYPE) if show(CONSTRUCTION_TYPE) else "",
            disturbed_acres=acres,
            work_details=self.work_details(),
            emergency=self.fees.emergency,
            work_began_before_permit=self.fees.work_began_before_permit,
            date_confirmed=self._confirmed_on == self.applied_on,
        )

    def mark_saved(self) -> None:
        self.dirty = False


def field_of(error: ValidationError) -> str:
    """The form key a service's or the engine's ValidationError is about ('' when none):
    take_application says 'floor area', 'area (first floor)', role labels, ...; the engine says
    'RES-NEW.quantity'."""
    name = error.field
    if name.startswith("area (") or name == "floor area":
        return "areas"
    words = {
        "dwelling units": DWELLING_UNITS,
        "occupancy class": OCCUPANCY,
        "construction type": CONSTRUCTION_TYPE,
        "disturbed acres": ACRES,
        "application date": APPLIED_ON,  # the service's refusal of an unconfirmed date
    }
    if name in words:
        return words[name]
    if name in (DESCRIPTION, VALUATION, PARCEL, OCCUPANCY, FEE_AMOUNT, STORIES, VOLUME, "kind"):
        return name
    if name == APPLIED_ON:  # an unusual date not yet confirmed
        return name
    if name == PAVEMENT_AGE_FIELD or name.endswith(".pavement_age_years"):
        return PAVEMENT_AGE
    for role in PartyRole:
        if name == role.label:
            return role.value
    if "." in name or name in (FEES, "items"):
        return FEES
    return ""


def ownership_line(
    work_details: Mapping[str, str], owner_names: Sequence[str], housing: bool
) -> tuple[str, str] | None:
    """The Work tab's "Ownership" line (value, note): the answer recorded at intake, or for new
    housing without one what Census Form C-404 takes from the owner's name; None when there is
    nothing to say. `housing`: a new building with dwelling units (what C-404 is about)."""
    answer = ownership_answer(work_details)
    if answer == PUBLIC:
        return PUBLIC_WORDS, C404_LEFT_OFF if housing else ""
    if answer == PRIVATE:
        return PRIVATE_WORDS, C404_COUNTED if housing else ""
    if housing and publicly_owned(owner_names, None):
        return NOT_RECORDED_WORDS, "Taken as publicly owned, so left off Census Form C-404"
    return None


def is_new_housing(detail: PermitDetail) -> bool:
    """A new building with dwelling units: what Census Form C-404 is about."""
    return (
        detail.work_class is WorkClass.NEW
        and detail.dwelling_units > 0
        and detail.kind not in NOT_A_BUILDING
    )


def _owner_names(detail: PermitDetail) -> list[str]:
    """The owner as the permit list shows it (and C-404 reads): the building's, else the land's."""
    for role in (PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER):
        names = [p.name for p in detail.parties if p.role is role]
        if names:
            return names[:1]
    return []


def ownership_of(detail: PermitDetail) -> tuple[str, str] | None:
    """The permit window's Ownership line (value, note) for a permit, or None."""
    return ownership_line(dict(detail.work_details), _owner_names(detail), is_new_housing(detail))


def may_record_ownership(detail: PermitDetail, actor: Actor) -> bool:
    """Whether the Work tab offers Ownership…: where the intake form asks it (or the permit is
    new housing, or has an answer) and the user may edit permits (the service checks again)."""
    if not allowed(actor, Permission.EDIT_PERMIT):
        return False
    if is_new_housing(detail) or ownership_answer(dict(detail.work_details)):
        return True
    try:
        kind = kind_by_code(detail.municipality_key, detail.kind)
    except ValidationError:  # a kind the municipality no longer has
        return False
    return asks_ownership(detail.municipality_key, kind)


PUBLIC_WORDS = "Publicly owned (government body or public housing authority)"
PRIVATE_WORDS = "Privately owned"
NOT_RECORDED_WORDS = "Not recorded; the owner's name reads as a government or housing authority"
C404_LEFT_OFF = "Left off Census Form C-404"
C404_COUNTED = "Counted on Census Form C-404 as new privately owned housing"


class SqlIntakeSource:
    """The form's look-ups on the database (db.queries), one short read each."""

    def __init__(self, database: Database, municipality_id: int) -> None:
        self.database = database
        self.municipality_id = municipality_id

    def parcels(self, text: str) -> list[ParcelChoice]:
        with self.database.read() as conn:
            return queries.parcel_matches(conn, self.municipality_id, text)

    def parcel(self, parcel_id: int) -> ParcelChoice | None:
        with self.database.read() as conn:
            return queries.parcel_choice(conn, parcel_id)

    def parties(self, text: str) -> list[PartyChoice]:
        with self.database.read() as conn:
            return queries.party_matches(conn, text)

    def credentials(self, party_id: int) -> list[HeldCredential]:
        with self.database.read() as conn:
            return queries.party_credentials(conn, party_id)
