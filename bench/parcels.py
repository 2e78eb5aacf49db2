"""`make bench` rows for the county's parcel file: a 50,000-parcel file in the Wisconsin V10
layout (a file geodatabase, as counties publish them; 45,000 of the municipality's and 5,000 of
a neighbouring town), its first import into an empty register and a re-import of a copy with
500 owners changed, on SQLite and on PostgreSQL, each beside the floor of inserting the same
parcel rows with executemany in one transaction. Target: the import at most 3x its floor, and
the process's peak memory at most 500 MB.

The imports run in a fresh process per backend (the peak memory is theirs): `python -m
bench.parcels --import URL FILE CHANGED` prints one JSON line; the floor runs in another
(`--floor URL FILE`) on an empty register of its own. The files are built once into bench/.cache
(rebuilt when tests/parcel_files.py, which writes them, changes).
"""

from __future__ import annotations

import hashlib
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(__file__).resolve().parent / ".cache"
PARCELS, CHANGES, OTHER_PLACE_EVERY = 50_000, 500, 10
PLACE = "CITY OF WESTBY"
TARGET_RATIO, TARGET_MB = 3.0, 500
DATABASE, FLOOR_DATABASE = "permitdesk_bench_parcels", "permitdesk_bench_parcels_floor"
STREETS = (
    ("ULLAND", "AVENUE"),
    ("PRAIRIE", "STREET"),
    ("MAIN", "STREET"),
    ("STATE", "STREET"),
    ("WILLOW", "LANE"),
    ("HIGHLAND", "STREET"),
    ("ELM", "STREET"),
    ("BERGUM", "BOULEVARD"),
)


def _rows(changed: bool) -> list[dict[str, str]]:
    from tests.parcel_files import v10_row

    rows, changes = [], 0
    for n in range(1, PARCELS + 1):
        street, kind = STREETS[n % len(STREETS)]
        place = "TOWN OF CHRISTIANA" if n % OTHER_PLACE_EVERY == 0 else PLACE
        owner = f"OWNER {n} & SPOUSE {n}"
        if changed and place == PLACE and changes < CHANGES:  # sold: a new owner of record
            owner, changes = f"NEW OWNER {n} LLC", changes + 1
        rows.append(v10_row(n, street=street, street_type=kind, place=place, owner=owner))
    return rows


def files() -> tuple[Path, Path, str]:
    """(the file, its copy with 500 changes, how they were had): built or from the cache."""
    digest = hashlib.sha256((ROOT / "tests" / "parcel_files.py").read_bytes())
    digest.update(Path(__file__).read_bytes())
    stamp = CACHE / "parcels50k.json"
    first, second = CACHE / "parcels50k.gdb", CACHE / "parcels50k-changed.gdb"
    wanted = digest.hexdigest()[:16]
    if stamp.exists() and json.loads(stamp.read_text()) == wanted and second.exists():
        return first, second, "cached"
    from tests.parcel_files import write_gis

    CACHE.mkdir(exist_ok=True)
    for path, changed in ((first, False), (second, True)):
        shutil.rmtree(path, ignore_errors=True)
        write_gis(path, _rows(changed), "OpenFileGDB", layer="PARCELS")
    stamp.write_text(json.dumps(wanted))
    return first, second, "built now"


def _timed(fn: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - started


def _register(url: str) -> tuple[Any, Any, int]:
    """(the database, its administrator, Hudson's id): an empty register as a new office's."""
    from db.database import open_database
    from desk.clock import FixedClock
    from desk.services import setup, users

    clock = FixedClock(date(2026, 3, 2))
    database = open_database(url)
    uow = database.uow()
    admin = users.create_first_administrator(uow, clock, "admin", "Bench Admin", "b3nch-pass!")
    return database, admin, setup.ensure_municipality(uow, clock, admin, "hudson")


def _read(path: Path) -> tuple[Any, Any, str]:
    from desk.imports.files import SourceFile
    from desk.imports.mapping import suggest
    from desk.services.parcels import imports

    source = SourceFile(path)
    layer = source.layer(None)
    choice = imports.ImportChoice(layer.name, suggest(layer.columns), PLACE)
    return imports.read_parcel_file(source, choice), choice, source.sha256()


def child_floor(url: str, first: Path) -> dict[str, Any]:
    """The floor, in its own process and register: the parcel rows the import writes, inserted
    with executemany in one transaction (best of two)."""
    from sqlalchemy import delete, insert

    from db import schema
    from db.parcel_import import _values

    database, _admin, mid = _register(url)
    try:
        parsed, _choice, _sha = _read(first)
        rows = [
            {**_values(p), "municipality_id": mid, "legal_description": "", "zoning_district": ""}
            for _line, p in parsed.parcels
        ]

        def insert_all() -> None:
            with database.engine.begin() as conn:  # committed, as the import commits
                conn.execute(insert(schema.parcel), rows)

        floors = []
        for _ in range(2):
            _none, seconds = _timed(insert_all)
            floors.append(seconds)
            with database.engine.begin() as conn:
                conn.execute(delete(schema.parcel))
        return {"floor_s": min(floors)}
    finally:
        database.close()


def child_import(url: str, first: Path, second: Path) -> dict[str, Any]:
    """The first import and the re-import, as the office runs them; the process's peak memory
    is theirs alone."""
    from desk.clock import FixedClock
    from desk.services.parcels import imports

    clock = FixedClock(date(2026, 3, 2))
    database, admin, mid = _register(url)
    out: dict[str, Any] = {}
    try:

        def apply(parsed: Any, choice: Any, sha: str) -> Any:
            return imports.import_parcels(
                database.uow(),
                clock,
                admin,
                mid,
                parsed,
                file_name="parcels.gdb",
                file_sha256=sha,
                choice=choice,
            )

        (parsed, choice, sha), out["read_s"] = _timed(lambda: _read(first))
        done, out["import_s"] = _timed(lambda: apply(parsed, choice, sha))
        out["first"] = done.plan.summary()
        del parsed, done
        (parsed, choice, sha), out["reread_s"] = _timed(lambda: _read(second))
        done, out["reimport_s"] = _timed(lambda: apply(parsed, choice, sha))
        out["second"] = done.plan.summary()
        out["changed"] = len(done.plan.changed)
    finally:
        database.close()
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _run_child(*args: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "bench.parcels", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(tail)
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def measure() -> list[tuple[str, float | None, float | None, str, bool | None, str]]:
    """(metric, value s, floor s, target, passed, note) rows for bench/run.py's table."""
    from bench import counter
    from db.engine import sqlite_url

    out: list[tuple[str, float | None, float | None, str, bool | None, str]] = []
    first, second, how = files()
    backends: list[tuple[str, str | None, str]] = []
    folder = Path(tempfile.mkdtemp(prefix="permitdesk-parcels-"))
    backends.append(("SQLite", sqlite_url(folder / "register.db"), ""))
    server = counter.server_url()
    why = counter.reachable(server)
    if why is None:
        backends.append(("PostgreSQL", counter.create_database(server, DATABASE), ""))
    else:
        backends.append(("PostgreSQL", None, f"not measured: PostgreSQL unreachable ({why})"))
    target = f"≤ {TARGET_RATIO:g}× floor"
    try:
        for name, url, skipped in backends:
            if url is None:
                out.append((f"parcels: import 50,000, {name}", None, None, target, None, skipped))
                continue
            try:
                r = _run_child("--import", url, str(first), str(second))
                r.update(_run_child("--floor", _fresh(url, name, folder), str(first)))
            except Exception as e:  # a measurement, not a test: say what failed
                out.append(
                    (f"parcels: import 50,000, {name}", None, None, target, None, f"error: {e}")
                )
                continue
            floor = r["floor_s"]
            out.append(
                (
                    f"parcels: read the 50,000-row file ({name} run)",
                    r["read_s"],
                    None,
                    "",
                    None,
                    f"file {how}; reading and checking every row, before the dry run is shown",
                )
            )
            out.append(
                (
                    f"parcels: first import, {name}",
                    r["import_s"],
                    floor,
                    target,
                    r["import_s"] <= TARGET_RATIO * floor,
                    f"{r['first']}; floor: the same rows inserted with executemany",
                )
            )
            out.append(
                (
                    f"parcels: re-import, 500 changed, {name}",
                    r["reimport_s"],
                    floor,
                    target,
                    r["reimport_s"] <= TARGET_RATIO * floor and r["changed"] == CHANGES,
                    f"{r['second']}",
                )
            )
            out.append(
                (
                    f"parcels: peak memory, {name} ({r['peak_mb']:.0f} MB)",
                    None,
                    None,
                    f"≤ {TARGET_MB} MB",
                    r["peak_mb"] <= TARGET_MB,
                    "",
                )
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if why is None:
            counter.drop_database(server, DATABASE)
            counter.drop_database(server, FLOOR_DATABASE)
    return out


def _fresh(url: str, name: str, folder: Path) -> str:
    """Another empty register on the same backend, for the floor."""
    from bench import counter
    from db.engine import sqlite_url

    if name == "SQLite":
        return sqlite_url(folder / "floor.db")
    return counter.create_database(counter.server_url(), FLOOR_DATABASE)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if len(sys.argv) == 5 and sys.argv[1] == "--import":
        print(json.dumps(child_import(sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))))
    elif len(sys.argv) == 4 and sys.argv[1] == "--floor":
        print(json.dumps(child_floor(sys.argv[2], Path(sys.argv[3]))))
    else:
        for row in measure():
            print(row)
