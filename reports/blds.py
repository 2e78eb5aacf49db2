"""The BLDS open-data export (Building & Land Development Specification 1.2): permits.csv (the
core permits dataset, with each permit's primary contractor), inspections.csv (the inspections
dataset) and contractors.csv (the contractor dataset: the additional contractors), with the
specification's field names, dates as YYYY-MM-DD and its mapped vocabularies
(db/report_queries.py BLDS_*_FIELDS, desk/domain/reports.py). A writer over rows that
db/report_queries.py streams; it queries nothing.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

FILES = ("permits.csv", "inspections.csv", "contractors.csv")


@dataclass(frozen=True)
class BldsResult:
    folder: Path
    permits: int
    inspections: int
    contractors: int

    @property
    def summary(self) -> str:
        return (
            f"{self.permits:,} permits, {self.inspections:,} inspections and "
            f"{self.contractors:,} additional contractors written to {self.folder}"
        )


def write_csv(
    path: Path,
    fields: Sequence[str],
    rows: Iterable[Sequence[str]],
    cancelled: Callable[[], bool] | None = None,
) -> int:
    """One CSV file (UTF-8, CRLF as RFC 4180 says); returns the number of data rows."""
    n = 0
    tmp = path.with_suffix(path.suffix + ".part")
    with tmp.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(fields)
        for row in rows:
            out.writerow(row)
            n += 1
            if cancelled is not None and n % 5000 == 0 and cancelled():
                break
    if cancelled is not None and cancelled():
        tmp.unlink(missing_ok=True)
        return n
    tmp.replace(path)  # a half-written file never replaces a good one
    return n


def export_blds(
    folder: Path,
    permits: tuple[Sequence[str], Iterable[Sequence[str]]],
    inspections: tuple[Sequence[str], Iterable[Sequence[str]]],
    contractors: tuple[Sequence[str], Iterable[Sequence[str]]],
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> BldsResult:
    """Write the three files into `folder` (created when missing). Each argument is
    (field names, rows)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    counts = []
    for n, (name, (fields, rows)) in enumerate(
        zip(FILES, (permits, inspections, contractors), strict=True)
    ):
        if cancelled is not None and cancelled():
            break
        counts.append(write_csv(folder / name, fields, rows, cancelled))
        if progress is not None:
            progress(n + 1, len(FILES))
    counts += [0] * (3 - len(counts))
    return BldsResult(folder, *counts)
