"""The permit window's Work tab (no Qt here): what the application says about the work, the
flags that double the fees, the holds of a damaged building and a delinquent sewer tax, and for
one- and two-family dwellings the answers of the Uniform Building Permit Application (SBD-5823).

A field the form did not ask for this kind is left out unless something was recorded in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from desk.domain.checklists import permit_facts
from desk.domain.issuance import (
    DAMAGE_LIMIT_PERCENT,
    DAMAGE_WORK,
    SEWER_CONNECTION_KINDS,
    damage_applies,
)
from desk.domain.kinds import PermitKind, kind_by_code
from desk.domain.model import Actor
from desk.domain.permissions import Permission, allowed
from desk.domain.readmodels import PermitDetail
from desk.errors import ValidationError
from desk.fees.engine import double_fee_section
from desk.services.intake import LEVELS, kind_form
from ui.presenters.formatting import EMPTY, format_amount
from ui.presenters.intake import (
    ACRES,
    CONSTRUCTION_TYPE,
    DWELLING_UNITS,
    FLOOR_AREA_NOTE,
    OCCUPANCY,
    SBD_FIELDS,
    STORIES,
    VALUATION,
    VOLUME,
    asked_fields,
    valuation_note,
)

SEAL_VOLUME_CUFT = 50_000  # 15.1.7(d)
EROSION_PLAN_ACRES = Decimal(1)  # 15.2.8
SBD_TITLE = "Uniform Building Permit Application (SBD-5823)"
NO_SBD_ANSWERS = "No answers of the SBD-5823 recorded."
NOT_RECORDED = f"{EMPTY} (not recorded)"


@dataclass(frozen=True)
class WorkField:
    label: str
    value: str
    note: str = ""  # a line under the value: the rule the figure is read by
    warning: bool = False  # the note says the permit is held


@dataclass(frozen=True)
class WorkSection:
    title: str
    fields: tuple[WorkField, ...]
    empty_text: str = ""  # shown when there are no fields


def format_acres(acres: Decimal) -> str:
    """Decimal('1.250') -> '1.25 acres'; Decimal('1.000') -> '1 acre'."""
    value = acres.normalize()
    if value == value.to_integral_value():
        value = value.quantize(Decimal(1))
    return f"{value:,} acre" if value == 1 else f"{value:,} acres"


def _count(value: int | None, unit: str = "") -> str:
    if value is None:
        return NOT_RECORDED
    return f"{value:,} {unit}".strip()


class PermitWorkPresenter:
    def __init__(self, detail: PermitDetail) -> None:
        self.detail = detail
        self.kind: PermitKind | None
        try:
            self.kind = kind_by_code(detail.municipality_key, detail.kind)
            self.asked = asked_fields(detail.municipality_key, detail.kind)
        except ValidationError:  # a kind the municipality no longer has: show what is recorded
            self.kind = None
            self.asked = frozenset()

    def _wanted(self, key: str, recorded: bool) -> bool:
        return key in self.asked or recorded

    @property
    def one_two_family(self) -> bool:
        return permit_facts(self.detail).get("one_two_family") is True

    def occupancy_label(self) -> str:
        key = self.detail.occupancy_class
        if not key:
            return NOT_RECORDED
        try:
            classes = kind_form(self.detail.municipality_key, self.detail.kind).occupancy_classes
        except ValidationError:
            classes = ()
        return next((c.label for c in classes if c.key == key), key)

    def work(self) -> WorkSection:
        d = self.detail
        out = [WorkField("Description", d.description.strip() or EMPTY)]
        if self._wanted(VALUATION, bool(d.valuation)):
            trade = self.kind.trade if self.kind is not None else "building"
            note = valuation_note(d.municipality_key, trade)
            out.append(WorkField("Valuation", format_amount(d.valuation), note))
        if self._wanted("areas", bool(d.floor_area_sqft or d.areas)):
            out.append(
                WorkField(
                    "Floor area",
                    f"{d.floor_area_sqft:,} sq ft" if d.floor_area_sqft else EMPTY,
                    FLOOR_AREA_NOTE,
                )
            )
            labels = {key: label for key, label, _ in LEVELS}
            levels = [f"{labels.get(k, k)}: {v:,}" for k, v in d.areas if v]
            if levels:
                out.append(WorkField("By level (sq ft)", "; ".join(levels)))
        if self._wanted(DWELLING_UNITS, bool(d.dwelling_units)):
            out.append(WorkField("Dwelling units", f"{d.dwelling_units:,}"))
        if self._wanted(STORIES, d.stories is not None):
            out.append(WorkField("Stories", _count(d.stories)))
        if self._wanted(VOLUME, d.volume_cuft is not None):
            out.append(WorkField("Volume", _count(d.volume_cuft, "cu ft"), self._seal_note()))
        if self._wanted(OCCUPANCY, bool(d.occupancy_class)):
            out.append(WorkField("Occupancy class", self.occupancy_label()))
        if self._wanted(CONSTRUCTION_TYPE, bool(d.construction_type)):
            out.append(WorkField("Construction type", d.construction_type or NOT_RECORDED))
        if self._wanted(ACRES, d.disturbed_acres is not None):
            acres = d.disturbed_acres
            out.append(
                WorkField(
                    "Disturbed land",
                    format_acres(acres) if acres is not None else NOT_RECORDED,
                    self._erosion_note(),
                )
            )
        return WorkSection("Work", tuple(out))

    def _seal_note(self) -> str:
        """15.1.7(d): buildings other than one- and two-family over 50,000 cubic feet."""
        volume = self.detail.volume_cuft
        if volume is None or self.one_two_family:
            return ""
        if volume > SEAL_VOLUME_CUFT:
            return "Over 50,000 cu ft: an architect's or engineer's seal is required (15.1.7(d))"
        return "50,000 cu ft or less: no seal required (15.1.7(d))"

    def _erosion_note(self) -> str:
        acres = self.detail.disturbed_acres
        if acres is None:
            return "Needed to tell which erosion control plan applies (15.2.8)"
        if acres > EROSION_PLAN_ACRES:
            return "More than one acre: a full erosion control plan (15.2.8)"
        return "One acre or less: an erosion control plan statement (15.2.8)"

    def flags(self) -> WorkSection:
        d = self.detail
        section = double_fee_section(d.municipality_key)
        if d.work_began_before_permit and not section:
            began = "Yes"  # this municipality's ordinance doubles no fee for it
        elif d.work_began_before_permit and d.emergency:
            began = f"Yes — an emergency, so the fees are not doubled ({section})"
        elif d.work_began_before_permit:
            began = f"Yes — double fees ({section})"
        else:
            began = "No"
        return WorkSection(
            "Work begun, emergency",
            (
                WorkField("Work began before permit", began),
                WorkField("Emergency", "Yes" if d.emergency else "No"),
            ),
        )

    def holds(self) -> WorkSection:
        """The damage finding (15.1.9(b)) and the sewer tax (15.1.36), where they concern this
        kind of permit or something was recorded."""
        d = self.detail
        out = []
        applies = self.kind is not None and damage_applies(self.kind)
        # A new building has no damage to find: its row appears once a finding is recorded (a
        # commercial "new building or addition" permit may be for an addition).
        existing = self.kind is not None and self.kind.work_class in DAMAGE_WORK
        if (applies and existing) or d.damage_percent is not None:
            if d.damage_percent is None:
                out.append(WorkField("Damage", f"{EMPTY} (no finding recorded)"))
            elif d.damage_percent >= DAMAGE_LIMIT_PERCENT and applies:
                out.append(
                    WorkField(
                        "Damage",
                        f"{d.damage_percent}% of equalized value",
                        "50% or more: no permit to repair, alter or move the building "
                        "(15.1.9(b), 15.1.3(d)(3))",
                        warning=True,
                    )
                )
            else:
                out.append(WorkField("Damage", f"{d.damage_percent}% of equalized value"))
        sewer = d.kind in SEWER_CONNECTION_KINDS
        if sewer or d.sewer_permission:
            if d.sewer_delinquent:
                held = sewer and not d.sewer_permission
                out.append(
                    WorkField(
                        "Sewer tax on the parcel",
                        "Delinquent",
                        "No sewer connection permit without the Plumbing Inspector's special "
                        "permission (15.1.36)"
                        if held
                        else "",
                        warning=held,
                    )
                )
            else:
                out.append(WorkField("Sewer tax on the parcel", "Not delinquent"))
            out.append(
                WorkField("Sewer permission", d.sewer_permission or f"{EMPTY} (none recorded)")
            )
        return WorkSection("Holds", tuple(out))

    def sbd(self) -> WorkSection | None:
        """The SBD-5823 answers given, in the order of the paper form (one- and two-family
        dwellings: the kinds whose form asks them, or a permit that has some)."""
        answers = dict(self.detail.work_details)
        if "sbd" not in self.asked and not answers:
            return None
        fields = tuple(WorkField(f.label, answers[f.key]) for f in SBD_FIELDS if answers.get(f.key))
        return WorkSection(SBD_TITLE, fields, NO_SBD_ANSWERS)

    def sections(self) -> tuple[WorkSection, ...]:
        out = [self.work(), self.flags()]
        holds = self.holds()
        if holds.fields:
            out.append(holds)
        sbd = self.sbd()
        if sbd is not None:
            out.append(sbd)
        return tuple(out)

    # --- what the signed-in user may record here (the services check again) -----------------

    def may_record_damage(self, actor: Actor) -> bool:
        return (
            self.kind is not None
            and damage_applies(self.kind)
            and allowed(actor, Permission.RECORD_DAMAGE)
        )

    def may_record_sewer_permission(self, actor: Actor) -> bool:
        return self.detail.kind in SEWER_CONNECTION_KINDS and allowed(
            actor, Permission.GRANT_SEWER_PERMISSION
        )

    def may_mark_sewer_tax(self, actor: Actor) -> bool:
        return (
            self.detail.kind in SEWER_CONNECTION_KINDS
            and self.detail.parcel_id is not None
            and allowed(actor, Permission.RECORD_SEWER_DELINQUENCY)
        )

    @property
    def sewer_tax_button_text(self) -> str:
        return "Sewer tax pai&d" if self.detail.sewer_delinquent else "Sewer tax deli&nquent…"

    def field(self, label: str) -> WorkField:
        for section in self.sections():
            for f in section.fields:
                if f.label == label:
                    return f
        raise KeyError(label)
