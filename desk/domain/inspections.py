"""Inspection rules: types and their order, results, due times, correction orders, recurring
visits, the re-inspection and failure-to-call fees, and certificates of occupancy.

Pure rules: plain values in, plain values out. The services (requests, results, the inspector's
day) and the screens build on these. Every message says which section it comes from.

Readings of the ordinances (Glendale Title 15, New Lisbon Ch. 435):

- Order (15.1.11(a)): a stage may not be inspected before the stages it follows have passed.
  "Passed" means the latest result of that stage, cancellations aside, is Passed or OK for
  service. An inspector clears a stage that does not apply or may wait (slab on grade: no
  basement floor) by recording an exception with a reason on that stage.
- Deadlines given in days are "by" dates: the day itself is still in time, the day after is
  late (as in desk/domain/lifecycle.py). Deadlines given in hours are exact datetimes.
- Correction orders: 30 days after the written notice (15.1.90(b)(1)); electrical orders 7 days
  (15.1.76(c)). The inspector may set another date, never before the notice; a date later than
  the ordinance's period is an extension and needs a reason.
- Erosion control sites (15.2.9): each month March–October is one period (one visit); November 1
  to the end of February (February 29 in a leap year, although the text says "February 28") is
  one period of two visits. When a site is active for only part of the winter, one visit is due
  for each half of it (November–December, January–February) the site is active in.
- Re-inspection (15.1.21(a)(12)): an inspection of a stage whose latest result, cancellations
  aside, was Rejected or Partial is a re-inspection and carries the REINSPECTION fee.
"""

from __future__ import annotations

import calendar
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from desk.dates import short_date, short_timestamp
from desk.domain.kinds import TRADES, kinds_for
from desk.domain.lifecycle import TEMPORARY_OCCUPANCY_MAX_DAYS, Deadline
from desk.errors import ValidationError
from desk.fees.engine import QuoteItem

RESOURCE = "inspection_types.toml"

# BLDS InspTypeMapped: the list of values in the specification's Appendix A (BLDS 1.2,
# github.com/open-data-standards/permitdata.org/wiki/Appendix-A; copy read in
# cityofasheville/bedrock documentation/development/Appendix-A.md), all 42, spelled as there.
BLDS_INSP_TYPES = (
    "Set Backs", "Temp Power", "Footings & Forms", "Foundation", "Rough Frame", "Frame",
    "Floor Deck", "Roof Deck", "Partial/Temp Building Final", "Building Final", "Fire Final",
    "Zoning Final", "Progress Check", "Health Final", "Sanitary Sewer Final", "Storm Sewer Final",
    "Storm Water Quality Final", "Gas Disconnect", "Electrical Disconnect",
    "Hazardous Material Removal", "Roof Final", "Rough", "Service", "Ground Work",
    "Electrical Final", "Temp Service Pole", "Breaker Box", "Grounding", "Fence Final",
    "Grading Final", "Rough In", "Duct Work", "Gas Meter Reset", "Gas Service",
    "Construction Gas", "Service Interior", "Relocate Service", "Mechanical Final", "Sewer",
    "Water", "Gas", "Plumbing Final",
)  # fmt: skip


class InspectionTypesError(ValueError):
    """inspection_types.toml cannot be used; the message names the file, the key and why."""


# --------------------------------------------------------------------------- results


class Result(StrEnum):
    """An inspection's result. Values are stored in the database; never rename one."""

    PASSED = "passed"
    PARTIAL = "partial"
    REJECTED = "rejected"
    CANCELLED = "cancelled"
    OK_FOR_SERVICE = "ok_for_service"  # electrical service: current may be turned on (15.1.76(d))

    @property
    def label(self) -> str:
        return _RESULT_LABELS[self]

    @property
    def blds(self) -> str:
        """BLDS ResultMapped."""
        return _RESULT_BLDS[self]

    @property
    def passes(self) -> bool:
        """Whether the stage counts as passed for the stages that follow it."""
        return self in (Result.PASSED, Result.OK_FOR_SERVICE)

    @property
    def made(self) -> bool:
        """15.1.42 "before any inspections are made": the inspector made the visit and recorded
        what was found (passed, partial, rejected, OK for service); a cancelled one was not."""
        return self is not Result.CANCELLED

    @property
    def needs_correction_order(self) -> bool:
        """15.1.90(b)(1): a noncompliance is notified in writing with a date to correct it."""
        return self is Result.REJECTED


_RESULT_LABELS = {
    Result.PASSED: "Passed",
    Result.PARTIAL: "Partial",
    Result.REJECTED: "Rejected",
    Result.CANCELLED: "Cancelled",
    Result.OK_FOR_SERVICE: "OK for service",
}
# BLDS ResultMapped: exactly Passed, Rejected, Partial, Cancelled, OK for Service (BLDS 1.2,
# Optional Inspections Dataset Requirements, github.com/open-data-standards/permitdata.org/wiki/
# Optional-Inspections-Dataset-Requirements). Every Result has one.
_RESULT_BLDS = {
    Result.PASSED: "Passed",
    Result.PARTIAL: "Partial",
    Result.REJECTED: "Rejected",
    Result.CANCELLED: "Cancelled",
    Result.OK_FOR_SERVICE: "OK for Service",
}


# --------------------------------------------------------------------------- types and sequences


class Timing(StrEnum):
    """A type's special timing rule (inspection_types.toml `timing`)."""

    NONE = "none"
    WITHIN_24_HOURS_OF_NOTICE = "within_24_hours_of_notice"  # 15.1.76(c)
    NOTICE_24_HOURS_BEFORE = "notice_24_hours_before"  # §435-8B
    NOTICE_4_HOURS_BEFORE = "notice_4_hours_before"  # §435-8F
    BEFORE_PERMIT = "before_permit"  # 15.1.9(e)
    AFTER_ARRIVAL = "after_arrival"  # 15.1.9(d)
    AFTER_DEMOLITION = "after_demolition"  # 15.1.10
    EROSION_SEASON = "erosion_season"  # 15.2.9
    ANNUAL = "annual"  # 15.1.57(c)

    @property
    def section(self) -> str:
        return _TIMING_SECTIONS[self]

    @property
    def recurring(self) -> bool:
        """Visits repeated for as long as the permit runs, rather than stages passed once."""
        return self in (Timing.EROSION_SEASON, Timing.ANNUAL)


_TIMING_SECTIONS = {
    Timing.NONE: "",
    Timing.WITHIN_24_HOURS_OF_NOTICE: "15.1.76(c)",
    Timing.NOTICE_24_HOURS_BEFORE: "§435-8B",
    Timing.NOTICE_4_HOURS_BEFORE: "§435-8F",
    Timing.BEFORE_PERMIT: "15.1.9(e)",
    Timing.AFTER_ARRIVAL: "15.1.9(d)",
    Timing.AFTER_DEMOLITION: "15.1.10",
    Timing.EROSION_SEASON: "15.2.9",
    Timing.ANNUAL: "15.1.57(c)",
}


@dataclass(frozen=True)
class InspectionType:
    """One inspection as a step of a sequence: `prerequisites` are the codes of the earlier
    steps of that sequence that must have passed first."""

    code: str
    label: str
    section: str
    blds: str  # BLDS InspTypeMapped
    trade: str
    prerequisites: tuple[str, ...] = ()
    timing: Timing = Timing.NONE
    final: bool = False
    ok_for_service: bool = False
    note: str = ""

    @property
    def recurring(self) -> bool:
        return self.timing.recurring


@dataclass(frozen=True)
class InspectionSequence:
    code: str
    label: str
    kinds: tuple[str, ...]
    trades: tuple[str, ...]
    types: tuple[InspectionType, ...]

    def type(self, code: str) -> InspectionType:
        for t in self.types:
            if t.code == code:
                return t
        known = ", ".join(t.code for t in self.types)
        raise ValidationError(
            "inspection type", f"'{code}' is not an inspection of {self.label} (it has: {known})"
        )

    @property
    def final_type(self) -> InspectionType | None:
        return next((t for t in self.types if t.final), None)


_TYPE_FIELDS = {"code", "label", "section", "blds", "trade", "timing", "final", "ok_for_service",
                "note"}  # fmt: skip
_SEQUENCE_FIELDS = {"code", "label", "kinds", "trades", "steps"}
_STEP_FIELDS = {"type", "after"}


def _text(where: str, raw: dict[str, Any], name: str, *, required: bool = True) -> str:
    value = raw.get(name)
    if value is None or value == "":
        if required:
            raise InspectionTypesError(f"{where}: field '{name}' is missing")
        return ""
    if not isinstance(value, str):
        raise InspectionTypesError(f"{where}: field '{name}' must be text")
    return value


def _flag(where: str, raw: dict[str, Any], name: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise InspectionTypesError(f"{where}: field '{name}' must be true or false")
    return value


def _codes(where: str, raw: dict[str, Any], name: str) -> tuple[str, ...]:
    value = raw.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InspectionTypesError(f"{where}: field '{name}' must be a list of codes")
    return tuple(value)


def _unknown(where: str, raw: dict[str, Any], known: set[str]) -> None:
    extra = set(raw) - known
    if extra:
        raise InspectionTypesError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")


def _type_from(where: str, raw: dict[str, Any]) -> InspectionType:
    code = raw.get("code")
    where = f"{where}, type {code}" if isinstance(code, str) and code else f"{where}, a type"
    _unknown(where, raw, _TYPE_FIELDS)
    blds = _text(where, raw, "blds")
    if blds not in BLDS_INSP_TYPES:
        raise InspectionTypesError(
            f"{where}: field 'blds' is '{blds}', not a BLDS InspTypeMapped value "
            f"({', '.join(BLDS_INSP_TYPES)})"
        )
    trade = _text(where, raw, "trade")
    if trade not in TRADES:
        raise InspectionTypesError(
            f"{where}: field 'trade' is '{trade}', not one of {', '.join(TRADES)}"
        )
    timing_raw = _text(where, raw, "timing", required=False) or Timing.NONE.value
    try:
        timing = Timing(timing_raw)
    except ValueError:
        known = ", ".join(t.value for t in Timing)
        raise InspectionTypesError(
            f"{where}: field 'timing' is '{timing_raw}', not one of: {known}"
        ) from None
    return InspectionType(
        code=_text(where, raw, "code"),
        label=_text(where, raw, "label"),
        section=_text(where, raw, "section"),
        blds=blds,
        trade=trade,
        timing=timing,
        final=_flag(where, raw, "final"),
        ok_for_service=_flag(where, raw, "ok_for_service"),
        note=_text(where, raw, "note", required=False),
    )


def _sequence_from(
    where: str, raw: dict[str, Any], defined: dict[str, InspectionType], kind_codes: set[str]
) -> InspectionSequence:
    code = raw.get("code")
    where = (
        f"{where}, sequence {code}" if isinstance(code, str) and code else f"{where}, a sequence"
    )
    _unknown(where, raw, _SEQUENCE_FIELDS)
    kinds = _codes(where, raw, "kinds")
    trades = _codes(where, raw, "trades")
    if not kinds and not trades:
        raise InspectionTypesError(f"{where}: name the permit 'kinds' or 'trades' it is for")
    for k in kinds:
        if k not in kind_codes:
            raise InspectionTypesError(f"{where}: kind '{k}' is not a permit kind here")
    for trade in trades:
        if trade not in TRADES:
            raise InspectionTypesError(
                f"{where}: trade '{trade}' is not one of {', '.join(TRADES)}"
            )
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise InspectionTypesError(f"{where}: it has no steps")
    steps: list[InspectionType] = []
    for i, step in enumerate(steps_raw):
        if not isinstance(step, dict):
            raise InspectionTypesError(f'{where}, step {i + 1}: must be {{ type = "CODE" }}')
        type_code = step.get("type")
        sw = f"{where}, step {type_code or i + 1}"
        _unknown(sw, step, _STEP_FIELDS)
        if not isinstance(type_code, str) or type_code not in defined:
            raise InspectionTypesError(f"{sw}: type '{type_code}' is not defined under types")
        if any(s.code == type_code for s in steps):
            raise InspectionTypesError(f"{sw}: the type appears twice in this sequence")
        after = _codes(sw, step, "after")
        earlier = {s.code for s in steps}
        for a in after:
            if a not in earlier:
                raise InspectionTypesError(
                    f"{sw}: 'after' names '{a}', which is not an earlier step of this sequence"
                )
        steps.append(replace(defined[type_code], prerequisites=after))
    if sum(1 for s in steps if s.final) > 1:
        raise InspectionTypesError(f"{where}: more than one step is marked final")
    return InspectionSequence(
        code=_text(where, raw, "code"),
        label=_text(where, raw, "label"),
        kinds=kinds,
        trades=trades,
        types=tuple(steps),
    )


def sequences_from_toml(name: str, text: str) -> dict[str, tuple[InspectionSequence, ...]]:
    """Parse and check an inspection types file: the sequences of each municipality."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InspectionTypesError(f"{name}: not valid TOML: {e}") from None
    out: dict[str, tuple[InspectionSequence, ...]] = {}
    for muni, section in data.items():
        where = f"{name} [{muni}]"
        kind_codes = {k.code for k in kinds_for(muni)}
        if not kind_codes:
            raise InspectionTypesError(f"{where}: no permit kinds are defined for '{muni}'")
        if not isinstance(section, dict):
            raise InspectionTypesError(f"{where}: must hold [[{muni}.types]] and sequences")
        _unknown(where, section, {"types", "sequences"})
        defined: dict[str, InspectionType] = {}
        for raw in section.get("types") or []:
            t = _type_from(where, raw)
            if t.code in defined:
                raise InspectionTypesError(f"{where}, type {t.code}: the code appears twice")
            defined[t.code] = t
        sequences: list[InspectionSequence] = []
        by_kind: dict[str, str] = {}
        by_trade: dict[str, str] = {}
        for raw in section.get("sequences") or []:
            s = _sequence_from(where, raw, defined, kind_codes)
            if any(o.code == s.code for o in sequences):
                raise InspectionTypesError(f"{where}, sequence {s.code}: the code appears twice")
            for k in s.kinds:
                if k in by_kind:
                    raise InspectionTypesError(
                        f"{where}, sequence {s.code}: kind '{k}' is already in sequence "
                        f"{by_kind[k]}"
                    )
                by_kind[k] = s.code
            for trade in s.trades:
                if trade in by_trade:
                    raise InspectionTypesError(
                        f"{where}, sequence {s.code}: trade '{trade}' is already in sequence "
                        f"{by_trade[trade]}"
                    )
                by_trade[trade] = s.code
            sequences.append(s)
        out[muni] = tuple(sequences)
    return out


@cache
def _shipped() -> dict[str, tuple[InspectionSequence, ...]]:
    text = resources.files("resources").joinpath(RESOURCE).read_text("utf-8")
    return sequences_from_toml(RESOURCE, text)


def sequences_for(municipality_key: str) -> tuple[InspectionSequence, ...]:
    """The shipped sequences of a municipality (none where it has no inspections)."""
    return _shipped().get(municipality_key, ())


def sequence_for(municipality_key: str, kind_code: str) -> InspectionSequence | None:
    """The sequence a permit kind follows: the one naming the kind, else the one naming the
    kind's trade; None where the kind has no inspections (address numbers, solid fill)."""
    sequences = sequences_for(municipality_key)
    for s in sequences:
        if kind_code in s.kinds:
            return s
    trade = next((k.trade for k in kinds_for(municipality_key) if k.code == kind_code), None)
    if trade is None:
        return None
    return next((s for s in sequences if trade in s.trades), None)


def check_result(itype: InspectionType, result: Result) -> None:
    """A result the type allows: "OK for service" is the electrical service's (15.1.76(d))."""
    if result is Result.OK_FOR_SERVICE and not itype.ok_for_service:
        raise ValidationError(
            "result",
            f"'OK for service' is a result of an electrical service inspection (15.1.76(d)), "
            f"not of {itype.label}",
        )


# --------------------------------------------------------------------------- sequence checks


class Outcome(NamedTuple):
    """A recorded result of one inspection; give them oldest first."""

    type_code: str
    result: Result


@dataclass(frozen=True)
class SequenceException:
    """The inspector's exception: this stage need not pass before the stages that follow it."""

    type_code: str
    reason: str

    def __post_init__(self) -> None:
        if not self.reason.strip():
            raise ValidationError(
                "reason", "say why the stage may be skipped or wait (it is kept with the permit)"
            )


def _types(types: InspectionSequence | Sequence[InspectionType]) -> tuple[InspectionType, ...]:
    return types.types if isinstance(types, InspectionSequence) else tuple(types)


def latest_results(done_results: Iterable[tuple[str, Result]]) -> dict[str, Result]:
    """Each stage's latest result, cancellations aside (a cancelled visit changes nothing)."""
    latest: dict[str, Result] = {}
    for code, result in done_results:
        if result is not Result.CANCELLED:
            latest[code] = result
    return latest


def _not_passed(t: InspectionType, last: Result | None) -> str:
    if last is None:
        return f"{t.label} has not passed yet ({t.section})"
    return f"{t.label} has not passed yet: its last result was {last.label.lower()} ({t.section})"


def check_sequence(
    types: InspectionSequence | Sequence[InspectionType],
    done_results: Iterable[tuple[str, Result]],
    requested_type: str,
    exceptions: Iterable[SequenceException] = (),
) -> list[str]:
    """The earlier stages that have not passed, in words with their sections; empty when the
    requested inspection may go ahead (15.1.11(a))."""
    steps = _types(types)
    by_code = {t.code: t for t in steps}
    if requested_type not in by_code:
        known = ", ".join(by_code)
        raise ValidationError(
            "inspection type", f"'{requested_type}' is not a step of this sequence ({known})"
        )
    latest = latest_results(done_results)
    excused = {e.type_code for e in exceptions}
    out = []
    for code in by_code[requested_type].prerequisites:
        last = latest.get(code)
        if code in excused or (last is not None and last.passes):
            continue
        out.append(_not_passed(by_code[code], last))
    return out


class StageState(StrEnum):
    PASSED = "passed"
    EXCEPTED = "excepted"  # cleared by the inspector's exception
    REJECTED = "rejected"  # awaits re-inspection
    PARTIAL = "partial"
    READY = "ready"  # may be requested now
    WAITING = "waiting"  # an earlier stage has not passed

    @property
    def label(self) -> str:
        return {
            "passed": "Passed",
            "excepted": "Exception",
            "rejected": "Rejected: re-inspection",
            "partial": "Partial: re-inspection",
            "ready": "Next",
            "waiting": "Waiting",
        }[self.value]


@dataclass(frozen=True)
class StageStatus:
    type: InspectionType
    state: StageState
    last_result: Result | None = None
    waiting_for: tuple[str, ...] = ()  # messages naming the stages it waits for
    exception_reason: str = ""


def sequence_status(
    types: InspectionSequence | Sequence[InspectionType],
    done_results: Iterable[tuple[str, Result]],
    exceptions: Iterable[SequenceException] = (),
) -> list[StageStatus]:
    """Every stage with where it stands: the permit's Inspections tab and "what comes next"."""
    steps = _types(types)
    done = list(done_results)
    excepted = list(exceptions)
    latest = latest_results(done)
    reasons = {e.type_code: e.reason for e in excepted}
    out = []
    for t in steps:
        last = latest.get(t.code)
        if last is not None and last.passes and not t.recurring:
            out.append(StageStatus(t, StageState.PASSED, last))
            continue
        if t.code in reasons and not t.recurring:
            out.append(StageStatus(t, StageState.EXCEPTED, last, exception_reason=reasons[t.code]))
            continue
        missing = check_sequence(steps, done, t.code, excepted)
        if missing:
            out.append(StageStatus(t, StageState.WAITING, last, tuple(missing)))
        elif last is Result.REJECTED:
            out.append(StageStatus(t, StageState.REJECTED, last))
        elif last is Result.PARTIAL:
            out.append(StageStatus(t, StageState.PARTIAL, last))
        else:
            out.append(StageStatus(t, StageState.READY, last))
    return out


def next_types(
    types: InspectionSequence | Sequence[InspectionType],
    done_results: Iterable[tuple[str, Result]],
    exceptions: Iterable[SequenceException] = (),
) -> list[InspectionType]:
    """The stages that may be requested now (ready, or awaiting re-inspection)."""
    return [
        s.type
        for s in sequence_status(types, done_results, exceptions)
        if s.state in (StageState.READY, StageState.REJECTED, StageState.PARTIAL)
    ]


# --------------------------------------------------------------------------- due times


def _when(at: datetime) -> str:
    return short_timestamp(at)


@dataclass(frozen=True)
class DueTime:
    """A deadline to the minute. Give local times: the message shows them as they are."""

    label: str
    due_at: datetime
    section: str

    def late(self, at: datetime) -> bool:
        return at > self.due_at

    @property
    def message(self) -> str:
        return f"{self.label} by {_when(self.due_at)} ({self.section})"


ELECTRICAL_INSPECTION_HOURS = 24  # 15.1.76(c)
EXCAVATION_NOTICE_HOURS = 24  # §435-8B
BACKFILL_NOTICE_HOURS = 4  # §435-8F
MOVING_ARRIVAL_REPORT_DAYS = 1  # 15.1.9(d)
MOVING_REPAIR_DAYS = 10  # 15.1.9(d)
MOVING_EXCAVATION_FILL_HOURS = 48  # 15.1.9(f)(2)
RAZING_FILL_DAYS = 5  # 15.1.10


def electrical_rough_in_due(notice_at: datetime) -> DueTime:
    """15.1.76(c): the inspector inspects within 24 hours of the time the notice is received."""
    return DueTime(
        "Electrical rough-in inspection due",
        notice_at + timedelta(hours=ELECTRICAL_INSPECTION_HOURS),
        "15.1.76(c)",
    )


def inspection_due(itype: InspectionType, notice_at: datetime) -> DueTime | None:
    """When a requested inspection must be made, where the ordinance sets a time."""
    if itype.timing is Timing.WITHIN_24_HOURS_OF_NOTICE:
        due = electrical_rough_in_due(notice_at)
        return DueTime(f"{itype.label} inspection due", due.due_at, itype.timing.section)
    return None


@dataclass(frozen=True)
class NoticeCheck:
    """Whether the permittee's advance notice came in time (New Lisbon §435-8)."""

    what: str
    planned_at: datetime
    notice_at: datetime
    required_by: datetime | None  # None: no advance notice required (emergency)
    section: str

    @property
    def timely(self) -> bool:
        return self.required_by is None or self.notice_at <= self.required_by

    @property
    def message(self) -> str:
        if self.required_by is None:
            return f"{self.what}: emergency, no advance notice required ({self.section})"
        if self.timely:
            return (
                f"{self.what} at {_when(self.planned_at)}: notice given in time "
                f"(due by {_when(self.required_by)}, {self.section})"
            )
        short = self.notice_at - self.required_by
        return (
            f"{self.what} at {_when(self.planned_at)}: notice given {_when(self.notice_at)}, "
            f"{_duration(short)} late; it was due by {_when(self.required_by)} ({self.section})"
        )


def _duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return f"{hours} h {minutes} min"
    return f"{hours} h" if hours else f"{minutes} min"


def excavation_notice(
    planned_at: datetime, notice_at: datetime, *, emergency: bool = False
) -> NoticeCheck:
    """§435-8B: the Director of Public Works is notified 24 hours before the excavation starts,
    unless it is an emergency excavation (§435-8H)."""
    if emergency:
        return NoticeCheck("Excavation", planned_at, notice_at, None, "§435-8B, §435-8H")
    return NoticeCheck(
        "Excavation",
        planned_at,
        notice_at,
        planned_at - timedelta(hours=EXCAVATION_NOTICE_HOURS),
        "§435-8B",
    )


def backfill_notice(planned_at: datetime, notice_at: datetime) -> NoticeCheck:
    """§435-8F: at least four hours before backfilling and/or restoring the surface."""
    return NoticeCheck(
        "Backfilling",
        planned_at,
        notice_at,
        planned_at - timedelta(hours=BACKFILL_NOTICE_HOURS),
        "§435-8F",
    )


def advance_notice(
    itype: InspectionType, planned_at: datetime, notice_at: datetime, *, emergency: bool = False
) -> NoticeCheck | None:
    """The notice check of a type whose timing asks for advance notice, else None."""
    if itype.timing is Timing.NOTICE_24_HOURS_BEFORE:
        return excavation_notice(planned_at, notice_at, emergency=emergency)
    if itype.timing is Timing.NOTICE_4_HOURS_BEFORE:
        return backfill_notice(planned_at, notice_at)
    return None


def moving_arrival_report_due(arrived_on: date) -> Deadline:
    """15.1.9(d): the permittee reports the arrival within one day after it."""
    return Deadline(
        "moving_arrival_report",
        "Report the building's arrival",
        arrived_on + timedelta(days=MOVING_ARRIVAL_REPORT_DAYS),
        "15.1.9(d)",
    )


def moving_repair_due(streets_inspected_on: date) -> Deadline:
    """15.1.9(d): street damage found on the inspection is repaired within 10 days thereafter;
    then the governing body repairs it at the permittee's and sureties' cost."""
    return Deadline(
        "moving_street_repair",
        "Repair the streets damaged by the move",
        streets_inspected_on + timedelta(days=MOVING_REPAIR_DAYS),
        "15.1.9(d)",
    )


def moving_excavation_fill_due(moved_off_at: datetime) -> DueTime:
    """15.1.9(f)(2): the excavation left at the origin is filled (or made safe) within 48 hours."""
    return DueTime(
        "Fill the excavation left at the origin",
        moved_off_at + timedelta(hours=MOVING_EXCAVATION_FILL_HOURS),
        "15.1.9(f)(2)",
    )


def razing_fill_due(structure_removed_on: date) -> Deadline:
    """15.1.10: the excavation is filled with solid fill to lot grade within 5 days of the
    removal of the structure."""
    return Deadline(
        "razing_fill",
        "Fill the excavation to lot grade",
        structure_removed_on + timedelta(days=RAZING_FILL_DAYS),
        "15.1.10",
    )


# --------------------------------------------------------------------------- correction orders

CORRECTION_DAYS = 30  # 15.1.90(b)(1)
ELECTRICAL_CORRECTION_DAYS = 7  # 15.1.76(c)
STOP_WORK_SECTION = "15.1.90(b)(2)"


def correction_period(trade: str) -> tuple[int, str]:
    """Days allowed to correct a cited violation, and the section."""
    if trade == "electrical":
        return ELECTRICAL_CORRECTION_DAYS, "15.1.76(c)"
    return CORRECTION_DAYS, "15.1.90(b)(1)"


def correction_due(noticed_on: date, trade: str) -> date:
    days, _ = correction_period(trade)
    return noticed_on + timedelta(days=days)


@dataclass(frozen=True)
class CorrectionOrder:
    """A written order to correct violations found on an inspection, with its deadline."""

    noticed_on: date  # the day of the written notice
    due_on: date
    section: str
    corrected_on: date | None = None
    extended: bool = False
    reason: str = ""  # why the inspector set another date

    @property
    def is_open(self) -> bool:
        return self.corrected_on is None

    def overdue(self, today: date) -> bool:
        """Late from the day after the deadline, until it is corrected."""
        return self.is_open and today > self.due_on

    def days_overdue(self, today: date) -> int:
        """15.1.90(b)(3): each day a violation continues after the period is a separate offense."""
        return (today - self.due_on).days if self.overdue(today) else 0

    def status(self, today: date) -> str:
        if not self.is_open:
            assert self.corrected_on is not None
            return f"Corrected on {short_date(self.corrected_on)}"
        if self.overdue(today):
            n = self.days_overdue(today)
            return (
                f"Overdue since {short_date(self.due_on + timedelta(days=1))} "
                f"({n} day{'s' if n != 1 else ''}): a stop-work order may be served "
                f"({STOP_WORK_SECTION})"
            )
        return f"Correct by {short_date(self.due_on)} ({self.section})"


def check_correction_date(noticed_on: date, due_on: date) -> None:
    if due_on < noticed_on:
        raise ValidationError(
            "correct by",
            f"must not be before the written notice of {short_date(noticed_on)}",
        )


def correction_order(
    trade: str, noticed_on: date, due_on: date | None = None, reason: str = ""
) -> CorrectionOrder:
    """A new order: the ordinance's period unless the inspector sets another date; a date beyond
    the period is an extension (15.1.90(b)(1) "unless an extension of time is granted") and
    needs a reason."""
    days, section = correction_period(trade)
    standard = noticed_on + timedelta(days=days)
    if due_on is None:
        return CorrectionOrder(noticed_on, standard, section)
    check_correction_date(noticed_on, due_on)
    extended = due_on > standard
    if extended and not reason.strip():
        raise ValidationError(
            "reason",
            f"say why the time is extended beyond {days} days ({short_date(standard)}, {section})",
        )
    return CorrectionOrder(noticed_on, due_on, section, extended=extended, reason=reason.strip())


def extend_correction_order(order: CorrectionOrder, new_due: date, reason: str) -> CorrectionOrder:
    """The inspector grants more time: a later date, with the reason."""
    if not order.is_open:
        raise ValidationError("correct by", "the order is corrected already")
    check_correction_date(order.noticed_on, new_due)
    if new_due <= order.due_on:
        raise ValidationError("correct by", f"must be after {short_date(order.due_on)}")
    if not reason.strip():
        raise ValidationError("reason", "say why the time is extended")
    return CorrectionOrder(
        order.noticed_on, new_due, order.section, extended=True, reason=reason.strip()
    )


# --------------------------------------------------------------------------- recurring visits

EROSION_WINTER_VISITS = 2  # 15.2.9
# Not strftime("%B"): that follows the workstation's locale.
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip


def _last_of_february(year: int) -> date:
    return date(year, 2, calendar.monthrange(year, 2)[1])


@dataclass(frozen=True)
class ErosionPeriod:
    """One period of 15.2.9 with the visits due and made while the site was active in it."""

    label: str
    start: date
    end: date
    active_from: date  # the part of the period the site is active in
    active_to: date
    due: int
    done: int

    @property
    def shortfall(self) -> int:
        return max(0, self.due - self.done)

    def overdue(self, today: date) -> bool:
        """Visits missing after the period (or the site's active part of it) has ended."""
        return self.shortfall > 0 and today > self.active_to


def _erosion_period(day: date) -> tuple[str, date, date, tuple[tuple[date, date], ...]]:
    """The period `day` falls in: label, start, end, and its halves (winter only)."""
    if 3 <= day.month <= 10:
        start = date(day.year, day.month, 1)
        end = date(day.year, day.month, calendar.monthrange(day.year, day.month)[1])
        return f"{_MONTHS[day.month - 1]} {day.year}", start, end, ((start, end),)
    first = day.year if day.month >= 11 else day.year - 1
    start, end = date(first, 11, 1), _last_of_february(first + 1)
    halves = ((start, date(first, 12, 31)), (date(first + 1, 1, 1), end))
    label = f"Winter {first}–{str(first + 1)[-2:]} (Nov 1 – Feb {end.day})"
    return label, start, end, halves


def erosion_visits_due(
    active_from: date, active_to: date, done_visit_dates: Iterable[date]
) -> list[ErosionPeriod]:
    """15.2.9: at least once a month March 1 – October 31 and at least twice November 1 – end of
    February, for each period the site is active in. Visits on the same day count once."""
    if active_to < active_from:
        raise ValidationError("active to", "is before the start")
    visits = sorted({d for d in done_visit_dates if active_from <= d <= active_to})
    out = []
    day = active_from
    while day <= active_to:
        label, start, end, halves = _erosion_period(day)
        lo, hi = max(start, active_from), min(end, active_to)
        if len(halves) == 1:
            due = 1
        else:
            touched = sum(1 for a, b in halves if a <= hi and lo <= b)
            due = EROSION_WINTER_VISITS if (lo, hi) == (start, end) else touched
        done = sum(1 for v in visits if lo <= v <= hi)
        out.append(ErosionPeriod(label, start, end, lo, hi, due, done))
        day = end + timedelta(days=1)
    return out


@dataclass(frozen=True)
class GreaseYear:
    """15.1.57(c): the interceptor is inspected at least once a year; the permit runs to
    December 31 (15.1.57(e))."""

    year: int
    visits: tuple[date, ...]

    @property
    def due_by(self) -> date:
        return date(self.year, 12, 31)

    @property
    def done(self) -> bool:
        return bool(self.visits)

    def overdue(self, today: date) -> bool:
        return not self.done and today > self.due_by

    @property
    def message(self) -> str:
        if self.done:
            return f"{self.year}: inspected on {short_date(self.visits[0])} (15.1.57(c))"
        return f"{self.year}: annual inspection due by {short_date(self.due_by)} (15.1.57(c))"


def grease_inspection(year: int, visit_dates: Iterable[date]) -> GreaseYear:
    return GreaseYear(year, tuple(sorted({d for d in visit_dates if d.year == year})))


def grease_years(first_year: int, last_year: int, visit_dates: Iterable[date]) -> list[GreaseYear]:
    visits = list(visit_dates)
    return [grease_inspection(y, visits) for y in range(first_year, last_year + 1)]


# --------------------------------------------------------------------------- fees

REINSPECTION = "REINSPECTION"
FAIL_TO_CALL = "FAIL-TO-CALL"
ONE = Decimal(1)

# The same $50 re-inspection fee and $50/$100/$150 failure-to-call fees in each trade's schedule.
_FEE_SECTIONS = {
    "building": ("15.1.21(a)(12)", "15.1.21(a)(13)"),
    "erosion": ("15.1.21(a)(12)", "15.1.21(a)(13)"),
    "other": ("15.1.21(a)(12)", "15.1.21(a)(13)"),
    "hvac": ("15.1.21(d)(7)", "15.1.21(d)(8)"),
    "plumbing": ("15.1.56(a)(2)", "15.1.56(a)(3)"),
    "electrical": ("15.1.80(a)(2)", "15.1.80(a)(3)"),
}


@dataclass(frozen=True)
class Waiver:
    """The inspector waives a fee; the reason stays with the permit."""

    reason: str
    by: str = ""

    def __post_init__(self) -> None:
        if not self.reason.strip():
            raise ValidationError("waiver reason", "say why the fee is waived")


@dataclass(frozen=True)
class FeeDecision:
    """Which fee item applies; the fee engine prices it (desk.fees.engine.price)."""

    code: str
    why: str
    section: str
    occurrence: int | None = None
    waiver: Waiver | None = None

    @property
    def charged(self) -> bool:
        return self.waiver is None

    @property
    def quote_item(self) -> QuoteItem | None:
        """What to price, or None when waived."""
        if self.waiver is not None:
            return None
        if self.occurrence is not None:
            return QuoteItem(self.code, occurrence=self.occurrence)
        return QuoteItem(self.code, quantity=ONE)

    @property
    def message(self) -> str:
        if self.waiver is not None:
            return f"{self.why}: fee waived — {self.waiver.reason}"
        return self.why


def reinspection_fee(
    itype: InspectionType,
    earlier_results: Iterable[Result],
    waiver: Waiver | None = None,
) -> FeeDecision | None:
    """The REINSPECTION fee when this inspection repeats one that was rejected or passed only in
    part; None when it is not a re-inspection. `earlier_results`: the results of the earlier
    inspections of the same stage on this permit, oldest first."""
    last = None
    for r in earlier_results:
        if r is not Result.CANCELLED:
            last = r
    if last not in (Result.REJECTED, Result.PARTIAL):
        return None
    section = _FEE_SECTIONS.get(itype.trade, _FEE_SECTIONS["building"])[0]
    assert last is not None
    why = f"Re-inspection of {itype.label} after it was {last.label.lower()} ({section})"
    return FeeDecision(REINSPECTION, why, section, waiver=waiver)


def occurrence_words(occurrence: int) -> str:
    """The ordinance's wording: first, second, third and subsequent violations."""
    if occurrence < 1:
        raise ValidationError("occurrence", "must be 1 or more")
    words = {1: "first violation", 2: "second violation", 3: "third violation"}
    return words.get(occurrence, f"violation no. {occurrence} (third and subsequent rate)")


def failure_to_call_fee(
    itype: InspectionType, occurrence: int, waiver: Waiver | None = None
) -> FeeDecision:
    """The FAIL-TO-CALL fee: work covered before the inspection was called for. The occurrence
    is the contractor's count (desk.services.fees.failure_to_call_occurrence)."""
    words = occurrence_words(occurrence)
    section = _FEE_SECTIONS.get(itype.trade, _FEE_SECTIONS["building"])[1]
    why = f"Failure to call for the {itype.label} inspection, {words} ({section})"
    return FeeDecision(FAIL_TO_CALL, why, section, occurrence=occurrence, waiver=waiver)


# --------------------------------------------------------------------------- occupancy (15.1.13)

VACATE_DAYS = 10  # 15.1.13(b)(1)


def certificate_shortfalls(
    final_passed: bool, correction_orders: Iterable[CorrectionOrder], use: str
) -> list[str]:
    """What stands in the way of a certificate of occupancy (15.1.13(a)(1)): the final
    inspection passed, no violation left open, and the purpose of use stated."""
    out = []
    if not final_passed:
        out.append("The final inspection has not passed (15.1.13(a)(1))")
    for o in correction_orders:
        if o.is_open:
            out.append(
                f"The correction order of {short_date(o.noticed_on)} (correct by "
                f"{short_date(o.due_on)}) is still open: a certificate is issued only when no "
                "violation is found (15.1.13(a)(1))"
            )
    if not use.strip():
        out.append(
            "State the purpose for which the building is to be used; the certificate states it "
            "(15.1.13(a)(1))"
        )
    return out


def temporary_occupancy(granted_on: date, complete_by: date, safe_and_sanitary: bool) -> Deadline:
    """15.1.13(d): hardship occupancy before completion. The inspector first examines the
    premises (safe and sanitary) and sets the completion time, at most 120 days."""
    if not safe_and_sanitary:
        raise ValidationError(
            "safe and sanitary",
            "the inspector must first examine the premises and find them safe and sanitary "
            "(15.1.13(d))",
        )
    if complete_by < granted_on:
        raise ValidationError("complete by", "is before the day occupancy is permitted")
    latest = granted_on + timedelta(days=TEMPORARY_OCCUPANCY_MAX_DAYS)
    if complete_by > latest:
        raise ValidationError(
            "complete by",
            f"at most 120 days: {short_date(latest)} at the latest (15.1.13(d))",
        )
    return Deadline(
        "temporary_occupancy", "Temporary occupancy: completion due", complete_by, "15.1.13(d)"
    )


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


@dataclass(frozen=True)
class CertifiedUse:
    """What a certificate of occupancy states: the use, and the user of a non-residential
    building."""

    use: str
    user: str = ""
    residential: bool = True


def new_certificate_needed(
    current: CertifiedUse,
    use: str,
    user: str = "",
    *,
    vacated_or_damaged: bool = False,
) -> str | None:
    """Why a new certificate of occupancy is needed, or None when the current one still holds:
    a change of use (15.1.13(c)), of the user of a non-residential building (15.1.13(c)), or a
    building vacated or damaged so as to jeopardize safety or health (15.1.13(b)(2))."""
    if not _same(current.use, use):
        return (
            f"The use changes from '{current.use}' to '{use}': a new certificate of occupancy "
            "is needed (15.1.13(c))"
        )
    if not current.residential and user.strip() and not _same(current.user, user):
        return (
            f"The user of a non-residential building changes from '{current.user}' to "
            f"'{user}': a new certificate of occupancy is needed (15.1.13(c))"
        )
    if vacated_or_damaged:
        return (
            "Vacated or damaged so as to jeopardize public safety or health: a new certificate "
            "of occupancy is needed before it is used again (15.1.13(b)(2))"
        )
    return None


def vacate_due(notice_received_on: date) -> Deadline:
    """15.1.13(b)(1): use contrary to the code is discontinued; the person vacates within 10
    days after receiving the notice, or makes the building comply."""
    return Deadline(
        "vacate",
        "Vacate, or make the building comply",
        notice_received_on + timedelta(days=VACATE_DAYS),
        "15.1.13(b)(1)",
    )
