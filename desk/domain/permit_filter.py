"""What the permits list can be filtered by, and the saved searches built on it (no SQL here).

A `PermitFilter` is what the clerk chose on the filter bar (or a saved search chose for them);
db/queries.py turns it into SQL so that paging and the count stay right.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from desk.domain.enums import PermitStatus
from desk.domain.lifecycle import TRANSITIONS

S = PermitStatus

# Open: a status with a way out. Final statuses (completed/finaled, expired, revoked, withdrawn,
# denied, void) have none (desk.domain.lifecycle.TRANSITIONS).
OPEN_STATUSES: frozenset[PermitStatus] = frozenset(s for s, nxt in TRANSITIONS.items() if nxt)
# Applications not yet issued and still alive (issue_permit moves them to issued).
APPLICATION_STATUSES: frozenset[PermitStatus] = frozenset(
    {S.DRAFT, S.APPLIED, S.IN_REVIEW, S.APPROVED}
)
LAPSING_DAYS = 30  # the home's "Permits lapsing within 30 days"


@dataclass(frozen=True)
class PermitFilter:
    """Every condition must hold (AND); an empty field filters nothing."""

    statuses: frozenset[PermitStatus] = frozenset()
    kind: str = ""
    applied_from: date | None = None  # dates are inclusive at both ends
    applied_to: date | None = None
    issued_from: date | None = None
    issued_to: date | None = None
    # Issued the permit, or has one of its inspections assigned (the register has no
    # "inspector of the permit" field).
    inspector_id: int | None = None
    open_only: bool = False
    entered_by_me: bool = False  # the audit trail's creator of the application
    lapsing_days: int | None = None  # desk.services.lifecycle.lapsing_within, as the home

    @property
    def active(self) -> bool:
        return self != PermitFilter()

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "statuses": sorted(s.value for s in self.statuses),
            "kind": self.kind,
            "inspector_id": self.inspector_id,
            "open_only": self.open_only,
            "entered_by_me": self.entered_by_me,
            "lapsing_days": self.lapsing_days,
        }
        for name in ("applied_from", "applied_to", "issued_from", "issued_to"):
            value = getattr(self, name)
            data[name] = value.isoformat() if value else None
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PermitFilter:
        """From what to_json wrote; unknown statuses and bad dates are dropped, not fatal."""
        known = {s.value for s in PermitStatus}
        dates: dict[str, date | None] = {}
        for name in ("applied_from", "applied_to", "issued_from", "issued_to"):
            try:
                dates[name] = date.fromisoformat(data[name]) if data.get(name) else None
            except (TypeError, ValueError):
                dates[name] = None
        inspector = data.get("inspector_id")
        lapsing = data.get("lapsing_days")
        return cls(
            statuses=frozenset(PermitStatus(s) for s in data.get("statuses", ()) if s in known),
            kind=str(data.get("kind") or ""),
            inspector_id=inspector if isinstance(inspector, int) else None,
            open_only=bool(data.get("open_only")),
            entered_by_me=bool(data.get("entered_by_me")),
            lapsing_days=lapsing if isinstance(lapsing, int) else None,
            **dates,
        )

    def without_extras(self) -> PermitFilter:
        """Only what the filter bar's widgets show (no 'entered by me', no 'lapsing')."""
        return replace(self, entered_by_me=False, lapsing_days=None)


NO_FILTER = PermitFilter()


@dataclass(frozen=True)
class PermitWhere:
    """A filter made concrete for one user and one moment: SQL filters by this."""

    filter: PermitFilter = NO_FILTER
    entered_by_id: int | None = None  # the signed-in user, when filter.entered_by_me
    permit_ids: frozenset[int] | None = None  # the lapsing permits, when filter.lapsing_days


@dataclass(frozen=True)
class SavedSearch:
    name: str
    text: str = ""
    filter: PermitFilter = field(default_factory=PermitFilter)
    built_in: bool = False


MY_OPEN_APPLICATIONS = "My open applications"
LAPSING = "Lapsing in 30 days"

BUILT_IN_SEARCHES: tuple[SavedSearch, ...] = (
    SavedSearch(
        MY_OPEN_APPLICATIONS,
        filter=PermitFilter(statuses=APPLICATION_STATUSES, entered_by_me=True),
        built_in=True,
    ),
    SavedSearch(LAPSING, filter=PermitFilter(lapsing_days=LAPSING_DAYS), built_in=True),
)


def searches_to_json(searches: list[SavedSearch]) -> str:
    rows = [
        {"name": s.name, "text": s.text, "filter": json.loads(s.filter.to_json())} for s in searches
    ]
    return json.dumps(rows)


def searches_from_json(text: str) -> list[SavedSearch]:
    """The user's own searches; what cannot be read is skipped (a hand-edited settings file)."""
    try:
        data = json.loads(text) if text else []
    except ValueError:
        return []
    out = []
    for item in data if isinstance(data, list) else []:
        if not isinstance(item, dict) or not str(item.get("name") or "").strip():
            continue
        raw = item.get("filter")
        out.append(
            SavedSearch(
                str(item["name"]).strip(),
                str(item.get("text") or ""),
                PermitFilter.from_data(raw if isinstance(raw, dict) else {}),
            )
        )
    return out
