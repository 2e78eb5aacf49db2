"""The Inspections section and the permit's Inspections tab without Qt: requests, the
inspector's day in route order, the week, correction orders, the sequence of a permit with what
comes next, and the keys that record a result from the keyboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from desk.dates import stop_time
from desk.domain.inspections import InspectionType, Result, StageState
from desk.domain.model import InspectionStatus
from desk.services.inspections import (
    OrderLine,
    PermitInspections,
    RouteStop,
    VisitDue,
)
from ui.presenters.formatting import EMPTY, format_date, format_timestamp

# Results entry from the keyboard: the first letter of each result (A for pArtial, as P is taken).
RESULT_KEYS: dict[str, Result] = {
    "P": Result.PASSED,
    "R": Result.REJECTED,
    "A": Result.PARTIAL,
    "C": Result.CANCELLED,
    "O": Result.OK_FOR_SERVICE,
}
KEY_HELP = "P passed · R rejected · A partial · C cancelled · O OK for service"
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def result_choices(itype: InspectionType | None) -> list[Result]:
    """The results a type allows, in the order of RESULT_KEYS ("OK for service" only where the
    type has it, 15.1.76(d))."""
    return [
        r
        for r in RESULT_KEYS.values()
        if r is not Result.OK_FOR_SERVICE or (itype is not None and itype.ok_for_service)
    ]


def result_key(r: Result) -> str:
    return next(k for k, v in RESULT_KEYS.items() if v is r)


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def wanted(desired_on: date | None, desired_time: str) -> str:
    """'03/17/2026 AM', 'PM', '' — what the caller asked for."""
    return " ".join(x for x in (format_date(desired_on), desired_time) if x)


def due_text(at: datetime | None, tz: tzinfo | None = None) -> str:
    """The ordinance's time limit: 'by 03/18/2026 9:30 AM (15.1.76(c))'."""
    return f"by {format_timestamp(at, tz)} (15.1.76(c))" if at is not None else ""


def result_text(status: InspectionStatus, result: Result | None) -> str:
    if result is not None:
        return result.label
    return status.label if status is not InspectionStatus.DONE else EMPTY


# --------------------------------------------------------------------------- requests


REQUEST_COLUMNS = (
    "Requested",
    "Permit",
    "Address",
    "Inspection",
    "Caller",
    "Phone",
    "Wanted",
    "Scheduled",
    "Due",
)


@dataclass(frozen=True)
class StopRow:
    stop: RouteStop
    cells: tuple[str, ...]
    late: bool  # the ordinance's time has passed (15.1.76(c)) or the visit is in the past


class RequestsPresenter:
    columns = REQUEST_COLUMNS

    def __init__(self, stops: Sequence[RouteStop], now: datetime, tz: tzinfo | None = None):
        today = now.astimezone(tz).date()
        self.rows = [
            StopRow(
                s,
                (
                    format_timestamp(s.requested_at, tz),
                    s.permit_number,
                    s.address,
                    s.type_label,
                    s.contact,
                    s.phone,
                    wanted(s.desired_on, s.desired_time),
                    " — ".join(x for x in (format_date(s.scheduled_on), s.inspector_name) if x)
                    or "Not scheduled",
                    due_text(s.due_at, tz).removesuffix(" (15.1.76(c))"),
                ),
                late=(s.due_at is not None and s.due_at < now)
                or (s.scheduled_on is not None and s.scheduled_on < today),
            )
            for s in stops
        ]

    @property
    def summary(self) -> str:
        waiting = sum(1 for r in self.rows if r.stop.status is InspectionStatus.REQUESTED)
        n = len(self.rows)
        if n == 0:
            return "No inspection is waiting. New request… (Ctrl+R) takes a call."
        return f"{n} open request{'s' if n != 1 else ''}, {waiting} not on an inspector's day yet"


# --------------------------------------------------------------------------- the day


DAY_COLUMNS = (
    "#",
    "Time",
    "Address",
    "Permit / case",  # a case stop's CE-YYYY-NNNN (Hudson 140-2, 140-3A(3))
    "Inspection",
    "Contact",
    "Phone",
    "Notes",
    "Result",
)


class DayPresenter:
    """The inspector's day in route order; Move up/down, and the result keys."""

    columns = DAY_COLUMNS

    def __init__(self, stops: Sequence[RouteStop], tz: tzinfo | None = None) -> None:
        self.rows = [
            StopRow(
                s,
                (
                    str(s.position or n),
                    " ".join(
                        x
                        for x in (
                            stop_time(s.desired_time),
                            due_text(s.due_at, tz).removesuffix(" (15.1.76(c))"),
                        )
                        if x
                    ),
                    s.address,
                    s.permit_number,
                    s.type_label,
                    s.contact,
                    s.phone,
                    s.notes.replace("\n", " · "),
                    result_text(s.status, s.result),
                ),
                late=False,
            )
            for n, s in enumerate(stops, start=1)
        ]

    def open_row(self, row: int) -> bool:
        """A stop that still waits for its result (results are recorded once)."""
        return 0 <= row < len(self.rows) and self.rows[row].stop.status in (
            InspectionStatus.REQUESTED,
            InspectionStatus.SCHEDULED,
        )

    def can_move(self, row: int, step: int) -> bool:
        return 0 <= row < len(self.rows) and 0 <= row + step < len(self.rows)

    @staticmethod
    def key_result(text: str) -> Result | None:
        return RESULT_KEYS.get(text.strip().upper()[:1]) if text.strip() else None

    def summary(self, inspector: str, day: date) -> str:
        n = len(self.rows)
        left = sum(1 for i in range(n) if self.open_row(i))
        if n == 0:
            return f"{inspector} has no inspection on {format_date(day)}."
        words = (
            f"{inspector}, {_WEEKDAYS[day.weekday()]} {format_date(day)}: {n} stop"
            f"{'s' if n != 1 else ''}, {left} to go."
        )
        if all(r.stop.is_case for r in self.rows):
            # A case stop's result is its inspection, recorded in the case (Enter opens it).
            return f"{words} Enter opens the case to record the inspection."
        return f"{words} Results: {KEY_HELP}"


# --------------------------------------------------------------------------- the week


class WeekPresenter:
    """Rows: inspectors; columns: the seven days from Monday; a cell lists the stops."""

    def __init__(
        self, stops: Sequence[RouteStop], monday: date, inspectors: Sequence[tuple[int, str]]
    ) -> None:
        self.monday = monday
        self.days = [monday + timedelta(days=k) for k in range(7)]
        self.columns = [f"{_WEEKDAYS[k]} {d.month}/{d.day}" for k, d in enumerate(self.days)]
        names = dict(inspectors)
        for s in stops:
            if s.inspector_id is not None and s.inspector_id not in names:
                names[s.inspector_id] = s.inspector_name
        self.inspector_ids = list(names)
        self.row_names = [names[i] for i in self.inspector_ids]
        self.cells: dict[tuple[int, int], list[RouteStop]] = {}
        for s in stops:
            if s.inspector_id is None or s.scheduled_on is None:
                continue
            key = (self.inspector_ids.index(s.inspector_id), (s.scheduled_on - monday).days)
            self.cells.setdefault(key, []).append(s)

    @property
    def rows(self) -> list[str]:
        return self.row_names

    def cell_text(self, row: int, column: int) -> str:
        stops = self.cells.get((row, column), [])
        return "\n".join(
            f"{s.position or n}. {s.address} — {s.type_label}"
            + (f" ({s.result.label.lower()})" if s.result else "")
            for n, s in enumerate(stops, start=1)
        )

    def count(self, row: int, column: int) -> int:
        return len(self.cells.get((row, column), []))

    @property
    def title(self) -> str:
        end = self.days[-1]
        return f"Week of {format_date(self.monday)} – {format_date(end)}"


# --------------------------------------------------------------------------- correction orders


ORDER_COLUMNS = ("Correct by", "Status", "Permit", "Address", "Inspection", "Items", "Section")


@dataclass(frozen=True)
class OrderRow:
    order: OrderLine
    cells: tuple[str, ...]
    overdue: bool


class OrdersPresenter:
    columns = ORDER_COLUMNS

    def __init__(self, orders: Sequence[OrderLine], today: date) -> None:
        self.today = today
        self.rows = []
        for o in orders:
            rule = o.rule
            overdue = rule.overdue(today)
            if overdue:
                n = rule.days_overdue(today)
                status = f"Overdue {n} day{'s' if n != 1 else ''}"
            else:
                left = (o.due_on - today).days
                status = "Due today" if left == 0 else f"{left} day{'s' if left != 1 else ''} left"
            self.rows.append(
                OrderRow(
                    o,
                    (
                        format_date(o.due_on) + (" (extended)" if o.extended else ""),
                        status,
                        o.permit_number,
                        o.address,
                        o.type_label,
                        o.items.replace("\n", " · "),
                        o.section,
                    ),
                    overdue,
                )
            )

    @property
    def summary(self) -> str:
        late = sum(1 for r in self.rows if r.overdue)
        n = len(self.rows)
        if n == 0:
            return "No correction order is open."
        text = f"{n} open correction order{'s' if n != 1 else ''}"
        if late:
            text += (
                f", {late} overdue: a stop-work order may be served (15.1.90(b)(2)) — select it "
                "and choose Stop-work order…"
            )
        return text


def visits_summary(visits: Sequence[VisitDue]) -> str:
    """What Generate site visits did, in a sentence a clerk reads in a message box."""
    made = sum(v.requested for v in visits)
    late = [v for v in visits if v.overdue]
    lines = [f"{made} visit request{'s' if made != 1 else ''} added."]
    for v in late:
        lines.append(
            f"Missed: {v.permit_number} {v.address}, {v.period} — {v.done} of {v.due} ({v.section})"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- a permit's tab


STAGE_COLUMNS = ("Stage", "Section", "State", "Last result", "Notes")
HISTORY_COLUMNS = ("Requested", "Inspection", "Caller", "Date", "Inspector", "Result", "Notes")


@dataclass(frozen=True)
class StageRow:
    code: str
    cells: tuple[str, ...]
    state: StageState


class PermitInspectionsPresenter:
    def __init__(self, data: PermitInspections, today: date, tz: tzinfo | None = None) -> None:
        self.data = data
        self.today = today
        self.stages = [
            StageRow(
                s.type.code,
                (
                    s.type.label,
                    s.type.section,
                    s.state.label,
                    s.last_result.label if s.last_result else EMPTY,
                    s.exception_reason
                    or "; ".join(s.waiting_for)
                    or (s.type.note if s.state is StageState.READY else ""),
                ),
                s.state,
            )
            for s in data.stages
        ]
        self.history = [
            (
                line.id,
                (
                    format_timestamp(line.requested_at, tz),
                    line.type_label + (" — failure to call" if line.failure_to_call else ""),
                    " ".join(x for x in (line.requested_by, line.phone) if x),
                    format_date(line.scheduled_on),
                    line.inspector_name,
                    result_text(line.status, line.result),
                    " · ".join(
                        x
                        for x in (
                            line.notes.replace("\n", " · "),
                            f"Fee waived: {line.fee_waiver}" if line.fee_waiver else "",
                        )
                        if x
                    ),
                ),
            )
            for line in data.inspections
        ]

    @property
    def has_sequence(self) -> bool:
        return bool(self.data.sequence_code)

    @property
    def heading(self) -> str:
        if not self.has_sequence:
            return "This kind of permit has no inspections."
        return self.data.sequence_label

    @property
    def next_text(self) -> str:
        if not self.has_sequence:
            return ""
        nxt = self.data.next_types
        if self.data.final_passed:
            return "The final inspection has passed."
        if not nxt:
            return "Nothing can be requested now."
        return "Next: " + ", ".join(f"{t.label} ({t.section})" for t in nxt)

    def open_inspections(self) -> list[tuple[int, str]]:
        """(id, label) of the requests waiting for a result, for Record result…"""
        return [
            (line.id, f"{line.type_label} — requested {format_date(line.requested_at.date())}")
            for line in self.data.inspections
            if line.status in (InspectionStatus.REQUESTED, InspectionStatus.SCHEDULED)
        ]

    @property
    def orders_text(self) -> str:
        out = []
        for o in self.data.orders:
            out.append(
                f"Correction order of {format_date(o.noticed_on)} ({o.type_label}): "
                f"{o.rule.status(self.today)}"
            )
        return "\n".join(out)

    @property
    def certificates_text(self) -> str:
        out = []
        for c in self.data.certificates:
            line = (
                f"Certificate of occupancy {c.number} of {format_date(c.issued_on)}: {c.use_stated}"
            )
            if c.temporary_until:
                line += f" — temporary, until {format_date(c.temporary_until)}"
            out.append(line)
        return "\n".join(out)

    def type_choices(self, all_types: Sequence[InspectionType]) -> list[InspectionType]:
        """The stages that may be requested now first, then the others (recurring visits and
        stages that wait: the clerk may still take the call, and is told what is missing)."""
        nxt = list(self.data.next_types)
        return nxt + [t for t in all_types if t not in nxt]
