"""Permit kinds, read from resources/permit_kinds.toml (data, because municipalities differ)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from desk.domain.enums import PermitClass, WorkClass
from desk.domain.lifecycle import Rule
from desk.errors import ValidationError

TRADES = ("building", "electrical", "plumbing", "hvac", "erosion", "other")


@dataclass(frozen=True)
class PermitKind:
    code: str
    label: str
    permit_class: PermitClass
    work_class: WorkClass
    trade: str
    section: str
    lifecycle: Rule = Rule.NONE


@cache
def kinds_for(municipality_key: str) -> tuple[PermitKind, ...]:
    text = resources.files("resources").joinpath("permit_kinds.toml").read_text("utf-8")
    data = tomllib.loads(text)
    if municipality_key not in data:
        return ()
    out = []
    for i, row in enumerate(data[municipality_key]["kinds"]):
        where = f"permit_kinds.toml [{municipality_key}] kind #{i + 1}"
        try:
            kind = PermitKind(
                code=row["code"],
                label=row["label"],
                permit_class=PermitClass(row["class"]),
                work_class=WorkClass(row["work"]),
                trade=row["trade"],
                section=row["section"],
                lifecycle=Rule(row.get("lifecycle", "none")),
            )
        except (KeyError, ValueError) as e:
            raise ValueError(f"{where}: {e}") from None
        if kind.trade not in TRADES:
            raise ValueError(f"{where}: trade '{kind.trade}' is not one of {', '.join(TRADES)}")
        out.append(kind)
    return tuple(out)


def kind_by_code(municipality_key: str, code: str) -> PermitKind:
    for k in kinds_for(municipality_key):
        if k.code == code:
            return k
    raise ValidationError("kind", f"'{code}' is not a permit kind of {municipality_key}")


def kind_label(municipality_key: str, code: str) -> str:
    try:
        return kind_by_code(municipality_key, code).label
    except ValidationError:
        return code
