"""`make bench` row for `permitdesk housing occupancy` on a unit of 100,000 rooms (the input is
checked room by room, repeated names included, in time linear in the rooms): the command as a
clerk's script runs it, a fresh process reading the JSON on standard input, beside the floor of
a bare Python reading the same JSON and writing it back indented. Target: at most 5 s.
`python -m bench.run --only housing`."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOMS = 100_000
TARGET_S = 5.0
FLOOR = "import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=2)"


def unit_json(rooms: int = ROOMS) -> str:
    """A unit of `rooms` bedrooms of 120 sq ft, each slept in by one person over 12."""
    return json.dumps(
        {
            "rooms": [
                {
                    "name": f"Bedroom {i + 1}",
                    "use": "sleeping",
                    "floor_area": "120",
                    "window_area": "15",
                    "openable_area": "8",
                    "occupants_over_12": 1,
                }
                for i in range(rooms)
            ]
        }
    )


def _timed(argv: list[str], stdin: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a fresh process: on a busy machine the CPU time is the
    steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with stdin.open("rb") as f:
        start = time.perf_counter()
        done = subprocess.run(
            argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, timeout=600
        )
        seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        tail = (done.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(tail)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def measure() -> list[tuple[str, float | None, float | None, str, bool | None, str]]:
    """(metric, value s, floor s, target, passed, note) rows for bench/run.py's table."""
    metric = f"housing occupancy: a unit of {ROOMS:,} rooms"
    target = f"≤ {TARGET_S:g} s"
    with tempfile.TemporaryDirectory(prefix="permitdesk-housing-") as tmp:
        unit = Path(tmp) / "unit.json"
        unit.write_text(unit_json(), "utf-8")
        try:
            command = ["housing", "occupancy", "--code", "hudson-140"]
            value, cpu = _timed([sys.executable, "-m", "permitdesk", *command], unit)
            floor, floor_cpu = _timed([sys.executable, "-c", FLOOR], unit)
        except Exception as e:  # a measurement, not a test: say what failed
            return [(metric, None, None, target, None, f"error: {e}")]
    note = (
        f"a fresh process, JSON on stdin ({cpu:.1f} s of CPU); floor: the same JSON read and "
        f"written back by Python ({floor_cpu:.1f} s of CPU)"
    )
    return [(metric, value, floor, target, value <= TARGET_S, note)]
