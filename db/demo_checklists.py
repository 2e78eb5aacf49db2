"""`permitdesk demo`: checklists for the recent permits of a demo database, in every state.

db.demo plans them with the permits, in memory, for the permits applied for in the last two
years (at most RECENT_LIMIT, the most recent): every kind with a template gets its kind's
checklist (resources/checklists.toml), so a 100,000-permit demo stays fast.

- Issued permits have complete checklists: every item received, not applicable, or (one in
  five, where the inspector would) one waived by the inspector with the reason (15.1.7(c)),
  never an open item.
- Open applications are complete (ready to issue), or partly received (issuance refused, the
  app lists what is missing), or complete but for a survey more than a year old (15.1.7(b)(2):
  the issue dialog's "more than one year old" shortfall). Withdrawn and denied ones stopped
  part way.
- Items that do not apply are marked not applicable once the checklist is settled (a fireplace
  not built, a bond the City Engineer does not require, the seal group of a small building).

Each row keeps who marked it and when. A waiver is the inspector's decision and has its audit
row (written by db.demo in time order with the permit's history); the clerk's ticks have none.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from types import SimpleNamespace
from typing import Any

from desk.domain.checklists import (
    ItemKind,
    ItemState,
    TemplateItem,
    permit_facts,
    template_for,
)
from desk.domain.enums import NUMBERED_STATUSES, PermitStatus, WorkClass

RECENT_YEARS = 2
RECENT_LIMIT = 6_000  # the most recent permits; beyond that the demo only gets slower
# What the Building Inspector waives, and why. 15.1.7(c): plans, data, specifications and survey
# need not be submitted for minor alterations and repairs sufficiently described in the
# application. Otherwise: plans already on file, and New Lisbon's bond and notice.
MINOR_WORK = (WorkClass.ALTERATION, WorkClass.REPAIR)
MINOR_WAIVERS = {
    "survey": "Minor alteration; the footprint does not change and the work is sufficiently "
    "described in the application (15.1.7(c))",
    "plans": "Minor alteration sufficiently described in the application (15.1.7(c))",
    "plans_residential": "Minor alteration sufficiently described in the application (15.1.7(c))",
    "drainage": "Grades unchanged; the work is sufficiently described in the application "
    "(15.1.7(c))",
}
WAIVERS = {
    "plans": "Plans on file from the previous permit for the same structure",
    "plans_residential": "Construction details on file from the previous permit for the "
    "same structure",
    "street_opening.bond": "Annual bond of the utility on file with the Clerk-Treasurer "
    "(§435-7, Bond)",
    "nl_curb.notice": "Applied five days ahead; the Director of Public Works accepted the "
    "shorter notice (§435-6)",
}


def waiver_reason(item: TemplateItem, work_class: WorkClass) -> str | None:
    """Why the inspector would waive this item on this work; None: it is not waived."""
    if item.code in WAIVERS:
        return WAIVERS[item.code]
    if work_class in MINOR_WORK and item.group in MINOR_WAIVERS:
        return MINOR_WAIVERS[item.group]
    return WAIVERS.get(item.group)


NOTES: dict[str, Callable[[random.Random], str]] = {
    "plumber.licence": lambda r: f"MP-{r.randint(220000, 259999)}",
    "electrician.licence": lambda r: f"EC-{r.randint(1100000, 1299999)}",
    "moving.route": lambda r: "W Silver Spring Dr, N Green Bay Ave, W Good Hope Rd; 2 days",
    "moving.vote": lambda r: r.choice(("5-0", "4-1", "5-2", "6-1")),
    "solid_fill.trucks": lambda r: f"1 tri-axle dump, WI plate {r.randint(100000, 999999)}-P",
}
# Items often not applicable to the work at hand, and how often (they have no condition, so the
# app lets the clerk mark them so).
NOT_APPLICABLE: dict[str, float] = {
    "plans_residential.fireplace": 0.6,
    "plans_residential.garage": 0.3,
    "survey.h": 0.25,  # no watercourse or drainage ditch on the lot
    "solid_fill.equipment": 0.3,
    "street_opening.bond": 0.7,  # the City Engineer does not ask for one (§435-7, Bond)
    "street_opening.patches": 0.2,
}
_OPEN = (PermitStatus.DRAFT, PermitStatus.APPLIED, PermitStatus.IN_REVIEW)
SCENARIOS = ("complete", "waived", "partly", "old survey")


def moment(day: date, minutes: int) -> datetime:
    """An office-hours moment of `day` in UTC (9 a.m. Central is 14:00 or 15:00 UTC)."""
    return datetime.combine(day, time(15, 0), tzinfo=UTC) + timedelta(minutes=minutes)


@dataclass
class Planned:
    """One permit's checklist rows; `waived` is the row the inspector waived, whose moment is
    the step db.demo times with the permit's other steps."""

    rows: list[dict[str, Any]]
    scenario: str
    waived: dict[str, Any] | None = None


@dataclass
class ChecklistPlanner:
    municipality: str
    today: date
    seed: int
    next_id: int
    clerk: int | None
    inspector: int | None
    rng: random.Random = field(init=False)
    counts: dict[str, int] = field(init=False)
    not_applicable: int = 0

    def __post_init__(self) -> None:
        # Its own random stream: the permits do not change when the checklists do.
        self.rng = random.Random(self.seed * 7919 + 4)
        self.counts = dict.fromkeys(SCENARIOS, 0)

    def plan(self, permit: dict[str, Any], *, decided: date, old_survey: bool) -> Planned | None:
        """The checklist of one permit (a row of the permit table as planned), received up to
        `decided` (the issue date, or today)."""
        template = template_for(self.municipality, permit["kind"])
        applied_on: date | None = permit["applied_on"]
        if template is None or applied_on is None:
            return None
        rng = self.rng
        facts = permit_facts(SimpleNamespace(**permit))
        applies = {i.code: i.applies(facts) for i in template.items}
        required = [i for i in template.items if applies[i.code] is not False]
        status: PermitStatus = permit["status"]
        has_survey = template.item("survey.date") is not None
        roll = rng.random()
        if status in NUMBERED_STATUSES:
            scenario = "waived" if roll < 0.2 else "complete"
        elif status is PermitStatus.APPROVED:  # reviewed: ready, or a waiver decided
            scenario = "waived" if roll < 0.3 else "complete" if roll < 0.8 else "partly"
        elif status in _OPEN:
            scenario = "complete" if roll < 0.15 else "old survey" if roll < 0.3 else "partly"
        else:  # withdrawn or denied part way
            scenario = "old survey" if roll < 0.2 else "partly"
        if old_survey:
            scenario = "old survey"
        if scenario == "old survey" and not has_survey:
            scenario = "partly"
        waivable = [i for i in required if waiver_reason(i, permit["work_class"]) is not None]
        if scenario == "waived" and not waivable:
            scenario = "complete"
        self.counts[scenario] += 1
        settled = scenario != "partly"
        received = len(required)
        if scenario == "partly":
            share = (
                rng.uniform(0.0, 0.4) if status is PermitStatus.DRAFT else rng.uniform(0.2, 0.85)
            )
            received = int(len(required) * share)
        waived_item = rng.choice(waivable) if scenario == "waived" else None
        span = max((decided - applied_on).days, 0)
        rows: list[dict[str, Any]] = []
        waived: dict[str, Any] | None = None
        position = {item.code: n for n, item in enumerate(required)}
        for n, item in enumerate(template.items):
            row: dict[str, Any] = {
                "id": self.next_id,
                "permit_id": permit["id"],
                "code": item.code,
                "text": item.text,
                "section": item.section,
                "state": ItemState.OPEN,
                "value_date": None,
                "value_text": "",
                "reason": "",
                "by_user_id": None,
                "at": None,
            }
            self.next_id += 1
            rows.append(row)
            at = position.get(item.code)
            if item is waived_item:
                row.update(  # `at` is the moment of the waiver step (db.demo)
                    state=ItemState.WAIVED,
                    reason=waiver_reason(item, permit["work_class"]),
                    by_user_id=self.inspector,
                )
                waived = row
                continue
            if at is None:  # does not apply to this permit
                if not settled:
                    continue
                row["state"] = ItemState.NOT_APPLICABLE
                self.not_applicable += 1
            elif at >= received:
                continue
            elif rng.random() < NOT_APPLICABLE.get(item.code, 0.0):
                row["state"] = ItemState.NOT_APPLICABLE
                self.not_applicable += 1
            else:
                row["state"] = ItemState.RECEIVED
            day = applied_on + timedelta(days=min(span, rng.randint(0, 10)))
            row["at"] = moment(day, n)
            row["by_user_id"] = self.clerk
            if row["state"] is not ItemState.RECEIVED:
                continue
            if item.kind is ItemKind.DATE:
                if scenario == "old survey" and item.code == "survey.date":
                    # 15.1.7(b)(2): more than a year before issuance, which cannot be today.
                    row["value_date"] = self.today - timedelta(days=rng.randint(370, 520))
                else:
                    row["value_date"] = min(
                        applied_on - timedelta(days=rng.randint(5, 200)), decided
                    )
            elif item.kind is ItemKind.TEXT:
                note = NOTES.get(item.code)
                row["value_text"] = note(rng) if note else "On file"
        return Planned(rows, scenario, waived)

    def summary(self, since: date) -> str:
        c = self.counts
        total = sum(c.values())
        return (
            f" Checklists on the {total:,} most recent permits (applied for since "
            f"{since.isoformat()}): {c['complete']:,} complete, {c['waived']:,} with an item "
            f"waived, {c['partly']:,} partly received"
            + (
                f", {c['old survey']:,} with a survey more than a year old"
                if c["old survey"]
                else ""
            )
            + f"; {self.not_applicable:,} items not applicable."
        )
