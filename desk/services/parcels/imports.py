"""Importing the county's parcel file: read it under a mapping (the V10 preset or the office's
own), show the dry run, then apply it in one transaction. A cancelled or failed import leaves
the register as it was.

The dry run shown and the import applied are computed the same way (desk.imports.parcels.
plan_import); the import computes it again inside its transaction, after taking the
municipality's import lock, so a parcel another workstation changed meanwhile is compared as
it is now. What it did is returned and recorded (data_import, with the file's SHA-256).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from desk.clock import Clock
from desk.domain.model import Actor, DataImport
from desk.domain.permissions import Permission, require
from desk.errors import NotFound, ValidationError
from desk.imports.files import SourceFile
from desk.imports.mapping import ColumnMapping, check_mapping, mapping_from_dict
from desk.imports.parcels import ImportPlan, ParsedFile, RegisterParcel, parse_rows, plan_import
from desk.services.uow import UnitOfWork

MAPPING_SETTING = "parcel_mapping"  # municipality.settings: the mapping last used, its layer
PLACE_SETTING = "placename"  # municipality.settings: how the county's file names it

Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class ImportChoice:
    """What the office chose on the import screen: the layer, the mapping, and the place whose
    rows are read (None: every row of the file)."""

    layer: str
    mapping: ColumnMapping
    place: str | None


@dataclass(frozen=True)
class Imported:
    import_id: int
    plan: ImportPlan  # what was applied


@dataclass(frozen=True)
class ImportSettings:
    """The municipality's import settings: the mapping last used and its place name."""

    mapping: ColumnMapping | None
    layer: str
    place: str


def import_settings(uow: UnitOfWork, municipality_id: int) -> ImportSettings:
    with uow:
        muni = uow.municipalities.get(municipality_id)
        if muni is None:
            raise NotFound(f"municipality #{municipality_id} does not exist")
        settings = muni.settings or {}
        raw = settings.get(MAPPING_SETTING)
        layer = str(raw.get("layer", "")) if isinstance(raw, dict) else ""
        return ImportSettings(
            mapping_from_dict(raw), layer, str(settings.get(PLACE_SETTING, "") or "")
        )


def read_parcel_file(
    source: SourceFile,
    choice: ImportChoice,
    *,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ParsedFile:
    """The layer's rows as parcels under the mapping (ValidationError naming the layer and the
    field when the mapping does not fit the file)."""
    layer = source.layer(choice.layer)
    check_mapping(choice.mapping, layer.columns, f"{source.name}, layer {layer.name}")
    # The shapes' points stand in where the file's LATITUDE and LONGITUDE are blank.
    rows = source.rows(
        layer.name,
        columns=choice.mapping.used_columns(),
        points=True,
        progress=progress,
        cancelled=cancelled,
    )
    return parse_rows(rows, choice.mapping, choice.place)


def _register(uow: UnitOfWork, municipality_id: int) -> list[RegisterParcel]:
    if uow.municipalities.get(municipality_id) is None:
        raise NotFound(f"municipality #{municipality_id} does not exist")
    return uow.imports.register_parcels(municipality_id)


def _plan(parsed: ParsedFile, register: list[RegisterParcel]) -> ImportPlan:
    by_pin = {p.pin: p for p in register}
    by_state = {p.county.state_id: p for p in register if p.county.state_id}
    return plan_import(parsed, by_pin, by_state)


def dry_run(uow: UnitOfWork, actor: Actor, municipality_id: int, parsed: ParsedFile) -> ImportPlan:
    """What importing `parsed` would do now (nothing is written)."""
    require(actor, Permission.IMPORT_DATA)
    with uow:
        return _plan(parsed, _register(uow, municipality_id))


def import_parcels(
    uow: UnitOfWork,
    clock: Clock,
    actor: Actor,
    municipality_id: int,
    parsed: ParsedFile,
    *,
    file_name: str,
    file_sha256: str,
    choice: ImportChoice,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Imported:
    """Apply the import in one transaction; the mapping and place are kept with the
    municipality for the next import of the county's file."""
    require(actor, Permission.IMPORT_DATA)
    if not parsed.parcels and not parsed.rejected:
        raise ValidationError("file", f"{file_name} has no rows of parcels to import")
    with uow:
        uow.act_as(actor, clock.now())
        # One import of a municipality at a time: the second waits and compares with the first's.
        uow.serialise(f"parcel import {municipality_id}")
        muni = uow.municipalities.get(municipality_id)
        if muni is None:
            raise NotFound(f"municipality #{municipality_id} does not exist")
        register = uow.imports.register_parcels(municipality_id)
        plan = _plan(parsed, register)
        record = DataImport(
            municipality_id=municipality_id,
            kind="parcels",
            file_name=file_name,
            file_sha256=file_sha256,
            layer=choice.layer,
        )
        import_id = uow.imports.apply_parcels(
            municipality_id,
            plan,
            {p.id: p for p in register},
            record,
            progress,
            cancelled,
        )
        settings: dict[str, Any] = dict(muni.settings or {})
        saved = {**choice.mapping.to_dict(), "layer": choice.layer}
        if settings.get(MAPPING_SETTING) != saved:
            settings[MAPPING_SETTING] = saved
        if choice.place and not settings.get(PLACE_SETTING):
            settings[PLACE_SETTING] = choice.place
        if settings != muni.settings:
            muni.settings = settings
        uow.commit()
        return Imported(import_id, plan)
