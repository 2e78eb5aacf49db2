"""`permitdesk housing occupancy`: unit JSON on standard input, limits as JSON; bad input exits 2
with one line naming the room and the field."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from permitdesk.cli import main

UNIT: dict[str, Any] = {
    "rooms": [
        {
            "name": "Bedroom 1",
            "use": "sleeping",
            "floor_area": "120",
            "ceiling": [{"height_ft": "8", "area": "120"}],
            "window_area": "12",
            "openable_area": "6",
            "mechanical_ventilation": False,
            "occupants_over_12": 1,
            "occupants_under_12": 0,
        },
        {"name": "Bedroom 2", "use": "sleeping", "floor_area": "75", "occupants_under_12": 1},
        {"name": "Living", "use": "living", "floor_area": "130"},
        {"name": "Bath", "use": "bathroom", "floor_area": "40", "mechanical_ventilation": True},
    ],
    "occupants_over_12": 3,
    "occupants_under_12": 1,
}


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    code: str,
    stdin: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(["housing", "occupancy", "--code", code])
    out, err = capsys.readouterr()
    return rc, out, err


def test_hudson_occupancy_prints_the_limits_as_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = run(monkeypatch, capsys, "hudson-140", json.dumps(UNIT))
    assert (rc, err) == (0, "")
    result = json.loads(out)
    # Habitable: 120 + 75 + 130 = 325 -> three occupants (150 + 100 + 75); four are stated.
    assert result["code"] == "hudson-140"
    assert result["habitable_area"] == "325"
    assert result["max_occupants"] == 3
    assert result["complies"] is False
    # Bedroom 2: one child alone needs 80 sq ft (140-7B); it has 75.
    assert result["problems"] == [
        {
            "section": "140-7A",
            "room": None,
            "text": "4 occupants need 400 sq ft of habitable floor area; the unit has 325 sq ft, "
            "enough for 3.",
        },
        {
            "section": "140-7B",
            "room": "Bedroom 2",
            "text": "1 occupant (1 under 12) sleeps in 75 sq ft; 140-7B requires 80 sq ft.",
        },
    ]
    bedroom = result["rooms"][0]
    assert bedroom == {
        "name": "Bedroom 1",
        "use": "sleeping",
        "habitable": True,
        "floor_area": "120",
        "counted_area": "120",
        "full_ceiling_ft": "7.5",
        "full_ceiling_area": "120",
        "min_full_ceiling_area": "60",
        "sleepers": 1,
        "required_sleeping_area": "80",
        "max_sleepers_over_12": 3,  # 120 // 40
        "max_sleepers_under_12": 4,  # 120 // 30
        "window_area": "12",
        "required_window_area": "12",  # 10 % of 120
        "openable_area": "6",
        "required_openable_area": "4.8",  # 4 % of 120
    }
    bath = result["rooms"][3]
    assert (bath["habitable"], bath["required_window_area"]) == (False, None)


def test_ch_512_occupancy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run(monkeypatch, capsys, "ch-512", json.dumps(UNIT))
    result = json.loads(out)
    # 325 sq ft: 150 + 100 = 250 for two, three need 350.
    assert (rc, result["code"], result["max_occupants"]) == (0, "ch-512", 2)
    assert [p["section"] for p in result["problems"]] == ["512-11B"]  # 75 >= 70 for one
    assert result["rooms"][0]["required_window_area"] == "9.6"  # 8 % of 120
    assert result["rooms"][0]["required_openable_area"] == "4.32"  # 45 % of 9.6


def test_a_unit_that_complies(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = {"rooms": [{"name": "Living", "use": "living", "floor_area": 150}]}
    rc, out, _ = run(monkeypatch, capsys, "hudson-140", json.dumps(unit))
    result = json.loads(out)
    assert (rc, result["complies"], result["problems"], result["max_occupants"]) == (
        0,
        True,
        [],
        1,
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("floor_area", "12x"), 'rooms[0] "Bedroom 1": floor_area: not a number: "12x"'),
        (("floor_area", "-5"), 'rooms[0] "Bedroom 1": floor_area: must not be negative: "-5"'),
        (("use", "attic"), 'rooms[0] "Bedroom 1": use: "attic" is not one of: sleeping'),
        (("window_area", 12.5), None),  # a JSON number is read exactly; fine
        (("openable_area", "13"), 'rooms[0] "Bedroom 1": openable_area: 13 is more than'),
        (("occupants_over_12", "1"), 'rooms[0] "Bedroom 1": occupants_over_12: not a whole'),
        (("mechanical_ventilation", "no"), 'rooms[0] "Bedroom 1": mechanical_ventilation:'),
        (("floor_are", "1"), 'rooms[0] "Bedroom 1": floor_are: unknown field'),
        (
            ("ceiling", [{"height_ft": "8", "area": "100"}]),
            'rooms[0] "Bedroom 1": ceiling: the areas add up to 100, not the floor_area 120',
        ),
        (
            ("ceiling", [{"height_ft": "x", "area": "120"}]),
            'rooms[0] "Bedroom 1": ceiling[0].height_ft: not a number: "x"',
        ),
    ],
)
def test_bad_input_exits_2_naming_the_room_and_field(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    change: tuple[str, Any],
    message: str | None,
) -> None:
    unit = json.loads(json.dumps(UNIT))
    unit["rooms"][0][change[0]] = change[1]
    rc, out, err = run(monkeypatch, capsys, "hudson-140", json.dumps(unit))
    if message is None:
        assert rc == 0
        return
    assert (rc, out) == (2, "")
    assert err.startswith(f"permitdesk: error: {message}")
    assert err.count("\n") == 1


def test_sleepers_in_a_bathroom_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = {
        "rooms": [{"name": "Bath", "use": "bathroom", "floor_area": "40", "occupants_over_12": 1}]
    }
    rc, _, err = run(monkeypatch, capsys, "ch-512", json.dumps(unit))
    assert rc == 2
    assert 'rooms[0] "Bath": occupants_over_12: a bathroom is not a habitable room' in err


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{", "unit: not valid JSON"),
        ("[]", "unit: must be a JSON object"),
        ('{"rooms": []}', "unit: rooms: must list the unit's rooms"),
        ('{"rooms": [{"use": "living", "floor_area": "1"}]}', "rooms[0]: name: missing"),
        ('{"rooms": [{"name": "A", "use": "living"}]}', 'rooms[0] "A": floor_area: missing'),
        (
            '{"rooms": [{"name": "A", "use": "living", "floor_area": "1"}], '
            '"occupants_under_12": -1}',
            "unit: occupants_under_12: must not be negative",
        ),
    ],
)
def test_malformed_units_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: str,
    message: str,
) -> None:
    rc, _, err = run(monkeypatch, capsys, "ch-512", stdin)
    assert rc == 2
    assert err.startswith(f"permitdesk: error: {message}")


def test_an_unknown_code_exits_2_naming_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, err = run(monkeypatch, capsys, "glendale", json.dumps(UNIT))
    assert (rc, out) == (2, "")
    assert err == (
        "permitdesk: error: --code 'glendale' is not a housing code (known: ch-512, hudson-140)\n"
    )


def test_code_is_required(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("{}"))
    assert main(["housing", "occupancy"]) == 2
    assert "--code" in capsys.readouterr().err
