"""Writing a report's files: the one place that knows which renderer draws which read model
(the CLI and the Reports screen both call it)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from desk.domain import reports as r
from reports import act211, census, council, monthly


def write_report(
    report: Any, xlsx: str | None, pdf: str | None, *, prepared_on: date | None = None
) -> list[str]:
    """Render a report read model to the files asked for; the paths written."""
    to_xlsx: Callable[[Any, Path], None]
    to_pdf: Callable[[Any, Path], None]
    if isinstance(report, r.MonthlyReport):
        to_xlsx, to_pdf = monthly.export_monthly_xlsx, monthly.render_monthly_pdf
    elif isinstance(report, r.AnnualReport):
        with_register = bool(report.register)

        def to_xlsx(rep: Any, out: Path) -> None:
            council.export_annual_xlsx(rep, out, register=with_register)

        def to_pdf(rep: Any, out: Path) -> None:
            council.render_annual_pdf(rep, out, prepared_on=prepared_on, register=with_register)
    elif isinstance(report, r.C404Report):
        to_xlsx, to_pdf = census.export_c404_xlsx, census.render_c404_pdf
    else:
        to_xlsx, to_pdf = act211.export_act211_xlsx, act211.render_act211_pdf
    written = []
    if xlsx:
        to_xlsx(report, Path(xlsx))
        written.append(xlsx)
    if pdf:
        to_pdf(report, Path(pdf))
        written.append(pdf)
    return written
