"""Schedule files: both shipped schedules load; wrong ones are refused naming file, item, field."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desk.fees.loader import (
    ScheduleError,
    schedule_from_toml,
    shipped_schedule,
    version_from_dict,
    version_to_dict,
)
from desk.fees.model import ItemKind

GLENDALE_CODES = [
    "RES-NEW",
    "RES-STATE-SEAL",
    "RES-REMODEL",
    "RES-EARLY-START",
    "RES-ACCESSORY",
    "RES-POOL",
    "RES-OTHER",
    "RES-RAZE",
    "RES-EROSION-NEW",
    "RES-EROSION-OTHER",
    "RES-OCCUPANCY",
    "RES-TEMP-OCCUPANCY",
    "ADDR-BRACKET",
    "ADDR-TILE",
    "REINSPECTION",
    "FAIL-TO-CALL",
    "COM-NEW-MULTIFAMILY",
    "COM-NEW-MERCANTILE",
    "COM-NEW-INSTITUTIONAL",
    "COM-NEW-INDUSTRIAL",
    "COM-NEW-VEHICLE",
    "COM-NEW-WAREHOUSE",
    "COM-NEW-SPECIAL",
    "COM-EROSION",
    "COM-EARLY-START",
    "COM-REMODEL",
    "COM-PLAN-REVIEW",
    "COM-OCCUPANCY",
    "COM-OTHER",
    "COM-RAZE",
    "AG-NEW",
    "AG-REMODEL",
    "PLUMBING",
    "ELECTRICAL",
    "HVAC",
    "MOVE-BUILDING",
    "OTHER-GOV",
    "GREASE-INTERCEPTOR",
    "SEWER-ASSESSMENT",
    "DEPOSIT-STREET",
]


def test_glendale_ships_exactly_the_codes_of_15_1_21() -> None:
    v = shipped_schedule("glendale").version_on(date(2026, 1, 1))
    assert v is not None
    assert [i.code for i in v.items] == GLENDALE_CODES
    assert v.admin_rate == Decimal("0.40") and v.round_up_to_dollar
    seal = v.item("RES-STATE-SEAL")
    assert seal is not None and not seal.admin and not seal.doubles
    reinspection = v.item("REINSPECTION")
    assert reinspection is not None and reinspection.admin and not reinspection.doubles
    assert v.item("DEPOSIT-STREET").kind is ItemKind.DEPOSIT  # type: ignore[union-attr]
    assert all(i.gl_account for i in v.items)


def test_new_lisbon_ships_its_council_set_fees_unset() -> None:
    v = shipped_schedule("new_lisbon").version_on(date(2026, 1, 1))
    assert v is not None
    council = [i.code for i in v.items if i.kind is ItemKind.COUNCIL_SET]
    assert council == [
        "STREET-OPENING",
        "STREET-OPENING-LATE",
        "SIDEWALK",
        "CURB-GUTTER",
        "STREET-PRIVILEGE",
    ]
    assert all(v.item(c).council_value is None for c in council)  # type: ignore[union-attr]
    assert v.admin_rate == 0 and not v.round_up_to_dollar


def test_a_version_survives_the_round_trip_through_the_database_format() -> None:
    v = shipped_schedule("glendale").versions[0]
    assert version_from_dict("db", "glendale", version_to_dict(v)) == v


BASE = """
municipality = "glendale"
[[versions]]
label = "A"
effective_from = 2020-01-01
admin_rate = "0.40"
[[versions.items]]
code = "X"
description = "x"
section = "1"
kind = "per_sqft"
rate = "0.12"
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('rate = "0.12"', ""), "t.toml, version A, item X: field 'rate' is missing"),
        (
            ('rate = "0.12"', 'rate = "0.12"\nminimum = "-5"'),
            "item X: field 'minimum' must not be negative",
        ),
        (
            ('kind = "per_sqft"', 'kind = "per_furlong"'),
            "item X: field 'kind' is 'per_furlong', not one of",
        ),
        (('rate = "0.12"', "rate = 0.12"), "item X: field 'rate' must be written as a string"),
        (('rate = "0.12"', 'rate = "0.12"\ncolour = "red"'), "item X: unknown field(s) colour"),
        (("effective_from = 2020-01-01", ""), "version A: field 'effective_from' is missing"),
        (('municipality = "glendale"', ""), "t.toml: field 'municipality' is missing"),
    ],
)
def test_a_wrong_schedule_file_is_refused_with_a_clear_error(
    change: tuple[str, str], message: str
) -> None:
    text = BASE.replace(*change)
    with pytest.raises(ScheduleError) as err:
        schedule_from_toml("t.toml", text)
    assert message in str(err.value)


def test_duplicate_codes_and_overlapping_versions_are_refused() -> None:
    dup = BASE + BASE.split("[[versions.items]]")[1].join(["[[versions.items]]", ""])
    with pytest.raises(ScheduleError, match="item code X appears twice"):
        schedule_from_toml("t.toml", dup)
    second = BASE.split('municipality = "glendale"')[1].replace('label = "A"', 'label = "B"')
    with pytest.raises(ScheduleError, match="versions A and B overlap"):
        schedule_from_toml("t.toml", BASE + second)
    ended = BASE.replace(
        "effective_from = 2020-01-01", "effective_from = 2020-01-01\neffective_to = 2021-06-30"
    )
    later = second.replace("2020-01-01", "2021-01-01")
    with pytest.raises(ScheduleError, match=r"overlap .*01/01/2021"):
        schedule_from_toml("t.toml", ended + later)
    ok = schedule_from_toml("t.toml", BASE + second.replace("2020-01-01", "2022-01-01"))
    assert ok.version_on(date(2021, 12, 31)).label == "A"  # type: ignore[union-attr]
    assert ok.version_on(date(2022, 1, 1)).label == "B"  # type: ignore[union-attr]
    assert ok.version_on(date(2019, 12, 31)) is None


def test_malformed_toml_names_the_file() -> None:
    with pytest.raises(ScheduleError, match=r"t\.toml: not valid TOML"):
        schedule_from_toml("t.toml", "municipality = ")
