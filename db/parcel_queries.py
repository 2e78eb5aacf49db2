"""Read side of the parcel register: the Parcels section's list (searched, filtered, sorted and
read a page at a time) and everything the parcel window shows about one parcel: the office's
facts and the county's, the import they came from, what points at the parcel (permits, code
enforcement cases and complaints, rooming-house licences, street deposits, condemnations), the
street register's entries for its street, and its audit trail. Frozen rows, safe across
threads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Select,
    and_,
    bindparam,
    func,
    literal,
    or_,
    select,
)

from db import schema
from db.audit_queries import HistoryLookup, history_lookup
from db.queries import audit_entry
from desk.domain.enums import PermitStatus
from desk.domain.model import AuditEntry
from desk.domain.search import STREET_ABBREVIATIONS

pc = schema.parcel
p = schema.permit
ec = schema.enforcement_case
cp = schema.enforcement_complaint
rl = schema.rooming_licence
dp = schema.deposit
cd = schema.condemnation
sr = schema.street_repaving
di = schema.data_import
u = schema.app_user
a = schema.audit_event


class ParcelFilter(StrEnum):
    ACTIVE = "active"
    RETIRED = "retired"  # retired by hand or merged into another parcel
    ALL = "all"


class ParcelSort(StrEnum):
    STREET = "street"  # street, then house number in numeric order (as the pickers list them)
    PIN = "pin"


@dataclass(frozen=True)
class ParcelRow:
    """A parcel as the Parcels section lists it."""

    id: int
    version: int
    pin: str
    house_number: str
    street: str
    unit: str
    city: str
    zip: str
    owner_name: str
    owner_name_2: str
    state_id: str
    property_classes: tuple[str, ...]
    acres: Decimal | None
    assessed_value: Decimal | None
    permits: int
    open_cases: int
    retired_on: date | None
    merged_into_pin: str  # "" unless merged into another parcel

    @property
    def address(self) -> str:
        line = " ".join(x for x in (self.house_number, self.street) if x)
        return line + (f", Unit {self.unit}" if self.unit else "")

    @property
    def owners(self) -> str:
        return " & ".join(n for n in (self.owner_name, self.owner_name_2) if n)


def _contains(word: str) -> str:
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


# What a search looks in, as one text: a word found anywhere in it matches. One LIKE per word
# over one text, not one per column: at 50,000 parcels the search is one quick scan.
_SEARCHED = (
    pc.c.pin,
    pc.c.house_number,
    pc.c.street,
    pc.c.owner_name,
    pc.c.owner_name_2,
    pc.c.state_id,
    pc.c.tax_parcel_id,
)


def _searched() -> ColumnElement[str]:
    text: ColumnElement[str] = _SEARCHED[0]
    for column in _SEARCHED[1:]:
        text = text + literal(" ") + column
    return text


def _where(
    municipality_id: int, which: ParcelFilter, text: str, dialect: str
) -> ColumnElement[bool]:
    """The municipality's parcels through `which`, each word of `text` (any case) in the PIN,
    the address, an owner of record, or the state or tax parcel id."""
    where: ColumnElement[bool] = pc.c.municipality_id == municipality_id
    if which is ParcelFilter.ACTIVE:
        where = and_(where, pc.c.retired_on.is_(None))
    elif which is ParcelFilter.RETIRED:
        where = and_(where, pc.c.retired_on.is_not(None))
    searched = _searched() if dialect == "sqlite" else func.lower(_searched())
    for word in text.lower().split():
        # A street word typed out finds its USPS abbreviation too ("road" finds "Rd": the
        # import writes streets abbreviated). SQLite's LIKE ignores the case of ASCII letters
        # already (the county writes names in capitals); lower() on every row would double the
        # scan. PostgreSQL: lower() and LIKE.
        words = {word, STREET_ABBREVIATIONS.get(word, word)}
        where = and_(where, or_(*(searched.like(_contains(w), escape="\\") for w in words)))
    return where


def parcel_count(
    conn: Connection,
    municipality_id: int,
    which: ParcelFilter = ParcelFilter.ACTIVE,
    text: str = "",
) -> int:
    """How many parcels parcel_rows would list (the section's "N parcels")."""
    stmt = _count_statement(municipality_id, which, text, conn.dialect.name)
    return int(conn.execute(stmt).scalar_one())


# The list asks the same statements again and again (each keystroke, each page): built once.
@lru_cache(maxsize=128)
def _count_statement(
    municipality_id: int,
    which: ParcelFilter,
    text: str,
    dialect: str,
    part: _Part | None = None,
) -> Select[Any]:
    where = _where(municipality_id, which, text, dialect)
    extra = _part(part) if part is not None else None
    if extra is not None:
        where = and_(where, extra)
    return select(func.count()).select_from(pc).where(where)


def _order(sort: ParcelSort) -> tuple[Any, ...]:
    """The list's order; each reads the parcels in the order of an index of the table (the
    municipality's streets, its PINs), so the first page is read without sorting them all."""
    if sort is ParcelSort.PIN:
        return (pc.c.pin, pc.c.id)
    # "98" before "100": by length first, as db.queries.parcel_matches orders the pickers.
    return (pc.c.street, func.length(pc.c.house_number), pc.c.house_number, pc.c.unit, pc.c.id)


def parcel_rows(
    conn: Connection,
    municipality_id: int,
    which: ParcelFilter = ParcelFilter.ACTIVE,
    text: str = "",
    sort: ParcelSort = ParcelSort.STREET,
    limit: int | None = None,
    offset: int = 0,
) -> list[ParcelRow]:
    """The parcels of the list in `sort` order, `limit` from `offset` (a page). The page's ids
    are read first; the rest of each row (the permits and open cases counted, the parcel a
    merged one went into) is then read for those ids only."""
    ids = _page_ids(conn, municipality_id, which, text, sort, limit, offset)
    if not ids:
        return []
    found = {r.id: r for r in conn.execute(_rows_statement(), {"ids": ids})}
    return [
        ParcelRow(
            r.id,
            r.version,
            r.pin,
            r.house_number,
            r.street,
            r.unit,
            r.city,
            r.zip,
            r.owner_name,
            r.owner_name_2,
            r.state_id,
            tuple(str(c) for c in (r.property_classes or ())),
            r.acres,
            r.assessed_value,
            int(r.permits or 0),
            int(r.open_cases or 0),
            r.retired_on,
            r.merged_into_pin or "",
        )
        for r in (found[i] for i in ids if i in found)
    ]


def _page_ids(
    conn: Connection,
    municipality_id: int,
    which: ParcelFilter,
    text: str,
    sort: ParcelSort,
    limit: int | None,
    offset: int,
) -> list[int]:
    """The ids of the page. By street, the parcels with no street (a county file leaves the
    site address of some blank) come after the others: first the named streets' rows, then,
    once those run out, the rest, each read in the order of the street index."""
    d = conn.dialect.name

    def read(part: _Part, at: int, n: int | None) -> list[int]:
        stmt = _page_statement(municipality_id, which, text, sort, n, at, d, part)
        return [int(i) for i in conn.execute(stmt).scalars()]

    if sort is not ParcelSort.STREET:
        return read(_Part.ALL, offset, limit)
    named = read(_Part.NAMED, offset, limit)
    if limit is not None and len(named) == limit:
        return named
    if named:  # the named streets end on this page: the blank ones follow from the first
        return named + read(_Part.BLANK, 0, None if limit is None else limit - len(named))
    before = conn.execute(
        _count_statement(municipality_id, which, text, d, _Part.NAMED)
    ).scalar_one()
    return read(_Part.BLANK, max(offset - int(before), 0), limit)


class _Part(StrEnum):
    ALL = "all"
    NAMED = "named"  # a street recorded
    BLANK = "blank"  # none yet


def _part(part: _Part) -> ColumnElement[bool] | None:
    if part is _Part.NAMED:
        return pc.c.street > ""  # a range of the street index, not a test of every row
    if part is _Part.BLANK:
        return pc.c.street == ""
    return None


@lru_cache(maxsize=128)
def _page_statement(
    municipality_id: int,
    which: ParcelFilter,
    text: str,
    sort: ParcelSort,
    limit: int | None,
    offset: int,
    dialect: str,
    part: _Part = _Part.ALL,
) -> Select[Any]:
    where = _where(municipality_id, which, text, dialect)
    extra = _part(part)
    if extra is not None:
        where = and_(where, extra)
    page = select(pc.c.id).where(where).order_by(*_order(sort))
    if offset:
        page = page.offset(offset)
    if limit is not None:
        page = page.limit(limit)
    return page


@lru_cache(maxsize=1)
def _rows_statement() -> Select[Any]:
    permits = select(func.count()).select_from(p).where(p.c.parcel_id == pc.c.id)
    cases = (
        select(func.count())
        .select_from(ec)
        .where((ec.c.parcel_id == pc.c.id) & ec.c.closed_on.is_(None))
    )
    kept = pc.alias("kept")
    return (
        select(
            pc.c.id,
            pc.c.version,
            pc.c.pin,
            pc.c.house_number,
            pc.c.street,
            pc.c.unit,
            pc.c.city,
            pc.c.zip,
            pc.c.owner_name,
            pc.c.owner_name_2,
            pc.c.state_id,
            pc.c.property_classes,
            pc.c.acres,
            pc.c.assessed_value,
            permits.scalar_subquery().label("permits"),
            cases.scalar_subquery().label("open_cases"),
            pc.c.retired_on,
            kept.c.pin.label("merged_into_pin"),
        )
        .select_from(pc.outerjoin(kept, kept.c.id == pc.c.merged_into_id))
        .where(pc.c.id.in_(bindparam("ids", expanding=True)))
    )


# --- the parcel window ----------------------------------------------------------------------


@dataclass(frozen=True)
class ParcelPermit:
    id: int
    number: str | None  # None: an application not issued yet
    kind: str  # the kind's code (desk.domain.kinds.kind_label gives its words)
    status: PermitStatus
    applied_on: date | None
    issued_on: date | None
    expires_on: date | None
    completed_on: date | None


@dataclass(frozen=True)
class ParcelCase:
    id: int
    number: str
    opened_on: date
    closed_on: date | None
    closed_reason: str  # "" while open
    complaints: int


@dataclass(frozen=True)
class ParcelLicence:
    id: int
    number: str | None  # None: an application
    state: str  # desk.enforcement.licences.LicenceState value
    dwelling_unit: str
    operator_name: str
    applied_on: date
    expires_on: date | None


@dataclass(frozen=True)
class ParcelDeposit:
    id: int
    permit_id: int
    permit_number: str | None
    depositor: str
    amount: Decimal
    status: str  # desk.domain.model.DepositState value
    received_on: date | None


@dataclass(frozen=True)
class ParcelCondemnation:
    id: int
    dwelling_unit: str
    condemned_on: date
    vacate_by: date
    outcome: str  # desk.domain.licensing.Outcome value
    outcome_on: date | None


@dataclass(frozen=True)
class StreetEntry:
    """A repaving on the street register of the parcel's street (New Lisbon §435-8.I)."""

    id: int
    street: str
    from_number: int | None
    to_number: int | None
    repaved_on: date
    notes: str


@dataclass(frozen=True)
class ParcelImport:
    """The import the parcel's county fields last came from."""

    id: int
    file_name: str
    layer: str
    at: datetime | None
    by: str  # who ran it, by full name


@dataclass(frozen=True)
class ParcelFacts:
    """Everything the parcel window shows."""

    id: int
    version: int
    municipality_id: int
    # The office's own record.
    pin: str
    house_number: str
    street: str
    unit: str
    city: str
    zip: str
    legal_description: str
    zoning_district: str
    lot_area_sqft: int | None
    sewer_delinquent: bool
    notes: str
    # What the county's parcel file says.
    state_id: str
    tax_parcel_id: str
    owner_name: str
    owner_name_2: str
    owner_address: str
    property_classes: tuple[str, ...]
    aux_classes: tuple[str, ...]
    acres: Decimal | None
    assessed_value: Decimal | None
    land_value: Decimal | None
    improvement_value: Decimal | None
    fair_market_value: Decimal | None
    tax_roll_year: int | None
    latitude: Decimal | None
    longitude: Decimal | None
    source: ParcelImport | None
    # Retired (never deleted), or merged into another parcel.
    retired_on: date | None
    retired_reason: str
    retired_by: str
    merged_into_id: int | None
    merged_into_pin: str
    merged_from: tuple[str, ...]  # the PINs of the duplicates merged into this parcel
    # What points at it.
    permits: tuple[ParcelPermit, ...]
    cases: tuple[ParcelCase, ...]
    complaints: int
    licences: tuple[ParcelLicence, ...]
    deposits: tuple[ParcelDeposit, ...]
    condemnations: tuple[ParcelCondemnation, ...]
    street_entries: tuple[StreetEntry, ...]
    # Its audit trail, newest first, and the names its rows show instead of ids.
    history: tuple[AuditEntry, ...]
    lookup: HistoryLookup
    pins: dict[int, str]  # parcel id -> PIN, for the ids the history mentions
    imports: dict[int, str]  # data_import id -> "file name"

    @property
    def address(self) -> str:
        line = " ".join(x for x in (self.house_number, self.street) if x)
        return line + (f", Unit {self.unit}" if self.unit else "")

    @property
    def owners(self) -> str:
        return " & ".join(n for n in (self.owner_name, self.owner_name_2) if n)


def parcel_id_by_pin(conn: Connection, municipality_id: int, pin: str) -> int | None:
    found = conn.execute(
        select(pc.c.id).where((pc.c.municipality_id == municipality_id) & (pc.c.pin == pin))
    ).scalar_one_or_none()
    if found is None:  # typed in another case
        found = conn.execute(
            select(pc.c.id)
            .where(
                (pc.c.municipality_id == municipality_id)
                & (func.lower(pc.c.pin) == pin.strip().lower())
            )
            .limit(1)
        ).scalar_one_or_none()
    return None if found is None else int(found)


def parcel_history(conn: Connection, parcel_id: int) -> list[AuditEntry]:
    """The parcel's own audit rows (edits, imports, retirement, merges), newest first."""
    rows = conn.execute(
        select(a.c.at, a.c.entity, a.c.entity_id, a.c.action, a.c.changes, u.c.username)
        .select_from(a.outerjoin(u, u.c.id == a.c.user_id))
        .where((a.c.entity == "parcel") & (a.c.entity_id == parcel_id))
        .order_by(a.c.id.desc())
    )
    return [audit_entry(r) for r in rows]


def _history_ids(entries: list[AuditEntry], name: str) -> set[int]:
    return {
        int(v)
        for e in entries
        for c in e.changes
        if c.field == name
        for v in (c.old, c.new)
        if v and v.isdigit()
    }


def _source(conn: Connection, import_id: int | None) -> ParcelImport | None:
    if import_id is None:
        return None
    r = conn.execute(
        select(di.c.id, di.c.file_name, di.c.layer, di.c.at, u.c.full_name)
        .select_from(di.outerjoin(u, u.c.id == di.c.by_user_id))
        .where(di.c.id == import_id)
    ).first()
    if r is None:
        return None
    return ParcelImport(r.id, r.file_name, r.layer, r.at, r.full_name or "")


def parcel_facts(conn: Connection, parcel_id: int) -> ParcelFacts | None:
    """The parcel as its window shows it; None when there is no such parcel."""
    r = conn.execute(select(pc).where(pc.c.id == parcel_id)).first()
    if r is None:
        return None
    kept_pin = ""
    if r.merged_into_id is not None:
        kept_pin = str(
            conn.execute(select(pc.c.pin).where(pc.c.id == r.merged_into_id)).scalar() or ""
        )
    retired_by = ""
    if r.retired_by_id is not None:
        retired_by = str(
            conn.execute(select(u.c.full_name).where(u.c.id == r.retired_by_id)).scalar() or ""
        )
    merged_from = tuple(
        conn.scalars(select(pc.c.pin).where(pc.c.merged_into_id == parcel_id).order_by(pc.c.pin))
    )
    permits = tuple(
        ParcelPermit(
            x.id,
            x.number,
            x.kind,
            x.status,
            x.applied_on,
            x.issued_on,
            x.expires_on,
            x.completed_on,
        )
        for x in conn.execute(
            select(
                p.c.id,
                p.c.number,
                p.c.kind,
                p.c.status,
                p.c.applied_on,
                p.c.issued_on,
                p.c.expires_on,
                p.c.completed_on,
            )
            .where(p.c.parcel_id == parcel_id)
            .order_by(p.c.applied_on.desc(), p.c.id.desc())
        )
    )
    complaints = (
        select(func.count()).select_from(cp).where(cp.c.case_id == ec.c.id).scalar_subquery()
    )
    cases = tuple(
        ParcelCase(
            x.id,
            x.number,
            x.opened_on,
            x.closed_on,
            str(x.closed_reason.value) if x.closed_reason else "",
            int(x.complaints or 0),
        )
        for x in conn.execute(
            select(
                ec.c.id,
                ec.c.number,
                ec.c.opened_on,
                ec.c.closed_on,
                ec.c.closed_reason,
                complaints.label("complaints"),
            )
            .where(ec.c.parcel_id == parcel_id)
            .order_by(ec.c.opened_on.desc(), ec.c.id.desc())
        )
    )
    complaint_count = int(
        conn.execute(
            select(func.count()).select_from(cp).where(cp.c.parcel_id == parcel_id)
        ).scalar_one()
    )
    licences = tuple(
        ParcelLicence(
            x.id,
            x.number,
            str(x.state.value),
            x.dwelling_unit,
            x.operator_name,
            x.applied_on,
            x.expires_on,
        )
        for x in conn.execute(
            select(
                rl.c.id,
                rl.c.number,
                rl.c.state,
                rl.c.dwelling_unit,
                rl.c.operator_name,
                rl.c.applied_on,
                rl.c.expires_on,
            )
            .where(rl.c.parcel_id == parcel_id)
            .order_by(rl.c.applied_on.desc(), rl.c.id.desc())
        )
    )
    deposits = tuple(
        ParcelDeposit(
            x.id,
            x.permit_id,
            x.number,
            x.depositor,
            x.amount,
            str(x.status.value),
            x.received_on,
        )
        for x in conn.execute(
            select(
                dp.c.id,
                dp.c.permit_id,
                p.c.number,
                dp.c.depositor,
                dp.c.amount,
                dp.c.status,
                dp.c.received_on,
            )
            .select_from(dp.join(p, p.c.id == dp.c.permit_id))
            .where(p.c.parcel_id == parcel_id)
            .order_by(dp.c.id.desc())
        )
    )
    condemnations = tuple(
        ParcelCondemnation(
            x.id,
            x.dwelling_unit,
            x.condemned_on,
            x.vacate_by,
            str(x.outcome.value),
            x.outcome_on,
        )
        for x in conn.execute(
            select(
                cd.c.id,
                cd.c.dwelling_unit,
                cd.c.condemned_on,
                cd.c.vacate_by,
                cd.c.outcome,
                cd.c.outcome_on,
            )
            .where(cd.c.parcel_id == parcel_id)
            .order_by(cd.c.condemned_on.desc(), cd.c.id.desc())
        )
    )
    streets: tuple[StreetEntry, ...] = ()
    if r.street.strip():
        streets = tuple(
            StreetEntry(x.id, x.street, x.from_number, x.to_number, x.repaved_on, x.notes)
            for x in conn.execute(
                select(
                    sr.c.id,
                    sr.c.street,
                    sr.c.from_number,
                    sr.c.to_number,
                    sr.c.repaved_on,
                    sr.c.notes,
                )
                .where(
                    (sr.c.municipality_id == r.municipality_id)
                    & (func.lower(sr.c.street) == r.street.strip().lower())
                )
                .order_by(sr.c.repaved_on.desc(), sr.c.id.desc())
            )
        )
    history = parcel_history(conn, parcel_id)
    pin_ids = _history_ids(history, "merged_into_id")
    import_ids = _history_ids(history, "import_id")
    pins: dict[int, str] = {}
    if pin_ids:
        found = conn.execute(select(pc.c.id, pc.c.pin).where(pc.c.id.in_(pin_ids)))
        pins = {int(i): str(n) for i, n in found}
    imports: dict[int, str] = {}
    if import_ids:
        files = conn.execute(select(di.c.id, di.c.file_name).where(di.c.id.in_(import_ids)))
        imports = {int(i): str(n) for i, n in files}
    return ParcelFacts(
        id=r.id,
        version=r.version,
        municipality_id=r.municipality_id,
        pin=r.pin,
        house_number=r.house_number,
        street=r.street,
        unit=r.unit,
        city=r.city,
        zip=r.zip,
        legal_description=r.legal_description,
        zoning_district=r.zoning_district,
        lot_area_sqft=r.lot_area_sqft,
        sewer_delinquent=bool(r.sewer_delinquent),
        notes=r.notes,
        state_id=r.state_id,
        tax_parcel_id=r.tax_parcel_id,
        owner_name=r.owner_name,
        owner_name_2=r.owner_name_2,
        owner_address=r.owner_address,
        property_classes=tuple(str(c) for c in (r.property_classes or ())),
        aux_classes=tuple(str(c) for c in (r.aux_classes or ())),
        acres=r.acres,
        assessed_value=r.assessed_value,
        land_value=r.land_value,
        improvement_value=r.improvement_value,
        fair_market_value=r.fair_market_value,
        tax_roll_year=r.tax_roll_year,
        latitude=r.latitude,
        longitude=r.longitude,
        source=_source(conn, r.import_id),
        retired_on=r.retired_on,
        retired_reason=r.retired_reason,
        retired_by=retired_by,
        merged_into_id=r.merged_into_id,
        merged_into_pin=kept_pin,
        merged_from=merged_from,
        permits=permits,
        cases=cases,
        complaints=complaint_count,
        licences=licences,
        deposits=deposits,
        condemnations=condemnations,
        street_entries=streets,
        history=tuple(history),
        lookup=history_lookup(conn, history),
        pins=pins,
        imports=imports,
    )


def usual_city_zip(conn: Connection, municipality_id: int) -> tuple[str, str]:
    """The city and ZIP most of the municipality's parcels have, for a new parcel's form; else
    the letterhead's last line ("Glendale, WI 53209"); ("", "") when neither says."""
    p = schema.parcel.c
    row = conn.execute(
        select(p.city, p.zip)
        .where((p.municipality_id == municipality_id) & (p.city != ""))
        .group_by(p.city, p.zip)
        .order_by(func.count().desc(), p.city, p.zip)
        .limit(1)
    ).first()
    if row is not None:
        return str(row.city), str(row.zip or "")
    from db.letterheads import find_letterhead

    head = find_letterhead(conn, municipality_id, None)
    for line in reversed(tuple(head or ())):
        found = re.fullmatch(r"\s*(.+?),\s*[A-Z]{2}\s+(\d{5}(?:-\d{4})?)\s*", line)
        if found:
            return found.group(1), found.group(2)
    return "", ""
