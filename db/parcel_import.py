"""Applying a parcel import in bulk: the register's parcels read in one query, new parcels
inserted and changed ones updated with executemany, each with its audit row, in the import's
one transaction (desk.services.parcels.imports decides what to write).

Core statements rather than the ORM: an import writes tens of thousands of rows, and a row at a
time through the session costs many times the rows themselves (bench/: parcels).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import fields
from datetime import datetime
from functools import lru_cache
from json.encoder import encode_basestring_ascii as _json_string
from typing import Any

from sqlalchemy import Connection, Table, bindparam, func, insert, select, text, update
from sqlalchemy.orm import Session

from db import audit_chain, schema, tracking
from desk.domain.model import DataImport
from desk.imports.files import ImportCancelled
from desk.imports.parcels import COUNTY_FIELDS, CountyParcel, ImportPlan, RegisterParcel

pc = schema.parcel
CHUNK = 2_000
_LISTED = ("street", "unit", "house_number")  # shown on the permits list: its rows follow


def _county(row: Any) -> CountyParcel:
    return CountyParcel(
        pin=row.pin,
        state_id=row.state_id,
        tax_parcel_id=row.tax_parcel_id,
        owner_name=row.owner_name,
        owner_name_2=row.owner_name_2,
        owner_address=row.owner_address,
        house_number=row.house_number,
        street=row.street,
        unit=row.unit,
        city=row.city,
        zip=row.zip,
        property_classes=tuple(row.property_classes or ()),
        aux_classes=tuple(row.aux_classes or ()),
        acres=row.acres,
        assessed_value=row.assessed_value,
        land_value=row.land_value,
        improvement_value=row.improvement_value,
        fair_market_value=row.fair_market_value,
        tax_roll_year=row.tax_roll_year,
        latitude=row.latitude,
        longitude=row.longitude,
    )


def register_parcels(conn: Connection, municipality_id: int) -> list[RegisterParcel]:
    """Every parcel of the municipality as an import compares it (one query)."""
    columns = [pc.c[name] for name in ("id", "pin", "retired_on", "house_number", *COUNTY_FIELDS)]
    rows = conn.execute(select(*columns).where(pc.c.municipality_id == municipality_id))
    return [
        RegisterParcel(
            id=r.id,
            pin=r.pin,
            retired=r.retired_on is not None,
            house_number=r.house_number,
            county=_county(r),
        )
        for r in rows
    ]


_FIELDS = tuple(f.name for f in fields(CountyParcel))


def _values(parcel: CountyParcel) -> dict[str, Any]:
    """The parcel's columns (the classes as the JSON lists the table keeps)."""
    values = {name: getattr(parcel, name) for name in _FIELDS}
    values["property_classes"] = list(parcel.property_classes)
    values["aux_classes"] = list(parcel.aux_classes)
    return values


@lru_cache(maxsize=4096)
def _classes_text(classes: tuple[str, ...]) -> str:
    return json.dumps(list(classes), sort_keys=True)


def _audit_text(value: Any) -> str | None:
    """As db.tracking writes it, with the common kinds of an import first (it runs for every
    field of every parcel)."""
    if value.__class__ is str:
        return value
    if value.__class__ is tuple:
        return _classes_text(value)
    if value.__class__ is list:
        return _classes_text(tuple(value))
    return tracking.audit_text(value)


def _decimal_text(value: Any) -> str:
    return f"{value:f}"  # acres and degrees exactly, as db.tracking writes finer quantities


def _money_text(value: Any) -> str:
    return f"{value:.2f}"


# How each column of a new parcel reads in its audit row (the same words db.tracking writes).
_TEXTS: dict[str, Callable[[Any], str]] = {
    **dict.fromkeys(_FIELDS, str),
    "property_classes": lambda v: _classes_text(tuple(v)),
    "aux_classes": lambda v: _classes_text(tuple(v)),
    "import_id": str,
    "acres": _decimal_text,
    "latitude": _decimal_text,
    "longitude": _decimal_text,
    **dict.fromkeys(
        ("assessed_value", "land_value", "improvement_value", "fair_market_value"), _money_text
    ),
}


_TEXT_FIELDS = tuple(name for name, as_text in _TEXTS.items() if as_text is str)
_OTHER_FIELDS = tuple((name, as_text) for name, as_text in _TEXTS.items() if as_text is not str)
_OPEN = {name: f'{{"field":"{name}","new":' for name in _TEXTS}
_CLOSE = ',"old":null}'


def _created_json(values: Mapping[str, Any]) -> str:
    """The audit row's changes of a parcel the import creates (each field set, old -> new),
    written straight as the JSON audit_chain.encoded_changes would make of the list of
    {"field", "new", "old"} objects: the same characters, without building the objects (it
    runs for every field of every parcel)."""
    parts = []
    for name in _TEXT_FIELDS:
        value = values[name]
        if value:
            parts.append(_OPEN[name] + _json_string(str(value)) + _CLOSE)
    for name, as_text in _OTHER_FIELDS:
        value = values[name]
        if value is not None and value != []:
            parts.append(_OPEN[name] + _json_string(as_text(value)) + _CLOSE)
    return "[" + ",".join(parts) + "]"


def allocate_ids(conn: Connection, table: Table, n: int) -> list[int]:
    """`n` new ids of the table, taken inside the writing transaction (SQLite: above the
    largest, under the write lock; PostgreSQL: from the table's sequence), so the rows can be
    inserted with plain executemany and their audit rows written beside them."""
    if n == 0:
        return []
    if conn.dialect.name == "postgresql":
        return sorted(
            conn.scalars(
                text(
                    "SELECT nextval(pg_get_serial_sequence(:t, 'id')) FROM generate_series(1, :n)"
                ),
                {"t": table.name, "n": n},
            )
        )
    last = conn.execute(select(func.max(table.c.id))).scalar() or 0
    return list(range(last + 1, last + 1 + n))


Progress = Callable[[int, int], None]


def apply_plan(
    session: Session,
    municipality_id: int,
    plan: ImportPlan,
    register: Mapping[int, RegisterParcel],
    record: DataImport,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> int:
    """Write the plan's new and changed parcels with their audit rows and the import's record;
    the import's id. Raises ImportCancelled between chunks when asked (the caller's unit of
    work then rolls everything back)."""
    conn = session.connection()
    at: datetime = session.info[tracking.AT_KEY]
    user_id = session.info[tracking.ACTOR_KEY]
    record.at = at
    record.by_user_id = user_id
    record.counts = plan.counts
    di = schema.data_import
    import_id = int(
        conn.execute(
            insert(di).returning(di.c.id),
            {
                "municipality_id": municipality_id,
                "kind": record.kind,
                "file_name": record.file_name[:260],
                "file_sha256": record.file_sha256,
                "layer": record.layer[:200],
                "at": at,
                "by_user_id": user_id,
                "counts": record.counts,
            },
        ).scalar_one()
    )
    record.id = import_id
    audit: list[dict[str, Any]] = [
        _audit_row(
            at,
            user_id,
            "data_import",
            import_id,
            "create",
            [
                {"field": k, "old": None, "new": _audit_text(v)}
                for k, v in _import_values(record).items()
                if v not in (None, "", [], {})
            ],
        )
    ]
    total = plan.writes
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if cancelled is not None and cancelled():
            raise ImportCancelled()
        if progress is not None:
            progress(done, total)

    # New parcels: the county's fields, the house number from the file, the office's blank.
    for start in range(0, len(plan.new), CHUNK):
        new = plan.new[start : start + CHUNK]
        rows = []
        for parcel_id, fresh in zip(allocate_ids(conn, pc, len(new)), new, strict=True):
            values = _values(fresh.parcel)
            changes = _created_json({**values, "import_id": import_id})
            audit.append(_encoded_row(at, user_id, "parcel", parcel_id, "create", changes))
            values.update(
                id=parcel_id,
                municipality_id=municipality_id,
                import_id=import_id,
                legal_description="",
                zoning_district="",
            )
            rows.append(values)
        conn.execute(insert(pc), rows)
        _flush_audit(conn, audit)
        step(len(new))

    # Changed parcels: the county's fields (the house number only where it was blank).
    listed: list[int] = []
    county = list(COUNTY_FIELDS)
    plain = update(pc).where(pc.c.id == bindparam("b_id"))
    plain = plain.values(
        {
            **{f: bindparam(f"b_{f}") for f in county},
            "import_id": import_id,
            "version": pc.c.version + 1,
        }
    )
    with_house = plain.values(house_number=bindparam("b_house_number"))
    for start in range(0, len(plan.changed), CHUNK):
        chunk = plan.changed[start : start + CHUNK]
        groups: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        for item in chunk:
            values = _values(item.parcel)
            names = {c.field for c in item.changes}
            params = {f"b_{f}": values[f] for f in county}
            params["b_id"] = item.parcel_id
            house = "house_number" in names
            if house:
                params["b_house_number"] = item.parcel.house_number
            groups[house].append(params)
            old = register[item.parcel_id]
            updated = [
                {
                    "field": name,
                    "old": _audit_text(
                        old.house_number if name == "house_number" else getattr(old.county, name)
                    ),
                    "new": _audit_text(values[name]),
                }
                for name in sorted(names)
            ]
            updated.append({"field": "import_id", "old": None, "new": str(import_id)})
            audit.append(_audit_row(at, user_id, "parcel", item.parcel_id, "update", updated))
            if names & set(_LISTED):
                listed.append(item.parcel_id)
        if groups[False]:
            conn.execute(plain, groups[False])
        if groups[True]:
            conn.execute(with_house, groups[True])
        _flush_audit(conn, audit)
        step(len(chunk))
    _flush_audit(conn, audit, final=True)
    if listed:
        p = schema.permit
        permit_ids: list[int] = []
        for start in range(0, len(listed), 500):
            permit_ids.extend(
                conn.scalars(select(p.c.id).where(p.c.parcel_id.in_(listed[start : start + 500])))
            )
        tracking.refresh_listing(conn, permit_ids)
    return import_id


def _import_values(record: DataImport) -> dict[str, Any]:
    return {
        "municipality_id": record.municipality_id,
        "kind": record.kind,
        "file_name": record.file_name,
        "file_sha256": record.file_sha256,
        "layer": record.layer,
        "counts": record.counts,
    }


def _audit_row(
    at: datetime,
    user_id: int | None,
    entity: str,
    entity_id: int,
    action: str,
    changes: list[dict[str, str | None]],
) -> dict[str, Any]:
    return {
        "at": at,
        "user_id": user_id,
        "entity": entity,
        "entity_id": entity_id,
        "permit_id": None,
        "action": action,
        "changes_json": audit_chain.encoded_changes(changes),
    }


def _encoded_row(
    at: datetime,
    user_id: int | None,
    entity: str,
    entity_id: int,
    action: str,
    changes_json: str,
) -> dict[str, Any]:
    return {
        "at": at,
        "user_id": user_id,
        "entity": entity,
        "entity_id": entity_id,
        "permit_id": None,
        "action": action,
        "changes_json": changes_json,
    }


def _flush_audit(conn: Connection, audit: list[dict[str, Any]], final: bool = False) -> None:
    """Append the audit rows gathered so far (in chunks: the list does not grow with the
    file)."""
    if audit and (final or len(audit) >= CHUNK):
        audit_chain.append_encoded(conn, audit)
        audit.clear()
