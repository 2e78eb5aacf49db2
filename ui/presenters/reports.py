"""The Reports section, without Qt: which report, for which period, when it is due, and
the job that computes it (db/report_queries.py, in the worker thread on its own connection) and
writes its PDF and Excel files into a work folder; the view saves copies where the user says.

The view previews and prints the PDF itself (ui/pdf.py); the BLDS export, which has no PDF,
is summed up in a few lines of HTML.

A municipality with no permit kinds (the City of Hudson: its housing code only) is offered the
monthly and annual reports, which are its code-enforcement report; the reports made of permits
stay in the list, not offered, with the reason (desk.domain.reports.not_offered_reason).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from html import escape
from pathlib import Path
from typing import Any, Protocol

from desk.domain import reports as r
from desk.errors import ValidationError
from ui.presenters.formatting import format_date

BLDS = "blds"
# The Reports list: (key, label); the key is a ReportKind value or BLDS.
CHOICES: tuple[tuple[str, str], ...] = (
    *((k.value, k.label) for k in r.ReportKind),
    (BLDS, "BLDS open-data export"),
)
FIRST_YEAR = 1990


def choices(has_permit_kinds: bool = True) -> tuple[tuple[str, str], ...]:
    """CHOICES with the names a municipality with no permit kinds knows its reports by."""
    return tuple(
        (key, label if key == BLDS else r.report_label(r.ReportKind(key), has_permit_kinds))
        for key, label in CHOICES
    )


def not_offered(key: str, has_permit_kinds: bool, who: str, cites: r.ReportCitations) -> str:
    """Why the report is not offered here ('' when it is): the list's tooltip."""
    kind = None if key == BLDS else r.ReportKind(key)
    return r.not_offered_reason(kind, has_permit_kinds, who, cites=cites)


@dataclass(frozen=True)
class ReportRequest:
    key: str  # a ReportKind value or BLDS
    year: int
    month: int = 1
    whole_year: bool = False  # C-404 for the year
    include_register: bool = True  # the annual report's list of every permit

    @property
    def kind(self) -> r.ReportKind | None:
        return None if self.key == BLDS else r.ReportKind(self.key)


@dataclass(frozen=True)
class ReportOutput:
    title: str
    summary: str
    preview_html: str = ""  # the BLDS export's summary; a report shows its PDF instead
    pdf: Path | None = None
    xlsx: Path | None = None
    folder: Path | None = None  # the BLDS files
    files: tuple[Path, ...] = field(default_factory=tuple)


class Cancelled(Exception):
    """The user pressed Cancel; the job stops at its next step."""


class ReportSource(Protocol):
    def fetch(self, request: ReportRequest, today: date) -> Any:
        """The report's read model (desk.domain.reports), on a connection of the caller's
        thread."""
        ...

    def export_blds(
        self,
        folder: Path,
        progress: Callable[[int, int], None],
        cancelled: Callable[[], bool],
    ) -> Any:
        """Write the BLDS files into `folder`; a reports.blds.BldsResult."""
        ...


class SqlReportSource:
    """Reads with a connection opened in the calling (worker) thread."""

    def __init__(self, database: Any, municipality_id: int) -> None:
        self.database = database
        self.municipality_id = municipality_id

    def fetch(self, request: ReportRequest, today: date) -> Any:
        from db import report_queries as q

        kind = request.kind
        assert kind is not None
        with self.database.read() as conn:
            mid = self.municipality_id
            if kind in (
                r.ReportKind.MONTHLY,
                r.ReportKind.PLUMBING_MONTHLY,
                r.ReportKind.ELECTRICAL_MONTHLY,
            ):
                return q.monthly_report(conn, mid, request.year, request.month, kind.trade)
            if kind.by_year:
                return q.annual_report(
                    conn,
                    mid,
                    request.year,
                    kind.trade,
                    include_register=request.include_register,
                )
            if kind is r.ReportKind.C404:
                period = (
                    r.year_period(request.year)
                    if request.whole_year
                    else r.month_period(request.year, request.month)
                )
                return q.c404_report(conn, mid, period)
            return q.act211_report(conn, mid, request.year, request.month, today)

    def export_blds(
        self,
        folder: Path,
        progress: Callable[[int, int], None],
        cancelled: Callable[[], bool],
    ) -> Any:
        from db import report_queries as q
        from reports.blds import export_blds

        with self.database.read() as conn:
            mid = self.municipality_id
            return export_blds(
                folder,
                (q.BLDS_PERMIT_FIELDS, q.blds_permit_rows(conn, mid)),
                (q.BLDS_INSPECTION_FIELDS, q.blds_inspection_rows(conn, mid)),
                (q.BLDS_CONTRACTOR_FIELDS, q.blds_contractor_rows(conn, mid)),
                progress=progress,
                cancelled=cancelled,
            )


# --------------------------------------------------------------------------- due dates


def due_for_request(request: ReportRequest, cites: r.ReportCitations) -> r.DueDate | None:
    kind = request.kind
    if kind is None:
        return None
    return r.due_for(kind, request.year, None if kind.by_year else request.month, cites)


def due_line(key: str, today: date, has_permit_kinds: bool, cites: r.ReportCitations) -> str:
    """Under each report in the list: the next filing it is due for."""
    if not has_permit_kinds:
        return _enforcement_due_line(key)
    if key == BLDS:
        return "Open data, whenever published"
    kind = r.ReportKind(key)
    if not_offered(key, has_permit_kinds, "this municipality", cites):
        return "Not offered: no such inspector's report"
    if kind is r.ReportKind.ANNUAL:
        return r.cite("Yearly, to the Council", cites.council)
    if kind is r.ReportKind.C404:
        return "Monthly or yearly, to the Census"
    year, month = r.previous_month(today)
    due = r.due_for(kind, today.year - 1 if kind.by_year else year, month, cites)
    if due is None:  # the ordinance sets no day
        return f"{_period_words(kind, today)}: the office's own"
    return f"{_period_words(kind, today)}: due {format_date(due.due)}"


def _enforcement_due_line(key: str) -> str:
    """A municipality with no permit kinds: its code-enforcement reports have no due day."""
    if not_offered(key, False, "this municipality", r.report_citations("")):
        return "Not offered: no permit kinds"
    if key == r.ReportKind.ANNUAL.value:
        return "Yearly, to the Council"
    return "Monthly, code enforcement"


def _period_words(kind: r.ReportKind, today: date) -> str:
    if kind.by_year:
        return str(today.year - 1)
    year, month = r.previous_month(today)
    return r.month_period(year, month).label


ENFORCEMENT_DUE = {
    r.ReportKind.MONTHLY: "The month's code-enforcement figures; the housing code sets no day "
    "for this report.",
    r.ReportKind.ANNUAL: "The year's code enforcement, for the Common Council; the housing code "
    "sets no day for this report.",
}


def due_text(
    request: ReportRequest,
    today: date,
    has_permit_kinds: bool,
    cites: r.ReportCitations,
) -> str:
    if not has_permit_kinds:
        kind = request.kind
        return ENFORCEMENT_DUE.get(kind, "") if kind is not None else ""
    due = due_for_request(request, cites)
    if due is None:
        return {
            r.ReportKind.MONTHLY: "The month's permit activity; the ordinance sets no day for "
            "this report.",
            r.ReportKind.ANNUAL: r.cite(
                "The annual report goes to the Common Council", cites.council
            )
            + "; the ordinance sets no day.",
            r.ReportKind.C404: "Form C-404 goes to the Census Bureau for the month (or the year "
            "for annual reporters).",
            None: "The BLDS files are open data: publish them whenever the office updates them.",
        }.get(request.kind, "The ordinance sets no day for this report.")
    return f"{due.what}: {due.words(today)} — {due.section}"


# --------------------------------------------------------------------------- the presenter


class ReportsPresenter:
    def __init__(
        self,
        today: Callable[[], date],
        has_permit_kinds: bool,
        municipality_name: str,
        cites: r.ReportCitations,
    ) -> None:
        self.today = today
        # False: code enforcement only (kinds_for(municipality_key) is empty, e.g. Hudson).
        self.has_permit_kinds = has_permit_kinds
        self.municipality_name = municipality_name
        self.cites = cites  # what the permit ordinance asks of its reports
        self.key = r.ReportKind.MONTHLY.value
        year, month = r.previous_month(today())
        self.year = year
        self.month = month
        self.whole_year = False
        self.include_register = True
        self.output: ReportOutput | None = None
        self.running = False

    # --- the choice ------------------------------------------------------------------

    @property
    def kind(self) -> r.ReportKind | None:
        return None if self.key == BLDS else r.ReportKind(self.key)

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        return choices(self.has_permit_kinds)

    def not_offered(self, key: str) -> str:
        return not_offered(key, self.has_permit_kinds, self.municipality_name, self.cites)

    def due_line(self, key: str) -> str:
        return due_line(key, self.today(), self.has_permit_kinds, self.cites)

    def choose(self, key: str) -> None:
        if key not in dict(CHOICES):
            raise ValidationError("report", f"'{key}' is not a report")
        why = self.not_offered(key)
        if why:
            raise ValidationError("report", why)
        if key != self.key:
            self.key = key
            kind = self.kind
            today = self.today()
            if kind is not None and kind.by_year:
                self.year = today.year - 1
            elif kind is not None:
                self.year, self.month = r.previous_month(today)
            self.output = None

    @property
    def title(self) -> str:
        return dict(self.choices)[self.key]

    @property
    def uses_month(self) -> bool:
        kind = self.kind
        if kind is None or kind.by_year:
            return False
        return not (kind is r.ReportKind.C404 and self.whole_year)

    @property
    def uses_year(self) -> bool:
        return self.kind is not None

    @property
    def offers_whole_year(self) -> bool:
        return self.kind is r.ReportKind.C404

    @property
    def offers_register(self) -> bool:
        """The annual report's list of every permit issued (none without permit kinds)."""
        kind = self.kind
        return kind is not None and kind.by_year and self.has_permit_kinds

    @property
    def makes_files(self) -> bool:
        """PDF and Excel files (the BLDS export writes CSV files into a folder)."""
        return self.kind is not None

    def request(self) -> ReportRequest:
        """The request as entered; a ValidationError naming the field otherwise."""
        today = self.today()
        if not FIRST_YEAR <= self.year <= today.year:
            raise ValidationError("year", f"must be between {FIRST_YEAR} and {today.year}")
        if not 1 <= self.month <= 12:
            raise ValidationError("month", "choose a month")
        if self.uses_month and (self.year, self.month) > (today.year, today.month):
            raise ValidationError("month", "is still to come; choose this month or an earlier one")
        return ReportRequest(
            self.key, self.year, self.month, self.whole_year, self.include_register
        )

    @property
    def due_text(self) -> str:
        return due_text(
            ReportRequest(self.key, self.year, self.month, self.whole_year),
            self.today(),
            self.has_permit_kinds,
            self.cites,
        )

    @property
    def status(self) -> str:
        if self.running:
            return "Working…"
        if self.output is None:
            return "Choose the period, then Make report (Ctrl+Return)."
        return self.output.summary


# --------------------------------------------------------------------------- the job


def run_report(
    request: ReportRequest,
    source: ReportSource,
    workdir: Path,
    today: date,
    progress: Callable[[int, int], None],
    cancel: threading.Event,
    *,
    blds_folder: Path | None = None,
) -> ReportOutput:
    """Compute the report and write its files into `workdir` (the BLDS files into
    `blds_folder`). Runs in a worker thread; raises Cancelled when `cancel` is set."""

    def check() -> None:
        if cancel.is_set():
            raise Cancelled()

    if request.kind is None:
        folder = blds_folder or workdir / "blds"
        progress(0, 3)
        result = source.export_blds(folder, progress, cancel.is_set)
        check()
        return ReportOutput(
            title="BLDS open-data export",
            summary=result.summary,
            preview_html=blds_preview(result, folder),
            folder=folder,
            files=tuple(folder / n for n in ("permits.csv", "inspections.csv", "contractors.csv")),
        )
    progress(0, 3)
    report = source.fetch(request, today)
    check()
    progress(1, 3)
    stem = _file_stem(request)
    workdir.mkdir(parents=True, exist_ok=True)
    xlsx = workdir / f"{stem}.xlsx"
    pdf = workdir / f"{stem}.pdf"
    from reports.report_files import write_report

    write_report(report, str(xlsx), None)
    check()
    progress(2, 3)
    write_report(report, None, str(pdf), prepared_on=today)
    check()
    progress(3, 3)
    return ReportOutput(
        title=report.title,
        summary=f"{report.title}: ready to save, print or open.",
        pdf=pdf,
        xlsx=xlsx,
        files=(pdf, xlsx),
    )


def _file_stem(request: ReportRequest) -> str:
    kind = request.kind
    assert kind is not None
    if kind.by_year or (kind is r.ReportKind.C404 and request.whole_year):
        period = f"{request.year}"
    else:
        period = f"{request.year}-{request.month:02d}"
    return f"{kind.value.replace('_', '-')}-{period}"


def suggested_name(request: ReportRequest, suffix: str) -> str:
    return f"{_file_stem(request)}{suffix}"


# --------------------------------------------------------------------------- preview

STYLE = (
    "<style>body{color:#1b2430;font-family:'DejaVu Sans',sans-serif;font-size:9pt}"
    "h1{font-size:15pt;margin:6px 0 2px 0}.muted{color:#5d6873}</style>"
)


def blds_preview(result: Any, folder: Path) -> str:
    return (
        f"{STYLE}<h1>BLDS open-data export</h1><p>{escape(result.summary)}.</p>"
        "<p class='muted'>permits.csv, inspections.csv and contractors.csv use the field names "
        "of the Building &amp; Land Development Specification, dates as YYYY-MM-DD.</p>"
        f"<p>{escape(str(folder))}</p>"
    )


# --------------------------------------------------------------------------- Act 211 filings


def record_filing(
    database: Any,
    clock: Any,
    actor: Any,
    municipality_id: int,
    number: str,
    filed: date,
    reference: str = "",
) -> str:
    """Record the day a permit (by its number) was filed with the state; the words to show.
    ValidationError names the field; the service checks the rest (desk.services.reports)."""
    from db.queries import permit_id_by_number
    from desk.services.reports import record_state_filing

    number = number.strip()
    if not number:
        raise ValidationError("permit", "enter the permit number, e.g. 2026-0412")
    with database.read() as conn:
        permit_id = permit_id_by_number(conn, municipality_id, number)
    if permit_id is None:
        raise ValidationError("permit", f"no permit numbered '{number}'")
    result = record_state_filing(database.uow(), clock, actor, permit_id, filed, reference)
    late = (
        " — after the deadline: its fees are refunded except the state seal (Treasurer → "
        "Refunds, Act 211)"
        if r.refund_required(result.state)
        else ""
    )
    return f"Permit {result.number} filed with the state on {format_date(filed)}{late}."
