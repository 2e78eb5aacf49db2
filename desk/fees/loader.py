"""Reading and checking schedules: the shipped TOML files and the JSON stored per version.

Every error names the file, the version, the item and the field, so whoever edits a schedule
knows exactly what to fix.
"""

from __future__ import annotations

import itertools
import tomllib
from datetime import date
from decimal import Decimal, InvalidOperation
from importlib import resources
from typing import Any

from desk.dates import short_date
from desk.fees.model import FeeGroup, FeeItem, FeeSchedule, ItemKind, ScheduleVersion


class ScheduleError(ValueError):
    """A schedule that cannot be used; the message says where and why."""


_ITEM_FIELDS = {
    "code", "description", "section", "kind", "rate", "first_rate", "rates", "minimum", "admin",
    "admin_rate", "doubles", "gl_account", "group", "council_value", "surcharge",
    "emergency_waivable", "late_code",
}  # fmt: skip
_VERSION_FIELDS = {
    "label", "effective_from", "effective_to", "admin_rate", "round_up_to_dollar", "items",
    "groups", "notes",
}  # fmt: skip
_NEEDS_RATE = {
    ItemKind.PER_SQFT,
    ItemKind.PER_THOUSAND,
    ItemKind.PER_DWELLING_UNIT,
    ItemKind.PER_EACH,
    ItemKind.PER_HOUR,
    ItemKind.PER_ACRE,
    ItemKind.FLAT,
    ItemKind.DEPOSIT,
}


def _money(where: str, name: str, value: Any, *, allow_none: bool = True) -> Decimal | None:
    if value is None:
        if allow_none:
            return None
        raise ScheduleError(f"{where}: field '{name}' is missing")
    if isinstance(value, bool | float):
        raise ScheduleError(
            f"{where}: field '{name}' must be written as a string such as \"0.12\" "
            "(a decimal number in TOML is not exact)"
        )
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise ScheduleError(f"{where}: field '{name}' is not a number: {value!r}") from None
    if not d.is_finite():
        raise ScheduleError(f"{where}: field '{name}' is not a number: {value!r}")
    if d < 0:
        raise ScheduleError(f"{where}: field '{name}' must not be negative ({value})")
    return d


def _date(where: str, name: str, value: Any) -> date | None:
    if value is None:
        return None
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise ScheduleError(f"{where}: field '{name}' is not a date YYYY-MM-DD: {value!r}")


def _text(where: str, name: str, value: Any, *, required: bool = True) -> str:
    if value is None or value == "":
        if required:
            raise ScheduleError(f"{where}: field '{name}' is missing")
        return ""
    if not isinstance(value, str):
        raise ScheduleError(f"{where}: field '{name}' must be text")
    return value


def _bool(where: str, name: str, value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ScheduleError(f"{where}: field '{name}' must be true or false")
    return value


def item_from_dict(where: str, raw: dict[str, Any]) -> FeeItem:
    code = raw.get("code")
    where = f"{where}, item {code}" if code else f"{where}, an item"
    unknown = set(raw) - _ITEM_FIELDS
    if unknown:
        raise ScheduleError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    code = _text(where, "code", code)
    try:
        kind = ItemKind(_text(where, "kind", raw.get("kind")))
    except ValueError:
        known = ", ".join(k.value for k in ItemKind)
        raise ScheduleError(
            f"{where}: field 'kind' is '{raw.get('kind')}', not one of: {known}"
        ) from None
    rate = _money(where, "rate", raw.get("rate"))
    if kind in _NEEDS_RATE and rate is None:
        raise ScheduleError(f"{where}: field 'rate' is missing (a {kind.label} item needs one)")
    first_rate = _money(where, "first_rate", raw.get("first_rate"))
    if kind is ItemKind.PER_ACRE and first_rate is None:
        raise ScheduleError(f"{where}: field 'first_rate' is missing (the first acre's rate)")
    rates_raw = raw.get("rates") or []
    if not isinstance(rates_raw, list):
        raise ScheduleError(f"{where}: field 'rates' must be a list")
    rates = tuple(_money(where, "rates", r, allow_none=False) or Decimal(0) for r in rates_raw)
    if kind is ItemKind.ESCALATING and not rates:
        raise ScheduleError(f"{where}: field 'rates' is missing (first, second, ... occurrence)")
    surcharge = raw.get("surcharge")
    if surcharge not in (None, "pavement_age"):
        raise ScheduleError(f"{where}: field 'surcharge' must be \"pavement_age\" if given")
    admin_rate = _money(where, "admin_rate", raw.get("admin_rate"))
    if admin_rate is not None and admin_rate > 1:
        raise ScheduleError(f"{where}: field 'admin_rate' is a fraction (0.20 for 20 %)")
    return FeeItem(
        code=code,
        description=_text(where, "description", raw.get("description")),
        section=_text(where, "section", raw.get("section")),
        kind=kind,
        rate=rate,
        first_rate=first_rate,
        rates=rates,
        minimum=_money(where, "minimum", raw.get("minimum")),
        admin=_bool(where, "admin", raw.get("admin")),
        admin_rate=admin_rate,
        doubles=_bool(where, "doubles", raw.get("doubles")),
        gl_account=_text(where, "gl_account", raw.get("gl_account"), required=False),
        group=raw.get("group") or None,
        council_value=_money(where, "council_value", raw.get("council_value")),
        surcharge=surcharge,
        emergency_waivable=_bool(where, "emergency_waivable", raw.get("emergency_waivable")),
        late_code=raw.get("late_code") or None,
    )


def version_from_dict(where: str, municipality: str, raw: dict[str, Any]) -> ScheduleVersion:
    label = raw.get("label")
    where = f"{where}, version {label}" if label else f"{where}, a version"
    unknown = set(raw) - _VERSION_FIELDS
    if unknown:
        raise ScheduleError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    effective_from = _date(where, "effective_from", raw.get("effective_from"))
    if effective_from is None:
        raise ScheduleError(f"{where}: field 'effective_from' is missing")
    effective_to = _date(where, "effective_to", raw.get("effective_to"))
    if effective_to is not None and effective_to < effective_from:
        raise ScheduleError(f"{where}: 'effective_to' is before 'effective_from'")
    admin_rate = _money(where, "admin_rate", raw.get("admin_rate")) or Decimal(0)
    if admin_rate > 1:
        raise ScheduleError(f"{where}: field 'admin_rate' is a fraction (0.40 for 40 %)")
    groups = []
    for g in raw.get("groups") or []:
        gw = f"{where}, group {g.get('code')}"
        minimum = _money(gw, "minimum", g.get("minimum"), allow_none=False)
        assert minimum is not None
        groups.append(
            FeeGroup(
                code=_text(gw, "code", g.get("code")),
                minimum=minimum,
                description=_text(gw, "description", g.get("description")),
                section=_text(gw, "section", g.get("section")),
            )
        )
    items_raw = raw.get("items") or []
    if not items_raw:
        raise ScheduleError(f"{where}: it has no items")
    items = [item_from_dict(where, i) for i in items_raw]
    seen: set[str] = set()
    group_codes = {g.code for g in groups}
    codes = {i.code for i in items}
    for it in items:
        if it.code in seen:
            raise ScheduleError(f"{where}: item code {it.code} appears twice")
        seen.add(it.code)
        if it.group is not None and it.group not in group_codes:
            raise ScheduleError(f"{where}, item {it.code}: group '{it.group}' is not defined")
        if it.late_code is not None and it.late_code not in codes:
            raise ScheduleError(f"{where}, item {it.code}: late_code '{it.late_code}' is no item")
    return ScheduleVersion(
        municipality=municipality,
        label=_text(where, "label", label),
        effective_from=effective_from,
        effective_to=effective_to,
        admin_rate=admin_rate,
        round_up_to_dollar=_bool(where, "round_up_to_dollar", raw.get("round_up_to_dollar")),
        items=tuple(items),
        groups=tuple(groups),
        notes=raw.get("notes") or "",
    )


def check_versions(where: str, versions: list[ScheduleVersion]) -> None:
    """Versions may not overlap: one date has exactly one version in effect."""
    labels: set[str] = set()
    ordered = sorted(versions, key=lambda v: v.effective_from)
    for v in ordered:
        if v.label in labels:
            raise ScheduleError(f"{where}: version label '{v.label}' appears twice")
        labels.add(v.label)
    for a, b in itertools.pairwise(ordered):
        if a.effective_from == b.effective_from or (
            a.effective_to is not None and a.effective_to >= b.effective_from
        ):
            raise ScheduleError(
                f"{where}: versions {a.label} and {b.label} overlap "
                f"(both in effect on {short_date(b.effective_from)})"
            )


def schedule_from_toml(name: str, text: str) -> FeeSchedule:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScheduleError(f"{name}: not valid TOML: {e}") from None
    municipality = data.get("municipality")
    if not isinstance(municipality, str) or not municipality:
        raise ScheduleError(f"{name}: field 'municipality' is missing")
    raw_versions = data.get("versions") or []
    if not raw_versions:
        raise ScheduleError(f"{name}: it has no [[versions]]")
    versions = [version_from_dict(name, municipality, v) for v in raw_versions]
    check_versions(name, versions)
    return FeeSchedule(municipality=municipality, versions=tuple(versions))


def shipped_schedule(municipality: str) -> FeeSchedule:
    """The schedule file shipped in resources/fee_schedules/<municipality>.toml."""
    name = f"{municipality}.toml"
    folder = resources.files("resources").joinpath("fee_schedules")
    path = folder.joinpath(name)
    if not path.is_file():
        shipped = sorted(
            p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
        )
        raise ScheduleError(
            f"no fee schedule is shipped for '{municipality}' (shipped: {', '.join(shipped)})"
        )
    schedule = schedule_from_toml(name, path.read_text("utf-8"))
    if schedule.municipality != municipality:
        raise ScheduleError(f"{name}: says municipality '{schedule.municipality}'")
    return schedule


def _money_str(d: Decimal | None) -> str | None:
    return None if d is None else str(d)


def item_to_dict(it: FeeItem) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": it.code,
        "description": it.description,
        "section": it.section,
        "kind": it.kind.value,
        "rate": _money_str(it.rate),
        "first_rate": _money_str(it.first_rate),
        "rates": [str(r) for r in it.rates],
        "minimum": _money_str(it.minimum),
        "admin": it.admin,
        "admin_rate": _money_str(it.admin_rate),
        "doubles": it.doubles,
        "gl_account": it.gl_account,
        "group": it.group,
        "council_value": _money_str(it.council_value),
        "surcharge": it.surcharge,
        "emergency_waivable": it.emergency_waivable,
        "late_code": it.late_code,
    }
    return {k: v for k, v in out.items() if v not in (None, [], False, "")} | {
        "code": it.code,
        "kind": it.kind.value,
    }


def version_to_dict(v: ScheduleVersion) -> dict[str, Any]:
    """JSON-ready; version_from_dict reads it back (the database stores versions this way)."""
    return {
        "label": v.label,
        "effective_from": v.effective_from.isoformat(),
        "effective_to": v.effective_to.isoformat() if v.effective_to else None,
        "admin_rate": str(v.admin_rate),
        "round_up_to_dollar": v.round_up_to_dollar,
        "notes": v.notes,
        "groups": [
            {
                "code": g.code,
                "minimum": str(g.minimum),
                "description": g.description,
                "section": g.section,
            }
            for g in v.groups
        ],
        "items": [item_to_dict(i) for i in v.items],
    }
