"""`permitdesk demo`: checklists for the recent permits of a demo database, in every state.

Called once at the end of db.demo.build_demo. Permits applied for in the last two years get
their kind's checklist (resources/checklists.toml): issued permits complete (some with an item
waived by the inspector with a reason, some with the fireplace not applicable), open
applications partly received, some with a survey more than a year old. Rows are planned in
memory with a seeded random.Random and written with Core executemany inserts, so a
100,000-permit demo stays fast (at most RECENT_LIMIT permits get a checklist).

Each row keeps who marked it and when, but no audit rows are written for them: the bulk loader
has already written every permit's history in time order (ids follow time, and the History tab
and tests rely on it), and these rows come after it.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import func, insert, select, text

from db import schema
from db.database import Database
from desk.domain.checklists import ItemKind, ItemState, permit_facts, template_for
from desk.domain.enums import NUMBERED_STATUSES, PermitStatus

RECENT_YEARS = 2
RECENT_LIMIT = 6_000  # the most recent permits; beyond that the demo only gets slower
WAIVER_REASONS = {
    "survey": "Survey on file from the 2023 addition; the footprint does not change",
    "plans": "Plans on file from the previous permit for the same structure",
    "plans_residential": "No fireplace or garage in this work",
    "": "Minor work sufficiently described in the application (15.1.7(c))",
}
NOTES = {
    "plumber.licence": lambda r: f"MP-{r.randint(220000, 259999)}",
    "electrician.licence": lambda r: f"EC-{r.randint(1100000, 1299999)}",
    "moving.route": lambda r: "W Silver Spring Dr, N Green Bay Rd, W Good Hope Rd",
    "moving.vote": lambda r: r.choice(("5-0", "4-1", "5-2", "6-1")),
    "solid_fill.trucks": lambda r: f"1 tri-axle dump, WI plate {r.randint(100000, 999999)}-P",
}
_OPEN_STATUSES = (PermitStatus.APPLIED, PermitStatus.IN_REVIEW, PermitStatus.APPROVED)


def _at(day: date, minutes: int) -> datetime:
    """An office-hours moment of `day` in UTC (9 a.m. Central is 14:00 or 15:00 UTC)."""
    return datetime.combine(day, time(15, 0), tzinfo=UTC) + timedelta(minutes=minutes)


def demo_checklists(database: Database, municipality: str, today: date, seed: int) -> str:
    """Write the checklists; return a sentence for the demo's summary."""
    rng = random.Random(seed * 7919 + 4)
    p, u, c = schema.permit, schema.app_user, schema.permit_checklist_item
    since = today - timedelta(days=365 * RECENT_YEARS)
    with database.engine.connect() as conn:
        users = dict(conn.execute(select(u.c.username, u.c.id)).tuples().all())
        permits = conn.execute(
            select(
                p.c.id,
                p.c.kind,
                p.c.status,
                p.c.applied_on,
                p.c.issued_on,
                p.c.permit_class,
                p.c.work_class,
                p.c.dwelling_units,
                p.c.valuation,
                p.c.floor_area_sqft,
            )
            .where(p.c.applied_on >= since)
            .order_by(p.c.applied_on.desc(), p.c.id.desc())
            .limit(RECENT_LIMIT)
        ).all()
        next_id = int(conn.execute(select(func.coalesce(func.max(c.c.id), 0))).scalar_one()) + 1
    clerk, inspector = users.get("clerk"), users.get("inspector")
    rows: list[dict[str, Any]] = []
    counts = {"complete": 0, "partly": 0, "waived": 0, "old survey": 0}
    for permit in reversed(permits):  # oldest first: ids and audit rows in time order
        template = template_for(municipality, permit.kind)
        if template is None or permit.applied_on is None:
            continue
        facts = permit_facts(SimpleNamespace(**permit._mapping))
        required = [i for i in template.items if i.applies(facts) is not False]
        numbered = permit.status in NUMBERED_STATUSES
        decided = permit.issued_on if numbered and permit.issued_on else today
        if numbered:
            scenario = "waived" if rng.random() < 0.2 else "complete"
        else:  # open, withdrawn or denied applications
            roll = rng.random()
            complete = 0.15 if permit.status in _OPEN_STATUSES else 0.0
            scenario = "complete" if roll < complete else "old survey" if roll < 0.5 else "partly"
            if not counts["old survey"] and template.item("survey.date") is not None:
                scenario = "old survey"  # at least one, however small the demo
        if scenario == "old survey" and template.item("survey.date") is None:
            scenario = "partly"
        counts[scenario] += 1
        received = len(required)
        if scenario == "partly":
            received = int(len(required) * rng.uniform(0.2, 0.85))
        waived_code = rng.choice(required).code if scenario == "waived" and required else None
        span = max((decided - permit.applied_on).days, 0)
        for n, item in enumerate(template.items):
            row: dict[str, Any] = {
                "id": next_id,
                "permit_id": permit.id,
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
            next_id += 1
            position = required.index(item) if item in required else -1
            if position >= 0 and (position < received or item.code == waived_code):
                day = permit.applied_on + timedelta(days=min(span, rng.randint(0, 10)))
                row["at"] = _at(day, n)
                row["by_user_id"] = clerk
                if item.code == waived_code:
                    row.update(
                        state=ItemState.WAIVED,
                        reason=WAIVER_REASONS.get(item.group, WAIVER_REASONS[""]),
                        by_user_id=inspector,
                    )
                elif item.code == "plans_residential.fireplace" and rng.random() < 0.4:
                    row["state"] = ItemState.NOT_APPLICABLE
                else:
                    row["state"] = ItemState.RECEIVED
                if row["state"] is ItemState.RECEIVED and item.kind is ItemKind.DATE:
                    if scenario == "old survey" and item.code == "survey.date":
                        row["value_date"] = today - timedelta(days=rng.randint(370, 520))
                    else:
                        row["value_date"] = min(
                            permit.applied_on - timedelta(days=rng.randint(5, 200)), decided
                        )
                if row["state"] is ItemState.RECEIVED and item.kind is ItemKind.TEXT:
                    note = NOTES.get(item.code)
                    row["value_text"] = note(rng) if note else "On file"
            rows.append(row)
    with database.engine.begin() as conn:
        for start in range(0, len(rows), 5_000):
            conn.execute(insert(c), rows[start : start + 5_000])
        if conn.dialect.name == "postgresql" and rows:
            conn.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence('permit_checklist_item', 'id'), "
                    "(SELECT MAX(id) FROM permit_checklist_item))"
                )
            )
    total = sum(counts.values())
    return (
        f" Checklists on the {total:,} most recent permits (applied for since "
        f"{since.isoformat()}): "
        f"{counts['complete']:,} complete, {counts['waived']:,} with an item waived, "
        f"{counts['partly']:,} partly received, {counts['old survey']:,} with a survey more "
        "than a year old."
    )
