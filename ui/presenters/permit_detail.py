"""A permit's window: the header and the Summary tab as label/value pairs (no Qt here). The
parties are the Parties tab's (ui/presenters/permit_parties.py)."""

from __future__ import annotations

from dataclasses import dataclass

from desk.domain.kinds import kind_label
from desk.domain.readmodels import PermitDetail
from ui.presenters.formatting import EMPTY, format_amount, format_date

NOT_ISSUED = "not issued yet"


@dataclass(frozen=True)
class Field:
    label: str
    value: str


@dataclass(frozen=True)
class Section:
    title: str
    fields: tuple[Field, ...]


def permit_title(number: str | None, permit_id: int) -> str:
    """'Permit 2026-0001', or 'Application #12' before the permit is issued."""
    return f"Permit {number}" if number else f"Application #{permit_id}"


def _or_empty(text: str) -> str:
    return text.strip() or EMPTY


class PermitSummaryPresenter:
    def __init__(self, detail: PermitDetail) -> None:
        self.detail = detail

    @property
    def title(self) -> str:
        return permit_title(self.detail.number, self.detail.id)

    @property
    def status(self) -> str:
        return self.detail.status.label

    @property
    def status_key(self) -> str:
        """For the header's status chip colour (a stylesheet property)."""
        return self.detail.status.value

    @property
    def kind(self) -> str:
        return kind_label(self.detail.municipality_key, self.detail.kind)

    @property
    def address(self) -> str:
        return self.detail.address or "no address"

    @property
    def window_title(self) -> str:
        address = f" — {self.detail.address}" if self.detail.address else ""
        return f"{self.title}{address}"

    def sections(self) -> tuple[Section, ...]:
        d = self.detail
        floor_area = f"{d.floor_area_sqft:,} sq ft" if d.floor_area_sqft else EMPTY
        return (
            Section(
                "Permit",
                (
                    Field("Number", d.number or f"{EMPTY} ({NOT_ISSUED})"),
                    Field("Status", d.status.label),
                    Field("Kind", self.kind),
                    Field("Class", d.permit_class.label),
                    Field("Work class", d.work_class.label),
                    Field("Description", _or_empty(d.description)),
                    Field("Issued by", _or_empty(d.issued_by)),
                ),
            ),
            Section(
                "Site",
                (
                    Field("Address", _or_empty(d.address)),
                    Field("Parcel number", _or_empty(d.pin)),
                    Field("Legal description", _or_empty(d.legal_description)),
                    Field("Zoning", _or_empty(d.zoning_district)),
                ),
            ),
            Section(
                "Size and value",
                (
                    Field("Valuation", format_amount(d.valuation)),
                    Field("Floor area", floor_area),
                    Field("Dwelling units", f"{d.dwelling_units:,}"),
                ),
            ),
            Section(
                "Dates",
                (
                    Field("Applied", format_date(d.applied_on) or EMPTY),
                    Field("Issued", format_date(d.issued_on) or EMPTY),
                    Field("Expires", format_date(d.expires_on) or EMPTY),
                    Field("Work commenced", format_date(d.commenced_on) or EMPTY),
                    Field("Completed", format_date(d.completed_on) or EMPTY),
                ),
            ),
        )

    def field(self, label: str) -> str:
        """The value shown next to `label` (tests and screen readers look fields up by label)."""
        for section in self.sections():
            for f in section.fields:
                if f.label == label:
                    return f.value
        raise KeyError(label)
