"""The Parcels section and a parcel's window without Qt: the list's columns, filters and sort,
a page of rows at a time; which step the signed-in user may take on a parcel and why not; the
window's header, its facts (the office's and the county's, side by side) and the rows of its
tabs; the edit form's fields and how what was typed becomes a ParcelEdit; the parcel's history
as the permit window's History tab reads an audit trail. The rows come from
db/parcel_queries.py; the steps are desk/services/parcels."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from decimal import Decimal, InvalidOperation
from pathlib import PurePath
from typing import Protocol

from db.audit_queries import HistoryLookup
from db.enforcement_case_view import CaseFacts
from db.parcel_queries import (
    ParcelCase,
    ParcelFacts,
    ParcelFilter,
    ParcelRow,
    ParcelSort,
    StreetEntry,
)
from desk.domain.enums import PermitStatus
from desk.domain.kinds import kind_label
from desk.domain.licensing import Outcome
from desk.domain.model import Actor, AuditEntry, DepositState
from desk.domain.permissions import Permission, allowed
from desk.domain.records import MergePreview
from desk.enforcement.licences import LicenceState
from desk.errors import ValidationError
from desk.imports.mapping import LABELS
from desk.services.parcels.edit import ParcelEdit
from ui.presenters.enforcement import case_stage
from ui.presenters.formatting import (
    EMPTY,
    count_of,
    format_amount,
    format_date,
    format_timestamp,
)
from ui.presenters.history import HistoryPresenter, HistoryRow
from ui.presenters.paging import PAGE_SIZE, PagedList
from ui.presenters.permit_detail import Field, Section
from ui.presenters.record_window import Rows
from ui.presenters.registers import Line, item_at, row_of

SECTION_TITLE = "Parcels"
EDIT_KEY = "Ctrl+E"
COLUMNS = (
    "PIN",
    "Address",
    "Owner of record",
    "Class",
    "Acres",
    "Assessed value",
    "Permits",
    "Open cases",
    "Status",
)
NUMERIC_COLUMNS = (4, 5, 6, 7)  # shown right-aligned
FILTERS: tuple[tuple[str, ParcelFilter], ...] = (
    ("Active", ParcelFilter.ACTIVE),
    ("Retired", ParcelFilter.RETIRED),
    ("All", ParcelFilter.ALL),
)
SORTS: tuple[tuple[str, ParcelSort], ...] = (
    ("By street", ParcelSort.STREET),
    ("By PIN", ParcelSort.PIN),
)


# --- words -----------------------------------------------------------------------------------


def acres_text(acres: Decimal | None) -> str:
    """'0.25', '1.2345', '3.00': as the county gives it, two decimals at least."""
    if acres is None:
        return ""
    text = f"{acres:f}"
    if "." in text:
        whole, frac = text.split(".")
        frac = frac.rstrip("0").ljust(2, "0")
        return f"{int(whole):,}.{frac}"
    return f"{int(text):,}.00"


def classes_text(classes: Sequence[str]) -> str:
    """The property classes as the county lists them: '4, 5M'."""
    return ", ".join(classes)


def status_words(retired_on: date | None, merged_into_pin: str) -> str:
    """'Active', 'Retired 03/02/2026', 'Merged into PIN 047-9991-002'."""
    if merged_into_pin:
        return f"Merged into PIN {merged_into_pin}"
    if retired_on is not None:
        return f"Retired {format_date(retired_on)}"
    return "Active"


def status_tone(retired_on: date | None) -> str:
    """The chip's colour, by the permit status it looks like (style.qss)."""
    return "issued" if retired_on is None else "void"


def _import_day(at: datetime | None, tz: tzinfo | None = None) -> str:
    return format_date(at.astimezone(tz).date()) if at is not None else ""


# --- who may do what -------------------------------------------------------------------------


def manage_allowed(actor: Actor) -> tuple[bool, str]:
    if not allowed(actor, Permission.MANAGE_PARTIES):
        return (
            False,
            "The clerk, the inspector, the engineer or the administrator adds and corrects "
            "parcels.",
        )
    return True, ""


def import_allowed(actor: Actor) -> tuple[bool, str]:
    if not allowed(actor, Permission.IMPORT_DATA):
        return False, "The clerk or the administrator imports the county's parcel file."
    return True, ""


@dataclass(frozen=True)
class ParcelState:
    """What the steps on a parcel depend on (a row of the list or the window's facts)."""

    pin: str
    retired_on: date | None
    merged_into_pin: str


def edit_allowed(actor: Actor, s: ParcelState | None) -> tuple[bool, str]:
    if s is None:
        return False, "Select a parcel."
    ok, why = manage_allowed(actor)
    if not ok:
        return ok, why
    if s.retired_on is not None:
        return False, f"Parcel {s.pin} is retired: restore it first."
    return True, ""


def retire_allowed(actor: Actor, s: ParcelState | None) -> tuple[bool, str]:
    if s is None:
        return False, "Select a parcel."
    ok, why = manage_allowed(actor)
    if not ok:
        return ok, why
    if s.retired_on is not None:
        return False, f"Parcel {s.pin} was retired on {format_date(s.retired_on)}."
    return True, ""


def restore_allowed(actor: Actor, s: ParcelState | None) -> tuple[bool, str]:
    if s is None:
        return False, "Select a parcel."
    ok, why = manage_allowed(actor)
    if not ok:
        return ok, why
    if s.retired_on is None:
        return False, f"Parcel {s.pin} is not retired."
    if s.merged_into_pin:
        return False, f"Parcel {s.pin} was merged into {s.merged_into_pin}; it stays retired."
    return True, ""


def merge_allowed(actor: Actor, s: ParcelState | None) -> tuple[bool, str]:
    if s is None:
        return False, "Select the parcel entered twice."
    ok, why = manage_allowed(actor)
    if not ok:
        return ok, why
    if s.merged_into_pin:
        return False, f"Parcel {s.pin} was merged into {s.merged_into_pin} already."
    return True, ""


def state_of_row(r: ParcelRow | None) -> ParcelState | None:
    return None if r is None else ParcelState(r.pin, r.retired_on, r.merged_into_pin)


def state_of_facts(f: ParcelFacts | None) -> ParcelState | None:
    return None if f is None else ParcelState(f.pin, f.retired_on, f.merged_into_pin)


# --- the list --------------------------------------------------------------------------------


class ParcelSource(Protocol):
    """The list's parcels: how many the filter and the search find, and a page of them."""

    def count(self, which: ParcelFilter, text: str) -> int: ...

    def page(
        self, which: ParcelFilter, text: str, sort: ParcelSort, offset: int, limit: int
    ) -> list[ParcelRow]: ...


def row_cells(r: ParcelRow) -> tuple[str, ...]:
    return (
        r.pin,
        r.address or EMPTY,
        r.owners or EMPTY,
        classes_text(r.property_classes),
        acres_text(r.acres),
        format_amount(r.assessed_value),
        str(r.permits) if r.permits else "",
        str(r.open_cases) if r.open_cases else "",
        status_words(r.retired_on, r.merged_into_pin),
    )


class ParcelListPresenter(PagedList[ParcelRow]):
    """The parcels the filter and the search find: their number (one COUNT) and the rows read so
    far, a page of `page_size` at a time as the list is scrolled (ui/views/paged.py)."""

    columns = COLUMNS

    def __init__(self, source: ParcelSource, actor: Actor, page_size: int = PAGE_SIZE) -> None:
        super().__init__(page_size)
        self.source = source
        self.actor = actor
        self.which = ParcelFilter.ACTIVE
        self.sort = ParcelSort.STREET

    def _count(self) -> int:
        return self.source.count(self.which, self.text)

    def _page(self, offset: int, limit: int) -> list[ParcelRow]:
        return self.source.page(self.which, self.text, self.sort, offset, limit)

    def _lines(self, found: list[ParcelRow]) -> list[Line]:
        return [Line(r, row_cells(r), warn=r.retired_on is not None) for r in found]

    def parcel(self, row: int) -> ParcelRow | None:
        return item_at(self.rows, row, ParcelRow)

    def row_of(self, parcel_id: int) -> int:
        return row_of(self.rows, parcel_id)

    def pins(self) -> list[str]:
        return [line.cells[0] for line in self.rows]

    @property
    def filter_label(self) -> str:
        return next(label for label, f in FILTERS if f is self.which)

    @property
    def summary(self) -> str:
        return f"{count_of(self.count, 'parcel')}: {self.filter_label.lower()}"

    @property
    def empty_text(self) -> str:
        if self.text.strip():
            return f"No parcel matches “{self.text.strip()}”."
        if self.which is ParcelFilter.RETIRED:
            return "No parcel is retired."
        return (
            "No parcels yet. Import parcels… brings in the county's parcel file; New parcel… "
            "adds one by hand."
        )

    def detail(self, row: int) -> str:
        r = self.parcel(row)
        if r is None:
            return ""
        parts = [f"PIN {r.pin}"]
        place = " ".join(x for x in (r.city, r.zip) if x)
        where = ", ".join(x for x in (r.address, place) if x)
        if where:
            parts.append(where)
        if r.owners:
            parts.append(f"owner of record {r.owners}")
        if r.permits:
            parts.append(count_of(r.permits, "permit"))
        if r.open_cases:
            parts.append(count_of(r.open_cases, "open case"))
        return " · ".join(parts) + ". Enter opens the parcel."


# --- the window --------------------------------------------------------------------------------


def window_title(f: ParcelFacts) -> str:
    return f"Parcel {f.pin}" + (f", {f.address}" if f.address else "") + " — Permit Desk"


def header_words(f: ParcelFacts) -> tuple[str, str, str, str]:
    """(title, status, address line, owner line)."""
    place = " ".join(x for x in (f.city, f.zip) if x)
    address = f.address or "No address recorded"
    if place:
        address += f", {place}"
    if f.owners:
        owner = f"Owner of record: {f.owners}"
        if f.owner_address:
            owner += f", {f.owner_address}"
    else:
        owner = "No owner of record"
    return f"Parcel {f.pin}", status_words(f.retired_on, f.merged_into_pin), address, owner


def source_words(f: ParcelFacts, tz: tzinfo | None = None) -> str:
    """Where the county's fields came from: 'V10_Westby.gdb, layer Parcels, imported 03/02/2026
    by Carol Clerk', or that none did."""
    s = f.source
    if s is None:
        return "Not from a county file: entered by the office."
    # A CSV's or a workbook's one layer is named after the file: said once.
    named = s.layer and s.layer != PurePath(s.file_name).stem
    words = s.file_name + (f", layer {s.layer}" if named else "")
    if s.at is not None:
        words += f", imported {_import_day(s.at, tz)}"
    if s.by:
        words += f" by {s.by}"
    return words


def _or_empty(text: str) -> str:
    return text if text.strip() else EMPTY


def office_section(f: ParcelFacts) -> Section:
    fields = [
        Field("PIN", f.pin),
        Field("House number", _or_empty(f.house_number)),
        Field("Street", _or_empty(f.street)),
        Field("Unit", _or_empty(f.unit)),
        Field("City", _or_empty(f.city)),
        Field("ZIP", _or_empty(f.zip)),
        Field("Legal description", _or_empty(f.legal_description)),
        Field("Zoning district", _or_empty(f.zoning_district)),
        Field(
            "Lot area",
            f"{f.lot_area_sqft:,} sq ft" if f.lot_area_sqft is not None else EMPTY,
        ),
        Field("Sewer tax", "delinquent (15.1.36)" if f.sewer_delinquent else "not delinquent"),
        Field("Notes", _or_empty(f.notes)),
    ]
    if f.retired_on is not None:
        how = f"{format_date(f.retired_on)}" + (f" by {f.retired_by}" if f.retired_by else "")
        fields.append(Field("Retired", how))
        fields.append(Field("Why", _or_empty(f.retired_reason)))
    if f.merged_from:
        fields.append(Field("Merged into it", ", ".join(f.merged_from)))
    return Section("The office's record", tuple(fields))


def county_section(f: ParcelFacts, tz: tzinfo | None = None) -> Section:
    coordinates = (
        f"{f.latitude:f}, {f.longitude:f}"
        if f.latitude is not None and f.longitude is not None
        else EMPTY
    )
    return Section(
        "From the county's parcel file",
        (
            Field("Owner of record", _or_empty(f.owner_name)),
            Field("Second owner", _or_empty(f.owner_name_2)),
            Field("Mailing address", _or_empty(f.owner_address)),
            Field("State parcel id", _or_empty(f.state_id)),
            Field("Tax parcel id", _or_empty(f.tax_parcel_id)),
            Field("Property class", _or_empty(classes_text(f.property_classes))),
            Field("Auxiliary class", _or_empty(classes_text(f.aux_classes))),
            Field("Acres", acres_text(f.acres) or EMPTY),
            Field("Assessed value", format_amount(f.assessed_value) or EMPTY),
            Field("Land value", format_amount(f.land_value) or EMPTY),
            Field("Improvement value", format_amount(f.improvement_value) or EMPTY),
            Field("Est. fair-market value", format_amount(f.fair_market_value) or EMPTY),
            Field("Tax roll year", str(f.tax_roll_year) if f.tax_roll_year else EMPTY),
            Field("Coordinates", coordinates),
            Field("Imported from", source_words(f, tz)),
        ),
    )


def records_words(f: ParcelFacts) -> str:
    """What points at the parcel, in one line: '3 permits · 1 case (1 open) · 2 complaints'."""
    open_cases = sum(1 for c in f.cases if c.closed_on is None)
    cases = count_of(len(f.cases), "case") + (f" ({open_cases} open)" if open_cases else "")
    parts = [count_of(len(f.permits), "permit")]
    for n, words in (
        (len(f.cases), cases),
        (f.complaints, count_of(f.complaints, "complaint")),
        (len(f.licences), count_of(len(f.licences), "rooming-house licence")),
        (len(f.deposits), count_of(len(f.deposits), "street deposit")),
        (len(f.condemnations), count_of(len(f.condemnations), "condemnation")),
    ):
        if n:
            parts.append(words)
    return " · ".join(parts)


PERMIT_COLUMNS = ("Permit", "Kind", "Status", "Applied", "Issued", "Expires", "Completed")
CASE_COLUMNS = ("Case", "Opened", "Complaints", "Stage")
LICENCE_COLUMNS = ("Record", "Dwelling unit", "Operator", "Status", "Date", "Until")
DEPOSIT_COLUMNS = ("Permit", "Depositor", "Amount", "Status", "Received")
STREET_COLUMNS = ("Street", "House numbers", "Repaved on", "This parcel", "Notes")
_ENDED = (PermitStatus.VOID, PermitStatus.REVOKED, PermitStatus.DENIED, PermitStatus.WITHDRAWN)


def permit_rows(f: ParcelFacts, municipality_key: str) -> Rows:
    return Rows(
        PERMIT_COLUMNS,
        [
            Line(
                x,
                (
                    x.number or "Application",
                    kind_label(municipality_key, x.kind),
                    x.status.label,
                    format_date(x.applied_on),
                    format_date(x.issued_on),
                    format_date(x.expires_on),
                    format_date(x.completed_on),
                ),
                warn=x.status in _ENDED,
            )
            for x in f.permits
        ],
    )


def case_words(c: ParcelCase, facts: CaseFacts | None, today: date) -> tuple[str, bool]:
    """The case's stage (as the Code enforcement list words it) and whether it is past due."""
    if c.closed_on is not None:
        reason = f" ({c.closed_reason})" if c.closed_reason else ""
        return f"closed {format_date(c.closed_on)}{reason}", False
    if facts is None:
        return "open", False
    stage = case_stage(facts, today)
    return stage.words, stage.warn


def case_rows(f: ParcelFacts, facts: Mapping[int, CaseFacts], today: date) -> Rows:
    rows = []
    for c in f.cases:
        stage, warn = case_words(c, facts.get(c.id), today)
        rows.append(
            Line(
                c,
                (c.number, format_date(c.opened_on), str(c.complaints), stage),
                warn=warn,
            )
        )
    return Rows(CASE_COLUMNS, rows)


def _licence_status(state: str, expires_on: date | None, today: date) -> tuple[str, bool]:
    try:
        s = LicenceState(state)
    except ValueError:
        return state, False
    if s is LicenceState.APPLIED:
        return "application pending", False
    if s is LicenceState.ISSUED and expires_on is not None and expires_on < today:
        return "expired", True
    return s.value, s in (LicenceState.SUSPENDED, LicenceState.REVOKED, LicenceState.DENIED)


def licence_rows(f: ParcelFacts, today: date) -> Rows:
    """Its rooming-house licences (Hudson 140-10), then its condemnations (Hudson 140)."""
    rows = []
    for x in f.licences:
        status, warn = _licence_status(x.state, x.expires_on, today)
        rows.append(
            Line(
                x,
                (
                    f"Rooming house {x.number}" if x.number else "Rooming house application",
                    x.dwelling_unit or EMPTY,
                    x.operator_name or EMPTY,
                    status,
                    format_date(x.applied_on),
                    format_date(x.expires_on),
                ),
                warn=warn,
            )
        )
    for c in f.condemnations:
        try:
            outcome = Outcome(c.outcome).label
        except ValueError:
            outcome = c.outcome
        still = c.outcome == Outcome.OPEN.value
        rows.append(
            Line(
                c,
                (
                    "Condemnation",
                    c.dwelling_unit or EMPTY,
                    "",
                    outcome.lower() + ("" if still else f" {format_date(c.outcome_on)}"),
                    format_date(c.condemned_on),
                    f"vacate by {format_date(c.vacate_by)}" if still else "",
                ),
                warn=still,
            )
        )
    return Rows(LICENCE_COLUMNS, rows)


_DEPOSIT_WORDS = {
    DepositState.AWAITING_PAYMENT.value: "awaiting payment",
    DepositState.HELD.value: "held",
    DepositState.ORDERED.value: "refund ordered",
    DepositState.REFUNDED.value: "refunded",
    DepositState.RETAINED.value: "retained by the Council",
}


def deposit_rows(f: ParcelFacts) -> Rows:
    return Rows(
        DEPOSIT_COLUMNS,
        [
            Line(
                x,
                (
                    x.permit_number or "Application",
                    x.depositor or EMPTY,
                    format_amount(x.amount),
                    _DEPOSIT_WORDS.get(x.status, x.status),
                    format_date(x.received_on),
                ),
            )
            for x in f.deposits
        ],
    )


def _number(text: str) -> int | None:
    digits = "".join(ch for ch in text.split("-")[0] if ch.isdigit())
    return int(digits) if digits else None


def covers(entry: StreetEntry, house_number: str) -> bool | None:
    """Whether the repaving covers the parcel (its segment holds the house number); None when
    the parcel has no house number to tell."""
    if entry.from_number is None and entry.to_number is None:
        return True  # the whole street
    number = _number(house_number)
    if number is None:
        return None
    low = entry.from_number if entry.from_number is not None else 0
    high = entry.to_number if entry.to_number is not None else 10**9
    return low <= number <= high


def street_rows(f: ParcelFacts, today: date) -> Rows:
    """The street register's repavings of the parcel's street (New Lisbon §435-8.I: no opening
    within five years of a repaving without the Council)."""
    rows = []
    for x in f.street_entries:
        if x.from_number is None and x.to_number is None:
            segment = "the whole street"
        else:
            segment = f"{x.from_number or ''}–{x.to_number or ''}".strip("–")
        hit = covers(x, f.house_number)
        recent = hit is not False and _years_since(x.repaved_on, today) < 5
        where = {True: "in the segment", False: "outside it", None: "no house number"}[hit]
        if recent:
            where += ", repaved less than 5 years ago"
        rows.append(
            Line(
                x,
                (
                    x.street,
                    segment,
                    format_date(x.repaved_on),
                    where,
                    x.notes or "",
                ),
                warn=recent,
            )
        )
    return Rows(STREET_COLUMNS, rows)


def _years_since(day: date, today: date) -> int:
    years = today.year - day.year
    if (today.month, today.day) < (day.month, day.day):
        years -= 1
    return years


# --- the history -----------------------------------------------------------------------------

_PARCEL_LABELS = {
    **LABELS,
    "pin": "PIN",
    "legal_description": "Legal description",
    "zoning_district": "Zoning district",
    "lot_area_sqft": "Lot area (sq ft)",
    "sewer_delinquent": "Sewer tax delinquent",
    "notes": "Notes",
    "retired_on": "Retired on",
    "retired_reason": "Why retired",
    "retired_by_id": "Retired by",
    "merged_into_id": "Merged into",
    "import_id": "Imported from",
    "municipality_id": "Municipality",
}
_MONEY = frozenset({"assessed_value", "land_value", "improvement_value", "fair_market_value"})
_LISTS = frozenset({"property_classes", "aux_classes"})
# Bookkeeping a clerk does not read on a parcel's history.
_HIDDEN = frozenset({"municipality_id", "version"})


def _event_words(entry: AuditEntry) -> str:
    """'Parcel added', 'Parcel imported', 'Parcel corrected', 'Parcel retired', …"""
    fields = {c.field: c for c in entry.changes}
    if entry.action == "create":
        return "Parcel imported" if "import_id" in fields else "Parcel added"
    merged = fields.get("merged_into_id")
    if merged is not None and merged.new:
        return "Merged into another parcel"
    retired = fields.get("retired_on")
    if retired is not None:
        return "Parcel retired" if retired.new else "Parcel restored"
    if "import_id" in fields:
        return "Updated from the county's file"
    return "Parcel corrected"


class ParcelHistory(HistoryPresenter):
    """The parcel's audit trail, newest first, one row per changed field, who by full name."""

    def __init__(
        self,
        entries: Sequence[AuditEntry],
        municipality_key: str,
        *,
        pins: Mapping[int, str],
        imports: Mapping[int, str],
        lookup: HistoryLookup | None = None,
        tz: tzinfo | None = None,
    ) -> None:
        self.pins = dict(pins)
        self.imports = dict(imports)
        super().__init__(entries, municipality_key, lookup=lookup, tz=tz)

    def value_text(self, field_name: str, value: str | None, entity: str = "") -> str:
        if value is None or value == "":
            return ""
        if field_name == "merged_into_id" and value.isdigit():
            return f"PIN {self.pins[int(value)]}" if int(value) in self.pins else ""
        if field_name == "import_id" and value.isdigit():
            return self.imports.get(int(value), "")
        if field_name in _MONEY:
            try:
                return format_amount(Decimal(value))
            except InvalidOperation:
                return value
        if field_name in _LISTS:
            try:
                items = json.loads(value)
            except ValueError:
                return value
            return classes_text([str(i) for i in items]) if isinstance(items, list) else value
        if field_name == "acres":
            try:
                return acres_text(Decimal(value))
            except InvalidOperation:
                return value
        return super().value_text(field_name, value, entity)

    def _rows(self) -> list[HistoryRow]:
        rows: list[HistoryRow] = []
        for shade, entry in enumerate(self.entries):
            when, who, what = (
                format_timestamp(entry.at, self.tz),
                self.who(entry),
                _event_words(entry),
            )
            shown = [
                (_PARCEL_LABELS.get(c.field, c.field.replace("_", " ").capitalize()), old, new)
                for c in entry.changes
                if c.field not in _HIDDEN
                for old, new in [(self.value_text(c.field, c.old), self.value_text(c.field, c.new))]
                if old or new
            ]
            if not shown:
                rows.append(HistoryRow(when, who, what, "", "", "", True, shade))
            for j, (label, old, new) in enumerate(shown):
                rows.append(HistoryRow(when, who, what, label, old, new, j == 0, shade))
        return rows

    @property
    def empty_text(self) -> str:
        return "No changes recorded for this parcel."


def parcel_history(
    f: ParcelFacts, municipality_key: str, tz: tzinfo | None = None
) -> ParcelHistory:
    return ParcelHistory(
        f.history,
        municipality_key,
        pins=f.pins,
        imports=f.imports,
        lookup=f.lookup,
        tz=tz,
    )


# --- the edit form ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FormField:
    key: str  # ParcelEdit's field
    label: str  # with its mnemonic
    error: str  # the name the service's ValidationError gives it
    lines: int = 1  # more than one: a text box
    placeholder: str = ""


FORM_FIELDS: tuple[FormField, ...] = (
    FormField("pin", "Parcel number (&PIN):", "parcel number", placeholder="e.g. 047-9991-002"),
    FormField("house_number", "&House number:", "house number"),
    FormField("street", "&Street:", "street", placeholder="e.g. N Port Washington Rd"),
    FormField("unit", "&Unit:", "unit"),
    FormField("city", "&City:", "city"),
    FormField("zip", "&ZIP:", "ZIP"),
    FormField("legal_description", "&Legal description:", "legal description", lines=2),
    FormField("zoning_district", "Zo&ning district:", "zoning district"),
    FormField("lot_area_sqft", "Lot &area (sq ft):", "lot area"),
    FormField("notes", "N&otes:", "notes", lines=2),
    FormField("owner_name", "O&wner of record:", "owner of record"),
    FormField("owner_name_2", "Secon&d owner:", "second owner"),
    FormField("owner_address", "Owner's &mailing address:", "owner's mailing address"),
)
# What the county's next import sets again from its file (desk.imports.parcels.COUNTY_FIELDS).
COUNTY_EDITABLE = ("street", "unit", "city", "zip", "owner_name", "owner_name_2", "owner_address")


def form_values(f: ParcelFacts) -> dict[str, str]:
    """The form's starting text: the parcel as it is."""
    values = {k.key: str(getattr(f, k.key) or "") for k in FORM_FIELDS}
    values["lot_area_sqft"] = f"{f.lot_area_sqft:,}" if f.lot_area_sqft is not None else ""
    return values


def parse_lot_area(text: str) -> int | None:
    cleaned = text.replace(",", "").replace(" ", "").strip()
    if not cleaned:
        return None
    if not cleaned.isdigit():
        raise ValidationError("lot area", f"'{text.strip()}' is not a whole number of square feet")
    return int(cleaned)


def parcel_edit(values: Mapping[str, str]) -> ParcelEdit:
    """What was typed as the service takes it (the service trims and checks each field)."""
    text = {k.key: values.get(k.key, "") for k in FORM_FIELDS}
    return ParcelEdit(
        pin=text["pin"],
        house_number=text["house_number"],
        street=text["street"],
        unit=text["unit"],
        city=text["city"],
        zip=text["zip"],
        legal_description=text["legal_description"],
        zoning_district=text["zoning_district"],
        lot_area_sqft=parse_lot_area(text["lot_area_sqft"]),
        notes=text["notes"],
        owner_name=text["owner_name"],
        owner_name_2=text["owner_name_2"],
        owner_address=text["owner_address"],
    )


def county_note(f: ParcelFacts, tz: tzinfo | None = None) -> str:
    """Above the county's figures in the edit form: where they come from and what the next
    import does."""
    if f.source is None:
        return (
            "The county's figures: none yet. An import of the county's parcel file fills them "
            "(File → Import parcels…)."
        )
    return (
        f"The county's figures, from its file of {_import_day(f.source.at, tz)} "
        f"({f.source.file_name}); the next import updates them, and the street, unit, city, ZIP "
        "and owners of record typed here too."
    )


def county_figures(f: ParcelFacts) -> list[Field]:
    section = county_section(f)
    # The owners and the source are on the form or in the note already.
    skip = {"Owner of record", "Second owner", "Mailing address", "Imported from"}
    return [x for x in section.fields if x.label not in skip]


# --- the merge -------------------------------------------------------------------------------


def merge_words(preview: MergePreview) -> str:
    """What a merge does, listed before it is confirmed."""
    lines = [f"{preview.duplicate} is merged into {preview.kept}."]
    if preview.references:
        lines.append("Moved to the parcel kept:")
        lines += [f"  • {r.kind}: {r.what}" for r in preview.references]
    else:
        lines.append("Nothing on the register points at the duplicate.")
    lines += [f"  • {note}" for note in preview.notes]
    return "\n".join(lines)


def merge_question(preview: MergePreview) -> str:
    moved = count_of(len(preview.references), "record")
    return (
        f"Merge {preview.duplicate} into {preview.kept}? {moved} move to the parcel kept and the "
        "duplicate is retired; a merge cannot be undone."
    )
