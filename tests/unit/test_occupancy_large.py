"""`permitdesk housing occupancy` on a unit of 100,000 rooms (a script's mistake, or a whole
building sent as one unit): read and worked out in time linear in the rooms, and a repeated
room name still refused naming the room. (Its time: `python -m bench.run --only housing`.)"""

from __future__ import annotations

import io
import json
from decimal import Decimal
from typing import Any

import pytest

from desk.housing.jsonio import unit_from_json
from desk.housing.occupancy import occupancy
from permitdesk.cli import main

ROOMS = 100_000


def bedrooms(n: int) -> list[dict[str, Any]]:
    """n bedrooms of 120 sq ft with enough window, each slept in by one person over 12."""
    return [
        {
            "name": f"Bedroom {i + 1}",
            "use": "sleeping",
            "floor_area": "120",
            "window_area": "15",
            "openable_area": "8",
            "occupants_over_12": 1,
        }
        for i in range(n)
    ]


def test_a_unit_of_100000_rooms_is_worked_out() -> None:
    unit = unit_from_json(json.dumps({"rooms": bedrooms(ROOMS)}))
    result = occupancy("hudson-140", unit)
    assert len(result.rooms) == ROOMS
    assert result.habitable_area == Decimal(12_000_000)
    # 140-7A: 150 sq ft for the first, 100 for the second, 75 for each additional.
    assert result.max_occupants == 2 + (12_000_000 - 250) // 75 == 159_998
    assert result.occupants == ROOMS
    assert result.required_area == Decimal(250 + 75 * (ROOMS - 2))
    assert (result.complies, result.problems) == (True, ())


def test_a_repeated_room_name_among_100000_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rooms = bedrooms(ROOMS)
    rooms[-1]["name"] = "Bedroom  5"  # spaces are tidied: the same name as the fifth room
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"rooms": rooms})))
    assert main(["housing", "occupancy", "--code", "ch-512"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        'permitdesk: error: rooms[99999] "Bedroom 5": name: another room has it\n'
    )
