"""The holds of a damaged building (15.1.9(b), 15.1.3(d)(3)) and a delinquent sewer tax
(15.1.36): which kinds of permit they stop, and where the line is."""

from __future__ import annotations

from decimal import Decimal

import pytest

from desk.domain.issuance import damage_applies, damage_holds, sewer_tax_holds
from desk.domain.kinds import PermitKind, kind_by_code
from ui.presenters.permit_work import format_acres


def glendale(code: str) -> PermitKind:
    return kind_by_code("glendale", code)


@pytest.mark.parametrize(
    ("code", "held"),
    [
        ("MOVE", True),
        ("RES-ADDITION", True),
        ("RES-REMODEL", True),
        ("RES-OTHER", True),  # a repair: 15.1.9(b) "repaired, altered or moved"
        ("COM-REMODEL", True),
        ("COM-NEW", True),  # "new building or addition"
        ("RES-NEW-DWELLING", False),
        ("RAZE", False),  # a damaged building may well be razed
        ("PLUMBING", False),
        ("ELECTRICAL", False),
        ("HVAC", False),
    ],
)
def test_the_damage_rule_stops_repairs_alterations_additions_and_moves(
    code: str, held: bool
) -> None:
    assert damage_applies(glendale(code)) is held


def test_fifty_percent_of_equalized_value_is_the_line() -> None:
    move = glendale("MOVE")
    assert damage_holds(move, None) == []
    assert damage_holds(move, 49) == []
    assert damage_holds(move, 50) == [
        "The building was damaged 50% or more of its equalized value (50%) and may not be "
        "repaired, altered or moved (15.1.9(b), 15.1.3(d)(3))"
    ]


def test_a_delinquent_sewer_tax_holds_only_sewer_connections_without_permission() -> None:
    held = [
        "Sewer tax or assessment on parcel 047-9991-002 is delinquent; the Plumbing "
        "Inspector's special permission is not recorded (15.1.36)"
    ]
    for code in ("PLUMBING", "SEWER-WATER"):
        assert sewer_tax_holds(glendale(code), "047-9991-002", True, "") == held
        assert sewer_tax_holds(glendale(code), "047-9991-002", True, "Granted 3/1") == []
        assert sewer_tax_holds(glendale(code), "047-9991-002", False, "") == []
    for code in ("GREASE-INTERCEPTOR", "ELECTRICAL", "RES-NEW-DWELLING"):
        assert sewer_tax_holds(glendale(code), "047-9991-002", True, "") == []


def test_acreage_reads_as_a_clerk_writes_it() -> None:
    assert format_acres(Decimal("1.250")) == "1.25 acres"
    assert format_acres(Decimal("1.000")) == "1 acre"
    assert format_acres(Decimal("0.500")) == "0.5 acres"
    assert format_acres(Decimal("1234.567")) == "1,234.567 acres"
