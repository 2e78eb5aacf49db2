"""Applying a parcel import in bulk: the register's parcels read in one query, new parcels
inserted and changed ones updated with executemany, each with its audit row, in the import's
one transaction (desk.services.parcels.imports decides what to write).

Core statements rather than the ORM: an import writes tens of thousands of rows, and a row at a
time through the session costs many times the rows themselves (bench/: parcels).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update
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


def _values(parcel: CountyParcel) -> dict[str, Any]:
    values = asdict(parcel)
    values["property_classes"] = list(parcel.property_classes)
    values["aux_classes"] = list(parcel.aux_classes)
    return values


def _audit_text(value: Any) -> str | None:
    if isinstance(value, tuple):
        value = list(value)
    return tracking.audit_text(value)


def _created(values: Mapping[str, Any]) -> list[dict[str, str | None]]:
    return [
        {"field": k, "old": None, "new": _audit_text(v)}
        for k, v in values.items()
        if v not in (None, "", [], ()) and k not in ("version",)
    ]


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
            at, user_id, "data_import", import_id, "create", _created(_import_values(record))
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
        for fresh in new:
            values = _values(fresh.parcel)
            values.update(
                municipality_id=municipality_id,
                import_id=import_id,
                legal_description="",
                zoning_district="",
            )
            rows.append(values)
        ids = conn.scalars(insert(pc).returning(pc.c.id, sort_by_parameter_order=True), rows).all()
        for parcel_id, values in zip(ids, rows, strict=True):
            changes = _created({k: v for k, v in values.items() if k != "municipality_id"})
            audit.append(_audit_row(at, user_id, "parcel", parcel_id, "create", changes))
        _flush_audit(conn, audit)
        step(len(new))

    # Changed parcels: the county's fields (the house number only where it was blank).
    listed: list[int] = []
    fields = list(COUNTY_FIELDS)
    plain = update(pc).where(pc.c.id == bindparam("b_id"))
    plain = plain.values(
        {
            **{f: bindparam(f"b_{f}") for f in fields},
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
            params = {f"b_{f}": values[f] for f in fields}
            params["b_id"] = item.parcel_id
            house = "house_number" in names
            if house:
                params["b_house_number"] = item.parcel.house_number
            groups[house].append(params)
            old = register[item.parcel_id]
            changes = [
                {
                    "field": name,
                    "old": _audit_text(
                        old.house_number if name == "house_number" else getattr(old.county, name)
                    ),
                    "new": _audit_text(values[name]),
                }
                for name in sorted(names)
            ]
            changes.append({"field": "import_id", "old": None, "new": str(import_id)})
            audit.append(_audit_row(at, user_id, "parcel", item.parcel_id, "update", changes))
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
        "changes": changes,
    }


def _flush_audit(conn: Connection, audit: list[dict[str, Any]], final: bool = False) -> None:
    """Append the audit rows gathered so far (in chunks: the list does not grow with the
    file)."""
    if audit and (final or len(audit) >= CHUNK):
        audit_chain.append(conn, audit)
        audit.clear()
