"""Intake: what the new-application form asks for each permit kind, the fee request its values
make, and the small services the counter needs (recording a parcel's house number).

The per-kind data lives in resources/intake_fees.toml; the functions here are pure except
`record_house_number` and `record_ownership`, which are services (role check, audit through the
unit of work).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from desk.clock import Clock
from desk.domain.enums import PartyRole
from desk.domain.kinds import PermitKind, kind_by_code
from desk.domain.model import Actor
from desk.domain.permissions import Permission, require
from desk.domain.reports import OWNERSHIP, PRIVATE, PUBLIC
from desk.errors import NotFound, ValidationError
from desk.fees.engine import QuoteItem, QuoteRequest
from desk.services.uow import UnitOfWork

# --- floor areas (15.1.21 NOTE) ------------------------------------------------------------

# Levels of the paper form, in its order: (key stored in permit.areas, label, counted).
# 15.1.21 NOTE: "Floor area: exterior dimensions, garage and each finished level; unfinished
# basements excluded."
LEVELS: tuple[tuple[str, str, bool], ...] = (
    ("basement_finished", "Basement, finished", True),
    ("basement_unfinished", "Basement, unfinished", False),
    ("first", "First floor", True),
    ("second", "Second floor", True),
    ("third", "Third floor", True),
    ("garage", "Garage", True),
)
COUNTED_LEVELS = frozenset(key for key, _, counted in LEVELS if counted)


def floor_area_counted(areas: Mapping[str, int]) -> int:
    """The floor area that prices the permit: every level but an unfinished basement."""
    return sum(area for level, area in areas.items() if level in COUNTED_LEVELS)


# --- what the form asks per kind -------------------------------------------------------------

WORK_FIELDS = (
    "valuation",
    "areas",
    "dwelling_units",
    "stories",
    "volume",
    "occupancy",
    "construction_type",
    "fee_amount",
    "pavement_age",  # New Lisbon §435-7 surcharge: full years since the final paving
    "sbd",
)
SOURCES = ("floor_area", "valuation", "dwelling_units", "fee_amount")


@dataclass(frozen=True)
class FeeRule:
    code: str = ""  # the item; empty with by="occupancy"
    by: str = ""  # "occupancy": the item of the chosen occupancy class
    quantity: str = ""  # a source in SOURCES
    amount: str = ""


@dataclass(frozen=True)
class OccupancyClass:
    key: str
    label: str
    fee: str  # the COM-NEW-* item


@dataclass(frozen=True)
class KindForm:
    kind: PermitKind
    fields: tuple[str, ...] = ()
    fees: tuple[FeeRule, ...] = ()
    needs_house_number: bool = False
    # The municipality's own section for it (Glendale 15.1.7(b)(1), New Lisbon §435-15.E).
    house_number_section: str = ""
    fee_amount_label: str = "Fee amount"
    occupancy_classes: tuple[OccupancyClass, ...] = field(default_factory=tuple)

    def has(self, name: str) -> bool:
        return name in self.fields


@cache
def _data() -> dict[str, Any]:
    text = resources.files("resources").joinpath("intake_fees.toml").read_text("utf-8")
    return tomllib.loads(text)


def house_number_section(municipality_key: str) -> str:
    """The section a clerk is shown when a building permit waits for the lot's house number:
    the municipality's own (intake_fees.toml house_number_section)."""
    return str(_data().get(municipality_key, {}).get("house_number_section", "")) or (
        "the municipality's house numbering ordinance"
    )


def needs_house_number(municipality_key: str, code: str) -> bool:
    """Whether a permit of this kind is a building permit for a new structure that needs the
    lot's official house number before it is issued (the kind form's needs_house_number)."""
    row = _data().get(municipality_key, {}).get("kinds", {}).get(code)
    return bool(row is not None and row.get("needs_house_number", False))


def kind_form(municipality_key: str, code: str) -> KindForm:
    """The form of a permit kind; a kind the file does not list asks for the basics only."""
    kind = kind_by_code(municipality_key, code)
    muni = _data().get(municipality_key, {})
    classes = tuple(
        OccupancyClass(c["key"], c["label"], c["fee"]) for c in muni.get("occupancy_classes", [])
    )
    row = muni.get("kinds", {}).get(code)
    section = house_number_section(municipality_key)
    if row is None:
        return KindForm(kind, ("valuation",), (), False, section, occupancy_classes=classes)
    where = f"intake_fees.toml [{municipality_key}.kinds.{code}]"
    fields = tuple(row.get("fields", []))
    for name in fields:
        if name not in WORK_FIELDS:
            raise ValueError(f"{where}: unknown field '{name}'")
    rules = []
    for r in row.get("fees", []):
        rule = FeeRule(
            code=r.get("code", ""),
            by=r.get("by", ""),
            quantity=r.get("quantity", ""),
            amount=r.get("amount", ""),
        )
        for source in (rule.quantity, rule.amount):
            if source and source not in SOURCES:
                raise ValueError(f"{where}: unknown source '{source}'")
        if not rule.code and rule.by != "occupancy":
            raise ValueError(f'{where}: a fee needs a code or by = "occupancy"')
        rules.append(rule)
    return KindForm(
        kind=kind,
        fields=fields,
        fees=tuple(rules),
        needs_house_number=bool(row.get("needs_house_number", False)),
        house_number_section=section,
        fee_amount_label=row.get("fee_amount_label", "Fee amount"),
        occupancy_classes=classes,
    )


# The roles the form offers, by the kind's trade (15.1.7(b)(1): owner of the building, owner of
# the land, designer; the trades' licensed parties, 15.1.41 and 15.1.75).
_COMMON = (PartyRole.APPLICANT, PartyRole.BUILDING_OWNER, PartyRole.LAND_OWNER)
_ROLES_BY_TRADE: dict[str, tuple[PartyRole, ...]] = {
    "building": (*_COMMON, PartyRole.DESIGNER, PartyRole.CONTRACTOR),
    "plumbing": (*_COMMON, PartyRole.PLUMBER),
    "electrical": (*_COMMON, PartyRole.ELECTRICIAN),
    "hvac": (*_COMMON, PartyRole.HVAC_CONTRACTOR),
    "erosion": (*_COMMON, PartyRole.CONTRACTOR),
    "other": (*_COMMON, PartyRole.CONTRACTOR),
}


def roles_for(kind: PermitKind) -> tuple[PartyRole, ...]:
    return _ROLES_BY_TRADE.get(kind.trade, _ROLES_BY_TRADE["other"])


# --- the fee request -------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkValues:
    """The parsed work fields of the form (what prices the permit)."""

    valuation: Decimal = Decimal("0.00")
    areas: Mapping[str, int] = field(default_factory=dict)
    dwelling_units: int = 0
    fee_amount: Decimal | None = None
    occupancy: str = ""
    pavement_age_years: Decimal | None = None  # §435-7: only the items with the surcharge read it

    @property
    def floor_area(self) -> int:
        return floor_area_counted(self.areas)


def _source(work: WorkValues, name: str) -> Decimal | None:
    if name == "floor_area":
        return Decimal(work.floor_area)
    if name == "valuation":
        return work.valuation
    if name == "dwelling_units":
        return Decimal(work.dwelling_units)
    if name == "fee_amount":
        return work.fee_amount
    return None


def derived_items(form: KindForm, work: WorkValues) -> tuple[QuoteItem, ...]:
    """The fee items the kind and the entered work make (resources/intake_fees.toml)."""
    out = []
    for rule in form.fees:
        code = rule.code
        if rule.by == "occupancy":
            chosen = next((c for c in form.occupancy_classes if c.key == work.occupancy), None)
            if chosen is None:
                raise ValidationError("occupancy", "choose the occupancy class: it sets the fee")
            code = chosen.fee
        out.append(
            QuoteItem(
                code=code,
                quantity=_source(work, rule.quantity) if rule.quantity else None,
                amount=_source(work, rule.amount) if rule.amount else None,
                pavement_age_years=work.pavement_age_years,
            )
        )
    return tuple(out)


def fee_request(
    form: KindForm,
    work: WorkValues,
    extra: tuple[QuoteItem, ...] = (),
    *,
    work_began_before_permit: bool = False,
    emergency: bool = False,
    applied_on: date | None = None,
) -> QuoteRequest:
    """The engine's request for an application: the derived items, then the clerk's extra ones.
    Double fees (15.1.21(f)) come from the flags."""
    return QuoteRequest(
        items=derived_items(form, work) + extra,
        work_began_before_permit=work_began_before_permit,
        emergency=emergency,
        applied_on=applied_on if emergency else None,
    )


# --- services --------------------------------------------------------------------------------


def record_house_number(
    uow: UnitOfWork, clock: Clock, actor: Actor, parcel_id: int, house_number: str
) -> None:
    """Record the official house number of a parcel (New Lisbon §435-15.E, Glendale
    15.1.7(b)(1): a building permit for a new structure needs it first; recording it lifts that
    hold on issuance). A number already on record is not overwritten here."""
    require(actor, Permission.MANAGE_PARTIES)
    number = house_number.strip()
    if not number:
        raise ValidationError("house number", "enter the house number")
    if not number[0].isdigit() or len(number) > 20:
        raise ValidationError("house number", f"'{number}' is not a house number")
    with uow:
        uow.act_as(actor, clock.now())
        parcel = uow.parcels.get(parcel_id)
        if parcel is None:
            raise NotFound(f"parcel #{parcel_id} does not exist")
        if parcel.house_number.strip():
            raise ValidationError(
                "house number", f"the parcel already has house number {parcel.house_number}"
            )
        parcel.house_number = number
        uow.commit()


def record_ownership(
    uow: UnitOfWork, clock: Clock, actor: Actor, permit_id: int, ownership: str
) -> None:
    """Record, or correct, who owns the building: PUBLIC (a government body or public housing
    authority) or PRIVATE, in the permit's work facts (work_details[OWNERSHIP]) as the intake
    form records it. Census Form C-404 counts new privately owned housing only; this answer wins
    over what the owner's name suggests. The change is audited with the permit."""
    require(actor, Permission.EDIT_PERMIT)
    if ownership not in (PUBLIC, PRIVATE):
        raise ValidationError("ownership", "say whether the owner is public or private")
    with uow:
        uow.act_as(actor, clock.now())
        permit = uow.permits.get(permit_id)
        if permit is None:
            raise NotFound(f"permit #{permit_id} does not exist")
        details = dict(permit.work_details or {})
        if details.get(OWNERSHIP) == ownership:
            return
        details[OWNERSHIP] = ownership
        permit.work_details = details  # a new dict: the change is seen and audited
        uow.commit()
