"""A permit's History tab: the audit trail as a clerk reads it, one row per changed field."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import tzinfo
from decimal import Decimal, InvalidOperation

from desk.domain.checklists import ItemState
from desk.domain.enums import PartyRole, PermitClass, PermitStatus, WorkClass
from desk.domain.kinds import kind_label
from desk.domain.model import AuditEntry, FieldChange
from desk.domain.readmodels import HistoryReferences as References
from ui.presenters.formatting import (
    format_amount,
    format_date,
    format_timestamp,
    humanise_field,
    parse_iso_date,
)

COLUMNS: tuple[str, ...] = ("When", "Who", "What", "Field", "Old", "New")

# What a status change means, in the words of the register.
_STATUS_EVENTS = {
    PermitStatus.ISSUED: "Permit issued",
    PermitStatus.VOID: "Permit voided",
    PermitStatus.REVOKED: "Permit revoked",
    PermitStatus.COMPLETED: "Permit completed",
    PermitStatus.EXPIRED: "Permit expired",
    PermitStatus.WORK_STARTED: "Work started",
    PermitStatus.ON_HOLD: "Permit put on hold",
    PermitStatus.WITHDRAWN: "Application withdrawn",
    PermitStatus.DENIED: "Application denied",
    PermitStatus.APPROVED: "Application approved",
    PermitStatus.IN_REVIEW: "Application in review",
}
_ACTIONS = {"create": "created", "update": "changed", "delete": "deleted"}
_PARTY_ACTIONS = {"create": "added", "update": "changed", "delete": "removed"}
# Enum-valued fields and the enum that gives their label.
_ENUM_FIELDS: dict[str, type[PermitStatus | PermitClass | WorkClass | PartyRole | ItemState]] = {
    "status": PermitStatus,
    "state": ItemState,
    "permit_class": PermitClass,
    "work_class": WorkClass,
    "role": PartyRole,
}
_MONEY_FIELDS = frozenset({"valuation", "amount", "fee"})


@dataclass(frozen=True)
class HistoryRow:
    when: str
    who: str
    what: str
    field: str
    old: str
    new: str
    first_of_event: bool  # the first row of an audit event; later rows leave When/Who/What blank
    event: int = 0  # which audit event (0 = newest), for shading events alternately

    def cells(self) -> tuple[str, ...]:
        if self.first_of_event:
            return (self.when, self.who, self.what, self.field, self.old, self.new)
        return ("", "", "", self.field, self.old, self.new)


def _areas_text(value: str) -> str:
    """'{"porch": 120}' -> 'porch 120 sq ft' (areas by level, as the audit stores them)."""
    try:
        areas = json.loads(value)
    except ValueError:
        return value
    if not isinstance(areas, dict):
        return value
    return ", ".join(
        f"{level} {area:,} sq ft" if isinstance(area, int) else f"{level} {area}"
        for level, area in areas.items()
    )


def _change_of(entry: AuditEntry, name: str) -> FieldChange | None:
    return next((c for c in entry.changes if c.field == name), None)


def describe_event(entry: AuditEntry, references: References | None = None) -> str:
    """'Permit created', 'Permit issued', 'Contractor added', 'Parcel changed',
    'Checklist: three complete sets of plans…'."""
    if entry.entity == "permit_checklist_item":
        item = (references or References()).checklist_items.get(entry.entity_id)
        return f"Checklist: {item}" if item else "Checklist item changed"
    if entry.entity == "permit":
        if entry.action == "update":
            status = _change_of(entry, "status")
            if status is not None and status.new:
                try:
                    new = PermitStatus(status.new)
                except ValueError:
                    return "Permit changed"
                return _STATUS_EVENTS.get(new, f"Status changed to {new.label.lower()}")
            return "Permit changed"
        return f"Permit {_ACTIONS.get(entry.action, entry.action)}"
    if entry.entity == "permit_party":
        role = _change_of(entry, "role")
        value = (role.new or role.old) if role else None
        try:
            who = PartyRole(value).label if value else "Party"
        except ValueError:
            who = "Party"
        return f"{who} {_PARTY_ACTIONS.get(entry.action, entry.action)}"
    return f"{humanise_field(entry.entity)} {_ACTIONS.get(entry.action, entry.action)}"


class HistoryPresenter:
    def __init__(
        self,
        entries: Sequence[AuditEntry],
        municipality_key: str,
        *,
        references: References | None = None,
        tz: tzinfo | None = None,
    ) -> None:
        self.entries = list(entries)
        self.municipality_key = municipality_key
        self.references = references or References()
        self.tz = tz
        self.columns = COLUMNS
        self.rows = self._rows()

    def _hidden(self, entry: AuditEntry, change: FieldChange) -> bool:
        # A party link's or checklist item's permit is this permit: saying so on every row is
        # noise; so are the checklist item's text (in What), who and when (in Who and When).
        if entry.entity == "permit_party":
            return change.field == "permit_id"
        if entry.entity == "permit_checklist_item":
            return change.field in ("permit_id", "text", "code", "by_user_id", "at")
        return False

    @staticmethod
    def _opened_checklist(entries: Sequence[AuditEntry], i: int) -> int:
        """How many checklist items were created with entries[i], in one save (opening the
        checklist writes every item at once): they show as one row."""
        first = entries[i]
        n = 0
        while (
            i + n < len(entries)
            and entries[i + n].entity == "permit_checklist_item"
            and entries[i + n].action == "create"
            and entries[i + n].at == first.at
        ):
            n += 1
        return n

    def value_text(self, field_name: str, value: str | None) -> str:
        if value is None or value == "":
            return ""
        enum = _ENUM_FIELDS.get(field_name)
        if enum is not None:
            try:
                return enum(value).label
            except ValueError:
                return value
        if field_name == "kind":
            return kind_label(self.municipality_key, value)
        if field_name.endswith("_on") or field_name.endswith("_date"):
            day = parse_iso_date(value)
            return format_date(day) if day else value
        if field_name in _MONEY_FIELDS:
            try:
                return format_amount(Decimal(value))
            except InvalidOperation:
                return value
        if field_name.endswith("_id"):
            return self.references.name(field_name, value)
        if field_name == "areas":
            return _areas_text(value)
        if field_name.endswith("_sqft") or field_name == "dwelling_units":
            return f"{int(value):,}" if value.lstrip("-").isdigit() else value
        return value

    def _rows(self) -> list[HistoryRow]:
        rows: list[HistoryRow] = []
        skip_to = 0
        for event, entry in enumerate(self.entries):
            if event < skip_to:
                continue
            when = format_timestamp(entry.at, self.tz)
            opened = self._opened_checklist(self.entries, event)
            if opened > 1:
                skip_to = event + opened
                rows.append(
                    HistoryRow(
                        when,
                        entry.username,
                        "Checklist opened",
                        "Items",
                        "",
                        f"{opened}",
                        True,
                        event,
                    )
                )
                continue
            what = describe_event(entry, self.references)
            changes = [c for c in entry.changes if not self._hidden(entry, c)]
            if not changes:
                rows.append(HistoryRow(when, entry.username, what, "", "", "", True, event))
                continue
            for i, change in enumerate(changes):
                rows.append(
                    HistoryRow(
                        when=when,
                        who=entry.username,
                        what=what,
                        field=humanise_field(change.field),
                        old=self.value_text(change.field, change.old),
                        new=self.value_text(change.field, change.new),
                        first_of_event=i == 0,
                        event=event,
                    )
                )
        return rows

    @property
    def empty_text(self) -> str:
        return "No changes recorded for this permit."
